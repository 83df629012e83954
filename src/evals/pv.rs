//! Principal variations as the comments write them: CSA moves (`+7776FU -3334FU`), USI moves
//! (`7g7f 3c3d`), or Japanese moves (`▲７六歩(77) △３四歩(33)`, `▲２五歩△８五歩`,
//! `△同金  ▲７五歩`). Kept as text and resolved only when asked, against the position the
//! text starts from; reading the evaluations only looks at the first move, to tell which
//! position a line evaluates.

use crate::notation::csa;
use crate::notation::movetext::{parse_japanese_move, resolve};
use crate::shogi::{Color, Move, Position, Square};

/// How a variation's moves are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    Csa,
    Usi,
    Japanese,
}

/// A principal variation as written in a comment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pv<'r> {
    text: &'r str,
    notation: Notation,
    /// The ply of the position the text's first move is played in.
    text_ply: usize,
    /// Whether the text begins with the move that led to the evaluated position (the move
    /// played, which some writers repeat): it is played, not reported.
    skip_first: bool,
}

impl<'r> Pv<'r> {
    pub(crate) fn new(
        text: &'r str,
        notation: Notation,
        text_ply: usize,
        skip_first: bool,
    ) -> Pv<'r> {
        Pv {
            text,
            notation,
            text_ply,
            skip_first,
        }
    }

    /// The variation as written.
    pub fn text(&self) -> &'r str {
        self.text
    }

    pub fn notation(&self) -> Notation {
        self.notation
    }

    /// The ply of the position the written text starts from: the evaluated ply, or the one
    /// before when the text repeats the move played.
    pub fn text_ply(&self) -> usize {
        self.text_ply
    }

    /// Up to `max` moves of the variation from the evaluated position, each legal where it is
    /// played. `pos` is the position at [`Pv::text_ply`] and `last_to` the destination of the
    /// move that led to it (for 同). Reading stops at the first move that cannot be read or is
    /// not legal: what comes before it is returned.
    pub fn moves(&self, pos: &Position, last_to: Option<Square>, max: usize) -> Vec<Move> {
        let mut out = Vec::new();
        let mut pos = pos.clone();
        let mut last_to = last_to;
        let mut skip = usize::from(self.skip_first);
        let mut rest = self.text;
        while out.len() < max {
            let Some((mv, after)) = next_move(rest, self.notation, &pos, last_to) else {
                break;
            };
            if !pos.is_legal(mv) || pos.play(mv).is_err() {
                break;
            }
            rest = after;
            last_to = Some(mv.to());
            if skip > 0 {
                skip -= 1;
            } else {
                out.push(mv);
            }
        }
        out
    }
}

/// The next move of `text` on `pos`, and the text after it.
fn next_move<'t>(
    text: &'t str,
    notation: Notation,
    pos: &Position,
    last_to: Option<Square>,
) -> Option<(Move, &'t str)> {
    let text = skip_separators(text);
    match notation {
        Notation::Csa | Notation::Usi => {
            let end = text.find([' ', '\t']).unwrap_or(text.len());
            let token = &text[..end];
            let mv = match notation {
                Notation::Csa => csa::parse_move(pos, token).ok()?,
                _ => Move::from_usi(token).ok()?,
            };
            Some((mv, &text[end..]))
        }
        Notation::Japanese => {
            let (jm, used) = parse_japanese_move(text).ok()?;
            let mv = resolve(pos, &jm, last_to).ok()?;
            Some((mv, &text[used..]))
        }
    }
}

/// Spaces (ASCII and ideographic) between moves.
fn skip_separators(text: &str) -> &str {
    text.trim_start_matches([' ', '\t', '\u{3000}'])
}

/// How a variation's first move relates to the move that led to the position commented on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Head {
    /// A move of the side to move after that move: the variation starts from it.
    Next,
    /// That move itself, repeated.
    Played,
    /// Another move of the side that played it: the variation starts from the position
    /// before it.
    Instead,
    /// Nothing tells (no side mark, no match).
    Unknown,
}

/// What the first move of `text` says of the position it is played in, given the move
/// `played` by `mover` that led to the position commented on (`prev_to`: the destination of
/// the move before `played`, for 同). Only the move's text is looked at: no board.
pub(crate) fn head(
    text: &str,
    notation: Notation,
    played: Move,
    mover: Color,
    prev_to: Option<Square>,
) -> Head {
    let text = skip_separators(text);
    let (side, same) = match notation {
        Notation::Csa => {
            let b = text.as_bytes();
            if b.len() < 7 {
                return Head::Unknown;
            }
            let side = match b[0] {
                b'+' => Color::Black,
                b'-' => Color::White,
                _ => return Head::Unknown,
            };
            let square = |f: u8, r: u8| Square::new(f.wrapping_sub(b'0'), r.wrapping_sub(b'0'));
            let to = square(b[3], b[4]);
            let same = match played {
                Move::Board { from, to: t, .. } => {
                    square(b[1], b[2]) == Some(from) && to == Some(t)
                }
                Move::Drop { kind, to: t } => {
                    &b[1..3] == b"00" && to == Some(t) && text.get(5..7) == Some(kind.csa())
                }
            };
            (Some(side), same)
        }
        Notation::Usi => {
            let end = text.find([' ', '\t']).unwrap_or(text.len());
            match Move::from_usi(&text[..end]) {
                Ok(mv) => (None, mv.from() == played.from() && mv.to() == played.to()),
                Err(_) => return Head::Unknown,
            }
        }
        Notation::Japanese => {
            let Ok((jm, _)) = parse_japanese_move(text) else {
                return Head::Unknown;
            };
            let to = jm.to.or(prev_to);
            let same = to == Some(played.to())
                && jm.drop == played.is_drop()
                && jm.origin.is_none_or(|o| Some(o) == played.from());
            (jm.side, same)
        }
    };
    match side {
        Some(s) if s == mover => {
            if same {
                Head::Played
            } else {
                Head::Instead
            }
        }
        Some(_) => Head::Next,
        None if same => Head::Played,
        None => Head::Unknown,
    }
}

/// The notation of a variation's first move, if it is a move in one.
pub(crate) fn notation_of(text: &str) -> Option<Notation> {
    let text = skip_separators(text);
    let first = text.split([' ', '\t']).next()?;
    let b = first.as_bytes();
    if b.len() == 7
        && matches!(b[0], b'+' | b'-')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5..7].iter().all(u8::is_ascii_uppercase)
    {
        return Some(Notation::Csa);
    }
    if Move::from_usi(first).is_ok() {
        return Some(Notation::Usi);
    }
    parse_japanese_move(text).ok().map(|_| Notation::Japanese)
}
