//! One table of spellings for opening, strategy and castle names, used for header values,
//! recognised names and queries alike; the hierarchy's questions (parent, family,
//! descendants) asked by name; and [`resolve`], which turns what a user typed into the name
//! it stands for.
//!
//! A name is folded first (full-width letters and digits to ASCII, spaces dropped, ASCII
//! upper case), then looked up: a canonical name, another spelling of one (each definition
//! lists its own: okurigana left out, romanised CSA values, English names), or either with
//! 囲い added or removed.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::patterns::{DEFS, Kind};

/// Per-game labels that are not a side's strategy.
pub const AI_FURIBISHA: &str = "相振り飛車";
pub const RIKISEN: &str = "力戦";
pub const OTHER: &str = "その他の戦型";

/// A game label that is not one side's name: its parent in the hierarchy, what it means,
/// and its other spellings.
pub struct Label {
    pub name: &'static str,
    pub parent: Option<&'static str>,
    pub about: &'static str,
    pub aliases: &'static [&'static str],
}

/// The game labels beyond the strategies. 力戦 (a 相居飛車 game without a named opening) is
/// one of the other openings; the pairs (相矢倉…) sit under the name both sides chose.
pub const LABELS: &[Label] = &[
    Label {
        name: AI_FURIBISHA,
        parent: Some("振り飛車"),
        about: "Both sides ranged their rooks in the opening.",
        aliases: &[
            "相振飛車",
            "相振",
            "AIFURIBISHA",
            "AIFURIHISHA",
            "DOUBLERANGINGROOK",
        ],
    },
    Label {
        name: "相中飛車",
        parent: Some(AI_FURIBISHA),
        about: "Both sides ranged their rooks to the centre file.",
        aliases: &[],
    },
    Label {
        name: "相四間飛車",
        parent: Some(AI_FURIBISHA),
        about: "Both sides ranged their rooks to their fourth file from the left.",
        aliases: &[],
    },
    Label {
        name: "相三間飛車",
        parent: Some(AI_FURIBISHA),
        about: "Both sides ranged their rooks to their third file from the left.",
        aliases: &[],
    },
    Label {
        name: "相向かい飛車",
        parent: Some(AI_FURIBISHA),
        about: "Both sides ranged their rooks to their eighth file.",
        aliases: &[],
    },
    Label {
        name: "相矢倉",
        parent: Some("矢倉"),
        about: "A 矢倉 game in which both sides built 矢倉.",
        aliases: &[],
    },
    Label {
        name: "相雁木",
        parent: Some("雁木"),
        about: "A 雁木 game in which both sides built 雁木.",
        aliases: &[],
    },
    Label {
        name: "角換わり相腰掛け銀",
        parent: Some("角換わり腰掛け銀"),
        about: "角換わり with both silvers sitting on 5六 (5四).",
        aliases: &["相腰掛け銀", "相腰掛銀"],
    },
    Label {
        name: "角換わり相早繰り銀",
        parent: Some("角換わり早繰り銀"),
        about: "角換わり with both sides running their silvers out by 早繰り銀.",
        aliases: &["相早繰り銀", "相早繰銀"],
    },
    Label {
        name: "角換わり相棒銀",
        parent: Some("角換わり棒銀"),
        about: "角換わり with both sides climbing their silvers up the rook's file.",
        aliases: &["相棒銀"],
    },
    Label {
        name: "新旧対抗",
        parent: Some("相掛かり"),
        about: "相掛かり with one rook drawn back home (引き飛車) and the other left up (浮き飛車).",
        aliases: &["新旧対抗型"],
    },
    Label {
        name: RIKISEN,
        parent: Some(OTHER),
        about: "A 相居飛車 game of more than twenty plies in which no opening was named.",
        aliases: &["力戦形", "力戦型", "RIKISEN"],
    },
    Label {
        name: OTHER,
        parent: None,
        about: "A game too short to name, or without the pieces to play a named opening.",
        aliases: &["その他"],
    },
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

/// Every name kifudex can recognise: the strategies and castles, then the game labels.
pub fn canonical_names() -> impl Iterator<Item = &'static str> {
    DEFS.iter()
        .map(|d| d.name)
        .chain(LABELS.iter().map(|l| l.name))
}

/// Every spelling, folded, with the name it stands for: the names themselves first.
fn spellings() -> &'static HashMap<String, &'static str> {
    static TABLE: OnceLock<HashMap<String, &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = HashMap::new();
        for n in canonical_names() {
            t.insert(fold(n), n);
        }
        let aliases = DEFS
            .iter()
            .flat_map(|d| d.aliases.iter().map(move |a| (*a, d.name)))
            .chain(
                LABELS
                    .iter()
                    .flat_map(|l| l.aliases.iter().map(move |a| (*a, l.name))),
            );
        for (a, n) in aliases {
            // A name's own spelling wins over another's alias.
            t.entry(fold(a)).or_insert(n);
        }
        t
    })
}

fn exact(folded: &str) -> Option<&'static str> {
    spellings().get(folded).copied()
}

/// The canonical name `name` stands for, if kifudex knows it: `相振飛車` → `相振り飛車`,
/// `YAGURA` → `矢倉`, `片美濃` → `片美濃囲い`, `５筋位取り` → `5筋位取り`; None otherwise.
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
    static FIRST: OnceLock<Vec<char>> = OnceLock::new();
    let first = FIRST.get_or_init(|| {
        let mut v: Vec<char> = spellings()
            .keys()
            .filter_map(|n| n.chars().next())
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

/// What a name typed by a user stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A known name.
    Name(&'static str),
    /// Nothing known: the caller matches the text against header values instead.
    Unknown,
}

/// The known name a user means by `text`, of `kind` when given (a castle, a strategy; game
/// labels are neither and resolve only without a kind):
/// - any spelling of a known name gives that name (`相振飛車` → 相振り飛車);
/// - a strategy's name asked as a castle gives its castle (`矢倉` → 矢倉囲い, `雁木` →
///   雁木囲い), and the family names stand for the family (`美濃` → 美濃囲い, every 美濃 below
///   it);
/// - the start of exactly one name gives that name (`四間` → 四間飛車); the start of several
///   names of one family gives the family's head (`石田` → 石田流, not 石田流本組み);
/// - anything else is [`Resolved::Unknown`].
pub fn resolve(text: &str, kind: Option<Kind>) -> Resolved {
    let fits = |n: &str| kind.is_none() || kind_of(n) == kind;
    let f = fold(text);
    if f.is_empty() {
        return Resolved::Unknown;
    }
    if let Some(n) = canonical(text) {
        if fits(n) {
            return Resolved::Name(n);
        }
        if let Some(c) = canonical(&format!("{n}囲い")).filter(|c| fits(c)) {
            return Resolved::Name(c);
        }
    }
    // The names one of whose spellings starts with the text.
    let mut starts: Vec<&'static str> = spellings()
        .iter()
        .filter(|(s, n)| s.starts_with(&f) && fits(n))
        .map(|(_, n)| *n)
        .collect();
    starts.sort_unstable();
    starts.dedup();
    match starts
        .iter()
        .find(|head| starts.iter().all(|n| lineage(n).contains(head)))
    {
        Some(head) => Resolved::Name(head),
        None => Resolved::Unknown,
    }
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
        .or_else(|| {
            LABELS
                .iter()
                .find(|l| l.name == name)
                .and_then(|l| l.parent)
        })
}

/// What a name means, in words (None for a name kifudex does not know).
pub fn about(name: &str) -> Option<&'static str> {
    DEFS.iter()
        .find(|d| d.name == name)
        .map(|d| d.about)
        .or_else(|| LABELS.iter().find(|l| l.name == name).map(|l| l.about))
}

/// The name and its ancestors, nearest first (empty for a name kifudex does not know).
pub fn lineage(name: &str) -> Vec<&'static str> {
    lineage_of(name).to_vec()
}

/// [`lineage`], borrowed: what readers expanding every stored name ask, without a copy.
pub fn lineage_of(name: &str) -> &'static [&'static str] {
    // Worked out once per name: readers expand every stored row through it.
    static LINES: OnceLock<HashMap<&'static str, Vec<&'static str>>> = OnceLock::new();
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
    lines.get(name).map_or(&[], Vec::as_slice)
}

/// The name and every name below it in the hierarchy.
pub fn descendants(name: &str) -> Vec<&'static str> {
    canonical_names()
        .filter(|n| lineage(n).contains(&name))
        .collect()
}

/// The family a name belongs to, for comparing labels: the ranging rook's file
/// (四間飛車 for 藤井システム, 相振り飛車 for 相三間飛車), otherwise the top of its hierarchy
/// (美濃囲い for 銀冠).
pub fn family(name: &str) -> &'static str {
    let line = lineage(name);
    match line.iter().position(|n| *n == "振り飛車") {
        Some(0) => "振り飛車",
        Some(i) => line[i - 1],
        None => line.last().copied().unwrap_or(OTHER),
    }
}

/// A name's place among the definitions (the game labels after them; `usize::MAX` for a
/// name kifudex does not know): the order of names of one ply and depth.
pub fn place(name: &str) -> usize {
    static PLACES: OnceLock<HashMap<&'static str, usize>> = OnceLock::new();
    let places =
        PLACES.get_or_init(|| canonical_names().enumerate().map(|(i, n)| (n, i)).collect());
    places.get(name).copied().unwrap_or(usize::MAX)
}

/// Whether a canonical name is a strategy or a castle (None for game labels).
pub fn kind_of(name: &str) -> Option<Kind> {
    DEFS.iter().find(|d| d.name == name).map(|d| d.kind)
}
