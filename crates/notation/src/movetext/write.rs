//! Writing moves: Japanese (KI2 with its side mark, KIF without), with the minimal relative
//! words of the 連盟's rules, and the Western Hodges and Hosking notations.

use super::candidates::Candidates;
use super::could_promote;
use crate::japanese::{FILE_DIGITS, RANK_KANJI, kind_name, square_text};
use kifudex_shogi::{Color, Move, Piece, PieceKind, Position, Square};

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

/// `c` in UTF-8, for a character of three bytes (U+0800 to U+FFFF: every full-width digit
/// and kanji a move is written with).
const fn utf8_of_three(c: char) -> [u8; 3] {
    let c = c as u32;
    [
        0xE0 | (c >> 12) as u8,
        0x80 | ((c >> 6) & 0x3F) as u8,
        0x80 | (c & 0x3F) as u8,
    ]
}

/// Each square's text (`７六`) in UTF-8, by [`Square::index`].
const SQUARE_TEXTS: [[u8; 6]; Square::COUNT] = {
    let mut texts = [[0u8; 6]; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        // The index is (file - 1) * 9 + (rank - 1).
        let [a, b, c] = utf8_of_three(FILE_DIGITS[i / 9]);
        let [d, e, f] = utf8_of_three(RANK_KANJI[i % 9]);
        texts[i] = [a, b, c, d, e, f];
        i += 1;
    }
    texts
};

/// Each kind's name ([`kind_name`]) in UTF-8, by [`PieceKind::index`]: the bytes, padded,
/// and how many there are.
const KIND_TEXTS: [([u8; 6], usize); 14] = {
    let mut texts = [([0u8; 6], 0); 14];
    let mut i = 0;
    while i < PieceKind::ALL.len() {
        let name = kind_name(PieceKind::ALL[i]).as_bytes();
        let mut j = 0;
        while j < name.len() {
            texts[i].0[j] = name[j];
            j += 1;
        }
        texts[i].1 = name.len();
        i += 1;
    }
    texts
};

/// A move as a KIF move line writes it ([`kif_move_text`]), put together on the stack.
#[derive(Clone, Copy, Debug)]
pub struct KifMove {
    /// The text, then padding: `同　` or the square (6 bytes), a kind of at most two
    /// characters (6), `成`, `打` or `不成` (at most 6) and `(77)` or `?(77)` (at most 5).
    bytes: [u8; 24],
    len: usize,
    width: usize,
}

impl KifMove {
    /// The move's text from what it needs of the position: the piece on the move's origin
    /// (`None` for a drop or an empty square) and the side to move.
    pub fn new(moved: Option<Piece>, us: Color, mv: Move, last_to: Option<Square>) -> KifMove {
        let mut bytes = [0u8; 24];
        let to = mv.to();
        if last_to == Some(to) {
            bytes[..6].copy_from_slice("同　".as_bytes());
        } else {
            bytes[..6].copy_from_slice(&SQUARE_TEXTS[to.index()]);
        }
        let mut at = 6;
        let put_kind = |bytes: &mut [u8; 24], at: &mut usize, kind: PieceKind| {
            let (text, len) = KIND_TEXTS[kind.index()];
            bytes[*at..*at + 6].copy_from_slice(&text);
            *at += len;
        };
        // Every character but the ASCII origin `(77)` and `?` is full-width: three bytes,
        // two columns.
        let mut ascii = 0;
        match mv {
            Move::Drop { kind, .. } => {
                put_kind(&mut bytes, &mut at, kind);
                bytes[at..at + 3].copy_from_slice("打".as_bytes());
                at += 3;
            }
            Move::Board { from, to, promote } => {
                match moved {
                    Some(p) => {
                        put_kind(&mut bytes, &mut at, p.kind);
                        if promote {
                            bytes[at..at + 3].copy_from_slice("成".as_bytes());
                            at += 3;
                        } else if could_promote(us, p.kind, from, to) {
                            bytes[at..at + 6].copy_from_slice("不成".as_bytes());
                            at += 6;
                        }
                    }
                    None => {
                        bytes[at] = b'?';
                        at += 1;
                        ascii += 1;
                    }
                }
                bytes[at..at + 4].copy_from_slice(&[
                    b'(',
                    b'0' + from.file(),
                    b'0' + from.rank(),
                    b')',
                ]);
                at += 4;
                ascii += 4;
            }
        }
        KifMove {
            bytes,
            len: at,
            width: 2 * ((at - ascii) / 3) + ascii,
        }
    }

    /// The text in UTF-8.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The text and the padding after it: a copy of fixed length.
    pub fn padded(&self) -> &[u8; 24] {
        &self.bytes
    }

    /// How many columns the text takes (two a full-width character, one an ASCII one).
    pub fn width(&self) -> usize {
        self.width
    }
}

/// [`kif_move_text`] added to `out` as UTF-8, from what it needs of the position: the
/// piece on the move's origin (`None` for a drop or an empty square) and the side to move.
/// Returns the columns the text takes (two a full-width character, one an ASCII one).
pub fn push_kif_move(
    out: &mut Vec<u8>,
    moved: Option<Piece>,
    us: Color,
    mv: Move,
    last_to: Option<Square>,
) -> usize {
    let text = KifMove::new(moved, us, mv, last_to);
    out.extend_from_slice(text.as_bytes());
    text.width()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The move text as it was put together character by character before the tables.
    fn reference(moved: Option<Piece>, us: Color, mv: Move, last_to: Option<Square>) -> String {
        let mut s = String::new();
        let to = mv.to();
        if last_to == Some(to) {
            s.push_str("同　");
        } else {
            s.push(FILE_DIGITS[to.file() as usize - 1]);
            s.push(RANK_KANJI[to.rank() as usize - 1]);
        }
        match mv {
            Move::Drop { kind, .. } => {
                s.push_str(kind_name(kind));
                s.push('打');
            }
            Move::Board { from, to, promote } => {
                match moved {
                    Some(p) => {
                        s.push_str(kind_name(p.kind));
                        if promote {
                            s.push('成');
                        } else if could_promote(us, p.kind, from, to) {
                            s.push_str("不成");
                        }
                    }
                    None => s.push('?'),
                }
                s.push_str(&format!("({}{})", from.file(), from.rank()));
            }
        }
        s
    }

    #[test]
    fn kif_moves_and_their_widths_are_the_characters_written() {
        let mut pieces: Vec<Option<Piece>> = vec![None];
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                pieces.push(Some(Piece::new(color, kind)));
            }
        }
        let check = |moved: Option<Piece>, us: Color, mv: Move, last_to: Option<Square>| {
            let mut out = b"before".to_vec();
            let width = push_kif_move(&mut out, moved, us, mv, last_to);
            let text = String::from_utf8(out).unwrap();
            let expected = reference(moved, us, mv, last_to);
            assert_eq!(text, format!("before{expected}"));
            let columns: usize = expected
                .chars()
                .map(|c| if c.is_ascii() { 1 } else { 2 })
                .sum();
            assert_eq!(width, columns, "{expected}");
        };
        for to in Square::all() {
            for us in Color::ALL {
                for last_to in [None, Some(to)] {
                    for kind in PieceKind::ALL {
                        check(None, us, Move::Drop { kind, to }, last_to);
                    }
                    for from in Square::all() {
                        for promote in [false, true] {
                            for &moved in &pieces {
                                check(moved, us, Move::Board { from, to, promote }, last_to);
                            }
                        }
                    }
                }
            }
        }
    }
}
