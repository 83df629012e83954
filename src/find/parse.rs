//! The parser: tokens (see [`super::words`]) into a [`Query`], by recursive descent over the
//! grammar of `docs/find.md`. An error names the column of the word at fault, what was
//! expected there, and the known word nearest to a misspelt one.

use crate::classify;
use crate::shogi::{Color, Move, PieceKind, Square};

use super::ast::{Area, Cmp, Cond, Expr, LastMove, PieceCond, Place, Query, Term, What};
use super::words::{self, ENGLISH_PIECES, Ja, SIDES, Tok, Token};

/// Why a query cannot be read: where (a column, counted in characters from 1, and how many
/// characters), and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}{}", .suggestion.as_ref().map(|s| format!("; did you mean \"{s}\"?")).unwrap_or_default())]
pub struct ParseError {
    pub column: usize,
    /// Characters of the query the error points at (at least 1).
    pub width: usize,
    pub message: String,
    /// The known word nearest to the one at fault.
    pub suggestion: Option<String>,
}

impl ParseError {
    /// The query and a line of carets under the part at fault, each line indented by two
    /// spaces (wide characters take two columns on a terminal).
    pub fn pointer(&self, query: &str) -> String {
        use unicode_width::UnicodeWidthChar;
        let shown: String = query
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let width = |c: char| c.width().unwrap_or(0);
        let before: usize = shown.chars().take(self.column - 1).map(width).sum();
        let under: usize = shown
            .chars()
            .skip(self.column - 1)
            .take(self.width)
            .map(width)
            .sum();
        format!(
            "  {}\n  {}{}\n",
            shown.trim_end(),
            " ".repeat(before),
            "^".repeat(under.max(1))
        )
    }
}

/// Reads a query.
pub fn parse(text: &str) -> Result<Query, ParseError> {
    let chars = words::normalise(text);
    let tokens = words::tokens(&chars);
    let mut p = Parser {
        text: text.chars().collect(),
        tokens,
        at: 0,
        end: chars.len(),
        depth: 0,
    };
    if p.tokens.is_empty() {
        return Err(ParseError {
            column: 1,
            width: 1,
            message: "the query is empty: give a condition such as ▲７六歩 or `black king on 9i`"
                .to_string(),
            suggestion: None,
        });
    }
    let q = p.or()?;
    if p.at < p.tokens.len() {
        if p.is_sym(")") {
            return Err(p.error("found \")\" with no \"(\" before it"));
        }
        let mut e = p.expected("\"and\", \"or\" or the end of the query");
        if e.suggestion.is_none() {
            e.message
                .push_str(": join two conditions with \"and\" or \"or\"");
        }
        return Err(e);
    }
    Ok(q)
}

/// Parentheses and `not`s nested deeper than this are refused (the parser recurses).
const MAX_DEPTH: usize = 64;

struct Parser {
    /// The query as typed, character by character.
    text: Vec<char>,
    tokens: Vec<Token>,
    at: usize,
    /// The query's length in characters (where "the end" is).
    end: usize,
    depth: usize,
}

/// An English side word.
fn english_side(w: &str) -> Option<Color> {
    let w = w.to_ascii_lowercase();
    SIDES.iter().find(|(s, _)| *s == w).map(|(_, c)| *c)
}

/// An English piece word, singular or plural.
fn english_piece(w: &str) -> Option<What> {
    let w = w.to_ascii_lowercase();
    let single = w.strip_suffix('s').unwrap_or(&w);
    ENGLISH_PIECES
        .iter()
        .find(|(p, _)| *p == w || *p == single)
        .map(|(_, k)| *k)
}

/// A USI piece letter: the kind and the side its case gives.
fn usi_letter(w: &str) -> Option<(PieceKind, Color)> {
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
fn square_word(w: &str) -> Result<Option<Square>, String> {
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
    /// The text typed from character `a` to `b`, quoted.
    fn text_of(&self, a: usize, b: usize) -> String {
        let t: String = self.text[a.min(self.text.len())..b.min(self.text.len())]
            .iter()
            .collect();
        format!("\"{t}\"")
    }

    /// A token as typed, quoted.
    fn shown(&self, t: &Token) -> String {
        self.text_of(t.start, t.end)
    }

    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.tokens.get(self.at + n).map(|t| &t.tok)
    }

    /// Whether the next token is this English word (any case).
    fn is_word(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(w)) if w.eq_ignore_ascii_case(word))
    }

    fn is_word_at(&self, n: usize, word: &str) -> bool {
        matches!(self.peek_at(n), Some(Tok::Word(w)) if w.eq_ignore_ascii_case(word))
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Sym(x)) if *x == s)
    }

    fn is_ja(&self, ja: Ja) -> bool {
        matches!(self.peek(), Some(Tok::Ja(j)) if *j == ja)
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let yes = self.is_word(word);
        self.at += usize::from(yes);
        yes
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        let yes = self.is_sym(s);
        self.at += usize::from(yes);
        yes
    }

    fn eat_ja(&mut self, ja: Ja) -> bool {
        let yes = self.is_ja(ja);
        self.at += usize::from(yes);
        yes
    }

    /// Skips particles (の, は).
    fn skip_particles(&mut self) {
        while self.eat_ja(Ja::Particle) {}
    }

    /// An error at the token `at` (or at the end of the query).
    fn error_at(&self, at: usize, message: String) -> ParseError {
        match self.tokens.get(at) {
            Some(t) => ParseError {
                column: t.start + 1,
                width: (t.end - t.start).max(1),
                message,
                suggestion: None,
            },
            None => ParseError {
                column: self.end + 1,
                width: 1,
                message,
                suggestion: None,
            },
        }
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        self.error_at(self.at, message.into())
    }

    /// "expected X, found Y", with a suggestion for a word the language does not know.
    fn expected(&self, what: &str) -> ParseError {
        let Some(t) = self.tokens.get(self.at) else {
            return self.error(format!("expected {what}, found the end of the query"));
        };
        let mut e = self.error(format!("expected {what}, found {}", self.shown(t)));
        if let Tok::Word(w) | Tok::Unknown(w) = &t.tok {
            e.suggestion = words::suggest(w);
        }
        e
    }

    fn or(&mut self) -> Result<Query, ParseError> {
        let mut parts = vec![self.and()?];
        while self.eat_word("or") || self.eat_sym("|") || self.eat_ja(Ja::Or) {
            parts.push(self.and()?);
        }
        Ok(if parts.len() == 1 {
            parts.pop().expect("one part")
        } else {
            Query::Or(parts)
        })
    }

    fn and(&mut self) -> Result<Query, ParseError> {
        let mut parts = vec![self.unary()?];
        while self.eat_word("and") || self.eat_sym("&") || self.eat_ja(Ja::And) {
            parts.push(self.unary()?);
        }
        Ok(if parts.len() == 1 {
            parts.pop().expect("one part")
        } else {
            Query::And(parts)
        })
    }

    fn unary(&mut self) -> Result<Query, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(format!(
                "the query nests deeper than {MAX_DEPTH} levels of parentheses and \"not\""
            )));
        }
        self.depth += 1;
        let q = self.unary_inner();
        self.depth -= 1;
        q
    }

    fn unary_inner(&mut self) -> Result<Query, ParseError> {
        if self.eat_word("not") || self.eat_sym("!") {
            return Ok(Query::Not(Box::new(self.unary()?)));
        }
        if self.is_sym("(") {
            let open = self.at;
            self.at += 1;
            let q = self.or()?;
            if !self.eat_sym(")") {
                let col = self.tokens[open].start + 1;
                return Err(self.expected(&format!("\")\" to close the \"(\" of column {col}")));
            }
            return Ok(q);
        }
        Ok(Query::Cond(self.condition()?))
    }

    /// One condition.
    fn condition(&mut self) -> Result<Cond, ParseError> {
        let start = self.at;
        match self.peek() {
            None => return Err(self.expected("a condition")),
            Some(Tok::Ja(Ja::Turn)) => {
                self.at += 1;
                self.skip_particles();
                return Ok(Cond::Turn(self.side("the side to move (▲ or △)")?));
            }
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("turn") => {
                self.at += 1;
                return Ok(Cond::Turn(self.side("the side to move (black or white)")?));
            }
            Some(Tok::Ja(Ja::Last)) => {
                self.at += 1;
                return self.last().map(Cond::Last);
            }
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("last") => {
                self.at += 1;
                self.eat_word("move");
                return self.last().map(Cond::Last);
            }
            Some(Tok::Ja(Ja::Hand)) => {
                let term = self.term()?;
                return self.hand_comparison(term, start);
            }
            // 王手 alone: the move that led here gave check.
            Some(Tok::Ja(Ja::Check)) => {
                self.at += 1;
                return Ok(Cond::Last(LastMove {
                    check: true,
                    ..LastMove::default()
                }));
            }
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("check") => {
                self.at += 1;
                return Ok(Cond::Last(LastMove {
                    check: true,
                    ..LastMove::default()
                }));
            }
            _ => {}
        }
        if self.starts_number() {
            let left = self.expr()?;
            return self.comparison(left, start);
        }
        // A side, then what it has.
        let side = self.maybe_side()?;
        self.skip_particles();
        if let Some(Tok::Label(l)) = self.peek() {
            return Err(self.error(format!(
                "\"{l}\" names a whole game's opening, not one side's strategy or castle: select such games with --opening {l}"
            )));
        }
        if let Some(c) = side {
            if self.eat_ja(Ja::TurnSuffix) || self.eat_ja(Ja::Turn) {
                return Ok(Cond::Turn(c));
            }
            if self.is_word("to") && self.is_word_at(1, "move") {
                self.at += 2;
                return Ok(Cond::Turn(c));
            }
        }
        let name = match self.peek() {
            Some(Tok::Name(name)) => Some(*name),
            // Romanised names: MINO, ANAGUMA, YAGURA …
            Some(Tok::Word(w)) if w.len() > 1 && english_piece(w).is_none() => {
                classify::canonical(w).filter(|n| classify::names::kind_of(n).is_some())
            }
            _ => None,
        };
        if let Some(name) = name {
            self.at += 1;
            let kind = classify::names::kind_of(name).expect("a side's name has a kind");
            return Ok(Cond::Name { side, name, kind });
        }
        if let Some(c) = side
            && self.is_ja(Ja::Hand)
        {
            self.at += 1;
            let term = self.hand_piece(c)?;
            return self.hand_comparison(term, start);
        }
        let piece = self.piece_cond(side)?;
        if matches!(
            self.peek(),
            Some(Tok::Sym("=" | "!=" | "<" | "<=" | ">" | ">="))
        ) {
            return Err(self.error(
                "a piece on the board is no number: compare a hand (▲歩 in hand > 3) or a count (count(▲歩) > 3)",
            ));
        }
        if self.is_word("in") && self.is_word_at(1, "hand") {
            let at = self.at;
            self.at += 2;
            let term = self.hand_term_of(piece, start, at)?;
            return self.hand_comparison(term, start);
        }
        Ok(Cond::Piece(piece))
    }

    /// A hand's count compared, or alone (at least one).
    fn hand_comparison(&mut self, term: Term, start: usize) -> Result<Cond, ParseError> {
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
    fn hand_term_of(&self, p: PieceCond, start: usize, at: usize) -> Result<Term, ParseError> {
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

    fn hand_kind(&self, k: PieceKind, at: usize) -> Result<PieceKind, ParseError> {
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
    fn hand_piece(&mut self, side: Color) -> Result<Term, ParseError> {
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
    fn starts_number(&self) -> bool {
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

    fn starts_comparison(&self) -> bool {
        matches!(
            self.peek(),
            Some(Tok::Sym("=" | "!=" | "<" | "<=" | ">" | ">="))
        ) || self.is_range_next()
            || self.is_postfix_next()
    }

    /// A number then `..`/`~`: a range.
    fn is_range_next(&self) -> bool {
        matches!(self.peek(), Some(Tok::Word(w)) if w.bytes().all(|b| b.is_ascii_digit()))
            && matches!(self.peek_at(1), Some(Tok::Sym(".." | "~")))
    }

    /// A number then 以上/以下/未満 (枚 between them allowed).
    fn is_postfix_next(&self) -> bool {
        let n = usize::from(matches!(self.peek_at(1), Some(Tok::Ja(Ja::Counter))));
        matches!(self.peek(), Some(Tok::Word(w)) if w.bytes().all(|b| b.is_ascii_digit()))
            && matches!(
                self.peek_at(1 + n),
                Some(Tok::Ja(Ja::AtLeast | Ja::AtMost | Ja::Below))
            )
    }

    /// A comparison after its left side: an operator and a number, a range, or a number with
    /// 以上/以下/未満.
    fn comparison(&mut self, left: Expr, start: usize) -> Result<Cond, ParseError> {
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
    fn expr(&mut self) -> Result<Expr, ParseError> {
        let negative = self.eat_sym("-");
        let first = self.term()?;
        let mut e = Expr {
            terms: vec![(!negative, first)],
        };
        self.more_terms(&mut e)?;
        Ok(e)
    }

    fn more_terms(&mut self, e: &mut Expr) -> Result<(), ParseError> {
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

    fn number(&mut self) -> Result<i64, ParseError> {
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
    fn term(&mut self) -> Result<Term, ParseError> {
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
    fn count(&mut self) -> Result<Term, ParseError> {
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
    fn side_argument(&mut self) -> Result<Color, ParseError> {
        let paren = self.eat_sym("(");
        let side = self.side("a side (▲ or △, black or white)")?;
        if paren && !self.eat_sym(")") {
            return Err(self.expected("\")\""));
        }
        Ok(side)
    }

    /// A side mark or word, if one is next.
    fn maybe_side(&mut self) -> Result<Option<Color>, ParseError> {
        match self.peek() {
            Some(Tok::Side(c)) => {
                let c = *c;
                self.at += 1;
                Ok(Some(c))
            }
            Some(Tok::Word(w)) if english_side(w).is_some() => {
                let c = english_side(w);
                self.at += 1;
                Ok(c)
            }
            _ => Ok(None),
        }
    }

    fn side(&mut self, what: &str) -> Result<Color, ParseError> {
        match self.maybe_side()? {
            Some(c) => Ok(c),
            None => Err(self.expected(what)),
        }
    }

    /// A piece word (Japanese, English, or a USI letter with its side), if one is next;
    /// the side is given for a USI letter.
    fn what(&mut self) -> Result<Option<(What, Option<Color>)>, ParseError> {
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
    fn piece_cond(&mut self, side: Option<Color>) -> Result<PieceCond, ParseError> {
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
    fn place(&mut self) -> Result<Option<Place>, ParseError> {
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
    fn square(&mut self) -> Result<Option<Square>, ParseError> {
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
    fn region(&mut self) -> Result<Option<Place>, ParseError> {
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

    /// The properties of the last move, at least one: its side, piece, squares, 打 成 不成 取
    /// 王手, or the move in USI.
    fn last(&mut self) -> Result<LastMove, ParseError> {
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
    fn promoted_piece_next(&self) -> bool {
        matches!(self.peek_at(1), Some(Tok::Word(w)) if matches!(english_piece(w), Some(What::Kind(k)) if k.can_promote()))
    }

    /// A USI move, if one is next: `7g7f`, `8h2b+`, `P*5c`.
    fn usi_move(&mut self) -> Result<Option<Move>, ParseError> {
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
