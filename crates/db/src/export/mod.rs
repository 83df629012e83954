//! Games out of kifudex: as record files ([`files`]), as Parquet for DuckDB and Spark
//! ([`parquet`]) and as a YaneuraOu book ([`book`]). Games come from the database (asked of
//! `store`, never through SQL here) or straight from record files ([`ExportGame::from_record`]).
//!
//! Every file is written under a temporary name in its folder and renamed when complete (the
//! files of a one-file-a-game export into a hidden folder renamed when all are complete:
//! [`stage`]), so that a failed or killed export leaves no half-written file under a final
//! name.

pub mod book;
pub mod files;
pub mod parquet;
mod pool;
pub mod stage;
pub mod train;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::sort::HashedRow;
use crate::store::{GameRow, Store, StoreError};
use kifudex_evals::stored::StoredEval;
use kifudex_notation::{Format, Record};
use kifudex_shogi::Position;

/// What can go wrong writing games out.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{0} exists: give --force to write into it")]
    Exists(PathBuf),
    #[error("no game matches: nothing written")]
    NothingSelected,
    #[error("cannot write {0}: {1}")]
    Io(PathBuf, std::io::Error),
    #[error("cannot write Parquet {0}: {1}")]
    Parquet(PathBuf, String),
    #[error("game {0} is in the selection but not in the database")]
    Missing(i64),
    #[error("game {0}: move {1} cannot be played: {2}")]
    BadMove(i64, usize, String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("a thread writing the export stopped")]
    Stopped,
}

/// A game to write out: where it was read, its row (the columns the database holds) and
/// its record.
#[derive(Debug, Clone)]
pub struct ExportGame {
    pub id: i64,
    /// The path it was first read from.
    pub file: String,
    pub game_index: i64,
    /// Every path it was read from.
    pub sources: Vec<String>,
    pub row: GameRow,
    pub record: Record,
    /// Its evaluations in ply order: the database's (those `show --evals` gives), or the
    /// record's engine comments for a game read from a file.
    pub evals: Vec<StoredEval>,
}

impl ExportGame {
    /// A game read from a file (no database): `id` numbers it within the export.
    pub fn from_record(
        id: i64,
        file: &str,
        game_index: usize,
        format: Format,
        record: Record,
    ) -> ExportGame {
        let row = GameRow::new(&record, format);
        // The row holds them read from the record, in their stored form.
        let evals = row
            .evals
            .as_ref()
            .and_then(|e| kifudex_evals::stored::decode(&e.evals).ok())
            .unwrap_or_default();
        ExportGame {
            id,
            file: file.to_string(),
            game_index: game_index as i64,
            sources: vec![file.to_string()],
            row,
            record,
            evals,
        }
    }

    /// The game with this id in the database.
    pub fn load(store: &Store, id: i64) -> Result<ExportGame, ExportError> {
        let g = store.game(id)?.ok_or(ExportError::Missing(id))?;
        let format = Format::from_name(&g.format).unwrap_or(Format::Kif);
        let evals = store.game_evals(id)?.map_or_else(Vec::new, |e| e.evals);
        Ok(ExportGame {
            id,
            // The columns only: the opening is not recognised again.
            row: GameRow::from_record(g.record.clone(), format, false),
            file: g.file,
            game_index: g.game_index,
            sources: g.sources,
            record: g.record,
            evals,
        })
    }

    /// The positions of the main line: the start and the position after each move, with the
    /// move played from each.
    pub fn positions(&self, mut each: impl FnMut(PosRow)) -> Result<(), ExportError> {
        // The same bytes as the position index's (0 unknown, 1 sente, 2 gote, 3 draw).
        let result = crate::store::postings::result_byte(self.row.result);
        let date = self.row.date.map_or(0, |d| d.code());
        let mut pos: Position = self.record.start.clone();
        let moves = &self.record.main.moves;
        for ply in 0..=moves.len() {
            let next = moves.get(ply).map(|m| m.mv);
            each(PosRow {
                hash: pos.hash(),
                game: self.id,
                ply: ply as u32,
                hand_hash: pos.hash() ^ pos.board_hash(),
                next: next.map_or(0, |m| m.to_u16()),
                result,
                date,
            });
            if let Some(mv) = next {
                pos.play(mv)
                    .map_err(|e| ExportError::BadMove(self.id, ply + 1, e.to_string()))?;
            }
        }
        Ok(())
    }
}

/// The output folder: created; one that exists (and holds anything) is refused unless
/// `force`.
pub fn prepare_dir(dir: &Path, force: bool) -> Result<(), ExportError> {
    let io = |e| ExportError::Io(dir.to_path_buf(), e);
    if dir.exists() {
        let empty = std::fs::read_dir(dir).map_err(io)?.next().is_none();
        if !empty && !force {
            return Err(ExportError::Exists(dir.to_path_buf()));
        }
    }
    std::fs::create_dir_all(dir).map_err(io)
}

/// The temporary name of a file being written: hidden, beside the final one.
pub(crate) fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.part"))
}

/// A file being written under a temporary name beside its final one.
pub struct Pending {
    tmp: PathBuf,
    path: PathBuf,
    out: Option<BufWriter<File>>,
}

impl Pending {
    pub fn create(path: &Path) -> Result<Pending, ExportError> {
        let tmp = temporary(path);
        let f = File::create(&tmp).map_err(|e| ExportError::Io(tmp.clone(), e))?;
        Ok(Pending {
            tmp,
            path: path.to_path_buf(),
            out: Some(BufWriter::with_capacity(64 * 1024, f)),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` as the file `path`, through its temporary name: one write, unbuffered
    /// (a record file is written whole).
    pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
        let tmp = temporary(path);
        let mut f = File::create(&tmp).map_err(|e| ExportError::Io(tmp.clone(), e))?;
        let written = f
            .write_all(bytes)
            .map_err(|e| ExportError::Io(tmp.clone(), e));
        drop(f);
        if let Err(e) = written.and_then(|()| {
            std::fs::rename(&tmp, path).map_err(|e| ExportError::Io(path.to_path_buf(), e))
        }) {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        Ok(())
    }

    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.out.as_mut().expect("open until finished")
    }

    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), ExportError> {
        let tmp = self.tmp.clone();
        self.writer()
            .write_all(bytes)
            .map_err(|e| ExportError::Io(tmp, e))
    }

    /// Flushes, and gives the file its final name.
    pub fn finish(mut self) -> Result<(), ExportError> {
        let out = self.out.take().expect("open until finished");
        let io = |e| ExportError::Io(self.path.clone(), e);
        // No fsync: an export is written again, not recovered; the rename keeps a killed one
        // from leaving a half file under the final name.
        drop(out.into_inner().map_err(|e| io(e.into_error()))?);
        std::fs::rename(&self.tmp, &self.path).map_err(io)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        // Not finished: nothing stays under either name.
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

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

impl HashedRow for PosRow {
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
