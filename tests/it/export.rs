//! Games out: record files (round trip through a second database), safe names, refusals;
//! Parquet read back with the parquet crate and compared with the database; a book whose
//! every position and count equals `tree` on it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::util::{Kifudex, TempDb, YAGURA_KIF, list_games};
use kifudex::query::{PositionOptions, tree};
use kifudex::shogi::Position;
use kifudex::store::Store;
use serde_json::Value;

fn sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample_db")
        .to_string_lossy()
        .into_owned()
}

/// A database of the sample collection (in the directory given with it).
fn sample_db(name: &str) -> (TempDb, PathBuf) {
    let dir = TempDb::new(name);
    let db = dir.join("db");
    let out = Kifudex::new().db(&db).args(&["import", &sample()]).output();
    assert!(out.status.success(), "{}", out.stderr);
    (dir, db)
}

/// What tells one stored game from another, for comparing two databases.
fn games(db: &Path) -> BTreeMap<String, usize> {
    let rows = Kifudex::new()
        .db(db)
        .args(&["search", "--json", "--limit", "100000"])
        .output()
        .json_lines();
    let mut out = BTreeMap::new();
    for r in rows.iter().filter(|r| r.get("id").is_some()) {
        let key = format!(
            "{} {} {} {} {} {} {}",
            r["date"], r["sente"], r["gote"], r["plies"], r["winner"], r["terminal"], r["handicap"]
        );
        *out.entry(key).or_default() += 1;
    }
    out
}

#[test]
fn exported_files_import_as_the_same_games() {
    let (_dir, db) = sample_db("export-roundtrip");
    let dir = db.parent().unwrap().join("out");
    let out = Kifudex::new()
        .db(&db)
        .args(&["export", "--to", "kifu", "--out", dir.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let before = games(&db);
    let total: usize = before.values().sum();
    assert_eq!(
        out.stdout,
        format!(
            "wrote {total} games as {total} KIF files into {} in ",
            dir.display()
        ) + out.stdout.rsplit_once(" in ").unwrap().1
    );
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(files, total);
    let db2 = dir.parent().unwrap().join("db2");
    let out = Kifudex::new()
        .db(&db2)
        .args(&["import", dir.to_str().unwrap(), "--json"])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    assert_eq!(games(&db2), before);
    // The moves too: every game's main line, compared by the position index.
    let a = Kifudex::new()
        .db(&db)
        .args(&["stats", "--json"])
        .output()
        .json_lines();
    let b = Kifudex::new()
        .db(&db2)
        .args(&["stats", "--json"])
        .output()
        .json_lines();
    assert_eq!(a[0]["positions"], b[0]["positions"]);
}

#[test]
fn one_file_and_the_filter() {
    let (_dir, db) = sample_db("export-one-file");
    let dir = db.parent().unwrap().join("csa");
    let out = Kifudex::new()
        .db(&db)
        .args(&[
            "export",
            "--player",
            "羽生",
            "--to",
            "csa",
            "--one-file",
            "--out",
            dir.to_str().unwrap(),
        ])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let n = Kifudex::new()
        .db(&db)
        .args(&["search", "--player", "羽生", "--json"])
        .output()
        .json_lines()
        .iter()
        .filter(|r| r.get("id").is_some())
        .count();
    assert!(n > 1);
    assert!(
        out.stdout
            .starts_with(&format!("wrote {n} games as 1 CSA file into "))
    );
    let file = dir.join("games.csa");
    let parsed = Kifudex::new()
        .db(&db)
        .args(&["parse", file.to_str().unwrap()])
        .output()
        .json_lines();
    assert_eq!(parsed.len(), n);
    // --one-file for a format that holds one game is refused.
    let out = Kifudex::new()
        .db(&db)
        .args(&[
            "export",
            "--to",
            "kif",
            "--one-file",
            "--out",
            "x",
            "--force",
        ])
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stderr,
        "kifudex: --one-file: a KIF file holds one game; csa, psn and usi hold many\n"
    );
}

#[test]
fn refusals_write_nothing() {
    let (_dir, db) = sample_db("export-refusals");
    let dir = db.parent().unwrap().join("out");
    let d = dir.to_str().unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&[
            "export",
            "--player",
            "nobody-at-all",
            "--to",
            "kif",
            "--out",
            d,
        ])
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stderr, "kifudex: no game matches: nothing written\n");
    assert!(!dir.exists());
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("keep.txt"), "mine").unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&["export", "--to", "kif", "--out", d])
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stderr,
        format!("kifudex: {d} exists: give --force to write into it\n")
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    let out = Kifudex::new()
        .db(&db)
        .args(&[
            "export", "--to", "kif", "--out", d, "--force", "--player", "羽生",
        ])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    // No temporary file is left behind.
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.starts_with('.'), "{name}");
    }
    let out = Kifudex::new()
        .db(&db)
        .args(&["export", "--parquet", d])
        .output();
    assert_eq!(out.status.code(), Some(1));
    let out = Kifudex::new()
        .db(&db)
        .args(&["book", "--out", dir.join("keep.txt").to_str().unwrap()])
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stderr
            .ends_with("keep.txt exists: give --force to write into it\n")
    );
}

/// The export reads its games with [`Store::game_to_write`], which replays the main line
/// without working out the rules each move broke: every format writes from it the bytes it
/// writes from the fully checked record of [`Store::game`], games with illegal moves too.
#[test]
fn games_read_for_writing_write_as_the_checked_ones() {
    use kifudex::notation::csa::CsaVersion;
    use kifudex::notation::write::{Target, write};
    let (dir, db) = sample_db("export-quiet");
    // Illegal but playable moves (rooks that jump over pieces), with times, a comment and a
    // variation.
    let illegal = dir.join("illegal");
    std::fs::create_dir_all(&illegal).unwrap();
    std::fs::write(
        illegal.join("illegal.kifu"),
        "先手：甲\n後手：乙\n手数----指手---------消費時間--\n\
         \x20  1 ７六歩(77)   ( 0:03/00:00:03)\n\
         \x20  2 ３四歩(33)   ( 0:05/00:00:05)\n*a comment\n\
         \x20  3 ２二角成(88) ( 0:01/00:00:04)\n\
         \x20  4 ５二玉(51)   ( 1:00/00:01:05)\n\
         \x20  5 ５五飛(28)   ( 0:02/00:00:06)\n\
         \x20  6 ４二飛(82)   ( 0:02/00:01:07)\n\
         \x20  7 ３三馬(22)   ( 0:02/00:00:08)\n\
         \x20  8 投了\n\
         \n変化：3手\n   3 ６六歩(67)\n",
    )
    .unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&["import", illegal.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let store = Store::open(&db).unwrap();
    let count = store.game_count().unwrap() as i64;
    let mut illegal_games = 0;
    for id in 1..=count {
        let checked = store.game(id).unwrap().expect("every id of a new database");
        let quiet = store.game_to_write(id).unwrap().expect("as game()");
        assert_eq!(
            (&quiet.date, &quiet.sente, &quiet.gote),
            (&checked.date, &checked.sente, &checked.gote)
        );
        if checked.record.first_illegal().is_some() {
            illegal_games += 1;
        }
        for to in Target::ALL {
            for version in [CsaVersion::V2_2, CsaVersion::V3_0] {
                let a = write(std::slice::from_ref(&checked.record), to, version);
                let b = write(std::slice::from_ref(&quiet.record), to, version);
                assert_eq!(a.bytes, b.bytes, "game {id} as {to}");
                assert_eq!(a.dropped, b.dropped, "game {id} as {to}");
            }
        }
    }
    assert!(count > 20, "{count}");
    assert!(illegal_games > 0);
}

/// Every name in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// No export leaves a half-written file under a final name: a failed one (a selected game
/// missing from the database, met after hundreds of files were written) leaves no output
/// folder and no hidden folder when the folder was new, the folder as it was when it was
/// empty, and only complete files beside the old ones with `--force`; a killed one (its
/// stage never finished) leaves its files in the hidden folder only.
#[test]
fn no_export_leaves_a_half_written_file_under_a_final_name() {
    use kifudex::export::ExportError;
    use kifudex::export::files::{FileOptions, export_files};
    use kifudex::export::stage::Stage;
    use kifudex::notation::csa::CsaVersion;
    use kifudex::notation::write::Target;
    let (dir, db) = sample_db("export-half");
    let store = Store::open_read_only(&db).unwrap();
    let mut ids = all_ids(&db);
    assert!(ids.len() > 200);
    let opts = |out: &Path, force: bool| FileOptions {
        to: Target::Kifu,
        out: out.to_path_buf(),
        one_file: false,
        force,
        csa_version: CsaVersion::V2_2,
    };
    let outs = dir.join("outs");
    std::fs::create_dir_all(&outs).unwrap();
    // The whole export, to compare with.
    let whole = outs.join("whole");
    let report = export_files(&store, &ids, &opts(&whole, false), |_| {}).unwrap();
    assert_eq!(report.files, ids.len());
    assert_eq!(names_in(&outs), ["whole"]);
    ids.push(1_000_000);
    // A new folder: nothing at all.
    let new = outs.join("new");
    let e = export_files(&store, &ids, &opts(&new, false), |_| {}).unwrap_err();
    assert!(matches!(e, ExportError::Missing(1_000_000)), "{e}");
    assert_eq!(names_in(&outs), ["whole"]);
    // An empty folder: still empty.
    let empty = outs.join("empty");
    std::fs::create_dir(&empty).unwrap();
    export_files(&store, &ids, &opts(&empty, false), |_| {}).unwrap_err();
    assert_eq!(names_in(&outs), ["empty", "whole"]);
    assert!(names_in(&empty).is_empty());
    // Into a folder that holds a file: what was written is complete.
    let full = outs.join("full");
    std::fs::create_dir(&full).unwrap();
    std::fs::write(full.join("keep.txt"), "mine").unwrap();
    export_files(&store, &ids, &opts(&full, true), |_| {}).unwrap_err();
    let names = names_in(&full);
    assert!(names.len() > 200, "{}", names.len());
    for name in names {
        assert!(!name.starts_with('.'), "{name}");
        if name != "keep.txt" {
            let written = std::fs::read(full.join(&name)).unwrap();
            assert_eq!(written, std::fs::read(whole.join(&name)).unwrap(), "{name}");
        }
    }
    assert_eq!(names_in(&outs), ["empty", "full", "whole"]);
    // Killed before the end: the files are in the hidden folder only.
    let killed = outs.join("killed");
    let stage = Stage::prepare(&killed, false).unwrap();
    stage.write("a.kifu", b"complete").unwrap();
    std::mem::forget(stage);
    assert!(!killed.exists());
    let hidden: Vec<String> = names_in(&outs)
        .into_iter()
        .filter(|n| n.starts_with(".killed"))
        .collect();
    assert_eq!(hidden.len(), 1, "{hidden:?}");
    assert_eq!(names_in(&outs.join(&hidden[0])), ["a.kifu"]);
    // And an export that ends well into the empty folder fills it.
    ids.pop();
    export_files(&store, &ids, &opts(&empty, false), |_| {}).unwrap();
    assert_eq!(names_in(&empty), names_in(&whole));
}

/// A target that cannot be written fails with the path and the reason, and writes nothing.
#[test]
fn an_unwritable_target_fails_clearly() {
    let (dir, db) = sample_db("export-unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&[
            "export",
            "--to",
            "kifu",
            "--out",
            file.join("out").to_str().unwrap(),
        ])
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stderr.starts_with(&format!(
            "kifudex: cannot write {}: ",
            file.join("out").display()
        )),
        "{}",
        out.stderr
    );
    assert_eq!(names_in(&dir), ["a-file", "db"]);
}

/// Reading games a range at a time gives what reading each gives, in the order asked, and
/// says which are missing, whatever the order and gaps of the ids.
#[test]
fn games_read_a_range_at_a_time_are_the_games_read_one_by_one() {
    let (_dir, db) = sample_db("export-ranges");
    let store = Store::open_read_only(&db).unwrap();
    let mut all = all_ids(&db);
    all.sort();
    let n = all.len() as i64;
    let sparse: Vec<i64> = all.iter().copied().filter(|id| id % 7 == 0).collect();
    let mut gaps: Vec<i64> = (0..=n + 3).filter(|id| id % 5 != 1).collect();
    gaps.insert(0, -4);
    let backwards: Vec<i64> = all.iter().rev().copied().collect();
    for ids in [
        all.clone(),
        sparse,
        gaps,
        backwards,
        vec![],
        vec![3],
        vec![n + 10],
    ] {
        let mut seen = Vec::new();
        store
            .games_to_write(&ids, |id, g| -> Result<(), kifudex::store::StoreError> {
                let one = store.game_to_write(id)?;
                assert_eq!(g.is_some(), one.is_some(), "game {id}");
                if let (Some(g), Some(one)) = (g, one) {
                    assert_eq!(g.id, id);
                    assert_eq!(
                        (&g.date, &g.sente, &g.gote),
                        (&one.date, &one.sente, &one.gote)
                    );
                    assert_eq!(format!("{:?}", g.record), format!("{:?}", one.record));
                }
                seen.push(id);
                Ok(())
            })
            .unwrap();
        assert_eq!(seen, ids);
    }
}

#[test]
fn file_names_are_safe_everywhere() {
    use kifudex::export::files::file_name;
    assert_eq!(
        file_name(
            Some("2019-04-08"),
            Some("羽生 善治"),
            Some("渡辺 明"),
            12,
            "kif"
        ),
        "2019-04-08_羽生_善治_渡辺_明_12.kif"
    );
    assert_eq!(
        file_name(None, Some("../../etc/passwd"), Some("CON"), 3, "csa"),
        "nodate_etc_passwd_CON_3.csa"
    );
    let long = "長".repeat(200);
    let name = file_name(Some("2020"), Some(&long), Some("a\u{1b}[2J\nb"), 99, "kifu");
    assert!(name.len() <= 130, "{}", name.len());
    assert!(
        name.starts_with(&format!("2020_{}_", "長".repeat(13))),
        "{name}"
    );
    assert!(name.ends_with("_a_[2J_b_99.kifu"), "{name}");
    assert!(!name.contains('/') && !name.contains('\\') && !name.chars().any(char::is_control));
}

/// A Parquet value as JSON: numbers, text, lists and groups (objects).
fn field_json(name: &str, field: &parquet::record::Field) -> Value {
    use parquet::record::Field;
    match field {
        Field::Null => Value::Null,
        Field::Int(i) => Value::from(*i),
        Field::Long(i) => Value::from(*i),
        Field::ULong(u) => Value::from(*u),
        Field::Str(s) => Value::from(s.as_str()),
        Field::ListInternal(list) => Value::Array(
            (0..list.len())
                .map(|i| field_json(name, &list.elements()[i]))
                .collect(),
        ),
        Field::Group(row) => Value::Object(
            row.get_column_iter()
                .map(|(k, v)| (k.clone(), field_json(k, v)))
                .collect(),
        ),
        other => panic!("{name}: unexpected {other:?}"),
    }
}

/// The rows of a Parquet file, as JSON objects.
pub fn parquet_rows(path: &Path) -> Vec<Value> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    reader
        .get_row_iter(None)
        .unwrap()
        .map(|r| {
            let row = r.unwrap();
            Value::Object(
                row.get_column_iter()
                    .map(|(name, field)| (name.clone(), field_json(name, field)))
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn parquet_holds_every_game_position_and_comment() {
    let (_dir, db) = sample_db("export-parquet");
    let dir = db.parent().unwrap().join("pq");
    let out = Kifudex::new()
        .db(&db)
        .args(&["export", "--parquet", dir.to_str().unwrap(), "--json"])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let report = &out.json_lines()[0];
    let games = parquet_rows(&dir.join("games.parquet"));
    let rows = Kifudex::new()
        .db(&db)
        .args(&["search", "--json", "--limit", "100000"])
        .output()
        .json_lines();
    let rows: Vec<&Value> = rows.iter().filter(|r| r.get("id").is_some()).collect();
    assert_eq!(games.len(), rows.len());
    assert_eq!(report["games"], rows.len());
    let by_id: BTreeMap<i64, &Value> = rows
        .iter()
        .map(|r| (r["id"].as_i64().unwrap(), *r))
        .collect();
    let mut plies = 0u64;
    for g in &games {
        let r = by_id[&g["id"].as_i64().unwrap()];
        for k in [
            "date", "sente", "gote", "event", "winner", "terminal", "handicap", "plies",
        ] {
            assert_eq!(g[k], r[k], "{k} of game {}", g["id"]);
        }
        // The game's label as openings counts it (search shows the header as written), and
        // every name recognised for it.
        let label = match r["label_source"].as_str() {
            Some("header") => kifudex::classify::game_label(r["opening"].as_str(), None),
            _ => r["opening"].as_str(),
        };
        assert_eq!(g["label"].as_str(), label, "label of game {}", g["id"]);
        assert_eq!(g["label_source"], r["label_source"], "of game {}", g["id"]);
        let shown = Kifudex::new()
            .db(&db)
            .args(&["show", &g["id"].to_string(), "--openings", "--json"])
            .output()
            .json_lines();
        let mut want: Vec<Value> = shown[0]["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                serde_json::json!({"side": i["side"], "kind": i["kind"], "name": i["name"], "ply": i["ply"]})
            })
            .collect();
        let mut got = g["recognised"].as_array().unwrap().clone();
        let key = |v: &Value| v.to_string();
        want.sort_by_key(key);
        got.sort_by_key(key);
        assert_eq!(got, want, "recognised in game {}", g["id"]);
        plies += g["plies"].as_u64().unwrap() + 1;
        let moves = g["moves"].as_str().unwrap();
        assert_eq!(
            if moves.is_empty() {
                0
            } else {
                moves.split(' ').count()
            },
            g["plies"].as_u64().unwrap() as usize
        );
    }
    let positions = parquet_rows(&dir.join("positions.parquet"));
    assert_eq!(positions.len() as u64, plies);
    assert_eq!(report["positions"], plies);
    // Sorted by hash (unsigned), and each hash is the position's.
    let hashes: Vec<u64> = positions
        .iter()
        .map(|p| p["hash"].as_u64().unwrap())
        .collect();
    assert!(hashes.windows(2).all(|w| w[0] <= w[1]));
    let start = Position::startpos();
    let at_start: Vec<&Value> = positions
        .iter()
        .filter(|p| p["hash"].as_u64() == Some(start.hash()))
        .collect();
    let store = Store::open(&db).unwrap();
    let t = tree(&store, &start, PositionOptions::default()).unwrap();
    let mut games_at_start: Vec<i64> = at_start
        .iter()
        .map(|p| p["game"].as_i64().unwrap())
        .collect();
    games_at_start.dedup();
    assert_eq!(games_at_start.len(), t.games);
    assert_eq!(
        at_start.iter().filter(|p| p["next_move"] == "7g7f").count() as u64,
        t.rows.iter().find(|r| r.mv == "7g7f").unwrap().count
    );
    let comments = parquet_rows(&dir.join("comments.parquet"));
    assert_eq!(report["comments"], comments.len());
    assert!(
        comments
            .iter()
            .all(|c| c["kind"] == "comment" || c["kind"] == "engine" || c["kind"] == "remark")
    );
}

/// The sample collection imported and exported as Parquet: the folder of the files.
fn sample_parquet(name: &str) -> (TempDb, PathBuf) {
    let (dir, db) = sample_db(name);
    let pq = db.parent().unwrap().join("pq");
    let out = Kifudex::new()
        .db(&db)
        .args(&["export", "--parquet", pq.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    (dir, pq)
}

/// Every row of `positions.parquet` read back: for each game of `games.parquet`, its main
/// line replayed gives exactly its rows (hash, hands' hash, next move, result, date), and the
/// file is sorted by hash, then game, then ply.
#[test]
fn parquet_positions_are_every_replayed_position_in_order() {
    let (_dir, dir) = sample_parquet("export-parquet-rows");
    let positions = parquet_rows(&dir.join("positions.parquet"));
    let key = |p: &Value| {
        (
            p["hash"].as_u64().unwrap(),
            p["game"].as_i64().unwrap(),
            p["ply"].as_i64().unwrap(),
        )
    };
    assert!(positions.windows(2).all(|w| key(&w[0]) < key(&w[1])));
    // Several games share a hash (the start, at least): the order within it is by game.
    assert!(positions.windows(2).any(|w| w[0]["hash"] == w[1]["hash"]));
    let mut by_game: BTreeMap<(i64, i64), &Value> = BTreeMap::new();
    for p in &positions {
        by_game.insert((p["game"].as_i64().unwrap(), p["ply"].as_i64().unwrap()), p);
    }
    assert_eq!(by_game.len(), positions.len());
    let games = parquet_rows(&dir.join("games.parquet"));
    let mut seen = 0;
    let mut with_hands = 0;
    for g in &games {
        let id = g["id"].as_i64().unwrap();
        let mut pos = Position::from_sfen_with(
            g["start_sfen"].as_str().unwrap(),
            kifudex::shogi::Strictness::PiecesOnly,
        )
        .unwrap();
        let moves: Vec<&str> = g["moves"]
            .as_str()
            .unwrap()
            .split(' ')
            .filter(|m| !m.is_empty())
            .collect();
        for ply in 0..=moves.len() {
            let p = by_game[&(id, ply as i64)];
            assert_eq!(p["hash"].as_u64(), Some(pos.hash()), "game {id} ply {ply}");
            let hands = p["hand_hash"].as_u64().unwrap();
            assert_eq!(pos.hash() ^ hands, pos.board_hash(), "game {id} ply {ply}");
            with_hands += usize::from(hands != 0);
            assert_eq!(p["next_move"].as_str(), moves.get(ply).copied());
            assert_eq!(p["result"], g["winner"], "game {id}");
            assert_eq!(p["date"], g["date"], "game {id}");
            if let Some(m) = moves.get(ply) {
                pos.play(kifudex::shogi::Move::from_usi(m).unwrap())
                    .unwrap();
            }
            seen += 1;
        }
    }
    assert_eq!(seen, positions.len());
    assert!(with_hands > 0 && with_hands < seen);
}

/// The encodings the export chooses, as a reader sees them in the files' metadata: sorted
/// hashes delta bit-packed with min/max statistics on every row group, the hands' hash, the
/// plies and the texts dictionary-encoded, row groups no larger than their size.
#[test]
fn parquet_encodings_are_as_chosen() {
    use parquet::basic::{Compression, Encoding};
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::file::statistics::Statistics;
    let (_dir, dir) = sample_parquet("export-parquet-encodings");
    let file = std::fs::File::open(dir.join("positions.parquet")).unwrap();
    let reader = SerializedFileReader::new(file).unwrap();
    let meta = reader.metadata();
    let names: Vec<&str> = meta
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .map(|c| c.name())
        .collect();
    assert_eq!(
        names,
        [
            "hash",
            "hand_hash",
            "game",
            "ply",
            "next_move",
            "result",
            "date"
        ]
    );
    let mut last_max = 0u64;
    for group in meta.row_groups() {
        assert!(group.num_rows() as usize <= kifudex::export::parquet::POSITION_GROUP);
        let col = |name: &str| {
            group
                .columns()
                .iter()
                .find(|c| c.column_path().string() == name)
                .unwrap()
        };
        let encodings = |name: &str| col(name).encodings().collect::<Vec<Encoding>>();
        assert!(encodings("hash").contains(&Encoding::DELTA_BINARY_PACKED));
        assert!(encodings("game").contains(&Encoding::DELTA_BINARY_PACKED));
        for name in ["hand_hash", "ply", "next_move", "result", "date"] {
            assert!(
                encodings(name).contains(&Encoding::RLE_DICTIONARY),
                "{name}: {:?}",
                encodings(name)
            );
        }
        assert_eq!(col("hash").compression(), Compression::UNCOMPRESSED);
        assert_eq!(col("next_move").compression(), Compression::SNAPPY);
        let Some(Statistics::Int64(s)) = col("hash").statistics() else {
            panic!("no statistics on hash");
        };
        let (min, max) = (*s.min_opt().unwrap() as u64, *s.max_opt().unwrap() as u64);
        assert!(min <= max && last_max <= min);
        last_max = max;
    }
}

#[test]
fn parquet_straight_from_files_equals_the_export() {
    let (_dir, db) = sample_db("export-parquet-files");
    let dir = db.parent().unwrap();
    let kif = dir.join("a.kifu");
    let csa = dir.join("b.csa");
    std::fs::write(&kif, YAGURA_KIF).unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&[
            "convert",
            kif.to_str().unwrap(),
            "--to",
            "csa",
            "-o",
            csa.to_str().unwrap(),
        ])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let pq = dir.join("pq");
    let out = Kifudex::new()
        .db(&db)
        .args(&[
            "parquet",
            kif.to_str().unwrap(),
            csa.to_str().unwrap(),
            "--out",
            pq.to_str().unwrap(),
            "--first-id",
            "100",
        ])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let games = parquet_rows(&pq.join("games.parquet"));
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["id"], 100);
    assert_eq!(games[1]["id"], 101);
    assert_eq!(games[0]["moves"], games[1]["moves"]);
    assert_eq!(games[0]["sente"], "羽生善治 九段");
    let positions = parquet_rows(&pq.join("positions.parquet"));
    assert_eq!(positions.len(), 14);
}

#[test]
fn every_book_position_equals_the_tree() {
    let (_dir, db) = sample_db("export-book");
    let file = db.parent().unwrap().join("book.db");
    let out = Kifudex::new()
        .db(&db)
        .args(&[
            "book",
            "--out",
            file.to_str().unwrap(),
            "--max-ply",
            "24",
            "--json",
        ])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let report = &out.json_lines()[0];
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("#YANEURAOU-DB2016 1.00"));
    let store = Store::open(&db).unwrap();
    let mut sfens: Vec<String> = Vec::new();
    let mut book: Vec<(String, Vec<(String, u64)>)> = Vec::new();
    for line in lines {
        if let Some(sfen) = line.strip_prefix("sfen ") {
            sfens.push(sfen.rsplit_once(' ').unwrap().0.to_string());
            book.push((sfen.to_string(), Vec::new()));
        } else {
            let f: Vec<&str> = line.split(' ').collect();
            assert_eq!(f.len(), 5, "{line}");
            assert_eq!(f[3], "0");
            book.last_mut()
                .unwrap()
                .1
                .push((f[0].to_string(), f[4].parse().unwrap()));
        }
    }
    assert_eq!(book.len(), report["positions"].as_u64().unwrap() as usize);
    assert!(book.len() > 100, "{}", book.len());
    let mut sorted = sfens.clone();
    sorted.sort();
    assert_eq!(sfens, sorted, "sfen lines sorted");
    for (sfen, moves) in &book {
        let pos = Position::from_sfen_with(sfen, kifudex::shogi::Strictness::PiecesOnly).unwrap();
        let t = tree(&store, &pos, PositionOptions::default()).unwrap();
        let want: Vec<(String, u64)> = t.rows.iter().map(|r| (r.mv.clone(), r.count)).collect();
        let mut got = moves.clone();
        let mut want_sorted = want.clone();
        got.sort();
        want_sorted.sort();
        assert_eq!(got, want_sorted, "{sfen}");
    }
    // --min-count leaves out the moves played fewer times, and positions left with none.
    let file2 = db.parent().unwrap().join("book2.db");
    let out = Kifudex::new()
        .db(&db)
        .args(&["book", "--out", file2.to_str().unwrap(), "--min-count", "5"])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let text = std::fs::read_to_string(&file2).unwrap();
    let counts: Vec<u64> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("sfen "))
        .map(|l| l.rsplit_once(' ').unwrap().1.parse().unwrap())
        .collect();
    assert!(!counts.is_empty() && counts.iter().all(|&c| c >= 5));
    assert!(text.contains(
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f 3c3d "
    ));
}

#[test]
fn hash_prints_the_position_hashes() {
    let db = TempDb::new("export-hash");
    let out = Kifudex::new()
        .db(&db)
        .args(&["hash", "startpos moves 7g7f"])
        .output();
    assert!(out.status.success());
    let v = &out.json_lines()[0];
    let mut pos = Position::startpos();
    pos.play(kifudex::shogi::Move::from_usi("7g7f").unwrap())
        .unwrap();
    assert_eq!(v["hash"].as_u64(), Some(pos.hash()));
    assert_eq!(v["board_hash"].as_u64(), Some(pos.board_hash()));
    assert_eq!(v["hand_hash"].as_u64(), Some(pos.hash() ^ pos.board_hash()));
    assert_eq!(v["sfen"], pos.to_sfen());
}

/// Every game id of the database.
fn all_ids(db: &Path) -> Vec<i64> {
    list_games(db)
        .iter()
        .filter_map(|r| r["id"].as_i64())
        .collect()
}

/// A book as a map: SFEN without the move number → (move, ponder, value, count), by move.
type BookMap = BTreeMap<String, Vec<(String, String, i32, u64)>>;

/// The whole book, computed by brute force from the stored games: for every position a game
/// reaches within `max_ply` moves, each move's games (once per game), results and most played
/// reply. Keyed by the SFEN without its move number.
fn brute_book(store: &Store, ids: &[i64], max_ply: usize, min_count: u64) -> BookMap {
    use kifudex::export::book::BookMove;
    use kifudex::shogi::{Color, Move};
    use std::collections::{BTreeSet, HashMap};
    /// A move's games, results (sente, gote, draw) and replies (reply → games).
    type Played = (BTreeSet<i64>, [u64; 3], BTreeMap<u16, BTreeSet<i64>>);
    struct Seen {
        first_ply: usize,
        sfen: String,
        side: Color,
        moves: BTreeMap<u16, Played>,
    }
    let mut seen: HashMap<u64, Seen> = HashMap::new();
    for &id in ids {
        let line = store.game_line(id).unwrap().unwrap();
        let result = match line.winner.as_deref() {
            Some("sente") => Some(0),
            Some("gote") => Some(1),
            Some("draw") => Some(2),
            _ => None,
        };
        let mut pos = line.start.clone();
        for (ply, &mv) in line.moves.iter().enumerate() {
            let s = seen.entry(pos.hash()).or_insert_with(|| Seen {
                first_ply: usize::MAX,
                sfen: String::new(),
                side: pos.side_to_move(),
                moves: BTreeMap::new(),
            });
            if ply < s.first_ply {
                s.first_ply = ply;
                s.sfen = pos.to_sfen().rsplit_once(' ').unwrap().0.to_string();
            }
            let m = s.moves.entry(mv.to_u16()).or_default();
            if m.0.insert(id) {
                if let Some(r) = result {
                    m.1[r] += 1;
                }
                if let Some(reply) = line.moves.get(ply + 1) {
                    m.2.entry(reply.to_u16()).or_default().insert(id);
                }
            }
            pos.play(mv).unwrap();
        }
    }
    let mut book = BTreeMap::new();
    for s in seen.into_values().filter(|s| s.first_ply < max_ply) {
        let mut moves: Vec<(String, String, i32, u64)> = Vec::new();
        for (mv, (games, results, replies)) in &s.moves {
            let count = games.len() as u64;
            if count < min_count {
                continue;
            }
            let mv = Move::from_u16(*mv).unwrap();
            let ponder = replies
                .iter()
                .map(|(r, g)| (Move::from_u16(*r).unwrap().usi(), g.len()))
                .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
                .map_or("none".to_string(), |r| r.0);
            let value = BookMove {
                mv,
                count,
                results: *results,
                ponder: None,
            }
            .value(s.side);
            moves.push((mv.usi(), ponder, value, count));
        }
        if !moves.is_empty() {
            moves.sort_by(|a, b| a.0.cmp(&b.0));
            book.insert(s.sfen.clone(), moves);
        }
    }
    book
}

/// A book file read back: SFEN without the move number → (move, ponder, value, count), and
/// the SFENs in file order.
fn read_book(text: &str) -> (BookMap, Vec<String>) {
    let mut book = BTreeMap::new();
    let mut order = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines().skip(1) {
        if let Some(sfen) = line.strip_prefix("sfen ") {
            let key = sfen.rsplit_once(' ').unwrap().0.to_string();
            order.push(key.clone());
            book.insert(key.clone(), Vec::new());
            current = Some(key);
        } else {
            let f: Vec<&str> = line.split(' ').collect();
            assert_eq!(f.len(), 5, "{line}");
            assert_eq!(f[3], "0");
            book.get_mut(current.as_ref().unwrap()).unwrap().push((
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[4].parse().unwrap(),
            ));
        }
    }
    for moves in book.values_mut() {
        moves.sort_by(|a, b| a.0.cmp(&b.0));
    }
    (book, order)
}

#[test]
fn the_book_equals_a_brute_force_count_in_memory_and_sorted_on_disk() {
    use kifudex::export::book::{BookOptions, write_book};
    let (_dir, db) = sample_db("export-book-brute");
    let store = Store::open(&db).unwrap();
    let ids: Vec<i64> = all_ids(&db);
    assert!(ids.len() > 200, "{}", ids.len());
    for (max_ply, min_count) in [(30, 1), (12, 2)] {
        let want = brute_book(&store, &ids, max_ply, min_count);
        let mut texts = Vec::new();
        // Everything in memory, then runs of a few hundred bytes on disk.
        for memory in [None, Some(600)] {
            let out = db
                .parent()
                .unwrap()
                .join(format!("brute-{max_ply}-{memory:?}.db"));
            let opts = BookOptions {
                max_ply: max_ply as u32,
                min_count,
                memory,
                ..BookOptions::default()
            };
            let report = write_book(&store, &ids, &out, &opts, |_| {}).unwrap();
            let text = std::fs::read_to_string(&out).unwrap();
            let (got, order) = read_book(&text);
            assert_eq!(report.positions, want.len());
            assert_eq!(got, want, "max_ply {max_ply}, memory {memory:?}");
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(order, sorted, "sfen lines sorted");
            texts.push(text);
            // Nothing of the work files is left beside the book.
            let left: Vec<_> = std::fs::read_dir(db.parent().unwrap())
                .unwrap()
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with('.'))
                .collect();
            assert!(left.is_empty(), "{left:?}");
        }
        assert_eq!(texts[0], texts[1]);
    }
}

#[test]
fn a_book_of_a_game_not_in_the_database_fails_and_leaves_nothing() {
    use kifudex::export::ExportError;
    use kifudex::export::book::{BookOptions, write_book};
    let (_dir, db) = sample_db("export-book-missing");
    let store = Store::open(&db).unwrap();
    let out = db.parent().unwrap().join("missing.db");
    let mut ids: Vec<i64> = all_ids(&db);
    ids.push(987_654);
    let err = write_book(&store, &ids, &out, &BookOptions::default(), |_| {}).unwrap_err();
    assert!(matches!(err, ExportError::Missing(987_654)), "{err}");
    assert_eq!(
        err.to_string(),
        "game 987654 is in the selection but not in the database"
    );
    let left: Vec<_> = std::fs::read_dir(db.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("missing"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The Parquet files appear together or not at all: a failed export (nothing selected)
/// leaves no folder; the hidden folder a killed export left (its process gone) is removed by
/// the next export to the same folder, spill files and all; `--force` over a previous export
/// replaces its three files and leaves nothing hidden beside them.
#[test]
fn parquet_exports_leave_the_previous_output_or_nothing() {
    let (_dir, db) = sample_db("export-parquet-whole");
    let parent = db.parent().unwrap().join("exports");
    std::fs::create_dir_all(&parent).unwrap();
    let pq = parent.join("pq");
    let p = pq.to_str().unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&["export", "--parquet", p, "--player", "nobody-at-all"])
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(names_in(&parent), Vec::<String>::new());
    // What a killed export left: its hidden folder, a process id that runs no more (above
    // any pid_max), a part of a file and spill files.
    let left = parent.join(".pq.part-4294967");
    std::fs::create_dir_all(left.join(".positions-spill")).unwrap();
    std::fs::write(left.join("games.parquet"), b"PAR1 half").unwrap();
    std::fs::write(left.join(".positions-spill").join("run-0"), vec![7u8; 4096]).unwrap();
    // A hidden folder of another name is not this export's.
    std::fs::create_dir_all(parent.join(".other.part-4294967")).unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&["export", "--parquet", p, "--player", "羽生"])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    assert_eq!(
        names_in(&parent),
        vec![".other.part-4294967".to_string(), "pq".to_string()]
    );
    assert_eq!(
        names_in(&pq),
        vec![
            "comments.parquet",
            "evals.parquet",
            "games.parquet",
            "positions.parquet"
        ]
    );
    assert_eq!(parquet_rows(&pq.join("games.parquet")).len(), 5);
    // Into the previous export, with --force: its files are replaced.
    let out = Kifudex::new()
        .db(&db)
        .args(&["export", "--parquet", p, "--force", "--player", "藤井"])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    assert_eq!(
        names_in(&parent),
        vec![".other.part-4294967".to_string(), "pq".to_string()]
    );
    assert_eq!(
        names_in(&pq),
        vec![
            "comments.parquet",
            "evals.parquet",
            "games.parquet",
            "positions.parquet"
        ]
    );
    let rows = parquet_rows(&pq.join("games.parquet"));
    assert!(
        !rows.is_empty()
            && rows.iter().all(|r| r["sente"].to_string().contains("藤井")
                || r["gote"].to_string().contains("藤井")),
        "{rows:?}"
    );
}
