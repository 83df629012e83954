//! Selecting games: typed conditions ([`Cond`]) turned into SQL here and nowhere else, the set
//! of game ids they pick ([`GameSet`]), and the rows a query shows ([`GameSummary`]).
//!
//! `query::GameFilter` (what a user asks) resolves names and words into these conditions; the
//! store answers them. A condition added here is one variant and one arm of [`Cond::sql`].

use rusqlite::types::Value;

use super::{Store, StoreError};

/// A side of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// 先手 (下手 in a handicap game).
    Sente,
    /// 後手 (上手).
    Gote,
}

impl Side {
    fn column(self) -> &'static str {
        match self {
            Side::Sente => "g.sente_id",
            Side::Gote => "g.gote_id",
        }
    }

    pub(super) fn opponent(self) -> Side {
        match self {
            Side::Sente => Side::Gote,
            Side::Gote => Side::Sente,
        }
    }

    /// The `winner` value when this side won.
    pub fn code(self) -> &'static str {
        match self {
            Side::Sente => "sente",
            Side::Gote => "gote",
        }
    }
}

/// A text column of games searched by its distinct values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextColumn {
    Event,
    Opening,
    Handicap,
    Terminal,
}

impl TextColumn {
    fn name(self) -> &'static str {
        match self {
            TextColumn::Event => "event",
            TextColumn::Opening => "opening",
            TextColumn::Handicap => "handicap",
            TextColumn::Terminal => "terminal",
        }
    }
}

/// Where a game's opening label comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LabelSource {
    /// The record's 戦型 header.
    Header,
    /// Recognised from the moves (`classify`).
    Moves,
}

impl LabelSource {
    /// The word used in JSON and CSV: `header` or `moves`.
    pub fn code(self) -> &'static str {
        match self {
            LabelSource::Header => "header",
            LabelSource::Moves => "moves",
        }
    }

    /// Reads `header` or `moves` (or 棋譜 / 指し手).
    pub fn from_code(s: &str) -> Option<LabelSource> {
        match s.trim().to_ascii_lowercase().as_str() {
            "header" | "戦型" | "棋譜" => Some(LabelSource::Header),
            "moves" | "指し手" | "recognised" | "recognized" => Some(LabelSource::Moves),
            _ => None,
        }
    }
}

/// One condition on a game; a [`Selection`] holds all of them.
#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    /// One of `players` plays on `side` (either side when `None`).
    Player {
        side: Option<Side>,
        players: Vec<i64>,
    },
    /// One of `a` plays one of `b` (`a` on `side` when given).
    Pair {
        a: Vec<i64>,
        b: Vec<i64>,
        side: Option<Side>,
    },
    /// One of `players` won (playing on `side` when given).
    PlayerWon {
        players: Vec<i64>,
        side: Option<Side>,
    },
    /// The column holds one of the values.
    Text {
        column: TextColumn,
        values: Vec<String>,
    },
    /// `date >= from` (dates as stored: `YYYY[-MM[-DD]]`).
    Since(String),
    /// `date <= until`, every date starting with `until` included.
    Until(String),
    /// `winner = …`: `sente`, `gote` or `draw`.
    Winner(String),
    MinPlies(u32),
    MaxPlies(u32),
    /// A file the game was read from matches the glob (SQLite `GLOB`: `*`, `?`, `[...]`).
    Source(String),
    /// The game's opening label is one of these: the header's value one of `headers`, or
    /// the label recognised from the moves one of `names` (see `classify`). From `from` only,
    /// or (None) the game's label (`classify::game_label`: the header's known name when it
    /// has one, else the recognised) one of `names`.
    Opening {
        headers: Vec<String>,
        names: Vec<String>,
        from: Option<LabelSource>,
    },
    /// A name recognised for `side` (either side when `None`) is one of `names`.
    Recognised {
        names: Vec<String>,
        side: Option<Side>,
    },
    /// One of `players` played, on their side, a name recognised among `names`.
    PlayerRecognised {
        players: Vec<i64>,
        names: Vec<String>,
    },
    /// The game has evaluations (`true`) or has none.
    Evaluated(bool),
    /// The game was decided by a single swing of at least this much (`game_evals.swing`).
    Swing(i32),
    /// The evaluation after `ply` moves is within the bounds (points, sente's view).
    EvalAt {
        ply: u32,
        low: Option<i32>,
        high: Option<i32>,
    },
    /// The game is one of these (for selections made elsewhere).
    Ids(Vec<i64>),
    /// No game.
    Nothing,
}

fn list(values: &[i64]) -> String {
    let v: Vec<String> = values.iter().map(i64::to_string).collect();
    v.join(",")
}

impl Cond {
    /// The SQL of the condition over `games g`, with its parameters pushed to `params`.
    fn sql(&self, params: &mut Vec<Value>) -> String {
        let mut param = |v: Value| {
            params.push(v);
            format!("?{}", params.len())
        };
        match self {
            Cond::Player { side, players } => {
                let l = list(players);
                match side {
                    Some(s) => format!("{} IN ({l})", s.column()),
                    None => format!("(g.sente_id IN ({l}) OR g.gote_id IN ({l}))"),
                }
            }
            Cond::Pair { a, b, side } => {
                let (a, b) = (list(a), list(b));
                let one = |s: Side| {
                    format!(
                        "({} IN ({a}) AND {} IN ({b}))",
                        s.column(),
                        s.opponent().column()
                    )
                };
                match side {
                    Some(s) => one(*s),
                    None => format!("({} OR {})", one(Side::Sente), one(Side::Gote)),
                }
            }
            Cond::PlayerWon { players, side } => {
                let l = list(players);
                let one =
                    |s: Side| format!("(g.winner = '{}' AND {} IN ({l}))", s.code(), s.column());
                match side {
                    Some(s) => one(*s),
                    None => format!("({} OR {})", one(Side::Sente), one(Side::Gote)),
                }
            }
            Cond::Text { column, values } => {
                let ps: Vec<String> = values
                    .iter()
                    .map(|v| param(Value::Text(v.clone())))
                    .collect();
                format!("g.{} IN ({})", column.name(), ps.join(", "))
            }
            Cond::Since(d) => format!("g.date >= {}", param(Value::Text(d.clone()))),
            Cond::Until(d) => format!("g.date <= {}", param(Value::Text(format!("{d}~")))),
            Cond::Winner(w) => format!("g.winner = {}", param(Value::Text(w.clone()))),
            Cond::MinPlies(n) => format!("g.plies >= {n}"),
            Cond::MaxPlies(n) => format!("g.plies <= {n}"),
            Cond::Source(glob) => {
                let p = param(Value::Text(glob.clone()));
                format!(
                    "(g.source_id IN (SELECT id FROM sources WHERE path GLOB {p})
                      OR g.id IN (SELECT gs.game_id FROM game_sources gs
                                  JOIN sources s2 ON s2.id = gs.source_id
                                  WHERE s2.path GLOB {p}))"
                )
            }
            Cond::Opening {
                headers,
                names,
                from,
            } => {
                let mut texts = |v: &[String]| -> String {
                    let ps: Vec<String> = v.iter().map(|t| param(Value::Text(t.clone()))).collect();
                    if ps.is_empty() {
                        "NULL".to_string()
                    } else {
                        ps.join(", ")
                    }
                };
                let h = texts(headers);
                let l = texts(names);
                match from {
                    Some(LabelSource::Header) => format!("g.opening IN ({h})"),
                    Some(LabelSource::Moves) => format!("g.label IN ({l})"),
                    // The game's label by its number (`store::labels`), from its index.
                    None => {
                        format!("g.label_id IN (SELECT id FROM game_labels WHERE name IN ({l}))")
                    }
                }
            }
            Cond::Recognised { names, side } => {
                let ps: Vec<String> = names
                    .iter()
                    .map(|t| param(Value::Text(t.clone())))
                    .collect();
                recognised_sql(&ps.join(", "), *side)
            }
            Cond::PlayerRecognised { players, names } => {
                let ps: Vec<String> = names
                    .iter()
                    .map(|t| param(Value::Text(t.clone())))
                    .collect();
                let (l, n) = (list(players), ps.join(", "));
                let one = |s: Side| {
                    format!(
                        "({} IN ({l}) AND {})",
                        s.column(),
                        recognised_sql(&n, Some(s))
                    )
                };
                format!("({} OR {})", one(Side::Sente), one(Side::Gote))
            }
            Cond::Evaluated(yes) => {
                let not = if *yes { "" } else { "NOT " };
                format!("g.id {not}IN (SELECT game_id FROM game_evals)")
            }
            Cond::Swing(n) => {
                format!("g.id IN (SELECT game_id FROM game_evals WHERE swing >= {n})")
            }
            Cond::EvalAt { ply, low, high } => {
                let at = format!("kifudex_eval_at(evals, {ply})");
                let range = match (low, high) {
                    (Some(l), Some(h)) => format!("{at} BETWEEN {l} AND {h}"),
                    (Some(l), None) => format!("{at} >= {l}"),
                    (None, Some(h)) => format!("{at} <= {h}"),
                    (None, None) => format!("{at} IS NOT NULL"),
                };
                format!("g.id IN (SELECT game_id FROM game_evals WHERE {range})")
            }
            Cond::Ids(ids) => format!("g.id IN ({})", list(ids)),
            Cond::Nothing => "0".to_string(),
        }
    }
}

/// The games in which a name among `names` (SQL parameters) was recognised for `side`
/// (either side when None), from the lists by name.
fn recognised_sql(names: &str, side: Option<Side>) -> String {
    let side = match side {
        Some(Side::Sente) => " AND rn.side = 0",
        Some(Side::Gote) => " AND rn.side = 1",
        None => "",
    };
    format!(
        "g.id IN (SELECT j.value FROM recognised_names rn
          JOIN opening_names n ON n.id = rn.name_id, json_each(rn.games) j
          WHERE n.name IN ({names}){side})"
    )
}

/// Every condition must hold; no condition: every game.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    pub conds: Vec<Cond>,
}

impl Selection {
    pub fn is_all(&self) -> bool {
        self.conds.is_empty()
    }

    pub(super) fn where_sql(&self, params: &mut Vec<Value>) -> String {
        if self.conds.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = self.conds.iter().map(|c| c.sql(params)).collect();
        format!("WHERE {}", parts.join(" AND "))
    }
}

/// A set of game ids, one bit per id: membership in a posting scan costs a shift and a mask.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameSet {
    bits: Vec<u64>,
    len: usize,
}

impl GameSet {
    pub fn from_ids(ids: impl IntoIterator<Item = i64>) -> GameSet {
        let mut set = GameSet::default();
        for id in ids {
            set.insert(id);
        }
        set
    }

    pub fn insert(&mut self, id: i64) {
        let Ok(id) = usize::try_from(id) else { return };
        let (w, b) = (id >> 6, id & 63);
        if w >= self.bits.len() {
            self.bits.resize(w + 1, 0);
        }
        if self.bits[w] & 1 << b == 0 {
            self.bits[w] |= 1 << b;
            self.len += 1;
        }
    }

    #[inline]
    pub fn contains(&self, id: i64) -> bool {
        let Ok(id) = usize::try_from(id) else {
            return false;
        };
        self.bits
            .get(id >> 6)
            .is_some_and(|w| w & 1 << (id & 63) != 0)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The smallest id of the set that is `id` or more.
    #[inline]
    pub fn next_from(&self, id: i64) -> Option<i64> {
        let id = usize::try_from(id.max(0)).ok()?;
        let mut w = id >> 6;
        let mut word = *self.bits.get(w)? & (!0u64 << (id & 63));
        loop {
            if word != 0 {
                return Some(((w << 6) | word.trailing_zeros() as usize) as i64);
            }
            w += 1;
            word = *self.bits.get(w)?;
        }
    }

    /// Whether the set holds few of the ids up to its largest (under one in 32): a scan
    /// then looks for its ids rather than test each entry.
    pub fn is_sparse(&self) -> bool {
        self.len.saturating_mul(32) < self.bits.len() * 64
    }

    /// The ids in increasing order.
    pub fn ids(&self) -> impl Iterator<Item = i64> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            let mut word = word;
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let b = word.trailing_zeros() as usize;
                    word &= word - 1;
                    ((w << 6) | b) as i64
                })
            })
        })
    }
}

/// One game as lists show it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GameSummary {
    pub id: i64,
    /// The path of the file it was first read from, as given to import.
    pub file: String,
    pub game_index: i64,
    pub date: Option<String>,
    pub sente: Option<String>,
    pub gote: Option<String>,
    pub event: Option<String>,
    /// The game's opening label: the header's 戦型, else the one recognised from the moves.
    pub opening: Option<String>,
    pub plies: i64,
    pub winner: Option<String>,
    pub handicap: String,
    pub terminal: Option<String>,
    /// The record stops at a move that could not be applied.
    pub incomplete: bool,
    /// The opening recognised from the moves (see `classify`).
    pub recognised: Option<String>,
    /// Where `opening`, the game's label, comes from: `header` or `moves`.
    pub label_source: Option<&'static str>,
}

const SUMMARY_COLUMNS: &str = "g.id, s.path, g.game_index, g.date, ps.name, pg.name,
    g.event, g.opening, g.plies, g.winner, g.handicap, g.terminal, g.incomplete, g.label";

const SUMMARY_JOINS: &str = "FROM games g JOIN sources s ON s.id = g.source_id
    LEFT JOIN players ps ON ps.id = g.sente_id LEFT JOIN players pg ON pg.id = g.gote_id";

fn summary_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameSummary> {
    let header: Option<String> = r.get(7)?;
    let recognised: Option<String> = r.get(13)?;
    let label_source = match (&header, &recognised) {
        (Some(_), _) => Some(LabelSource::Header.code()),
        (None, Some(_)) => Some(LabelSource::Moves.code()),
        (None, None) => None,
    };
    Ok(GameSummary {
        id: r.get(0)?,
        file: r.get(1)?,
        game_index: r.get(2)?,
        date: r.get(3)?,
        sente: r.get(4)?,
        gote: r.get(5)?,
        event: r.get(6)?,
        opening: header.or_else(|| recognised.clone()),
        plies: r.get(8)?,
        winner: r.get(9)?,
        handicap: r.get(10)?,
        terminal: r.get(11)?,
        incomplete: r.get(12)?,
        recognised,
        label_source,
    })
}

/// A player as stored, with the search forms of the name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerName {
    pub id: i64,
    pub name: String,
    /// NFKC, lower case, hiragana, 新字体, no spaces.
    pub key: String,
    /// `key` without titles and ranks.
    pub bare: String,
}

/// One game's facts for per-player tables (`kifudex players`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerGame {
    pub id: i64,
    pub sente: Option<i64>,
    pub gote: Option<i64>,
    pub date: Option<String>,
    pub winner: Option<String>,
    /// The header's opening, or the recognised label when the header has none.
    pub opening: Option<String>,
}

/// Counts over the games a selection picks (`kifudex stats` with a filter).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SelectionStats {
    pub games: u64,
    /// Positions of their main lines, the start included.
    pub positions: u64,
    /// Distinct players.
    pub players: u64,
    /// Distinct files they were first read from.
    pub files: u64,
    pub sente_wins: u64,
    pub gote_wins: u64,
    pub draws: u64,
    pub first_date: Option<String>,
    pub last_date: Option<String>,
}

impl Store {
    /// Counts over the games a selection picks.
    pub fn selection_stats(&self, sel: &Selection) -> Result<SelectionStats, StoreError> {
        let mut params = Vec::new();
        let where_sql = sel.where_sql(&mut params);
        let p = || rusqlite::params_from_iter(params.iter());
        let mut st = self.conn.query_row(
            &format!(
                "SELECT count(*), coalesce(sum(g.plies + 1), 0), count(DISTINCT g.source_id),
                        count(*) FILTER (WHERE g.winner = 'sente'),
                        count(*) FILTER (WHERE g.winner = 'gote'),
                        count(*) FILTER (WHERE g.winner = 'draw'),
                        min(g.date), max(g.date)
                 FROM games g {where_sql}"
            ),
            p(),
            |r| {
                Ok(SelectionStats {
                    games: r.get::<_, i64>(0)? as u64,
                    positions: r.get::<_, i64>(1)? as u64,
                    players: 0,
                    files: r.get::<_, i64>(2)? as u64,
                    sente_wins: r.get::<_, i64>(3)? as u64,
                    gote_wins: r.get::<_, i64>(4)? as u64,
                    draws: r.get::<_, i64>(5)? as u64,
                    first_date: r.get(6)?,
                    last_date: r.get(7)?,
                })
            },
        )?;
        st.players = self.conn.query_row(
            &format!(
                "SELECT count(*) FROM (SELECT g.sente_id AS p FROM games g {where_sql}
                 UNION SELECT g.gote_id FROM games g {where_sql}) WHERE p IS NOT NULL"
            ),
            p(),
            |r| r.get::<_, i64>(0),
        )? as u64;
        Ok(st)
    }

    /// The ids of the games a selection picks; with `within`, only among those games (for a
    /// few candidates: looked up by id instead of scanning). From the facts when the store
    /// holds them ([`Store::hold_facts`]).
    pub fn select_games(
        &self,
        sel: &Selection,
        within: Option<&[i64]>,
    ) -> Result<GameSet, StoreError> {
        if let Some(facts) = self.held_facts() {
            let chosen = facts.select(self, sel)?;
            let mut set = facts.game_set(&chosen);
            if let Some(ids) = within {
                let among = GameSet::from_ids(ids.iter().copied());
                set = GameSet::from_ids(set.ids().filter(|&id| among.contains(id)));
            }
            return Ok(set);
        }
        self.select_games_sql(sel, within)
    }

    /// [`Store::select_games`] from the database.
    pub(super) fn select_games_sql(
        &self,
        sel: &Selection,
        within: Option<&[i64]>,
    ) -> Result<GameSet, StoreError> {
        let mut params = Vec::new();
        let mut where_sql = sel.where_sql(&mut params);
        if let Some(ids) = within {
            if ids.is_empty() {
                return Ok(GameSet::default());
            }
            let json = format!("[{}]", list(ids));
            params.push(Value::Text(json));
            let clause = format!("g.id IN (SELECT value FROM json_each(?{}))", params.len());
            where_sql = if where_sql.is_empty() {
                format!("WHERE {clause}")
            } else {
                format!("{where_sql} AND {clause}")
            };
        }
        let mut stmt = self
            .conn
            .prepare_cached(&format!("SELECT g.id FROM games g {where_sql}"))?;
        let mut rows = stmt.query(rusqlite::params_from_iter(params.iter()))?;
        let mut set = GameSet::default();
        while let Some(r) = rows.next()? {
            set.insert(r.get(0)?);
        }
        Ok(set)
    }

    /// How many games a selection picks, and the first `limit` of them newest first.
    pub fn search_games(
        &self,
        sel: &Selection,
        limit: Option<usize>,
    ) -> Result<(Vec<GameSummary>, usize), StoreError> {
        if let Some(facts) = self.held_facts() {
            // As the SQL orders them: newest first (no date last), then the higher id; the
            // first `limit` picked before they are sorted.
            let chosen = facts.select(self, sel)?;
            let total = chosen.len();
            let mut keys: Vec<std::cmp::Reverse<(u32, i64)>> = chosen
                .iter()
                .map(|&i| std::cmp::Reverse(facts.date_and_id(i as usize)))
                .collect();
            let limit = limit.unwrap_or(usize::MAX);
            if limit < keys.len() {
                if limit == 0 {
                    keys.clear();
                } else {
                    keys.select_nth_unstable(limit - 1);
                    keys.truncate(limit);
                }
            }
            keys.sort_unstable();
            let ids: Vec<i64> = keys.iter().map(|k| k.0.1).collect();
            return Ok((self.summaries(&ids)?, total));
        }
        let mut params = Vec::new();
        let where_sql = sel.where_sql(&mut params);
        let total: i64 = self.conn.query_row(
            &format!("SELECT count(*) FROM games g {where_sql}"),
            rusqlite::params_from_iter(params.iter()),
            |r| r.get(0),
        )?;
        // Many games taken and few wanted: walk the date index from the newest (it holds
        // the label too) and stop at the limit, rather than let SQLite gather and sort every
        // game taken by the index of a condition (83,000 rows sorted for the 20 newest games
        // of 四間飛車 at 1,000,000 games: 0.5 s against 1 ms).
        let newest_first = limit.is_some_and(|l| l.saturating_mul(100) < total as usize)
            && total > 2000
            && !sel.conds.is_empty()
            && super::indexes::missing(&self.conn)?.is_empty();
        let from = if newest_first {
            SUMMARY_JOINS.replacen("FROM games g", "FROM games g INDEXED BY games_date", 1)
        } else {
            SUMMARY_JOINS.to_string()
        };
        let limit = limit.map_or(-1, |l| l as i64);
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} {from} {where_sql}
             ORDER BY g.date DESC, g.id DESC LIMIT {limit}"
        );
        let rows = self
            .conn
            .prepare(&sql)?
            .query_map(rusqlite::params_from_iter(params.iter()), summary_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok((rows, total as usize))
    }

    /// The summary of a game, `None` when there is no such game.
    pub fn summary(&self, id: i64) -> Result<Option<GameSummary>, StoreError> {
        use rusqlite::OptionalExtension;
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {SUMMARY_COLUMNS} {SUMMARY_JOINS} WHERE g.id = ?1"
            ))?
            .query_row([id], summary_from_row)
            .optional()?)
    }

    /// The summaries of these games, in the order given (missing ones left out).
    pub fn summaries(&self, ids: &[i64]) -> Result<Vec<GameSummary>, StoreError> {
        ids.iter()
            .filter_map(|&id| self.summary(id).transpose())
            .collect()
    }

    /// Every player name with its search forms.
    pub fn players(&self) -> Result<Vec<PlayerName>, StoreError> {
        let rows = self
            .conn
            .prepare_cached("SELECT id, name, key, bare FROM players ORDER BY id")?
            .query_map([], |r| {
                Ok(PlayerName {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    key: r.get(2)?,
                    bare: r.get(3)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// The players whose search key contains `key`, or whose bare key contains `bare`
    /// (when not empty).
    pub fn players_matching(&self, key: &str, bare: &str) -> Result<Vec<i64>, StoreError> {
        let ids = self
            .conn
            .prepare_cached(
                "SELECT id FROM players WHERE instr(key, ?1) > 0
                 OR (?2 <> '' AND instr(bare, ?2) > 0) ORDER BY id",
            )?
            .query_map([key, bare], |r| r.get(0))?
            .collect::<Result<Vec<i64>, _>>()?;
        Ok(ids)
    }

    /// The distinct values a text column holds.
    pub fn distinct_values(&self, column: TextColumn) -> Result<Vec<String>, StoreError> {
        if let Some(v) = self.held_facts().and_then(|f| f.distinct_values(column)) {
            return Ok(v);
        }
        let c = column.name();
        let values = self
            .conn
            .prepare_cached(&format!(
                "SELECT DISTINCT {c} FROM games WHERE {c} IS NOT NULL"
            ))?
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(values)
    }

    /// The games a selection picks with the facts a per-player table needs, by id.
    pub fn player_games(&self, sel: &Selection) -> Result<Vec<PlayerGame>, StoreError> {
        let mut params = Vec::new();
        let where_sql = sel.where_sql(&mut params);
        let rows = self
            .conn
            .prepare(&format!(
                "SELECT g.id, g.sente_id, g.gote_id, g.date, g.winner,
                        coalesce(g.opening, g.label)
                 FROM games g {where_sql} ORDER BY g.id"
            ))?
            .query_map(rusqlite::params_from_iter(params.iter()), |r| {
                Ok(PlayerGame {
                    id: r.get(0)?,
                    sente: r.get(1)?,
                    gote: r.get(2)?,
                    date: r.get(3)?,
                    winner: r.get(4)?,
                    opening: r.get(5)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// The largest game id and the number of games.
    pub fn game_span(&self) -> Result<(i64, u64), StoreError> {
        let (max, n): (Option<i64>, i64) =
            self.conn
                .query_row("SELECT max(id), count(*) FROM games", [], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })?;
        Ok((max.unwrap_or(0), n as u64))
    }

    /// A number that changes whenever another connection commits to the database (SQLite's
    /// `data_version`): what a reader checks before it trusts answers it kept.
    pub fn data_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }
}
