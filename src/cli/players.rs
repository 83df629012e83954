//! `kifudex players`: players with their results per side, dates and openings; with a name
//! and --vs, the head-to-head record and its games.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::query::{PlayerRow, players, search};

use super::filter::FilterArgs;
use super::output::{Style, Table, count};
use super::search::print_games;

#[derive(Args, Debug)]
pub struct PlayersArgs {
    /// Only the players whose name matches (as --player matches it).
    name: Option<String>,
    #[command(flatten)]
    filter: FilterArgs,
    /// At most this many players (most games first, up to 1,000,000).
    #[arg(long, default_value_t = 50, value_name = "N", value_parser = super::bounds::rows())]
    limit: usize,
    /// One JSON object per player.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header row.
    #[arg(long)]
    csv: bool,
}

fn wdl(r: &kifudex::query::players::Record) -> String {
    format!("{}-{}-{}", r.wins, r.draws, r.losses)
}

pub fn run(db: &Path, args: &PlayersArgs) -> Result<bool> {
    let store = super::open_for_reading(db, false)?;
    let mut filter = args.filter.typed()?;
    let rows = players(&store, &filter, args.name.as_deref())?;
    let shown: &[PlayerRow] = &rows[..rows.len().min(args.limit)];
    let mut out = std::io::stdout().lock();
    if args.json {
        for r in shown {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        }
        return Ok(true);
    }
    let mut table = Table::new(vec![
        "player",
        "games",
        "sente W-D-L",
        "gote W-D-L",
        "score",
        "first",
        "last",
        "openings",
    ]);
    for r in shown {
        let openings: Vec<String> = r.openings.iter().map(|(o, n)| format!("{o} {n}")).collect();
        table.rows.push(vec![
            r.name.clone(),
            r.games.to_string(),
            wdl(&r.sente),
            wdl(&r.gote),
            r.score
                .map_or(String::new(), |s| format!("{:.1}%", s * 100.0)),
            r.first_date.clone().unwrap_or_default(),
            r.last_date.clone().unwrap_or_default(),
            openings.join(", "),
        ]);
    }
    if args.csv {
        table.write_csv(&mut out)?;
        return Ok(true);
    }
    if !shown.is_empty() {
        table.write(&mut out)?;
    }
    writeln!(out, "{} of {}", shown.len(), count(rows.len(), "player"))?;
    // Head to head: the games themselves.
    if filter.vs.is_some() {
        if filter.player.is_none() {
            filter.player = args.name.clone();
        }
        let found = search(&store, &filter, Some(50))?;
        writeln!(out)?;
        print_games(&mut out, &found.rows, Style::Table, false)?;
        writeln!(
            out,
            "{} of {}",
            found.rows.len(),
            count(found.total, "game")
        )?;
    }
    Ok(true)
}
