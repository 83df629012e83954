//! The typed query: what the parser makes of the text, what `--explain` says back and what
//! the evaluator compiles. Squares are the board's own ([`Square`]); areas that depend on a
//! side (its camp, its left side) stay named until the evaluator knows the side.

use kifudex_classify::Kind;
use kifudex_shogi::{Color, Move, PieceKind, Square};

/// A whole query: conditions joined by `and`, `or` and `not`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Query {
    And(Vec<Query>),
    Or(Vec<Query>),
    Not(Box<Query>),
    Cond(Cond),
}

/// One condition on a position (and the move that led to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cond {
    /// A piece (or an empty square) somewhere: `▲９九玉`, `black rook in file 2`.
    Piece(PieceCond),
    /// Two numbers compared: `ply <= 60`, `▲歩 in hand >= 3`.
    Compare { left: Expr, op: Cmp, right: Expr },
    /// A number within a range, both ends included: `手数 30..60`.
    Between { expr: Expr, low: i64, high: i64 },
    /// The side to move: `手番 ▲`.
    Turn(Color),
    /// The move that led to the position.
    Last(LastMove),
    /// A strategy recognised by this ply, or a castle whose shape stands on the board now
    /// (see [`crate::find`]); `side` None: either side.
    Name {
        side: Option<Color>,
        name: &'static str,
        kind: Kind,
    },
}

/// What a piece condition asks to stand on its squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    Kind(PieceKind),
    /// Any piece (`駒`, `piece`).
    AnyPiece,
    /// No piece (`空`, `empty`).
    Empty,
}

/// A piece of a side (either side when `None`) on a place: on at least one of its squares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceCond {
    pub side: Option<Color>,
    pub what: What,
    pub place: Place,
}

/// Squares named by a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Anywhere on the board.
    Board,
    /// One square, or any of a set.
    Squares(Vec<Square>),
    /// A file, 1–9 (`２筋`, `file 2`).
    File(u8),
    /// A rank, 1–9 (`三段目`, `rank 3`, `rank c`).
    Rank(u8),
    /// An area seen from a side (the piece's, or the mover's for the last move).
    Area(Area),
}

/// The named areas, each seen from one side: for white the board is turned round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    /// 敵陣: the far three ranks (the promotion zone): ranks 1–3 for black.
    EnemyCamp,
    /// 自陣: the near three ranks: ranks 7–9 for black.
    OwnCamp,
    /// 中段: ranks 4–6 (the same for both sides).
    Middle,
    /// 中央: files 4–6 of ranks 4–6 (the same for both sides).
    Centre,
    /// 端: the edge files, 1 and 9 (the same for both sides).
    Edge,
    /// 左辺: the side's left, files 6–9 for black, 1–4 for white.
    LeftSide,
    /// 右辺: the side's right, files 1–4 for black, 6–9 for white.
    RightSide,
}

impl Area {
    pub const ALL: [Area; 7] = [
        Area::EnemyCamp,
        Area::OwnCamp,
        Area::Middle,
        Area::Centre,
        Area::Edge,
        Area::LeftSide,
        Area::RightSide,
    ];

    /// Whether `sq` lies in the area seen from `side`.
    pub fn contains(self, side: Color, sq: Square) -> bool {
        // Seen from black: white's view is the board turned round.
        let s = match side {
            Color::Black => sq,
            Color::White => sq.rotate(),
        };
        let (f, r) = (s.file(), s.rank());
        match self {
            Area::EnemyCamp => r <= 3,
            Area::OwnCamp => r >= 7,
            Area::Middle => (4..=6).contains(&r),
            Area::Centre => (4..=6).contains(&r) && (4..=6).contains(&f),
            Area::Edge => f == 1 || f == 9,
            Area::LeftSide => f >= 6,
            Area::RightSide => f <= 4,
        }
    }
}

/// Comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Eq => "=",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

/// A number: a sum of terms, each added or taken away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    /// `(true, term)` adds the term, `(false, term)` takes it away.
    pub terms: Vec<(bool, Term)>,
}

impl Expr {
    pub fn single(term: Term) -> Expr {
        Expr {
            terms: vec![(true, term)],
        }
    }
}

/// One number a position gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    Number(i64),
    /// The moves played to reach the position (0 at the start).
    Ply,
    /// How many of a kind a side holds in hand.
    Hand(Color, PieceKind),
    /// How many pieces of the condition stand on the board (squares for `Empty`).
    Count(PieceCond),
    /// A side's material: its pieces on the board and in hand, each at the value of its
    /// unpromoted kind (see [`value`]).
    Material(Color),
    /// A side's material less the other side's.
    Advantage(Color),
}

/// The value of a piece for material: 歩 1, 香 3, 桂 4, 銀 5, 金 6, 角 8, 飛 10, a promoted
/// piece what it returns to when taken, the king nothing.
pub fn value(kind: PieceKind) -> i64 {
    match kind.unpromoted() {
        PieceKind::Pawn => 1,
        PieceKind::Lance => 3,
        PieceKind::Knight => 4,
        PieceKind::Silver => 5,
        PieceKind::Gold => 6,
        PieceKind::Bishop => 8,
        PieceKind::Rook => 10,
        _ => 0,
    }
}

/// What the move that led to the position must have been; every field given must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LastMove {
    /// Who played it.
    pub side: Option<Color>,
    /// The piece moved, as it stood before the move (a promoting silver is a silver), or the
    /// piece dropped.
    pub piece: Option<PieceKind>,
    /// Where it went.
    pub to: Option<Place>,
    /// Where it came from (never a drop).
    pub from: Option<Place>,
    pub drop: bool,
    pub promotion: bool,
    /// A piece that could have promoted on this move and did not (不成).
    pub no_promotion: bool,
    /// It took a piece: `Some(None)` any, `Some(Some(kind))` one of this kind (as it stood).
    pub capture: Option<Option<PieceKind>>,
    /// It gave check.
    pub check: bool,
    /// Exactly this move (USI).
    pub usi: Option<Move>,
}

impl LastMove {
    /// Whether nothing is asked of the move beyond there being one.
    pub fn is_empty(&self) -> bool {
        *self == LastMove::default()
    }
}
