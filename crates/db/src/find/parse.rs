//! The parser: tokens (see [`super::words`]) into a [`Query`], by recursive descent over the
//! grammar of `docs/find.md`. An error names the column of the word at fault, what was
//! expected there, and the known word nearest to a misspelt one.

use kifudex_classify as classify;
use kifudex_shogi::Color;

mod last;
mod numbers;
mod pieces;

use super::ast::{Cond, LastMove, Query};
use super::words::{self, Ja, SIDES, Tok, Token};
use pieces::english_piece;

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
        if matches!(
            p.peek(),
            Some(Tok::Ja(
                Ja::Drop | Ja::Promotion | Ja::NoPromotion | Ja::Capture
            ))
        ) {
            let word = p.shown(&p.tokens[p.at]);
            return Err(p.error(format!(
                "{word} tells what a move did: put 直前 or last before the move (直前 ▲５五角打)"
            )));
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
}
