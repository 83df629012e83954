//! Merging segments into one, leaving out the entries of removed games.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rusqlite::{Connection, OptionalExtension, params};

use super::block::{Block, Entry};
use super::read::{PositionIndex, Segment};
use super::write::{BlockSink, GameColumns, finish_segment, new_segment};
use crate::store::StoreError;

/// Reads a segment's blocks in key order, one block at a time.
struct Cursor {
    segment: i64,
    base: i64,
    /// (first_key, id) of the last block read.
    at: Option<(i64, i64)>,
    buffer: std::vec::IntoIter<Entry>,
    done: bool,
}

impl Cursor {
    fn next(&mut self, conn: &Connection) -> Result<Option<Entry>, StoreError> {
        loop {
            if let Some(e) = self.buffer.next() {
                return Ok(Some(e));
            }
            if self.done {
                return Ok(None);
            }
            let (k, id) = self.at.unwrap_or((i64::MIN, i64::MIN));
            let row: Option<(i64, i64, Vec<u8>, Option<i64>)> = conn
                .prepare_cached(
                    "SELECT first_key, id, data, crc FROM position_blocks
                     WHERE segment = ?1 AND (first_key, id) > (?2, ?3)
                     ORDER BY first_key, id LIMIT 1",
                )?
                .query_row(params![self.segment, k, id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })
                .optional()?;
            let Some((first, id, data, crc)) = row else {
                self.done = true;
                return Ok(None);
            };
            super::read::verify_block(self.segment, first, &data, crc, id)?;
            self.at = Some((first, id));
            let block =
                Block::parse(&data).ok_or(StoreError::IndexDamaged("a block cannot be read"))?;
            self.buffer = block
                .entries(first as u64, self.base)
                .collect::<Vec<_>>()
                .into_iter();
        }
    }
}

/// Merges segments into one (inside the caller's transaction), leaving out the entries of
/// removed games, and deletes them. Returns the new segment's id (`None` when `ids` is empty).
pub fn merge(conn: &Connection, ids: &[i64]) -> Result<Option<i64>, StoreError> {
    if ids.is_empty() {
        return Ok(None);
    }
    let index = PositionIndex::load(conn)?;
    let chosen: Vec<&Segment> = index
        .segments
        .iter()
        .filter(|s| ids.contains(&s.id))
        .collect();
    let Some(first) = chosen.iter().map(|s| s.first_game).min() else {
        return Ok(None);
    };
    let last = chosen.iter().map(|s| s.last_game).max().unwrap_or(first);
    let segment = new_segment(conn, first, last)?;
    let mut cols = GameColumns::new(first, last);
    let mut games = 0usize;
    for s in &chosen {
        for g in s.first_game..=s.last_game {
            if !index.removed.contains(&g) {
                cols.set(g, s.result(g), s.date(g));
            }
        }
        games += s.games as usize;
    }
    let mut cursors: Vec<Cursor> = chosen
        .iter()
        .map(|s| Cursor {
            segment: s.id,
            base: s.first_game,
            at: None,
            buffer: Vec::new().into_iter(),
            done: false,
        })
        .collect();
    let mut heap = BinaryHeap::new();
    for (i, c) in cursors.iter_mut().enumerate() {
        if let Some(e) = c.next(conn)? {
            heap.push(Reverse((e, i)));
        }
    }
    let mut sink = BlockSink::new(conn, segment, first);
    while let Some(Reverse((e, i))) = heap.pop() {
        if !index.removed.contains(&e.game) {
            sink.push(e)?;
        }
        if let Some(next) = cursors[i].next(conn)? {
            heap.push(Reverse((next, i)));
        }
    }
    sink.flush()?;
    let removed_in: Vec<i64> = index
        .removed
        .iter()
        .copied()
        .filter(|g| {
            chosen
                .iter()
                .any(|s| s.first_game <= *g && *g <= s.last_game)
        })
        .collect();
    games -= removed_in.len().min(games);
    finish_segment(sink, games, cols)?;
    for s in &chosen {
        conn.execute("DELETE FROM position_blocks WHERE segment = ?1", [s.id])?;
        conn.execute("DELETE FROM position_segments WHERE id = ?1", [s.id])?;
    }
    // A removed game's entries are gone once no segment covers it any more.
    let remaining = PositionIndex::load(conn)?;
    for g in removed_in {
        let covered = remaining
            .segments
            .iter()
            .any(|s| s.id != segment && s.first_game <= g && g <= s.last_game);
        if !covered {
            conn.execute("DELETE FROM removed_games WHERE id = ?1", [g])?;
        }
    }
    Ok(Some(segment))
}
