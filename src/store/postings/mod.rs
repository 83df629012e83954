//! The position index: for every position of every game, a posting (position key, game,
//! hand signature, move played next), kept as sorted runs ("segments") of bit-packed blocks
//! inside the SQLite file (GUIDE §4).
//!
//! * The key is the top [`KEY_BITS`] bits of the board hash (board and side to move), so one
//!   lookup serves searches with and without hands. Keys this short can collide, and hands
//!   are not in them: candidates are verified by replay (position, hands and all) before they
//!   are shown.
//! * An import gathers postings in memory (in buckets by key, [`Batch`]) and writes them as
//!   one segment when [`SEGMENT_ENTRIES`] have gathered and at its end. A full batch is
//!   sorted and cut beside the writer and written by one of its later transactions; the end
//!   of an import merges the small segments, and `kifudex optimize` merges them all. Like the
//!   text index, the postings follow the games: games committed by an import that stopped
//!   before writing their segment have ids above [`covered_through`], and the next writer
//!   replays them from their rows (`Writer::index_missing`). One sorted pass over a whole
//!   import costs far less than a segment per commit merged at the end (35 µs a game on the
//!   writer thread at 100,000 games).
//! * A segment also keeps, per game, the result and the date, so that trees and newest-first
//!   orders need no game rows.
//! * Games deleted later (a changed file re-imported) are listed in `removed_games` until a
//!   merge drops their entries.

pub mod block;
mod merge;
mod read;
mod write;

use rusqlite::Connection;

use super::StoreError;
use crate::shogi::{Move, Position};

pub use block::{Entry, code_move, move_code};
pub use merge::merge;
pub(crate) use read::CachedIndex;
pub use read::{PositionIndex, Segment};
pub(crate) use write::write_segment;
pub use write::{Batch, PreparedSegment, SEGMENT_ENTRIES};

/// Bits of the board hash a key keeps: at 100 million postings a key delta takes about 10
/// bits, and a position not in the index shares its key with an indexed one about once in
/// 700 lookups (a candidate the replay then refuses).
pub const KEY_BITS: u32 = 36;

/// The `meta` key set once an import indexed variations (their games are then replayed
/// whole when verified).
pub const VARIATIONS_META: &str = "variation_positions";

/// The format of the postings (blocks, keys, signatures); recorded in `meta`.
pub const POSTINGS_VERSION: u32 = 1;

/// The key of a position: the top [`KEY_BITS`] bits of its board hash.
#[inline]
pub fn key_of(board_hash: u64) -> u64 {
    board_hash >> (64 - KEY_BITS)
}

/// A posting as the readers produce it, before the game has an id:
/// key << 24 | [`move_code`] + 1 of the move played next (0: none).
#[inline]
pub fn pack(pos: &Position, next: Option<Move>) -> u64 {
    pack_hash(pos.board_hash(), next)
}

/// [`pack`] of a position's board hash.
#[inline]
pub fn pack_hash(board_hash: u64, next: Option<Move>) -> u64 {
    key_of(board_hash) << 24 | next.map_or(0, |m| move_code(m) as u64 + 1)
}

/// Results as segments store them (one byte per game).
pub const RESULT_UNKNOWN: u8 = 0;
pub const RESULT_SENTE: u8 = 1;
pub const RESULT_GOTE: u8 = 2;
pub const RESULT_DRAW: u8 = 3;

/// The result byte of a `winner` column value.
pub fn result_code(winner: Option<&str>) -> u8 {
    result_byte(crate::notation::GameResult::from_code(winner))
}

/// The byte a game's result is kept as.
pub fn result_byte(result: crate::notation::GameResult) -> u8 {
    use crate::notation::GameResult;
    use crate::shogi::Color;
    match result {
        GameResult::Win(Color::Black) => RESULT_SENTE,
        GameResult::Win(Color::White) => RESULT_GOTE,
        GameResult::Draw => RESULT_DRAW,
        GameResult::Unknown => RESULT_UNKNOWN,
    }
}

/// The date of a [`GameDate::code`](crate::notation::dates::GameDate::code), as
/// YYYY[-MM[-DD]].
pub fn date_text(code: u32) -> Option<String> {
    crate::notation::dates::GameDate::from_code(code).map(|d| d.to_string())
}

/// The largest game id the segments cover: games with larger ids were committed by an import
/// that stopped before it wrote their segment (see [`Writer::index_missing`]).
///
/// [`Writer::index_missing`]: crate::store::Writer::index_missing
pub fn covered_through(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn.query_row(
        "SELECT coalesce(max(last_game), 0) FROM position_segments",
        [],
        |r| r.get(0),
    )?)
}

/// Sizes of the position index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct IndexSize {
    pub segments: u64,
    pub entries: u64,
    pub blocks: u64,
    pub bytes: u64,
}

pub fn size(conn: &Connection) -> Result<IndexSize, StoreError> {
    Ok(conn.query_row(
        "SELECT count(*), coalesce(sum(entries), 0), coalesce(sum(blocks), 0),
         coalesce(sum(bytes), 0) FROM position_segments",
        [],
        |r| {
            Ok(IndexSize {
                segments: r.get::<_, i64>(0)? as u64,
                entries: r.get::<_, i64>(1)? as u64,
                blocks: r.get::<_, i64>(2)? as u64,
                bytes: r.get::<_, i64>(3)? as u64,
            })
        },
    )?)
}
