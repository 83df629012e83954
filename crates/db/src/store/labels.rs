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
        if let Some(d) = date {
            if self.first_date.as_deref().is_none_or(|f| d < f) {
                self.first_date = Some(d.to_string());
            }
            if self.last_date.as_deref().is_none_or(|l| d > l) {
                self.last_date = Some(d.to_string());
            }
        }
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

/// The totals of the games a writer added in its open transaction, written by
/// [`Pending::flush`] before it commits.
#[derive(Default)]
pub(super) struct Pending(FxHashMap<CountKey, Tally>);

impl Pending {
    /// Counts a game: its label, what was recognised (every name, ancestors included),
    /// winner and date.
    pub(super) fn add(
        &mut self,
        label: Option<&str>,
        recognised: Option<&Recognised>,
        winner: Option<&str>,
        date: Option<&str>,
    ) {
        let y = year(date);
        let mut count = |key: CountKey| self.0.entry(key).or_default().add(winner, date);
        count(("all", Cow::Borrowed(""), -1, y));
        if let Some(l) = label {
            count(("opening", name(l), -1, y));
        }
        let items = recognised.map_or(&[][..], |r| &r.items[..]);
        let pairing: Vec<PairingItem<'_>> = items
            .iter()
            .map(|i| PairingItem {
                side: i.side.index() as u8,
                strategy: i.kind == kifudex_classify::Kind::Strategy,
                name: i.name,
                ply: i.ply,
            })
            .collect();
        count((
            "pair",
            Cow::Owned(kifudex_classify::pairing(&pairing)),
            -1,
            y,
        ));
        for i in items {
            count((
                i.kind.code(),
                Cow::Borrowed(i.name),
                i.side.index() as i64,
                y,
            ));
        }
    }

    /// Adds what was counted to the stored totals (inside the caller's transaction).
    pub(super) fn flush(&mut self, conn: &Connection) -> Result<(), StoreError> {
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
        let Some(json) = json else {
            return Ok(Vec::new());
        };
        let stored: Vec<[i64; 3]> = serde_json::from_str(json)
            .map_err(|e| StoreError::Corrupt(game, format!("its recognised openings: {e}")))?;
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
    conn.execute("DELETE FROM opening_totals", [])?;
    let mut ids = LabelIds::default();
    let mut pending = Pending::default();
    let mut names = NameCache::default();
    let mut changed: Vec<(i64, Option<i64>)> = Vec::new();
    {
        let mut read = conn
            .prepare("SELECT id, opening, label, winner, date, recognised, label_id FROM games")?;
        let mut rows = read.query([])?;
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            let header: Option<String> = r.get(1)?;
            let recognised: Option<String> = r.get(2)?;
            let winner: Option<String> = r.get(3)?;
            let date: Option<String> = r.get(4)?;
            let json: Option<String> = r.get(5)?;
            let old: Option<i64> = r.get(6)?;
            let label = kifudex_classify::game_label(header.as_deref(), recognised.as_deref());
            let label_id = label.map(|l| ids.id(conn, l)).transpose()?;
            if label_id != old {
                changed.push((id, label_id));
            }
            let items = names.items(conn, id, json.as_deref())?;
            let borrowed: Vec<(u8, &'static str, &str, u32)> = items
                .iter()
                .map(|(s, k, n, p)| (*s, *k, n.as_str(), *p))
                .collect();
            for key in keys(label, &borrowed, date.as_deref()) {
                pending
                    .0
                    .entry(key)
                    .or_default()
                    .add(winner.as_deref(), date.as_deref());
            }
        }
    }
    let mut put = conn.prepare("UPDATE games SET label_id = ?2 WHERE id = ?1")?;
    for (id, label) in changed {
        put.execute(params![id, label])?;
    }
    pending.flush(conn)?;
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
