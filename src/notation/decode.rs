//! Turning a file's bytes into text: UTF-8 (with or without BOM), CP932 or EUC-JP, chosen
//! from the bytes, never the extension; and splitting it into lines whatever the newlines.

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
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(s) = std::str::from_utf8(body) {
        return (s.to_string(), Encoding::Utf8);
    }
    let (sjis, _, sjis_bad) = SHIFT_JIS.decode(bytes);
    let (euc, _, euc_bad) = EUC_JP.decode(bytes);
    let score = |text: &str, bad: bool| -> i64 {
        let mut s = 0i64;
        for c in text.chars() {
            s += match c {
                '\u{FFFD}' => -50,
                // Kana, common kanji, full-width digits and shogi symbols.
                '\u{3040}'..='\u{30FF}' | '\u{FF10}'..='\u{FF19}' | '▲' | '△' | '☗' | '☖' => {
                    3
                }
                '一' | '二' | '三' | '四' | '五' | '六' | '七' | '八' | '九' | '歩' | '香'
                | '桂' | '銀' | '金' | '角' | '飛' | '玉' | '王' | '成' | '同' | '打' | '手'
                | '先' | '後' => 3,
                '\u{4E00}'..='\u{9FFF}' => 1,
                // Half-width katakana and rare symbols are what mojibake is made of.
                '\u{FF61}'..='\u{FF9F}' => -4,
                c if c.is_control() && c != '\n' && c != '\r' && c != '\t' => -10,
                _ => 0,
            };
        }
        if bad { s - 1000 } else { s }
    };
    if score(&euc, euc_bad) > score(&sjis, sjis_bad) {
        (euc.into_owned(), Encoding::EucJp)
    } else {
        (sjis.into_owned(), Encoding::ShiftJis)
    }
}

/// The lines of `text`, split at CRLF, LF or a lone CR, without their line ends.
pub fn lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                out.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < bytes.len() {
        out.push(&text[start..]);
    }
    out
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
