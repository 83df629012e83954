//! The parts of a KIF line: the numbered move line with its time, and `key：value` headers.
//! The common shapes (`   1 ７六歩(77)   ( 0:01/00:00:01)`) are read byte by byte; anything
//! else goes to the general code, which reads the common shapes the same way.

use super::terminal_word;
use crate::japanese::{kanji_digit, piece_name};
use crate::movetext::{JapaneseMove, Relative};
use crate::record::MoveTime;
use kifudex_shogi::{PieceKind, Square};

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
    if let Some((time, [])) = simple_time(rest.as_bytes()) {
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
/// spaces, `(`, spaces, a clock, optionally `/` and another clock, `)`, spaces, up to the end
/// of `b` or of its line: the time, and the line end and what follows. `None` for anything
/// else, valid or not, which [`parse_time`] reads in full. Inlined: an answer returned through
/// memory is written in narrow pieces and read back whole, a stall on every move line.
#[inline(always)]
fn simple_time(b: &[u8]) -> Option<(Option<MoveTime>, &[u8])> {
    let b = skip_spaces(b);
    let [b'(', b @ ..] = b else {
        return line_end(b).then_some((None, b));
    };
    let b = skip_spaces(b);
    // The shapes KIF writers use, `m:ss/` or `mm:ss/` and `hh:mm:ss)`, are taken directly;
    // simple_clock() reads them the same way, and all the others.
    let d = |c: &u8| (c - b'0') as u64;
    let (spent, mut b) = match b {
        [m, b':', s1, s2, rest @ ..]
            if matches!(rest, [b'/' | b')', ..]) && all_digits(&[*m, *s1, *s2]) =>
        {
            (d(m) * 60 + d(s1) * 10 + d(s2), rest)
        }
        [m1, m2, b':', s1, s2, rest @ ..]
            if matches!(rest, [b'/' | b')', ..]) && all_digits(&[*m1, *m2, *s1, *s2]) =>
        {
            ((d(m1) * 10 + d(m2)) * 60 + d(s1) * 10 + d(s2), rest)
        }
        _ => simple_clock(b)?,
    };
    let mut total = None;
    if let [b'/', rest @ ..] = b {
        b = rest;
        match b {
            [h1, h2, b':', m1, m2, b':', s1, s2, rest @ ..]
                if rest.first() == Some(&b')') && all_digits(&[*h1, *h2, *m1, *m2, *s1, *s2]) =>
            {
                let two = |a, b| d(a) * 10 + d(b);
                total = Some(((two(h1, h2) * 60 + two(m1, m2)) * 60 + two(s1, s2)) as f64);
                b = rest;
            }
            [b'0'..=b'9', ..] => {
                let (t, rest) = simple_clock(b)?;
                total = Some(t as f64);
                b = rest;
            }
            _ => {}
        }
    }
    let [b')', rest @ ..] = b else {
        return None;
    };
    let rest = skip_spaces(rest);
    let time = MoveTime {
        spent: spent as f64,
        total,
    };
    line_end(rest).then_some((Some(time), rest))
}

/// Whether `b` is empty or starts with a line end.
#[inline]
fn line_end(b: &[u8]) -> bool {
    matches!(b, [] | [b'\n' | b'\r', ..])
}

/// Whether every byte of `b` is an ASCII digit.
#[inline]
fn all_digits(b: &[u8]) -> bool {
    b.iter().all(u8::is_ascii_digit)
}

/// `b` without the half-width spaces at its start.
#[inline]
fn skip_spaces(mut b: &[u8]) -> &[u8] {
    // Eight bytes at a time: the first byte that is no space is the lowest one set in x.
    while let Some(chunk) = b.first_chunk::<8>() {
        let x = u64::from_le_bytes(*chunk) ^ u64::from_le_bytes([b' '; 8]);
        if x != 0 {
            return &b[(x.trailing_zeros() / 8) as usize..];
        }
        b = &b[8..];
    }
    while let [b' ', rest @ ..] = b {
        b = rest;
    }
    b
}

/// A clock at the start of `b`: one to three groups of one to nine digits joined by `:`, as
/// seconds, with what follows it.
#[inline]
fn simple_clock(mut b: &[u8]) -> Option<(u64, &[u8])> {
    let mut secs = 0u64;
    let mut groups = 0;
    loop {
        let mut n = 0u64;
        let mut digits = 0usize;
        while let [d @ b'0'..=b'9', rest @ ..] = b {
            // More than nine digits are refused below; stop adding before they overflow.
            if digits < 9 {
                n = n * 10 + (d - b'0') as u64;
            }
            digits += 1;
            b = rest;
        }
        if digits == 0 || digits > 9 {
            return None;
        }
        secs = secs * 60 + n;
        groups += 1;
        match b {
            // A fourth group is for the general reader to refuse.
            [b':', ..] if groups == 3 => return None,
            [b':', rest @ ..] => b = rest,
            _ => return Some((secs, b)),
        }
    }
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
/// `s` may go on past its line end, where the parenthesis ends too.
fn opens_time(s: &[u8]) -> bool {
    s.iter()
        .take_while(|&&c| c != b')' && c != b'\n' && c != b'\r')
        .any(|&c| c == b':' || c == b'/')
}

/// A move line of the common shape, read in one pass: the move text, the move as
/// [`parse_japanese_move`](crate::movetext::parse_japanese_move) reads that text,
/// and the time.
pub(super) struct SimpleMove<'a> {
    /// The length of the line, up to its line end.
    pub len: usize,
    pub text: &'a str,
    pub mv: JapaneseMove,
    pub time: Option<MoveTime>,
}

/// The common KIF move line, `   1 ７六歩(77)   ( 0:01/00:00:01)`: half-width spaces, the
/// number, half-width spaces, a move with a full-width file and kanji rank (or `同`), a piece
/// name, relative words, `成` `不成` `生` or `打`, an origin `(77)` or `(00)`, and after
/// half-width spaces (or none) a time of the shape [`simple_time`] reads, or nothing. `None` for any
/// other line, which the general code reads; for these lines it gives the same answer.
/// `line` may go on past its line end (`\n` or `\r`), which ends the line. Inlined into its
/// one caller, for the reason [`simple_time`] is.
#[inline(always)]
pub(super) fn simple_move(line: &str) -> Option<SimpleMove<'_>> {
    let b = skip_spaces(line.as_bytes());
    let digits = b.iter().take_while(|d| d.is_ascii_digit()).count();
    let after_number = &b[digits..];
    let b = skip_spaces(after_number);
    if digits == 0 || b.len() == after_number.len() {
        return None;
    }
    let start = line.len() - b.len();
    let (to, b) = match next_char(b)? {
        ('同', rest) => (None, skip_wide_spaces(rest)),
        (f @ '１'..='９', rest) => {
            let file = (f as u32 - '１' as u32 + 1) as u8;
            let (r, rest) = next_char(rest)?;
            if let Some(('同', _)) = next_char(rest) {
                return None;
            }
            (
                Some(Square::new(file, kanji_digit(r)?)?),
                skip_wide_spaces(rest),
            )
        }
        _ => return None,
    };
    let (piece, mut b) = match next_char(b)? {
        ('成', rest) => match next_char(rest)? {
            ('香', rest) => (PieceKind::ProLance, rest),
            ('桂', rest) => (PieceKind::ProKnight, rest),
            ('銀', rest) => (PieceKind::ProSilver, rest),
            _ => return None,
        },
        (c, rest) => (piece_name(c)?, rest),
    };
    let mut relative = Relative::NONE;
    while let Some((c, rest)) = next_char(b)
        && let Some(r) = Relative::from_char(c)
    {
        relative |= r;
        b = rest;
    }
    let (mut promote, mut drop) = (None, false);
    match next_char(b) {
        Some(('不', rest)) if matches!(next_char(rest), Some(('成', _))) => {
            promote = Some(false);
            b = &rest[3..];
        }
        Some(('生', rest)) => {
            promote = Some(false);
            b = rest;
        }
        Some(('成', rest)) => {
            promote = Some(true);
            b = rest;
        }
        Some(('打', rest)) => {
            drop = true;
            b = rest;
        }
        _ => {}
    }
    let mut origin = None;
    if let [b'(', f @ b'0'..=b'9', r @ b'0'..=b'9', b')', rest @ ..] = b {
        if (f, r) == (&b'0', &b'0') {
            drop = true;
        } else {
            origin = Some(Square::new(f - b'0', r - b'0')?);
        }
        b = rest;
    }
    // The move text ends at a space or the line end, or at a parenthesis opening the time.
    if !(matches!(b, [] | [b' ' | b'\n' | b'\r', ..]) || b.first() == Some(&b'(') && opens_time(b))
    {
        return None;
    }
    let end = line.len() - b.len();
    let (time, after) = simple_time(b)?;
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
        len: line.len() - after.len(),
        text: &line[start..end],
        mv,
        time,
    })
}

/// The three-byte character at the start of `b`, if there is one, and the bytes after it.
#[inline]
fn next_char(b: &[u8]) -> Option<(char, &[u8])> {
    match *b {
        [b0 @ 0xE0..=0xEF, b1, b2, ref rest @ ..] => {
            let c = (b0 as u32 & 0x0F) << 12 | (b1 as u32 & 0x3F) << 6 | (b2 as u32 & 0x3F);
            Some((char::from_u32(c)?, rest))
        }
        _ => None,
    }
}

/// `b` without the full-width spaces at its start.
#[inline]
fn skip_wide_spaces(mut b: &[u8]) -> &[u8] {
    while let [0xE3, 0x80, 0x80, rest @ ..] = b {
        b = rest;
    }
    b
}
