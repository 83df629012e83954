//! Each player's totals per side (games, wins, draws, losses, first and last date) and games
//! by opening, kept in `player_totals` and `player_openings` as games come and go: the writer
//! adds the games of a transaction when it commits ([`Pending`]), a deleted game is taken off
//! ([`subtract`]), and a new recognition of the openings counts the openings again
//! ([`rebuild_openings`]). `kifudex players` over every game then reads a row per player
//! instead of every game. The opening counted is the header's 戦型, or the recognised label
//! when the header has none (as `players` shows it over a filter).

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};
use rustc_hash::FxHashMap;

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

/// The games a writer added in its open transaction, by player and side, written by
/// [`Pending::flush`] before it commits.
#[derive(Default)]
pub(super) struct Pending {
    sides: FxHashMap<(i64, u8), SideTotals>,
    /// Games by opening, per (player, side).
    openings: FxHashMap<(i64, u8), FxHashMap<String, u64>>,
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
        for (side, player) in players.into_iter().enumerate() {
            let Some(player) = player else { continue };
            let side = side as u8;
            self.sides
                .entry((player, side))
                .or_default()
                .add(winner, side, date);
            if let Some(o) = opening {
                let by = self.openings.entry((player, side)).or_default();
                match by.get_mut(o) {
                    Some(n) => *n += 1,
                    None => {
                        by.insert(o.to_string(), 1);
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
        let mut upsert = conn.prepare_cached(
            "INSERT INTO player_totals
                 (player, side, games, wins, draws, losses, first_date, last_date)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
             ON CONFLICT (player, side) DO UPDATE SET
                 games = games + excluded.games,
                 wins = wins + excluded.wins,
                 draws = draws + excluded.draws,
                 losses = losses + excluded.losses,
                 first_date = coalesce(min(first_date, excluded.first_date), first_date,
                                       excluded.first_date),
                 last_date = coalesce(max(last_date, excluded.last_date), last_date,
                                      excluded.last_date)",
        )?;
        for ((player, side), t) in self.sides.drain() {
            upsert.execute(params![
                player,
                side,
                t.games as i64,
                t.wins as i64,
                t.draws as i64,
                t.losses as i64,
                t.first_date,
                t.last_date
            ])?;
        }
        let mut upsert = conn.prepare_cached(
            "INSERT INTO player_openings (player, side, opening, games) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (player, side, opening) DO UPDATE SET games = games + excluded.games",
        )?;
        for ((player, side), by) in self.openings.drain() {
            for (opening, n) in by {
                upsert.execute(params![player, side, opening, n as i64])?;
            }
        }
        Ok(())
    }
}

/// Takes game `game` off its players' totals; called before its row is deleted. A date that
/// was a first or last date is looked for again among the player's other games.
pub(super) fn subtract(conn: &Connection, game: i64) -> Result<(), StoreError> {
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
    for (side, player) in [(0u8, sente), (1u8, gote)] {
        let Some(player) = player else { continue };
        let w = won(winner.as_deref(), side);
        let draw = winner.as_deref() == Some("draw");
        conn.prepare_cached(
            "UPDATE player_totals SET games = games - 1, wins = wins - ?3,
                 draws = draws - ?4, losses = losses - ?5
             WHERE player = ?1 AND side = ?2",
        )?
        .execute(params![
            player,
            side,
            (w == Some(true)) as i64,
            draw as i64,
            (w == Some(false)) as i64
        ])?;
        conn.prepare_cached(
            "DELETE FROM player_totals WHERE player = ?1 AND side = ?2 AND games <= 0",
        )?
        .execute(params![player, side])?;
        if let Some(d) = &date {
            let column = if side == 0 { "sente_id" } else { "gote_id" };
            conn.prepare_cached(&format!(
                "UPDATE player_totals SET
                     first_date = (SELECT min(date) FROM games WHERE {column} = ?1 AND id <> ?3),
                     last_date = (SELECT max(date) FROM games WHERE {column} = ?1 AND id <> ?3)
                 WHERE player = ?1 AND side = ?2 AND (first_date = ?4 OR last_date = ?4)"
            ))?
            .execute(params![player, side, game, d])?;
        }
        if let Some(o) = &opening {
            conn.prepare_cached(
                "UPDATE player_openings SET games = games - 1
                 WHERE player = ?1 AND side = ?2 AND opening = ?3",
            )?
            .execute(params![player, side, o])?;
            conn.prepare_cached(
                "DELETE FROM player_openings
                 WHERE player = ?1 AND side = ?2 AND opening = ?3 AND games <= 0",
            )?
            .execute(params![player, side, o])?;
        }
    }
    Ok(())
}

/// Counts every player's totals again from the games (the migration that made the tables).
pub(super) fn rebuild(conn: &Connection) -> Result<(), StoreError> {
    conn.execute("DELETE FROM player_totals", [])?;
    conn.execute(
        "INSERT INTO player_totals
             (player, side, games, wins, draws, losses, first_date, last_date)
         SELECT sente_id, 0, count(*), coalesce(sum(winner = 'sente'), 0),
                coalesce(sum(winner = 'draw'), 0), coalesce(sum(winner = 'gote'), 0),
                min(date), max(date)
         FROM games WHERE sente_id IS NOT NULL GROUP BY sente_id
         UNION ALL
         SELECT gote_id, 1, count(*), coalesce(sum(winner = 'gote'), 0),
                coalesce(sum(winner = 'draw'), 0), coalesce(sum(winner = 'sente'), 0),
                min(date), max(date)
         FROM games WHERE gote_id IS NOT NULL GROUP BY gote_id",
        [],
    )?;
    rebuild_openings(conn)
}

/// Counts every player's games by opening again (the recognised labels changed).
pub(super) fn rebuild_openings(conn: &Connection) -> Result<(), StoreError> {
    conn.execute("DELETE FROM player_openings", [])?;
    conn.execute(
        "INSERT INTO player_openings (player, side, opening, games)
         SELECT sente_id, 0, coalesce(opening, label) AS o, count(*) FROM games
         WHERE sente_id IS NOT NULL AND o IS NOT NULL GROUP BY sente_id, o
         UNION ALL
         SELECT gote_id, 1, coalesce(opening, label) AS o, count(*) FROM games
         WHERE gote_id IS NOT NULL AND o IS NOT NULL GROUP BY gote_id, o",
        [],
    )?;
    Ok(())
}

impl Store {
    /// Every player's stored totals, by player id.
    pub fn player_totals(&self) -> Result<Vec<PlayerTotals>, StoreError> {
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
        let mut stmt = self.conn.prepare(
            "SELECT player, side, games, wins, draws, losses, first_date, last_date
             FROM player_totals ORDER BY player, side",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let i = slot(&mut out, r.get(0)?);
            let side: i64 = r.get(1)?;
            out[i].sides[(side == 1) as usize] = SideTotals {
                games: r.get::<_, i64>(2)? as u64,
                wins: r.get::<_, i64>(3)? as u64,
                draws: r.get::<_, i64>(4)? as u64,
                losses: r.get::<_, i64>(5)? as u64,
                first_date: r.get(6)?,
                last_date: r.get(7)?,
            };
        }
        let mut stmt = self
            .conn
            .prepare("SELECT player, side, opening, games FROM player_openings")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let i = slot(&mut out, r.get(0)?);
            let side: i64 = r.get(1)?;
            out[i]
                .openings
                .push(((side == 1) as u8, r.get(2)?, r.get::<_, i64>(3)? as u64));
        }
        Ok(out)
    }
}
