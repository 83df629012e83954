//! The board as the patterns see it: one bit set per colour and piece kind, so that a
//! condition is one mask test (read at the start of a game, and by the matcher's checks);
//! and the squares and hands alone ([`Mailbox`]), which the matcher keeps move by move.
//! Knows nothing of legality: the moves it is given were replayed already.

use kifudex_shogi::{Color, Move, PieceKind, Position, Square};

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

/// The board and hands of a game, by colour and kind.
///
/// An empty square holds [`EMPTY`], whose set (`pieces[EMPTY]`) and hand take what a move
/// without a capture would otherwise have to branch around (as in [`Mailbox`]).
#[derive(Clone)]
pub struct Board {
    /// `pieces[slot(colour, kind)]`: the squares holding that piece; `pieces[EMPTY]` is
    /// scratch.
    pieces: [Squares; 29],
    /// What stands on each square: its slot, or [`EMPTY`].
    mailbox: [u8; 81],
    /// `hands[colour × 7 + kind]` for the seven kinds a hand holds; `hands[14]` is scratch
    /// (where a capture of nothing, or of a king, counts).
    hands: [u8; 15],
}

/// The slot of an empty square (one past the 28 pieces).
pub const EMPTY: u8 = 28;

/// The scratch place in [`Board::hands`].
pub const NO_HAND: u8 = 14;

/// A colour and kind as one number, `colour × 14 + kind` (0–27): where [`Board`] keeps the
/// piece's squares.
#[inline]
pub fn slot(color: Color, kind: PieceKind) -> u8 {
    (color.index() * 14 + kind.index()) as u8
}

/// Per slot, the slot of the piece promoted (itself for a piece that does not promote, and
/// for [`EMPTY`]).
const PROMOTED: [u8; 29] = {
    let mut out = [0u8; 29];
    let mut s = 0;
    while s < 29 {
        let k = s % 14;
        // Pawn, lance, knight, silver (0–3) promote to 8–11; bishop and rook (5, 6) to 12, 13.
        out[s] = if s == EMPTY as usize {
            s as u8
        } else if k <= 3 {
            (s + 8) as u8
        } else if k == 5 || k == 6 {
            (s + 7) as u8
        } else {
            s as u8
        };
        s += 1;
    }
    out
};

/// Per capturing colour and captured slot, where in [`Board::hands`] the capture counts:
/// the capturer's hand of the piece unpromoted, or [`NO_HAND`] for nothing or a king.
const HAND_OF_CAPTURE: [[u8; 29]; 2] = {
    let mut out = [[NO_HAND; 29]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 28 {
            let k = s % 14;
            let unpromoted = match k {
                8..=11 => k - 8,
                12 | 13 => k - 7,
                _ => k,
            };
            if k != 7 {
                out[c][s] = (c * 7 + unpromoted) as u8;
            }
            s += 1;
        }
        c += 1;
    }
    out
};

impl Board {
    pub fn new(position: &Position) -> Board {
        let mut board = Board {
            pieces: [0; 29],
            mailbox: [EMPTY; 81],
            hands: [0; 15],
        };
        for square in Square::all() {
            if let Some(piece) = position.piece_at(square) {
                let (s, i) = (slot(piece.color, piece.kind), square.index());
                board.pieces[s as usize] |= BIT[i];
                board.mailbox[i] = s;
            }
        }
        for color in Color::ALL {
            for (k, n) in position.hand(color).iter() {
                board.hands[color.index() * 7 + k.index()] = n;
            }
        }
        board
    }

    /// Plays `mv` for `color` (as [`Mailbox::play`] does; the matcher's checks replay the
    /// full board beside it). A move whose origin is empty changes nothing.
    pub fn play(&mut self, color: Color, mv: Move) {
        match mv {
            Move::Board { from, to, promote } => {
                let (from, to) = (from.index(), to.index());
                let moved = self.mailbox[from];
                if moved == EMPTY {
                    return;
                }
                let taken = self.mailbox[to];
                self.pieces[moved as usize] &= !BIT[from];
                self.pieces[taken as usize] &= !BIT[to];
                self.mailbox[from] = EMPTY;
                let now = if promote {
                    PROMOTED[moved as usize]
                } else {
                    moved
                };
                self.pieces[now as usize] |= BIT[to];
                self.mailbox[to] = now;
                let at = HAND_OF_CAPTURE[(moved >= 14) as usize][taken as usize];
                let hand = &mut self.hands[at as usize];
                *hand = hand.saturating_add(1);
            }
            Move::Drop { kind, to } => {
                let to = to.index();
                if kind.index() < 7 {
                    let h = &mut self.hands[color.index() * 7 + kind.index()];
                    *h = h.saturating_sub(1);
                }
                let now = slot(color, kind);
                let was = self.mailbox[to];
                self.pieces[was as usize] &= !BIT[to];
                self.pieces[now as usize] |= BIT[to];
                self.mailbox[to] = now;
            }
        }
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

    /// The squares holding the pieces of one slot (see [`slot`]).
    #[inline]
    pub fn of_slot(&self, slot: u8) -> Squares {
        self.pieces[slot as usize]
    }

    /// How many pieces of `kind` `color` holds in hand.
    #[inline]
    pub fn in_hand(&self, color: Color, kind: PieceKind) -> u8 {
        if kind.index() < 7 {
            self.hands[color.index() * 7 + kind.index()]
        } else {
            0
        }
    }
}

/// What a move changed, for the matcher's counts: the piece that left its square (as it
/// was), the piece taken, the piece that entered a square (as it is now, or dropped), each
/// `(slot, square index)` with [`EMPTY`] for none; and the hand that went from none to one
/// piece of a kind (a capture), and the one that went from one to none (a drop), each
/// `colour × 7 + kind` or [`NO_HAND`].
#[derive(Copy, Clone, Debug)]
pub struct Change {
    pub moved: (u8, u8),
    pub taken: (u8, u8),
    pub entered: (u8, u8),
    pub gained: u8,
    pub lost: u8,
}

impl Change {
    const NOTHING: Change = Change {
        moved: (EMPTY, 0),
        taken: (EMPTY, 0),
        entered: (EMPTY, 0),
        gained: NO_HAND,
        lost: NO_HAND,
    };
}

/// The board as the matcher replays a game: what stands on each square, and the hands.
/// A move writes three bytes where [`Board`] rewrites three sets of 128 bits; the matcher
/// reads the sets only before the first move.
#[derive(Clone)]
pub struct Mailbox {
    /// What stands on each square: its slot, or [`EMPTY`].
    squares: [u8; 81],
    /// As [`Board`]'s.
    hands: [u8; 15],
}

impl Mailbox {
    pub fn new(board: &Board) -> Mailbox {
        Mailbox {
            squares: board.mailbox,
            hands: board.hands,
        }
    }

    /// Plays `mv` for `color`; what it changed. A move whose origin is empty changes nothing
    /// (the records' replay has refused it already).
    #[inline(always)]
    pub fn play(&mut self, color: Color, mv: Move) -> Change {
        match mv {
            Move::Board { from, to, promote } => {
                let (from, to) = (from.index(), to.index());
                let moved = self.squares[from];
                if moved == EMPTY {
                    return Change::NOTHING;
                }
                let taken = self.squares[to];
                self.squares[from] = EMPTY;
                let now = if promote {
                    PROMOTED[moved as usize]
                } else {
                    moved
                };
                self.squares[to] = now;
                let at = HAND_OF_CAPTURE[(moved >= 14) as usize][taken as usize];
                let hand = &mut self.hands[at as usize];
                *hand = hand.saturating_add(1);
                Change {
                    moved: (moved, from as u8),
                    taken: (taken, to as u8),
                    entered: (now, to as u8),
                    gained: [NO_HAND, at][(*hand == 1) as usize],
                    lost: NO_HAND,
                }
            }
            Move::Drop { kind, to } => {
                let to = to.index();
                let mut lost = NO_HAND;
                if kind.index() < 7 {
                    let at = color.index() * 7 + kind.index();
                    let h = &mut self.hands[at];
                    if *h == 1 {
                        lost = at as u8;
                    }
                    *h = h.saturating_sub(1);
                }
                let now = slot(color, kind);
                // A drop on an occupied square: the records' replay refused it already.
                let was = self.squares[to];
                self.squares[to] = now;
                Change {
                    moved: (EMPTY, 0),
                    taken: (was, to as u8),
                    entered: (now, to as u8),
                    gained: NO_HAND,
                    lost,
                }
            }
        }
    }

    /// The slot of what stands on a square (see [`slot`]), or [`EMPTY`].
    #[inline]
    pub fn at(&self, square: u8) -> u8 {
        self.squares[square as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_promote_and_capture_as_the_pieces_do() {
        for color in Color::ALL {
            for k in PieceKind::ALL {
                let s = slot(color, k) as usize;
                let want = k.promoted().map_or(s as u8, |p| slot(color, p));
                assert_eq!(PROMOTED[s], want, "{color:?} {k:?}");
                for capturer in Color::ALL {
                    let want = if k == PieceKind::King {
                        NO_HAND
                    } else {
                        (capturer.index() * 7 + k.unpromoted().index()) as u8
                    };
                    assert_eq!(HAND_OF_CAPTURE[capturer.index()][s], want);
                }
            }
        }
        assert_eq!(PROMOTED[EMPTY as usize], EMPTY);
        assert_eq!(HAND_OF_CAPTURE[0][EMPTY as usize], NO_HAND);
    }
}
