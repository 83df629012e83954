//! PSN writing: tags, comments, numbered Hodges moves, variations in parentheses, the
//! ending word and the result.

use std::fmt::Write;

use super::{HANDICAPS, ending_text};
use crate::headers::{KeyStyle, is_sfen_key, keys_for};
use crate::movetext::hodges;
use crate::record::{GameResult, Line, Record};
use kifudex_shogi::{Color, Handicap, Position};

/// A tag value in quotes: `"` and `\` escaped; a tag is one line, so line breaks become spaces.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\r', '\n'], " ")
}

/// A tag name as the reader reads it back: no spaces, quotes or brackets (each becomes `_`),
/// never empty.
fn tag_name(key: &str) -> String {
    let name: String = key
        .chars()
        .map(|c| {
            if c.is_whitespace() || matches!(c, '"' | '[' | ']') {
                '_'
            } else {
                c
            }
        })
        .collect();
    if name.is_empty() {
        "_".to_string()
    } else {
        name
    }
}

/// Movetext being laid out: words joined by spaces, lines kept under 80 characters.
struct Layout {
    out: String,
    width: usize,
    /// No space before the next word (after `(`).
    glue: bool,
}

impl Layout {
    fn word(&mut self, w: &str) {
        let len = w.chars().count();
        if !self.glue && self.width > 0 {
            if self.width + 1 + len > 79 {
                self.out.push('\n');
                self.width = 0;
            } else {
                self.out.push(' ');
                self.width += 1;
            }
        }
        self.out.push_str(w);
        self.width += len;
        self.glue = w == "(";
    }

    /// A comment: `{…}`, or `;…` to the end of the line when it holds a `}`.
    fn comment(&mut self, c: &str) {
        if c.contains('}') {
            self.word(&format!(";{c}"));
            self.out.push('\n');
            self.width = 0;
        } else {
            self.word(&format!("{{{c}}}"));
        }
    }

    fn close(&mut self) {
        self.out.push(')');
        self.width += 1;
    }
}

/// Writes a line's moves (the first is ply `first_ply`, played from `pos`), with comments,
/// variations in parentheses after the move they replace, and the ending word.
fn write_line(l: &mut Layout, line: &Line, pos: &Position, first_ply: usize, white_first: bool) {
    let mut pos = pos.clone();
    let mut number = true;
    for (i, node) in line.moves.iter().enumerate() {
        let k = first_ply + i - 1 + usize::from(white_first);
        let pair = k / 2 + 1;
        let text = hodges(&pos, node.mv);
        if pos.side_to_move() == Color::Black {
            l.word(&format!("{pair}.{text}"));
        } else if number {
            l.word(&format!("{pair}...{text}"));
        } else {
            l.word(&text);
        }
        for c in &node.comments {
            l.comment(c);
        }
        for v in &node.variations {
            l.word("(");
            write_line(l, v, &pos, first_ply + i, white_first);
            l.close();
        }
        number = !node.comments.is_empty() || !node.variations.is_empty();
        let _ = pos.play(node.mv);
    }
    if let Some(t) = &line.terminal {
        l.word(&ending_text(t.kind));
        for c in &t.comments {
            l.comment(c);
        }
    }
}

/// The record as one PSN game: tags (KIF keys given their PSN names, the start as a
/// `Handicap` or `SFEN` tag), the start's comments, the moves with comments, variations and
/// ending, and the result. PSN has no times or bookmarks: they are not written.
pub fn write_psn(rec: &Record) -> String {
    let mut out = String::new();
    let handicap = Handicap::detect(&rec.start);
    let start_tag = match handicap {
        Handicap::Even if rec.start.move_number() == 1 => None,
        Handicap::Other | Handicap::Even => Some(("SFEN", rec.start.to_sfen())),
        h if rec.start.move_number() == 1 => HANDICAPS
            .iter()
            .find(|e| e.0 == h)
            .map(|e| ("Handicap", e.1.to_string())),
        _ => Some(("SFEN", rec.start.to_sfen())),
    };
    let mut start_written = start_tag.is_none();
    // Other formats' keys (先手, $EVENT) under their PSN names.
    let keys = keys_for(&rec.headers, KeyStyle::Psn, false);
    for (key, (_, value)) in keys.iter().zip(&rec.headers) {
        let Some(key) = key.as_deref() else {
            continue;
        };
        if is_sfen_key(key) || key.eq_ignore_ascii_case("handicap") {
            if !start_written && let Some((k, v)) = &start_tag {
                let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
                start_written = true;
            }
            continue;
        }
        let _ = writeln!(out, "[{} \"{}\"]", tag_name(key), escape(value));
    }
    if !start_written && let Some((k, v)) = &start_tag {
        let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    let mut l = Layout {
        out,
        width: 0,
        glue: false,
    };
    for c in &rec.start_comments {
        l.comment(c);
    }
    let white_first = rec.start.side_to_move() == Color::White;
    write_line(&mut l, &rec.main, &rec.start, 1, white_first);
    l.word(match rec.result() {
        GameResult::Win(Color::Black) => "1-0",
        GameResult::Win(Color::White) => "0-1",
        GameResult::Draw => "1/2-1/2",
        GameResult::Unknown => "*",
    });
    let mut out = l.out;
    out.push('\n');
    out
}
