//! The game filter: one question about a game's headers, asked the same way by every command
//! that selects games (`search`, `position`, `tree`, `text`, `stats`, `players`, `openings`,
//! `export`, `book`, `remove`) and by the explorer's API.
//!
//! Its fields are declared once, in [`FIELDS`] (flag, parameter, help); where input enters
//! (the CLI's flags, the API's parameters, a text query's `key:value` words) each value is read
//! into its type by [`GameFilter::set`], and the whole is checked by [`GameFilter::check`]. An
//! error names the field in the caller's words ([`Words`]). [`GameFilter::selection`] then turns
//! names and words into the store's typed conditions ([`Cond`]); the store resolves those into
//! a set of game ids ([`GameSet`]) that the position scan, the tree and the text search honour.

mod evals;
mod fields;

pub use evals::EvalAt;
pub use fields::{FIELDS, Field, FieldDef, Words};

use crate::store::{Cond, GameSet, LabelSource, Selection, Side, Store, TextColumn};
use kifudex_classify as classify;
use kifudex_notation::TerminalKind;
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
    /// 引き分け); `Err` says what to give.
    pub fn parse(s: &str) -> Result<WinnerArg, String> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "sente" | "先手" | "下手" | "black" => WinnerArg::Sente,
            "gote" | "後手" | "上手" | "white" => WinnerArg::Gote,
            "draw" | "引き分け" | "引分" | "引分け" => WinnerArg::Draw,
            "player" => WinnerArg::Player,
            _ => return Err("give sente, gote, draw (先手, 後手, 引き分け) or player".into()),
        })
    }
}

/// Reads `sente`/`gote` (先手/後手, 下手/上手); `Err` says what to give.
pub fn parse_side(s: &str) -> Result<Side, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "sente" | "先手" | "下手" | "black" => Ok(Side::Sente),
        "gote" | "後手" | "上手" | "white" => Ok(Side::Gote),
        _ => Err("give sente or gote (先手 or 後手)".into()),
    }
}

/// A filter asked wrongly: a value that is not of its field's type, or fields that cannot
/// hold together. [`FilterError::describe`] words it for the CLI, the API or a text query;
/// `Display` gives the CLI's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    #[error("{}", self.describe(Words::Cli))]
    Value {
        field: Field,
        value: String,
        /// What is wrong and what to give (`is no date (…): give YYYY, YYYY-MM or YYYY-MM-DD`).
        reason: String,
        /// Whether the value is shown quoted (it is, unless it is what the user meant but
        /// conflicts with something known).
        quoted: bool,
    },
    /// `field` (with `value`, when it matters) is used without `needs`.
    #[error("{}", self.describe(Words::Cli))]
    Needs {
        field: Field,
        value: Option<String>,
        needs: Field,
        /// What `needs` would say (`the player it is about`).
        about: &'static str,
    },
    /// Two bounds that no game can meet (`since` after `until`).
    #[error("{}", self.describe(Words::Cli))]
    Empty {
        low: (Field, String),
        high: (Field, String),
        /// `is after`, `is more than`.
        relation: &'static str,
    },
}

impl FilterError {
    /// The message, with the fields named as `words` call them.
    pub fn describe(&self, words: Words) -> String {
        match self {
            FilterError::Value {
                field,
                value,
                reason,
                quoted,
            } => {
                let (name, sep) = (field.name(words), separator(words));
                if *quoted {
                    format!("{name}{sep}{value:?}{reason}")
                } else {
                    format!("{name}{sep}{value}{reason}")
                }
            }
            FilterError::Needs {
                field,
                value,
                needs,
                about,
            } => {
                let name = field.name(words);
                let needs = needs.name(words);
                match value {
                    Some(v) => format!("{name}{}{v} needs {needs} ({about})", separator(words)),
                    None => format!("{name} needs {needs} ({about})"),
                }
            }
            FilterError::Empty {
                low,
                high,
                relation,
            } => {
                let sep = separator(words);
                format!(
                    "{}{sep}{} {relation} {}{sep}{}: no game can match",
                    low.0.name(words),
                    low.1,
                    high.0.name(words),
                    high.1
                )
            }
        }
    }
}

/// What stands between a field's name and its value: `--since 2020`, `since=2020`,
/// `since:2020`.
fn separator(words: Words) -> &'static str {
    match words {
        Words::Cli => " ",
        Words::Api => "=",
        Words::Text => "",
    }
}

/// What games to take; every field set must hold. Empty: every game. Values are typed:
/// [`GameFilter::set`] reads them from text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// A player on either side (part of the name; width, kana, 旧字体 and titles don't matter).
    pub player: Option<String>,
    /// With `player`: the side the player had; with `castle` or `strategy`, the side that
    /// played it.
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
    /// Where `opening` looks: the header's 戦型 or the label recognised from the moves only;
    /// None, the game's label (the header's, else the recognised).
    pub opening_from: Option<LabelSource>,
    /// A castle recognised for a side (`side` when set), at any level of the hierarchy: the
    /// canonical name.
    pub castle: Option<&'static str>,
    /// A strategy recognised for a side (`side` when set), at any level of the hierarchy.
    pub strategy: Option<&'static str>,
    /// Games on or after this date, as stored: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
    pub since: Option<String>,
    /// Games on or before it (`2020-06` takes all of June).
    pub until: Option<String>,
    pub winner: Option<WinnerArg>,
    /// The handicaps taken (a name, or every name containing the word given).
    pub handicap: Option<Vec<Handicap>>,
    pub min_plies: Option<u32>,
    pub max_plies: Option<u32>,
    /// How the game ended.
    pub terminal: Option<TerminalKind>,
    /// A glob over the path of a file the game was read from, as given to import.
    pub source: Option<String>,
    /// A text query (tantivy's syntax, as `kifudex text` takes it): games with a comment,
    /// header or name that matches.
    pub text: Option<String>,
    /// Games with evaluations, or without.
    pub evaluated: Option<bool>,
    /// Games decided by a single swing of at least this much (`kifudex_evals::drops`).
    pub swing: Option<i32>,
    /// The evaluation at a ply in a range.
    pub eval_at: Option<EvalAt>,
}

/// What a field that needs the player says of it.
const PLAYER: &str = "the player it is about";

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

    /// Reads `value` into `field`: the one place where a filter's text becomes its type.
    pub fn set(&mut self, field: Field, value: &str) -> Result<(), FilterError> {
        let bad = |reason: String| FilterError::Value {
            field,
            value: value.to_string(),
            reason,
            quoted: true,
        };
        let text = Some(value.to_string());
        match field {
            Field::Player => self.player = text,
            Field::As => self.side = Some(parse_side(value).map_err(|r| bad(format!(": {r}")))?),
            Field::Sente => self.sente = text,
            Field::Gote => self.gote = text,
            Field::Vs => self.vs = text,
            Field::Event => self.event = text,
            Field::Opening => self.opening = text,
            Field::OpeningFrom => {
                self.opening_from = match value.trim().to_ascii_lowercase().as_str() {
                    "either" | "any" => None,
                    v => Some(
                        LabelSource::from_code(v)
                            .ok_or_else(|| bad(": give header, moves or either".to_string()))?,
                    ),
                }
            }
            Field::Castle => {
                self.castle = Some(recognised_name(value, classify::Kind::Castle).map_err(bad)?)
            }
            Field::Strategy => {
                self.strategy = Some(recognised_name(value, classify::Kind::Strategy).map_err(bad)?)
            }
            Field::Since => self.since = Some(date_value(value).map_err(bad)?),
            Field::Until => self.until = Some(date_value(value).map_err(bad)?),
            Field::Winner => {
                self.winner = Some(WinnerArg::parse(value).map_err(|r| bad(format!(": {r}")))?)
            }
            Field::Handicap => self.handicap = Some(handicap_value(value).map_err(bad)?),
            Field::MinPlies => self.min_plies = Some(plies_value(value).map_err(bad)?),
            Field::MaxPlies => self.max_plies = Some(plies_value(value).map_err(bad)?),
            Field::Terminal => self.terminal = Some(terminal_value(value).map_err(bad)?),
            Field::Source => self.source = text,
            Field::Text => self.text = text,
            Field::Evaluated => self.evaluated = Some(evals::yes_no(value).map_err(bad)?),
            Field::Swing => self.swing = Some(evals::swing_value(value).map_err(bad)?),
            Field::EvalAt => self.eval_at = Some(evals::eval_at_value(value).map_err(bad)?),
        }
        Ok(())
    }

    /// Checks that the fields can hold together: `--as`, `--vs` and `--winner player` need a
    /// player; bounds must leave room for a game.
    pub fn check(&self) -> Result<(), FilterError> {
        if self.player.is_none() {
            if self.side.is_some() && self.castle.is_none() && self.strategy.is_none() {
                return Err(FilterError::Needs {
                    field: Field::As,
                    value: None,
                    needs: Field::Player,
                    about: PLAYER,
                });
            }
            if self.vs.is_some() {
                return Err(FilterError::Needs {
                    field: Field::Vs,
                    value: None,
                    needs: Field::Player,
                    about: PLAYER,
                });
            }
            if self.winner == Some(WinnerArg::Player) {
                return Err(FilterError::Needs {
                    field: Field::Winner,
                    value: Some("player".into()),
                    needs: Field::Player,
                    about: PLAYER,
                });
            }
        }
        if let Some(q) = &self.opening
            && self.opening_from == Some(LabelSource::Moves)
            && opening_names(q).is_empty()
        {
            return Err(FilterError::Value {
                field: Field::Opening,
                value: q.clone(),
                reason: " names no opening kifudex recognises from the moves (`kifudex openings` lists them)"
                    .into(),
                quoted: true,
            });
        }
        if self.opening_from.is_some() && self.opening.is_none() {
            return Err(FilterError::Needs {
                field: Field::OpeningFrom,
                value: None,
                needs: Field::Opening,
                about: "the opening it is about",
            });
        }
        if let (Some(a), Some(b)) = (&self.since, &self.until)
            && a > b
            && !a.starts_with(b.as_str())
        {
            return Err(FilterError::Empty {
                low: (Field::Since, a.clone()),
                high: (Field::Until, b.clone()),
                relation: "is after",
            });
        }
        if let (Some(a), Some(b)) = (self.min_plies, self.max_plies)
            && a > b
        {
            return Err(FilterError::Empty {
                low: (Field::MinPlies, a.to_string()),
                high: (Field::MaxPlies, b.to_string()),
                relation: "is more than",
            });
        }
        Ok(())
    }

    /// The store's conditions for this filter, after checking it.
    pub fn selection(&self, store: &Store) -> Result<Selection, QueryError> {
        self.check()?;
        let mut conds = Vec::new();
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
            if self.winner == Some(WinnerArg::Player) {
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
        // A name of the classifier: the game's label through the hierarchy, from the header's
        // values (any spelling) or the recognised label.
        let known_opening = self
            .opening
            .as_deref()
            .map(opening_names)
            .filter(|n| !n.is_empty());
        if let Some(known) = &known_opening {
            let mut names: Vec<&'static str> = Vec::new();
            for n in known.iter().flat_map(|n| classify::descendants(n)) {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            // Header values are looked through only when the header alone is asked: the
            // game's label holds the header's known name already.
            let headers: Vec<String> = if self.opening_from != Some(LabelSource::Header) {
                Vec::new()
            } else {
                store
                    .distinct_values(TextColumn::Opening)?
                    .into_iter()
                    .filter(|v| {
                        classify::split_header(v)
                            .iter()
                            .any(|h| names.contains(&h.as_str()))
                    })
                    .collect()
            };
            let names = if self.opening_from == Some(LabelSource::Header) {
                Vec::new()
            } else {
                names.iter().map(|n| n.to_string()).collect()
            };
            conds.push(Cond::Opening {
                headers,
                names,
                from: self.opening_from,
            });
        }
        // A castle or strategy is one side's: `side` when given, else the player's side when a
        // player is asked, else either side.
        let player_ids = match &self.player {
            Some(p) if self.side.is_none() => Some(players(p)?),
            _ => None,
        };
        for name in [self.castle, self.strategy].into_iter().flatten() {
            let names = classify::descendants(name)
                .into_iter()
                .map(str::to_string)
                .collect();
            conds.push(match &player_ids {
                Some(ids) => Cond::PlayerRecognised {
                    players: ids.clone(),
                    names,
                },
                None => Cond::Recognised {
                    names,
                    side: self.side,
                },
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
        if let Some(d) = &self.since {
            conds.push(Cond::Since(d.clone()));
        }
        if let Some(d) = &self.until {
            conds.push(Cond::Until(d.clone()));
        }
        match self.winner {
            Some(WinnerArg::Sente) => conds.push(Cond::Winner("sente".into())),
            Some(WinnerArg::Gote) => conds.push(Cond::Winner("gote".into())),
            Some(WinnerArg::Draw) => conds.push(Cond::Winner("draw".into())),
            Some(WinnerArg::Player) | None => {}
        }
        if let Some(handicaps) = &self.handicap {
            conds.push(Cond::Text {
                column: TextColumn::Handicap,
                values: handicaps.iter().map(|h| h.kif_name().to_string()).collect(),
            });
        }
        if let Some(n) = self.min_plies {
            conds.push(Cond::MinPlies(n));
        }
        if let Some(n) = self.max_plies {
            conds.push(Cond::MaxPlies(n));
        }
        if let Some(kind) = self.terminal {
            conds.push(Cond::Text {
                column: TextColumn::Terminal,
                values: vec![kind.code().to_string()],
            });
        }
        if let Some(glob) = &self.source {
            conds.push(Cond::Source(glob.clone()));
        }
        self.eval_conds(&mut conds);
        if let Some(text) = &self.text {
            let (index, _) = super::text::open_text_read(store)?;
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
                Cond::Opening { headers, names, .. } => headers.is_empty() && names.is_empty(),
                Cond::Recognised { names, .. } => names.is_empty(),
                Cond::PlayerRecognised { players, names } => players.is_empty() || names.is_empty(),
                _ => false,
            };
            if empty {
                *c = Cond::Nothing;
            }
        }
        Ok(Selection { conds })
    }

    /// What the answer should say of how the filter was read (an opening that names nothing
    /// known, matched as text), in the caller's words.
    pub fn notes(&self, words: Words) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(q) = &self.opening {
            let known = opening_names(q);
            if known.is_empty() {
                notes.push(format!(
                    "{}{}{q:?} names no opening kifudex knows: games whose 戦型 header holds it",
                    Field::Opening.name(words),
                    separator(words)
                ));
            } else if known.len() > 1 {
                notes.push(format!(
                    "{}{}{q:?} is the start of {} openings: games of any of {}",
                    Field::Opening.name(words),
                    separator(words),
                    known.len(),
                    known.join(", ")
                ));
            }
        }
        notes
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

/// The openings (strategies or game labels) a user's word names: a known name in any
/// spelling; else the known names it is the start of, each with the lines below it: one
/// when it is the ancestor of all the others (`四間` is 四間飛車, whose lines start with it
/// too), several when they are not (`4六銀` is 4六銀右急戦 and 4六銀左急戦). Empty: none.
fn opening_names(q: &str) -> Vec<&'static str> {
    if let Some(one) = opening_name(q) {
        return vec![one];
    }
    let q = classify::fold(q);
    if q.is_empty() {
        return Vec::new();
    }
    let starting: Vec<&'static str> = classify::canonical_names()
        .filter(|n| classify::names::kind_of(n) != Some(classify::Kind::Castle))
        .filter(|n| classify::fold(n).starts_with(&q))
        .collect();
    // The highest of them: those no other of them is above.
    starting
        .iter()
        .copied()
        .filter(|n| {
            !starting
                .iter()
                .any(|a| a != n && classify::lineage(n).contains(a))
        })
        .collect()
}

fn opening_name(q: &str) -> Option<&'static str> {
    let openings = || {
        classify::canonical_names()
            .filter(|n| classify::names::kind_of(n) != Some(classify::Kind::Castle))
    };
    if let Some(name) = classify::canonical(q).filter(|n| openings().any(|o| o == *n)) {
        return Some(name);
    }
    let q = classify::fold(q);
    if q.is_empty() {
        return None;
    }
    let starting: Vec<&'static str> = openings()
        .filter(|n| classify::fold(n).starts_with(&q))
        .collect();
    starting
        .iter()
        .copied()
        .find(|top| starting.iter().all(|n| classify::lineage(n).contains(top)))
}

/// The canonical castle or strategy a user's word names: a known name of that kind in any
/// spelling (`矢倉` asked as a castle is 矢倉囲い), else the start of names of which one is the
/// ancestor of the others.
fn recognised_name(q: &str, kind: classify::Kind) -> Result<&'static str, String> {
    let of_kind = |n: &&'static str| classify::names::kind_of(n) == Some(kind);
    let known = classify::canonical(q).filter(of_kind).or_else(|| {
        if kind == classify::Kind::Castle {
            classify::canonical(&format!("{q}囲い")).filter(of_kind)
        } else {
            None
        }
    });
    if let Some(name) = known {
        return Ok(name);
    }
    let f = classify::fold(q);
    let starting: Vec<&'static str> = classify::DEFS
        .iter()
        .filter(|d| d.kind == kind && !f.is_empty() && classify::fold(d.name).starts_with(&f))
        .map(|d| d.name)
        .collect();
    if let Some(top) = starting
        .iter()
        .copied()
        .find(|top| starting.iter().all(|n| classify::lineage(n).contains(top)))
    {
        return Ok(top);
    }
    let known: Vec<&str> = classify::DEFS
        .iter()
        .filter(|d| d.kind == kind)
        .map(|d| d.name)
        .collect();
    Err(format!(
        " names no {}; known: {}",
        kind.code(),
        known.join(" ")
    ))
}

/// A number of moves.
fn plies_value(v: &str) -> Result<u32, String> {
    v.trim()
        .parse::<u32>()
        .map_err(|_| " is no number of moves: give a whole number".to_string())
}

/// A date as a filter takes it: `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (`/` or `.` between parts
/// too, or `YYYYMMDD`), checked (no month 13, no 30 February), as stored (`YYYY-MM-DD`).
/// `Err` is what is wrong and what to give, to follow the value.
pub fn date_value(value: &str) -> Result<String, String> {
    let bad = |why: &str| format!(" is no date{why}: give YYYY, YYYY-MM or YYYY-MM-DD");
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

/// The ending a user's word names: a `kifudex parse` code or a Japanese word.
fn terminal_value(q: &str) -> Result<TerminalKind, String> {
    let t = q.trim();
    if let Some(kind) = TerminalKind::from_code(&t.to_ascii_lowercase()) {
        return Ok(kind);
    }
    if let Some(kind) = TERMINAL_WORDS
        .iter()
        .find(|(w, _)| *w == t)
        .and_then(|&(_, code)| TerminalKind::from_code(code))
    {
        return Ok(kind);
    }
    let codes: Vec<&str> = TerminalKind::ALL.iter().map(|k| k.code()).collect();
    Err(format!(
        " names no ending; known: {} (or 投了, 千日手, 持将棋, 中断 …)",
        codes.join(" ")
    ))
}

/// The handicaps a user's word picks: the exact name, else every name containing it.
fn handicap_value(q: &str) -> Result<Vec<Handicap>, String> {
    let f = fold(q);
    let picked: Vec<Handicap> = match Handicap::ALL.iter().find(|h| fold(h.kif_name()) == f) {
        Some(&exact) => vec![exact],
        None => Handicap::ALL
            .iter()
            .copied()
            .filter(|h| fold(h.kif_name()).contains(&f))
            .collect(),
    };
    if picked.is_empty() {
        let names: Vec<&str> = Handicap::ALL.iter().map(|h| h.kif_name()).collect();
        return Err(format!(" names no handicap; known: {}", names.join(" ")));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_declared_once_with_distinct_names() {
        for (i, d) in FIELDS.iter().enumerate() {
            assert_eq!(d.field.def().flag, d.flag);
            for e in &FIELDS[i + 1..] {
                assert_ne!(d.field, e.field);
                assert_ne!(d.flag, e.flag);
                assert_ne!(d.param, e.param);
            }
        }
    }

    #[test]
    fn errors_name_the_field_in_the_callers_words() {
        let mut f = GameFilter::default();
        let e = f.set(Field::Since, "2019-13").unwrap_err();
        let why = "\"2019-13\" is no date (there is no month 13): give YYYY, YYYY-MM or YYYY-MM-DD";
        assert_eq!(e.describe(Words::Cli), format!("--since {why}"));
        assert_eq!(e.describe(Words::Api), format!("since={why}"));
        assert_eq!(e.describe(Words::Text), format!("since:{why}"));
        let e = f.set(Field::MinPlies, "many").unwrap_err();
        assert_eq!(
            e.describe(Words::Api),
            "min_plies=\"many\" is no number of moves: give a whole number"
        );
        f.set(Field::MinPlies, "80").unwrap();
        f.set(Field::MaxPlies, "60").unwrap();
        assert_eq!(
            f.check().unwrap_err().describe(Words::Api),
            "min_plies=80 is more than max_plies=60: no game can match"
        );
        let mut g = GameFilter::default();
        g.set(Field::Winner, "player").unwrap();
        assert_eq!(
            g.check().unwrap_err().describe(Words::Text),
            "winner:player needs player: (the player it is about)"
        );
    }

    #[test]
    fn values_are_read_into_their_types() {
        let mut f = GameFilter::default();
        f.set(Field::Since, "2020/6").unwrap();
        f.set(Field::Terminal, "千日手").unwrap();
        f.set(Field::Handicap, "右香").unwrap();
        f.set(Field::As, "後手").unwrap();
        f.set(Field::Castle, "片美濃").unwrap();
        assert_eq!(f.since.as_deref(), Some("2020-06"));
        assert_eq!(f.terminal, Some(TerminalKind::Repetition));
        assert_eq!(f.handicap, Some(vec![Handicap::RightLance]));
        assert_eq!(f.side, Some(Side::Gote));
        assert_eq!(f.castle, Some("片美濃囲い"));
        assert!(f.set(Field::Castle, "四間飛車").is_err());
    }
}
