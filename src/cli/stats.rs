//! `kifudex stats`: what the database holds, or what the games a filter takes hold.

use std::path::Path;

use anyhow::Result;
use clap::Args;

use super::filter::FilterArgs;
use super::output::count;

#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// Print one JSON object (with --evals: one per bucket, then the totals).
    #[arg(long)]
    json: bool,
    /// The calibration of the evaluations: for each size of advantage, how often the side
    /// ahead won (the positions of games with evaluations and a known result).
    #[arg(long)]
    evals: bool,
    /// With --evals: the width of a bucket, in the evaluations' units.
    #[arg(long, value_name = "N", default_value_t = 200, requires = "evals",
          value_parser = clap::value_parser!(i32).range(1..=3000))]
    bucket: i32,
}

pub fn run(db: &Path, args: &StatsArgs) -> Result<bool> {
    let store = super::open_for_reading(db, false)?;
    let filter = args.filter.filter()?;
    if args.evals {
        let c = kifudex::query::evals::calibration(&store, &filter, args.bucket)?;
        super::evals::print_calibration(&c, args.json, &mut std::io::stdout().lock())?;
        return Ok(true);
    }
    if !filter.is_empty() {
        let s = store.selection_stats(&filter.selection(&store)?)?;
        if args.json {
            outln!("{}", serde_json::to_string(&s)?);
            return Ok(true);
        }
        outln!("database    {}", db.display());
        outln!("games       {} (of the filter)", s.games);
        outln!("positions   {}", s.positions);
        outln!("players     {}", s.players);
        outln!("files       {}", s.files);
        outln!(
            "results     sente {}, gote {}, {}",
            s.sente_wins,
            s.gote_wins,
            count(s.draws as usize, "draw")
        );
        outln!(
            "dates       {} to {}",
            s.first_date.as_deref().unwrap_or("-"),
            s.last_date.as_deref().unwrap_or("-")
        );
        return Ok(true);
    }
    let s = store.stats()?;
    if args.json {
        outln!("{}", serde_json::to_string(&s)?);
        return Ok(true);
    }
    outln!("database    {}", db.display());
    outln!("games       {}", s.games);
    outln!(
        "positions   {} ({:.1} MB index in {})",
        s.positions,
        s.position_bytes as f64 / 1e6,
        count(s.position_segments as usize, "segment")
    );
    outln!("players     {}", s.players);
    outln!("files       {}", s.files);
    outln!("duplicates  {}", s.duplicates);
    outln!("illegal     {}", s.illegal);
    outln!("errors      {}", s.errors);
    outln!("warnings    {}", s.warnings);
    outln!("bytes       {} ({:.1} MB)", s.bytes, s.bytes as f64 / 1e6);
    outln!(
        "text index  {} ({:.1} MB)",
        s.text_bytes,
        s.text_bytes as f64 / 1e6
    );
    Ok(true)
}
