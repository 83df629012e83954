//! Checksums (CRC-32) of the stored data that answers queries: the position index's blocks
//! and segment columns, and each game's moves (schema 12). Written with the data, checked
//! when it is read (the blocks and segments) and by `kifudex check` (everything).

use rusqlite::{Connection, params};

use super::StoreError;

/// The checksum of a position block: its segment and first key, then its bytes (a block
/// moved to another key or segment does not pass).
pub fn block(segment: i64, first_key: i64, data: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&segment.to_le_bytes());
    h.update(&first_key.to_le_bytes());
    h.update(data);
    h.finalize()
}

/// The checksum of a segment's counts and per-game columns.
pub fn segment(
    first_game: i64,
    last_game: i64,
    games: i64,
    entries: i64,
    results: &[u8],
    dates: &[u8],
) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for n in [first_game, last_game, games, entries] {
        h.update(&n.to_le_bytes());
    }
    h.update(results);
    h.update(dates);
    h.finalize()
}

/// The checksum of a game's moves column.
pub fn moves(blob: &[u8]) -> u32 {
    crc32fast::hash(blob)
}

/// Computes every checksum of a database that has none (the migration to schema 12).
pub(super) fn fill(conn: &Connection) -> Result<(), StoreError> {
    {
        let mut read = conn.prepare("SELECT id, segment, first_key, data FROM position_blocks")?;
        let mut put = conn.prepare("UPDATE position_blocks SET crc = ?2 WHERE id = ?1")?;
        let mut rows = read.query([])?;
        while let Some(r) = rows.next()? {
            let data = r.get_ref(3)?.as_blob().unwrap_or_default();
            put.execute(params![
                r.get::<_, i64>(0)?,
                block(r.get(1)?, r.get(2)?, data)
            ])?;
        }
    }
    {
        let mut read = conn.prepare(
            "SELECT id, first_game, last_game, games, entries, results, dates
             FROM position_segments",
        )?;
        let mut put = conn.prepare("UPDATE position_segments SET crc = ?2 WHERE id = ?1")?;
        let mut rows = read.query([])?;
        while let Some(r) = rows.next()? {
            let results = r.get_ref(5)?.as_blob().unwrap_or_default();
            let dates = r.get_ref(6)?.as_blob().unwrap_or_default();
            let crc = segment(r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, results, dates);
            put.execute(params![r.get::<_, i64>(0)?, crc])?;
        }
    }
    let mut read = conn.prepare("SELECT id, moves FROM games")?;
    let mut put = conn.prepare("UPDATE games SET moves_crc = ?2 WHERE id = ?1")?;
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        let blob = r.get_ref(1)?.as_blob().unwrap_or_default();
        put.execute(params![r.get::<_, i64>(0)?, moves(blob)])?;
    }
    Ok(())
}
