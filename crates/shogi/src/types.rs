//! Colours, squares, pieces and hands: the vocabulary every other part of the board speaks.

use std::fmt;

/// The two sides. Black is 先手 (or 下手 in a handicap game) and moves up the board
/// towards rank 1; White is 後手 (上手) and moves down towards rank 9.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The English word used in messages ("black", "white").
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

/// A square of the board. Files run 1–9 from Black's right to left, ranks 1–9 from
/// White's side (rank 1, USI `a`) to Black's side (rank 9, USI `i`).
///
/// The index is `(file - 1) * 9 + (rank - 1)`, so 1a is 0, 1i is 8, 9i is 80.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 81;

    /// The square at `file`, `rank` (both 1–9), or `None` off the board.
    #[inline]
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        if (1..=9).contains(&file) && (1..=9).contains(&rank) {
            Some(Square((file - 1) * 9 + (rank - 1)))
        } else {
            None
        }
    }

    /// The square with this index (0–80), or `None`.
    #[inline]
    pub fn from_index(index: usize) -> Option<Square> {
        (index < Self::COUNT).then_some(Square(index as u8))
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    #[inline]
    pub fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[inline]
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if (1..=9).contains(&f) && (1..=9).contains(&r) {
            Some(Square(((f - 1) * 9 + (r - 1)) as u8))
        } else {
            None
        }
    }

    /// Every square, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// How many ranks deep into `color`'s promotion zone this square is: rank 1 is 1
    /// for Black, rank 9 is 1 for White; squares outside the far three ranks give 4 or more.
    #[inline]
    pub fn depth_for(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 10 - self.rank(),
        }
    }

    /// Whether the square is in the promotion zone (the far three ranks) of `color`.
    #[inline]
    pub fn in_zone(self, color: Color) -> bool {
        self.depth_for(color) <= 3
    }

    /// The same square seen in a mirror between files: 1a ↔ 9a.
    #[inline]
    pub fn mirror(self) -> Square {
        Square((9 - self.file()) * 9 + (self.rank() - 1))
    }

    /// The square seen from the other side of the board: 1a ↔ 9i.
    #[inline]
    pub fn rotate(self) -> Square {
        Square(80 - self.0)
    }

    /// Two-digit file-rank form used by KIF origins and CSA: 7g is "77".
    pub fn digits(self) -> String {
        format!("{}{}", self.file(), self.rank())
    }
}

impl fmt::Display for Square {
    /// USI form: file digit and rank letter, `7g`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

/// The fourteen kinds of piece. The first seven are the kinds a hand can hold, in the
/// order hands are indexed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    Pawn = 0,
    Lance,
    Knight,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
    ProPawn,
    ProLance,
    ProKnight,
    ProSilver,
    Horse,
    Dragon,
}

impl PieceKind {
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The kinds a hand can hold, in hand index order.
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];

    /// The hand kinds in the order SFEN and KIF list them: rook first, pawn last.
    pub const HAND_BY_VALUE: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
    ];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(i: usize) -> Option<PieceKind> {
        Self::ALL.get(i).copied()
    }

    /// The promoted form, for the six kinds that promote.
    #[inline]
    pub fn promoted(self) -> Option<PieceKind> {
        use PieceKind::*;
        Some(match self {
            Pawn => ProPawn,
            Lance => ProLance,
            Knight => ProKnight,
            Silver => ProSilver,
            Bishop => Horse,
            Rook => Dragon,
            _ => return None,
        })
    }

    /// The kind before promotion (itself for unpromoted kinds): what a capture puts in hand.
    #[inline]
    pub fn unpromoted(self) -> PieceKind {
        use PieceKind::*;
        match self {
            ProPawn => Pawn,
            ProLance => Lance,
            ProKnight => Knight,
            ProSilver => Silver,
            Horse => Bishop,
            Dragon => Rook,
            k => k,
        }
    }

    #[inline]
    pub fn is_promoted(self) -> bool {
        self.index() >= PieceKind::ProPawn.index()
    }

    #[inline]
    pub fn can_promote(self) -> bool {
        self.promoted().is_some()
    }

    /// How many of this (unpromoted) kind a full set holds: 18 pawns, 4 lances, 2 rooks…
    pub fn total(self) -> u8 {
        use PieceKind::*;
        match self.unpromoted() {
            Pawn => 18,
            Lance | Knight | Silver | Gold => 4,
            Bishop | Rook | King => 2,
            _ => 0,
        }
    }

    /// The minimum depth into the far side (1 = last rank) at which a piece of this kind
    /// still has a move: pawns and lances need 2, knights 3, every other kind 1.
    #[inline]
    pub fn min_depth(self) -> u8 {
        match self {
            PieceKind::Pawn | PieceKind::Lance => 2,
            PieceKind::Knight => 3,
            _ => 1,
        }
    }

    /// English name used in messages.
    pub fn name(self) -> &'static str {
        use PieceKind::*;
        match self {
            Pawn => "pawn",
            Lance => "lance",
            Knight => "knight",
            Silver => "silver",
            Gold => "gold",
            Bishop => "bishop",
            Rook => "rook",
            King => "king",
            ProPawn => "promoted pawn",
            ProLance => "promoted lance",
            ProKnight => "promoted knight",
            ProSilver => "promoted silver",
            Horse => "horse",
            Dragon => "dragon",
        }
    }

    /// Plural English name used in messages ("pawns").
    pub fn plural(self) -> String {
        format!("{}s", self.name())
    }

    /// The SFEN letter of the unpromoted kind (upper case), without any `+`.
    pub fn sfen_letter(self) -> char {
        use PieceKind::*;
        match self.unpromoted() {
            Pawn => 'P',
            Lance => 'L',
            Knight => 'N',
            Silver => 'S',
            Gold => 'G',
            Bishop => 'B',
            Rook => 'R',
            _ => 'K',
        }
    }

    /// The unpromoted kind named by an SFEN letter (either case).
    pub fn from_sfen_letter(c: char) -> Option<PieceKind> {
        use PieceKind::*;
        Some(match c.to_ascii_uppercase() {
            'P' => Pawn,
            'L' => Lance,
            'N' => Knight,
            'S' => Silver,
            'G' => Gold,
            'B' => Bishop,
            'R' => Rook,
            'K' => King,
            _ => return None,
        })
    }

    /// The two-letter CSA name: FU KY KE GI KI KA HI OU TO NY NK NG UM RY.
    pub fn csa(self) -> &'static str {
        use PieceKind::*;
        match self {
            Pawn => "FU",
            Lance => "KY",
            Knight => "KE",
            Silver => "GI",
            Gold => "KI",
            Bishop => "KA",
            Rook => "HI",
            King => "OU",
            ProPawn => "TO",
            ProLance => "NY",
            ProKnight => "NK",
            ProSilver => "NG",
            Horse => "UM",
            Dragon => "RY",
        }
    }

    pub fn from_csa(s: &str) -> Option<PieceKind> {
        PieceKind::ALL.iter().copied().find(|k| k.csa() == s)
    }
}

/// A piece of one colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceKind,
}

impl Piece {
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// The SFEN text of the piece: `P`, `+p`, `K`…
    pub fn sfen(self) -> String {
        let mut out = String::with_capacity(2);
        self.push_sfen(&mut out);
        out
    }

    /// Appends the SFEN text of the piece to `out`.
    #[inline]
    pub fn push_sfen(self, out: &mut String) {
        out.push_str(self.sfen_text());
    }

    /// The SFEN text of the piece.
    #[inline]
    pub fn sfen_text(self) -> &'static str {
        // By colour, then kind in `PieceKind::ALL` order.
        const TEXT: [[&str; 14]; 2] = [
            [
                "P", "L", "N", "S", "G", "B", "R", "K", "+P", "+L", "+N", "+S", "+B", "+R",
            ],
            [
                "p", "l", "n", "s", "g", "b", "r", "k", "+p", "+l", "+n", "+s", "+b", "+r",
            ],
        ];
        TEXT[self.color.index()][self.kind.index()]
    }
}

/// The pieces one side holds in hand, counted by kind (pawn … rook).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand([u8; 7]);

impl Hand {
    /// How many pieces of `kind` the hand holds (0 for kinds that cannot be in hand).
    #[inline]
    pub fn count(&self, kind: PieceKind) -> u8 {
        self.0.get(kind.index()).copied().unwrap_or(0)
    }

    /// Sets the count for a hand kind; callers keep counts within [`PieceKind::total`].
    #[inline]
    pub fn set(&mut self, kind: PieceKind, n: u8) {
        self.0[kind.index()] = n;
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// The kinds held, with their counts, pawn first.
    pub fn iter(&self) -> impl Iterator<Item = (PieceKind, u8)> + '_ {
        PieceKind::HAND
            .iter()
            .zip(self.0.iter())
            .filter(|&(_, &n)| n > 0)
            .map(|(&k, &n)| (k, n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SFEN text table equals the letter rules: `+` for a promoted piece, the unpromoted
    /// kind's letter, lower case for white.
    #[test]
    fn piece_sfen_text_follows_the_letter_rules() {
        for color in [Color::Black, Color::White] {
            for kind in PieceKind::ALL {
                let letter = kind.sfen_letter();
                let letter = match color {
                    Color::Black => letter,
                    Color::White => letter.to_ascii_lowercase(),
                };
                let want = if kind.is_promoted() {
                    format!("+{letter}")
                } else {
                    letter.to_string()
                };
                assert_eq!(Piece::new(color, kind).sfen(), want, "{color:?} {kind:?}");
            }
        }
    }
}
