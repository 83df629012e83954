//! Where a piece can have come from: the squares from which a move of one side can bring a
//! piece of one kind onto a square (moving as that kind, or promoting into it on the move),
//! on an empty board. A game in which no move of the side goes from such a square to such
//! a square, and no drop of the kind lands there, never has that piece there unless it
//! stands there from the start: the scan skips it without replaying a move.

use kifudex_shogi::{Color, PieceKind, Square};

use super::board::{Squares, bit};

/// A step or a ray: files and ranks for sente (rank 1 is gote's side; sente moves to lower
/// ranks), and whether the piece may go on in that direction.
type Step = (i8, i8, bool);

const GOLD: &[Step] = &[
    (-1, -1, false),
    (0, -1, false),
    (1, -1, false),
    (-1, 0, false),
    (1, 0, false),
    (0, 1, false),
];

fn steps(kind: PieceKind) -> &'static [Step] {
    use PieceKind::*;
    match kind {
        Pawn => &[(0, -1, false)],
        Lance => &[(0, -1, true)],
        Knight => &[(-1, -2, false), (1, -2, false)],
        Silver => &[
            (-1, -1, false),
            (0, -1, false),
            (1, -1, false),
            (-1, 1, false),
            (1, 1, false),
        ],
        Gold | ProPawn | ProLance | ProKnight | ProSilver => GOLD,
        Bishop => &[(-1, -1, true), (1, -1, true), (-1, 1, true), (1, 1, true)],
        Rook => &[(0, -1, true), (0, 1, true), (-1, 0, true), (1, 0, true)],
        King => &[
            (-1, -1, false),
            (0, -1, false),
            (1, -1, false),
            (-1, 0, false),
            (1, 0, false),
            (-1, 1, false),
            (0, 1, false),
            (1, 1, false),
        ],
        Horse => &[
            (-1, -1, true),
            (1, -1, true),
            (-1, 1, true),
            (1, 1, true),
            (0, -1, false),
            (0, 1, false),
            (-1, 0, false),
            (1, 0, false),
        ],
        Dragon => &[
            (0, -1, true),
            (0, 1, true),
            (-1, 0, true),
            (1, 0, true),
            (-1, -1, false),
            (1, -1, false),
            (-1, 1, false),
            (1, 1, false),
        ],
    }
}

/// The squares from which a piece of `color` and `kind` reaches `to` in one move on an
/// empty board.
fn moves_into(color: Color, kind: PieceKind, to: Square) -> Squares {
    let forward: i8 = if color == Color::Black { 1 } else { -1 };
    let mut out = 0;
    for &(df, dr, ray) in steps(kind) {
        // Walking back from `to` against the step.
        let (bf, br) = (-df * forward, -dr * forward);
        let mut at = to;
        while let Some(s) = at.offset(bf, br) {
            out |= bit(s);
            if !ray {
                break;
            }
            at = s;
        }
    }
    out
}

/// Per square, the squares a move of `color` that leaves a piece of one of `kinds` (bit
/// `k` for the kind of index `k`) there may come from: moving as that kind, or promoting
/// into it.
pub(crate) fn sources(color: Color, kinds: u16) -> Box<[Squares; 81]> {
    let mut out = Box::new([0; 81]);
    for kind in PieceKind::ALL {
        if kinds & (1 << kind.index()) == 0 {
            continue;
        }
        for to in Square::all() {
            let mut from = moves_into(color, kind, to);
            if kind.is_promoted() {
                from |= moves_into(color, kind.unpromoted(), to);
            }
            out[to.index()] |= from;
        }
    }
    out
}

/// Whether a move to the square of index `to`, from the square of index `from` (81 and
/// above: a drop, 81 + the kind's place in [`PieceKind::HAND`]), can leave a piece of one of
/// `kinds` there: a drop of such a kind, or a move from a square `sources` allows.
#[inline]
pub(crate) fn arrives(to: usize, from: usize, kinds: u16, sources: &[Squares; 81]) -> bool {
    if from < 81 {
        sources[to] & (1 << from) != 0
    } else {
        PieceKind::HAND
            .get(from - 81)
            .is_some_and(|k| kinds & (1 << k.index()) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(file: u8, rank: u8) -> Square {
        Square::new(file, rank).unwrap()
    }

    fn list(s: Squares) -> Vec<(u8, u8)> {
        Square::all()
            .filter(|q| s & bit(*q) != 0)
            .map(|q| (q.file(), q.rank()))
            .collect()
    }

    const KNIGHT: u16 = 1 << 2;

    fn of(color: Color, kind: PieceKind) -> Box<[Squares; 81]> {
        sources(color, 1 << kind.index())
    }

    #[test]
    fn a_gote_knight_reaches_5e_from_two_squares() {
        assert_eq!(PieceKind::Knight.index(), 2);
        let from = of(Color::White, PieceKind::Knight);
        assert_eq!(list(from[sq(5, 5).index()]), vec![(4, 3), (6, 3)]);
        let from = of(Color::Black, PieceKind::Knight);
        assert_eq!(list(from[sq(5, 5).index()]), vec![(4, 7), (6, 7)]);
    }

    #[test]
    fn a_promoted_piece_comes_as_itself_or_promoting() {
        // A sente promoted pawn on 2c: a gold's move into it, or a pawn's from 2d.
        let from = of(Color::Black, PieceKind::ProPawn);
        assert_eq!(
            list(from[sq(2, 3).index()]),
            vec![(1, 3), (1, 4), (2, 2), (2, 4), (3, 3), (3, 4)]
        );
        // A lance reaches 1a from anywhere on the file below.
        let from = of(Color::Black, PieceKind::Lance);
        assert_eq!(list(from[sq(1, 1).index()]).len(), 8);
        // A rook on 5e: the whole file and rank.
        let from = of(Color::White, PieceKind::Rook);
        // A gold or a silver onto 2h for sente: the union of both.
        let both = sources(
            Color::Black,
            (1 << PieceKind::Gold.index()) | (1 << PieceKind::Silver.index()),
        );
        let gold = of(Color::Black, PieceKind::Gold);
        let silver = of(Color::Black, PieceKind::Silver);
        let h2 = sq(2, 8).index();
        assert_eq!(both[h2], gold[h2] | silver[h2]);
        assert_eq!(list(from[sq(5, 5).index()]).len(), 16);
    }

    #[test]
    fn a_knight_arrives_by_its_jump_or_its_drop() {
        let from = of(Color::White, PieceKind::Knight);
        let to = sq(5, 5).index();
        // Gote's jumps from 4c and 6c; a move from 5d (a gold's, say) is no knight's.
        assert!(arrives(to, sq(4, 3).index(), KNIGHT, &from));
        assert!(arrives(to, sq(6, 3).index(), KNIGHT, &from));
        assert!(!arrives(to, sq(5, 4).index(), KNIGHT, &from));
        let hand = |k: PieceKind| 81 + PieceKind::HAND.iter().position(|&h| h == k).unwrap();
        assert!(arrives(to, hand(PieceKind::Knight), KNIGHT, &from));
        assert!(!arrives(to, hand(PieceKind::Silver), KNIGHT, &from));
    }
}
