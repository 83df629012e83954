//! The openings recognised again after a definition change: the text index takes the games
//! whose recognised names changed, and only those (issue 37: rebuilding it whole was most
//! of the time on a large database). An index behind a recognition it cannot follow game by
//! game (one an older kifudex made) is rebuilt.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{Kifudex, TempDb};
use kifudex::classify::recognise_record;
use kifudex::notation::Record;
use kifudex::synth::{Synth, SynthOptions};

const GAMES: usize = 40;

/// The games (ids from 1) whose recognised names hold `needle`, by recognising each record.
fn want(records: &[Record], needle: &str) -> Vec<i64> {
    records
        .iter()
        .enumerate()
        .filter(|(_, rec)| {
            let r = recognise_record(rec);
            r.opening.is_some_and(|o| o.contains(needle))
                || r.items.iter().any(|i| i.name.contains(needle))
        })
        .map(|(i, _)| i as i64 + 1)
        .collect()
}

/// The games `text opening:NEEDLE` finds, each once, in id order.
fn got(db: &Path, needle: &str) -> Vec<i64> {
    let out = Kifudex::new()
        .db(db)
        .args([
            "text",
            &format!("opening:{needle}"),
            "--json",
            "--limit",
            "1000",
        ])
        .output()
        .success();
    let mut ids: Vec<i64> = out
        .json_lines()
        .iter()
        .map(|h| h["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

fn sql(db: &Path, batch: &str) {
    rusqlite::Connection::open(db.join("kifudex.sqlite"))
        .unwrap()
        .execute_batch(batch)
        .unwrap();
}

/// `GAMES` synthetic games of `seed` without a 戦型 header (what is counted and searched is
/// then the recognised label), imported into a database in `dir`: the database and the
/// records as read back.
fn imported(dir: &Path, seed: u64) -> (PathBuf, Vec<Record>) {
    let files = dir.join("games");
    std::fs::create_dir_all(&files).unwrap();
    let mut synth = Synth::new(SynthOptions {
        seed,
        ..SynthOptions::default()
    });
    let mut records = Vec::new();
    for i in 0..GAMES {
        let mut rec = synth.game();
        rec.headers.retain(|(k, _)| k != "戦型");
        let text = kifudex::notation::kif::write_kif(&rec);
        std::fs::write(files.join(format!("g{i:03}.kifu")), &text).unwrap();
        records.push(kifudex::notation::kif::read_kif(&text));
    }
    let db = dir.join("db");
    Kifudex::new()
        .db(&db)
        .args(["import", files.to_str().unwrap()])
        .output()
        .success();
    (db, records)
}

/// `upgrade --json`'s object and what it said on stderr.
fn upgrade(db: &Path) -> (Value, String) {
    let out = Kifudex::new()
        .db(db)
        .args(["upgrade", "--json"])
        .output()
        .success();
    (out.json_lines().remove(0), out.stderr)
}

#[test]
fn recognised_again_the_text_index_takes_the_games_that_changed() {
    let dir = TempDb::new("recognise-again");
    let (db, records) = imported(&dir, 37);
    let needles = ["振り飛車", "居飛車", "美濃", "居玉"];
    let all = |db: &Path| -> Vec<Vec<i64>> { needles.iter().map(|n| got(db, n)).collect() };
    let wanted: Vec<Vec<i64>> = needles.iter().map(|n| want(&records, n)).collect();
    assert_eq!(all(&db), wanted);

    // Games 1 to 5 without their recognised names (as other definitions left them), and an
    // index built from that.
    sql(
        &db,
        "UPDATE games SET label = NULL, recognised = NULL WHERE id <= 5;",
    );
    std::fs::remove_dir_all(db.join(kifudex::store::TEXT_DIR)).unwrap();
    let (done, _) = upgrade(&db);
    assert_eq!(
        (&done["recognised"], &done["text_added"]),
        (&Value::from(0), &Value::from(GAMES))
    );
    let before = all(&db);
    assert_ne!(before, wanted, "games 1 to 5 have names the test looks for");

    // The definitions changed: every game is recognised again, games 1 to 5 get their names
    // back, and the text index takes those five alone.
    sql(
        &db,
        "UPDATE meta SET value = '0' WHERE key = 'classify_version';",
    );
    let (done, said) = upgrade(&db);
    assert_eq!(
        (
            &done["recognised"],
            &done["text_revised"],
            &done["text_added"],
            &done["text_deleted"]
        ),
        (
            &Value::from(GAMES),
            &Value::from(5),
            &Value::from(0),
            &Value::from(0)
        ),
        "{done}"
    );
    assert!(!said.contains("rebuilding"), "{said}");
    assert_eq!(all(&db), wanted);

    // Recognised again with nothing changed: nothing to index.
    sql(
        &db,
        "UPDATE meta SET value = '0' WHERE key = 'classify_version';",
    );
    let (done, _) = upgrade(&db);
    assert_eq!(
        (
            &done["recognised"],
            &done["text_revised"],
            &done["text_added"]
        ),
        (&Value::from(GAMES), &Value::from(0), &Value::from(0)),
        "{done}"
    );
    assert_eq!(all(&db), wanted);

    // Recognised again by a kifudex that did not record what changed: the index cannot
    // follow game by game and is rebuilt.
    sql(
        &db,
        "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'recognised_epoch';
         DELETE FROM meta WHERE key = 'recognised_logged';",
    );
    let (done, said) = upgrade(&db);
    assert_eq!(done["text_added"], GAMES, "{done}");
    assert!(
        said.contains(
            "the recognised openings changed: rebuilding the text index from the database"
        ),
        "{said}"
    );
    assert_eq!(all(&db), wanted);
}

/// The players' games by opening follow a new recognition: counted again in the same
/// reading of the games as the opening totals, they equal a count over the games.
#[test]
fn recognised_again_the_players_openings_follow() {
    let dir = TempDb::new("recognise-again-players");
    let (db, _) = imported(&dir, 38);
    // `COMMAND --json` and more arguments: its answer.
    let json = |command: &str, extra: &[&str]| -> Vec<Value> {
        let mut args = vec![command, "--json"];
        args.extend_from_slice(extra);
        Kifudex::new()
            .db(&db)
            .args(&args)
            .output()
            .success()
            .json_lines()
    };
    let players = |extra: &[&str]| json("players", extra);
    // From the totals (every game), and counted from the games (`--min-plies 0` reads them).
    let counted = players(&["--min-plies", "0"]);
    assert_eq!(players(&[]), counted);
    assert!(
        counted
            .iter()
            .any(|p| !p["openings"].as_array().unwrap().is_empty())
    );

    // Other definitions labelled games 1 to 10 `旧定義`, and the players' totals over every
    // year with them.
    sql(
        &db,
        "UPDATE games SET label = '旧定義',
             label_id = (SELECT max(id) FROM game_labels) WHERE id <= 10;
         DELETE FROM player_openings;
         INSERT INTO player_openings (player, side, year, opening, games)
             SELECT sente_id, 0, -1, coalesce(opening, label) AS o, count(*) FROM games
             WHERE sente_id IS NOT NULL AND o IS NOT NULL GROUP BY sente_id, o
             UNION ALL
             SELECT gote_id, 1, -1, coalesce(opening, label) AS o, count(*) FROM games
             WHERE gote_id IS NOT NULL AND o IS NOT NULL GROUP BY gote_id, o;
         UPDATE meta SET value = '0' WHERE key = 'classify_version';",
    );
    let old = players(&[]);
    assert_ne!(old, counted);
    assert!(format!("{old:?}").contains("旧定義"));

    let (done, _) = upgrade(&db);
    assert_eq!(done["recognised"], GAMES, "{done}");
    assert_eq!(players(&[]), counted);
    assert_eq!(players(&["--min-plies", "0"]), counted);

    // The opening totals and the label numbers were counted in the same pass: the table
    // from the totals equals the count over the games, and no game keeps the old label.
    let openings = |extra: &[&str]| json("openings", extra);
    for by in [&[][..], &["--pairs"], &["--by", "year"]] {
        let mut counted = by.to_vec();
        counted.extend_from_slice(&["--min-plies", "0"]);
        let got = openings(by);
        assert!(!got.is_empty());
        assert_eq!(got, openings(&counted), "{by:?}");
        assert!(!format!("{got:?}").contains("旧定義"), "{by:?}");
    }
    // Each label's games by number (`--opening`) are those by text (`--opening-from moves`).
    let ids = |args: &[&str]| -> Vec<i64> {
        let mut a = vec!["--limit", "1000"];
        a.extend_from_slice(args);
        let mut ids: Vec<i64> = json("search", &a)
            .iter()
            .map(|g| g["id"].as_i64().unwrap())
            .collect();
        ids.sort_unstable();
        ids
    };
    let labels: Vec<String> = openings(&[])
        .iter()
        .filter(|r| r["kind"] == "opening")
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    assert!(labels.len() > 2, "{labels:?}");
    for l in &labels {
        let by_number = ids(&["--opening", l]);
        assert!(!by_number.is_empty(), "{l}");
        assert_eq!(
            by_number,
            ids(&["--opening", l, "--opening-from", "moves"]),
            "{l}"
        );
    }
}
