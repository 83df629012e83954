//! Pieces and where they stand: kanji, English words and USI letters; squares (９九, 99,
//! 9i), sets of squares, files, ranks and named areas; and a piece condition made of them.

use super::{ParseError, Parser};
use crate::find::ast::{Area, PieceCond, Place, What};
use crate::find::words::{ENGLISH_PIECES, Ja, Tok};
use kifudex_shogi::{Color, PieceKind, Square};

/// An English piece word, singular or plural.
pub(super) fn english_piece(w: &str) -> Option<What> {
    let w = w.to_ascii_lowercase();
    let single = w.strip_suffix('s').unwrap_or(&w);
    ENGLISH_PIECES
        .iter()
        .find(|(p, _)| *p == w || *p == single)
        .map(|(_, k)| *k)
}

/// A USI piece letter: the kind and the side its case gives.
pub(super) fn usi_letter(w: &str) -> Option<(PieceKind, Color)> {
    let mut cs = w.chars();
    let c = cs.next()?;
    if cs.next().is_some() {
        return None;
    }
    let kind = PieceKind::from_sfen_letter(c)?;
    let side = if c.is_ascii_uppercase() {
        Color::Black
    } else {
        Color::White
    };
    Some((kind, side))
}

/// A square written `99` or `9i`: `Ok(None)` when the word is no square at all.
pub(super) fn square_word(w: &str) -> Result<Option<Square>, String> {
    let b = w.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_digit() {
        return Ok(None);
    }
    let file = b[0] - b'0';
    let rank = match b[1].to_ascii_lowercase() {
        d @ b'0'..=b'9' => d - b'0',
        l @ b'a'..=b'z' => l - b'a' + 1,
        _ => return Ok(None),
    };
    Square::new(file, rank)
        .map(Some)
        .ok_or_else(|| format!("\"{w}\" is no square: files and ranks run 1 to 9 (９九, 99, 9i)"))
}

impl Parser {
    /// A piece word (Japanese, English, or a USI letter with its side), if one is next;
    /// the side is given for a USI letter.
    pub(super) fn what(&mut self) -> Result<Option<(What, Option<Color>)>, ParseError> {
        match self.peek().cloned() {
            Some(Tok::Ja(Ja::Piece(w))) => {
                self.at += 1;
                Ok(Some((w, None)))
            }
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("promoted") => {
                self.at += 1;
                let kind = match self.peek() {
                    Some(Tok::Word(k)) => match english_piece(k) {
                        Some(What::Kind(k)) => k.promoted(),
                        _ => None,
                    },
                    _ => None,
                };
                match kind {
                    Some(k) => {
                        self.at += 1;
                        Ok(Some((What::Kind(k), None)))
                    }
                    None => Err(self.expected(
                        "the piece promoted (pawn, lance, knight, silver, bishop or rook)",
                    )),
                }
            }
            Some(Tok::Word(w)) if english_piece(&w).is_some() => {
                self.at += 1;
                Ok(english_piece(&w).map(|k| (k, None)))
            }
            Some(Tok::Sym("+")) => {
                if let Some(Tok::Word(w)) = self.peek_at(1)
                    && let Some((k, c)) = usi_letter(w)
                    && let Some(p) = k.promoted()
                {
                    self.at += 2;
                    return Ok(Some((What::Kind(p), Some(c))));
                }
                Ok(None)
            }
            Some(Tok::Word(w)) => match usi_letter(&w) {
                Some((k, c)) => {
                    self.at += 1;
                    Ok(Some((What::Kind(k), Some(c))))
                }
                None => Ok(None),
            },
            _ => Ok(None),
        }
    }

    /// A piece (or empty squares) of `side` on a place, in either order: `▲９九玉`,
    /// `black king on 9i`, `K@9i`, `▲飛 ２筋`.
    pub(super) fn piece_cond(&mut self, side: Option<Color>) -> Result<PieceCond, ParseError> {
        let start = self.at;
        let place_first = self.place()?;
        let what_at = self.at;
        let Some((what, letter_side)) = self.what()? else {
            return Err(self.expected(if place_first.is_some() {
                "a piece (歩 香 桂 銀 金 角 飛 玉 と 馬 龍 駒 空, or pawn, king …)"
            } else if side.is_some() {
                "a piece (歩 … 龍, pawn … dragon), a castle or strategy name, 番 or \"to move\" after the side"
            } else {
                "a condition: a piece (▲７六歩, black pawn on 7f), a hand, ply, 手番, last, a castle or strategy name"
            }));
        };
        let side = match (side, letter_side) {
            (Some(_), Some(_)) => {
                return Err(self.error_at(
                    what_at,
                    "a USI letter gives its side by its case (K black, k white): leave out the side word, or write the piece as 玉 or king".to_string(),
                ));
            }
            (s, None) => s,
            (None, l) => l,
        };
        if what == What::Empty && side.is_some() {
            return Err(self.error_at(start, "an empty square has no side".to_string()));
        }
        let place = match place_first {
            Some(p) => p,
            None => {
                let on = self.eat_word("on") || self.eat_word("at") || self.eat_sym("@");
                let in_hand = self.is_word("in") && self.is_word_at(1, "hand");
                let inside = !in_hand && self.eat_word("in");
                match self.place()? {
                    Some(p) => p,
                    None if on || inside => {
                        return Err(self.expected("a square (９九, 99, 9i), {squares} or an area"));
                    }
                    None => Place::Board,
                }
            }
        };
        Ok(PieceCond { side, what, place })
    }

    /// A square, a set of squares or an area, if one is next.
    pub(super) fn place(&mut self) -> Result<Option<Place>, ParseError> {
        if self.is_sym("{") {
            let open = self.at;
            self.at += 1;
            let mut squares = Vec::new();
            loop {
                if self.eat_sym("}") {
                    break;
                }
                if !squares.is_empty() {
                    self.eat_sym(",");
                }
                match self.square()? {
                    Some(s) => {
                        if !squares.contains(&s) {
                            squares.push(s);
                        }
                    }
                    None => {
                        let col = self.tokens[open].start + 1;
                        return Err(self.expected(&format!(
                            "a square or \"}}\" to close the \"{{\" of column {col}"
                        )));
                    }
                }
            }
            if squares.is_empty() {
                return Err(self.error_at(open, "the set of squares is empty".to_string()));
            }
            return Ok(Some(Place::Squares(squares)));
        }
        if let Some(s) = self.square()? {
            return Ok(Some(Place::Squares(vec![s])));
        }
        self.region()
    }

    /// A single square, if one is next: `９九` (a digit and a kanji numeral), `99`, `9i`.
    pub(super) fn square(&mut self) -> Result<Option<Square>, ParseError> {
        let Some(Tok::Word(w)) = self.peek().cloned() else {
            return Ok(None);
        };
        if w.len() == 1
            && let Some(d) = w.chars().next().and_then(|c| c.to_digit(10))
            && let Some(Tok::Ja(Ja::Numeral(n))) = self.peek_at(1)
        {
            let n = *n;
            let sq = Square::new(d as u8, n).ok_or_else(|| {
                self.error(format!(
                    "\"{w}\" is no file: files run 1 to 9 (９九, 99, 9i)"
                ))
            })?;
            self.at += 2;
            return Ok(Some(sq));
        }
        // A number then 筋 or 段 is a file or rank, not a square.
        if matches!(self.peek_at(1), Some(Tok::Ja(Ja::File | Ja::Rank))) {
            return Ok(None);
        }
        match square_word(&w) {
            Ok(Some(s)) => {
                self.at += 1;
                Ok(Some(s))
            }
            Ok(None) => Ok(None),
            Err(m) => Err(self.error(m)),
        }
    }

    /// A file, a rank or a named area, if one is next.
    pub(super) fn region(&mut self) -> Result<Option<Place>, ParseError> {
        // `2筋`, `二筋`, `3段目`, `三段`.
        let digit = match self.peek() {
            Some(Tok::Word(w)) if w.bytes().all(|b| b.is_ascii_digit()) => w.parse::<u8>().ok(),
            Some(Tok::Ja(Ja::Numeral(n))) => Some(*n),
            _ => None,
        };
        if let Some(n) = digit
            && let Some(Tok::Ja(j @ (Ja::File | Ja::Rank))) = self.peek_at(1)
        {
            let file = *j == Ja::File;
            if !(1..=9).contains(&n) {
                return Err(self.error(format!(
                    "there is no {} {n}: they run 1 to 9",
                    if file { "file" } else { "rank" }
                )));
            }
            self.at += 2;
            return Ok(Some(if file { Place::File(n) } else { Place::Rank(n) }));
        }
        if let Some(Tok::Ja(Ja::Area(a))) = self.peek() {
            let a = *a;
            self.at += 1;
            return Ok(Some(Place::Area(a)));
        }
        if self.is_word("file") || self.is_word("rank") {
            let file = self.is_word("file");
            self.at += 1;
            let n = match self.peek() {
                Some(Tok::Word(w)) if w.len() == 1 => {
                    let c = w.as_bytes()[0];
                    match c {
                        b'1'..=b'9' => Some(c - b'0'),
                        b'a'..=b'i' if !file => Some(c - b'a' + 1),
                        _ => None,
                    }
                }
                _ => None,
            };
            return match n {
                Some(n) => {
                    self.at += 1;
                    Ok(Some(if file { Place::File(n) } else { Place::Rank(n) }))
                }
                None => Err(self.expected(if file {
                    "a file, 1 to 9"
                } else {
                    "a rank, 1 to 9 or a to i"
                })),
            };
        }
        let two = |p: &Parser, a: &str, b: &str| p.is_word(a) && p.is_word_at(1, b);
        let area = if two(self, "enemy", "camp") || two(self, "promotion", "zone") {
            Some(Area::EnemyCamp)
        } else if two(self, "own", "camp") {
            Some(Area::OwnCamp)
        } else if two(self, "left", "side") {
            Some(Area::LeftSide)
        } else if two(self, "right", "side") {
            Some(Area::RightSide)
        } else {
            None
        };
        if let Some(a) = area {
            self.at += 2;
            return Ok(Some(Place::Area(a)));
        }
        for (word, a) in [
            ("middle", Area::Middle),
            ("centre", Area::Centre),
            ("center", Area::Centre),
            ("edge", Area::Edge),
        ] {
            if self.eat_word(word) {
                return Ok(Some(Place::Area(a)));
            }
        }
        for (word, next) in [
            ("enemy", "camp"),
            ("own", "camp"),
            ("left", "side"),
            ("right", "side"),
        ] {
            if self.is_word(word) {
                self.at += 1;
                return Err(self.expected(&format!("\"{next}\" (\"{word} {next}\")")));
            }
        }
        Ok(None)
    }
}
