//! Recognised openings in the database: `openings`, `search --opening/--castle/--strategy`
//! and `show --openings` against a brute-force count over a generated collection, and a
//! database of the previous schema recognised when opened.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::util::{Kifudex, TempDb};
use kifudex::classify::{Kind, descendants, family, recognise_record, split_header};
use kifudex::notation::Record;
use kifudex::shogi::Color;
use kifudex::synth::{Synth, SynthOptions};

/// `n` generated games written as KIF files (some with a 戦型 header), and the records.
pub(crate) fn collection(dir: &Path, n: usize) -> (PathBuf, Vec<Record>) {
    let files = dir.join("games");
    std::fs::create_dir_all(&files).unwrap();
    let mut synth = Synth::new(SynthOptions {
        seed: 21,
        ..SynthOptions::default()
    });
    let mut records = Vec::new();
    for i in 0..n {
        let mut rec = synth.game();
        rec.headers.retain(|(k, _)| k != "戦型");
        if i % 7 == 0 {
            rec.headers.push(("戦型".into(), "四間飛車".into()));
        }
        std::fs::write(
            files.join(format!("g{i:04}.kifu")),
            kifudex::notation::kif::write_kif(&rec),
        )
        .unwrap();
        records.push(kifudex::notation::kif::read_kif(
            &kifudex::notation::kif::write_kif(&rec),
        ));
    }
    (files, records)
}

pub(crate) fn imported(name: &str, n: usize) -> (TempDb, PathBuf, Vec<Record>) {
    let dir = TempDb::new(name);
    let (files, records) = collection(&dir, n);
    let db = dir.join("db");
    let out = Kifudex::new()
        .db(&db)
        .args(&["import", files.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    (dir, db, records)
}

/// Imports into `db` generated games of their own (seed `seed`: the collection's moves would
/// be twins) from `dir/vague`, one a date as `開始日時` gives it (`2004`, `2004/03`,
/// `2004/02/10`; empty: no date), sente `sente` when given; returns the folder.
pub(crate) fn import_dated(
    dir: &Path,
    db: &Path,
    seed: u64,
    dates: &[(&str, Option<&str>)],
) -> PathBuf {
    let vague = dir.join("vague");
    std::fs::create_dir_all(&vague).unwrap();
    let mut synth = Synth::new(SynthOptions {
        seed,
        ..SynthOptions::default()
    });
    for (i, (date, sente)) in dates.iter().enumerate() {
        let mut rec = synth.game();
        rec.headers.retain(|(k, _)| !k.contains('日'));
        if !date.is_empty() {
            rec.headers.push(("開始日時".into(), date.to_string()));
        }
        if let Some(name) = sente {
            rec.headers.retain(|(k, _)| k != "先手");
            rec.headers.push(("先手".into(), name.to_string()));
        }
        std::fs::write(
            vague.join(format!("v{i}.kifu")),
            kifudex::notation::kif::write_kif(&rec),
        )
        .unwrap();
    }
    let out = Kifudex::new()
        .db(db)
        .args(&["import", vague.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    vague
}

/// The games a command lists with `--json` (ids sorted, each once), and what it wrote to
/// stderr; the command must succeed.
fn listed_ids(db: &Path, args: &[&str]) -> (Vec<i64>, String) {
    let out = Kifudex::new().db(db).args(args).output();
    assert!(out.status.success(), "{args:?}: {}", out.stderr);
    let mut ids: Vec<i64> = out
        .json_lines()
        .iter()
        .map(|v| v["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    (ids, out.stderr)
}

/// The games `search` finds with `args`.
fn search_ids(db: &Path, args: &[&str]) -> Vec<i64> {
    let mut a = vec!["search", "--json", "--limit", "100000"];
    a.extend_from_slice(args);
    listed_ids(db, &a).0
}

/// The `recognised_items` view: `(game, side, name, ply)` by game, side and name.
fn recognised_items(conn: &rusqlite::Connection) -> Vec<(i64, String, String, i64)> {
    let mut stmt = conn
        .prepare("SELECT game_id, side, name, ply FROM recognised_items ORDER BY 1, 2, 3")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

type Counts = (u64, u64, u64, u64);

fn add(c: &mut Counts, winner: Option<&str>) {
    c.0 += 1;
    match winner {
        Some("sente") => c.1 += 1,
        Some("gote") => c.2 += 1,
        Some("draw") => c.3 += 1,
        _ => {}
    }
}

#[test]
fn openings_counts_equal_a_brute_force_count() {
    let (_dir, db, records) = imported("openings-brute", 300);
    let mut expected: BTreeMap<(String, String), Counts> = BTreeMap::new();
    for rec in &records {
        let r = recognise_record(rec);
        let winner = rec.result().code();
        // The game's label: the header's, else the recognised.
        if let Some(label) = rec.opening().or(r.opening) {
            add(
                expected
                    .entry(("opening".into(), label.into()))
                    .or_default(),
                winner,
            );
        }
        for i in &r.items {
            let kind = if i.kind == Kind::Strategy {
                "strategy"
            } else {
                "castle"
            };
            add(
                expected.entry((kind.into(), i.name.into())).or_default(),
                winner,
            );
        }
    }
    let got: BTreeMap<(String, String), Counts> = Kifudex::new()
        .db(&db)
        .args(&["openings", "--json"])
        .output()
        .json_lines()
        .into_iter()
        .map(|v| {
            let n = |k: &str| v[k].as_u64().unwrap();
            (
                (
                    v["kind"].as_str().unwrap().to_string(),
                    v["name"].as_str().unwrap().to_string(),
                ),
                (n("games"), n("sente_wins"), n("gote_wins"), n("draws")),
            )
        })
        .collect();
    assert!(expected.len() > 10, "only {} rows", expected.len());
    assert_eq!(got, expected);
}

#[test]
fn search_by_opening_castle_and_strategy_equals_a_brute_force_count() {
    let (_dir, db, records) = imported("openings-search", 200);
    let count = |args: &[&str]| search_ids(&db, args);
    // Game ids follow the file order.
    let ids = |pred: &dyn Fn(&Record) -> bool| -> Vec<i64> {
        records
            .iter()
            .enumerate()
            .filter(|(_, r)| pred(r))
            .map(|(i, _)| i as i64 + 1)
            .collect()
    };
    let ranging = descendants("振り飛車");
    // The game's label: the header's when it has one, else the recognised; never "a side
    // played a ranging rook at some ply".
    let by_header = |rec: &Record| {
        rec.opening().is_some_and(|h| {
            split_header(h)
                .iter()
                .any(|n| ranging.contains(&n.as_str()))
        })
    };
    let by_moves = |rec: &Record| {
        recognise_record(rec)
            .opening
            .is_some_and(|o| ranging.contains(&o))
    };
    let want = ids(&|rec| {
        if rec.opening().is_some() {
            by_header(rec)
        } else {
            by_moves(rec)
        }
    });
    assert!(!want.is_empty());
    assert_eq!(count(&["--opening", "振り飛車"]), want);
    // Another spelling of the same name, and the start of one.
    assert_eq!(count(&["--opening", "振飛車"]), want);
    assert_eq!(count(&["--opening", "振り飛"]), want);
    // A strategy that is no game's label (棒銀 is played in 角換わり, 矢倉, 相掛かり … games)
    // takes the games so labelled, not those where a side played it at some ply.
    let played_bogin = ids(&|rec| recognise_record(rec).items.iter().any(|i| i.name == "棒銀"));
    assert!(!played_bogin.is_empty());
    let under = descendants("棒銀");
    let labelled_bogin = ids(&|rec| match rec.opening() {
        Some(h) => split_header(h).iter().any(|n| under.contains(&n.as_str())),
        None => recognise_record(rec)
            .opening
            .is_some_and(|o| under.contains(&o)),
    });
    assert_ne!(labelled_bogin, played_bogin);
    assert_eq!(count(&["--opening", "棒銀"]), labelled_bogin);
    // One source only.
    assert_eq!(
        count(&["--opening", "振り飛車", "--opening-from", "moves"]),
        ids(&by_moves)
    );
    assert_eq!(
        count(&["--opening", "振り飛車", "--opening-from", "header"]),
        ids(&by_header)
    );
    // The castle family gote reached most often (random moves after the opening lines
    // build few castles), asked by its family's name.
    let mut castles: BTreeMap<&str, usize> = BTreeMap::new();
    for rec in &records {
        for i in recognise_record(rec)
            .side(Color::White)
            .filter(|i| i.kind == Kind::Castle)
        {
            *castles.entry(family(i.name)).or_default() += 1;
        }
    }
    let (top, _) = castles
        .iter()
        .max_by_key(|(_, n)| **n)
        .expect("some castle");
    let top = top.to_string();
    let under = descendants(&top);
    let want = ids(&|rec| {
        recognise_record(rec)
            .side(Color::White)
            .any(|i| under.contains(&i.name))
    });
    assert!(!want.is_empty());
    assert_eq!(count(&["--castle", &top, "--as", "gote"]), want);
    let want = ids(&|rec| {
        recognise_record(rec)
            .items
            .iter()
            .any(|i| i.name == "角換わり")
    });
    assert_eq!(count(&["--strategy", "角換わり"]), want);
    let bad = Kifudex::new()
        .db(&db)
        .args(&["search", "--castle", "四間飛車"])
        .output();
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stderr.contains("--castle \"四間飛車\" names no castle"));
}

#[test]
fn show_lists_what_was_recognised_with_the_plies() {
    let (_dir, db, records) = imported("openings-show", 5);
    for (i, rec) in records.iter().enumerate() {
        let v = &Kifudex::new()
            .db(&db)
            .args(&["show", &(i + 1).to_string(), "--openings", "--json"])
            .output()
            .json_lines()[0];
        let r = recognise_record(rec);
        assert_eq!(v["opening"].as_str(), r.opening);
        let mut got: Vec<(String, String, u64)> = v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["side"].as_str().unwrap().into(),
                    i["name"].as_str().unwrap().into(),
                    i["ply"].as_u64().unwrap(),
                )
            })
            .collect();
        let mut want: Vec<(String, String, u64)> = r
            .items
            .iter()
            .map(|i| {
                (
                    (if i.side == Color::Black {
                        "sente"
                    } else {
                        "gote"
                    })
                    .into(),
                    i.name.into(),
                    i.ply as u64,
                )
            })
            .collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "game {}", i + 1);
    }
}

/// A database of the previous schema (no recognised table, no label) is recognised when
/// opened: the same rows as an import of today writes.
#[test]
fn a_database_of_the_previous_schema_is_recognised_when_opened() {
    let (_dir, db, _) = imported("openings-migrate", 40);
    let rows = |db: &Path| {
        recognised_items(&rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap())
    };
    let before = rows(&db);
    assert!(before.len() > 40);
    {
        // Back to schema 3 as the previous program left it.
        let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
        // (With what later migrations made gone too.)
        conn.execute_batch(crate::util::BACK_TO_SCHEMA_10).unwrap();
        conn.execute_batch(
            "DROP VIEW recognised_items; DROP TABLE recognised; DROP TABLE opening_names;
             ALTER TABLE games DROP COLUMN label;
             DROP TABLE player_totals; DROP TABLE player_openings;
             DELETE FROM meta WHERE key = 'classify_version';",
        )
        .unwrap();
        // The version before the openings' migration.
        let at = kifudex::store::MIGRATIONS
            .iter()
            .position(|(n, _)| *n == "0009_openings.sql")
            .unwrap();
        conn.pragma_update(None, "user_version", at as u32).unwrap();
    }
    crate::util::upgrade_old(&db);
    let out = Kifudex::new()
        .db(&db)
        .args(&[
            "search",
            "--opening",
            "振り飛車",
            "--json",
            "--limit",
            "1000",
        ])
        .output();
    assert!(out.status.success());
    assert_eq!(rows(&db), before);
    assert!(!out.json_lines().is_empty());
}

/// Every recognised row (game, side, name) is in exactly one list of games by name, and the
/// lists hold nothing else.
fn assert_each_row_in_one_list(conn: &rusqlite::Connection) {
    let one = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(
        one("SELECT sum(json_array_length(games)) FROM recognised_names"),
        one("SELECT count(*) FROM recognised")
    );
    assert_eq!(
        one(
            "SELECT count(*) FROM recognised r WHERE NOT EXISTS (SELECT 1 FROM recognised_names rn, json_each(rn.games) j WHERE rn.name_id = r.name_id AND rn.side = r.side AND j.value = r.game_id)"
        ),
        0
    );
}

/// A database of schema 10 (a table of recognised rows, indexed by name) has its rows moved
/// into the games rows and its lists of games by name made from them when opened, without
/// recognising the games again: every search by a name answers as before, and the rows read
/// back the same.
#[test]
fn a_database_of_schema_10_gets_its_lists_by_name_from_its_rows() {
    let (_dir, db, _) = imported("openings-schema-10", 80);
    let search = |args: &[&str]| search_ids(&db, args);
    let queries: [&[&str]; 4] = [
        &["--opening", "振り飛車"],
        &["--castle", "居玉", "--as", "gote"],
        &["--strategy", "振り飛車", "--as", "sente"],
        &["--castle", "中住まい"],
    ];
    let before: Vec<Vec<i64>> = queries.iter().map(|q| search(q)).collect();
    for (q, ids) in queries.iter().zip(&before) {
        assert!(!ids.is_empty() && ids.len() < 80, "{q:?}: {}", ids.len());
    }
    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let one = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    const EPOCH: &str = "SELECT CAST(coalesce((SELECT value FROM meta
                          WHERE key = 'recognised_epoch'), '0') AS INTEGER)";
    let epoch = one(EPOCH);
    let items = || recognised_items(&conn);
    let rows_before = items();
    // As schema 10 left it.
    let at = kifudex::store::MIGRATIONS
        .iter()
        .position(|(n, _)| *n == "0011_recognised_names.sql")
        .unwrap();
    assert_eq!(at, 10);
    conn.execute_batch(crate::util::BACK_TO_SCHEMA_10).unwrap();
    crate::util::upgrade_old(&db);
    let after: Vec<Vec<i64>> = queries.iter().map(|q| search(q)).collect();
    assert_eq!(after, before);
    assert_eq!(items(), rows_before);
    // Every row is in one list, the index is gone, and nothing was recognised again.
    assert!(one("SELECT count(*) FROM recognised") > 80);
    assert_each_row_in_one_list(&conn);
    assert_eq!(
        one("SELECT count(*) FROM sqlite_master WHERE name = 'recognised_name'"),
        0
    );
    assert_eq!(one(EPOCH), epoch);
}

/// Imports write a list of games per name and side for each transaction, and a removed
/// game's id stays in its lists; `optimize` rewrites them from the games rows: one list per
/// name, side and range of ids, in ascending order, holding exactly the games' recognised rows,
/// and every search by a name answers as before.
#[test]
fn optimize_merges_the_lists_of_games_by_name() {
    let dir = TempDb::new("openings-lists");
    let (files, _) = collection(&dir, 60);
    let db = dir.join("db");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&files)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    // Four imports: four transactions, four lists for most names.
    for part in paths.chunks(15) {
        let mut args = vec!["import".to_string()];
        args.extend(part.iter().map(|p| p.to_str().unwrap().to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = Kifudex::new().db(&db).args(&args).output();
        assert!(out.status.success(), "{}", out.stderr);
    }
    let queries: [&[&str]; 3] = [
        &["--opening", "振り飛車"],
        &["--castle", "居玉", "--as", "gote"],
        &["--strategy", "中飛車"],
    ];
    let search = |args: &[&str]| search_ids(&db, args);
    let before: Vec<Vec<i64>> = queries.iter().map(|q| search(q)).collect();
    assert!(before.iter().all(|ids| !ids.is_empty()));
    let gone = before[1][0];
    let out = Kifudex::new()
        .db(&db)
        .args(&["remove", "--game", &gone.to_string()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let want: Vec<Vec<i64>> = before
        .iter()
        .map(|ids| ids.iter().copied().filter(|&id| id != gone).collect())
        .collect();

    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let one = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    let lists_before = one("SELECT count(*) FROM recognised_names");
    let groups = one("SELECT count(*) FROM (SELECT 1 FROM recognised GROUP BY name_id, side)");
    assert!(
        lists_before > groups,
        "{lists_before} lists, {groups} names"
    );
    let listed_gone =
        "SELECT count(*) FROM recognised_names rn, json_each(rn.games) j WHERE j.value = ";
    assert!(one(&format!("{listed_gone}{gone}")) > 0);

    let out = Kifudex::new().db(&db).args(&["optimize"]).output();
    assert!(out.status.success(), "{}", out.stderr);
    assert!(
        out.stdout.contains(&format!(
            "lists by opening name: {lists_before} -> {groups};"
        )),
        "{}",
        out.stdout
    );
    // All 59 games' ids are below 8,192: one list per name and side.
    assert_eq!(one("SELECT count(*) FROM recognised_names"), groups);
    assert_eq!(one(&format!("{listed_gone}{gone}")), 0);
    // The lists hold exactly the rows, each list in ascending order from its first game.
    assert_each_row_in_one_list(&conn);
    let mut stmt = conn
        .prepare("SELECT first_game, games FROM recognised_names")
        .unwrap();
    let lists: Vec<(i64, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for (first, games) in lists {
        let ids: Vec<i64> = serde_json::from_str(&games).unwrap();
        assert_eq!(ids.first(), Some(&first));
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "{games}");
    }
    let after: Vec<Vec<i64>> = queries.iter().map(|q| search(q)).collect();
    assert_eq!(after, want);

    // Tidy lists and no game removed since: nothing to do.
    let optimize = || {
        let out = Kifudex::new().db(&db).args(&["optimize"]).output();
        assert!(out.status.success(), "{}", out.stderr);
        out.stdout
    };
    let lists = "SELECT group_concat(name_id || side || games, ';') FROM recognised_names";
    let text = |sql: &str| -> String { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    let tidy = text(lists);
    let out = optimize();
    assert!(
        out.contains(&format!("lists by opening name: {groups} -> {groups};")),
        "{out}"
    );
    assert_eq!(text(lists), tidy);
    // A list cut in two (as two imports write it), no game removed: merged again.
    let (name, side, first, games): (i64, i64, i64, String) = conn
        .query_row(
            "SELECT name_id, side, first_game, games FROM recognised_names
             WHERE json_array_length(games) > 1 LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    let mut ids: Vec<i64> = serde_json::from_str(&games).unwrap();
    let last = ids.pop().unwrap();
    conn.execute(
        "UPDATE recognised_names SET games = ?4 WHERE name_id = ?1 AND side = ?2 AND first_game = ?3",
        rusqlite::params![name, side, first, serde_json::to_string(&ids).unwrap()],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO recognised_names (name_id, side, first_game, games) VALUES (?1, ?2, ?3, ?4)",
        rusqlite::params![name, side, last, format!("[{last}]")],
    )
    .unwrap();
    assert_eq!(one("SELECT count(*) FROM recognised_names"), groups + 1);
    let out = optimize();
    assert!(
        out.contains(&format!(
            "lists by opening name: {} -> {groups};",
            groups + 1
        )),
        "{out}"
    );
    assert_each_row_in_one_list(&conn);
    assert_eq!(queries.iter().map(|q| search(q)).collect::<Vec<_>>(), want);
}

/// The recognised label, strategies and castles are in the text index's opening field:
/// `text opening:X` finds exactly the games whose header opening or recognised names hold X
/// (as a substring, as every text query does), after an import, after the definitions
/// change (the rows are computed again and the index rebuilt), and after an import that left
/// recognition to the next command.
#[test]
fn text_finds_the_recognised_names() {
    let (_dir, db, records) = imported("openings-text", 60);
    let want = |needle: &str| -> Vec<i64> {
        records
            .iter()
            .enumerate()
            .filter(|(_, rec)| {
                let r = recognise_record(rec);
                rec.headers
                    .iter()
                    .any(|(k, v)| k == "戦型" && v.contains(needle))
                    || r.opening.is_some_and(|o| o.contains(needle))
                    || r.items.iter().any(|i| i.name.contains(needle))
            })
            .map(|(i, _)| i as i64 + 1)
            .collect()
    };
    let got =
        |db: &Path, query: &str| listed_ids(db, &["text", query, "--json", "--limit", "1000"]);
    let needles = ["美濃", "振り飛車", "居飛車", "矢倉", "穴熊", "四間飛車"];
    let mut seen = 0;
    for needle in needles {
        let w = want(needle);
        assert!(w.len() < records.len(), "{needle}: every game");
        seen += w.len();
        assert_eq!(got(&db, &format!("opening:{needle}")).0, w, "{needle}");
    }
    assert!(seen > 30, "the collection recognises too little: {seen}");

    // The names are indexed whole (a field of their own): the opening's words combine as
    // sets do, and a word searched in every field finds at least those games.
    let (naka, igyoku) = (want("中飛車"), want("居玉"));
    let both: Vec<i64> = naka
        .iter()
        .copied()
        .filter(|id| igyoku.contains(id))
        .collect();
    let mut either: Vec<i64> = naka.iter().chain(&igyoku).copied().collect();
    either.sort_unstable();
    either.dedup();
    let not_naka: Vec<i64> = igyoku
        .iter()
        .copied()
        .filter(|id| !naka.contains(id))
        .collect();
    assert!(
        !both.is_empty() && !not_naka.is_empty(),
        "{naka:?} {igyoku:?}"
    );
    assert_eq!(got(&db, "opening:中飛車 AND opening:居玉").0, both);
    assert_eq!(got(&db, "opening:中飛車 OR opening:居玉").0, either);
    assert_eq!(got(&db, "opening:居玉 -opening:中飛車").0, not_naka);
    let anywhere = got(&db, "中飛車").0;
    assert!(naka.iter().all(|id| anywhere.contains(id)));

    // An index of a schema before (schema 4 cut the names into the opening's text, schema 5
    // held them as text terms) is not read: the answer names `kifudex upgrade`, which
    // builds it again.
    let text_run = |db: &Path, query: &str| {
        Kifudex::new()
            .db(db)
            .args(&["text", query, "--json", "--limit", "1000"])
            .output()
    };
    let upgrade = |db: &Path| {
        let out = Kifudex::new().db(db).args(&["upgrade"]).output();
        assert!(out.status.success(), "{}", out.stderr);
    };
    let meta = db.join("text").join("meta.json");
    let text = std::fs::read_to_string(&meta).unwrap();
    let now = format!("schema {}", kifudex::text::index::SCHEMA_VERSION);
    assert!(text.contains(&now), "{text}");
    for old in [4, 5] {
        std::fs::write(&meta, text.replace(&now, &format!("schema {old}"))).unwrap();
        let out = text_run(&db, "opening:中飛車");
        assert_eq!(out.status.code(), Some(1));
        assert!(
            out.stderr.contains("the text index was built by ")
                && out.stderr.contains(&format!("schema {old}"))
                && out.stderr.contains("`kifudex upgrade` builds it again"),
            "{}",
            out.stderr
        );
        upgrade(&db);
        let (ids, err) = got(&db, "opening:中飛車");
        assert_eq!(ids, naka);
        assert_eq!(err, "");
    }

    // Other definitions made the stored rows: a read answers from them and says so; the
    // upgrade computes them again, and the index with them.
    {
        let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
        conn.execute(
            "UPDATE meta SET value = '0' WHERE key = 'classify_version'",
            [],
        )
        .unwrap();
    }
    let (ids, err) = got(&db, "opening:美濃");
    assert_eq!(ids, want("美濃"));
    assert_eq!(
        err,
        "kifudex: note: the openings were recognised by older definitions: `kifudex upgrade` recognises them again\n"
    );
    upgrade(&db);
    let (ids, err) = got(&db, "opening:美濃");
    assert_eq!(ids, want("美濃"));
    assert_eq!(err, "");

    // An import that leaves recognition to the next upgrade: the upgrade indexes the names.
    let db2 = db.with_file_name("db2");
    let files = db.with_file_name("games");
    let out = Kifudex::new()
        .db(&db2)
        .args(&["import", files.to_str().unwrap(), "--no-recognise"])
        .output();
    assert!(out.status.success());
    upgrade(&db2);
    for needle in needles {
        assert_eq!(
            got(&db2, &format!("opening:{needle}")).0,
            want(needle),
            "{needle}"
        );
    }
}

/// Short and everyday names resolve to the known name; a castle or strategy asked with a
/// player is the player's own; text that names nothing known is matched in the header, and
/// the answer says so.
#[test]
fn short_names_a_players_side_and_header_text() {
    let (_dir, db, records) = imported("openings-names", 200);
    let count = |args: &[&str]| search_ids(&db, args);
    assert_eq!(
        count(&["--opening", "四間"]),
        count(&["--opening", "四間飛車"])
    );
    assert_eq!(
        count(&["--castle", "美濃"]),
        count(&["--castle", "美濃囲い"])
    );
    assert_eq!(
        count(&["--castle", "矢倉"]),
        count(&["--castle", "矢倉囲い"])
    );
    assert_eq!(
        count(&["--castle", "片美"]),
        count(&["--castle", "片美濃囲い"])
    );
    // The player's side: games in which that player (either side) played the strategy.
    let name = |rec: &Record, side: Color| -> String {
        let keys = if side == Color::Black {
            kifudex::notation::SENTE_KEYS
        } else {
            kifudex::notation::GOTE_KEYS
        };
        rec.headers
            .iter()
            .find(|(k, _)| keys.contains(&k.as_str()))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    // The player who played a static-rook strategy most often.
    let mut played: BTreeMap<String, usize> = BTreeMap::new();
    for rec in &records {
        let r = recognise_record(rec);
        for side in [Color::Black, Color::White] {
            if r.side(side).any(|i| i.name == "棒銀") {
                *played.entry(name(rec, side)).or_default() += 1;
            }
        }
    }
    let (player, _) = played
        .iter()
        .max_by_key(|(_, n)| **n)
        .expect("棒銀 was played");
    let want: Vec<i64> = records
        .iter()
        .enumerate()
        .filter(|(_, rec)| {
            let r = recognise_record(rec);
            [Color::Black, Color::White].into_iter().any(|side| {
                kifudex::normalize::name_matches(&name(rec, side), player)
                    && r.side(side).any(|i| i.name == "棒銀")
            })
        })
        .map(|(i, _)| i as i64 + 1)
        .collect();
    assert!(!want.is_empty());
    assert_eq!(count(&["--player", player, "--strategy", "棒銀"]), want);
    // Text no name matches: part of the header, said on stderr.
    let (ids, stderr) = listed_ids(
        &db,
        &["search", "--json", "--limit", "1000", "--opening", "間飛"],
    );
    let want: Vec<i64> = records
        .iter()
        .enumerate()
        .filter(|(_, rec)| rec.opening().is_some_and(|h| h.contains("間飛")))
        .map(|(i, _)| i as i64 + 1)
        .collect();
    assert!(!want.is_empty());
    assert_eq!(ids, want);
    assert_eq!(
        stderr,
        "kifudex: note: --opening \"間飛\" names no opening kifudex knows: games whose 戦型 header holds it\n"
    );
    let out = Kifudex::new()
        .db(&db)
        .args(&["search", "--opening", "間飛", "--opening-from", "moves"])
        .output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        out.stderr,
        "kifudex: --opening \"間飛\" names no opening kifudex recognises from the moves (`kifudex openings` lists them)\n"
    );
}

/// `openings --by year`: each label's games, share and results per year; `--player X --as
/// sente`: the player's repertoire with the player's results; both against a brute-force count.
#[test]
fn trends_by_year_and_a_players_repertoire_equal_a_brute_force_count() {
    let (_dir, db, records) = imported("openings-trends", 300);
    let rows = |args: &[&str]| -> Vec<serde_json::Value> {
        let mut a = vec!["openings", "--json"];
        a.extend_from_slice(args);
        Kifudex::new()
            .db(&db)
            .args(&a)
            .output()
            .success()
            .json_lines()
    };
    let year = |rec: &Record| -> Option<String> {
        rec.headers
            .iter()
            .find(|(k, _)| k == "開始日時")
            .map(|(_, v)| v[..4].to_string())
    };
    // (year, label) -> (games, sente, gote, draws); year -> games.
    let mut want: BTreeMap<(Option<String>, String), Counts> = BTreeMap::new();
    let mut per_year: BTreeMap<Option<String>, u64> = BTreeMap::new();
    for rec in &records {
        let r = recognise_record(rec);
        *per_year.entry(year(rec)).or_default() += 1;
        if let Some(label) = rec.opening().or(r.opening) {
            add(
                want.entry((year(rec), label.to_string())).or_default(),
                rec.result().code(),
            );
        }
    }
    assert!(per_year.len() > 3, "{per_year:?}");
    let mut got: BTreeMap<(Option<String>, String), Counts> = BTreeMap::new();
    for v in rows(&["--by", "year"]) {
        let n = |k: &str| v[k].as_u64().unwrap();
        let y = v["year"].as_str().map(str::to_string);
        let all = per_year[&y] as f64;
        let share = v["share"].as_f64().unwrap();
        assert!((share - n("games") as f64 / all).abs() < 1e-9, "{v}");
        got.insert(
            (y, v["name"].as_str().unwrap().to_string()),
            (n("games"), n("sente_wins"), n("gote_wins"), n("draws")),
        );
    }
    assert_eq!(got, want);

    // A player's repertoire as sente: the player's games as sente, by label, strategy and
    // castle of sente, with the player's wins, draws and losses.
    let sente = |rec: &Record| -> String {
        rec.headers
            .iter()
            .find(|(k, _)| kifudex::notation::SENTE_KEYS.contains(&k.as_str()))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let mut by_player: BTreeMap<String, usize> = BTreeMap::new();
    for rec in &records {
        *by_player.entry(sente(rec)).or_default() += 1;
    }
    let (player, _) = by_player.iter().max_by_key(|(_, n)| **n).unwrap();
    // (kind, name) -> (games, won, drawn, lost)
    let mut want: BTreeMap<(String, String), (u64, u64, u64, u64)> = BTreeMap::new();
    for rec in &records {
        if !kifudex::normalize::name_matches(&sente(rec), player) {
            continue;
        }
        let r = recognise_record(rec);
        let result = rec.result().code();
        let mut count = |kind: &str, name: &str| {
            let e = want.entry((kind.into(), name.into())).or_default();
            e.0 += 1;
            match result {
                Some("sente") => e.1 += 1,
                Some("draw") => e.2 += 1,
                Some("gote") => e.3 += 1,
                _ => {}
            }
        };
        if let Some(label) = rec.opening().or(r.opening) {
            count("opening", label);
        }
        for i in r.side(Color::Black) {
            count(
                if i.kind == Kind::Strategy {
                    "strategy"
                } else {
                    "castle"
                },
                i.name,
            );
        }
    }
    let got: BTreeMap<(String, String), (u64, u64, u64, u64)> =
        rows(&["--player", player, "--as", "sente"])
            .into_iter()
            .map(|v| {
                let n = |k: &str| v[k].as_u64().unwrap();
                (
                    (
                        v["kind"].as_str().unwrap().to_string(),
                        v["name"].as_str().unwrap().to_string(),
                    ),
                    (n("games"), n("wins"), n("draws"), n("losses")),
                )
            })
            .collect();
    assert!(want.len() > 3, "{want:?}");
    assert_eq!(got, want);
}

/// `openings` over every game answers from the totals the writers keep; they equal the
/// count over the games (a filter that takes every game reads the games), after an import,
/// after removals (which may leave them to be counted again by the next command that
/// writes), and after that.
#[test]
fn the_stored_totals_equal_the_count_over_the_games() {
    let (_dir, db, _) = imported("openings-totals", 150);
    let rows = |args: &[&str]| -> Vec<serde_json::Value> {
        let mut a = vec!["openings", "--json"];
        a.extend_from_slice(args);
        let out = Kifudex::new().db(&db).args(&a).output();
        assert!(out.status.success(), "{}", out.stderr);
        out.json_lines()
    };
    let same = |when: &str| {
        for by in [&[][..], &["--by", "year"][..]] {
            let fast = rows(by);
            let mut slow_args = by.to_vec();
            slow_args.extend(["--min-plies", "0"]);
            let slow = rows(&slow_args);
            assert!(fast.len() > 10, "{when}: {}", fast.len());
            assert!(
                fast == slow,
                "{when} {by:?}: the totals differ from the games"
            );
        }
    };
    same("after the import");
    // Removals: the first (oldest ids) and a few others.
    for id in ["1", "2", "50", "51", "99"] {
        let out = Kifudex::new()
            .db(&db)
            .args(&["remove", "--game", id])
            .output();
        assert!(out.status.success(), "{}", out.stderr);
    }
    same("after removals");
    let out = Kifudex::new().db(&db).args(&["upgrade"]).output();
    assert!(out.status.success(), "{}", out.stderr);
    same("after the upgrade");
    let c = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let stale: i64 = c
        .query_row(
            "SELECT count(*) FROM meta WHERE key = 'opening_totals_stale'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(stale, 0);
}
