//! `kifudex optimize`: one position segment, removed games dropped, the file tidied.

use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::store::Store;

#[derive(Args, Debug)]
pub struct OptimizeArgs {}

pub fn run(db: &Path, _args: &OptimizeArgs) -> Result<bool> {
    let mut store = Store::open(db)?;
    let before = store.stats()?;
    let report = store.optimize()?;
    let after = store.stats()?;
    outln!(
        "position index: {} segment{} merged into {}, {} postings, {:.1} MB; database {:.1} MB -> {:.1} MB",
        report.segments_before,
        if report.segments_before == 1 { "" } else { "s" },
        report.segments_after,
        after.positions,
        after.position_bytes as f64 / 1e6,
        before.bytes as f64 / 1e6,
        after.bytes as f64 / 1e6
    );
    Ok(true)
}
