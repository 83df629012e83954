//! `kifudex stats`: what the database holds.

use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::store::Store;

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(db: &Path, args: &StatsArgs) -> Result<bool> {
    let store = Store::open(db)?;
    let s = store.stats()?;
    if args.json {
        outln!("{}", serde_json::to_string(&s)?);
        return Ok(true);
    }
    outln!("database    {}", db.display());
    outln!("games       {}", s.games);
    outln!(
        "positions   {} ({:.1} MB index in {} segment{})",
        s.positions,
        s.position_bytes as f64 / 1e6,
        s.position_segments,
        if s.position_segments == 1 { "" } else { "s" }
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
