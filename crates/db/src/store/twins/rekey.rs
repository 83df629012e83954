//! The Rust step of migration 0015: every game re-keyed by its start and main line alone,
//! and the games that are now twins merged (the first stored of them stays and takes the
//! others' sources). Part of the migration's transaction: a migration killed at any moment
//! leaves the database as it was before it, and the next command that writes runs it again.

use std::sync::OnceLock;

use rusqlite::Connection;

use super::hand::absorb;
use super::{conflicts_among, every_facts, load};
use crate::store::StoreError;

/// What runs after each game the re-keying merges, with how many it merged so far.
type MergeHook = Box<dyn Fn(usize) + Send + Sync>;

static AFTER_EACH_MERGE: OnceLock<MergeHook> = OnceLock::new();

/// Sets what runs after each game the re-keying migration merges (once a process): tests
/// stop the migration there, in the middle of its transaction, to kill it at a known point
/// (`kifudex upgrade --pause-after-merges N`). Returns false when one was set before.
pub fn after_each_merge(hook: impl Fn(usize) + Send + Sync + 'static) -> bool {
    AFTER_EACH_MERGE.set(Box::new(hook)).is_ok()
}

/// Re-keys every game and merges the twins; says how many games went into how many.
pub(in crate::store) fn merge_twins(conn: &Connection) -> Result<Option<String>, StoreError> {
    crate::store::rekey::recompute_fingerprints(conn)?;
    let groups = super::shared_keys(conn)?;
    let (mut merged, mut into) = (0usize, 0usize);
    for group in groups {
        // The games that stay, each with what it says now.
        let mut kept: Vec<super::GameFacts> = Vec::new();
        let mut took: Vec<bool> = Vec::new();
        for id in group {
            let Some(game) = load(conn, id)? else {
                continue;
            };
            let theirs = every_facts(conn, &game)?;
            let mut found = None;
            for (at, k) in kept.iter().enumerate() {
                if !conflicts_among(&every_facts(conn, k)?, &theirs).any() {
                    found = Some(at);
                    break;
                }
            }
            match found {
                Some(at) => {
                    absorb(conn, &kept[at], &game, false)?;
                    merged += 1;
                    if let Some(hook) = AFTER_EACH_MERGE.get() {
                        hook(merged);
                    }
                    if !took[at] {
                        took[at] = true;
                        into += 1;
                    }
                    // What it says now, with what it took.
                    if let Some(now) = load(conn, kept[at].id)? {
                        kept[at] = now;
                    }
                }
                None => {
                    kept.push(game);
                    took.push(false);
                }
            }
        }
    }
    Ok((merged > 0).then(|| {
        format!(
            "merged {merged} game{} into {into} that {} the same game read from several sources (the key of a game is now its start and moves; its metadata is compared)",
            if merged == 1 { "" } else { "s" },
            if into == 1 { "is" } else { "are" },
        )
    }))
}
