//! The query's words: cutting the text into tokens (Japanese runs by the longest known word,
//! strategy and castle names by [`classify::canonical`]), the vocabulary, and the nearest
//! known word for a misspelt one.

use kifudex_classify as classify;
use kifudex_shogi::{Color, PieceKind};

use super::ast::{Area, What};

/// A Japanese word of the query language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ja {
    Piece(What),
    /// 一 … 九.
    Numeral(u8),
    /// 筋, 筋目.
    File,
    /// 段, 段目.
    Rank,
    Area(Area),
    And,
    Or,
    /// 手番.
    Turn,
    /// 番 (`▲番`).
    TurnSuffix,
    /// 手数.
    Ply,
    /// 直前, 前の手.
    Last,
    /// 持駒, 持ち駒.
    Hand,
    /// 枚数.
    Count,
    /// 駒価値.
    Material,
    /// 駒得.
    Advantage,
    /// 打.
    Drop,
    /// 成.
    Promotion,
    /// 不成.
    NoPromotion,
    /// 取, 取り.
    Capture,
    /// 王手.
    Check,
    /// 以上, 以下, 未満 (after a number).
    AtLeast,
    AtMost,
    Below,
    /// 枚 (a counter after a number, read as nothing).
    Counter,
    /// の, は (particles, read as nothing).
    Particle,
    /// から (after a square: where the last move came from).
    From,
}

use PieceKind::*;

/// Every Japanese word, with what it means. Longest match wins when cutting a run.
pub(super) const JAPANESE: &[(&str, Ja)] = &[
    ("歩", Ja::Piece(What::Kind(Pawn))),
    ("香", Ja::Piece(What::Kind(Lance))),
    ("香車", Ja::Piece(What::Kind(Lance))),
    ("桂", Ja::Piece(What::Kind(Knight))),
    ("桂馬", Ja::Piece(What::Kind(Knight))),
    ("銀", Ja::Piece(What::Kind(Silver))),
    ("銀将", Ja::Piece(What::Kind(Silver))),
    ("金", Ja::Piece(What::Kind(Gold))),
    ("金将", Ja::Piece(What::Kind(Gold))),
    ("角", Ja::Piece(What::Kind(Bishop))),
    ("角行", Ja::Piece(What::Kind(Bishop))),
    ("飛", Ja::Piece(What::Kind(Rook))),
    ("飛車", Ja::Piece(What::Kind(Rook))),
    ("玉", Ja::Piece(What::Kind(King))),
    ("玉将", Ja::Piece(What::Kind(King))),
    ("王", Ja::Piece(What::Kind(King))),
    ("王将", Ja::Piece(What::Kind(King))),
    ("と", Ja::Piece(What::Kind(ProPawn))),
    ("成香", Ja::Piece(What::Kind(ProLance))),
    ("杏", Ja::Piece(What::Kind(ProLance))),
    ("成桂", Ja::Piece(What::Kind(ProKnight))),
    ("圭", Ja::Piece(What::Kind(ProKnight))),
    ("成銀", Ja::Piece(What::Kind(ProSilver))),
    ("全", Ja::Piece(What::Kind(ProSilver))),
    ("馬", Ja::Piece(What::Kind(Horse))),
    ("龍馬", Ja::Piece(What::Kind(Horse))),
    ("竜馬", Ja::Piece(What::Kind(Horse))),
    ("龍", Ja::Piece(What::Kind(Dragon))),
    ("竜", Ja::Piece(What::Kind(Dragon))),
    ("龍王", Ja::Piece(What::Kind(Dragon))),
    ("竜王", Ja::Piece(What::Kind(Dragon))),
    ("駒", Ja::Piece(What::AnyPiece)),
    ("空", Ja::Piece(What::Empty)),
    ("一", Ja::Numeral(1)),
    ("二", Ja::Numeral(2)),
    ("三", Ja::Numeral(3)),
    ("四", Ja::Numeral(4)),
    ("五", Ja::Numeral(5)),
    ("六", Ja::Numeral(6)),
    ("七", Ja::Numeral(7)),
    ("八", Ja::Numeral(8)),
    ("九", Ja::Numeral(9)),
    ("筋", Ja::File),
    ("筋目", Ja::File),
    ("段", Ja::Rank),
    ("段目", Ja::Rank),
    ("敵陣", Ja::Area(Area::EnemyCamp)),
    ("自陣", Ja::Area(Area::OwnCamp)),
    ("中段", Ja::Area(Area::Middle)),
    ("中央", Ja::Area(Area::Centre)),
    ("端", Ja::Area(Area::Edge)),
    ("左辺", Ja::Area(Area::LeftSide)),
    ("右辺", Ja::Area(Area::RightSide)),
    ("かつ", Ja::And),
    ("または", Ja::Or),
    ("手番", Ja::Turn),
    ("番", Ja::TurnSuffix),
    ("手数", Ja::Ply),
    ("直前", Ja::Last),
    ("前の手", Ja::Last),
    ("持駒", Ja::Hand),
    ("持ち駒", Ja::Hand),
    ("枚数", Ja::Count),
    ("駒価値", Ja::Material),
    ("駒得", Ja::Advantage),
    ("打", Ja::Drop),
    ("成", Ja::Promotion),
    ("不成", Ja::NoPromotion),
    ("取", Ja::Capture),
    ("取り", Ja::Capture),
    ("王手", Ja::Check),
    ("以上", Ja::AtLeast),
    ("以下", Ja::AtMost),
    ("未満", Ja::Below),
    ("枚", Ja::Counter),
    ("の", Ja::Particle),
    ("は", Ja::Particle),
    ("から", Ja::From),
];

/// Side marks and words, Japanese and English.
pub(super) const SIDES: &[(&str, Color)] = &[
    ("▲", Color::Black),
    ("☗", Color::Black),
    ("先手", Color::Black),
    ("下手", Color::Black),
    ("black", Color::Black),
    ("sente", Color::Black),
    ("△", Color::White),
    ("▽", Color::White),
    ("☖", Color::White),
    ("後手", Color::White),
    ("上手", Color::White),
    ("white", Color::White),
    ("gote", Color::White),
];

/// English piece words (singular and plural), with what they name. `promoted` + a kind is
/// read by the parser.
pub(super) const ENGLISH_PIECES: &[(&str, What)] = &[
    ("pawn", What::Kind(Pawn)),
    ("lance", What::Kind(Lance)),
    ("knight", What::Kind(Knight)),
    ("silver", What::Kind(Silver)),
    ("gold", What::Kind(Gold)),
    ("bishop", What::Kind(Bishop)),
    ("rook", What::Kind(Rook)),
    ("king", What::Kind(King)),
    ("tokin", What::Kind(ProPawn)),
    ("horse", What::Kind(Horse)),
    ("dragon", What::Kind(Dragon)),
    ("piece", What::AnyPiece),
    ("empty", What::Empty),
];

/// The other English words, for suggestions.
pub(super) const ENGLISH_WORDS: &[&str] = &[
    "and",
    "or",
    "not",
    "on",
    "in",
    "at",
    "hand",
    "ply",
    "turn",
    "to",
    "move",
    "last",
    "from",
    "count",
    "material",
    "advantage",
    "drop",
    "promotion",
    "promotes",
    "promoted",
    "no",
    "capture",
    "takes",
    "check",
    "file",
    "rank",
    "enemy",
    "own",
    "camp",
    "zone",
    "middle",
    "centre",
    "center",
    "edge",
    "left",
    "right",
    "side",
];

/// A token: what it is, and where (characters, from 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    /// A run of ASCII letters and digits, as typed (full-width ones made ASCII).
    Word(String),
    /// `( ) { } , & | ! = == != < <= > >= + - * @ .. ~`.
    Sym(&'static str),
    Side(Color),
    Ja(Ja),
    /// A strategy or castle, by its canonical name.
    Name(&'static str),
    /// A label of whole games (力戦, 相振り飛車 …), which no side plays.
    Label(&'static str),
    /// Text no word of the language begins.
    Unknown(String),
}

/// The query with full-width ASCII made ASCII and the ideographic space a space, character by
/// character (so that columns stay those of the text typed).
pub(super) fn normalise(text: &str) -> Vec<char> {
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            '≦' => '≤',
            '≧' => '≥',
            '〜' => '~',
            '、' => ',',
            c => c,
        })
        .collect()
}

const SYMBOLS: &[&str] = &[
    "..", "==", "!=", "<=", ">=", "&&", "||", "(", ")", "{", "}", ",", "&", "|", "!", "=", "<",
    ">", "+", "-", "*", "@", "~", "≤", "≥", "≠",
];

/// Canonical symbols for the two-character spellings.
fn symbol(s: &str) -> &'static str {
    match s {
        "==" => "=",
        "&&" => "&",
        "||" => "|",
        "≤" => "<=",
        "≥" => ">=",
        "≠" => "!=",
        _ => SYMBOLS.iter().find(|x| **x == s).copied().unwrap_or("?"),
    }
}

/// The longest strategy or castle name (or label) starting at `i`, with its length.
fn name_at(chars: &[char], i: usize) -> Option<(usize, &'static str)> {
    if !classify::names::begins_a_name(chars[i]) {
        return None;
    }
    // Names are short; a longer prefix is never one.
    let max = (chars.len() - i).min(16);
    (1..=max).rev().find_map(|n| {
        let last = chars[i + n - 1];
        if last.is_whitespace() || last.is_ascii_punctuation() {
            return None;
        }
        let text: String = chars[i..i + n].iter().collect();
        classify::canonical(&text).map(|c| (n, c))
    })
}

/// The longest Japanese word starting at `i`.
fn japanese_at(chars: &[char], i: usize) -> Option<(usize, Ja)> {
    JAPANESE
        .iter()
        .filter(|(w, _)| {
            let n = w.chars().count();
            i + n <= chars.len() && w.chars().zip(&chars[i..]).all(|(a, &b)| a == b)
        })
        .max_by_key(|(w, _)| w.chars().count())
        .map(|(w, ja)| (w.chars().count(), *ja))
}

/// A Japanese side word or mark starting at `i`.
fn side_at(chars: &[char], i: usize) -> Option<(usize, Color)> {
    SIDES
        .iter()
        .filter(|(w, _)| !w.is_ascii())
        .find(|(w, _)| {
            let n = w.chars().count();
            i + n <= chars.len() && w.chars().zip(&chars[i..]).all(|(a, &b)| a == b)
        })
        .map(|(w, c)| (w.chars().count(), *c))
}

/// What a known word starting at `i` (not ASCII) is, with its length: a side first (先手中飛車
/// is sente's 中飛車), then the longest name, then the longest Japanese word.
fn known_at(chars: &[char], i: usize) -> Option<(usize, Tok)> {
    if let Some((n, c)) = side_at(chars, i) {
        return Some((n, Tok::Side(c)));
    }
    let name = name_at(chars, i);
    let word = japanese_at(chars, i);
    match (name, word) {
        (Some((n, name)), w) if w.is_none_or(|(m, _)| n >= m) => {
            let tok = if classify::names::kind_of(name).is_some() {
                Tok::Name(name)
            } else {
                Tok::Label(name)
            };
            Some((n, tok))
        }
        (_, Some((m, ja))) => Some((m, Tok::Ja(ja))),
        _ => None,
    }
}

/// Cuts the (normalised) query into tokens.
pub(super) fn tokens(chars: &[char]) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let rest: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        if let Some(s) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            let n = s.chars().count();
            out.push(Token {
                tok: Tok::Sym(symbol(s)),
                start: i,
                end: i + n,
            });
            i += n;
            continue;
        }
        // A name may start with digits (5筋位取り): tried before the digits make a word.
        if c.is_ascii_digit()
            && let Some((n, name)) = name_at(chars, i)
            && chars[i..i + n].iter().any(|c| !c.is_ascii())
        {
            let tok = if classify::names::kind_of(name).is_some() {
                Tok::Name(name)
            } else {
                Tok::Label(name)
            };
            out.push(Token {
                tok,
                start: i,
                end: i + n,
            });
            i += n;
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            let n = chars[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                .count();
            out.push(Token {
                tok: Tok::Word(chars[i..i + n].iter().collect()),
                start: i,
                end: i + n,
            });
            i += n;
            continue;
        }
        if !c.is_ascii()
            && let Some((n, tok)) = known_at(chars, i)
        {
            out.push(Token {
                tok,
                start: i,
                end: i + n,
            });
            i += n;
            continue;
        }
        // Unknown: up to where something known starts (or a space, a symbol, ASCII).
        let mut j = i + 1;
        while j < chars.len() {
            let d = chars[j];
            if d.is_whitespace() || d.is_ascii() || known_at(chars, j).is_some() {
                break;
            }
            j += 1;
        }
        out.push(Token {
            tok: Tok::Unknown(chars[i..j].iter().collect()),
            start: i,
            end: j,
        });
        i = j;
    }
    out
}

/// The edit distance between two words (insertions, deletions, substitutions and swaps of
/// neighbours, each 1).
pub(super) fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The one known word nearest to `word` (English words compared in lower case), when it is
/// near enough to be a slip: one edit for short words, a third of the word's length for
/// longer ones; none when two words are equally near.
pub(super) fn suggest(word: &str) -> Option<String> {
    let lower = word.to_lowercase();
    let ascii = lower.is_ascii();
    let mut known: Vec<String> = Vec::new();
    if ascii {
        known.extend(ENGLISH_WORDS.iter().map(|w| w.to_string()));
        known.extend(ENGLISH_PIECES.iter().map(|(w, _)| w.to_string()));
        known.extend(
            SIDES
                .iter()
                .filter(|(w, _)| w.is_ascii())
                .map(|(w, _)| w.to_string()),
        );
    } else {
        known.extend(JAPANESE.iter().map(|(w, _)| w.to_string()));
        known.extend(
            SIDES
                .iter()
                .filter(|(w, _)| !w.is_ascii())
                .map(|(w, _)| w.to_string()),
        );
        known.extend(classify::DEFS.iter().map(|d| d.name.to_string()));
    }
    if known.contains(&lower) {
        return None;
    }
    let limit = (lower.chars().count() / 3).max(1);
    let mut best: Option<(usize, String)> = None;
    let mut tie = false;
    for k in known {
        let d = distance(&lower, &k);
        if d == 0 || d > limit {
            continue;
        }
        match &best {
            Some((b, _)) if d > *b => {}
            Some((b, w)) if d == *b => tie |= *w != k,
            _ => {
                best = Some((d, k));
                tie = false;
            }
        }
    }
    if tie { None } else { best.map(|b| b.1) }
}
