//! A database made by schema 1 is brought up to date when opened: its header rows move into
//! the games row, escapes and order kept.

use kifudex::store::{SCHEMA_VERSION, Store};

#[test]
fn schema_1_headers_move_into_the_games_row() {
    let dir = crate::db::temp_dir("migrate-1");
    {
        let conn = rusqlite::Connection::open(dir.join("kifudex.sqlite")).unwrap();
        conn.execute_batch(include_str!("../../migrations/0001_games.sql"))
            .unwrap();
        conn.execute_batch(
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
        )
        .unwrap();
    }
    let store = Store::open(&dir).unwrap();
    let version: u32 = store
        .conn()
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
    let tables: i64 = store
        .conn()
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
    let dir = crate::db::temp_dir("migrate-postings");
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
