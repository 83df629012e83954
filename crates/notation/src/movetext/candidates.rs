//! The pieces of one kind that can reach a square, and the relative words (右 左 直 上 引 寄
//! 行 入) that tell them apart: what reading and writing Japanese moves share.

use super::squares::Squares;
use super::{Relative, forward, reaches, right_of};
use kifudex_shogi::{Color, Move, Piece, PieceKind, Position, Square};

/// Bishops, rooks, horses and dragons: 右 and 左 compare the two pieces, and no 直.
fn is_major(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Bishop | PieceKind::Rook | PieceKind::Horse | PieceKind::Dragon
    )
}

/// The pieces of one kind of the side to move that can reach one square.
pub(super) struct Candidates {
    pub(super) us: Color,
    pub(super) kind: PieceKind,
    pub(super) to: Square,
    /// Those whose move there is physically possible, rules aside, in board order.
    pub(super) physical: Squares,
    /// Those among them with a legal move there (promoting or not).
    pub(super) legal: Squares,
}

impl Candidates {
    pub(super) fn new(pos: &Position, kind: PieceKind, to: Square) -> Candidates {
        let us = pos.side_to_move();
        let piece = Piece::new(us, kind);
        let open = pos
            .piece_at(to)
            .is_none_or(|p| p.color != us && p.kind != PieceKind::King);
        let mut physical = Squares::new(to);
        let mut legal = Squares::new(to);
        if open {
            pos.sources(piece, to, |from| physical.push(from));
            physical.sort();
        }
        // The board's own search must find exactly what `reaches` allows.
        debug_assert!(
            Square::all()
                .filter(|&f| open && pos.piece_at(f) == Some(piece) && reaches(pos, piece, f, to))
                .eq(physical.iter().copied()),
            "candidates for {kind:?} to {to}"
        );
        for &from in physical.iter() {
            if [false, true]
                .into_iter()
                .any(|promote| pos.is_legal(Move::Board { from, to, promote }))
            {
                legal.push(from);
            }
        }
        Candidates {
            us,
            kind,
            to,
            physical,
            legal,
        }
    }

    /// Whether a move from `from` fits the motion words (上 行 引 寄 入 直) of `rel`.
    pub(super) fn motion_fits(&self, from: Square, rel: Relative) -> bool {
        let fwd = forward(self.us, from, self.to);
        let up = rel.contains(Relative::UP) || rel.contains(Relative::GO);
        (!up || fwd > 0)
            && (!rel.contains(Relative::DOWN) || fwd < 0)
            && (!rel.contains(Relative::SIDEWAYS) || fwd == 0)
            && (!rel.contains(Relative::ENTER)
                || !from.in_zone(self.us) && self.to.in_zone(self.us))
            && (!rel.contains(Relative::STRAIGHT) || from.file() == self.to.file() && fwd > 0)
    }

    /// The squares of `set` whose pieces fit every word of `rel`. For the major pieces, 右
    /// and 左 compare with every physically possible candidate that fits the motion words,
    /// so a legal subset is always the legal part of the physical answer.
    pub(super) fn select(&self, set: &[Square], rel: Relative) -> Squares {
        let mut out = Squares::new(self.to);
        if rel.is_empty() {
            // No word to fit: every square does.
            set.iter().for_each(|&f| out.push(f));
            return out;
        }
        let mut peers = Squares::new(self.to);
        for &f in self.physical.iter() {
            if self.motion_fits(f, rel) {
                peers.push(f);
            }
        }
        let (us, to) = (self.us, self.to);
        let side_fits = |f: Square| {
            let (right, left) = if is_major(self.kind) {
                let others = || peers.iter().copied().filter(move |&o| o != f);
                (
                    others().all(|o| right_of(us, f, o)),
                    others().all(|o| right_of(us, o, f)),
                )
            } else {
                (right_of(us, f, to), right_of(us, to, f))
            };
            (!rel.contains(Relative::RIGHT) || right) && (!rel.contains(Relative::LEFT) || left)
        };
        for &f in set {
            if self.motion_fits(f, rel) && side_fits(f) {
                out.push(f);
            }
        }
        out
    }

    /// The set a writer distinguishes `from` within: the legal candidates if `from` is one.
    pub(super) fn set_for(&self, from: Square) -> &[Square] {
        if self.legal.contains(&from) {
            &self.legal
        } else {
            &self.physical
        }
    }

    /// The motion word of a move from `from`: 上, 寄 or 引.
    pub(super) fn motion(&self, from: Square) -> Relative {
        match forward(self.us, from, self.to) {
            1.. => Relative::UP,
            0 => Relative::SIDEWAYS,
            _ => Relative::DOWN,
        }
    }

    /// The fewest relative words, in the 連盟's order of preference (motion, then
    /// position, then both), that single out `from` within `set`.
    pub(super) fn words(&self, from: Square, set: &[Square]) -> Relative {
        let motion = self.motion(from);
        let mut options = vec![Relative::NONE, motion];
        if !is_major(self.kind) {
            options.push(Relative::STRAIGHT);
        }
        options.extend([
            Relative::RIGHT,
            Relative::LEFT,
            Relative::RIGHT | motion,
            Relative::LEFT | motion,
        ]);
        options
            .into_iter()
            .find(|&rel| *self.select(set, rel) == [from])
            .unwrap_or(motion)
    }
}
