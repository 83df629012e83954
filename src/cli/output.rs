//! Output shared by the query commands: aligned tables (CJK-width aware, as wide as the
//! terminal), JSON Lines, CSV.

use std::io::Write;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// How a query command prints its rows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    Table,
    Json,
    Csv,
}

/// "1 game", "2 games".
pub fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// Width a table may take when stdout is no terminal (a pipe, a file): no cut below it.
const PIPE_WIDTH: usize = 200;

/// A cell is never cut narrower than this.
const MIN_CELL: usize = 10;

/// The width of the terminal on stdout (`COLUMNS` when set), else [`PIPE_WIDTH`].
fn line_width() -> usize {
    if let Some(n) = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()) {
        return n;
    }
    console::Term::stdout()
        .size_checked()
        .map_or(PIPE_WIDTH, |(_, w)| w as usize)
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

/// A table of text cells with a header row.
pub struct Table {
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    /// A column of file paths: shortened in the middle (its start and its file name kept).
    pub path_column: Option<usize>,
}

impl Table {
    pub fn new(columns: Vec<&'static str>) -> Table {
        Table {
            columns,
            rows: Vec::new(),
            path_column: None,
        }
    }

    /// Writes the table, columns padded to their widest cell (East Asian wide characters
    /// count two); when wider than the terminal, the widest columns are cut first.
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        self.write_width(out, line_width())
    }

    pub fn write_width(&self, out: &mut impl Write, width: usize) -> std::io::Result<()> {
        let mut widths: Vec<usize> = self.columns.iter().map(|c| c.width()).collect();
        for row in &self.rows {
            for (w, c) in widths.iter_mut().zip(row) {
                *w = (*w).max(c.width());
            }
        }
        // Take from the widest column until the line fits (or nothing is wider than MIN_CELL).
        let gaps = 2 * widths.len().saturating_sub(1);
        while widths.iter().sum::<usize>() + gaps > width {
            let (i, &w) = widths
                .iter()
                .enumerate()
                .max_by_key(|&(i, &w)| (w, std::cmp::Reverse(i)))
                .expect("a table has columns");
            let floor = MIN_CELL.max(self.columns[i].width());
            if w <= floor {
                break;
            }
            widths[i] = w - 1;
        }
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                r.iter()
                    .zip(&widths)
                    .enumerate()
                    .map(|(i, (c, &w))| {
                        let c = terminal_safe(c);
                        if self.path_column == Some(i) {
                            cut_middle(&c, w)
                        } else {
                            cut(&c, w)
                        }
                    })
                    .collect()
            })
            .collect();
        let line = |out: &mut dyn Write, row: &[String]| -> std::io::Result<()> {
            let mut s = String::new();
            for (i, (c, w)) in row.iter().zip(&widths).enumerate() {
                if i > 0 {
                    s.push_str("  ");
                }
                s.push_str(c);
                if i + 1 < row.len() {
                    s.push_str(&" ".repeat(w.saturating_sub(c.width())));
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

/// The first characters of `s` that fit in `width` columns.
fn prefix(s: &str, width: usize) -> String {
    let mut out = String::new();
    let mut w = 0;
    for c in s.chars() {
        let cw = c.width().unwrap_or(0);
        if w + cw > width {
            break;
        }
        w += cw;
        out.push(c);
    }
    out
}

/// The last characters of `s` that fit in `width` columns.
fn suffix(s: &str, width: usize) -> String {
    let mut kept: Vec<char> = Vec::new();
    let mut w = 0;
    for c in s.chars().rev() {
        let cw = c.width().unwrap_or(0);
        if w + cw > width {
            break;
        }
        w += cw;
        kept.push(c);
    }
    kept.into_iter().rev().collect()
}

/// A game's opening label as a table cell: the header's as it is, the one recognised from the
/// moves marked `*` (see [`OPENING_LEGEND`]).
pub fn opening_cell(g: &kifudex::store::GameSummary) -> String {
    match (&g.opening, g.label_source) {
        (Some(o), Some("moves")) => format!("{o}*"),
        (Some(o), _) => o.clone(),
        (None, _) => String::new(),
    }
}

/// The line under a table whose opening cells are marked.
pub const OPENING_LEGEND: &str =
    "* opening recognised from the moves (the record has no 戦型 header)";

/// Whether any of the games' opening cells is marked.
pub fn any_recognised<'a>(
    games: impl IntoIterator<Item = &'a kifudex::store::GameSummary>,
) -> bool {
    games.into_iter().any(|g| g.label_source == Some("moves"))
}

/// `s` cut to `width` columns with an ellipsis at the end.
pub fn cut(s: &str, width: usize) -> String {
    if s.width() <= width {
        return s.to_string();
    }
    prefix(s, width.saturating_sub(1)) + "…"
}

/// `s` cut to `width` columns in the middle: its start and its end (a file name) kept.
pub fn cut_middle(s: &str, width: usize) -> String {
    if s.width() <= width {
        return s.to_string();
    }
    let room = width.saturating_sub(1);
    let head = room / 3;
    format!("{}…{}", prefix(s, head), suffix(s, room - head))
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Progress drawn as a bar on stderr when it is a terminal (nothing otherwise): a bar with
/// the count, the total and the time left when the stage knows its total, a spinner when
/// not. Lines printed through [`Bar::println`] go above it.
pub struct Bar {
    bar: std::sync::Mutex<Option<indicatif::ProgressBar>>,
    shown: bool,
}

impl Bar {
    pub fn new() -> Bar {
        use std::io::IsTerminal;
        Bar {
            bar: std::sync::Mutex::new(None),
            shown: std::io::stderr().is_terminal(),
        }
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, Option<indicatif::ProgressBar>> {
        self.bar.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Prints a line on stderr, above the bar when one is drawn.
    pub fn println(&self, line: &str) {
        match &*self.bar() {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }
}

impl kifudex::progress::Progress for Bar {
    fn stage(&self, what: &str, total: Option<u64>, unit: &str) {
        if !self.shown {
            return;
        }
        let mut slot = self.bar();
        if let Some(old) = slot.take() {
            old.finish_and_clear();
        }
        let template = match total {
            Some(_) => format!(
                "{what} {{bar:30}} {{pos}}/{{len}} {unit}  {{msg}}  [{{elapsed_precise}}, ETA {{eta}}]"
            ),
            None => format!("{what} {{spinner}} {{pos}} {unit}  {{msg}}  [{{elapsed_precise}}]"),
        };
        let bar = indicatif::ProgressBar::with_draw_target(
            total,
            indicatif::ProgressDrawTarget::stderr_with_hz(8),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        *slot = Some(bar);
    }

    fn set(&self, done: u64) {
        if let Some(bar) = &*self.bar() {
            bar.set_position(done);
        }
    }

    fn note(&self, text: &str) {
        if let Some(bar) = &*self.bar() {
            bar.set_message(text.to_string());
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar().take() {
            bar.finish_and_clear();
        }
    }
}
