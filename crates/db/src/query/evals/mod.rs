//! Questions the evaluations answer: a game's evaluations beside its moves (`show --evals`,
//! `/api/game/ID`), the blunders of the games a filter takes ([`blunders`]), the calibration
//! of evaluations against results and the players' losses ([`summary`]).

pub mod blunders;
pub mod summary;

pub use blunders::{Blunder, BlunderQuery, Blunders, find_blunders, game_blunders};
pub use summary::{BLUNDER_DROP, PlayerEvals, calibration, player_evals};

use crate::store::{AnalysisKey, GameSet, ScannedEvals, Store, StoreError, StoredGame};
use kifudex_evals::engine::BestMove;
use kifudex_evals::stored::{self, StoredEval};
use kifudex_evals::{Score, Source};
use kifudex_shogi::{Color, Move};

use super::QueryError;

/// One evaluated position of a game.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EvalEntry {
    /// The position after this many moves.
    pub ply: usize,
    /// The value from sente's point of view (null for a mate).
    pub value: Option<i32>,
    /// A mate as a signed distance in plies (positive: sente mates); null when the distance
    /// is unknown (then `mate_for` names the winner).
    pub mate: Option<i64>,
    /// The side that mates, for any mate.
    pub mate_for: Option<&'static str>,
    /// The value was written beyond ±32767 and is kept as the nearest end of that range.
    pub clamped: bool,
    pub depth: Option<u32>,
    /// `csa`, `shogihome` … or `engine` (an analysis kifudex ran).
    pub source: &'static str,
    /// The engine's preferred move there (USI; `resign` or `win` for an engine's word), when
    /// known.
    pub best: Option<String>,
    /// The nodes the engine searched (an analysis kifudex ran).
    pub nodes: Option<u64>,
    /// The start of the principal variation (an analysis kifudex ran), in USI.
    pub pv: Vec<String>,
}

/// A game's evaluations and where they come from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GameEvalList {
    /// The engine analysis they come from; null: the record's engine comments.
    pub analysis: Option<AnalysisKey>,
    pub evals: Vec<EvalEntry>,
}

/// A score's `value`, `mate` and `mate_for`.
pub fn score_fields(score: Score) -> (Option<i32>, Option<i64>, Option<&'static str>) {
    let side = |c: Color| match c {
        Color::Black => "sente",
        Color::White => "gote",
    };
    (score.value(), score.mate(), score.mate_winner().map(side))
}

/// A best move's word: the move in USI, `resign` or `win`.
pub fn best_word(best: BestMove) -> String {
    match best {
        BestMove::Move(m) => m.usi(),
        BestMove::Resign => "resign".to_string(),
        BestMove::Win => "win".to_string(),
    }
}

/// The evaluations of a stored game, with the best move, the nodes and the PV's start where
/// the analysis they come from kept them (for the record's own, the best move its variation
/// gives). `None` when the game has none.
pub fn game_evals(store: &Store, game: &StoredGame) -> Result<Option<GameEvalList>, QueryError> {
    let Some(stored) = store.game_evals(game.id)? else {
        return Ok(None);
    };
    // The record's own evaluations: the best move from each one's variation, read again
    // from the record (the stored form keeps no variation).
    let record_best: Vec<(usize, Option<Move>)> = if stored.analysis.is_none() {
        let read = kifudex_evals::read(&game.record);
        let best = kifudex_evals::best_moves(&game.record, &read);
        read.iter().map(|e| e.ply).zip(best).collect()
    } else {
        Vec::new()
    };
    let evals = stored
        .evals
        .iter()
        .map(|e| {
            let (value, mate, mate_for) = score_fields(e.score);
            let detail = stored.details.get(e.ply);
            let best = match detail {
                Some(d) => d.best.map(best_word),
                None => record_best
                    .iter()
                    .find(|(p, _)| *p == e.ply)
                    .and_then(|(_, m)| *m)
                    .map(|m| m.usi()),
            };
            EvalEntry {
                ply: e.ply,
                value,
                mate,
                mate_for,
                clamped: e.clamped,
                depth: e.depth,
                source: e.source.code(),
                best,
                nodes: detail.and_then(|d| d.nodes),
                pv: detail.map_or_else(Vec::new, |d| d.pv.iter().map(|m| m.usi()).collect()),
            }
        })
        .collect();
    Ok(Some(GameEvalList {
        analysis: stored.analysis,
        evals,
    }))
}

/// An evaluation as a person reads it: `+35`, `-120`, `mate +7` (sente mates in 7 plies),
/// `mate -` (gote mates, distance unknown).
pub fn eval_text(e: &EvalEntry) -> String {
    match (e.value, e.mate, e.mate_for) {
        (Some(v), _, _) if e.clamped && v > 0 => format!("≥{v:+}"),
        (Some(v), _, _) if e.clamped => format!("≤{v:+}"),
        (Some(v), _, _) => format!("{v:+}"),
        (None, Some(m), _) => format!("mate {m:+}"),
        (None, None, Some("sente")) => "mate +".to_string(),
        (None, None, _) => "mate -".to_string(),
    }
}

/// The name of an evaluation's source for a table (`engine` with the engine's name).
pub fn source_text(e: &EvalEntry, analysis: Option<&AnalysisKey>) -> String {
    match analysis {
        Some(a) if e.source == Source::Engine.code() => format!("{} ({})", a.engine, a.limits),
        _ => e.source.to_string(),
    }
}

/// Games with evaluations below which a scan keeps to one connection.
const PARALLEL_FROM: u64 = 20_000;

/// Runs `each` over the evaluations of every game that has them (those of `games` only, when
/// given), decoded, split by id range over a connection a core (at most four): the answer
/// of a scan of a million games in a second or two. Returns each part's accumulator, in id
/// order.
pub(crate) fn scan_parts<T: Send>(
    store: &Store,
    games: Option<&GameSet>,
    init: impl Fn() -> T + Sync,
    each: impl Fn(&mut T, &ScannedEvals<'_>, &[StoredEval]) + Sync,
) -> Result<Vec<T>, QueryError> {
    let Some((lo, hi, count)) = store.evals_span()? else {
        return Ok(Vec::new());
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let parts = if count < PARALLEL_FROM {
        1
    } else {
        cores.clamp(1, 4) as i64
    };
    let span = hi - lo + 1;
    let bounds: Vec<(i64, i64)> = (0..parts)
        .map(|i| (lo + span * i / parts, lo + span * (i + 1) / parts - 1))
        .collect();
    let part = |s: &Store, (from, to): (i64, i64)| -> Result<T, QueryError> {
        let mut acc = init();
        let mut buf = Vec::new();
        s.scan_evals(games, from, to, |g| -> Result<(), QueryError> {
            stored::decode_into(g.evals, &mut buf).map_err(|e| {
                QueryError::Store(StoreError::Corrupt(g.game, format!("evaluations: {e}")))
            })?;
            each(&mut acc, g, &buf);
            Ok(())
        })?;
        Ok(acc)
    };
    if parts == 1 {
        return Ok(vec![part(store, bounds[0])?]);
    }
    let dir = store.dir().to_path_buf();
    std::thread::scope(|scope| {
        let others: Vec<_> = bounds[1..]
            .iter()
            .map(|&b| {
                let dir = &dir;
                let part = &part;
                scope.spawn(move || -> Result<T, QueryError> {
                    let s = Store::open_read_only(dir)?;
                    part(&s, b)
                })
            })
            .collect();
        let mut out = vec![part(store, bounds[0])?];
        for t in others {
            out.push(t.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?);
        }
        Ok(out)
    })
}
