//! The game's opening label as a number (`games.label_id`, names in `game_labels`), and the
//! opening totals (`opening_totals`): games, results and first and last date per year, of
//! each label and of each recognised name with its ancestors per side (schema 13). The
//! label is `kifudex_classify::game_label` of the 戦型 header and the recognised label.
//! Imports add to the totals; a removal subtracts, and marks them stale when it takes a
//! year's first or last game away (the next command that writes counts them again).

use std::borrow::Cow;
use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};
use rustc_hash::FxHashMap;

use super::StoreError;
use kifudex_classify::{PairingItem, Recognised};

/// The meta key set while the totals need counting again.
pub const TOTALS_STALE_META: &str = "opening_totals_stale";

/// Numbers for labels, as `game_labels` holds them; a new label is added on first use.
#[derive(Default)]
pub(super) struct LabelIds(HashMap<String, i64>);

impl LabelIds {
    pub(super) fn id(&mut self, conn: &Connection, name: &str) -> Result<i64, StoreError> {
        if let Some(&id) = self.0.get(name) {
            return Ok(id);
        }
        conn.prepare_cached("INSERT OR IGNORE INTO game_labels (name) VALUES (?1)")?
            .execute([name])?;
        let id: i64 = conn
            .prepare_cached("SELECT id FROM game_labels WHERE name = ?1")?
            .query_row([name], |r| r.get(0))?;
        self.0.insert(name.to_string(), id);
        Ok(id)
    }
}

/// One row's counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: i64,
    pub sente_wins: i64,
    pub gote_wins: i64,
    pub draws: i64,
    pub first_date: Option<String>,
    pub last_date: Option<String>,
}

impl Tally {
    fn add(&mut self, winner: Option<&str>, date: Option<&str>) {
        self.games += 1;
        match winner {
            Some("sente") => self.sente_wins += 1,
            Some("gote") => self.gote_wins += 1,
            Some("draw") => self.draws += 1,
            _ => {}
        }
        widen(&mut self.first_date, &mut self.last_date, date, date);
    }
}

/// Widens a span of dates (`first`, `last`) to take in `from` and `to` (a date, or another
/// span's ends).
pub(super) fn widen(
    first: &mut Option<String>,
    last: &mut Option<String>,
    from: Option<&str>,
    to: Option<&str>,
) {
    if let Some(d) = from
        && first.as_deref().is_none_or(|f| d < f)
    {
        *first = Some(d.to_string());
    }
    if let Some(d) = to
        && last.as_deref().is_none_or(|l| d > l)
    {
        *last = Some(d.to_string());
    }
}

impl Tally {
    /// Adds the counts of `other`.
    fn merge(&mut self, other: Tally) {
        self.games += other.games;
        self.sente_wins += other.sente_wins;
        self.gote_wins += other.gote_wins;
        self.draws += other.draws;
        widen(
            &mut self.first_date,
            &mut self.last_date,
            other.first_date.as_deref(),
            other.last_date.as_deref(),
        );
    }
}

/// A row of the totals: kind (`opening`, `strategy`, `castle`, `pair`, `all`), name, side
/// (-1 for a game's label, its pairing and all games), year (0: no date).
pub type TotalKey = (&'static str, String, i64, i64);

/// The year of a stored date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`), 0 when there is none.
fn year(date: Option<&str>) -> i64 {
    date.and_then(|d| d.get(..4))
        .and_then(|y| y.parse().ok())
        .unwrap_or(0)
}

/// A row of the totals while it is counted: as [`TotalKey`], the name borrowed when it is
/// one kifudex knows (every recognised name, and most labels), so that counting a game
/// copies no text.
type CountKey = (&'static str, Cow<'static, str>, i64, i64);

/// The rows a game counts in: all games, its label, its pairing, each recognised name with
/// its ancestors for the side that played it. `items`: (side, kind, name, ply).
fn keys(
    label: Option<&str>,
    items: &[(u8, &'static str, &str, u32)],
    date: Option<&str>,
) -> Vec<CountKey> {
    let y = year(date);
    let mut out = Vec::with_capacity(items.len() + 3);
    out.push(("all", Cow::Borrowed(""), -1, y));
    if let Some(l) = label {
        out.push(("opening", name(l), -1, y));
    }
    let pairing: Vec<PairingItem<'_>> = items
        .iter()
        .map(|&(side, kind, name, ply)| PairingItem {
            side,
            strategy: kind == "strategy",
            name,
            ply,
        })
        .collect();
    out.push((
        "pair",
        Cow::Owned(kifudex_classify::pairing(&pairing)),
        -1,
        y,
    ));
    for &(side, kind, n, _) in items {
        out.push((kind, name(n), i64::from(side), y));
    }
    out
}

/// `n` borrowed from the definitions when it is spelled as one of them.
fn name(n: &str) -> Cow<'static, str> {
    match kifudex_classify::canonical(n).filter(|c| *c == n) {
        Some(c) => Cow::Borrowed(c),
        None => Cow::Owned(n.to_string()),
    }
}

/// A row of the totals as a writer counts it, without reading any text: the kind (0 all
/// games, 1 a label, 2 a strategy or castle), the name (a label's number in `game_labels`;
/// the address and length of a definition's name, which no other name shares), side, year.
type NumberKey = (u8, usize, usize, i64, i64);

/// The totals of the games a writer added in its open transaction, written by
/// [`Pending::flush`] before it commits: by [`CountKey`] (counting stored games again), and
/// by [`NumberKey`] with the row's kind and name (a game the writer adds: ten rows a game,
/// counted without hashing or comparing names).
#[derive(Default)]
pub(super) struct Pending(
    FxHashMap<CountKey, Tally>,
    FxHashMap<NumberKey, (Tally, &'static str, Cow<'static, str>)>,
);

impl Pending {
    /// Counts a game: its label (with its number in `game_labels`), what was recognised
    /// (every name, ancestors included), winner and date.
    pub(super) fn add(
        &mut self,
        label: Option<(i64, &str)>,
        recognised: Option<&Recognised>,
        winner: Option<&str>,
        date: Option<&str>,
    ) {
        let names = recognised
            .iter()
            .flat_map(|r| &r.items)
            .map(|i| (i.side.index() as u8, i.kind.code(), i.name, i.ply));
        self.count(label, names, winner, date);
    }

    /// Counts a game: its label (with its number), its names `(side, kind, name, ply)`
    /// (each once a side, with the ply it held first), its pairing, winner and date.
    fn count(
        &mut self,
        label: Option<(i64, &str)>,
        names: impl Iterator<Item = (u8, &'static str, &'static str, u32)>,
        winner: Option<&str>,
        date: Option<&str>,
    ) {
        let y = year(date);
        let rows = &mut self.1;
        let mut count =
            |key: NumberKey, kind: &'static str, name: &dyn Fn() -> Cow<'static, str>| {
                rows.entry(key)
                    .or_insert_with(|| (Tally::default(), kind, name()))
                    .0
                    .add(winner, date)
            };
        count((0, 0, 0, -1, y), "all", &|| Cow::Borrowed(""));
        if let Some((id, l)) = label {
            count((1, id as usize, 0, -1, y), "opening", &|| name(l));
        }
        let names: Vec<PairingItem<'static>> = names
            .map(|(side, kind, name, ply)| PairingItem {
                side,
                strategy: kind == "strategy",
                name,
                ply,
            })
            .collect();
        self.0
            .entry(("pair", Cow::Owned(kifudex_classify::pairing(&names)), -1, y))
            .or_default()
            .add(winner, date);
        let rows = &mut self.1;
        for i in names {
            let kind = if i.strategy { "strategy" } else { "castle" };
            let key = (
                2,
                i.name.as_ptr() as usize,
                i.name.len(),
                i64::from(i.side),
                y,
            );
            rows.entry(key)
                .or_insert_with(|| (Tally::default(), kind, Cow::Borrowed(i.name)))
                .0
                .add(winner, date);
        }
    }

    /// Adds what was counted to the stored totals (inside the caller's transaction).
    pub(super) fn flush(&mut self, conn: &Connection) -> Result<(), StoreError> {
        for ((_, _, _, side, year), (t, kind, name)) in self.1.drain() {
            self.0.entry((kind, name, side, year)).or_default().merge(t);
        }
        if self.0.is_empty() {
            return Ok(());
        }
        let mut upsert = conn.prepare_cached(
            "INSERT INTO opening_totals (kind, name, side, year, games, sente_wins, gote_wins,
                 draws, first_date, last_date)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
             ON CONFLICT (kind, name, side, year) DO UPDATE SET
                 games = games + excluded.games,
                 sente_wins = sente_wins + excluded.sente_wins,
                 gote_wins = gote_wins + excluded.gote_wins,
                 draws = draws + excluded.draws,
                 first_date = coalesce(min(first_date, excluded.first_date), first_date,
                                       excluded.first_date),
                 last_date = coalesce(max(last_date, excluded.last_date), last_date,
                                      excluded.last_date)",
        )?;
        for ((kind, name, side, year), t) in self.0.drain() {
            upsert.execute(params![
                kind,
                name,
                side,
                year,
                t.games,
                t.sente_wins,
                t.gote_wins,
                t.draws,
                t.first_date,
                t.last_date
            ])?;
        }
        Ok(())
    }
}

/// A stored game's label, recognised names (with ancestors, as (side, kind, name, ply)),
/// winner and date.
type GameFacts = (
    Option<String>,
    Vec<(u8, &'static str, String, u32)>,
    Option<String>,
    Option<String>,
);

/// What a stored game counts in the totals.
fn facts(conn: &Connection, game: i64) -> Result<Option<GameFacts>, StoreError> {
    let row: Option<[Option<String>; 4]> = conn
        .prepare_cached(
            "SELECT l.name, g.winner, g.date, g.recognised FROM games g
             LEFT JOIN game_labels l ON l.id = g.label_id WHERE g.id = ?1",
        )?
        .query_row([game], |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?]))
        .optional()?;
    let Some([label, winner, date, json]) = row else {
        return Ok(None);
    };
    let items = NameCache::default().items(conn, game, json.as_deref())?;
    Ok(Some((label, items, winner, date)))
}

/// The names of `opening_names` by number, read once each.
#[derive(Default)]
struct NameCache(HashMap<i64, Option<String>>);

impl NameCache {
    /// The names of a game's `recognised` column with their ancestors: (side, kind, name,
    /// the ply it held first).
    fn items(
        &mut self,
        conn: &Connection,
        game: i64,
        json: Option<&str>,
    ) -> Result<Vec<(u8, &'static str, String, u32)>, StoreError> {
        let stored = super::openings::decode(game, json)?;
        let mut by_side: [Vec<(String, u32)>; 2] = Default::default();
        for [side, name, ply] in stored {
            let n = match self.0.get(&name) {
                Some(n) => n.clone(),
                None => {
                    let n: Option<String> = conn
                        .prepare_cached("SELECT name FROM opening_names WHERE id = ?1")?
                        .query_row([name], |r| r.get(0))
                        .optional()?;
                    self.0.insert(name, n.clone());
                    n
                }
            };
            if let (Some(n), Some(s)) = (n, by_side.get_mut(side as usize)) {
                s.push((n, u32::try_from(ply).unwrap_or(0)));
            }
        }
        let mut out = Vec::new();
        for (side, stored) in by_side.iter().enumerate() {
            let all =
                kifudex_classify::with_ancestors(stored.iter().map(|(n, p)| (n.as_str(), *p)));
            for (name, ply) in all {
                if let Some(k) = kifudex_classify::names::kind_of(name) {
                    out.push((side as u8, k.code(), name.to_string(), ply));
                }
            }
        }
        Ok(out)
    }
}

/// A name a game counts for a side: kind, name, the first ply it held at.
type Expanded = (&'static str, &'static str, u32);

/// Each stored name with its ancestors, `(kind, name)`, by its number in `opening_names`
/// (read once each; none for a name this program does not know): what a game counts in
/// the totals, without reading each name's text again for each game.
#[derive(Default)]
struct Expansions(HashMap<i64, Vec<(&'static str, &'static str)>>);

impl Expansions {
    /// Per side, the names of a game's `recognised` column with their ancestors, each once
    /// with the first ply one of them held at, `(kind, name, ply)`, as [`NameCache::items`]
    /// gives them.
    fn of_game(
        &mut self,
        conn: &Connection,
        game: i64,
        json: Option<&str>,
    ) -> Result<[Vec<Expanded>; 2], StoreError> {
        let mut out: [Vec<Expanded>; 2] = Default::default();
        for [side, name, ply] in super::openings::decode(game, json)? {
            let ply = u32::try_from(ply).unwrap_or(0);
            let Some(side) = out.get_mut(side as usize) else {
                continue;
            };
            if let std::collections::hash_map::Entry::Vacant(e) = self.0.entry(name) {
                let text: Option<String> = conn
                    .prepare_cached("SELECT name FROM opening_names WHERE id = ?1")?
                    .query_row([name], |r| r.get(0))
                    .optional()?;
                let line = text.map_or_else(Vec::new, |t| kifudex_classify::lineage(&t));
                let known = line
                    .into_iter()
                    .filter_map(|n| kifudex_classify::names::kind_of(n).map(|k| (k.code(), n)))
                    .collect();
                e.insert(known);
            }
            for &(kind, n) in &self.0[&name] {
                match side.iter_mut().find(|(_, m, _)| std::ptr::eq(*m, n)) {
                    Some(had) => had.2 = had.2.min(ply),
                    None => side.push((kind, n, ply)),
                }
            }
        }
        Ok(out)
    }
}

/// Takes game `game` off the totals; called before its row is deleted. When it was a
/// row's first or last game, the totals are marked stale.
pub(super) fn subtract(conn: &Connection, game: i64) -> Result<(), StoreError> {
    let Some((label, items, winner, date)) = facts(conn, game)? else {
        return Ok(());
    };
    let borrowed: Vec<(u8, &'static str, &str, u32)> = items
        .iter()
        .map(|(s, k, n, p)| (*s, *k, n.as_str(), *p))
        .collect();
    let (s, g, d) = match winner.as_deref() {
        Some("sente") => (1, 0, 0),
        Some("gote") => (0, 1, 0),
        Some("draw") => (0, 0, 1),
        _ => (0, 0, 0),
    };
    for (kind, name, side, year) in keys(label.as_deref(), &borrowed, date.as_deref()) {
        conn.prepare_cached(
            "UPDATE opening_totals SET games = games - 1, sente_wins = sente_wins - ?5,
                 gote_wins = gote_wins - ?6, draws = draws - ?7
             WHERE kind = ?1 AND name = ?2 AND side = ?3 AND year = ?4",
        )?
        .execute(params![kind, name, side, year, s, g, d])?;
        let bound: Option<i64> = conn
            .prepare_cached(
                "SELECT games FROM opening_totals
                 WHERE kind = ?1 AND name = ?2 AND side = ?3 AND year = ?4
                   AND (first_date = ?5 OR last_date = ?5)",
            )?
            .query_row(params![kind, name, side, year, date], |r| r.get(0))
            .optional()?;
        conn.prepare_cached(
            "DELETE FROM opening_totals
             WHERE kind = ?1 AND name = ?2 AND side = ?3 AND year = ?4 AND games <= 0",
        )?
        .execute(params![kind, name, side, year])?;
        if bound.is_some_and(|n| n > 0) {
            conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, '1')",
                [TOTALS_STALE_META],
            )?;
        }
    }
    Ok(())
}

/// Sets game `game`'s label number from its row (its 戦型 header and recognised label) and
/// counts it in the totals: the inverse of [`subtract`], for a game whose facts changed (a
/// twin filled its opening, date or result: see `store::twins::refresh`).
pub(super) fn add_game(conn: &Connection, game: i64) -> Result<(), StoreError> {
    let row: Option<(Option<String>, Option<String>)> = conn
        .prepare_cached("SELECT opening, label FROM games WHERE id = ?1")?
        .query_row([game], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((header, recognised)) = row else {
        return Ok(());
    };
    let label = kifudex_classify::game_label(header.as_deref(), recognised.as_deref());
    let label_id = label.map(|l| LabelIds::default().id(conn, l)).transpose()?;
    conn.prepare_cached("UPDATE games SET label_id = ?2 WHERE id = ?1")?
        .execute(params![game, label_id])?;
    let Some((label, items, winner, date)) = facts(conn, game)? else {
        return Ok(());
    };
    let borrowed: Vec<(u8, &'static str, &str, u32)> = items
        .iter()
        .map(|(s, k, n, p)| (*s, *k, n.as_str(), *p))
        .collect();
    let mut pending = Pending::default();
    for key in keys(label.as_deref(), &borrowed, date.as_deref()) {
        pending
            .0
            .entry(key)
            .or_default()
            .add(winner.as_deref(), date.as_deref());
    }
    pending.flush(conn)
}

/// Whether the totals must be counted again before they answer.
pub(super) fn stale(conn: &Connection) -> Result<bool, StoreError> {
    Ok(super::meta_value(conn, TOTALS_STALE_META)?.is_some())
}

/// Sets every game's label number and counts the totals again from the games rows (the
/// migration to schema 13, recognition computed again, a removal that left them stale).
pub(super) fn rebuild(conn: &Connection) -> Result<(), StoreError> {
    rebuild_with(conn, false)
}

/// [`rebuild`], and with `players` the players' totals too ([`super::players`]), counted in
/// the same reading of the games: after a new recognition, whose labels change the players'
/// games by opening.
pub(super) fn rebuild_with(conn: &Connection, players: bool) -> Result<(), StoreError> {
    conn.execute("DELETE FROM opening_totals", [])?;
    let mut player_totals = super::players::Pending::default();
    if players {
        conn.execute("DELETE FROM player_totals", [])?;
        conn.execute("DELETE FROM player_openings", [])?;
    }
    let mut ids = LabelIds::default();
    let mut pending = Pending::default();
    let mut names = Expansions::default();
    let mut changed: Vec<(i64, Option<i64>)> = Vec::new();
    {
        let mut read = conn.prepare(
            "SELECT id, opening, label, winner, date, recognised, label_id, sente_id, gote_id
             FROM games",
        )?;
        let mut rows = read.query([])?;
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            let header: Option<String> = r.get(1)?;
            let recognised: Option<String> = r.get(2)?;
            let winner: Option<String> = r.get(3)?;
            let date: Option<String> = r.get(4)?;
            let json: Option<String> = r.get(5)?;
            let old: Option<i64> = r.get(6)?;
            if players {
                // The opening `players` counts: the header's, else the recognised label.
                player_totals.add(
                    [r.get(7)?, r.get(8)?],
                    winner.as_deref(),
                    date.as_deref(),
                    header.as_deref().or(recognised.as_deref()),
                );
            }
            let label = kifudex_classify::game_label(header.as_deref(), recognised.as_deref());
            let label_id = label.map(|l| ids.id(conn, l)).transpose()?;
            if label_id != old {
                changed.push((id, label_id));
            }
            let items = names.of_game(conn, id, json.as_deref())?;
            let items = items.iter().enumerate().flat_map(|(side, names)| {
                names.iter().map(move |&(k, n, p)| (side as u8, k, n, p))
            });
            pending.count(
                label_id.zip(label),
                items,
                winner.as_deref(),
                date.as_deref(),
            );
        }
    }
    let mut put = conn.prepare("UPDATE games SET label_id = ?2 WHERE id = ?1")?;
    for (id, label) in changed {
        put.execute(params![id, label])?;
    }
    pending.flush(conn)?;
    player_totals.flush(conn)?;
    conn.execute("DELETE FROM meta WHERE key = ?1", [TOTALS_STALE_META])?;
    Ok(())
}

/// The stored totals, or None while they are stale.
pub(super) fn read(conn: &Connection) -> Result<Option<Vec<(TotalKey, Tally)>>, StoreError> {
    if stale(conn)? {
        return Ok(None);
    }
    let rows = conn
        .prepare(
            "SELECT kind, name, side, year, games, sente_wins, gote_wins, draws, first_date,
                    last_date FROM opening_totals",
        )?
        .query_map([], |r| {
            let kind: String = r.get(0)?;
            let kind: &'static str = match kind.as_str() {
                "opening" => "opening",
                "strategy" => "strategy",
                "castle" => "castle",
                "pair" => "pair",
                _ => "all",
            };
            Ok((
                (kind, r.get(1)?, r.get(2)?, r.get(3)?),
                Tally {
                    games: r.get(4)?,
                    sente_wins: r.get(5)?,
                    gote_wins: r.get(6)?,
                    draws: r.get(7)?,
                    first_date: r.get(8)?,
                    last_date: r.get(9)?,
                },
            ))
        })?
        .collect::<Result<_, _>>()?;
    Ok(Some(rows))
}
