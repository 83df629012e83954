//! A picture of a position to share: the board as an SVG image, drawn here from the position
//! alone (no font, image or script is fetched; the kanji are text for the viewer's own
//! font). The same picture is `kifudex show ID --ply N --svg` and the explorer's
//! `/api/board.svg`.
//!
//! The layout is a printed diagram's (図面): the board with the files １–９ above it and the
//! ranks 一–九 at its right, gote's pieces upside down, each side's hand in a column beside
//! the board (gote's at the left, sente's at the right, counts in kanji as 歩三), the players
//! above and below (上手 and 下手 in a handicap game), the last move's square shaded. Every
//! piece and hand carries its square, side and kind in `data-` attributes, so that what the
//! picture shows can be read back exactly.

use std::fmt::Write;

use crate::notation::japanese::kind_char;
use crate::notation::kif::is_handicap_game;
use crate::notation::movetext::japanese;
use crate::shogi::{Color, Move, PieceKind, Position, Square};
use crate::store::StoredGame;

/// The side of a square, in the SVG's units.
const CELL: u32 = 48;
/// The board's top left corner.
const BOARD_X: u32 = 56;
const BOARD_Y: u32 = 72;
const BOARD: u32 = 9 * CELL;
const WIDTH: u32 = BOARD_X + BOARD + 72;
const HEIGHT: u32 = BOARD_Y + BOARD + 72;
/// The step between two characters of a hand column.
const HAND_STEP: u32 = 26;

const FILE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANK_KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FONTS: &str = "'Hiragino Mincho ProN','Yu Mincho','Noto Serif CJK JP','IPAMincho','IPAexMincho',\
'Noto Sans CJK JP','IPAGothic',serif";

/// What the picture shows besides the board.
#[derive(Debug, Clone, Default)]
pub struct Picture<'a> {
    pub sente: Option<&'a str>,
    pub gote: Option<&'a str>,
    /// The sides are 下手 and 上手 rather than 先手 and 後手.
    pub handicap: bool,
    /// The move that reached the position: its square is shaded.
    pub last: Option<Move>,
    /// A line under the board (the ply and the last move).
    pub caption: Option<String>,
}

/// Why a game's picture cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    #[error("game {id} has {plies} moves: there is no ply {ply}")]
    NoSuchPly { id: i64, plies: usize, ply: usize },
    #[error("game {id}: move {ply} ({usi}) cannot be played: {why}")]
    Move {
        id: i64,
        ply: usize,
        usi: String,
        why: String,
    },
}

/// The picture of a stored game after `ply` moves of its main line (`None`: after the last),
/// with its players, the last move marked and said in the caption.
pub fn game_svg(game: &StoredGame, ply: Option<usize>) -> Result<String, PictureError> {
    let rec = &game.record;
    let plies = rec.main.moves.len();
    let ply = ply.unwrap_or(plies);
    if ply > plies {
        return Err(PictureError::NoSuchPly {
            id: game.id,
            plies,
            ply,
        });
    }
    let mut pos = rec.start.clone();
    let mut said = String::new();
    for (i, node) in rec.main.moves[..ply].iter().enumerate() {
        if i + 1 == ply {
            // With its square (☗３四銀, not 同銀): the caption stands alone.
            said = japanese(&pos, node.mv, None);
        }
        pos.play(node.mv).map_err(|e| PictureError::Move {
            id: game.id,
            ply: i + 1,
            usi: node.mv.usi(),
            why: e.to_string(),
        })?;
    }
    let caption = if ply == 0 {
        "開始局面".to_string()
    } else {
        format!("{ply}手目 {said}まで")
    };
    let picture = Picture {
        sente: game.sente.as_deref(),
        gote: game.gote.as_deref(),
        handicap: is_handicap_game(rec),
        last: ply.checked_sub(1).map(|i| rec.main.moves[i].mv),
        caption: Some(caption),
    };
    Ok(board_svg(&pos, &picture))
}

/// The words for the two sides.
fn side_words(handicap: bool) -> (&'static str, &'static str) {
    if handicap {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    }
}

/// The count of a hand's pieces as a diagram writes it: 二 … 十八 (nothing for one).
pub fn count_kanji(n: u8) -> String {
    let digit = |d: u8| RANK_KANJI[usize::from(d) - 1];
    match n {
        0 | 1 => String::new(),
        2..=9 => digit(n).to_string(),
        10 => "十".to_string(),
        _ => {
            let mut s = String::new();
            if n >= 20 {
                s.push(digit(n / 10));
            }
            s.push('十');
            if !n.is_multiple_of(10) {
                s.push(digit(n % 10));
            }
            s
        }
    }
}

/// The board's picture as a whole SVG document.
pub fn board_svg(pos: &Position, picture: &Picture) -> String {
    let mut out = String::with_capacity(16 * 1024);
    let (black, white) = side_words(picture.handicap);
    let name = |n: Option<&str>| n.map(clean).unwrap_or_default();
    let title = format!(
        "☗{black} {} ☖{white} {}{}",
        name(picture.sente),
        name(picture.gote),
        picture
            .caption
            .as_deref()
            .map(|c| format!(" {}", clean(c)))
            .unwrap_or_default()
    );
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         width=\"{WIDTH}\" height=\"{HEIGHT}\" font-family=\"{FONTS}\" \
         data-sfen=\"{}\">\n<title>{}</title>\n",
        escape(&pos.to_sfen()),
        escape(title.trim())
    );
    let _ = writeln!(
        out,
        "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#fbf6ea\"/>"
    );
    players(&mut out, picture, black, white);
    board(&mut out, pos, picture.last);
    hand(&mut out, pos, Color::White);
    hand(&mut out, pos, Color::Black);
    if let Some(c) = &picture.caption {
        let _ = writeln!(
            out,
            "<text class=\"caption\" x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"18\" fill=\"#333\">{}</text>",
            BOARD_X + BOARD,
            BOARD_Y + BOARD + 60,
            escape(&clean(c))
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The names: gote's above the board, sente's below.
fn players(out: &mut String, picture: &Picture, black: &str, white: &str) {
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
        let who = who.map(clean).unwrap_or_default();
        let _ = writeln!(
            out,
            "<text class=\"player\" data-side=\"{}\" x=\"{BOARD_X}\" y=\"{y}\" font-size=\"20\" fill=\"#111\">{mark}{word} {}</text>",
            side_name(color),
            escape(&who)
        );
    }
}

/// The grid, its coordinates, the last move's square and the pieces.
fn board(out: &mut String, pos: &Position, last: Option<Move>) {
    let _ = writeln!(
        out,
        "<rect class=\"board\" x=\"{BOARD_X}\" y=\"{BOARD_Y}\" width=\"{BOARD}\" height=\"{BOARD}\" fill=\"#f2d59b\" stroke=\"#222\" stroke-width=\"2\"/>"
    );
    for i in 1..9 {
        let x = BOARD_X + i * CELL;
        let y = BOARD_Y + i * CELL;
        let _ = writeln!(
            out,
            "<line x1=\"{x}\" y1=\"{BOARD_Y}\" x2=\"{x}\" y2=\"{}\" stroke=\"#222\"/>\n<line x1=\"{BOARD_X}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#222\"/>",
            BOARD_Y + BOARD,
            BOARD_X + BOARD
        );
    }
    // The four marks (星) where the lines of the 3rd and 6th files and ranks cross.
    for (dx, dy) in [(3, 3), (6, 3), (3, 6), (6, 6)] {
        let _ = writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"#222\"/>",
            BOARD_X + dx * CELL,
            BOARD_Y + dy * CELL
        );
    }
    for i in 0..9u32 {
        // Files from ９ at the left to １ at the right; ranks from 一 at the top.
        let file = 9 - i;
        let _ = writeln!(
            out,
            "<text class=\"file\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"18\" fill=\"#333\">{}</text>",
            BOARD_X + i * CELL + CELL / 2,
            BOARD_Y - 10,
            FILE_DIGITS[file as usize - 1]
        );
        let _ = writeln!(
            out,
            "<text class=\"rank\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"18\" fill=\"#333\">{}</text>",
            BOARD_X + BOARD + 14,
            BOARD_Y + i * CELL + CELL / 2 + 6,
            RANK_KANJI[i as usize]
        );
    }
    if let Some(mv) = last {
        let (x, y) = corner(mv.to());
        let _ = writeln!(
            out,
            "<rect class=\"last-move\" data-square=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f0a030\" fill-opacity=\"0.45\"/>",
            usi_square(mv.to()),
            x + 1,
            y + 1,
            CELL - 2,
            CELL - 2
        );
    }
    for rank in 1..=9u8 {
        for file in (1..=9u8).rev() {
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            let Some(p) = pos.piece_at(sq) else {
                continue;
            };
            piece(out, sq, p.color, p.kind);
        }
    }
}

/// One piece: a pentagon with its kanji, pointing at the opponent (gote's turned by 180°).
fn piece(out: &mut String, sq: Square, color: Color, kind: PieceKind) {
    let (x, y) = corner(sq);
    let (cx, cy) = (x + CELL / 2, y + CELL / 2);
    let turn = if color == Color::White {
        format!(" transform=\"rotate(180 {cx} {cy})\"")
    } else {
        String::new()
    };
    let letter = sfen_piece(color, kind);
    let _ = writeln!(
        out,
        "<g class=\"piece\" data-square=\"{}\" data-side=\"{}\" data-piece=\"{letter}\"{turn}>\
<path d=\"M{cx} {} L{} {} L{} {} L{} {} L{} {} Z\" fill=\"#f9e6bd\" stroke=\"#7a5c2e\"/>\
<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" font-size=\"27\" fill=\"{}\">{}</text></g>",
        usi_square(sq),
        side_name(color),
        y + 4,
        x + 38,
        y + 10,
        x + 42,
        y + 45,
        x + 6,
        y + 45,
        x + 10,
        y + 10,
        y + 37,
        if kind.is_promoted() { "#b00" } else { "#111" },
        kind_char(kind)
    );
}

/// A side's pieces in hand, in a column beside the board: the side's mark, then each kind
/// (rook first) with its count in kanji below it, or なし.
fn hand(out: &mut String, pos: &Position, color: Color) {
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
    let _ = writeln!(
        out,
        "<g class=\"hand\" data-side=\"{}\" data-hand=\"{}\" font-size=\"22\" text-anchor=\"middle\" fill=\"#111\">",
        side_name(color),
        listed.join(" ")
    );
    let mut y = BOARD_Y + 22;
    let mut put = |out: &mut String, c: char| {
        let _ = write!(out, "<text x=\"{x}\" y=\"{y}\">{c}</text>");
        y += HAND_STEP;
    };
    put(out, mark);
    if held.is_empty() {
        // なし, in the column's smaller step.
        for c in "なし".chars() {
            put(out, c);
        }
        out.push('\n');
    }
    for (kind, n) in held {
        let _ = write!(
            out,
            "<g class=\"hand-piece\" data-kind=\"{}\" data-count=\"{n}\">",
            kind.sfen_letter()
        );
        put(out, kind_char(kind));
        for c in count_kanji(n).chars() {
            put(out, c);
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
}

/// The top left corner of a square as the picture draws it (sente at the bottom).
fn corner(sq: Square) -> (u32, u32) {
    let col = 9 - u32::from(sq.file());
    let row = u32::from(sq.rank()) - 1;
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

/// A text from a record as XML may hold it: control characters (which XML 1.0 forbids)
/// become spaces.
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() || c == '\u{FFFE}' || c == '\u{FFFF}' {
                ' '
            } else {
                c
            }
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// `&`, `<`, `>` and `"` as XML entities.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_kanji() {
        let got: Vec<String> = [1, 2, 9, 10, 11, 18].into_iter().map(count_kanji).collect();
        assert_eq!(got, ["", "二", "九", "十", "十一", "十八"]);
    }

    #[test]
    fn record_text_is_escaped_and_freed_of_control_characters() {
        let pos = Position::startpos();
        let svg = board_svg(
            &pos,
            &Picture {
                sente: Some("A&B <x>\u{1}"),
                ..Picture::default()
            },
        );
        assert!(svg.contains("☗先手 A&amp;B &lt;x&gt;</text>"), "{svg}");
        assert!(!svg.contains('\u{1}'));
    }
}
