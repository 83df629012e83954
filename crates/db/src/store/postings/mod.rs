//! The position index: for every position of every game, a posting (position key, game,
//! hand signature, move played next), kept as sorted runs ("segments") of bit-packed blocks
//! inside the SQLite file (docs/database.md).
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

pub(crate) mod block;
mod merge;
mod read;
mod write;

use rusqlite::Connection;

use super::StoreError;
use kifudex_shogi::{Move, Position};

pub use block::Entry;
pub(crate) use block::{code_move, move_code};
pub(crate) use merge::merge;
pub(crate) use read::CachedIndex;
pub use read::{PositionIndex, Segment};
pub(crate) use write::write_segment;
pub(crate) use write::{Batch, PreparedSegment, SEGMENT_ENTRIES};

/// Reads `data` as a postings block and searches it, as the index does with what it reads
/// from the database: for the fuzzer (`fuzz/`, target `codecs`), which checks that bytes that
/// are no block give no block, never a panic. Returns the number of entries found.
#[doc(hidden)]
pub fn fuzz_block(data: &[u8]) -> usize {
    let Some(block) = block::Block::parse(data) else {
        return 0;
    };
    let first = block.entries(0, 0).next().map_or(0, |e| e.key);
    let mut found = block.entries(0, 0).count() + block.find(0, first, 1).len();
    let set = super::GameSet::from_ids([1, 7, 300, 5000]);
    block.find_each_taken(
        first,
        first,
        0,
        true,
        |g| set.next_from(g),
        |_| {
            found += 1;
            true
        },
    );
    found
}

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
    result_byte(kifudex_notation::GameResult::from_code(winner))
}

/// The byte a game's result is kept as.
pub fn result_byte(result: kifudex_notation::GameResult) -> u8 {
    use kifudex_notation::GameResult;
    use kifudex_shogi::Color;
    match result {
        GameResult::Win(Color::Black) => RESULT_SENTE,
        GameResult::Win(Color::White) => RESULT_GOTE,
        GameResult::Draw => RESULT_DRAW,
        GameResult::Unknown => RESULT_UNKNOWN,
    }
}

/// The date of a [`GameDate::code`](kifudex_notation::dates::GameDate::code), as
/// YYYY[-MM[-DD]].
pub fn date_text(code: u32) -> Option<String> {
    kifudex_notation::dates::GameDate::from_code(code).map(|d| d.to_string())
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

#[cfg(test)]
mod tests {
    use kifudex_shogi::Move;

    /// The postings a game row carries (board hashes kept from the board alone) are those of
    /// playing its moves in full, on even games and on handicap games.
    #[test]
    fn row_postings_are_those_of_a_full_replay() {
        use crate::store::GameRow;
        use crate::store::postings::pack;
        use kifudex_notation::synth::{Synth, SynthOptions};
        use kifudex_notation::{Format, kif::read_kif};
        use kifudex_shogi::Position;
        let mut synth = Synth::new(SynthOptions {
            seed: 5,
            ..SynthOptions::default()
        });
        let mut records: Vec<_> = (0..300).map(|_| synth.game()).collect();
        records.push(read_kif(
            "手合割：飛車落ち\n手数----指手---------消費時間--\n   1 ３四歩(33)\n   2 ７六歩(77)\n   3 ８八角成(22)\n   4 同　銀(79)\n   5 ５五角打\n",
        ));
        let mut drops = 0;
        for rec in &records {
            let mut pos: Position = rec.start.clone();
            let mut want = Vec::new();
            for node in &rec.main.moves {
                want.push(pack(&pos, Some(node.mv)));
                drops += usize::from(matches!(node.mv, Move::Drop { .. }));
                pos.play(node.mv).expect("a legal game");
            }
            want.push(pack(&pos, None));
            assert_eq!(GameRow::new(rec, Format::Kif).positions, want);
        }
        assert!(drops > 100, "the games drop pieces ({drops})");
    }
}
