//! The last move's properties: its side, piece, squares, 打 成 不成 取 王手, or the move in
//! USI.

use super::pieces::{english_piece, square_word};
use super::{ParseError, Parser};
use crate::find::ast::{LastMove, Place, What};
use crate::find::words::{Ja, Tok};
use kifudex_shogi::Move;

impl Parser {
    /// The properties of the last move, at least one: its side, piece, squares, 打 成 不成 取
    /// 王手, or the move in USI.
    pub(super) fn last(&mut self) -> Result<LastMove, ParseError> {
        let mut m = LastMove::default();
        let mut any = false;
        loop {
            let at = self.at;
            let dup = |p: &Parser, what: &str| {
                p.error_at(at, format!("the last move's {what} is given twice"))
            };
            if let Some(c) = self.maybe_side()? {
                if m.side.replace(c).is_some() {
                    return Err(dup(self, "side"));
                }
            } else if let Some(mv) = self.usi_move()? {
                if m.usi.replace(mv).is_some() {
                    return Err(dup(self, "USI move"));
                }
            } else if self.eat_ja(Ja::Drop)
                || self.eat_word("drop")
                || self.eat_word("drops")
                || self.eat_word("dropped")
            {
                m.drop = true;
            } else if self.eat_ja(Ja::NoPromotion) {
                m.no_promotion = true;
            } else if self.is_word("no") && self.is_word_at(1, "promotion") {
                self.at += 2;
                m.no_promotion = true;
            } else if self.eat_ja(Ja::Promotion)
                || self.eat_word("promotion")
                || self.eat_word("promotes")
                || (self.is_word("promoted")
                    && !self.promoted_piece_next()
                    && self.eat_word("promoted"))
            {
                m.promotion = true;
            } else if self.eat_ja(Ja::Capture)
                || self.eat_word("capture")
                || self.eat_word("captures")
                || self.eat_word("takes")
                || self.eat_word("x")
            {
                let what_at = self.at;
                let taken = match self.what()? {
                    Some((What::Kind(k), None)) => Some(k),
                    Some(_) => {
                        return Err(self.error_at(
                            what_at,
                            "name the piece taken by its kind (角, bishop)".to_string(),
                        ));
                    }
                    None => None,
                };
                if m.capture.replace(taken).is_some() {
                    return Err(dup(self, "capture"));
                }
            } else if self.eat_ja(Ja::Check) || self.eat_word("check") {
                m.check = true;
            } else if self.eat_word("from") {
                let Some(p) = self.place()? else {
                    return Err(self.expected("the square the piece came from"));
                };
                if m.from.replace(p).is_some() {
                    return Err(dup(self, "origin"));
                }
            } else if self.is_sym("(")
                && matches!(self.peek_at(1), Some(Tok::Word(w)) if square_word(w).ok().flatten().is_some())
                && matches!(self.peek_at(2), Some(Tok::Sym(")")))
            {
                // KIF's origin: `(77)`.
                self.at += 1;
                let s = self.square()?.expect("a square checked above");
                self.at += 1;
                if m.from.replace(Place::Squares(vec![s])).is_some() {
                    return Err(dup(self, "origin"));
                }
            } else if self.eat_word("to") {
                let Some(p) = self.place()? else {
                    return Err(self.expected("the square the piece went to"));
                };
                if m.to.replace(p).is_some() {
                    return Err(dup(self, "destination"));
                }
            } else if let Some(p) = self.place()? {
                if self.eat_ja(Ja::From) {
                    if m.from.replace(p).is_some() {
                        return Err(dup(self, "origin"));
                    }
                } else if m.to.replace(p).is_some() {
                    return Err(dup(self, "destination"));
                }
            } else if let Some((what, letter)) = self.what()? {
                let What::Kind(k) = what else {
                    return Err(self.error_at(
                        at,
                        "name the piece moved by its kind (歩, pawn …)".to_string(),
                    ));
                };
                if letter.is_some() {
                    return Err(self.error_at(
                        at,
                        "a USI letter gives its side by its case: write the piece moved as 歩 or pawn".to_string(),
                    ));
                }
                if m.piece.replace(k).is_some() {
                    return Err(dup(self, "piece"));
                }
            } else {
                break;
            }
            any = true;
        }
        if !any {
            return Err(self.expected(
                "what the last move was: a side, a piece, a square, 打 成 不成 取 王手 (drop, promotion, capture, check) or a USI move",
            ));
        }
        if m.drop && (m.from.is_some() || m.promotion || m.no_promotion || m.capture.is_some()) {
            return Err(self.error_at(
                self.at.saturating_sub(1),
                "a drop comes from no square, takes nothing and never promotes".to_string(),
            ));
        }
        if m.promotion && m.no_promotion {
            return Err(self.error_at(
                self.at.saturating_sub(1),
                "a move cannot both promote and not promote".to_string(),
            ));
        }
        Ok(m)
    }

    /// Whether `promoted` is followed by a piece that promotes (`promoted silver`).
    pub(super) fn promoted_piece_next(&self) -> bool {
        matches!(self.peek_at(1), Some(Tok::Word(w)) if matches!(english_piece(w), Some(What::Kind(k)) if k.can_promote()))
    }

    /// A USI move, if one is next: `7g7f`, `8h2b+`, `P*5c`.
    pub(super) fn usi_move(&mut self) -> Result<Option<Move>, ParseError> {
        let text = match (self.peek(), self.peek_at(1), self.peek_at(2)) {
            (Some(Tok::Word(a)), Some(Tok::Sym("*")), Some(Tok::Word(b))) if a.len() == 1 => {
                format!("{a}*{b}")
            }
            (Some(Tok::Word(a)), _, _)
                if a.len() == 4
                    && a.as_bytes()[0].is_ascii_digit()
                    && a.as_bytes()[1].is_ascii_lowercase() =>
            {
                let plus = matches!(self.peek_at(1), Some(Tok::Sym("+")));
                format!("{a}{}", if plus { "+" } else { "" })
            }
            _ => return Ok(None),
        };
        let n = if text.contains('*') {
            3
        } else if text.ends_with('+') {
            2
        } else {
            1
        };
        match Move::from_usi(&text) {
            Ok(mv) => {
                self.at += n;
                Ok(Some(mv))
            }
            Err(e) => Err(self.error(e.to_string())),
        }
    }
}
