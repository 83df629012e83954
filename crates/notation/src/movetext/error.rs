//! What can be wrong with a move's text, in any notation: what went wrong, as a value a
//! program can match ([`MoveTextErrorKind`]), and the sentence a reader reports with its line and
//! column (naming the move as it was written).

/// What went wrong with a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveTextErrorKind {
    /// The text is no move of its notation.
    Syntax,
    /// A move marked for one side on the other side's turn.
    WrongSide,
    /// 同 (or a capture without a square) with no previous move to take the square from.
    NoPreviousMove,
    /// A promotion asked of a piece that cannot promote.
    CannotPromote,
    /// A drop written with an origin, relative words or a promotion.
    BadDrop,
    /// No piece stands on the origin.
    NoPiece,
    /// The piece on the origin is of another kind than the one written.
    WrongPiece,
    /// The piece on the origin is the opponent's.
    NotOwnPiece,
    /// The destination holds one of the mover's own pieces.
    OwnPiece,
    /// A capture written where there is nothing to capture.
    NothingToCapture,
    /// A drop of a piece that is never in hand (a promoted piece, a king).
    CannotDrop,
    /// A drop of a piece the side does not hold.
    NotInHand,
    /// A drop on an occupied square.
    Occupied,
    /// Several pieces fit the move.
    Ambiguous,
    /// No piece fits the move.
    Impossible,
    /// The move was read but cannot be made on the board.
    Unplayable,
    /// The record already holds as many moves as kifudex reads in one
    /// ([`MAX_RECORD_MOVES`](crate::record::MAX_RECORD_MOVES)).
    TooMany,
}

/// A move that could not be read or resolved: its kind and its sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct MoveTextError {
    kind: MoveTextErrorKind,
    message: String,
}

impl MoveTextError {
    pub(crate) fn new(kind: MoveTextErrorKind, message: impl Into<String>) -> MoveTextError {
        MoveTextError {
            kind,
            message: message.into(),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> MoveTextErrorKind {
        self.kind
    }

    /// The sentence, as readers report it.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// A sentence compares with the error's (what tests and callers that only show it need).
impl PartialEq<&str> for MoveTextError {
    fn eq(&self, other: &&str) -> bool {
        self.message == *other
    }
}
