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
        println!("{}", serde_json::to_string(&s)?);
        return Ok(true);
    }
    println!("database    {}", db.display());
    println!("games       {}", s.games);
    println!("positions   {}", s.positions);
    println!("players     {}", s.players);
    println!("files       {}", s.files);
    println!("duplicates  {}", s.duplicates);
    println!("illegal     {}", s.illegal);
    println!("errors      {}", s.errors);
    println!("bytes       {} ({:.1} MB)", s.bytes, s.bytes as f64 / 1e6);
    println!(
        "text index  {} ({:.1} MB)",
        s.text_bytes,
        s.text_bytes as f64 / 1e6
    );
    Ok(true)
}
