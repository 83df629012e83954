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

use crate::notation::movetext::japanese;
use crate::notation::usi::read_usi_line;
use crate::notation::{Line, read_bytes};
use crate::shogi::{Color, Move, Position};
use crate::store::postings::{self, PositionIndex, RESULT_GOTE, RESULT_SENTE, date_text, key_of};
use crate::store::{GameLine, GameSet, Store, StoreError};

use super::QueryError;
use super::filter::GameFilter;
use super::search::GameRowSummary;

/// Up to this many candidate games are all verified by replay, so the total is exact; above
/// it only the rows shown are, and the total counts index matches.
pub const VERIFY_ALL: usize = 1000;

/// Up to this many candidate games, a filter is checked on them by id; above it, the filter
/// is resolved over the whole database into a set the scan consults.
const WITHIN_MAX: usize = 20_000;

/// The games a filter takes (`None`: all), resolved among `candidates` when they are few.
fn resolve_filter(
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
struct Variant {
    pos: Position,
    mirror: bool,
    flip: bool,
    /// The side to move is the other one.
    swapped: bool,
    key: u64,
}

impl Variant {
    /// A move played in this variant, in the frame of the position asked about.
    fn back(&self, mv: Move) -> Move {
        let mv = if self.flip { mv.rotate() } else { mv };
        if self.mirror { mv.mirror() } else { mv }
    }

    /// A result byte as seen from the position asked about (colours swap with `flip`).
    fn result(&self, r: u8) -> u8 {
        match (self.flip, r) {
            (true, RESULT_SENTE) => RESULT_GOTE,
            (true, RESULT_GOTE) => RESULT_SENTE,
            _ => r,
        }
    }
}

fn variants(pos: &Position, o: PositionOptions) -> Vec<Variant> {
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
fn distinct_keys(vars: &[Variant]) -> Vec<u64> {
    let mut keys: Vec<u64> = vars.iter().map(|v| v.key).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// An index entry matching a variant.
#[derive(Debug, Clone, Copy)]
struct Occurrence {
    game: i64,
    segment: u32,
    variant: u16,
}

/// The index entries of every variant, by game. Keys hold no hands: the replay compares them.
/// With `cap`, gives up (`None`) as soon as more than `cap` games are found.
fn occurrences(
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
        index.for_each(store, key, |segment, entry| {
            if set.is_some_and(|s| !s.contains(entry.game)) {
                return true;
            }
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
struct Replay {
    ply: u32,
    /// Moves of the game's main line.
    plies: u32,
    next: Vec<(usize, Option<Move>)>,
    /// The game's date ([`postings::date_code`]) and result byte.
    date: u32,
    result: u8,
}

/// How to verify candidates.
#[derive(Clone, Copy)]
struct Check<'v> {
    vars: &'v [Variant],
    ignore_hands: bool,
    /// Variations were indexed: a game with variations is replayed whole.
    variations: bool,
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

/// Replays a game: `None` when it does not reach the position (or is gone).
/// The main lines of the games read during one query: a game replayed for several positions
/// (the tree's position and those after its moves) is read from the database once.
#[derive(Default)]
struct Lines(HashMap<i64, Option<std::rc::Rc<GameLine>>>);

impl Lines {
    fn get(
        &mut self,
        store: &Store,
        game: i64,
    ) -> Result<Option<std::rc::Rc<GameLine>>, StoreError> {
        if let Some(line) = self.0.get(&game) {
            return Ok(line.clone());
        }
        let line = store.game_line(game)?.map(std::rc::Rc::new);
        self.0.insert(game, line.clone());
        Ok(line)
    }
}

fn replay(
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
        date: postings::date_code(line.date.as_deref()),
        result: postings::result_code(line.winner.as_deref()),
    }))
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
fn distinct_games(occ: &[Occurrence]) -> Vec<(i64, u32)> {
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
    let mut rows = Vec::with_capacity(found.len());
    for (_, game, ply) in found {
        if let Some(summary) = store.summary(game)? {
            rows.push(PositionHit { game: summary, ply });
        }
    }
    Ok(PositionResult { rows, total, exact })
}

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

/// How many of the games in `set` (all when `None`) reach `pos` widened as `o` says: verified
/// by replay up to [`VERIFY_ALL`] games, counted from the index above.
fn count_reaching(
    store: &Store,
    lines: &mut Lines,
    index: &PositionIndex,
    pos: &Position,
    o: PositionOptions,
    variations: bool,
    set: Option<&GameSet>,
) -> Result<(u64, bool), QueryError> {
    let vars = variants(pos, o);
    let check = Check {
        vars: &vars,
        ignore_hands: o.ignore_hands,
        variations,
    };
    if let Some(occ) = occurrences(store, index, &vars, Some(VERIFY_ALL), set)? {
        let mut n = 0;
        for (game, _) in distinct_games(&occ) {
            if replay(store, lines, game, check)?.is_some() {
                n += 1;
            }
        }
        return Ok((n, true));
    }
    let mut games = GameSet::default();
    for key in distinct_keys(&vars) {
        index.for_each(store, key, |_, e| {
            if set.is_none_or(|s| s.contains(e.game)) {
                games.insert(e.game);
            }
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
        let mut n = 0;
        for (game, _) in distinct_games(&occ) {
            let Some(r) = replay(store, &mut lines, game, check)? else {
                continue;
            };
            n += 1;
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
            index.for_each(store, key, |si, e| {
                if set.is_some_and(|s| !s.contains(e.game)) {
                    return true;
                }
                if last != Some(e.game) {
                    distinct += 1;
                    last = Some(e.game);
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
                let (n, ex) = count_reaching(store, &mut lines, &index, p, o, variations, set)?;
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
