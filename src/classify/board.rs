//! The board as the patterns see it: one bit set per colour and piece kind, kept move by
//! move, so that a condition is one mask test. Knows nothing of legality: the moves it is
//! given were replayed already.

use crate::shogi::{Color, Move, PieceKind, Position, Square};

/// Squares as a set: bit `i` for the square of index `i` (see [`Square`]).
pub type Squares = u128;

/// The square `NM` (file N, rank M) as a set: `sq(28)` is 2八.
pub const fn sq(digits: u8) -> Squares {
    let file = digits / 10;
    let rank = digits % 10;
    assert!(file >= 1 && file <= 9 && rank >= 1 && rank <= 9);
    1u128 << ((file - 1) * 9 + (rank - 1))
}

/// Several squares as one set: `sqs(&[26, 15])`.
pub const fn sqs(list: &[u8]) -> Squares {
    let mut set = 0;
    let mut i = 0;
    while i < list.len() {
        set |= sq(list[i]);
        i += 1;
    }
    set
}

/// Every square of files `from..=to`, ranks `top..=bottom`.
pub const fn area(from: u8, to: u8, top: u8, bottom: u8) -> Squares {
    let mut set = 0;
    let mut f = from;
    while f <= to {
        let mut r = top;
        while r <= bottom {
            set |= sq(f * 10 + r);
            r += 1;
        }
        f += 1;
    }
    set
}

/// The set seen from the other side of the board (1一 ↔ 9九): a pattern written for
/// sente is read for gote through it.
pub const fn rotate(set: Squares) -> Squares {
    set.reverse_bits() >> (128 - 81)
}

/// Each square alone as a set (a load is quicker than a 128-bit shift).
const BIT: [Squares; 81] = {
    let mut bits = [0; 81];
    let mut i = 0;
    while i < 81 {
        bits[i] = 1u128 << i;
        i += 1;
    }
    bits
};

/// Piece kinds as a set: bit `k` for the kind of index `k`.
pub type Kinds = u16;

pub const fn kind(k: PieceKind) -> Kinds {
    1 << (k as u16)
}

/// The board and hands of a game being replayed, by colour and kind.
#[derive(Clone)]
pub struct Board {
    /// `pieces[colour][kind]`: the squares holding that piece.
    pieces: [[Squares; 14]; 2],
    /// What stands on each square: 0 for nothing, else 1 + colour × 16 + kind.
    mailbox: [u8; 81],
    hands: [[u8; 7]; 2],
    /// Each side's king square, or 81 for a side without exactly one king.
    kings: [u8; 2],
}

/// What one move changed: the pieces that left a square (the piece moved, as it was, and a
/// piece taken) and the one that entered a square (the piece moved, as it is, or dropped),
/// and whether a hand changed.
#[derive(Copy, Clone, Debug, Default)]
pub struct Changed {
    left: [(u8, u8, u8); 2],
    n_left: u8,
    entered: Option<(u8, u8, u8)>,
    /// Whether a hand changed (a capture or a drop).
    pub hands: bool,
}

fn code(color: Color, kind: PieceKind, index: usize) -> (u8, u8, u8) {
    (color.index() as u8, kind.index() as u8, index as u8)
}

impl Changed {
    fn leave(&mut self, color: Color, kind: PieceKind, index: usize) {
        self.left[self.n_left as usize] = code(color, kind, index);
        self.n_left += 1;
    }

    /// `(colour index, kind index, square index)` of each piece that left a square.
    pub fn left(&self) -> &[(u8, u8, u8)] {
        &self.left[..self.n_left as usize]
    }

    /// `(colour index, kind index, square index)` of the piece that entered a square.
    pub fn entered(&self) -> Option<(u8, u8, u8)> {
        self.entered
    }
}

impl Board {
    pub fn new(position: &Position) -> Board {
        let mut board = Board {
            pieces: [[0; 14]; 2],
            mailbox: [0; 81],
            hands: [[0; 7]; 2],
            kings: [81; 2],
        };
        for square in Square::all() {
            if let Some(piece) = position.piece_at(square) {
                board.put(piece.color, piece.kind, square.index());
            }
        }
        for color in Color::ALL {
            let kings = board.pieces[color.index()][PieceKind::King.index()];
            if kings.count_ones() == 1 {
                board.kings[color.index()] = kings.trailing_zeros() as u8;
            }
            for (k, n) in position.hand(color).iter() {
                board.hands[color.index()][k.index()] = n;
            }
        }
        board
    }

    fn put(&mut self, color: Color, kind: PieceKind, index: usize) {
        self.pieces[color.index()][kind.index()] |= BIT[index];
        self.mailbox[index] = 1 + (color.index() * 16 + kind.index()) as u8;
    }

    fn take(&mut self, index: usize) -> Option<(Color, PieceKind)> {
        let code = self.mailbox[index];
        if code == 0 {
            return None;
        }
        let code = (code - 1) as usize;
        let color = if code >= 16 {
            Color::White
        } else {
            Color::Black
        };
        let kind = PieceKind::from_index(code & 15)?;
        self.pieces[color.index()][kind.index()] &= !BIT[index];
        self.mailbox[index] = 0;
        Some((color, kind))
    }

    /// Plays `mv` for `color`; what it changed. A move whose origin is empty changes nothing
    /// (the records' replay has refused it already).
    #[inline]
    pub fn play(&mut self, color: Color, mv: Move) -> Changed {
        let mut changed = Changed::default();
        match mv {
            Move::Board { from, to, promote } => {
                let Some((owner, kind)) = self.take(from.index()) else {
                    return changed;
                };
                changed.leave(owner, kind, from.index());
                if kind == PieceKind::King && self.kings[owner.index()] == from.index() as u8 {
                    self.kings[owner.index()] = to.index() as u8;
                }
                if let Some((captured_color, captured)) = self.take(to.index()) {
                    if captured == PieceKind::King {
                        self.kings[captured_color.index()] = 81;
                    }
                    changed.leave(captured_color, captured, to.index());
                    changed.hands = true;
                    let k = captured.unpromoted();
                    if k != PieceKind::King {
                        let h = &mut self.hands[owner.index()][k.index()];
                        *h = h.saturating_add(1);
                    }
                }
                let now = if promote {
                    kind.promoted().unwrap_or(kind)
                } else {
                    kind
                };
                self.put(owner, now, to.index());
                changed.entered = Some(code(owner, now, to.index()));
            }
            Move::Drop { kind, to } => {
                if kind.index() < 7 {
                    let h = &mut self.hands[color.index()][kind.index()];
                    *h = h.saturating_sub(1);
                }
                self.put(color, kind, to.index());
                changed.entered = Some(code(color, kind, to.index()));
                changed.hands = true;
            }
        }
        changed
    }

    /// The squares holding `color`'s pieces of any kind in `kinds`.
    #[inline]
    pub fn of(&self, color: Color, kinds: Kinds) -> Squares {
        let mut set = 0;
        let mut bits = kinds;
        let pieces = &self.pieces[color.index()];
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            set |= pieces[k];
            bits &= bits - 1;
        }
        set
    }

    /// The square index of `color`'s king, or 81 when it has none or several.
    #[inline]
    pub fn king(&self, color: Color) -> usize {
        self.kings[color.index()] as usize
    }

    /// The squares holding `color`'s pieces of the kind of index `kind`.
    #[inline]
    pub fn of_kind(&self, color: Color, kind: usize) -> Squares {
        self.pieces[color.index()][kind]
    }

    /// How many pieces of `kind` `color` holds in hand.
    #[inline]
    pub fn in_hand(&self, color: Color, kind: PieceKind) -> u8 {
        self.hands[color.index()]
            .get(kind.index())
            .copied()
            .unwrap_or(0)
    }
}
