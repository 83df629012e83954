//! Zobrist hashing: 64-bit keys for pieces on squares, counts in hand and the side to move.
//!
//! The keys live in [`super::zobrist_tables`], committed constants that define the on-disk
//! hash format ([`HASH_VERSION`]).

use super::types::{Color, Piece, PieceKind, Square};
use super::zobrist_tables::{BOARD, HAND, SIDE};

/// Version of the position hash. Databases record it; any change to the tables or to what
/// the hash covers must bump it.
pub const HASH_VERSION: u32 = 1;

#[inline]
pub(crate) fn piece_key(piece: Piece, sq: Square) -> u64 {
    BOARD[(piece.color.index() * 14 + piece.kind.index()) * 81 + sq.index()]
}

/// The key for holding exactly `count` pieces of `kind`; 0 for an empty slot.
#[inline]
pub(crate) fn hand_key(color: Color, kind: PieceKind, count: u8) -> u64 {
    // Counts never exceed 18 (PieceKind::total), which the table covers.
    HAND.get((color.index() * 7 + kind.index()) * 19 + count as usize)
        .copied()
        .unwrap_or(0)
}

#[inline]
pub(crate) fn side_key(color: Color) -> u64 {
    match color {
        Color::Black => 0,
        Color::White => SIDE,
    }
}

/// XORed into the board key on every move.
pub(crate) const SIDE_TOGGLE: u64 = SIDE;
