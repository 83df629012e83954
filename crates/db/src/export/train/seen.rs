//! The positions a training export has written (`--unique`), by their 64-bit hash, in 7 to 8
//! bytes a position: a 1,000,000-game export writes some 94 M distinct positions, and a
//! `HashSet<u64>` (9 bytes a slot at up to 7/8 full, a power of two of slots, the old table
//! and the new both held while it grows) took it to a peak of 1.98 GB.
//!
//! The top 16 bits of a hash choose one of 65,536 tables, which then hold the other 48 bits
//! (6 bytes). Zobrist hashes are uniform, so the stored bits choose their place in the table
//! as they are. A table is made of buckets of one cache line, 10 slots and their count: a
//! hash is looked for in its bucket and, only when that one is full, in the next ones, so
//! that an insert is mostly one cache miss (open addressing slot by slot, at this load,
//! read some ten slots over two or three lines). A table is made of pages of 16 buckets
//! (1 KB), and grows by a sixth of its pages (at least one) when it is 88% full, alone, so
//! that growing never holds two copies of the whole set: the tables stay 75% to 88% full,
//! 0.68 to 0.8 GB for 94 M positions. The pages a table leaves when it grows go to the next
//! table that grows: tables of many sizes, grown one after the other, left the allocator's
//! pages of each size half used, and the export's peak at 1.1 to 1.2 GB.
//!
//! [`Seen::insert_all`] takes the hashes of many records at once, sorted by table, so that
//! each table is reached once for all of its hashes instead of once each, and the tables are
//! shared out among the cores: a hash's answer depends only on the hashes before it in the
//! same table, which stay in their order.

use rayon::prelude::*;

const TABLES: usize = 1 << 16;
/// Bytes a stored hash.
const SLOT: usize = 6;
/// Hashes a bucket: 60 of its 64 bytes; the last byte counts them.
const BUCKET_SLOTS: usize = 10;
const PAGE_BUCKETS: usize = 16;
/// The runs of tables [`Seen::insert_all`] shares out among the cores, each with its own
/// spare pages.
const PARTS: usize = 64;
const PER_PART: usize = TABLES / PARTS;
/// Hashes whose buckets [`Seen::insert_all`] reads before inserting them.
const AHEAD: usize = 64;

/// One cache line: up to [`BUCKET_SLOTS`] hashes' low 48 bits (little-endian), filled in
/// order, and their number in the last byte.
#[derive(Copy, Clone)]
#[repr(align(64))]
struct Bucket([u8; 64]);

const EMPTY_BUCKET: Bucket = Bucket([0; 64]);

impl Bucket {
    fn used(&self) -> usize {
        usize::from(self.0[63]).min(BUCKET_SLOTS)
    }

    fn full(&self) -> bool {
        self.used() == BUCKET_SLOTS
    }

    /// The `k`-th hash: 8 bytes read (the last slot's run into the unused bytes 60–61),
    /// the 6 of the slot kept.
    fn slot(&self, k: usize) -> u64 {
        let at = k * SLOT;
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.0[at..at + 8]);
        u64::from_le_bytes(b) & REST
    }

    fn holds(&self, rest: u64) -> bool {
        (0..self.used()).any(|k| self.slot(k) == rest)
    }

    /// Adds `rest` (the bucket is not full).
    fn push(&mut self, rest: u64) {
        let k = self.used();
        self.0[k * SLOT..(k + 1) * SLOT].copy_from_slice(&rest.to_le_bytes()[..SLOT]);
        self.0[63] += 1;
    }
}

type Page = Box<[Bucket; PAGE_BUCKETS]>;

/// A set of position hashes.
pub struct Seen {
    parts: Vec<Part>,
}

/// A run of tables and the pages they have left.
#[derive(Default)]
struct Part {
    tables: Vec<Table>,
    spare: Vec<Page>,
}

#[derive(Default)]
struct Table {
    /// The buckets, [`PAGE_BUCKETS`] a page.
    pages: Vec<Page>,
    len: usize,
}

impl Table {
    fn buckets(&self) -> usize {
        self.pages.len() * PAGE_BUCKETS
    }

    fn bucket(&mut self, j: usize) -> &mut Bucket {
        &mut self.pages[j / PAGE_BUCKETS][j % PAGE_BUCKETS]
    }

    /// The bucket to look in first for the 48-bit remainder `v`: its place in the table's
    /// range, scaled (the bits are uniform, so no hashing is needed).
    fn home(&self, v: u64) -> usize {
        ((u128::from(v) * self.buckets() as u128) >> 48) as usize
    }

    /// A byte of the bucket [`Table::insert_rest`] looks in first for `rest`, read only to
    /// bring it into the cache.
    fn peek(&self, rest: u64) -> u8 {
        if self.pages.is_empty() {
            return 0;
        }
        let j = self.home(rest);
        self.pages[j / PAGE_BUCKETS][j % PAGE_BUCKETS].0[63]
    }

    /// Inserts the low 48 bits of a hash; whether they were new.
    fn insert_rest(&mut self, rest: u64, spare: &mut Vec<Page>) -> bool {
        if (self.len + 1) * 100 > self.buckets() * BUCKET_SLOTS * 88 {
            self.grow(spare);
        }
        let n = self.buckets();
        let mut j = self.home(rest);
        // Nothing is ever taken out: a bucket that is not full ends the search.
        loop {
            let b = self.bucket(j);
            if b.holds(rest) {
                return false;
            }
            if !b.full() {
                b.push(rest);
                self.len += 1;
                return true;
            }
            j = if j + 1 == n { 0 } else { j + 1 };
        }
    }

    fn grow(&mut self, spare: &mut Vec<Page>) {
        let pages = self.pages.len() + (self.pages.len() / 6).max(1);
        let fresh: Vec<Page> = (0..pages)
            .map(|_| match spare.pop() {
                Some(mut p) => {
                    p.fill(EMPTY_BUCKET);
                    p
                }
                None => Box::new([EMPTY_BUCKET; PAGE_BUCKETS]),
            })
            .collect();
        let old = std::mem::replace(&mut self.pages, fresh);
        let n = self.buckets();
        // The hashes are all different: each goes into the first bucket with room.
        for bucket in old.iter().flat_map(|p| p.iter()) {
            for k in 0..bucket.used() {
                let v = bucket.slot(k);
                let mut j = self.home(v);
                while self.bucket(j).full() {
                    j = if j + 1 == n { 0 } else { j + 1 };
                }
                self.bucket(j).push(v);
            }
        }
        spare.extend(old);
    }
}

impl Default for Seen {
    fn default() -> Self {
        Seen {
            parts: (0..PARTS)
                .map(|_| Part {
                    tables: (0..PER_PART).map(|_| Table::default()).collect(),
                    spare: Vec::new(),
                })
                .collect(),
        }
    }
}

impl Seen {
    /// Adds `hash`; whether it was not in the set before.
    #[cfg(test)]
    pub fn insert(&mut self, hash: u64) -> bool {
        let t = table_of(hash);
        let part = &mut self.parts[t / PER_PART];
        part.tables[t % PER_PART].insert_rest(hash & REST, &mut part.spare)
    }

    /// Adds `hashes` in their order; for each, whether it was not in the set before (nor
    /// earlier in `hashes`), as [`Seen::insert`] one after the other would say.
    pub fn insert_all(&mut self, hashes: &[u64]) -> Vec<bool> {
        // Sorted by table, stably (a counting sort): each hash with its place in `hashes`.
        let mut start = vec![0usize; TABLES + 1];
        for &h in hashes {
            start[table_of(h) + 1] += 1;
        }
        for t in 0..TABLES {
            start[t + 1] += start[t];
        }
        let mut next = start.clone();
        let mut sorted = vec![(0u64, 0usize); hashes.len()];
        for (i, &h) in hashes.iter().enumerate() {
            let t = table_of(h);
            sorted[next[t]] = (h, i);
            next[t] += 1;
        }
        drop(next);
        let repeated: Vec<Vec<usize>> = self
            .parts
            .par_iter_mut()
            .enumerate()
            .map(|(n, part)| {
                let first = n * PER_PART;
                let mut repeated = Vec::new();
                let run = &sorted[start[first]..start[first + PER_PART]];
                for ahead in run.chunks(AHEAD) {
                    // The buckets the next hashes look in first, read together: their cache
                    // misses overlap instead of coming one after the other (a set of
                    // 94 M positions is far larger than any cache). At 94 M hashes, 28
                    // CPU-s one at a time, 22 sixteen at a time, 20 by 64.
                    let mut touched = 0u8;
                    for &(h, _) in ahead {
                        touched ^= part.tables[table_of(h) - first].peek(h & REST);
                    }
                    std::hint::black_box(touched);
                    for &(h, i) in ahead {
                        let table = &mut part.tables[table_of(h) - first];
                        if !table.insert_rest(h & REST, &mut part.spare) {
                            repeated.push(i);
                        }
                    }
                }
                repeated
            })
            .collect();
        let mut fresh = vec![true; hashes.len()];
        for i in repeated.into_iter().flatten() {
            fresh[i] = false;
        }
        fresh
    }
}

/// The 48 bits a table holds.
const REST: u64 = (1 << 48) - 1;

/// The table of a hash: its top 16 bits.
fn table_of(hash: u64) -> usize {
    (hash >> 48) as usize
}

#[cfg(test)]
impl Seen {
    /// The number of hashes in the set.
    pub fn len(&self) -> usize {
        self.parts
            .iter()
            .flat_map(|p| &p.tables)
            .map(|t| t.len)
            .sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// A stream of hashes with repeats, clustered in few tables (so that tables grow many
    /// times), and the edge remainders 0 and 2^48 - 1.
    fn hashes() -> Vec<u64> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut out = Vec::new();
        for i in 0..200_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let h = (x & 0x0003_ffff_ffff_ffff) | ((i % 3) << 48);
            out.push(h);
            if i % 5 == 0 {
                out.push(out[(i / 2) as usize]);
            }
        }
        out.extend([
            0,
            0,
            7 << 48,
            (1 << 48) - 1,
            (1 << 48) - 1,
            u64::MAX,
            u64::MAX,
        ]);
        out
    }

    #[test]
    fn answers_as_a_hash_set_does() {
        let mut seen = Seen::default();
        let mut want = HashSet::new();
        for h in hashes() {
            assert_eq!(seen.insert(h), want.insert(h), "{h:#x}");
        }
        assert_eq!(seen.len(), want.len());
        for h in hashes() {
            assert!(!seen.insert(h));
        }
        assert_eq!(seen.len(), want.len());
    }

    /// Batches of every size (one hash, a few, many; boundaries anywhere, repeats within a
    /// batch and across batches) answer as a `HashSet` asked one hash at a time.
    #[test]
    fn batches_answer_as_one_hash_at_a_time() {
        let all = hashes();
        let mut seen = Seen::default();
        let mut want = HashSet::new();
        let mut at = 0;
        for (round, size) in [1usize, 0, 7, 1000, 3, 50_000, 1, 100_000]
            .iter()
            .cycle()
            .enumerate()
        {
            if at >= all.len() {
                break;
            }
            // The first rounds go again over what was inserted: repeats across batches.
            let from = if round % 3 == 2 { at / 2 } else { at };
            let end = (at + size).min(all.len());
            let batch: Vec<u64> = all[from..end].to_vec();
            let answers = seen.insert_all(&batch);
            let expected: Vec<bool> = batch.iter().map(|&h| want.insert(h)).collect();
            assert_eq!(answers, expected, "round {round}");
            at = end;
        }
        assert_eq!(seen.len(), want.len());
        // A batch that is one hash repeated: only its first is new.
        let answers = seen.insert_all(&[5 << 48, 5 << 48, 0, 5 << 48]);
        assert_eq!(answers, [true, false, false, false]);
    }

    #[test]
    fn a_new_set_is_empty_and_zero_is_a_hash_like_any() {
        let mut seen = Seen::default();
        assert!(seen.is_empty());
        assert!(seen.insert(0));
        assert!(!seen.insert(0));
        assert!(seen.insert(1 << 48));
        assert!(!seen.insert(1 << 48));
        assert_eq!(seen.len(), 2);
    }
}
