//! The board: squares, pieces, hands, positions, moves, the rules, move generation, SFEN,
//! handicap start positions, Zobrist hashing and board transforms. Knows nothing of files,
//! formats or storage.

#![doc = include_str!("../README.md")]

pub mod ascii;
mod attacks;
mod declaration;
mod handicap;
mod movegen;
mod moves;
mod position;
mod rules;
mod sfen;
mod types;
mod walk;
mod zobrist;
mod zobrist_tables;

pub use handicap::Handicap;
pub use moves::{Move, UsiMoveError};
pub use position::{Position, PositionError, Strictness, hand_from_counts};
pub use rules::{History, MoveError, Repetition, Rule, Violations};
pub use sfen::{STARTPOS_SFEN, SfenError, hands_sfen};
pub use types::{Color, Hand, Piece, PieceKind, Square};
pub use walk::{BoardWalk, HashWalk};
pub use zobrist::HASH_VERSION;

/// Whether a piece of `by` attacks `sq` on `board`, whose occupied squares are `occupied` (bit
/// `i` for the square of index `i`): for replays that keep a board of their own (pattern
/// search asks it only of positions where a query asks for check).
pub fn attacked_on(board: &[Option<Piece>; 81], occupied: u128, sq: Square, by: Color) -> bool {
    attacks::attacked(board, occupied, sq, by)
}
