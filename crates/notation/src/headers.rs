//! Header keys in each format's own words: the one table of the facts that KIF, CSA and PSN
//! all name (players, event, site, dates, time control, opening, handicap), which every
//! writer consults so that a game read in one format is written with the keys of another.
//! JKF uses KIF's keys. A key the table does not know is kept as it is (CSA gives it its `$`,
//! KIF and PSN drop a CSA key's `$`, JKF keeps it: a JSON key can be anything).

use std::borrow::Cow;

/// Whose words a header key is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyStyle {
    /// KIF and KI2.
    Kif,
    /// JKF: KIF's keys for the facts of the table, any other key exactly as read.
    Jkf,
    /// CSA: `N+`, `N-`, `$EVENT`…
    Csa,
    /// PSN tags: `Sente`, `Event`, `Date`…
    Psn,
}

/// One fact and its key in each format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct KeyRow {
    /// The KIF key, written for the fact.
    pub kif: &'static str,
    /// The KIF key of a handicap game (下手, 上手), when it has another.
    pub kif_handicap: Option<&'static str>,
    /// Other KIF keys for the same fact, kept as they are when KIF is written (対局日).
    pub kif_also: &'static [&'static str],
    /// The CSA key, `None` when CSA says the fact otherwise (the start position: `PI`).
    pub csa: Option<&'static str>,
    /// The PSN tag.
    pub psn: &'static str,
    /// Other spellings met in the wild (JKF files converted from CSA, PGN habits), read as
    /// this fact and never written.
    pub other: &'static [&'static str],
}

/// The facts every format names, KIF keys first.
pub const KEY_TABLE: [KeyRow; 9] = [
    KeyRow {
        kif: "先手",
        kif_handicap: Some("下手"),
        kif_also: &[],
        csa: Some("N+"),
        psn: "Sente",
        other: &["Black"],
    },
    KeyRow {
        kif: "後手",
        kif_handicap: Some("上手"),
        kif_also: &[],
        csa: Some("N-"),
        psn: "Gote",
        other: &["White"],
    },
    KeyRow {
        kif: "開始日時",
        kif_handicap: None,
        kif_also: &["対局日"],
        csa: Some("$START_TIME"),
        psn: "Date",
        other: &["START_TIME"],
    },
    KeyRow {
        kif: "終了日時",
        kif_handicap: None,
        kif_also: &[],
        csa: Some("$END_TIME"),
        psn: "EndDate",
        other: &["END_TIME"],
    },
    KeyRow {
        kif: "棋戦",
        kif_handicap: None,
        kif_also: &[],
        csa: Some("$EVENT"),
        psn: "Event",
        other: &["EVENT"],
    },
    KeyRow {
        kif: "場所",
        kif_handicap: None,
        kif_also: &[],
        csa: Some("$SITE"),
        psn: "Site",
        other: &["SITE"],
    },
    KeyRow {
        kif: "持ち時間",
        kif_handicap: None,
        kif_also: &[],
        csa: Some("$TIME_LIMIT"),
        psn: "TimeControl",
        other: &["TIME_LIMIT", "$TIME", "TIME"],
    },
    KeyRow {
        kif: "戦型",
        kif_handicap: None,
        kif_also: &[],
        csa: Some("$OPENING"),
        psn: "Opening",
        other: &["OPENING"],
    },
    KeyRow {
        kif: "手合割",
        kif_handicap: None,
        kif_also: &[],
        csa: None,
        psn: "Handicap",
        other: &[],
    },
];

/// Keys that give the start position as a SFEN: PSN writes them itself, KIF and CSA say the
/// start with their own board (a 手合割 line, a diagram, `PI` or `P1`…`P9`).
const SFEN_KEYS: [&str; 2] = ["SFEN", "FEN"];

impl KeyRow {
    /// Whether `key` names this row's fact in any format.
    fn names(&self, key: &str) -> bool {
        key == self.kif
            || self.kif_handicap == Some(key)
            || self.kif_also.contains(&key)
            || self.csa == Some(key)
            || key == self.psn
            || self.other.contains(&key)
    }

    /// Whether `key` is one of this row's KIF keys.
    fn is_kif(&self, key: &str) -> bool {
        key == self.kif || self.kif_handicap == Some(key) || self.kif_also.contains(&key)
    }
}

/// The row of the fact `key` names, if the table has it.
pub fn key_row(key: &str) -> Option<&'static KeyRow> {
    KEY_TABLE.iter().find(|r| r.names(key))
}

/// Whether `key` gives the start position as a SFEN (PSN's `SFEN` and `FEN` tags).
pub fn is_sfen_key(key: &str) -> bool {
    SFEN_KEYS.iter().any(|k| k.eq_ignore_ascii_case(key))
}

/// The key under which a header read as `key` (in any format) is written in `style`, or
/// `None` when that format says the fact otherwise (CSA's start position, a SFEN tag outside
/// PSN). `handicap`: the game starts from a handicap, where KIF names the players 下手/上手.
/// A key the table does not know is kept as it is; CSA writes it `$key`, KIF and PSN
/// drop the `$` of a CSA key, and JKF keeps it.
pub fn key_for(key: &str, style: KeyStyle, handicap: bool) -> Option<Cow<'_, str>> {
    if is_sfen_key(key) {
        return (style == KeyStyle::Psn).then_some(Cow::Borrowed(key));
    }
    // CSA's own keys stay as they are: every `$KEY` is one.
    if style == KeyStyle::Csa && (key.starts_with('$') || key == "N+" || key == "N-") {
        return Some(Cow::Borrowed(key));
    }
    if let Some(row) = key_row(key) {
        return match style {
            KeyStyle::Kif | KeyStyle::Jkf if row.is_kif(key) => Some(Cow::Borrowed(key)),
            KeyStyle::Kif | KeyStyle::Jkf => Some(Cow::Borrowed(match row.kif_handicap {
                Some(h) if handicap => h,
                _ => row.kif,
            })),
            KeyStyle::Csa => row.csa.map(Cow::Borrowed),
            KeyStyle::Psn => Some(Cow::Borrowed(row.psn)),
        };
    }
    Some(own_key(key, style))
}

/// `key` kept as it is in `style`: with a `$` in CSA, without it elsewhere.
fn own_key(key: &str, style: KeyStyle) -> Cow<'_, str> {
    match style {
        KeyStyle::Csa if key.starts_with('$') => Cow::Borrowed(key),
        KeyStyle::Csa => Cow::Owned(format!("${key}")),
        KeyStyle::Jkf => Cow::Borrowed(key),
        // The `$` goes only where the rest still reads back as a key: `$  5 投了：…` without
        // it would be a move line.
        KeyStyle::Kif | KeyStyle::Psn => Cow::Borrowed(match key.strip_prefix('$') {
            Some(k) if stands_as_key(k) => k,
            _ => key,
        }),
    }
}

/// Whether `k` written as a KIF header line's key reads back as that key: not blank, no
/// space at its ends or colon in it, and not the start of another kind of line (a move's
/// number, a comment, a board row, the move list's head, a variation).
fn stands_as_key(k: &str) -> bool {
    const OTHER_LINES: [&str; 9] = ["*", "&", "#", "+", "|", "｜", "手数＝", "手数----", "変化"];
    !k.is_empty()
        && k.trim() == k
        && !k.contains([':', '：'])
        && !k.starts_with(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c))
        && (!k.starts_with("手数") || !k.contains("指手"))
        && !OTHER_LINES.iter().any(|p| k.starts_with(p))
}

/// The keys of `headers` in `style`, one per header ([`key_for`]), never the same fact's key
/// for two different keys: when two headers name one fact (対局日 and 開始日時), the one
/// under the fact's main key in some format takes the target's key and the other keeps its
/// own, so that both come back. Headers read under one key (two `N+` lines) all keep the
/// target's key, as they were read.
pub fn keys_for(
    headers: &[(String, String)],
    style: KeyStyle,
    handicap: bool,
) -> Vec<Option<Cow<'_, str>>> {
    let mut keys: Vec<Option<Cow<'_, str>>> = headers
        .iter()
        .map(|(k, _)| key_for(k, style, handicap))
        .collect();
    let main = |key: &str| {
        key_row(key).is_some_and(|r| {
            key == r.kif || r.kif_handicap == Some(key) || r.csa == Some(key) || key == r.psn
        })
    };
    for i in 0..keys.len() {
        let Some(k) = keys[i].clone() else { continue };
        let same: Vec<usize> = (0..keys.len())
            .filter(|&j| j != i && keys[j].as_deref() == Some(&*k))
            .collect();
        if same.is_empty() || key_row(&headers[i].0).is_none() {
            continue;
        }
        // The header that keeps the target's key: the first under a main key, else the first.
        let keeper = std::iter::once(i)
            .chain(same.iter().copied())
            .filter(|&j| main(&headers[j].0))
            .min()
            .unwrap_or_else(|| i.min(same[0]));
        if keeper != i && headers[keeper].0 != headers[i].0 {
            keys[i] = Some(own_key(&headers[i].0, style));
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_key_names_two_facts() {
        let mut keys: Vec<&str> = Vec::new();
        for r in &KEY_TABLE {
            keys.push(r.kif);
            keys.extend(r.kif_handicap);
            keys.extend(r.kif_also);
            keys.extend(r.csa);
            keys.push(r.psn);
            keys.extend(r.other);
        }
        let n = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }
}
