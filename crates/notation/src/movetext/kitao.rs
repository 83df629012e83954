//! Kitao–Kawasaki notation, the hybrid of Nekomado's English shogi books: the side mark, the
//! piece in kanji (`+香 +桂 +銀` for the promoted minor pieces, `と 馬 龍` as in Japanese), the
//! origin in parentheses only when another piece of the kind could go there (`銀(72)`), the
//! motion `-` `x` `*` (always written), the destination in Arabic digits (`76`), left out
//! after `x` when it is the previous move's square (`☖歩x`), and `+` or `=` for promotion
//! taken or declined: `☗歩-76`, `☗銀(72)x83+`, `☗銀*34`, `☗銀x23=`.

use super::{MoveTextError, MoveTextErrorKind};
use std::fmt;

use super::candidates::Candidates;
use super::{could_promote, digit, piece_prefix, side_mark};
use crate::japanese::{kind_name, piece_char};
use kifudex_shogi::{Color, Move, PieceKind, Position, Square};

/// How a Kitao–Kawasaki move goes to its square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KkMotion {
    /// `-`
    Move,
    /// `x`: a capture.
    Capture,
    /// `*`: a drop.
    Drop,
}

/// A Kitao–Kawasaki move as written, before it is matched against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KkMove {
    pub side: Option<Color>,
    /// The piece named: the kind before the move.
    pub piece: PieceKind,
    pub origin: Option<Square>,
    pub motion: KkMotion,
    /// `None`: the previous move's square (after `x` only).
    pub to: Option<Square>,
    /// `+` `Some(true)`, `=` `Some(false)`.
    pub promote: Option<bool>,
}

/// The piece as Kitao–Kawasaki writes it.
pub fn kk_piece_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::ProLance => "+香",
        PieceKind::ProKnight => "+桂",
        PieceKind::ProSilver => "+銀",
        k => kind_name(k),
    }
}

impl fmt::Display for KkMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.side {
            Some(Color::Black) => f.write_str("☗")?,
            Some(Color::White) => f.write_str("☖")?,
            None => {}
        }
        f.write_str(kk_piece_name(self.piece))?;
        if let Some(o) = self.origin {
            write!(f, "({})", o.digits())?;
        }
        f.write_str(match self.motion {
            KkMotion::Move => "-",
            KkMotion::Capture => "x",
            KkMotion::Drop => "*",
        })?;
        if let Some(to) = self.to {
            f.write_str(&to.digits())?;
        }
        match self.promote {
            Some(true) => f.write_str("+"),
            Some(false) => f.write_str("="),
            None => Ok(()),
        }
    }
}

/// The move in Kitao–Kawasaki notation. `last_to` is the previous move's destination. `mv`
/// must be physically possible on `pos` (else its USI text is given).
pub fn kitao_kawasaki(pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    let us = pos.side_to_move();
    let side = Some(us);
    let kk = match mv {
        Move::Drop { kind, to } => KkMove {
            side,
            piece: kind,
            origin: None,
            motion: KkMotion::Drop,
            to: Some(to),
            promote: None,
        },
        Move::Board { from, to, promote } => {
            let Some(piece) = pos.piece_at(from) else {
                return mv.usi();
            };
            let c = Candidates::new(pos, piece.kind, to);
            let capture = pos.piece_at(to).is_some();
            KkMove {
                side,
                piece: piece.kind,
                origin: (c.set_for(from).len() > 1 || !c.physical.contains(&from)).then_some(from),
                motion: if capture {
                    KkMotion::Capture
                } else {
                    KkMotion::Move
                },
                to: (!capture || last_to != Some(to)).then_some(to),
                promote: if promote {
                    Some(true)
                } else {
                    could_promote(us, piece.kind, from, to).then_some(false)
                },
            }
        }
    };
    kk.to_string()
}

/// Two digits (half- or full-width) at the start of `s`, as a square, with their length.
fn digits_square(s: &str) -> Option<(Square, usize)> {
    let mut it = s.char_indices();
    let (_, f) = it.next()?;
    let (_, r) = it.next()?;
    if !f.is_ascii_digit() && !('１'..='９').contains(&f)
        || !r.is_ascii_digit() && !('１'..='９').contains(&r)
    {
        return None;
    }
    let len = it.next().map_or(s.len(), |(i, _)| i);
    Some((Square::new(digit(f)?, digit(r)?)?, len))
}

/// Reads one Kitao–Kawasaki move at the start of `text`, and the bytes it took; reading
/// stops before anything else (the next move's side mark).
pub fn parse_kitao_kawasaki(text: &str) -> Result<(KkMove, usize), MoveTextError> {
    let mut i = 0;
    let side = side_mark(text).map(|(c, n)| {
        i = n;
        c
    });
    let rest = &text[i..];
    let (piece, n) =
        if let Some(after) = rest.strip_prefix('+') {
            let base = after
                .chars()
                .next()
                .and_then(piece_char)
                .filter(|k| k.can_promote())
                .ok_or_else(|| {
                    MoveTextError::new(
                        MoveTextErrorKind::Syntax,
                        format!("expected a piece after '+' (+香 +桂 +銀), found '{rest}'"),
                    )
                })?;
            (base.promoted().unwrap_or(base), 1 + base_len(after))
        } else {
            piece_prefix(rest).ok_or_else(|| {
            MoveTextError::new(MoveTextErrorKind::Syntax, format!(
                "expected a piece (歩 香 桂 銀 金 角 飛 玉 と +香 +桂 +銀 馬 龍), found '{}'",
                rest.chars().take(8).collect::<String>()
            ))
        })?
        };
    i += n;
    let mut origin = None;
    if let Some(after) = text[i..].strip_prefix(['(', '（']) {
        let (sq, n) = digits_square(after).ok_or_else(|| {
            MoveTextError::new(
                MoveTextErrorKind::Syntax,
                "expected a two-digit origin like (72) after the piece",
            )
        })?;
        let close = &after[n..];
        let c = close
            .chars()
            .next()
            .filter(|&c| c == ')' || c == '）')
            .ok_or_else(|| {
                MoveTextError::new(
                    MoveTextErrorKind::Syntax,
                    "the origin's '(' is not closed by ')'",
                )
            })?;
        i += text[i..].len() - after.len() + n + c.len_utf8();
        origin = Some(sq);
    }
    let motion = match text[i..].chars().next() {
        Some('-' | '－') => KkMotion::Move,
        Some('x' | '×' | 'ｘ') => KkMotion::Capture,
        Some('*' | '＊') => KkMotion::Drop,
        _ => {
            return Err(MoveTextError::new(
                MoveTextErrorKind::Syntax,
                format!("expected the motion -, x or * after {}", &text[..i]),
            ));
        }
    };
    i += text[i..].chars().next().map_or(0, char::len_utf8);
    let to = match digits_square(&text[i..]) {
        Some((sq, n)) => {
            i += n;
            Some(sq)
        }
        None if motion == KkMotion::Capture => None,
        None => {
            return Err(MoveTextError::new(
                MoveTextErrorKind::Syntax,
                format!("expected a destination like 76 after {}", &text[..i]),
            ));
        }
    };
    let promote = match text[i..].chars().next() {
        Some('+') => Some(true),
        Some('=') => Some(false),
        _ => None,
    };
    if promote.is_some() {
        i += 1;
    }
    let mv = KkMove {
        side,
        piece,
        origin,
        motion,
        to,
        promote,
    };
    if motion == KkMotion::Drop && (origin.is_some() || promote.is_some()) {
        return Err(MoveTextError::new(
            MoveTextErrorKind::BadDrop,
            format!("{mv}: a drop has no origin and no promotion mark"),
        ));
    }
    Ok((mv, i))
}

fn base_len(s: &str) -> usize {
    s.chars().next().map_or(0, char::len_utf8)
}

/// The one move `mv` means on `pos`, `last_to` being the previous move's destination: a
/// piece of the kind named that can go there, legally if one can, else physically (records
/// with illegal moves are data). Several candidates, or none, are an error, never a guess.
pub fn resolve_kitao_kawasaki(
    pos: &Position,
    mv: &KkMove,
    last_to: Option<Square>,
) -> Result<Move, MoveTextError> {
    let us = pos.side_to_move();
    super::check_side(mv, mv.side, us)?;
    let to = mv.to.or(last_to).ok_or_else(|| {
        MoveTextError::new(
            MoveTextErrorKind::NoPreviousMove,
            format!("{mv}: no destination, and there is no previous move whose square it would be"),
        )
    })?;
    let kind = mv.piece;
    if mv.motion == KkMotion::Drop {
        if !PieceKind::HAND.contains(&kind) {
            return Err(MoveTextError::new(
                MoveTextErrorKind::CannotDrop,
                format!("{mv}: a {} cannot be dropped", kind.name()),
            ));
        }
        if pos.hand(us).count(kind) == 0 {
            return Err(MoveTextError::new(
                MoveTextErrorKind::NotInHand,
                format!("{mv}: {} has no {} in hand to drop", us.name(), kind.name()),
            ));
        }
        if pos.piece_at(to).is_some() {
            return Err(MoveTextError::new(
                MoveTextErrorKind::Occupied,
                format!(
                    "{mv}: cannot drop on {}, the square is occupied",
                    to.digits()
                ),
            ));
        }
        return Ok(Move::Drop { kind, to });
    }
    let promote = mv.promote == Some(true);
    if promote && !kind.can_promote() {
        return Err(MoveTextError::new(
            MoveTextErrorKind::CannotPromote,
            format!("{mv}: a {} cannot promote", kind.name()),
        ));
    }
    match pos.piece_at(to) {
        None if mv.motion == KkMotion::Capture => {
            return Err(MoveTextError::new(
                MoveTextErrorKind::NothingToCapture,
                format!("{mv}: there is nothing to capture on {}", to.digits()),
            ));
        }
        Some(p) if p.color == us => {
            return Err(MoveTextError::new(
                MoveTextErrorKind::OwnPiece,
                format!(
                    "{mv}: {} holds {}'s own {}",
                    to.digits(),
                    us.name(),
                    p.kind.name()
                ),
            ));
        }
        _ => {}
    }
    let c = Candidates::new(pos, kind, to);
    if let Some(from) = mv.origin {
        return super::move_from_origin(
            pos,
            (from, to, promote),
            kind,
            false,
            &format!("{mv}: "),
            Square::digits,
        );
    }
    let set = if c.legal.is_empty() {
        &c.physical
    } else {
        &c.legal
    };
    match set[..] {
        [from] => Ok(Move::Board { from, to, promote }),
        [] => Err(MoveTextError::new(
            MoveTextErrorKind::Impossible,
            format!(
                "{mv} is impossible: no {} {} can move to {}",
                us.name(),
                kind.name(),
                to.digits()
            ),
        )),
        ref several => {
            let hints: Vec<String> = several
                .iter()
                .map(|&from| {
                    KkMove {
                        origin: Some(from),
                        ..mv.clone()
                    }
                    .to_string()
                })
                .collect();
            Err(MoveTextError::new(
                MoveTextErrorKind::Ambiguous,
                format!(
                    "{mv} is ambiguous: {} on {} can move there; write {}",
                    kind.plural(),
                    several
                        .iter()
                        .map(|s| s.digits())
                        .collect::<Vec<_>>()
                        .join(" and "),
                    hints.join(" or ")
                ),
            ))
        }
    }
}
