//! Position queries: the games that reach a position (`kifudex position`) and the moves played
//! from it (`kifudex tree`), through the position index (`store::postings`).
//!
//! The position asked about can be widened: `ignore_hands` (same board, any hands),
//! `either_side` (either side to move), `mirror` (also the board mirrored left to right) and
//! `flip` (also the colours swapped). Each widening adds variants; a game matches when it
//! reaches any of them. Candidates from the index are verified by replaying the game; moves
//! found in a mirrored or flipped variant are turned back into the frame of the position asked
//! about.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::store::postings::{self, PositionIndex, RESULT_GOTE, RESULT_SENTE, key_of};
use crate::store::{GameLine, GameSet, Store, StoreError};
use kifudex_notation::usi::read_usi_line;
use kifudex_notation::{Line, read_bytes};
use kifudex_shogi::{Move, Position};

use super::QueryError;
use super::filter::GameFilter;
use super::search::GameRowSummary;

/// Up to this many candidate games are all verified by replay, so the total is exact; above
/// it only the rows shown are, and the total counts index matches.
pub const VERIFY_ALL: usize = 1000;

/// Up to this many candidate games, a filter is checked on them by id; above it, the filter
/// is resolved over the whole database into a set the scan consults.
pub(super) const WITHIN_MAX: usize = 20_000;

/// The games a filter takes (`None`: all), resolved among `candidates` when they are few.
pub(super) fn resolve_filter(
    store: &Store,
    filter: &GameFilter,
    candidates: Option<&[i64]>,
) -> Result<Option<GameSet>, QueryError> {
    match candidates {
        Some(c) if c.len() <= WITHIN_MAX => filter.resolve(store, Some(c)),
        _ => filter.resolve(store, None),
    }
}

/// How to widen the position asked about.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PositionOptions {
    pub ignore_hands: bool,
    pub either_side: bool,
    pub mirror: bool,
    pub flip: bool,
}

/// Reads a position given as an SFEN, `sfen …`, `startpos [moves …]` or `position …`; with
/// moves, the position after them. A move that is not legal where it is played is an error
/// naming its ply. The one parser of positions for `perft`, `position`, `tree` and the API.
pub fn parse_position(text: &str) -> Result<Position, QueryError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(QueryError::BadArgument(
            "no position given: give an SFEN, `startpos [moves ...]`, `sfen ...` or --file"
                .to_string(),
        ));
    }
    let rec = read_usi_line(t, 1);
    if let Some(e) = rec.errors.first() {
        return Err(QueryError::BadArgument(format!(
            "cannot read the position {t:?}: {} (at character {})",
            e.message, e.column
        )));
    }
    let mut pos = rec.start.clone();
    for (i, node) in rec.main.moves.iter().enumerate() {
        if !pos.is_legal(node.mv) {
            return Err(QueryError::BadArgument(format!(
                "cannot read the position {t:?}: move {} ({}) is not legal in its position",
                i + 1,
                node.mv.usi()
            )));
        }
        pos.apply(node.mv);
    }
    Ok(pos)
}

/// The position in a record file (`-`: standard input) after `ply` main-line moves (after
/// the last one when `ply` is `None`); a KIF board diagram without moves gives its board.
/// A file that cannot be read, holds no game, or whose record stops at a move it cannot read
/// (unless `ply` asks for a position before it) is an error naming the file and line.
pub fn position_from_file(path: &Path, ply: Option<usize>) -> Result<Position, QueryError> {
    let stdin = path == Path::new("-");
    let name = if stdin {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    let bytes = if stdin {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)
            .map_err(|e| QueryError::Input(format!("cannot read {name}: {e}")))?;
        b
    } else {
        std::fs::read(path).map_err(|e| QueryError::Input(format!("cannot read {name}: {e}")))?
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(QueryError::Input(format!("{name}: the file is empty")));
    }
    let read = read_bytes(&bytes, (!stdin).then_some(path));
    let Some(rec) = read.games.first() else {
        let why = read.error.unwrap_or_else(|| "it holds no game".to_string());
        return Err(QueryError::Input(format!("{name}: {why}")));
    };
    let moves = &rec.main.moves;
    if let Some(e) = rec.errors.first() {
        let at = format!("{name}:{}:{}: {}", e.line, e.column, e.message);
        if rec.is_blank() {
            return Err(QueryError::Input(at));
        }
        match ply {
            Some(p) if p <= moves.len() => {}
            _ => {
                return Err(QueryError::Input(format!(
                    "{at}; the record stops after move {n}: give --ply {n} or less for a position it reached",
                    n = moves.len()
                )));
            }
        }
    } else if rec.is_blank() {
        return Err(QueryError::Input(format!(
            "{name}: holds no game (no moves and no board)"
        )));
    }
    let ply = ply.unwrap_or(moves.len());
    if ply > moves.len() {
        return Err(QueryError::BadArgument(format!(
            "{name} has {} in its main line: there is no ply {ply}",
            match moves.len() {
                1 => "1 move".to_string(),
                n => format!("{n} moves"),
            }
        )));
    }
    let mut pos = rec.start.clone();
    for node in &moves[..ply] {
        pos.apply(node.mv);
    }
    Ok(pos)
}

/// A position to look for, and how it relates to the one asked about.
#[derive(Debug, Clone)]
pub(super) struct Variant {
    pos: Position,
    mirror: bool,
    flip: bool,
    /// The side to move is the other one.
    pub(super) swapped: bool,
    pub(super) key: u64,
}

impl Variant {
    /// A move played in this variant, in the frame of the position asked about.
    pub(super) fn back(&self, mv: Move) -> Move {
        let mv = if self.flip { mv.rotate() } else { mv };
        if self.mirror { mv.mirror() } else { mv }
    }

    /// A result byte as seen from the position asked about (colours swap with `flip`).
    pub(super) fn result(&self, r: u8) -> u8 {
        match (self.flip, r) {
            (true, RESULT_SENTE) => RESULT_GOTE,
            (true, RESULT_GOTE) => RESULT_SENTE,
            _ => r,
        }
    }
}

pub(super) fn variants(pos: &Position, o: PositionOptions) -> Vec<Variant> {
    let make = |p: Position, mirror, flip, swapped| Variant {
        key: key_of(p.board_hash()),
        pos: p,
        mirror,
        flip,
        swapped,
    };
    let mut out = vec![make(pos.clone(), false, false, false)];
    if o.mirror {
        out.push(make(pos.mirror(), true, false, false));
    }
    if o.flip {
        for i in 0..out.len() {
            let v = &out[i];
            out.push(make(v.pos.flip(), v.mirror, true, false));
        }
    }
    if o.either_side {
        for i in 0..out.len() {
            let v = &out[i];
            let other = v.pos.side_to_move().opponent();
            out.push(make(v.pos.with_side_to_move(other), v.mirror, v.flip, true));
        }
    }
    // A symmetric position is its own mirror: keep each distinct position once.
    let mut seen = Vec::new();
    out.retain(|v| {
        let id = (v.pos.hash(), v.pos.board_hash());
        let new = !seen.contains(&id);
        seen.push(id);
        new
    });
    out
}

/// The keys the variants are looked up by, each once.
pub(super) fn distinct_keys(vars: &[Variant]) -> Vec<u64> {
    let mut keys: Vec<u64> = vars.iter().map(|v| v.key).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// An index entry matching a variant.
#[derive(Debug, Clone, Copy)]
pub(super) struct Occurrence {
    game: i64,
    segment: u32,
    variant: u16,
}

/// The index entries of every variant, by game. Keys hold no hands: the replay compares them.
/// With `cap`, gives up (`None`) as soon as more than `cap` games are found.
pub(super) fn occurrences(
    store: &Store,
    index: &PositionIndex,
    vars: &[Variant],
    cap: Option<usize>,
    set: Option<&GameSet>,
) -> Result<Option<Vec<Occurrence>>, QueryError> {
    let mut out = Vec::new();
    let mut games: HashSet<i64> = HashSet::new();
    let mut too_many = false;
    for key in distinct_keys(vars) {
        index.for_each(store, key, set, |segment, entry| {
            if let Some(cap) = cap {
                games.insert(entry.game);
                if games.len() > cap {
                    too_many = true;
                    return false;
                }
            }
            for (vi, v) in vars.iter().enumerate() {
                if v.key == key {
                    out.push(Occurrence {
                        game: entry.game,
                        segment: segment as u32,
                        variant: vi as u16,
                    });
                }
            }
            true
        })?;
        if too_many {
            return Ok(None);
        }
    }
    // One variant's entries come by segment and game already.
    if !out.is_sorted_by_key(|oc| (oc.game, oc.variant)) {
        out.sort_unstable_by_key(|oc| (oc.game, oc.variant));
    }
    Ok(Some(out))
}

/// What replaying a game found: the first ply reaching a variant, and every (variant, move
/// played next) at each such ply.
pub(super) struct Replay {
    pub(super) ply: u32,
    /// Moves of the game's main line.
    plies: u32,
    pub(super) next: Vec<(usize, Option<Move>)>,
    /// The game's date ([`GameDate::code`](kifudex_notation::dates::GameDate::code)) and
    /// result byte.
    pub(super) date: u32,
    pub(super) result: u8,
}

/// How to verify candidates.
#[derive(Clone, Copy)]
pub(super) struct Check<'v> {
    pub(super) vars: &'v [Variant],
    pub(super) ignore_hands: bool,
    /// Variations were indexed: a game with variations is replayed whole.
    pub(super) variations: bool,
}

impl Check<'_> {
    /// Records a match of `pos` (at `ply`, `next` played from it) with any variant.
    fn at(&self, pos: &Position, ply: u32, next: Option<Move>, main: bool, r: &mut Found) {
        for (vi, v) in self.vars.iter().enumerate() {
            if pos.board_hash() == v.pos.board_hash() && pos.same_as(&v.pos, self.ignore_hands) {
                let best = if main { &mut r.main } else { &mut r.variation };
                best.get_or_insert(ply);
                r.next.push((vi, next));
            }
        }
    }
}

#[derive(Default)]
struct Found {
    main: Option<u32>,
    variation: Option<u32>,
    next: Vec<(usize, Option<Move>)>,
}

fn scan_line(line: &Line, start: &Position, ply0: u32, main: bool, c: Check<'_>, r: &mut Found) {
    let mut pos = start.clone();
    for (i, node) in line.moves.iter().enumerate() {
        c.at(&pos, ply0 + i as u32, Some(node.mv), main, r);
        for v in &node.variations {
            scan_line(v, &pos, ply0 + i as u32, false, c, r);
        }
        pos.apply(node.mv);
    }
    c.at(&pos, ply0 + line.moves.len() as u32, None, main, r);
}

/// The main lines of the games read during one query: a game replayed for several positions
/// (the tree's position and those after its moves) is read from the database once.
#[derive(Default)]
pub(super) struct Lines(HashMap<i64, Option<std::rc::Rc<GameLine>>>);

impl Lines {
    fn get(
        &mut self,
        store: &Store,
        game: i64,
    ) -> Result<Option<std::rc::Rc<GameLine>>, StoreError> {
        if let Some(line) = self.0.get(&game) {
            return Ok(line.clone());
        }
        let line = store.kept_game_line(game)?;
        self.0.insert(game, line.clone());
        Ok(line)
    }
}

/// Replays a game: `None` when it does not reach the position (or is gone).
pub(super) fn replay(
    store: &Store,
    lines: &mut Lines,
    game: i64,
    c: Check<'_>,
) -> Result<Option<Replay>, StoreError> {
    let Some(line) = lines.get(store, game)? else {
        return Ok(None);
    };
    let (mut pos, moves) = (line.start.clone(), &line.moves);
    let mut found = Found::default();
    if c.variations && line.has_tree {
        if let Some(g) = store.game(game)? {
            scan_line(&g.record.main, &g.record.start, 0, true, c, &mut found);
        }
    } else {
        for i in 0..=moves.len() {
            c.at(&pos, i as u32, moves.get(i).copied(), true, &mut found);
            if let Some(&mv) = moves.get(i) {
                pos.apply(mv);
            }
        }
    }
    Ok(found.main.or(found.variation).map(|ply| Replay {
        ply,
        plies: moves.len() as u32,
        next: found.next,
        date: line.date.map_or(0, |d| d.code()),
        result: postings::result_code(line.winner.as_deref()),
    }))
}

/// Whether a game reaches the position: [`replay`] that stops at the first ply found on
/// the main line.
pub(super) fn reaches(
    store: &Store,
    lines: &mut Lines,
    game: i64,
    c: Check<'_>,
) -> Result<bool, StoreError> {
    let Some(line) = lines.get(store, game)? else {
        return Ok(false);
    };
    let (mut pos, moves) = (line.start.clone(), &line.moves);
    let mut found = Found::default();
    for i in 0..=moves.len() {
        c.at(&pos, i as u32, None, true, &mut found);
        if found.main.is_some() {
            return Ok(true);
        }
        if let Some(&mv) = moves.get(i) {
            pos.apply(mv);
        }
    }
    // Not on the main line: a variation may reach it.
    Ok(c.variations && line.has_tree && replay(store, lines, game, c)?.is_some())
}

/// A game reaching the position.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PositionHit {
    #[serde(flatten)]
    pub game: GameRowSummary,
    /// The first ply at which the game reaches the position (0: its start).
    pub ply: u32,
}

/// The games found (newest first, up to the limit) and how many there are.
#[derive(Debug, Clone)]
pub struct PositionResult {
    pub rows: Vec<PositionHit>,
    pub total: usize,
    /// Whether every game counted in `total` was verified by replay (see [`VERIFY_ALL`]).
    pub exact: bool,
}

/// The distinct games of the occurrences (which come by game), with their segment.
pub(super) fn distinct_games(occ: &[Occurrence]) -> Vec<(i64, u32)> {
    let mut games: Vec<(i64, u32)> = Vec::new();
    for oc in occ {
        if games.last().is_none_or(|g| g.0 != oc.game) {
            games.push((oc.game, oc.segment));
        }
    }
    games
}

/// How `position` orders the games it shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SortBy {
    /// Newest first (oldest first reversed).
    #[default]
    Date,
    /// Longest game first.
    Plies,
    /// The earliest ply at which a game reaches the position first.
    Ply,
}

/// What `position` shows: the filter, the order and how many rows.
#[derive(Debug, Clone, Default)]
pub struct PositionQuery {
    pub options: PositionOptions,
    pub filter: GameFilter,
    pub sort: SortBy,
    pub reverse: bool,
    pub limit: usize,
}

/// The games reaching `pos` (widened as `o` says), newest first, at most `limit`.
pub fn find_position(
    store: &Store,
    pos: &Position,
    o: PositionOptions,
    limit: usize,
) -> Result<PositionResult, QueryError> {
    let q = PositionQuery {
        options: o,
        limit,
        ..PositionQuery::default()
    };
    find_games(store, pos, &q)
}

/// The games reaching `pos` that the query's filter takes, in its order.
pub fn find_games(
    store: &Store,
    pos: &Position,
    q: &PositionQuery,
) -> Result<PositionResult, QueryError> {
    let o = q.options;
    let index = store.position_index(false)?;
    let vars = variants(pos, o);
    let check = Check {
        vars: &vars,
        ignore_hands: o.ignore_hands,
        variations: store.meta(postings::VARIATIONS_META)?.is_some(),
    };
    let occ = occurrences(store, &index, &vars, None, None)?.unwrap_or_default();
    let mut games = distinct_games(&occ);
    if !q.filter.is_empty() {
        let ids: Vec<i64> = games.iter().map(|g| g.0).collect();
        if let Some(set) = resolve_filter(store, &q.filter, Some(&ids))? {
            games.retain(|g| set.contains(g.0));
        }
    }
    let exact = games.len() <= VERIFY_ALL;
    if !exact && q.sort != SortBy::Date {
        return Err(QueryError::BadArgument(format!(
            "--sort {} needs the position in at most {VERIFY_ALL} games (it is in {}): narrow it with a filter",
            match q.sort {
                SortBy::Plies => "plies",
                _ => "ply",
            },
            games.len()
        )));
    }
    // (sort key, game, ply)
    let mut found: Vec<(u32, i64, u32)> = Vec::new();
    let total;
    // Newest first, then the larger id; reversed: oldest first.
    let order = |found: &mut Vec<(u32, i64, u32)>| {
        if q.reverse {
            found.sort_unstable();
        } else {
            found.sort_unstable_by(|a, b| b.cmp(a));
        }
    };
    let mut lines = Lines::default();
    if exact {
        // Few games: replay them all (the replay reads each game's date too).
        for &(game, _) in &games {
            if let Some(r) = replay(store, &mut lines, game, check)? {
                let key = match q.sort {
                    SortBy::Date => r.date,
                    SortBy::Plies => r.plies,
                    // Earliest ply first unless reversed.
                    SortBy::Ply => u32::MAX - r.ply,
                };
                found.push((key, game, r.ply));
            }
        }
        order(&mut found);
        total = found.len();
        found.truncate(q.limit);
    } else {
        // Many: order them by the dates the index keeps, and replay until enough are shown.
        let full = store.position_index(true)?;
        let mut by_date: Vec<(u32, i64, u32)> = games
            .iter()
            .map(|&(g, seg)| (full.segments[seg as usize].date(g), g, 0))
            .collect();
        order(&mut by_date);
        for (date, game, _) in by_date {
            if found.len() >= q.limit {
                break;
            }
            if let Some(r) = replay(store, &mut lines, game, check)? {
                found.push((date, game, r.ply));
            }
        }
        total = games.len();
    }
    Ok(PositionResult {
        rows: hits(store, found)?,
        total,
        exact,
    })
}

/// The games of `found` (`(sort key, game, ply)`, in order) as rows.
pub(super) fn hits(
    store: &Store,
    found: Vec<(u32, i64, u32)>,
) -> Result<Vec<PositionHit>, QueryError> {
    let mut rows = Vec::with_capacity(found.len());
    for (_, game, ply) in found {
        if let Some(summary) = store.summary(game)? {
            rows.push(PositionHit { game: summary, ply });
        }
    }
    Ok(rows)
}

/// What [`find_games`] answers in its default order from every game verified to reach the
/// position, `(date, game, ply)`: newest first (then the larger id), at most `limit`.
pub(super) fn newest_first(
    store: &Store,
    mut found: Vec<(u32, i64, u32)>,
    limit: usize,
) -> Result<PositionResult, QueryError> {
    found.sort_unstable_by(|a, b| b.cmp(a));
    let total = found.len();
    found.truncate(limit);
    Ok(PositionResult {
        rows: hits(store, found)?,
        total,
        exact: true,
    })
}
