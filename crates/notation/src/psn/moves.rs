//! Western move text as PSN writes it: syntax first ([`parse_western`]), then meaning on a
//! position ([`resolve_western`]), never a guess.

use crate::movetext::{MoveTextError, MoveTextErrorKind, move_from_origin};
use kifudex_shogi::{Move, Piece, PieceKind, Position, Rule, Square};

/// How a Western move goes to its square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Motion {
    /// `-`, or nothing (Hosking).
    Move,
    /// `x`: a capture.
    Capture,
    /// `*` or `'`: a drop.
    Drop,
}

/// A Western move as written, before it is matched against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WesternMove {
    /// The piece named (`None` for a USI move, which names none).
    pub(crate) piece: Option<PieceKind>,
    from: Option<Square>,
    motion: Motion,
    to: Square,
    /// `+` `Some(true)`, `=` `Some(false)`.
    promote: Option<bool>,
}

/// A square with Hodges' rank letter (`7f`) or Hosking's digit (`76`) at the start of `s`.
fn square_at(s: &[u8]) -> Option<Square> {
    match s {
        [f @ b'1'..=b'9', r @ b'a'..=b'i', ..] => Square::new(f - b'0', r - b'a' + 1),
        [f @ b'1'..=b'9', r @ b'1'..=b'9', ..] => Square::new(f - b'0', r - b'0'),
        _ => None,
    }
}

fn motion_at(s: &str) -> Option<(Motion, usize)> {
    let c = s.chars().next()?;
    let m = match c {
        '-' => Motion::Move,
        'x' => Motion::Capture,
        '*' | '\'' | '’' => Motion::Drop,
        _ => return None,
    };
    Some((m, c.len_utf8()))
}

/// Reads a Western move (or a USI one), with its `+`/`=` and any `!`/`?` marks after it.
pub(crate) fn parse_western(word: &str) -> Result<WesternMove, MoveTextError> {
    let bad = |why: &str| {
        MoveTextError::new(
            MoveTextErrorKind::Syntax,
            format!("'{word}' is not a move: {why}"),
        )
    };
    if word.starts_with(|c: char| c.is_ascii_digit())
        && let Ok(mv) = Move::from_usi(word.trim_end_matches(['!', '?']))
    {
        let (from, to, promote) = match mv {
            Move::Board { from, to, promote } => (Some(from), to, Some(promote)),
            Move::Drop { to, .. } => (None, to, None),
        };
        let (piece, motion) = match mv {
            Move::Drop { kind, .. } => (Some(kind), Motion::Drop),
            Move::Board { .. } => (None, Motion::Move),
        };
        return Ok(WesternMove {
            piece,
            from,
            motion,
            to,
            promote,
        });
    }
    let b = word.as_bytes();
    let mut i = 0;
    let promoted = b.first() == Some(&b'+');
    if promoted {
        i += 1;
    }
    let letter = *b.get(i).ok_or_else(|| bad("no piece letter"))?;
    i += 1;
    let kind = match letter {
        b'D' if !promoted => PieceKind::Dragon,
        b'H' if !promoted => PieceKind::Horse,
        b'T' if !promoted => PieceKind::ProPawn,
        _ => {
            let base = PieceKind::from_sfen_letter(letter as char)
                .filter(|_| letter.is_ascii_uppercase())
                .ok_or_else(|| bad("a move starts with a piece letter: P L N S G B R K"))?;
            if promoted {
                base.promoted()
                    .ok_or_else(|| bad("only P L N S B R promote"))?
            } else {
                base
            }
        }
    };
    let rest = &word[i..];
    let (from, motion, to, used) = if let Some((m, n)) = motion_at(rest) {
        let to =
            square_at(&rest.as_bytes()[n..]).ok_or_else(|| bad("no square after the move sign"))?;
        (None, m, to, n + 2)
    } else {
        let a = square_at(rest.as_bytes()).ok_or_else(|| bad("no square after the piece"))?;
        if let Some((m, n)) = motion_at(&rest[2..]) {
            let to = square_at(&rest.as_bytes()[2 + n..])
                .ok_or_else(|| bad("no square after the move sign"))?;
            (Some(a), m, to, 2 + n + 2)
        } else if let Some(to) = square_at(&rest.as_bytes()[2..]) {
            (Some(a), Motion::Move, to, 4)
        } else {
            (None, Motion::Move, a, 2)
        }
    };
    let mut tail = &rest[used..];
    let promote = match tail.as_bytes().first() {
        Some(b'+') => Some(true),
        Some(b'=') => Some(false),
        _ => None,
    };
    if promote.is_some() {
        tail = &tail[1..];
    }
    if !tail.bytes().all(|c| matches!(c, b'!' | b'?' | b'#')) {
        return Err(bad(&format!("unexpected '{tail}' after it")));
    }
    if motion == Motion::Drop && (from.is_some() || promote.is_some()) {
        return Err(MoveTextError::new(
            MoveTextErrorKind::BadDrop,
            format!("'{word}' is not a move: a drop has no origin and no promotion mark"),
        ));
    }
    Ok(WesternMove {
        piece: Some(kind),
        from,
        motion,
        to,
        promote,
    })
}

/// "A and B", "A, B and C".
fn squares_text(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(Square::to_string).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// The one move `wm` (written `text`) means on `pos`: a piece of the kind named that can go
/// to the square, legally if one can, else physically (records with illegal moves are
/// data). Several candidates, or none, are an error, never a guess.
pub(crate) fn resolve_western(
    pos: &Position,
    wm: &WesternMove,
    text: &str,
) -> Result<Move, MoveTextError> {
    let us = pos.side_to_move();
    let to = wm.to;
    let Some(kind) = wm.piece else {
        // A USI move names its origin.
        let from = wm.from.ok_or_else(|| {
            MoveTextError::new(MoveTextErrorKind::Syntax, "a USI move without origin")
        })?;
        return Ok(Move::Board {
            from,
            to,
            promote: wm.promote == Some(true),
        });
    };
    if wm.motion == Motion::Drop {
        if !PieceKind::HAND.contains(&kind) {
            return Err(MoveTextError::new(
                MoveTextErrorKind::CannotDrop,
                format!("{text}: a {} cannot be dropped", kind.name()),
            ));
        }
        return Ok(Move::Drop { kind, to });
    }
    let promote = wm.promote == Some(true);
    if promote && !kind.can_promote() {
        return Err(MoveTextError::new(
            MoveTextErrorKind::CannotPromote,
            format!("{text}: a {} cannot promote", kind.name()),
        ));
    }
    match pos.piece_at(to) {
        None if wm.motion == Motion::Capture => {
            return Err(MoveTextError::new(
                MoveTextErrorKind::NothingToCapture,
                format!("{text}: there is nothing to capture on {to}"),
            ));
        }
        Some(p) if p.color == us => {
            return Err(MoveTextError::new(
                MoveTextErrorKind::OwnPiece,
                format!("{text}: {to} holds {}'s own {}", us.name(), p.kind.name()),
            ));
        }
        _ => {}
    }
    if let Some(from) = wm.from {
        return move_from_origin(
            pos,
            (from, to, promote),
            kind,
            true,
            &format!("{text}: "),
            |s| s.to_string(),
        );
    }
    let piece = Piece::new(us, kind);
    let board = |from| Move::Board {
        from,
        to,
        promote: false,
    };
    let physical: Vec<Square> = Square::all()
        .filter(|&from| pos.piece_at(from) == Some(piece))
        .filter(|&from| {
            let mut after = pos.clone();
            after
                .play(board(from))
                .is_ok_and(|v| !v.contains(Rule::IllegalMovement))
        })
        .collect();
    let legal: Vec<Square> = physical
        .iter()
        .copied()
        .filter(|&from| {
            [false, true]
                .into_iter()
                .any(|promote| pos.is_legal(Move::Board { from, to, promote }))
        })
        .collect();
    let set = if legal.is_empty() { &physical } else { &legal };
    match set[..] {
        [from] => Ok(Move::Board { from, to, promote }),
        [] => {
            let drop = if PieceKind::HAND.contains(&kind) && pos.hand(us).count(kind) > 0 {
                format!(" (a drop is written {}*{to})", kind.sfen_letter())
            } else {
                String::new()
            };
            Err(MoveTextError::new(
                MoveTextErrorKind::Impossible,
                format!(
                    "{text} is impossible: no {} {} can move to {to}{drop}",
                    us.name(),
                    kind.name()
                ),
            ))
        }
        ref several => {
            let hints: Vec<String> = several
                .iter()
                .map(|&from| {
                    let mut w = text.to_string();
                    let at = w
                        .find(['-', 'x'])
                        .unwrap_or_else(|| w.find(|c: char| c.is_ascii_digit()).unwrap_or(w.len()));
                    w.insert_str(at, &from.to_string());
                    w
                })
                .collect();
            Err(MoveTextError::new(
                MoveTextErrorKind::Ambiguous,
                format!(
                    "{text} is ambiguous: {} on {} can move to {to}; write {}",
                    kind.plural(),
                    squares_text(several),
                    hints.join(" or ")
                ),
            ))
        }
    }
}
