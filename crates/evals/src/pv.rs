//! Principal variations as the comments write them: CSA moves (`+7776FU -3334FU`), USI moves
//! (`7g7f 3c3d`), or Japanese moves (`▲７六歩(77) △３四歩(33)`, `▲２五歩△８五歩`,
//! `△同金  ▲７五歩`). Kept as text and resolved only when asked, against the main line's
//! positions; reading an analysis looks at its first move only, to tell which position it
//! evaluates, and reading a player's line not at all.

use kifudex_notation::csa;
use kifudex_notation::movetext::{parse_japanese_move, resolve};
use kifudex_shogi::{Color, Move, Position, Square};

/// How a variation's moves are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    Csa,
    Usi,
    Japanese,
}

/// Where a variation's text starts, relative to the evaluated position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// At the evaluated position.
    At,
    /// One ply before it, with the move played there (which some writers repeat).
    Repeats,
    /// Either: a player's line, whose text is looked at only when it is resolved. It starts
    /// at the evaluated position if its first move can be played there; otherwise it must
    /// repeat the move played.
    Either,
}

/// A principal variation as written in a comment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pv<'r> {
    text: &'r str,
    /// The notation when the reader knew it; otherwise told from the first move on demand.
    notation: Option<Notation>,
    /// The evaluated ply.
    ply: usize,
    start: Start,
}

impl<'r> Pv<'r> {
    pub(crate) fn new(
        text: &'r str,
        notation: Option<Notation>,
        ply: usize,
        start: Start,
    ) -> Pv<'r> {
        Pv {
            text,
            notation,
            ply,
            start,
        }
    }

    /// The variation as written.
    pub fn text(&self) -> &'r str {
        self.text
    }

    /// How its moves are written, if they are moves at all.
    pub fn notation(&self) -> Option<Notation> {
        self.notation.or_else(|| notation_of(self.text))
    }

    /// Up to `max` moves of the variation from the evaluated position, each legal where it is
    /// played. `positions[i]` is the position after the i-th move of the main line (as far as
    /// it is known) and `played[i]` the (i+1)-th move. Reading stops at the first move that
    /// cannot be read or is not legal: what comes before it is returned.
    pub fn moves(&self, positions: &[Position], played: &[Move], max: usize) -> Vec<Move> {
        let Some(notation) = self.notation() else {
            return Vec::new();
        };
        let last_to = |ply: usize| {
            ply.checked_sub(1)
                .and_then(|i| played.get(i))
                .map(|m| m.to())
        };
        let from = |ply: usize, skip| match positions.get(ply) {
            Some(pos) => read_moves(self.text, notation, pos, last_to(ply), skip, max),
            None => Vec::new(),
        };
        let repeated = || match (
            self.ply.checked_sub(1),
            played.get(self.ply.wrapping_sub(1)),
        ) {
            (Some(before), Some(&mv)) => {
                let first = positions.get(before).and_then(|pos| {
                    next_move(self.text, notation, pos, last_to(before)).map(|(m, _)| m)
                });
                if first == Some(mv) {
                    from(before, 1)
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        };
        match self.start {
            Start::At => from(self.ply, 0),
            Start::Repeats => repeated(),
            Start::Either => {
                let first_here = positions.get(self.ply).and_then(|pos| {
                    next_move(self.text, notation, pos, last_to(self.ply))
                        .filter(|(m, _)| pos.is_legal(*m))
                });
                if first_here.is_some() {
                    from(self.ply, 0)
                } else {
                    repeated()
                }
            }
        }
    }
}

/// Up to `max` moves of `text` from `pos` after skipping `skip` of them, each legal.
fn read_moves(
    text: &str,
    notation: Notation,
    pos: &Position,
    last_to: Option<Square>,
    skip: usize,
    max: usize,
) -> Vec<Move> {
    let mut out = Vec::new();
    let mut pos = pos.clone();
    let mut last_to = last_to;
    let mut skip = skip;
    let mut rest = text;
    while out.len() < max {
        let Some((mv, after)) = next_move(rest, notation, &pos, last_to) else {
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
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' => i += 1,
            0xE3 if b[i..].starts_with("\u{3000}".as_bytes()) => i += 3,
            _ => break,
        }
    }
    &text[i..]
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
            let end = text
                .as_bytes()
                .iter()
                .position(|&c| c == b' ' || c == b'\t')
                .unwrap_or(text.len());
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
    let b = text.as_bytes();
    let end = b
        .iter()
        .position(|&c| c == b' ' || c == b'\t')
        .unwrap_or(b.len());
    let first = &b[..end];
    if first.len() == 7
        && matches!(first[0], b'+' | b'-')
        && first[1..5].iter().all(u8::is_ascii_digit)
        && first[5..7].iter().all(u8::is_ascii_uppercase)
    {
        return Some(Notation::Csa);
    }
    if first.first().is_some_and(u8::is_ascii) && Move::from_usi(&text[..end]).is_ok() {
        return Some(Notation::Usi);
    }
    parse_japanese_move(text).ok().map(|_| Notation::Japanese)
}
