//! Moves and their USI text (`7g7f`, `8h2b+`, `P*5e`).

use std::fmt;
use std::str::FromStr;

use super::types::{PieceKind, Square};

/// A move: a piece moving on the board (perhaps promoting) or a piece dropped from hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Board {
        from: Square,
        to: Square,
        promote: bool,
    },
    Drop {
        kind: PieceKind,
        to: Square,
    },
}

impl Move {
    #[inline]
    pub fn to(self) -> Square {
        match self {
            Move::Board { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    #[inline]
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Board { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// The move with each square mapped by `f`.
    fn map_squares(self, f: impl Fn(Square) -> Square) -> Move {
        match self {
            Move::Board { from, to, promote } => Move::Board {
                from: f(from),
                to: f(to),
                promote,
            },
            Move::Drop { kind, to } => Move::Drop { kind, to: f(to) },
        }
    }

    /// The move on the board mirrored left to right (see [`Position::mirror`](super::Position::mirror)).
    pub fn mirror(self) -> Move {
        self.map_squares(Square::mirror)
    }

    /// The move on the board turned round (see [`Position::flip`](super::Position::flip)).
    pub fn rotate(self) -> Move {
        self.map_squares(Square::rotate)
    }

    #[inline]
    pub fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    #[inline]
    pub fn is_promotion(self) -> bool {
        matches!(self, Move::Board { promote: true, .. })
    }

    /// A 16-bit code for storage: bits 0–6 the destination, bits 7–13 the origin (or 81 +
    /// hand index for a drop), bit 14 promotion. Never 0xFFFF, which storage may use as "none".
    #[inline]
    pub fn to_u16(self) -> u16 {
        match self {
            Move::Board { from, to, promote } => {
                to.index() as u16 | (from.index() as u16) << 7 | (promote as u16) << 14
            }
            Move::Drop { kind, to } => to.index() as u16 | (81 + kind.index() as u16) << 7,
        }
    }

    /// The move a [`Move::to_u16`] code stands for, or `None` for a code no move gives.
    pub fn from_u16(code: u16) -> Option<Move> {
        let to = Square::from_index((code & 0x7f) as usize)?;
        let from = ((code >> 7) & 0x7f) as usize;
        let promote = code & (1 << 14) != 0;
        if code >> 15 != 0 {
            return None;
        }
        if from < 81 {
            Some(Move::Board {
                from: Square::from_index(from)?,
                to,
                promote,
            })
        } else if !promote {
            let kind = *PieceKind::HAND.get(from - 81)?;
            Some(Move::Drop { kind, to })
        } else {
            None
        }
    }

    /// The move's USI text.
    pub fn usi(self) -> String {
        self.to_string()
    }

    /// Reads USI move text; the error says what is wrong with it.
    pub fn from_usi(s: &str) -> Result<Move, UsiMoveError> {
        s.parse()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Board { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            Move::Drop { kind, to } => write!(f, "{}*{to}", kind.sfen_letter()),
        }
    }
}

/// Why a string is not a USI move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a USI move: {reason}")]
pub struct UsiMoveError {
    pub text: String,
    pub reason: &'static str,
}

fn usi_square(b: &[u8]) -> Option<Square> {
    match b {
        [f @ b'1'..=b'9', r @ b'a'..=b'i'] => Square::new(f - b'0', r - b'a' + 1),
        _ => None,
    }
}

impl FromStr for Move {
    type Err = UsiMoveError;

    fn from_str(s: &str) -> Result<Move, UsiMoveError> {
        let err = |reason| UsiMoveError {
            text: s.to_string(),
            reason,
        };
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let kind = PieceKind::from_sfen_letter(b[0] as char)
                .filter(|k| *k != PieceKind::King && b[0].is_ascii_uppercase())
                .ok_or_else(|| err("a drop names its piece with one of P L N S G B R"))?;
            let to = usi_square(&b[2..4])
                .ok_or_else(|| err("the square must be a file 1-9 and a rank a-i"))?;
            return Ok(Move::Drop { kind, to });
        }
        let promote = match b.len() {
            4 => false,
            5 if b[4] == b'+' => true,
            5 => return Err(err("only '+' may follow the destination")),
            _ => {
                return Err(err(
                    "expected four or five characters, like 7g7f, 8h2b+ or P*5e",
                ));
            }
        };
        let from = usi_square(&b[0..2])
            .ok_or_else(|| err("the origin must be a file 1-9 and a rank a-i"))?;
        let to = usi_square(&b[2..4])
            .ok_or_else(|| err("the destination must be a file 1-9 and a rank a-i"))?;
        if from == to {
            return Err(err("origin and destination are the same square"));
        }
        Ok(Move::Board { from, to, promote })
    }
}
