//! The picture as a scene: rectangles, lines, a circle, the pieces' pentagons and runs of
//! text, in the SVG's units, laid out once for both writers (the SVG text and the PNG
//! raster). Groups carry what only the SVG says: classes and `data-` facts, and the line
//! breaks of its text.

use crate::shogi::{Color, Move, PieceKind, Position, Square};

use super::{Picture, count_kanji, kind_char, side_words};

/// The side of a square, in the SVG's units.
const CELL: i32 = 48;
/// The board's top left corner.
const BOARD_X: i32 = 56;
const BOARD_Y: i32 = 72;
const BOARD: i32 = 9 * CELL;
pub const WIDTH: i32 = BOARD_X + BOARD + 72;
pub const HEIGHT: i32 = BOARD_Y + BOARD + 72;
/// The step between two characters of a hand column.
const HAND_STEP: i32 = 26;

pub const FILE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
pub const RANK_KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// A whole picture.
#[derive(Debug, Clone)]
pub struct Scene {
    pub width: i32,
    pub height: i32,
    /// The position, for the SVG's `data-sfen`.
    pub sfen: String,
    /// The players and the caption in one line, for the SVG's `<title>`.
    pub title: String,
    pub items: Vec<Item>,
}

#[derive(Debug, Clone)]
pub enum Item {
    Shape(Shape),
    Group(Group),
}

/// Attributes only the SVG writes (its `class` and `data-` facts), in their order.
pub type Tags = Vec<(&'static str, String)>;

/// Shapes drawn together: a piece, a hand's column.
#[derive(Debug, Clone, Default)]
pub struct Group {
    pub tags: Tags,
    /// Turned by 180° about this point (gote's pieces).
    pub turn: Option<(i32, i32)>,
    /// The style of the texts within that give none of their own.
    pub style: Option<TextStyle>,
    pub items: Vec<Item>,
    /// The SVG breaks its line after the group's opening tag.
    pub break_open: bool,
}

#[derive(Debug, Clone)]
pub struct Shape {
    pub tags: Tags,
    pub kind: Kind,
    /// The SVG breaks its line after this shape.
    pub break_after: bool,
}

#[derive(Debug, Clone)]
pub enum Kind {
    Rect {
        x: i32,
        y: i32,
        w: i32,
        h: i32,
        fill: Paint,
        stroke: Option<Stroke>,
    },
    Line {
        from: (i32, i32),
        to: (i32, i32),
        stroke: Stroke,
    },
    Circle {
        centre: (i32, i32),
        r: i32,
        fill: &'static str,
    },
    /// A closed outline, filled and stroked.
    Polygon {
        points: Vec<(i32, i32)>,
        fill: &'static str,
        stroke: Stroke,
    },
    /// A run of text on its baseline; no style: the group's.
    Text {
        at: (i32, i32),
        style: Option<TextStyle>,
        text: String,
    },
}

/// A colour as CSS writes it (`#222`, `#f2d59b`) and how opaque it is (1 when `None`).
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    pub color: &'static str,
    pub opacity: Option<f32>,
}

/// An outline's colour and width (1 when `None`).
#[derive(Debug, Clone, Copy)]
pub struct Stroke {
    pub color: &'static str,
    pub width: Option<i32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

#[derive(Debug, Clone, Copy)]
pub struct TextStyle {
    pub size: i32,
    pub anchor: Anchor,
    pub fill: &'static str,
}

const INK: Stroke = Stroke {
    color: "#222",
    width: None,
};

fn shape(tags: Tags, kind: Kind) -> Item {
    Item::Shape(Shape {
        tags,
        kind,
        break_after: true,
    })
}

fn text(at: (i32, i32), size: i32, anchor: Anchor, fill: &'static str, text: String) -> Kind {
    Kind::Text {
        at,
        style: Some(TextStyle { size, anchor, fill }),
        text,
    }
}

/// The picture of `pos` with what `picture` adds.
pub fn build(pos: &Position, picture: &Picture) -> Scene {
    let (black, white) = side_words(picture.handicap);
    let name = |n: Option<&str>| n.map(super::clean).unwrap_or_default();
    let title = format!(
        "☗{black} {} ☖{white} {}{}",
        name(picture.sente),
        name(picture.gote),
        picture
            .caption
            .as_deref()
            .map(|c| format!(" {}", super::clean(c)))
            .unwrap_or_default()
    );
    let mut items = vec![shape(
        vec![("class", "background".into())],
        Kind::Rect {
            x: 0,
            y: 0,
            w: WIDTH,
            h: HEIGHT,
            fill: Paint {
                color: "#fbf6ea",
                opacity: None,
            },
            stroke: None,
        },
    )];
    players(&mut items, picture, black, white);
    board(&mut items, pos, picture.last);
    items.push(hand(pos, Color::White));
    items.push(hand(pos, Color::Black));
    if let Some(c) = &picture.caption {
        items.push(shape(
            vec![("class", "caption".into())],
            text(
                (BOARD_X + BOARD, BOARD_Y + BOARD + 60),
                18,
                Anchor::End,
                "#333",
                super::clean(c),
            ),
        ));
    }
    Scene {
        width: WIDTH,
        height: HEIGHT,
        sfen: pos.to_sfen(),
        title: title.trim().to_string(),
        items,
    }
}

/// The names: gote's above the board, sente's below.
fn players(items: &mut Vec<Item>, picture: &Picture, black: &str, white: &str) {
    for (color, mark, word, who, y) in [
        (Color::White, '☖', white, picture.gote, 28),
        (
            Color::Black,
            '☗',
            black,
            picture.sente,
            BOARD_Y + BOARD + 32,
        ),
    ] {
        let who = who.map(super::clean).unwrap_or_default();
        items.push(shape(
            vec![
                ("class", "player".into()),
                ("data-side", side_name(color).into()),
            ],
            text(
                (BOARD_X, y),
                20,
                Anchor::Start,
                "#111",
                format!("{mark}{word} {who}"),
            ),
        ));
    }
}

/// The grid, its coordinates, the last move's square and the pieces.
fn board(items: &mut Vec<Item>, pos: &Position, last: Option<Move>) {
    items.push(shape(
        vec![("class", "board".into())],
        Kind::Rect {
            x: BOARD_X,
            y: BOARD_Y,
            w: BOARD,
            h: BOARD,
            fill: Paint {
                color: "#f2d59b",
                opacity: None,
            },
            stroke: Some(Stroke {
                color: "#222",
                width: Some(2),
            }),
        },
    ));
    for i in 1..9 {
        let x = BOARD_X + i * CELL;
        let y = BOARD_Y + i * CELL;
        items.push(shape(
            Vec::new(),
            Kind::Line {
                from: (x, BOARD_Y),
                to: (x, BOARD_Y + BOARD),
                stroke: INK,
            },
        ));
        items.push(shape(
            Vec::new(),
            Kind::Line {
                from: (BOARD_X, y),
                to: (BOARD_X + BOARD, y),
                stroke: INK,
            },
        ));
    }
    // The four marks (星) where the lines of the 3rd and 6th files and ranks cross.
    for (dx, dy) in [(3, 3), (6, 3), (3, 6), (6, 6)] {
        items.push(shape(
            Vec::new(),
            Kind::Circle {
                centre: (BOARD_X + dx * CELL, BOARD_Y + dy * CELL),
                r: 3,
                fill: "#222",
            },
        ));
    }
    for i in 0..9i32 {
        // Files from ９ at the left to １ at the right; ranks from 一 at the top.
        let file = 9 - i;
        items.push(shape(
            vec![("class", "file".into())],
            text(
                (BOARD_X + i * CELL + CELL / 2, BOARD_Y - 10),
                18,
                Anchor::Middle,
                "#333",
                FILE_DIGITS[file as usize - 1].to_string(),
            ),
        ));
        items.push(shape(
            vec![("class", "rank".into())],
            text(
                (BOARD_X + BOARD + 14, BOARD_Y + i * CELL + CELL / 2 + 6),
                18,
                Anchor::Middle,
                "#333",
                RANK_KANJI[i as usize].to_string(),
            ),
        ));
    }
    if let Some(mv) = last {
        let (x, y) = corner(mv.to());
        items.push(shape(
            vec![
                ("class", "last-move".into()),
                ("data-square", usi_square(mv.to())),
            ],
            Kind::Rect {
                x: x + 1,
                y: y + 1,
                w: CELL - 2,
                h: CELL - 2,
                fill: Paint {
                    color: "#f0a030",
                    opacity: Some(0.45),
                },
                stroke: None,
            },
        ));
    }
    for rank in 1..=9u8 {
        for file in (1..=9u8).rev() {
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            let Some(p) = pos.piece_at(sq) else {
                continue;
            };
            items.push(piece(sq, p.color, p.kind));
        }
    }
}

/// One piece: a pentagon with its kanji, pointing at the opponent (gote's turned by 180°).
fn piece(sq: Square, color: Color, kind: PieceKind) -> Item {
    let (x, y) = corner(sq);
    let (cx, cy) = (x + CELL / 2, y + CELL / 2);
    let outline = Kind::Polygon {
        points: vec![
            (cx, y + 4),
            (x + 38, y + 10),
            (x + 42, y + 45),
            (x + 6, y + 45),
            (x + 10, y + 10),
        ],
        fill: "#f9e6bd",
        stroke: Stroke {
            color: "#7a5c2e",
            width: None,
        },
    };
    let letter = text(
        (cx, y + 37),
        27,
        Anchor::Middle,
        if kind.is_promoted() { "#b00" } else { "#111" },
        kind_char(kind).to_string(),
    );
    let inner = |kind| {
        Item::Shape(Shape {
            tags: Vec::new(),
            kind,
            break_after: false,
        })
    };
    Item::Group(Group {
        tags: vec![
            ("class", "piece".into()),
            ("data-square", usi_square(sq)),
            ("data-side", side_name(color).into()),
            ("data-piece", sfen_piece(color, kind)),
        ],
        turn: (color == Color::White).then_some((cx, cy)),
        style: None,
        items: vec![inner(outline), inner(letter)],
        break_open: false,
    })
}

/// A side's pieces in hand, in a column beside the board: the side's mark, then each kind
/// (rook first) with its count in kanji below it, or なし.
fn hand(pos: &Position, color: Color) -> Item {
    let (x, mark) = match color {
        Color::White => (BOARD_X / 2 - 2, '☖'),
        Color::Black => (BOARD_X + BOARD + 48, '☗'),
    };
    let held: Vec<(PieceKind, u8)> = PieceKind::HAND_BY_VALUE
        .iter()
        .map(|&k| (k, pos.hand(color).count(k)))
        .filter(|&(_, n)| n > 0)
        .collect();
    let listed: Vec<String> = held
        .iter()
        .map(|(k, n)| format!("{}{n}", k.sfen_letter()))
        .collect();
    let mut y = BOARD_Y + 22;
    let mut put = |c: char, break_after: bool| {
        let item = Item::Shape(Shape {
            tags: Vec::new(),
            kind: Kind::Text {
                at: (x, y),
                style: None,
                text: c.to_string(),
            },
            break_after,
        });
        y += HAND_STEP;
        item
    };
    let mut items = vec![put(mark, false)];
    if held.is_empty() {
        // なし, in the column's smaller step.
        items.push(put('な', false));
        items.push(put('し', true));
    }
    for (kind, n) in held {
        let mut column = vec![put(kind_char(kind), false)];
        for c in count_kanji(n).chars() {
            column.push(put(c, false));
        }
        items.push(Item::Group(Group {
            tags: vec![
                ("class", "hand-piece".into()),
                ("data-kind", kind.sfen_letter().to_string()),
                ("data-count", n.to_string()),
            ],
            turn: None,
            style: None,
            items: column,
            break_open: false,
        }));
    }
    Item::Group(Group {
        tags: vec![
            ("class", "hand".into()),
            ("data-side", side_name(color).into()),
            ("data-hand", listed.join(" ")),
        ],
        turn: None,
        style: Some(TextStyle {
            size: 22,
            anchor: Anchor::Middle,
            fill: "#111",
        }),
        items,
        break_open: true,
    })
}

/// The top left corner of a square as the picture draws it (sente at the bottom).
fn corner(sq: Square) -> (i32, i32) {
    let col = 9 - i32::from(sq.file());
    let row = i32::from(sq.rank()) - 1;
    (BOARD_X + col * CELL, BOARD_Y + row * CELL)
}

/// A square as USI writes it: 7g.
fn usi_square(sq: Square) -> String {
    format!("{}{}", sq.file(), char::from(b'a' + sq.rank() - 1))
}

/// A piece as SFEN writes it: `P`, `+p`.
fn sfen_piece(color: Color, kind: PieceKind) -> String {
    let letter = kind.sfen_letter();
    let letter = match color {
        Color::Black => letter,
        Color::White => letter.to_ascii_lowercase(),
    };
    if kind.is_promoted() {
        format!("+{letter}")
    } else {
        letter.to_string()
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "sente",
        Color::White => "gote",
    }
}
