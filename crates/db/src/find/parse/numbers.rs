//! Numbers and comparisons: hands, counts, material, the ply, `+` and `-`, and the
//! operators, ranges and 以上/以下/未満 that compare them.

use super::english_side;
use super::pieces::square_word;
use super::{ParseError, Parser};
use crate::find::ast::{Cmp, Cond, Expr, PieceCond, Place, Term, What};
use crate::find::words::{Ja, Tok};
use kifudex_shogi::{Color, PieceKind};

impl Parser {
    /// A hand's count compared, or alone (at least one).
    pub(super) fn hand_comparison(&mut self, term: Term, start: usize) -> Result<Cond, ParseError> {
        if self.starts_comparison() || self.is_sym("+") || self.is_sym("-") {
            let mut left = Expr::single(term);
            self.more_terms(&mut left)?;
            return self.comparison(left, start);
        }
        Ok(Cond::Compare {
            left: Expr::single(term),
            op: Cmp::Ge,
            right: Expr::single(Term::Number(1)),
        })
    }

    /// A piece condition read before `in hand`, as the hand's count.
    pub(super) fn hand_term_of(
        &self,
        p: PieceCond,
        start: usize,
        at: usize,
    ) -> Result<Term, ParseError> {
        let Some(side) = p.side else {
            return Err(self.error_at(
                start,
                "a hand belongs to a side: write ▲ or △ (black or white) before the piece"
                    .to_string(),
            ));
        };
        if p.place != Place::Board {
            return Err(self.error_at(at, "a piece in hand stands on no square".to_string()));
        }
        match p.what {
            What::Kind(k) => self.hand_kind(k, start).map(|k| Term::Hand(side, k)),
            _ => Err(self.error_at(
                start,
                "give the kind held in hand (歩 香 桂 銀 金 角 飛)".to_string(),
            )),
        }
    }

    pub(super) fn hand_kind(&self, k: PieceKind, at: usize) -> Result<PieceKind, ParseError> {
        if k == PieceKind::King {
            return Err(self.error_at(at, "a hand never holds a king".to_string()));
        }
        if k.is_promoted() {
            return Err(self.error_at(
                at,
                format!(
                    "a hand holds pieces unpromoted: write the {} itself",
                    k.unpromoted().name()
                ),
            ));
        }
        Ok(k)
    }

    /// After 持駒 and a side: the piece.
    pub(super) fn hand_piece(&mut self, side: Color) -> Result<Term, ParseError> {
        self.skip_particles();
        let at = self.at;
        match self.what()? {
            Some((What::Kind(k), None)) => Ok(Term::Hand(side, self.hand_kind(k, at)?)),
            Some((_, Some(_))) => Err(self.error_at(
                at,
                "a USI letter gives its side by its case: write the piece as 歩 or pawn here"
                    .to_string(),
            )),
            _ => {
                self.at = at;
                Err(self.expected("the kind held in hand (歩 香 桂 銀 金 角 飛)"))
            }
        }
    }

    /// Whether the next token begins a number: a number, `ply`, a hand, a count, material.
    pub(super) fn starts_number(&self) -> bool {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let place_next = matches!(
                    self.peek_at(1),
                    Some(Tok::Ja(Ja::Numeral(_) | Ja::File | Ja::Rank))
                );
                w.bytes().all(|b| b.is_ascii_digit())
                    && square_word(w).ok().flatten().is_none()
                    && !place_next
                    || ["ply", "count", "material", "advantage"]
                        .iter()
                        .any(|k| w.eq_ignore_ascii_case(k))
            }
            Some(Tok::Ja(Ja::Ply | Ja::Count | Ja::Material | Ja::Advantage | Ja::Hand)) => true,
            _ => false,
        }
    }

    pub(super) fn starts_comparison(&self) -> bool {
        matches!(
            self.peek(),
            Some(Tok::Sym("=" | "!=" | "<" | "<=" | ">" | ">="))
        ) || self.is_range_next()
            || self.is_postfix_next()
    }

    /// A number then `..`/`~`: a range.
    pub(super) fn is_range_next(&self) -> bool {
        matches!(self.peek(), Some(Tok::Word(w)) if w.bytes().all(|b| b.is_ascii_digit()))
            && matches!(self.peek_at(1), Some(Tok::Sym(".." | "~")))
    }

    /// A number then 以上/以下/未満 (枚 between them allowed).
    pub(super) fn is_postfix_next(&self) -> bool {
        let n = usize::from(matches!(self.peek_at(1), Some(Tok::Ja(Ja::Counter))));
        matches!(self.peek(), Some(Tok::Word(w)) if w.bytes().all(|b| b.is_ascii_digit()))
            && matches!(
                self.peek_at(1 + n),
                Some(Tok::Ja(Ja::AtLeast | Ja::AtMost | Ja::Below))
            )
    }

    /// A comparison after its left side: an operator and a number, a range, or a number with
    /// 以上/以下/未満.
    pub(super) fn comparison(&mut self, left: Expr, start: usize) -> Result<Cond, ParseError> {
        if self.is_range_next() {
            let low = self.number()?;
            self.at += 1;
            let high_at = self.at;
            let high = self.number()?;
            self.eat_ja(Ja::Counter);
            if low > high {
                return Err(self.error_at(
                    high_at,
                    format!("the range {low}..{high} is empty: write the smaller number first"),
                ));
            }
            return Ok(Cond::Between {
                expr: left,
                low,
                high,
            });
        }
        if self.is_postfix_next() {
            let n = self.number()?;
            self.eat_ja(Ja::Counter);
            let op = match self.peek() {
                Some(Tok::Ja(Ja::AtLeast)) => Cmp::Ge,
                Some(Tok::Ja(Ja::AtMost)) => Cmp::Le,
                _ => Cmp::Lt,
            };
            self.at += 1;
            return Ok(Cond::Compare {
                left,
                op,
                right: Expr::single(Term::Number(n)),
            });
        }
        let op = match self.peek() {
            Some(Tok::Sym("=")) => Cmp::Eq,
            Some(Tok::Sym("!=")) => Cmp::Ne,
            Some(Tok::Sym("<")) => Cmp::Lt,
            Some(Tok::Sym("<=")) => Cmp::Le,
            Some(Tok::Sym(">")) => Cmp::Gt,
            Some(Tok::Sym(">=")) => Cmp::Ge,
            _ => {
                let what = match (self.tokens.get(start), self.tokens.get(self.at.max(1) - 1)) {
                    (Some(a), Some(b)) => self.text_of(a.start, b.end),
                    _ => String::new(),
                };
                return Err(self.expected(&format!(
                    "a comparison (= != < <= > >=) or a range (30..60) after {what}"
                )));
            }
        };
        self.at += 1;
        let right = self.expr()?;
        Ok(Cond::Compare { left, op, right })
    }

    /// Terms joined by `+` and `-`.
    pub(super) fn expr(&mut self) -> Result<Expr, ParseError> {
        let negative = self.eat_sym("-");
        let first = self.term()?;
        let mut e = Expr {
            terms: vec![(!negative, first)],
        };
        self.more_terms(&mut e)?;
        Ok(e)
    }

    pub(super) fn more_terms(&mut self, e: &mut Expr) -> Result<(), ParseError> {
        loop {
            let add = if self.eat_sym("+") {
                true
            } else if self.eat_sym("-") {
                false
            } else {
                return Ok(());
            };
            e.terms.push((add, self.term()?));
            if e.terms.len() > 64 {
                return Err(self.error("at most 64 terms may be added up"));
            }
        }
    }

    pub(super) fn number(&mut self) -> Result<i64, ParseError> {
        match self.peek() {
            Some(Tok::Word(w)) if w.bytes().all(|b| b.is_ascii_digit()) => {
                let n = w
                    .parse::<i64>()
                    .ok()
                    .filter(|n| *n <= 1_000_000)
                    .ok_or_else(|| {
                        self.error(format!("{w} is too large a number (at most 1000000)"))
                    })?;
                self.at += 1;
                Ok(n)
            }
            _ => Err(self.expected("a number")),
        }
    }

    /// One number: a literal, `ply`, a hand, a count, a side's material or advantage.
    pub(super) fn term(&mut self) -> Result<Term, ParseError> {
        let start = self.at;
        match self.peek() {
            Some(Tok::Word(w)) if w.bytes().all(|b| b.is_ascii_digit()) => {
                let n = self.number()?;
                self.eat_ja(Ja::Counter);
                Ok(Term::Number(n))
            }
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("ply") => {
                self.at += 1;
                Ok(Term::Ply)
            }
            Some(Tok::Ja(Ja::Ply)) => {
                self.at += 1;
                Ok(Term::Ply)
            }
            Some(Tok::Ja(Ja::Hand)) => {
                self.at += 1;
                self.skip_particles();
                let side = self.side("the side whose hand it is (▲ or △)")?;
                self.hand_piece(side)
            }
            Some(Tok::Ja(Ja::Count)) => {
                self.at += 1;
                self.count()
            }
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("count") => {
                self.at += 1;
                self.count()
            }
            Some(Tok::Ja(Ja::Material)) => {
                self.at += 1;
                Ok(Term::Material(self.side_argument()?))
            }
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("material") => {
                self.at += 1;
                Ok(Term::Material(self.side_argument()?))
            }
            Some(Tok::Ja(Ja::Advantage)) => {
                self.at += 1;
                Ok(Term::Advantage(self.side_argument()?))
            }
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("advantage") => {
                self.at += 1;
                Ok(Term::Advantage(self.side_argument()?))
            }
            _ => {
                // A hand: `▲歩 in hand`.
                if matches!(self.peek(), Some(Tok::Side(_)))
                    || matches!(self.peek(), Some(Tok::Word(w)) if english_side(w).is_some())
                {
                    let side = self.maybe_side()?;
                    self.skip_particles();
                    if let Some(c) = side
                        && self.eat_ja(Ja::Hand)
                    {
                        return self.hand_piece(c);
                    }
                    let piece = self.piece_cond(side)?;
                    let at = self.at;
                    if self.eat_word("in") && self.eat_word("hand") {
                        return self.hand_term_of(piece, start, at);
                    }
                    self.at = at;
                    return Err(self.expected("\"in hand\" (a number is wanted here)"));
                }
                Err(self.expected(
                    "a number, ply, a hand (▲歩 in hand), count(...), material(▲) or advantage(▲)",
                ))
            }
        }
    }

    /// `count(piece condition)`.
    pub(super) fn count(&mut self) -> Result<Term, ParseError> {
        if !self.eat_sym("(") {
            return Err(self.expected("\"(\" and the pieces to count, as in count(▲金 自陣)"));
        }
        let side = self.maybe_side()?;
        self.skip_particles();
        let p = self.piece_cond(side)?;
        if !self.eat_sym(")") {
            return Err(self.expected("\")\" to end the count"));
        }
        Ok(Term::Count(p))
    }

    /// A side, in parentheses or not: `material(▲)`, `material black`.
    pub(super) fn side_argument(&mut self) -> Result<Color, ParseError> {
        let paren = self.eat_sym("(");
        let side = self.side("a side (▲ or △, black or white)")?;
        if paren && !self.eat_sym(")") {
            return Err(self.expected("\")\""));
        }
        Ok(side)
    }
}
