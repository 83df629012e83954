//! One block of position postings: entries sorted by (key, game), as many as fit in
//! [`BLOCK_BYTES`], stored column by column, each column bit-packed at the width its largest
//! value needs.
//!
//! ```text
//! varint n, u8 key width, u8 game width, u8 move width,
//! keys:  n × key width bits   (key − previous key; the first is key − the row's first_key = 0)
//! games: n × game width bits  (game − the segment's first game)
//! moves: n × move width bits  (move_code + 1 of the move played next, 0: the game ends)
//! ```
//! Bits are packed least significant first, each column starting on a byte boundary.

use crate::store::codec::{get_varint, put_varint};

/// The most a block's data holds: a block row then fills one 4 KB SQLite page.
pub const BLOCK_BYTES: usize = 4000;

/// One posting: a position (its key) reached by `game`, and the move played from it
/// ([`move_code`] + 1; 0: the game ended there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    pub key: u64,
    pub game: i64,
    pub next: u16,
}

/// A move in 14 bits: origin × 81 + destination (+ 6561 promoting) on the board,
/// 13122 + kind × 81 + destination for a drop.
pub fn move_code(mv: kifudex_shogi::Move) -> u16 {
    use kifudex_shogi::Move;
    match mv {
        Move::Board { from, to, promote } => {
            (from.index() * 81 + to.index() + if promote { 6561 } else { 0 }) as u16
        }
        Move::Drop { kind, to } => (13122 + kind.index() * 81 + to.index()) as u16,
    }
}

/// The move of a [`move_code`].
pub fn code_move(code: u16) -> Option<kifudex_shogi::Move> {
    use kifudex_shogi::{Move, PieceKind, Square};
    let c = code as usize;
    if c < 13122 {
        let (promote, c) = (c >= 6561, c % 6561);
        Some(Move::Board {
            from: Square::from_index(c / 81)?,
            to: Square::from_index(c % 81)?,
            promote,
        })
    } else {
        let c = c - 13122;
        Some(Move::Drop {
            kind: PieceKind::from_index(c / 81)?,
            to: Square::from_index(c % 81)?,
        })
    }
}

/// Bytes a block of `n` entries takes at these widths.
pub fn encoded_len(n: usize, widths: [u8; 3]) -> usize {
    let varint = if n < 128 { 1 } else { 2 };
    varint
        + 3
        + widths
            .iter()
            .map(|&w| (n * w as usize).div_ceil(8))
            .sum::<usize>()
}

pub fn width(max: u64) -> u8 {
    (64 - max.leading_zeros()) as u8
}

/// Reads the `i`th value of a column of `width`-bit values (0 past the end of the data).
#[inline(always)]
fn get(column: &[u8], i: usize, width: u8) -> u64 {
    if width == 0 {
        return 0;
    }
    let bit = i * width as usize;
    let byte = bit / 8;
    let word = match column.get(byte..byte + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().expect("8 bytes")),
        None => {
            let mut buf = [0u8; 8];
            let end = (byte + 8).min(column.len());
            if byte < end {
                buf[..end - byte].copy_from_slice(&column[byte..end]);
            }
            u64::from_le_bytes(buf)
        }
    };
    (word >> (bit % 8)) & ((1u64 << width) - 1)
}

/// Encodes `entries` (sorted by key, then game; all games ≥ `base`) as one block.
pub fn encode(entries: &[Entry], base: i64) -> Vec<u8> {
    let first = entries.first().map_or(0, |e| e.key);
    let (mut mk, mut mg, mut mm) = (0u64, 0u64, 0u64);
    let mut prev = first;
    for e in entries {
        mk = mk.max(e.key - prev);
        prev = e.key;
        mg = mg.max((e.game - base) as u64);
        mm = mm.max(e.next as u64);
    }
    let widths = [width(mk), width(mg), width(mm)];
    let len = encoded_len(entries.len(), widths);
    // Eight bytes of slack: every value is or-ed in with one unaligned 64-bit word.
    let mut out = Vec::with_capacity(len + 8);
    put_varint(&mut out, entries.len() as u64);
    out.extend_from_slice(&widths);
    let mut at = out.len();
    out.resize(len + 8, 0);
    let mut prev = first;
    at = put_column(
        &mut out,
        at,
        widths[0],
        entries.iter().map(|e| {
            let d = e.key - prev;
            prev = e.key;
            d
        }),
    );
    at = put_column(
        &mut out,
        at,
        widths[1],
        entries.iter().map(|e| (e.game - base) as u64),
    );
    at = put_column(
        &mut out,
        at,
        widths[2],
        entries.iter().map(|e| e.next as u64),
    );
    debug_assert_eq!(at, len);
    out.truncate(len);
    out
}

/// Packs `values` of `width` bits from byte `at` of `out` (zeroed, with 8 bytes to spare
/// past the column); returns where the next column starts.
fn put_column(out: &mut [u8], at: usize, width: u8, values: impl Iterator<Item = u64>) -> usize {
    if width == 0 {
        return at;
    }
    let mut bit = at * 8;
    for v in values {
        // A value is at most 40 bits and starts at most 7 bits into its first byte.
        let byte = bit / 8;
        let word: &mut [u8; 8] = (&mut out[byte..byte + 8]).try_into().expect("8 bytes");
        *word = (u64::from_le_bytes(*word) | v << (bit % 8)).to_le_bytes();
        bit += width as usize;
    }
    bit.div_ceil(8)
}

/// A block read back: its columns, decoded on demand.
pub struct Block<'a> {
    n: usize,
    widths: [u8; 3],
    columns: [&'a [u8]; 3],
}

impl<'a> Block<'a> {
    /// Reads a block's layout; `None` when the bytes are not a block.
    pub fn parse(mut data: &'a [u8]) -> Option<Block<'a>> {
        let n = get_varint(&mut data)? as usize;
        if n > 1 << 20 || data.len() < 3 {
            return None;
        }
        let widths = [data[0], data[1], data[2]];
        if widths.iter().any(|&w| w > 48) {
            return None;
        }
        data = &data[3..];
        let mut columns: [&[u8]; 3] = [&[]; 3];
        for (c, &w) in columns.iter_mut().zip(&widths) {
            let len = (n * w as usize).div_ceil(8);
            if data.len() < len {
                return None;
            }
            let (col, rest) = data.split_at(len);
            *c = col;
            data = rest;
        }
        Some(Block { n, widths, columns })
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.n
    }

    /// Every entry, given the block's first key and the segment's first game.
    pub fn entries(&self, first_key: u64, base: i64) -> impl Iterator<Item = Entry> + '_ {
        let mut key = first_key;
        (0..self.n).map(move |i| {
            key = key.wrapping_add(get(self.columns[0], i, self.widths[0]));
            self.entry(i, key, base)
        })
    }

    /// The entries whose key is `key`.
    pub fn find(&self, first_key: u64, key: u64, base: i64) -> Vec<Entry> {
        let mut out = Vec::new();
        self.find_each(first_key, key, base, |e| {
            out.push(e);
            true
        });
        out
    }

    /// Calls `f` with each entry whose key is `key`, in order, while it returns true;
    /// returns false when `f` stopped it.
    pub fn find_each(
        &self,
        first_key: u64,
        key: u64,
        base: i64,
        mut f: impl FnMut(Entry) -> bool,
    ) -> bool {
        let mut k = first_key;
        for i in 0..self.n {
            k = k.wrapping_add(get(self.columns[0], i, self.widths[0]));
            if k == key {
                if !f(self.entry(i, k, base)) {
                    return false;
                }
            } else if k > key {
                break;
            }
        }
        true
    }

    /// [`Block::find_each`] for the entries whose game `next_from` takes (it gives the
    /// smallest game taken that is its argument or more). When every entry of the block has
    /// the key (a position many games reach fills blocks of its own) and `sparse` says few
    /// games are taken, the games taken are looked up by bisection in the sorted game column
    /// instead of each entry being tested.
    pub fn find_each_taken(
        &self,
        first_key: u64,
        key: u64,
        base: i64,
        sparse: bool,
        next_from: impl Fn(i64) -> Option<i64>,
        mut f: impl FnMut(Entry) -> bool,
    ) -> bool {
        if !(sparse && first_key == key && self.widths[0] == 0) {
            return self.find_each(first_key, key, base, |e| {
                next_from(e.game) != Some(e.game) || f(e)
            });
        }
        let game = |i: usize| base + get(self.columns[1], i, self.widths[1]) as i64;
        let n = self.n;
        let mut i = 0;
        while i < n {
            let g = game(i);
            let Some(want) = next_from(g) else {
                break;
            };
            if want == g {
                // Every entry of this game (a position reached again in one game).
                while i < n && game(i) == g {
                    if !f(self.entry(i, key, base)) {
                        return false;
                    }
                    i += 1;
                }
                continue;
            }
            // The first entry at `want` or after, past `i`.
            let (mut lo, mut hi) = (i + 1, n);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if game(mid) < want {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            i = lo;
        }
        true
    }

    #[inline]
    fn entry(&self, i: usize, key: u64, base: i64) -> Entry {
        Entry {
            key,
            game: base + get(self.columns[1], i, self.widths[1]) as i64,
            next: get(self.columns[2], i, self.widths[2]) as u16,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Block, Entry, code_move, encode, encoded_len, move_code};
    use kifudex_shogi::{Move, PieceKind, Square};

    #[test]
    fn a_block_reads_back_every_entry_and_finds_a_key() {
        let mut entries = Vec::new();
        let mut key = 1_000_000u64;
        for i in 0..400i64 {
            key += (i as u64 * 7919) % 5000;
            entries.push(Entry {
                key,
                game: 100 + (i * 31) % 997,
                next: (i * 13 % 13690) as u16,
            });
        }
        entries.sort();
        let data = encode(&entries, 100);
        assert_eq!(data.len(), encoded_len(400, [data[2], data[3], data[4]]));
        let block = Block::parse(&data).unwrap();
        assert_eq!(block.len(), 400);
        let back: Vec<Entry> = block.entries(entries[0].key, 100).collect();
        assert_eq!(back, entries);
        let k = entries[200].key;
        let want: Vec<Entry> = entries.iter().filter(|e| e.key == k).copied().collect();
        assert!(!want.is_empty());
        assert_eq!(block.find(entries[0].key, k, 100), want);
        assert_eq!(block.find(entries[0].key, k + 1, 100), Vec::new());
        // Cut short, it is no block.
        assert!(Block::parse(&data[..data.len() - 1]).is_none());
        assert!(Block::parse(&[]).is_none());
    }

    /// The entries of a key whose games a set takes, found by bisection in a block of that key
    /// alone (a sparse set) and by testing each entry (a dense one, or a block of several keys):
    /// the same as a brute force, in order, repeated games included; and `f` stops the scan.
    #[test]
    fn a_block_finds_the_entries_of_the_games_a_set_takes() {
        use crate::store::GameSet;
        let key = 77_777u64;
        let mut one_key = Vec::new();
        for i in 0..1500i64 {
            let game = 10 + i * 3;
            one_key.push(Entry {
                key,
                game,
                next: (i % 50) as u16,
            });
            // Some games reach the position twice.
            if i % 97 == 0 {
                one_key.push(Entry { key, game, next: 7 });
            }
        }
        one_key.sort();
        let mut mixed = one_key.clone();
        mixed.push(Entry {
            key: key - 5,
            game: 12,
            next: 1,
        });
        mixed.push(Entry {
            key: key + 9,
            game: 13,
            next: 2,
        });
        mixed.sort();
        let sparse = GameSet::from_ids((0..5000).map(|i| 10 + i * 91).chain([10, 4507, 4508]));
        let dense = GameSet::from_ids((0..4600).filter(|g| g % 3 != 0));
        assert!(sparse.is_sparse() && !dense.is_sparse());
        for entries in [&one_key, &mixed] {
            let data = encode(entries, 5);
            let block = Block::parse(&data).unwrap();
            let first = entries[0].key;
            for (set, is_sparse) in [(&sparse, true), (&dense, false), (&sparse, false)] {
                let want: Vec<Entry> = entries
                    .iter()
                    .filter(|e| e.key == key && set.contains(e.game))
                    .copied()
                    .collect();
                assert!(want.len() > 10, "{}", want.len());
                // The entries found while `f` goes on up to `most` of them, and whether all were.
                let taken = |most: usize| {
                    let mut got = Vec::new();
                    let all = block.find_each_taken(
                        first,
                        key,
                        5,
                        is_sparse,
                        |g| set.next_from(g),
                        |e| {
                            got.push(e);
                            got.len() < most
                        },
                    );
                    (all, got)
                };
                assert_eq!(taken(usize::MAX), (true, want.clone()));
                assert_eq!(taken(3), (false, want[..3].to_vec()));
            }
        }
    }

    #[test]
    fn a_block_packs_each_column_least_significant_bit_first_from_a_byte_boundary() {
        let entries = [
            Entry {
                key: 10,
                game: 5,
                next: 3,
            },
            Entry {
                key: 13,
                game: 6,
                next: 0,
            },
        ];
        // n = 2; widths 2 (key deltas 0, 3), 1 (games 0, 1), 2 (moves 3, 0); then the columns.
        assert_eq!(encode(&entries, 5), [2, 2, 1, 2, 0b1100, 0b10, 0b0011]);
    }

    #[test]
    fn a_block_holds_40_bit_key_steps_and_an_empty_column() {
        let mut entries = Vec::new();
        let mut key = 0u64;
        for i in 0..300u64 {
            // Steps up to the widest a key can take, every move code 0 (a width of 0 bits).
            key += if i % 7 == 0 {
                (1 << 40) - 1
            } else {
                i * 1_000_003 % (1 << 33)
            };
            entries.push(Entry {
                key,
                game: 7 + (i as i64 * 40_503) % 16_000_000,
                next: 0,
            });
        }
        entries.sort();
        let data = encode(&entries, 7);
        // 300 needs a two-byte count.
        assert_eq!(&data[2..5], &[40, 24, 0]);
        assert_eq!(data.len(), encoded_len(300, [40, 24, 0]));
        let back: Vec<Entry> = Block::parse(&data)
            .unwrap()
            .entries(entries[0].key, 7)
            .collect();
        assert_eq!(back, entries);
    }

    #[test]
    fn every_move_has_its_own_14_bit_code() {
        let mut seen = std::collections::HashSet::new();
        for from in Square::all() {
            for to in Square::all() {
                for promote in [false, true] {
                    let mv = Move::Board { from, to, promote };
                    assert_eq!(code_move(move_code(mv)), Some(mv));
                    assert!(seen.insert(move_code(mv)));
                }
            }
        }
        for kind in PieceKind::HAND {
            for to in Square::all() {
                let mv = Move::Drop { kind, to };
                assert_eq!(code_move(move_code(mv)), Some(mv));
                assert!(seen.insert(move_code(mv)));
            }
        }
        assert_eq!(seen.len(), 81 * 81 * 2 + 7 * 81);
        assert!(seen.iter().all(|&c| c < 1 << 14));
    }
}
