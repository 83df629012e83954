//! Evaluations in the database: kept at import in 4 bytes a ply (nothing for a game without),
//! read back beside the moves (`show --evals`, `/api/game/ID`), found again by the upgrade of
//! a database of the previous schema, and asked by the filter's `--evaluated`, `--swing` and
//! `--eval-at` (flags, API parameters, text-query keys), each answer compared with a
//! computation written here from the values the test wrote into the records.

use std::collections::BTreeSet;
use std::path::Path;

use kifudex::serve::{Params, answer};
use kifudex::shogi::Position;
use kifudex::store::Store;
use serde_json::Value;

use crate::util::{Kifudex, Rng, TempDb};

/// One generated game: what the test wrote into its record.
pub struct Written {
    /// The position after each move of the main line (the index is the ply).
    pub plies: usize,
    /// The value written after move i (`values[i - 1]`), sente's view; `None`: no line.
    pub values: Vec<Option<i32>>,
    /// `sente`, `gote`, `draw` or `None`.
    pub winner: Option<&'static str>,
    pub sente: String,
    pub gote: String,
}

impl Written {
    /// The value at `ply` (none at the start: the records carry no line there).
    pub fn at(&self, ply: usize) -> Option<i32> {
        ply.checked_sub(1)
            .and_then(|i| self.values.get(i).copied().flatten())
    }
}

/// Writes `n` random CSA games with a Floodgate engine line after most moves (values up to
/// ±40000, some without a line), into `dir`, one file each; returns what they hold, by the
/// order of their file names (the order of import: game ids 1, 2, …).
pub fn write_games(dir: &Path, n: usize, seed: u64) -> Vec<Written> {
    std::fs::create_dir_all(dir).unwrap();
    let mut rng = Rng::new(seed);
    let names = ["甲", "乙", "丙", "丁"];
    let mut out = Vec::new();
    for i in 0..n {
        let plies = 8 + rng.below(40);
        let mut pos = Position::startpos();
        let sente = names[rng.below(4)].to_string();
        let gote = names[rng.below(4)].to_string();
        let mut text = format!("V2.2\nN+{sente}\nN-{gote}\nPI\n+\n");
        let mut values = Vec::new();
        let mut level = 0i32;
        let mut played = 0;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            kifudex::notation::csa::push_csa_move(&mut text, &pos, mv);
            text.push('\n');
            pos.play(mv).unwrap();
            played += 1;
            level += rng.below(900) as i32 - 450;
            let v = match rng.below(20) {
                0 => None,
                1 => Some(if rng.below(2) == 0 { 40_000 } else { -40_000 }),
                _ => Some(level.clamp(-5000, 5000)),
            };
            if let Some(v) = v {
                text.push_str(&format!("'** {v}\n"));
            }
            values.push(v);
        }
        // Games without any line, one in five.
        if rng.below(5) == 0 {
            text = text
                .lines()
                .filter(|l| !l.starts_with("'**"))
                .map(|l| format!("{l}\n"))
                .collect();
            values.iter_mut().for_each(|v| *v = None);
        }
        let (end, winner) = match rng.below(6) {
            0 => ("%SENNICHITE", Some("draw")),
            1 => ("%CHUDAN", None),
            // The side to move resigns.
            _ if played % 2 == 0 => ("%TORYO", Some("gote")),
            _ => ("%TORYO", Some("sente")),
        };
        text.push_str(end);
        text.push('\n');
        std::fs::write(dir.join(format!("g{i:03}.csa")), text).unwrap();
        out.push(Written {
            plies: played,
            values,
            winner,
            sente,
            gote,
        });
    }
    out
}

/// A database of `n` generated games; what they hold.
pub fn generated(name: &str, n: usize, seed: u64) -> (TempDb, Vec<Written>) {
    let dir = TempDb::new(name);
    let games = write_games(&dir.join("files"), n, seed);
    Kifudex::new()
        .db(dir.join("db"))
        .args(["import", dir.join("files").to_str().unwrap()])
        .output()
        .success();
    (dir, games)
}

/// Points as the questions compare them: values held within ±30000.
pub fn points(v: i32) -> i32 {
    v.clamp(-30_000, 30_000)
}

fn ids(run: crate::util::Run) -> BTreeSet<i64> {
    run.success()
        .json_lines()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

#[test]
fn import_keeps_four_bytes_an_evaluated_ply_and_nothing_for_a_game_without() {
    let (dir, games) = generated("evals-import", 30, 7);
    let conn = rusqlite::Connection::open(dir.join("db/kifudex.sqlite")).unwrap();
    let rows: Vec<(i64, i64)> = conn
        .prepare("SELECT game_id, length(evals) FROM game_evals ORDER BY game_id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let want: Vec<(i64, i64)> = games
        .iter()
        .enumerate()
        .map(|(i, g)| (i as i64 + 1, 4 * g.values.iter().flatten().count() as i64))
        .filter(|&(_, bytes)| bytes > 0)
        .collect();
    assert!(want.len() > 10 && want.len() < 30, "{}", want.len());
    assert_eq!(rows, want);
    // Beside the moves: what `parse` reads from each file, and the values the test wrote.
    let files = dir.join("files");
    for (i, g) in games.iter().enumerate() {
        let id = (i + 1).to_string();
        let out = Kifudex::new()
            .db(dir.join("db"))
            .args(["show", &id, "--evals", "--json"])
            .output()
            .success();
        let shown: Value = serde_json::from_str(&out.stdout).unwrap();
        let file = files.join(format!("g{i:03}.csa"));
        let parsed = Kifudex::new()
            .args(["parse", file.to_str().unwrap()])
            .output()
            .success()
            .json_lines();
        // The stored form keeps a value written beyond 16 bits as its nearest end, flagged.
        let fields = |v: &Value| -> Vec<Value> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    let value = e["value"].as_i64().map(|v| v.clamp(-32768, 32767));
                    let clamped = e["value"].as_i64().is_some_and(|v| v.abs() > 32767);
                    serde_json::json!([e["ply"], value, e["mate"], e["source"], e["best"], clamped])
                })
                .collect()
        };
        let shown_fields = |v: &Value| -> Vec<Value> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    serde_json::json!([
                        e["ply"],
                        e["value"],
                        e["mate"],
                        e["source"],
                        e["best"],
                        e["clamped"]
                    ])
                })
                .collect()
        };
        assert_eq!(
            shown_fields(&shown["evals"]),
            fields(&parsed[0]["evals"]),
            "game {id}"
        );
        let values: Vec<(usize, i64)> = shown["evals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["ply"].as_u64().unwrap() as usize,
                    e["value"].as_i64().unwrap(),
                )
            })
            .collect();
        let written: Vec<(usize, i64)> = (0..=g.plies)
            .filter_map(|p| g.at(p).map(|v| (p, i64::from(v.clamp(-32768, 32767)))))
            .collect();
        assert_eq!(values, written, "game {id}");
        assert!(shown["analysis"].is_null());
    }
    // The API carries the same list.
    let store = Store::open_read_only(&dir.join("db")).unwrap();
    let api: Value =
        serde_json::from_str(&answer(&store, "/api/game/2", &Params::parse("").unwrap()).unwrap())
            .unwrap();
    let out = Kifudex::new()
        .db(dir.join("db"))
        .args(["show", "2", "--evals", "--json"])
        .output();
    let shown: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(api["evals"], shown["evals"]);
    assert!(api["evals_analysis"].is_null());
}

/// A database of schema 13 (before evaluations were kept): reads refuse it, `upgrade` reads
/// the evaluations of its games from their stored engine lines, the same as an import would.
#[test]
fn an_upgrade_finds_the_evaluations_of_a_database_made_before_them() {
    let (dir, _) = generated("evals-migrate", 20, 11);
    let db = dir.join("db");
    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    type Row = (i64, Vec<u8>, i64, Option<i64>, Option<i64>);
    let rows = |conn: &rusqlite::Connection| -> Vec<Row> {
        conn.prepare("SELECT game_id, evals, first, result, swing FROM game_evals ORDER BY game_id")
            .unwrap()
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    let imported = rows(&conn);
    assert!(!imported.is_empty());
    let at = kifudex::store::MIGRATIONS
        .iter()
        .position(|(n, _)| *n == "0014_evals.sql")
        .unwrap();
    conn.execute_batch(crate::util::BACK_TO_SCHEMA_13).unwrap();
    conn.execute_batch(&format!("PRAGMA user_version = {at};"))
        .unwrap();
    drop(conn);
    crate::util::upgrade_old(&db);
    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    assert_eq!(rows(&conn), imported);
}

#[test]
fn the_filter_asks_the_evaluations_as_computed_here() {
    let (dir, games) = generated("evals-filter", 40, 23);
    let db = dir.join("db");
    let search = |args: &[&str]| {
        let mut a = vec!["search", "--json", "--limit", "1000"];
        a.extend_from_slice(args);
        ids(Kifudex::new().db(&db).args(&a).output())
    };
    let want = |keep: &dyn Fn(&Written) -> bool| -> BTreeSet<i64> {
        games
            .iter()
            .enumerate()
            .filter(|(_, g)| keep(g))
            .map(|(i, _)| i as i64 + 1)
            .collect()
    };
    let evaluated = |g: &Written| g.values.iter().any(Option::is_some);
    assert_eq!(search(&["--evaluated", "yes"]), want(&evaluated));
    assert_eq!(search(&["--evaluated", "no"]), want(&|g| !evaluated(g)));
    // The deciding swing: a move of the loser from a position where the winner was not
    // ahead, after which the winner was ahead at every evaluated position.
    let swing = |g: &Written| -> Option<i32> {
        let winner_sente = match g.winner? {
            "sente" => true,
            "gote" => false,
            _ => return None,
        };
        let view = |v: i32| if winner_sente { points(v) } else { -points(v) };
        let mut found = None;
        for ply in 1..=g.plies {
            // Move `ply` was sente's when ply is odd.
            let by_sente = ply % 2 == 1;
            if by_sente == winner_sente {
                continue;
            }
            let (Some(before), Some(after)) = (g.at(ply - 1), g.at(ply)) else {
                continue;
            };
            let held = (ply..=g.plies).all(|p| g.at(p).is_none_or(|v| view(v) > 0));
            if view(before) <= 0 && held {
                found = Some(view(after) - view(before));
            }
        }
        found
    };
    assert!(games.iter().filter(|g| swing(g).is_some()).count() >= 3);
    for n in [0, 300, 1000, 5000] {
        assert_eq!(
            search(&["--swing", &n.to_string()]),
            want(&|g| swing(g).is_some_and(|s| s >= n)),
            "--swing {n}"
        );
    }
    for (arg, ply, low, high) in [
        ("6:-300..300", 6, -300, 300),
        ("10:500..", 10, 500, i32::MAX),
        ("3:..-30000", 3, i32::MIN, -30_000),
        ("0:..", 0, i32::MIN, i32::MAX),
    ] {
        assert_eq!(
            search(&["--eval-at", arg]),
            want(&|g| g.at(ply).is_some_and(|v| (low..=high).contains(&points(v)))),
            "--eval-at {arg}"
        );
    }
    // The API's parameters and the text query's keys are the same fields.
    let store = Store::open_read_only(&db).unwrap();
    let api = |q: &str| -> BTreeSet<i64> {
        let v: Value = serde_json::from_str(
            &answer(&store, "/api/search", &Params::parse(q).unwrap()).unwrap(),
        )
        .unwrap();
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(api("swing=300&limit=500"), search(&["--swing", "300"]));
    assert_eq!(
        api("eval_at=6:-300..300&limit=500"),
        search(&["--eval-at", "6:-300..300"])
    );
    assert_eq!(
        api("evaluated=no&limit=500"),
        search(&["--evaluated", "no"])
    );
    let err = answer(&store, "/api/search", &Params::parse("eval_at=6").unwrap()).unwrap_err();
    assert!(
        format!("{err:?}").contains("eval_at=\\\"6\\\" is no ply and range"),
        "{err:?}"
    );
    let out = Kifudex::new()
        .db(&db)
        .args(["search", "--eval-at", "6:300..-300"])
        .output();
    assert_eq!(out.code(), 2);
    assert!(
        out.stderr
            .contains("--eval-at \"6:300..-300\": the range is empty (300 is above -300)"),
        "{}",
        out.stderr
    );
}
