//! What every reader shares once its syntax is read: the lines open in the record's tree,
//! each with the position its next move is played on; opening a variation at a move of its
//! parent; playing a move with the rules it broke; ending a line at a move that cannot be
//! read or played (the error at its line and column, the rest of the line skipped, the
//! record incomplete when it is the main line); lines read into nothing (a variation placed
//! nowhere); what is written between the moves (comments, engine lines, bookmarks) and the
//! end of a line; and the most moves a record holds. KIF and KI2, PSN, CSA, JKF, USI and the
//! move list build their records through these; the readers keep only their syntax.

use std::cell::Cell;
use std::rc::Rc;

use super::movetext::{MoveTextError, MoveTextErrorKind};
use super::record::{
    Line, MAX_RECORD_MOVES, MoveTime, ReadError, Record, Terminal, TerminalKind, push_move,
};
use kifudex_shogi::{Move, Position, Rule, Square};

/// The moves a record holds so far, shared by all its open lines, and whether reaching
/// [`MAX_RECORD_MOVES`] was reported.
#[derive(Default)]
struct Budget {
    played: Cell<usize>,
    reported: Cell<bool>,
}

/// How a comment line is read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Remark {
    /// A comment, whatever it starts with (PSN).
    Plain,
    /// A comment, or engine output when it starts with `*` (KIF's `**`, CSA's `'**`, JKF's
    /// `*`): the `*` is taken off and the line kept apart from the comments. On a line's end
    /// both are comments, and an engine line keeps its `*`.
    MaybeEngine,
}

impl Remark {
    /// The engine line `text` is (without its `*`), or `None` for a comment.
    fn engine(self, text: &str) -> Option<&str> {
        text.strip_prefix('*')
            .filter(|_| self == Remark::MaybeEngine)
    }
}

/// A comment on the start position (before any move of the main line).
pub(crate) fn start_comment(rec: &mut Record, text: String, how: Remark) {
    match how.engine(&text) {
        Some(e) => rec.start_engine.push(e.to_string()),
        None => rec.start_comments.push(text),
    }
}

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
    /// The positions before every [`CHECKPOINT`]-th move of the line (with the square of the
    /// move before), made as variations ask for them: a variation replays at most that many
    /// moves, so that a record with a variation at every move reads in linear time.
    checkpoints: Vec<(Position, Option<Square>)>,
    /// The record's moves, counted across all its lines.
    budget: Rc<Budget>,
}

/// How many moves apart [`OpenLine`] keeps the positions variations start from.
const CHECKPOINT: usize = 32;

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
            checkpoints: Vec::new(),
            budget: Rc::default(),
        }
    }

    /// A line read into nothing from ply `first_ply` on: a variation the reader cannot place.
    pub fn nowhere(first_ply: usize) -> OpenLine {
        OpenLine {
            // A path that leads to no line: what is read into it is dropped.
            path: vec![(usize::MAX, 0)],
            first_ply,
            start: Position::empty(),
            start_last_to: None,
            pos: Position::empty(),
            last_to: None,
            dead: true,
            checkpoints: Vec::new(),
            budget: Rc::default(),
        }
    }

    /// Whether it is the main line.
    pub fn is_main(&self) -> bool {
        self.path.is_empty()
    }

    /// Whether the record holds [`MAX_RECORD_MOVES`] moves: no move is played any more, and
    /// the readers open no more variations (they read them into nothing, silently).
    pub fn is_full(&self) -> bool {
        self.budget.played.get() >= MAX_RECORD_MOVES
    }

    /// Whether the record is full and this is the first time it is told: the caller then
    /// reports it ([`full_message`]) where reading stopped.
    pub fn report_full(&self) -> bool {
        self.is_full() && !self.budget.reported.replace(true)
    }

    /// The line in the record's tree (`None` for a line read into nothing).
    #[inline]
    pub fn line<'a>(&self, main: &'a mut Line) -> Option<&'a mut Line> {
        line_at(main, &self.path)
    }

    /// Opens a variation of this line's move `index` (0-based in the line): an empty line
    /// added to that move's variations, with the position before the move. `None` when the
    /// line has no such move.
    pub fn branch(&mut self, main: &mut Line, index: usize) -> Option<OpenLine> {
        let line = self.line(main).filter(|l| index < l.moves.len())?;
        if self.checkpoints.is_empty() {
            self.checkpoints
                .push((self.start.clone(), self.start_last_to));
        }
        let want = index / CHECKPOINT;
        while self.checkpoints.len() <= want {
            let from = (self.checkpoints.len() - 1) * CHECKPOINT;
            let Some((mut pos, mut last_to)) = self.checkpoints.last().cloned() else {
                break;
            };
            for m in &line.moves[from..from + CHECKPOINT] {
                let _ = pos.play(m.mv);
                last_to = Some(m.mv.to());
            }
            self.checkpoints.push((pos, last_to));
        }
        let (mut pos, mut last_to) = self.checkpoints[want].clone();
        for m in &line.moves[want * CHECKPOINT..index] {
            let _ = pos.play(m.mv);
            last_to = Some(m.mv.to());
        }
        self.branch_from(main, index, pos, last_to)
    }

    /// [`branch`](Self::branch) when the caller kept the position before move `index` (and
    /// the square of the move before it): no replay, so that a line with a variation at every
    /// move reads in linear time.
    pub fn branch_from(
        &self,
        main: &mut Line,
        index: usize,
        pos: Position,
        last_to: Option<Square>,
    ) -> Option<OpenLine> {
        let line = self.line(main).filter(|l| index < l.moves.len())?;
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
            checkpoints: Vec::new(),
            budget: Rc::clone(&self.budget),
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
        self.play_checked(line, mv, time, text, false)
    }

    /// Plays `mv` as [`play`](Self::play) does, but refuses a move that no piece of the mover
    /// can make (the move list reads moves in several notations and trusts only those that fit
    /// the board); after an error the line must be ended with [`fail`](Self::fail).
    pub fn play_movable(
        &mut self,
        line: &mut Line,
        mv: Move,
        text: &str,
    ) -> Result<(), MoveTextError> {
        self.play_checked(line, mv, None, text, true)
    }

    #[inline(always)]
    fn play_checked(
        &mut self,
        line: &mut Line,
        mv: Move,
        time: Option<MoveTime>,
        text: &str,
        refuse_movement: bool,
    ) -> Result<(), MoveTextError> {
        let played = self.budget.played.get();
        if played >= MAX_RECORD_MOVES {
            return Err(too_many(text));
        }
        match self.pos.play(mv) {
            Ok(v) if refuse_movement && v.contains(Rule::IllegalMovement) => Err(unplayable(
                text,
                &"no piece of the mover can make that move",
            )),
            Ok(violations) => {
                push_move(&mut line.moves, mv, time, violations);
                self.last_to = Some(mv.to());
                self.budget.played.set(played + 1);
                Ok(())
            }
            Err(e) => Err(unplayable(text, &e)),
        }
    }

    /// A comment read after the line's last move: on its end once it has one, else on its
    /// last move, else (the main line before its first move) on the start position. `Err`
    /// gives the comment back when it has no place: a variation before its first move. A line
    /// read into nothing drops it.
    pub fn comment(&self, rec: &mut Record, text: String, how: Remark) -> Result<(), String> {
        let main = self.is_main();
        let Some(line) = self.line(&mut rec.main) else {
            return Ok(());
        };
        match (&mut line.terminal, line.moves.last_mut()) {
            (Some(t), _) => t.comments.push(text),
            (None, Some(m)) => match how.engine(&text) {
                Some(e) => m.engine.push(e.to_string()),
                None => m.comments.push(text),
            },
            (None, None) if main => start_comment(rec, text, how),
            (None, None) => return Err(text),
        }
        Ok(())
    }

    /// A bookmark (KIF `&`) read after the line's last move: on that move, or on the start
    /// position before the first. A line read into nothing drops it.
    pub fn bookmark(&self, rec: &mut Record, mark: String) {
        let Some(line) = self.line(&mut rec.main) else {
            return;
        };
        match line.moves.last_mut() {
            Some(m) => m.bookmarks.push(mark),
            None => rec.start_bookmarks.push(mark),
        }
    }

    /// Ends the line with `kind`, reached with `time` (a line read into nothing stays so).
    pub fn end(&self, rec: &mut Record, kind: TerminalKind, time: Option<MoveTime>) {
        if let Some(line) = self.line(&mut rec.main) {
            line.terminal = Some(Terminal::new(kind, time));
        }
    }

    /// Ends the line at a move that could not be read or played: `error` is recorded, what
    /// follows in the line is skipped, and a record whose main line ends so is incomplete.
    pub fn fail(&mut self, rec: &mut Record, error: ReadError) {
        // Once the record is full, the first line that stops says so, where it stops; the
        // rest stop silently (nothing more is read).
        if !self.is_full() {
            rec.errors.push(error);
        } else if self.report_full() {
            rec.errors
                .push(ReadError::new(error.line, error.column, full_message()));
        }
        self.dead = true;
        rec.incomplete |= self.is_main();
    }
}

/// A move the board cannot make (out of the way of the hot path that plays moves).
#[cold]
#[inline(never)]
fn unplayable(text: &str, why: &dyn std::fmt::Display) -> MoveTextError {
    MoveTextError::new(
        MoveTextErrorKind::Unplayable,
        format!("{text} cannot be played: {why}"),
    )
}

/// A move after the record's last (see [`MAX_RECORD_MOVES`]).
#[cold]
#[inline(never)]
fn too_many(text: &str) -> MoveTextError {
    MoveTextError::new(
        MoveTextErrorKind::TooMany,
        format!("{text}: the record already holds {MAX_RECORD_MOVES} moves"),
    )
}

/// The error of a record that holds [`MAX_RECORD_MOVES`] moves.
pub(crate) fn full_message() -> String {
    format!(
        "the record holds {MAX_RECORD_MOVES} moves, as many as kifudex reads in one: the rest is not read"
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    fn usi(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    #[test]
    fn remarks_go_where_the_line_is() {
        let mut rec = Record::default();
        let main = OpenLine::main(Position::startpos());
        // Before the first move: the start position; `*` makes an engine line.
        assert_eq!(
            main.comment(&mut rec, "a".into(), Remark::MaybeEngine),
            Ok(())
        );
        assert_eq!(
            main.comment(&mut rec, "*e".into(), Remark::MaybeEngine),
            Ok(())
        );
        assert_eq!(main.comment(&mut rec, "*p".into(), Remark::Plain), Ok(()));
        main.bookmark(&mut rec, "b0".into());
        assert_eq!(rec.start_comments, ["a", "*p"]);
        assert_eq!(rec.start_engine, ["e"]);
        assert_eq!(rec.start_bookmarks, ["b0"]);

        let mut main = main;
        let mut line = std::mem::take(&mut rec.main);
        main.play(&mut line, usi("7g7f"), None, "7g7f").unwrap();
        rec.main = line;
        main.comment(&mut rec, "c".into(), Remark::MaybeEngine)
            .unwrap();
        main.comment(&mut rec, "*f".into(), Remark::MaybeEngine)
            .unwrap();
        main.bookmark(&mut rec, "b1".into());
        let node = &rec.main.moves[0];
        assert_eq!(
            (&node.comments, &node.engine, &node.bookmarks),
            (
                &vec!["c".to_string()],
                &vec!["f".to_string()],
                &vec!["b1".to_string()]
            )
        );

        // A variation before its first move has no place for a comment.
        let variation = main.branch(&mut rec.main, 0).unwrap();
        assert_eq!(variation.first_ply, 1);
        assert_eq!(
            variation.comment(&mut rec, "v".into(), Remark::Plain),
            Err("v".to_string())
        );

        // On the end, engine lines keep their `*`.
        main.end(&mut rec, TerminalKind::Resign, None);
        main.comment(&mut rec, "*g".into(), Remark::MaybeEngine)
            .unwrap();
        let end = rec.main.terminal.as_ref().unwrap();
        assert_eq!(
            (end.kind, &end.comments),
            (TerminalKind::Resign, &vec!["*g".to_string()])
        );
        assert_eq!(rec.main.moves[0].engine, ["f"]);

        // A line read into nothing drops what is read into it.
        let before = rec.clone();
        let nowhere = OpenLine::nowhere(3);
        nowhere
            .comment(&mut rec, "x".into(), Remark::Plain)
            .unwrap();
        nowhere.bookmark(&mut rec, "y".into());
        nowhere.end(&mut rec, TerminalKind::Abort, None);
        assert_eq!(rec, before);
    }

    #[test]
    fn a_variation_starts_where_a_replay_of_its_parent_says() {
        // A main line long enough for several checkpoints, then a variation at every move in
        // an order that goes back and forth, and variations of variations.
        let shuffle = [
            "5i5h", "5a5b", "5h5i", "5b5a", "2g2f", "8c8d", "2f2e", "8d8e",
        ];
        let mut rec = Record::default();
        let mut main = OpenLine::main(Position::startpos());
        let mut line = Line::default();
        for i in 0..150 {
            let m = if i < 4 {
                shuffle[i + 4]
            } else {
                shuffle[i % 4]
            };
            main.play(&mut line, usi(m), None, m).unwrap();
        }
        rec.main = line;
        let replay = |upto: usize, rec: &Record| {
            let mut pos = Position::startpos();
            let mut last = None;
            for m in &rec.main.moves[..upto] {
                pos.play(m.mv).unwrap();
                last = Some(m.mv.to());
            }
            (pos, last)
        };
        let order = (0..150).rev().chain([31, 32, 33, 0, 64, 149, 100]);
        for index in order {
            let mut v = main.branch(&mut rec.main, index).unwrap();
            let (pos, last) = replay(index, &rec);
            assert_eq!(
                (v.start.to_sfen(), v.start_last_to),
                (pos.to_sfen(), last),
                "{index}"
            );
            assert_eq!((v.pos.to_sfen(), v.first_ply), (pos.to_sfen(), index + 1));
            // The variation plays the main line's move again, then branches itself.
            let mv = rec.main.moves[index].mv;
            let mut vline = std::mem::take(
                main.line(&mut rec.main).unwrap().moves[index]
                    .variations
                    .last_mut()
                    .unwrap(),
            );
            v.play(&mut vline, mv, None, "again").unwrap();
            *main.line(&mut rec.main).unwrap().moves[index]
                .variations
                .last_mut()
                .unwrap() = vline;
            let inner = v.branch(&mut rec.main, 0).unwrap();
            assert_eq!(inner.start.to_sfen(), pos.to_sfen());
        }
        assert!(main.branch(&mut rec.main, 150).is_none());
    }

    #[test]
    fn a_record_holds_at_most_max_record_moves_across_its_lines() {
        let shuffle = ["5i5h", "5a5b", "5h5i", "5b5a"];
        let mut rec = Record::default();
        let mut main = OpenLine::main(Position::startpos());
        let mut line = Line::default();
        for m in shuffle {
            main.play(&mut line, usi(m), None, m).unwrap();
        }
        rec.main = line;
        // A variation of the first move plays the rest: the budget is the record's.
        let mut v = main.branch(&mut rec.main, 0).unwrap();
        let mut vline = Line::default();
        for i in 0..MAX_RECORD_MOVES - 4 {
            assert!(!v.is_full());
            let m = shuffle[i % 4];
            v.play(&mut vline, usi(m), None, m).unwrap();
        }
        assert!(v.is_full() && main.is_full());
        assert_eq!(vline.moves.len(), MAX_RECORD_MOVES - 4);
        // The main line can play no more: its first stop says why, where it stopped.
        let mut line = std::mem::take(&mut rec.main);
        let e = main.play(&mut line, usi("5i5h"), None, "5i5h").unwrap_err();
        assert_eq!(e.kind(), MoveTextErrorKind::TooMany);
        assert_eq!(line.moves.len(), 4);
        rec.main = line;
        main.fail(
            &mut rec,
            ReadError::new(7, 3, "move 5: whatever the reader says"),
        );
        assert_eq!(rec.errors, [ReadError::new(7, 3, full_message())]);
        assert!(rec.incomplete);
        // Said once: the variation's stop, and asking again, add nothing.
        v.fail(&mut rec, ReadError::new(9, 1, "another"));
        assert!(!main.report_full());
        assert_eq!(rec.errors.len(), 1);
    }

    #[test]
    fn a_movable_play_refuses_what_no_piece_can_do_and_keeps_broken_rules() {
        let mut line = Line::default();
        let mut open = OpenLine::main(Position::startpos());
        let e = open
            .play_movable(&mut line, usi("2g2e"), "P-2e")
            .unwrap_err();
        assert_eq!(e.kind(), MoveTextErrorKind::Unplayable);
        assert_eq!(
            e.message(),
            "P-2e cannot be played: no piece of the mover can make that move"
        );
        assert!(line.moves.is_empty());
        // Another rule broken (二歩 here) is kept with the move, as a record's data.
        let start =
            Position::from_sfen("lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1")
                .unwrap();
        let mut line = Line::default();
        let mut open = OpenLine::main(start);
        open.play_movable(&mut line, usi("P*5e"), "P*5e").unwrap();
        assert!(line.moves[0].violations.contains(Rule::TwoPawns));
        assert_eq!(open.last_to, Some(usi("P*5e").to()));
    }
}
