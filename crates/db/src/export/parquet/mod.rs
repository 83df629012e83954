//! Games, positions and comments as Parquet files, for DuckDB, Spark, Trino and the like.
//!
//! - `games.parquet`: one row a game, the columns of the database's games (see the README).
//! - `positions.parquet`: one row per position of every game's main line (the start and the
//!   position after each move): the 64-bit hash (board, hands, side to move, as
//!   `kifudex hash` prints it), the hands' part of it (`hash XOR hand_hash` is the board-only
//!   hash; a few thousand distinct values, where the board's hash would be as random as the
//!   hash and take 8 bytes a row), game, ply, the move played from it in USI, the result and
//!   the date. Sorted by hash (and by game within a hash), in row groups of
//!   [`POSITION_GROUP`] rows, with min/max statistics: a query for one hash reads one or two
//!   row groups.
//! - `comments.parquet`: game, ply, kind (comment, engine, remark) and text.
//! - `evals.parquet`: the evaluations, a row per evaluated position ([`evals`]).

use std::path::{Path, PathBuf};

use parquet::basic::Encoding;
use parquet::data_type::ByteArray;

mod evals;
mod table;

use table::{Column, Layout, Table, opt_text, push_list, push_opt, static_text, text};

use super::PosRow;
use super::pool::with_workers;
use super::stage::Stage;
use super::{ExportError, ExportGame};
use crate::numhash::NumberHash;
use crate::sort::HashSort;
use crate::store::postings::date_text;
use crate::store::{LabelSource, Store};
use kifudex_shogi::Move;

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
    OPTIONAL BYTE_ARRAY label (UTF8);
    OPTIONAL BYTE_ARRAY label_source (UTF8);
    REQUIRED group recognised (LIST) {
        REPEATED group list {
            REQUIRED group element {
                REQUIRED BYTE_ARRAY side (UTF8);
                REQUIRED BYTE_ARRAY kind (UTF8);
                REQUIRED BYTE_ARRAY name (UTF8);
                REQUIRED INT32 ply;
            }
        }
    }
}";

const POSITIONS_SCHEMA: &str = "message positions {
    REQUIRED INT64 hash (INTEGER(64,false));
    REQUIRED INT64 hand_hash (INTEGER(64,false));
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

/// What an export to Parquet wrote.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct ParquetReport {
    pub games: usize,
    pub positions: u64,
    pub comments: u64,
    /// Rows of `evals.parquet`: evaluated positions.
    pub evals: u64,
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
    /// What was recognised from the moves (every name with its ancestors).
    recognised: kifudex_classify::Recognised,
}

impl Prepared {
    pub fn new(game: ExportGame) -> Result<Prepared, ExportError> {
        let mut positions = Vec::with_capacity(game.record.main.moves.len() + 1);
        game.positions(|row| positions.push(row))?;
        let mut moves = String::with_capacity(game.record.main.moves.len() * 5);
        let texts = move_texts();
        for (i, m) in game.record.main.moves.iter().enumerate() {
            if i > 0 {
                moves.push(' ');
            }
            match texts[m.mv.to_u16() as usize] {
                Some(t) => moves.push_str(t),
                None => moves.push_str(&m.mv.usi()),
            }
        }
        let headers: serde_json::Map<String, serde_json::Value> = game
            .row
            .headers
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str())))
            .collect();
        Ok(Prepared {
            recognised: kifudex_classify::recognise_record(&game.record),
            start: game.record.start.to_sfen(),
            headers: serde_json::Value::Object(headers).to_string(),
            sources: serde_json::Value::from(game.sources.clone()).to_string(),
            moves,
            positions,
            game,
        })
    }
}

/// The four files being written.
struct ParquetFiles {
    out: PathBuf,
    /// The hidden folder the files are written into, renamed to `out` at the end: a killed
    /// or failed export leaves the previous output as it was, or nothing.
    stage: Stage,
    games: Table,
    comments: Table,
    evals: Table,
    positions: HashSort<PosRow>,
    report: ParquetReport,
}

impl ParquetFiles {
    fn create(out: &Path, force: bool) -> Result<ParquetFiles, ExportError> {
        let stage = Stage::staged(out, force)?;
        let dir = stage.folder().to_path_buf();
        let games = Table::create(
            &dir.join("games.parquet"),
            GAMES_SCHEMA,
            vec![
                Column::I64(vec![]),
                Column::Str(vec![]),
                Column::I32(vec![]),
                Column::Str(vec![]),
                Column::opt_str(),
                Column::opt_str(),
                Column::opt_str(),
                Column::opt_str(),
                Column::opt_str(),
                Column::opt_str(),
                Column::Str(vec![]),
                Column::Str(vec![]),
                Column::I32(vec![]),
                Column::Str(vec![]),
                Column::opt_str(),
                Column::opt_str(),
                Column::opt_i32(),
                Column::opt_str(),
                Column::Str(vec![]),
                Column::Str(vec![]),
                Column::opt_str(),
                Column::opt_str(),
                Column::rep_str(),
                Column::rep_str(),
                Column::rep_str(),
                Column::rep_i32(),
            ],
            &[("id", Layout::Plain(Encoding::DELTA_BINARY_PACKED))],
        )?;
        let comments = Table::create(
            &dir.join("comments.parquet"),
            COMMENTS_SCHEMA,
            vec![
                Column::I64(vec![]),
                Column::I32(vec![]),
                Column::Str(vec![]),
                Column::Str(vec![]),
            ],
            &[("game", Layout::Plain(Encoding::DELTA_BINARY_PACKED))],
        )?;
        let evals = evals::create(&dir)?;
        Ok(ParquetFiles {
            out: out.to_path_buf(),
            stage,
            games,
            comments,
            evals,
            positions: HashSort::new(&dir.join(".positions-spill")),
            report: ParquetReport::default(),
        })
    }

    fn add(&mut self, p: Prepared) -> Result<(), ExportError> {
        for row in &p.positions {
            self.positions
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
        self.report.evals += evals::add(&mut self.evals, g.id, &g.evals);
        add_game(&mut self.games, p);
        if self.evals.rows >= POSITION_GROUP {
            self.evals.flush()?;
        }
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
            out: _,
            stage,
            games,
            comments,
            evals,
            positions,
            mut report,
        } = self;
        if report.games == 0 {
            return Err(ExportError::NothingSelected);
        }
        games.close()?;
        comments.close()?;
        evals.close()?;
        let dir = stage.folder().to_path_buf();
        write_positions(&dir, positions)?;
        for name in [
            "games.parquet",
            "positions.parquet",
            "comments.parquet",
            "evals.parquet",
        ] {
            report.bytes += std::fs::metadata(dir.join(name)).map_or(0, |m| m.len());
        }
        stage.finish()?;
        Ok(report)
    }
}

/// Writes `games.parquet`, `positions.parquet`, `comments.parquet` and `evals.parquet` into
/// `out` from the games `next` hands over one at a time (`None`: no more).
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
        ($i:expr, I64, $v:expr) => {
            match &mut c[$i] {
                Column::I64(col) => col.push($v),
                _ => unreachable!("column {} of games", $i),
            }
        };
        ($i:expr, I32, $v:expr) => {
            match &mut c[$i] {
                Column::I32(col) => col.push($v),
                _ => unreachable!("column {} of games", $i),
            }
        };
        ($i:expr, Str, $v:expr) => {
            match &mut c[$i] {
                Column::Str(col) => col.push($v),
                _ => unreachable!("column {} of games", $i),
            }
        };
        ($i:expr, OptI32, $v:expr) => {
            match &mut c[$i] {
                Column::OptI32(col, defs) => push_opt(col, defs, $v),
                _ => unreachable!("column {} of games", $i),
            }
        };
        ($i:expr, OptStr, $v:expr) => {
            match &mut c[$i] {
                Column::OptStr(col, defs) => push_opt(col, defs, $v),
                _ => unreachable!("column {} of games", $i),
            }
        };
    }
    push!(0, I64, g.id);
    push!(1, Str, text(&g.file));
    push!(2, I32, g.game_index as i32);
    push!(3, Str, static_text(r.format.name()));
    push!(4, OptStr, r.date.map(|d| text(&d.to_string())));
    push!(5, OptStr, opt_text(r.sente.as_deref()));
    push!(6, OptStr, opt_text(r.gote.as_deref()));
    push!(7, OptStr, opt_text(r.event.as_deref()));
    push!(8, OptStr, opt_text(r.opening.as_deref()));
    push!(9, OptStr, opt_text(r.title.as_deref()));
    push!(10, Str, static_text(r.handicap.kif_name()));
    push!(11, Str, ByteArray::from(p.start.into_bytes()));
    push!(12, I32, r.plies as i32);
    push!(13, Str, ByteArray::from(p.moves.into_bytes()));
    push!(14, OptStr, r.terminal.map(|t| static_text(t.code())));
    push!(15, OptStr, r.result.code().map(static_text));
    push!(16, OptI32, r.illegal.map(|(ply, _)| ply as i32));
    push!(
        17,
        OptStr,
        r.illegal.map(|(_, rule)| static_text(rule.code()))
    );
    push!(18, Str, ByteArray::from(p.headers.into_bytes()));
    push!(19, Str, ByteArray::from(p.sources.into_bytes()));
    // The game's label and where it comes from, as `search` and `openings` give them.
    let label = kifudex_classify::game_label(r.opening.as_deref(), p.recognised.opening);
    push!(20, OptStr, label.map(text));
    let source = match (&r.opening, p.recognised.opening) {
        (Some(_), _) => Some(LabelSource::Header),
        (None, Some(_)) => Some(LabelSource::Moves),
        (None, None) => None,
    };
    push!(21, OptStr, source.map(|s| static_text(s.code())));
    let items = &p.recognised.items;
    let side = |i: &kifudex_classify::Item| match i.side {
        kifudex_shogi::Color::Black => "sente",
        kifudex_shogi::Color::White => "gote",
    };
    match &mut c[22..26] {
        [
            Column::RepStr(sides, sd, sr),
            Column::RepStr(kinds, kd, kr),
            Column::RepStr(names, nd, nr),
            Column::RepI32(plies, pd, pr),
        ] => {
            push_list(sides, sd, sr, items.iter().map(|i| static_text(side(i))));
            push_list(
                kinds,
                kd,
                kr,
                items.iter().map(|i| static_text(i.kind.code())),
            );
            push_list(names, nd, nr, items.iter().map(|i| static_text(i.name)));
            push_list(plies, pd, pr, items.iter().map(|i| i.ply as i32));
        }
        _ => unreachable!("columns 22-25 of games are the recognised list"),
    }
    t.rows += 1;
}

fn write_positions(out: &Path, rows: HashSort<PosRow>) -> Result<(), ExportError> {
    let path = out.join("positions.parquet");
    let mut t = Table::create(
        &path,
        POSITIONS_SCHEMA,
        vec![
            Column::I64(vec![]),
            Column::I64(vec![]),
            Column::I64(vec![]),
            Column::I32(vec![]),
            Column::opt_str(),
            Column::opt_str(),
            Column::opt_str(),
        ],
        // Sorted hashes differ by little; games are numbers in no order; plies take a few
        // hundred values. The hands' hash (a few thousand values) is left to the dictionary.
        &[
            ("hash", Layout::Plain(Encoding::DELTA_BINARY_PACKED)),
            ("game", Layout::Plain(Encoding::DELTA_BINARY_PACKED)),
            ("ply", Layout::Dictionary),
        ],
    )?;
    let mut failed: Option<ExportError> = None;
    let mut texts = PositionTexts::new();
    let result = rows.sorted(|rows| {
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

/// The USI text of every move code ([`Move::to_u16`]), made once for the program: a cell of
/// `next_move` is then copied for nothing.
fn move_texts() -> &'static [Option<&'static str>] {
    static TEXTS: std::sync::OnceLock<Vec<Option<&'static str>>> = std::sync::OnceLock::new();
    TEXTS.get_or_init(|| {
        let moves: Vec<Option<String>> = (0..=u16::MAX)
            .map(|code| Move::from_u16(code).map(|m| m.usi()))
            .collect();
        // One block for all of them (about 300 KB), kept for the program's life.
        let all: &'static str = Box::leak(
            moves
                .iter()
                .flatten()
                .cloned()
                .collect::<String>()
                .into_boxed_str(),
        );
        let mut at = 0;
        moves
            .iter()
            .map(|m| {
                m.as_ref().map(|m| {
                    let t = &all[at..at + m.len()];
                    at += m.len();
                    t
                })
            })
            .collect()
    })
}

/// The text cells of positions, made once each: the move (by its 16-bit code), the result
/// and the date (by its code).
struct PositionTexts {
    moves: &'static [Option<&'static str>],
    dates: std::collections::HashMap<u32, Option<ByteArray>, NumberHash>,
}

impl PositionTexts {
    fn new() -> PositionTexts {
        PositionTexts {
            moves: move_texts(),
            dates: Default::default(),
        }
    }

    fn next_move(&self, code: u16) -> Option<ByteArray> {
        if code == 0 {
            return None;
        }
        self.moves[code as usize].map(static_text)
    }

    fn result(code: u8) -> Option<ByteArray> {
        match code {
            1 => Some(static_text("sente")),
            2 => Some(static_text("gote")),
            3 => Some(static_text("draw")),
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
        Column::I64(hands),
        Column::I64(game),
        Column::I32(ply),
        Column::OptStr(next, next_defs),
        Column::OptStr(result, result_defs),
        Column::OptStr(date, date_defs),
    ] = &mut t.columns[..]
    else {
        unreachable!("the positions table's columns")
    };
    hash.push(row.hash as i64);
    hands.push(row.hand_hash as i64);
    game.push(row.game);
    ply.push(row.ply as i32);
    push_opt(next, next_defs, texts.next_move(row.next));
    push_opt(result, result_defs, PositionTexts::result(row.result));
    push_opt(date, date_defs, texts.date(row.date));
    t.rows += 1;
}
