//! Migration 0015 (twins) killed: `kifudex upgrade` of a schema-14 database that holds twins,
//! killed in the middle of the migration's transaction (stopped after a known number of
//! merges), after it but before the text index, and at moments spread over an uninterrupted
//! run. Whatever the moment, an upgrade run again leaves what an uninterrupted one leaves:
//! `check` ok, the same games with the same events, the same players, the text index whole.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

use kifudex::notation::Record;
use kifudex::notation::kif::write_kif;
use kifudex::notation::synth::{Synth, SynthOptions};
use serde_json::Value;

use crate::util::{Kifudex, TempDb};

/// Games stored twice in the old database (each as a whole KIF and as a twin that lacks the
/// event and the time of day).
const PAIRS: usize = 40;

/// The same game as another site gives it: the players and the day only.
fn twin(rec: &Record) -> Record {
    let keep = |k: &str| matches!(k, "先手" | "後手" | "手合割");
    let mut headers: Vec<(String, String)> = rec
        .headers
        .iter()
        .filter(|(k, _)| keep(k))
        .cloned()
        .collect();
    let day = rec
        .headers
        .iter()
        .find(|(k, _)| k == "開始日時")
        .map(|(_, v)| v[..10].to_string())
        .unwrap();
    headers.push(("開始日時".into(), day));
    Record {
        headers,
        ..rec.clone()
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// A database of schema 14 holding every game of `PAIRS` twice (as the old key, with the
/// event and time of day in it, stored them), with no text index.
fn old_database(dir: &Path) -> PathBuf {
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    let mut synth = Synth::new(SynthOptions {
        seed: 15,
        players: 30,
        variation_rate: 0.0,
        ..SynthOptions::default()
    });
    for i in 0..PAIRS {
        let rec = synth.game();
        std::fs::write(files.join(format!("g{i:03}a.kif")), write_kif(&rec)).unwrap();
        std::fs::write(files.join(format!("g{i:03}b.kif")), write_kif(&twin(&rec))).unwrap();
    }
    let db = dir.join("old");
    let out = Kifudex::new()
        .db(&db)
        .args(["import", "--json", files.to_str().unwrap()])
        .output()
        .success();
    let summary = &out.json_lines()[0];
    assert_eq!(
        (&summary["games"], &summary["twins"]),
        (&Value::from(PAIRS), &Value::from(PAIRS)),
        "{summary}"
    );
    // Two games each, as the old key made them.
    let mut store = kifudex::store::Store::open(&db).unwrap();
    for id in 1..=PAIRS as i64 {
        store.split_twins(id).unwrap();
    }
    drop(store);
    let at = kifudex::store::MIGRATIONS
        .iter()
        .position(|(n, _)| *n == "0015_twins.sql")
        .unwrap();
    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let games: i64 = conn
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(games, 2 * PAIRS as i64);
    conn.execute_batch(crate::util::BACK_TO_SCHEMA_14).unwrap();
    conn.pragma_update(None, "user_version", at as u32).unwrap();
    drop(conn);
    std::fs::remove_dir_all(db.join(kifudex::store::TEXT_DIR)).unwrap();
    db
}

fn schema(db: &Path) -> u32 {
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    c.query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap()
}

/// What an upgrade leaves, as every command sees it: `check`'s verdict and counts, every
/// game's id and event, the players, and the games the text index finds by their events.
#[derive(Debug, PartialEq)]
struct Outcome {
    check: (i32, Value, Value),
    games: Vec<(i64, Option<String>)>,
    players: Value,
    text: usize,
}

fn outcome(db: &Path) -> Outcome {
    let check = Kifudex::new().db(db).args(["check", "--json"]).output();
    let verdict = check.json_lines().remove(0);
    let mut games: Vec<(i64, Option<String>)> = Kifudex::new()
        .db(db)
        .args(["search", "--json", "--limit", "1000"])
        .output()
        .success()
        .json_lines()
        .iter()
        .map(|g| {
            (
                g["id"].as_i64().unwrap(),
                g["event"].as_str().map(str::to_string),
            )
        })
        .collect();
    games.sort();
    let stats = Kifudex::new()
        .db(db)
        .args(["stats", "--json"])
        .output()
        .success()
        .json_lines()
        .remove(0);
    let text = Kifudex::new()
        .db(db)
        .args(["text", "generated", "--json", "--limit", "1000"])
        .output()
        .success();
    let mut found: Vec<i64> = text
        .json_lines()
        .iter()
        .map(|h| h["id"].as_i64().unwrap())
        .collect();
    found.sort_unstable();
    found.dedup();
    Outcome {
        check: (
            check.code(),
            verdict["ok"].clone(),
            verdict["games"].clone(),
        ),
        games,
        players: stats["players"].clone(),
        text: found.len(),
    }
}

/// Runs `upgrade` with `args` until it says `said` on stderr, then kills it.
fn kill_when_said(db: &Path, args: &[&str], said: &str) {
    let mut child = Kifudex::new()
        .db(db)
        .args(args)
        .command()
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let hold = child.stdin.take().expect("its standard input");
    let mut heard = String::new();
    for line in std::io::BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        heard.push_str(&line);
        heard.push('\n');
        if line == said {
            break;
        }
    }
    assert!(heard.ends_with(&format!("{said}\n")), "{heard}");
    child.kill().unwrap();
    child.wait().unwrap();
    drop(hold);
}

fn upgrade(db: &Path) -> Value {
    Kifudex::new()
        .db(db)
        .args(["upgrade", "--json"])
        .output()
        .success()
        .json_lines()
        .remove(0)
}

#[test]
fn a_killed_twins_migration_is_finished_by_a_rerun() {
    let dir = TempDb::new("twins-kill");
    let old = old_database(&dir);
    let merged = format!(
        "merged {PAIRS} games into {PAIRS} that are the same game read from several sources (the key of a game is now its start and moves; its metadata is compared)"
    );

    // Uninterrupted.
    let whole = dir.join("whole");
    copy_dir(&old, &whole);
    let started = Instant::now();
    let done = upgrade(&whole);
    let took = started.elapsed();
    assert_eq!(done["notes"], serde_json::json!([merged]), "{done}");
    let expected = outcome(&whole);
    assert_eq!(
        (&expected.check.0, &expected.check.1, &expected.check.2),
        (&0, &Value::from(true), &Value::from(PAIRS)),
        "{expected:?}"
    );
    assert_eq!(expected.games.len(), PAIRS);
    assert!(
        expected.games.iter().all(|(_, e)| e.is_some()),
        "{expected:?}"
    );
    assert_eq!(expected.text, PAIRS);

    // Killed in the middle of the migration's transaction: the database is as it was; the
    // next upgrade runs the whole migration again.
    for at in [1, PAIRS / 2, PAIRS] {
        let db = dir.join(format!("merge-{at}"));
        copy_dir(&old, &db);
        kill_when_said(
            &db,
            &["upgrade", "--pause-after-merges", &at.to_string()],
            &format!("kifudex: paused after {at} merges"),
        );
        assert_eq!(schema(&db), 14, "killed after {at} merges");
        let done = upgrade(&db);
        assert_eq!(done["notes"], serde_json::json!([merged]), "{done}");
        assert_eq!(outcome(&db), expected, "killed after {at} merges");
    }

    // Killed after the migration, before the text index: the next upgrade builds it.
    let db = dir.join("text");
    copy_dir(&old, &db);
    kill_when_said(
        &db,
        &["upgrade", "--pause-before-text"],
        "kifudex: paused before the text index",
    );
    assert_eq!(schema(&db) as usize, kifudex::store::MIGRATIONS.len());
    let done = upgrade(&db);
    assert_eq!(done["text_added"], PAIRS, "{done}");
    assert_eq!(outcome(&db), expected, "killed before the text index");

    // Killed at moments spread over an uninterrupted run (wherever they land).
    for fifth in 1..=4u32 {
        let db = dir.join(format!("clock-{fifth}"));
        copy_dir(&old, &db);
        let mut child = Kifudex::new()
            .db(&db)
            .args(["upgrade"])
            .command()
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(took * fifth / 5);
        let _ = child.kill();
        child.wait().unwrap();
        upgrade(&db);
        assert_eq!(outcome(&db), expected, "killed at {fifth}/5 of {took:?}");
    }
}
