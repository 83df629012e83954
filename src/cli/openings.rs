//! `kifudex openings`: games, results and score per recognised opening, strategy and castle,
//! or per pairing, over the games a filter selects.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::query::{SearchFilter, openings};
use kifudex::store::Store;

use super::output::Table;

#[derive(Args, Debug, Default)]
pub struct OpeningsArgs {
    /// Only this player's games, counting the player's side and score.
    #[arg(long)]
    player: Option<String>,
    /// Only games with this player first (先手 / 下手).
    #[arg(long)]
    sente: Option<String>,
    /// Only games with this player second (後手 / 上手).
    #[arg(long)]
    gote: Option<String>,
    /// Part of the event (棋戦) name.
    #[arg(long)]
    event: Option<String>,
    /// The opening, as `search --opening` takes it.
    #[arg(long)]
    opening: Option<String>,
    /// A castle recognised for a side (or for --as).
    #[arg(long)]
    castle: Option<String>,
    /// A strategy recognised for a side (or for --as).
    #[arg(long)]
    strategy: Option<String>,
    /// The side --castle and --strategy are asked of: sente or gote.
    #[arg(long = "as", value_name = "SIDE")]
    side: Option<String>,
    /// Games on or after this date.
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// Games on or before this date.
    #[arg(long, value_name = "DATE")]
    until: Option<String>,
    /// A handicap (平手, 香落ち …).
    #[arg(long)]
    handicap: Option<String>,
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
    let store = Store::open(db)?;
    let filter = SearchFilter {
        sente: args.sente.clone(),
        gote: args.gote.clone(),
        event: args.event.clone(),
        opening: args.opening.clone(),
        castle: args.castle.clone(),
        strategy: args.strategy.clone(),
        side: args.side.clone(),
        since: args.since.clone(),
        until: args.until.clone(),
        handicap: args.handicap.clone(),
        ..SearchFilter::default()
    };
    let rows = openings(&store, &filter, args.player.as_deref(), args.pairs)?;
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
