//! What a query can tell of a game before replaying it: a game's moves, read from their
//! two-byte codes without building a board, show where each side's pieces can stand (a piece
//! of a side stands on a square only if it stood there at the start or one of the side's
//! moves took it there), where each king stands, and whether any move drops or promotes.
//! Most games of a scan end here.

use kifudex_shogi::{Color, PieceKind, Square};

use super::super::board::{Board, Squares, bit};
use super::{ALL_SQUARES, Leaf, Node, ShapeTest, What, kind_bit, pieces};

/// What a game's moves show before they are replayed, up to a limit or the first code no
/// move gives: per side, the squares its moves go to and the squares its king stands on;
/// whether any move drops or promotes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Signature<'a> {
    pub to: [Squares; 2],
    /// Per side, the squares its king stands on from the start through the moves (none
    /// without a king): a king moves only by moves from its square, and is never taken.
    pub kings: [Squares; 2],
    pub drops: bool,
    pub promotes: bool,
    /// The codes read, two bytes a move; the first move played by `first`.
    codes: &'a [u8],
    first: Color,
}

/// Each square's bit, looked up: quicker than a shift of 128 bits.
static BITS: [Squares; 81] = {
    let mut b = [0; 81];
    let mut i = 0;
    while i < 81 {
        b[i] = 1 << i;
        i += 1;
    }
    b
};

/// A move's code ([`Move::to_u16`]) read without building the move, as [`Move::from_u16`]
/// reads it (a test holds the two to each other over every code): the square it goes to,
/// and the square it comes from (81 and above: a drop); `None` for a code no move gives.
///
/// [`Move::to_u16`]: kifudex_shogi::Move::to_u16
/// [`Move::from_u16`]: kifudex_shogi::Move::from_u16
#[inline(always)]
fn squares_of(code: u16) -> Option<(usize, usize)> {
    let to = usize::from(code & 0x7f);
    let from = usize::from((code >> 7) & 0x7f);
    let promote = code & (1 << 14) != 0;
    let drop_kinds = PieceKind::HAND.len();
    let valid = to < 81 && code >> 15 == 0 && (from < 81 || (!promote && from < 81 + drop_kinds));
    valid.then_some((to, from))
}

/// One side's part of a signature, while it is read.
#[derive(Clone, Copy)]
struct Half {
    to: Squares,
    kings: Squares,
    /// The king's square (81: none).
    king: usize,
}

impl Half {
    fn of(king: Option<Square>) -> Half {
        Half {
            to: 0,
            kings: king.map_or(0, bit),
            king: king.map_or(81, Square::index),
        }
    }

    /// Adds the move of `code`; false for a code no move gives.
    #[inline(always)]
    fn add(&mut self, code: u16, drops: &mut bool, promotes: &mut bool) -> bool {
        let Some((to, from)) = squares_of(code) else {
            return false;
        };
        self.to |= BITS[to];
        if from < 81 {
            *promotes |= code & (1 << 14) != 0;
            if from == self.king {
                self.king = to;
                self.kings |= BITS[to];
            }
        } else {
            *drops = true;
        }
        true
    }
}

impl<'a> Signature<'a> {
    /// The first `limit` moves of `codes` (two bytes a move, `Move::to_u16` little-endian),
    /// up to the first code no move gives, played from `start`, whose side to move plays
    /// first.
    pub fn read(start: &Board, codes: &'a [u8], limit: usize) -> Signature<'a> {
        let first = start.side_to_move();
        // The first mover's moves and the other's, kept apart so that each stays in registers.
        let mut me = Half::of(start.king(first));
        let mut them = Half::of(start.king(first.opponent()));
        let (mut drops, mut promotes) = (false, false);
        let limit = limit.min(codes.len() / 2);
        let code = |i: usize| u16::from_le_bytes([codes[2 * i], codes[2 * i + 1]]);
        let mut read = 0;
        while read < limit {
            if !me.add(code(read), &mut drops, &mut promotes) {
                break;
            }
            read += 1;
            if read == limit || !them.add(code(read), &mut drops, &mut promotes) {
                break;
            }
            read += 1;
        }
        let (black, white) = match first {
            Color::Black => (me, them),
            Color::White => (them, me),
        };
        Signature {
            to: [black.to, white.to],
            kings: [black.kings, white.kings],
            drops,
            promotes,
            codes: &codes[..2 * read],
            first,
        }
    }

    /// Per side, the squares its moves come from (worked out when asked: only a test of the
    /// last move's square of departure needs them).
    fn departures(&self) -> [Squares; 2] {
        let mut from = [0; 2];
        let mut side = self.first.index();
        for c in self.codes.chunks_exact(2) {
            if let Some((_, f)) = squares_of(u16::from_le_bytes([c[0], c[1]]))
                && f < 81
            {
                from[side] |= BITS[f];
            }
            side ^= 1;
        }
        from
    }

    /// How many moves were read.
    pub fn len(&self) -> usize {
        self.codes.len() / 2
    }

    /// Whether a move of `color` can have left a piece of `kinds` on one of `targets`,
    /// coming from where `sources` allows (see `reach.rs`).
    fn arrives(&self, color: Color, kinds: u16, targets: Squares, sources: &[Squares; 81]) -> bool {
        // The side's moves, every other code (each read already: none fails).
        let mut i = 2 * usize::from(self.first != color);
        while i < self.codes.len() {
            let code = u16::from_le_bytes([self.codes[i], self.codes[i + 1]]);
            i += 4;
            if let Some((to, from)) = squares_of(code)
                && targets & BITS[to] != 0
                && super::super::reach::arrives(to, from, kinds, sources)
            {
                return true;
            }
        }
        false
    }

    fn destinations(&self) -> Squares {
        self.to[0] | self.to[1]
    }
}

/// What a shape of a castle needs of a game's moves, from one start position: the squares
/// each side's moves must reach (its pieces stand there in the shape and did not at the
/// start), sets of squares one of which a side's moves must reach, and the squares its
/// side's king may stand on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Need {
    to: [Squares; 2],
    any: Box<[(usize, Squares)]>,
    king: Squares,
}

/// The moves' test of a query's castles worked out for one start position: per castle (by
/// its slot), per side, what its shapes need (each need once).
#[derive(Debug, Clone, Default)]
pub(crate) struct Prepared {
    castles: Vec<[Vec<Need>; 2]>,
}

/// Adds what the castles of `n` need, in the order `number_castles` numbered them.
pub(super) fn prepare(n: &Node, start: &Board, prep: &mut Prepared) {
    match n {
        Node::And(p) | Node::Or(p) => p.iter().for_each(|p| prepare(p, start, prep)),
        Node::Not(inner) => prepare(inner, start, prep),
        Node::Leaf(Leaf::Castle(_, castles)) => {
            debug_assert_eq!(castles[0].slot, prep.castles.len());
            prep.castles.push([0, 1].map(|side| {
                let mut needs: Vec<Need> = Vec::new();
                let shapes = &castles[side].shapes;
                let others = shapes.iter().any(|s| !s.after_others);
                for s in shapes.iter().filter(|s| !(s.after_others && others)) {
                    let mut to = [0; 2];
                    let mut any = Vec::new();
                    for t in &s.tests {
                        match *t {
                            ShapeTest::All(who, k, m) => {
                                to[who.index()] |= m & !pieces(start, who, k);
                            }
                            ShapeTest::Any(who, k, m) if m & pieces(start, who, k) == 0 => {
                                any.push((who.index(), m));
                            }
                            _ => {}
                        }
                    }
                    let need = Need {
                        to,
                        any: any.into_boxed_slice(),
                        king: s.king,
                    };
                    if !needs.contains(&need) {
                        needs.push(need);
                    }
                }
                needs
            }));
        }
        Node::Leaf(_) => {}
    }
}

/// Whether [`may`] can say no for the node.
pub(super) fn tells(n: &Node) -> bool {
    match n {
        Node::And(p) => p.iter().any(tells),
        Node::Or(p) => p.iter().all(tells),
        Node::Not(_) => false,
        Node::Leaf(Leaf::On(on)) => on.what != What::Empty,
        Node::Leaf(Leaf::Last(_) | Leaf::Castle(..)) => true,
        Node::Leaf(_) => false,
    }
}

/// Whether the node may hold in a game from `start` with moves of signature `sig` (`prep`:
/// what the query prepared for `start`).
pub(super) fn may(n: &Node, start: &Board, prep: &Prepared, sig: &Signature<'_>) -> bool {
    match n {
        Node::And(p) => p.iter().all(|p| may(p, start, prep, sig)),
        Node::Or(p) => p.iter().any(|p| may(p, start, prep, sig)),
        Node::Not(_) => true,
        // A kind on a square: there from the start, or brought there by a move of its side
        // from a square it could come from (or dropped there).
        Node::Leaf(Leaf::On(on)) if on.what != What::Empty => {
            let arrives = |c: Color| {
                let m = on.masks[c.index()];
                m & sig.to[c.index()] != 0
                    && match (&on.sources, on.what) {
                        (Some(from), What::Kind(k)) => {
                            sig.arrives(c, kind_bit(k), m, &from[c.index()])
                        }
                        _ => true,
                    }
            };
            arrives(Color::Black) || arrives(Color::White) || on.holds(start)
        }
        Node::Leaf(Leaf::Last(t)) => {
            let mover =
                |m: &[Squares; 2], of: &[Squares; 2]| m[0] & of[0] != 0 || m[1] & of[1] != 0;
            t.to.is_none_or(|m| mover(&m, &sig.to))
                && t.from.is_none_or(|m| mover(&m, &sig.departures()))
                && (!t.m.drop || sig.drops)
                && (!t.m.promotion || sig.promotes)
                && t.m
                    .usi
                    .is_none_or(|u| sig.destinations() & bit(u.to()) != 0)
        }
        // A castle's shape needs each piece it names on its square (there from the start, or
        // brought there by a move of its side) and its side's king on one of the squares the
        // shape allows.
        Node::Leaf(Leaf::Castle(sides, castles)) => Color::ALL.into_iter().any(|c| {
            let kings = sig.kings[c.index()];
            sides[c.index()]
                && prep.castles[castles[c.index()].slot][c.index()]
                    .iter()
                    .any(|n| {
                        n.to[0] & !sig.to[0] == 0
                            && n.to[1] & !sig.to[1] == 0
                            && n.any.iter().all(|&(w, m)| m & sig.to[w] != 0)
                            && (n.king == ALL_SQUARES || n.king & kings != 0)
                    })
        }),
        Node::Leaf(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::{parse, plies_in};
    use super::super::{Compiled, Here, Names, Played};
    use super::*;
    use kifudex_shogi::{Move, Position};

    /// The plies at which `query` holds, every position tested: no moves' test.
    fn every_ply(query: &Compiled, start: &Position, moves: &[Move]) -> Vec<[u32; 2]> {
        let names = Names::of(start, moves);
        let mut board = Board::of(start);
        let mut out: Vec<[u32; 2]> = Vec::new();
        let (lo, hi) = query.plies;
        let mut test = |board: &Board, ply: u32, last: Option<Played>| {
            let here = Here {
                pos: board,
                ply,
                last,
                recognised: query.needs_recognition.then_some(&names),
            };
            if (lo..=hi).contains(&ply) && query.holds(&here) {
                match out.last_mut() {
                    Some(r) if r[1] + 1 == ply => r[1] = ply,
                    _ => out.push([ply, ply]),
                }
            }
        };
        test(&board, 0, None);
        for (i, &mv) in moves.iter().enumerate() {
            let Some(m) = board.play(mv) else { break };
            let played = Played {
                mv,
                piece: m.piece,
                captured: m.captured,
            };
            test(&board, i as u32 + 1, Some(played));
        }
        out
    }

    fn line(usi: &str) -> Vec<Move> {
        usi.split_whitespace()
            .map(|m| Move::from_usi(m).unwrap())
            .collect()
    }

    /// Both sides castle into 穴熊 (so 相穴熊, a shape of names alone, holds too), then one
    /// king leaves; a 美濃 for gote; a game that goes nowhere near either. The moves' test
    /// never rules out a ply that holds.
    #[test]
    fn the_moves_test_never_loses_a_ply() {
        let games = [
            "7g7f 3c3d 5i6h 5a4b 6h7h 4b3b 9i9h 1a1b 8h7g 2b3c 7h8h 3b2b 8h9i 2b1a 7i8h 3a2b \
             8h7i 2b3a 7i8h",
            "7g7f 3c3d 2g2f 8b4b 2f2e 5a6b 6i7h 6b7b 5i6h 7b8b 3i4h 7a7b 4i5h 6a5b",
            "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f P*8g 8f8d",
        ];
        let queries = [
            "穴熊",
            "▲穴熊",
            "△穴熊",
            "相穴熊",
            "穴熊 and ply <= 16",
            "居飛車穴熊 or 美濃囲い",
            "△美濃囲い and ply < 14",
            "not ▲穴熊 and ply > 10",
            "▲玉 on 9九 and last ▲ from 8八",
            "△飛 on 2二 or ▲角 on 7七",
            "last 打",
        ];
        let start = Position::startpos();
        let mut held = 0;
        for g in games {
            let moves = line(g);
            for text in queries {
                let q = Compiled::new(&parse(text).unwrap());
                let want = every_ply(&q, &start, &moves);
                held += want.len();
                assert_eq!(plies_in(&q, &start, &moves), want, "{text} in {g}");
            }
        }
        assert!(held > 14, "{held} ranges held");
    }

    /// A piece arrives by its own side's move only.
    #[test]
    fn a_piece_arrives_by_its_sides_move() {
        let sq = |f, r| Square::new(f, r).unwrap();
        let knight = 1 << kifudex_shogi::PieceKind::Knight.index();
        let from = super::super::super::reach::sources(Color::White, knight);
        let target = bit(sq(5, 5));
        let code = |m: Move| m.to_u16().to_le_bytes();
        let jump = code(Move::Board {
            from: sq(4, 3),
            to: sq(5, 5),
            promote: false,
        });
        let pawn = code(Move::Board {
            from: sq(7, 7),
            to: sq(7, 6),
            promote: false,
        });
        let start = Board::of(&kifudex_shogi::Position::startpos());
        let gote_jumps = [pawn, jump].concat();
        let sente_jumps = [jump, pawn].concat();
        let sig = Signature::read(&start, &gote_jumps, usize::MAX);
        assert!(sig.arrives(Color::White, knight, target, &from));
        let sig = Signature::read(&start, &sente_jumps, usize::MAX);
        assert!(!sig.arrives(Color::White, knight, target, &from));
        // Read up to ply 1, gote's jump is not read.
        let sig = Signature::read(&start, &gote_jumps, 1);
        assert!(!sig.arrives(Color::White, knight, target, &from));
    }

    /// The signature's reading of a code is the move's: every code of 16 bits.
    #[test]
    fn codes_read_as_moves_read_them() {
        for code in 0..=u16::MAX {
            let want = Move::from_u16(code).map(|m| match m {
                Move::Board { from, to, .. } => (to.index(), from.index()),
                Move::Drop { kind, to } => (
                    to.index(),
                    81 + kifudex_shogi::PieceKind::HAND
                        .iter()
                        .position(|&k| k == kind)
                        .unwrap(),
                ),
            });
            assert_eq!(squares_of(code), want, "code {code:#06x}");
        }
    }
}
