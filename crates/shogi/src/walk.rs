//! A position reduced to its board, hands and side to move, for replaying moves that only
//! need to be named or checked for being playable: no hashes, kings or check flags to keep
//! up to date, so a move costs a fraction of [`Position::play`].

use super::moves::Move;
use super::position::Position;
use super::rules::{MoveError, check_possible};
use super::types::{Color, Hand, Piece, Square};
use super::zobrist;

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

/// A [`BoardWalk`] that keeps the position's hash ([`Position::hash`]) up to date too: for
/// replays that only need each position's hash (a book looks for the positions a game
/// reaches late that other games reach early).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashWalk {
    walk: BoardWalk,
    /// [`Position::board_hash`]: the board and the side to move.
    board_key: u64,
    /// The hands' part of [`Position::hash`].
    hand_key: u64,
}

impl HashWalk {
    pub fn of(pos: &Position) -> HashWalk {
        HashWalk {
            walk: BoardWalk::of(pos),
            board_key: pos.board_hash(),
            hand_key: pos.hash() ^ pos.board_hash(),
        }
    }

    /// The hash [`Position::hash`] gives for the same position.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.board_key ^ self.hand_key
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.walk.side
    }

    /// Plays `mv` if it is physically possible (see [`Position::play_quietly`]); on `Err`
    /// nothing changes.
    pub fn play_quietly(&mut self, mv: Move) -> Result<(), MoveError> {
        let w = &mut self.walk;
        let us = w.side;
        check_possible(&w.board, &w.hands[us.index()], us, mv)?;
        // The steps of Position::apply, on the board, hands and their keys.
        let hand = &mut w.hands[us.index()];
        match mv {
            Move::Board { from, to, promote } => {
                if let Some(captured) = w.board[to.index()].take() {
                    self.board_key ^= zobrist::piece_key(captured, to);
                    let kind = captured.kind.unpromoted();
                    let n = hand.count(kind);
                    let m = (n + 1).min(kind.total());
                    self.hand_key ^=
                        zobrist::hand_key(us, kind, n) ^ zobrist::hand_key(us, kind, m);
                    hand.set(kind, m);
                }
                if let Some(mut p) = w.board[from.index()].take() {
                    self.board_key ^= zobrist::piece_key(p, from);
                    if promote && let Some(k) = p.kind.promoted() {
                        p.kind = k;
                    }
                    w.board[to.index()] = Some(p);
                    self.board_key ^= zobrist::piece_key(p, to);
                }
            }
            Move::Drop { kind, to } => {
                let n = hand.count(kind);
                let m = n.saturating_sub(1);
                self.hand_key ^= zobrist::hand_key(us, kind, n) ^ zobrist::hand_key(us, kind, m);
                hand.set(kind, m);
                let p = Piece::new(us, kind);
                w.board[to.index()] = Some(p);
                self.board_key ^= zobrist::piece_key(p, to);
            }
        }
        w.side = us.opponent();
        self.board_key ^= zobrist::SIDE_TOGGLE;
        Ok(())
    }
}
