//! The `headers` and `comments` columns of a game: how a record's headers and comments are
//! kept as text, and read back.

use crate::store::StoreError;
use kifudex_notation::Record;

/// Comments as the `comments` column holds them: a JSON array of `[ply, kind, text]`, or
/// `None` for none.
pub(in crate::store) fn encode_comments(comments: &[(u32, u8, String)]) -> Option<String> {
    (!comments.is_empty()).then(|| serde_json::to_string(comments).expect("plain values"))
}

/// The comments of a `comments` column value.
pub(in crate::store) fn decode_comments(
    id: i64,
    json: Option<&str>,
) -> Result<Vec<(u32, u8, String)>, StoreError> {
    match json {
        None => Ok(Vec::new()),
        Some(j) => {
            serde_json::from_str(j).map_err(|e| StoreError::Corrupt(id, format!("comments: {e}")))
        }
    }
}

/// The columns a game's headers were read into ([`Record::sente`] and the like), for
/// [`encode_headers`] and [`decode_headers`].
#[derive(Debug, Default, Clone, Copy)]
pub struct HeaderColumns<'a> {
    pub sente: Option<&'a str>,
    pub gote: Option<&'a str>,
    pub event: Option<&'a str>,
    pub opening: Option<&'a str>,
    pub title: Option<&'a str>,
    /// The `handicap` column (手合割).
    pub handicap: Option<&'a str>,
}

impl<'a> HeaderColumns<'a> {
    pub fn of(rec: &'a Record) -> HeaderColumns<'a> {
        HeaderColumns {
            sente: rec.sente(),
            gote: rec.gote(),
            event: rec.event(),
            opening: rec.opening(),
            title: rec.title(),
            handicap: Some(rec.handicap().kif_name()),
        }
    }

    /// The column a header with this key would be read into, and its value.
    fn value_for(&self, key: &str) -> Option<&'a str> {
        use kifudex_notation::{EVENT_KEYS, GOTE_KEYS, OPENING_KEYS, SENTE_KEYS, TITLE_KEYS};
        if SENTE_KEYS.contains(&key) {
            self.sente
        } else if GOTE_KEYS.contains(&key) {
            self.gote
        } else if EVENT_KEYS.contains(&key) {
            self.event
        } else if OPENING_KEYS.contains(&key) {
            self.opening
        } else if TITLE_KEYS.contains(&key) {
            self.title
        } else if key == "手合割" {
            self.handicap
        } else {
            None
        }
    }
}

/// A header value that is its column's value (the escapes never write `\=`).
const SAME_AS_COLUMN: &str = "\\=";

/// Header keys common enough to be stored as `\` and one letter (the escapes never write
/// these either). Append only: the letters are part of the stored format.
const KEY_CODES: [(&str, char); 16] = [
    ("開始日時", 'a'),
    ("終了日時", 'b'),
    ("棋戦", 'c'),
    ("戦型", 'd'),
    ("手合割", 'e'),
    ("先手", 'f'),
    ("後手", 'g'),
    ("場所", 'h'),
    ("持ち時間", 'i'),
    ("表題", 'j'),
    ("対局日", 'k'),
    ("先手省略名", 'l'),
    ("後手省略名", 'm'),
    ("消費時間", 'o'),
    ("下手", 'p'),
    ("上手", 'q'),
];

/// Headers as the `headers` column holds them: `key<TAB>value` lines, with `\\`, `\t` and
/// `\n` standing for a backslash, a tab and a newline. A value that is word for word the one
/// in the column it was read into (`event`, `opening`, `title`, `handicap`, or the player's
/// name) is written `\=` instead of twice, and the commonest keys as a code ([`KEY_CODES`]).
pub(in crate::store) fn encode_headers(
    headers: &[(String, String)],
    columns: HeaderColumns<'_>,
) -> Option<String> {
    if headers.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(headers.len() * 24);
    let put = |out: &mut String, s: &str| {
        for c in s.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\t' => out.push_str("\\t"),
                '\n' => out.push_str("\\n"),
                c => out.push(c),
            }
        }
    };
    for (i, (k, v)) in headers.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match KEY_CODES.iter().find(|(key, _)| key == k) {
            Some(&(_, code)) => {
                out.push('\\');
                out.push(code);
            }
            None => put(&mut out, k),
        }
        out.push('\t');
        if columns.value_for(k) == Some(v.as_str()) {
            out.push_str(SAME_AS_COLUMN);
        } else {
            put(&mut out, v);
        }
    }
    Some(out)
}

/// The headers of an [`encode_headers`] text, with the values of the game's columns.
pub(in crate::store) fn decode_headers(
    text: &str,
    columns: HeaderColumns<'_>,
) -> Vec<(String, String)> {
    let unescape = |s: &str| {
        let mut out = String::with_capacity(s.len());
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some(c) => out.push(c),
                None => out.push('\\'),
            }
        }
        out
    };
    text.split('\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (k, v) = l.split_once('\t').unwrap_or((l, ""));
            let code = k.strip_prefix('\\').and_then(|c| {
                let mut chars = c.chars();
                let code = chars.next()?;
                chars.next().is_none().then_some(code)
            });
            let key = match KEY_CODES.iter().find(|(_, c)| Some(*c) == code) {
                Some((key, _)) => key.to_string(),
                None => unescape(k),
            };
            let value = match v {
                SAME_AS_COLUMN => columns.value_for(&key).unwrap_or_default().to_string(),
                _ => unescape(v),
            };
            (key, value)
        })
        .collect()
}
