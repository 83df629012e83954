//! A picture of a position to share, drawn here from the position alone (nothing is
//! fetched): `kifudex show ID --ply N --svg` or `--png`, and the explorer's
//! `/api/board.svg` and `/api/board.png`. The SVG leaves the kanji as text for the viewer's
//! own font; the PNG draws them with a Japanese font found on the machine ([`Font`]).
//!
//! The layout is a printed diagram's (図面): the board with the files １–９ above it and the
//! ranks 一–九 at its right, gote's pieces upside down, each side's hand in a column beside
//! the board (gote's at the left, sente's at the right, counts in kanji as 歩三), the players
//! above and below (上手 and 下手 in a handicap game), the last move's square shaded. In the
//! SVG every piece and hand carries its square, side and kind in `data-` attributes, so that
//! what the picture shows can be read back exactly. The layout is one [`scene`], written by
//! [`svg`] and [`png`].

mod font;
mod png;
mod scene;
mod svg;

pub use font::Font;

use crate::notation::japanese::kind_char;
use crate::notation::kif::is_handicap_game;
use crate::notation::movetext::japanese;
use crate::shogi::{Move, Position};
use crate::store::StoredGame;
use scene::{RANK_KANJI, Scene};

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
    #[error("cannot draw with the font {path}: {why}")]
    Font {
        path: std::path::PathBuf,
        why: String,
    },
    #[error("no Japanese font found (searched {searched}): {install}")]
    NoFont {
        searched: String,
        install: &'static str,
    },
    #[error("cannot write the PNG image: {0}")]
    Encode(String),
}

/// The picture of a stored game after `ply` moves of its main line (`None`: after the last),
/// with its players, the last move marked and said in the caption, as an SVG document.
pub fn game_svg(game: &StoredGame, ply: Option<usize>) -> Result<String, PictureError> {
    Ok(game_drawing(game, ply)?.svg())
}

/// A picture laid out, to write as SVG or PNG: what can go wrong with the game (no such
/// ply) is known before a font is looked for.
#[derive(Debug, Clone)]
pub struct Drawing(Scene);

impl Drawing {
    pub fn svg(&self) -> String {
        svg::write(&self.0)
    }

    /// The PNG image drawn with `font`, twice the SVG's size: 1120×1152 pixels.
    pub fn png(&self, font: &Font) -> Result<Vec<u8>, PictureError> {
        png::write(&self.0, font)
    }
}

/// [`game_svg`]'s picture, laid out.
pub fn game_drawing(game: &StoredGame, ply: Option<usize>) -> Result<Drawing, PictureError> {
    game_scene(game, ply).map(Drawing)
}

fn game_scene(game: &StoredGame, ply: Option<usize>) -> Result<Scene, PictureError> {
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
    Ok(scene::build(&pos, &picture))
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
    svg::write(&scene::build(pos, picture))
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
