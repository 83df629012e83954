//! Legal move generation and perft.

use std::ops::ControlFlow;

use super::attacks::{self, DIRS, knight_jumps, masks, neighbor};
use super::moves::Move;
use super::position::Position;
use super::types::{Color, Piece, PieceKind, Square};

impl Position {
    /// Every legal move, board moves first (with and without promotion where both are
    /// allowed), then drops.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(128);
        self.generate_legal(&mut out);
        out
    }

    /// Appends every legal move to `out` (which is cleared first).
    pub fn generate_legal(&self, out: &mut Vec<Move>) {
        out.clear();
        let in_check = self.in_check();
        let _ = self.for_each_candidate(&mut |mv| {
            if self.is_safe(mv, in_check) {
                out.push(mv);
            }
            ControlFlow::Continue(())
        });
    }

    /// Calls `f` with every square holding `piece` that could move to `to` by the way it
    /// moves, nothing in between (what [`Position::play`] checks for illegal movement), in no
    /// particular order.
    pub fn sources(&self, piece: Piece, to: Square, f: impl FnMut(Square)) {
        attacks::sources(self.board(), self.occupied(), piece, to, f);
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let in_check = self.in_check();
        self.for_each_candidate(&mut |mv| {
            if self.is_safe(mv, in_check) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .is_break()
    }

    /// Calls `f` with every move that obeys every rule except the safety of the mover's
    /// own king, until `f` breaks.
    fn for_each_candidate(&self, f: &mut impl FnMut(Move) -> ControlFlow<()>) -> ControlFlow<()> {
        let us = self.side_to_move();
        let board = self.board();
        // A square a piece may move to: empty, or an enemy piece other than the king.
        let open = |to: Square| match board[to.index()] {
            None => true,
            Some(p) => p.color != us && p.kind != PieceKind::King,
        };
        for from in Square::all() {
            let Some(piece) = board[from.index()] else {
                continue;
            };
            if piece.color != us {
                continue;
            }
            if piece.kind == PieceKind::Knight {
                for (df, dr) in knight_jumps(us) {
                    if let Some(to) = from.offset(df, dr)
                        && open(to)
                    {
                        board_moves(piece, from, to, f)?;
                    }
                }
                continue;
            }
            let (step, slide) = masks(piece);
            for d in 0..DIRS.len() {
                let bit = 1 << d;
                if slide & bit != 0 {
                    let mut sq = from;
                    while let Some(to) = neighbor(sq, d) {
                        if open(to) {
                            board_moves(piece, from, to, f)?;
                        }
                        if board[to.index()].is_some() {
                            break;
                        }
                        sq = to;
                    }
                } else if step & bit != 0
                    && let Some(to) = neighbor(from, d)
                    && open(to)
                {
                    board_moves(piece, from, to, f)?;
                }
            }
        }
        let hand = *self.hand(us);
        if hand.is_empty() {
            return ControlFlow::Continue(());
        }
        let mut pawn_files = [false; 10];
        for s in Square::all() {
            if board[s.index()] == Some(Piece::new(us, PieceKind::Pawn)) {
                pawn_files[s.file() as usize] = true;
            }
        }
        let their_king = self.king(us.opponent());
        let forward: i8 = if us == Color::Black { -1 } else { 1 };
        for (kind, _) in hand.iter() {
            for to in Square::all() {
                if board[to.index()].is_some() || to.depth_for(us) < kind.min_depth() {
                    continue;
                }
                let mv = Move::Drop { kind, to };
                if kind == PieceKind::Pawn {
                    if pawn_files[to.file() as usize] {
                        continue;
                    }
                    if their_king.is_some() && to.offset(0, forward) == their_king {
                        let mut after = self.clone();
                        after.apply(mv);
                        if after.is_pawn_drop_mate(to) {
                            continue;
                        }
                    }
                }
                f(mv)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether `mv` (physically possible) leaves the mover's king safe.
    pub(super) fn is_safe(&self, mv: Move, in_check: bool) -> bool {
        let us = self.side_to_move();
        let Some(king) = self.king(us) else {
            return true;
        };
        match mv {
            Move::Drop { .. } if !in_check => true,
            Move::Board { from, .. } if !in_check && from != king && !aligned(from, king) => true,
            Move::Board { from, to, .. } if !in_check && from != king => {
                // The king was safe: only a line opened through the origin can attack it now.
                let mut board = *self.board();
                board[to.index()] = board[from.index()].take();
                let occupied = self.occupied() & !attacks::bit(from) | attacks::bit(to);
                !attacks::attacked_via(&board, occupied, king, from, us.opponent())
            }
            _ => {
                let mut board = *self.board();
                let mut occupied = self.occupied() | attacks::bit(mv.to());
                let king = match mv {
                    Move::Board { from, to, .. } => {
                        board[to.index()] = board[from.index()].take();
                        occupied &= !attacks::bit(from);
                        if from == king { to } else { king }
                    }
                    Move::Drop { kind, to } => {
                        board[to.index()] = Some(Piece::new(us, kind));
                        king
                    }
                };
                !attacks::attacked(&board, occupied, king, us.opponent())
            }
        }
    }

    /// The number of leaf nodes of the legal move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        let mut buffers = vec![Vec::with_capacity(128); depth as usize + 1];
        perft_inner(self, depth, &mut buffers)
    }

    /// Perft split by first move: each legal move with its node count at `depth - 1`.
    pub fn perft_divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let depth = depth.max(1);
        self.legal_moves()
            .into_iter()
            .map(|mv| {
                let mut after = self.clone();
                after.apply(mv);
                (mv, after.perft(depth - 1))
            })
            .collect()
    }
}

fn perft_inner(pos: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 0;
    };
    pos.generate_legal(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        let mut after = pos.clone();
        after.apply(mv);
        nodes += perft_inner(&after, depth - 1, rest);
    }
    nodes
}

/// Whether `a` and `b` share a file, rank or diagonal (so a piece on `a` may be pinned).
#[inline]
fn aligned(a: Square, b: Square) -> bool {
    attacks::direction(a, b).is_some()
}

/// Offers the promoting and the non-promoting move from `from` to `to`, each only where
/// the rules allow it.
#[inline]
fn board_moves(
    piece: Piece,
    from: Square,
    to: Square,
    f: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let us = piece.color;
    if piece.kind.can_promote() && (from.in_zone(us) || to.in_zone(us)) {
        f(Move::Board {
            from,
            to,
            promote: true,
        })?;
    }
    if to.depth_for(us) >= piece.kind.min_depth() {
        f(Move::Board {
            from,
            to,
            promote: false,
        })?;
    }
    ControlFlow::Continue(())
}
