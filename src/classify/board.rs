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
    /// `pieces[slot(colour, kind)]`: the squares holding that piece.
    pieces: [Squares; 28],
    /// What stands on each square: 0 for nothing, else 1 + its slot.
    mailbox: [u8; 81],
    hands: [[u8; 7]; 2],
    /// Each side's king square, or 81 for a side without exactly one king.
    kings: [u8; 2],
}

/// A colour and kind as one number, `colour × 14 + kind` (0–27): where [`Board`] keeps the
/// piece's squares.
#[inline]
pub fn slot(color: Color, kind: PieceKind) -> u8 {
    (color.index() * 14 + kind.index()) as u8
}

/// The slot of `color`'s king.
#[inline]
fn king_slot(color: usize) -> u8 {
    (color * 14 + PieceKind::King.index()) as u8
}

/// What one move changed: the pieces that left a square (the piece moved, as it was, and a
/// piece taken) and the one that entered a square (the piece moved, as it is, or dropped),
/// each `(slot, square index)`, and whether a hand changed.
#[derive(Copy, Clone, Debug, Default)]
pub struct Changed {
    left: [(u8, u8); 2],
    n_left: u8,
    entered: Option<(u8, u8)>,
    /// Whether a hand changed (a capture or a drop).
    pub hands: bool,
}

impl Changed {
    #[inline]
    fn leave(&mut self, slot: u8, index: usize) {
        self.left[self.n_left as usize] = (slot, index as u8);
        self.n_left += 1;
    }

    /// `(slot, square index)` of each piece that left a square.
    #[inline]
    pub fn left(&self) -> &[(u8, u8)] {
        &self.left[..self.n_left as usize]
    }

    /// `(slot, square index)` of the piece that entered a square.
    #[inline]
    pub fn entered(&self) -> Option<(u8, u8)> {
        self.entered
    }
}

impl Board {
    pub fn new(position: &Position) -> Board {
        let mut board = Board {
            pieces: [0; 28],
            mailbox: [0; 81],
            hands: [[0; 7]; 2],
            kings: [81; 2],
        };
        for square in Square::all() {
            if let Some(piece) = position.piece_at(square) {
                board.put(slot(piece.color, piece.kind), square.index());
            }
        }
        for color in Color::ALL {
            let kings = board.pieces[king_slot(color.index()) as usize];
            if kings.count_ones() == 1 {
                board.kings[color.index()] = kings.trailing_zeros() as u8;
            }
            for (k, n) in position.hand(color).iter() {
                board.hands[color.index()][k.index()] = n;
            }
        }
        board
    }

    #[inline]
    fn put(&mut self, slot: u8, index: usize) {
        self.pieces[slot as usize] |= BIT[index];
        self.mailbox[index] = 1 + slot;
    }

    /// Empties the square; the slot of what stood there.
    #[inline]
    fn take(&mut self, index: usize) -> Option<u8> {
        let code = self.mailbox[index];
        if code == 0 {
            return None;
        }
        let slot = code - 1;
        self.pieces[slot as usize] &= !BIT[index];
        self.mailbox[index] = 0;
        Some(slot)
    }

    /// Plays `mv` for `color`; what it changed. A move whose origin is empty changes nothing
    /// (the records' replay has refused it already).
    #[inline(always)]
    pub fn play(&mut self, color: Color, mv: Move) -> Changed {
        let mut changed = Changed::default();
        match mv {
            Move::Board { from, to, promote } => {
                let Some(moved) = self.take(from.index()) else {
                    return changed;
                };
                let owner = (moved / 14) as usize;
                changed.leave(moved, from.index());
                if moved == king_slot(owner) && self.kings[owner] == from.index() as u8 {
                    self.kings[owner] = to.index() as u8;
                }
                if let Some(taken) = self.take(to.index()) {
                    let taken_owner = (taken / 14) as usize;
                    changed.leave(taken, to.index());
                    changed.hands = true;
                    if taken == king_slot(taken_owner) {
                        self.kings[taken_owner] = 81;
                    } else if let Some(k) = PieceKind::from_index((taken % 14) as usize) {
                        let h = &mut self.hands[owner][k.unpromoted().index()];
                        *h = h.saturating_add(1);
                    }
                }
                let now = match PieceKind::from_index((moved % 14) as usize) {
                    Some(kind) if promote => kind
                        .promoted()
                        .map_or(moved, |p| slot(Color::ALL[owner], p)),
                    _ => moved,
                };
                self.put(now, to.index());
                changed.entered = Some((now, to.index() as u8));
            }
            Move::Drop { kind, to } => {
                if kind.index() < 7 {
                    let h = &mut self.hands[color.index()][kind.index()];
                    *h = h.saturating_sub(1);
                }
                let now = slot(color, kind);
                self.put(now, to.index());
                changed.entered = Some((now, to.index() as u8));
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
        let pieces = &self.pieces[color.index() * 14..color.index() * 14 + 14];
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

    /// The squares holding the pieces of one slot (see [`slot`]).
    #[inline]
    pub fn of_slot(&self, slot: u8) -> Squares {
        self.pieces[slot as usize]
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
