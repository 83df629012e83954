//! The Japanese tokenizer of the text index: character unigrams and overlapping bigrams over
//! [`fold`](kifudex_notation::normalize::fold)ed text, Latin words kept whole.
//!
//! Text is cut into *units*: one unit per CJK character (kanji, kana, 々, ー …), one per run of
//! other letters and digits (a Latin word, `76`, `floodgate`). Punctuation and spaces are no
//! unit: they only end a run of CJK characters. Unit `k` is indexed at position `2k`, and the
//! bigram of units `k` and `k + 1` (both CJK, with nothing between them) at `2k + 1`:
//!
//! ```text
//! 右 四 間 飛 車      units 0..4
//! 右@0 右四@1 四@2 四間@3 間@4 間飛@5 飛@6 飛車@7 車@8
//! ```
//!
//! A query is cut the same way, but keeps only what it needs: its bigrams, and a unigram only
//! for a CJK character with no CJK neighbour (`銀` alone, or `銀` in `銀 2`). Since the query's
//! tokens are a subset of the tokens the same text would get in a document, at the same
//! relative positions, tantivy's phrase query (which the query parser builds for any
//! multi-token word) matches exactly the documents holding the query text as a substring,
//! once folded: 四間飛車 (四間@1 間飛@3 飛車@5) finds 右四間飛車 and 角交換四間飛車, and a
//! quoted phrase stays a phrase.
//!
//! The price of substring matching is that word boundaries are not seen: 着手 also finds
//! 到着手前 (到着 + 手前), and 銀 finds 銀河. The tests pin this behaviour.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

use kifudex_notation::normalize::{fold_cjk, fold_each};

/// Bump when the tokens made from a text change: the index is then rebuilt.
pub const TOKENIZER_VERSION: u32 = 1;

/// The name the text fields are indexed with.
pub const NAME: &str = "kifudex_ja";

/// Words longer than this (in bytes) are not indexed: no one searches for them, and tantivy
/// refuses very long terms.
const MAX_WORD: usize = 120;

/// Which tokens to emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every unigram and bigram (documents).
    Index,
    /// Bigrams, and unigrams only where no bigram covers them (queries).
    Query,
}

/// The tokenizer, in either mode. It keeps its buffers from one text to the next: indexing
/// allocates nothing per token.
#[derive(Clone, Debug)]
pub struct JapaneseTokenizer {
    mode: Mode,
    buf: String,
    units: Vec<Unit>,
    token: Token,
}

impl JapaneseTokenizer {
    pub fn new(mode: Mode) -> JapaneseTokenizer {
        JapaneseTokenizer {
            mode,
            buf: String::new(),
            units: Vec::new(),
            token: Token::default(),
        }
    }
}

/// The tokens of one text, made one at a time from its units.
pub struct Tokens<'a> {
    mode: Mode,
    buf: &'a str,
    units: &'a [Unit],
    token: &'a mut Token,
    /// The unit whose tokens come next.
    k: usize,
    /// Whether its unigram was dealt with (its bigram comes next).
    bigram: bool,
}

impl Tokens<'_> {
    /// The unit after `k` when the two make a bigram.
    fn pair(&self, k: usize) -> Option<&Unit> {
        let u = &self.units[k];
        self.units.get(k + 1).filter(|n| u.cjk && n.cjk && n.joined)
    }
}

impl TokenStream for Tokens<'_> {
    fn advance(&mut self) -> bool {
        while self.k < self.units.len() {
            let k = self.k;
            let u = self.units[k];
            if !self.bigram {
                self.bigram = true;
                let bigram_before = k > 0 && u.cjk && u.joined && self.units[k - 1].cjk;
                let primary = match self.mode {
                    Mode::Index => true,
                    Mode::Query => !u.cjk || (!bigram_before && self.pair(k).is_none()),
                };
                if primary && u.end - u.start <= MAX_WORD {
                    let t = &mut *self.token;
                    t.text.clear();
                    t.text.push_str(&self.buf[u.start..u.end]);
                    (t.position, t.offset_from, t.offset_to) = (2 * k, u.from, u.to);
                    return true;
                }
            }
            self.bigram = false;
            self.k += 1;
            if let Some(&n) = self.pair(k) {
                let t = &mut *self.token;
                t.text.clear();
                t.text.push_str(&self.buf[u.start..u.end]);
                t.text.push_str(&self.buf[n.start..n.end]);
                (t.position, t.offset_from, t.offset_to) = (2 * k + 1, u.from, n.to);
                return true;
            }
        }
        false
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

impl Tokenizer for JapaneseTokenizer {
    type TokenStream<'a> = Tokens<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Tokens<'a> {
        units(text, &mut self.buf, &mut self.units);
        self.token = Token::default();
        Tokens {
            mode: self.mode,
            buf: &self.buf,
            units: &self.units,
            token: &mut self.token,
            k: 0,
            bigram: false,
        }
    }
}

/// A unit of a text: its folded characters are `buf[start..end]`, its original bytes
/// `from..to`.
#[derive(Debug, Clone, Copy)]
struct Unit {
    start: usize,
    end: usize,
    cjk: bool,
    from: usize,
    to: usize,
    /// Follows the previous unit with nothing between them.
    joined: bool,
}

/// Kanji, kana and the marks that live inside Japanese words.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3005..=0x3007        // 々 〆 〇
        | 0x3041..=0x309F      // hiragana (with the voicing marks)
        | 0x30A1..=0x30FA      // katakana
        | 0x30FC..=0x30FF      // ー and the iteration marks (・ is punctuation)
        | 0x3400..=0x4DBF      // CJK extension A
        | 0x4E00..=0x9FFF      // CJK unified ideographs
        | 0xF900..=0xFAFF      // compatibility ideographs
        | 0x20000..=0x3FFFF) // CJK extensions B and later
}

/// Cuts `text` into units (see the module documentation): their folded text goes to `buf`.
fn units(text: &str, buf: &mut String, units: &mut Vec<Unit>) {
    buf.clear();
    units.clear();
    // Whether the last unit may be continued (a word by letters, any unit by a combining mark).
    let mut open = false;
    for (from, c) in text.char_indices() {
        let to = from + c.len_utf8();
        // Most characters are kana or kanji, each a unit of its own, or ASCII: they skip
        // the general folding below.
        if let Some(f) = fold_cjk(c) {
            put(buf, units, &mut open, f, true, from, to);
            continue;
        }
        // Full-width ASCII (７, Ａ, ！) folds to ASCII, and the usual Japanese punctuation (、。
        // 「」・ and the ideographic space) only ends a run: they skip it too.
        let c = match c as u32 {
            0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            0x3000..=0x3003 | 0x3008..=0x3011 | 0x3014..=0x301F | 0x30FB => {
                open = false;
                continue;
            }
            _ => c,
        };
        if c.is_ascii() {
            if c.is_ascii_alphanumeric() {
                put(
                    buf,
                    units,
                    &mut open,
                    c.to_ascii_lowercase(),
                    false,
                    from,
                    to,
                );
            } else {
                open = false;
            }
            continue;
        }
        let mut folded = [char::default(); 8];
        let mut n = 0;
        fold_each(c, |f| {
            if n < folded.len() {
                folded[n] = f;
                n += 1;
            }
        });
        if n == 0 {
            open = false;
        }
        for &f in &folded[..n] {
            // Half-width ｶﾞ folds to か + a combining mark: put them back together. The last
            // unit's text ends the buffer.
            if matches!(f, '\u{3099}' | '\u{309A}') {
                if let Some(last) = units.last_mut().filter(|u| open && u.end > u.start)
                    && let Some(prev) = buf.pop()
                {
                    let composed = unicode_normalization::char::compose(prev, f);
                    buf.push(composed.unwrap_or(prev));
                    last.end = buf.len();
                    last.to = to;
                }
                continue;
            }
            let cjk = is_cjk(f);
            if !cjk && !f.is_alphanumeric() {
                open = false;
                continue;
            }
            put(buf, units, &mut open, f, cjk, from, to);
        }
    }
}

/// Adds folded character `f` (from the original bytes `from..to`): to the last unit when both
/// are letters or digits of one word, else as a unit of its own.
#[inline]
fn put(
    buf: &mut String,
    units: &mut Vec<Unit>,
    open: &mut bool,
    f: char,
    cjk: bool,
    from: usize,
    to: usize,
) {
    let start = buf.len();
    buf.push(f);
    match units.last_mut() {
        Some(last) if !cjk && *open && !last.cjk => {
            last.end = buf.len();
            last.to = to;
        }
        _ => {
            units.push(Unit {
                start,
                end: buf.len(),
                cjk,
                from,
                to,
                joined: *open,
            });
            *open = true;
        }
    }
}

/// The tokens of `text` in a mode.
pub fn tokenize(text: &str, mode: Mode) -> Vec<Token> {
    let mut tokenizer = JapaneseTokenizer::new(mode);
    let mut stream = tokenizer.token_stream(text);
    let mut tokens = Vec::new();
    while stream.advance() {
        tokens.push(stream.token().clone());
    }
    tokens
}
