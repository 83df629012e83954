//! The migration runner: numbered SQL files from `migrations/`, embedded in the binary, applied
//! in order over `PRAGMA user_version`, each in its own transaction.

use rusqlite::Connection;

use super::StoreError;

/// Every migration, in order; the database's `user_version` is how many have been applied.
pub const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_games.sql",
        include_str!("../../../../migrations/0001_games.sql"),
    ),
    (
        "0002_positions.sql",
        include_str!("../../../../migrations/0002_positions.sql"),
    ),
    (
        "0003_rows.sql",
        include_str!("../../../../migrations/0003_rows.sql"),
    ),
    (
        "0004_error_severity.sql",
        include_str!("../../../../migrations/0004_error_severity.sql"),
    ),
    (
        "0005_game_key.sql",
        include_str!("../../../../migrations/0005_game_key.sql"),
    ),
    (
        "0006_incomplete.sql",
        include_str!("../../../../migrations/0006_incomplete.sql"),
    ),
    (
        "0007_source_keys.sql",
        include_str!("../../../../migrations/0007_source_keys.sql"),
    ),
    (
        "0008_source_options.sql",
        include_str!("../../../../migrations/0008_source_options.sql"),
    ),
    (
        "0009_openings.sql",
        include_str!("../../../../migrations/0009_openings.sql"),
    ),
    (
        "0010_player_totals.sql",
        include_str!("../../../../migrations/0010_player_totals.sql"),
    ),
    (
        "0011_recognised_names.sql",
        include_str!("../../../../migrations/0011_recognised_names.sql"),
    ),
    (
        "0012_checksums.sql",
        include_str!("../../../../migrations/0012_checksums.sql"),
    ),
    (
        "0013_game_labels.sql",
        include_str!("../../../../migrations/0013_game_labels.sql"),
    ),
    (
        "0014_evals.sql",
        include_str!("../../../../migrations/0014_evals.sql"),
    ),
    (
        "0015_twins.sql",
        include_str!("../../../../migrations/0015_twins.sql"),
    ),
    (
        "0016_pair_totals.sql",
        include_str!("../../../../migrations/0016_pair_totals.sql"),
    ),
    (
        "0017_player_years.sql",
        include_str!("../../../../migrations/0017_player_years.sql"),
    ),
];

/// A step of a migration that SQL cannot take (a value the program computes), run right after
/// the SQL file it names, in the same transaction. Steps are keyed by their migration's file
/// name, which gives its schema version (its place in [`MIGRATIONS`], plus one), so that a
/// renumbering at merge moves a step with its file.
/// A step may say what it did, for the user (how many games a re-keying merged).
type RustStep = fn(&rusqlite::Connection) -> Result<Option<String>, StoreError>;

/// Every Rust step, by the name of the migration it follows.
const RUST_STEPS: &[(&str, RustStep)] = &[
    ("0005_game_key.sql", |c| {
        super::rekey::recompute_fingerprints(c).map(|()| None)
    }),
    // The players' totals of 0010 are counted at 0017, whose tables replace them.
    ("0012_checksums.sql", |c| {
        super::checksum::fill(c).map(|()| None)
    }),
    ("0013_game_labels.sql", |c| {
        super::labels::rebuild(c).map(|()| None)
    }),
    ("0014_evals.sql", |c| super::evals::fill(c).map(|()| None)),
    ("0015_twins.sql", super::twins::rekey::merge_twins),
    ("0016_pair_totals.sql", |c| {
        super::labels::rebuild(c).map(|()| None)
    }),
    ("0017_player_years.sql", |c| {
        super::labels::rebuild_with(c, true).map(|()| None)
    }),
];

/// The schema version this program writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Brings the database up to [`SCHEMA_VERSION`]; returns what the steps said they did.
pub fn migrate(conn: &mut Connection) -> Result<Vec<String>, StoreError> {
    let current: u32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if current > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            found: current,
            known: SCHEMA_VERSION,
        });
    }
    let mut notes = Vec::new();
    if current == SCHEMA_VERSION {
        return Ok(notes);
    }
    // A migration may rebuild a table others refer to: foreign keys are checked once it is
    // done, not statement by statement (the pragma only changes outside a transaction).
    let enforced: bool = conn.query_row("PRAGMA foreign_keys", [], |r| r.get(0))?;
    conn.pragma_update(None, "foreign_keys", false)?;
    let result = (|| {
        for (i, (name, sql)) in MIGRATIONS.iter().enumerate().skip(current as usize) {
            let failed = |e| StoreError::Migration(name.to_string(), e);
            let tx = conn.transaction()?;
            tx.execute_batch(sql).map_err(failed)?;
            for (_, step) in RUST_STEPS.iter().filter(|(n, _)| n == name) {
                notes.extend(step(&tx)?);
            }
            let broken: Option<String> = tx
                .prepare("PRAGMA foreign_key_check")?
                .query_map([], |r| r.get(0))?
                .next()
                .transpose()?;
            if let Some(table) = broken {
                return Err(failed(rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY),
                    Some(format!("a row of {table} refers to a missing row")),
                )));
            }
            tx.pragma_update(None, "user_version", i as u32 + 1)?;
            tx.commit()?;
        }
        Ok(())
    })();
    conn.pragma_update(None, "foreign_keys", enforced)?;
    result.map(|()| notes)
}
