//! How a game is stored: a [`GameRow`] made from a [`Record`] (compact move list, times,
//! fingerprint, the fields search uses), and the way back from a stored row to a `Record`.
//!
//! `moves`: 2 bytes little-endian per main-line move ([`Move::to_u16`]).
//! `times`: a flags byte, then per move the time spent in milliseconds + 1 as a LEB128
//! varint (0: no time); with flag [`TOTALS`], each followed by the mover's total in
//! milliseconds + 1; with flag [`TERMINAL`], one more entry for the terminal. Without
//! [`TOTALS`], totals are the running sum of each side's times (flag [`RUNNING`]) or absent.
//! With flag [`SECONDS`] (every time a whole number of seconds), the unit is the second.
//! `start_sfen` is NULL when the start is a named handicap's own position (see `handicap`).

use crate::classify::Recognised;
use crate::normalize::{name_key, strip_titles};
use crate::notation::kif::read_kif;
use crate::notation::{Format, Line, MoveNode, MoveTime, Note, Record, Terminal, TerminalKind};
use crate::shogi::{Handicap, Move, Position, Strictness};

use super::{StoreError, postings, tree};

/// Kinds of rows of the comments table.
pub const COMMENT: u8 = 0;
pub const ENGINE: u8 = 1;
pub const REMARK: u8 = 2;

const TOTALS: u8 = 1;
const TERMINAL: u8 = 2;
const RUNNING: u8 = 4;
const SECONDS: u8 = 8;

/// One game ready to be written: everything the tables hold.
#[derive(Debug, Clone)]
pub struct GameRow {
    pub format: &'static str,
    /// `None` when the start is the handicap's own position.
    pub start_sfen: Option<String>,
    pub moves: Vec<u8>,
    pub times: Option<Vec<u8>>,
    pub plies: u32,
    pub handicap: &'static str,
    pub date: Option<String>,
    pub event: Option<String>,
    pub opening: Option<String>,
    pub title: Option<String>,
    pub sente: Option<String>,
    pub gote: Option<String>,
    pub terminal: Option<&'static str>,
    pub winner: Option<&'static str>,
    pub illegal: Option<(u32, &'static str)>,
    /// The main line stops at a move that could not be applied.
    pub incomplete: bool,
    /// Variations and bookmarks ([`tree`]), when the record has any.
    pub tree: Option<Vec<u8>>,
    pub fingerprint: [u8; 16],
    pub headers: Vec<(String, String)>,
    /// `headers` as the column holds them ([`encode_headers`]).
    pub headers_text: Option<String>,
    /// Main-line comments, engine lines and file remarks: (ply, kind, text), ply 0 the start,
    /// plies + 1 the terminal; kind [`COMMENT`], [`ENGINE`] or [`REMARK`].
    pub comments: Vec<(u32, u8, String)>,
    /// `comments` as the column holds them: a JSON array of `[ply, kind, text]`.
    pub comments_json: Option<String>,
    /// The position postings of the main line, [`postings::pack`]ed: the start and the
    /// position after every move, each with the move played from it.
    pub positions: Vec<u64>,
    /// The opening, strategies and castles recognised from the main line; `None` when not
    /// computed (the game is then recognised by the next command that opens the database).
    pub recognised: Option<Recognised>,
}

impl GameRow {
    /// The row of a record, with the postings of its main line.
    pub fn new(rec: &Record, format: Format) -> GameRow {
        GameRow::with_positions(rec, format, false)
    }

    /// The row of a record, with the postings of its variations too when `variations`.
    pub fn with_positions(rec: &Record, format: Format, variations: bool) -> GameRow {
        let recognised = crate::classify::recognise_record(rec);
        let mut row = GameRow::from_record(rec.clone(), format, variations);
        row.recognised = Some(recognised);
        row
    }

    /// [`GameRow::with_positions`] of a record no longer needed: its headers and comments
    /// move into the row instead of being copied (what the importer does with every game).
    pub fn from_record(mut rec: Record, format: Format, variations: bool) -> GameRow {
        let date = rec.date();
        let plies = rec.main.moves.len() as u32;
        let own = |s: Option<&str>| s.map(str::to_string);
        // Each column's header is looked up once (a lookup trims every header it passes).
        let columns = HeaderColumns::of(&rec);
        let handicap = rec.handicap();
        // detect() compares board, hands and side to move; the move number is the last
        // thing that could differ.
        let start_sfen = (handicap == Handicap::Other || rec.start.move_number() != 1)
            .then(|| rec.start.to_sfen());
        let mut row = GameRow {
            format: format.name(),
            start_sfen,
            moves: encode_moves(&rec.main.moves),
            times: encode_times(&rec.main),
            plies,
            handicap: handicap.kif_name(),
            event: own(columns.event),
            opening: own(columns.opening),
            title: own(columns.title),
            sente: own(columns.sente),
            gote: own(columns.gote),
            terminal: rec.terminal().map(TerminalKind::code),
            winner: rec.result().code(),
            illegal: rec
                .first_illegal()
                .map(|(ply, rule)| (ply as u32, rule.code())),
            incomplete: rec.incomplete,
            tree: tree::encode(&rec),
            fingerprint: fingerprint(&rec, date.as_deref()),
            date,
            headers: Vec::new(),
            headers_text: encode_headers(&rec.headers, columns),
            comments_json: None,
            comments: Vec::new(),
            positions: positions(&rec, variations),
            recognised: None,
        };
        // Everything above that reads the headers and comments is done: they move.
        let mut comments: Vec<(u32, u8, String)> = Vec::new();
        let mut add = |ply: u32, kind: u8, texts: &mut Vec<String>| {
            // Most moves have none: the test costs less than an empty drain.
            if !texts.is_empty() {
                comments.extend(std::mem::take(texts).into_iter().map(|c| (ply, kind, c)));
            }
        };
        add(0, COMMENT, &mut rec.start_comments);
        add(0, ENGINE, &mut rec.start_engine);
        for (i, node) in rec.main.moves.iter_mut().enumerate() {
            add(i as u32 + 1, COMMENT, &mut node.comments);
            add(i as u32 + 1, ENGINE, &mut node.engine);
        }
        if let Some(t) = &mut rec.main.terminal {
            add(plies + 1, COMMENT, &mut t.comments);
        }
        for note in rec.notes.drain(..) {
            comments.push((note.after as u32, REMARK, note.text));
        }
        row.comments_json = encode_comments(&comments);
        row.comments = comments;
        row.headers = std::mem::take(&mut rec.headers);
        row
    }
}

/// Replays the main line (and with `variations` every variation; a variation's first
/// position is its branch point, with the variation's move): one posting per position, the
/// start included.
pub(super) fn positions(rec: &Record, variations: bool) -> Vec<u64> {
    if !variations {
        let moves = rec.main.moves.iter().map(|n| n.mv);
        return line_positions(&rec.start, moves);
    }
    let mut out = Vec::with_capacity(rec.main.moves.len() + 1);
    walk_line(&rec.main, &rec.start, variations, &mut out);
    out
}

/// The postings of a main line without its record: one per position, the start included.
pub(super) fn line_positions(
    start: &Position,
    moves: impl ExactSizeIterator<Item = Move>,
) -> Vec<u64> {
    let mut out = Vec::with_capacity(moves.len() + 1);
    start.board_hashes(moves, |hash, next| {
        out.push(postings::pack_hash(hash, next));
    });
    out
}

fn walk_line(line: &Line, start: &Position, variations: bool, out: &mut Vec<u64>) {
    let mut pos = start.clone();
    for node in &line.moves {
        out.push(postings::pack(&pos, Some(node.mv)));
        if variations {
            for v in &node.variations {
                walk_line(v, &pos, true, out);
            }
        }
        pos.apply(node.mv);
    }
    out.push(postings::pack(&pos, None));
}

/// A stored `tree` column.
pub(super) enum StoredTree {
    /// A whole record as KIF: TEXT (schema 2) or raw-deflated KIF (schema 3's first
    /// version).
    Kif(String),
    /// Variations and bookmarks in [`tree`]'s binary form.
    Binary(Vec<u8>),
}

/// Reads a `tree` column value.
pub(super) fn stored_tree(
    id: i64,
    value: rusqlite::types::ValueRef<'_>,
) -> Result<Option<StoredTree>, StoreError> {
    use rusqlite::types::ValueRef;
    let corrupt = |why: &str| StoreError::Corrupt(id, format!("tree: {why}"));
    match value {
        ValueRef::Null => Ok(None),
        ValueRef::Text(t) => Ok(Some(StoredTree::Kif(
            String::from_utf8(t.to_vec()).map_err(|_| corrupt("not UTF-8"))?,
        ))),
        ValueRef::Blob(b) if b.first() == Some(&tree::MARKER) => {
            Ok(Some(StoredTree::Binary(b.to_vec())))
        }
        ValueRef::Blob(b) => {
            use std::io::Read;
            let mut text = String::with_capacity(b.len() * 5);
            flate2::read::DeflateDecoder::new(b)
                .read_to_string(&mut text)
                .map_err(|_| corrupt("cannot be inflated"))?;
            Ok(Some(StoredTree::Kif(text)))
        }
        _ => Err(corrupt("neither text nor a blob")),
    }
}

/// The postings of a stored game with its variations: its main line with the tree's
/// variations grafted on, or the KIF record an older schema stored.
pub(super) fn tree_positions(
    id: i64,
    start: Position,
    moves: Vec<Move>,
    stored: StoredTree,
) -> Result<Vec<u64>, StoreError> {
    let rec = match stored {
        StoredTree::Kif(kif) => read_kif(&kif),
        StoredTree::Binary(blob) => {
            let mut rec = Record {
                start,
                ..Record::default()
            };
            rec.main.moves = moves.into_iter().map(MoveNode::new).collect();
            tree::graft(&mut rec, &blob)
                .map_err(|e| StoreError::Corrupt(id, format!("tree: {e}")))?;
            rec
        }
    };
    Ok(positions(&rec, true))
}

/// 16 bytes identifying a game: its start position, main line, terminal, date and time of
/// day (when the record gives one), both players and the event, names normalised (width,
/// spaces, titles and ranks). The same game read from a KIF and a CSA file has the same
/// fingerprint; two games that differ in any of these do not (short or aborted online games
/// often share moves and date).
pub fn fingerprint(rec: &Record, date: Option<&str>) -> [u8; 16] {
    GameKey {
        start: rec.start.hash(),
        moves: rec.main.moves.iter().map(|n| n.mv.to_u16()),
        terminal: rec.terminal().map(TerminalKind::code),
        date,
        start_time: rec.start_time(),
        sente: rec.sente(),
        gote: rec.gote(),
        event: rec.event(),
    }
    .fingerprint()
}

/// What a game's fingerprint is made of (see [`fingerprint`]).
pub(super) struct GameKey<'a, M: Iterator<Item = u16>> {
    pub start: u64,
    pub moves: M,
    pub terminal: Option<&'a str>,
    pub date: Option<&'a str>,
    /// The start time as the record gives it: only its time of day (`10:00`) is used.
    pub start_time: Option<&'a str>,
    pub sente: Option<&'a str>,
    pub gote: Option<&'a str>,
    pub event: Option<&'a str>,
}

impl<M: Iterator<Item = u16>> GameKey<'_, M> {
    pub fn fingerprint(self) -> [u8; 16] {
        let mut a: u64 = self.start ^ 0x9E37_79B9_7F4A_7C15;
        let mut b: u64 = self.start.rotate_left(29) ^ 0xD1B5_4A32_D192_ED03;
        let mut feed = |x: u64| {
            a = (a ^ x).wrapping_mul(0x0000_0100_0000_01B3).rotate_left(23);
            b = (b ^ x.rotate_left(17)).wrapping_mul(0xFF51_AFD7_ED55_8CCD) ^ (b >> 31);
        };
        for mv in self.moves {
            feed(mv as u64);
        }
        // Each part after its own tag, so that no part can pass for another.
        let mut text = |tag: u64, s: &str| {
            feed(tag << 32);
            for byte in s.bytes() {
                feed((tag << 32) + 0x100 + byte as u64);
            }
        };
        text(1, self.terminal.unwrap_or(""));
        text(2, self.date.unwrap_or(""));
        text(
            3,
            &self.start_time.and_then(time_of_day).unwrap_or_default(),
        );
        let name = |n: Option<&str>| n.map(|n| strip_titles(&name_key(n))).unwrap_or_default();
        text(4, &name(self.sente));
        text(5, &name(self.gote));
        text(6, &self.event.map(name_key).unwrap_or_default());
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&mix(a).to_le_bytes());
        out[8..].copy_from_slice(&mix(b ^ a.rotate_left(7)).to_le_bytes());
        out
    }
}

/// The time of day in a start time (`2024/01/15 9:05:30` → `09:05`), seconds left out (not
/// every writer gives them).
fn time_of_day(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let colon = (1..b.len()).find(|&i| {
        b[i] == b':' && b[i - 1].is_ascii_digit() && b.get(i + 1).is_some_and(u8::is_ascii_digit)
    })?;
    let hour_start = (0..colon)
        .rev()
        .take_while(|&i| b[i].is_ascii_digit())
        .last()?;
    let hour: u32 = s[hour_start..colon].parse().ok()?;
    let minute: u32 = s[colon + 1..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .take(2)
        .fold(0, |n, d| n * 10 + u32::from(d - b'0'));
    Some(format!("{hour:02}:{minute:02}"))
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

fn encode_moves(moves: &[MoveNode]) -> Vec<u8> {
    let mut out = Vec::with_capacity(moves.len() * 2);
    for node in moves {
        out.extend_from_slice(&node.mv.to_u16().to_le_bytes());
    }
    out
}

/// The moves of a stored `moves` blob.
pub(super) fn decode_moves(blob: &[u8]) -> Option<Vec<Move>> {
    if !blob.len().is_multiple_of(2) {
        return None;
    }
    blob.chunks_exact(2)
        .map(|c| Move::from_u16(u16::from_le_bytes([c[0], c[1]])))
        .collect()
}

/// The longest time stored, in milliseconds (about 285,000 years): sums and `+ 1` of the
/// encodings stay far from overflowing whatever a record claims.
const MAX_MS: u64 = 1 << 53;

/// Whole milliseconds, rounded half away from zero; 0 for negatives and NaN, at most
/// [`MAX_MS`]. (`f64::round` is a library call on x86-64 without SSE4.1; this is not.)
pub(super) fn ms(seconds: f64) -> u64 {
    let x = seconds * 1000.0;
    let whole = x as u64;
    // Exact: a double minus its own truncation loses nothing.
    let rounded = if x - whole as f64 >= 0.5 {
        whole.saturating_add(1)
    } else {
        whole
    };
    rounded.min(MAX_MS)
}

fn encode_times(line: &Line) -> Option<Vec<u8>> {
    let terminal = line.terminal.as_ref().and_then(|t| t.time);
    if terminal.is_none() && line.moves.iter().all(|m| m.time.is_none()) {
        return None;
    }
    // Milliseconds spent and total, converted once.
    let times: Vec<Option<(u64, Option<u64>)>> = line
        .moves
        .iter()
        .map(|m| m.time)
        .chain(terminal.map(Some))
        .map(|t| t.map(|t| (ms(t.spent), t.total.map(ms))))
        .collect();
    let has_totals = times.iter().flatten().any(|t| t.1.is_some());
    let running = has_totals && totals_are_running(&times);
    let mut flags = 0;
    if has_totals && !running {
        flags |= TOTALS;
    }
    if running {
        flags |= RUNNING;
    }
    if terminal.is_some() {
        flags |= TERMINAL;
    }
    let whole = |ms: u64| ms.is_multiple_of(1000);
    let unit = if times
        .iter()
        .flatten()
        .all(|t| whole(t.0) && (flags & TOTALS == 0 || t.1.is_none_or(whole)))
    {
        flags |= SECONDS;
        1000
    } else {
        1
    };
    let mut out = Vec::with_capacity(times.len() + 1);
    out.push(flags);
    for t in &times {
        put_varint(&mut out, t.map_or(0, |t| t.0 / unit + 1));
        if flags & TOTALS != 0 {
            put_varint(&mut out, t.and_then(|t| t.1).map_or(0, |ms| ms / unit + 1));
        }
    }
    Some(out)
}

/// Are the totals, on every move that has a time, each side's running sum?
fn totals_are_running(times: &[Option<(u64, Option<u64>)>]) -> bool {
    let mut sums = [0u64; 2];
    for (i, t) in times.iter().enumerate() {
        let Some((spent, total)) = t else {
            return false;
        };
        sums[i % 2] += spent;
        if *total != Some(sums[i % 2]) {
            return false;
        }
    }
    true
}

/// An unsigned LEB128 varint (also used by the position blocks).
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub(crate) fn get_varint(bytes: &mut &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let (&b, rest) = bytes.split_first()?;
        *bytes = rest;
        v |= ((b & 0x7F) as u64) << shift;
        if b < 0x80 {
            return Some(v);
        }
    }
    None
}

/// Times of `count` moves (and the terminal's, when stored).
fn decode_times(blob: &[u8], count: usize) -> Option<(Vec<Option<MoveTime>>, Option<MoveTime>)> {
    let (&flags, mut rest) = blob.split_first()?;
    let unit = if flags & SECONDS != 0 { 1.0 } else { 1000.0 };
    let entries = count + usize::from(flags & TERMINAL != 0);
    let mut out = Vec::with_capacity(entries);
    let mut sums = [0u64; 2];
    for i in 0..entries {
        let spent = get_varint(&mut rest)?;
        let total = if flags & TOTALS != 0 {
            get_varint(&mut rest)?
        } else {
            0
        };
        if spent == 0 {
            out.push(None);
            continue;
        }
        sums[i % 2] = sums[i % 2].checked_add(spent - 1)?;
        let total = if flags & TOTALS != 0 {
            total.checked_sub(1).map(|t| t as f64 / unit)
        } else if flags & RUNNING != 0 {
            Some(sums[i % 2] as f64 / unit)
        } else {
            None
        };
        out.push(Some(MoveTime {
            spent: (spent - 1) as f64 / unit,
            total,
        }));
    }
    if !rest.is_empty() {
        return None;
    }
    let terminal = if flags & TERMINAL != 0 {
        out.pop().flatten()
    } else {
        None
    };
    Some((out, terminal))
}

/// A stored game's columns, as read back.
pub(super) struct StoredColumns {
    pub id: i64,
    pub start_sfen: Option<String>,
    pub handicap: String,
    pub moves: Vec<u8>,
    pub times: Option<Vec<u8>>,
    pub terminal: Option<String>,
    pub tree: Option<StoredTree>,
    pub headers: Vec<(String, String)>,
    pub comments: Vec<(u32, u8, String)>,
}

/// Comments as the `comments` column holds them: a JSON array of `[ply, kind, text]`, or
/// `None` for none.
pub(super) fn encode_comments(comments: &[(u32, u8, String)]) -> Option<String> {
    (!comments.is_empty()).then(|| serde_json::to_string(comments).expect("plain values"))
}

/// The comments of a `comments` column value.
pub(super) fn decode_comments(
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
        use crate::notation::{EVENT_KEYS, GOTE_KEYS, OPENING_KEYS, SENTE_KEYS, TITLE_KEYS};
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
pub(super) fn encode_headers(
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
pub(super) fn decode_headers(text: &str, columns: HeaderColumns<'_>) -> Vec<(String, String)> {
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

/// The start position of a stored game.
pub(super) fn start_position(
    id: i64,
    start_sfen: Option<&str>,
    handicap: &str,
) -> Result<Position, StoreError> {
    let corrupt = |why: &str| StoreError::Corrupt(id, why.to_string());
    let sfen = match start_sfen {
        Some(s) => s.to_string(),
        None => Handicap::from_kif_name(handicap)
            .and_then(Handicap::sfen)
            .ok_or_else(|| corrupt("unknown handicap without a start position"))?
            .to_string(),
    };
    Position::from_sfen_with(&sfen, Strictness::PiecesOnly)
        .map_err(|e| corrupt(&format!("bad start position: {e}")))
}

/// A stored game's start position and main line, from its `start_sfen`, `handicap` and
/// `moves` columns.
pub(super) fn main_line(
    id: i64,
    start_sfen: Option<&str>,
    handicap: &str,
    moves: &[u8],
) -> Result<(Position, Vec<Move>), StoreError> {
    let start = start_position(id, start_sfen, handicap)?;
    let moves =
        decode_moves(moves).ok_or_else(|| StoreError::Corrupt(id, "bad move list".to_string()))?;
    Ok((start, moves))
}

/// Rebuilds the record a game was stored from.
pub(super) fn record_from(cols: StoredColumns) -> Result<Record, StoreError> {
    let corrupt = |why: &str| StoreError::Corrupt(cols.id, why.to_string());
    if let Some(StoredTree::Kif(tree)) = &cols.tree {
        let mut rec = read_kif(tree);
        rec.headers = cols.headers;
        rec.errors.clear();
        rec.notes = cols
            .comments
            .into_iter()
            .filter(|c| c.1 == REMARK)
            .map(|(after, _, text)| Note {
                after: after as usize,
                text,
            })
            .collect();
        return Ok(rec);
    }
    let start = start_position(cols.id, cols.start_sfen.as_deref(), &cols.handicap)?;
    let moves = decode_moves(&cols.moves).ok_or_else(|| corrupt("move list"))?;
    let (times, terminal_time) = match &cols.times {
        Some(blob) => decode_times(blob, moves.len()).ok_or_else(|| corrupt("times"))?,
        None => (vec![None; moves.len()], None),
    };
    let mut pos = start.clone();
    let mut line = Line::default();
    for (mv, time) in moves.into_iter().zip(times) {
        let violations = pos
            .play(mv)
            .map_err(|e| corrupt(&format!("move {}: {e}", mv.usi())))?;
        let mut node = MoveNode::new(mv);
        node.time = time;
        node.violations = violations;
        line.moves.push(node);
    }
    let plies = line.moves.len() as u32;
    let mut rec = Record {
        headers: cols.headers,
        start,
        ..Record::default()
    };
    let mut terminal_comments = Vec::new();
    for (ply, kind, text) in cols.comments {
        match (kind, ply) {
            (REMARK, after) => rec.notes.push(Note {
                after: after as usize,
                text,
            }),
            (ENGINE, 0) => rec.start_engine.push(text),
            (ENGINE, p) if p <= plies => line.moves[p as usize - 1].engine.push(text),
            (_, 0) => rec.start_comments.push(text),
            (_, p) if p <= plies => line.moves[p as usize - 1].comments.push(text),
            _ => terminal_comments.push(text),
        }
    }
    line.terminal = match &cols.terminal {
        Some(code) => Some(Terminal {
            kind: TerminalKind::from_code(code).ok_or_else(|| corrupt("terminal"))?,
            time: terminal_time,
            comments: terminal_comments,
        }),
        None => None,
    };
    rec.main = line;
    if let Some(StoredTree::Binary(blob)) = &cols.tree {
        tree::graft(&mut rec, blob).map_err(|e| corrupt(&format!("tree: {e}")))?;
    }
    Ok(rec)
}

/// What reading a game back makes of its columns as the writer wrote them (`row`), without a
/// database: for the `codecs` fuzz target and round-trip checks.
#[doc(hidden)]
pub fn read_back(row: &GameRow) -> Result<Record, StoreError> {
    let columns = HeaderColumns {
        sente: row.sente.as_deref(),
        gote: row.gote.as_deref(),
        event: row.event.as_deref(),
        opening: row.opening.as_deref(),
        title: row.title.as_deref(),
        handicap: Some(row.handicap),
    };
    read_columns(
        row.start_sfen.as_deref(),
        row.handicap,
        &row.moves,
        row.times.as_deref(),
        row.terminal,
        row.tree.as_deref(),
        row.headers_text.as_deref().map(|h| (h, columns)),
        row.comments_json.as_deref(),
    )
}

/// A game from column values, whatever they hold (a damaged row): an error, never a panic.
/// A `tree` value is read in the binary form the writer writes (the older deflated KIF forms
/// are left to the database's reader).
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
pub fn read_columns(
    start_sfen: Option<&str>,
    handicap: &str,
    moves: &[u8],
    times: Option<&[u8]>,
    terminal: Option<&str>,
    tree: Option<&[u8]>,
    headers: Option<(&str, HeaderColumns<'_>)>,
    comments: Option<&str>,
) -> Result<Record, StoreError> {
    record_from(StoredColumns {
        id: 0,
        start_sfen: start_sfen.map(str::to_string),
        handicap: handicap.to_string(),
        moves: moves.to_vec(),
        times: times.map(<[u8]>::to_vec),
        terminal: terminal.map(str::to_string),
        tree: tree.map(|b| StoredTree::Binary(b.to_vec())),
        headers: headers.map_or_else(Vec::new, |(h, c)| decode_headers(h, c)),
        comments: decode_comments(0, comments)?,
    })
}
