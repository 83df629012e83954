//! The JSON API: one function per endpoint, each reading its parameters, asking `query` and
//! shaping the answer. The rows are the very structures the CLI prints with `--json`, so
//! that an answer here equals the command's.

use std::time::Duration;

use serde_json::{Value, json};

use super::params::Params;
use crate::notation::movetext::japanese;
use crate::query::{self, FIELDS, GameFilter, PositionOptions, PositionQuery, QueryError, Words};
use crate::shogi::{Color, Move, Position, Square};
use crate::store::Store;

/// The most games any list answers with.
pub const MAX_LIMIT: usize = 500;
/// The most moves `play` may hold.
pub const MAX_PLAY: usize = 1000;

/// Why a request got no answer, with its HTTP status.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    NotFound(String),
    #[error("only GET is served")]
    Method,
    #[error("{0}")]
    Busy(&'static str),
    #[error("the query took longer than {} s", .0.as_secs())]
    TooSlow(Duration),
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> u16 {
        match self {
            ApiError::BadRequest(_) => 400,
            ApiError::NotFound(_) => 404,
            ApiError::Method => 405,
            ApiError::Busy(_) | ApiError::TooSlow(_) => 503,
            ApiError::Internal(_) => 500,
        }
    }
}

impl From<QueryError> for ApiError {
    fn from(e: QueryError) -> ApiError {
        match e {
            QueryError::BadArgument(m) => ApiError::BadRequest(m),
            QueryError::Filter(e) => ApiError::BadRequest(e.describe(Words::Api)),
            e => ApiError::Internal(e.to_string()),
        }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

/// The parameters of the game filter, taken by every call that selects games: the API's
/// names of [`FIELDS`].
static FILTER: std::sync::LazyLock<Vec<&'static str>> =
    std::sync::LazyLock::new(|| FIELDS.iter().map(|d| d.param).collect());
/// The game filter's parameters, for the calls of other modules.
pub(super) fn game_filter_params() -> &'static [&'static str] {
    &FILTER
}
const POSITION: &[&str] = &["sfen", "play", "at"];
const WIDEN: &[&str] = &["ignore_hands", "either_side", "mirror", "flip"];

/// Answers `path` (below `/api/`) with a JSON text.
pub fn answer(store: &Store, path: &str, p: &Params) -> Result<String, ApiError> {
    let v = match path {
        "/api/tree" => tree(store, p)?,
        "/api/position" => position(store, p)?,
        "/api/search" => search(store, p)?,
        "/api/text" => return text(store, p),
        "/api/players" => return players(store, p),
        "/api/find" => find(store, p)?,
        "/api/player" => return super::questions::player(store, p),
        "/api/openings" => return super::questions::openings(store, p),
        "/api/board.svg" => return super::questions::board_svg(store, p),
        _ => match path.strip_prefix("/api/game/") {
            Some(id) => game(store, id, p)?,
            None => return Err(ApiError::NotFound(format!("no API call {path}"))),
        },
    };
    Ok(v.to_string())
}

/// The filter the parameters give (the fields' API names, `min_plies` spelt with `_`); an
/// error names the parameter.
pub(super) fn filter(p: &Params) -> Result<GameFilter, ApiError> {
    let f = filter_unchecked(p)?;
    f.check()
        .map_err(|e| ApiError::BadRequest(e.describe(Words::Api)))?;
    Ok(f)
}

/// [`filter`] without the check of the fields together (`vs` without `player`, say), for a
/// call that adds a field of its own first.
pub(super) fn filter_unchecked(p: &Params) -> Result<GameFilter, ApiError> {
    let mut f = GameFilter::default();
    for d in FIELDS {
        if let Some(v) = p.get(d.param) {
            f.set(d.field, v)
                .map_err(|e| ApiError::BadRequest(e.describe(Words::Api)))?;
        }
    }
    Ok(f)
}

/// A position and the line of moves that reached it.
struct Reached {
    pos: Position,
    /// Each move of `play` in Japanese.
    line: Vec<String>,
    at: usize,
    last: Option<Move>,
}

/// `sfen` (default the even start) and `play` (USI moves, comma-separated), of which `at`
/// (default all) are played.
fn reached(p: &Params) -> Result<Reached, ApiError> {
    let start = query::parse_position(p.get("sfen").unwrap_or("startpos"))?;
    let play: Vec<&str> = p
        .get("play")
        .map(|s| {
            s.split(',')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .collect()
        })
        .unwrap_or_default();
    if play.len() > MAX_PLAY {
        return Err(ApiError::BadRequest(format!(
            "play holds {} moves; at most {MAX_PLAY}",
            play.len()
        )));
    }
    let at = match p.number("at")? {
        None => play.len(),
        Some(n) if n as usize <= play.len() => n as usize,
        Some(n) => {
            return Err(ApiError::BadRequest(format!(
                "at={n}, but play holds {} moves",
                play.len()
            )));
        }
    };
    let mut pos = start;
    let mut line = Vec::with_capacity(play.len());
    let mut last_to: Option<Square> = None;
    let mut shown = None;
    let mut last = None;
    for (i, text) in play.iter().enumerate() {
        if i == at {
            shown = Some((pos.clone(), last));
        }
        let mv = Move::from_usi(text).map_err(|e| {
            ApiError::BadRequest(format!("play: move {} ({text}) is no USI move: {e}", i + 1))
        })?;
        if !pos.is_legal(mv) {
            return Err(ApiError::BadRequest(format!(
                "play: move {} ({text}) is not legal in its position",
                i + 1
            )));
        }
        line.push(japanese(&pos, mv, last_to));
        pos.apply(mv);
        last_to = Some(mv.to());
        last = Some(mv);
    }
    let (pos, last) = shown.unwrap_or((pos, last));
    Ok(Reached {
        pos,
        line,
        at,
        last,
    })
}

fn widen(p: &Params) -> Result<PositionOptions, ApiError> {
    Ok(PositionOptions {
        ignore_hands: p.flag("ignore_hands")?,
        either_side: p.flag("either_side")?,
        mirror: p.flag("mirror")?,
        flip: p.flag("flip")?,
    })
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "sente",
        Color::White => "gote",
    }
}

/// `/api/tree`: the moves played from the position with their results, the games that reach
/// it (newest first), and what the page needs to draw it (its SFEN, the legal moves).
fn tree(store: &Store, p: &Params) -> Result<Value, ApiError> {
    p.only(&[&FILTER, POSITION, WIDEN, &["limit", "reached"]])?;
    let f = filter(p)?;
    let limit = p.limit("limit", 20, MAX_LIMIT)?;
    let r = reached(p)?;
    let o = widen(p)?;
    // The games reaching the position after each move cost a lookup per move: given when
    // asked (`reached=1`).
    let with_reached = p.flag("reached")?;
    let (t, games) = query::tree_and_games(store, &r.pos, o, &f, with_reached, limit)?;
    let (mut sente, mut gote, mut draws) = (0, 0, 0);
    for row in &t.rows {
        sente += row.sente_wins;
        gote += row.gote_wins;
        draws += row.draws;
    }
    let legal: Vec<String> = r.pos.legal_moves().into_iter().map(Move::usi).collect();
    Ok(json!({
        "sfen": r.pos.to_sfen(),
        "side": side_name(r.pos.side_to_move()),
        "line": r.line,
        "at": r.at,
        "last_move": r.last.map(Move::usi),
        "legal": legal,
        "games": t.games,
        "exact": t.exact,
        "sente_wins": sente,
        "gote_wins": gote,
        "draws": draws,
        "moves": t.rows,
        "recent_games": games.rows,
    }))
}

/// `/api/position`: the games that reach the position, newest first, and how many.
fn position(store: &Store, p: &Params) -> Result<Value, ApiError> {
    p.only(&[&FILTER, POSITION, WIDEN, &["limit"]])?;
    let f = filter(p)?;
    let limit = p.limit("limit", 50, MAX_LIMIT)?;
    let r = reached(p)?;
    let q = PositionQuery {
        options: widen(p)?,
        filter: f,
        limit,
        ..PositionQuery::default()
    };
    let found = query::find_games(store, &r.pos, &q)?;
    Ok(json!({
        "sfen": r.pos.to_sfen(),
        "games": found.rows,
        "total": found.total,
        "exact": found.exact,
    }))
}

/// `/api/search`: games by their headers, newest first.
fn search(store: &Store, p: &Params) -> Result<Value, ApiError> {
    p.only(&[&FILTER, &["limit"]])?;
    let f = filter(p)?;
    let limit = p.limit("limit", 50, MAX_LIMIT)?;
    let found = query::search(store, &f, Some(limit))?;
    Ok(json!({ "games": found.rows, "total": found.total }))
}

/// `/api/text`: full-text search over comments and game fields, among the games the filter
/// takes (its fields may also stand in `q`, as `player:藤井`). Written from the hits
/// themselves (not through a `Value`), so that scores print as the CLI prints them.
fn text(store: &Store, p: &Params) -> Result<String, ApiError> {
    p.only(&[&FILTER, &["q", "limit", "engine"]])?;
    let Some(q) = p.get("q") else {
        return Err(ApiError::BadRequest(
            "give q=, the words to look for".into(),
        ));
    };
    let mut f = filter(p)?;
    let options = crate::text::SearchOptions {
        query: query::text_words(q, &mut f)?,
        limit: p.limit("limit", 20, MAX_LIMIT)?,
        engine: p.flag("engine")?,
        games: None,
        players: None,
    };
    let (hits, behind) = query::open_and_search(store, &options, &f)?;
    let hits = serde_json::to_string(&hits).map_err(|e| ApiError::Internal(e.to_string()))?;
    match behind {
        Some(note) => Ok(format!(
            "{{\"hits\":{hits},\"note\":{}}}",
            Value::from(note)
        )),
        None => Ok(format!("{{\"hits\":{hits}}}")),
    }
}

/// `/api/players`: the players of the games the filter takes (`name=` those matching it),
/// most games first, with their results as sente and as gote, as `kifudex players --json`.
/// Written from the rows themselves, so that scores print as the CLI prints them.
fn players(store: &Store, p: &Params) -> Result<String, ApiError> {
    p.only(&[&FILTER, &["name", "limit"]])?;
    let f = filter(p)?;
    let limit = p.limit("limit", 50, MAX_LIMIT)?;
    let rows = query::players(store, &f, p.get("name"))?;
    let total = rows.len();
    let shown = serde_json::to_string(&rows[..total.min(limit)])
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(format!("{{\"players\":{shown},\"total\":{total}}}"))
}

/// How long `/api/find` scans before it gives up (below the server's time limit, so that
/// the worker is free again when the request is answered).
pub const FIND_LIMIT: Duration = Duration::from_secs(9);

impl From<crate::find::FindError> for ApiError {
    fn from(e: crate::find::FindError) -> ApiError {
        match e {
            crate::find::FindError::Parse { .. } => ApiError::BadRequest(e.to_string()),
            crate::find::FindError::Query(q) => q.into(),
            crate::find::FindError::Store(s) => s.into(),
        }
    }
}

/// `/api/find`: pattern search (`q=`, the query) or similar positions (`like=` a position,
/// with `diff` and `ignore_hands`), among the games the filter takes; `all=1` for every ply.
/// The rows are `find --json`'s, the totals its last line's. A scan longer than
/// [`FIND_LIMIT`] is answered 503.
fn find(store: &Store, p: &Params) -> Result<Value, ApiError> {
    p.only(&[
        &FILTER,
        &["q", "like", "diff", "ignore_hands", "all", "limit"],
    ])?;
    let f = filter(p)?;
    let limit = p.limit("limit", 50, MAX_LIMIT)?;
    let all = p.flag("all")?;
    let control = crate::find::Control {
        deadline: Some(std::time::Instant::now() + FIND_LIMIT),
        ..crate::find::Control::default()
    };
    let too_slow = |o: &crate::find::Outcome| {
        if o.stopped {
            Err(ApiError::TooSlow(FIND_LIMIT))
        } else {
            Ok(())
        }
    };
    match (p.get("q"), p.get("like")) {
        (Some(q), None) => {
            if p.get("diff").is_some() || p.get("ignore_hands").is_some() {
                return Err(ApiError::BadRequest(
                    "diff and ignore_hands go with like=, not q=".into(),
                ));
            }
            let query = crate::find::parse_query(q)?;
            let options = crate::find::FindOptions { all, limit };
            let found = crate::find::find(store, &query, &f, &options, &control)?;
            too_slow(&found.outcome)?;
            Ok(json!({
                "games": found.rows,
                "total": found.games,
                "positions": found.positions,
            }))
        }
        (None, Some(pos)) => {
            let target = query::parse_position(pos)?;
            let diff = match p.number("diff")? {
                None => 0,
                Some(d) if d <= 81 => d as u32,
                Some(d) => {
                    return Err(ApiError::BadRequest(format!(
                        "diff={d}: a board has 81 squares"
                    )));
                }
            };
            let options = crate::find::LikeOptions {
                diff,
                ignore_hands: p.flag("ignore_hands")?,
                all,
                limit,
            };
            let found = crate::find::like(store, &target, &f, &options, &control)?;
            too_slow(&found.outcome)?;
            Ok(json!({
                "sfen": target.to_sfen(),
                "games": found.rows,
                "total": found.games,
                "positions": found.positions,
            }))
        }
        _ => Err(ApiError::BadRequest(
            "give q= (a query) or like= (a position), one of them".into(),
        )),
    }
}

/// `/api/game/ID`: the game's facts, its moves with times and comments, the position at
/// every ply, and its evaluations (`evals`, with `evals_analysis` naming the engine analysis
/// they come from; null: the record's engine comments) with its blunders (the rows of
/// `blunders --json` for the game, in ply order; `drop` as `blunders --drop`).
fn game(store: &Store, id: &str, p: &Params) -> Result<Value, ApiError> {
    p.only(&[&["drop"]])?;
    let drop = match p.number("drop")? {
        None => query::evals::BLUNDER_DROP,
        Some(n) if (1..=i32::MAX as u64).contains(&n) => n as i32,
        Some(n) => {
            return Err(ApiError::BadRequest(format!(
                "drop={n}: give a number from 1 to {}",
                i32::MAX
            )));
        }
    };
    let id: i64 = id
        .parse()
        .map_err(|_| ApiError::BadRequest(format!("{id:?} is no game id")))?;
    let Some(g) = store.game(id)? else {
        return Err(ApiError::NotFound(format!("no game with id {id}")));
    };
    let rec = &g.record;
    let mut pos = rec.start.clone();
    let mut positions = vec![pos.to_sfen()];
    let mut moves = Vec::with_capacity(rec.main.moves.len());
    let mut comments: Vec<Value> = rec
        .start_comments
        .iter()
        .map(|c| json!({"ply": 0, "text": c}))
        .collect();
    let mut last_to = None;
    for (i, node) in rec.main.moves.iter().enumerate() {
        let time = node.time.map(|t| {
            let s = t.spent.round() as u64;
            format!("{}:{:02}", s / 60, s % 60)
        });
        moves.push(json!({
            "ply": i + 1,
            "usi": node.mv.usi(),
            "japanese": japanese(&pos, node.mv, last_to),
            "time": time,
            "seconds": node.time.map(|t| t.spent),
        }));
        for c in &node.comments {
            comments.push(json!({"ply": i + 1, "text": c}));
        }
        pos.apply(node.mv);
        last_to = Some(node.mv.to());
        positions.push(pos.to_sfen());
    }
    if let Some(t) = &rec.main.terminal {
        for c in &t.comments {
            comments.push(json!({"ply": rec.main.moves.len(), "text": c}));
        }
    }
    let headers: Vec<Value> = rec
        .headers
        .iter()
        .map(|(k, v)| json!({"key": k, "value": v}))
        .collect();
    // The evaluations beside the moves (`kifudex show ID --evals --json` gives the same).
    let evals = query::evals::game_evals(store, &g)?;
    let blunders = match &evals {
        Some(_) => query::evals::game_blunders(store, g.id, drop)?,
        None => Vec::new(),
    };
    Ok(json!({
        "id": g.id,
        "file": g.file,
        "game_index": g.game_index,
        "format": g.format,
        "date": g.date,
        "sente": g.sente,
        "gote": g.gote,
        "event": g.event,
        "opening": g.opening,
        "plies": g.plies,
        "winner": g.winner,
        // The sides are 下手 and 上手 rather than 先手 and 後手.
        "handicap": crate::notation::kif::is_handicap_game(rec),
        "terminal": rec.main.terminal.as_ref().map(|t| t.kind.code()),
        "sources": g.sources,
        "headers": headers,
        "start_sfen": positions[0],
        "moves": moves,
        "positions": positions,
        "comments": comments,
        "evals": evals.as_ref().map_or(&[][..], |e| &e.evals[..]),
        "evals_analysis": evals.as_ref().and_then(|e| e.analysis.as_ref()),
        "blunders": blunders,
    }))
}
