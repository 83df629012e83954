//! `--opening` with the start of several names that are not one family (`相`: 相掛かり,
//! 相振り飛車, 相矢倉 …): the games of any of them, and a note that says which; the start of
//! one name or family stays that name, and text no name starts with stays header text.

use std::collections::BTreeSet;

use crate::openings::imported;
use crate::util::Kifudex;

fn ids(db: &std::path::Path, opening: &str) -> (BTreeSet<i64>, String) {
    let out = Kifudex::new()
        .db(db)
        .args(&[
            "search",
            "--opening",
            opening,
            "--json",
            "--limit",
            "100000",
        ])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let ids = out
        .json_lines()
        .iter()
        .filter_map(|v| v["id"].as_i64())
        .collect();
    (ids, out.stderr)
}

#[test]
fn the_start_of_several_openings_finds_the_games_of_each() {
    let (_dir, db, _) = imported("openings-prefix", 160);
    let (all, note) = ids(&db, "相");
    let want = "kifudex: note: --opening \"相\" is the start of 6 openings: games of any of \
                相横歩取り, 相掛かり, 相筋違い角, 相振り飛車, 相矢倉, 相雁木\n";
    assert_eq!(note, want);
    // The union of each name's games, asked one by one.
    let mut union = BTreeSet::new();
    for name in [
        "相横歩取り",
        "相掛かり",
        "相筋違い角",
        "相振り飛車",
        "相矢倉",
        "相雁木",
    ] {
        let (games, note) = ids(&db, name);
        assert_eq!(note, "", "{name}");
        union.extend(games);
    }
    assert_eq!(all, union);
    assert!(all.len() >= 10, "{}", all.len());
    // One family: its head, without a note.
    let (furi, note) = ids(&db, "振り");
    assert_eq!(note, "");
    assert_eq!(furi, ids(&db, "振り飛車").0);
    // Nothing known starts with it: the header's text, said so.
    let (none, note) = ids(&db, "鬼殺し風");
    assert!(none.is_empty());
    assert!(note.contains("names no opening kifudex knows"), "{note}");
}
