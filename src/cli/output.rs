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
                        if self.keep_end.contains(&i) {
                            cut_start(c)
                        } else {
                            cut(c)
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

/// The progress bar of a database whose openings are recognised again when opened (after the
/// migration to schema 4, or new definitions), on a terminal only.
pub fn recognise_progress(done: u64, total: u64) {
    use std::io::IsTerminal;
    use std::sync::Mutex;
    static BAR: Mutex<Option<indicatif::ProgressBar>> = Mutex::new(None);
    if !std::io::stderr().is_terminal() {
        return;
    }
    let mut bar = BAR.lock().unwrap_or_else(|e| e.into_inner());
    let b = bar.get_or_insert_with(|| {
        let b = indicatif::ProgressBar::with_draw_target(
            Some(total),
            indicatif::ProgressDrawTarget::stderr_with_hz(8),
        );
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "recognising openings {bar:30} {pos}/{len} games [{elapsed_precise}]",
            )
            .expect("valid template"),
        );
        b
    });
    b.set_position(done);
    if done >= total {
        b.finish_and_clear();
        *bar = None;
    }
}
