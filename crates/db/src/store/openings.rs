//! The recognised openings, strategies and castles of stored games: written with each game
//! (`games.label` and `games.recognised`, a JSON array the `recognised` view reads as rows;
//! the names numbered in `opening_names`), searched by name through `recognised_names` (the
//! games of each name as lists, one row per name, side and transaction: schema 11), read for
//! `show` and `openings`, and computed again from the stored moves when the definitions
//! change (`classify_version` in meta).

use std::collections::HashMap;

use rayon::prelude::*;
use rusqlite::{Connection, OptionalExtension, params};

use super::codec::main_line;
use super::{Store, StoreError};
use crate::numhash::NumberHash;
use kifudex_classify::{CLASSIFY_VERSION, Kind, Recognised};
use kifudex_shogi::Color;

/// The meta key holding the version of the definitions the stored rows were made with.
pub const CLASSIFY_META: &str = "classify_version";

/// One recognised name of a stored game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StoredItem {
    /// "sente" or "gote".
    pub side: &'static str,
    /// "strategy" or "castle".
    pub kind: &'static str,
    pub name: String,
    pub ply: u32,
}

/// Numbers for names, as `opening_names` holds them; new names are added on first use.
/// Keyed by the name's address: every name given is one of the definitions' (`&'static`),
/// and a name met again is found without hashing its text.
#[derive(Default)]
pub(super) struct NameIds(HashMap<usize, i64, NumberHash>);

impl NameIds {
    fn id(&mut self, conn: &Connection, name: &'static str, kind: Kind) -> Result<i64, StoreError> {
        let key = name.as_ptr() as usize;
        if let Some(&id) = self.0.get(&key) {
            return Ok(id);
        }
        conn.prepare_cached("INSERT OR IGNORE INTO opening_names (name, kind) VALUES (?1, ?2)")?
            .execute(params![name, kind.code()])?;
        let id: i64 = conn
            .prepare_cached("SELECT id FROM opening_names WHERE name = ?1")?
            .query_row([name], |r| r.get(0))?;
        self.0.insert(key, id);
        Ok(id)
    }
}

/// The games of each recognised name and side written in the open transaction, written as
/// rows of `recognised_names` by [`Lists::finish`]: one row for all the games a transaction
/// wrote with the name.
#[derive(Default)]
pub(super) struct Lists(HashMap<(i64, i64), Vec<i64>, NumberHash>);

impl Lists {
    /// Notes game `id` under each of its names (as [`encode`] gave them).
    pub(super) fn add(&mut self, id: i64, names: &[(i64, i64)]) {
        for &key in names {
            self.0.entry(key).or_default().push(id);
        }
    }

    /// Writes the lists gathered (before the transaction commits).
    pub(super) fn finish(&mut self, conn: &Connection) -> Result<(), StoreError> {
        let mut stmt = conn.prepare_cached(
            "INSERT INTO recognised_names (name_id, side, first_game, games)
             VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (&(name, side), games) in self.0.iter_mut() {
            games.sort_unstable();
            games.dedup();
            let Some(&first) = games.first() else {
                continue;
            };
            let mut json = Vec::with_capacity(games.len() * 8 + 2);
            json.push(b'[');
            for (i, &g) in games.iter().enumerate() {
                if i > 0 {
                    json.push(b',');
                }
                kifudex_shogi::ascii::push_signed(&mut json, g);
            }
            json.push(b']');
            let json = String::from_utf8(json).unwrap_or_default();
            stmt.execute(params![name, side, first, json])?;
            games.clear();
        }
        Ok(())
    }
}

/// Rewrites the lists by name from the games rows, one list per name, side and range of
/// 8,192 ids (as the migration to schema 11 made them): imports write one per transaction,
/// so many small lists, and a removed game's id stays in its lists. Nothing is written when
/// no game was `removed` and the lists are already so (one per name, side and range, each
/// within its range): a second `optimize` of a million games reads the 11,000 lists instead
/// of every game. Returns the number of lists before and after.
pub(super) fn merge_lists(conn: &Connection, removed: bool) -> Result<(u64, u64), StoreError> {
    let one = |sql: &str| -> Result<u64, StoreError> {
        Ok(conn.query_row(sql, [], |r| r.get::<_, i64>(0))? as u64)
    };
    let before = one("SELECT count(*) FROM recognised_names")?;
    let untidy = one("SELECT count(*) FROM (SELECT 1 FROM recognised_names
             GROUP BY name_id, side, first_game >> 13 HAVING count(*) > 1)")?
        + one("SELECT count(*) FROM recognised_names
         WHERE (games ->> '$[#-1]') >> 13 != first_game >> 13")?;
    if !removed && untidy == 0 {
        return Ok((before, before));
    }
    conn.execute_batch(
        "DELETE FROM recognised_names;
         INSERT INTO recognised_names (name_id, side, first_game, games)
             SELECT name_id, side, min(game_id), json_group_array(game_id ORDER BY game_id)
             FROM recognised
             GROUP BY name_id, side, game_id >> 13;",
    )?;
    Ok((before, one("SELECT count(*) FROM recognised_names")?))
}

/// A game's recognised names as [`encode`] gives them: the JSON of `games.recognised`, and
/// the `(name id, side)` of each.
pub(super) type Encoded = (Option<String>, Vec<(i64, i64)>);

/// What was recognised in a game as `games.recognised` holds it: a JSON array of
/// `[side, name id, ply]` (the names [`Recognised::stored`] keeps, sente's first, each side by
/// ply), None when there is none; and the `(name id, side)` of each, for [`Lists::add`].
pub(super) fn encode(
    conn: &Connection,
    names: &mut NameIds,
    r: &Recognised,
) -> Result<Encoded, StoreError> {
    // `[0,123,45]` and a comma: 13 bytes an item at most while ids and plies are short.
    let mut json = Vec::with_capacity(16 * r.items.len() + 2);
    let mut keys = Vec::with_capacity(r.items.len());
    for item in r.stored() {
        let name = names.id(conn, item.name, item.kind)?;
        let side = item.side.index() as i64;
        json.extend_from_slice(if json.is_empty() { b"[[" } else { b",[" });
        kifudex_shogi::ascii::push_signed(&mut json, side);
        json.push(b',');
        kifudex_shogi::ascii::push_signed(&mut json, name);
        json.push(b',');
        kifudex_shogi::ascii::push_signed(&mut json, i64::from(item.ply));
        json.push(b']');
        keys.push((name, side));
    }
    if json.is_empty() {
        return Ok((None, keys));
    }
    json.push(b']');
    // Only ASCII was written.
    Ok((String::from_utf8(json).ok(), keys))
}

/// The meta key of the recognition epoch: how many times the stored recognitions were
/// computed again (the text index, which holds the names, follows when it changes: by the
/// games revised, see [`LOGGED_META`], or rebuilt).
const EPOCH_META: &str = "recognised_epoch";

/// The meta key of the epochs whose changes were recorded as game revisions: `FIRST LAST`,
/// each recomputation from FIRST - 1 to LAST having revised every game whose label or
/// recognised names it changed (`game_revisions`), so that the text index re-indexes those
/// games alone instead of every game.
const LOGGED_META: &str = "recognised_logged";

/// The recognition epoch (0 before the first recomputation).
pub(super) fn epoch(conn: &Connection) -> Result<i64, StoreError> {
    let v: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [EPOCH_META], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(v.and_then(|v| v.parse().ok()).unwrap_or(0))
}

/// Whether every game whose recognised openings changed since epoch `since` has a revision
/// made since (see [`LOGGED_META`]): the epochs after `since` up to the current one were all
/// recorded so.
pub(super) fn logged_since(conn: &Connection, since: i64) -> Result<bool, StoreError> {
    let now = epoch(conn)?;
    Ok(match logged(conn)? {
        Some((first, last)) => last == now && first <= since + 1,
        None => since == now,
    })
}

fn logged(conn: &Connection) -> Result<Option<(i64, i64)>, StoreError> {
    let v: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE key = ?1",
            [LOGGED_META],
            |r| r.get(0),
        )
        .optional()?;
    Ok(v.and_then(|v| {
        let (a, b) = v.split_once(' ')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    }))
}

/// Whether the stored rows were made by other definitions than this program's.
pub(super) fn stale(conn: &Connection) -> Result<bool, StoreError> {
    let v: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE key = ?1",
            [CLASSIFY_META],
            |r| r.get(0),
        )
        .ok();
    Ok(v.as_deref() != Some(CLASSIFY_VERSION.to_string().as_str()))
}

/// Games recognised per transaction when computing them again.
const CHUNK: i64 = 20_000;

/// A game's id, start, handicap and stored moves.
type StoredMoves = (i64, Option<String>, String, Vec<u8>);

/// What a game's totals count besides its recognition: the header's opening, winner, date,
/// players (sente's, gote's) and stored label number.
struct Counted {
    header: Option<String>,
    winner: Option<String>,
    date: Option<String>,
    players: [Option<i64>; 2],
    label_id: Option<i64>,
}

/// The next games after `after` in id order (moving `after` on).
fn next_chunk(
    conn: &Connection,
    after: &mut i64,
) -> Result<(Vec<StoredMoves>, Vec<Counted>), StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, start_sfen, handicap, moves, opening, winner, date, sente_id, gote_id,
                label_id
         FROM games WHERE id > ?1 ORDER BY id LIMIT ?2",
    )?;
    let mut q = stmt.query([*after, CHUNK])?;
    let (mut rows, mut counted) = (Vec::new(), Vec::new());
    while let Some(r) = q.next()? {
        rows.push((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?));
        counted.push(Counted {
            header: r.get(4)?,
            winner: r.get(5)?,
            date: r.get(6)?,
            players: [r.get(7)?, r.get(8)?],
            label_id: r.get(9)?,
        });
    }
    if let Some(last) = rows.last() {
        *after = last.0;
    }
    Ok((rows, counted))
}

/// Computes every game's recognition again from its stored moves (all cores), reporting
/// after each chunk, and records this program's version. Returns the games done. A run
/// killed part way leaves the version as it was: the next upgrade starts again.
pub(super) fn recompute(
    conn: &mut Connection,
    progress: &dyn crate::progress::Progress,
) -> Result<u64, StoreError> {
    let total: i64 = conn.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
    let before = epoch(conn)?;
    let next = before + 1;
    // The epochs recorded as revisions go on from the last one, or start again with this
    // one (an older program recomputed without recording what changed).
    let first = match logged(conn)? {
        Some((first, last)) if last == before => first,
        _ => next,
    };
    let tx = conn.transaction()?;
    // Each game keeps its rows until its own are written (a run killed part way leaves the
    // games it did not reach as they were); the lists by name are written again whole.
    tx.execute("DELETE FROM recognised_names", [])?;
    tx.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
        params![EPOCH_META, next.to_string()],
    )?;
    tx.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
        params![LOGGED_META, format!("{first} {next}")],
    )?;
    tx.commit()?;
    let mut names = NameIds::default();
    let mut after = 0i64;
    let mut done = 0u64;
    progress.stage("recognising openings", Some(total as u64), "games");
    let recognise_rows = |rows: &[StoredMoves]| -> Vec<(i64, Recognised)> {
        rows.par_iter()
            .filter_map(|(id, sfen, handicap, moves)| {
                let (start, moves) = main_line(*id, sfen.as_deref(), handicap, moves).ok()?;
                Some((*id, kifudex_classify::recognise(&start, moves)))
            })
            .collect()
    };
    // The opening and players' totals, counted as the games go by and written whole at the
    // end, with the version (until then the stored totals stay as they were).
    let mut label_ids = super::labels::LabelIds::default();
    let mut opening_totals = super::labels::Pending::default();
    let mut player_totals = super::players::Pending::default();
    let (mut rows, mut counted) = next_chunk(conn, &mut after)?;
    let mut found = recognise_rows(&rows);
    while !rows.is_empty() {
        // Write one chunk while the next is recognised.
        let n = rows.len() as u64;
        let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
        let facts = std::mem::take(&mut counted);
        (rows, counted) = next_chunk(conn, &mut after)?;
        let (written, next) = rayon::join(
            || -> Result<(), StoreError> {
                let tx = conn.transaction()?;
                let mut lists = Lists::default();
                // Both in id order; a game whose moves cannot be read has none.
                let mut found = found.iter().peekable();
                for (id, f) in ids.into_iter().zip(&facts) {
                    let r = found.next_if(|(f, _)| *f == id).map(|(_, r)| r);
                    let (label, (json, keys)) = match r {
                        Some(r) => (r.opening, encode(&tx, &mut names, r)?),
                        None => (None, (None, Vec::new())),
                    };
                    // The game's label (the header's, else the recognised one) by number,
                    // and its rows of the totals, as an import counts them.
                    let game_label = kifudex_classify::game_label(f.header.as_deref(), label);
                    let label_id = game_label.map(|l| label_ids.id(&tx, l)).transpose()?;
                    if label_id != f.label_id {
                        tx.prepare_cached("UPDATE games SET label_id = ?2 WHERE id = ?1")?
                            .execute(params![id, label_id])?;
                    }
                    let (winner, date) = (f.winner.as_deref(), f.date.as_deref());
                    opening_totals.add(label_id.zip(game_label), r, winner, date);
                    player_totals.add(f.players, winner, date, f.header.as_deref().or(label));
                    // Only a game whose rows change is written, and revised: the text
                    // index indexes it again, and no other.
                    let changed = tx
                        .prepare_cached(
                            "UPDATE games SET label = ?2, recognised = ?3
                             WHERE id = ?1 AND (label IS NOT ?2 OR recognised IS NOT ?3)",
                        )?
                        .execute(params![id, label, json])?;
                    if changed > 0 {
                        super::twins::revise(&tx, id)?;
                    }
                    lists.add(id, &keys);
                }
                lists.finish(&tx)?;
                tx.commit()?;
                Ok(())
            },
            || recognise_rows(&rows),
        );
        written?;
        found = next;
        done += n;
        progress.set(done);
    }
    progress.finish();
    // The labels changed: the opening totals and the players' totals (their games by
    // opening) counted above replace the stored ones, with the version.
    let tx = conn.transaction()?;
    for table in ["opening_totals", "player_totals", "player_openings"] {
        tx.execute(&format!("DELETE FROM {table}"), [])?;
    }
    opening_totals.flush(&tx)?;
    player_totals.flush(&tx)?;
    tx.execute(
        "DELETE FROM meta WHERE key = ?1",
        [super::labels::TOTALS_STALE_META],
    )?;
    tx.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
        params![CLASSIFY_META, CLASSIFY_VERSION.to_string()],
    )?;
    tx.commit()?;
    Ok(done)
}

/// A game's stored recognitions, `[[side, name number, ply], ...]` as [`encode`] and the
/// migrations write them (none for no column).
pub(super) fn decode(game: i64, json: Option<&str>) -> Result<Vec<[i64; 3]>, StoreError> {
    json.map_or(Ok(Vec::new()), |j| {
        serde_json::from_str(j)
            .map_err(|e| StoreError::Corrupt(game, format!("its recognised openings: {e}")))
    })
}

/// Column `i` of a row as text borrowed from the row (None for NULL).
pub(super) fn text_at<'r>(
    row: &'r rusqlite::Row<'_>,
    i: usize,
) -> Result<Option<&'r str>, StoreError> {
    let value = row.get_ref(i)?;
    Ok(value.as_str_or_null().map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, value.data_type(), Box::new(e))
    })?)
}

/// The names recognitions refer to, by their number: kind (`strategy`, `castle`) and name.
pub(super) type NameTable = rustc_hash::FxHashMap<i64, (String, String)>;

/// Every name of `opening_names`, by number (a few hundred rows).
pub(super) fn name_table(conn: &Connection) -> Result<NameTable, StoreError> {
    Ok(conn
        .prepare_cached("SELECT id, kind, name FROM opening_names")?
        .query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))?
        .collect::<Result<_, _>>()?)
}

/// A game's stored recognitions ([`decode`]) as `(side, kind, name, ply)`, the names
/// looked up in `table` (an unknown number left out).
pub(super) fn named<'t>(
    table: &'t NameTable,
    stored: &[[i64; 3]],
) -> Vec<(i64, &'t str, &'t str, u32)> {
    stored
        .iter()
        .filter_map(|&[side, name, ply]| {
            let (kind, name) = table.get(&name)?;
            Some((side, kind.as_str(), name.as_str(), u32::try_from(ply).ok()?))
        })
        .collect()
}

/// The stored rows of one game, `(side, kind, name, ply)`, with what they imply (their
/// ancestors: see [`Recognised::stored`]), sente's first, each side by ply, strategies before
/// castles at one ply, a name before its ancestors.
pub(super) fn with_ancestors(rows: &[(i64, &str, &str, u32)]) -> Vec<StoredItem> {
    let mut out = Vec::new();
    for side in [0i64, 1] {
        for kind in ["strategy", "castle"] {
            let mine = rows
                .iter()
                .filter(|r| r.0 == side && r.1 == kind)
                .map(|r| (r.2, r.3));
            for (name, ply) in kifudex_classify::with_ancestors(mine) {
                out.push(StoredItem {
                    side: if side == 0 { "sente" } else { "gote" },
                    kind,
                    name: name.to_string(),
                    ply,
                });
            }
        }
        // By ply, strategies before castles (the sort is stable).
        let first = out
            .iter()
            .position(|i| i.side_index() == side as u8)
            .unwrap_or(out.len());
        out[first..].sort_by_key(|i| i.ply);
    }
    out
}

impl StoredItem {
    fn side_index(&self) -> u8 {
        u8::from(self.side == "gote")
    }
}

impl Store {
    /// Everything recognised in game `id`, sente's first, each side by ply (strategies
    /// before castles at one ply, a name before its ancestors).
    pub fn recognised(&self, id: i64) -> Result<(Option<String>, Vec<StoredItem>), StoreError> {
        let label: Option<String> = self
            .conn
            .query_row("SELECT label FROM games WHERE id = ?1", [id], |r| r.get(0))
            .ok()
            .flatten();
        let rows: Vec<(i64, String, String, u32)> = self
            .conn
            .prepare_cached(
                "SELECT r.side, n.kind, n.name, r.ply FROM recognised r
                 JOIN opening_names n ON n.id = r.name_id WHERE r.game_id = ?1",
            )?
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<Result<_, _>>()?;
        let rows: Vec<(i64, &str, &str, u32)> = rows
            .iter()
            .map(|(side, kind, name, ply)| (*side, kind.as_str(), name.as_str(), *ply))
            .collect();
        Ok((label, with_ancestors(&rows)))
    }

    /// Ids of the games where `side` (or either side) was recognised with one of `names`
    /// (canonical names; the caller expands the hierarchy), in id order.
    pub fn games_recognised(
        &self,
        names: &[&str],
        side: Option<Color>,
    ) -> Result<Vec<i64>, StoreError> {
        let mut out = Vec::new();
        let mut stmt = self.conn.prepare_cached(
            "SELECT g.id FROM recognised_names rn JOIN opening_names n ON n.id = rn.name_id,
                 json_each(rn.games) j JOIN games g ON g.id = j.value
             WHERE n.name = ?1 AND (?2 IS NULL OR rn.side = ?2)",
        )?;
        for name in names {
            let side = side.map(|c| c.index() as i64);
            for id in stmt.query_map(params![name, side], |r| r.get::<_, i64>(0))? {
                out.push(id?);
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }
}

impl Store {
    /// Ids in the lists of games where `side` (or either side) was recognised with one of
    /// `names` (canonical names; the caller expands the hierarchy), in id order, read from the
    /// lists alone: without looking each game up, so that a scan over a million games that
    /// needs a name touches the lists' pages only. An id may name a game removed since (a
    /// scan that reads the games by id skips it).
    pub fn games_listed(
        &self,
        names: &[&str],
        side: Option<Color>,
    ) -> Result<Vec<i64>, StoreError> {
        let mut out = Vec::new();
        let mut stmt = self.conn.prepare_cached(
            "SELECT j.value FROM recognised_names rn JOIN opening_names n ON n.id = rn.name_id,
                 json_each(rn.games) j
             WHERE n.name = ?1 AND (?2 IS NULL OR rn.side = ?2)",
        )?;
        for name in names {
            let side = side.map(|c| c.index() as i64);
            for id in stmt.query_map(params![name, side], |r| r.get::<_, i64>(0))? {
                out.push(id?);
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }
}

/// One game as `openings` counts it: what decides its result and date, its players' names,
/// its label and what was recognised (as [`Store::recognised`] lists it).
#[derive(Debug)]
pub struct OpeningGame<'a> {
    pub id: i64,
    pub date: Option<&'a str>,
    pub winner: Option<&'a str>,
    /// The 戦型 header's value.
    pub opening: Option<&'a str>,
    /// The label recognised from the moves.
    pub label: Option<&'a str>,
    pub sente: Option<&'a str>,
    pub gote: Option<&'a str>,
    pub items: &'a [StoredItem],
}

impl Store {
    /// Hands `f` each game a selection picks, in id order, one at a time: a count over a
    /// million games holds one game's rows, not all of them.
    pub fn each_opening_game(
        &self,
        sel: &super::Selection,
        mut f: impl FnMut(&OpeningGame<'_>),
    ) -> Result<(), StoreError> {
        let names = name_table(&self.conn)?;
        let mut params = Vec::new();
        let where_sql = sel.where_sql(&mut params);
        let mut stmt = self.conn.prepare(&format!(
            "SELECT g.id, g.date, g.winner, g.label, ps.name, pg.name, g.recognised, g.opening
             FROM games g
             LEFT JOIN players ps ON ps.id = g.sente_id LEFT JOIN players pg ON pg.id = g.gote_id
             {where_sql} ORDER BY g.id"
        ))?;
        let mut rows = stmt.query(rusqlite::params_from_iter(params.iter()))?;
        while let Some(row) = rows.next()? {
            let id: i64 = row.get(0)?;
            let text = |i: usize| text_at(row, i);
            let items = match text(6)? {
                None => Vec::new(),
                Some(json) => {
                    let stored = decode(id, Some(json))?;
                    with_ancestors(&named(&names, &stored))
                }
            };
            f(&OpeningGame {
                id,
                date: text(1)?,
                winner: text(2)?,
                opening: text(7)?,
                label: text(3)?,
                sente: text(4)?,
                gote: text(5)?,
                items: &items,
            });
        }
        Ok(())
    }
}
