//! The analyses `kifudex analyse` runs: each engine and search limit once
//! (`engine_analyses`), and what each found in each game's positions (`engine_evals`), saved
//! as it goes so that a run that stops is taken up where it stopped. An analysis that has
//! covered a game's whole main line becomes the game's evaluations (`game_evals`).

use rusqlite::{Connection, OptionalExtension, params};

use super::details::{self, PositionDetail};
use super::{EvalsRow, put};
use crate::store::{GameLine, GameSet, Store, StoreError};
use kifudex_evals::stored::{self, StoredEval};
use kifudex_evals::{Score, Source};
use kifudex_notation::GameResult;

/// An engine analysis: which engine, with what search limit.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AnalysisKey {
    pub id: i64,
    /// The engine's `id name`, then the options set (`kifudex::analyse::engine_text`).
    pub engine: String,
    /// `nodes 100000`, `movetime 500`, `depth 12` or `byoyomi 1000`.
    pub limits: String,
}

/// A game an analysis has not finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameToAnalyse {
    pub game: i64,
    /// The positions it analyses: the start and the position after each move, up to the
    /// position before a move that broke a rule.
    pub positions: usize,
    /// Those analysed already, from ply 0.
    pub done: usize,
}

/// What the engine said of one position, as the database keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionResult {
    pub ply: usize,
    /// Its evaluation, from sente's point of view (`None`: it gave none).
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub detail: PositionDetail,
}

/// A game's analysis under way: what it found so far, from ply 0.
#[derive(Debug, Clone)]
pub struct AnalysisWork {
    pub game: i64,
    pub analysis: i64,
    /// The game's main line.
    pub line: GameLine,
    pub positions: usize,
    pub done: usize,
    evals: Vec<StoredEval>,
    details: Vec<u8>,
    result: GameResult,
}

impl AnalysisWork {
    /// Adds the next position's result (`r.ply` must be [`AnalysisWork::done`]).
    pub fn add(&mut self, r: &PositionResult) {
        debug_assert_eq!(r.ply, self.done);
        if let Some(score) = r.score {
            self.evals
                .push(StoredEval::new(r.ply, score, r.depth, Source::Engine, true));
        }
        details::put(&mut self.details, &r.detail);
        self.done += 1;
    }

    /// Whether every position is analysed.
    pub fn is_complete(&self) -> bool {
        self.done >= self.positions
    }
}

/// The analysis named `id`.
pub(super) fn key(c: &Connection, id: i64) -> Result<Option<AnalysisKey>, StoreError> {
    Ok(
        c.prepare_cached("SELECT engine, limits FROM engine_analyses WHERE id = ?1")?
            .query_row([id], |r| {
                Ok(AnalysisKey {
                    id,
                    engine: r.get(0)?,
                    limits: r.get(1)?,
                })
            })
            .optional()?,
    )
}

/// What analysis `analysis` kept of each position of `game` it analysed.
pub(super) fn details(
    c: &Connection,
    game: i64,
    analysis: i64,
) -> Result<Option<Vec<PositionDetail>>, StoreError> {
    let bytes: Option<Vec<u8>> = c
        .prepare_cached("SELECT details FROM engine_evals WHERE game_id = ?1 AND analysis = ?2")?
        .query_row([game, analysis], |r| r.get(0))
        .optional()?;
    Ok(bytes.and_then(|b| details::decode(&b)))
}

impl Store {
    /// The analysis of `engine` under `limits`, made on its first run (with the command and
    /// options, a JSON object, it was run with).
    pub fn analysis_key(
        &mut self,
        engine: &str,
        limits: &str,
        command: &str,
        options: &str,
    ) -> Result<AnalysisKey, StoreError> {
        self.conn.execute(
            "INSERT OR IGNORE INTO engine_analyses (engine, limits, command, options)
             VALUES (?1, ?2, ?3, ?4)",
            params![engine, limits, command, options],
        )?;
        let id: i64 = self.conn.query_row(
            "SELECT id FROM engine_analyses WHERE engine = ?1 AND limits = ?2",
            [engine, limits],
            |r| r.get(0),
        )?;
        Ok(AnalysisKey {
            id,
            engine: engine.to_string(),
            limits: limits.to_string(),
        })
    }

    /// The games (among `games`, when given) that `analysis` has not finished, in id order.
    pub fn games_to_analyse(
        &self,
        analysis: i64,
        games: Option<&GameSet>,
    ) -> Result<Vec<GameToAnalyse>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT g.id, g.plies, g.illegal_ply, e.positions FROM games g
             LEFT JOIN engine_evals e ON e.game_id = g.id AND e.analysis = ?1 ORDER BY g.id",
        )?;
        let mut rows = stmt.query([analysis])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let game: i64 = r.get(0)?;
            if games.is_some_and(|s| !s.contains(game)) {
                continue;
            }
            let plies: i64 = r.get(1)?;
            let illegal: Option<i64> = r.get(2)?;
            let done: Option<i64> = r.get(3)?;
            // The position after a move that broke a rule may be one no engine can take (a
            // king left in check): the analysis stops before it.
            let positions = match illegal {
                Some(p) if p >= 1 && p <= plies => p,
                _ => plies + 1,
            } as usize;
            let done = done.unwrap_or(0).max(0) as usize;
            if done < positions {
                out.push(GameToAnalyse {
                    game,
                    positions,
                    done,
                });
            }
        }
        Ok(out)
    }

    /// The work of `analysis` on a game it has not finished, with what it found there before.
    pub fn analysis_work(
        &self,
        analysis: i64,
        todo: &GameToAnalyse,
    ) -> Result<AnalysisWork, StoreError> {
        let game = todo.game;
        let line = self
            .game_line(game)?
            .ok_or_else(|| StoreError::Corrupt(game, "the game is gone".to_string()))?;
        let before: Option<(i64, Vec<u8>, Vec<u8>)> = self
            .conn
            .prepare_cached(
                "SELECT positions, evals, details FROM engine_evals
                 WHERE game_id = ?1 AND analysis = ?2",
            )?
            .query_row([game, analysis], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        let corrupt = |why: String| StoreError::Corrupt(game, why);
        let (done, evals, details) = match before {
            Some((n, e, d)) => {
                let evals = stored::decode(&e).map_err(|e| corrupt(format!("analysis: {e}")))?;
                let kept = details::decode(&d).map_or(0, |d| d.len());
                if kept != n as usize || evals.last().is_some_and(|e| e.ply >= kept) {
                    return Err(corrupt("its analysis does not hold together".to_string()));
                }
                (kept, evals, d)
            }
            None => (0, Vec::new(), Vec::new()),
        };
        let result = GameResult::from_code(line.winner.as_deref());
        Ok(AnalysisWork {
            game,
            analysis,
            line,
            positions: todo.positions,
            done,
            evals,
            details,
            result,
        })
    }

    /// Saves what the analyses of `work` found so far, in one transaction; a game whose
    /// analysis is complete gets it as its evaluations.
    pub fn save_analysis(&mut self, work: &[&AnalysisWork]) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        for w in work {
            let evals = stored::encode_stored(&w.evals)
                .map_err(|e| StoreError::Corrupt(w.game, format!("analysis: {e}")))?;
            tx.prepare_cached(
                "INSERT OR REPLACE INTO engine_evals (game_id, analysis, positions, evals, details)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![w.game, w.analysis, w.done as i64, evals, w.details])?;
            if w.is_complete() {
                let first = w.line.start.side_to_move();
                if let Some(row) = EvalsRow::new(&w.evals, first, w.result) {
                    put(&tx, w.game, &row, Some(w.analysis))?;
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The positions `analysis` analysed, over every game.
    pub fn analysed_positions(&self, analysis: i64) -> Result<u64, StoreError> {
        Ok(self.conn.query_row(
            "SELECT coalesce(sum(positions), 0) FROM engine_evals WHERE analysis = ?1",
            [analysis],
            |r| r.get::<_, i64>(0),
        )? as u64)
    }
}
