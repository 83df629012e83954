//! Every stored game's duplicate key recomputed from its row (see
//! [`super::codec::fingerprint`]): the Rust step of migration 0005, whose key held the
//! players and the event too, and of migration 0015 ([`super::twins::rekey`]), whose key
//! holds the start and the main line alone.

use rusqlite::{Connection, params};

use super::StoreError;
use super::codec::{line_key, start_position};

/// Recomputes `games.fingerprint` for every game.
pub(super) fn recompute_fingerprints(conn: &Connection) -> Result<(), StoreError> {
    let mut read = conn.prepare("SELECT id, start_sfen, handicap, moves FROM games")?;
    let mut write = conn.prepare("UPDATE games SET fingerprint = ?2 WHERE id = ?1")?;
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let start_sfen: Option<String> = r.get(1)?;
        let handicap: String = r.get(2)?;
        let moves = r.get_ref(3)?.as_blob().unwrap_or(&[]);
        let start = start_position(id, start_sfen.as_deref(), &handicap)?;
        let key = line_key(
            start.hash(),
            moves
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]])),
        );
        write.execute(params![id, &key[..]])?;
    }
    Ok(())
}
