//! Sorting more fixed-size rows keyed by a hash than memory holds ([`HashSort`]): rows gather
//! in memory; past a limit they go to 256 bucket files by the top byte of their hash, and
//! each bucket is sorted on its own at the end. Buckets come out in hash order, so the whole
//! stream is sorted by hash while only one bucket (a 256th of the rows) is in memory at a
//! time. Hashes spread evenly over the buckets: no sample is needed to cut them.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

/// A row [`HashSort`] sorts: ordered with its hash first, and written in `BYTES` bytes.
pub trait HashedRow: Copy + Ord + Send {
    const BYTES: usize;
    /// The hash the rows are sorted by first: its top byte is the row's bucket.
    fn hash(&self) -> u64;
    /// Writes the row into `out` (`BYTES` long).
    fn encode(&self, out: &mut [u8]);
    /// Reads a row `encode` wrote.
    fn decode(b: &[u8]) -> Self;
}

/// Rows kept in memory before the first spill (about 80 MB).
const IN_MEMORY: usize = 2_000_000;
const BUCKETS: usize = 256;

/// Rows being gathered, to be read back sorted.
pub struct HashSort<R: HashedRow> {
    rows: Vec<R>,
    dir: PathBuf,
    buckets: Vec<BufWriter<File>>,
    limit: usize,
}

impl<R: HashedRow> HashSort<R> {
    /// Spill files, when needed, go into `dir` (created then, removed by [`HashSort::sorted`]).
    pub fn new(dir: &Path) -> HashSort<R> {
        HashSort::with_limit(dir, IN_MEMORY)
    }

    /// As [`HashSort::new`], spilling past `limit` rows (tests use a small one).
    pub fn with_limit(dir: &Path, limit: usize) -> HashSort<R> {
        HashSort {
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

impl<R: HashedRow> Drop for HashSort<R> {
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
    use crate::export::PosRow;

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
        let mut spill = HashSort::with_limit(&dir, limit);
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
