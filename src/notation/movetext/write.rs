//! Writing moves: Japanese (KI2 with its side mark, KIF without), with the minimal relative
//! words of the 連盟's rules, and the Western Hodges and Hosking notations.

use super::candidates::Candidates;
use super::could_promote;
use crate::notation::japanese::{FILE_DIGITS, RANK_KANJI, kind_name, square_text};
use crate::shogi::{Color, Move, Piece, PieceKind, Position, Square};

/// `同　` when the move goes to `last_to`, else the square (`７六`).
fn destination(to: Square, last_to: Option<Square>) -> String {
    if last_to == Some(to) {
        "同　".to_string()
    } else {
        square_text(to)
    }
}

/// The move in KI2 form with its side mark and the minimal relative words, 成 不成 and 打 as
/// the 連盟 writes them: `☗７六歩`, `☖同　歩`, `☗５八金右`, `☗２二角成`, `☗４五角打` (打 only
/// when a board piece could also go there). [`resolve`] reads it back as `mv`, for every
/// physically possible move. `mv` must be physically possible on `pos`.
pub fn japanese(pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    let us = pos.side_to_move();
    let mark = match us {
        Color::Black => '☗',
        Color::White => '☖',
    };
    let to = mv.to();
    let mut s = format!("{mark}{}", destination(to, last_to));
    match mv {
        Move::Drop { kind, to } => {
            let c = Candidates::new(pos, kind, to);
            let rivals = if pos.is_legal(mv) {
                &c.legal
            } else {
                &c.physical
            };
            s.push_str(kind_name(kind));
            if !rivals.is_empty() {
                s.push('打');
            }
        }
        Move::Board { from, to, promote } => {
            let Some(piece) = pos.piece_at(from) else {
                s.push_str(&format!("?({})", from.digits()));
                return s;
            };
            let c = Candidates::new(pos, piece.kind, to);
            let set = c.set_for(from);
            let mut words = c.words(from, set);
            // An illegal move with no words would read as a legal drop: name its motion.
            if words.is_empty()
                && !c.legal.contains(&from)
                && pos.is_legal(Move::Drop {
                    kind: piece.kind,
                    to,
                })
            {
                words = c.motion(from);
            }
            s.push_str(kind_name(piece.kind));
            s.push_str(&words.to_string());
            if promote {
                s.push('成');
            } else if could_promote(us, piece.kind, from, to) {
                s.push_str("不成");
            }
        }
    }
    s
}

/// The move as a KIF move line writes it, without side mark: `７六歩(77)`, `同　歩(34)`,
/// `２二角成(88)`, `２四歩不成(25)`, `４五角打`.
pub fn kif_move_text(pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    let mut s = String::new();
    push_kif_move_text(&mut s, pos, mv, last_to);
    s
}

/// [`kif_move_text`] added to `out`.
pub fn push_kif_move_text(out: &mut String, pos: &Position, mv: Move, last_to: Option<Square>) {
    let moved = mv.from().and_then(|from| pos.piece_at(from));
    let mut bytes = Vec::with_capacity(24);
    push_kif_move(&mut bytes, moved, pos.side_to_move(), mv, last_to);
    out.push_str(&String::from_utf8_lossy(&bytes));
}

/// [`kif_move_text`] added to `out` as UTF-8, from what it needs of the position: the
/// piece on the move's origin (`None` for a drop or an empty square) and the side to move.
pub fn push_kif_move(
    out: &mut Vec<u8>,
    moved: Option<Piece>,
    us: Color,
    mv: Move,
    last_to: Option<Square>,
) {
    let mut utf8 = [0u8; 4];
    let mut push = |out: &mut Vec<u8>, c: char| {
        out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
    };
    let to = mv.to();
    if last_to == Some(to) {
        out.extend_from_slice("同　".as_bytes());
    } else {
        push(out, FILE_DIGITS[to.file() as usize - 1]);
        push(out, RANK_KANJI[to.rank() as usize - 1]);
    }
    match mv {
        Move::Drop { kind, .. } => {
            out.extend_from_slice(kind_name(kind).as_bytes());
            push(out, '打');
        }
        Move::Board { from, to, promote } => {
            match moved {
                Some(p) => {
                    out.extend_from_slice(kind_name(p.kind).as_bytes());
                    if promote {
                        push(out, '成');
                    } else if could_promote(us, p.kind, from, to) {
                        out.extend_from_slice("不成".as_bytes());
                    }
                }
                None => out.push(b'?'),
            }
            out.extend_from_slice(&[b'(', b'0' + from.file(), b'0' + from.rank(), b')']);
        }
    }
}

/// The Western letter of a kind: P L N S G B R K, with `+` for the promoted kinds.
fn western_letter(kind: PieceKind) -> String {
    if kind.is_promoted() {
        format!("+{}", kind.sfen_letter())
    } else {
        kind.sfen_letter().to_string()
    }
}

fn western(pos: &Position, mv: Move, numeric: bool) -> String {
    let sq = |s: Square| if numeric { s.digits() } else { s.to_string() };
    let (from, to, promote) = match mv {
        Move::Drop { kind, to } => return format!("{}*{}", western_letter(kind), sq(to)),
        Move::Board { from, to, promote } => (from, to, promote),
    };
    let Some(piece) = pos.piece_at(from) else {
        return mv.usi();
    };
    let c = Candidates::new(pos, piece.kind, to);
    let set = c.set_for(from);
    let mut s = western_letter(piece.kind);
    let capture = pos.piece_at(to).is_some();
    if set != [from] {
        s.push_str(&sq(from));
        s.push(if capture { 'x' } else { '-' });
    } else if capture {
        s.push('x');
    } else if !numeric {
        s.push('-');
    }
    s.push_str(&sq(to));
    if promote {
        s.push('+');
    } else if could_promote(pos.side_to_move(), piece.kind, from, to) {
        s.push('=');
    }
    s
}

/// The move in Hodges notation: `P-7f`, `Bx2b+`, `S-4h=`, `+Bx2b`, `B*4e`, and `G6i-5h`
/// when another piece of the kind could also go there.
pub fn hodges(pos: &Position, mv: Move) -> String {
    western(pos, mv, false)
}

/// The move in Hosking's numeric notation: `P76`, `Bx22+`, `S48=`, `B*45`, and `G69-58`
/// when another piece of the kind could also go there.
pub fn hosking(pos: &Position, mv: Move) -> String {
    western(pos, mv, true)
}
