//! Turning a file's bytes into text: UTF-8 (with or without BOM), CP932 or EUC-JP, chosen
//! from the bytes, never the extension; and splitting it into lines whatever the newlines.

use std::borrow::Cow;

use encoding_rs::{EUC_JP, SHIFT_JIS};

/// The encoding a file was read in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    Utf8,
    ShiftJis,
    EucJp,
}

impl Encoding {
    /// The name used in JSON output: `utf-8`, `shift_jis`, `euc-jp`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::ShiftJis => "shift_jis",
            Encoding::EucJp => "euc-jp",
        }
    }
}

/// Decodes `bytes`: UTF-8 when they are valid UTF-8 (a BOM is dropped); otherwise whichever
/// of CP932 and EUC-JP decodes without errors into more plausible Japanese (a file in one
/// read as the other gives mojibake, not always an error, so both are scored).
pub fn decode(bytes: &[u8]) -> (String, Encoding) {
    let (text, encoding) = decode_borrowed(bytes);
    (text.into_owned(), encoding)
}

/// [`decode`] without copying: UTF-8 input (validated once) is borrowed, not copied.
pub fn decode_borrowed(bytes: &[u8]) -> (Cow<'_, str>, Encoding) {
    let (text, encoding, _) = decode_cut(bytes);
    (text, encoding)
}

/// [`decode_borrowed`], and how many bytes at the very end were dropped: a UTF-8 file cut
/// inside its last character (a download that stopped half-way) is still UTF-8, read
/// without the partial character, when what comes before it is UTF-8 with at least one
/// character beyond ASCII (an ASCII text ending in two bytes could as well be CP932).
pub fn decode_cut(bytes: &[u8]) -> (Cow<'_, str>, Encoding, usize) {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // simdutf8 validates Japanese text (nearly all multi-byte) several times faster than std.
    if let Ok(s) = simdutf8::basic::from_utf8(body) {
        return (Cow::Borrowed(s), Encoding::Utf8, 0);
    }
    if let Err(e) = std::str::from_utf8(body)
        && e.error_len().is_none()
        && let Ok(s) = std::str::from_utf8(&body[..e.valid_up_to()])
        && !s.is_ascii()
    {
        return (Cow::Borrowed(s), Encoding::Utf8, body.len() - s.len());
    }
    let (text, encoding) = decode_legacy(bytes);
    (text, encoding, 0)
}

/// What [`decode_cut`] decides of a whole file, learnt a block at a time (a file read in
/// pieces, see `ingest`): whether it is UTF-8 (BOM dropped), and how many bytes a cut end
/// drops. Blocks are any cut of the file, in order.
#[derive(Debug, Default)]
pub struct Utf8Survey {
    /// Bytes seen so far (the BOM is looked for in the first three).
    seen: usize,
    /// The start of a character the last block ended inside.
    carry: Vec<u8>,
    invalid: bool,
    non_ascii: bool,
}

impl Utf8Survey {
    pub fn new() -> Utf8Survey {
        Utf8Survey::default()
    }

    /// The next block of the file.
    pub fn update(&mut self, block: &[u8]) {
        let first = self.seen == 0;
        self.seen += block.len();
        if self.invalid {
            return;
        }
        let mut block = block;
        if first {
            // A file's blocks are read whole-buffer at a time: the first holds the BOM whole.
            block = block.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(block);
        }
        // The character the last block ended inside: completed with this block's first bytes.
        let mut rest = block;
        if !self.carry.is_empty() {
            let need = utf8_len(self.carry[0]).saturating_sub(self.carry.len());
            let take = need.min(rest.len());
            self.carry.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.carry.len() < utf8_len(self.carry[0]) {
                return;
            }
            if std::str::from_utf8(&self.carry).is_err() {
                self.invalid = true;
                return;
            }
            self.non_ascii = true;
            self.carry.clear();
        }
        match simdutf8::compat::from_utf8(rest) {
            Ok(s) => self.non_ascii |= !s.is_ascii(),
            Err(e) if e.error_len().is_none() => {
                let (good, tail) = rest.split_at(e.valid_up_to());
                self.non_ascii |= !good.is_ascii();
                self.carry.extend_from_slice(tail);
            }
            Err(_) => self.invalid = true,
        }
    }

    /// `Some(cut)` when [`decode_cut`] would read the whole file as UTF-8, dropping its last
    /// `cut` bytes; `None` when it would read it in a legacy encoding.
    pub fn finish(self) -> Option<usize> {
        if self.invalid {
            return None;
        }
        // A cut character counts only after other text beyond ASCII (see `decode_cut`).
        match self.carry.len() {
            0 => Some(0),
            n if self.non_ascii => Some(n),
            _ => None,
        }
    }
}

/// Characters that Japanese text holds in two forms, the JIS one and the CP932 (Windows) one,
/// with the CP932 form: `encoding_rs`'s Shift_JIS (the WHATWG encoder) has bytes for the
/// CP932 form only, and writes the other as a `&#NNNN;` reference that no shogi program
/// reads back. Both forms are one character of JIS X 0208 to the people who typed them (a
/// 〜 in a comment typed on a Mac, a ～ typed on Windows).
const CP932_FORMS: [(char, char); 7] = [
    ('\u{301C}', '\u{FF5E}'), // WAVE DASH → FULLWIDTH TILDE
    ('\u{2016}', '\u{2225}'), // DOUBLE VERTICAL LINE → PARALLEL TO
    ('\u{2014}', '\u{2015}'), // EM DASH → HORIZONTAL BAR
    ('\u{00A2}', '\u{FFE0}'), // CENT SIGN → FULLWIDTH CENT SIGN
    ('\u{00A3}', '\u{FFE1}'), // POUND SIGN → FULLWIDTH POUND SIGN
    ('\u{00AC}', '\u{FFE2}'), // NOT SIGN → FULLWIDTH NOT SIGN
    ('\u{00A6}', '\u{FFE4}'), // BROKEN BAR → FULLWIDTH BROKEN BAR
];

/// The form of `c` that Shift_JIS (CP932) has bytes for, when `c` is the other form of such
/// a character (U+2212 MINUS SIGN needs none: the encoder gives it U+FF0D's bytes).
pub fn cp932_form(c: char) -> char {
    CP932_FORMS
        .iter()
        .find(|(jis, _)| *jis == c)
        .map_or(c, |&(_, cp932)| cp932)
}

/// `text` in Shift_JIS (CP932) as Japanese software reads it, and whether some character
/// has no Shift_JIS form at all (written as a `&#NNNN;` reference). A character with a JIS
/// and a CP932 form is written as the bytes of its CP932 form ([`cp932_form`]).
pub fn encode_shift_jis(text: &str) -> (Vec<u8>, bool) {
    let forms: Cow<'_, str> = if text.chars().any(|c| cp932_form(c) != c) {
        Cow::Owned(text.chars().map(cp932_form).collect())
    } else {
        Cow::Borrowed(text)
    };
    let (bytes, _, lossy) = SHIFT_JIS.encode(&forms);
    (bytes.into_owned(), lossy)
}

/// The length of the UTF-8 sequence `lead` starts (1 for a byte no sequence starts with:
/// the validator then says what is wrong).
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

/// The legacy encoding [`decode`] would choose for `sample` (the start of a file not in
/// UTF-8; a file read in pieces is judged by its first).
pub fn legacy_encoding(sample: &[u8]) -> Encoding {
    decode_legacy(sample).1
}

/// One piece of a file whose encoding was chosen before ([`Utf8Survey`],
/// [`legacy_encoding`]), cut after a line end: its text, and the bytes a cut end drops
/// (`last`: the file ends with this piece). `first`: the piece the file starts with (where a
/// BOM stands). A piece that is not what the file's encoding promised (the file changed
/// since) is read with replacement characters.
pub fn decode_piece(
    bytes: &[u8],
    encoding: Encoding,
    first: bool,
    last: bool,
) -> (Cow<'_, str>, usize) {
    match encoding {
        Encoding::Utf8 => {
            let body = if first {
                bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
            } else {
                bytes
            };
            if let Ok(s) = simdutf8::basic::from_utf8(body) {
                return (Cow::Borrowed(s), 0);
            }
            match std::str::from_utf8(body) {
                Ok(s) => (Cow::Borrowed(s), 0),
                Err(e) if last && e.error_len().is_none() => {
                    let good = &body[..e.valid_up_to()];
                    let s = std::str::from_utf8(good).unwrap_or_default();
                    (Cow::Borrowed(s), body.len() - good.len())
                }
                Err(_) => (String::from_utf8_lossy(body), 0),
            }
        }
        Encoding::ShiftJis | Encoding::EucJp => {
            let e = if encoding == Encoding::ShiftJis {
                SHIFT_JIS
            } else {
                EUC_JP
            };
            // `decode` looks for a BOM, as the whole file's decoding did; later pieces have none.
            let text = if first {
                e.decode(bytes).0
            } else {
                e.decode_without_bom_handling(bytes).0
            };
            (text, 0)
        }
    }
}

/// CP932 or EUC-JP, whichever is the more plausible.
fn decode_legacy(bytes: &[u8]) -> (Cow<'_, str>, Encoding) {
    let (sjis, _, sjis_bad) = SHIFT_JIS.decode(bytes);
    // A CP932 record read as EUC-JP breaks on most of its characters: when even the best
    // score EUC-JP could reach is no more than the least CP932 can have, neither text needs
    // scoring (nor EUC-JP decoding). `decode` reads a BOM as UTF-8 or UTF-16, which the
    // bounds know nothing of.
    let bom = [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"]
        .iter()
        .any(|b| bytes.starts_with(b));
    if !sjis_bad && !bom && euc_ceiling(bytes) <= cp932_floor(&sjis) {
        return (sjis, Encoding::ShiftJis);
    }
    let (euc, _, euc_bad) = EUC_JP.decode(bytes);
    if plausibility(&euc, euc_bad) > plausibility(&sjis, sjis_bad) {
        (euc, Encoding::EucJp)
    } else {
        (sjis, Encoding::ShiftJis)
    }
}

/// How much `text` looks like Japanese rather than mojibake; `bad`: it was decoded with errors.
fn plausibility(text: &str, bad: bool) -> i64 {
    let b = text.as_bytes();
    let mut s = 0i64;
    let mut i = 0;
    // Byte by byte: most of a record is ASCII, where only control characters other than
    // line ends and tabs count; the other characters are decoded here (`text` is UTF-8).
    while let Some(&x) = b.get(i) {
        if let Some(chunk) = b.get(i..).and_then(|r| r.first_chunk::<8>())
            && plain_ascii(u64::from_le_bytes(*chunk))
        {
            i += 8;
            continue;
        }
        if x < 0x80 {
            if x < 0x20 && !matches!(x, b'\n' | b'\r' | b'\t') || x == 0x7F {
                s -= 10;
            }
            i += 1;
            continue;
        }
        let next = |k: usize| u32::from(b.get(i + k).copied().unwrap_or(0) & 0x3F);
        let (c, len) = match x {
            0xF0.. => (
                (u32::from(x & 0x07) << 18) | next(1) << 12 | next(2) << 6 | next(3),
                4,
            ),
            0xE0.. => ((u32::from(x & 0x0F) << 12) | next(1) << 6 | next(2), 3),
            _ => ((u32::from(x & 0x1F) << 6) | next(1), 2),
        };
        s += char_score(c);
        i += len;
    }
    if bad { s - 1000 } else { s }
}

/// The most [`plausibility`] could give the EUC-JP decoding of `bytes`. A byte in
/// 0x80–0xA0 (other than 0x8E and 0x8F) or 0xFF is an error wherever it stands, as a lead or
/// after one; every other byte above 0x7F is at best half of a character worth 3. Counted
/// without following the decoder, so that the counts run many bytes at a time.
fn euc_ceiling(bytes: &[u8]) -> i64 {
    let errors = count(bytes, |x| {
        (x.wrapping_sub(0x80) <= 0x20) & (x.wrapping_sub(0x8E) > 1) | (x == 0xFF)
    }) as i64;
    let high = count(bytes, |x| x >= 0x80) as i64;
    3 * ((high - errors) / 2) - 50 * errors - if errors > 0 { 1000 } else { 0 }
}

/// The least [`plausibility`] CP932 `text` (decoded without errors) can have: -10 for every
/// control character (0x80 reads as U+0080) and -4 for every half-width katakana (or
/// full-width Latin letter, which shares their first two UTF-8 bytes and adds nothing);
/// every other character adds nothing or more.
fn cp932_floor(text: &str) -> i64 {
    let b = text.as_bytes();
    let controls = count(b, |x| {
        (x < 0x20) & (x != b'\n') & (x != b'\r') & (x != b'\t') | (x == 0x7F)
    });
    // U+0080–U+009F are C2 80–C2 9F; U+FF40–U+FF9F are EF BD 80–EF BE 9F.
    let c1 = count_pairs(b, |x, y| (x == 0xC2) & (y < 0xA0));
    let kana = count_pairs(b, |x, y| (x == 0xEF) & (y.wrapping_sub(0xBD) < 2));
    -10 * (controls + c1) as i64 - 4 * kana as i64
}

/// How many bytes `f` holds for, in runs of 255 counted in single bytes (which the compiler
/// turns into vector code without AVX).
#[inline]
fn count(b: &[u8], f: impl Fn(u8) -> bool) -> usize {
    b.chunks(255)
        .map(|c| c.iter().fold(0u8, |n, &x| n + f(x) as u8) as usize)
        .sum()
}

/// How many pairs of neighbouring bytes `f` holds for, as [`count`] counts.
#[inline]
fn count_pairs(b: &[u8], f: impl Fn(u8, u8) -> bool) -> usize {
    let n = b.len().saturating_sub(1);
    b[..n]
        .chunks(255)
        .zip(b.get(1..).unwrap_or_default().chunks(255))
        .map(|(p, q)| p.iter().zip(q).fold(0u8, |n, (&x, &y)| n + f(x, y) as u8) as usize)
        .sum()
}

/// Whether the eight bytes of `w` are all printable ASCII (0x20–0x7E), which add nothing to
/// [`plausibility`].
#[inline]
fn plain_ascii(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // With no high bit set, a byte below 0x20 (or equal to 0x7F, once XORed to zero) is the
    // only way for its subtraction to borrow into its high bit.
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGHS;
    w & HIGHS == 0 && below(w, 0x20) == 0 && below(w ^ (ONES * 0x7F), 1) == 0
}

/// What one character that is not ASCII adds to [`plausibility`].
#[inline]
fn char_score(c: u32) -> i64 {
    match c {
        // Common kanji (numerals, pieces, 成 同 打 手 先 後), then any other.
        0x4E00..=0x9FFF => {
            let i = (c - 0x4E00) as usize;
            if COMMON_KANJI[i / 64] >> (i % 64) & 1 != 0 {
                3
            } else {
                1
            }
        }
        // Kana and full-width digits.
        0x3040..=0x30FF | 0xFF10..=0xFF19 => 3,
        // Half-width katakana and rare symbols are what mojibake is made of.
        0xFF61..=0xFF9F => -4,
        0xFFFD => -50,
        // Shogi's side marks ▲ △ ☖ ☗.
        0x25B2 | 0x25B3 | 0x2616 | 0x2617 => 3,
        // The C1 control characters.
        0x80..=0x9F => -10,
        _ => 0,
    }
}

/// The kanji common in records, one bit each from U+4E00.
static COMMON_KANJI: [u64; 0x5200 / 64] = {
    let list = [
        '一', '二', '三', '四', '五', '六', '七', '八', '九', '歩', '香', '桂', '銀', '金', '角',
        '飛', '玉', '王', '成', '同', '打', '手', '先', '後',
    ];
    let mut bits = [0u64; 0x5200 / 64];
    let mut k = 0;
    while k < list.len() {
        let i = list[k] as usize - 0x4E00;
        bits[i / 64] |= 1 << (i % 64);
        k += 1;
    }
    bits
};

/// The lines of `text`, split at CRLF, LF or a lone CR, without their line ends.
pub fn lines(text: &str) -> Vec<&str> {
    Lines::new(text).collect()
}

/// The lines of `text` one at a time, as [`lines`] gives them.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    text: &'a str,
    /// Where the next line starts.
    pos: usize,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Lines<'a> {
        Lines { text, pos: 0 }
    }

    /// The text not yet split: the next line and all after it.
    pub fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    /// Takes the next line when the caller knows it is `len` bytes long (the line end, if
    /// any, follows them): what [`Iterator::next`] would return.
    pub fn skip_line(&mut self, len: usize) -> &'a str {
        let rest = self.rest();
        let line = rest.get(..len).unwrap_or(rest);
        let after = &rest.as_bytes()[line.len()..];
        self.pos += line.len()
            + match after {
                [b'\r', b'\n', ..] => 2,
                [b'\r' | b'\n', ..] => 1,
                _ => 0,
            };
        line
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        if start >= bytes.len() {
            return None;
        }
        let Some(len) = find_line_end(&bytes[start..]) else {
            self.pos = bytes.len();
            return Some(&self.text[start..]);
        };
        let end = start + len;
        self.pos = if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') {
            end + 2
        } else {
            end + 1
        };
        Some(&self.text[start..end])
    }
}

/// The index of the first `\n` or `\r` in `bytes`, eight bytes at a time.
#[inline]
fn find_line_end(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // A byte of `x` is zero where the high bit of the result is set (exact for the lowest
    // such byte, which is the one wanted).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let mut chunks = bytes.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let hit = zero(x ^ (ONES * b'\n' as u64)) | zero(x ^ (ONES * b'\r' as u64));
        if hit != 0 {
            return Some(offset + (hit.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map(|i| offset + i)
}

/// [`line_column`] for offsets met mostly in increasing order (a reader's errors): each call
/// goes on from the last one, so that a text with an error every few bytes costs time linear
/// in its length, not quadratic. An offset before the last one starts again from the top.
#[derive(Debug, Clone)]
pub struct LineCounter<'t> {
    text: &'t str,
    /// Bytes counted so far, the line they end on, where it starts, and its characters.
    at: usize,
    line: usize,
    start: usize,
    chars: usize,
}

impl<'t> LineCounter<'t> {
    pub fn new(text: &'t str) -> LineCounter<'t> {
        LineCounter {
            text,
            at: 0,
            line: 1,
            start: 0,
            chars: 0,
        }
    }

    /// The text it counts in.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// The 1-based line and column of byte `offset`, as [`line_column`] gives them.
    pub fn line_column(&mut self, offset: usize) -> (usize, usize) {
        let text = self.text;
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.at {
            *self = LineCounter::new(text);
        }
        let b = text.as_bytes();
        while self.at < offset {
            let i = self.at;
            match b[i] {
                b'\n' => {
                    self.line += 1;
                    self.start = i + 1;
                    self.chars = 0;
                }
                b'\r' if b.get(i + 1) == Some(&b'\n') => {
                    if i + 1 == offset {
                        // The offset points at the LF of a CRLF: still the line the CR ends.
                        return (self.line, self.chars + 1);
                    }
                    self.line += 1;
                    self.start = i + 2;
                    self.chars = 0;
                    self.at += 2;
                    continue;
                }
                b'\r' => {
                    self.line += 1;
                    self.start = i + 1;
                    self.chars = 0;
                }
                x if x & 0xC0 != 0x80 => self.chars += 1,
                _ => {}
            }
            self.at += 1;
        }
        (self.line, self.chars + 1)
    }
}

/// The 1-based line and column (in characters) of byte `offset` in `text`, with lines split
/// as [`lines`] splits them. An offset inside a character counts as that character.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text.as_bytes()[..offset];
    let mut line = 1;
    let mut start = 0;
    let mut i = 0;
    while i < before.len() {
        match before[i] {
            b'\n' => {
                line += 1;
                start = i + 1;
            }
            b'\r' => {
                if before.get(i + 1) == Some(&b'\n') {
                    i += 1;
                } else if i + 1 == before.len() && text.as_bytes().get(i + 1) == Some(&b'\n') {
                    // The offset points at the LF of a CRLF: still the line the CR ends.
                    return (line, text[start..i].chars().count() + 1);
                }
                line += 1;
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    (line, text[start..offset].chars().count() + 1)
}
