//! A database made by schema 1 is brought up to date when opened: its header rows move into
//! the games row, escapes and order kept.

use crate::util::{Kifudex, TempDb};
use kifudex::store::{SCHEMA_VERSION, Store};

/// A database as an older kifudex left it: `migrations` applied by hand, then `rows`.
fn old_database(name: &str, migrations: &[&str], rows: &str) -> TempDb {
    let dir = TempDb::new(name);
    let conn = rusqlite::Connection::open(dir.join("kifudex.sqlite")).unwrap();
    for sql in migrations {
        conn.execute_batch(sql).unwrap();
    }
    conn.execute_batch(rows).unwrap();
    dir
}

#[test]
fn schema_1_headers_move_into_the_games_row() {
    let dir = old_database(
        "migrate-1",
        &[include_str!("../../migrations/0001_games.sql")],
        "PRAGMA user_version = 1;
             INSERT INTO meta VALUES ('hash_version', '1');
             INSERT INTO sources (id, path, size, mtime, content_hash, games)
               VALUES (1, 'a.kif', 10, 0, '0', 1);
             INSERT INTO games (id, source_id, game_index, format, moves, plies, handicap,
               fingerprint) VALUES (1, 1, 0, 'kif', x'', 0, '平手', x'01');
             INSERT INTO headers VALUES (1, 0, '先手', '羽生善治');
             INSERT INTO headers VALUES (1, 2, 'メモ', 'a	b\\c
d');
             INSERT INTO headers VALUES (1, 1, '後手', '藤井聡太');",
    );
    let store = Store::open(&dir).unwrap();
    let version: u32 = crate::util::sql(&store)
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    let game = store.game(1).unwrap().unwrap();
    assert_eq!(
        game.record.headers,
        vec![
            ("先手".to_string(), "羽生善治".to_string()),
            ("後手".to_string(), "藤井聡太".to_string()),
            ("メモ".to_string(), "a\tb\\c\nd".to_string()),
        ]
    );
    let tables: i64 = crate::util::sql(&store)
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE name IN ('headers', 'games_event')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tables, 0);
}

#[test]
fn a_position_index_of_another_format_is_refused() {
    let dir = TempDb::new("migrate-postings");
    drop(Store::create(&dir).unwrap());
    {
        let conn = rusqlite::Connection::open(dir.join("kifudex.sqlite")).unwrap();
        let v: String = conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'postings_version'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(v, "1");
        conn.execute(
            "UPDATE meta SET value = '9' WHERE key = 'postings_version'",
            [],
        )
        .unwrap();
    }
    let err = Store::open(&dir).err().expect("refused").to_string();
    assert!(err.contains("position index has format 9"), "{err}");
}

#[test]
fn schema_2_comments_and_first_sources_move_into_the_games_row() {
    let dir = old_database(
        "migrate-2",
        &[
            include_str!("../../migrations/0001_games.sql"),
            include_str!("../../migrations/0002_positions.sql"),
        ],
        "PRAGMA user_version = 2;
             INSERT INTO meta VALUES ('hash_version', '1');
             INSERT INTO sources (id, path, size, mtime, content_hash, games)
               VALUES (1, 'a.kif', 10, 0, '0', 1), (2, 'b.csa', 10, 0, '0', 1);
             INSERT INTO games (id, source_id, game_index, format, moves, plies, handicap,
               terminal, fingerprint) VALUES (1, 1, 0, 'kif', x'', 0, '平手', 'resign', x'01');
             INSERT INTO games (id, source_id, game_index, format, moves, plies, handicap,
               terminal, tree, fingerprint) VALUES (2, 2, 1, 'kif', x'', 0, '平手', 'abort',
               '手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)

変化：1手
   1 ２六歩(27)
',
               x'02');
             INSERT INTO game_sources VALUES (1, 0, 1), (2, 0, 1);
             UPDATE sqlite_sequence SET seq = 5 WHERE name = 'games';
             INSERT INTO comments VALUES (1, 1, 1, 0, '投了まで'), (1, 0, 0, 0, '開始'),
               (1, 0, 2, 1, '評価値 0'), (1, 0, 1, 2, 'a \"quoted\" remark');",
    );
    let mut store = Store::open(&dir).unwrap();
    let game = store.game(1).unwrap().unwrap();
    assert_eq!(game.sources, ["a.kif", "b.csa"]);
    assert_eq!(game.record.start_comments, ["開始"]);
    let terminal = game.record.main.terminal.as_ref().unwrap();
    assert_eq!(terminal.comments, ["投了まで"]);
    assert_eq!(game.record.start_engine, ["評価値 0"]);
    assert_eq!(game.record.notes.len(), 1);
    assert_eq!(game.record.notes[0].text, "a \"quoted\" remark");
    assert_eq!(store.stats().unwrap().duplicates, 1);
    // The table was rebuilt; the ids of deleted games are still not reused.
    let seq: Vec<i64> = crate::util::sql(&store)
        .prepare("SELECT seq FROM sqlite_sequence WHERE name = 'games'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(seq, [5]);
    // The comments view shows the rows as schema 2 stored them.
    let rows: Vec<(i64, i64, i64, i64, String)> = crate::util::sql(&store)
        .prepare("SELECT game_id, ply, ord, kind, text FROM comments ORDER BY ply, ord")
        .unwrap()
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        rows,
        vec![
            (1, 0, 0, 0, "開始".to_string()),
            (1, 0, 1, 2, "a \"quoted\" remark".to_string()),
            (1, 0, 2, 1, "評価値 0".to_string()),
            (1, 1, 3, 0, "投了まで".to_string()),
        ]
    );
    // A tree stored as text by schema 2 is read as it is (schema 3 deflates new ones).
    let tree = store.game(2).unwrap().unwrap().record;
    assert_eq!(tree.main.moves.len(), 1);
    assert_eq!(tree.main.moves[0].variations.len(), 1);
    // Their positions were never indexed: the upgrade indexes them.
    assert_eq!(store.unindexed_games().unwrap(), 2);
    assert_eq!(store.upgrade(&kifudex::progress::Quiet).unwrap().indexed, 2);
    assert_eq!(store.unindexed_games().unwrap(), 0);
    assert_eq!(store.stats().unwrap().positions, 2);
}

/// A database as it was just before the migration named `name`: every earlier migration of
/// the list applied, then `rows`.
fn database_before(dir_name: &str, name: &str, rows: &str) -> TempDb {
    let at = kifudex::store::MIGRATIONS
        .iter()
        .position(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no migration {name}"));
    let sql: Vec<&str> = kifudex::store::MIGRATIONS[..at]
        .iter()
        .map(|(_, s)| *s)
        .collect();
    old_database(
        dir_name,
        &sql,
        &format!("PRAGMA user_version = {at};\n{rows}"),
    )
}

/// Problems recorded before errors and warnings were told apart stay errors; new ones are
/// either, and `stats` counts both.
#[test]
fn problems_recorded_before_severities_stay_errors() {
    let dir = database_before(
        "migrate-severity",
        "0004_error_severity.sql",
        "INSERT INTO meta VALUES ('hash_version', '1');
         INSERT INTO sources (id, path, size, mtime, content_hash, games)
           VALUES (1, 'a.kif', 10, 0, '0', 0);
         INSERT INTO import_errors (source_id, game_index, line, col, message)
           VALUES (1, 0, 3, 1, 'move 2: ２三銀打: black has no silver in hand to drop');",
    );
    crate::util::upgrade_old(&dir);
    let out = Kifudex::new().db(&dir).args(&["stats", "--json"]).output();
    let stats: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        (stats["errors"].as_u64(), stats["warnings"].as_u64()),
        (Some(1), Some(0))
    );
    // A file with a warning only: import exits 0, and stats counts it.
    let file = dir.join("w.csa");
    std::fs::write(&file, "V9\nPI\n+\n+7776FU\n%TORYO\n").unwrap();
    let out = Kifudex::new()
        .db(&dir)
        .args(&["import", "--json", file.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let summary: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        (summary["errors"].as_u64(), summary["warnings"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(
        out.stderr,
        format!(
            "kifudex: {}:1:1: warning: 'V9' is no CSA version kifudex knows (V2, V2.1, V2.2, V3.0); read as V3.0\n",
            file.display()
        )
    );
    let out = Kifudex::new().db(&dir).args(&["stats", "--json"]).output();
    let stats: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        (stats["errors"].as_u64(), stats["warnings"].as_u64()),
        (Some(1), Some(1))
    );
}

/// Two files holding the same moves, end and date but other players: one game under the old
/// duplicate key. A database of the previous format in which they were merged is re-keyed
/// when opened, and the next import reads the merged file again: two games.
#[test]
fn games_merged_under_the_old_key_come_apart() {
    use kifudex::notation::{Format, kif::read_kif};
    use kifudex::store::GameRow;
    let dir = TempDb::new("migrate-game-key");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    let game = |sente: &str, gote: &str| {
        format!(
            "開始日時：2024/01/15\n先手：{sente}\n後手：{gote}\n1 ７六歩(77)\n2 ３四歩(33)\n3 中断\n"
        )
    };
    let (a, b) = (game("甲", "乙"), game("丙", "丁"));
    // Files an earlier import read as they are now: unchanged, unless marked to be read again.
    let when = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    for (name, text) in [("a.kif", &a), ("b.kif", &b)] {
        std::fs::write(files.join(name), text).unwrap();
        let f = std::fs::File::options()
            .write(true)
            .open(files.join(name))
            .unwrap();
        f.set_modified(when).unwrap();
    }
    let hash = |t: &str| format!("{:016x}", kifudex::ingest::content_hash(t.as_bytes()));
    let row = GameRow::new(&read_kif(&a), Format::Kif);
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let db = database_before(
        "migrate-game-key-db",
        "0005_game_key.sql",
        &format!(
            "INSERT INTO meta VALUES ('hash_version', '1');
             INSERT INTO sources (id, path, size, mtime, content_hash, games)
               VALUES (1, '{}', {}, 1000000000, '{}', 1), (2, '{}', {}, 1000000000, '{}', 1);
             INSERT INTO players (id, name, key, bare) VALUES (1, '甲', '甲', '甲'), (2, '乙', '乙', '乙');
             INSERT INTO games (id, source_id, game_index, format, moves, plies, handicap, date,
               sente_id, gote_id, terminal, fingerprint, headers)
               VALUES (1, 1, 0, 'kif', x'{}', 2, '平手', '2024-01-15', 1, 2, 'abort', x'00', '{}');
             INSERT INTO game_sources (source_id, game_index, game_id) VALUES (2, 0, 1);",
            files.join("a.kif").display(),
            a.len(),
            hash(&a),
            files.join("b.kif").display(),
            b.len(),
            hash(&b),
            hex(&row.moves),
            row.headers_text.clone().unwrap_or_default().replace('\'', "''"),
        ),
    );
    let out = Kifudex::new()
        .db(&db)
        .args(&["import", "--json", files.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let out = Kifudex::new().db(&db).args(&["search", "--json"]).output();
    let mut players: Vec<(String, String)> = out
        .json_lines()
        .iter()
        .map(|g| {
            (
                g["sente"].as_str().unwrap().to_string(),
                g["gote"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    players.sort();
    assert_eq!(
        players,
        [
            ("丙".to_string(), "丁".to_string()),
            ("甲".to_string(), "乙".to_string())
        ]
    );
    // Imported again, nothing changes; the same games in a fresh database are two as well.
    let out = Kifudex::new()
        .db(&db)
        .args(&["import", "--json", files.to_str().unwrap()])
        .output();
    let summary: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        (summary["games"].as_u64(), summary["unchanged"].as_u64()),
        (Some(0), Some(2))
    );
    let fresh = dir.join("fresh");
    let out = Kifudex::new()
        .db(&fresh)
        .args(&["import", "--json", files.to_str().unwrap()])
        .output();
    let summary: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        (summary["games"].as_u64(), summary["duplicates"].as_u64()),
        (Some(2), Some(0))
    );
}

/// A database of schema 9 has no players' totals: opening it counts them from its games,
/// and `players` over every game (read from the totals) then answers as it does over the
/// games themselves.
#[test]
fn players_totals_are_counted_for_a_database_made_before_them() {
    let dir = TempDb::new("migrate-player-totals");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    let games = [
        (
            "a.kif",
            "開始日時：2021/05/01\n戦型：矢倉\n先手：甲\n後手：乙\n1 ７六歩(77)\n2 投了\n",
        ),
        (
            "b.kif",
            "開始日時：2019/02/03\n先手：乙\n後手：甲\n1 ７六歩(77)\n2 ３四歩(33)\n3 投了\n",
        ),
        (
            "c.kif",
            "先手：甲\n後手：丙\n1 ７六歩(77)\n2 ３四歩(33)\n3 中断\n",
        ),
        (
            "d.kif",
            "開始日時：2023/12/31\n戦型：矢倉\n先手：丙\n後手：甲\n1 ７六歩(77)\n2 ３四歩(33)\n3 千日手\n",
        ),
    ];
    for (name, text) in games {
        std::fs::write(files.join(name), text).unwrap();
    }
    let db = dir.join("db");
    let out = Kifudex::new()
        .db(&db)
        .args(&["import", files.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let players = |extra: &[&str]| {
        let mut a = vec!["players", "--json"];
        a.extend_from_slice(extra);
        let out = Kifudex::new().db(&db).args(&a).output();
        assert!(out.status.success(), "{}", out.stderr);
        out.json_lines()
    };
    let before = players(&[]);
    // As schema 9 left it: no totals.
    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let at = kifudex::store::MIGRATIONS
        .iter()
        .position(|(n, _)| *n == "0010_player_totals.sql")
        .unwrap();
    conn.execute_batch(crate::util::BACK_TO_SCHEMA_10).unwrap();
    conn.execute_batch(&format!(
        "DROP TABLE player_totals; DROP TABLE player_openings;
         PRAGMA user_version = {at};"
    ))
    .unwrap();
    drop(conn);
    crate::util::upgrade_old(&db);
    let after = players(&[]);
    assert_eq!(after, before);
    assert_eq!(after, players(&["--min-plies", "0"]), "from the games");
    let kou = after.iter().find(|p| p["name"] == "甲").unwrap();
    assert_eq!(kou["games"], 4);
    assert_eq!(kou["sente"]["wins"], 1, "{kou}");
    assert_eq!(kou["gote"]["wins"], 1, "{kou}");
    assert_eq!(kou["gote"]["draws"], 1, "{kou}");
    assert_eq!(kou["first_date"], "2019-02-03");
    assert_eq!(kou["last_date"], "2023-12-31");
    // The header's 矢倉 twice; the recognised label of the two games without one.
    assert_eq!(
        kou["openings"],
        serde_json::json!([["その他の戦型", 2], ["矢倉", 2]]),
        "{kou}"
    );
    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let version: u32 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    drop(conn);
    // A file changed is read again: its old game leaves the totals, the new one comes in.
    std::fs::write(
        files.join("d.kif"),
        "開始日時：2018/01/01\n先手：丙\n後手：甲\n1 ７六歩(77)\n2 投了\n",
    )
    .unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&["import", files.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let now = players(&[]);
    assert_eq!(now, players(&["--min-plies", "0"]), "from the games");
    let kou = now.iter().find(|p| p["name"] == "甲").unwrap();
    let gote = [0, 1, 2].map(|i| &kou["gote"][["wins", "draws", "losses"][i]]);
    assert_eq!(
        gote,
        [1, 0, 1].map(serde_json::Value::from).each_ref(),
        "{kou}"
    );
    // The last date was the changed game's: the one before it is the last now.
    assert_eq!(
        (kou["first_date"].as_str(), kou["last_date"].as_str()),
        (Some("2018-01-01"), Some("2021-05-01"))
    );
}
