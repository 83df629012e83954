//! The board a scan replays moves on: what stands on each square, and the squares of each
//! piece, side and of both sides as bit sets, so that a condition on a file, a camp or a
//! castle is a mask test; hands, kings and each side's material kept up to date. No hashes
//! and no check flags (check is worked out only when a query asks for it): a move costs a
//! few stores.

use kifudex_shogi::{Color, Hand, Move, Piece, PieceKind, Position, Square, attacked_on};

use super::ast::value;

/// Squares as a set: bit `i` for the square of index `i`.
pub(crate) type Squares = u128;

#[inline]
pub(crate) fn bit(sq: Square) -> Squares {
    1 << sq.index()
}

/// A colour and kind as one number, `colour × 14 + kind`.
#[inline]
pub(crate) fn slot(color: Color, kind: PieceKind) -> usize {
    color.index() * 14 + kind.index()
}

#[derive(Debug, Clone)]
pub(crate) struct Board {
    squares: [Option<Piece>; 81],
    /// Per slot, the squares holding that piece.
    pieces: [Squares; 28],
    /// Per side, the squares of its pieces.
    sides: [Squares; 2],
    hands: [Hand; 2],
    side: Color,
    kings: [Option<Square>; 2],
    material: [i64; 2],
}

/// What a move did: the piece moved (as it stood before) and the piece taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Moved {
    pub piece: Piece,
    pub captured: Option<Piece>,
}

impl Board {
    pub fn of(pos: &Position) -> Board {
        let mut b = Board {
            squares: [None; 81],
            pieces: [0; 28],
            sides: [0; 2],
            hands: [*pos.hand(Color::Black), *pos.hand(Color::White)],
            side: pos.side_to_move(),
            kings: [pos.king(Color::Black), pos.king(Color::White)],
            material: [0; 2],
        };
        for s in Square::all() {
            if let Some(p) = pos.piece_at(s) {
                b.put(s, p);
                b.material[p.color.index()] += value(p.kind);
            }
        }
        for c in Color::ALL {
            for (k, n) in b.hands[c.index()].iter() {
                b.material[c.index()] += value(k) * i64::from(n);
            }
        }
        b
    }

    #[inline]
    fn put(&mut self, s: Square, p: Piece) {
        self.squares[s.index()] = Some(p);
        self.pieces[slot(p.color, p.kind)] |= bit(s);
        self.sides[p.color.index()] |= bit(s);
    }

    #[inline]
    fn take(&mut self, s: Square) -> Option<Piece> {
        let p = self.squares[s.index()].take()?;
        self.pieces[slot(p.color, p.kind)] &= !bit(s);
        self.sides[p.color.index()] &= !bit(s);
        Some(p)
    }

    /// Plays a move that is physically possible (the mover's piece on the origin, no piece
    /// of the mover's and no king on the destination, a promotion only of a piece that
    /// promotes, a drop from the hand on an empty square), as the board's rules play it;
    /// `None` (and nothing changed) for any other.
    pub fn play(&mut self, mv: Move) -> Option<Moved> {
        let us = self.side;
        let moved = match mv {
            Move::Board { from, to, promote } => {
                let piece = self.squares[from.index()].filter(|p| p.color == us)?;
                let target = self.squares[to.index()];
                if target.is_some_and(|t| t.color == us || t.kind == PieceKind::King)
                    || (promote && !piece.kind.can_promote())
                {
                    return None;
                }
                let captured = self.take(to);
                if let Some(c) = captured {
                    let kind = c.kind.unpromoted();
                    let hand = &mut self.hands[us.index()];
                    hand.set(kind, (hand.count(kind) + 1).min(kind.total()));
                    // What is taken changes hands at the value of its unpromoted kind.
                    self.material[us.index()] += value(kind);
                    self.material[c.color.index()] -= value(kind);
                }
                self.take(from);
                let mut p = piece;
                if promote && let Some(k) = p.kind.promoted() {
                    p.kind = k;
                }
                if p.kind == PieceKind::King {
                    self.kings[us.index()] = Some(to);
                }
                self.put(to, p);
                Moved { piece, captured }
            }
            Move::Drop { kind, to } => {
                let hand = &mut self.hands[us.index()];
                if hand.count(kind) == 0 || self.squares[to.index()].is_some() {
                    return None;
                }
                hand.set(kind, hand.count(kind) - 1);
                let piece = Piece::new(us, kind);
                self.put(to, piece);
                Moved {
                    piece,
                    captured: None,
                }
            }
        };
        self.side = us.opponent();
        Some(moved)
    }

    #[inline]
    pub fn piece_at(&self, s: Square) -> Option<Piece> {
        self.squares[s.index()]
    }

    /// The squares of one piece of one side.
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Squares {
        self.pieces[slot(color, kind)]
    }

    /// The squares of one side's pieces.
    #[inline]
    pub fn side_squares(&self, color: Color) -> Squares {
        self.sides[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Squares {
        self.sides[0] | self.sides[1]
    }

    #[inline]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    #[inline]
    pub fn material(&self, color: Color) -> i64 {
        self.material[color.index()]
    }

    /// Whether the side to move's king is attacked.
    pub fn in_check(&self) -> bool {
        let us = self.side;
        self.king(us)
            .is_some_and(|k| attacked_on(&self.squares, self.occupied(), k, us.opponent()))
    }
}
