//! Games, positions and comments as Parquet files, for DuckDB, Spark, Trino and the like.
//!
//! - `games.parquet`: one row a game, the columns of the database's games (see the README).
//! - `positions.parquet`: one row per position of every game's main line (the start and the
//!   position after each move): the 64-bit hash (board, hands, side to move, as
//!   `kifudex hash` prints it), the board-only hash, game, ply, the move played from it in
//!   USI, the result and the date. Sorted by hash, in row groups of [`POSITION_GROUP`] rows,
//!   with min/max statistics: a query for one hash reads one or two row groups.
//! - `comments.parquet`: game, ply, kind (comment, engine, remark) and text.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::{Compression, Encoding};
use parquet::data_type::{ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;

use std::fmt::Write as _;

use super::pool::with_workers;
use super::spill::{PosRow, Spill};
use super::{ExportError, ExportGame, prepare_dir, temporary};
use crate::shogi::Move;
use crate::store::Store;
use crate::store::postings::date_text;

/// Rows of `positions.parquet` per row group.
pub const POSITION_GROUP: usize = 1 << 20;
/// Games (and their comments) per row group.
const GAME_GROUP: usize = 1 << 16;

const GAMES_SCHEMA: &str = "message games {
    REQUIRED INT64 id;
    REQUIRED BYTE_ARRAY file (UTF8);
    REQUIRED INT32 game_index;
    REQUIRED BYTE_ARRAY format (UTF8);
    OPTIONAL BYTE_ARRAY date (UTF8);
    OPTIONAL BYTE_ARRAY sente (UTF8);
    OPTIONAL BYTE_ARRAY gote (UTF8);
    OPTIONAL BYTE_ARRAY event (UTF8);
    OPTIONAL BYTE_ARRAY opening (UTF8);
    OPTIONAL BYTE_ARRAY title (UTF8);
    REQUIRED BYTE_ARRAY handicap (UTF8);
    REQUIRED BYTE_ARRAY start_sfen (UTF8);
    REQUIRED INT32 plies;
    REQUIRED BYTE_ARRAY moves (UTF8);
    OPTIONAL BYTE_ARRAY terminal (UTF8);
    OPTIONAL BYTE_ARRAY winner (UTF8);
    OPTIONAL INT32 illegal_ply;
    OPTIONAL BYTE_ARRAY illegal_rule (UTF8);
    REQUIRED BYTE_ARRAY headers (UTF8);
    REQUIRED BYTE_ARRAY sources (UTF8);
}";

const POSITIONS_SCHEMA: &str = "message positions {
    REQUIRED INT64 hash (INTEGER(64,false));
    REQUIRED INT64 board_hash (INTEGER(64,false));
    REQUIRED INT64 game;
    REQUIRED INT32 ply;
    OPTIONAL BYTE_ARRAY next_move (UTF8);
    OPTIONAL BYTE_ARRAY result (UTF8);
    OPTIONAL BYTE_ARRAY date (UTF8);
}";

const COMMENTS_SCHEMA: &str = "message comments {
    REQUIRED INT64 game;
    REQUIRED INT32 ply;
    REQUIRED BYTE_ARRAY kind (UTF8);
    REQUIRED BYTE_ARRAY text (UTF8);
}";

/// One column of a row group being gathered.
enum Column {
    I64(Vec<i64>),
    I32(Vec<i32>),
    OptI32(Vec<Option<i32>>),
    Str(Vec<ByteArray>),
    OptStr(Vec<Option<ByteArray>>),
}

impl Column {
    fn clear(&mut self) {
        match self {
            Column::I64(v) => v.clear(),
            Column::I32(v) => v.clear(),
            Column::OptI32(v) => v.clear(),
            Column::Str(v) => v.clear(),
            Column::OptStr(v) => v.clear(),
        }
    }
}

fn text(s: &str) -> ByteArray {
    ByteArray::from(s.as_bytes().to_vec())
}

fn opt_text(s: Option<&str>) -> Option<ByteArray> {
    s.map(text)
}

/// A Parquet file written a row group at a time, under a temporary name until closed.
struct Table {
    path: PathBuf,
    tmp: PathBuf,
    writer: Option<SerializedFileWriter<BufWriter<File>>>,
    columns: Vec<Column>,
    rows: usize,
}

impl Table {
    /// A table of this schema; the columns named in `plain` are written with their own
    /// encoding instead of a dictionary (columns of mostly distinct values).
    fn create(
        path: &Path,
        schema: &str,
        columns: Vec<Column>,
        plain: &[(&str, Encoding)],
    ) -> Result<Table, ExportError> {
        let bad = |e: parquet::errors::ParquetError| {
            ExportError::Parquet(path.to_path_buf(), e.to_string())
        };
        let schema = Arc::new(parse_message_type(schema).map_err(bad)?);
        let mut props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_statistics_enabled(EnabledStatistics::Chunk);
        for &(name, encoding) in plain {
            let col = ColumnPath::from(name);
            // Bit-packed or random values: compression would find nothing to take out.
            props = props
                .set_column_dictionary_enabled(col.clone(), false)
                .set_column_encoding(col.clone(), encoding)
                .set_column_compression(col, Compression::UNCOMPRESSED);
        }
        let props = Arc::new(props.build());
        let tmp = temporary(path);
        let file = File::create(&tmp).map_err(|e| ExportError::Io(tmp.clone(), e))?;
        let writer =
            SerializedFileWriter::new(BufWriter::with_capacity(1 << 20, file), schema, props)
                .map_err(bad)?;
        Ok(Table {
            path: path.to_path_buf(),
            tmp,
            writer: Some(writer),
            columns,
            rows: 0,
        })
    }

    fn bad(&self, e: parquet::errors::ParquetError) -> ExportError {
        ExportError::Parquet(self.path.clone(), e.to_string())
    }

    /// Writes the gathered rows as one row group.
    fn flush(&mut self) -> Result<(), ExportError> {
        if self.rows == 0 {
            return Ok(());
        }
        let writer = self.writer.as_mut().expect("open until closed");
        let mut group = writer
            .next_row_group()
            .map_err(|e| ExportError::Parquet(self.path.clone(), e.to_string()))?;
        for column in &self.columns {
            let Some(mut col) = group
                .next_column()
                .map_err(|e| ExportError::Parquet(self.path.clone(), e.to_string()))?
            else {
                break;
            };
            let r = match column {
                Column::I64(v) => col.typed::<Int64Type>().write_batch(v, None, None),
                Column::I32(v) => col.typed::<Int32Type>().write_batch(v, None, None),
                Column::OptI32(v) => {
                    let (values, defs) = split(v);
                    col.typed::<Int32Type>()
                        .write_batch(&values, Some(&defs), None)
                }
                Column::Str(v) => col.typed::<ByteArrayType>().write_batch(v, None, None),
                Column::OptStr(v) => {
                    let (values, defs) = split(v);
                    col.typed::<ByteArrayType>()
                        .write_batch(&values, Some(&defs), None)
                }
            };
            r.map_err(|e| ExportError::Parquet(self.path.clone(), e.to_string()))?;
            col.close()
                .map_err(|e| ExportError::Parquet(self.path.clone(), e.to_string()))?;
        }
        group
            .close()
            .map_err(|e| ExportError::Parquet(self.path.clone(), e.to_string()))?;
        for c in &mut self.columns {
            c.clear();
        }
        self.rows = 0;
        Ok(())
    }

    fn close(mut self) -> Result<(), ExportError> {
        self.flush()?;
        let writer = self.writer.take().expect("open until closed");
        let inner = writer.into_inner().map_err(|e| self.bad(e))?;
        let file = inner
            .into_inner()
            .map_err(|e| ExportError::Io(self.path.clone(), e.into_error()))?;
        file.sync_data()
            .map_err(|e| ExportError::Io(self.path.clone(), e))?;
        std::fs::rename(&self.tmp, &self.path).map_err(|e| ExportError::Io(self.path.clone(), e))
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        // Not closed: no half-written file stays behind.
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// The values present and the definition levels of an optional column.
fn split<T: Clone>(v: &[Option<T>]) -> (Vec<T>, Vec<i16>) {
    let mut values = Vec::with_capacity(v.len());
    let defs = v
        .iter()
        .map(|x| match x {
            Some(x) => {
                values.push(x.clone());
                1
            }
            None => 0,
        })
        .collect();
    (values, defs)
}

/// What an export to Parquet wrote.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct ParquetReport {
    pub games: usize,
    pub positions: u64,
    pub comments: u64,
    pub bytes: u64,
}

/// A game made ready for the files (on any thread): its row, its positions and the cells
/// of `games.parquet` that take work to make.
pub struct Prepared {
    game: ExportGame,
    positions: Vec<PosRow>,
    start: String,
    moves: String,
    headers: String,
    sources: String,
}

impl Prepared {
    pub fn new(game: ExportGame) -> Result<Prepared, ExportError> {
        let mut positions = Vec::with_capacity(game.record.main.moves.len() + 1);
        game.positions(|row| positions.push(row))?;
        let mut moves = String::with_capacity(game.record.main.moves.len() * 5);
        for (i, m) in game.record.main.moves.iter().enumerate() {
            if i > 0 {
                moves.push(' ');
            }
            let _ = write!(moves, "{}", m.mv);
        }
        let headers: serde_json::Map<String, serde_json::Value> = game
            .row
            .headers
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str())))
            .collect();
        Ok(Prepared {
            start: game.record.start.to_sfen(),
            headers: serde_json::Value::Object(headers).to_string(),
            sources: serde_json::Value::from(game.sources.clone()).to_string(),
            moves,
            positions,
            game,
        })
    }
}

/// The three files being written.
struct ParquetFiles {
    out: PathBuf,
    games: Table,
    comments: Table,
    spill: Spill,
    report: ParquetReport,
}

impl ParquetFiles {
    fn create(out: &Path, force: bool) -> Result<ParquetFiles, ExportError> {
        prepare_dir(out, force)?;
        let games = Table::create(
            &out.join("games.parquet"),
            GAMES_SCHEMA,
            vec![
                Column::I64(vec![]),
                Column::Str(vec![]),
                Column::I32(vec![]),
                Column::Str(vec![]),
                Column::OptStr(vec![]),
                Column::OptStr(vec![]),
                Column::OptStr(vec![]),
                Column::OptStr(vec![]),
                Column::OptStr(vec![]),
                Column::OptStr(vec![]),
                Column::Str(vec![]),
                Column::Str(vec![]),
                Column::I32(vec![]),
                Column::Str(vec![]),
                Column::OptStr(vec![]),
                Column::OptStr(vec![]),
                Column::OptI32(vec![]),
                Column::OptStr(vec![]),
                Column::Str(vec![]),
                Column::Str(vec![]),
            ],
            &[("id", Encoding::DELTA_BINARY_PACKED)],
        )?;
        let comments = Table::create(
            &out.join("comments.parquet"),
            COMMENTS_SCHEMA,
            vec![
                Column::I64(vec![]),
                Column::I32(vec![]),
                Column::Str(vec![]),
                Column::Str(vec![]),
            ],
            &[("game", Encoding::DELTA_BINARY_PACKED)],
        )?;
        Ok(ParquetFiles {
            out: out.to_path_buf(),
            games,
            comments,
            spill: Spill::new(&out.join(".positions-spill")),
            report: ParquetReport::default(),
        })
    }

    fn add(&mut self, p: Prepared) -> Result<(), ExportError> {
        for row in &p.positions {
            self.spill
                .push(*row)
                .map_err(|e| ExportError::Io(self.out.clone(), e))?;
        }
        self.report.positions += p.positions.len() as u64;
        let g = &p.game;
        for (ply, kind, body) in &g.row.comments {
            let kind = match *kind {
                crate::store::codec::ENGINE => "engine",
                crate::store::codec::REMARK => "remark",
                _ => "comment",
            };
            let [
                Column::I64(a),
                Column::I32(b),
                Column::Str(c),
                Column::Str(d),
            ] = &mut self.comments.columns[..]
            else {
                unreachable!("the comments table's columns")
            };
            a.push(g.id);
            b.push(*ply as i32);
            c.push(text(kind));
            d.push(text(body));
            self.comments.rows += 1;
            self.report.comments += 1;
        }
        add_game(&mut self.games, p);
        if self.games.rows >= GAME_GROUP {
            self.games.flush()?;
        }
        if self.comments.rows >= GAME_GROUP {
            self.comments.flush()?;
        }
        self.report.games += 1;
        Ok(())
    }

    fn finish(self) -> Result<ParquetReport, ExportError> {
        let ParquetFiles {
            out,
            games,
            comments,
            spill,
            mut report,
        } = self;
        if report.games == 0 {
            return Err(ExportError::NothingSelected);
        }
        games.close()?;
        comments.close()?;
        write_positions(&out, spill)?;
        for name in ["games.parquet", "positions.parquet", "comments.parquet"] {
            report.bytes += std::fs::metadata(out.join(name)).map_or(0, |m| m.len());
        }
        Ok(report)
    }
}

/// Writes `games.parquet`, `positions.parquet` and `comments.parquet` into `out` from the
/// games `next` hands over one at a time (`None`: no more).
pub fn write_parquet(
    out: &Path,
    force: bool,
    mut next: impl FnMut() -> Option<Result<ExportGame, ExportError>>,
    mut progress: impl FnMut(usize),
) -> Result<ParquetReport, ExportError> {
    let mut files = ParquetFiles::create(out, force)?;
    while let Some(g) = next() {
        files.add(Prepared::new(g?)?)?;
        progress(files.report.games);
    }
    files.finish()
}

/// Games a worker loads and prepares at a time.
const GAMES_A_BATCH: usize = 128;

/// [`write_parquet`] of the database's games `ids`, loaded and prepared by one worker a core.
pub fn export_parquet(
    store: &Store,
    ids: &[i64],
    out: &Path,
    force: bool,
    mut progress: impl FnMut(usize),
) -> Result<ParquetReport, ExportError> {
    if ids.is_empty() {
        return Err(ExportError::NothingSelected);
    }
    let mut files = ParquetFiles::create(out, force)?;
    with_workers(
        store,
        |store, chunk: &[i64]| {
            chunk
                .iter()
                .map(|&id| ExportGame::load(store, id).and_then(Prepared::new))
                .collect::<Result<Vec<Prepared>, ExportError>>()
        },
        |feed| {
            // Batches come back in the order they are done; the files take them in id order.
            let mut waiting: std::collections::BTreeMap<i64, Vec<Prepared>> = Default::default();
            let mut next = 0usize;
            let mut take =
                |done: Vec<Vec<Prepared>>, files: &mut ParquetFiles| -> Result<(), ExportError> {
                    for batch in done {
                        if let Some(first) = batch.first() {
                            waiting.insert(first.game.id, batch);
                        }
                    }
                    while let Some(entry) = waiting.first_entry() {
                        if ids.get(next) != Some(entry.key()) {
                            break;
                        }
                        let batch = entry.remove();
                        next += batch.len();
                        for p in batch {
                            files.add(p)?;
                        }
                        progress(files.report.games);
                    }
                    Ok(())
                };
            for chunk in ids.chunks(GAMES_A_BATCH) {
                take(feed.send(chunk)?, &mut files)?;
            }
            take(feed.finish()?, &mut files)
        },
    )?;
    files.finish()
}

fn add_game(t: &mut Table, p: Prepared) {
    let g = p.game;
    let r = &g.row;
    let c = &mut t.columns;
    macro_rules! push {
        ($i:expr, $variant:ident, $v:expr) => {
            match &mut c[$i] {
                Column::$variant(col) => col.push($v),
                _ => unreachable!("column {} of games", $i),
            }
        };
    }
    push!(0, I64, g.id);
    push!(1, Str, text(&g.file));
    push!(2, I32, g.game_index as i32);
    push!(3, Str, text(r.format.name()));
    push!(4, OptStr, r.date.map(|d| text(&d.to_string())));
    push!(5, OptStr, opt_text(r.sente.as_deref()));
    push!(6, OptStr, opt_text(r.gote.as_deref()));
    push!(7, OptStr, opt_text(r.event.as_deref()));
    push!(8, OptStr, opt_text(r.opening.as_deref()));
    push!(9, OptStr, opt_text(r.title.as_deref()));
    push!(10, Str, text(r.handicap.kif_name()));
    push!(11, Str, ByteArray::from(p.start.into_bytes()));
    push!(12, I32, r.plies as i32);
    push!(13, Str, ByteArray::from(p.moves.into_bytes()));
    push!(14, OptStr, opt_text(r.terminal.map(|t| t.code())));
    push!(15, OptStr, opt_text(r.result.code()));
    push!(16, OptI32, r.illegal.map(|(ply, _)| ply as i32));
    push!(17, OptStr, opt_text(r.illegal.map(|(_, rule)| rule.code())));
    push!(18, Str, ByteArray::from(p.headers.into_bytes()));
    push!(19, Str, ByteArray::from(p.sources.into_bytes()));
    t.rows += 1;
}

fn write_positions(out: &Path, spill: Spill) -> Result<(), ExportError> {
    let path = out.join("positions.parquet");
    let mut t = Table::create(
        &path,
        POSITIONS_SCHEMA,
        vec![
            Column::I64(vec![]),
            Column::I64(vec![]),
            Column::I64(vec![]),
            Column::I32(vec![]),
            Column::OptStr(vec![]),
            Column::OptStr(vec![]),
            Column::OptStr(vec![]),
        ],
        // Sorted hashes differ by little; games and plies are small numbers; the board hash
        // is as random as it looks.
        &[
            ("hash", Encoding::DELTA_BINARY_PACKED),
            ("board_hash", Encoding::PLAIN),
            ("game", Encoding::DELTA_BINARY_PACKED),
            ("ply", Encoding::DELTA_BINARY_PACKED),
        ],
    )?;
    let mut failed: Option<ExportError> = None;
    let mut texts = PositionTexts::new();
    let result = spill.sorted(|rows| {
        for row in rows {
            add_position(&mut t, &mut texts, row);
            if t.rows >= POSITION_GROUP
                && let Err(e) = t.flush()
            {
                failed = Some(e);
                return Err(std::io::Error::other("parquet"));
            }
        }
        Ok(())
    });
    if let Some(e) = failed {
        return Err(e);
    }
    result.map_err(|e| ExportError::Io(path.clone(), e))?;
    t.close()
}

/// The text cells of positions, made once each: the move (by its 16-bit code), the result
/// and the date (by its code).
struct PositionTexts {
    moves: Vec<Option<ByteArray>>,
    results: [ByteArray; 3],
    dates: std::collections::HashMap<u32, Option<ByteArray>>,
}

impl PositionTexts {
    fn new() -> PositionTexts {
        PositionTexts {
            moves: vec![None; 1 << 16],
            results: [text("sente"), text("gote"), text("draw")],
            dates: Default::default(),
        }
    }

    fn next_move(&mut self, code: u16) -> Option<ByteArray> {
        if code == 0 {
            return None;
        }
        let slot = &mut self.moves[code as usize];
        if slot.is_none() {
            *slot = Move::from_u16(code).map(|m| text(&m.usi()));
        }
        slot.clone()
    }

    fn result(&self, code: u8) -> Option<ByteArray> {
        match code {
            1..=3 => Some(self.results[code as usize - 1].clone()),
            _ => None,
        }
    }

    fn date(&mut self, code: u32) -> Option<ByteArray> {
        self.dates
            .entry(code)
            .or_insert_with(|| date_text(code).map(|d| text(&d)))
            .clone()
    }
}

fn add_position(t: &mut Table, texts: &mut PositionTexts, row: &PosRow) {
    let [
        Column::I64(hash),
        Column::I64(board),
        Column::I64(game),
        Column::I32(ply),
        Column::OptStr(next),
        Column::OptStr(result),
        Column::OptStr(date),
    ] = &mut t.columns[..]
    else {
        unreachable!("the positions table's columns")
    };
    hash.push(row.hash as i64);
    board.push(row.board_hash as i64);
    game.push(row.game);
    ply.push(row.ply as i32);
    next.push(texts.next_move(row.next));
    result.push(texts.result(row.result));
    date.push(texts.date(row.date));
    t.rows += 1;
}
