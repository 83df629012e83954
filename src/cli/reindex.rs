//! `kifudex reindex`: throw the text index away and build it again from the database.

use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use kifudex::text::TextIndex;

#[derive(Args, Debug)]
pub struct ReindexArgs {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(db: &Path, args: &ReindexArgs) -> Result<bool> {
    let started = Instant::now();
    // The index is thrown away: not under an import writing to it.
    let (store, _lock) = super::open_for_writing(db)?;
    let report = TextIndex::rebuild(&store.db().text(), &store)?;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let out = serde_json::json!({"games": report.added, "seconds": seconds});
        outln!("{out}");
    } else {
        outln!(
            "text index rebuilt: {} game{} in {seconds:.1} s",
            report.added,
            if report.added == 1 { "" } else { "s" }
        );
    }
    Ok(true)
}
