//! Each player's totals per side and year, and over every year (games, wins, draws, losses,
//! first and last date), and games by opening, kept in `player_totals` and `player_openings`
//! as games come and go: the writer
//! adds the games of a transaction when it commits ([`Pending`]), a deleted game is taken off
//! ([`subtract`]), and a new recognition of the openings counts them all again (in the same
//! reading of the games as the opening totals: `labels::rebuild_with`). `kifudex players`
//! over every game then reads a row per player and side instead of every game, and over a
//! span of dates the rows of the years it spans. The opening counted is the header's 戦型,
//! or the recognised label when the header has none (as `players` shows it over a filter).

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};
use rustc_hash::FxHashMap;

use super::labels::widen;
use super::{Store, StoreError};

/// One player's games on one side.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SideTotals {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub first_date: Option<String>,
    pub last_date: Option<String>,
}

impl SideTotals {
    /// Counts a game of the player of `side` that `winner` (`sente`, `gote`, `draw`) names.
    fn add(&mut self, winner: Option<&str>, side: u8, date: Option<&str>) {
        self.games += 1;
        match won(winner, side) {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None if winner == Some("draw") => self.draws += 1,
            None => {}
        }
        widen(&mut self.first_date, &mut self.last_date, date, date);
    }
}

impl SideTotals {
    /// Adds the counts of `other` (another year's).
    fn merge(&mut self, other: SideTotals) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        widen(
            &mut self.first_date,
            &mut self.last_date,
            other.first_date.as_deref(),
            other.last_date.as_deref(),
        );
    }
}

/// A player's stored totals: per side (0 sente, 1 gote), and games by opening per side.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerTotals {
    pub player: i64,
    pub sides: [SideTotals; 2],
    pub openings: Vec<(u8, String, u64)>,
}

/// Whether the player of `side` (0 sente, 1 gote) won a game `winner` names: `None` for a
/// draw or an unknown result.
fn won(winner: Option<&str>, side: u8) -> Option<bool> {
    match winner {
        Some("sente") => Some(side == 0),
        Some("gote") => Some(side == 1),
        _ => None,
    }
}

/// The year a game counts in: its date's (0 without a date). Its rows over every year have
/// [`EVERY_YEAR`].
fn year(date: Option<&str>) -> i64 {
    date.and_then(|d| d.get(..4))
        .and_then(|y| y.parse().ok())
        .unwrap_or(0)
}

/// The `year` of the rows over every year.
const EVERY_YEAR: i64 = -1;

/// Whether the tables are those of schema 17, by year. The twins' merge of migration 0015
/// adds and takes games off the tables of schema 10, without a year: migration 0017 counts
/// them again whole, and until then they are left as they are.
fn by_year(conn: &Connection) -> bool {
    conn.prepare_cached("SELECT year FROM player_totals LIMIT 0")
        .is_ok()
}

/// The games a writer added in its open transaction, by player, side and year (each game
/// also in [`EVERY_YEAR`]), written by [`Pending::flush`] before it commits.
#[derive(Default)]
pub(super) struct Pending {
    sides: FxHashMap<(i64, u8, i64), SideTotals>,
    /// Games by opening, per (player, side, year).
    openings: FxHashMap<(i64, u8, i64), FxHashMap<String, u64>>,
}

impl Pending {
    /// Counts a game: its players (ids), winner (`sente`, `gote`, `draw`), date and opening.
    pub(super) fn add(
        &mut self,
        players: [Option<i64>; 2],
        winner: Option<&str>,
        date: Option<&str>,
        opening: Option<&str>,
    ) {
        let y = year(date);
        for (side, player) in players.into_iter().enumerate() {
            let Some(player) = player else { continue };
            let side = side as u8;
            for year in [EVERY_YEAR, y] {
                self.sides
                    .entry((player, side, year))
                    .or_default()
                    .add(winner, side, date);
                if let Some(o) = opening {
                    let by = self.openings.entry((player, side, year)).or_default();
                    match by.get_mut(o) {
                        Some(n) => *n += 1,
                        None => {
                            by.insert(o.to_string(), 1);
                        }
                    }
                }
            }
        }
    }

    /// Adds what was counted to the stored totals (inside the caller's transaction).
    pub(super) fn flush(&mut self, conn: &Connection) -> Result<(), StoreError> {
        if self.sides.is_empty() {
            return Ok(());
        }
        if !by_year(conn) {
            self.sides.clear();
            self.openings.clear();
            return Ok(());
        }
        let mut upsert = conn.prepare_cached(
            "INSERT INTO player_totals
                 (player, side, year, games, wins, draws, losses, first_date, last_date)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
             ON CONFLICT (year, player, side) DO UPDATE SET
                 games = games + excluded.games,
                 wins = wins + excluded.wins,
                 draws = draws + excluded.draws,
                 losses = losses + excluded.losses,
                 first_date = coalesce(min(first_date, excluded.first_date), first_date,
                                       excluded.first_date),
                 last_date = coalesce(max(last_date, excluded.last_date), last_date,
                                      excluded.last_date)",
        )?;
        for ((player, side, year), t) in self.sides.drain() {
            upsert.execute(params![
                player,
                side,
                year,
                t.games as i64,
                t.wins as i64,
                t.draws as i64,
                t.losses as i64,
                t.first_date,
                t.last_date
            ])?;
        }
        let mut upsert = conn.prepare_cached(
            "INSERT INTO player_openings (player, side, year, opening, games)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (year, player, side, opening) DO UPDATE SET
                 games = games + excluded.games",
        )?;
        for ((player, side, year), by) in self.openings.drain() {
            for (opening, n) in by {
                upsert.execute(params![player, side, year, opening, n as i64])?;
            }
        }
        Ok(())
    }
}

/// Takes game `game` off its players' totals (its year's and every year's); called before its
/// row is deleted. A date that was a first or last date is looked for again among the
/// player's other games (of that year).
pub(super) fn subtract(conn: &Connection, game: i64) -> Result<(), StoreError> {
    if !by_year(conn) {
        return Ok(());
    }
    type Facts = (
        Option<i64>,
        Option<i64>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let row: Option<Facts> = conn
        .prepare_cached(
            "SELECT sente_id, gote_id, winner, date, coalesce(opening, label)
             FROM games WHERE id = ?1",
        )?
        .query_row([game], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .optional()?;
    let Some((sente, gote, winner, date, opening)) = row else {
        return Ok(());
    };
    let y = year(date.as_deref());
    for (side, player) in [(0u8, sente), (1u8, gote)] {
        let Some(player) = player else { continue };
        let w = won(winner.as_deref(), side);
        let draw = winner.as_deref() == Some("draw");
        for year in [EVERY_YEAR, y] {
            conn.prepare_cached(
                "UPDATE player_totals SET games = games - 1, wins = wins - ?4,
                     draws = draws - ?5, losses = losses - ?6
                 WHERE player = ?1 AND side = ?2 AND year = ?3",
            )?
            .execute(params![
                player,
                side,
                year,
                (w == Some(true)) as i64,
                draw as i64,
                (w == Some(false)) as i64
            ])?;
            conn.prepare_cached(
                "DELETE FROM player_totals
                 WHERE player = ?1 AND side = ?2 AND year = ?3 AND games <= 0",
            )?
            .execute(params![player, side, year])?;
            if let Some(d) = &date {
                // The player's other games of that side, in that year (dates from `YYYY` up
                // to the next year), or in every year.
                let column = if side == 0 { "sente_id" } else { "gote_id" };
                let (from, to) = if year == EVERY_YEAR {
                    (String::new(), "~".to_string())
                } else {
                    (format!("{year:04}"), format!("{:04}", year + 1))
                };
                conn.prepare_cached(&format!(
                    "UPDATE player_totals SET
                         first_date = (SELECT min(date) FROM games WHERE {column} = ?1
                                       AND id <> ?4 AND date >= ?6 AND date < ?7),
                         last_date = (SELECT max(date) FROM games WHERE {column} = ?1
                                      AND id <> ?4 AND date >= ?6 AND date < ?7)
                     WHERE player = ?1 AND side = ?2 AND year = ?3
                       AND (first_date = ?5 OR last_date = ?5)"
                ))?
                .execute(params![player, side, year, game, d, from, to])?;
            }
            if let Some(o) = &opening {
                conn.prepare_cached(
                    "UPDATE player_openings SET games = games - 1
                     WHERE player = ?1 AND side = ?2 AND year = ?3 AND opening = ?4",
                )?
                .execute(params![player, side, year, o])?;
                conn.prepare_cached(
                    "DELETE FROM player_openings
                     WHERE player = ?1 AND side = ?2 AND year = ?3 AND opening = ?4
                       AND games <= 0",
                )?
                .execute(params![player, side, year, o])?;
            }
        }
    }
    Ok(())
}

impl Store {
    /// Every player's stored totals, by player id: over every year, or with `years` (first,
    /// last) summed over the dated years between them.
    pub fn player_totals(
        &self,
        years: Option<(i64, i64)>,
    ) -> Result<Vec<PlayerTotals>, StoreError> {
        let mut out: Vec<PlayerTotals> = Vec::new();
        let mut at: HashMap<i64, usize> = HashMap::new();
        let mut slot = |out: &mut Vec<PlayerTotals>, player: i64| -> usize {
            *at.entry(player).or_insert_with(|| {
                out.push(PlayerTotals {
                    player,
                    ..PlayerTotals::default()
                });
                out.len() - 1
            })
        };
        let (first, last) = match years {
            None => (EVERY_YEAR, EVERY_YEAR),
            Some((first, last)) => (first.max(1), last),
        };
        let mut stmt = self.conn.prepare(
            "SELECT player, side, games, wins, draws, losses, first_date, last_date
             FROM player_totals WHERE year BETWEEN ?1 AND ?2",
        )?;
        let mut rows = stmt.query([first, last])?;
        while let Some(r) = rows.next()? {
            let i = slot(&mut out, r.get(0)?);
            let side: i64 = r.get(1)?;
            out[i].sides[(side == 1) as usize].merge(SideTotals {
                games: r.get::<_, i64>(2)? as u64,
                wins: r.get::<_, i64>(3)? as u64,
                draws: r.get::<_, i64>(4)? as u64,
                losses: r.get::<_, i64>(5)? as u64,
                first_date: r.get(6)?,
                last_date: r.get(7)?,
            });
        }
        // Summed over the years here: the rows come by year, and a sum in SQL would sort them.
        let mut by_opening: FxHashMap<(i64, u8, String), u64> = FxHashMap::default();
        let mut stmt = self.conn.prepare(
            "SELECT player, side, opening, games FROM player_openings
             WHERE year BETWEEN ?1 AND ?2",
        )?;
        let mut rows = stmt.query([first, last])?;
        while let Some(r) = rows.next()? {
            let side: i64 = r.get(1)?;
            let key = (r.get(0)?, (side == 1) as u8, r.get(2)?);
            *by_opening.entry(key).or_default() += r.get::<_, i64>(3)? as u64;
        }
        let mut by_opening: Vec<_> = by_opening.into_iter().collect();
        by_opening.sort_unstable();
        for ((player, side, opening), n) in by_opening {
            let i = slot(&mut out, player);
            out[i].openings.push((side, opening, n));
        }
        Ok(out)
    }
}
