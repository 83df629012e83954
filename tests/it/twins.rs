//! One game, one row: the same game read from several sources (KIF, CSA, KI2, each with its
//! own headers) is stored once, through import, `search`, `players --vs`, `tree`, `text` and
//! `show --sources`; games the rule keeps apart (other players, other days, a record cut
//! short) are listed by `kifudex twins`, merged and split by hand; databases of the format
//! before are re-keyed by their migration.

use std::path::Path;

use serde_json::Value;

use crate::util::{Kifudex, TempDb};

/// A 2008 title game as one site publishes it: the event, the place, two days, titles.
const TITLE_KIF: &str = "開始日時：2008/12/17-18
棋戦：第21期竜王戦七番勝負 第7局
場所：山形県天童市
先手：渡辺明竜王
後手：羽生善治名人
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ８四歩(83)
   3 ６八銀(79)
   4 ３四歩(33)
   5 投了
まで4手で後手の勝ち
";

/// The same game from another site: no event header (only a comment), a start time of day,
/// the names with a space and without titles.
const TITLE_CSA: &str = "V2.2
N+渡辺 明
N-羽生 善治
$START_TIME:2008/12/17 09:00:00
'第21期竜王戦七番勝負第7局
PI
+
+7776FU
-8384FU
+7968GI
-3334FU
%TORYO
";

/// The same game as KI2 from a third: a month only, 旧字体 and a space in the names.
const TITLE_KI2: &str = "開始日時：2008/12
先手：渡邊 明
後手：羽生善治
▲７六歩 △８四歩 ▲６八銀 △３四歩
まで4手で後手の勝ち
";

fn write(dir: &Path, files: &[(&str, &str)]) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

fn run(db: &Path, args: &[&str]) -> Vec<Value> {
    Kifudex::new()
        .db(db)
        .args(args)
        .output()
        .success()
        .json_lines()
}

fn import(db: &Path, files: &Path) -> Value {
    run(db, &["import", "--json", files.to_str().unwrap()]).remove(0)
}

/// (id, event) of every game, by id.
fn games(db: &Path) -> Vec<(i64, Option<String>)> {
    let mut out: Vec<(i64, Option<String>)> = run(db, &["search", "--json"])
        .iter()
        .map(|g| {
            (
                g["id"].as_i64().unwrap(),
                g["event"].as_str().map(str::to_string),
            )
        })
        .collect();
    out.sort();
    out
}

/// How many games `players 羽生 --vs 渡辺` counts, and how many the tree's first move has.
fn head_to_head_and_tree(db: &Path) -> (i64, i64) {
    let players = run(db, &["players", "羽生", "--vs", "渡辺", "--json"]);
    let games: i64 = players.iter().map(|p| p["games"].as_i64().unwrap()).sum();
    let tree = run(db, &["tree", "startpos", "--json"]);
    let first = tree.iter().find(|r| r["move"] == "7g7f").unwrap();
    (games, first["count"].as_i64().unwrap())
}

/// The ids of the games `text QUERY` finds, each once.
fn text_games(db: &Path, query: &str) -> Vec<i64> {
    let mut ids: Vec<i64> = run(db, &["text", query, "--json"])
        .iter()
        .map(|h| h["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// (file name, fields taken from it, own) of every source of a game.
fn sources(db: &Path, id: i64) -> Vec<(String, Vec<String>, bool)> {
    run(db, &["show", &id.to_string(), "--sources", "--json"])
        .iter()
        .map(|s| {
            let file = s["file"].as_str().unwrap();
            let name = Path::new(file).file_name().unwrap().to_string_lossy();
            let fields = s["fields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap().to_string())
                .collect();
            (name.into_owned(), fields, s["own"].as_bool().unwrap())
        })
        .collect()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

const EVENT: &str = "第21期竜王戦七番勝負 第7局";

/// The title game as CSA (read first: its file sorts first), KIF and KI2: one game with
/// three sources, the event and place taken from the KIF and said to come from it, counted
/// once by every command. Removing a source keeps the game while another holds it.
#[test]
fn one_game_from_three_sources_is_stored_once() {
    let dir = TempDb::new("twins-three");
    let files = dir.join("files");
    write(
        &files,
        &[
            ("a.csa", TITLE_CSA),
            ("b.kif", TITLE_KIF),
            ("c.ki2", TITLE_KI2),
        ],
    );
    let db = dir.join("db");
    let summary = import(&db, &files);
    assert_eq!(
        (&summary["games"], &summary["duplicates"], &summary["twins"]),
        (&Value::from(1), &Value::from(2), &Value::from(2)),
        "{summary}"
    );
    assert_eq!(games(&db), [(1, Some(EVENT.to_string()))]);
    assert_eq!(
        sources(&db, 1),
        [
            ("a.csa".to_string(), vec![], true),
            ("b.kif".to_string(), strings(&["event", "site"]), false),
            ("c.ki2".to_string(), vec![], false),
        ]
    );
    assert_eq!(head_to_head_and_tree(&db), (1, 1));
    assert_eq!(text_games(&db, "竜王戦"), [1]);
    assert_eq!(
        text_games(&db, "天童"),
        [1],
        "the place, taken from the KIF"
    );
    // The game as the CSA gives it, with the event and place the KIF adds.
    let shown = Kifudex::new()
        .db(&db)
        .args(["show", "1"])
        .output()
        .success();
    assert!(
        shown.stdout.contains(&format!("棋戦：{EVENT}")),
        "{}",
        shown.stdout
    );
    assert!(
        shown.stdout.contains("場所：山形県天童市"),
        "{}",
        shown.stdout
    );
    // The text listing names every source.
    let listed = Kifudex::new()
        .db(&db)
        .args(["show", "1", "--sources"])
        .output()
        .success();
    assert!(
        listed.stdout.ends_with("game 1: 3 sources\n"),
        "{}",
        listed.stdout
    );

    // The same files read in another order make the same one game, its own source the KIF.
    let other = dir.join("other");
    write(
        &other,
        &[
            ("1.kif", TITLE_KIF),
            ("2.ki2", TITLE_KI2),
            ("3.csa", TITLE_CSA),
        ],
    );
    let db2 = dir.join("db2");
    assert_eq!(import(&db2, &other)["games"], 1);
    assert_eq!(games(&db2), [(1, Some(EVENT.to_string()))]);
    assert_eq!(
        sources(&db2, 1).iter().map(|s| s.2).collect::<Vec<_>>(),
        [true, false, false]
    );
    assert!(
        sources(&db2, 1).iter().all(|s| s.1.is_empty()),
        "the KIF lacks nothing"
    );
    assert_eq!(head_to_head_and_tree(&db2), (1, 1));

    // The KIF goes: the game stays, without the event only the KIF gave.
    let kif = files.join("b.kif");
    run(
        &db,
        &["remove", "--json", "--source", kif.to_str().unwrap()],
    );
    assert_eq!(games(&db), [(1, None)]);
    assert_eq!(
        sources(&db, 1),
        [
            ("a.csa".to_string(), vec![], true),
            ("c.ki2".to_string(), vec![], false),
        ]
    );
    assert_eq!(text_games(&db, "天童"), Vec::<i64>::new());
    assert_eq!(head_to_head_and_tree(&db), (1, 1));
    // The CSA goes too: the KI2 holds it.
    let csa = files.join("a.csa");
    run(
        &db,
        &["remove", "--json", "--source", csa.to_str().unwrap()],
    );
    assert_eq!(games(&db), [(1, None)]);
    assert_eq!(sources(&db, 1), [("c.ki2".to_string(), vec![], true)]);
    assert_eq!(head_to_head_and_tree(&db), (1, 1));
}

/// The same moves under other players, on a day the game cannot have been played, or
/// started at another time of day: games of their own, never merged, and listed by
/// `twins` with what conflicts.
#[test]
fn other_players_or_days_stay_apart() {
    let dir = TempDb::new("twins-apart");
    let files = dir.join("files");
    let other_player = TITLE_KIF.replace("先手：渡辺明竜王", "先手：佐藤康光棋聖");
    let other_day = TITLE_KIF.replace("2008/12/17-18", "2008/12/20");
    let same_day = TITLE_KIF.replace("2008/12/17-18", "2008年12月17日");
    let afternoon = TITLE_CSA.replace("09:00:00", "13:00:00");
    write(
        &files,
        &[
            ("a.kif", TITLE_KIF),
            ("b.kif", &other_player),
            ("c.kif", &other_day),
            // The first of the two days the KIF names, written otherwise: the same game.
            ("d.kif", &same_day),
            ("e.csa", TITLE_CSA),
            // Another time of day than e.csa's.
            ("f.csa", &afternoon),
        ],
    );
    let db = dir.join("db");
    let summary = import(&db, &files);
    assert_eq!(
        (&summary["games"], &summary["duplicates"]),
        (&Value::from(4), &Value::from(2)),
        "{summary}"
    );
    let ids: Vec<i64> = games(&db).iter().map(|g| g.0).collect();
    assert_eq!(ids, [1, 2, 3, 4]);
    let names = |id| -> Vec<String> { sources(&db, id).into_iter().map(|s| s.0).collect() };
    assert_eq!(names(1), ["a.kif", "d.kif", "e.csa"]);
    assert_eq!(names(2), ["b.kif"]);
    assert_eq!(names(3), ["c.kif"]);
    assert_eq!(names(4), ["f.csa"]);
    assert_eq!(head_to_head_and_tree(&db).1, 4);
    let near = run(&db, &["twins", "--json"]);
    assert_eq!(near.len(), 1, "{near:?}");
    assert_eq!(near[0]["kind"], "conflict");
    assert_eq!(near[0]["games"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(
        near[0]["conflicts"],
        serde_json::json!(["players", "date", "time"])
    );
    // A filter lists the groups with one of its games; none of another player's.
    assert_eq!(run(&db, &["twins", "--json", "--player", "佐藤"]).len(), 1);
    assert_eq!(run(&db, &["twins", "--json", "--player", "木村"]).len(), 0);
}

/// A record cut short (the first two moves, the same players and day) is listed, merged by
/// hand into the whole game, and split from it again; a split record is not merged again
/// when its file is read again.
#[test]
fn a_record_cut_short_is_merged_and_split_by_hand() {
    let dir = TempDb::new("twins-prefix");
    let files = dir.join("files");
    let short = "開始日時：2008/12/17\n先手：渡辺明\n後手：羽生善治\n\
                 手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ８四歩(83)\n   3 中断\n";
    write(&files, &[("a.kif", TITLE_KIF), ("b.kif", short)]);
    let db = dir.join("db");
    assert_eq!(import(&db, &files)["games"], 2);
    let near = run(&db, &["twins", "--json"]);
    assert_eq!(
        near,
        [serde_json::json!({"kind": "prefix", "games": [2, 1], "plies": [2, 4], "conflicts": []})]
    );
    let merged = run(&db, &["twins", "--json", "--merge", "2", "1"]);
    assert_eq!(
        merged,
        [serde_json::json!({"kept": 1, "gone": 2, "sources": 1})]
    );
    assert_eq!(games(&db).len(), 1);
    assert_eq!(head_to_head_and_tree(&db), (1, 1));
    let listed = run(&db, &["show", "1", "--sources", "--json"]);
    assert_eq!(listed.len(), 2);
    assert_eq!(
        (&listed[1]["plies"], &listed[1]["by_hand"]),
        (&Value::from(2), &Value::from(true))
    );
    assert_eq!(run(&db, &["twins", "--json"]).len(), 0);
    assert_eq!(text_games(&db, "竜王戦"), [1]);

    let split = run(&db, &["twins", "--json", "--split", "1"]);
    assert_eq!(split, [serde_json::json!({"game": 1, "games": [3]})]);
    let all = run(&db, &["search", "--json"]);
    let mut plies: Vec<(i64, i64)> = all
        .iter()
        .map(|g| (g["id"].as_i64().unwrap(), g["plies"].as_i64().unwrap()))
        .collect();
    plies.sort();
    assert_eq!(plies, [(1, 4), (3, 2)]);
    assert_eq!(run(&db, &["twins", "--json"]).len(), 1);
    // Read again (its file changed), the split record stays a game of its own.
    std::fs::write(files.join("b.kif"), short.replace("渡辺明", "渡辺 明")).unwrap();
    let again = import(&db, &files);
    assert_eq!(again["games"], 1, "{again}");
    assert_eq!(games(&db).len(), 2);

    // Wrong asks are refused with words.
    let out = Kifudex::new()
        .db(&db)
        .args(["twins", "--merge", "1", "1"])
        .output();
    assert_eq!(out.code(), 1);
    assert!(out.stderr.contains("game 1 twice"), "{}", out.stderr);
    let out = Kifudex::new()
        .db(&db)
        .args(["twins", "--merge", "1", "99"])
        .output();
    assert!(out.stderr.contains("no game with id 99"), "{}", out.stderr);
    let out = Kifudex::new()
        .db(&db)
        .args(["twins", "--split", "1"])
        .output();
    assert!(
        out.stderr.contains("game 1 has no source to split"),
        "{}",
        out.stderr
    );
}

/// A twin split from its game by hand stays a game of its own when its file is read again
/// (the person's word holds), and is merged again only by hand.
#[test]
fn a_split_twin_stays_apart_when_read_again() {
    let dir = TempDb::new("twins-split");
    let files = dir.join("files");
    write(&files, &[("a.csa", TITLE_CSA), ("b.kif", TITLE_KIF)]);
    let db = dir.join("db");
    assert_eq!(import(&db, &files)["games"], 1);
    let split = run(&db, &["twins", "--json", "--split", "1"]);
    assert_eq!(split, [serde_json::json!({"game": 1, "games": [2]})]);
    assert_eq!(
        games(&db),
        [(1, None), (2, Some(EVENT.to_string()))],
        "the CSA's game lost the event the KIF gave it"
    );
    assert_eq!(head_to_head_and_tree(&db), (2, 2));
    assert_eq!(text_games(&db, "天童"), [2]);
    std::fs::write(files.join("b.kif"), TITLE_KIF.replace("場所", "対局場所")).unwrap();
    let again = import(&db, &files);
    assert_eq!(
        (&again["games"], &again["twins"]),
        (&Value::from(1), &Value::from(0)),
        "{again}"
    );
    assert_eq!(games(&db).len(), 2);
    // Listed as the same moves kept apart, with nothing in conflict.
    let near = run(&db, &["twins", "--json"]);
    assert_eq!(near.len(), 1, "{near:?}");
    assert_eq!(near[0]["conflicts"], serde_json::json!([]));
    let ids: Vec<i64> = games(&db).iter().map(|g| g.0).collect();
    let merged = run(
        &db,
        &["twins", "--json", "--merge", "1", &ids[1].to_string()],
    );
    assert_eq!(merged[0]["kept"], 1);
    assert_eq!(games(&db), [(1, Some(EVENT.to_string()))]);
    assert_eq!(head_to_head_and_tree(&db), (1, 1));
}

/// A database of the format before twins, holding the title game twice (as the KIF and as
/// the CSA, which the old key, holding the event and time of day, told apart): the upgrade
/// re-keys it and merges them, says so, and every command counts one game. A read refuses
/// the old database and leaves it as it was.
#[test]
fn a_database_of_the_previous_format_has_its_twins_merged() {
    let dir = TempDb::new("twins-migrate");
    let files = dir.join("files");
    write(&files, &[("a.csa", TITLE_CSA), ("b.kif", TITLE_KIF)]);
    let db = dir.join("db");
    assert_eq!(import(&db, &files)["games"], 1);
    // Two games, as the old key made them: the KIF split from the CSA's game.
    run(&db, &["twins", "--json", "--split", "1"]);
    assert_eq!(games(&db).len(), 2);
    let at = kifudex::store::MIGRATIONS
        .iter()
        .position(|(n, _)| *n == "0015_twins.sql")
        .unwrap();
    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    conn.execute_batch(crate::util::BACK_TO_SCHEMA_14).unwrap();
    conn.pragma_update(None, "user_version", at as u32).unwrap();
    drop(conn);
    // The text index of that database knew no revisions.
    std::fs::remove_dir_all(db.join(kifudex::store::TEXT_DIR)).unwrap();
    let copy = dir.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(db.join("kifudex.sqlite"), copy.join("kifudex.sqlite")).unwrap();

    crate::util::upgrade_old(&db);
    assert_eq!(games(&db), [(1, Some(EVENT.to_string()))]);
    assert_eq!(
        sources(&db, 1),
        [
            ("a.csa".to_string(), vec![], true),
            ("b.kif".to_string(), strings(&["event", "site"]), false),
        ]
    );
    assert_eq!(head_to_head_and_tree(&db), (1, 1));
    assert_eq!(text_games(&db, "竜王戦"), [1]);
    let stats = run(&db, &["stats", "--json"]).remove(0);
    assert_eq!(
        (&stats["games"], &stats["players"]),
        (&Value::from(1), &Value::from(2))
    );
    // Imported again, nothing is new.
    let again = import(&db, &files);
    assert_eq!(
        (&again["games"], &again["unchanged"]),
        (&Value::from(0), &Value::from(2))
    );

    // What the upgrade says.
    let out = run(&copy, &["upgrade", "--json"]).remove(0);
    assert_eq!(
        out["notes"],
        serde_json::json!([
            "merged 1 game into 1 that is the same game read from several sources (the key of a game is now its start and moves; its metadata is compared)"
        ]),
        "{out}"
    );
}

/// `twins --split ID --source N|PATH` splits one source of a game, named by its number in
/// `show --sources` or by its file; a source that read the game with the same facts is split
/// too; the game's own source, a number or a file the game does not have are refused with
/// words. A split record goes to another stored game when the rule finds it one.
#[test]
fn one_source_is_split_by_its_number_or_file() {
    let dir = TempDb::new("twins-split-one");
    let files = dir.join("files");
    write(
        &files,
        &[
            ("a.csa", TITLE_CSA),
            ("b.kif", TITLE_KIF),
            ("c.ki2", TITLE_KI2),
            // The CSA again under another name: the same facts as the game's own source.
            ("d.csa", TITLE_CSA),
        ],
    );
    let db = dir.join("db");
    assert_eq!(import(&db, &files)["games"], 1);
    let listed: Vec<(i64, String, bool)> = run(&db, &["show", "1", "--sources", "--json"])
        .iter()
        .map(|s| {
            let file = s["file"].as_str().unwrap();
            (
                s["number"].as_i64().unwrap(),
                Path::new(file)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into(),
                s["differs"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            (1, "a.csa".to_string(), false),
            (2, "b.kif".to_string(), true),
            (3, "c.ki2".to_string(), true),
            (4, "d.csa".to_string(), false),
        ]
    );
    let table = Kifudex::new()
        .db(&db)
        .args(["show", "1", "--sources"])
        .output()
        .success();
    assert!(table.stdout.starts_with("#  file"), "{}", table.stdout);

    // By number: the CSA of the same facts, a game of its own now.
    let split = run(&db, &["twins", "--json", "--split", "1", "--source", "4"]);
    assert_eq!(split, [serde_json::json!({"game": 1, "games": [2]})]);
    let names = |id| -> Vec<String> { sources(&db, id).into_iter().map(|s| s.0).collect() };
    assert_eq!(names(1), ["a.csa", "b.kif", "c.ki2"]);
    assert_eq!(names(2), ["d.csa"]);
    assert_eq!(games(&db), [(1, Some(EVENT.to_string())), (2, None)]);

    // By file: the KI2 goes to game 2, which the rule finds it is (only a person kept it
    // from game 1).
    let c = files.join("c.ki2");
    let c = c.to_str().unwrap();
    let split = run(&db, &["twins", "--json", "--split", "1", "--source", c]);
    assert_eq!(split, [serde_json::json!({"game": 1, "games": [2]})]);
    assert_eq!(names(1), ["a.csa", "b.kif"]);
    assert_eq!(names(2), ["d.csa", "c.ki2"]);
    assert_eq!(games(&db), [(1, Some(EVENT.to_string())), (2, None)]);
    assert_eq!(head_to_head_and_tree(&db), (2, 2));
    assert_eq!(text_games(&db, "天童"), [1]);

    // Wrong asks, refused with words; nothing changes.
    let refused = |source: &str| {
        let out = Kifudex::new()
            .db(&db)
            .args(["twins", "--split", "1", "--source", source])
            .output();
        assert_eq!(out.code(), 1, "{}", out.stderr);
        out.stderr
    };
    let own = refused("1");
    assert!(
        own.contains(
            "source 1 is game 1's own source (the game's row was read from it): split its other sources from it instead"
        ),
        "{own}"
    );
    let beyond = refused("3");
    assert!(
        beyond
            .contains("game 1 has no source 3: it has 2 (`kifudex show 1 --sources` numbers them)"),
        "{beyond}"
    );
    assert!(refused("0").contains("game 1 has no source 0: it has 2"));
    let elsewhere = refused(c);
    assert!(
        elsewhere.contains(&format!(
            "game 1 has no source {c} (`kifudex show 1 --sources` lists them)"
        )),
        "{elsewhere}"
    );
    assert_eq!(names(1), ["a.csa", "b.kif"]);
    assert_eq!(names(2), ["d.csa", "c.ki2"]);
    let out = Kifudex::new()
        .db(&db)
        .args(["twins", "--source", "2"])
        .output();
    assert_eq!(out.code(), 2, "--source needs --split: {}", out.stderr);
}

/// The event is compared: one that holds the other (竜王戦 and the full name of the match and
/// game), or the same after width, spaces and 旧字体 are folded, is the same event; another
/// game of the match or another event keeps the same moves apart, listed by `twins` as a
/// conflict of `event`. A record without an event matches any.
#[test]
fn conflicting_events_stay_apart() {
    let dir = TempDb::new("twins-event");
    let files = dir.join("files");
    let short_event = TITLE_CSA.replace(
        "$START_TIME:2008/12/17 09:00:00\n",
        "$START_TIME:2008/12/17 09:00:00\n$EVENT:竜王戦\n",
    );
    let old_form = TITLE_KIF.replace(EVENT, "第２１期 龍王戦七番勝負第7局");
    let fifth = TITLE_KIF.replace(EVENT, "第21期竜王戦七番勝負 第5局");
    let other = TITLE_KIF.replace(EVENT, "王将戦");
    write(
        &files,
        &[
            ("a.kif", TITLE_KIF),
            ("b.csa", &short_event),
            ("c.kif", &old_form),
            ("d.kif", &fifth),
            ("e.kif", &other),
            ("f.ki2", TITLE_KI2),
        ],
    );
    let db = dir.join("db");
    let summary = import(&db, &files);
    assert_eq!(
        (&summary["games"], &summary["duplicates"], &summary["twins"]),
        (&Value::from(3), &Value::from(3), &Value::from(3)),
        "{summary}"
    );
    assert_eq!(
        games(&db),
        [
            (1, Some(EVENT.to_string())),
            (2, Some("第21期竜王戦七番勝負 第5局".to_string())),
            (3, Some("王将戦".to_string())),
        ]
    );
    let names = |id| -> Vec<String> { sources(&db, id).into_iter().map(|s| s.0).collect() };
    assert_eq!(names(1), ["a.kif", "b.csa", "c.kif", "f.ki2"]);
    assert_eq!(names(2), ["d.kif"]);
    assert_eq!(names(3), ["e.kif"]);
    assert_eq!(head_to_head_and_tree(&db), (3, 3));
    assert_eq!(text_games(&db, "王将戦"), [3]);
    let near = run(&db, &["twins", "--json"]);
    assert_eq!(
        near,
        [
            serde_json::json!({"kind": "conflict", "games": [1, 2, 3], "plies": [4, 4, 4], "conflicts": ["event"]})
        ]
    );
    let listed = Kifudex::new().db(&db).args(["twins"]).output().success();
    assert_eq!(
        listed.stdout,
        "kind      games    moves    what differs\nconflict  1, 2, 3  4, 4, 4  event\n1 near twin\n"
    );
}
