//! Output shared by the query commands: aligned tables (CJK-width aware), JSON Lines, CSV.

use std::io::Write;

use unicode_width::UnicodeWidthStr;

/// How a query command prints its rows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    Table,
    Json,
    Csv,
}

/// `s` with what could drive a terminal made visible: control characters (ESC, newlines,
/// tabs, C1 controls, DEL) and the bidirectional overrides written as `\u{1b}`-style
/// escapes, `\n`, `\r` and `\t`; a backslash stays as it is. For tables and messages
/// (JSON and CSV keep the value).
pub fn terminal_safe(s: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char =
        |c: char| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !s.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Cells wider than this are cut with an ellipsis in a table.
const MAX_CELL: usize = 28;

/// A table of text cells with a header row.
pub struct Table {
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    /// Columns whose long cells keep their end (file paths), not their start.
    pub keep_end: Vec<usize>,
}

impl Table {
    pub fn new(columns: Vec<&'static str>) -> Table {
        Table {
            columns,
            rows: Vec::new(),
            keep_end: Vec::new(),
        }
    }

    /// Writes the table, columns padded to their widest cell (East Asian wide characters
    /// count two).
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                r.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let c = terminal_safe(c);
                        if self.keep_end.contains(&i) {
                            cut_start(&c)
                        } else {
                            cut(&c)
                        }
                    })
                    .collect()
            })
            .collect();
        let mut widths: Vec<usize> = self.columns.iter().map(|c| c.width()).collect();
        for row in &cells {
            for (w, c) in widths.iter_mut().zip(row) {
                *w = (*w).max(c.width());
            }
        }
        let line = |out: &mut dyn Write, row: &[String]| -> std::io::Result<()> {
            let mut s = String::new();
            for (i, (c, w)) in row.iter().zip(&widths).enumerate() {
                if i > 0 {
                    s.push_str("  ");
                }
                s.push_str(c);
                if i + 1 < row.len() {
                    s.push_str(&" ".repeat(w - c.width()));
                }
            }
            writeln!(out, "{}", s.trim_end())
        };
        let header: Vec<String> = self.columns.iter().map(|c| c.to_string()).collect();
        line(out, &header)?;
        for row in &cells {
            line(out, row)?;
        }
        Ok(())
    }

    /// Writes the table as CSV (RFC 4180 quoting).
    pub fn write_csv(&self, out: &mut impl Write) -> std::io::Result<()> {
        let header: Vec<String> = self.columns.iter().map(|c| c.to_string()).collect();
        for row in std::iter::once(&header).chain(&self.rows) {
            let fields: Vec<String> = row.iter().map(|c| csv_field(c)).collect();
            writeln!(out, "{}", fields.join(","))?;
        }
        Ok(())
    }
}

fn cut(s: &str) -> String {
    if s.width() <= MAX_CELL {
        return s.to_string();
    }
    let mut out = String::new();
    for c in s.chars() {
        if out.width() + unicode_width::UnicodeWidthChar::width(c).unwrap_or(0) > MAX_CELL - 1 {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

fn cut_start(s: &str) -> String {
    if s.width() <= MAX_CELL {
        return s.to_string();
    }
    let mut kept: Vec<char> = Vec::new();
    let mut width = 1;
    for c in s.chars().rev() {
        width += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if width > MAX_CELL {
            break;
        }
        kept.push(c);
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
