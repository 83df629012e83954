//! `kifudex search`: games by their headers.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::query::{GameRowSummary, search};

use super::filter::FilterArgs;
use super::output::{OPENING_LEGEND, Style, Table, any_recognised, count, opening_cell};

#[derive(Args, Debug, Default)]
pub struct SearchArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// At most this many rows (newest first, up to 1,000,000).
    #[arg(long, default_value_t = 50, value_name = "N", value_parser = super::bounds::rows())]
    limit: usize,
    /// One JSON object per row.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header row.
    #[arg(long)]
    csv: bool,
}

pub fn run(db: &Path, args: &SearchArgs) -> Result<bool> {
    let store = super::open_for_reading(db, false)?;
    let filter = args.filter.filter()?;
    let found = search(&store, &filter, Some(args.limit))?;
    let style = if args.json {
        Style::Json
    } else if args.csv {
        Style::Csv
    } else {
        Style::Table
    };
    let mut out = std::io::stdout().lock();
    print_games(&mut out, &found.rows, style, filter.handicap.is_some())?;
    if style == Style::Table {
        writeln!(
            out,
            "{} of {}",
            found.rows.len(),
            count(found.total, "game")
        )?;
    }
    Ok(true)
}

/// Prints game rows in a style (shared with `players`); `handicap`: with a handicap column.
pub fn print_games(
    out: &mut impl Write,
    rows: &[GameRowSummary],
    style: Style,
    handicap: bool,
) -> Result<()> {
    if style == Style::Json {
        for r in rows {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        }
        return Ok(());
    }
    let mut columns = vec![
        "id", "date", "sente", "gote", "winner", "plies", "event", "opening",
    ];
    if style == Style::Csv {
        columns.push("label_source");
    }
    if handicap {
        columns.push("handicap");
    }
    columns.push("file");
    let mut table = Table::new(columns);
    let text = |s: &Option<String>| s.clone().unwrap_or_default();
    for r in rows {
        table.rows.push(vec![
            r.id.to_string(),
            text(&r.date),
            text(&r.sente),
            text(&r.gote),
            text(&r.winner),
            // A truncated game is marked where its length is shown.
            if r.incomplete {
                format!("{} (incomplete)", r.plies)
            } else {
                r.plies.to_string()
            },
            text(&r.event),
            if style == Style::Csv {
                text(&r.opening)
            } else {
                opening_cell(r)
            },
        ]);
        let row = table.rows.last_mut().expect("a row was pushed");
        if style == Style::Csv {
            row.push(r.label_source.unwrap_or_default().to_string());
        }
        if handicap {
            row.push(r.handicap.clone());
        }
        row.push(r.file.clone());
    }
    table.path_column = Some(table.columns.len() - 1);
    match style {
        Style::Csv => table.write_csv(out)?,
        _ => {
            table.write(out)?;
            if any_recognised(rows) {
                writeln!(out, "{OPENING_LEGEND}")?;
            }
        }
    }
    Ok(())
}
