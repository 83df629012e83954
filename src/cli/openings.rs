//! `kifudex openings`: games, results and score per opening (the game's label), strategy and
//! castle, per pairing, or per year (the trends), over the games a filter selects; with
//! `--player`, that player's repertoire and results.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::{Args, ValueEnum};
use kifudex::query::{OpeningRow, OpeningsBy, openings};

use super::filter::FilterArgs;
use super::output::Table;

/// What `--by` groups the rows by.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ByArg {
    /// One row per year and opening, with the opening's share of that year's games.
    Year,
}

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// One row per pairing of the two sides' strategies (居飛車穴熊 vs 四間飛車 …).
    #[arg(long, conflicts_with = "by")]
    pairs: bool,
    /// The trends: one row per year and opening, with its share of the year's games.
    #[arg(long, value_enum)]
    by: Option<ByArg>,
    /// One JSON object per row.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header row.
    #[arg(long)]
    csv: bool,
}

pub fn run(db: &Path, args: &OpeningsArgs) -> Result<bool> {
    let filter = args.filter.filter()?;
    let by = match (args.by, args.pairs) {
        (Some(ByArg::Year), _) => OpeningsBy::Year,
        (None, true) => OpeningsBy::Pair,
        (None, false) => OpeningsBy::Name,
    };
    let store = super::open_for_reading(db, false)?;
    let rows = openings(&store, &filter, by)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        for r in &rows {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        }
        return Ok(true);
    }
    let player = filter.player.is_some();
    let mut columns = match by {
        OpeningsBy::Year => vec!["year", "opening", "games", "share"],
        _ => vec!["kind", "name", "games"],
    };
    if player {
        // The player's results: the repertoire.
        columns.extend(["won", "drawn", "lost", "score"]);
    } else {
        columns.extend(["sente", "gote", "draw", "score"]);
    }
    if by != OpeningsBy::Year {
        columns.extend(["first", "last"]);
    }
    let mut table = Table::new(columns);
    for r in rows {
        table.rows.push(cells(r, by, player));
    }
    if args.csv {
        table.write_csv(&mut out)?;
    } else {
        table.write(&mut out)?;
    }
    Ok(true)
}

fn cells(r: OpeningRow, by: OpeningsBy, player: bool) -> Vec<String> {
    let mut row = match by {
        OpeningsBy::Year => vec![
            r.year.unwrap_or_else(|| "-".into()),
            r.name,
            r.games.to_string(),
            r.share
                .map(|s| format!("{:.1}%", s * 100.0))
                .unwrap_or_default(),
        ],
        _ => vec![r.kind.to_string(), r.name, r.games.to_string()],
    };
    if player {
        row.extend([
            r.wins.unwrap_or(0).to_string(),
            r.draws.to_string(),
            r.losses.unwrap_or(0).to_string(),
        ]);
    } else {
        row.extend([
            r.sente_wins.to_string(),
            r.gote_wins.to_string(),
            r.draws.to_string(),
        ]);
    }
    row.push(r.score.map(|s| format!("{s:.3}")).unwrap_or_default());
    if by != OpeningsBy::Year {
        row.push(r.first_date.unwrap_or_default());
        row.push(r.last_date.unwrap_or_default());
    }
    row
}
