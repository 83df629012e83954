//! The 256-bit packed positions the engines' learners read, and their 16-bit moves.
//!
//! Both packings write, least significant bit of each byte first: the side to move (1 bit,
//! 0 sente), sente's king square and gote's king square (7 bits each, the square index 0–80:
//! 1a is 0, 1i is 8, 9i is 80), then every other square in index order (an empty square is
//! the single bit 0, a piece a prefix code), then the pieces in hand, sente's then gote's.
//! With the full set of 40 pieces the total is exactly 256 bits wherever the pieces stand:
//! a piece in hand costs one bit less than on the board, and its square one bit of empty.
//!
//! The two differ in small things: dlshogi's HuffmanCodedPos (after Apery) writes a board
//! piece's side before its promotion bit and codes the knight `110`, the silver `101`;
//! YaneuraOu's PackedSfen writes the promotion bit first and swaps those two codes; in hand,
//! dlshogi codes the bishop and the rook apart ([`hand_code`]).

use kifudex_shogi::{Color, Move, Piece, PieceKind, Position};

/// The two packings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Packing {
    /// dlshogi's HuffmanCodedPos (the `hcp` of an `hcpe` record).
    Hcp,
    /// YaneuraOu's PackedSfen (the `sfen` of a PackedSfenValue).
    PackedSfen,
}

/// A prefix code (or any run of bits), bit `i` the `i`-th written.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
struct Code {
    bits: u64,
    len: u32,
}

impl Code {
    fn push(&mut self, bit: bool) {
        self.bits |= u64::from(bit) << self.len;
        self.len += 1;
    }

    fn code(&mut self, code: &str) {
        for c in code.bytes() {
            self.push(c == b'1');
        }
    }
}

/// The prefix code of an unpromoted kind, in the order its bits are written.
fn kind_code(kind: PieceKind, packing: Packing) -> &'static str {
    use PieceKind::*;
    match (kind.unpromoted(), packing) {
        (Pawn, _) => "0",
        (Lance, _) => "100",
        (Knight, Packing::Hcp) | (Silver, Packing::PackedSfen) => "110",
        (Silver, Packing::Hcp) | (Knight, Packing::PackedSfen) => "101",
        (Gold, _) => "1110",
        (Bishop, _) => "11110",
        // The rook; kings are written as squares, never as codes.
        _ => "11111",
    }
}

fn board_piece(bits: &mut Code, piece: Piece, packing: Packing) {
    bits.push(true);
    bits.code(kind_code(piece.kind, packing));
    let white = piece.color == Color::White;
    let has_promotion = piece.kind.unpromoted() != PieceKind::Gold;
    let promoted = piece.kind.is_promoted();
    match packing {
        Packing::Hcp => {
            bits.push(white);
            if has_promotion {
                bits.push(promoted);
            }
        }
        Packing::PackedSfen => {
            if has_promotion {
                bits.push(promoted);
            }
            bits.push(white);
        }
    }
}

/// The code of a piece in hand before its side's bit. YaneuraOu's is the kind's code and a
/// promotion bit that is never set (none for the gold); dlshogi's is the same for the pawn,
/// lance, knight, silver and gold but gives the bishop `111110` and the rook `111111`.
fn hand_code(kind: PieceKind, packing: Packing) -> &'static str {
    use PieceKind::*;
    match (kind, packing) {
        (Gold, _) => "1110",
        (Bishop, Packing::Hcp) => "111110",
        (Rook, Packing::Hcp) => "111111",
        (Pawn, _) => "00",
        (Lance, _) => "1000",
        (Knight, Packing::Hcp) | (Silver, Packing::PackedSfen) => "1100",
        (Silver, Packing::Hcp) | (Knight, Packing::PackedSfen) => "1010",
        (Bishop, _) => "111100",
        _ => "111110",
    }
}

fn hand_piece(bits: &mut Code, kind: PieceKind, color: Color, packing: Packing) {
    bits.code(hand_code(kind, packing));
    bits.push(color == Color::White);
}

/// Whether the position holds exactly the full set of 40 pieces (on the board or in hand),
/// one king a side: the only positions the 256-bit packings can hold. A handicap game's
/// start, or a problem's, lacks pieces and cannot be packed.
pub fn is_full_set(pos: &Position) -> bool {
    let mut count = [0u8; 8];
    let mut kings = [0u8; 2];
    for piece in pos.board().iter().flatten() {
        if piece.kind == PieceKind::King {
            kings[piece.color.index()] += 1;
        }
        count[piece.kind.unpromoted().index()] += 1;
    }
    for color in Color::ALL {
        for (kind, n) in pos.hand(color).iter() {
            count[kind.index()] += n;
        }
    }
    kings == [1, 1]
        && PieceKind::ALL[..8]
            .iter()
            .all(|k| count[k.index()] == k.total())
}

/// Bits written into 32 bytes, least significant bit of each byte first, 64 at a time: a
/// code is added to the word being filled, which is stored once full (a few times a
/// position, where a branch costs less than storing at every code).
struct Words {
    out: [u64; 4],
    /// The bits of the word being filled, the first written lowest.
    acc: u64,
    /// How many bits of `acc` are written (0–63).
    filled: u32,
    /// The word being filled: 4 once all are (a position that is not a full set may write
    /// more; those bits are thrown away).
    word: usize,
}

impl Words {
    /// Writes the `len` low bits of `bits` (`len` at most 64, no bit set above them).
    #[inline(always)]
    fn put(&mut self, bits: u64, len: u32) {
        self.acc |= bits << self.filled;
        let total = self.filled + len;
        if total >= 64 {
            if let Some(w) = self.out.get_mut(self.word) {
                *w = self.acc;
            }
            self.word += 1;
            // The bits that did not fit, `bits >> (64 - filled)`, in two shifts: with
            // `filled` 0 (and `len` 64) none is left, and no shift goes past 63.
            self.acc = (bits >> 1) >> (63 - self.filled);
            self.filled = total - 64;
        } else {
            self.filled = total;
        }
    }
}

/// Each piece's code on the board and in hand, for one packing, worked out once from
/// [`kind_code`] and [`hand_code`].
struct Codes {
    /// By `color << 4 | kind`: an occupied square's bit and the piece's code (nothing for a
    /// king, written as a square).
    board: [Code; 32],
    /// By colour, kind and count: the code of the piece in hand, as many times as the count
    /// (for counts above the kind's total, the total's).
    hands: [[[Code; 19]; 7]; 2],
}

impl Codes {
    fn of(packing: Packing) -> Codes {
        let mut board = [Code::default(); 32];
        let mut hands = [[[Code::default(); 19]; 7]; 2];
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                if kind != PieceKind::King {
                    let c = &mut board[color.index() << 4 | kind.index()];
                    board_piece(c, Piece::new(color, kind), packing);
                }
            }
            for kind in PieceKind::HAND {
                let mut one = Code::default();
                hand_piece(&mut one, kind, color, packing);
                let runs = &mut hands[color.index()][kind.index()];
                for n in 1..runs.len() {
                    runs[n] = runs[n - 1];
                    if n <= usize::from(kind.total()) {
                        runs[n].bits |= one.bits << runs[n].len;
                        runs[n].len += one.len;
                    }
                }
            }
        }
        Codes { board, hands }
    }
}

static CODES: std::sync::LazyLock<[Codes; 2]> =
    std::sync::LazyLock::new(|| [Codes::of(Packing::Hcp), Codes::of(Packing::PackedSfen)]);

/// The position packed, or `None` when it is not a full set ([`is_full_set`]).
pub fn pack(pos: &Position, packing: Packing) -> Option<[u8; 32]> {
    is_full_set(pos).then(|| pack_full_set(pos, &SquareCodes::of(pos, packing)))
}

/// Each square's code in one packing (an empty square's single 0, nothing for a king), and
/// each file's codes one after the other, kept move by move beside a position: a move
/// changes one or two files, and packing writes 9 files instead of some 40 pieces and the
/// empty squares between them.
#[derive(Clone, Debug)]
pub struct SquareCodes {
    packing: Packing,
    /// The code's bits, and its length times 256 (a code is at most 8 bits).
    codes: [u16; 81],
    /// By file (1 to 9), its 9 squares' codes in square order (at most 72 bits), and their
    /// length.
    files: [(u128, u32); 9],
}

impl SquareCodes {
    pub fn of(pos: &Position, packing: Packing) -> SquareCodes {
        let mut squares = SquareCodes {
            packing,
            codes: [0; 81],
            files: [(0, 0); 9],
        };
        for (i, piece) in pos.board().iter().enumerate() {
            squares.codes[i] = squares.code_of(*piece);
        }
        for file in 0..9 {
            squares.join_file(file);
        }
        squares
    }

    /// Puts the codes of the squares of `file` (0 to 8) together.
    fn join_file(&mut self, file: usize) {
        let (mut bits, mut len) = (0u128, 0u32);
        for &c in &self.codes[file * 9..file * 9 + 9] {
            bits |= u128::from(c & 0xff) << len;
            len += u32::from(c >> 8);
        }
        self.files[file] = (bits, len);
    }

    fn code_of(&self, piece: Option<Piece>) -> u16 {
        let code = match piece {
            Some(p) => {
                CODES[usize::from(self.packing == Packing::PackedSfen)].board
                    [p.color.index() << 4 | p.kind.index()]
            }
            None => Code { bits: 0, len: 1 },
        };
        code.bits as u16 | (code.len as u16) << 8
    }

    /// Brings the codes up to date with `pos`, reached by playing `mv`: only its origin and
    /// destination changed.
    pub fn played(&mut self, pos: &Position, mv: Move) {
        for sq in mv.from().into_iter().chain([mv.to()]) {
            self.codes[sq.index()] = self.code_of(pos.piece_at(sq));
            self.join_file(sq.index() / 9);
        }
    }
}

/// The position packed, when it is known to be a full set ([`is_full_set`]) and `squares`
/// are its codes: every position a game reaches by moves from a start that is one, as a
/// move only takes pieces between the board and the hands. Of any other position the bits
/// mean nothing.
pub fn pack_full_set(pos: &Position, squares: &SquareCodes) -> [u8; 32] {
    let codes = &CODES[usize::from(squares.packing == Packing::PackedSfen)];
    let king = |c: Color| pos.king(c).map_or(0, |s| s.index() as u64);
    let mut words = Words {
        out: [0; 4],
        acc: 0,
        filled: 0,
        word: 0,
    };
    let white = u64::from(pos.side_to_move() == Color::White);
    words.put(
        white | king(Color::Black) << 1 | king(Color::White) << 8,
        15,
    );
    for &(bits, len) in &squares.files {
        // A file's codes pass 64 bits only with some 8 pieces or more on it.
        words.put(bits as u64, len.min(64));
        if len > 64 {
            words.put((bits >> 64) as u64, len - 64);
        }
    }
    for color in Color::ALL {
        // Pawn … rook, the gold after the silver: the order of `PieceKind::HAND`, in which
        // cshogi writes both packings (a reader takes the pieces in any order).
        let hand = pos.hand(color);
        if hand.is_empty() {
            continue;
        }
        let runs = &codes.hands[color.index()];
        for kind in PieceKind::HAND {
            let n = usize::from(hand.count(kind)).min(18);
            let run = runs[kind.index()][n];
            words.put(run.bits, run.len);
        }
    }
    let mut out = [0; 32];
    for (bytes, word) in out.chunks_exact_mut(8).zip(words.out) {
        bytes.copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// The number both formats give a kind dropped from hand: pawn 1, lance 2, knight 3,
/// silver 4, bishop 5, rook 6, gold 7.
fn drop_number(kind: PieceKind) -> u16 {
    use PieceKind::*;
    match kind {
        Pawn => 1,
        Lance => 2,
        Knight => 3,
        Silver => 4,
        Bishop => 5,
        Rook => 6,
        _ => 7,
    }
}

/// The move as an `hcpe` record's `bestMove16` (cshogi's `move16`): the destination in bits
/// 0–6, the origin in bits 7–13 (80 + [`drop_number`] for a drop), promotion in bit 14.
pub fn hcpe_move(mv: Move) -> u16 {
    match mv {
        Move::Board { from, to, promote } => {
            to.index() as u16 | (from.index() as u16) << 7 | u16::from(promote) << 14
        }
        Move::Drop { kind, to } => to.index() as u16 | (80 + drop_number(kind)) << 7,
    }
}

/// The move as a PackedSfenValue's `move` (YaneuraOu's Move16): the destination in bits 0–6,
/// the origin in bits 7–13, promotion in bit 15; a drop sets bit 14 and puts the dropped
/// kind's [`drop_number`] where the origin goes.
pub fn psv_move(mv: Move) -> u16 {
    match mv {
        Move::Board { from, to, promote } => {
            to.index() as u16 | (from.index() as u16) << 7 | u16::from(promote) << 15
        }
        Move::Drop { kind, to } => to.index() as u16 | drop_number(kind) << 7 | 1 << 14,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifudex_shogi::Square;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    fn sq(file: u8, rank: u8) -> Square {
        Square::new(file, rank).unwrap()
    }

    // The start position as cshogi 1.1.0's `Board().to_hcp()` and `to_psfen()` give it.
    #[test]
    fn start_position_packs_as_cshogi_packs_it() {
        let pos = Position::startpos();
        assert_eq!(
            hex(&pack(&pos, Packing::Hcp).unwrap()),
            "58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c"
        );
        assert_eq!(
            hex(&pack(&pos, Packing::PackedSfen).unwrap()),
            "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c"
        );
    }

    fn packed_hex(sfen: &str) -> (String, String) {
        let pos = Position::from_sfen(sfen).unwrap();
        (
            hex(&pack(&pos, Packing::Hcp).unwrap()),
            hex(&pack(&pos, Packing::PackedSfen).unwrap()),
        )
    }

    // Every kind in both hands, and promoted pieces on both sides with pawns in hand, as
    // cshogi 1.1.0 packs them.
    #[test]
    fn hands_and_promoted_pieces_pack_as_cshogi_packs_them() {
        assert_eq!(
            packed_hex("4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1"),
            (
                "5824000000000000000000000000004218a394733e3f922449c63867adf77eff".into(),
                "5824000000000000000000000000004228658c731e1f922449c658eb9cf73ebf".into()
            )
        );
        assert_eq!(
            packed_hex("lnsgkg1nl/1r5s1/pppppp1+Bp/9/9/9/P+b1PPPPPP/7R1/LNSGKGSNL b 2P2p 11"),
            (
                "58a449210cd7f689f83980b0bc0ae15108af4278360596ebaff0ed9814c20090".into(),
                "58a451220cebf985f8598070bc12e19108af44784e098ef537f16d1925c20090".into()
            )
        );
    }

    /// A square's content as the tests read it back: kind letter (lower case), promoted,
    /// white.
    type Cell = Option<(char, bool, bool)>;

    /// Side to move (white?), the board square by square, and each side's hand by letter.
    type Unpacked = (bool, Vec<Cell>, [Vec<(char, u8)>; 2]);

    /// Reads a packing back with the codes written independently here: the side to move,
    /// the board square by square and the hands (counts by letter, sente's and gote's),
    /// checking that exactly 256 bits are used.
    fn unpack(b: &[u8; 32], packing: Packing) -> Unpacked {
        let bits: Vec<bool> = (0..256).map(|i| b[i / 8] >> (i % 8) & 1 == 1).collect();
        let at = std::cell::Cell::new(0);
        let mut next = || {
            let v = bits[at.get()];
            at.set(at.get() + 1);
            v
        };
        let white_to_move = next();
        let mut king = [0usize; 2];
        for k in &mut king {
            *k = (0..7).map(|i| usize::from(next()) << i).sum();
        }
        let (knight, silver) = match packing {
            Packing::Hcp => ("110", "101"),
            Packing::PackedSfen => ("101", "110"),
        };
        let kinds = [
            ("0", 'p'),
            ("100", 'l'),
            (knight, 'n'),
            (silver, 's'),
            ("1110", 'g'),
            ("11110", 'b'),
            ("11111", 'r'),
        ];
        let read_kind = |next: &mut dyn FnMut() -> bool| {
            let mut code = String::new();
            loop {
                code.push(if next() { '1' } else { '0' });
                if let Some((_, c)) = kinds.iter().find(|(k, _)| *k == code) {
                    return *c;
                }
                assert!(code.len() < 6, "no code {code}");
            }
        };
        let mut board: Vec<Cell> = vec![None; 81];
        board[king[0]] = Some(('k', false, false));
        board[king[1]] = Some(('k', false, true));
        for (i, cell) in board.iter_mut().enumerate() {
            if i == king[0] || i == king[1] || !next() {
                continue;
            }
            let c = read_kind(&mut next);
            let (white, promoted) = match (packing, c) {
                (_, 'g') => (next(), false),
                (Packing::Hcp, _) => (next(), next()),
                (Packing::PackedSfen, _) => {
                    let p = next();
                    (next(), p)
                }
            };
            *cell = Some((c, promoted, white));
        }
        // In hand: the board's code and a 0 (none for the gold), but dlshogi's bishop and
        // rook are 111110 and 111111.
        let mut hands: [Vec<(char, u8)>; 2] = [Vec::new(), Vec::new()];
        while at.get() < 256 {
            let mut c = read_kind(&mut next);
            if packing == Packing::Hcp && c == 'r' {
                c = if next() { 'r' } else { 'b' };
            } else if c != 'g' {
                assert!(!next(), "a piece in hand is never promoted");
            }
            let hand = &mut hands[usize::from(next())];
            match hand.iter_mut().find(|(k, _)| *k == c) {
                Some((_, n)) => *n += 1,
                None => hand.push((c, 1)),
            }
        }
        assert_eq!(at.get(), 256);
        for h in &mut hands {
            h.sort();
        }
        (white_to_move, board, hands)
    }

    fn expected(pos: &Position) -> Unpacked {
        let board = Square::all()
            .map(|s| {
                pos.piece_at(s).map(|p| {
                    let letter = p.kind.unpromoted().sfen_letter().to_ascii_lowercase();
                    (letter, p.kind.is_promoted(), p.color == Color::White)
                })
            })
            .collect();
        let hand = |c: Color| {
            let mut h: Vec<(char, u8)> = pos
                .hand(c)
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(k, n)| (k.sfen_letter().to_ascii_lowercase(), n))
                .collect();
            h.sort();
            h
        };
        (
            pos.side_to_move() == Color::White,
            board,
            [hand(Color::Black), hand(Color::White)],
        )
    }

    #[test]
    fn a_middle_game_with_promotions_and_hands_reads_back() {
        let mut pos = Position::startpos();
        let moves = [
            "7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "B*6e", "4e3d", "6e7f", "3d2c+", "7f8g+",
        ];
        for m in moves {
            pos.play(Move::from_usi(m).unwrap()).unwrap();
            for packing in [Packing::Hcp, Packing::PackedSfen] {
                let packed = pack(&pos, packing).unwrap();
                assert_eq!(unpack(&packed, packing), expected(&pos), "{m} {packing:?}");
            }
        }
        // The last position: a horse each, two pawns in each hand, sente to move.
        let (white, board, hands) = unpack(&pack(&pos, Packing::Hcp).unwrap(), Packing::Hcp);
        assert!(!white);
        assert_eq!(board[sq(2, 3).index()], Some(('b', true, false)));
        assert_eq!(board[sq(8, 7).index()], Some(('b', true, true)));
        assert_eq!(hands, [vec![('p', 2)], vec![('p', 2)]]);
    }

    /// The packing written the slow way, one bit at a time from the code strings, with the
    /// full set checked apart: what [`pack`]'s tables and words must give.
    fn pack_bit_by_bit(pos: &Position, packing: Packing) -> Option<[u8; 32]> {
        if !is_full_set(pos) {
            return None;
        }
        let mut bits: Vec<bool> = vec![pos.side_to_move() == Color::White];
        for color in Color::ALL {
            let sq = pos.king(color)?.index();
            bits.extend((0..7).map(|i| sq >> i & 1 == 1));
        }
        let code = |bits: &mut Vec<bool>, c: &str| bits.extend(c.bytes().map(|b| b == b'1'));
        for piece in pos.board() {
            match piece {
                None => bits.push(false),
                Some(p) if p.kind == PieceKind::King => {}
                Some(p) => {
                    bits.push(true);
                    code(&mut bits, kind_code(p.kind, packing));
                    let white = p.color == Color::White;
                    let promotion =
                        (p.kind.unpromoted() != PieceKind::Gold).then_some(p.kind.is_promoted());
                    match packing {
                        Packing::Hcp => bits.extend([Some(white), promotion].into_iter().flatten()),
                        Packing::PackedSfen => {
                            bits.extend([promotion, Some(white)].into_iter().flatten())
                        }
                    }
                }
            }
        }
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                for _ in 0..pos.hand(color).count(kind) {
                    code(&mut bits, hand_code(kind, packing));
                    bits.push(color == Color::White);
                }
            }
        }
        assert_eq!(bits.len(), 256);
        let mut out = [0u8; 32];
        for (i, _) in bits.iter().enumerate().filter(|(_, b)| **b) {
            out[i / 8] |= 1 << (i % 8);
        }
        Some(out)
    }

    /// Games of random legal moves (a fixed xorshift stream), long enough for captures,
    /// promotions and drops: every position packs as the bit-by-bit writing packs it.
    #[test]
    fn random_games_pack_as_the_bit_by_bit_writing_does() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut positions = 0;
        let mut with_hands = 0;
        // Two-piece handicap games (never a full set) among the even ones.
        let handicap = Position::from_sfen_with(
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            kifudex_shogi::Strictness::PiecesOnly,
        )
        .unwrap();
        for game in 0..40 {
            let mut pos = if game % 8 == 7 {
                handicap.clone()
            } else {
                Position::startpos()
            };
            // The square codes kept move by move, as the export keeps them.
            let mut kept = [Packing::Hcp, Packing::PackedSfen].map(|p| SquareCodes::of(&pos, p));
            for _ in 0..160 {
                for packing in [Packing::Hcp, Packing::PackedSfen] {
                    assert_eq!(
                        pack(&pos, packing),
                        pack_bit_by_bit(&pos, packing),
                        "{}",
                        pos.to_sfen()
                    );
                }
                positions += 1;
                with_hands += usize::from(!pos.hand(Color::Black).is_empty());
                for (packing, squares) in [Packing::Hcp, Packing::PackedSfen].iter().zip(&kept) {
                    if is_full_set(&pos) {
                        assert_eq!(
                            Some(pack_full_set(&pos, squares)),
                            pack_bit_by_bit(&pos, *packing)
                        );
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let mv = moves[(x % moves.len() as u64) as usize];
                pos.play(mv).unwrap();
                for squares in &mut kept {
                    squares.played(&pos, mv);
                }
            }
        }
        assert!(positions > 2000, "{positions}");
        assert!(with_hands > 500, "{with_hands}");
    }

    #[test]
    fn positions_without_the_full_set_are_refused() {
        // Bare kings (a problem), and a two-piece handicap (二枚落ち).
        for sfen in [
            "4k4/9/9/9/9/9/9/9/4K4 b - 1",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ] {
            let pos =
                Position::from_sfen_with(sfen, kifudex_shogi::Strictness::PiecesOnly).unwrap();
            assert!(!is_full_set(&pos), "{sfen}");
            assert_eq!(pack(&pos, Packing::Hcp), None);
            assert_eq!(pack(&pos, Packing::PackedSfen), None);
        }
        assert!(is_full_set(&Position::startpos()));
    }

    #[test]
    fn moves_are_numbered_as_each_format_numbers_them() {
        let m = |s: &str| Move::from_usi(s).unwrap();
        // 7g7f: from 60 to 59.
        assert_eq!(hcpe_move(m("7g7f")), 59 | 60 << 7);
        assert_eq!(psv_move(m("7g7f")), 59 | 60 << 7);
        // 8h2b+: from 70 to 10, promoting.
        assert_eq!(hcpe_move(m("8h2b+")), 10 | 70 << 7 | 1 << 14);
        assert_eq!(psv_move(m("8h2b+")), 10 | 70 << 7 | 1 << 15);
        // B*4e: to 31; cshogi 1.1.0 gives 10911 and, turned to YaneuraOu's, 0x429f.
        assert_eq!(hcpe_move(m("B*4e")), 10911);
        assert_eq!(psv_move(m("B*4e")), 0x429f);
        assert_eq!(hcpe_move(m("G*5e")), 40 | 87 << 7);
        assert_eq!(psv_move(m("P*5e")), 40 | 1 << 7 | 1 << 14);
    }
}
