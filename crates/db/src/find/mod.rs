//! Pattern search: a query language over every position of every game's main line
//! (`kifudex find`), and positions like a given one (`kifudex find --like`). Asks `store` for
//! the games (the ids a filter selects, each game's start and two-byte moves) and replays
//! them; speaks no SQL.
//!
//! The language (grammar and examples in `docs/find.md`): pieces on squares, sets of squares
//! and areas (`▲９九玉`, `black rook in file 2`), hands and material (`▲歩 in hand >= 3`),
//! the side to move and the ply (`手番 ▲`, `手数 30..60`), the last move (`直前 ▲５三歩打`),
//! strategies and castles (`△四間飛車`, `▲美濃囲い`), joined by `and`, `or`, `not` and
//! parentheses.
//!
//! A strategy holds at a ply when the game was recognised with it (or a strategy below it in
//! the hierarchy) at that ply or before; a castle holds when the shape of one of its patterns
//! (or of a castle below it) stands on the board at that ply, from the first ply of the
//! pattern's window on (居玉: from ply 30), whatever came before: a castle built and then
//! broken holds while it stands.

mod ast;
mod board;
mod eval;
mod explain;
mod like;
mod parse;
mod reach;
mod scan;
mod words;

pub use ast::{Area, Cmp, Cond, Expr, LastMove, PieceCond, Place, Query, Term, What, value};
pub use eval::Compiled;
pub use explain::explain;
pub use like::SquareDiff;
pub use parse::{ParseError, parse};
pub use scan::{Control, Outcome, Progress};

use crate::query::{GameFilter, QueryError};
use crate::store::{GameSet, GameSummary, Starts, Store, StoreError};
use kifudex_shogi::{Move, Position};

use board::Board;
use eval::{Here, Names, Played, Prepared, Signature};
use scan::{Kept, Units, decode};

/// What can go wrong with a search.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    #[error("cannot read the query: {error}")]
    Parse { query: String, error: ParseError },
    #[error(transparent)]
    Query(#[from] QueryError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl FindError {
    /// For a query that cannot be read: the query with carets under the part at fault.
    pub fn pointer(&self) -> Option<String> {
        match self {
            FindError::Parse { query, error } => Some(error.pointer(query)),
            _ => None,
        }
    }
}

/// Reads a query; the error keeps the text for [`FindError::pointer`].
pub fn parse_query(text: &str) -> Result<Query, FindError> {
    parse(text).map_err(|error| FindError::Parse {
        query: text.to_string(),
        error,
    })
}

/// What `find` gives back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FindOptions {
    /// Every ply at which the query holds, not only the first.
    pub all: bool,
    /// The most games to list (all are counted).
    pub limit: usize,
}

/// A game in which the query holds.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FoundGame {
    #[serde(flatten)]
    pub game: GameSummary,
    /// The first ply at which the query holds (0: the start).
    pub ply: u32,
    /// With `all`: the plies at which it holds, as ranges `[first, last]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<[u32; 2]>>,
}

/// The games found (by id, up to the limit), and how many.
#[derive(Debug, Clone)]
pub struct Found {
    pub rows: Vec<FoundGame>,
    /// Games in which the query holds.
    pub games: u64,
    /// Positions at which it holds (with `all`; else one a game).
    pub positions: u64,
    pub outcome: Outcome,
}

/// The ids a filter selects, narrowed to the games recognised with the names the query
/// needs; `None`: every game.
fn candidates(
    store: &Store,
    filter: &GameFilter,
    required: Option<eval::Required>,
) -> Result<Option<GameSet>, FindError> {
    let selected = filter.resolve(store, None)?;
    let Some(required) = required else {
        return Ok(selected);
    };
    let mut named = GameSet::default();
    for (names, side) in required {
        for id in store.games_listed(&names, side)? {
            named.insert(id);
        }
    }
    Ok(Some(match selected {
        None => named,
        Some(s) => GameSet::from_ids(named.ids().filter(|&id| s.contains(id))),
    }))
}

fn units(store: &Store, set: Option<GameSet>) -> Result<Units, FindError> {
    Ok(match set {
        Some(s) => Units::Ids(s.ids().collect()),
        None => Units::All {
            last: store.game_span()?.0,
        },
    })
}

/// One game's hits: the first ply, the ranges of plies (with `all`), how many positions.
type Hits = (u32, Vec<[u32; 2]>, u64);

/// Replays one game and tests the query where it may hold.
/// `board` is the start's, `prep` what the query prepared for it, `codes` the moves as
/// stored (two bytes a move; a code no move gives ends the line); `moves` a buffer. The moves
/// are decoded only for a game the query may hold in.
fn hits_in(
    q: &Compiled,
    start: &Position,
    board: &Board,
    prep: &Prepared,
    codes: &[u8],
    moves: &mut Vec<Move>,
    all: bool,
) -> Option<Hits> {
    let (lo, hi) = q.plies;
    let limit = usize::try_from(hi).unwrap_or(usize::MAX);
    // Recognition reads the opening's plies, whatever the query's.
    let wanted = if q.needs_recognition {
        usize::MAX
    } else {
        limit
    };
    let last = if q.prefilters {
        let sig = Signature::read(board, codes, limit);
        if lo as usize > sig.len() || !q.may_hold(board, prep, &sig) {
            return None;
        }
        decode(codes, wanted, moves);
        sig.len()
    } else {
        decode(codes, wanted, moves);
        let last = moves.len().min(limit);
        if lo as usize > last {
            return None;
        }
        last
    };
    let mut board = board.clone();
    let names = q.needs_recognition.then(|| Names::of(start, moves));
    let mut first = None;
    let mut ranges: Vec<[u32; 2]> = Vec::new();
    let mut count = 0u64;
    let mut test = |board: &Board, ply: u32, played: Option<Played>| -> bool {
        let here = Here {
            pos: board,
            ply,
            last: played,
            recognised: names.as_ref(),
        };
        if !q.holds(&here) {
            return false;
        }
        count += 1;
        first.get_or_insert(ply);
        match ranges.last_mut() {
            Some(r) if r[1] + 1 == ply => r[1] = ply,
            _ => ranges.push([ply, ply]),
        }
        true
    };
    if lo == 0 && test(&board, 0, None) && !all {
        return Some((0, ranges, count));
    }
    for (i, &mv) in moves[..last].iter().enumerate() {
        let Some(m) = board.play(mv) else { break };
        let ply = i as u32 + 1;
        let played = Played {
            mv,
            piece: m.piece,
            captured: m.captured,
        };
        if ply >= lo && test(&board, ply, Some(played)) && !all {
            break;
        }
    }
    first.map(|f| (f, ranges, count))
}

/// The plies of one game (its start and main line) at which the query holds, as ranges
/// `[first, last]`: the scan's test of a game, without a database (a move that cannot be
/// played ends the line).
pub fn plies_in(query: &Compiled, start: &Position, moves: &[Move]) -> Vec<[u32; 2]> {
    one_game(query, start, moves, true).map_or_else(Vec::new, |h| h.1)
}

/// The first ply of one game at which the query holds (see [`plies_in`]).
pub fn first_in(query: &Compiled, start: &Position, moves: &[Move]) -> Option<u32> {
    one_game(query, start, moves, false).map(|h| h.0)
}

/// The scan's test of one game, its moves coded as a row stores them.
fn one_game(query: &Compiled, start: &Position, moves: &[Move], all: bool) -> Option<Hits> {
    let board = Board::of(start);
    let prep = query.prepare(&board);
    let codes: Vec<u8> = moves
        .iter()
        .flat_map(|m| m.to_u16().to_le_bytes())
        .collect();
    hits_in(query, start, &board, &prep, &codes, &mut Vec::new(), all)
}

/// The games (and plies) of the database where the query holds, among those `filter`
/// selects: by id, the first `limit` listed, all counted.
pub fn find(
    store: &Store,
    query: &Query,
    filter: &GameFilter,
    options: &FindOptions,
    control: &Control<'_>,
) -> Result<Found, FindError> {
    let q = Compiled::new(query);
    let (lo, hi) = q.plies;
    if lo > hi {
        // A query that holds at no ply (`ply < 0`) still checks the filter.
        filter.resolve(store, None)?;
        return Ok(Found {
            rows: Vec::new(),
            games: 0,
            positions: 0,
            outcome: Outcome::default(),
        });
    }
    let set = candidates(store, filter, q.required_names())?;
    let units = units(store, set)?;
    struct Acc {
        kept: Kept<i64, Hits>,
        games: u64,
        positions: u64,
        /// By the rows' start number: the start's board, and what the query prepared for
        /// it (almost every game has the same start; as many kept as the reader keeps).
        starts: Vec<(usize, Board, Prepared)>,
    }
    let (accs, outcome) = scan::run(
        store,
        &units,
        lo,
        control,
        || Acc {
            kept: Kept::new(options.limit),
            games: 0,
            positions: 0,
            starts: Vec::new(),
        },
        |acc, row, moves| {
            let i = match acc.starts.iter().position(|s| s.0 == row.start_key) {
                Some(i) => i,
                None => {
                    if acc.starts.len() >= Starts::KEPT {
                        acc.starts.clear();
                    }
                    let board = Board::of(row.start);
                    let prep = q.prepare(&board);
                    acc.starts.push((row.start_key, board, prep));
                    acc.starts.len() - 1
                }
            };
            let (_, board, prep) = &acc.starts[i];
            let Some(h) = hits_in(&q, row.start, board, prep, row.moves, moves, options.all) else {
                return 0;
            };
            acc.games += 1;
            acc.positions += h.2;
            if acc.kept.wants(&row.id) {
                acc.kept.add(row.id, h);
            }
            1
        },
    )?;
    let mut kept = Kept::new(options.limit);
    let (mut games, mut positions) = (0, 0);
    for a in accs {
        games += a.games;
        positions += a.positions;
        kept.merge(a.kept);
    }
    let mut rows = Vec::new();
    for (id, (ply, ranges, _)) in kept.into_rows() {
        if let Some(game) = store.summary(id)? {
            rows.push(FoundGame {
                game,
                ply,
                matches: options.all.then_some(ranges),
            });
        }
    }
    Ok(Found {
        rows,
        games,
        positions,
        outcome,
    })
}

/// How near `--like` looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LikeOptions {
    /// The most squares whose contents may differ.
    pub diff: u32,
    /// Hands may differ.
    pub ignore_hands: bool,
    /// Every position near enough, not only each game's nearest.
    pub all: bool,
    /// The most rows to list (all are counted).
    pub limit: usize,
}

/// A position like the one given.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LikeRow {
    #[serde(flatten)]
    pub game: GameSummary,
    pub ply: u32,
    /// How many squares differ.
    pub diff: u32,
    /// The squares that differ, with what stands there in the game and in the position given.
    pub squares: Vec<SquareDiff>,
}

/// The positions found (nearest first, then by game and ply, up to the limit), and how many.
#[derive(Debug, Clone)]
pub struct LikeFound {
    pub rows: Vec<LikeRow>,
    /// Games with a position near enough.
    pub games: u64,
    /// Positions near enough.
    pub positions: u64,
    pub outcome: Outcome,
}

/// The positions of the games `filter` selects that are like `target`: the same side to move,
/// at most `diff` squares different, the same hands unless they are ignored. Each game's
/// nearest position (the earliest of the nearest), or with `all` every one.
pub fn like(
    store: &Store,
    target: &Position,
    filter: &GameFilter,
    options: &LikeOptions,
    control: &Control<'_>,
) -> Result<LikeFound, FindError> {
    let t = like::Target::new(target, options.diff, options.ignore_hands);
    let units = units(store, filter.resolve(store, None)?)?;
    type Key = (u32, i64, u32);
    struct Acc {
        kept: Kept<Key, Vec<SquareDiff>>,
        games: u64,
        positions: u64,
    }
    let (accs, outcome) = scan::run(
        store,
        &units,
        0,
        control,
        || Acc {
            kept: Kept::new(options.limit),
            games: 0,
            positions: 0,
        },
        |acc, row, moves| {
            decode(row.moves, usize::MAX, moves);
            let id = row.id;
            let kept = &acc.kept;
            let (near, count) = t.scan(row.start, moves, options.all, &mut |diff, ply| {
                kept.wants(&(diff, id, ply))
            });
            for n in near {
                acc.kept.add((n.diff, id, n.ply), n.squares);
            }
            acc.positions += count;
            let found = u64::from(count > 0);
            acc.games += found;
            found
        },
    )?;
    let mut kept = Kept::new(options.limit);
    let (mut games, mut positions) = (0, 0);
    for a in accs {
        games += a.games;
        positions += a.positions;
        kept.merge(a.kept);
    }
    let mut rows = Vec::new();
    let mut summaries: std::collections::HashMap<i64, Option<GameSummary>> = Default::default();
    for ((diff, id, ply), squares) in kept.into_rows() {
        let summary = match summaries.get(&id) {
            Some(s) => s.clone(),
            None => {
                let s = store.summary(id)?;
                summaries.insert(id, s.clone());
                s
            }
        };
        if let Some(game) = summary {
            rows.push(LikeRow {
                game,
                ply,
                diff,
                squares,
            });
        }
    }
    Ok(LikeFound {
        rows,
        games,
        positions,
        outcome,
    })
}
