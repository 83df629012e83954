//! The game filter: one question about a game's headers, asked the same way by every command
//! that selects games (`search`, `position`, `tree`, `text`, `stats`, `players`).
//!
//! [`GameFilter`] holds what the user typed; [`GameFilter::selection`] checks it and turns
//! names and words into the store's typed conditions ([`Cond`]); the store resolves those into
//! a set of game ids ([`GameSet`]) that the position scan, the tree and the text search honour.
//! A new field is a field here, an arm in [`GameFilter::selection`] and a key in
//! [`GameFilter::set`] (for `field:value` inside a text query).

use crate::store::{Cond, GameSet, Selection, Side, Store, TextColumn};
use kifudex_classify as classify;
use kifudex_notation::normalize::{fold, name_key, strip_titles};
use kifudex_shogi::Handicap;

use super::QueryError;

/// Who won, as a filter asks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WinnerArg {
    Sente,
    Gote,
    Draw,
    /// The `--player` won.
    Player,
}

impl WinnerArg {
    /// Reads `sente`, `gote`, `draw`, `player` and their Japanese words (先手/下手, 後手/上手,
    /// 引き分け).
    pub fn parse(s: &str) -> Result<WinnerArg, QueryError> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "sente" | "先手" | "下手" | "black" => WinnerArg::Sente,
            "gote" | "後手" | "上手" | "white" => WinnerArg::Gote,
            "draw" | "引き分け" | "引分" | "引分け" => WinnerArg::Draw,
            "player" => WinnerArg::Player,
            _ => {
                return Err(QueryError::BadArgument(format!(
                    "--winner {s:?}: give sente, gote, draw (先手, 後手, 引き分け) or player"
                )));
            }
        })
    }
}

/// Reads `sente`/`gote` (先手/後手, 下手/上手).
pub fn parse_side(s: &str) -> Result<Side, QueryError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "sente" | "先手" | "下手" | "black" => Ok(Side::Sente),
        "gote" | "後手" | "上手" | "white" => Ok(Side::Gote),
        _ => Err(QueryError::BadArgument(format!(
            "--as {s:?}: give sente or gote (先手 or 後手)"
        ))),
    }
}

/// What games to take; every field set must hold. Empty: every game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// A player on either side (part of the name; width, kana, 旧字体 and titles don't matter).
    pub player: Option<String>,
    /// With `player`: the side the player had.
    pub side: Option<Side>,
    pub sente: Option<String>,
    pub gote: Option<String>,
    /// With `player`: games between the player and this one.
    pub vs: Option<String>,
    /// Part of the event (棋戦).
    pub event: Option<String>,
    /// The opening (戦型): a name kifudex knows (any spelling of `classify::names`) matches
    /// the header's or the recognised opening at any level of the hierarchy (振り飛車 takes
    /// 四間飛車 and 藤井システム); other text, part of the header's.
    pub opening: Option<String>,
    /// A castle recognised for a side (`side` when set), at any level of the hierarchy.
    pub castle: Option<String>,
    /// A strategy recognised for a side (`side` when set), at any level of the hierarchy.
    pub strategy: Option<String>,
    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`: games on or after it.
    pub since: Option<String>,
    /// Games on or before it (`2020-06` takes all of June).
    pub until: Option<String>,
    /// sente, gote, draw (先手, 後手, 引き分け) or player.
    pub winner: Option<String>,
    /// A handicap name (平手, 香落ち, 二枚落ち …), or part of one.
    pub handicap: Option<String>,
    pub min_plies: Option<u32>,
    pub max_plies: Option<u32>,
    /// How the game ended: resign, repetition, … (`kifudex parse` names) or 投了, 千日手 …
    pub terminal: Option<String>,
    /// A glob over the path of a file the game was read from, as given to import.
    pub source: Option<String>,
    /// A text query (tantivy's syntax, as `kifudex text` takes it): games with a comment,
    /// header or name that matches.
    pub text: Option<String>,
}

/// The terminal words a user may type, with the stored codes.
const TERMINAL_WORDS: &[(&str, &str)] = &[
    ("投了", "resign"),
    ("中断", "abort"),
    ("千日手", "repetition"),
    ("持将棋", "impasse"),
    ("切れ負け", "time_up"),
    ("時間切れ", "time_up"),
    ("反則勝ち", "illegal_win"),
    ("反則負け", "illegal_loss"),
    ("入玉勝ち", "entering_king_win"),
    ("不戦勝", "default_win"),
    ("不戦敗", "default_loss"),
    ("詰み", "mate"),
    ("不詰", "no_mate"),
];

/// The players a name given to the filter means (part of the name; width, kana, 旧字体 and
/// titles don't matter), by id.
pub fn matching_players(store: &Store, name: &str) -> Result<Vec<i64>, QueryError> {
    let key = name_key(name);
    let bare = strip_titles(&key);
    Ok(store.players_matching(&key, &bare)?)
}

impl GameFilter {
    /// Whether the filter takes every game.
    pub fn is_empty(&self) -> bool {
        *self == GameFilter::default()
    }

    /// Sets a field by its name (`player`, `as`, `sente`, `gote`, `vs`, `event`, `opening`,
    /// `since`, `until`, `winner`, `handicap`, `min-plies`, `max-plies`, `terminal`,
    /// `source`), as a text query's `player:藤井` does. `Ok(false)`: no such field.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, QueryError> {
        let v = Some(value.to_string());
        let number = |v: &str| {
            v.parse::<u32>()
                .map_err(|_| QueryError::BadArgument(format!("{key}:{v}: give a number of moves")))
        };
        match key {
            "player" => self.player = v,
            "as" | "side" => self.side = Some(parse_side(value)?),
            "sente" => self.sente = v,
            "gote" => self.gote = v,
            "vs" => self.vs = v,
            "event" => self.event = v,
            "opening" => self.opening = v,
            "castle" => self.castle = v,
            "strategy" => self.strategy = v,
            "since" => self.since = v,
            "until" => self.until = v,
            "winner" => self.winner = v,
            "handicap" => self.handicap = v,
            "min-plies" | "min_plies" => self.min_plies = Some(number(value)?),
            "max-plies" | "max_plies" => self.max_plies = Some(number(value)?),
            "terminal" => self.terminal = v,
            "source" => self.source = v,
            "text" => self.text = v,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The store's conditions for this filter, after checking it.
    pub fn selection(&self, store: &Store) -> Result<Selection, QueryError> {
        let mut conds = Vec::new();
        let needs_player = |what: &str| {
            QueryError::BadArgument(format!("{what} needs --player (the player it is about)"))
        };
        if self.player.is_none() {
            if self.side.is_some() && self.castle.is_none() && self.strategy.is_none() {
                return Err(needs_player("--as"));
            }
            if self.vs.is_some() {
                return Err(needs_player("--vs"));
            }
        }
        let winner = self.winner.as_deref().map(WinnerArg::parse).transpose()?;
        if winner == Some(WinnerArg::Player) && self.player.is_none() {
            return Err(needs_player("--winner player"));
        }
        let since = self
            .since
            .as_deref()
            .map(|d| date_arg("--since", d))
            .transpose()?;
        let until = self
            .until
            .as_deref()
            .map(|d| date_arg("--until", d))
            .transpose()?;
        if let (Some(a), Some(b)) = (&since, &until)
            && a > b
            && !a.starts_with(b.as_str())
        {
            return Err(QueryError::BadArgument(format!(
                "--since {a} is after --until {b}: no game can match"
            )));
        }
        if let (Some(a), Some(b)) = (self.min_plies, self.max_plies)
            && a > b
        {
            return Err(QueryError::BadArgument(format!(
                "--min-plies {a} is more than --max-plies {b}: no game can match"
            )));
        }
        let terminal = self.terminal.as_deref().map(terminal_code).transpose()?;
        let handicaps = self.handicap.as_deref().map(handicap_arg).transpose()?;

        let players = |q: &str| matching_players(store, q);
        if let Some(p) = &self.player {
            let ids = players(p)?;
            match &self.vs {
                Some(vs) => conds.push(Cond::Pair {
                    a: ids.clone(),
                    b: players(vs)?,
                    side: self.side,
                }),
                None => conds.push(Cond::Player {
                    side: self.side,
                    players: ids.clone(),
                }),
            }
            if winner == Some(WinnerArg::Player) {
                conds.push(Cond::PlayerWon {
                    players: ids,
                    side: self.side,
                });
            }
        }
        for (side, q) in [(Side::Sente, &self.sente), (Side::Gote, &self.gote)] {
            if let Some(q) = q {
                conds.push(Cond::Player {
                    side: Some(side),
                    players: players(q)?,
                });
            }
        }
        // A name of the classifier: header values and recognised names through the hierarchy.
        let known_opening = self.opening.as_deref().and_then(classify::canonical);
        if let Some(name) = known_opening {
            let names = classify::descendants(name);
            let headers: Vec<String> = store
                .distinct_values(TextColumn::Opening)?
                .into_iter()
                .filter(|v| {
                    classify::split_header(v)
                        .iter()
                        .any(|h| names.contains(&h.as_str()))
                })
                .collect();
            conds.push(Cond::Opening {
                headers,
                names: names.iter().map(|n| n.to_string()).collect(),
            });
        }
        for (flag, q, kind) in [
            ("--castle", &self.castle, classify::Kind::Castle),
            ("--strategy", &self.strategy, classify::Kind::Strategy),
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
            conds.push(Cond::Recognised {
                names: classify::descendants(name)
                    .into_iter()
                    .map(str::to_string)
                    .collect(),
                side: self.side,
            });
        }
        let opening_text = self.opening.as_ref().filter(|_| known_opening.is_none());
        for (column, q) in [
            (TextColumn::Event, self.event.as_ref()),
            (TextColumn::Opening, opening_text),
        ] {
            if let Some(q) = q {
                conds.push(Cond::Text {
                    column,
                    values: matching_values(store, column, q)?,
                });
            }
        }
        if let Some(d) = since {
            conds.push(Cond::Since(d));
        }
        if let Some(d) = until {
            conds.push(Cond::Until(d));
        }
        match winner {
            Some(WinnerArg::Sente) => conds.push(Cond::Winner("sente".into())),
            Some(WinnerArg::Gote) => conds.push(Cond::Winner("gote".into())),
            Some(WinnerArg::Draw) => conds.push(Cond::Winner("draw".into())),
            Some(WinnerArg::Player) | None => {}
        }
        if let Some(names) = handicaps {
            conds.push(Cond::Text {
                column: TextColumn::Handicap,
                values: names,
            });
        }
        if let Some(n) = self.min_plies {
            conds.push(Cond::MinPlies(n));
        }
        if let Some(n) = self.max_plies {
            conds.push(Cond::MaxPlies(n));
        }
        if let Some(code) = terminal {
            conds.push(Cond::Text {
                column: TextColumn::Terminal,
                values: vec![code.to_string()],
            });
        }
        if let Some(glob) = &self.source {
            conds.push(Cond::Source(glob.clone()));
        }
        if let Some(text) = &self.text {
            let (index, _) = super::text::open_text(store)?;
            let ids = index.matching_games(text, false)?;
            conds.push(if ids.is_empty() {
                Cond::Nothing
            } else {
                Cond::Ids(ids)
            });
        }
        // A name or word that matches nothing selects no game (rather than being ignored).
        for c in &mut conds {
            let empty = match c {
                Cond::Player { players, .. } | Cond::PlayerWon { players, .. } => {
                    players.is_empty()
                }
                Cond::Pair { a, b, .. } => a.is_empty() || b.is_empty(),
                Cond::Text { values, .. } => values.is_empty(),
                Cond::Opening { headers, names } => headers.is_empty() && names.is_empty(),
                Cond::Recognised { names, .. } => names.is_empty(),
                _ => false,
            };
            if empty {
                *c = Cond::Nothing;
            }
        }
        Ok(Selection { conds })
    }

    /// The games the filter takes (`None`: every game, nothing to check); with `within`,
    /// only among those.
    pub fn resolve(
        &self,
        store: &Store,
        within: Option<&[i64]>,
    ) -> Result<Option<GameSet>, QueryError> {
        if self.is_empty() {
            return Ok(None);
        }
        let sel = self.selection(store)?;
        Ok(Some(store.select_games(&sel, within)?))
    }
}

/// A date given as an argument: `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (`/` or `.` between parts
/// too, or `YYYYMMDD`), checked (no month 13, no 30 February), as stored (`YYYY-MM-DD`).
pub fn date_arg(name: &str, value: &str) -> Result<String, QueryError> {
    let bad = |why: &str| {
        QueryError::BadArgument(format!(
            "{name} {value:?} is no date{why}: give YYYY, YYYY-MM or YYYY-MM-DD"
        ))
    };
    let v = value.trim();
    let parts: Vec<&str> = if v.len() == 8 && v.bytes().all(|b| b.is_ascii_digit()) {
        vec![&v[..4], &v[4..6], &v[6..]]
    } else {
        v.split(['-', '/', '.']).collect()
    };
    if parts.len() > 3
        || parts
            .iter()
            .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || p.len() > 4)
    {
        return Err(bad(""));
    }
    if parts[0].len() != 4 {
        return Err(bad(" (the year has four digits)"));
    }
    let n: Vec<u32> = parts.iter().map(|p| p.parse().unwrap_or(0)).collect();
    let mut out = parts[0].to_string();
    if let Some(&m) = n.get(1) {
        if !(1..=12).contains(&m) || parts[1].len() > 2 {
            return Err(bad(&format!(" (there is no month {})", parts[1])));
        }
        out.push_str(&format!("-{m:02}"));
    }
    if let Some(&d) = n.get(2) {
        let days = match n[1] {
            2 if n[0].is_multiple_of(4)
                && (!n[0].is_multiple_of(100) || n[0].is_multiple_of(400)) =>
            {
                29
            }
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        if !(1..=days).contains(&d) || parts[2].len() > 2 {
            return Err(bad(&format!(
                " ({}-{:02} has no day {})",
                parts[0], n[1], parts[2]
            )));
        }
        out.push_str(&format!("-{d:02}"));
    }
    Ok(out)
}

/// The stored terminal code a user's word names.
fn terminal_code(q: &str) -> Result<&'static str, QueryError> {
    let t = q.trim();
    if let Some(kind) = kifudex_notation::TerminalKind::from_code(&t.to_ascii_lowercase()) {
        return Ok(kind.code());
    }
    if let Some(&(_, code)) = TERMINAL_WORDS.iter().find(|(w, _)| *w == t) {
        return Ok(code);
    }
    let codes: Vec<&str> = kifudex_notation::TerminalKind::ALL
        .iter()
        .map(|k| k.code())
        .collect();
    Err(QueryError::BadArgument(format!(
        "--terminal {q:?} names no ending; known: {} (or 投了, 千日手, 持将棋, 中断 …)",
        codes.join(" ")
    )))
}

/// The handicap names a user's word picks: the exact name, else every name containing it.
fn handicap_arg(q: &str) -> Result<Vec<String>, QueryError> {
    let f = fold(q);
    let names: Vec<&'static str> = Handicap::ALL.iter().map(|h| h.kif_name()).collect();
    let picked: Vec<String> = match names.iter().find(|n| fold(n) == f) {
        Some(exact) => vec![exact.to_string()],
        None => names
            .iter()
            .filter(|n| fold(n).contains(&f))
            .map(|n| n.to_string())
            .collect(),
    };
    if picked.is_empty() {
        return Err(QueryError::BadArgument(format!(
            "--handicap {q:?} names no handicap; known: {}",
            names.join(" ")
        )));
    }
    Ok(picked)
}

/// The distinct values of a text column that contain `q`, compared in folded form.
fn matching_values(store: &Store, column: TextColumn, q: &str) -> Result<Vec<String>, QueryError> {
    let q = fold(q).replace(' ', "");
    Ok(store
        .distinct_values(column)?
        .into_iter()
        .filter(|v| fold(v).replace(' ', "").contains(&q))
        .collect())
}
