//! `Position`: the board, both hands, the side to move and the move number, with its
//! Zobrist hashes kept up to date move by move.

use std::sync::OnceLock;

use super::attacks;
use super::moves::Move;
use super::types::{Color, Hand, Piece, PieceKind, Square};
use super::zobrist;

/// A shogi position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; 81],
    hands: [Hand; 2],
    side: Color,
    /// The SFEN move number: 1 before the first move, +1 after every move.
    move_number: u32,
    kings: [Option<Square>; 2],
    /// Hash of the board and side to move.
    board_key: u64,
    /// Hash of both hands.
    hand_key: u64,
    /// Whether each side's king is attacked (false for a side without a king), kept move by
    /// move: a function of the board, so equal boards have equal flags.
    checked: [bool; 2],
    /// The occupied squares, bit `i` for square index `i`, kept move by move.
    occupied: u128,
}

/// How much a new position is checked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strictness {
    /// Everything: piece counts, kings, and the rules a real game cannot break
    /// (no piece that can never move, no two pawns on a file, the side not to move not in check).
    Full,
    /// Only what a board and a set of pieces can physically hold: piece counts and at most
    /// one king a side. For positions that illegal records really reach.
    PiecesOnly,
}

/// Why a board, hands and side to move do not make a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("two {} kings", .0.name())]
    TwoKings(Color),
    #[error("too many {kind}: {count} on the board and in hands, but a set has {max}", kind = .kind.plural())]
    TooMany { kind: PieceKind, count: u8, max: u8 },
    #[error("hand count {count} for {kind} (at most {max})", kind = .kind.plural())]
    HandCount {
        kind: PieceKind,
        count: u32,
        max: u8,
    },
    #[error("a hand cannot hold a {}", .0.name())]
    NotHandPiece(PieceKind),
    #[error("{color} {kind} on the last {ranks} ({square}) can never move", color = .color.name(), kind = .kind.name(), ranks = if .kind == &PieceKind::Knight { "two ranks" } else { "rank" })]
    DeadPiece {
        color: Color,
        kind: PieceKind,
        square: Square,
    },
    #[error("two unpromoted {} pawns on file {file} (二歩)", .color.name())]
    TwoPawns { color: Color, file: u8 },
    #[error("{}'s king is in check, but it is {}'s move", .0.name(), .0.opponent().name())]
    OpponentInCheck(Color),
}

impl Position {
    /// An empty board, Black to move, move 1.
    pub fn empty() -> Position {
        Position {
            board: [None; 81],
            hands: [Hand::default(); 2],
            side: Color::Black,
            move_number: 1,
            kings: [None; 2],
            board_key: 0,
            hand_key: 0,
            checked: [false; 2],
            occupied: 0,
        }
    }

    /// The even-game (平手) start position.
    pub fn startpos() -> Position {
        Position::start_ref().clone()
    }

    /// Whether this is the even-game start position (the hash is compared first).
    pub fn is_startpos(&self) -> bool {
        let start = Position::start_ref();
        self.hash() == start.hash() && self == start
    }

    /// The start position, built once: every game read starts from it (and every record is
    /// made with it).
    fn start_ref() -> &'static Position {
        static START: OnceLock<Position> = OnceLock::new();
        START.get_or_init(Position::build_startpos)
    }

    fn build_startpos() -> Position {
        use PieceKind::*;
        let back = [
            Lance, Knight, Silver, Gold, King, Gold, Silver, Knight, Lance,
        ];
        let mut board = [None; 81];
        for (i, &kind) in back.iter().enumerate() {
            let file = 9 - i as u8;
            board[sq(file, 1)] = Some(Piece::new(Color::White, kind));
            board[sq(file, 9)] = Some(Piece::new(Color::Black, kind));
        }
        for file in 1..=9 {
            board[sq(file, 3)] = Some(Piece::new(Color::White, Pawn));
            board[sq(file, 7)] = Some(Piece::new(Color::Black, Pawn));
        }
        board[sq(8, 2)] = Some(Piece::new(Color::White, Rook));
        board[sq(2, 2)] = Some(Piece::new(Color::White, Bishop));
        board[sq(8, 8)] = Some(Piece::new(Color::Black, Bishop));
        board[sq(2, 8)] = Some(Piece::new(Color::Black, Rook));
        Position::from_parts_unchecked(board, [Hand::default(); 2], Color::Black, 1)
    }

    /// A position from its parts, checked as `strictness` says.
    pub fn new(
        board: [Option<Piece>; 81],
        hands: [Hand; 2],
        side: Color,
        move_number: u32,
        strictness: Strictness,
    ) -> Result<Position, PositionError> {
        let pos = Position::from_parts_unchecked(board, hands, side, move_number);
        pos.validate(strictness)?;
        Ok(pos)
    }

    /// Builds the position without checking it; kings are found, hashes computed.
    /// The first king of a colour wins if there are two: callers validate.
    fn from_parts_unchecked(
        board: [Option<Piece>; 81],
        hands: [Hand; 2],
        side: Color,
        move_number: u32,
    ) -> Position {
        let mut pos = Position {
            board,
            hands,
            side,
            move_number,
            kings: [None; 2],
            board_key: 0,
            hand_key: 0,
            checked: [false; 2],
            occupied: 0,
        };
        for s in Square::all() {
            if let Some(p) = pos.board[s.index()]
                && p.kind == PieceKind::King
                && pos.kings[p.color.index()].is_none()
            {
                pos.kings[p.color.index()] = Some(s);
            }
        }
        (pos.board_key, pos.hand_key) = pos.compute_keys();
        pos.occupied = attacks::occupancy(&pos.board);
        pos.checked = pos.compute_checked();
        pos
    }

    /// Checks the position as `strictness` says.
    pub fn validate(&self, strictness: Strictness) -> Result<(), PositionError> {
        let mut counts = [0u8; 8];
        let mut kings = [0u8; 2];
        for p in self.board.iter().flatten() {
            let base = p.kind.unpromoted();
            counts[base.index()] = counts[base.index()].saturating_add(1);
            if p.kind == PieceKind::King {
                kings[p.color.index()] += 1;
                if kings[p.color.index()] > 1 {
                    return Err(PositionError::TwoKings(p.color));
                }
            }
        }
        for hand in &self.hands {
            for (kind, n) in hand.iter() {
                if n > kind.total() {
                    return Err(PositionError::HandCount {
                        kind,
                        count: n as u32,
                        max: kind.total(),
                    });
                }
                counts[kind.index()] = counts[kind.index()].saturating_add(n);
            }
        }
        for kind in PieceKind::HAND {
            if counts[kind.index()] > kind.total() {
                return Err(PositionError::TooMany {
                    kind,
                    count: counts[kind.index()],
                    max: kind.total(),
                });
            }
        }
        if strictness == Strictness::PiecesOnly {
            return Ok(());
        }
        let mut pawn_files = [[false; 10]; 2];
        for s in Square::all() {
            let Some(p) = self.board[s.index()] else {
                continue;
            };
            if s.depth_for(p.color) < p.kind.min_depth() {
                return Err(PositionError::DeadPiece {
                    color: p.color,
                    kind: p.kind,
                    square: s,
                });
            }
            if p.kind == PieceKind::Pawn {
                let seen = &mut pawn_files[p.color.index()][s.file() as usize];
                if *seen {
                    return Err(PositionError::TwoPawns {
                        color: p.color,
                        file: s.file(),
                    });
                }
                *seen = true;
            }
        }
        let waiting = self.side.opponent();
        if let Some(k) = self.king(waiting)
            && attacks::attacked(&self.board, self.occupied, k, self.side)
        {
            return Err(PositionError::OpponentInCheck(waiting));
        }
        Ok(())
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The board, indexed by [`Square::index`].
    #[inline]
    pub fn board(&self) -> &[Option<Piece>; 81] {
        &self.board
    }

    #[inline]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The SFEN move number: 1 at the start, one more after every move.
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Sets the move number (SFEN's fourth field).
    pub fn set_move_number(&mut self, n: u32) {
        self.move_number = n;
    }

    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// The 64-bit Zobrist hash of board, hands and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.board_key ^ self.hand_key
    }
    /// Calls `f` with the board hash ([`Position::board_hash`]) of this position and of each
    /// position `moves` lead to, each with the move played from it (`None` after the last).
    /// Only the board is kept up to date (no hands, kings or checks): much quicker than
    /// playing the moves, for moves a reader already played.
    pub fn board_hashes(
        &self,
        moves: impl IntoIterator<Item = Move>,
        mut f: impl FnMut(u64, Option<Move>),
    ) {
        let mut board = self.board;
        let mut key = self.board_key;
        let mut side = self.side;
        for mv in moves {
            f(key, Some(mv));
            // The same steps as `apply`, on the board and its hash alone.
            match mv {
                Move::Board { from, to, promote } => {
                    if let Some(captured) = board[to.index()].take() {
                        key ^= zobrist::piece_key(captured, to);
                    }
                    if let Some(mut p) = board[from.index()].take() {
                        key ^= zobrist::piece_key(p, from);
                        if promote && let Some(k) = p.kind.promoted() {
                            p.kind = k;
                        }
                        board[to.index()] = Some(p);
                        key ^= zobrist::piece_key(p, to);
                    }
                }
                Move::Drop { kind, to } => {
                    let p = Piece::new(side, kind);
                    board[to.index()] = Some(p);
                    key ^= zobrist::piece_key(p, to);
                }
            }
            side = side.opponent();
            key ^= zobrist::SIDE_TOGGLE;
        }
        f(key, None);
    }

    /// The hash of the board and side to move only, for searches that ignore hands.
    #[inline]
    pub fn board_hash(&self) -> u64 {
        self.board_key
    }

    /// Both hashes computed from scratch: (board and side, hands).
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut board_key = zobrist::side_key(self.side);
        for s in Square::all() {
            if let Some(p) = self.board[s.index()] {
                board_key ^= zobrist::piece_key(p, s);
            }
        }
        let mut hand_key = 0;
        for color in Color::ALL {
            for (kind, n) in self.hands[color.index()].iter() {
                hand_key ^= zobrist::hand_key(color, kind, n);
            }
        }
        (board_key, hand_key)
    }

    /// Whether `color`'s king (if it has one) is attacked.
    #[inline]
    pub fn is_king_attacked(&self, color: Color) -> bool {
        self.checked[color.index()]
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_king_attacked(self.side)
    }

    /// For each colour, whether its king is attacked, computed from scratch.
    fn compute_checked(&self) -> [bool; 2] {
        Color::ALL.map(|c| {
            self.king(c)
                .is_some_and(|k| attacks::attacked(&self.board, self.occupied, k, c.opponent()))
        })
    }

    /// Whether any piece of `by` attacks `sq`.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        attacks::attacked(&self.board, self.occupied, sq, by)
    }

    /// The occupied squares as bits by square index.
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.occupied
    }

    #[inline]
    fn put(&mut self, s: Square, p: Piece) {
        self.board[s.index()] = Some(p);
        self.occupied |= attacks::bit(s);
        self.board_key ^= zobrist::piece_key(p, s);
    }

    #[inline]
    fn take(&mut self, s: Square) -> Option<Piece> {
        let p = self.board[s.index()].take()?;
        self.occupied &= !attacks::bit(s);
        self.board_key ^= zobrist::piece_key(p, s);
        Some(p)
    }

    #[inline]
    fn add_to_hand(&mut self, color: Color, kind: PieceKind) {
        let n = self.hands[color.index()].count(kind);
        let m = (n + 1).min(kind.total());
        self.hand_key ^= zobrist::hand_key(color, kind, n) ^ zobrist::hand_key(color, kind, m);
        self.hands[color.index()].set(kind, m);
    }

    #[inline]
    fn remove_from_hand(&mut self, color: Color, kind: PieceKind) {
        let n = self.hands[color.index()].count(kind);
        let m = n.saturating_sub(1);
        self.hand_key ^= zobrist::hand_key(color, kind, n) ^ zobrist::hand_key(color, kind, m);
        self.hands[color.index()].set(kind, m);
    }

    /// Applies a move that is physically possible: the mover's piece is on the origin (or in
    /// hand), the destination holds no piece of the mover's nor a king, and a promoting piece
    /// can promote. Hashes, kings, side and move number are updated. Nothing else is checked.
    pub fn apply(&mut self, mv: Move) {
        let us = self.side;
        let mut king_moved = false;
        match mv {
            Move::Board { from, to, promote } => {
                if let Some(captured) = self.take(to) {
                    self.add_to_hand(us, captured.kind.unpromoted());
                }
                if let Some(mut p) = self.take(from) {
                    if promote && let Some(k) = p.kind.promoted() {
                        p.kind = k;
                    }
                    if p.kind == PieceKind::King {
                        self.kings[us.index()] = Some(to);
                        king_moved = true;
                    }
                    self.put(to, p);
                }
            }
            Move::Drop { kind, to } => {
                self.remove_from_hand(us, kind);
                self.put(to, Piece::new(us, kind));
            }
        }
        self.update_checked(mv, us, king_moved);
        self.side = us.opponent();
        self.board_key ^= zobrist::SIDE_TOGGLE;
        self.move_number = self.move_number.saturating_add(1);
    }

    /// Brings the check flags up to date after `us` played `mv`. Only the origin and the
    /// destination changed, so a king that was not attacked and did not move can only be
    /// attacked now along the line through one of them (or by a knight landing on the
    /// destination): the mover's king by a line the origin opened, the other king by the
    /// moved piece or by a line the origin opened. Anything else is computed in full.
    fn update_checked(&mut self, mv: Move, us: Color, king_moved: bool) {
        let them = us.opponent();
        let from = mv.from();
        let to = mv.to();
        let (board, occ) = (&self.board, self.occupied);
        let ours = match self.kings[us.index()] {
            None => false,
            Some(k) if king_moved || self.checked[us.index()] => {
                attacks::attacked(board, occ, k, them)
            }
            Some(k) => from.is_some_and(|f| attacks::attacked_via(board, occ, k, f, them)),
        };
        let theirs = match self.kings[them.index()] {
            None => false,
            Some(k) if self.checked[them.index()] => attacks::attacked(board, occ, k, us),
            Some(k) => {
                // Both, not short-circuit: a check comes too irregularly to predict.
                attacks::attacked_via(board, occ, k, to, us)
                    | from.is_some_and(|f| attacks::attacked_via(board, occ, k, f, us))
            }
        };
        self.checked[us.index()] = ours;
        self.checked[them.index()] = theirs;
        debug_assert_eq!(
            self.occupied,
            attacks::occupancy(&self.board),
            "occupancy after {mv}"
        );
        debug_assert_eq!(
            self.checked,
            self.compute_checked(),
            "check flags after {mv}"
        );
    }

    /// The position mirrored left to right (file 1 ↔ file 9); hands and side unchanged.
    pub fn mirror(&self) -> Position {
        let mut board = [None; 81];
        for s in Square::all() {
            board[s.mirror().index()] = self.board[s.index()];
        }
        Position::from_parts_unchecked(board, self.hands, self.side, self.move_number)
    }

    /// The same board and hands with `side` to move.
    pub fn with_side_to_move(&self, side: Color) -> Position {
        Position::from_parts_unchecked(self.board, self.hands, side, self.move_number)
    }

    /// Whether two positions have the same pieces on the same squares, the same side to move
    /// and (unless `ignore_hands`) the same hands; move numbers do not count.
    pub fn same_as(&self, other: &Position, ignore_hands: bool) -> bool {
        self.board_key == other.board_key
            && self.side == other.side
            && self.board == other.board
            && (ignore_hands || self.hands == other.hands)
    }

    /// The position with colours swapped: the board turned round, every piece changing side,
    /// hands exchanged and the other side to move. Black's game seen as White's.
    pub fn flip(&self) -> Position {
        let mut board = [None; 81];
        for s in Square::all() {
            board[s.rotate().index()] =
                self.board[s.index()].map(|p| Piece::new(p.color.opponent(), p.kind));
        }
        let hands = [self.hands[1], self.hands[0]];
        Position::from_parts_unchecked(board, hands, self.side.opponent(), self.move_number)
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

#[inline]
fn sq(file: u8, rank: u8) -> usize {
    (file as usize - 1) * 9 + (rank as usize - 1)
}

/// A hand with the given counts; counts above a kind's total are an error.
pub fn hand_from_counts(counts: &[(PieceKind, u32)]) -> Result<Hand, PositionError> {
    let mut hand = Hand::default();
    for &(kind, n) in counts {
        if kind == PieceKind::King || kind.is_promoted() {
            return Err(PositionError::NotHandPiece(kind));
        }
        let total = hand.count(kind) as u32 + n;
        if total > kind.total() as u32 {
            return Err(PositionError::HandCount {
                kind,
                count: total,
                max: kind.total(),
            });
        }
        hand.set(kind, total as u8);
    }
    Ok(hand)
}
