//! `kifudex upgrade`: brings a database up to date with this kifudex, the one place besides
//! the commands that write where that happens: the schema's migrations, the openings
//! recognised again by new definitions, the positions of games an import left out, the games
//! indexes, and the text index. Commands that only read never do it (they say what is
//! behind instead).

use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use kifudex::store::{MIGRATIONS, Store};

use super::output::Bar;

#[derive(Args, Debug)]
pub struct UpgradeArgs {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// In the migration that merges twins, after this many merges, say so on stderr
    /// (`paused after N merges`) and wait until standard input closes before going on:
    /// tests kill the upgrade in the middle of the migration's transaction without
    /// watching the clock.
    #[arg(long, hide = true, value_name = "MERGES")]
    pause_after_merges: Option<usize>,
    /// Once the database is up to date, say so on stderr (`paused before the text index`)
    /// and wait until standard input closes before bringing the text index up to date.
    #[arg(long, hide = true)]
    pause_before_text: bool,
}

/// Says on stderr where it stopped and waits until standard input closes (or cannot be
/// read): then the upgrade goes on.
fn pause(at: &str) {
    eprintln!("kifudex: paused {at}");
    let mut rest = Vec::new();
    let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut rest);
}

pub fn run(db: &Path, args: &UpgradeArgs) -> Result<bool> {
    let started = Instant::now();
    if let Some(n) = args.pause_after_merges {
        kifudex::store::twins::after_each_merge(move |merged| {
            if merged == n {
                pause(&format!("after {n} merges"));
            }
        });
    }
    let before = Store::schema_version(db)?;
    let bar = Bar::new();
    let mut store = Store::open(db)?;
    let _lock = store.lock_import()?;
    let done = store.upgrade_locked(&bar)?;
    if args.pause_before_text {
        pause("before the text index");
    }
    let text = super::sync_text(&store, &bar)?;
    let seconds = started.elapsed().as_secs_f64();
    let migrated = MIGRATIONS.len() as u32 - before.min(MIGRATIONS.len() as u32);
    if args.json {
        let out = serde_json::json!({
            "schema_before": before,
            "schema": MIGRATIONS.len(),
            "migrations": migrated,
            "recognised": done.recognised,
            "indexed": done.indexed,
            "game_indexes": done.game_indexes,
            "text_added": text.added,
            "text_deleted": text.deleted,
            "text_revised": text.revised,
            "notes": store.migration_notes(),
            "seconds": (seconds * 1000.0).round() / 1000.0,
        });
        outln!("{out}");
        return Ok(true);
    }
    let mut said = Vec::new();
    if migrated > 0 {
        said.push(format!(
            "schema {before} -> {} ({migrated} migration{})",
            MIGRATIONS.len(),
            if migrated == 1 { "" } else { "s" }
        ));
    }
    said.extend(store.migration_notes().iter().cloned());
    if done.recognised > 0 {
        said.push(format!(
            "openings recognised again in {} games",
            done.recognised
        ));
    }
    if done.indexed > 0 {
        said.push(format!("positions of {} games indexed", done.indexed));
    }
    if done.game_indexes {
        said.push("games indexes built".into());
    }
    if text.added + text.deleted + text.revised > 0 {
        said.push(format!(
            "text index: {} games added, {} indexed again, {} removed",
            text.added, text.revised, text.deleted
        ));
    }
    if said.is_empty() {
        outln!("the database is up to date (schema {})", MIGRATIONS.len());
    } else {
        outln!("upgraded: {} in {seconds:.1} s", said.join("; "));
    }
    Ok(true)
}
