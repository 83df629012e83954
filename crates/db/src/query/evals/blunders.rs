//! Blunders: the moves after which the mover's evaluation fell by at least a given drop, over
//! the games a filter takes, worst first. Finding them reads the evaluations only (a scan of
//! 4 bytes a ply, split over the cores); the position, the players and the engine's better
//! move are worked out for the blunders shown.

use std::collections::{BinaryHeap, HashMap};

use super::{QueryError, best_word, scan_parts};
use crate::query::filter::{GameFilter, matching_players};
use crate::store::{GameSet, Side, Store};
use kifudex_evals::drops::{self, MoveDrop};
use kifudex_shogi::Color;

/// What to look for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlunderQuery {
    /// The games (its player, with its side, also picks whose moves count).
    pub filter: GameFilter,
    /// The least drop, in the evaluations' units (points: mates count ±30000).
    pub drop: i32,
    /// Whose moves count when the filter names no player: sente's or gote's (both: `None`).
    pub side: Option<Side>,
    /// At most this many blunders, worst first (`None`: all).
    pub limit: Option<usize>,
}

/// One blunder.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Blunder {
    pub id: i64,
    /// The move's number (it was played from the position after `ply - 1` moves).
    pub ply: usize,
    /// Who played it: `sente` or `gote`.
    pub side: &'static str,
    /// Their name, when the record gives it.
    pub player: Option<String>,
    /// The move, in USI and in Japanese.
    #[serde(rename = "move")]
    pub played: String,
    pub japanese: String,
    /// The position it was played in.
    pub sfen: String,
    /// The evaluations before and after it, sente's point of view (mates count ±30000).
    pub before: i32,
    pub after: i32,
    /// How far the mover's evaluation fell.
    pub drop: i32,
    /// The engine's preferred move in that position, when known and not the move played
    /// (USI, and in Japanese).
    pub better: Option<String>,
    pub better_japanese: Option<String>,
    /// Where the evaluations come from: the record's (`record`) or the engine's name and
    /// limit.
    pub evaluations: String,
}

/// The blunders found: those shown and how many there are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blunders {
    pub rows: Vec<Blunder>,
    pub total: u64,
    /// Games with evaluations that were looked at.
    pub games: u64,
}

/// A blunder as the scan finds it: worst first, then by game and ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Found {
    drop: i32,
    game: i64,
    ply: usize,
    mover: Color,
    before: i32,
    after: i32,
    analysis: Option<i64>,
}

impl Ord for Found {
    /// The greatest is the one listed first.
    fn cmp(&self, o: &Found) -> std::cmp::Ordering {
        self.drop
            .cmp(&o.drop)
            .then(o.game.cmp(&self.game))
            .then(o.ply.cmp(&self.ply))
    }
}

impl PartialOrd for Found {
    fn partial_cmp(&self, o: &Found) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

/// The part of the scan one thread does: the blunders kept so far (the worst `limit`) and the
/// counts.
struct Part {
    /// The best kept at the top of a reversed heap: the one to drop first is the least.
    kept: BinaryHeap<std::cmp::Reverse<Found>>,
    total: u64,
    games: u64,
}

/// The blunders of the games `q.filter` takes.
pub fn find_blunders(store: &Store, q: &BlunderQuery) -> Result<Blunders, QueryError> {
    let games = if q.filter.is_empty() {
        None
    } else {
        Some(store.select_games(&q.filter.selection(store)?, None)?)
    };
    // With a player: the sides each game's player had (and `--as` of them).
    let sides: Option<HashMap<i64, [bool; 2]>> = match &q.filter.player {
        Some(name) => {
            let ids = matching_players(store, name)?;
            let sel = q.filter.selection(store)?;
            let mut map = HashMap::new();
            for g in store.player_games(&sel)? {
                let had = |p: Option<i64>, s: Side| {
                    p.is_some_and(|p| ids.contains(&p)) && q.filter.side.is_none_or(|x| x == s)
                };
                map.insert(g.id, [had(g.sente, Side::Sente), had(g.gote, Side::Gote)]);
            }
            Some(map)
        }
        None => None,
    };
    let wanted = |game: i64, mover: Color| -> bool {
        let i = usize::from(mover == Color::White);
        match &sides {
            Some(map) => map.get(&game).is_some_and(|s| s[i]),
            None => q.side.is_none_or(|s| (s == Side::Gote) == (i == 1)),
        }
    };
    scan(store, games.as_ref(), wanted, q.drop, q.limit)
}

/// The blunders of one game (both sides' moves), in ply order: the rows [`find_blunders`]
/// lists for it. Empty for a game without evaluations.
pub fn game_blunders(store: &Store, game: i64, drop: i32) -> Result<Vec<Blunder>, QueryError> {
    let one = GameSet::from_ids([game]);
    let mut rows = scan(store, Some(&one), |_, _| true, drop, None)?.rows;
    rows.sort_by_key(|b| b.ply);
    Ok(rows)
}

/// The moves of the games of `games` (all with evaluations when `None`) that fell by at
/// least `drop` for a mover `wanted` takes, the worst `limit` described.
fn scan(
    store: &Store,
    games: Option<&GameSet>,
    wanted: impl Fn(i64, Color) -> bool + Sync,
    drop: i32,
    limit: Option<usize>,
) -> Result<Blunders, QueryError> {
    let limit = limit.unwrap_or(usize::MAX);
    let parts = scan_parts(
        store,
        games,
        || Part {
            kept: BinaryHeap::new(),
            total: 0,
            games: 0,
        },
        |part, g, evals| {
            part.games += 1;
            for d in drops::drops(evals, g.first) {
                if d.drop() < drop || !wanted(g.game, d.mover) {
                    continue;
                }
                part.total += 1;
                keep(part, limit, found(g.game, &d, g.analysis));
            }
        },
    )?;
    let mut all: Vec<Found> = Vec::new();
    let (mut total, mut scanned) = (0, 0);
    for p in parts {
        total += p.total;
        scanned += p.games;
        all.extend(p.kept.into_iter().map(|r| r.0));
    }
    all.sort_by(|a, b| b.cmp(a));
    all.truncate(limit);
    let rows = all
        .iter()
        .map(|f| describe(store, f))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Blunders {
        rows,
        total,
        games: scanned,
    })
}

fn found(game: i64, d: &MoveDrop, analysis: Option<i64>) -> Found {
    Found {
        drop: d.drop(),
        game,
        ply: d.ply,
        mover: d.mover,
        before: d.before,
        after: d.after,
        analysis,
    }
}

/// Keeps `f` among the worst `limit` of the part.
fn keep(part: &mut Part, limit: usize, f: Found) {
    if limit == 0 {
        return;
    }
    if part.kept.len() < limit {
        part.kept.push(std::cmp::Reverse(f));
    } else if part.kept.peek().is_some_and(|least| f > least.0) {
        part.kept.pop();
        part.kept.push(std::cmp::Reverse(f));
    }
}

/// A blunder found, with its position, players and the engine's better move.
fn describe(store: &Store, f: &Found) -> Result<Blunder, QueryError> {
    let corrupt =
        |why: &str| QueryError::Store(crate::store::StoreError::Corrupt(f.game, why.to_string()));
    let line = store
        .game_line(f.game)?
        .ok_or_else(|| corrupt("the game is gone"))?;
    let played = *line
        .moves
        .get(f.ply - 1)
        .ok_or_else(|| corrupt("an evaluation beyond the last move"))?;
    let mut pos = line.start.clone();
    let mut last_to = None;
    for &m in &line.moves[..f.ply - 1] {
        pos.apply(m);
        last_to = Some(m.to());
    }
    let japanese = |m| kifudex_notation::movetext::japanese(&pos, m, last_to);
    let summary = store.summary(f.game)?;
    let player = summary.and_then(|s| match f.mover {
        Color::Black => s.sente,
        Color::White => s.gote,
    });
    // The engine's preferred move in the position before: the analysis's, or the one the
    // record's variation gives there.
    let (better, evaluations) = match f.analysis {
        Some(_) => {
            let ge = store
                .game_evals(f.game)?
                .ok_or_else(|| corrupt("its evaluations are gone"))?;
            let best = ge
                .details
                .get(f.ply - 1)
                .and_then(|d| d.best)
                .and_then(|b| match b {
                    kifudex_evals::engine::BestMove::Move(m) => Some(m),
                    _ => None,
                });
            let from = ge
                .analysis
                .map_or_else(String::new, |a| format!("{} ({})", a.engine, a.limits));
            (best, from)
        }
        None => {
            let game = store
                .game(f.game)?
                .ok_or_else(|| corrupt("the game is gone"))?;
            let read = kifudex_evals::read(&game.record);
            let best = kifudex_evals::best_moves(&game.record, &read);
            let at = read
                .iter()
                .zip(best)
                .find(|(e, _)| e.ply == f.ply - 1)
                .and_then(|(_, b)| b);
            (at, "record".to_string())
        }
    };
    let better = better.filter(|&b| b != played);
    Ok(Blunder {
        id: f.game,
        ply: f.ply,
        side: match f.mover {
            Color::Black => "sente",
            Color::White => "gote",
        },
        player,
        played: played.usi(),
        japanese: japanese(played),
        sfen: pos.to_sfen(),
        before: f.before,
        after: f.after,
        drop: f.drop,
        better: better.map(|b| best_word(kifudex_evals::engine::BestMove::Move(b))),
        better_japanese: better.map(japanese),
        evaluations,
    })
}
