//! The Rust step of migration 0005: every stored game's duplicate key recomputed from its row
//! (see [`super::codec::fingerprint`]).

use rusqlite::{Connection, params};

use super::StoreError;
use super::codec::{GameKey, HeaderColumns, decode_headers, start_position};
use kifudex_notation::Record;

/// Recomputes `games.fingerprint` for every game.
pub(super) fn recompute_fingerprints(conn: &Connection) -> Result<(), StoreError> {
    let mut read = conn.prepare(
        "SELECT g.id, g.start_sfen, g.handicap, g.moves, g.terminal, g.date, ps.name, pg.name,
                g.event, g.opening, g.title, g.headers
         FROM games g
         LEFT JOIN players ps ON ps.id = g.sente_id
         LEFT JOIN players pg ON pg.id = g.gote_id",
    )?;
    let mut write = conn.prepare("UPDATE games SET fingerprint = ?2 WHERE id = ?1")?;
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let start_sfen: Option<String> = r.get(1)?;
        let handicap: String = r.get(2)?;
        let moves: Vec<u8> = r.get(3)?;
        let terminal: Option<String> = r.get(4)?;
        let date: Option<String> = r.get(5)?;
        let sente: Option<String> = r.get(6)?;
        let gote: Option<String> = r.get(7)?;
        let event: Option<String> = r.get(8)?;
        let opening: Option<String> = r.get(9)?;
        let title: Option<String> = r.get(10)?;
        let headers: Option<String> = r.get(11)?;
        let start = start_position(id, start_sfen.as_deref(), &handicap)?;
        let columns = HeaderColumns {
            sente: sente.as_deref(),
            gote: gote.as_deref(),
            event: event.as_deref(),
            opening: opening.as_deref(),
            title: title.as_deref(),
            handicap: Some(&handicap),
        };
        let rec = Record {
            headers: headers.map_or_else(Vec::new, |h| decode_headers(&h, columns)),
            ..Record::default()
        };
        let key = GameKey {
            start: start.hash(),
            moves: moves
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]])),
            terminal: terminal.as_deref(),
            date: date.as_deref(),
            start_time: rec.start_time(),
            sente: sente.as_deref(),
            gote: gote.as_deref(),
            event: event.as_deref(),
        };
        write.execute(params![id, &key.fingerprint()[..]])?;
    }
    Ok(())
}
