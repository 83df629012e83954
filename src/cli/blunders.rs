//! `kifudex blunders`: the moves after which the mover's evaluation fell by at least --drop,
//! worst first, with the position, the evaluations before and after and the engine's better
//! move.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::query::evals::{BLUNDER_DROP, BlunderQuery, find_blunders};

use super::filter::FilterArgs;
use super::output::{Table, count};

#[derive(Args, Debug)]
pub struct BlundersArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// The least fall of the mover's evaluation, in the evaluations' units (a mate counts
    /// as ±30000).
    #[arg(long, default_value_t = BLUNDER_DROP, value_name = "N",
          value_parser = clap::value_parser!(i32).range(1..))]
    drop: i32,
    /// At most this many blunders, worst first (0: all; up to 1,000,000).
    #[arg(long, default_value_t = 50, value_name = "N", value_parser = super::bounds::rows())]
    limit: usize,
    /// One JSON object per blunder, then `{"total": N, "games": M}`.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header row.
    #[arg(long)]
    csv: bool,
}

pub fn run(db: &Path, args: &BlundersArgs) -> Result<bool> {
    let store = super::open_for_reading(db, false)?;
    // `--as` without `--player`: the moves of that side, in every game the filter takes.
    let mut filter = args.filter.typed()?;
    let mut side = None;
    if filter.player.is_none() && filter.castle.is_none() && filter.strategy.is_none() {
        side = filter.side.take();
    }
    filter.check()?;
    for note in filter.notes(kifudex::query::Words::Cli) {
        eprintln!("kifudex: note: {note}");
    }
    let q = BlunderQuery {
        filter,
        drop: args.drop,
        side,
        limit: (args.limit > 0).then_some(args.limit),
    };
    let found = find_blunders(&store, &q)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        for b in &found.rows {
            writeln!(out, "{}", serde_json::to_string(b)?)?;
        }
        writeln!(
            out,
            "{}",
            serde_json::json!({"total": found.total, "games": found.games})
        )?;
        return Ok(true);
    }
    let mut table = Table::new(vec![
        "id", "ply", "side", "player", "move", "before", "after", "drop", "better", "from", "sfen",
    ]);
    for b in &found.rows {
        table.rows.push(vec![
            b.id.to_string(),
            b.ply.to_string(),
            b.side.to_string(),
            b.player.clone().unwrap_or_default(),
            if args.csv {
                b.played.clone()
            } else {
                b.japanese.clone()
            },
            format!("{:+}", b.before),
            format!("{:+}", b.after),
            b.drop.to_string(),
            if args.csv {
                b.better.clone().unwrap_or_default()
            } else {
                b.better_japanese.clone().unwrap_or_default()
            },
            b.evaluations.clone(),
            b.sfen.clone(),
        ]);
    }
    if args.csv {
        table.write_csv(&mut out)?;
        return Ok(true);
    }
    if !found.rows.is_empty() {
        table.write(&mut out)?;
    }
    writeln!(
        out,
        "{} of {} (a drop of {} or more) in {} with evaluations",
        found.rows.len(),
        count(found.total as usize, "blunder"),
        args.drop,
        count(found.games as usize, "game")
    )?;
    Ok(true)
}
