//! The test's own reading of query conditions ([`T`]) on a replayed position, written apart
//! from the evaluator, and the same conditions written as query text in Japanese or English.

use kifudex::shogi::{Color, Move, Piece, PieceKind, Position, Square};

use super::Game;
use crate::util::Rng;

/// Castles as this test reads them, in sente's squares (file × 10 + rank): each square's
/// kinds (all of them must stand), then the sets of which one square at least must hold one
/// of the kinds.
/// A castle: its name, the pieces it needs on given squares, and sets of squares one of
/// which must hold one of some kinds.
type Castle = (
    &'static str,
    &'static [(PieceKind, u8)],
    &'static [(&'static [PieceKind], &'static [u8])],
);

pub(crate) const CASTLES: &[Castle] = &[
    (
        "舟囲い",
        &[
            (PieceKind::King, 78),
            (PieceKind::Gold, 69),
            (PieceKind::Gold, 58),
        ],
        &[],
    ),
    (
        "金無双",
        &[
            (PieceKind::King, 38),
            (PieceKind::Gold, 58),
            (PieceKind::Gold, 48),
        ],
        &[],
    ),
    (
        "居飛車穴熊",
        &[(PieceKind::King, 99), (PieceKind::Lance, 98)],
        &[(&[PieceKind::Gold, PieceKind::Silver], &[88])],
    ),
    (
        "中住まい",
        &[(PieceKind::King, 58)],
        &[
            (&[PieceKind::Gold], &[78, 69, 68]),
            (&[PieceKind::Gold], &[38, 49, 48]),
        ],
    ),
];

pub(crate) const STRATEGIES: &[&str] = &[
    "四間飛車",
    "振り飛車",
    "中飛車",
    "角換わり",
    "相掛かり",
    "矢倉",
    "三間飛車",
    "横歩取り",
];

/// The square `NM` of sente's view, for `side`.
fn seen(side: Color, digits: u8) -> Square {
    let (f, r) = (digits / 10, digits % 10);
    let (f, r) = match side {
        Color::Black => (f, r),
        Color::White => (10 - f, 10 - r),
    };
    Square::new(f, r).unwrap()
}

fn worth(k: PieceKind) -> i64 {
    match k.unpromoted() {
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

pub(crate) fn material(pos: &Position, side: Color) -> i64 {
    let board: i64 = Square::all()
        .filter_map(|s| pos.piece_at(s))
        .filter(|p| p.color == side)
        .map(|p| worth(p.kind))
        .sum();
    board
        + PieceKind::HAND
            .iter()
            .map(|&k| worth(k) * i64::from(pos.hand(side).count(k)))
            .sum::<i64>()
}

#[derive(Debug, Clone)]
pub(crate) enum T {
    On {
        side: Option<Color>,
        kind: Option<PieceKind>,
        squares: Vec<Square>,
    },
    Empty(Vec<Square>),
    InFile(Color, PieceKind, u8),
    InCamp {
        side: Color,
        kind: PieceKind,
        enemy: bool,
    },
    Hand(Color, PieceKind, u8),
    Ply(&'static str, u32),
    PlyRange(u32, u32),
    Turn(Color),
    Last {
        side: Option<Color>,
        kind: Option<PieceKind>,
        to: Option<Square>,
        drop: bool,
        promote: bool,
        capture: bool,
        check: bool,
    },
    Advantage(Color, i64),
    Count(Color, PieceKind, u8, u32),
    Castle(Color, &'static str),
    Strategy(Color, &'static str),
    And(Vec<T>),
    Or(Vec<T>),
    Not(Box<T>),
}

pub(crate) fn holds(t: &T, g: &Game, ply: usize) -> bool {
    let pos = &g.positions[ply];
    let has = |s: Square, side: Option<Color>, kind: Option<PieceKind>| {
        pos.piece_at(s)
            .is_some_and(|p| side.is_none_or(|c| c == p.color) && kind.is_none_or(|k| k == p.kind))
    };
    match t {
        T::On {
            side,
            kind,
            squares,
        } => squares.iter().any(|&s| has(s, *side, *kind)),
        T::Empty(squares) => squares.iter().any(|&s| pos.piece_at(s).is_none()),
        T::InFile(side, kind, file) => {
            (1..=9).any(|r| has(Square::new(*file, r).unwrap(), Some(*side), Some(*kind)))
        }
        T::InCamp { side, kind, enemy } => Square::all().any(|s| {
            let far = match side {
                Color::Black => s.rank() <= 3,
                Color::White => s.rank() >= 7,
            };
            let near = match side {
                Color::Black => s.rank() >= 7,
                Color::White => s.rank() <= 3,
            };
            (if *enemy { far } else { near }) && has(s, Some(*side), Some(*kind))
        }),
        T::Hand(side, kind, n) => pos.hand(*side).count(*kind) >= *n,
        T::Ply(op, n) => {
            let p = ply as u32;
            match *op {
                "<=" => p <= *n,
                ">=" => p >= *n,
                "<" => p < *n,
                ">" => p > *n,
                _ => p == *n,
            }
        }
        T::PlyRange(a, b) => (*a..=*b).contains(&(ply as u32)),
        T::Turn(c) => pos.side_to_move() == *c,
        T::Last {
            side,
            kind,
            to,
            drop,
            promote,
            capture,
            check,
        } => {
            if ply == 0 {
                return false;
            }
            let (mv, piece, taken) = g.moves[ply - 1];
            side.is_none_or(|c| c == piece.color)
                && kind.is_none_or(|k| k == piece.kind)
                && to.is_none_or(|s| s == mv.to())
                && (!drop || matches!(mv, Move::Drop { .. }))
                && (!promote || matches!(mv, Move::Board { promote: true, .. }))
                && (!capture || taken.is_some())
                && (!check || pos.in_check())
        }
        T::Advantage(c, n) => material(pos, *c) - material(pos, c.opponent()) >= *n,
        T::Count(side, kind, file, n) => {
            (1..=9)
                .filter(|&r| has(Square::new(*file, r).unwrap(), Some(*side), Some(*kind)))
                .count() as u32
                >= *n
        }
        T::Castle(side, name) => {
            let (_, all, any) = CASTLES.iter().find(|c| c.0 == *name).unwrap();
            ply >= 1
                && all
                    .iter()
                    .all(|&(k, d)| has(seen(*side, d), Some(*side), Some(k)))
                && any.iter().all(|(kinds, ds)| {
                    ds.iter().any(|&d| {
                        pos.piece_at(seen(*side, d))
                            .is_some_and(|p| p.color == *side && kinds.contains(&p.kind))
                    })
                })
        }
        T::Strategy(side, name) => g
            .recognised
            .ply(*side, name)
            .is_some_and(|p| p as usize <= ply),
        T::And(parts) => parts.iter().all(|p| holds(p, g, ply)),
        T::Or(parts) => parts.iter().any(|p| holds(p, g, ply)),
        T::Not(inner) => !holds(inner, g, ply),
    }
}

// ---- the same conditions written as queries ---------------------------------------------

const KANJI: [&str; 14] = [
    "歩", "香", "桂", "銀", "金", "角", "飛", "玉", "と", "成香", "成桂", "成銀", "馬", "龍",
];
const NUMERALS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const WIDE: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];

fn mark(c: Color) -> &'static str {
    match c {
        Color::Black => "▲",
        Color::White => "△",
    }
}

fn word(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn kanji(k: PieceKind) -> &'static str {
    KANJI[k.index()]
}

fn english(k: PieceKind) -> String {
    k.name().to_string()
}

fn ja_square(s: Square, rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => format!(
            "{}{}",
            WIDE[s.file() as usize - 1],
            NUMERALS[s.rank() as usize - 1]
        ),
        1 => format!("{}{}", s.file(), s.rank()),
        _ => format!(
            "{}{}",
            WIDE[s.file() as usize - 1],
            WIDE[s.rank() as usize - 1]
        ),
    }
}

fn ja_place(squares: &[Square], rng: &mut Rng) -> String {
    if squares.len() == 1 {
        ja_square(squares[0], rng)
    } else {
        let list: Vec<String> = squares.iter().map(|&s| ja_square(s, rng)).collect();
        format!("{{{}}}", list.join(","))
    }
}

fn en_place(squares: &[Square]) -> String {
    if squares.len() == 1 {
        squares[0].to_string()
    } else {
        let list: Vec<String> = squares.iter().map(Square::to_string).collect();
        format!("{{{}}}", list.join(", "))
    }
}

/// The condition as query text, each part in Japanese or English at random.
pub(crate) fn text(t: &T, rng: &mut Rng) -> String {
    let ja = rng.below(2) == 0;
    match t {
        T::On {
            side,
            kind,
            squares,
        } => {
            let letter = side.is_some() && kind.is_some() && rng.below(3) == 0;
            match (ja, side, kind) {
                _ if letter => {
                    let p = Piece::new(side.unwrap(), kind.unwrap());
                    format!("{}@{}", p.sfen(), en_place(squares))
                }
                (true, s, k) => format!(
                    "{}{}{}",
                    s.map_or("", mark),
                    ja_place(squares, rng),
                    k.map_or("駒", kanji)
                ),
                (false, s, k) => format!(
                    "{}{} on {}",
                    s.map_or(String::new(), |c| format!("{} ", word(c))),
                    k.map_or("piece".to_string(), english),
                    en_place(squares)
                ),
            }
        }
        T::Empty(squares) => {
            if ja {
                format!("{}空", ja_place(squares, rng))
            } else {
                format!("empty on {}", en_place(squares))
            }
        }
        T::InFile(c, k, f) => {
            if ja {
                format!("{}{} {}筋", mark(*c), kanji(*k), WIDE[*f as usize - 1])
            } else {
                format!("{} {} in file {f}", word(*c), english(*k))
            }
        }
        T::InCamp { side, kind, enemy } => match (ja, enemy) {
            (true, true) => format!("{}{} 敵陣", mark(*side), kanji(*kind)),
            (true, false) => format!("{}{} 自陣", mark(*side), kanji(*kind)),
            (false, true) => format!("{} {} in enemy camp", word(*side), english(*kind)),
            (false, false) => format!("{} {} in own camp", word(*side), english(*kind)),
        },
        T::Hand(c, k, n) => match rng.below(4) {
            0 => format!("持駒 {}{} >= {n}", mark(*c), kanji(*k)),
            1 => format!("{}持駒{} {n}以上", mark(*c), kanji(*k)),
            2 => format!("{}{} in hand >= {n}", mark(*c), kanji(*k)),
            _ => format!("{} {}s in hand >= {n}", word(*c), english(*k)),
        },
        T::Ply(op, n) => {
            if ja && *op == "<=" {
                format!("手数 {n}以下")
            } else if ja {
                format!("手数 {op} {n}")
            } else {
                format!("ply {op} {n}")
            }
        }
        T::PlyRange(a, b) => {
            if ja {
                format!("手数 {a}〜{b}")
            } else {
                format!("ply {a}..{b}")
            }
        }
        T::Turn(c) => {
            if ja {
                format!("手番 {}", mark(*c))
            } else {
                format!("{} to move", word(*c))
            }
        }
        T::Last {
            side,
            kind,
            to,
            drop,
            promote,
            capture,
            check,
        } => {
            let mut parts: Vec<String> = Vec::new();
            if ja {
                parts.push("直前".into());
                let mut head = String::new();
                if let Some(c) = side {
                    head.push_str(mark(*c));
                }
                if let Some(s) = to {
                    head.push_str(&ja_square(*s, rng));
                }
                if let Some(k) = kind {
                    head.push_str(kanji(*k));
                }
                if *drop {
                    head.push('打');
                }
                if *promote {
                    head.push('成');
                }
                if !head.is_empty() {
                    parts.push(head);
                }
                if *capture {
                    parts.push("取".into());
                }
                if *check {
                    parts.push("王手".into());
                }
            } else {
                parts.push("last".into());
                if let Some(c) = side {
                    parts.push(word(*c).into());
                }
                if let Some(k) = kind {
                    parts.push(english(*k));
                }
                if *drop {
                    parts.push("drop".into());
                }
                if let Some(s) = to {
                    parts.push(format!("to {s}"));
                }
                if *promote {
                    parts.push("promotes".into());
                }
                if *capture {
                    parts.push("capture".into());
                }
                if *check {
                    parts.push("check".into());
                }
            }
            parts.join(" ")
        }
        T::Advantage(c, n) => {
            if ja {
                format!("駒得({}) >= {n}", mark(*c))
            } else {
                format!(
                    "material({}) - material({}) >= {n}",
                    word(*c),
                    word(c.opponent())
                )
            }
        }
        T::Count(c, k, f, n) => {
            if ja {
                format!("枚数({}{} {}筋) {n}以上", mark(*c), kanji(*k), f)
            } else {
                format!("count({} {} in file {f}) >= {n}", word(*c), english(*k))
            }
        }
        T::Castle(c, name) | T::Strategy(c, name) => {
            if ja {
                format!("{}{name}", mark(*c))
            } else {
                format!("{} {name}", word(*c))
            }
        }
        T::And(parts) | T::Or(parts) => {
            let join = match (t, ja) {
                (T::And(_), true) => " かつ ",
                (T::And(_), false) => " and ",
                (_, true) => " または ",
                _ => " or ",
            };
            let parts: Vec<String> = parts
                .iter()
                .map(|p| format!("({})", text(p, rng)))
                .collect();
            parts.join(join)
        }
        T::Not(inner) => format!("not ({})", text(inner, rng)),
    }
}
