//! Move text: Japanese moves as KI2 and KIF write them (`▲７六歩`, `同　銀右`, `２二角成(88)`),
//! read in two steps like a SAN parser — syntax ([`parse_japanese_move`]) then meaning on a
//! position ([`resolve`]) — and written back with the minimal relative words of the
//! 日本将棋連盟 rules ([`japanese`], [`kif_move_text`]); and the Western Hodges (`P-7f`,
//! `G6i-5h`) and Hosking (`P76`, `Bx22+`) notations; Kitao–Kawasaki's hybrid (`☗歩-76`,
//! `☗銀(72)x83+`, `☖歩x`) is in [`kitao`].
//!
//! Relative words, as the 連盟's 棋譜の表記方法 defines them, when several pieces of the kind
//! named can reach the destination: first the motion (上 forward, 寄 sideways, 引 backward);
//! if that is not enough, the position (右 or 左 of the destination as the mover sees it, 直
//! for a gold, silver or promoted minor piece moving straight forward); if neither alone is
//! enough, both (金左上). Bishops, rooks, horses and dragons (at most two of a kind) never
//! use 直: their 右 and 左 say which of the two stands on the mover's right or left. Old
//! records' 行 (= 上) and 入 (entering the promotion zone) are read too.

use std::fmt;
use std::ops::{BitOr, BitOrAssign};

use super::japanese::{digit, kind_name, piece_prefix, side_mark, square_prefix, square_text};
use candidates::Candidates;
pub use error::{MoveTextError, MoveTextErrorKind};

mod candidates;
mod error;
pub mod iroha;
pub mod kitao;
mod squares;
mod write;
use kifudex_shogi::{Color, Move, Piece, PieceKind, Position, Square};

/// A set of relative words: 右 左 直 上 引 寄 行 入.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Relative(u8);

impl Relative {
    pub const NONE: Relative = Relative(0);
    /// 右: the piece on the mover's right.
    pub const RIGHT: Relative = Relative(1);
    /// 左: the piece on the mover's left.
    pub const LEFT: Relative = Relative(1 << 1);
    /// 直: straight forward.
    pub const STRAIGHT: Relative = Relative(1 << 2);
    /// 上: forward, towards the opponent.
    pub const UP: Relative = Relative(1 << 3);
    /// 引: backward.
    pub const DOWN: Relative = Relative(1 << 4);
    /// 寄: sideways.
    pub const SIDEWAYS: Relative = Relative(1 << 5);
    /// 行: forward, an old synonym of 上.
    pub const GO: Relative = Relative(1 << 6);
    /// 入: entering the promotion zone.
    pub const ENTER: Relative = Relative(1 << 7);

    /// The words in the order they are written: position first, then motion.
    const WORDS: [(char, Relative); 8] = [
        ('右', Relative::RIGHT),
        ('左', Relative::LEFT),
        ('直', Relative::STRAIGHT),
        ('上', Relative::UP),
        ('引', Relative::DOWN),
        ('寄', Relative::SIDEWAYS),
        ('行', Relative::GO),
        ('入', Relative::ENTER),
    ];

    /// The word written with this character.
    pub fn from_char(c: char) -> Option<Relative> {
        // Self::WORDS
        Some(match c {
            '右' => Relative::RIGHT,
            '左' => Relative::LEFT,
            '直' => Relative::STRAIGHT,
            '上' => Relative::UP,
            '引' => Relative::DOWN,
            '寄' => Relative::SIDEWAYS,
            '行' => Relative::GO,
            '入' => Relative::ENTER,
            _ => return None,
        })
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every word of `other` is in the set.
    #[inline]
    pub fn contains(self, other: Relative) -> bool {
        self.0 & other.0 == other.0
    }

    /// The words of `self` that are not in `other`.
    #[inline]
    pub fn without(self, other: Relative) -> Relative {
        Relative(self.0 & !other.0)
    }
}

impl BitOr for Relative {
    type Output = Relative;
    fn bitor(self, rhs: Relative) -> Relative {
        Relative(self.0 | rhs.0)
    }
}

impl BitOrAssign for Relative {
    fn bitor_assign(&mut self, rhs: Relative) {
        self.0 |= rhs.0;
    }
}

impl fmt::Display for Relative {
    /// The words in written order (`左上`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (c, r) in Relative::WORDS {
            if self.contains(r) {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// A Japanese move as written, before it is matched against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JapaneseMove {
    /// The side mark (▲☗ Black, △☖▽ White), if written.
    pub side: Option<Color>,
    /// The destination; `None` for 同 (the previous move's destination).
    pub to: Option<Square>,
    /// The piece named: the kind before the move (`角` in `２二角成`).
    pub piece: PieceKind,
    pub relative: Relative,
    /// 成 `Some(true)`, 不成 or 生 `Some(false)`, neither `None`.
    pub promote: Option<bool>,
    /// 打 (or KIF's origin `(00)`).
    pub drop: bool,
    /// KIF's origin, `(77)`.
    pub origin: Option<Square>,
}

impl fmt::Display for JapaneseMove {
    /// The move in KI2/KIF form: `▲同　銀右`, `２二角成(88)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.side {
            Some(Color::Black) => f.write_str("▲")?,
            Some(Color::White) => f.write_str("△")?,
            None => {}
        }
        match self.to {
            Some(to) => f.write_str(&square_text(to))?,
            None => f.write_str("同　")?,
        }
        write!(f, "{}{}", kind_name(self.piece), self.relative)?;
        match self.promote {
            Some(true) => f.write_str("成")?,
            Some(false) => f.write_str("不成")?,
            None => {}
        }
        if self.drop {
            f.write_str("打")?;
        }
        if let Some(o) = self.origin {
            write!(f, "({})", o.digits())?;
        }
        Ok(())
    }
}

/// The length in bytes of the half- and full-width spaces at the start of `s`.
fn spaces(s: &str) -> usize {
    let b = s.as_bytes();
    let mut n = 0;
    loop {
        match b.get(n..) {
            Some([b' ', ..]) => n += 1,
            Some([0xE3, 0x80, 0x80, ..]) => n += '\u{3000}'.len_utf8(),
            _ => return n,
        }
    }
}

/// The start of `s` for messages: at most eight characters.
fn excerpt(s: &str) -> String {
    if s.is_empty() {
        return "nothing".to_string();
    }
    let cut: String = s.chars().take(8).collect();
    let more = if cut.len() < s.len() { "…" } else { "" };
    format!("'{cut}{more}'")
}

/// A KIF origin `(77)` (or `（７７）`) at the start of `s`, with its length: `None` inside for
/// `(00)`, a drop. Parentheses not followed by a digit (a time, `( 0:01/00:00:01)`) are no
/// origin and not part of the move.
fn origin_prefix(s: &str) -> Result<Option<(Option<Square>, usize)>, MoveTextError> {
    let num = |c: char| match c {
        '0' | '０' => Some(0),
        '1'..='9' | '１'..='９' => digit(c),
        _ => None,
    };
    // '（' is EF BC 88.
    if !matches!(s.as_bytes().first(), Some(b'(' | 0xEF)) || !s.starts_with(['(', '（']) {
        return Ok(None);
    }
    let mut it = s.char_indices().skip(1);
    let Some(f) = it.next().and_then(|(_, c)| num(c)) else {
        return Ok(None);
    };
    let bad = || {
        MoveTextError::new(
            MoveTextErrorKind::Syntax,
            format!(
                "expected a two-digit origin like (77) after the move, found {}",
                excerpt(s)
            ),
        )
    };
    let r = it.next().and_then(|(_, c)| num(c)).ok_or_else(bad)?;
    match it.next() {
        Some((i, c @ (')' | '）'))) => {
            let len = i + c.len_utf8();
            if f == 0 && r == 0 {
                Ok(Some((None, len)))
            } else {
                Ok(Some((Some(Square::new(f, r).ok_or_else(bad)?), len)))
            }
        }
        _ => Err(bad()),
    }
}

/// Reads one Japanese move at the start of `text`: an optional side mark, the destination
/// (`７六`, `76`, `７６`) or `同` (spaces may follow), the piece name, relative words, 成 不成 生
/// or 打, and KIF's origin `(77)`. Returns the move and the bytes it took; reading stops
/// before anything else, such as the next move's side mark on a KI2 line.
pub fn parse_japanese_move(text: &str) -> Result<(JapaneseMove, usize), MoveTextError> {
    let mut i = 0;
    let side = side_mark(text).map(|(color, n)| {
        i = n;
        color
    });
    i += spaces(&text[i..]);
    let to = if text[i..].starts_with('同') {
        i += '同'.len_utf8();
        i += spaces(&text[i..]);
        None
    } else if let Some((sq, n)) = square_prefix(&text[i..]) {
        i += n;
        // Newspapers write `７六同歩` at the top of a page.
        if text[i..].starts_with('同') {
            i += '同'.len_utf8();
        }
        i += spaces(&text[i..]);
        Some(sq)
    } else {
        return Err(MoveTextError::new(
            MoveTextErrorKind::Syntax,
            format!(
                "expected a move: a destination square like ７六 or 76, or 同; found {}",
                excerpt(&text[i..])
            ),
        ));
    };
    let (piece, n) = piece_prefix(&text[i..]).ok_or_else(|| {
        MoveTextError::new(MoveTextErrorKind::Syntax, format!(
            "expected a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍) after {}, found {}",
            to.map_or("同".to_string(), square_text),
            excerpt(&text[i..])
        ))
    })?;
    i += n;
    let mut relative = Relative::NONE;
    while let Some(c) = text[i..].chars().next()
        && let Some(r) = Relative::from_char(c)
    {
        relative |= r;
        i += c.len_utf8();
    }
    let mut promote = None;
    let mut drop = false;
    let rest = &text[i..];
    if rest.starts_with("不成") {
        promote = Some(false);
        i += "不成".len();
    } else if rest.starts_with('生') {
        promote = Some(false);
        i += '生'.len_utf8();
    } else if rest.starts_with('成') {
        promote = Some(true);
        i += '成'.len_utf8();
    } else if rest.starts_with('打') {
        drop = true;
        i += '打'.len_utf8();
    }
    let mut origin = None;
    if let Some((o, n)) = origin_prefix(&text[i..])? {
        match o {
            Some(sq) => origin = Some(sq),
            None => drop = true,
        }
        i += n;
    }
    let mv = JapaneseMove {
        side,
        to,
        piece,
        relative,
        promote,
        drop,
        origin,
    };
    Ok((mv, i))
}

/// +1 for Black, -1 for White: turns board directions into the mover's.
#[inline]
fn sign(us: Color) -> i8 {
    match us {
        Color::Black => 1,
        Color::White => -1,
    }
}

/// How far forward (towards the opponent) a move from `from` to `to` goes; negative is back.
#[inline]
fn forward(us: Color, from: Square, to: Square) -> i8 {
    (from.rank() as i8 - to.rank() as i8) * sign(us)
}

/// Whether `a` stands on the mover's right of `b` (for Black, on a lower file).
#[inline]
fn right_of(us: Color, a: Square, b: Square) -> bool {
    (b.file() as i8 - a.file() as i8) * sign(us) > 0
}

/// Whether the squares strictly between `from` and `to` (on one line) are empty.
fn clear_between(pos: &Position, from: Square, to: Square) -> bool {
    let df = (to.file() as i8 - from.file() as i8).signum();
    let dr = (to.rank() as i8 - from.rank() as i8).signum();
    let mut sq = from.offset(df, dr);
    while let Some(s) = sq {
        if s == to {
            return true;
        }
        if pos.piece_at(s).is_some() {
            return false;
        }
        sq = s.offset(df, dr);
    }
    false
}

/// Whether `piece` on `from` can go to `to` by the way it moves, nothing in between.
fn reaches(pos: &Position, piece: Piece, from: Square, to: Square) -> bool {
    use PieceKind::*;
    let side = (to.file() as i8 - from.file() as i8).abs();
    let fwd = forward(piece.color, from, to);
    let step = from != to && side.max(fwd.abs()) == 1;
    let diagonal = side > 0 && side == fwd.abs() && clear_between(pos, from, to);
    let straight = (side == 0) != (fwd == 0) && clear_between(pos, from, to);
    match piece.kind {
        Pawn => side == 0 && fwd == 1,
        Lance => side == 0 && fwd >= 1 && straight,
        Knight => side == 1 && fwd == 2,
        Silver => step && (fwd == 1 || side == 1 && fwd == -1),
        Gold | ProPawn | ProLance | ProKnight | ProSilver => step && (fwd >= 0 || side == 0),
        King => step,
        Bishop => diagonal,
        Rook => straight,
        Horse => step || diagonal,
        Dragon => step || straight,
    }
}

/// "A and B", "A, B and C".
fn square_list(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(|&s| square_text(s)).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// Resolves a parsed move on `pos` to the one move it means. `last_to` is the previous
/// move's destination, for 同. Legal moves are preferred; a physically possible move that
/// breaks a rule (二歩, self-check, 打ち歩詰め…) is returned when no legal move fits, since
/// records with illegal moves are data. Without 成 the move does not promote, even where it
/// must. An ambiguous or impossible move is an error sentence, never a guess.
#[inline]
pub fn resolve(
    pos: &Position,
    mv: &JapaneseMove,
    last_to: Option<Square>,
) -> Result<Move, MoveTextError> {
    match resolve_with_origin(pos, mv, last_to) {
        Some(m) => Ok(m),
        None => resolve_in_full(pos, mv, last_to),
    }
}

/// The common case of [`resolve`], a KIF move with its origin and nothing wrong with it,
/// answered where it is called; `None` for anything else, which [`resolve_in_full`] reads.
#[inline]
pub(crate) fn resolve_with_origin(
    pos: &Position,
    mv: &JapaneseMove,
    last_to: Option<Square>,
) -> Option<Move> {
    let us = pos.side_to_move();
    let to = mv.to.or(last_to)?;
    let from = mv.origin?;
    let promote = mv.promote == Some(true);
    let fits = mv.side.is_none_or(|side| side == us)
        && (!promote || mv.piece.can_promote())
        && !mv.drop
        && pos
            .piece_at(from)
            .is_some_and(|p| p.color == us && p.kind.unpromoted() == mv.piece.unpromoted());
    fits.then_some(Move::Board { from, to, promote })
}

/// A move marked for one side (☗, ☖, ▲ …) is an error on the other side's turn.
pub(crate) fn check_side(
    mv: &impl std::fmt::Display,
    side: Option<Color>,
    us: Color,
) -> Result<(), MoveTextError> {
    match side {
        Some(side) if side != us => Err(MoveTextError::new(
            MoveTextErrorKind::WrongSide,
            format!(
                "{mv} is marked as {}'s move, but it is {}'s turn",
                side.name(),
                us.name()
            ),
        )),
        _ => Ok(()),
    }
}

/// The board move from `from` to `to` by the mover's piece there, which must be of `kind`
/// (or, with `base_name`, a piece whose unpromoted kind is `kind`'s: some writers name a
/// horse 角), else what is wrong with the origin. Messages begin with `prefix` (the move as
/// written and `: `, or nothing) and name the square as `square` writes it.
pub(crate) fn move_from_origin(
    pos: &Position,
    (from, to, promote): (Square, Square, bool),
    kind: PieceKind,
    base_name: bool,
    prefix: &str,
    square: impl Fn(Square) -> String,
) -> Result<Move, MoveTextError> {
    let us = pos.side_to_move();
    match pos.piece_at(from) {
        Some(p)
            if p.color == us
                && (p.kind == kind || base_name && p.kind.unpromoted() == kind.unpromoted()) =>
        {
            Ok(Move::Board { from, to, promote })
        }
        Some(p) if p.color == us => Err(MoveTextError::new(
            MoveTextErrorKind::WrongPiece,
            format!(
                "{prefix}the piece on {} is a {}, not a {}",
                square(from),
                p.kind.name(),
                kind.name()
            ),
        )),
        Some(_) => Err(MoveTextError::new(
            MoveTextErrorKind::NotOwnPiece,
            format!(
                "{prefix}the piece on {} is {}'s, but it is {}'s move",
                square(from),
                us.opponent().name(),
                us.name()
            ),
        )),
        None => Err(MoveTextError::new(
            MoveTextErrorKind::NoPiece,
            format!("{prefix}there is no piece on {}", square(from)),
        )),
    }
}

fn resolve_in_full(
    pos: &Position,
    mv: &JapaneseMove,
    last_to: Option<Square>,
) -> Result<Move, MoveTextError> {
    let us = pos.side_to_move();
    check_side(mv, mv.side, us)?;
    let to = mv.to.or(last_to).ok_or_else(|| {
        MoveTextError::new(
            MoveTextErrorKind::NoPreviousMove,
            format!("{mv}: 同 means the previous move's square, but there is no previous move"),
        )
    })?;
    let kind = mv.piece;
    let promote = mv.promote == Some(true);
    if promote && !kind.can_promote() {
        return Err(MoveTextError::new(
            MoveTextErrorKind::CannotPromote,
            format!("{mv}: a {} cannot promote (成)", kind.name()),
        ));
    }
    let drop = Move::Drop { kind, to };
    if let Some(from) = mv.origin {
        if mv.drop {
            return Err(MoveTextError::new(
                MoveTextErrorKind::BadDrop,
                format!("{mv}: a drop (打) cannot have an origin"),
            ));
        }
        // Some writers name a promoted piece by its base name (角 for a horse).
        return move_from_origin(
            pos,
            (from, to, promote),
            kind,
            true,
            &format!("{mv}: "),
            square_text,
        );
    }
    if mv.drop {
        if !mv.relative.is_empty() || mv.promote.is_some() {
            return Err(MoveTextError::new(
                MoveTextErrorKind::BadDrop,
                format!("{mv}: a drop (打) takes no relative word, 成 or 不成"),
            ));
        }
        return check_drop(pos, mv, kind, to).map(|()| drop);
    }
    let c = Candidates::new(pos, kind, to);
    let rel = mv.relative;
    let board = |from| Move::Board { from, to, promote };
    for (set, legal) in [(&c.legal, true), (&c.physical, false)] {
        match c.select(set, rel)[..] {
            [from] => return Ok(board(from)),
            [] => {}
            ref several => return Err(ambiguous(&c, mv, several, set)),
        }
        // The implied drop: no board piece can (legally, then at all) go there.
        if rel.is_empty() && (!legal || pos.is_legal(drop)) && check_drop(pos, mv, kind, to).is_ok()
        {
            return Ok(drop);
        }
    }
    let who = format!("{} {}", us.name(), kind.name());
    Err(MoveTextError::new(
        MoveTextErrorKind::Impossible,
        if c.physical.is_empty() {
            let hand = if !PieceKind::HAND.contains(&kind) {
                String::new()
            } else if pos.hand(us).count(kind) == 0 {
                format!(", and {} has none in hand", us.name())
            } else if !rel.is_empty() {
                ", and a drop takes no relative word".to_string()
            } else {
                ", and the square is occupied".to_string()
            };
            format!(
                "{mv} is impossible: no {who} can move to {}{hand}",
                square_text(to)
            )
        } else {
            format!(
                "{mv} is impossible: no {who} that can move to {} fits {rel} ({} on {} can)",
                square_text(to),
                kind.plural(),
                square_list(&c.physical)
            )
        },
    ))
}

/// Whether the side to move can physically drop `kind` on `to`.
fn check_drop(
    pos: &Position,
    mv: &JapaneseMove,
    kind: PieceKind,
    to: Square,
) -> Result<(), MoveTextError> {
    let us = pos.side_to_move();
    if !PieceKind::HAND.contains(&kind) {
        Err(MoveTextError::new(
            MoveTextErrorKind::CannotDrop,
            format!("{mv}: a {} cannot be dropped", kind.name()),
        ))
    } else if pos.hand(us).count(kind) == 0 {
        Err(MoveTextError::new(
            MoveTextErrorKind::NotInHand,
            format!("{mv}: {} has no {} in hand to drop", us.name(), kind.name()),
        ))
    } else if pos.piece_at(to).is_some() {
        Err(MoveTextError::new(
            MoveTextErrorKind::Occupied,
            format!(
                "{mv}: cannot drop on {}, the square is occupied",
                square_text(to)
            ),
        ))
    } else {
        Ok(())
    }
}

/// The sentence for a move that several pieces fit, with the words that would tell them apart.
fn ambiguous(
    c: &Candidates,
    mv: &JapaneseMove,
    several: &[Square],
    set: &[Square],
) -> MoveTextError {
    // From the mover's left to the mover's right.
    let mut several = several.to_vec();
    several.sort_by_key(|s| (-(s.file() as i8) * sign(c.us), s.rank()));
    let mut hints: Vec<String> = Vec::new();
    for &from in &several {
        let words = c.words(from, set).without(mv.relative).to_string();
        if !words.is_empty() && !hints.contains(&words) {
            hints.push(words);
        }
    }
    MoveTextError::new(
        MoveTextErrorKind::Ambiguous,
        format!(
            "{mv} is ambiguous: {} on {} can move there; add {}",
            c.kind.plural(),
            square_list(&several),
            hints.join(" or ")
        ),
    )
}

/// Whether promotion was open to this piece and move (so declining it is written).
fn could_promote(us: Color, kind: PieceKind, from: Square, to: Square) -> bool {
    kind.can_promote() && (from.in_zone(us) || to.in_zone(us))
}

pub use write::{
    KifMove, hodges, hosking, japanese, kif_move_text, push_kif_move, push_kif_move_text,
};
