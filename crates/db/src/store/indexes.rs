//! The secondary indexes of the games table (date, sente, gote, label), which a bulk import builds
//! once at its end instead of keeping up row by row. (The recognised openings by name are
//! lists written with each transaction: `store::openings`.)
//!
//! Kept up row by row, each of them takes an insert at a random place for every game, and
//! every commit writes each index page it touched to the log again: at 100,000 games that is
//! about 0.6 CPU-s, a twentieth of the import, and at 1,000,000 a seventh. Built at the end,
//! they cost a scan of the whole table each, on one core (0.4 s at 100,000 games, 5 s at
//! 1,000,000): the importer decides which way to go (`ingest::DEFER_INDEXES_UP_TO`). An
//! import killed before its end leaves them missing: [`restore`] puts them back, and the next
//! command that finds the import lock free calls it (queries are right without them, only
//! slower).

use rusqlite::Connection;

use super::StoreError;

/// Name and statement of each index, as the migrations create them (`0003_rows.sql`,
/// `0013_game_labels.sql`).
const GAME_INDEXES: [(&str, &str); 4] = [
    (
        "games_date",
        "CREATE INDEX games_date ON games(date, label_id)",
    ),
    ("games_sente", "CREATE INDEX games_sente ON games(sente_id)"),
    ("games_gote", "CREATE INDEX games_gote ON games(gote_id)"),
    (
        "games_label",
        "CREATE INDEX games_label ON games(label_id, date)",
    ),
];

/// The games indexes the database lacks.
pub(crate) fn missing(conn: &Connection) -> Result<Vec<&'static str>, StoreError> {
    let mut stmt =
        conn.prepare_cached("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?1")?;
    let mut out = Vec::new();
    for (name, _) in GAME_INDEXES {
        if !stmt.exists([name])? {
            out.push(name);
        }
    }
    Ok(out)
}

/// Drops the games indexes (in the caller's transaction, if any) before a bulk import.
pub(crate) fn drop_all(conn: &Connection) -> Result<(), StoreError> {
    for (name, _) in GAME_INDEXES {
        conn.execute_batch(&format!("DROP INDEX IF EXISTS {name}"))?;
    }
    Ok(())
}

/// Creates the games indexes the database lacks, in one transaction; returns how many.
pub(crate) fn restore(conn: &Connection) -> Result<usize, StoreError> {
    let missing = missing(conn)?;
    if missing.is_empty() {
        return Ok(0);
    }
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let created = (|| {
        for (name, sql) in GAME_INDEXES {
            if missing.contains(&name) {
                conn.execute_batch(sql)?;
            }
        }
        conn.execute_batch("COMMIT")
    })();
    if created.is_err() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    created?;
    Ok(missing.len())
}
