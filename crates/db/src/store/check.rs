//! `kifudex check`: what is damaged or behind in a database, found by reading all of it, and
//! the repair of what is derived from the games (the position index, recognition; the text
//! index is the text module's). The games rows themselves are what everything is rebuilt
//! from: a damaged one is named, for its file to be imported again.

use rusqlite::params;

use super::postings::block::Block;
use super::{Store, StoreError, checksum, codec, postings};
use crate::progress::Progress;

/// What `check` found in the SQLite file.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct StoreCheck {
    /// What SQLite's own integrity check said, when not "ok".
    pub sqlite: Vec<String>,
    pub segments: u64,
    pub blocks: u64,
    /// Blocks and segments of the position index that do not match their checksum or do
    /// not read back, in words.
    pub index_damage: Vec<String>,
    /// The postings the index holds, and those its games' main lines make.
    pub postings: u64,
    pub positions: u64,
    pub games: u64,
    /// Games whose moves do not match their checksum or cannot be replayed.
    pub damaged_games: Vec<i64>,
    /// Games not in the position index yet (an import stopped before indexing them).
    pub unindexed_games: u64,
    /// The recognised openings were made by other definitions.
    pub recognition_stale: bool,
}

impl StoreCheck {
    /// Whether the position index must be rebuilt (damaged, or not holding what its games
    /// make).
    pub fn index_damaged(&self) -> bool {
        !self.index_damage.is_empty()
    }
}

/// A segment's row: id, first and last game, games, entries, results, dates, checksum.
type SegmentRow = (i64, i64, i64, i64, i64, Vec<u8>, Vec<u8>, Option<i64>);

impl Store {
    /// Reads the whole database: SQLite's integrity, every block and segment of the position
    /// index against its checksum, the postings against the games, every game's moves.
    pub fn check(&self, progress: &dyn Progress) -> Result<StoreCheck, StoreError> {
        let mut out = StoreCheck::default();
        progress.stage("checking the database file", None, "");
        let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
        let lines: Vec<String> = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        out.sqlite = lines.into_iter().filter(|l| l != "ok").collect();
        progress.finish();

        // The position index: each segment, each block.
        let segments: Vec<SegmentRow> = self
            .conn
            .prepare(
                "SELECT id, first_game, last_game, games, entries, results, dates, crc
                 FROM position_segments ORDER BY id",
            )?
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                ))
            })?
            .collect::<Result<_, _>>()?;
        out.segments = segments.len() as u64;
        let blocks: i64 = self
            .conn
            .query_row("SELECT count(*) FROM position_blocks", [], |r| r.get(0))?;
        progress.stage("checking the position index", Some(blocks as u64), "blocks");
        let mut read = self.conn.prepare(
            "SELECT id, first_key, data, crc FROM position_blocks WHERE segment = ?1 ORDER BY id",
        )?;
        for (id, first, last, games, entries, results, dates, crc) in &segments {
            if crc.is_some_and(|c| {
                c as u32 != checksum::segment(*first, *last, *games, *entries, results, dates)
            }) {
                out.index_damage.push(format!(
                    "segment {id}: its games' results and dates do not match their checksum"
                ));
            }
            let mut found = 0u64;
            let mut rows = read.query([id])?;
            while let Some(r) = rows.next()? {
                out.blocks += 1;
                if out.blocks.is_multiple_of(1024) {
                    progress.set(out.blocks);
                }
                let block_id: i64 = r.get(0)?;
                let key: i64 = r.get(1)?;
                let data = r.get_ref(2)?.as_blob().unwrap_or_default();
                let crc: Option<i64> = r.get(3)?;
                if crc.is_some_and(|c| c as u32 != checksum::block(*id, key, data)) {
                    out.index_damage.push(format!(
                        "block {block_id} of segment {id}: does not match its checksum"
                    ));
                    continue;
                }
                match Block::parse(data) {
                    Some(b) => found += b.entries(key as u64, *first).count() as u64,
                    None => out
                        .index_damage
                        .push(format!("block {block_id} of segment {id}: cannot be read")),
                }
            }
            if found != *entries as u64 && out.index_damage.is_empty() {
                out.index_damage.push(format!(
                    "segment {id}: its blocks hold {found} postings where it counts {entries}"
                ));
            }
            out.postings += found;
        }
        progress.finish();

        // The games: their moves against the checksum, and replayed.
        out.games = self.game_count()?;
        progress.stage("checking the games", Some(out.games), "games");
        let covered = postings::covered_through(&self.conn)?;
        let variations = super::meta_value(&self.conn, postings::VARIATIONS_META)?.is_some();
        let mut stmt = self.conn.prepare(
            "SELECT g.id, g.start_sfen, g.handicap, g.moves, g.moves_crc, g.plies,
                    g.id IN (SELECT id FROM removed_games)
             FROM games g ORDER BY g.id",
        )?;
        let mut rows = stmt.query([])?;
        let mut done = 0u64;
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            let sfen: Option<String> = r.get(1)?;
            let handicap: String = r.get(2)?;
            let blob = r.get_ref(3)?.as_blob().unwrap_or_default();
            let crc: Option<i64> = r.get(4)?;
            let plies: i64 = r.get(5)?;
            let removed: bool = r.get(6)?;
            let sound = crc.is_none_or(|c| c as u32 == checksum::moves(blob))
                && codec::main_line(id, sfen.as_deref(), &handicap, blob).is_ok();
            if !sound {
                out.damaged_games.push(id);
            }
            if id <= covered && !removed {
                out.positions += plies as u64 + 1;
            }
            done += 1;
            if done.is_multiple_of(4096) {
                progress.set(done);
            }
        }
        progress.finish();
        // A removed game's postings stay until a merge: counted, they are not damage.
        let removed_postings: i64 = self.conn.query_row(
            "SELECT count(*) FROM removed_games r WHERE r.id <= ?1",
            [covered],
            |r| r.get(0),
        )?;
        if !variations
            && removed_postings == 0
            && out.index_damage.is_empty()
            && out.postings != out.positions
        {
            out.index_damage.push(format!(
                "the index holds {} postings where its games have {} positions",
                out.postings, out.positions
            ));
        }
        out.unindexed_games = self.unindexed_games()?;
        out.recognition_stale = super::openings::stale(&self.conn)?;
        Ok(out)
    }

    /// Builds the position index again from the games rows (every segment dropped first).
    /// Returns the games indexed. The caller holds the import lock.
    pub fn rebuild_position_index(&mut self) -> Result<u64, StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute_batch(
            "DELETE FROM position_blocks; DELETE FROM position_segments;
             DELETE FROM removed_games;",
        )?;
        tx.commit()?;
        let n = self.writer()?.index_missing()? as u64;
        super::give_back_free_pages(&self.conn)?;
        Ok(n)
    }

    /// Recognises every game's openings again, whatever the version says. The caller holds
    /// the import lock.
    pub fn recognise_all(&mut self, progress: &dyn Progress) -> Result<u64, StoreError> {
        self.conn.execute(
            "DELETE FROM meta WHERE key = ?1",
            params![super::openings::CLASSIFY_META],
        )?;
        super::openings::recompute(&mut self.conn, progress)
    }
}
