//! `kifudex check` finds each injected fault and `check --repair` mends it; a damaged block is
//! an error that names it, never a quiet empty answer; a database of the format before
//! checksums gets them from the upgrade.

use std::path::Path;

use crate::util::{Kifudex, TempDb};
use serde_json::Value;

fn sample(name: &str) -> (TempDb, std::path::PathBuf) {
    let dir = TempDb::new(name);
    let db = dir.join("db");
    let out = Kifudex::new()
        .db(&db)
        .args(["import", "sample_db/"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    (dir, db)
}

fn check(db: &Path, repair: bool) -> (i32, Value) {
    let mut args = vec!["check", "--json"];
    if repair {
        args.push("--repair");
    }
    let out = Kifudex::new().db(db).args(&args).output();
    (out.code(), out.json_lines().remove(0))
}

fn run(db: &Path, args: &[&str]) -> crate::util::Run {
    Kifudex::new().db(db).args(args).output()
}

/// Flips one bit in the middle of each blob `sql` selects (`id, blob`) and writes it back
/// with `update` (`?1` the blob, `?2` the id).
fn flip(db: &Path, sql: &str, update: &str) -> usize {
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let rows: Vec<(i64, Vec<u8>)> = c
        .prepare(sql)
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (id, mut blob) in rows.iter().cloned() {
        let at = blob.len() / 2;
        blob[at] ^= 0x10;
        c.execute(update, rusqlite::params![blob, id]).unwrap();
    }
    rows.len()
}

#[test]
fn a_healthy_database_checks_ok() {
    let (_dir, db) = sample("check-ok");
    let (code, v) = check(&db, false);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["ok"], true);
    assert_eq!(v["games"], 219);
    assert_eq!(v["postings"], 25255);
    assert_eq!(v["positions"], 25255);
    let out = run(&db, &["check"]);
    assert_eq!(
        out.stdout,
        "ok: 219 games, 1 segments, 40 blocks, 25255 postings\n"
    );
}

#[test]
fn a_damaged_block_is_an_error_found_and_mended() {
    let (_dir, db) = sample("check-block");
    let want = run(&db, &["tree", "startpos moves 7g7f", "--json"]).stdout;
    let blocks = flip(
        &db,
        "SELECT id, data FROM position_blocks",
        "UPDATE position_blocks SET data = ?1 WHERE id = ?2",
    );
    assert_eq!(blocks, 40);
    // The query says what is damaged and how to mend it, and answers nothing.
    let out = run(&db, &["tree", "startpos moves 7g7f", "--json"]);
    assert_eq!(out.code(), 1);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr.starts_with("kifudex: the database is damaged: block ")
            && out.stderr.contains(" of segment 1 of the position index does not match its checksum; `kifudex check --repair` rebuilds"),
        "{}",
        out.stderr
    );
    let (code, v) = check(&db, false);
    assert_eq!(code, 1);
    assert_eq!(v["index_damage"].as_array().unwrap().len(), 40, "{v}");
    let (code, v) = check(&db, true);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["repaired"],
        serde_json::json!(["position index rebuilt from 219 games"])
    );
    assert_eq!(
        run(&db, &["tree", "startpos moves 7g7f", "--json"]).stdout,
        want
    );
}

#[test]
fn damaged_segment_columns_are_found_and_mended() {
    let (_dir, db) = sample("check-segment");
    let want = run(&db, &["tree", "startpos", "--json"]).stdout;
    flip(
        &db,
        "SELECT id, results FROM position_segments",
        "UPDATE position_segments SET results = ?1 WHERE id = ?2",
    );
    // (A tree over this few games replays them and reads no column: the columns are read,
    // and checked, for positions reached by thousands of games.)
    let (code, v) = check(&db, false);
    assert_eq!(code, 1);
    assert_eq!(
        v["index_damage"],
        serde_json::json!(["segment 1: its games' results and dates do not match their checksum"])
    );
    assert_eq!(check(&db, true).0, 0);
    assert_eq!(run(&db, &["tree", "startpos", "--json"]).stdout, want);
}

/// The files of the current text index with this extension.
fn text_files(db: &Path, ext: &str) -> Vec<std::path::PathBuf> {
    let dir = kifudex::text::generation::current(&db.join("text"));
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    out
}

#[test]
fn a_damaged_text_index_is_found_and_mended() {
    let (_dir, db) = sample("check-text");
    let want = run(&db, &["text", "序盤", "--json"]).stdout;
    assert!(!want.is_empty());
    // Bytes flipped in a column file: found by its checksum.
    let fast = &text_files(&db, "fast")[0];
    let mut bytes = std::fs::read(fast).unwrap();
    for i in [100, 200, 300] {
        bytes[i] ^= 0xff;
    }
    std::fs::write(fast, bytes).unwrap();
    let (code, v) = check(&db, false);
    assert_eq!(code, 1);
    let damage = v["text_damage"].as_array().unwrap();
    assert_eq!(damage.len(), 1, "{v}");
    assert!(
        damage[0]
            .as_str()
            .unwrap()
            .ends_with(".fast: does not match its checksum"),
        "{v}"
    );
    let (code, v) = check(&db, true);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["repaired"],
        serde_json::json!(["text index rebuilt from 219 games"])
    );
    assert_eq!(run(&db, &["text", "序盤", "--json"]).stdout, want);
    // A segment file gone: a search says the index is damaged and names the repair.
    std::fs::remove_file(&text_files(&db, "idx")[0]).unwrap();
    let out = run(&db, &["text", "序盤", "--json"]);
    assert_eq!(out.code(), 1);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr.contains("is damaged")
            && out
                .stderr
                .contains("`kifudex check --repair` builds it again"),
        "{}",
        out.stderr
    );
    assert_eq!(check(&db, false).0, 1);
    assert_eq!(check(&db, true).0, 0);
    assert_eq!(run(&db, &["text", "序盤", "--json"]).stdout, want);
}

#[test]
fn a_damaged_game_is_named_for_its_file_to_be_read_again() {
    let (_dir, db) = sample("check-game");
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let moves: Vec<u8> = c
        .query_row("SELECT moves FROM games WHERE id = 7", [], |r| r.get(0))
        .unwrap();
    let mut bad = moves.clone();
    bad[2] ^= 0x01;
    c.execute("UPDATE games SET moves = ?1 WHERE id = 7", [bad])
        .unwrap();
    drop(c);
    let (code, v) = check(&db, false);
    assert_eq!(code, 1);
    assert_eq!(v["damaged_games"], serde_json::json!([7]));
    let out = run(&db, &["check"]);
    assert!(
        out.stdout.starts_with("game 7: its moves do not match their checksum or cannot be replayed: remove it (`kifudex remove --game 7`) and import its file again\n"),
        "{}",
        out.stdout
    );
}

/// A database of schema 11 (before checksums): the upgrade computes them, and check finds
/// every block, segment and game with its checksum.
#[test]
fn a_database_before_checksums_gets_them_from_the_upgrade() {
    let (_dir, db) = sample("check-migrate");
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    c.execute_batch(crate::util::BACK_TO_SCHEMA_13).unwrap();
    c.execute_batch(
        "DROP INDEX games_label; DROP INDEX games_date;
         CREATE INDEX games_date ON games(date);
         ALTER TABLE games DROP COLUMN label_id;
         DROP TABLE game_labels; DROP TABLE opening_totals;
         ALTER TABLE position_blocks DROP COLUMN crc;
         ALTER TABLE position_segments DROP COLUMN crc;
         ALTER TABLE games DROP COLUMN moves_crc;
         PRAGMA user_version = 11;",
    )
    .unwrap();
    drop(c);
    crate::util::upgrade_old(&db);
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let nulls: i64 = c
        .query_row(
            "SELECT (SELECT count(*) FROM position_blocks WHERE crc IS NULL)
                  + (SELECT count(*) FROM position_segments WHERE crc IS NULL)
                  + (SELECT count(*) FROM games WHERE moves_crc IS NULL)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(nulls, 0);
    drop(c);
    assert_eq!(check(&db, false).0, 0);
    flip(
        &db,
        "SELECT id, data FROM position_blocks",
        "UPDATE position_blocks SET data = ?1 WHERE id = ?2",
    );
    assert_eq!(check(&db, false).0, 1);
}

/// A stored value that is not what its column holds (text that is not UTF-8, a blob where
/// text belongs) is said to be damage of the database file, not a bare database error.
#[test]
fn a_damaged_value_is_said_to_be_damage() {
    let (_dir, db) = sample("check-value");
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    c.execute_batch(
        "UPDATE games SET event = CAST(X'41FF42' AS TEXT) WHERE id = 5;
         UPDATE games SET headers = X'41FF42' WHERE id = 6;",
    )
    .unwrap();
    drop(c);
    for (args, detail) in [
        (
            vec!["search", "--limit", "300"],
            "invalid utf-8 sequence of 1 bytes from index 1 at index 6",
        ),
        (
            vec!["show", "6"],
            "Invalid column type Blob at index: 8, name: headers",
        ),
    ] {
        let out = run(&db, &args);
        assert_eq!(out.code(), 1, "{args:?}");
        assert_eq!(
            out.stderr,
            format!(
                "kifudex: the database file kifudex.sqlite is damaged: a stored value is not what its column holds ({detail}); the games it holds cannot be rebuilt from it: re-import them, or restore a backup\n"
            ),
            "{args:?}"
        );
    }
}
