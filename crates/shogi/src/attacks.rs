//! How pieces move: direction tables and the attack test used by legality and check.

use super::types::{Color, Piece, PieceKind, Square};

/// The eight directions as (file delta, rank delta). Rank delta -1 is "forward" for Black.
/// Order: forward, forward-left, forward-right, left, right, back, back-left, back-right
/// (seen from Black; file numbers grow to Black's left).
pub(crate) const DIRS: [(i8, i8); 8] = [
    (0, -1),
    (1, -1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
];

/// The index of the opposite direction.
pub(crate) const OPPOSITE: [usize; 8] = [5, 7, 6, 4, 3, 0, 2, 1];

const OFF: u8 = 0xFF;

/// `NEIGHBOR[sq][d]`: the square one step from `sq` in direction `d`, or `OFF`.
static NEIGHBOR: [[u8; 8]; 81] = build_neighbors();

const fn build_neighbors() -> [[u8; 8]; 81] {
    let mut t = [[OFF; 8]; 81];
    let mut sq = 0;
    while sq < 81 {
        let f = (sq / 9) as i32;
        let r = (sq % 9) as i32;
        let mut d = 0;
        while d < 8 {
            let nf = f + DIRS[d].0 as i32;
            let nr = r + DIRS[d].1 as i32;
            if nf >= 0 && nf < 9 && nr >= 0 && nr < 9 {
                t[sq][d] = (nf * 9 + nr) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

#[inline]
pub(crate) fn neighbor(sq: Square, d: usize) -> Option<Square> {
    let n = NEIGHBOR[sq.index()][d];
    if n == OFF {
        None
    } else {
        Square::from_index(n as usize)
    }
}

// Direction masks for Black; White's are the same with every direction reversed.
const FWD: u8 = 1 << 0;
const FWD_DIAG: u8 = 1 << 1 | 1 << 2;
const SIDEWAYS: u8 = 1 << 3 | 1 << 4;
const BACK: u8 = 1 << 5;
const BACK_DIAG: u8 = 1 << 6 | 1 << 7;
const GOLD: u8 = FWD | FWD_DIAG | SIDEWAYS | BACK;
const ORTHO: u8 = FWD | SIDEWAYS | BACK;
const DIAG: u8 = FWD_DIAG | BACK_DIAG;

/// (step mask, slide mask) for a Black piece of each kind, in `PieceKind` order.
const BLACK_MASKS: [(u8, u8); 14] = [
    (FWD, 0),                        // pawn
    (0, FWD),                        // lance
    (0, 0),                          // knight: its own jumps
    (FWD | FWD_DIAG | BACK_DIAG, 0), // silver
    (GOLD, 0),                       // gold
    (0, DIAG),                       // bishop
    (0, ORTHO),                      // rook
    (0xFF, 0),                       // king
    (GOLD, 0),                       // promoted pawn
    (GOLD, 0),                       // promoted lance
    (GOLD, 0),                       // promoted knight
    (GOLD, 0),                       // promoted silver
    (ORTHO, DIAG),                   // horse
    (DIAG, ORTHO),                   // dragon
];

const fn reverse_mask(m: u8) -> u8 {
    let mut out = 0;
    let mut d = 0;
    while d < 8 {
        if m & (1 << d) != 0 {
            out |= 1 << OPPOSITE[d];
        }
        d += 1;
    }
    out
}

const fn build_masks() -> [[(u8, u8); 14]; 2] {
    let mut t = [BLACK_MASKS, BLACK_MASKS];
    let mut k = 0;
    while k < 14 {
        t[1][k] = (
            reverse_mask(BLACK_MASKS[k].0),
            reverse_mask(BLACK_MASKS[k].1),
        );
        k += 1;
    }
    t
}

static MASKS: [[(u8, u8); 14]; 2] = build_masks();

/// The directions in which `piece` steps one square, and those in which it slides.
#[inline]
pub(crate) fn masks(piece: Piece) -> (u8, u8) {
    MASKS[piece.color.index()][piece.kind.index()]
}

/// The (file, rank) jumps of a knight of `color`.
#[inline]
pub(crate) fn knight_jumps(color: Color) -> [(i8, i8); 2] {
    match color {
        Color::Black => [(1, -2), (-1, -2)],
        Color::White => [(1, 2), (-1, 2)],
    }
}

/// `DIRECTION[a][b]`: the direction from `a` to `b` when they share a file, rank or
/// diagonal (and differ), else `OFF`.
static DIRECTION: [[u8; 81]; 81] = build_directions();

const fn build_directions() -> [[u8; 81]; 81] {
    let mut t = [[OFF; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let mut sq = NEIGHBOR[a][d];
            while sq != OFF {
                t[a][sq as usize] = d as u8;
                sq = NEIGHBOR[sq as usize][d];
            }
            d += 1;
        }
        a += 1;
    }
    t
}

/// The direction from `a` to `b`, if they share a file, rank or diagonal.
#[inline]
pub(crate) fn direction(a: Square, b: Square) -> Option<usize> {
    let d = DIRECTION[a.index()][b.index()];
    (d != OFF).then_some(d as usize)
}

/// `RAYS[sq][d]`: the squares beyond `sq` in direction `d`, up to the edge, as bits by
/// square index (see [`occupancy`]).
static RAYS: [[u128; 8]; 81] = build_rays();

const fn build_rays() -> [[u128; 8]; 81] {
    let mut t = [[0u128; 8]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut d = 0;
        while d < 8 {
            let mut next = NEIGHBOR[sq][d];
            while next != OFF {
                t[sq][d] |= 1u128 << next;
                next = NEIGHBOR[next as usize][d];
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Whether direction `d` goes to higher square indices: then the nearest square of a line
/// is its lowest bit.
const ASCENDING: [bool; 8] = {
    let mut t = [false; 8];
    let mut d = 0;
    while d < 8 {
        t[d] = DIRS[d].0 as i32 * 9 + DIRS[d].1 as i32 > 0;
        d += 1;
    }
    t
};

/// The bit of `sq` in an occupancy set.
#[inline]
pub(crate) fn bit(sq: Square) -> u128 {
    1u128 << sq.index()
}

/// The occupied squares of `board` as bits by square index: what [`Position`] keeps move by
/// move, and what every function here takes with the board, to find the first piece along a
/// line without walking it.
///
/// [`Position`]: super::position::Position
pub(crate) fn occupancy(board: &[Option<Piece>; 81]) -> u128 {
    Square::all()
        .filter(|s| board[s.index()].is_some())
        .fold(0, |occ, s| occ | bit(s))
}

/// The first occupied square beyond `sq` in direction `d`.
#[inline]
fn first_occupied(occupied: u128, sq: Square, d: usize) -> Option<Square> {
    let on_line = occupied & RAYS[sq.index()][d];
    if on_line == 0 {
        return None;
    }
    let i = if ASCENDING[d] {
        on_line.trailing_zeros()
    } else {
        127 - on_line.leading_zeros()
    };
    Square::from_index(i as usize)
}

/// Whether `b` is the square next to `a` in direction `d`.
#[inline]
fn adjacent(a: Square, d: usize, b: Square) -> bool {
    NEIGHBOR[a.index()][d] as usize == b.index()
}

/// Whether the first piece seen from `target` in direction `d` is one of `attacker`'s that
/// attacks `target` (a step next to it, or a slide from any distance).
#[inline]
fn attacked_along(
    board: &[Option<Piece>; 81],
    occupied: u128,
    target: Square,
    d: usize,
    attacker: Color,
) -> bool {
    let Some(sq) = first_occupied(occupied, target, d) else {
        return false;
    };
    let Some(p) = board[sq.index()] else {
        return false;
    };
    let back = 1u8 << OPPOSITE[d];
    let (step, slide) = masks(p);
    // Bitwise rather than short-circuit operators: which of these holds follows no pattern,
    // and evaluating all of them is cheaper than a mispredicted branch.
    (p.color == attacker) & ((slide & back != 0) | ((step & back != 0) & adjacent(target, d, sq)))
}

/// Whether a knight of `attacker` attacks `target`.
#[inline]
fn attacked_by_knight(board: &[Option<Piece>; 81], target: Square, attacker: Color) -> bool {
    // A knight attacks `target` from where its jump would land on `target`.
    knight_jumps(attacker).into_iter().any(|(df, dr)| {
        target
            .offset(-df, -dr)
            .is_some_and(|sq| board[sq.index()] == Some(Piece::new(attacker, PieceKind::Knight)))
    })
}

/// Whether a piece of `attacker` attacks `target` on `board` (whose occupied squares are
/// `occupied`).
pub(crate) fn attacked(
    board: &[Option<Piece>; 81],
    occupied: u128,
    target: Square,
    attacker: Color,
) -> bool {
    (0..8).any(|d| attacked_along(board, occupied, target, d, attacker))
        || attacked_by_knight(board, target, attacker)
}

/// Whether `attacker` attacks `target` along the line through `sq` (from the first piece on
/// that line), or with a knight standing on `sq`. When only `sq` changed on a board where
/// `target` was not attacked, this says whether it is attacked now. Inlined: every move
/// played asks it up to three times.
#[inline(always)]
pub(crate) fn attacked_via(
    board: &[Option<Piece>; 81],
    occupied: u128,
    target: Square,
    sq: Square,
    attacker: Color,
) -> bool {
    match direction(target, sq) {
        Some(d) => attacked_along(board, occupied, target, d, attacker),
        None => {
            board[sq.index()] == Some(Piece::new(attacker, PieceKind::Knight))
                && knight_jumps(attacker)
                    .into_iter()
                    .any(|(df, dr)| sq.offset(df, dr) == Some(target))
        }
    }
}

/// Whether `piece` on `from` could move to `to` on a board whose occupied squares are
/// `occupied`, by the way it moves (ignoring what stands on `to`, checks and every other rule).
pub(crate) fn reaches(occupied: u128, piece: Piece, from: Square, to: Square) -> bool {
    if piece.kind == PieceKind::Knight {
        return knight_jumps(piece.color)
            .into_iter()
            .any(|(df, dr)| from.offset(df, dr) == Some(to));
    }
    let Some(d) = direction(from, to) else {
        return false;
    };
    let (step, slide) = masks(piece);
    let dir = 1 << d;
    if adjacent(from, d, to) {
        return (step | slide) & dir != 0;
    }
    // The squares strictly between: the line from `from` up to `to`, less `to`.
    let between = RAYS[from.index()][d] & !RAYS[to.index()][d] & !bit(to);
    slide & dir != 0 && occupied & between == 0
}

/// Calls `f` with every square holding `piece` that could move to `to` on `board` by the way
/// it moves (as [`reaches`] says), in no particular order.
pub(crate) fn sources(
    board: &[Option<Piece>; 81],
    occupied: u128,
    piece: Piece,
    to: Square,
    mut f: impl FnMut(Square),
) {
    if piece.kind == PieceKind::Knight {
        for (df, dr) in knight_jumps(piece.color) {
            if let Some(from) = to.offset(-df, -dr)
                && board[from.index()] == Some(piece)
            {
                f(from);
            }
        }
        return;
    }
    // Any other move runs along one of the eight lines from `to`, with nothing in between:
    // the piece is the first one seen on its line, next to `to` unless it slides that way.
    let (step, slide) = masks(piece);
    for (d, &back) in OPPOSITE.iter().enumerate() {
        // A piece seen from `to` in direction `d` moves the other way to reach it.
        let toward = 1u8 << back;
        if (step | slide) & toward == 0 {
            continue;
        }
        if let Some(from) = first_occupied(occupied, to, d)
            && board[from.index()] == Some(piece)
            && (slide & toward != 0 || adjacent(to, d, from))
        {
            f(from);
        }
    }
}
