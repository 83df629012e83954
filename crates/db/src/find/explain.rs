//! The query said back in words (`--explain`): one line a condition, `and`/`or`/`not`
//! as indented groups, squares in both notations (９九 / 9i).

use kifudex_classify::{self as classify, Kind};
use kifudex_shogi::{Color, PieceKind, Square};

use super::ast::{Area, Cond, Expr, LastMove, PieceCond, Place, Query, Term, What};
use super::like::japanese_square;

/// The query in words, one line a condition, ending with a newline.
pub fn explain(q: &Query) -> String {
    let mut out = String::new();
    lines(q, 0, &mut out);
    out
}

fn lines(q: &Query, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    match q {
        Query::And(parts) => {
            out.push_str(&format!("{pad}all of:\n"));
            for p in parts {
                lines(p, depth + 1, out);
            }
        }
        Query::Or(parts) => {
            out.push_str(&format!("{pad}any of:\n"));
            for p in parts {
                lines(p, depth + 1, out);
            }
        }
        Query::Not(inner) => match inner.as_ref() {
            Query::Cond(c) => out.push_str(&format!("{pad}not: {}\n", cond(c))),
            q => {
                out.push_str(&format!("{pad}none of this:\n"));
                lines(q, depth + 1, out);
            }
        },
        Query::Cond(c) => out.push_str(&format!("{pad}{}\n", cond(c))),
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::Black => "sente (▲)",
        Color::White => "gote (△)",
    }
}

fn sides(c: Option<Color>) -> &'static str {
    match c {
        Some(Color::Black) => "sente's (▲)",
        Some(Color::White) => "gote's (△)",
        None => "either side's",
    }
}

/// The Japanese name of a kind, as KIF writes it.
pub(crate) fn kanji(k: PieceKind) -> &'static str {
    kifudex_notation::japanese::kind_name(k)
}

fn piece(k: PieceKind) -> String {
    format!("{} ({})", k.name(), kanji(k))
}

fn square(s: Square) -> String {
    format!("{} ({s})", japanese_square(s))
}

fn area(a: Area) -> &'static str {
    match a {
        Area::EnemyCamp => "the enemy camp (敵陣: its far three ranks)",
        Area::OwnCamp => "its own camp (自陣: its near three ranks)",
        Area::Middle => "the middle ranks (中段: ranks 4 to 6)",
        Area::Centre => "the centre (中央: files 4 to 6 of ranks 4 to 6)",
        Area::Edge => "an edge file (端: file 1 or 9)",
        Area::LeftSide => "its left side (左辺: files 6 to 9 seen from sente)",
        Area::RightSide => "its right side (右辺: files 1 to 4 seen from sente)",
    }
}

/// The squares of a place: `９九 (9i)`, `file 2`, `the enemy camp (…)`.
fn place_noun(p: &Place) -> String {
    match p {
        Place::Board => "anywhere on the board".to_string(),
        Place::Squares(list) if list.len() == 1 => square(list[0]),
        Place::Squares(list) => {
            let ja: Vec<String> = list.iter().map(|&s| japanese_square(s)).collect();
            let usi: Vec<String> = list.iter().map(Square::to_string).collect();
            format!("any of {} ({})", ja.join(" "), usi.join(" "))
        }
        Place::File(n) => format!("file {n}"),
        Place::Rank(n) => format!("rank {n} ({})", (b'a' + n - 1) as char),
        Place::Area(a) => area(*a).to_string(),
    }
}

fn place(p: &Place) -> String {
    match p {
        Place::Board => place_noun(p),
        Place::Area(_) => format!("in {}", place_noun(p)),
        _ => format!("on {}", place_noun(p)),
    }
}

fn piece_cond(p: &PieceCond) -> String {
    match p.what {
        What::Empty => format!("an empty square {}", place(&p.place)),
        What::AnyPiece => format!("a piece of {} {}", sides_plain(p.side), place(&p.place)),
        What::Kind(k) => format!("{} {} {}", sides(p.side), piece(k), place(&p.place)),
    }
}

/// What a count counts, in the plural.
fn count_noun(p: &PieceCond) -> String {
    match p.what {
        What::Empty => format!("empty squares {}", place(&p.place)),
        What::AnyPiece => format!("pieces of {} {}", sides_plain(p.side), place(&p.place)),
        What::Kind(k) => format!(
            "{} {} ({}) {}",
            sides(p.side),
            k.plural(),
            kanji(k),
            place(&p.place)
        ),
    }
}

fn sides_plain(c: Option<Color>) -> &'static str {
    match c {
        Some(Color::Black) => "sente (▲)",
        Some(Color::White) => "gote (△)",
        None => "either side",
    }
}

fn term(t: &Term) -> String {
    match t {
        Term::Number(n) => n.to_string(),
        Term::Ply => "the ply (moves played)".to_string(),
        Term::Hand(c, k) => format!("{} {} in hand", sides(Some(*c)), k.plural()),
        Term::Count(p) => format!("the number of {}", count_noun(p)),
        Term::Material(c) => format!(
            "{} material (歩1 香3 桂4 銀5 金6 角8 飛10, on the board and in hand)",
            sides(Some(*c))
        ),
        Term::Advantage(c) => format!(
            "{} material less {}",
            sides(Some(*c)),
            sides(Some(c.opponent()))
        ),
    }
}

fn expr(e: &Expr) -> String {
    let mut s = String::new();
    for (i, (add, t)) in e.terms.iter().enumerate() {
        match (i, add) {
            (0, true) => {}
            (0, false) => s.push_str("minus "),
            (_, true) => s.push_str(" plus "),
            (_, false) => s.push_str(" minus "),
        }
        s.push_str(&term(t));
    }
    s
}

fn last(m: &LastMove) -> String {
    let mut parts = Vec::new();
    if let Some(c) = m.side {
        parts.push(format!("played by {}", side(c)));
    }
    if let Some(mv) = m.usi {
        parts.push(format!("the move {mv}"));
    }
    if let Some(k) = m.piece {
        parts.push(format!("with a {}", piece(k)));
    }
    if let Some(p) = &m.from {
        parts.push(format!("from {}", place_noun(p)));
    }
    if let Some(p) = &m.to {
        parts.push(format!("to {}", place_noun(p)));
    }
    if m.drop {
        parts.push("a drop (打)".to_string());
    }
    if m.promotion {
        parts.push("promoting (成)".to_string());
    }
    if m.no_promotion {
        parts.push("not promoting where it could (不成)".to_string());
    }
    match m.capture {
        Some(Some(k)) => parts.push(format!("taking a {}", piece(k))),
        Some(None) => parts.push("taking a piece (取)".to_string()),
        None => {}
    }
    if m.check {
        parts.push("giving check (王手)".to_string());
    }
    format!("the last move was {}", parts.join(", "))
}

fn cond(c: &Cond) -> String {
    match c {
        Cond::Piece(p) => piece_cond(p),
        Cond::Compare { left, op, right } => {
            format!("{} {} {}", expr(left), op.symbol(), expr(right))
        }
        Cond::Between { expr: e, low, high } => {
            format!("{} is from {low} to {high}", expr(e))
        }
        Cond::Turn(c) => format!("{} to move", side(*c)),
        Cond::Last(m) => last(m),
        Cond::Name {
            side: s,
            name,
            kind: Kind::Strategy,
        } => format!("{} strategy {name} recognised by this ply", sides(*s)),
        Cond::Name {
            side: s,
            name,
            kind: Kind::Castle,
        } => {
            let below: Vec<&str> = classify::descendants(name)
                .into_iter()
                .filter(|n| n != name)
                .collect();
            let family = if below.is_empty() {
                String::new()
            } else {
                format!(" (or {})", below.join(", "))
            };
            format!("{} castle {name}{family} standing on the board", sides(*s))
        }
    }
}
