//! `kifudex check [--repair]`: reads the whole database and says what is damaged or behind:
//! SQLite's integrity, every block of the position index against its checksum and against the
//! games, every game's moves, the text index's files. `--repair` rebuilds what is derived
//! from the games (the position index, the text index, recognition); a damaged game row is
//! named, for its file to be imported again.

use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::store::{Store, StoreCheck};
use kifudex::text::TextIndex;

use super::output::Bar;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Rebuild what is found damaged or behind (the position index, the text index,
    /// recognition).
    #[arg(long)]
    repair: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// What was found, and what was mended.
#[derive(Debug, Default)]
struct Report {
    store: StoreCheck,
    text_damage: Vec<String>,
    text_behind: Option<String>,
    repaired: Vec<String>,
}

impl Report {
    /// Problems that need a repair (or a user's hand), in words.
    fn problems(&self) -> Vec<String> {
        let s = &self.store;
        let mut out = Vec::new();
        for l in &s.sqlite {
            out.push(format!("database file: {l}"));
        }
        for d in &s.index_damage {
            out.push(format!("position index: {d}"));
        }
        for id in &s.damaged_games {
            out.push(format!(
                "game {id}: its moves do not match their checksum or cannot be replayed: remove it (`kifudex remove --game {id}`) and import its file again"
            ));
        }
        if s.unindexed_games > 0 {
            out.push(format!(
                "position index: {} games are not indexed yet",
                s.unindexed_games
            ));
        }
        if s.recognition_stale {
            out.push("openings: recognised by older definitions".into());
        }
        for d in &self.text_damage {
            out.push(format!("text index: {d}"));
        }
        if let Some(b) = &self.text_behind {
            out.push(format!("text index: {b}"));
        }
        out
    }
}

fn examine(store: &Store, bar: &Bar) -> Result<Report> {
    let store_check = store.check(bar)?;
    let base = store.db().text();
    let text_damage = TextIndex::check(&base);
    let text_behind = match TextIndex::open_read(&base) {
        Ok(index) if text_damage.is_empty() => index.behind(store)?,
        _ => None,
    };
    Ok(Report {
        store: store_check,
        text_damage,
        text_behind,
        repaired: Vec::new(),
    })
}

pub fn run(db: &Path, args: &CheckArgs) -> Result<bool> {
    let bar = Bar::new();
    let report = if args.repair {
        let mut store = Store::open(db)?;
        let _lock = store.lock_import()?;
        let found = examine(&store, &bar)?;
        let mut repaired = Vec::new();
        if found.store.index_damaged() || found.store.unindexed_games > 0 {
            use kifudex::progress::Progress;
            bar.stage("rebuilding the position index", None, "");
            let n = store.rebuild_position_index()?;
            bar.finish();
            repaired.push(format!("position index rebuilt from {n} games"));
        }
        if found.store.recognition_stale {
            let n = store.recognise_all(&bar)?;
            repaired.push(format!("openings recognised again in {n} games"));
        }
        if !found.text_damage.is_empty() || found.text_behind.is_some() {
            use kifudex::progress::Progress;
            bar.stage("rebuilding the text index", None, "");
            let r = TextIndex::rebuild(&store.db().text(), &store)?;
            bar.finish();
            repaired.push(format!("text index rebuilt from {} games", r.added));
        }
        if repaired.is_empty() {
            found
        } else {
            // What is left after the repair.
            let mut after = examine(&store, &bar)?;
            after.repaired = repaired;
            after
        }
    } else {
        let store = Store::open_read_only(db)?;
        examine(&store, &bar)?
    };
    let problems = report.problems();
    if args.json {
        let mut v = serde_json::to_value(&report.store)?;
        v["text_damage"] = serde_json::json!(report.text_damage);
        v["text_behind"] = serde_json::json!(report.text_behind);
        v["repaired"] = serde_json::json!(report.repaired);
        v["problems"] = serde_json::json!(problems);
        v["ok"] = serde_json::json!(problems.is_empty());
        outln!("{v}");
    } else {
        for r in &report.repaired {
            outln!("repaired: {r}");
        }
        for p in &problems {
            outln!("{p}");
        }
        let s = &report.store;
        outln!(
            "{}: {} games, {} segments, {} blocks, {} postings{}",
            if problems.is_empty() {
                "ok"
            } else {
                "problems found"
            },
            s.games,
            s.segments,
            s.blocks,
            s.postings,
            if problems.is_empty() || args.repair {
                String::new()
            } else {
                "; `kifudex check --repair` rebuilds what is derived from the games".into()
            }
        );
    }
    Ok(problems.is_empty())
}
