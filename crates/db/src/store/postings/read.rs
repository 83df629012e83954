//! Reading the position index: its segments (with their per-game results and dates) and
//! the entries of a key, kept by the store between questions while the database does not
//! change.

use std::collections::HashSet;
use std::rc::Rc;

use rusqlite::{Connection, params};

use super::RESULT_UNKNOWN;
use super::block::{Block, Entry};
use crate::store::{GameSet, Store, StoreError};

/// A segment as queries see it.
#[derive(Debug, Clone)]
pub struct Segment {
    pub id: i64,
    pub first_game: i64,
    pub last_game: i64,
    pub games: i64,
    pub entries: i64,
    results: Vec<u8>,
    dates: Vec<u8>,
}

impl Segment {
    fn index(&self, game: i64) -> Option<usize> {
        (game >= self.first_game && game <= self.last_game)
            .then(|| (game - self.first_game) as usize)
    }

    /// The result byte of a game of this segment.
    pub fn result(&self, game: i64) -> u8 {
        self.index(game)
            .and_then(|i| self.results.get(i).copied())
            .unwrap_or(RESULT_UNKNOWN)
    }

    /// The date code of a game of this segment.
    pub fn date(&self, game: i64) -> u32 {
        self.index(game)
            .and_then(|i| self.dates.get(i * 4..i * 4 + 4))
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The position index of a database, ready for lookups.
pub struct PositionIndex {
    pub segments: Vec<Segment>,
    /// Games deleted since their postings were written.
    pub removed: HashSet<i64>,
}

impl PositionIndex {
    /// The segments with their per-game results and dates (5 bytes a game: for merges and
    /// for questions about many games).
    pub(crate) fn load(conn: &Connection) -> Result<PositionIndex, StoreError> {
        PositionIndex::read(conn, true)
    }

    fn read(conn: &Connection, columns: bool) -> Result<PositionIndex, StoreError> {
        let sql = if columns {
            "SELECT id, first_game, last_game, games, entries, results, dates, crc
             FROM position_segments ORDER BY id"
        } else {
            "SELECT id, first_game, last_game, games, entries, x'', x'', NULL
             FROM position_segments ORDER BY id"
        };
        let segments: Vec<(Segment, Option<i64>)> = conn
            .prepare(sql)?
            .query_map([], |r| {
                Ok((
                    Segment {
                        id: r.get(0)?,
                        first_game: r.get(1)?,
                        last_game: r.get(2)?,
                        games: r.get(3)?,
                        entries: r.get(4)?,
                        results: r.get(5)?,
                        dates: r.get(6)?,
                    },
                    r.get(7)?,
                ))
            })?
            .collect::<Result<_, _>>()?;
        // The columns, when read, are checked (a segment written before schema 12 whose
        // checksum was never computed has none).
        for (s, crc) in &segments {
            if let Some(crc) = crc {
                let want = crate::store::checksum::segment(
                    s.first_game,
                    s.last_game,
                    s.games,
                    s.entries,
                    &s.results,
                    &s.dates,
                );
                if *crc as u32 != want {
                    return Err(StoreError::Damaged(format!(
                        "segment {} of the position index (its games' results and dates)",
                        s.id
                    )));
                }
            }
        }
        let segments = segments.into_iter().map(|(s, _)| s).collect();
        let removed = conn
            .prepare("SELECT id FROM removed_games")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(PositionIndex { segments, removed })
    }

    /// Calls `f` with every entry with `key` (and its segment's index in `segments`), by
    /// segment and then by game, while it returns true; removed games left out, and with
    /// `set`, the games it does not hold.
    pub fn for_each(
        &self,
        store: &Store,
        key: u64,
        set: Option<&GameSet>,
        f: impl FnMut(usize, Entry) -> bool,
    ) -> Result<(), StoreError> {
        self.scan(&store.conn, key, set, f)
    }

    fn scan(
        &self,
        conn: &Connection,
        key: u64,
        set: Option<&GameSet>,
        mut f: impl FnMut(usize, Entry) -> bool,
    ) -> Result<(), StoreError> {
        let sparse = set.is_some_and(GameSet::is_sparse);
        // The last block starting before the key may end with it; later ones start with it.
        let mut before = conn.prepare_cached(
            "SELECT max(first_key) FROM position_blocks WHERE segment = ?1 AND first_key < ?2",
        )?;
        let mut blocks = conn.prepare_cached(
            "SELECT first_key, data, crc, id FROM position_blocks
             WHERE segment = ?1 AND first_key >= ?2 AND first_key <= ?3 ORDER BY first_key, id",
        )?;
        for (si, seg) in self.segments.iter().enumerate() {
            let from: Option<i64> = before.query_row(params![seg.id, key as i64], |r| r.get(0))?;
            let mut rows = blocks.query(params![seg.id, from.unwrap_or(key as i64), key as i64])?;
            while let Some(row) = rows.next()? {
                let first = row.get::<_, i64>(0)? as u64;
                let data = row
                    .get_ref(1)?
                    .as_blob()
                    .map_err(|_| StoreError::IndexDamaged("a block is not a blob"))?;
                verify_block(seg.id, first as i64, data, row.get(2)?, row.get(3)?)?;
                let block =
                    Block::parse(data).ok_or(StoreError::IndexDamaged("a block cannot be read"))?;
                let mut each = |e: Entry| {
                    (!self.removed.is_empty() && self.removed.contains(&e.game)) || f(si, e)
                };
                let go_on = match set {
                    None => block.find_each(first, key, seg.first_game, each),
                    Some(s) => block.find_each_taken(
                        first,
                        key,
                        seg.first_game,
                        sparse,
                        |g| s.next_from(g),
                        &mut each,
                    ),
                };
                if !go_on {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

/// The position index with its columns, and the database it was read from: SQLite's
/// `data_version` (which moves when another connection commits) and the rows this connection
/// changed (`total_changes`).
pub(crate) struct CachedIndex {
    version: (i64, u64),
    index: Rc<PositionIndex>,
}

impl Store {
    /// The position index, with each segment's per-game results and dates when `columns`
    /// (5 bytes a game: for questions about many games), without them otherwise. The index
    /// with its columns is kept between questions while the database does not change.
    pub fn position_index(&self, columns: bool) -> Result<Rc<PositionIndex>, StoreError> {
        let version = (
            self.conn
                .prepare_cached("PRAGMA data_version")?
                .query_row([], |r| r.get(0))?,
            self.conn.total_changes(),
        );
        // The lines kept for replays are of the database as it is.
        self.line_cache.borrow_mut().follow(version);
        if let Some(c) = &*self.index_cache.borrow()
            && c.version == version
        {
            return Ok(Rc::clone(&c.index));
        }
        let index = Rc::new(PositionIndex::read(&self.conn, columns)?);
        if columns {
            *self.index_cache.borrow_mut() = Some(CachedIndex {
                version,
                index: Rc::clone(&index),
            });
        }
        Ok(index)
    }
}

/// Checks a block read back against its checksum (none for a block whose checksum was never
/// computed).
pub(super) fn verify_block(
    segment: i64,
    first_key: i64,
    data: &[u8],
    crc: Option<i64>,
    id: i64,
) -> Result<(), StoreError> {
    match crc {
        Some(crc) if crc as u32 != crate::store::checksum::block(segment, first_key, data) => {
            Err(StoreError::Damaged(format!(
                "block {id} of segment {segment} of the position index"
            )))
        }
        _ => Ok(()),
    }
}
