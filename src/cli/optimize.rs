//! `kifudex optimize`: one position segment, removed games dropped, the file tidied.

use std::path::Path;

use anyhow::Result;
use clap::Args;

#[derive(Args, Debug)]
pub struct OptimizeArgs {}

pub fn run(db: &Path, _args: &OptimizeArgs) -> Result<bool> {
    let (mut store, _lock) = super::open_for_writing(db)?;
    let before = store.stats()?;
    let report = store.optimize()?;
    let (mut text, sync) = kifudex::query::open_text(&store)?;
    if let Some(n) = sync.notice {
        eprintln!("kifudex: {n}");
    }
    let text_before = text.merge_all()?;
    let text_after = text.segments()?;
    text.finish()?;
    let after = store.stats()?;
    let merged = if report.merged {
        format!(
            "{} segment{} merged into {}",
            report.segments_before,
            if report.segments_before == 1 { "" } else { "s" },
            report.segments_after
        )
    } else {
        "already merged".to_string()
    };
    outln!(
        "position index: {merged}, {} postings, {:.1} MB; text index: {text_before} segment{} -> {text_after}; lists by opening name: {} -> {}; database {:.1} MB -> {:.1} MB",
        after.positions,
        after.position_bytes as f64 / 1e6,
        if text_before == 1 { "" } else { "s" },
        report.lists.0,
        report.lists.1,
        before.bytes as f64 / 1e6,
        after.bytes as f64 / 1e6
    );
    Ok(true)
}
