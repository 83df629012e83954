//! One table of spellings for opening, strategy and castle names, used for header values,
//! recognised names and queries alike, and the hierarchy's questions (parent, family,
//! descendants) asked by name.
//!
//! A name is folded first (full-width letters and digits to ASCII, spaces dropped, ASCII
//! upper case), then looked up: a canonical name, an alias (okurigana left out, romanised CSA
//! values, English names), or either with 囲い added or removed.

use super::patterns::{DEFS, Kind};

/// Per-game labels that are not a side's strategy.
pub const AI_FURIBISHA: &str = "相振り飛車";
pub const RIKISEN: &str = "力戦";
pub const OTHER: &str = "その他の戦型";

/// Game labels beyond the strategies: (name, parent in the hierarchy).
/// 力戦 (a 相居飛車 game without a named opening) is one of the other openings.
const LABELS: &[(&str, Option<&str>)] = &[
    (AI_FURIBISHA, Some("振り飛車")),
    (RIKISEN, Some(OTHER)),
    (OTHER, None),
];

/// Other spellings, folded (see [`fold`]), and the canonical name each stands for.
const ALIASES: &[(&str, &str)] = &[
    // Okurigana left out or written differently.
    ("相振飛車", "相振り飛車"),
    ("相振", "相振り飛車"),
    ("振飛車", "振り飛車"),
    ("向飛車", "向かい飛車"),
    ("向い飛車", "向かい飛車"),
    ("陽動振飛車", "陽動振り飛車"),
    ("角換り", "角換わり"),
    ("角交換", "角換わり"),
    ("角換わり腰掛銀", "角換わり腰掛け銀"),
    ("角換り腰掛銀", "角換わり腰掛け銀"),
    ("角交換腰掛銀", "角換わり腰掛け銀"),
    ("角交換腰掛け銀", "角換わり腰掛け銀"),
    ("角換わり早繰銀", "角換わり早繰り銀"),
    ("角換り早繰銀", "角換わり早繰り銀"),
    ("角換り棒銀", "角換わり棒銀"),
    ("腰掛銀", "腰掛け銀"),
    ("早繰銀", "早繰り銀"),
    ("横歩取", "横歩取り"),
    ("相掛り", "相掛かり"),
    ("相懸かり", "相掛かり"),
    ("相懸り", "相掛かり"),
    ("右四間", "右四間飛車"),
    ("対振持久戦", "対振り持久戦"),
    ("対振急戦", "対振り急戦"),
    ("居飛穴", "居飛車穴熊"),
    ("イビアナ", "居飛車穴熊"),
    ("振り穴", "振り飛車穴熊"),
    ("振穴", "振り飛車穴熊"),
    ("振飛車穴熊", "振り飛車穴熊"),
    ("ごきげん中飛車", "ゴキゲン中飛車"),
    ("先手中飛車", "中飛車"),
    ("石田流本組", "石田流"),
    ("石田流三間飛車", "石田流"),
    ("天野矢倉", "片矢倉"),
    ("トーチカ", "ミレニアム囲い"),
    ("かまくら囲い", "ミレニアム囲い"),
    ("二枚金", "金無双"),
    ("中住居", "中住まい"),
    ("本美濃", "本美濃囲い"),
    ("美濃", "美濃囲い"),
    ("その他", "その他の戦型"),
    ("力戦形", "力戦"),
    ("力戦型", "力戦"),
    // Romanised values of CSA files ($OPENING), and English names.
    ("YAGURA", "矢倉"),
    ("KAKUGAWARI", "角換わり"),
    ("YOKOFUDORI", "横歩取り"),
    ("YOKOFUTORI", "横歩取り"),
    ("AIGAKARI", "相掛かり"),
    ("AIKAKARI", "相掛かり"),
    ("GANGI", "雁木"),
    ("NAKABISHA", "中飛車"),
    ("NAKAHISHA", "中飛車"),
    ("GOKIGENNAKABISHA", "ゴキゲン中飛車"),
    ("SHIKENBISHA", "四間飛車"),
    ("SHIKENHISHA", "四間飛車"),
    ("SANGENBISHA", "三間飛車"),
    ("SANKENBISHA", "三間飛車"),
    ("SANGENHISHA", "三間飛車"),
    ("ISHIDARYU", "石田流"),
    ("MUKAIBISHA", "向かい飛車"),
    ("MUKAIHISHA", "向かい飛車"),
    ("FURIBISHA", "振り飛車"),
    ("FURIHISHA", "振り飛車"),
    ("AIFURIBISHA", "相振り飛車"),
    ("AIFURIHISHA", "相振り飛車"),
    ("MIGISHIKENBISHA", "右四間飛車"),
    ("SODEBISHA", "袖飛車"),
    ("BOGIN", "棒銀"),
    ("RIKISEN", "力戦"),
    ("ANAGUMA", "穴熊"),
    ("MINO", "美濃囲い"),
    ("FORTRESS", "矢倉"),
    ("BISHOPEXCHANGE", "角換わり"),
    ("SIDEPAWNCAPTURE", "横歩取り"),
    ("DOUBLEWINGATTACK", "相掛かり"),
    ("CENTRALROOK", "中飛車"),
    ("FOURTHFILEROOK", "四間飛車"),
    ("THIRDFILEROOK", "三間飛車"),
    ("OPPOSINGROOK", "向かい飛車"),
    ("RANGINGROOK", "振り飛車"),
    ("DOUBLERANGINGROOK", "相振り飛車"),
    ("CLIMBINGSILVER", "棒銀"),
];

/// The name folded for comparison: NFKC-like width folding of ASCII letters and digits,
/// spaces, middle dots and hyphens dropped, ASCII letters upper-cased.
pub fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let c = match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        };
        if c.is_whitespace() || matches!(c, '・' | '-' | '_' | '　') {
            continue;
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// Every canonical name: the strategies and castles, then the game labels.
/// Every name kifudex can recognise: the strategies and castles, then the game labels.
pub fn canonical_names() -> impl Iterator<Item = &'static str> {
    DEFS.iter()
        .map(|d| d.name)
        .chain(LABELS.iter().map(|l| l.0))
}

fn exact(folded: &str) -> Option<&'static str> {
    // Every spelling folded once: the canonical names first, then the aliases.
    static FOLDED: std::sync::OnceLock<Vec<(String, &'static str)>> = std::sync::OnceLock::new();
    FOLDED
        .get_or_init(|| {
            canonical_names()
                .map(|n| (fold(n), n))
                .chain(ALIASES.iter().map(|a| (fold(a.0), a.1)))
                .collect()
        })
        .iter()
        .find(|(f, _)| f == folded)
        .map(|(_, n)| *n)
}

/// The canonical name `name` stands for, if kifudex knows it: `相振飛車` → `相振り飛車`,
/// `YAGURA` → `矢倉`, `片美濃` → `片美濃囲い`, `５筋位取り`… stays unknown (None).
pub fn canonical(name: &str) -> Option<&'static str> {
    let f = fold(name);
    if f.is_empty() {
        return None;
    }
    exact(&f)
        .or_else(|| exact(&format!("{f}囲い")))
        .or_else(|| f.strip_suffix("囲い").and_then(exact))
        .or_else(|| {
            f.strip_suffix("囲")
                .and_then(|s| exact(&format!("{s}囲い")))
        })
        // `角換わりその他`: another line of 角換わり.
        .or_else(|| {
            f.strip_suffix("その他")
                .filter(|s| !s.is_empty())
                .and_then(canonical)
        })
}

/// Whether a name or spelling kifudex knows begins with `c` (folded as [`fold`] folds it): a
/// quick test before looking up the text that follows (pattern search reads names out of a
/// query's running text).
pub fn begins_a_name(c: char) -> bool {
    static FIRST: std::sync::OnceLock<Vec<char>> = std::sync::OnceLock::new();
    let first = FIRST.get_or_init(|| {
        let mut v: Vec<char> = canonical_names()
            .chain(ALIASES.iter().map(|a| a.0))
            .filter_map(|n| fold(n).chars().next())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    });
    fold(&c.to_string())
        .chars()
        .next()
        .is_some_and(|f| first.binary_search(&f).is_ok())
}

/// The names a header value holds (several may be listed, separated by commas): each
/// canonical where known, else folded.
pub fn split_header(value: &str) -> Vec<String> {
    value
        .split([',', '、', '，', '/', '／'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| canonical(s).map(str::to_string).unwrap_or_else(|| fold(s)))
        .collect()
}

/// The parent of a canonical name in the hierarchy.
pub fn parent(name: &str) -> Option<&'static str> {
    DEFS.iter()
        .find(|d| d.name == name)
        .and_then(|d| d.parent)
        .or_else(|| LABELS.iter().find(|l| l.0 == name).and_then(|l| l.1))
}

/// The name and its ancestors, nearest first (empty for a name kifudex does not know).
pub fn lineage(name: &str) -> Vec<&'static str> {
    // Worked out once per name: readers expand every stored row through it.
    static LINES: std::sync::OnceLock<Vec<(&'static str, Vec<&'static str>)>> =
        std::sync::OnceLock::new();
    let lines = LINES.get_or_init(|| {
        canonical_names()
            .map(|name| {
                let mut out = Vec::new();
                let mut cur = name;
                loop {
                    out.push(cur);
                    match parent(cur) {
                        Some(p) if !out.contains(&p) => cur = p,
                        _ => break,
                    }
                }
                (name, out)
            })
            .collect()
    });
    lines
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, line)| line.clone())
        .unwrap_or_default()
}

/// The name and every name below it in the hierarchy.
pub fn descendants(name: &str) -> Vec<&'static str> {
    canonical_names()
        .filter(|n| lineage(n).contains(&name))
        .collect()
}

/// The family a name belongs to, for comparing labels: the ranging rook's file
/// (四間飛車 for 藤井システム), otherwise the top of its hierarchy (美濃囲い for 銀冠).
pub fn family(name: &str) -> &'static str {
    let line = lineage(name);
    match line.iter().position(|n| *n == "振り飛車") {
        Some(0) => "振り飛車",
        Some(i) => line[i - 1],
        None => line.last().copied().unwrap_or(OTHER),
    }
}

/// Whether a canonical name is a strategy or a castle (None for game labels).
pub fn kind_of(name: &str) -> Option<Kind> {
    DEFS.iter().find(|d| d.name == name).map(|d| d.kind)
}
