//! Main lines read in bulk, for scans that replay every position of many games (pattern
//! search): the games of an id range or of a list of ids, each handed over borrowed from its
//! row (the two-byte moves as stored, the start position built once per distinct start).

use rusqlite::types::ValueRef;

use super::codec::start_position;
use super::{Store, StoreError};
use kifudex_shogi::{Move, Position};

/// One game's main line, borrowed from its row.
#[derive(Debug)]
pub struct LineRow<'a> {
    pub id: i64,
    pub start: &'a Position,
    /// The start's place in the [`Starts`] the rows were read with: rows with the same
    /// start have the same number, whatever call read them.
    pub start_index: usize,
    /// Two bytes a move: [`Move::to_u16`] codes, little-endian.
    pub moves: &'a [u8],
}

impl LineRow<'_> {
    /// The moves of the main line.
    pub fn plies(&self) -> usize {
        self.moves.len() / 2
    }

    /// The `i`-th move (0-based), or `None` past the end or for a code no move gives.
    #[inline]
    pub fn move_at(&self, i: usize) -> Option<Move> {
        let b = self.moves.get(2 * i..2 * i + 2)?;
        Move::from_u16(u16::from_le_bytes([b[0], b[1]]))
    }

    /// The destination square index (0–80) of each move, without decoding the rest: what a
    /// scan looks at to rule a game out before replaying it.
    pub fn destinations(&self) -> impl Iterator<Item = u8> + '_ {
        self.moves.chunks_exact(2).map(|c| c[0] & 0x7f)
    }
}

/// Which games to read.
#[derive(Debug, Clone, Copy)]
pub enum LineSpan<'a> {
    /// Every game with an id in `first..=last`.
    Range(i64, i64),
    /// These games (ascending ids).
    Ids(&'a [i64]),
}

/// Start positions met by the reads of one reader, by their columns: almost every game
/// starts from one of a handful. Kept by the caller from one [`Store::each_line`] to the
/// next, so that a start's number stays the same.
#[derive(Debug, Default)]
pub struct Starts {
    known: Vec<(Option<String>, String, Position)>,
}

impl Starts {
    fn get(
        &mut self,
        id: i64,
        sfen: Option<&str>,
        handicap: &str,
    ) -> Result<(usize, &Position), StoreError> {
        let i = match self
            .known
            .iter()
            .position(|(s, h, _)| s.as_deref() == sfen && h == handicap)
        {
            Some(i) => i,
            None => {
                let pos = start_position(id, sfen, handicap)?;
                self.known
                    .push((sfen.map(str::to_string), handicap.to_string(), pos));
                self.known.len() - 1
            }
        };
        Ok((i, &self.known[i].2))
    }
}

/// The columns a line is read from, for a `WHERE`.
const LINE: &str = "SELECT id, start_sfen, handicap, moves FROM games";

fn text<'a>(id: i64, v: ValueRef<'a>, what: &str) -> Result<Option<&'a str>, StoreError> {
    match v {
        ValueRef::Null => Ok(None),
        ValueRef::Text(t) => std::str::from_utf8(t)
            .map(Some)
            .map_err(|_| StoreError::Corrupt(id, format!("its {what} is no UTF-8"))),
        _ => Err(StoreError::Corrupt(id, format!("its {what} is no text"))),
    }
}

impl Store {
    /// Hands `f` the main line of each game of `span` with at least `min_plies` moves, in id
    /// order. A list of ids that makes up most of its range is read in one pass over the
    /// range, in the table's order; a sparse one is looked up game by game.
    pub fn each_line(
        &self,
        span: LineSpan<'_>,
        min_plies: u32,
        starts: &mut Starts,
        mut f: impl FnMut(&LineRow<'_>),
    ) -> Result<(), StoreError> {
        let mut hand = |r: &rusqlite::Row<'_>| -> Result<(), StoreError> {
            let id: i64 = r.get(0)?;
            let sfen = text(id, r.get_ref(1)?, "start position")?;
            let handicap = text(id, r.get_ref(2)?, "handicap")?.unwrap_or_default();
            let moves = match r.get_ref(3)? {
                ValueRef::Blob(b) if b.len().is_multiple_of(2) => b,
                _ => return Err(StoreError::Corrupt(id, "bad move list".to_string())),
            };
            let (start_index, start) = starts.get(id, sfen, handicap)?;
            f(&LineRow {
                id,
                start,
                start_index,
                moves,
            });
            Ok(())
        };
        let (first, last, wanted) = match span {
            LineSpan::Range(a, b) => (a, b, None),
            LineSpan::Ids(ids) => {
                let (Some(&a), Some(&b)) = (ids.first(), ids.last()) else {
                    return Ok(());
                };
                // How many games of the range are not asked for, and read for nothing.
                let unwanted = i128::from(b) - i128::from(a) + 1 - ids.len() as i128;
                if unwanted > ids.len() as i128 {
                    let mut stmt = self
                        .conn
                        .prepare_cached(&format!("{LINE} WHERE id = ?1 AND plies >= ?2"))?;
                    for &id in ids {
                        let mut rows = stmt.query(rusqlite::params![id, min_plies])?;
                        if let Some(r) = rows.next()? {
                            hand(r)?;
                        }
                    }
                    return Ok(());
                }
                (a, b, Some(ids))
            }
        };
        let mut stmt = self.conn.prepare_cached(&format!(
            "{LINE} WHERE id BETWEEN ?1 AND ?2 AND plies >= ?3 ORDER BY id"
        ))?;
        let mut rows = stmt.query(rusqlite::params![first, last, min_plies])?;
        let mut wanted = wanted.map(|w| w.iter().copied().peekable());
        while let Some(r) = rows.next()? {
            if let Some(w) = &mut wanted {
                let id: i64 = r.get(0)?;
                while w.next_if(|&x| x < id).is_some() {}
                if w.next_if_eq(&id).is_none() {
                    continue;
                }
            }
            hand(r)?;
        }
        Ok(())
    }
}
