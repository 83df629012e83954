//! Sorting more fixed-size rows than memory holds: rows gather in memory; past a limit they go
//! to 256 bucket files by the top byte of their hash, and each bucket is sorted on its own at
//! the end. Buckets come out in hash order, so the whole stream is sorted by hash while only
//! one bucket (a 256th of the rows) is in memory at a time.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

/// One position of one game: what `positions.parquet` is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PosRow {
    /// The position's hash: board, hands and side to move.
    pub hash: u64,
    pub game: i64,
    pub ply: u32,
    /// The hands' part of `hash`: `hash ^ hand_hash` is the board's hash (board and side
    /// to move), 0 when both hands are empty.
    pub hand_hash: u64,
    /// The move played from it ([`kifudex_shogi::Move::to_u16`]), 0 at the end of the game.
    pub next: u16,
    /// 0 unknown, 1 sente won, 2 gote won, 3 draw.
    pub result: u8,
    /// YYYYMMDD as a number, 0 when unknown.
    pub date: u32,
}

/// A row the spill sorts: ordered with its hash first, and written in `BYTES` bytes.
pub trait SpillRow: Copy + Ord + Send {
    const BYTES: usize;
    /// The hash the rows are sorted by first: its top byte is the row's bucket.
    fn hash(&self) -> u64;
    /// Writes the row into `out` (`BYTES` long).
    fn encode(&self, out: &mut [u8]);
    /// Reads a row `encode` wrote.
    fn decode(b: &[u8]) -> Self;
}

impl SpillRow for PosRow {
    const BYTES: usize = 8 + 8 + 4 + 8 + 2 + 1 + 4;

    fn hash(&self) -> u64 {
        self.hash
    }

    fn encode(&self, out: &mut [u8]) {
        out[0..8].copy_from_slice(&self.hash.to_le_bytes());
        out[8..16].copy_from_slice(&self.game.to_le_bytes());
        out[16..20].copy_from_slice(&self.ply.to_le_bytes());
        out[20..28].copy_from_slice(&self.hand_hash.to_le_bytes());
        out[28..30].copy_from_slice(&self.next.to_le_bytes());
        out[30] = self.result;
        out[31..35].copy_from_slice(&self.date.to_le_bytes());
    }

    fn decode(b: &[u8]) -> PosRow {
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        PosRow {
            hash: u64_at(0),
            game: u64_at(8) as i64,
            ply: u32::from_le_bytes(b[16..20].try_into().expect("4 bytes")),
            hand_hash: u64_at(20),
            next: u16::from_le_bytes([b[28], b[29]]),
            result: b[30],
            date: u32::from_le_bytes(b[31..35].try_into().expect("4 bytes")),
        }
    }
}

/// Rows kept in memory before the first spill (about 80 MB).
const IN_MEMORY: usize = 2_000_000;
const BUCKETS: usize = 256;

/// Rows being gathered, to be read back sorted.
pub struct Spill<R: SpillRow = PosRow> {
    rows: Vec<R>,
    dir: PathBuf,
    buckets: Vec<BufWriter<File>>,
    limit: usize,
}

impl<R: SpillRow> Spill<R> {
    /// Spill files, when needed, go into `dir` (created then, removed by [`Spill::sorted`]).
    pub fn new(dir: &Path) -> Spill<R> {
        Spill::with_limit(dir, IN_MEMORY)
    }

    /// As [`Spill::new`], spilling past `limit` rows (tests use a small one).
    pub fn with_limit(dir: &Path, limit: usize) -> Spill<R> {
        Spill {
            rows: Vec::new(),
            dir: dir.to_path_buf(),
            buckets: Vec::new(),
            limit: limit.max(1),
        }
    }

    pub fn push(&mut self, row: R) -> std::io::Result<()> {
        self.rows.push(row);
        if self.rows.len() >= self.limit {
            self.spill()?;
        }
        Ok(())
    }

    fn bucket_path(&self, i: usize) -> PathBuf {
        self.dir.join(format!("bucket-{i:03}"))
    }

    fn spill(&mut self) -> std::io::Result<()> {
        if self.buckets.is_empty() {
            std::fs::create_dir_all(&self.dir)?;
            for i in 0..BUCKETS {
                let f = File::create(self.bucket_path(i))?;
                self.buckets.push(BufWriter::with_capacity(64 * 1024, f));
            }
        }
        let mut buf = vec![0u8; R::BYTES];
        for row in self.rows.drain(..) {
            row.encode(&mut buf);
            self.buckets[(row.hash() >> 56) as usize].write_all(&buf)?;
        }
        Ok(())
    }

    /// Calls `each` with the rows sorted by (hash, game, ply), a run of rows at a time (runs
    /// break only between hashes' buckets). Removes the spill files.
    pub fn sorted(
        mut self,
        mut each: impl FnMut(&[R]) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        if self.buckets.is_empty() {
            self.rows.par_sort_unstable();
            return each(&self.rows);
        }
        self.spill()?;
        for mut b in std::mem::take(&mut self.buckets) {
            b.flush()?;
        }
        // One bucket at a time, in buffers reused from one to the next.
        let mut rows = std::mem::take(&mut self.rows);
        let mut bytes = Vec::new();
        let result = (|| {
            for i in 0..BUCKETS {
                let path = self.bucket_path(i);
                bytes.clear();
                File::open(&path)?.read_to_end(&mut bytes)?;
                std::fs::remove_file(&path)?;
                rows.clear();
                rows.extend(bytes.chunks_exact(R::BYTES).map(R::decode));
                rows.par_sort_unstable();
                each(&rows)?;
            }
            Ok(())
        })();
        let _ = std::fs::remove_dir_all(&self.dir);
        result
    }
}

impl<R: SpillRow> Drop for Spill<R> {
    fn drop(&mut self) {
        if !self.buckets.is_empty() {
            self.buckets.clear();
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of a few games, several sharing hashes (as openings do), in game order.
    fn rows() -> Vec<PosRow> {
        let mut out = Vec::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for game in 1..=200i64 {
            for ply in 0..60u32 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // The first plies of every game are shared, later ones mostly not.
                let hash = if ply < 4 { (ply as u64) << 58 | 7 } else { x };
                out.push(PosRow {
                    hash,
                    game,
                    ply,
                    hand_hash: x & 0xff,
                    next: ply as u16 + 1,
                    result: (game % 4) as u8,
                    date: 20_200_101 + game as u32,
                });
            }
        }
        out
    }

    fn sorted_by(limit: usize, name: &str) -> Vec<PosRow> {
        let dir = std::env::temp_dir().join(format!("kifudex-spill-{}-{name}", std::process::id()));
        let mut spill = Spill::with_limit(&dir, limit);
        for r in rows() {
            spill.push(r).unwrap();
        }
        let mut out = Vec::new();
        spill
            .sorted(|run| {
                out.extend_from_slice(run);
                Ok(())
            })
            .unwrap();
        assert!(!dir.exists(), "the spill files are removed");
        out
    }

    #[test]
    fn rows_come_back_sorted_by_hash_then_game_then_ply() {
        let mut expected = rows();
        expected.sort_by_key(|r| (r.hash, r.game, r.ply));
        // In memory, and through the bucket files (spilled every 100 rows).
        assert_eq!(sorted_by(usize::MAX, "memory"), expected);
        assert_eq!(sorted_by(100, "files"), expected);
    }

    #[test]
    fn a_row_reads_back_as_written() {
        let r = rows()[77];
        let mut b = [0u8; PosRow::BYTES];
        r.encode(&mut b);
        assert_eq!(PosRow::decode(&b), r);
    }
}
