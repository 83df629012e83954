//! Plain move lists, as books and web pages print them: moves in any notation — Japanese
//! (`▲７六歩`, `76歩`, `同　銀`), KI2 lines of several moves, Hodges (`P-7f`), Hosking
//! (`P76`), Kitao–Kawasaki (`☗歩-76`, `☖歩x`), USI (`7g7f`), CSA (`+7776FU`) — with or
//! without move numbers (`1.`, `1`, `1...`), several to a line, mixed if need be. Each move
//! is resolved on the position: exactly one legal candidate, or an error with its ply, line
//! and column, where the main line ends. An ending word (投了, Resign, %TORYO, resign) ends
//! the game. Lines starting with `#` are remarks; `# sfen <SFEN>` gives a start other than
//! the usual one and `# key：value` a header.
//!
//! Written ([`write_move_list`]) one numbered move a line in any [`Notation`], for `show
//! --notation` and `convert --to kk`.

use super::movetext::{MoveTextError, MoveTextErrorKind};
use std::fmt::Write;

use super::build::OpenLine;
use super::decode::Lines;
use super::headers::{KeyStyle, keys_for};
use super::japanese::{digit, piece_prefix, side_mark};
use super::movetext::iroha::iroha;
use super::movetext::kitao::{kitao_kawasaki, parse_kitao_kawasaki, resolve_kitao_kawasaki};
use super::movetext::{hodges, hosking, japanese, parse_japanese_move, resolve};
use super::record::{ReadError, Record, TerminalKind};
use super::{csa, kif, psn};
use kifudex_shogi::{Color, Move, Position, Square};

/// A notation a move list is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// `☗７六歩`, with the 連盟's relative words.
    Japanese,
    /// `P-7f`
    Hodges,
    /// `P76`
    Hosking,
    /// `☗歩-76`
    KitaoKawasaki,
    /// `☗春歩`: the Edo-period square characters.
    Iroha,
    /// `7g7f`
    Usi,
    /// `+7776FU`
    Csa,
}

impl Notation {
    pub const ALL: [Notation; 7] = [
        Notation::Japanese,
        Notation::Hodges,
        Notation::Hosking,
        Notation::KitaoKawasaki,
        Notation::Iroha,
        Notation::Usi,
        Notation::Csa,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Japanese => "japanese",
            Notation::Hodges => "hodges",
            Notation::Hosking => "hosking",
            Notation::KitaoKawasaki => "kitao-kawasaki",
            Notation::Iroha => "iroha",
            Notation::Usi => "usi",
            Notation::Csa => "csa",
        }
    }

    /// The move as this notation writes it on `pos`, `last_to` the previous destination.
    pub fn move_text(self, pos: &Position, mv: Move, last_to: Option<Square>) -> String {
        match self {
            Notation::Japanese => japanese(pos, mv, last_to),
            Notation::Hodges => hodges(pos, mv),
            Notation::Hosking => hosking(pos, mv),
            Notation::KitaoKawasaki => kitao_kawasaki(pos, mv, last_to),
            Notation::Iroha => iroha(pos, mv, last_to),
            Notation::Usi => mv.usi(),
            Notation::Csa => {
                let mut s = String::new();
                csa::push_csa_move(&mut s, pos, mv);
                s
            }
        }
    }

    /// The word for an ending, in the notation's language.
    fn ending(self, kind: TerminalKind, to_move: Color) -> String {
        match self {
            // The exact name: a move list is read back by kifudex (and by people).
            Notation::Japanese | Notation::KitaoKawasaki | Notation::Iroha => {
                kif::terminal_name(kind).to_string()
            }
            Notation::Hodges | Notation::Hosking => psn::ending_text(kind),
            Notation::Usi => kind.code().to_string(),
            Notation::Csa => csa::terminal_word(kind, to_move).to_string(),
        }
    }
}

/// The main line of `rec` as a numbered list, one move a line, in `notation`, then its
/// ending; before it, with `headers`, the headers as `# key：value` lines (KIF's keys), and a
/// start other than the usual one as a `# sfen` line.
pub fn write_move_list(rec: &Record, notation: Notation, headers: bool) -> String {
    let mut out = String::new();
    if headers {
        let keys = keys_for(&rec.headers, KeyStyle::Kif, kif::is_handicap_game(rec));
        for (key, (_, value)) in keys.iter().zip(&rec.headers) {
            if let Some(key) = key {
                let value = value.replace(['\r', '\n'], " ");
                let _ = writeln!(out, "# {key}：{value}");
            }
        }
    }
    if rec.start != Position::startpos() {
        let _ = writeln!(out, "# sfen {}", rec.start.to_sfen());
    }
    let mut pos = rec.start.clone();
    let mut last_to = None;
    for (i, node) in rec.main.moves.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>3} {}",
            i + 1,
            notation.move_text(&pos, node.mv, last_to)
        );
        let _ = pos.play(node.mv);
        last_to = Some(node.mv.to());
    }
    if let Some(t) = &rec.main.terminal {
        let _ = writeln!(
            out,
            "{:>3} {}",
            rec.main.moves.len() + 1,
            notation.ending(t.kind, pos.side_to_move())
        );
    }
    out
}

/// The ending a word names in any notation: 投了, Resign, resign, %TORYO…
fn ending(word: &str, to_move: Color) -> Option<TerminalKind> {
    if let Some(w) = word.strip_prefix('%') {
        return csa::terminal_kind(w, to_move);
    }
    if word.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return psn::ending_word(word);
    }
    kif::terminal_word(word)
}

/// The length of a move number at the start of `s` (`12`, `12.`, `12...`, `12…`), when it is
/// one: digits followed by dots, or by a space or the end of the line (`76歩` and `7g7f`
/// are moves).
fn move_number(s: &str) -> Option<usize> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let rest = &s[digits..];
    let dots = rest.len() - rest.trim_start_matches(['.', '…', ':', ')']).len();
    if dots > 0 || rest.is_empty() || rest.starts_with(char::is_whitespace) {
        Some(digits + dots)
    } else {
        None
    }
}

/// What separates moves besides spaces.
fn separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | '、' | '，' | '；')
}

/// The length of the word at the start of `s`: up to the first separator.
fn word_len(s: &str) -> usize {
    s.find(separator).unwrap_or(s.len())
}

/// The move written at the start of `s`, resolved on `pos`, and its length in bytes.
fn read_move(
    pos: &Position,
    s: &str,
    last_to: Option<Square>,
) -> Result<(Move, usize), MoveTextError> {
    let first = s.chars().next().unwrap_or(' ');
    let after_mark = side_mark(s).map_or(s, |(_, n)| &s[n..]);
    let next = after_mark.trim_start_matches([' ', '\u{3000}']);
    let japanese_square =
        |t: &str| t.starts_with('同') || t.chars().next().and_then(digit).is_some();
    // Kitao–Kawasaki: a piece (or `+` and a piece) where Japanese has the square.
    let kk = |t: &str| {
        piece_prefix(t).is_some()
            || t.strip_prefix('+')
                .is_some_and(|r| piece_prefix(r).is_some())
    };
    if side_mark(s).is_some() && japanese_square(next) || !first.is_ascii() && japanese_square(s) {
        let (jm, n) = parse_japanese_move(s)?;
        return Ok((resolve(pos, &jm, last_to)?, n));
    }
    if (side_mark(s).is_some() && kk(next)) || kk(s) {
        let (km, n) = parse_kitao_kawasaki(s)?;
        return Ok((resolve_kitao_kawasaki(pos, &km, last_to)?, n));
    }
    let n = word_len(s);
    let word = &s[..n];
    let b = word.as_bytes();
    if matches!(b.first(), Some(b'+' | b'-')) && b.get(1).is_some_and(u8::is_ascii_digit) {
        return Ok((csa::parse_move(pos, word)?, n));
    }
    if first.is_ascii_digit() {
        // USI (`7g7f`, `P*5e` starts with a letter) or Japanese with half-width digits (`76歩`).
        if let Ok(mv) = Move::from_usi(word) {
            return Ok((mv, n));
        }
        let (jm, n) = parse_japanese_move(s)?;
        return Ok((resolve(pos, &jm, last_to)?, n));
    }
    if first.is_ascii_alphabetic() || first == '+' {
        let wm = psn::parse_western(word)?;
        return Ok((psn::resolve_western(pos, &wm, word)?, n));
    }
    Err(MoveTextError::new(
        MoveTextErrorKind::Syntax,
        format!(
            "'{}' is no move in a notation kifudex reads (▲７六歩, ☗歩-76, P-7f, P76, 7g7f, +7776FU)",
            word
        ),
    ))
}

/// Reads a plain move list (see the module's comment) as one game from the usual start.
pub fn read_move_list(text: &str) -> Record {
    let mut rec = Record::default();
    let mut open = OpenLine::main(rec.start.clone());
    let mut started = false;
    'lines: for (n, raw) in Lines::new(text).enumerate() {
        let n = n + 1;
        let raw = if n == 1 {
            raw.trim_start_matches('\u{feff}')
        } else {
            raw
        };
        if let Some(remark) = raw.trim_start().strip_prefix('#') {
            let remark = remark.trim();
            if let Some(sfen) = remark.strip_prefix("sfen ") {
                match Position::from_sfen(sfen.trim()) {
                    Ok(p) if !started => {
                        rec.start = p.clone();
                        open = OpenLine::main(p);
                    }
                    Ok(_) => rec.errors.push(ReadError::new(
                        n,
                        1,
                        "a start position after the moves began; ignored",
                    )),
                    Err(e) => rec.errors.push(ReadError::new(
                        n,
                        1,
                        format!("'{sfen}' is no position: {e}"),
                    )),
                }
            } else if let Some((k, v)) = remark.split_once(['：', ':'])
                && !k.trim().is_empty()
                && !k.contains(' ')
            {
                rec.headers
                    .push((k.trim().to_string(), v.trim().to_string()));
            }
            continue;
        }
        let mut i = 0;
        loop {
            let rest = &raw[i..];
            let skip = rest.len() - rest.trim_start_matches(separator).len();
            i += skip;
            let rest = &raw[i..];
            if rest.is_empty() {
                continue 'lines;
            }
            let column = raw[..i].chars().count() + 1;
            if let Some(len) = move_number(rest) {
                i += len;
                continue;
            }
            if rec.main.terminal.is_some() {
                rec.errors.push(ReadError::new(
                    n,
                    column,
                    format!(
                        "'{}' after the end of the game; the rest is ignored",
                        &rest[..word_len(rest)]
                    ),
                ));
                break 'lines;
            }
            let word = &rest[..word_len(rest)];
            if let Some(kind) = ending(word, open.pos.side_to_move()) {
                open.end(&mut rec, kind, None);
                i += word.len();
                continue;
            }
            let ply = rec.main.moves.len() + 1;
            // Rules may be broken (records with illegal moves are data), the way pieces move
            // may not: such a move cannot be applied.
            let played = read_move(&open.pos, rest, open.last_to).and_then(|(mv, len)| {
                open.play_movable(&mut rec.main, mv, &rest[..len])?;
                Ok(len)
            });
            match played {
                Ok(len) => {
                    started = true;
                    i += len.max(1);
                }
                Err(e) => {
                    let message = format!("ply {ply}: {e}; the rest of the list is ignored");
                    open.fail(&mut rec, ReadError::new(n, column, message));
                    break 'lines;
                }
            }
        }
    }
    rec
}
