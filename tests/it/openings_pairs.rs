//! `openings --pairs`: the pairings over every game come from the totals the writers keep;
//! they equal a count over the games themselves (any filter makes `openings` read the
//! games) and a brute force over the records, here; and a database of schema 15, whose
//! totals held no pairings, has them counted by `kifudex upgrade`.

use std::collections::BTreeMap;

use crate::openings::imported;
use crate::util::Kifudex;
use kifudex::classify::{Kind, family, names, recognise_record};
use kifudex::notation::Record;

/// The pairing of one record by the rule `docs/openings.md` gives, from what recognition
/// says of it.
fn brute_pairing(rec: &Record) -> String {
    let r = recognise_record(rec);
    let ranging = ["中飛車", "四間飛車", "三間飛車", "向かい飛車"];
    let castles = [
        "居飛車穴熊",
        "ミレニアム囲い",
        "左美濃",
        "エルモ囲い",
        "舟囲い",
    ];
    let sides = [kifudex::shogi::Color::Black, kifudex::shogi::Color::White];
    // Each side's earliest ranging rook, ties by the list's order.
    let ranged: Vec<Option<&str>> = sides
        .iter()
        .map(|&s| {
            let mut best: Option<(u32, usize)> = None;
            for i in r.side(s) {
                if let Some(k) = ranging.iter().position(|n| *n == i.name)
                    && best.is_none_or(|b| (i.ply, k) < b)
                {
                    best = Some((i.ply, k));
                }
            }
            best.map(|(_, k)| ranging[k])
        })
        .collect();
    let mut out = Vec::new();
    for (n, &s) in sides.iter().enumerate() {
        let name = if let Some(r) = ranged[n] {
            r.to_string()
        } else if let Some(c) = castles
            .iter()
            .find(|c| ranged[1 - n].is_some() && r.side(s).any(|i| i.name == **c))
        {
            c.to_string()
        } else {
            let mut strategies: Vec<_> = r.side(s).filter(|i| i.kind == Kind::Strategy).collect();
            strategies.sort_by_key(|i| (i.ply, names::place(i.name)));
            match strategies.first() {
                Some(i) => family(i.name).to_string(),
                None if r.side(s).next().is_some() => "居飛車".to_string(),
                None => "その他".to_string(),
            }
        };
        out.push(name);
    }
    out.join(" vs ")
}

/// `openings --pairs --json` rows: name to (games, sente wins, gote wins, draws).
fn pairs(db: &std::path::Path, extra: &[&str]) -> BTreeMap<String, [i64; 4]> {
    let mut args = vec!["openings", "--pairs", "--json"];
    args.extend_from_slice(extra);
    let out = Kifudex::new().db(db).args(&args).output();
    assert!(out.status.success(), "{}", out.stderr);
    out.json_lines()
        .iter()
        .map(|v| {
            assert_eq!(v["kind"], "pair", "{v}");
            let n = |k: &str| v[k].as_i64().unwrap();
            (
                v["name"].as_str().unwrap().to_string(),
                [n("games"), n("sente_wins"), n("gote_wins"), n("draws")],
            )
        })
        .collect()
}

#[test]
fn pairings_from_the_totals_equal_the_games_and_a_brute_force() {
    let (_dir, db, records) = imported("openings-pairs", 160);
    let totals = pairs(&db, &[]);
    let counted = pairs(&db, &["--min-plies", "0"]);
    assert_eq!(totals, counted);
    let mut brute: BTreeMap<String, [i64; 4]> = BTreeMap::new();
    for rec in &records {
        let row = brute.entry(brute_pairing(rec)).or_default();
        row[0] += 1;
        match rec.result().code() {
            Some("sente") => row[1] += 1,
            Some("gote") => row[2] += 1,
            Some("draw") => row[3] += 1,
            _ => {}
        }
    }
    assert_eq!(totals, brute);
    // The collection is varied enough to mean something: ranging rooks against castles.
    assert!(totals.len() >= 8, "{totals:?}");
    assert!(
        totals
            .keys()
            .any(|k| k.contains("飛車 vs ") && !k.ends_with("飛車")),
        "{totals:?}"
    );

    // As schema 15 left it: totals without pairings. A read refuses it; `upgrade` counts
    // them.
    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    let at = kifudex::store::MIGRATIONS
        .iter()
        .position(|(n, _)| *n == "0016_pair_totals.sql")
        .unwrap();
    conn.execute_batch(crate::util::BACK_TO_SCHEMA_16).unwrap();
    conn.execute_batch(&format!(
        "DELETE FROM opening_totals WHERE kind = 'pair'; PRAGMA user_version = {at};"
    ))
    .unwrap();
    drop(conn);
    crate::util::upgrade_old(&db);
    assert_eq!(pairs(&db, &[]), brute);
}

/// `openings` over whole years answers from the per-year totals, and over spans of days or
/// months from the totals of the years inside and the games of the years cut; the same
/// rows as a count over the games (which `--min-plies 0` forces), by name, by pair and by
/// year. Games dated by year or month only, and undated ones, are among them.
#[test]
fn whole_years_from_the_totals_equal_the_games() {
    let (dir, db, _) = imported("openings-years", 160);
    let dates = ["2004", "2004/03", "2003/12", ""].map(|d| (d, None));
    crate::openings::import_dated(&dir, &db, 99, &dates);
    let out = Kifudex::new()
        .db(&db)
        .args(&["search", "--json", "--source", "*vague*"])
        .output();
    let mut dates: Vec<String> = out
        .json_lines()
        .iter()
        .map(|g| g["date"].as_str().unwrap_or("-").to_string())
        .collect();
    dates.sort();
    assert_eq!(dates, ["-", "2003-12", "2004", "2004-03"], "{}", out.stderr);
    let rows = |args: &[&str]| {
        let mut a = vec!["openings", "--json"];
        a.extend_from_slice(args);
        let out = Kifudex::new().db(&db).args(&a).output();
        assert!(out.status.success(), "{}", out.stderr);
        out.json_lines()
    };
    let every = rows(&[]).iter().map(|r| r["games"].as_i64().unwrap()).max();
    for span in [
        vec!["--since", "2000", "--until", "2010"],
        vec!["--since", "2000", "--until", "2010-12-31"],
        vec!["--since", "2015"],
        vec!["--until", "1999"],
        // Days and months: the years cut are read from their games, the rest from the totals.
        vec!["--since", "2003-05-17"],
        vec!["--since", "2003-01-01", "--until", "2010-02"],
        vec!["--since", "2001-07", "--until", "2012-12"],
        vec!["--until", "2008-06-30"],
        vec!["--since", "2004-03", "--until", "2004-09-30"],
        vec!["--since", "2004", "--until", "2005-06"],
        vec!["--since", "2006-02-11", "--until", "2007"],
    ] {
        for by in [vec![], vec!["--pairs"], vec!["--by", "year"]] {
            let mut fast = span.clone();
            fast.extend_from_slice(&by);
            let mut counted = fast.clone();
            counted.extend_from_slice(&["--min-plies", "0"]);
            let (f, c) = (rows(&fast), rows(&counted));
            assert_eq!(f, c, "{fast:?}");
            assert!(!f.is_empty(), "{fast:?}");
        }
        // A span holds fewer games than every year.
        let most = rows(&span)
            .iter()
            .map(|r| r["games"].as_i64().unwrap())
            .max();
        assert!(most < every, "{span:?}");
    }
}
