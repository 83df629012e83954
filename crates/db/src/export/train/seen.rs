//! The positions a training export has written (`--unique`), by their 64-bit hash, in 7 to 8
//! bytes a position: a 1,000,000-game export writes some 94 M distinct positions, and a
//! `HashSet<u64>` (9 bytes a slot at up to 7/8 full, a power of two of slots, the old table
//! and the new both held while it grows) took it to a peak of 1.98 GB.
//!
//! The top 16 bits of a hash choose one of 65,536 tables, which then hold the other 48 bits
//! (6 bytes) in open addressing with linear probing. Zobrist hashes are uniform, so the
//! stored bits index their table as they are. A table is made of pages of 170 slots (1020
//! bytes), and grows by a sixth of its pages (at least one) when it is 85% full, alone, so
//! that growing never holds two copies of the whole set: the tables stay 70% to 85% full,
//! 0.66 to 0.8 GB for 94 M positions. The pages a table leaves when it grows go to the next
//! table that grows: tables of many sizes, grown one after the other, left the allocator's
//! pages of each size half used, and the export's peak at 1.1 to 1.2 GB.
//!
//! [`Seen::insert_all`] takes the hashes of many records at once, sorted by table, so that
//! each table is reached once for all of its hashes instead of once each, and the tables are
//! shared out among the cores: a hash's answer depends only on the hashes before it in the
//! same table, which stay in their order.

use rayon::prelude::*;

const TABLES: usize = 1 << 16;
const SLOT: usize = 6;
const PAGE_SLOTS: usize = 170;
const PAGE_BYTES: usize = PAGE_SLOTS * SLOT;
/// The stored value of an empty slot; the remainder 0 itself is remembered apart.
const EMPTY: u64 = 0;
/// The runs of tables [`Seen::insert_all`] shares out among the cores, each with its own
/// spare pages.
const PARTS: usize = 64;
const PER_PART: usize = TABLES / PARTS;
/// Hashes whose first slots [`Seen::insert_all`] reads before inserting them.
const AHEAD: usize = 16;

type Page = Box<[u8; PAGE_BYTES]>;

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
    /// `cap` slots of 6 little-endian bytes, [`PAGE_SLOTS`] a page.
    pages: Vec<Page>,
    len: usize,
    zero: bool,
}

fn slot(page: &[u8; PAGE_BYTES], k: usize) -> u64 {
    let s = &page[k * SLOT..(k + 1) * SLOT];
    u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], 0, 0])
}

impl Table {
    fn cap(&self) -> usize {
        self.pages.len() * PAGE_SLOTS
    }

    fn get(&self, i: usize) -> u64 {
        slot(&self.pages[i / PAGE_SLOTS], i % PAGE_SLOTS)
    }

    fn put(&mut self, i: usize, v: u64) {
        let k = i % PAGE_SLOTS;
        self.pages[i / PAGE_SLOTS][k * SLOT..(k + 1) * SLOT]
            .copy_from_slice(&v.to_le_bytes()[..SLOT]);
    }

    /// The slot to look at first for the 48-bit remainder `v`: its place in the table's
    /// range, scaled (the bits are uniform, so no hashing is needed).
    fn home(&self, v: u64) -> usize {
        ((u128::from(v) * self.cap() as u128) >> 48) as usize
    }

    /// The first byte of the slot [`Table::insert_rest`] looks at first for `rest`, read
    /// only to bring it into the cache.
    fn peek(&self, rest: u64) -> u8 {
        if self.pages.is_empty() {
            return 0;
        }
        let i = self.home(rest);
        self.pages[i / PAGE_SLOTS][i % PAGE_SLOTS * SLOT]
    }

    /// Inserts the low 48 bits of a hash; whether they were new.
    fn insert_rest(&mut self, rest: u64, spare: &mut Vec<Page>) -> bool {
        if rest == 0 {
            return !std::mem::replace(&mut self.zero, true);
        }
        if (self.len + 1) * 20 > self.cap() * 17 {
            self.grow(spare);
        }
        let cap = self.cap();
        let mut i = self.home(rest);
        loop {
            match self.get(i) {
                EMPTY => {
                    self.put(i, rest);
                    self.len += 1;
                    return true;
                }
                x if x == rest => return false,
                _ => i = if i + 1 == cap { 0 } else { i + 1 },
            }
        }
    }

    fn grow(&mut self, spare: &mut Vec<Page>) {
        let pages = self.pages.len() + (self.pages.len() / 6).max(1);
        let fresh: Vec<Page> = (0..pages)
            .map(|_| match spare.pop() {
                Some(mut p) => {
                    p.fill(0);
                    p
                }
                None => Box::new([0; PAGE_BYTES]),
            })
            .collect();
        let old = std::mem::replace(&mut self.pages, fresh);
        let cap = self.cap();
        for page in &old {
            for k in 0..PAGE_SLOTS {
                let v = slot(page, k);
                if v == EMPTY {
                    continue;
                }
                let mut i = self.home(v);
                while self.get(i) != EMPTY {
                    i = if i + 1 == cap { 0 } else { i + 1 };
                }
                self.put(i, v);
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
                    // The slots the next hashes look at first, read together: their cache
                    // misses overlap instead of coming one after the other (a set of
                    // 94 M positions is far larger than any cache).
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
            .map(|t| t.len + usize::from(t.zero))
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
