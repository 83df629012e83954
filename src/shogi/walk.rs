//! A position reduced to its board, hands and side to move, for replaying moves that only
//! need to be named or checked for being playable: no hashes, kings or check flags to keep
//! up to date, so a move costs a fraction of [`Position::play`].

use super::moves::Move;
use super::position::Position;
use super::rules::{MoveError, check_possible};
use super::types::{Color, Hand, Piece, Square};

/// The board, hands and side to move of a [`Position`], moves played as
/// [`Position::play_quietly`] plays them: the same errors, and afterwards the board, hands
/// and side to move of the position it leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardWalk {
    board: [Option<Piece>; 81],
    hands: [Hand; 2],
    side: Color,
}

impl BoardWalk {
    pub fn of(pos: &Position) -> BoardWalk {
        BoardWalk {
            board: *pos.board(),
            hands: [*pos.hand(Color::Black), *pos.hand(Color::White)],
            side: pos.side_to_move(),
        }
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plays `mv` if it is physically possible (see [`Position::play_quietly`]); on `Err`
    /// nothing changes.
    pub fn play_quietly(&mut self, mv: Move) -> Result<(), MoveError> {
        let us = self.side;
        check_possible(&self.board, &self.hands[us.index()], us, mv)?;
        // The steps of Position::apply, on the board and hands alone.
        match mv {
            Move::Board { from, to, promote } => {
                if let Some(captured) = self.board[to.index()].take() {
                    let hand = &mut self.hands[us.index()];
                    let kind = captured.kind.unpromoted();
                    hand.set(kind, (hand.count(kind) + 1).min(kind.total()));
                }
                if let Some(mut p) = self.board[from.index()].take() {
                    if promote && let Some(k) = p.kind.promoted() {
                        p.kind = k;
                    }
                    self.board[to.index()] = Some(p);
                }
            }
            Move::Drop { kind, to } => {
                let hand = &mut self.hands[us.index()];
                hand.set(kind, hand.count(kind).saturating_sub(1));
                self.board[to.index()] = Some(Piece::new(us, kind));
            }
        }
        self.side = us.opponent();
        Ok(())
    }
}
