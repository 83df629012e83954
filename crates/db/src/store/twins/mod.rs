//! One game, one row: the same game read from several sources is stored once.
//!
//! Two records are twins (one game) when they have the same start and the same main line
//! (the duplicate key, `games.fingerprint`, is a hash of these alone), terminals that agree,
//! and metadata that does not conflict ([`Facts::conflicts`]): a field one source lacks
//! matches anything, names compare after normalisation, days at the precision both give,
//! events when one holds the other.
//! Different players, or days that cannot be the same, make two games.
//!
//! The stored game keeps every source: its own (the row's `source_id`) and the others in
//! `game_sources`, each with what it says when that is not what the game's own source says
//! (`facts`, [`SourceFacts`]). A fact the game's own source lacks is taken from the first
//! other source that gives it ([`refresh`]): its headers join the game's, its columns
//! follow, and `game_fields` names the source it came from. Whenever the sources change (a
//! twin read, a source removed, a merge or split by hand), the game's facts are worked out
//! again from them, and everything built on them follows: the players' totals, the position
//! index's result and date of the game, the text index (`game_revisions`).
//!
//! What the rule does not merge but a person should look at is listed by
//! [`Store::near_twins`](crate::store::Store::near_twins); a person merges or splits by hand
//! ([`hand`]).

mod event;
mod facts;
pub mod hand;
mod list;
mod place;
pub(super) mod refresh;
pub(super) mod rekey;
mod sources;
mod writer;

pub use facts::{Conflicts, Fact, Facts, TERMINAL_FIELD, name_form, time_of_day};
pub use list::{NearTwin, NearTwinKind};
pub(crate) use place::{Candidates, Placed};
pub use refresh::Refreshed;
pub use rekey::after_each_merge;
pub use sources::GameSource;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::StoreError;
use super::codec::{HeaderColumns, decode_headers};
use kifudex_notation::TerminalKind;

/// What a source says of a game it holds under other facts than the game's own source: the
/// `facts` column of `game_sources` (see `migrations/0015_twins.sql`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceFacts {
    /// Its headers, in its order.
    pub headers: Vec<(String, String)>,
    /// Its terminal (kifudex parse names), and the winner it gives.
    pub terminal: Option<String>,
    pub winner: Option<String>,
    /// The length of its main line, when it is a prefix of the game's (merged by hand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<u32>,
    /// A person merged it (`kifudex twins --merge`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hand: bool,
}

impl SourceFacts {
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("plain values")
    }

    /// The facts of a `facts` column value of game `game`.
    pub fn parse(game: i64, text: &str) -> Result<SourceFacts, StoreError> {
        serde_json::from_str(text)
            .map_err(|e| StoreError::Corrupt(game, format!("the facts of a source: {e}")))
    }

    /// What decides whether it is the same game as another record.
    pub fn facts(&self) -> Facts {
        Facts::of(
            &self.headers,
            self.terminal.as_deref().and_then(TerminalKind::from_code),
            self.winner.as_deref(),
        )
    }
}

/// A stored game as twins see it: its headers (its own and those taken from other
/// sources), terminal and winner, and the columns they made.
#[derive(Debug, Clone)]
pub struct GameFacts {
    pub id: i64,
    /// Its own source and its place there.
    pub source: i64,
    pub index: i64,
    /// The duplicate key (start and main line).
    pub key: Vec<u8>,
    /// Every header the game has: its own source's, then those taken from others.
    pub headers: Vec<(String, String)>,
    /// Its own source's headers.
    pub own: Vec<(String, String)>,
    pub terminal: Option<String>,
    pub winner: Option<String>,
    /// Its own source's terminal and winner (none when the terminal was taken from another).
    pub own_terminal: Option<String>,
    pub own_winner: Option<String>,
    /// The facts taken from other sources: (field, source, game index).
    pub filled: Vec<(String, i64, i64)>,
    pub handicap: String,
    pub plies: u32,
    /// Its columns: the players' names, event, opening, title; and its date.
    pub columns: [Option<String>; 5],
    pub date: Option<String>,
    /// The facts of every header the game has (what a new record is compared with).
    pub facts: Facts,
}

impl GameFacts {
    /// Its own source's facts, as a source other than its own would keep them.
    pub fn own_facts(&self) -> SourceFacts {
        SourceFacts {
            headers: self.own.clone(),
            terminal: self.own_terminal.clone(),
            winner: self.own_winner.clone(),
            plies: None,
            hand: false,
        }
    }
}

/// Game `id` as twins see it; `None` when there is no such game.
pub fn load(c: &Connection, id: i64) -> Result<Option<GameFacts>, StoreError> {
    type Row = (
        i64,
        i64,
        Vec<u8>,
        Option<String>,
        [Option<String>; 5],
        String,
        Option<String>,
        Option<String>,
        u32,
        Option<String>,
    );
    let row: Option<Row> = c
        .prepare_cached(
            "SELECT g.source_id, g.game_index, g.fingerprint, g.headers, ps.name, pg.name,
                    g.event, g.opening, g.title, g.handicap, g.terminal, g.winner, g.plies,
                    g.date
             FROM games g
             LEFT JOIN players ps ON ps.id = g.sente_id LEFT JOIN players pg ON pg.id = g.gote_id
             WHERE g.id = ?1",
        )?
        .query_row([id], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                [r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?],
                r.get(9)?,
                r.get(10)?,
                r.get(11)?,
                r.get(12)?,
                r.get(13)?,
            ))
        })
        .optional()?;
    let Some((source, index, key, headers, names, handicap, terminal, winner, plies, date)) = row
    else {
        return Ok(None);
    };
    let [sente, gote, event, opening, title] = &names;
    let columns = HeaderColumns {
        sente: sente.as_deref(),
        gote: gote.as_deref(),
        event: event.as_deref(),
        opening: opening.as_deref(),
        title: title.as_deref(),
        handicap: Some(&handicap),
    };
    let headers = headers.map_or_else(Vec::new, |h| decode_headers(&h, columns));
    let filled: Vec<(String, i64, i64)> = c
        .prepare_cached(
            "SELECT field, source_id, game_index FROM game_fields WHERE game_id = ?1
             ORDER BY field",
        )?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    let taken: Vec<Fact> = filled
        .iter()
        .filter_map(|(f, _, _)| Fact::from_name(f))
        .collect();
    let own = headers
        .iter()
        .filter(|(k, _)| !taken.iter().any(|f| f.named_by(k)))
        .cloned()
        .collect();
    let terminal_taken = filled.iter().any(|(f, _, _)| f == TERMINAL_FIELD);
    let (own_terminal, own_winner) = if terminal_taken {
        (None, None)
    } else {
        (terminal.clone(), winner.clone())
    };
    let facts = Facts::of(
        &headers,
        terminal.as_deref().and_then(TerminalKind::from_code),
        winner.as_deref(),
    );
    Ok(Some(GameFacts {
        id,
        source,
        index,
        key,
        headers,
        own,
        terminal,
        winner,
        own_terminal,
        own_winner,
        filled,
        handicap,
        plies,
        columns: names,
        date,
        facts,
    }))
}

/// The sources of game `game` other than its own that hold it under facts of their own, in
/// order: (source, game index, what it says).
pub fn other_facts(c: &Connection, game: i64) -> Result<Vec<(i64, i64, SourceFacts)>, StoreError> {
    let rows: Vec<(i64, i64, String)> = c
        .prepare_cached(
            "SELECT source_id, game_index, facts FROM game_sources
             WHERE game_id = ?1 AND facts IS NOT NULL ORDER BY source_id, game_index",
        )?
        .query_map([game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    rows.into_iter()
        .map(|(s, i, text)| Ok((s, i, SourceFacts::parse(game, &text)?)))
        .collect()
}

/// What every source of game `g` says: the game's facts (its own source's, with what it
/// took from others), then each other source's. A record is the game only when it conflicts
/// with none of them (a CSA that says 13:00 is not the game another CSA of it says started
/// at 09:00, though the game's own KIF gives no time). A source that holds a prefix of the
/// game says nothing of its end.
pub fn every_facts(c: &Connection, g: &GameFacts) -> Result<Vec<Facts>, StoreError> {
    let mut out = vec![g.facts.clone()];
    for (_, _, f) in other_facts(c, g.id)? {
        let mut facts = f.facts();
        if f.plies.is_some() {
            facts.terminal = None;
            facts.winner = None;
        }
        out.push(facts);
    }
    Ok(out)
}

/// Where any of `a` and any of `b` disagree.
pub fn conflicts_among(a: &[Facts], b: &[Facts]) -> Conflicts {
    a.iter()
        .flat_map(|x| b.iter().map(move |y| x.conflicts(y)))
        .fold(Conflicts::default(), Conflicts::or)
}

/// Links the record read as game `index` of `source` to game `game` as one more of its
/// sources, with what it says when that is not what the game's own source says.
pub fn link(
    c: &Connection,
    source: i64,
    index: i64,
    game: i64,
    facts: Option<&SourceFacts>,
) -> Result<(), StoreError> {
    c.prepare_cached(
        "INSERT OR REPLACE INTO game_sources (source_id, game_index, game_id, facts)
         VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![source, index, game, facts.map(SourceFacts::json)])?;
    Ok(())
}

/// Whether a person split the record read as game `index` of `source` from game `game`.
pub fn kept_apart(c: &Connection, source: i64, index: i64, game: i64) -> Result<bool, StoreError> {
    Ok(c.prepare_cached(
        "SELECT 1 FROM twins_apart WHERE source_id = ?1 AND game_index = ?2 AND game_id = ?3",
    )?
    .query_row(params![source, index, game], |_| Ok(()))
    .optional()?
    .is_some())
}

/// The sources that hold game `game` only as a prefix of its main line (merged by hand):
/// when the game goes they are read again by the next import, which stores what they hold.
pub fn partial_holders(c: &Connection, game: i64) -> Result<Vec<i64>, StoreError> {
    Ok(c.prepare_cached(
        "SELECT DISTINCT source_id FROM game_sources
             WHERE game_id = ?1 AND json_extract(facts, '$.plies') IS NOT NULL",
    )?
    .query_map([game], |r| r.get(0))?
    .collect::<Result<_, _>>()?)
}

/// Marks sources to be read again by the next import (as a changed file is).
pub fn read_again(c: &Connection, sources: &[i64]) -> Result<(), StoreError> {
    for &s in sources {
        c.prepare_cached("UPDATE sources SET mtime = -1, content_hash = '' WHERE id = ?1")?
            .execute([s])?;
    }
    Ok(())
}

/// Forgets what was decided by hand about game `game` and what it took from its sources
/// (the game goes).
pub fn forget_game(c: &Connection, game: i64) -> Result<(), StoreError> {
    c.prepare_cached("DELETE FROM game_fields WHERE game_id = ?1")?
        .execute([game])?;
    c.prepare_cached("DELETE FROM twins_apart WHERE game_id = ?1")?
        .execute([game])?;
    Ok(())
}

/// Records that game `game`'s text changed; returns the revision.
pub fn revise(c: &Connection, game: i64) -> Result<i64, StoreError> {
    c.prepare_cached("INSERT INTO game_revisions (game_id) VALUES (?1)")?
        .execute([game])?;
    Ok(c.last_insert_rowid())
}

/// The games that share a key (start and moves) with another, a group per key in id order,
/// the groups sorted.
pub(super) fn shared_keys(c: &Connection) -> Result<Vec<Vec<i64>>, StoreError> {
    let mut first: std::collections::HashMap<u128, i64> = Default::default();
    let mut shared: std::collections::HashMap<u128, Vec<i64>> = Default::default();
    let mut stmt = c.prepare("SELECT id, fingerprint FROM games ORDER BY id")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let key = r.get_ref(1)?.as_blob().unwrap_or(&[]);
        let key = u128::from_le_bytes(key.try_into().unwrap_or([0; 16]));
        match first.get(&key) {
            Some(&f) => shared.entry(key).or_insert_with(|| vec![f]).push(id),
            None => {
                first.insert(key, id);
            }
        }
    }
    let mut groups: Vec<Vec<i64>> = shared.into_values().collect();
    groups.sort_unstable();
    Ok(groups)
}
