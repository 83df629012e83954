//! `kifudex remove` against a brute-force answer: after each kind of removal, what `search`,
//! `position`, `tree`, `text`, `players` and `stats` answer equals what they answer over a
//! database freshly imported from only the files (or games) that remain. Ids differ between
//! the two databases and are left out of the comparison; paths are compared below each
//! database's own folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::util::{Kifudex, TempDb, list_games, zip_stored};
use kifudex::notation::kif::write_kif;
use kifudex::synth::{Synth, SynthOptions};
use serde_json::Value;

/// Three games in one CSA file; 多田一郎 plays two of them.
const MULTI_CSA: &str = "V2.2
N+多田一郎
N-多田二郎
$EVENT:連続対局
$START_TIME:2022/02/01 10:00:00
PI
+
+7776FU
-3334FU
+2726FU
%TORYO
/
V2.2
N+多田一郎
N-三木三郎
$EVENT:連続対局
$START_TIME:2022/02/02 10:00:00
PI
+
+2726FU
-8384FU
+2625FU
-8485FU
%TORYO
/
V2.2
N+四谷四郎
N-五味五郎
$EVENT:連続対局
$START_TIME:2022/02/03 10:00:00
PI
+
+7776FU
-8384FU
%CHUDAN
";

/// The entries of `own/arch.zip`.
const ZIP_A: &str = "開始日時：2023/05/05 10:00
棋戦：書庫杯
先手：甲野一
後手：乙川二
手数----指手---------消費時間--
   1 ７六歩(77)
*独自の一手。
   2 ３四歩(33)
   3 ２六歩(27)
   4 投了
";

const ZIP_B: &str = "開始日時：2023/05/06
棋戦：書庫杯
先手：乙川二
後手：丙村三
手数----指手---------消費時間--
   1 ２六歩(27)
   2 ８四歩(83)
   3 投了
";

/// A game whose third move cannot be applied: it keeps two moves and has an error.
const BROKEN_KIF: &str = "開始日時：2021/01/01
先手：壊田
後手：直田
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ５五角(22)
   4 投了
";

fn archive(entries: &[(&str, &str)]) -> Vec<u8> {
    let entries: Vec<(Vec<u8>, Vec<u8>)> = entries
        .iter()
        .map(|(n, t)| (n.as_bytes().to_vec(), t.as_bytes().to_vec()))
        .collect();
    zip_stored(&entries)
}

/// The collection, by path under `files/`: 16 generated games one per file, one of them
/// also in `dup/` (a duplicate: `dup/` is read first), three games in one CSA file, two in a
/// zip archive, a broken record and a file that holds none.
fn collection() -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut synth = Synth::new(SynthOptions {
        seed: 41,
        players: 6,
        comment_rate: 0.08,
        variation_rate: 0.0,
        times: false,
    });
    for i in 0..16 {
        let text = write_kif(&synth.game());
        files.insert(format!("synth/g{i:02}.kifu"), text.into_bytes());
    }
    let dup = files["synth/g03.kifu"].clone();
    files.insert("dup/g03.kifu".into(), dup);
    files.insert("own/multi.csa".into(), MULTI_CSA.as_bytes().to_vec());
    files.insert(
        "own/arch.zip".into(),
        archive(&[("a.kif", ZIP_A), ("sub/b.kif", ZIP_B)]),
    );
    files.insert("own/broken.kif".into(), BROKEN_KIF.as_bytes().to_vec());
    files.insert("own/hello.kif".into(), b"hello, world\n".to_vec());
    files
}

fn without(files: &BTreeMap<String, Vec<u8>>, gone: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let mut rest = files.clone();
    for g in gone {
        assert!(rest.remove(*g).is_some(), "{g} is in the collection");
    }
    rest
}

/// Writes `files` under `root/files`; returns that folder.
fn write_files(root: &Path, files: &BTreeMap<String, Vec<u8>>) -> PathBuf {
    let dir = root.join("files");
    for (name, bytes) in files {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    dir
}

/// Imports `dir` into `db`; the summary.
fn import(db: &Path, dir: &Path) -> Value {
    let out = Kifudex::new()
        .db(db)
        .args(&["import", dir.to_str().unwrap(), "--json"])
        .output();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", out.stderr);
    out.json_lines()[0].clone()
}

/// A database of only `files`, freshly imported, in a folder of its own; returns its root.
fn fresh(name: &str, files: &BTreeMap<String, Vec<u8>>) -> TempDb {
    fresh_in_steps(name, &[files])
}

/// A fresh database of the files of each step in turn (each import sees the files of its
/// step), in a folder of its own; returns its root.
fn fresh_in_steps(name: &str, steps: &[&BTreeMap<String, Vec<u8>>]) -> TempDb {
    let root = TempDb::new(name);
    for files in steps {
        let _ = std::fs::remove_dir_all(root.join("files"));
        let dir = write_files(&root, files);
        import(&root.join("db"), &dir);
    }
    root
}

/// Runs `kifudex remove ARGS --json`, expecting success; the summary.
fn remove(db: &Path, args: &[&str]) -> Value {
    let mut a = vec!["remove", "--json"];
    a.extend_from_slice(args);
    let out = Kifudex::new().db(db).args(&a).output();
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", out.stderr);
    out.json_lines().last().unwrap().clone()
}

/// The summary's counts: games, sources, kept, players, errors.
fn counts(summary: &Value) -> [u64; 5] {
    ["games", "sources", "kept", "players", "errors"].map(|k| summary[k].as_u64().unwrap())
}

/// What to ask both databases.
struct Probes {
    positions: Vec<String>,
    words: Vec<&'static str>,
}

/// The start, and positions of the games a removal will take (listed by its dry run): after
/// the first move, half-way and at the end.
fn probes_for(db: &Path, args: &[&str]) -> Probes {
    let mut a = vec!["remove", "--dry-run", "--json"];
    a.extend_from_slice(args);
    let listed = Kifudex::new().db(db).args(&a).output().json_lines();
    let mut positions = vec!["startpos".to_string()];
    for g in listed.iter().filter(|v| v["remove"] == "game") {
        let id = g["id"].to_string();
        let line = Kifudex::new()
            .db(db)
            .args(&["show", &id, "--to", "usi"])
            .output()
            .stdout;
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "moves").unwrap();
        let n = words.len() - at - 1;
        for k in [1, n / 2, n] {
            positions.push(words[..at + 1 + k].join(" "));
        }
    }
    positions.sort();
    positions.dedup();
    Probes {
        positions,
        words: vec![
            "好手",
            "互角",
            "勝負所",
            "独自",
            "書庫杯",
            "連続対局",
            "甲野",
            "多田一郎",
            "壊田",
        ],
    }
}

/// JSON lines without `drop`'s fields, paths below `root`, sorted.
fn normal(rows: Vec<Value>, root: &Path, drop: &[&str]) -> Vec<String> {
    let prefix = format!("{}/", root.display());
    let mut out: Vec<String> = rows
        .into_iter()
        .map(|mut v| {
            if let Some(o) = v.as_object_mut() {
                for k in drop {
                    o.remove(*k);
                }
                if let Some(Value::String(f)) = o.get_mut("file") {
                    *f = f.replacen(&prefix, "", 1);
                }
            }
            v.to_string()
        })
        .collect();
    out.sort();
    out
}

#[derive(Debug, PartialEq)]
struct Snapshot {
    search: Vec<String>,
    players: Vec<String>,
    stats: BTreeMap<&'static str, Value>,
    text: Vec<(&'static str, Vec<String>)>,
    position: Vec<(String, Vec<String>)>,
    tree: Vec<(String, Vec<String>)>,
}

const STATS: [&str; 8] = [
    "games",
    "positions",
    "players",
    "files",
    "errors",
    "warnings",
    "duplicates",
    "illegal",
];

fn snapshot(root: &Path, probes: &Probes) -> Snapshot {
    let db = root.join("db");
    let ask = |args: &[&str]| {
        let out = Kifudex::new().db(&db).args(args).output();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", out.stderr);
        out.json_lines()
    };
    let stats = &ask(&["stats", "--json"])[0];
    Snapshot {
        search: normal(
            ask(&["search", "--json", "--limit", "100000"]),
            root,
            &["id"],
        ),
        players: normal(ask(&["players", "--json", "--limit", "100000"]), root, &[]),
        stats: STATS.iter().map(|&k| (k, stats[k].clone())).collect(),
        text: probes
            .words
            .iter()
            .map(|&w| {
                let hits = ask(&["text", w, "--json", "--limit", "10000"]);
                (w, normal(hits, root, &["id", "score"]))
            })
            .collect(),
        position: probes
            .positions
            .iter()
            .map(|p| {
                let rows = ask(&["position", p, "--json", "--limit", "100000"]);
                (p.clone(), normal(rows, root, &["id"]))
            })
            .collect(),
        tree: probes
            .positions
            .iter()
            .map(|p| {
                (
                    p.clone(),
                    normal(ask(&["tree", p, "--json"]), root, &["first_game"]),
                )
            })
            .collect(),
    }
}

/// Asserts two snapshots equal but for `files`, which may differ by `extra_files` (sources
/// that stay when their games were removed outright).
fn assert_same(got: &Snapshot, want: &Snapshot, extra_files: u64) {
    assert_eq!(got.search, want.search);
    assert_eq!(got.players, want.players);
    let mut stats = want.stats.clone();
    let files = stats["files"].as_u64().unwrap() + extra_files;
    stats.insert("files", files.into());
    assert_eq!(got.stats, stats);
    assert_eq!(got.text, want.text);
    assert_eq!(got.position, want.position);
    assert_eq!(got.tree, want.tree);
}

#[test]
fn removing_sources_leaves_what_a_fresh_import_of_the_rest_holds() {
    let files = collection();
    let root = TempDb::new("remove-sources");
    let dir = write_files(&root, &files);
    let db = root.join("db");
    let first = import(&db, &dir);
    assert_eq!(
        (first["games"].clone(), first["duplicates"].clone()),
        (22.into(), 1.into())
    );
    let arg = |rel: &str| dir.join(rel).to_str().unwrap().to_string();
    let (g05, g03, zip) = (
        arg("synth/g05.kifu"),
        arg("synth/g03.kifu"),
        arg("own/arch.zip"),
    );
    let args = ["--source", &g05, &g03, &zip];
    let probes = probes_for(&db, &args);
    assert!(probes.positions.len() > 3, "{:?}", probes.positions);

    // A dry run lists what would go and changes nothing.
    let before = snapshot(&root, &probes);
    let mut dry = vec!["remove", "--dry-run", "--json"];
    dry.extend_from_slice(&args);
    let listed = Kifudex::new().db(&db).args(&dry).output().json_lines();
    let sources: Vec<String> = listed
        .iter()
        .filter(|v| v["remove"] == "source")
        .map(|v| {
            v["path"]
                .as_str()
                .unwrap()
                .replacen(&format!("{}/", dir.display()), "", 1)
        })
        .collect();
    assert_eq!(
        sources,
        [
            "own/arch.zip!a.kif",
            "own/arch.zip!sub/b.kif",
            "synth/g03.kifu",
            "synth/g05.kifu"
        ]
    );
    let summary = listed.last().unwrap();
    assert_eq!(summary["dry_run"], true);
    // g05 and the two zip games go; g03's game stays, for dup/ holds it; the zip's three
    // players name no other game.
    assert_eq!(counts(summary), [3, 4, 1, 3, 0]);
    assert_eq!(snapshot(&root, &probes), before);

    let done = remove(&db, &args);
    assert_eq!(done["dry_run"], false);
    assert_eq!(counts(&done), [3, 4, 1, 3, 0]);
    let rest = without(
        &files,
        &["synth/g05.kifu", "synth/g03.kifu", "own/arch.zip"],
    );
    let want = fresh("remove-sources-want", &rest);
    assert_same(&snapshot(&root, &probes), &snapshot(&want, &probes), 0);

    // A folder, given relative to the current directory: its sources with their errors.
    let probes2 = probes_of(&db, &root, &["--source", "files/own"]);
    let out = Kifudex::new()
        .current_dir(&root)
        .db(&db)
        .args(&["remove", "--source", "files/own"])
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    assert_eq!(
        out.stdout.split(" in ").next().unwrap(),
        format!(
            "removed 4 games, 3 sources from {}: 7 players, 2 import errors, 15 positions",
            db.display()
        )
    );
    let rest = without(&rest, &["own/multi.csa", "own/broken.kif", "own/hello.kif"]);
    let want = fresh("remove-sources-want2", &rest);
    assert_same(&snapshot(&root, &probes2), &snapshot(&want, &probes2), 0);

    // Their files are read again, as new: the database is then the whole collection's.
    let again = import(&db, &dir);
    assert_eq!(
        (again["games"].clone(), again["duplicates"].clone()),
        (7.into(), 1.into())
    );
    let whole = fresh("remove-sources-whole", &files);
    let all = Probes {
        positions: [probes.positions, probes2.positions].concat(),
        words: probes.words,
    };
    assert_same(&snapshot(&root, &all), &snapshot(&whole, &all), 0);
    for r in [root, want, whole] {
        let _ = std::fs::remove_dir_all(r);
    }
}

/// [`probes_for`] with the removal run from `cwd`.
fn probes_of(db: &Path, cwd: &Path, args: &[&str]) -> Probes {
    let mut a = vec!["remove", "--dry-run", "--json"];
    a.extend_from_slice(args);
    let out = Kifudex::new().current_dir(cwd).db(db).args(&a).output();
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    let ids: Vec<String> = out
        .json_lines()
        .iter()
        .filter(|v| v["remove"] == "game")
        .map(|v| v["id"].to_string())
        .collect();
    let mut games = vec!["--game"];
    games.extend(ids.iter().map(String::as_str));
    probes_for(db, &games)
}

/// The id of the game first read from `rel`.
fn id_of(db: &Path, dir: &Path, rel: &str) -> String {
    let file = dir.join(rel).to_str().unwrap().to_string();
    list_games(db)
        .iter()
        .find(|r| r["file"] == file.as_str())
        .unwrap_or_else(|| panic!("a game of {rel}"))["id"]
        .to_string()
}

#[test]
fn removed_games_stay_removed_until_their_file_changes() {
    let mut files = collection();
    let root = TempDb::new("remove-games");
    let dir = write_files(&root, &files);
    let db = root.join("db");
    import(&db, &dir);
    let ids = [
        id_of(&db, &dir, "synth/g07.kifu"),
        id_of(&db, &dir, "dup/g03.kifu"),
        id_of(&db, &dir, "own/broken.kif"),
    ];
    let args = ["--game", &ids[0], &ids[1], &ids[2]];
    let probes = probes_for(&db, &args);
    // The duplicate goes from both its files; the broken game with its error and players.
    assert_eq!(counts(&remove(&db, &args)), [3, 0, 0, 2, 1]);
    let gone = [
        "synth/g07.kifu",
        "synth/g03.kifu",
        "dup/g03.kifu",
        "own/broken.kif",
    ];
    let want = fresh("remove-games-want", &without(&files, &gone));
    // Their four files stay known, so that an import of them unchanged does not bring them back.
    assert_same(&snapshot(&root, &probes), &snapshot(&want, &probes), 4);
    let again = import(&db, &dir);
    assert_eq!(
        (again["games"].clone(), again["unchanged"].clone()),
        (0.into(), 22.into())
    );
    assert_same(&snapshot(&root, &probes), &snapshot(&want, &probes), 4);

    // A changed file is read again, whole: its game is back.
    let changed = [files["synth/g07.kifu"].clone(), b"\n".to_vec()].concat();
    std::fs::write(dir.join("synth/g07.kifu"), &changed).unwrap();
    files.insert("synth/g07.kifu".into(), changed);
    let again = import(&db, &dir);
    assert_eq!(
        (again["games"].clone(), again["unchanged"].clone()),
        (1.into(), 21.into())
    );
    let gone = ["synth/g03.kifu", "dup/g03.kifu", "own/broken.kif"];
    let want2 = fresh("remove-games-want2", &without(&files, &gone));
    assert_same(&snapshot(&root, &probes), &snapshot(&want2, &probes), 3);

    // By filter: the games of one event, from the two entries of the archive.
    let args = ["--event", "書庫杯"];
    let probes2 = probes_for(&db, &args);
    assert_eq!(counts(&remove(&db, &args)), [2, 0, 0, 3, 0]);
    let gone = [
        "synth/g03.kifu",
        "dup/g03.kifu",
        "own/broken.kif",
        "own/arch.zip",
    ];
    let want3 = fresh("remove-games-want3", &without(&files, &gone));
    assert_same(&snapshot(&root, &probes2), &snapshot(&want3, &probes2), 5);
    for r in [root, want, want2, want3] {
        let _ = std::fs::remove_dir_all(r);
    }
}

#[test]
fn missing_files_go_and_come_back_as_new() {
    let files = collection();
    let root = TempDb::new("remove-missing");
    let dir = write_files(&root, &files);
    let db = root.join("db");
    import(&db, &dir);
    let gone = ["synth/g09.kifu", "dup/g03.kifu", "own/arch.zip"];
    let probes = probes_for(
        &db,
        &[
            "--source",
            dir.join(gone[0]).to_str().unwrap(),
            dir.join(gone[2]).to_str().unwrap(),
        ],
    );
    for g in gone {
        std::fs::remove_file(dir.join(g)).unwrap();
    }
    // g09's game and the archive's two go; g03's stays with synth/g03.kifu.
    let dry = Kifudex::new()
        .db(&db)
        .args(&["remove", "--missing", "--dry-run", "--json"])
        .output()
        .json_lines();
    assert_eq!(counts(dry.last().unwrap()), [3, 4, 1, 3, 0]);
    assert_eq!(counts(&remove(&db, &["--missing"])), [3, 4, 1, 3, 0]);
    let want = fresh("remove-missing-want", &without(&files, &gone));
    assert_same(&snapshot(&root, &probes), &snapshot(&want, &probes), 0);
    let table = Kifudex::new()
        .db(&db)
        .args(&["remove", "--missing"])
        .output()
        .stdout;
    assert!(
        table.starts_with(&format!(
            "removed 0 games, 0 sources from {}: 0 players, 0 import errors, 0 positions in ",
            db.display()
        )),
        "{table}"
    );

    // Back on disk, they are imported again as new.
    write_files(&root, &files);
    let again = import(&db, &dir);
    assert_eq!(
        (again["games"].clone(), again["duplicates"].clone()),
        (3.into(), 1.into())
    );
    assert_eq!(again["unchanged"], 18);
    // The game of dup/g03.kifu is known by synth/g03.kifu since, as after an import without
    // dup/ and one with it.
    let rest = without(&files, &gone);
    let whole = fresh_in_steps("remove-missing-whole", &[&rest, &files]);
    assert_same(&snapshot(&root, &probes), &snapshot(&whole, &probes), 0);

    // An entry gone from an archive that is still there: that entry's source goes.
    std::fs::write(dir.join("own/arch.zip"), archive(&[("a.kif", ZIP_A)])).unwrap();
    let own = dir.join("own");
    let done = remove(&db, &["--missing", own.to_str().unwrap()]);
    assert_eq!(counts(&done), [1, 1, 0, 1, 0]);
    let mut now = files.clone();
    now.insert("own/arch.zip".into(), archive(&[("a.kif", ZIP_A)]));
    let want2 = fresh_in_steps("remove-missing-want2", &[&rest, &now]);
    assert_same(&snapshot(&root, &probes), &snapshot(&want2, &probes), 0);
    for r in [root, want, whole, want2] {
        let _ = std::fs::remove_dir_all(r);
    }
}

#[test]
fn remove_refuses_what_it_cannot_do_and_says_why() {
    let files = collection();
    let root = TempDb::new("remove-refused");
    let dir = write_files(&root, &files);
    let db = root.join("db");
    import(&db, &dir);
    let probes = probes_for(&db, &["--all"]);
    let before = snapshot(&root, &probes);
    let refused = |args: &[&str], status: i32, message: &str| {
        let mut a = vec!["remove"];
        a.extend_from_slice(args);
        let out = Kifudex::new().db(&db).args(&a).output();
        assert_eq!(out.status.code(), Some(status), "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr, format!("kifudex: {message}\n"), "{args:?}");
        assert_eq!(out.stdout, "");
    };
    // Bad usage (status 2): nothing says what to remove, or two ways at once.
    refused(
        &[],
        2,
        "remove needs what to remove: --game ID, --source PATH, --missing, a game filter (--player, --event, ...), or --all for every game",
    );
    refused(
        &["--dry-run"],
        2,
        "remove needs what to remove: --game ID, --source PATH, --missing, a game filter (--player, --event, ...), or --all for every game",
    );
    refused(
        &["--game", "1", "--player", "多田"],
        2,
        "a game filter cannot be combined with --game, --source or --missing",
    );
    refused(
        &["--all", "--player", "多田"],
        2,
        "--all removes every game: give it without a filter",
    );
    let clap = Kifudex::new()
        .db(&db)
        .args(&["remove", "--game", "1", "--source", "x"])
        .output();
    assert_eq!(clap.status.code(), Some(2));
    assert!(
        clap.stderr.contains("cannot be used with"),
        "{}",
        clap.stderr
    );
    // What names nothing (status 1).
    let shown = db.display();
    refused(
        &["--game", "1", "999", "998"],
        1,
        &format!("no game with id 999, 998 in {shown}: nothing removed"),
    );
    refused(
        &["--source", "files/own"],
        1,
        &format!(
            "no source at or under files/own in {shown} (sources are known by the paths given to import, as `search` shows them): nothing removed"
        ),
    );
    // Run from elsewhere, relative paths all look gone: not without --all.
    let rel = TempDb::new("remove-refused-rel");
    let out = Kifudex::new()
        .current_dir(&root)
        .db(rel.join("db"))
        .args(&["import", "files"])
        .output();
    assert_eq!(out.status.code(), Some(1), "{}", out.stderr);
    let out = Kifudex::new()
        .current_dir(&rel)
        .db(rel.join("db"))
        .args(&["remove", "--missing"])
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stderr,
        format!(
            "kifudex: none of the 22 sources is on disk (relative paths are looked up from {}): if they are all gone, give --all too; nothing removed\n",
            rel.display()
        )
    );
    let out = Kifudex::new()
        .current_dir(&root)
        .db(rel.join("db"))
        .args(&["remove", "--missing"])
        .output();
    assert!(
        out.stdout.starts_with("removed 0 games, 0 sources"),
        "{}",
        out.stdout
    );
    // One import (or removal) at a time.
    let lock = std::fs::File::create(db.join("import.lock")).unwrap();
    lock.try_lock().unwrap();
    refused(
        &["--all"],
        1,
        &format!("another import is running into {shown}"),
    );
    drop(lock);
    assert_eq!(snapshot(&root, &probes), before);

    // The game with the largest id: the text index follows without being rebuilt.
    let last = Kifudex::new()
        .db(&db)
        .args(&["search", "--json", "--limit", "100000"])
        .output()
        .json_lines()
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .max()
        .unwrap();
    remove(&db, &["--game", &last.to_string()]);
    // The removal itself deleted its documents and committed the index (a query would
    // otherwise find the counts apart and compare every id).
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(db.join("text/meta.json")).unwrap()).unwrap();
    let payload: Value = serde_json::from_str(meta["payload"].as_str().unwrap()).unwrap();
    assert_eq!(
        (payload["games"].clone(), payload["last_id"].clone()),
        (21.into(), last.into())
    );
    let out = Kifudex::new()
        .db(&db)
        .args(&["text", "好手", "--json"])
        .output();
    assert_eq!(out.stderr, "");
    assert!(out.json_lines().iter().all(|h| h["id"] != last));

    // --all: every game, every player, every posting, and the errors of games; the files
    // stay known (an import of them unchanged brings nothing back).
    let stats = &Kifudex::new()
        .db(&db)
        .args(&["stats", "--json"])
        .output()
        .json_lines()[0];
    let n = |k: &str| stats[k].as_u64().unwrap();
    assert_eq!(
        counts(&remove(&db, &["--all"])),
        [n("games"), 0, 0, n("players"), 1]
    );
    let stats = &Kifudex::new()
        .db(&db)
        .args(&["stats", "--json"])
        .output()
        .json_lines()[0];
    let left: Vec<u64> = [
        "games",
        "positions",
        "players",
        "duplicates",
        "errors",
        "files",
    ]
    .iter()
    .map(|k| stats[*k].as_u64().unwrap())
    .collect();
    assert_eq!(
        left,
        [0, 0, 0, 0, 1, 22],
        "hello.kif's own error stays with it"
    );
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["text", "好手", "--json"])
            .output()
            .json_lines()
            .is_empty()
    );
    let again = import(&db, &dir);
    assert_eq!(
        (again["games"].clone(), again["unchanged"].clone()),
        (0.into(), 22.into())
    );
    let _ = std::fs::remove_dir_all(rel);
    let _ = std::fs::remove_dir_all(root);
}
