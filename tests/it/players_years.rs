//! `players` over spans of dates: the players' totals are kept per year (schema 17), the
//! years a span holds whole are summed from them and the years it cuts read from the games.
//! Every answer equals a count over the games (which `--min-plies 0` forces), after an
//! import, after removals, and after the upgrade of a database of schema 16.

use std::path::Path;

use serde_json::Value;

use crate::openings::imported;
use crate::util::Kifudex;

const SPANS: [&[&str]; 10] = [
    &["--since", "2000", "--until", "2010"],
    &["--since", "2015"],
    &["--until", "1999-12-31"],
    &["--since", "2003-05-17"],
    &["--since", "2004-01-01", "--until", "2010-02"],
    &["--since", "2001-07", "--until", "2012-12"],
    &["--until", "2008-06-30"],
    &["--since", "2004-03", "--until", "2004-09-30"],
    &["--since", "2004", "--until", "2005-06"],
    &["--since", "2003-12", "--until", "2004"],
];

/// `players --json` with `args`; the command must succeed.
fn players(db: &Path, args: &[&str]) -> Vec<Value> {
    let mut a = vec!["players", "--json", "--limit", "100000"];
    a.extend_from_slice(args);
    let out = Kifudex::new().db(db).args(&a).output();
    assert!(out.status.success(), "{a:?}: {}", out.stderr);
    out.json_lines()
}

/// Every span, alone and with a player and a side, from the totals and from the games.
fn assert_spans_count_as_the_games(db: &Path, who: &str) {
    for span in SPANS {
        for extra in [
            &[][..],
            &["--player", who],
            &["--as", "gote", "--player", who],
        ] {
            let mut fast = span.to_vec();
            fast.extend_from_slice(extra);
            let mut counted = fast.clone();
            counted.extend_from_slice(&["--min-plies", "0"]);
            let got = players(db, &fast);
            assert_eq!(got, players(db, &counted), "{fast:?}");
            if extra.is_empty() {
                assert!(!got.is_empty(), "{fast:?}");
            }
        }
    }
}

#[test]
fn players_over_spans_of_dates_equal_the_games() {
    let (dir, db, _) = imported("players-years", 160);
    // Games dated by year or month only, and one without a date; and one player's games
    // of 2004 and one of 1995: removing the first of 2004 makes 2004's first date the next
    // game of 2004.
    let taro = Some("年度太郎");
    let dates = [
        ("2004", None),
        ("2004/03", None),
        ("2003/12", None),
        ("", None),
        ("2004/02/10", taro),
        ("2004/05/05", taro),
        ("2004/11/20", taro),
        ("1995/04/01", taro),
    ];
    let vague = crate::openings::import_dated(&dir, &db, 98, &dates);

    let every = players(&db, &[]);
    assert_eq!(every, players(&db, &["--min-plies", "0"]));
    let who = every[0]["name"].as_str().unwrap().to_string();
    // A span holds fewer games than every year.
    let games = |rows: &[Value]| {
        rows.iter()
            .map(|r| r["games"].as_u64().unwrap())
            .sum::<u64>()
    };
    assert!(games(&players(&db, SPANS[4])) < games(&every));
    assert_spans_count_as_the_games(&db, &who);

    // Removed games leave their years' totals (first and last dates looked for again).
    for args in [
        vec!["remove", "--since", "2004-02", "--until", "2004-07"],
        vec![
            "remove",
            "--source",
            vague.join("v1.kifu").to_str().unwrap(),
        ],
    ] {
        let out = Kifudex::new().db(&db).args(&args).output();
        assert!(out.status.success(), "{args:?}: {}", out.stderr);
    }
    assert_eq!(players(&db, &[]), players(&db, &["--min-plies", "0"]));
    assert_spans_count_as_the_games(&db, &who);
    let taro = players(&db, &["年度太郎", "--since", "2004", "--until", "2004"]);
    assert_eq!(
        (
            &taro[0]["games"],
            &taro[0]["first_date"],
            &taro[0]["last_date"]
        ),
        (
            &Value::from(1),
            &Value::from("2004-11-20"),
            &Value::from("2004-11-20")
        ),
        "{taro:?}"
    );

    // As schema 16 left it: totals over every year only. A read refuses it; `upgrade`
    // counts the years.
    let before = players(&db, &[]);
    let at = kifudex::store::MIGRATIONS
        .iter()
        .position(|(n, _)| *n == "0017_player_years.sql")
        .unwrap();
    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    conn.execute_batch(crate::util::BACK_TO_SCHEMA_16).unwrap();
    conn.execute_batch(&format!("PRAGMA user_version = {at};"))
        .unwrap();
    drop(conn);
    crate::util::upgrade_old(&db);
    assert_eq!(players(&db, &[]), before);
    assert_spans_count_as_the_games(&db, &who);
}
