//! SFEN: reading (strict, with errors that say what is wrong) and writing.

use super::position::{Position, PositionError, Strictness, hand_from_counts};
use super::types::{Color, Hand, Piece, PieceKind, Square};

/// The even-game start position in SFEN.
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Why a string is not an SFEN position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    #[error(
        "an SFEN has a board, a side to move, hands and an optional move number, but this has {0} field(s)"
    )]
    FieldCount(usize),
    #[error("the board has {0} ranks; it needs 9, separated by '/'")]
    RankCount(usize),
    #[error("rank {rank} has {squares} squares")]
    RankWidth { rank: usize, squares: usize },
    #[error(
        "rank {rank}: '{letter}' is not a piece letter (P L N S G B R K, lower case for white)"
    )]
    PieceLetter { rank: usize, letter: char },
    #[error("rank {rank}: '+' must be followed by a piece that promotes (P L N S B R)")]
    Promotion { rank: usize },
    #[error("the side to move is '{0}'; it must be b (black) or w (white)")]
    Side(String),
    #[error("hands: '{0}' is not a piece a hand can hold (P L N S G B R, lower case for white)")]
    HandLetter(char),
    #[error("hands: the count {0} is not followed by a piece letter")]
    DanglingCount(u32),
    #[error("hands: a count of {0} is not allowed (omit the piece, or write no count for one)")]
    CountForm(u32),
    #[error("hands: {color}'s {kind} are listed twice", color = .color.name(), kind = .kind.plural())]
    HandRepeated { color: Color, kind: PieceKind },
    #[error("the move number must be a positive whole number, but it is '{0}'")]
    MoveNumber(String),
    #[error(transparent)]
    Position(#[from] PositionError),
}

impl SfenError {
    /// Where in the SFEN's fields the error is: (field, byte offset in it); `None` for an
    /// error of the whole position.
    pub fn at(&self, fields: &[&str]) -> Option<(usize, usize)> {
        let rank_start = |rank: usize| -> usize {
            let board = fields.first().copied().unwrap_or("");
            board
                .split('/')
                .take(rank.saturating_sub(1))
                .map(|r| r.len() + 1)
                .sum()
        };
        let in_rank = |rank: usize, c: char| -> usize {
            let board = fields.first().copied().unwrap_or("");
            let start = rank_start(rank);
            let r = board[start.min(board.len())..]
                .split('/')
                .next()
                .unwrap_or("");
            start + r.find(c).unwrap_or(0)
        };
        Some(match self {
            SfenError::FieldCount(_) | SfenError::RankCount(_) => (0, 0),
            SfenError::RankWidth { rank, .. } => (0, rank_start(*rank)),
            SfenError::PieceLetter { rank, letter } => (0, in_rank(*rank, *letter)),
            SfenError::Promotion { rank } => (0, in_rank(*rank, '+')),
            SfenError::Side(_) => (1, 0),
            SfenError::HandLetter(c) => (2, fields.get(2).and_then(|h| h.find(*c)).unwrap_or(0)),
            SfenError::DanglingCount(_)
            | SfenError::CountForm(_)
            | SfenError::HandRepeated { .. } => (2, 0),
            SfenError::MoveNumber(_) => (3, 0),
            SfenError::Position(_) => return None,
        })
    }
}

impl Position {
    /// Reads an SFEN (`board side hands [move number]`), checking the position fully:
    /// piece counts, kings, no piece that can never move, no two pawns on a file, and
    /// the side not to move not in check.
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        Position::from_sfen_with(sfen, Strictness::Full)
    }

    /// Reads an SFEN, checking it as `strictness` says ([`Strictness::PiecesOnly`] accepts
    /// the positions that records with illegal moves reach).
    pub fn from_sfen_with(sfen: &str, strictness: Strictness) -> Result<Position, SfenError> {
        let fields: Vec<&str> = sfen.split_ascii_whitespace().collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(SfenError::FieldCount(fields.len()));
        }
        let board = parse_board(fields[0])?;
        let side = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(SfenError::Side(other.to_string())),
        };
        let hands = parse_hands(fields[2])?;
        let move_number = match fields.get(3) {
            None => 1,
            Some(n) => n
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| SfenError::MoveNumber(n.to_string()))?,
        };
        Ok(Position::new(board, hands, side, move_number, strictness)?)
    }

    /// The position as SFEN, with its move number.
    pub fn to_sfen(&self) -> String {
        let mut out = Vec::with_capacity(96);
        self.push_sfen_key(&mut out);
        out.push(b' ');
        crate::ascii::push_decimal(&mut out, u64::from(self.move_number()));
        // Only ASCII is ever written.
        String::from_utf8(out).unwrap_or_default()
    }

    /// Appends the position's SFEN without its move number (board, side to move, hands: what
    /// tells positions apart) to `out`, as bytes: the text [`Position::to_sfen`] starts with.
    pub fn push_sfen_key(&self, out: &mut Vec<u8>) {
        self.sfen_key_bytes(|b| out.push(b));
    }

    /// Calls `f` with each byte of [`Position::push_sfen_key`]'s text in turn: for writers
    /// that turn it into something else on the way (a book packs tens of millions of them).
    #[inline]
    pub fn sfen_key_bytes(&self, mut f: impl FnMut(u8)) {
        for rank in 0..9 {
            if rank > 0 {
                f(b'/');
            }
            self.sfen_rank_bytes(rank, &mut f);
        }
        f(b' ');
        f(self.sfen_side_byte());
        f(b' ');
        self.sfen_hands_bytes(f);
    }

    /// The bytes of one rank of the SFEN board (`rank` 0 the first, gote's back rank), to
    /// `f`: at most 18.
    #[inline]
    pub fn sfen_rank_bytes(&self, rank: usize, mut f: impl FnMut(u8)) {
        let board = self.board();
        let mut empty = 0u8;
        for file in (0..9).rev() {
            match board.get(file * 9 + rank).copied().flatten() {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        f(b'0' + empty);
                        empty = 0;
                    }
                    for &b in p.sfen_text().as_bytes() {
                        f(b);
                    }
                }
            }
        }
        if empty > 0 {
            f(b'0' + empty);
        }
    }

    /// The SFEN side to move: `b` or `w`.
    #[inline]
    pub fn sfen_side_byte(&self) -> u8 {
        match self.side_to_move() {
            Color::Black => b'b',
            Color::White => b'w',
        }
    }

    /// The bytes of the SFEN hands field, to `f`.
    #[inline]
    pub fn sfen_hands_bytes(&self, mut f: impl FnMut(u8)) {
        let mut none = true;
        for (color, hand) in [
            (Color::Black, self.hand(Color::Black)),
            (Color::White, self.hand(Color::White)),
        ] {
            for kind in PieceKind::HAND_BY_VALUE {
                let n = hand.count(kind);
                if n > 1 {
                    if n >= 10 {
                        f(b'0' + n / 10 % 10);
                    }
                    f(b'0' + n % 10);
                }
                if n > 0 {
                    none = false;
                    for &b in Piece::new(color, kind).sfen_text().as_bytes() {
                        f(b);
                    }
                }
            }
        }
        if none {
            f(b'-');
        }
    }
}

/// The SFEN hands field: Black's pieces then White's, each rook first, `-` when both are empty.
pub fn hands_sfen(black: &Hand, white: &Hand) -> String {
    let mut out = Vec::new();
    push_hands(&mut out, black, white);
    String::from_utf8(out).unwrap_or_default()
}

fn push_hands(out: &mut Vec<u8>, black: &Hand, white: &Hand) {
    let before = out.len();
    for (color, hand) in [(Color::Black, black), (Color::White, white)] {
        for kind in PieceKind::HAND_BY_VALUE {
            let n = hand.count(kind);
            if n > 1 {
                crate::ascii::push_decimal(out, u64::from(n));
            }
            if n > 0 {
                out.extend_from_slice(Piece::new(color, kind).sfen_text().as_bytes());
            }
        }
    }
    if out.len() == before {
        out.push(b'-');
    }
}

fn parse_board(text: &str) -> Result<[Option<Piece>; 81], SfenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount(ranks.len()));
    }
    let mut board = [None; 81];
    for (i, row) in ranks.iter().enumerate() {
        let rank = i + 1;
        // Squares are counted first so that a wrong width is reported as such, whatever else.
        let mut squares = 0usize;
        let mut promoted = false;
        let mut pieces = Vec::with_capacity(9);
        for c in row.chars() {
            if let Some(d) = c.to_digit(10).filter(|_| !promoted) {
                squares += d as usize;
                continue;
            }
            if c == '+' && !promoted {
                promoted = true;
                continue;
            }
            let kind = PieceKind::from_sfen_letter(c)
                .filter(|_| c.is_ascii_alphabetic())
                .ok_or(if promoted {
                    SfenError::Promotion { rank }
                } else {
                    SfenError::PieceLetter { rank, letter: c }
                })?;
            let kind = if promoted {
                kind.promoted().ok_or(SfenError::Promotion { rank })?
            } else {
                kind
            };
            let color = if c.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            pieces.push((squares, Piece::new(color, kind)));
            squares += 1;
            promoted = false;
        }
        if promoted {
            return Err(SfenError::Promotion { rank });
        }
        if squares != 9 {
            return Err(SfenError::RankWidth { rank, squares });
        }
        for (column, piece) in pieces {
            // Column 0 is file 9.
            if let Some(s) = Square::new(9 - column as u8, rank as u8) {
                board[s.index()] = Some(piece);
            }
        }
    }
    Ok(board)
}

fn parse_hands(text: &str) -> Result<[Hand; 2], SfenError> {
    if text == "-" {
        return Ok([Hand::default(); 2]);
    }
    let mut counts: [Vec<(PieceKind, u32)>; 2] = [Vec::new(), Vec::new()];
    let mut count: Option<u32> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0).saturating_mul(10).saturating_add(d);
            count = Some(n);
            continue;
        }
        let kind = PieceKind::from_sfen_letter(c)
            .filter(|k| *k != PieceKind::King && c.is_ascii_alphabetic())
            .ok_or(SfenError::HandLetter(c))?;
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let n = match count.take() {
            None => 1,
            Some(n) if n < 2 => return Err(SfenError::CountForm(n)),
            Some(n) => n,
        };
        let list = &mut counts[color.index()];
        if list.iter().any(|&(k, _)| k == kind) {
            return Err(SfenError::HandRepeated { color, kind });
        }
        list.push((kind, n));
    }
    if let Some(n) = count {
        return Err(SfenError::DanglingCount(n));
    }
    Ok([hand_from_counts(&counts[0])?, hand_from_counts(&counts[1])?])
}
