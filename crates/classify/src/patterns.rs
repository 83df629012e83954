//! The language of the definitions: what a name is ([`Def`]) and the shapes that make it
//! hold ([`Pattern`]); the definitions themselves are data, by family, in `families/`.
//!
//! Each name has a place in the hierarchy (its parent: ゴキゲン中飛車 is a 中飛車, which is a
//! 振り飛車), its other spellings and zero or more patterns. A pattern is a few conditions on
//! the board, written for sente (▲, moving up the board) in sente's coordinates — `sq(28)` is
//! 2八 — and read for gote rotated half a turn; it may hold only within its window of plies
//! (the number of moves played, counted from the game's start). A name holds for a side from
//! the first ply at which one of its patterns holds; its ancestors hold from then on too.
//! Names without patterns are groups, reached only through their children.

pub use super::board::{Kinds, Squares, area, kind, sq, sqs};
use kifudex_shogi::{Color, PieceKind};

pub use super::families::{DEFS, PATTERNS};

/// What a name is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// 戦法: what a side does with its rook, bishop and attackers.
    Strategy,
    /// 囲い: how a side shelters its king.
    Castle,
}

impl Kind {
    /// The word used in JSON and the database.
    pub fn code(self) -> &'static str {
        match self {
            Kind::Strategy => "strategy",
            Kind::Castle => "castle",
        }
    }

    pub fn from_code(code: &str) -> Option<Kind> {
        match code {
            "strategy" => Some(Kind::Strategy),
            "castle" => Some(Kind::Castle),
            _ => None,
        }
    }
}

/// A name in the hierarchy.
#[derive(Copy, Clone, Debug)]
pub struct Def {
    pub name: &'static str,
    pub kind: Kind,
    pub parent: Option<&'static str>,
    /// What a player would say the name means: the shape recognised, in words.
    pub about: &'static str,
    /// Other spellings: okurigana left out or written otherwise, romanised CSA values,
    /// English names. Compared folded (see [`super::names::fold`]).
    pub aliases: &'static [&'static str],
}

/// A strategy (戦法) without other spellings.
pub const fn strategy(
    name: &'static str,
    parent: Option<&'static str>,
    about: &'static str,
) -> Def {
    Def {
        name,
        kind: Kind::Strategy,
        parent,
        about,
        aliases: &[],
    }
}

/// A castle (囲い) without other spellings.
pub const fn castle(name: &'static str, parent: Option<&'static str>, about: &'static str) -> Def {
    Def {
        name,
        kind: Kind::Castle,
        parent,
        about,
        aliases: &[],
    }
}

impl Def {
    /// The name with its other spellings.
    pub const fn aka(self, aliases: &'static [&'static str]) -> Def {
        Def { aliases, ..self }
    }
}

/// One condition, in sente's coordinates ("own" is the side the pattern is read for).
#[derive(Copy, Clone, Debug)]
pub enum Cond {
    /// An own piece of one of the kinds stands on every square of the set.
    Own(Kinds, Squares),
    /// An own piece of one of the kinds stands on at least one square of the set.
    OwnAny(Kinds, Squares),
    /// No own piece of these kinds stands on any square of the set.
    OwnNone(Kinds, Squares),
    /// An opponent's piece of one of the kinds stands on every square of the set.
    Opp(Kinds, Squares),
    /// No opponent's piece of these kinds stands on any square of the set.
    OppNone(Kinds, Squares),
    /// The opponent has a piece of one of the kinds on at least one square of the set.
    OppAny(Kinds, Squares),
    /// The side holds this piece in hand.
    OwnHand(PieceKind),
    /// The opponent holds this piece in hand.
    OppHand(PieceKind),
    /// The side was recognised with this name at this ply or before.
    Had(&'static str),
    /// The side was recognised with this name first at this very ply.
    Just(&'static str),
    /// The side was not recognised with this name before this ply.
    NotHad(&'static str),
    /// The opponent was recognised with this name at this ply or before.
    OppHad(&'static str),
    /// The opponent was not recognised with this name before this ply.
    OppNotHad(&'static str),
    /// The opponent was recognised with this name through one of its own patterns (not only
    /// as the ancestor of another), at this ply or before: 横歩取り taken, not answered.
    OppDid(&'static str),
    /// The opening is still on: no piece but pawns and bishops has been captured yet (the
    /// pawn exchanges and the bishop exchange belong to the opening; the first silver,
    /// gold, knight, lance or rook taken starts the middle game).
    Opening,
    /// The side's rook has stood on its home rank (▲'s eighth, files 2–8) after every ply
    /// so far: it has neither climbed its file, nor taken anything off that rank, nor gone
    /// to the edge. A rook that swings in the opening does it from there; one that has been
    /// up (横歩取り, 相掛かり) and swings later is not a ranging rook.
    RookHome,
    /// The side is sente (Black) or gote (White).
    Side(Color),
}

/// A shape that makes a name hold.
#[derive(Copy, Clone, Debug)]
pub struct Pattern {
    pub name: &'static str,
    /// The first and last ply at which it may hold.
    pub plies: (u16, u16),
    pub conds: &'static [Cond],
}

/// A pattern of `name` within `plies`.
pub const fn pat(name: &'static str, plies: (u16, u16), conds: &'static [Cond]) -> Pattern {
    Pattern { name, plies, conds }
}

pub const P: Kinds = kind(PieceKind::Pawn);
pub const L: Kinds = kind(PieceKind::Lance);
pub const N: Kinds = kind(PieceKind::Knight);
pub const S: Kinds = kind(PieceKind::Silver);
pub const G: Kinds = kind(PieceKind::Gold);
pub const B: Kinds = kind(PieceKind::Bishop);
pub const R: Kinds = kind(PieceKind::Rook);
pub const K: Kinds = kind(PieceKind::King);
pub const GS: Kinds = G | S;

/// Files 1–4 and 6–9 (the king's sides), whole.
pub const RIGHT_SIDE: Squares = area(1, 4, 1, 9);
pub const LEFT_SIDE: Squares = area(6, 9, 1, 9);

/// A whole file.
pub const fn file(f: u8) -> Squares {
    area(f, f, 1, 9)
}

/// A rook on file `f` in its own half of the board or the middle rank (a swung rook).
pub const fn low(f: u8) -> Squares {
    area(f, f, 5, 9)
}

/// Windows: strategies are chosen in the opening; castles may be finished later.
pub const OPENING: (u16, u16) = (1, 40);
pub const CASTLING: (u16, u16) = (1, 80);
