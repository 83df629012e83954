//! The database through the command line: import a tree of the project's own records (KIF,
//! KI2, Shift-JIS, a zip archive with a Shift-JIS entry name, a duplicate, a broken file, a
//! file that is no record), then search, show, stats, re-import, change a file, and kill an
//! import half-way.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{Kifudex, TempDb, YAGURA_KIF, zip_stored};

/// The same game as KI2, with the names written differently: stored once.
/// The same game as [`YAGURA_KIF`], its players written otherwise (titles, 辺 for 邉): one
/// game under the duplicate key, which holds date and time, event and players normalised.
const YAGURA_KI2: &str = "開始日時：2019/04/08 10:00
棋戦：第32期竜王戦
先手：羽生善治
後手：渡辺明
▲７六歩 △８四歩 ▲６八銀 △３四歩 ▲６六歩 △６二銀
まで6手で後手の勝ち
";

const KAKUGAWARI_KIF: &str = "対局日：令和2年7月1日
棋戦：王位戦
戦型：角換わり
先手：ハブ太郎
後手：藤井聡太 七段
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ２二角成(88)
   4 同　銀(31)
   5 中断
";

const KYOOCHI_KIF: &str = "開始日時：2021/11/03 10:00:00
棋戦：指導対局
手合割：香落ち
上手：木村一基
下手：山田花子
手数----指手---------消費時間--
   1 ３四歩(33)
   2 ７六歩(77)
   3 投了
";

const SHIKENBISHA_KIF: &str = "開始日時：2018/05/01
棋戦：棋聖戦
戦型：四間飛車
先手：佐藤康光
後手：久保利明
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ６六歩(67)
   4 ８四歩(83)
   5 ６八飛(28)
   6 投了
";

const BROKEN_KIF: &str = "先手：甲
後手：乙
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ５五角(22)
   4 投了
";

fn sjis(text: &str) -> Vec<u8> {
    let (bytes, _, lossy) = encoding_rs::SHIFT_JIS.encode(text);
    assert!(!lossy);
    bytes.into_owned()
}

/// Writes the fixture tree; returns its root.
fn fixture_tree(root: &Path) -> PathBuf {
    let tree = root.join("records");
    let write = |rel: &str, bytes: &[u8]| {
        let p = tree.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    };
    write("a/1-yagura.kifu", YAGURA_KIF.as_bytes());
    write("a/2-yagura.ki2", &sjis(YAGURA_KI2));
    write("b/handicap.kif", &sjis(KYOOCHI_KIF));
    write("b/sjis.kif", &sjis(KAKUGAWARI_KIF));
    write("bad/broken.kif", BROKEN_KIF.as_bytes());
    write("bad/hello.kif", b"hello, world\n");
    write("notes.txt", b"not a record, and not a record extension\n");
    let zip = zip_stored(&[(sjis("棋譜/四間飛車.kif"), sjis(SHIKENBISHA_KIF))]);
    write("arch.zip", &zip);
    tree
}

fn ids(rows: &[Value]) -> Vec<i64> {
    rows.iter().map(|r| r["id"].as_i64().unwrap()).collect()
}

#[test]
fn import_search_show_stats_and_reimport() {
    let root = TempDb::new("db-e2e");
    let tree = fixture_tree(&root);
    let db = root.join("db");
    let tree_arg = tree.to_str().unwrap();

    let out = Kifudex::new()
        .db(&db)
        .args(&["import", tree_arg, "--json", "--jobs", "2"])
        .output();
    assert_eq!(
        out.status.code(),
        Some(1),
        "a broken file makes the exit status 1"
    );
    let summary = &out.json_lines()[0];
    assert_eq!(summary["files"], 7, "{summary}");
    assert_eq!(summary["games"], 5);
    assert_eq!(summary["duplicates"], 1);
    assert_eq!(summary["errors"], 2);
    let err = out.stderr.clone();
    let broken = format!("{}", tree.join("bad/broken.kif").display());
    assert!(
        err.contains(&format!("{broken}:6:")),
        "the broken move is reported with its line: {err}"
    );
    assert!(err.contains("hello.kif: not a game record"), "{err}");

    // Newest first; the game without a date last. Ids follow the sorted paths.
    let all = Kifudex::new()
        .db(&db)
        .args(&["search", "--json"])
        .output()
        .json_lines();
    assert_eq!(ids(&all), vec![3, 4, 1, 2, 5]);
    let first = &all[0];
    assert_eq!(first["date"], "2021-11-03");
    assert_eq!(first["sente"], "山田花子");
    assert_eq!(first["gote"], "木村一基");
    assert_eq!(first["winner"], "sente");
    assert_eq!(first["plies"], 2);
    assert_eq!(
        first["file"],
        format!("{}", tree.join("b/handicap.kif").display())
    );
    let zipped = all.iter().find(|r| r["id"] == 2).unwrap();
    assert_eq!(
        zipped["file"],
        format!("{}!棋譜/四間飛車.kif", tree.join("arch.zip").display())
    );
    assert_eq!(zipped["opening"], "四間飛車");
    assert_eq!(zipped["game_index"], 0);

    let q = |args: &[&str]| {
        let mut a = vec!["search", "--json"];
        a.extend_from_slice(args);
        ids(&Kifudex::new().db(&db).args(&a).output().json_lines())
    };
    // Names as users type them: titles, 旧字体, kana, width.
    assert_eq!(q(&["--player", "羽生"]), vec![1]);
    assert_eq!(q(&["--player", "羽生九段"]), vec![1]);
    assert_eq!(q(&["--player", "渡辺明"]), vec![1]);
    assert_eq!(q(&["--player", "はぶ"]), vec![4]);
    assert_eq!(q(&["--player", "ﾊﾌﾞ"]), vec![4]);
    assert_eq!(q(&["--sente", "藤井"]), Vec::<i64>::new());
    assert_eq!(q(&["--gote", "藤井"]), vec![4]);
    assert_eq!(q(&["--event", "竜王"]), vec![1]);
    assert_eq!(q(&["--opening", "飛車"]), vec![2]);
    assert_eq!(q(&["--since", "2019", "--until", "2020-07"]), vec![4, 1]);
    assert_eq!(q(&["--until", "2019-04-08"]), vec![1, 2]);
    assert_eq!(q(&["--winner", "gote"]), vec![1]);
    assert_eq!(q(&["--winner", "sente"]), vec![3, 2]);
    assert_eq!(q(&["--handicap", "香落ち"]), vec![3]);
    assert_eq!(q(&["--handicap", "平手", "--min-plies", "5"]), vec![1, 2]);
    assert_eq!(q(&["--max-plies", "2"]), vec![3, 5]);
    assert_eq!(q(&["--limit", "2"]), vec![3, 4]);

    // A bad question is bad usage.
    let bad = Kifudex::new()
        .db(&db)
        .args(&["search", "--since", "yesterday"])
        .output();
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        bad.stderr.contains("--since \"yesterday\" is no date"),
        "{}",
        bad.stderr
    );

    // The table says how many matched.
    let table = Kifudex::new()
        .db(&db)
        .args(&["search", "--player", "羽生"])
        .output()
        .stdout;
    assert!(table.starts_with("id  date"), "{table}");
    assert!(table.ends_with("1 of 1 game\n"), "{table}");

    // The broken game keeps its readable prefix.
    let broken_game = all.iter().find(|r| r["id"] == 5).unwrap();
    assert_eq!(broken_game["plies"], 2);

    // show: the stored game, whole, in KIF; read back it is the same game.
    let shown = Kifudex::new().db(&db).args(&["show", "1"]).output();
    assert_eq!(shown.status.code(), Some(0), "{}", shown.stderr);
    let kif = shown.stdout.clone();
    assert!(kif.contains("先手：羽生善治 九段"), "{kif}");
    assert!(kif.contains("*先手は矢倉を目指す。"), "{kif}");
    assert!(kif.contains("   6 ６二銀(71)    ( 0:05/00:00:08)"), "{kif}");
    let rec = kifudex::notation::kif::read_kif(&kif);
    let moves: Vec<String> = rec.main.moves.iter().map(|m| m.mv.usi()).collect();
    assert_eq!(moves, ["7g7f", "8c8d", "7i6h", "3c3d", "6g6f", "7a6b"]);
    assert_eq!(rec.result().code(), Some("gote"));
    let ki2 = Kifudex::new()
        .db(&db)
        .args(&["show", "1", "--to", "ki2u"])
        .output()
        .stdout;
    assert!(ki2.contains("▲７六歩      △８四歩      ▲６八銀"), "{ki2}");
    assert!(ki2.contains("まで6手で後手の勝ち"), "{ki2}");

    let board = Kifudex::new()
        .db(&db)
        .args(&["show", "3", "--ply", "1"])
        .output()
        .stdout;
    assert!(board.contains("after move 1 of 2"), "{board}");
    assert!(board.contains("# last move: ☖３四歩 (3c3d)\n"), "{board}");
    assert!(
        board.contains("# sfen lnsgkgsn1/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2"),
        "{board}"
    );
    let none = Kifudex::new().db(&db).args(&["show", "99"]).output();
    assert_eq!(none.status.code(), Some(1));
    assert!(none.stderr.contains("no game with id 99"));

    let stats = &Kifudex::new()
        .db(&db)
        .args(&["stats", "--json"])
        .output()
        .json_lines()[0];
    assert_eq!(stats["games"], 5);
    assert_eq!(stats["files"], 7);
    assert_eq!(stats["errors"], 2);
    assert_eq!(
        stats["players"], 10,
        "names only a duplicate spelt are not players"
    );
    // 6 + 4 + 2 + 5 + 2 moves, and each game's start.
    assert_eq!(stats["positions"], 19 + 5);
    assert!(stats["bytes"].as_u64().unwrap() > 0);

    // Re-importing unchanged files adds nothing and reads nothing.
    let again = &Kifudex::new()
        .db(&db)
        .args(&["import", tree_arg, "--json"])
        .output()
        .json_lines()[0];
    assert_eq!(again["games"], 0);
    assert_eq!(again["duplicates"], 0);
    assert_eq!(again["unchanged"], 7);
    assert_eq!(again["errors"], 0);

    // A changed file replaces what was read from it; the others stay.
    std::fs::write(
        tree.join("bad/broken.kif"),
        YAGURA_KIF
            .replace("羽生善治", "羽生")
            .replace("2019/04/08", "2019/04/09"),
    )
    .unwrap();
    let changed = &Kifudex::new()
        .db(&db)
        .args(&["import", tree_arg, "--json"])
        .output()
        .json_lines()[0];
    assert_eq!(changed["games"], 1, "{changed}");
    assert_eq!(changed["unchanged"], 6);
    assert_eq!(changed["errors"], 0);
    let stats = &Kifudex::new()
        .db(&db)
        .args(&["stats", "--json"])
        .output()
        .json_lines()[0];
    assert_eq!(stats["games"], 5, "the broken game went with its file");
    assert_eq!(stats["errors"], 1, "and so did its error");
    assert_eq!(q(&["--player", "羽生"]), vec![6, 1]);

    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn queries_without_a_database_say_so() {
    let root = TempDb::new("db-missing");
    let out = Kifudex::new()
        .db(root.join("nothing"))
        .args(&["search"])
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stderr.contains("no kifudex database in"),
        "{}",
        out.stderr
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// Kill -9 an import after its first commits: the database opens, passes integrity_check, and
/// the same command finishes the job with exactly the right number of games.
#[test]
fn a_killed_import_is_finished_by_a_rerun() {
    use kifudex::synth::{Synth, SynthOptions};
    let root = TempDb::new("db-kill");
    let tree = root.join("records");
    std::fs::create_dir_all(&tree).unwrap();
    let games = 800;
    let mut synth = Synth::new(SynthOptions {
        seed: 7,
        ..SynthOptions::default()
    });
    for i in 0..games {
        let text = kifudex::notation::kif::write_kif(&synth.game());
        std::fs::write(tree.join(format!("g{i:05}.kifu")), text).unwrap();
    }
    let db = root.join("db");
    // The import stops after its third commit (10 games each, or fewer when a batch's
    // 2 s run out first) until its standard input closes: it is running, at a known point.
    let mut child = Kifudex::new()
        .db(&db)
        .args([
            "import",
            tree.to_str().unwrap(),
            "--batch",
            "10",
            "--jobs",
            "1",
            // A bulk import: the games indexes are dropped now and built at the end.
            "--defer-indexes-from",
            "1",
            "--pause-after-commits",
            "3",
        ])
        .command()
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let hold = child.stdin.take().expect("its standard input");
    let mut said = String::new();
    for line in std::io::BufRead::lines(std::io::BufReader::new(child.stderr.take().unwrap())) {
        let line = line.unwrap();
        said.push_str(&line);
        said.push('\n');
        if line == "kifudex: paused after 3 commits" {
            break;
        }
    }
    assert!(said.ends_with("paused after 3 commits\n"), "{said}");
    let seen: i64 = {
        let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
        c.query_row("SELECT count(*) FROM games", [], |r| r.get(0))
            .unwrap()
    };
    assert!((3..=30).contains(&seen), "{seen} games after three commits");
    // Readers can query while the import writes.
    assert!(child.try_wait().unwrap().is_none(), "the import is paused");
    let stats = Kifudex::new().db(&db).args(["stats", "--json"]).output();
    assert_eq!(stats.status.code(), Some(0), "{}", stats.stderr);
    assert_eq!(stats.json_lines()[0]["games"], seen, "{}", stats.stdout);
    let search = Kifudex::new()
        .db(&db)
        .args(["search", "--limit", "1", "--json"])
        .output();
    assert_eq!(search.status.code(), Some(0), "{}", search.stderr);
    // Queries leave the missing indexes to the import that holds the lock.
    assert_eq!(game_indexes(&db), Vec::<String>::new());
    child.kill().unwrap();
    child.wait().unwrap();
    drop(hold);
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let check: String = c
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let partial: i64 = c
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .unwrap();
    let sources: i64 = c
        .query_row("SELECT count(*) FROM sources", [], |r| r.get(0))
        .unwrap();
    assert_eq!(
        partial, sources,
        "each committed file has its game, and no more"
    );
    assert_eq!(
        game_indexes(&db),
        Vec::<String>::new(),
        "the killed bulk import had dropped the games indexes"
    );
    // The import stopped before writing its position segment: a query answers from the
    // index as it is, says what it lacks and changes nothing; `upgrade` indexes the
    // committed games from their rows (and builds the games indexes).
    let positions: i64 = c
        .query_row("SELECT sum(plies + 1) FROM games", [], |r| r.get(0))
        .unwrap();
    drop(c);
    let before = std::fs::read(db.join("kifudex.sqlite")).unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&["position", "startpos", "--json"])
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    assert_eq!(
        out.stderr,
        format!(
            "kifudex: note: {partial} games are not in the position index (an import stopped before indexing them): `kifudex upgrade` indexes them\n"
        )
    );
    assert_eq!(out.json_lines().last().unwrap()["total"], 0);
    assert!(
        std::fs::read(db.join("kifudex.sqlite")).unwrap() == before,
        "a read changed the database file"
    );
    assert_eq!(game_indexes(&db), Vec::<String>::new());
    let out = Kifudex::new().db(&db).args(&["upgrade", "--json"]).output();
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    let up = &out.json_lines()[0];
    assert_eq!(up["indexed"], partial);
    assert_eq!(up["game_indexes"], true);
    let stats = &Kifudex::new()
        .db(&db)
        .args(&["stats", "--json"])
        .output()
        .json_lines()[0];
    assert_eq!(stats["positions"], positions);
    assert_eq!(
        game_indexes(&db),
        ["games_date", "games_gote", "games_label", "games_sente"]
    );

    let out = Kifudex::new()
        .db(&db)
        .args(&["import", tree.to_str().unwrap(), "--json"])
        .output();
    let summary = &out.json_lines()[0];
    assert_eq!(summary["games"].as_i64().unwrap() + partial, games);
    assert_eq!(summary["unchanged"].as_i64().unwrap(), partial);
    assert_eq!(summary["duplicates"], 0);
    let stats = &Kifudex::new()
        .db(&db)
        .args(&["stats", "--json"])
        .output()
        .json_lines()[0];
    assert_eq!(stats["games"], games);
    assert_eq!(stats["files"], games);
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let positions: i64 = c
        .query_row("SELECT sum(plies + 1) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stats["positions"], positions);
    let _ = std::fs::remove_dir_all(&root);
}

/// The games table's date and player indexes the database holds, by name.
fn game_indexes(db: &Path) -> Vec<String> {
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    c.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    let mut stmt = c
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games'
             ORDER BY name",
        )
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The schema as `sqlite_master` holds it.
fn schema(db: &Path) -> Vec<(String, Option<String>)> {
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let mut stmt = c
        .prepare("SELECT name, sql FROM sqlite_master ORDER BY name")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// An import that at least doubles the database builds the date and player indexes at its end:
/// the schema and the answers are those of an import that kept them up game by game. One
/// that finds them missing (an earlier bulk import was killed) builds them too.
#[test]
fn a_bulk_import_builds_the_games_indexes_at_its_end() {
    let root = TempDb::new("db-bulk");
    let tree = fixture_tree(&root);
    let tree_arg = tree.to_str().unwrap();
    let (kept, bulk) = (root.join("kept"), root.join("bulk"));
    let out = Kifudex::new()
        .db(&kept)
        .args(&["import", tree_arg, "--defer-indexes-from", "1000"])
        .output();
    assert_eq!(out.status.code(), Some(1), "{}", out.stderr);
    let out = Kifudex::new()
        .db(&bulk)
        .args(&["import", tree_arg, "--defer-indexes-from", "1"])
        .output();
    assert_eq!(out.status.code(), Some(1), "{}", out.stderr);
    assert_eq!(schema(&bulk), schema(&kept));
    assert_eq!(
        game_indexes(&bulk),
        ["games_date", "games_gote", "games_label", "games_sente"]
    );
    for args in [
        &["search", "--player", "羽生", "--json"][..],
        &["search", "--since", "2019", "--json"],
        &["search", "--gote", "渡辺", "--json"],
    ] {
        let rows = Kifudex::new().db(&bulk).args(args).output().stdout;
        assert!(rows.lines().count() > 0, "{args:?} finds games");
        assert_eq!(rows, Kifudex::new().db(&kept).args(args).output().stdout);
    }

    // A killed bulk import leaves them out; the next import builds them, bulk or not.
    let c = rusqlite::Connection::open(kept.join("kifudex.sqlite")).unwrap();
    c.execute_batch("DROP INDEX games_date; DROP INDEX games_gote;")
        .unwrap();
    drop(c);
    let out = Kifudex::new()
        .db(&kept)
        .args(&["import", tree_arg, "--defer-indexes-from", "1000"])
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    assert_eq!(schema(&kept), schema(&bulk));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn one_import_at_a_time() {
    let root = TempDb::new("db-lock");
    let files = root.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("a.usi"), "startpos moves 7g7f\n").unwrap();
    let db = root.join("db");
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["import", files.to_str().unwrap()])
            .output()
            .status
            .success()
    );
    let lock = std::fs::File::create(db.join("import.lock")).unwrap();
    lock.try_lock().unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&["import", files.to_str().unwrap()])
        .output();
    assert_eq!(out.status.code(), Some(1), "{}", out.stderr);
    assert!(
        out.stderr
            .contains(&format!("another import is running into {}", db.display())),
        "{}",
        out.stderr
    );
    // Queries go on; games the running import has not indexed yet are announced.
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    c.execute("DELETE FROM position_blocks", []).unwrap();
    c.execute("DELETE FROM position_segments", []).unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&["position", "startpos", "--json"])
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("1 games of the import now running are not in the position index yet"),
        "{}",
        out.stderr
    );
    drop(lock);
    let out = Kifudex::new()
        .db(&db)
        .args(&["position", "startpos", "--json"])
        .output();
    assert!(
        out.stderr.contains(
            "1 games are not in the position index (an import stopped before indexing them): `kifudex upgrade` indexes them"
        ),
        "{}",
        out.stderr
    );
    assert_eq!(out.json_lines().last().unwrap()["total"], 0);
    let out = Kifudex::new().db(&db).args(&["upgrade"]).output();
    assert_eq!(
        out.stdout,
        "upgraded: positions of 1 games indexed in ".to_string()
            + out.stdout.rsplit(" in ").next().unwrap()
    );
    let out = Kifudex::new()
        .db(&db)
        .args(&["position", "startpos", "--json"])
        .output();
    assert_eq!(out.stderr, "");
    assert_eq!(out.json_lines().last().unwrap()["total"], 1);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_name_only_a_replaced_game_spelt_goes_with_it() {
    let root = TempDb::new("db-players");
    let files = root.join("files");
    std::fs::create_dir_all(&files).unwrap();
    let game = |sente: &str| {
        format!(
            "先手：{sente}\n後手：乙山\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n"
        )
    };
    std::fs::write(files.join("a.kifu"), game("甲田")).unwrap();
    let other = game("丙川").replace("   2 投了", "   2 ３四歩(33)\n   3 投了");
    std::fs::write(files.join("b.kifu"), other).unwrap();
    let db = root.join("db");
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["import", files.to_str().unwrap()])
            .output()
            .status
            .success()
    );
    let players = || {
        Kifudex::new()
            .db(&db)
            .args(&["stats", "--json"])
            .output()
            .json_lines()[0]["players"]
            .clone()
    };
    assert_eq!(players(), 3);
    std::fs::write(files.join("a.kifu"), game("丁野太")).unwrap();
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["import", files.to_str().unwrap()])
            .output()
            .status
            .success()
    );
    assert_eq!(
        players(),
        3,
        "甲田 went, 丁野太 came, 乙山 stays for b.kifu"
    );
    let found = Kifudex::new()
        .db(&db)
        .args(&["search", "--player", "甲田", "--json"])
        .output()
        .json_lines();
    assert!(found.is_empty());
    let names: Vec<String> = Kifudex::new()
        .db(&db)
        .args(&["search", "--json"])
        .output()
        .json_lines()
        .iter()
        .map(|r| r["sente"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"丁野太".to_string()) && names.contains(&"丙川".to_string()));
    let _ = std::fs::remove_dir_all(&root);
}

/// A file's time has whole seconds: one changed again within the second it was read could
/// keep its time and size. Such a file's time is not kept (0), so the next import reads it
/// again; once its time is in the past, it is kept.
#[test]
fn a_file_changed_within_the_second_it_was_read_is_read_again() {
    use std::time::{Duration, SystemTime};
    let root = TempDb::new("db-racy");
    let files = root.join("files");
    std::fs::create_dir_all(&files).unwrap();
    let file = files.join("a.kif");
    let write = |text: &str, time: SystemTime| {
        std::fs::write(&file, text).unwrap();
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(time)
            .unwrap();
    };
    // A time ahead of the clock stands for "this very second", without a race in the test.
    let ahead = SystemTime::now() + Duration::from_secs(3600);
    write(YAGURA_KIF, ahead);
    let db = root.join("db");
    let dir = files.to_str().unwrap();
    let import = || {
        Kifudex::new()
            .db(&db)
            .args(&["import", dir, "--json"])
            .output()
            .json_lines()[0]
            .clone()
    };
    assert_eq!(import()["games"], 1);
    let stored_mtime = || -> i64 {
        rusqlite::Connection::open(db.join("kifudex.sqlite"))
            .unwrap()
            .query_row("SELECT mtime FROM sources", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(stored_mtime(), 0);

    // Same size, same time, another date.
    let edited = YAGURA_KIF.replace("2019/04/08", "2019/04/09");
    assert_eq!(edited.len(), YAGURA_KIF.len());
    write(&edited, ahead);
    let again = import();
    assert_eq!(
        (again["games"].clone(), again["unchanged"].clone()),
        (1.into(), 0.into())
    );
    let dates: Vec<Value> = Kifudex::new()
        .db(&db)
        .args(&["search", "--json"])
        .output()
        .json_lines()
        .iter()
        .map(|g| g["date"].clone())
        .collect();
    assert_eq!(dates, vec![Value::from("2019-04-09")]);

    // In the past, the same bytes: read once more, found unchanged, and the time is kept.
    let past = SystemTime::now() - Duration::from_secs(3600);
    write(&edited, past);
    let settled = import();
    assert_eq!(
        (settled["games"].clone(), settled["unchanged"].clone()),
        (0.into(), 1.into())
    );
    let secs = past
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    assert_eq!(stored_mtime(), secs);
    let _ = std::fs::remove_dir_all(&root);
}
