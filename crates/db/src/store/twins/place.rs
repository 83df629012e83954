//! Where a record being imported goes: a new game, or one more source of a stored game.
//!
//! The writer keeps the first 8 bytes of every stored game's key (start and main line) in
//! memory, loaded on the first game, so that a record whose main line no stored game has
//! (nearly every one) needs no lookup at all. A record that shares a key with stored games is
//! compared with each (their facts read once an import, then kept): the first whose facts
//! do not conflict, and that no person split it from, is its game.

use std::collections::HashMap;

use rusqlite::Connection;

use super::{Facts, GameFacts, SourceFacts, conflicts_among, every_facts, kept_apart, load};
use crate::store::{GameRow, StoreError};
use kifudex_notation::TerminalKind;

/// Where a record goes ([`Candidates::place`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Placed {
    /// No stored game is it: a new game.
    New,
    /// Game `id` is it, read with the same headers and terminal as its own source.
    Same(i64),
    /// Game `id` is it, read under facts of its own (which the game may take some of).
    Twin(i64, SourceFacts),
}

/// The stored games a new record may be a twin of, by key (see the module documentation).
#[derive(Default)]
pub struct Candidates {
    /// The first game of each key's first 8 bytes; `None` until loaded.
    first: Option<HashMap<u64, i64>>,
    /// The other games of a key shared by several (games the rule kept apart).
    more: HashMap<u64, Vec<i64>>,
    /// The facts of the games compared so far, with what each of their sources says (few:
    /// only games that share a key).
    facts: HashMap<i64, (GameFacts, Vec<Facts>)>,
}

fn short(key: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = key.len().min(8);
    b[..n].copy_from_slice(&key[..n]);
    u64::from_le_bytes(b)
}

impl Candidates {
    fn loaded(&mut self, c: &Connection) -> Result<&mut HashMap<u64, i64>, StoreError> {
        if self.first.is_none() {
            let mut first = HashMap::new();
            let mut stmt = c.prepare("SELECT id, fingerprint FROM games ORDER BY id")?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                let id: i64 = r.get(0)?;
                let key = short(r.get_ref(1)?.as_blob().unwrap_or(&[]));
                if let Some(&before) = first.get(&key)
                    && before != id
                {
                    self.more.entry(key).or_default().push(id);
                } else {
                    first.insert(key, id);
                }
            }
            self.first = Some(first);
        }
        Ok(self.first.as_mut().expect("loaded above"))
    }

    /// Game `id`, just written with key `key`, is a candidate for the records that follow.
    pub fn add(&mut self, key: &[u8; 16], id: i64) {
        let Some(first) = &mut self.first else {
            // Not loaded yet: the load reads it from the table.
            return;
        };
        let k = short(key);
        match first.get(&k) {
            Some(_) => self.more.entry(k).or_default().push(id),
            None => {
                first.insert(k, id);
            }
        }
    }

    /// Forgets what was read of game `id` (its facts changed, or it went).
    pub fn forget(&mut self, id: i64) {
        self.facts.remove(&id);
    }

    /// Where the record `row`, read as game `index` of `source`, goes.
    pub fn place(
        &mut self,
        c: &Connection,
        source: i64,
        index: usize,
        row: &GameRow,
    ) -> Result<Placed, StoreError> {
        let k = short(&row.fingerprint);
        let Some(&first) = self.loaded(c)?.get(&k) else {
            return Ok(Placed::New);
        };
        let ids: Vec<i64> = std::iter::once(first)
            .chain(self.more.get(&k).into_iter().flatten().copied())
            .collect();
        let mut mine: Option<Facts> = None;
        for id in ids {
            let (game, every) = match self.facts.entry(id) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => match load(c, id)? {
                    Some(g) => {
                        let every = every_facts(c, &g)?;
                        e.insert((g, every))
                    }
                    // Deleted since (a file read again).
                    None => continue,
                },
            };
            if game.key != row.fingerprint || kept_apart(c, source, index as i64, id)? {
                continue;
            }
            let mine = mine
                .get_or_insert_with(|| Facts::of(&row.headers, row.terminal, row.result.code()));
            if conflicts_among(every, std::slice::from_ref(mine)).any() {
                continue;
            }
            let terminal = row.terminal.map(TerminalKind::code);
            if row.headers == game.own && terminal == game.own_terminal.as_deref() {
                return Ok(Placed::Same(id));
            }
            return Ok(Placed::Twin(
                id,
                SourceFacts {
                    headers: row.headers.clone(),
                    terminal: terminal.map(str::to_string),
                    winner: row.result.code().map(str::to_string),
                    plies: None,
                    hand: false,
                },
            ));
        }
        Ok(Placed::New)
    }
}
