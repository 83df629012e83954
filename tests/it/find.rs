//! `kifudex find` against a brute-force replay of every game: random queries (from a seeded
//! generator, over every construct of the language) are written as text in Japanese or
//! English and run through the library, and each is also interpreted by this test's own
//! simple reading of its conditions on every position of every game; both must give the same
//! games and plies. `--like` is checked the same way, and the command's output on a small
//! collection.

mod cli;
mod parse;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use kifudex::classify::{self, Recognised};
use kifudex::find::{self, Control, FindOptions, LikeOptions};
use kifudex::notation::kif::write_kif;
use kifudex::notation::read_bytes;
use kifudex::query::GameFilter;
use kifudex::shogi::{Color, Move, Piece, PieceKind, Position, Square, Strictness};
use kifudex::store::Store;
use kifudex::synth::{Synth, SynthOptions};

use crate::util::{Rng, TempDb, import_and_list};

/// Records written for these tests: castles built and then left, drops, promotions.
pub(crate) const OWN: &[(&str, &str)] = &[
    // Sente: 舟囲い (K78 G69 G58) after ply 5; gote: 金無双 (K72 G52 G62) after ply 8; then
    // sente's king walks away (ply 11) and the 舟囲い is gone.
    (
        "castles.usi",
        "startpos moves 5i6h 5a6b 6h7h 6b7b 4i5h 4a5b 7g7f 6a6b 3g3f 3c3d 7h6h 8c8d\n",
    ),
    // Sente: 居飛車穴熊 (K99 L98 S88) at ply 15.
    (
        "anaguma.usi",
        "startpos moves 7g7f 3c3d 8h7g 8c8d 9i9h 8d8e 5i6h 5c5d 6h7h 6c6d 7h8h 1c1d 8h9i 9c9d 7i8h 2c2d\n",
    ),
    // A bishop exchange (ply 3), a bishop dropped with check (ply 7), a pawn dropped
    // (ply 14) and taken by a promoting rook (ply 15).
    (
        "drops.usi",
        "startpos moves 7g7f 3c3d 8h2b+ 3a2b 2g2f 5a4b B*1e 4b5b 2f2e 6a6b 2e2d 2c2d 2h2d P*2c 2d2c+\n",
    ),
];

/// One game as the brute force sees it: every position, the move into it (the piece moved
/// and the piece taken), what was recognised.
pub(crate) struct Game {
    pub id: i64,
    pub positions: Vec<Position>,
    pub moves: Vec<(Move, Piece, Option<Piece>)>,
    pub recognised: Recognised,
}

pub(crate) fn write_collection(files: &Path, games: usize, seed: u64) {
    std::fs::create_dir_all(files.join("synth")).unwrap();
    let mut synth = Synth::new(SynthOptions {
        seed,
        comment_rate: 0.0,
        ..SynthOptions::default()
    });
    for i in 0..games {
        let text = write_kif(&synth.game());
        std::fs::write(files.join("synth").join(format!("g{i:04}.kifu")), text).unwrap();
    }
    for (name, text) in OWN {
        std::fs::write(files.join(name), text).unwrap();
    }
}

/// Imports the collection and replays every game.
fn build(dir: &Path, games: usize) -> (PathBuf, Vec<Game>) {
    let files = dir.join("files");
    write_collection(&files, games, 11);
    let db = dir.join("db");
    let rows = import_and_list(&db, &files);
    let mut out = Vec::new();
    for r in rows {
        let path = r["file"].as_str().unwrap();
        let read = read_bytes(&std::fs::read(path).unwrap(), Some(Path::new(path)));
        let rec = &read.games[r["game_index"].as_u64().unwrap() as usize];
        let mut pos = rec.start.clone();
        let mut positions = vec![pos.clone()];
        let mut moves = Vec::new();
        for node in &rec.main.moves {
            let mv = node.mv;
            let (piece, taken) = match mv {
                Move::Board { from, to, .. } => (pos.piece_at(from).unwrap(), pos.piece_at(to)),
                Move::Drop { kind, .. } => (Piece::new(pos.side_to_move(), kind), None),
            };
            pos.play(mv).expect("a stored move plays");
            positions.push(pos.clone());
            moves.push((mv, piece, taken));
        }
        out.push(Game {
            id: r["id"].as_i64().unwrap(),
            recognised: classify::recognise(&rec.start, rec.main.moves.iter().map(|m| m.mv)),
            positions,
            moves,
        });
    }
    assert_eq!(out.len(), games + OWN.len());
    (db, out)
}

// ---- the test's own reading of the conditions -------------------------------------------

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

const CASTLES: &[Castle] = &[
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

const STRATEGIES: &[&str] = &[
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

fn material(pos: &Position, side: Color) -> i64 {
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
enum T {
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

fn holds(t: &T, g: &Game, ply: usize) -> bool {
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
fn text(t: &T, rng: &mut Rng) -> String {
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

// ---- random conditions ----------------------------------------------------------------

fn side_of(rng: &mut Rng) -> Color {
    if rng.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    }
}

fn pick<T: Copy>(rng: &mut Rng, list: &[T]) -> T {
    list[rng.below(list.len())]
}

/// A random condition that holds (or nearly) at `ply` of `g`, so that queries find things.
fn atom(rng: &mut Rng, g: &Game, ply: usize) -> T {
    let pos = &g.positions[ply];
    let occupied: Vec<(Square, Piece)> = Square::all()
        .filter_map(|s| pos.piece_at(s).map(|p| (s, p)))
        .collect();
    let (sq, p) = pick(rng, &occupied);
    let random_square = |rng: &mut Rng| Square::from_index(rng.below(81)).unwrap();
    match rng.below(13) {
        0 | 1 => {
            let mut squares = vec![sq];
            for _ in 0..rng.below(3) {
                let s = random_square(rng);
                if !squares.contains(&s) {
                    squares.push(s);
                }
            }
            T::On {
                side: (rng.below(4) != 0).then_some(p.color),
                kind: (rng.below(6) != 0).then_some(p.kind),
                squares,
            }
        }
        2 => {
            let empty: Vec<Square> = Square::all()
                .filter(|&s| pos.piece_at(s).is_none())
                .collect();
            T::Empty(vec![pick(rng, &empty), random_square(rng)])
        }
        3 => T::InFile(p.color, p.kind, sq.file()),
        4 => T::InCamp {
            side: p.color,
            kind: p.kind,
            enemy: rng.below(2) == 0,
        },
        5 => {
            let c = side_of(rng);
            let k = pick(rng, &PieceKind::HAND);
            let have = pos.hand(c).count(k) as usize;
            T::Hand(c, k, 1 + rng.below(have.max(1)) as u8)
        }
        6 => {
            let op = pick(rng, &["<=", ">=", "<", ">", "="]);
            T::Ply(op, ply as u32)
        }
        7 => {
            let a = ply.saturating_sub(rng.below(20)) as u32;
            T::PlyRange(a, a + rng.below(40) as u32)
        }
        8 => T::Turn(side_of(rng)),
        9 if ply > 0 => {
            let (mv, piece, taken) = g.moves[ply - 1];
            let mut t = T::Last {
                side: None,
                kind: None,
                to: None,
                drop: false,
                promote: false,
                capture: false,
                check: false,
            };
            if let T::Last {
                side,
                kind,
                to,
                drop,
                promote,
                capture,
                check,
            } = &mut t
            {
                for _ in 0..1 + rng.below(3) {
                    match rng.below(7) {
                        0 => *side = Some(piece.color),
                        1 => *kind = Some(piece.kind),
                        2 => *to = Some(mv.to()),
                        3 => *drop = mv.is_drop(),
                        4 => *promote = mv.is_promotion(),
                        5 => *capture = taken.is_some(),
                        _ => *check = pos.in_check(),
                    }
                }
                if !*drop
                    && !*promote
                    && !*capture
                    && !*check
                    && side.is_none()
                    && kind.is_none()
                    && to.is_none()
                {
                    *to = Some(mv.to());
                }
            }
            t
        }
        10 => {
            let c = side_of(rng);
            let d = material(pos, c) - material(pos, c.opponent());
            T::Advantage(c, d - rng.below(3) as i64)
        }
        11 => {
            let n = (1..=9)
                .filter(|&r| pos.piece_at(Square::new(sq.file(), r).unwrap()) == Some(p))
                .count() as u32;
            T::Count(p.color, p.kind, sq.file(), n.max(1))
        }
        _ => {
            if rng.below(2) == 0 {
                T::Castle(side_of(rng), pick(rng, CASTLES).0)
            } else {
                T::Strategy(side_of(rng), pick(rng, STRATEGIES))
            }
        }
    }
}

fn condition(rng: &mut Rng, g: &Game, ply: usize, depth: usize) -> T {
    if depth == 0 || rng.below(3) == 0 {
        return atom(rng, g, ply);
    }
    match rng.below(5) {
        0 => T::Not(Box::new(condition(rng, g, ply, depth - 1))),
        1 => T::Or(
            (0..2 + rng.below(2))
                .map(|_| condition(rng, g, ply, depth - 1))
                .collect(),
        ),
        _ => T::And(
            (0..2 + rng.below(2))
                .map(|_| condition(rng, g, ply, depth - 1))
                .collect(),
        ),
    }
}

/// Per game, the plies at which the brute force finds `t` holds.
fn brute(t: &T, games: &[Game]) -> BTreeMap<i64, BTreeSet<u32>> {
    let mut out = BTreeMap::new();
    for g in games {
        let plies: BTreeSet<u32> = (0..g.positions.len())
            .filter(|&p| holds(t, g, p))
            .map(|p| p as u32)
            .collect();
        if !plies.is_empty() {
            out.insert(g.id, plies);
        }
    }
    out
}

fn everything(limit: usize, all: bool) -> FindOptions {
    FindOptions { all, limit }
}

#[test]
fn random_queries_agree_with_a_brute_force_replay() {
    let dir = TempDb::new("find-random");
    let (db, games) = build(&dir, 300);
    let store = Store::open_read_only(&db).unwrap();
    let mut rng = Rng::new(20260509);
    let mut found_some = 0;
    for n in 0..50 {
        // Conditions drawn from one position, so that they often hold together.
        let g = &games[rng.below(games.len())];
        let ply = rng.below(g.positions.len());
        let t = condition(&mut rng, g, ply, 2);
        let query = text(&t, &mut rng);
        let parsed = find::parse(&query).unwrap_or_else(|e| panic!("query {n}: {query}: {e}"));
        let want = brute(&t, &games);
        let got = find::find(
            &store,
            &parsed,
            &GameFilter::default(),
            &everything(100_000, true),
            &Control::default(),
        )
        .unwrap();
        let got_plies: BTreeMap<i64, BTreeSet<u32>> = got
            .rows
            .iter()
            .map(|r| {
                let plies = r
                    .matches
                    .as_ref()
                    .unwrap()
                    .iter()
                    .flat_map(|&[a, b]| a..=b)
                    .collect();
                (r.game.id, plies)
            })
            .collect();
        assert_eq!(got_plies, want, "query {n}: {query}");
        assert_eq!(got.games as usize, want.len(), "query {n}: {query}");
        let positions: usize = want.values().map(BTreeSet::len).sum();
        assert_eq!(got.positions as usize, positions, "query {n}: {query}");
        // The first ply of each game, and the limit: the first games by id.
        let first = find::find(
            &store,
            &parsed,
            &GameFilter::default(),
            &everything(5, false),
            &Control::default(),
        )
        .unwrap();
        let want_first: Vec<(i64, u32)> = want
            .iter()
            .take(5)
            .map(|(id, p)| (*id, *p.first().unwrap()))
            .collect();
        let got_first: Vec<(i64, u32)> = first.rows.iter().map(|r| (r.game.id, r.ply)).collect();
        assert_eq!(got_first, want_first, "query {n}: {query} (first plies)");
        assert_eq!(first.games as usize, want.len(), "query {n}: {query}");
        found_some += usize::from(!want.is_empty());
    }
    // The queries are drawn so that most of them find something.
    assert!(
        found_some >= 30,
        "only {found_some} of 50 queries found a game"
    );
}

/// A filter narrows the scan; a strategy narrows it to the games recognised with it.
#[test]
fn the_filter_and_recognised_names_narrow_the_games() {
    let dir = TempDb::new("find-filter");
    let (db, games) = build(&dir, 120);
    let store = Store::open_read_only(&db).unwrap();
    let pawn = T::Hand(Color::Black, PieceKind::Pawn, 1);
    let want = brute(&pawn, &games);
    let filter = GameFilter {
        min_plies: Some(100),
        ..GameFilter::default()
    };
    let long: BTreeSet<i64> = games
        .iter()
        .filter(|g| g.positions.len() > 100)
        .map(|g| g.id)
        .collect();
    let got = find::find(
        &store,
        &find::parse("▲歩 in hand").unwrap(),
        &filter,
        &everything(1000, false),
        &Control::default(),
    )
    .unwrap();
    let got: BTreeSet<i64> = got.rows.iter().map(|r| r.game.id).collect();
    let want: BTreeSet<i64> = want
        .keys()
        .copied()
        .filter(|id| long.contains(id))
        .collect();
    assert_eq!(got, want);
    assert!(!want.is_empty());
    for name in ["四間飛車", "振り飛車", "矢倉"] {
        let t = T::And(vec![T::Strategy(Color::White, name), T::Ply("<=", 40)]);
        let q = find::parse(&format!("△{name} and ply <= 40")).unwrap();
        let got = find::find(
            &store,
            &q,
            &GameFilter::default(),
            &everything(1000, true),
            &Control::default(),
        )
        .unwrap();
        assert_eq!(got.games as usize, brute(&t, &games).len(), "{name}");
    }
}

/// Stopped before it starts, a scan reads nothing and says so.
#[test]
fn a_stopped_scan_says_so() {
    let dir = TempDb::new("find-stop");
    let (db, _) = build(&dir, 10);
    let store = Store::open_read_only(&db).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(true);
    let control = Control {
        stop: Some(&stop),
        ..Control::default()
    };
    let got = find::find(
        &store,
        &find::parse("ply >= 0").unwrap(),
        &GameFilter::default(),
        &everything(10, false),
        &control,
    )
    .unwrap();
    assert!(got.outcome.stopped);
    assert_eq!((got.games, got.outcome.scanned), (0, 0));
}

// ---- --like -------------------------------------------------------------------------------

fn differ(a: &Position, b: &Position) -> Vec<Square> {
    Square::all()
        .filter(|&s| a.piece_at(s) != b.piece_at(s))
        .collect()
}

/// A target near a position of the collection: the position itself, or with a piece taken
/// off or put on an empty square.
fn target(rng: &mut Rng, pos: &Position) -> Position {
    let mut board = *pos.board();
    for _ in 0..rng.below(3) {
        let s = rng.below(81);
        match board[s] {
            Some(p) if p.kind != PieceKind::King => board[s] = None,
            None => board[s] = Some(Piece::new(side_of(rng), PieceKind::Pawn)),
            _ => {}
        }
    }
    let hands = [*pos.hand(Color::Black), *pos.hand(Color::White)];
    Position::new(board, hands, pos.side_to_move(), 1, Strictness::PiecesOnly)
        .unwrap_or_else(|_| pos.clone())
}

#[test]
fn like_agrees_with_a_brute_force_replay() {
    let dir = TempDb::new("find-like");
    let (db, games) = build(&dir, 200);
    let store = Store::open_read_only(&db).unwrap();
    let mut rng = Rng::new(77);
    for n in 0..20 {
        let g = &games[rng.below(games.len())];
        let pos = &g.positions[rng.below(g.positions.len())];
        let want_pos = target(&mut rng, pos);
        let diff = rng.below(4) as u32;
        let ignore_hands = rng.below(2) == 0;
        // Every position near enough: (game, ply) -> squares that differ.
        let mut want: BTreeMap<(i64, u32), Vec<Square>> = BTreeMap::new();
        for g in &games {
            for (ply, p) in g.positions.iter().enumerate() {
                let d = differ(p, &want_pos);
                let hands =
                    ignore_hands || Color::ALL.iter().all(|&c| p.hand(c) == want_pos.hand(c));
                if p.side_to_move() == want_pos.side_to_move() && d.len() as u32 <= diff && hands {
                    want.insert((g.id, ply as u32), d);
                }
            }
        }
        let opts = LikeOptions {
            diff,
            ignore_hands,
            all: true,
            limit: 100_000,
        };
        let got = find::like(
            &store,
            &want_pos,
            &GameFilter::default(),
            &opts,
            &Control::default(),
        )
        .unwrap();
        let got_map: BTreeMap<(i64, u32), Vec<Square>> = got
            .rows
            .iter()
            .map(|r| {
                let squares = r.squares.iter().map(|s| s.square.parse_square()).collect();
                ((r.game.id, r.ply), squares)
            })
            .collect();
        let sfen = want_pos.to_sfen();
        assert_eq!(
            got_map, want,
            "like {n}: {sfen} diff {diff} ignore_hands {ignore_hands}"
        );
        assert_eq!(got.positions as usize, want.len());
        for r in &got.rows {
            assert_eq!(r.diff as usize, r.squares.len());
            let p = &games.iter().find(|g| g.id == r.game.id).unwrap().positions[r.ply as usize];
            for s in &r.squares {
                let sq = s.square.parse_square();
                assert_eq!(s.game, p.piece_at(sq).map(Piece::sfen));
                assert_eq!(s.given, want_pos.piece_at(sq).map(Piece::sfen));
            }
        }
        // Each game's nearest position, the earliest of the nearest; nearest first.
        let mut nearest: BTreeMap<i64, (u32, u32)> = BTreeMap::new();
        for ((id, ply), d) in &want {
            let e = nearest.entry(*id).or_insert((d.len() as u32, *ply));
            if (d.len() as u32) < e.0 {
                *e = (d.len() as u32, *ply);
            }
        }
        let mut want_rows: Vec<(u32, i64, u32)> =
            nearest.iter().map(|(id, (d, p))| (*d, *id, *p)).collect();
        want_rows.sort();
        let opts = LikeOptions {
            all: false,
            limit: 7,
            ..opts
        };
        let got = find::like(
            &store,
            &want_pos,
            &GameFilter::default(),
            &opts,
            &Control::default(),
        )
        .unwrap();
        let got_rows: Vec<(u32, i64, u32)> = got
            .rows
            .iter()
            .map(|r| (r.diff, r.game.id, r.ply))
            .collect();
        want_rows.truncate(7);
        assert_eq!(got_rows, want_rows, "like {n} (nearest): {sfen}");
        assert_eq!(got.games as usize, nearest.len());
    }
}

trait ParseSquare {
    fn parse_square(&self) -> Square;
}

impl ParseSquare for String {
    fn parse_square(&self) -> Square {
        let b = self.as_bytes();
        Square::new(b[0] - b'0', b[1] - b'a' + 1).unwrap()
    }
}
