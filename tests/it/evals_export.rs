//! Evaluations in the Parquet export: `evals.parquet` holds every evaluated position of every
//! game, compared with the values the test wrote into the records, with `show --evals`, and
//! with the files `kifudex parquet` writes straight from the records.

use serde_json::{Value, json};

use crate::evals_db::generated;
use crate::export::parquet_rows;
use crate::util::Kifudex;

/// A row of `evals.parquet` as `show --evals --json` gives the evaluation.
fn row_of(game: i64, e: &Value) -> Value {
    json!({
        "game": game, "ply": e["ply"], "value": e["value"], "mate": e["mate"],
        "mate_for": e["mate_for"], "depth": e["depth"], "source": e["source"],
    })
}

#[test]
fn parquet_holds_every_evaluated_position() {
    let (dir, games) = generated("evals-parquet", 30, 17);
    let db = dir.join("db");
    let pq = dir.join("pq");
    let out = Kifudex::new()
        .db(&db)
        .args(["export", "--parquet", pq.to_str().unwrap(), "--json"])
        .output()
        .success();
    let report = &out.json_lines()[0];
    let rows = parquet_rows(&pq.join("evals.parquet"));
    // What the records hold: a Floodgate value after most moves, kept within 16 bits.
    let want: Vec<Value> = games
        .iter()
        .enumerate()
        .flat_map(|(i, g)| {
            (0..=g.plies).filter_map(move |p| {
                g.at(p).map(|v| {
                    json!({
                        "game": i + 1, "ply": p, "value": v.clamp(-32768, 32767), "mate": null,
                        "mate_for": null, "depth": null, "source": "csa",
                    })
                })
            })
        })
        .collect();
    assert!(want.len() > 300, "{} evaluations", want.len());
    assert_eq!(rows, want);
    assert_eq!(report["evals"], want.len());
    // Each game's rows are `show --evals`'s.
    for id in [1i64, 2, 3, 7] {
        let shown = Kifudex::new()
            .db(&db)
            .args(["show", &id.to_string(), "--evals", "--json"])
            .output()
            .success()
            .json_lines();
        let of_game: Vec<&Value> = rows.iter().filter(|r| r["game"] == id).collect();
        let from_show: Vec<Value> = shown[0]["evals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| row_of(id, e))
            .collect();
        assert_eq!(of_game, from_show.iter().collect::<Vec<_>>(), "game {id}");
    }
    // Straight from the files: the same rows.
    let mut files: Vec<String> = std::fs::read_dir(dir.join("files"))
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    files.sort();
    let shard = dir.join("shard");
    let mut args = vec!["parquet".to_string()];
    args.extend(files);
    args.extend(["--out".to_string(), shard.display().to_string()]);
    Kifudex::new().db(&db).args(&args).output().success();
    assert_eq!(parquet_rows(&shard.join("evals.parquet")), want);
}

#[test]
fn mates_depths_and_sources_are_kept() {
    let dir = crate::util::TempDb::new("evals-parquet-mates");
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/evals/shogihome.kifu");
    let (db, pq, shard) = (dir.join("db"), dir.join("pq"), dir.join("shard"));
    for args in [
        vec!["import", file.to_str().unwrap()],
        vec!["export", "--parquet", pq.to_str().unwrap()],
        vec![
            "parquet",
            file.to_str().unwrap(),
            "--out",
            shard.to_str().unwrap(),
        ],
    ] {
        Kifudex::new().db(&db).args(args).output().success();
    }
    let rows = parquet_rows(&pq.join("evals.parquet"));
    let shown = Kifudex::new()
        .db(&db)
        .args(["show", "1", "--evals", "--json"])
        .output()
        .success()
        .json_lines();
    let want: Vec<Value> = shown[0]["evals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| row_of(1, e))
        .collect();
    assert_eq!(rows, want);
    assert_eq!(parquet_rows(&shard.join("evals.parquet")), want);
    // Checked by hand in the file: after move 2 the playing engine says -35 at depth 18;
    // after move 6 that sente mates in 9; after move 7 the analysing engine that gote mates.
    assert_eq!(
        rows[0],
        json!({"game": 1, "ply": 2, "value": -35, "mate": null, "mate_for": null,
            "depth": 18, "source": "shogihome"})
    );
    assert!(
        rows.contains(&json!({"game": 1, "ply": 6, "value": null, "mate": 9,
        "mate_for": "sente", "depth": null, "source": "shogihome"})),
        "{rows:?}"
    );
    assert!(
        rows.contains(&json!({"game": 1, "ply": 7, "value": null, "mate": null,
        "mate_for": "gote", "depth": null, "source": "shogihome"})),
        "{rows:?}"
    );
}
