//! `kifudex openings`: games, results and score per recognised opening, strategy and castle,
//! or per pairing, over the games a filter selects.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::query::openings;
use kifudex::store::Store;

use super::filter::FilterArgs;
use super::output::Table;

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// One row per pairing of the two sides' strategies (居飛車穴熊 vs 四間飛車 …).
    #[arg(long)]
    pairs: bool,
    /// One JSON object per row.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header row.
    #[arg(long)]
    csv: bool,
}

pub fn run(db: &Path, args: &OpeningsArgs) -> Result<bool> {
    let store = Store::open_read_only(db)?;
    let rows = openings(&store, &args.filter.filter()?, args.pairs)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        for r in &rows {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        }
        return Ok(true);
    }
    let mut table = Table::new(vec![
        "kind", "name", "games", "sente", "gote", "draw", "score", "first", "last",
    ]);
    for r in rows {
        table.rows.push(vec![
            r.kind.to_string(),
            r.name,
            r.games.to_string(),
            r.sente_wins.to_string(),
            r.gote_wins.to_string(),
            r.draws.to_string(),
            r.score.map(|s| format!("{s:.3}")).unwrap_or_default(),
            r.first_date.unwrap_or_default(),
            r.last_date.unwrap_or_default(),
        ]);
    }
    if args.csv {
        table.write_csv(&mut out)?;
    } else {
        table.write(&mut out)?;
    }
    Ok(true)
}
