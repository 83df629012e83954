//! Game records: decoding, the record model, and one module per format for reading and
//! writing. Knows nothing of SQLite or tantivy.

#![doc = include_str!("../README.md")]

mod build;
pub mod csa;
pub mod dates;
pub mod decode;
pub mod headers;
pub mod japanese;
pub mod jkf;
pub mod kif;
pub mod movelist;
pub mod movetext;
pub mod normalize;
pub mod psn;
pub mod record;
pub mod synth;
pub mod usi;
pub mod write;

pub use decode::{Encoding, decode, decode_borrowed};
pub use record::{
    EVENT_KEYS, GOTE_KEYS, GameResult, Line, MAX_RECORD_MOVES, MAX_VARIATION_DEPTH, MoveNode,
    MoveTime, Note, OPENING_KEYS, ReadError, Record, SENTE_KEYS, Severity, TITLE_KEYS, Terminal,
    TerminalKind,
};

use std::path::Path;

/// A record format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Kif,
    Ki2,
    Csa,
    Jkf,
    Usi,
    Psn,
    /// A plain list of moves in any notation (see [`movelist`]).
    Moves,
}

impl Format {
    /// The name used in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Jkf => "jkf",
            Format::Usi => "usi",
            Format::Psn => "psn",
            Format::Moves => "moves",
        }
    }

    /// The format of a [`Format::name`].
    pub fn from_name(name: &str) -> Option<Format> {
        [
            Format::Kif,
            Format::Ki2,
            Format::Csa,
            Format::Jkf,
            Format::Usi,
            Format::Psn,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }

    /// The format the text is in, judged from its content first and the extension second.
    pub fn detect(text: &str, path: Option<&Path>) -> Option<Format> {
        let mut kif_moves = 0;
        let mut csa = 0;
        let mut ki2 = 0;
        let mut psn = 0;
        // JKF: a JSON object with a header or moves, however it is laid out.
        if text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('{')
            && (text.contains("\"header\"") || text.contains("\"moves\""))
        {
            return Some(Format::Jkf);
        }
        // The first 400 lines, one at a time: a long file is not split all through.
        for line in decode::Lines::new(text).take(400) {
            let t = trim_start(line);
            if t.is_empty() {
                continue;
            }
            if t.starts_with('{') && t.contains("\"header\"") {
                return Some(Format::Jkf);
            }
            if t.starts_with("sfen ") || t.starts_with("startpos") || t.starts_with("position ") {
                return Some(Format::Usi);
            }
            // KIF's move-list header (`手数----指手----…`) is KIF's alone: no need to read on.
            if t.starts_with("手数") && t.contains("指手") {
                return Some(Format::Kif);
            }
            // The first word, and what follows it (nothing, or a space first).
            let (first, after) = t.split_at(word_end(t));
            // A bare SFEN: nine ranks, then b or w.
            if first.bytes().filter(|&b| b == b'/').count() == 8
                && after
                    .split_whitespace()
                    .next()
                    .is_some_and(|w| w == "b" || w == "w")
            {
                return Some(Format::Usi);
            }
            // Only a tag pair or a numbered move (`1.P-7f`, `1. P-7f`) can look like PSN.
            let digits = first.bytes().take_while(u8::is_ascii_digit).count();
            if (t.starts_with('[') || digits > 0 && first[digits..].starts_with('.'))
                && psn::looks_like_psn(t)
            {
                // A tag pair is PSN's alone.
                if t.starts_with('[') {
                    return Some(Format::Psn);
                }
                psn += 1;
            }
            // A number, then another word.
            if first.parse::<u32>().is_ok() && !trim_start(after).is_empty() {
                kif_moves += 1;
            }
            if (t.starts_with('+') || t.starts_with('-'))
                && t.len() >= 7
                && t.as_bytes()[1..5].iter().all(u8::is_ascii_digit)
                || t.starts_with("PI")
                || t.starts_with("P1")
                || t.starts_with("V2")
                || t.starts_with("N+")
            {
                csa += 1;
            }
            if t.starts_with(['▲', '△', '☗', '☖']) {
                ki2 += 1;
            }
        }
        let ext = path
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if kif_moves > 0 && kif_moves >= csa {
            return Some(Format::Kif);
        }
        if csa > 0 {
            return Some(Format::Csa);
        }
        if ki2 > 0 {
            return Some(Format::Ki2);
        }
        if psn > 0 {
            return Some(Format::Psn);
        }
        match ext.as_deref() {
            Some("kif" | "kifu") => Some(Format::Kif),
            Some("ki2" | "ki2u") => Some(Format::Ki2),
            Some("csa") => Some(Format::Csa),
            Some("jkf" | "json") => Some(Format::Jkf),
            Some("usi" | "sfen") => Some(Format::Usi),
            Some("psn") => Some(Format::Psn),
            _ => None,
        }
    }
}

/// `s` without the whitespace at its start, as [`str::trim_start`] gives it, with the ASCII
/// whitespace of a line skipped byte by byte.
#[inline]
fn trim_start(s: &str) -> &str {
    let spaces = s
        .bytes()
        .take_while(|&b| matches!(b, b' ' | b'\t'..=b'\r'))
        .count();
    let rest = &s[spaces..];
    match rest.as_bytes().first() {
        Some(&b) if b >= 0x80 => rest.trim_start(),
        _ => rest,
    }
}

/// Where the first word of `s` ends: at its first whitespace character, or its end.
fn word_end(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(&x) = b.get(i) {
        match x {
            b' ' | b'\t'..=b'\r' => return i,
            ..0x80 => i += 1,
            // Only these lead bytes begin a whitespace character (U+0085, U+00A0, U+1680,
            // U+2000–U+205F, U+3000); the others are skipped whole.
            0xC2 | 0xE1 | 0xE2 | 0xE3 => match s.get(i..).and_then(|r| r.chars().next()) {
                Some(c) if c.is_whitespace() => return i,
                Some(c) => i += c.len_utf8(),
                None => return b.len(),
            },
            0xF0.. => i += 4,
            0xE0.. => i += 3,
            _ => i += 2,
        }
    }
    b.len()
}

/// A file read: its encoding, its format and its games.
#[derive(Debug, Clone)]
pub struct ReadFile {
    pub encoding: Encoding,
    pub format: Option<Format>,
    pub games: Vec<Record>,
    /// Why the file could not be read at all, when it could not.
    pub error: Option<String>,
}

/// Decodes and reads a file's bytes. `path` helps only to guess the format.
pub fn read_bytes(bytes: &[u8], path: Option<&Path>) -> ReadFile {
    let (text, encoding, cut) = decode::decode_cut(bytes);
    let mut file = read_text(&text, encoding, path);
    for g in &mut file.games {
        cap_text(g, &text);
    }
    // The end of the file belongs to its last game.
    if let Some(last) = file.games.last_mut() {
        cut_warning(last, &text, cut);
    }
    file
}

/// The error on a file's last game when its last bytes were a partial UTF-8 character.
fn cut_warning(last: &mut Record, text: &str, cut: usize) {
    if cut == 0 {
        return;
    }
    let (line, column) = decode::line_column(text, text.len());
    cut_warning_at(last, line, column, cut);
}

/// [`cut_warning`] at the file's end, `line` and `column`.
pub(crate) fn cut_warning_at(last: &mut Record, line: usize, column: usize, cut: usize) {
    last.errors.push(ReadError::new(
        line,
        column,
        format!(
            "the file ends inside a UTF-8 character (cut short?): its last {cut} byte{} are not read",
            if cut == 1 { "" } else { "s" }
        ),
    ));
}

/// [`read_bytes`], each game handed to `each` once read, in order, with the file's format
/// (KIF when none was recognised), instead of returned: the games of a CSA file (which may
/// hold 100,000) are not all held at once. The [`ReadFile`] returned holds no games.
pub fn read_bytes_each(
    bytes: &[u8],
    path: Option<&Path>,
    each: &mut dyn FnMut(Record, Format),
) -> ReadFile {
    let (text, encoding, cut) = decode::decode_cut(bytes);
    let format = Format::detect(&text, path);
    let one_by_one: Option<ReadEach> = match format {
        Some(Format::Usi) => Some(usi::read_usi_each),
        Some(Format::Psn) => Some(psn::read_psn_each),
        _ => None,
    };
    if let (Some(read), Some(f)) = (one_by_one, format)
        && let Some(file) = read_each_game(&text, encoding, cut, f, read, each)
    {
        return file;
    }
    if format != Some(Format::Csa) {
        let mut file = read_text(&text, encoding, path);
        if let Some(last) = file.games.last_mut() {
            cut_warning(last, &text, cut);
        }
        let f = file.format.unwrap_or(Format::Kif);
        file.games.drain(..).for_each(|mut g| {
            cap_text(&mut g, &text);
            each(g, f)
        });
        return file;
    }
    // One game is held back, for the error a cut end puts on the last one.
    let mut held: Option<Record> = None;
    let mut count = 0;
    csa::read_csa_each(&text, &mut |mut rec| {
        count += 1;
        cap_text(&mut rec, &text);
        if let Some(done) = held.replace(rec) {
            each(done, Format::Csa);
        }
    });
    if let Some(mut last) = held {
        cut_warning(&mut last, &text, cut);
        each(last, Format::Csa);
    }
    ReadFile {
        encoding,
        format,
        games: Vec::new(),
        error: (count == 0).then(|| "the CSA file holds no game".to_string()),
    }
}

/// A reader that hands each game over as it reads it.
type ReadEach = fn(&str, &mut dyn FnMut(Record));

/// The games of a USI or PSN file handed over as `read` reads them (a file of 100,000 games
/// would otherwise hold 100,000 records at once), when that gives what [`read_text`] gives:
/// once two games are read and one of them has a move or no error, the file is no plain
/// move list and no lone failed record, so none of `read_text`'s second thoughts can apply.
/// Until then the games are held; `None` when the text ended first (the caller reads it
/// whole).
fn read_each_game(
    text: &str,
    encoding: Encoding,
    cut: usize,
    format: Format,
    read: ReadEach,
    each: &mut dyn FnMut(Record, Format),
) -> Option<ReadFile> {
    let mut held: Vec<Record> = Vec::new();
    let mut streaming = false;
    // The last game, held back: the end of the file (a cut character) belongs to it.
    let mut last: Option<Record> = None;
    let mut hand = |mut g: Record| {
        cap_text(&mut g, text);
        each(g, format);
    };
    read(text, &mut |mut g| {
        g.check_declaration();
        if streaming {
            if let Some(done) = last.replace(g) {
                hand(done);
            }
            return;
        }
        held.push(g);
        if held.len() >= 2
            && held
                .iter()
                .any(|g| !g.main.moves.is_empty() || g.errors.is_empty())
        {
            streaming = true;
            last = held.pop();
            held.drain(..).for_each(&mut hand);
        }
    });
    if !streaming {
        return None;
    }
    if let Some(mut g) = last {
        cut_warning(&mut g, text, cut);
        hand(g);
    }
    Some(ReadFile {
        encoding,
        format: Some(format),
        games: Vec::new(),
        error: None,
    })
}

/// The longest header value a record keeps, in bytes: a longer one (a 200 MB line of junk
/// after `棋戦：`) is cut there, with a warning, before it reaches the database and the text
/// index (which would otherwise take some thirty times its size in memory).
pub const MAX_HEADER_VALUE: usize = 64 << 10;

/// The longest comment, bookmark, engine line or remark a record keeps, in bytes.
pub const MAX_COMMENT: usize = 1 << 20;

/// Cuts the texts of a record longer than the limits above at a character boundary, each
/// with a warning at its line in `text` (the file it was read from).
pub fn cap_text(rec: &mut Record, text: &str) {
    // Values come in file order (but for variations): each is looked for from where the
    // last was found, so a file of many long values is scanned about once, not once each.
    let mut cursor = (0usize, 1usize);
    let mut warnings = Vec::new();
    let mut cut = |what: &str, value: &mut String, limit: usize| {
        if value.len() <= limit {
            return;
        }
        let n = value.len();
        let line = line_of(text, value, &mut cursor);
        let mut end = limit;
        while !value.is_char_boundary(end) {
            end -= 1;
        }
        value.truncate(end);
        warnings.push(ReadError {
            line,
            column: 1,
            message: format!(
                "{what} is {n} bytes long: kept its first {} KiB",
                limit >> 10
            ),
            severity: Severity::Warning,
        });
    };
    for (key, value) in &mut rec.headers {
        cut(&format!("the header {key}"), value, MAX_HEADER_VALUE);
    }
    let texts = |v: &mut Vec<String>, cut: &mut dyn FnMut(&str, &mut String, usize)| {
        for t in v {
            cut("a comment", t, MAX_COMMENT);
        }
    };
    texts(&mut rec.start_comments, &mut cut);
    texts(&mut rec.start_bookmarks, &mut cut);
    texts(&mut rec.start_engine, &mut cut);
    for note in &mut rec.notes {
        cut("a remark", &mut note.text, MAX_COMMENT);
    }
    // Every line of the tree, without recursion.
    let mut lines: Vec<&mut Line> = vec![&mut rec.main];
    while let Some(line) = lines.pop() {
        let Line { moves, .. } = line;
        for node in moves {
            texts(&mut node.comments, &mut cut);
            texts(&mut node.bookmarks, &mut cut);
            texts(&mut node.engine, &mut cut);
            lines.extend(node.variations.iter_mut());
        }
    }
    rec.errors.extend(warnings);
}

/// The 1-based line of `text` where `value` (or its start) appears, looked for from
/// `cursor` (byte offset, its line) on, then from the start; 0 when it does not appear.
fn line_of(text: &str, value: &str, cursor: &mut (usize, usize)) -> usize {
    let mut end = value.len().min(256);
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    let needle = &value[..end];
    let newlines = |from: usize, to: usize| {
        text.as_bytes()[from..to]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
    };
    if let Some(at) = text[cursor.0..].find(needle).map(|p| cursor.0 + p) {
        *cursor = (at, cursor.1 + newlines(cursor.0, at));
    } else if let Some(at) = text.find(needle) {
        *cursor = (at, 1 + newlines(0, at));
    } else {
        return 0;
    }
    cursor.1
}

/// Reads decoded text.
fn read_text(text: &str, encoding: Encoding, path: Option<&Path>) -> ReadFile {
    let format = Format::detect(text, path);
    let (games, error) = match format {
        Some(Format::Kif) => (vec![kif::read_kif(text)], None),
        Some(Format::Ki2) => (vec![kif::read_ki2(text)], None),
        Some(Format::Csa) => match csa::read_csa(text) {
            games if games.is_empty() => (games, Some("the CSA file holds no game".to_string())),
            games => (games, None),
        },
        Some(Format::Jkf) => match jkf::read_jkf(text) {
            Ok(game) => (vec![game], None),
            Err(e) => (Vec::new(), Some(e.to_string())),
        },
        Some(Format::Usi) => (usi::read_usi(text), None),
        Some(Format::Psn) => (psn::read_psn(text), None),
        Some(Format::Moves) => (vec![movelist::read_move_list(text)], None),
        None if text.trim_start_matches('\u{feff}').trim().is_empty() => {
            (Vec::new(), Some("no game in this file".to_string()))
        }
        None => (
            Vec::new(),
            Some("not a game record kifudex recognises".to_string()),
        ),
    };
    // Nothing read, or not one move: perhaps a plain move list (a book's `1. P-7f P-3d`, a
    // web page's `☗歩-76 ☖歩-34`, bare USI moves), which other formats' readers refuse.
    // A numbered list the KIF reader took a line of (`1 ▲７六歩 △３四歩`) is one too, when
    // the list reader reads all of it, and further.
    let nothing = error.is_some()
        || games
            .iter()
            .all(|g| g.main.moves.is_empty() && !g.errors.is_empty());
    let stumbled = match &games[..] {
        [g] => !g.errors.is_empty() && g.headers.is_empty() && g.main.variation_count() == 0,
        _ => false,
    };
    let (format, games, error) = if nothing || stumbled {
        let list = movelist::read_move_list(text);
        let better = match &games[..] {
            _ if nothing => !list.main.moves.is_empty(),
            [g] => list.errors.is_empty() && list.main.moves.len() > g.main.moves.len(),
            _ => false,
        };
        if better {
            (Some(Format::Moves), vec![list], None)
        } else {
            (format, games, error)
        }
    } else {
        (format, games, error)
    };
    // A file in which the reader understood nothing at all is no record, whatever its name.
    let (games, error) = match games.first() {
        Some(g) if error.is_none() && games.len() == 1 && g.is_blank() && !g.errors.is_empty() => (
            Vec::new(),
            Some(format!(
                "not a game record kifudex recognises ({})",
                g.errors[0]
            )),
        ),
        // An empty file, or one (a JKF object, a KIF of blank lines) that holds nothing of a
        // game: no game, rather than an empty one that later files would duplicate.
        Some(g) if error.is_none() && games.len() == 1 && g.is_blank() => {
            (Vec::new(), Some("no game in this file".to_string()))
        }
        None if error.is_none() => (games, Some("no game in this file".to_string())),
        _ => (games, error),
    };
    let mut games = games;
    for g in &mut games {
        g.check_declaration();
    }
    ReadFile {
        encoding,
        format,
        games,
        error,
    }
}
