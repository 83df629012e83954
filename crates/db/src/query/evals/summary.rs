//! What the evaluations of many games say together: the calibration (for each size of
//! advantage, how often the side ahead won: `stats --evals`) and each player's loss per
//! move and blunders (`players`).

use std::collections::HashMap;

use super::{QueryError, scan_parts};
use crate::query::filter::GameFilter;
use crate::store::{GameSet, Side, Store};
use kifudex_evals::calibration::{Calibration, Outcome};
use kifudex_evals::drops;
use kifudex_notation::GameResult;
use kifudex_shogi::Color;

/// The drop from which a move counts as a player's blunder in `players` (the default of
/// `kifudex blunders`).
pub const BLUNDER_DROP: i32 = 300;

/// The calibration of the evaluations of the games `filter` takes, in buckets `width` points
/// wide: games without a known result are left out.
pub fn calibration(
    store: &Store,
    filter: &GameFilter,
    width: i32,
) -> Result<Calibration, QueryError> {
    let games = filter.resolve(store, None)?;
    let parts = scan_parts(
        store,
        games.as_ref(),
        || Calibration::new(width),
        |c, g, evals| {
            let outcome = match g.result {
                GameResult::Win(w) => Outcome::Won(w),
                GameResult::Draw => Outcome::Draw,
                GameResult::Unknown => return,
            };
            c.add_game(evals, outcome);
        },
    )?;
    let mut all = Calibration::new(width);
    for p in &parts {
        all.merge(p);
    }
    Ok(all)
}

/// A player's moves as the evaluations judge them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct PlayerEvals {
    /// Games with at least one of their moves evaluated before and after.
    pub games: u64,
    /// Their moves evaluated before and after.
    pub moves: u64,
    /// The sum of those moves' losses, counted as lichess counts them
    /// ([`kifudex_evals::drops::MoveDrop::capped_loss`]).
    pub loss: u64,
    /// Those moves whose drop was [`BLUNDER_DROP`] or more.
    pub blunders: u64,
}

impl PlayerEvals {
    /// The average loss per move.
    pub fn average_loss(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.loss as f64 / self.moves as f64)
    }

    pub fn add(&mut self, o: &PlayerEvals) {
        self.games += o.games;
        self.moves += o.moves;
        self.loss += o.loss;
        self.blunders += o.blunders;
    }
}

/// Each player's moves as the evaluations judge them, by player id, over the games with
/// evaluations (those of `games`, when given); with `side`, only the moves they made on it.
pub fn player_evals(
    store: &Store,
    games: Option<&GameSet>,
    side: Option<Side>,
) -> Result<HashMap<i64, PlayerEvals>, QueryError> {
    let players = store.evaluated_game_players()?;
    if players.is_empty() {
        return Ok(HashMap::new());
    }
    let parts = scan_parts(store, games, HashMap::new, |acc, g, evals| {
        let Some(ids) = players.get(&g.game) else {
            return;
        };
        let mut per_side = [PlayerEvals::default(); 2];
        for d in drops::drops(evals, g.first) {
            let s = &mut per_side[usize::from(d.mover == Color::White)];
            s.moves += 1;
            s.loss += d.capped_loss() as u64;
            s.blunders += u64::from(d.drop() >= BLUNDER_DROP);
        }
        for (i, mut e) in per_side.into_iter().enumerate() {
            let this_side = if i == 0 { Side::Sente } else { Side::Gote };
            if e.moves == 0 || side.is_some_and(|s| s != this_side) {
                continue;
            }
            let Some(p) = ids[i] else { continue };
            e.games = 1;
            acc.entry(p).or_insert_with(PlayerEvals::default).add(&e);
        }
    })?;
    let mut all: HashMap<i64, PlayerEvals> = HashMap::new();
    for part in parts {
        for (p, e) in part {
            all.entry(p).or_default().add(&e);
        }
    }
    Ok(all)
}
