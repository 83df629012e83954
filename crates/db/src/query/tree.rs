//! `tree`: the moves played from a position in the games a filter takes, with their results,
//! first and last played, and the games reaching the position after each (transpositions).
//! The lookup and verification it shares with `position` live in [`super::position`].

use std::collections::{BinaryHeap, HashMap};

use crate::store::postings::{self, PositionIndex, date_text};
use crate::store::{GameSet, Store};
use kifudex_notation::movetext::japanese;
use kifudex_shogi::{Color, Move, Position};

use super::QueryError;
use super::filter::GameFilter;
use super::position::{
    Check, Lines, PositionOptions, PositionQuery, PositionResult, VERIFY_ALL, Variant, WITHIN_MAX,
    distinct_games, distinct_keys, find_games, hits, newest_first, occurrences, reaches, replay,
    resolve_filter, variants,
};

/// A move played from the position, with how it went.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TreeRow {
    /// USI.
    #[serde(rename = "move")]
    pub mv: String,
    pub japanese: String,
    /// Games that played it here.
    pub count: u64,
    pub sente_wins: u64,
    pub gote_wins: u64,
    pub draws: u64,
    /// Points for the side to move (a win 1, a draw ½) per game with a known result.
    pub score: Option<f64>,
    pub last_date: Option<String>,
    /// The earliest date it was played on (the novelty), and in which game (the smallest id
    /// among those of that date; a game of unknown date only when no game has one).
    pub first_date: Option<String>,
    pub first_game: i64,
    /// Games that reach the position after the move by any order of moves (transpositions
    /// included), the filter applied; `None` when not asked for ([`tree_with`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reached: Option<u64>,
}

/// The moves played from the position, most played first, and the games reaching it.
#[derive(Debug, Clone)]
pub struct TreeResult {
    pub rows: Vec<TreeRow>,
    /// Games reaching the position (those that ended there included).
    pub games: usize,
    /// Whether every game was verified by replay (see [`VERIFY_ALL`]).
    pub exact: bool,
}

#[derive(Default)]
struct MoveStats {
    count: u64,
    results: [u64; 4],
    last: u32,
    last_game: i64,
    /// (date, game) of the first time: unknown dates sort last.
    first: Option<(u32, i64)>,
}

impl MoveStats {
    /// Counts a game (once, however often it played the move: its entries come together).
    fn add(&mut self, game: i64, result: u8, date: u32) {
        if self.last_game == game {
            return;
        }
        self.last_game = game;
        self.count += 1;
        self.results[(result as usize).min(3)] += 1;
        self.last = self.last.max(date);
        self.first_at(date, game);
    }

    fn first_at(&mut self, date: u32, game: i64) {
        let key = (if date == 0 { u32::MAX } else { date }, game);
        if self.first.is_none_or(|f| key < f) {
            self.first = Some(key);
        }
    }

    fn merge(&mut self, s: &MoveStats) {
        self.count += s.count;
        for (a, b) in self.results.iter_mut().zip(s.results) {
            *a += b;
        }
        self.last = self.last.max(s.last);
        if let Some((d, g)) = s.first {
            self.first_at(if d == u32::MAX { 0 } else { d }, g);
        }
    }
}

/// The moves played from `pos` (widened as `o` says).
pub fn tree(store: &Store, pos: &Position, o: PositionOptions) -> Result<TreeResult, QueryError> {
    tree_filtered(store, pos, o, &GameFilter::default())
}

/// The filter as a game set for a position: checked on the candidates when they are few.
fn filter_for(
    store: &Store,
    index: &PositionIndex,
    vars: &[Variant],
    filter: &GameFilter,
) -> Result<Option<GameSet>, QueryError> {
    if filter.is_empty() {
        return Ok(None);
    }
    let candidates = occurrences(store, index, vars, Some(WITHIN_MAX), None)?;
    let ids = candidates.map(|occ| {
        distinct_games(&occ)
            .into_iter()
            .map(|g| g.0)
            .collect::<Vec<_>>()
    });
    resolve_filter(store, filter, ids.as_deref())
}

/// How many of the games in `set` (all when `None`) reach `pos` widened as `o` says: with
/// the lines to replay (`verify`), verified by replay up to [`VERIFY_ALL`] games; counted
/// from the index above, or without them (the tree's own counts came from the index: it is
/// not exact anyway).
fn count_reaching(
    store: &Store,
    verify: Option<&mut Lines>,
    index: &PositionIndex,
    pos: &Position,
    o: PositionOptions,
    variations: bool,
    set: Option<&GameSet>,
) -> Result<(u64, bool), QueryError> {
    let vars = variants(pos, o);
    if let Some(lines) = verify
        && let Some(occ) = occurrences(store, index, &vars, Some(VERIFY_ALL), set)?
    {
        let check = Check {
            vars: &vars,
            ignore_hands: o.ignore_hands,
            variations,
        };
        let mut n = 0;
        for (game, _) in distinct_games(&occ) {
            if reaches(store, lines, game, check)? {
                n += 1;
            }
        }
        return Ok((n, true));
    }
    let mut games = GameSet::default();
    for key in distinct_keys(&vars) {
        index.for_each(store, key, set, |_, e| {
            games.insert(e.game);
            true
        })?;
    }
    Ok((games.len() as u64, false))
}

/// The moves played from `pos` (widened as `o` says) in the games the filter takes, with the
/// games reaching the position after each move.
pub fn tree_filtered(
    store: &Store,
    pos: &Position,
    o: PositionOptions,
    filter: &GameFilter,
) -> Result<TreeResult, QueryError> {
    tree_with(store, pos, o, filter, true)
}

/// [`tree_filtered`], with the games reaching the position after each move (`reached`, a
/// lookup of its own per move) only when asked.
pub fn tree_with(
    store: &Store,
    pos: &Position,
    o: PositionOptions,
    filter: &GameFilter,
    with_reached: bool,
) -> Result<TreeResult, QueryError> {
    tree_inner(store, pos, o, filter, with_reached, None)
}

/// [`tree_with`] and the games reaching the position, newest first, at most `limit`: what
/// [`find_games`] answers for the same position and filter. When the tree replays every game
/// (at most [`VERIFY_ALL`]), the list comes from those replays instead of a second round of
/// them (the explorer asks both for every position it shows).
pub fn tree_and_games(
    store: &Store,
    pos: &Position,
    o: PositionOptions,
    filter: &GameFilter,
    with_reached: bool,
    limit: usize,
) -> Result<(TreeResult, PositionResult), QueryError> {
    // A few more candidates than shown: a candidate the replay rejects (a hash collision)
    // leaves the others enough.
    let mut reaching = Reaching {
        keep: limit + 16,
        ..Reaching::default()
    };
    let tree = tree_inner(store, pos, o, filter, with_reached, Some(&mut reaching))?;
    // Every game of the position was replayed (the tree may still be inexact: a position after
    // one of its moves may be in too many games to replay).
    if reaching.replayed_all {
        return Ok((tree, newest_first(store, reaching.replayed, limit)?));
    }
    // Many games: the tree read every entry and kept the newest; with one key to look up,
    // each game came once, so its count is the list's total.
    let vars = variants(pos, o);
    if distinct_keys(&vars).len() == 1 {
        let check = Check {
            vars: &vars,
            ignore_hands: o.ignore_hands,
            variations: store.meta(postings::VARIATIONS_META)?.is_some(),
        };
        let candidates = reaching.newest.into_sorted_vec();
        let complete = candidates.len() < reaching.keep;
        let mut lines = Lines::default();
        let mut found = Vec::new();
        for std::cmp::Reverse((date, game)) in candidates {
            if found.len() >= limit {
                break;
            }
            if let Some(r) = replay(store, &mut lines, game, check)? {
                found.push((date, game, r.ply));
            }
        }
        if found.len() >= limit || complete {
            let games = PositionResult {
                rows: hits(store, found)?,
                total: tree.games,
                exact: false,
            };
            return Ok((tree, games));
        }
    }
    let q = PositionQuery {
        options: o,
        filter: filter.clone(),
        limit,
        ..PositionQuery::default()
    };
    let games = find_games(store, pos, &q)?;
    Ok((tree, games))
}

/// What the tree gathers for [`tree_and_games`] as it reads the games.
#[derive(Default)]
struct Reaching {
    /// Whether every game of the position was replayed, and those found to reach it,
    /// `(date, game, ply)`.
    replayed_all: bool,
    replayed: Vec<(u32, i64, u32)>,
    /// Otherwise the `keep` newest games of the index's entries, `(date, game)` (the larger
    /// id first among those of one date), as [`find_games`] orders them.
    newest: BinaryHeap<std::cmp::Reverse<(u32, i64)>>,
    keep: usize,
}

impl Reaching {
    fn offer(&mut self, date: u32, game: i64) {
        let item = std::cmp::Reverse((date, game));
        if self.newest.len() < self.keep {
            self.newest.push(item);
        } else if self.newest.peek().is_some_and(|least| item < *least) {
            self.newest.pop();
            self.newest.push(item);
        }
    }
}

/// The tree; with `reaching`, every game the replays found to reach the position, as
/// `(date, game, ply)` (only when the result is exact).
fn tree_inner(
    store: &Store,
    pos: &Position,
    o: PositionOptions,
    filter: &GameFilter,
    with_reached: bool,
    mut reaching: Option<&mut Reaching>,
) -> Result<TreeResult, QueryError> {
    let mut index = store.position_index(false)?;
    let vars = variants(pos, o);
    let variations = store.meta(postings::VARIATIONS_META)?.is_some();
    let check = Check {
        vars: &vars,
        ignore_hands: o.ignore_hands,
        variations,
    };
    let set = filter_for(store, &index, &vars, filter)?;
    let set = set.as_ref();
    // (move, played by the side not to move in `pos`) → stats
    let mut stats: HashMap<(Move, bool), MoveStats> = HashMap::new();
    let games;
    let occ = occurrences(store, &index, &vars, Some(VERIFY_ALL), set)?;
    let mut exact = occ.is_some();
    let mut lines = Lines::default();
    if let Some(occ) = occ {
        // Few games: replay each (which also reads its result and date).
        if let Some(reaching) = reaching.as_deref_mut() {
            reaching.replayed_all = true;
        }
        let mut n = 0;
        for (game, _) in distinct_games(&occ) {
            let Some(r) = replay(store, &mut lines, game, check)? else {
                continue;
            };
            n += 1;
            if let Some(reaching) = reaching.as_deref_mut() {
                reaching.replayed.push((r.date, game, r.ply));
            }
            for (vi, mv) in r.next {
                if let Some(mv) = mv {
                    let v = &vars[vi];
                    let s = stats.entry((v.back(mv), v.swapped)).or_default();
                    s.add(game, v.result(r.result), r.date);
                }
            }
        }
        games = n;
    } else {
        // Many games: count by (variant, move code) in a table as the index hands entries
        // out, with results and dates from the index's columns; then turn codes into moves.
        index = store.position_index(true)?;
        let mut slot_of: Vec<u32> = vec![u32::MAX; vars.len() << 14];
        let mut slots: Vec<(usize, u16, MoveStats)> = Vec::new();
        let mut distinct = 0usize;
        let mut last = None;
        for key in distinct_keys(&vars) {
            index.for_each(store, key, set, |si, e| {
                if last != Some(e.game) {
                    distinct += 1;
                    last = Some(e.game);
                    if let Some(reaching) = reaching.as_deref_mut() {
                        reaching.offer(index.segments[si].date(e.game), e.game);
                    }
                }
                let Some(code) = e.next.checked_sub(1) else {
                    return true;
                };
                let segment = &index.segments[si];
                for (vi, v) in vars.iter().enumerate() {
                    if v.key != key {
                        continue;
                    }
                    let Some(slot) = slot_of.get_mut(vi << 14 | code as usize) else {
                        continue;
                    };
                    if *slot == u32::MAX {
                        *slot = slots.len() as u32;
                        slots.push((vi, code, MoveStats::default()));
                    }
                    let s = &mut slots[*slot as usize].2;
                    s.add(
                        e.game,
                        v.result(segment.result(e.game)),
                        segment.date(e.game),
                    );
                }
                true
            })?;
        }
        games = distinct;
        for (vi, code, s) in slots {
            let Some(mv) = postings::code_move(code) else {
                continue;
            };
            let v = &vars[vi];
            stats.entry((v.back(mv), v.swapped)).or_default().merge(&s);
        }
    }
    let us = pos.side_to_move();
    let mut rows: Vec<TreeRow> = Vec::with_capacity(stats.len());
    for ((mv, swapped), s) in stats {
        let [_, sente, gote, draws] = s.results;
        let (wins, losses) = match us {
            Color::Black => (sente, gote),
            Color::White => (gote, sente),
        };
        let decided = wins + losses + draws;
        let mover = if swapped {
            pos.with_side_to_move(us.opponent())
        } else {
            pos.clone()
        };
        let after = {
            let mut p = mover.clone();
            p.play(mv).is_ok().then_some(p)
        };
        let reached = match &after {
            _ if !with_reached => None,
            Some(p) => {
                let verify = exact.then_some(&mut lines);
                let (n, ex) = count_reaching(store, verify, &index, p, o, variations, set)?;
                exact &= ex;
                Some(n)
            }
            None => Some(s.count),
        };
        let (first_date, first_game) = match s.first {
            Some((d, g)) => (date_text(if d == u32::MAX { 0 } else { d }), g),
            None => (None, 0),
        };
        rows.push(TreeRow {
            mv: mv.usi(),
            japanese: if after.is_some() {
                japanese(&mover, mv, None)
            } else {
                mv.usi()
            },
            count: s.count,
            sente_wins: sente,
            gote_wins: gote,
            draws,
            score: (decided > 0).then(|| (wins as f64 + draws as f64 / 2.0) / decided as f64),
            last_date: date_text(s.last),
            first_date,
            first_game,
            reached,
        });
    }
    rows.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.mv.cmp(&b.mv)));
    Ok(TreeResult { rows, games, exact })
}
