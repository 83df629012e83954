//! Reading a stored game back, whole.

use rusqlite::OptionalExtension;

use super::codec::{
    HeaderColumns, Replay, StoredColumns, decode_comments, decode_headers, main_line, record_from,
    stored_tree,
};
use super::{Store, StoreError};
use kifudex_notation::Record;
use kifudex_shogi::{Move, Position};

/// A game's main line, for replaying it.
#[derive(Debug, Clone)]
pub struct GameLine {
    pub start: Position,
    pub moves: Vec<Move>,
    /// It has variations or bookmarks (the whole record is in [`Store::game`]).
    pub has_tree: bool,
    pub date: Option<kifudex_notation::dates::GameDate>,
    pub winner: Option<String>,
}

/// Main lines of games kept for replays: a position's candidates are mostly the games of the
/// position before it, so a walk down a line (the explorer) reads each game once. Cleared
/// whenever [`Store::position_index`] finds the database changed; the oldest go first past
/// [`KEPT_LINES`].
#[derive(Default)]
pub(crate) struct KeptLines {
    /// What the database was when they were read (as [`Store::position_index`] tells it).
    version: Option<(i64, u64)>,
    lines: std::collections::HashMap<i64, std::rc::Rc<GameLine>>,
    order: std::collections::VecDeque<i64>,
}

/// The most main lines a store keeps (about 1 KB each).
pub const KEPT_LINES: usize = 16_384;

impl KeptLines {
    /// Forgets the lines when the database is no longer what it was when they were read.
    pub(crate) fn follow(&mut self, version: (i64, u64)) {
        if self.version != Some(version) {
            self.lines.clear();
            self.order.clear();
            self.version = Some(version);
        }
    }
}

/// A game from the database: its row and the record rebuilt from it.
#[derive(Debug, Clone)]
pub struct StoredGame {
    pub id: i64,
    /// The path of the source it was first read from, as stored at import.
    pub file: String,
    pub game_index: i64,
    pub format: String,
    pub date: Option<String>,
    pub sente: Option<String>,
    pub gote: Option<String>,
    pub event: Option<String>,
    pub opening: Option<String>,
    pub plies: i64,
    pub winner: Option<String>,
    /// Every path the game was read from (more than one for a duplicate).
    pub sources: Vec<String>,
    pub record: Record,
    /// The record stops at a move that could not be applied (also in `record.incomplete`).
    pub incomplete: bool,
}

/// A game as a record file is written from it: the columns its file name is made of and
/// its record (the record [`Store::game`] gives, without the other sources).
#[derive(Debug, Clone)]
pub struct GameToWrite {
    pub id: i64,
    pub date: Option<String>,
    pub sente: Option<String>,
    pub gote: Option<String>,
    pub record: Record,
}

/// A read transaction: the queries asked through the store while it is held see one state of
/// the database, and SQLite takes its locks once for all of them instead of once a query.
/// Ended (nothing was written) when dropped.
pub struct ReadTransaction<'a> {
    _tx: rusqlite::Transaction<'a>,
}

/// The columns a game's record is made from, in the order [`read_record`] reads them (first
/// in a `SELECT`), and the players' table joined for them.
macro_rules! record_columns {
    () => {
        "g.id, g.date, ps.name, pg.name, g.event, g.opening, g.title, g.handicap, g.headers,
        g.start_sfen, g.moves, g.times, g.terminal, g.tree, g.comments, g.incomplete"
    };
}
macro_rules! players_joined {
    () => {
        "LEFT JOIN players ps ON ps.id = g.sente_id LEFT JOIN players pg ON pg.id = g.gote_id"
    };
}

/// The columns a record file is written from ([`to_write`] reads them), for a `WHERE`.
const TO_WRITE: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM games g ",
    players_joined!()
);

/// A game as [`Store::game`] gives it, for a `WHERE`: the record's columns, then the
/// game's own source, its place there, format, plies, winner and source id.
const STORED: &str = concat!(
    "SELECT ",
    record_columns!(),
    ", s.path, g.game_index, g.format, g.plies, g.winner, g.source_id
     FROM games g JOIN sources s ON s.id = g.source_id ",
    players_joined!()
);

/// A game as a record file is written from it, from a row of [`TO_WRITE`]: the record
/// [`Store::game`] gives (its main line replayed quietly).
fn to_write(r: &rusqlite::Row<'_>) -> Result<GameToWrite, StoreError> {
    Ok(read_record(r, Replay::Quiet)?.0)
}

/// The game's record from a row that starts with [`record_columns`], its main line replayed
/// as `replay` says, with the columns a file name is made of; and its event and opening.
fn read_record(
    r: &rusqlite::Row<'_>,
    replay: Replay,
) -> Result<(GameToWrite, Option<String>, Option<String>), StoreError> {
    let id: i64 = r.get(0)?;
    let sente: Option<String> = r.get(2)?;
    let gote: Option<String> = r.get(3)?;
    let event: Option<String> = r.get(4)?;
    let opening: Option<String> = r.get(5)?;
    let title: Option<String> = r.get(6)?;
    let handicap: String = r.get(7)?;
    let headers = match r.get::<_, Option<String>>(8)? {
        Some(h) => decode_headers(
            &h,
            HeaderColumns {
                sente: sente.as_deref(),
                gote: gote.as_deref(),
                event: event.as_deref(),
                opening: opening.as_deref(),
                title: title.as_deref(),
                handicap: Some(&handicap),
            },
        ),
        None => Vec::new(),
    };
    let comments: Option<String> = r.get(14)?;
    let comments = decode_comments(id, comments.as_deref())?;
    let cols = StoredColumns {
        id,
        start_sfen: r.get(9)?,
        handicap,
        moves: r.get(10)?,
        times: r.get(11)?,
        terminal: r.get(12)?,
        tree: stored_tree(id, r.get_ref(13)?)?,
        headers,
        comments,
    };
    let mut record = record_from(cols, replay)?;
    record.incomplete = r.get(15)?;
    let game = GameToWrite {
        id,
        date: r.get(1)?,
        sente,
        gote,
        record,
    };
    Ok((game, event, opening))
}

impl Store {
    /// Starts a [`ReadTransaction`] on this store's connection.
    pub fn read_transaction(&self) -> Result<ReadTransaction<'_>, StoreError> {
        Ok(ReadTransaction {
            _tx: self.conn.unchecked_transaction()?,
        })
    }

    /// The game with this id, or `None`.
    pub fn game(&self, id: i64) -> Result<Option<StoredGame>, StoreError> {
        let Some((mut game, source)) = self.game_without_sources(id, Replay::Rules)? else {
            return Ok(None);
        };
        // The first source is the game's own; game_sources holds the others.
        let mut sources: Vec<(i64, i64, String)> = self
            .conn
            .prepare_cached(
                "SELECT s.id, gs.game_index, s.path FROM game_sources gs
                 JOIN sources s ON s.id = gs.source_id WHERE gs.game_id = ?1",
            )?
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<_, _>>()?;
        sources.push((source, game.game_index, game.file.clone()));
        sources.sort();
        game.sources = sources.into_iter().map(|s| s.2).collect();
        Ok(Some(game))
    }

    /// The game with this id as a record file is written from it, or `None`: [`Store::game`]
    /// without the query for its other sources, and with the main line's moves replayed
    /// without working out the rules each broke (their `violations` are empty: no writer
    /// reads them). A move that cannot be played is the same error.
    pub fn game_to_write(&self, id: i64) -> Result<Option<GameToWrite>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("{TO_WRITE} WHERE g.id = ?1"))?;
        let mut rows = stmt.query([id])?;
        match rows.next()? {
            Some(r) => Ok(Some(to_write(r)?)),
            None => Ok(None),
        }
    }

    /// [`Store::game_to_write`] of each of `ids`, in their order, given to `each` with its id
    /// (`None`: no such game). Ascending ids that make up most of their range are read in one
    /// pass over the range, in the table's order, instead of one look-up each.
    pub fn games_to_write<E: From<StoreError>>(
        &self,
        ids: &[i64],
        mut each: impl FnMut(i64, Option<GameToWrite>) -> Result<(), E>,
    ) -> Result<(), E> {
        let (Some(&first), Some(&last)) = (ids.first(), ids.last()) else {
            return Ok(());
        };
        let ascending = ids.windows(2).all(|w| w[0] < w[1]);
        // How many games of the range are not asked for, and read for nothing.
        let unwanted = i128::from(last) - i128::from(first) + 1 - ids.len() as i128;
        if !ascending || unwanted > ids.len() as i128 {
            for &id in ids {
                each(id, self.game_to_write(id)?)?;
            }
            return Ok(());
        }
        let mut stmt = self
            .conn
            .prepare_cached(&format!(
                "{TO_WRITE} WHERE g.id BETWEEN ?1 AND ?2 ORDER BY g.id"
            ))
            .map_err(StoreError::from)?;
        let mut rows = stmt.query([first, last]).map_err(StoreError::from)?;
        let mut wanted = ids.iter().copied().peekable();
        while let Some(r) = rows.next().map_err(StoreError::from)? {
            let id: i64 = r.get(0).map_err(StoreError::from)?;
            // Asked for and passed over: not in the database.
            while let Some(w) = wanted.next_if(|&w| w < id) {
                each(w, None)?;
            }
            if wanted.next_if_eq(&id).is_some() {
                each(id, Some(to_write(r)?))?;
            }
        }
        for w in wanted {
            each(w, None)?;
        }
        Ok(())
    }

    /// The game with this id and its own source's id (the other sources not read), its main
    /// line replayed as `replay` says.
    fn game_without_sources(
        &self,
        id: i64,
        replay: Replay,
    ) -> Result<Option<(StoredGame, i64)>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("{STORED} WHERE g.id = ?1"))?;
        let mut rows = stmt.query([id])?;
        let Some(r) = rows.next()? else {
            return Ok(None);
        };
        let (w, event, opening) = read_record(r, replay)?;
        let game = StoredGame {
            id,
            file: r.get(16)?,
            game_index: r.get(17)?,
            format: r.get(18)?,
            date: w.date,
            sente: w.sente,
            gote: w.gote,
            event,
            opening,
            plies: r.get(19)?,
            winner: r.get(20)?,
            sources: Vec::new(),
            incomplete: w.record.incomplete,
            record: w.record,
        };
        Ok(Some((game, r.get(21)?)))
    }

    /// [`Store::game_line`], kept for the next questions while the database does not change
    /// (a question about positions asks [`Store::position_index`] first, which checks).
    pub fn kept_game_line(&self, id: i64) -> Result<Option<std::rc::Rc<GameLine>>, StoreError> {
        if let Some(line) = self.line_cache.borrow().lines.get(&id) {
            return Ok(Some(std::rc::Rc::clone(line)));
        }
        let Some(line) = self.game_line(id)?.map(std::rc::Rc::new) else {
            return Ok(None);
        };
        let mut kept = self.line_cache.borrow_mut();
        if kept.order.len() >= KEPT_LINES
            && let Some(old) = kept.order.pop_front()
        {
            kept.lines.remove(&old);
        }
        kept.order.push_back(id);
        kept.lines.insert(id, std::rc::Rc::clone(&line));
        Ok(Some(line))
    }

    /// A game's start position and main line, without the rest of the record (for
    /// replays).
    pub fn game_line(&self, id: i64) -> Result<Option<GameLine>, StoreError> {
        type Row = (
            Option<String>,
            String,
            Vec<u8>,
            bool,
            Option<String>,
            Option<String>,
        );
        let row: Option<Row> = self
            .conn
            .prepare_cached(
                "SELECT start_sfen, handicap, moves, tree IS NOT NULL, date, winner
                 FROM games WHERE id = ?1",
            )?
            .query_row([id], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })
            .optional()?;
        let Some((sfen, handicap, moves, has_tree, date, winner)) = row else {
            return Ok(None);
        };
        let (start, moves) = main_line(id, sfen.as_deref(), &handicap, &moves)?;
        Ok(Some(GameLine {
            start,
            moves,
            has_tree,
            date: date
                .as_deref()
                .and_then(kifudex_notation::dates::GameDate::parse),
            winner,
        }))
    }
}
