//! Header search: players (as users type them), event, opening, dates, winner, handicap and
//! length; newest first.

use rusqlite::types::Value;

use crate::classify;
use crate::notation::dates::normalize_date;
use crate::shogi::Handicap;
use crate::store::{Store, StoreError};
use crate::text::normalize::{fold, name_key, strip_titles};

use super::QueryError;

/// What to look for; every field set must match.
#[derive(Debug, Clone, Default)]
pub struct SearchFilter {
    /// Either player.
    pub player: Option<String>,
    pub sente: Option<String>,
    pub gote: Option<String>,
    /// Part of the event name (width, case and kana insensitive).
    pub event: Option<String>,
    /// The opening (戦型): a name kifudex knows (in any spelling of the table in
    /// `classify::names`) matches the header's or the recognised opening at any level of the
    /// hierarchy (振り飛車 takes 四間飛車 and 藤井システム); any other text, part of the header's.
    pub opening: Option<String>,
    /// A castle recognised for a side (or for `side`), at any level of the hierarchy.
    pub castle: Option<String>,
    /// A strategy recognised for a side (or for `side`), at any level of the hierarchy.
    pub strategy: Option<String>,
    /// `sente` or `gote`: the side `castle` and `strategy` are asked of.
    pub side: Option<String>,
    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (any form [`normalize_date`] reads).
    pub since: Option<String>,
    pub until: Option<String>,
    /// `sente`, `gote` or `draw`.
    pub winner: Option<String>,
    /// A handicap name (平手, 香落ち, 二枚落ち …), or part of one.
    pub handicap: Option<String>,
    pub min_plies: Option<u32>,
    pub max_plies: Option<u32>,
    pub limit: Option<usize>,
}

/// One game found.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GameRowSummary {
    pub id: i64,
    pub file: String,
    pub game_index: i64,
    pub date: Option<String>,
    pub sente: Option<String>,
    pub gote: Option<String>,
    pub event: Option<String>,
    pub opening: Option<String>,
    pub plies: i64,
    pub winner: Option<String>,
    pub handicap: String,
    pub terminal: Option<String>,
    /// The opening recognised from the moves (see `classify`).
    pub recognised: Option<String>,
}

/// The columns of a summary row, for queries that join games with sources and players.
pub(crate) const SUMMARY_COLUMNS: &str = "g.id, s.path, g.game_index, g.date, ps.name, pg.name,
    g.event, g.opening, g.plies, g.winner, g.handicap, g.terminal, g.label";

pub(crate) const SUMMARY_JOINS: &str = "FROM games g JOIN sources s ON s.id = g.source_id
    LEFT JOIN players ps ON ps.id = g.sente_id LEFT JOIN players pg ON pg.id = g.gote_id";

pub(crate) fn summary_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRowSummary> {
    Ok(GameRowSummary {
        id: r.get(0)?,
        file: r.get(1)?,
        game_index: r.get(2)?,
        date: r.get(3)?,
        sente: r.get(4)?,
        gote: r.get(5)?,
        event: r.get(6)?,
        opening: r.get(7)?,
        plies: r.get(8)?,
        winner: r.get(9)?,
        handicap: r.get(10)?,
        terminal: r.get(11)?,
        recognised: r.get(12)?,
    })
}

/// The result of a search: the rows (up to the limit) and how many games match in all.
#[derive(Debug, Clone)]
pub struct SearchResult {
    pub rows: Vec<GameRowSummary>,
    pub total: usize,
}

/// A date given on the command line, checked.
fn date_arg(name: &str, value: &str) -> Result<String, QueryError> {
    normalize_date(value).ok_or_else(|| {
        QueryError::BadArgument(format!(
            "{name} {value:?} is no date: give YYYY, YYYY-MM or YYYY-MM-DD"
        ))
    })
}

/// Runs a header search.
pub fn search(store: &Store, f: &SearchFilter) -> Result<SearchResult, QueryError> {
    let mut wheres: Vec<String> = Vec::new();
    let mut params: Vec<Value> = Vec::new();
    let param = |v: Value, params: &mut Vec<Value>| {
        params.push(v);
        format!("?{}", params.len())
    };
    let player_clause = |column: &str, q: &str, params: &mut Vec<Value>| {
        let key = name_key(q);
        let bare = strip_titles(&key);
        params.push(Value::Text(key));
        let k = params.len();
        params.push(Value::Text(bare));
        let b = params.len();
        format!(
            "{column} IN (SELECT id FROM players WHERE instr(key, ?{k}) > 0
             OR (?{b} <> '' AND instr(bare, ?{b}) > 0))"
        )
    };
    if let Some(q) = &f.player {
        let a = player_clause("g.sente_id", q, &mut params);
        let b = player_clause("g.gote_id", q, &mut params);
        wheres.push(format!("({a} OR {b})"));
    }
    if let Some(q) = &f.sente {
        wheres.push(player_clause("g.sente_id", q, &mut params));
    }
    if let Some(q) = &f.gote {
        wheres.push(player_clause("g.gote_id", q, &mut params));
    }
    let side = match f.side.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some("sente") => Some(0i64),
        Some("gote") => Some(1),
        Some(other) => {
            return Err(QueryError::BadArgument(format!(
                "--as {other:?}: give sente or gote"
            )));
        }
    };
    // A name of the classifier: header values and recognised names through the hierarchy.
    if let Some(q) = &f.opening
        && let Some(name) = classify::canonical(q)
    {
        let names = classify::descendants(name);
        let headers: Vec<String> = distinct_values(store, "opening")?
            .into_iter()
            .filter(|v| {
                classify::split_header(v)
                    .iter()
                    .any(|h| names.contains(&h.as_str()))
            })
            .collect();
        let list = |items: &[&str], params: &mut Vec<Value>| -> String {
            let l: Vec<String> = items
                .iter()
                .map(|n| param(Value::Text(n.to_string()), params))
                .collect();
            l.join(", ")
        };
        let header_refs: Vec<&str> = headers.iter().map(String::as_str).collect();
        let h = list(&header_refs, &mut params);
        let l = list(&names, &mut params);
        let r = list(&names, &mut params);
        wheres.push(format!(
            "(g.opening IN ({h}) OR g.label IN ({l}) OR g.id IN (SELECT r.game_id FROM recognised r
             JOIN opening_names n ON n.id = r.name_id WHERE n.name IN ({r})))"
        ));
    }
    for (flag, q, kind) in [
        ("--castle", &f.castle, classify::Kind::Castle),
        ("--strategy", &f.strategy, classify::Kind::Strategy),
    ] {
        let Some(q) = q else { continue };
        let name = classify::canonical(q)
            .filter(|n| classify::names::kind_of(n) == Some(kind))
            .ok_or_else(|| {
                let known: Vec<&str> = classify::DEFS
                    .iter()
                    .filter(|d| d.kind == kind)
                    .map(|d| d.name)
                    .collect();
                QueryError::BadArgument(format!(
                    "{flag} {q:?} names no {}; known: {}",
                    kind.code(),
                    known.join(" ")
                ))
            })?;
        let list: Vec<String> = classify::descendants(name)
            .into_iter()
            .map(|n| param(Value::Text(n.to_string()), &mut params))
            .collect();
        let side_sql = match side {
            Some(s) => format!(" AND r.side = {}", param(Value::Integer(s), &mut params)),
            None => String::new(),
        };
        wheres.push(format!(
            "g.id IN (SELECT r.game_id FROM recognised r JOIN opening_names n ON n.id = r.name_id
             WHERE n.name IN ({}){side_sql})",
            list.join(", ")
        ));
    }
    let opening_text = f
        .opening
        .as_ref()
        .filter(|q| classify::canonical(q).is_none());
    for (column, q) in [("event", &f.event), ("opening", &opening_text.cloned())] {
        let Some(q) = q else { continue };
        let names = matching_values(store, column, q)?;
        if names.is_empty() {
            return Ok(SearchResult {
                rows: Vec::new(),
                total: 0,
            });
        }
        let list: Vec<String> = names
            .into_iter()
            .map(|n| param(Value::Text(n), &mut params))
            .collect();
        wheres.push(format!("g.{column} IN ({})", list.join(", ")));
    }
    if let Some(since) = &f.since {
        let d = date_arg("--since", since)?;
        wheres.push(format!("g.date >= {}", param(Value::Text(d), &mut params)));
    }
    if let Some(until) = &f.until {
        // Every date that starts with the bound is in: 2020-06 takes 2020-06-30.
        let d = date_arg("--until", until)? + "~";
        wheres.push(format!("g.date <= {}", param(Value::Text(d), &mut params)));
    }
    if let Some(w) = &f.winner {
        let w = w.to_ascii_lowercase();
        if !matches!(w.as_str(), "sente" | "gote" | "draw") {
            return Err(QueryError::BadArgument(format!(
                "--winner {w:?}: give sente, gote or draw"
            )));
        }
        wheres.push(format!("g.winner = {}", param(Value::Text(w), &mut params)));
    }
    if let Some(h) = &f.handicap {
        let names = handicap_names(h);
        if names.is_empty() {
            let known: Vec<&str> = Handicap::ALL.iter().map(|h| h.kif_name()).collect();
            return Err(QueryError::BadArgument(format!(
                "--handicap {h:?} names no handicap; known: {}",
                known.join(" ")
            )));
        }
        let list: Vec<String> = names
            .into_iter()
            .map(|n| param(Value::Text(n.to_string()), &mut params))
            .collect();
        wheres.push(format!("g.handicap IN ({})", list.join(", ")));
    }
    if let Some(n) = f.min_plies {
        wheres.push(format!(
            "g.plies >= {}",
            param(Value::Integer(n.into()), &mut params)
        ));
    }
    if let Some(n) = f.max_plies {
        wheres.push(format!(
            "g.plies <= {}",
            param(Value::Integer(n.into()), &mut params)
        ));
    }
    let where_sql = if wheres.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", wheres.join(" AND "))
    };
    let conn = store.conn();
    let total: i64 = conn.query_row(
        &format!("SELECT count(*) FROM games g {where_sql}"),
        rusqlite::params_from_iter(params.iter()),
        |r| r.get(0),
    )?;
    let limit = f.limit.map_or(-1, |l| l as i64);
    let sql = format!(
        "SELECT {SUMMARY_COLUMNS} {SUMMARY_JOINS} {where_sql}
         ORDER BY g.date DESC, g.id DESC LIMIT {limit}"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt
        .query_map(rusqlite::params_from_iter(params.iter()), summary_from_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SearchResult {
        rows,
        total: total as usize,
    })
}

/// The distinct values of a text column.
fn distinct_values(store: &Store, column: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt = store.conn().prepare(&format!(
        "SELECT DISTINCT {column} FROM games WHERE {column} IS NOT NULL"
    ))?;
    let values = stmt.query_map([], |r| r.get::<_, String>(0))?;
    values.collect::<Result<_, _>>().map_err(Into::into)
}

/// The distinct values of a text column that contain `q`, compared in folded form.
fn matching_values(store: &Store, column: &str, q: &str) -> Result<Vec<String>, StoreError> {
    let q = fold(q).replace(' ', "");
    let mut stmt = store.conn().prepare(&format!(
        "SELECT DISTINCT {column} FROM games WHERE {column} IS NOT NULL"
    ))?;
    let values = stmt.query_map([], |r| r.get::<_, String>(0))?;
    let mut out = Vec::new();
    for v in values {
        let v = v?;
        if fold(&v).replace(' ', "").contains(&q) {
            out.push(v);
        }
    }
    Ok(out)
}

/// The handicap names a user's word picks: the exact name, else every name containing it.
fn handicap_names(q: &str) -> Vec<&'static str> {
    let q = fold(q);
    let names: Vec<&'static str> = Handicap::ALL.iter().map(|h| h.kif_name()).collect();
    if let Some(&exact) = names.iter().find(|n| fold(n) == q) {
        return vec![exact];
    }
    names.into_iter().filter(|n| fold(n).contains(&q)).collect()
}
