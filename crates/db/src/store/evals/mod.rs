//! Evaluations in the database (schema 14, `migrations/0014_evals.sql`): a game's evaluations
//! as the questions read them (`game_evals`: the record's, written at import, or the last
//! whole analysis by an engine), the analyses `kifudex analyse` runs ([`analyses`]), the SQL
//! function the filter's `--eval-at` asks, and the scans that blunders, the calibration and
//! the players' losses read. A game without evaluations has no row and costs nothing.

mod analyses;
mod details;

pub use analyses::{AnalysisKey, AnalysisWork, GameToAnalyse, PositionResult};
pub use details::{PV_START, PositionDetail};

use rusqlite::functions::FunctionFlags;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension, params};

use super::codec::{COMMENT, ENGINE, decode_comments, main_line};
use super::{GameSet, Store, StoreError};
use kifudex_evals::stored::{self, StoredEval};
use kifudex_evals::{self as evals, drops};
use kifudex_notation::{GameResult, Line, MoveNode, Record};
use kifudex_shogi::Color;

/// A game's evaluations made ready to be written (from its record, on any thread).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalsRow {
    /// The stored form ([`stored::encode_stored`]).
    pub evals: Vec<u8>,
    /// Who plays the first move.
    pub first: Color,
    pub result: GameResult,
    /// The deciding swing ([`drops::deciding_swing`]).
    pub swing: Option<i32>,
}

impl EvalsRow {
    /// The evaluations the record's engine comments carry, for a game that ended as `result`;
    /// `None` when it carries none.
    pub fn of_record(rec: &Record, result: GameResult) -> Option<EvalsRow> {
        let read = evals::read(rec);
        if read.is_empty() {
            return None;
        }
        let stored: Vec<StoredEval> = read.iter().map(StoredEval::of).collect();
        EvalsRow::new(&stored, rec.start.side_to_move(), result)
    }

    /// The row of evaluations in strictly increasing ply order (`None` when they are not, or
    /// there are none).
    pub fn new(evals: &[StoredEval], first: Color, result: GameResult) -> Option<EvalsRow> {
        if evals.is_empty() {
            return None;
        }
        let bytes = stored::encode_stored(evals).ok()?;
        let winner = match result {
            GameResult::Win(c) => Some(c),
            _ => None,
        };
        Some(EvalsRow {
            swing: drops::deciding_swing(evals, first, winner),
            evals: bytes,
            first,
            result,
        })
    }
}

fn result_code(r: GameResult) -> Option<i64> {
    match r {
        GameResult::Win(Color::Black) => Some(0),
        GameResult::Win(Color::White) => Some(1),
        GameResult::Draw => Some(2),
        GameResult::Unknown => None,
    }
}

fn result_of(code: Option<i64>) -> GameResult {
    match code {
        Some(0) => GameResult::Win(Color::Black),
        Some(1) => GameResult::Win(Color::White),
        Some(2) => GameResult::Draw,
        _ => GameResult::Unknown,
    }
}

fn color_of(first: i64) -> Color {
    if first == 1 {
        Color::White
    } else {
        Color::Black
    }
}

/// Writes (or replaces) a game's evaluations; `analysis` names the engine analysis they come
/// from (`None`: the record's).
pub(super) fn put(
    c: &Connection,
    game: i64,
    row: &EvalsRow,
    analysis: Option<i64>,
) -> Result<(), StoreError> {
    c.prepare_cached(
        "INSERT OR REPLACE INTO game_evals (game_id, evals, first, result, swing, analysis)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        game,
        row.evals,
        i64::from(row.first == Color::White),
        result_code(row.result),
        row.swing,
        analysis
    ])?;
    Ok(())
}

/// Deletes a game's evaluations and analyses (before its row goes).
pub(super) fn delete_game(c: &Connection, game: i64) -> Result<(), StoreError> {
    c.prepare_cached("DELETE FROM engine_evals WHERE game_id = ?1")?
        .execute([game])?;
    c.prepare_cached("DELETE FROM game_evals WHERE game_id = ?1")?
        .execute([game])?;
    Ok(())
}

/// The migration's step: the evaluations of the games stored before schema 14, read from
/// their stored comments and engine lines.
pub(super) fn fill(c: &Connection) -> Result<(), StoreError> {
    let mut stmt = c.prepare(
        "SELECT id, start_sfen, handicap, moves, comments, winner FROM games
         WHERE comments IS NOT NULL ORDER BY id",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let sfen: Option<String> = r.get(1)?;
        let handicap: String = r.get(2)?;
        let blob = r.get_ref(3)?.as_blob().unwrap_or(&[]);
        let comments: Option<String> = r.get(4)?;
        let winner: Option<String> = r.get(5)?;
        let rec = comment_record(id, sfen.as_deref(), &handicap, blob, comments.as_deref())?;
        if let Some(row) = EvalsRow::of_record(&rec, GameResult::from_code(winner.as_deref())) {
            put(c, id, &row, None)?;
        }
    }
    Ok(())
}

/// The part of a stored game's record the evaluations are read from: its main line with
/// each position's comments and engine lines.
fn comment_record(
    id: i64,
    sfen: Option<&str>,
    handicap: &str,
    moves: &[u8],
    comments: Option<&str>,
) -> Result<Record, StoreError> {
    let (start, moves) = main_line(id, sfen, handicap, moves)?;
    let mut rec = Record {
        start,
        main: Line {
            moves: moves.into_iter().map(MoveNode::new).collect(),
            terminal: None,
        },
        ..Record::default()
    };
    for (ply, kind, text) in decode_comments(id, comments)? {
        let (comments, engine) = match ply as usize {
            0 => (&mut rec.start_comments, &mut rec.start_engine),
            n => match rec.main.moves.get_mut(n - 1) {
                Some(node) => (&mut node.comments, &mut node.engine),
                None => continue,
            },
        };
        match kind {
            COMMENT => comments.push(text),
            ENGINE => engine.push(text),
            _ => {}
        }
    }
    Ok(rec)
}

/// The SQL functions of evaluations, on every connection: `kifudex_eval_at(evals, ply)`, the
/// points ([`drops::points`], sente's view) of the evaluation at `ply` of a stored form, or
/// NULL.
pub(super) fn register_functions(conn: &Connection) -> rusqlite::Result<()> {
    conn.create_scalar_function(
        "kifudex_eval_at",
        2,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            let ValueRef::Blob(bytes) = ctx.get_raw(0) else {
                return Ok(None);
            };
            let ply: i64 = ctx.get(1)?;
            let Ok(ply) = usize::try_from(ply) else {
                return Ok(None);
            };
            Ok(stored::decode(bytes)
                .ok()
                .and_then(|e| drops::points_at(&e, ply)))
        },
    )
}

/// One game's evaluations as a scan gives them.
#[derive(Debug, Clone, Copy)]
pub struct ScannedEvals<'a> {
    pub game: i64,
    /// The stored form.
    pub evals: &'a [u8],
    pub first: Color,
    pub result: GameResult,
    /// The analysis they come from (`None`: the record's).
    pub analysis: Option<i64>,
}

/// A game's evaluations with what the analysis they come from kept of each position.
#[derive(Debug, Clone, PartialEq)]
pub struct GameEvals {
    pub evals: Vec<StoredEval>,
    pub first: Color,
    /// The engine analysis they come from, `None` for the record's own.
    pub analysis: Option<AnalysisKey>,
    /// With an analysis: what it kept of each position, from ply 0.
    pub details: Vec<PositionDetail>,
}

impl Store {
    /// The evaluations of a game, `None` when it has none.
    pub fn game_evals(&self, game: i64) -> Result<Option<GameEvals>, StoreError> {
        let row: Option<(Vec<u8>, i64, Option<i64>)> = self
            .conn
            .prepare_cached("SELECT evals, first, analysis FROM game_evals WHERE game_id = ?1")?
            .query_row([game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        let Some((bytes, first, analysis)) = row else {
            return Ok(None);
        };
        let corrupt = |why: String| StoreError::Corrupt(game, why);
        let evals = stored::decode(&bytes).map_err(|e| corrupt(format!("evaluations: {e}")))?;
        let (analysis, details) = match analysis {
            Some(a) => {
                let key = analyses::key(&self.conn, a)?;
                let details = analyses::details(&self.conn, game, a)?
                    .ok_or_else(|| corrupt("analysis details".to_string()))?;
                (key, details)
            }
            None => (None, Vec::new()),
        };
        Ok(Some(GameEvals {
            evals,
            first: color_of(first),
            analysis,
            details,
        }))
    }

    /// The players (sente's, gote's) of every game with evaluations, by game.
    pub fn evaluated_game_players(
        &self,
    ) -> Result<std::collections::HashMap<i64, [Option<i64>; 2]>, StoreError> {
        // CROSS JOIN keeps game_evals the outer loop: without statistics SQLite would walk
        // every game and look each up in game_evals (1.6 s at 1,000,000 games with none
        // evaluated, on every `players` with a filter and every player page's year).
        let mut stmt = self.conn.prepare(
            "SELECT e.game_id, g.sente_id, g.gote_id FROM game_evals e
             CROSS JOIN games g ON g.id = e.game_id",
        )?;
        let mut rows = stmt.query([])?;
        let mut out = std::collections::HashMap::new();
        while let Some(r) = rows.next()? {
            out.insert(r.get(0)?, [r.get(1)?, r.get(2)?]);
        }
        Ok(out)
    }

    /// The smallest and largest id of a game with evaluations, and how many there are.
    pub fn evals_span(&self) -> Result<Option<(i64, i64, u64)>, StoreError> {
        let (lo, hi, n): (Option<i64>, Option<i64>, i64) = self.conn.query_row(
            "SELECT min(game_id), max(game_id), count(*) FROM game_evals",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        Ok(lo.zip(hi).map(|(lo, hi)| (lo, hi, n as u64)))
    }

    /// Gives `each` the evaluations of every game with ids from `from` to `to` that has
    /// them (those in `games` only, when given), in id order. A few games of a large range
    /// are looked up one by one rather than scanned for.
    pub fn scan_evals<E: From<StoreError>>(
        &self,
        games: Option<&GameSet>,
        from: i64,
        to: i64,
        mut each: impl FnMut(&ScannedEvals<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        const COLUMNS: &str = "SELECT game_id, evals, first, result, analysis FROM game_evals";
        let row = |r: &rusqlite::Row<'_>,
                   each: &mut dyn FnMut(&ScannedEvals<'_>) -> Result<(), E>|
         -> Result<(), E> {
            let scanned = ScannedEvals {
                game: r.get(0).map_err(StoreError::from)?,
                evals: r
                    .get_ref(1)
                    .map_err(StoreError::from)?
                    .as_blob()
                    .unwrap_or(&[]),
                first: color_of(r.get(2).map_err(StoreError::from)?),
                result: result_of(r.get(3).map_err(StoreError::from)?),
                analysis: r.get(4).map_err(StoreError::from)?,
            };
            each(&scanned)
        };
        if let Some(set) = games.filter(|s| s.is_sparse()) {
            let mut stmt = self
                .conn
                .prepare_cached(&format!("{COLUMNS} WHERE game_id = ?1"))
                .map_err(StoreError::from)?;
            let mut id = from;
            while let Some(g) = set.next_from(id).filter(|&g| g <= to) {
                let mut rows = stmt.query([g]).map_err(StoreError::from)?;
                if let Some(r) = rows.next().map_err(StoreError::from)? {
                    row(r, &mut each)?;
                }
                id = g + 1;
            }
            return Ok(());
        }
        let mut stmt = self
            .conn
            .prepare_cached(&format!(
                "{COLUMNS} WHERE game_id BETWEEN ?1 AND ?2 ORDER BY game_id"
            ))
            .map_err(StoreError::from)?;
        let mut rows = stmt.query([from, to]).map_err(StoreError::from)?;
        while let Some(r) = rows.next().map_err(StoreError::from)? {
            if let Some(set) = games {
                let id: i64 = r.get(0).map_err(StoreError::from)?;
                if !set.contains(id) {
                    continue;
                }
            }
            row(r, &mut each)?;
        }
        Ok(())
    }
}
