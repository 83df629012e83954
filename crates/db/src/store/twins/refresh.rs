//! A game's facts worked out again from its sources: its own source's headers and terminal,
//! and each fact its own source lacks from the first other source that gives it (in the
//! order of `game_sources`). What follows from them is brought up to date with them: the
//! columns, the players (and their totals), `game_fields`, the result and date the position
//! index keeps, and a revision for the text index.

use rusqlite::{Connection, OptionalExtension, params};

use super::{Fact, GameFacts, SourceFacts, TERMINAL_FIELD, load, other_facts, revise};
use crate::store::StoreError;
use crate::store::codec::{HeaderColumns, encode_headers};
use crate::store::labels;
use crate::store::players::{Pending, subtract};
use crate::store::postings::{result_code, set_game_columns};
use crate::store::remove::delete_unused_players;
use kifudex_notation::Record;
use kifudex_notation::normalize::{name_key, strip_titles};

/// What working out a game's facts again changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Refreshed {
    /// Its facts changed (and with them its text: a revision was recorded).
    pub changed: bool,
    /// The result and date the position index keeps for it, when they changed, and whether
    /// a segment held them (false: its postings are still to be written).
    pub columns: Option<(u8, u32, bool)>,
    /// Players no game names any more, deleted.
    pub players_gone: Vec<i64>,
}

/// The columns a game's headers give.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Columns {
    sente: Option<String>,
    gote: Option<String>,
    event: Option<String>,
    opening: Option<String>,
    title: Option<String>,
    date: Option<String>,
}

impl Columns {
    /// Whether the game's columns are these.
    fn same_as(&self, g: &GameFacts) -> bool {
        let [sente, gote, event, opening, title] = &g.columns;
        (sente, gote, event, opening, title, &g.date)
            == (
                &self.sente,
                &self.gote,
                &self.event,
                &self.opening,
                &self.title,
                &self.date,
            )
    }

    fn of(headers: &[(String, String)]) -> Columns {
        let rec = Record {
            headers: headers.to_vec(),
            ..Record::default()
        };
        let own = |s: Option<&str>| s.map(str::to_string);
        Columns {
            sente: own(rec.sente()),
            gote: own(rec.gote()),
            event: own(rec.event()),
            opening: own(rec.opening()),
            title: own(rec.title()),
            date: rec.date().map(|d| d.to_string()),
        }
    }
}

/// Works game `game`'s facts out again from its sources (see the module documentation).
pub fn refresh(c: &Connection, game: i64) -> Result<Refreshed, StoreError> {
    refresh_with(c, game, None)
}

/// [`refresh`], with `own` as what the game's own source says (a source that held it
/// besides became its own).
pub fn refresh_with(
    c: &Connection,
    game: i64,
    own: Option<SourceFacts>,
) -> Result<Refreshed, StoreError> {
    let Some(mut g) = load(c, game)? else {
        return Ok(Refreshed::default());
    };
    if let Some(own) = own {
        g.own = own.headers;
        g.own_terminal = own.terminal;
        g.own_winner = own.winner;
    }
    let others = other_facts(c, game)?;
    let mut headers = g.own.clone();
    let mut filled: Vec<(&'static str, i64, i64)> = Vec::new();
    for fact in Fact::ALL {
        if fact.given_by(&headers).next().is_some() {
            continue;
        }
        for (source, index, f) in &others {
            let given: Vec<(String, String)> = fact.given_by(&f.headers).cloned().collect();
            if !given.is_empty() {
                headers.extend(given);
                filled.push((fact.name(), *source, *index));
                break;
            }
        }
    }
    let (mut terminal, mut winner) = (g.own_terminal.clone(), g.own_winner.clone());
    if terminal.is_none()
        // A prefix's terminal is that of a shorter line.
        && let Some((source, index, f)) = others
            .iter()
            .find(|(_, _, f)| f.terminal.is_some() && f.plies.is_none())
    {
        terminal = f.terminal.clone();
        winner = f.winner.clone();
        filled.push((TERMINAL_FIELD, *source, *index));
    }
    filled.sort();
    let mut before: Vec<(String, i64, i64)> = g.filled.clone();
    before.sort();
    let same_fields = before
        .iter()
        .map(|(f, s, i)| (f.as_str(), *s, *i))
        .eq(filled.iter().copied());
    if headers == g.headers
        && terminal == g.terminal
        && winner == g.winner
        && same_fields
        && Columns::of(&headers).same_as(&g)
    {
        return Ok(Refreshed::default());
    }
    write(c, &g, &headers, terminal, winner, &filled)
}

/// Writes what [`refresh`] worked out.
fn write(
    c: &Connection,
    g: &GameFacts,
    headers: &[(String, String)],
    terminal: Option<String>,
    winner: Option<String>,
    filled: &[(&'static str, i64, i64)],
) -> Result<Refreshed, StoreError> {
    let game = g.id;
    let mut done = Refreshed {
        changed: true,
        ..Refreshed::default()
    };
    let old: (Option<i64>, Option<i64>, Option<String>) = c
        .prepare_cached("SELECT sente_id, gote_id, date FROM games WHERE id = ?1")?
        .query_row([game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    let columns = Columns::of(headers);
    // The totals: the game as it was goes, as it is now comes.
    subtract(c, game)?;
    labels::subtract(c, game)?;
    let sente = columns.sente.as_deref().map(|n| player(c, n)).transpose()?;
    let gote = columns.gote.as_deref().map(|n| player(c, n)).transpose()?;
    let text = encode_headers(
        headers,
        HeaderColumns {
            sente: columns.sente.as_deref(),
            gote: columns.gote.as_deref(),
            event: columns.event.as_deref(),
            opening: columns.opening.as_deref(),
            title: columns.title.as_deref(),
            handicap: Some(&g.handicap),
        },
    );
    c.prepare_cached(
        "UPDATE games SET headers = ?2, sente_id = ?3, gote_id = ?4, event = ?5, opening = ?6,
         title = ?7, date = ?8, terminal = ?9, winner = ?10 WHERE id = ?1",
    )?
    .execute(params![
        game,
        text,
        sente,
        gote,
        columns.event,
        columns.opening,
        columns.title,
        columns.date,
        terminal,
        winner
    ])?;
    let label: Option<String> = c
        .prepare_cached("SELECT label FROM games WHERE id = ?1")?
        .query_row([game], |r| r.get(0))?;
    let mut totals = Pending::default();
    totals.add(
        [sente, gote],
        winner.as_deref(),
        columns.date.as_deref(),
        columns.opening.as_deref().or(label.as_deref()),
    );
    totals.flush(c)?;
    labels::add_game(c, game)?;
    let gone: Vec<i64> = [old.0, old.1]
        .into_iter()
        .flatten()
        .filter(|p| Some(*p) != sente && Some(*p) != gote)
        .collect();
    done.players_gone = delete_unused_players(c, &gone)?;
    c.prepare_cached("DELETE FROM game_fields WHERE game_id = ?1")?
        .execute([game])?;
    for (field, source, index) in filled {
        c.prepare_cached(
            "INSERT INTO game_fields (game_id, field, source_id, game_index) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![game, field, source, index])?;
    }
    revise(c, game)?;
    let code = |d: Option<&str>| {
        d.and_then(kifudex_notation::dates::GameDate::parse)
            .map_or(0, |d| d.code())
    };
    let (result_before, result_now) = (
        result_code(g.winner.as_deref()),
        result_code(winner.as_deref()),
    );
    let (date_before, date_now) = (code(old.2.as_deref()), code(columns.date.as_deref()));
    if (result_before, date_before) != (result_now, date_now) {
        let indexed = set_game_columns(c, game, result_now, date_now)?;
        done.columns = Some((result_now, date_now, indexed));
    }
    Ok(done)
}

/// The id of a player, added when new.
fn player(c: &Connection, name: &str) -> Result<i64, StoreError> {
    let found: Option<i64> = c
        .prepare_cached("SELECT id FROM players WHERE name = ?1")?
        .query_row([name], |r| r.get(0))
        .optional()?;
    if let Some(id) = found {
        return Ok(id);
    }
    let key = name_key(name);
    let bare = strip_titles(&key);
    c.prepare_cached("INSERT INTO players (name, key, bare) VALUES (?1, ?2, ?3)")?
        .execute(params![name, key, bare])?;
    Ok(c.last_insert_rowid())
}
