//! What the readers of records with variations (KIF and KI2, PSN) share once their syntax is
//! read: the lines open in the record's tree, each with the position its next move is played
//! on; opening a variation at a move of its parent; playing a move with the rules it broke;
//! ending a line at a move that cannot be read or played (the error at its line and column,
//! the rest of the line skipped, the record incomplete when it is the main line); lines that
//! are read into nothing (too deep, or placed nowhere).

use super::movetext::{MoveTextError, MoveTextErrorKind};
use super::record::{Line, MoveTime, ReadError, Record, push_move};
use crate::shogi::{Move, Position, Square};

/// One line of the record being read: where it is in the tree and where its play is.
pub(crate) struct OpenLine {
    /// Path from the main line: (move index, variation index) pairs.
    pub path: Vec<(usize, usize)>,
    /// Ply of the line's first move (1-based).
    pub first_ply: usize,
    /// The position before the line's first move, and the square the move before it went to.
    pub start: Position,
    pub start_last_to: Option<Square>,
    /// The position after the line's last move, and that move's square (for 同).
    pub pos: Position,
    pub last_to: Option<Square>,
    /// After a move that could not be played, the rest of this line is skipped.
    pub dead: bool,
    /// A variation nested deeper than [`MAX_VARIATION_DEPTH`](super::record::MAX_VARIATION_DEPTH)
    /// (or inside one): read into nothing, its moves only counted (in `skipped`), so that the
    /// variations within it are cut too.
    pub cut: bool,
    pub skipped: usize,
}

impl OpenLine {
    /// The main line, from `start`.
    pub fn main(start: Position) -> OpenLine {
        OpenLine {
            path: Vec::new(),
            first_ply: 1,
            start: start.clone(),
            start_last_to: None,
            pos: start,
            last_to: None,
            dead: false,
            cut: false,
            skipped: 0,
        }
    }

    /// A line read into nothing from ply `first_ply` on: a variation the reader cannot place
    /// (`cut`: one nested too deep).
    pub fn nowhere(first_ply: usize, cut: bool) -> OpenLine {
        OpenLine {
            // A path that leads to no line: what is read into it is dropped.
            path: vec![(usize::MAX, 0)],
            first_ply,
            start: Position::empty(),
            start_last_to: None,
            pos: Position::empty(),
            last_to: None,
            dead: true,
            cut,
            skipped: 0,
        }
    }

    /// Whether it is the main line.
    pub fn is_main(&self) -> bool {
        self.path.is_empty()
    }

    /// The line in the record's tree (`None` for a line read into nothing).
    #[inline]
    pub fn line<'a>(&self, main: &'a mut Line) -> Option<&'a mut Line> {
        line_at(main, &self.path)
    }

    /// Opens a variation of this line's move `index` (0-based in the line): an empty line
    /// added to that move's variations, with the position before the move. `None` when the
    /// line has no such move.
    pub fn branch(&self, main: &mut Line, index: usize) -> Option<OpenLine> {
        let line = self.line(main).filter(|l| index < l.moves.len())?;
        let mut pos = self.start.clone();
        let mut last_to = self.start_last_to;
        for m in &line.moves[..index] {
            let _ = pos.play(m.mv);
            last_to = Some(m.mv.to());
        }
        let node = &mut line.moves[index];
        node.variations.push(Line::default());
        let mut path = self.path.clone();
        path.push((index, node.variations.len() - 1));
        Some(OpenLine {
            path,
            first_ply: self.first_ply + index,
            start: pos.clone(),
            start_last_to: last_to,
            pos,
            last_to,
            dead: false,
            cut: false,
            skipped: 0,
        })
    }

    /// Plays `mv` (written `text`) at the end of `line`, this line in the record, with its
    /// time and the rules it broke; a move the board cannot make at all is an error.
    #[inline]
    pub fn play(
        &mut self,
        line: &mut Line,
        mv: Move,
        time: Option<MoveTime>,
        text: &str,
    ) -> Result<(), MoveTextError> {
        match self.pos.play(mv) {
            Ok(violations) => {
                push_move(&mut line.moves, mv, time, violations);
                self.last_to = Some(mv.to());
                Ok(())
            }
            Err(e) => Err(MoveTextError::new(
                MoveTextErrorKind::Unplayable,
                format!("{text} cannot be played: {e}"),
            )),
        }
    }

    /// Ends the line at a move that could not be read or played: `error` is recorded, what
    /// follows in the line is skipped, and a record whose main line ends so is incomplete.
    pub fn fail(&mut self, rec: &mut Record, error: ReadError) {
        rec.errors.push(error);
        self.dead = true;
        rec.incomplete |= self.is_main();
    }
}

/// The line at `path` from the main line.
#[inline]
pub(crate) fn line_at<'a>(main: &'a mut Line, path: &[(usize, usize)]) -> Option<&'a mut Line> {
    let mut line = main;
    for &(m, v) in path {
        line = line.moves.get_mut(m)?.variations.get_mut(v)?;
    }
    Some(line)
}
