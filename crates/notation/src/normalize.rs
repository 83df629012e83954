//! Normalising Japanese (and Latin) text so that what a user types finds what a record wrote:
//! full- and half-width forms (NFKC), upper and lower case, katakana and hiragana, and the
//! old character forms (旧字体) that player names keep. Shared by name search (the store, the
//! query layer) and the full-text index; imports nothing of the crate.

use unicode_normalization::UnicodeNormalization;

/// Old or variant forms that name records use, with the form users type.
const VARIANTS: &[(char, char)] = &[
    ('髙', '高'),
    ('﨑', '崎'),
    ('嵜', '崎'),
    ('濵', '浜'),
    ('濱', '浜'),
    ('邊', '辺'),
    ('邉', '辺'),
    ('齋', '斎'),
    ('齊', '斉'),
    ('澤', '沢'),
    ('櫻', '桜'),
    ('國', '国'),
    ('嶋', '島'),
    ('嶌', '島'),
    ('廣', '広'),
    ('德', '徳'),
    ('眞', '真'),
    ('惠', '恵'),
    ('淺', '浅'),
    ('藏', '蔵'),
    ('關', '関'),
    ('實', '実'),
    ('壽', '寿'),
    ('條', '条'),
    ('瀨', '瀬'),
    ('龍', '竜'),
    ('黑', '黒'),
    ('來', '来'),
    ('會', '会'),
    ('學', '学'),
    ('圓', '円'),
    ('榮', '栄'),
    ('槇', '槙'),
    ('曾', '曽'),
    ('顯', '顕'),
    ('增', '増'),
    ('𠮷', '吉'),
    ('﨔', '欅'),
    ('桒', '桑'),
];

/// One bit per value of `c % 1024` for the characters of [`VARIANTS`]: most characters are
/// known to be no old form by one test instead of a search of the list.
const VARIANT_BITS: [u64; 16] = {
    let mut bits = [0u64; 16];
    let mut i = 0;
    while i < VARIANTS.len() {
        let k = VARIANTS[i].0 as usize % 1024;
        bits[k / 64] |= 1 << (k % 64);
        i += 1;
    }
    bits
};

/// Titles and ranks that records add to names (after [`fold`]): a search may name them, or not.
const TITLES: &[&str] = &[
    "十七世名人",
    "十八世名人",
    "十九世名人",
    "十五世名人",
    "十六世名人",
    "永世",
    "名誉",
    "女流",
    "名人",
    "竜王",
    "王位",
    "王座",
    "棋王",
    "王将",
    "棋聖",
    "叡王",
    "女王",
    "清麗",
    "白玲",
    "倉敷藤花",
    "二冠",
    "三冠",
    "四冠",
    "五冠",
    "六冠",
    "七冠",
    "八冠",
    "あま",
    "ぷろ",
];

/// NFKC, lower case, katakana as hiragana, old character forms as the common ones.
/// Spaces are kept (as single ASCII spaces).
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.nfkc() {
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        for c in c.to_lowercase() {
            out.push(fold_char(c));
        }
    }
    out
}

/// [`fold`] of one character, without the spacing rules: each folded character goes to
/// `push` (NFKC may give several, as ㍻ gives 平成; a space gives a space). The tokenizer
/// uses it to keep every folded character tied to the bytes it came from.
pub fn fold_each(c: char, mut push: impl FnMut(char)) {
    if c.is_ascii() {
        push(c.to_ascii_lowercase());
        return;
    }
    if let Some(f) = fold_cjk(c) {
        push(f);
        return;
    }
    for c in std::iter::once(c).nfkc() {
        for c in c.to_lowercase() {
            push(fold_char(c));
        }
    }
}

/// [`fold_each`] of hiragana, katakana and the unified ideographs, which are their own NFKC,
/// have no case and fold to one character; `None` for any other character.
#[inline]
pub fn fold_cjk(c: char) -> Option<char> {
    matches!(c as u32, 0x3041..=0x3096 | 0x30A1..=0x30F6 | 0x4E00..=0x9FFF).then(|| fold_char(c))
}

fn fold_char(c: char) -> char {
    match c {
        // Katakana ァ..ヶ to hiragana ぁ..ゖ.
        '\u{30A1}'..='\u{30F6}' => char::from_u32(c as u32 - 0x60).unwrap_or(c),
        _ if VARIANT_BITS[(c as usize % 1024) / 64] & 1 << (c as usize % 64) == 0 => c,
        _ => VARIANTS
            .iter()
            .find(|(old, _)| *old == c)
            .map_or(c, |&(_, new)| new),
    }
}

/// The search form of a name: [`fold`] without spaces and name separators.
pub fn name_key(s: &str) -> String {
    fold(s)
        .chars()
        .filter(|c| !matches!(c, ' ' | '・' | '･' | '.'))
        .collect()
}

/// A name key without its titles, ranks (九段, 三級, 女流二段 …) and parenthesised notes.
pub fn strip_titles(key: &str) -> String {
    let mut s = String::with_capacity(key.len());
    let mut depth = 0usize;
    for c in key.chars() {
        match c {
            '(' | '[' | '【' | '〔' => depth += 1,
            ')' | ']' | '】' | '〕' => depth = depth.saturating_sub(1),
            _ if depth == 0 => s.push(c),
            _ => {}
        }
    }
    for t in TITLES {
        if s.contains(t) {
            s = s.replace(t, "");
        }
    }
    strip_ranks(&s)
}

/// Removes `<numeral>段`, `<numeral>級` and `初段`.
fn strip_ranks(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let numeral = |c: char| c.is_ascii_digit() || "一二三四五六七八九十初".contains(c);
    let mut keep = vec![true; chars.len()];
    for (i, &c) in chars.iter().enumerate() {
        if (c == '段' || c == '級') && i > 0 && numeral(chars[i - 1]) {
            keep[i] = false;
            let mut j = i;
            while j > 0 && numeral(chars[j - 1]) {
                j -= 1;
                keep[j] = false;
            }
        }
    }
    chars
        .iter()
        .zip(keep)
        .filter(|&(_, k)| k)
        .map(|(c, _)| c)
        .collect()
}

/// Does `name` match what a user typed as `query`? Substring of the normalised forms, with
/// or without titles and ranks on either side.
pub fn name_matches(name: &str, query: &str) -> bool {
    let key = name_key(name);
    let q = name_key(query);
    if key.contains(&q) {
        return true;
    }
    let bare_q = strip_titles(&q);
    !bare_q.is_empty() && strip_titles(&key).contains(&bare_q)
}
