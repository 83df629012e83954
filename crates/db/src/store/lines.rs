//! Main lines read in bulk, for scans that replay every position of many games (pattern
//! search): the games of an id range or of a list of ids, each handed over borrowed from its
//! row (the two-byte moves as stored, the start position built once per distinct start).

use rusqlite::types::ValueRef;

use super::codec::start_position;
use super::{Store, StoreError};
use kifudex_shogi::Position;

/// One game's main line, borrowed from its row.
#[derive(Debug)]
pub struct LineRow<'a> {
    pub id: i64,
    pub start: &'a Position,
    /// The start's number in the [`Starts`] the rows were read with: rows with the same
    /// start have the same number while the reader keeps it, whatever call read them, and a
    /// number is never given to another start.
    pub start_key: usize,
    /// Two bytes a move: [`Move::to_u16`](kifudex_shogi::Move::to_u16) codes, little-endian.
    pub moves: &'a [u8],
}

/// Which games to read.
#[derive(Debug, Clone, Copy)]
pub enum LineSpan<'a> {
    /// Every game with an id in `first..=last`.
    Range(i64, i64),
    /// These games (ascending ids).
    Ids(&'a [i64]),
}

/// Start positions met by the reads of one reader, by their columns, each with a number:
/// almost every game starts from one of a handful. Kept by the caller from one
/// [`Store::each_line`] to the next, so that a start keeps its number.
#[derive(Debug, Default)]
pub struct Starts {
    known: Vec<(Option<String>, String, Position, usize)>,
    /// The number the next start met gets.
    next: usize,
}

impl Starts {
    /// The most starts kept: a collection of problems, each from its own position, is read
    /// without the list growing or its search slowing; past it the list starts again (and
    /// starts met again get new numbers).
    pub const KEPT: usize = 64;

    fn get(
        &mut self,
        id: i64,
        sfen: Option<&str>,
        handicap: &str,
    ) -> Result<(usize, &Position), StoreError> {
        let i = match self
            .known
            .iter()
            .position(|(s, h, ..)| s.as_deref() == sfen && h == handicap)
        {
            Some(i) => i,
            None => {
                let pos = start_position(id, sfen, handicap)?;
                if self.known.len() >= Self::KEPT {
                    self.known.clear();
                }
                self.known.push((
                    sfen.map(str::to_string),
                    handicap.to_string(),
                    pos,
                    self.next,
                ));
                self.next += 1;
                self.known.len() - 1
            }
        };
        let (_, _, pos, key) = &self.known[i];
        Ok((*key, pos))
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
            let (start_key, start) = starts.get(id, sfen, handicap)?;
            f(&LineRow {
                id,
                start,
                start_key,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A collection where every game has its own start keeps a bounded list; a start keeps
    /// its number while kept, and no number is given twice.
    #[test]
    fn starts_are_kept_bounded_and_numbered_once() {
        let mut starts = Starts::default();
        let sfen =
            |n: usize| format!("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - {n}");
        let mut seen = std::collections::HashSet::new();
        for n in 1..=1000 {
            let (key, _) = starts.get(n as i64, Some(&sfen(n)), "平手").unwrap();
            assert!(seen.insert(key), "number {key} given twice");
            let (again, _) = starts.get(n as i64, Some(&sfen(n)), "平手").unwrap();
            assert_eq!(again, key);
            assert!(starts.known.len() <= Starts::KEPT);
        }
        let (even, pos) = starts.get(0, None, "平手").unwrap();
        assert_eq!(*pos, Position::startpos());
        assert_eq!(starts.get(0, None, "平手").unwrap().0, even);
    }
}
