//! The parts of a KIF line: the numbered move line with its time, and `key：value` headers.
//! The common shapes (`   1 ７六歩(77)   ( 0:01/00:00:01)`) are read byte by byte; anything
//! else goes to the general code, which reads the common shapes the same way.

use super::terminal_word;
use crate::notation::movetext::{JapaneseMove, Relative};
use crate::notation::record::MoveTime;
use crate::shogi::{PieceKind, Square};

/// `line` without the half-width spaces, full-width spaces and tabs at its end.
#[inline]
pub(super) fn trim_end_spaces(line: &str) -> &str {
    match line.as_bytes().last() {
        // The last bytes of ' ', '\t' and '　' (E3 80 80).
        Some(b' ' | b'\t' | 0x80) => line.trim_end_matches([' ', '　', '\t']),
        _ => line,
    }
}

/// Reads what follows a KIF move: a time `( 0:16/00:00:16)`, `(0:16/)`, `( 0:03)`, perhaps a
/// `+` or a `#` comment. `Ok(None)` when there is no time; `Err` when there is text that is
/// no time.
pub(super) fn parse_time(rest: &str) -> Result<Option<MoveTime>, String> {
    if let Some(time) = simple_time(rest.as_bytes()) {
        return Ok(time);
    }
    let t = rest.split('#').next().unwrap_or(rest).trim();
    let t = t.trim_end_matches('+').trim_end();
    if t.is_empty() {
        return Ok(None);
    }
    let bad = || format!("the time '{t}' is not understood; the move is kept without it");
    let inner = t.strip_prefix(['(', '（']).ok_or_else(bad)?;
    let close = inner.find([')', '）']).ok_or_else(bad)?;
    let (spent, total) = match inner[..close].split_once('/') {
        Some((s, t)) => (s, Some(t)),
        None => (&inner[..close], None),
    };
    let spent = clock(spent).ok_or_else(bad)?;
    let total = match total.map(str::trim) {
        None | Some("") => None,
        Some(t) => Some(clock(t).ok_or_else(bad)?),
    };
    Ok(Some(MoveTime { spent, total }))
}

/// The common time shapes, ` ( 0:16/00:00:16)`, `(0:16/)`, `( 0:03)`, or nothing but spaces:
/// spaces, `(`, spaces, a clock, optionally `/` and another clock, `)`, spaces. `None` for
/// anything else, valid or not, which [`parse_time`] reads in full.
fn simple_time(b: &[u8]) -> Option<Option<MoveTime>> {
    let spaces = |mut i: usize| {
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        i
    };
    let i = spaces(0);
    if i == b.len() {
        return Some(None);
    }
    if b[i] != b'(' {
        return None;
    }
    let (spent, mut i) = simple_clock(b, spaces(i + 1))?;
    let mut total = None;
    if b.get(i) == Some(&b'/') {
        i += 1;
        if b.get(i).is_some_and(u8::is_ascii_digit) {
            let (t, j) = simple_clock(b, i)?;
            total = Some(t as f64);
            i = j;
        }
    }
    if b.get(i) != Some(&b')') || spaces(i + 1) != b.len() {
        return None;
    }
    Some(Some(MoveTime {
        spent: spent as f64,
        total,
    }))
}

/// A clock of one to three groups of one to nine digits joined by `:`, starting at `b[i]`,
/// as seconds, with the index after it.
fn simple_clock(b: &[u8], mut i: usize) -> Option<(u64, usize)> {
    let mut secs = 0u64;
    for group in 0..3 {
        let start = i;
        let mut n = 0u64;
        while let Some(&d) = b.get(i).filter(|d| d.is_ascii_digit()) {
            n = n * 10 + (d - b'0') as u64;
            i += 1;
        }
        if i == start || i - start > 9 {
            return None;
        }
        secs = secs * 60 + n;
        if group < 2 && b.get(i) == Some(&b':') {
            i += 1;
        } else {
            break;
        }
    }
    // A fourth group is for the general reader to refuse.
    if b.get(i) == Some(&b':') {
        return None;
    }
    Some((secs, i))
}

/// `m:ss`, `h:mm:ss` or `ss` as seconds. KIF times are whole seconds; at most nine digits a
/// part, so that absurd values are refused rather than overflowing.
fn clock(s: &str) -> Option<f64> {
    let mut secs = 0u64;
    for (i, part) in s.trim().split(':').enumerate() {
        let part = part.trim();
        if i >= 3 || part.is_empty() || part.len() > 9 || !part.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        secs = secs * 60 + part.parse::<u64>().ok()?;
    }
    Some(secs as f64)
}

/// Splits `key：value` / `key:value` at the first colon of either width.
pub(super) fn header(line: &str) -> Option<(&str, &str)> {
    let i = line.find(['：', ':'])?;
    let key = line[..i].trim();
    let colon = line[i..].chars().next()?.len_utf8();
    if key.is_empty() || key.chars().count() > 24 {
        return None;
    }
    Some((key, line[i + colon..].trim()))
}

/// The sides a terminal word may be prefixed with, written before it with a space.
const SIDE_WORDS: [&str; 4] = ["先手", "後手", "下手", "上手"];

/// A numbered move line: (move text, the rest after it). The number itself is not needed:
/// the reader counts plies.
pub(super) fn move_line(line: &str) -> Option<(&str, &str)> {
    if let Some(parts) = simple_move_line(line) {
        return parts;
    }
    let t = line.trim_start();
    let digits = t.find(|c: char| !c.is_ascii_digit())?;
    if digits == 0 {
        return None;
    }
    let rest = t[digits..].trim_start_matches([' ', '　', '\t']);
    if rest.len() == t[digits..].len() || rest.is_empty() {
        return None;
    }
    let end = move_text_end(rest);
    // `先手 反則負け`: a side word, a space, then the terminal word.
    if SIDE_WORDS.contains(&&rest[..end]) {
        let after = rest[end..].trim_start();
        let word_end = after.find([' ', '\t', '(']).unwrap_or(after.len());
        let whole = rest.len() - after.len() + word_end;
        if terminal_word(&rest[..whole]).is_some() {
            return Some((&rest[..whole], &rest[whole..]));
        }
    }
    Some((&rest[..end], &rest[end..]))
}

/// [`move_line`] for lines starting with half-width spaces and a digit, with no side word:
/// `Some` of its answer, or `None` when the general code must read the line.
fn simple_move_line(line: &str) -> Option<Option<(&str, &str)>> {
    let b = line.as_bytes();
    let mut i = 0;
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    if !b.get(i)?.is_ascii_digit() {
        return None;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let digits_end = i;
    loop {
        match b.get(i..) {
            Some([b' ' | b'\t', ..]) => i += 1,
            Some([0xE3, 0x80, 0x80, ..]) => i += 3,
            _ => break,
        }
    }
    if i == digits_end || i == b.len() {
        return Some(None);
    }
    let rest = &line[i..];
    let end = move_text_end(rest);
    if SIDE_WORDS.contains(&&rest[..end]) {
        return None;
    }
    Some(Some((&rest[..end], &rest[end..])))
}

/// Where the move text at the start of `rest` ends: at a half-width space or tab, or at a
/// parenthesis that opens a time rather than an origin.
fn move_text_end(rest: &str) -> usize {
    // All three are ASCII, so a byte search finds the same places as a char search.
    let b = rest.as_bytes();
    (0..b.len())
        .find(|&i| b[i] == b' ' || b[i] == b'\t' || (b[i] == b'(' && opens_time(&b[i..])))
        .unwrap_or(b.len())
}

/// Whether the parenthesis at the start of `s` holds a time (`( 0:16/00:00:16)`), not an origin.
fn opens_time(s: &[u8]) -> bool {
    s.iter()
        .take_while(|&&c| c != b')')
        .any(|&c| c == b':' || c == b'/')
}

/// A move line of the common shape, read in one pass: the move text, the move as
/// [`parse_japanese_move`](crate::notation::movetext::parse_japanese_move) reads that text,
/// and the time.
pub(super) struct SimpleMove<'a> {
    pub text: &'a str,
    pub mv: JapaneseMove,
    pub time: Option<MoveTime>,
}

/// The common KIF move line, `   1 ７六歩(77)   ( 0:01/00:00:01)`: half-width spaces, the
/// number, half-width spaces, a move with a full-width file and kanji rank (or `同`), a piece
/// name, relative words, `成` `不成` `生` or `打`, an origin `(77)` or `(00)`, and after a
/// half-width space a time of the shape [`simple_time`] reads, or nothing. `None` for any
/// other line, which the general code reads; for these lines it gives the same answer.
pub(super) fn simple_move(line: &str) -> Option<SimpleMove<'_>> {
    let b = line.as_bytes();
    let mut i = 0;
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    let number = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let spaces = i;
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    if i == number || i == spaces {
        return None;
    }
    let start = i;
    let at = |i: usize| char3(b, i);
    let to = match at(i)? {
        '同' => {
            i += 3;
            while at(i) == Some('　') {
                i += 3;
            }
            None
        }
        f @ '１'..='９' => {
            let file = f as u32 - '１' as u32 + 1;
            let rank = kanji_digit(at(i + 3)?)?;
            i += 6;
            if at(i) == Some('同') {
                return None;
            }
            while at(i) == Some('　') {
                i += 3;
            }
            Some(Square::new(file as u8, rank)?)
        }
        _ => return None,
    };
    let piece = match at(i)? {
        '成' => {
            i += 3;
            match at(i)? {
                '香' => PieceKind::ProLance,
                '桂' => PieceKind::ProKnight,
                '銀' => PieceKind::ProSilver,
                _ => return None,
            }
        }
        c => piece_char(c)?,
    };
    i += 3;
    let mut relative = Relative::NONE;
    while let Some(r) = at(i).and_then(Relative::from_char) {
        relative |= r;
        i += 3;
    }
    let (mut promote, mut drop) = (None, false);
    match at(i) {
        Some('不') if at(i + 3) == Some('成') => {
            promote = Some(false);
            i += 6;
        }
        Some('生') => {
            promote = Some(false);
            i += 3;
        }
        Some('成') => {
            promote = Some(true);
            i += 3;
        }
        Some('打') => {
            drop = true;
            i += 3;
        }
        _ => {}
    }
    let mut origin = None;
    if b.get(i) == Some(&b'(') {
        let (f, r) = match b.get(i + 1..i + 4)? {
            &[f @ b'0'..=b'9', r @ b'0'..=b'9', b')'] => (f - b'0', r - b'0'),
            _ => return None,
        };
        if f == 0 && r == 0 {
            drop = true;
        } else {
            origin = Some(Square::new(f, r)?);
        }
        i += 4;
    }
    let end = i;
    if end < b.len() && b[end] != b' ' {
        return None;
    }
    let time = simple_time(&b[end..])?;
    let mv = JapaneseMove {
        side: None,
        to,
        piece,
        relative,
        promote,
        drop,
        origin,
    };
    Some(SimpleMove {
        text: &line[start..end],
        mv,
        time,
    })
}

/// The three-byte character starting at `b[i]`, if there is one.
#[inline]
fn char3(b: &[u8], i: usize) -> Option<char> {
    match *b.get(i..i + 3)? {
        [b0 @ 0xE0..=0xEF, b1, b2] => {
            char::from_u32((b0 as u32 & 0x0F) << 12 | (b1 as u32 & 0x3F) << 6 | (b2 as u32 & 0x3F))
        }
        _ => None,
    }
}

/// A rank written as a kanji numeral.
#[inline]
fn kanji_digit(c: char) -> Option<u8> {
    Some(match c {
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

/// The piece a one-character name names.
#[inline]
fn piece_char(c: char) -> Option<PieceKind> {
    use PieceKind::*;
    Some(match c {
        '歩' => Pawn,
        '香' => Lance,
        '桂' => Knight,
        '銀' => Silver,
        '金' => Gold,
        '角' => Bishop,
        '飛' => Rook,
        '玉' | '王' => King,
        'と' => ProPawn,
        '杏' => ProLance,
        '圭' => ProKnight,
        '全' => ProSilver,
        '馬' => Horse,
        '龍' | '竜' => Dragon,
        _ => return None,
    })
}
