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
    outln!("positions   {}", s.positions);
    outln!("players     {}", s.players);
    outln!("files       {}", s.files);
    outln!("duplicates  {}", s.duplicates);
    outln!("illegal     {}", s.illegal);
    outln!("errors      {}", s.errors);
    outln!("bytes       {} ({:.1} MB)", s.bytes, s.bytes as f64 / 1e6);
    outln!(
        "text index  {} ({:.1} MB)",
        s.text_bytes,
        s.text_bytes as f64 / 1e6
    );
    Ok(true)
}
