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
    /// The board alone.
    pub board_hash: u64,
    /// The move played from it ([`crate::shogi::Move::to_u16`]), 0 at the end of the game.
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
        out[20..28].copy_from_slice(&self.board_hash.to_le_bytes());
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
            board_hash: u64_at(20),
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
