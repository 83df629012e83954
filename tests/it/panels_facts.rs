//! The panels (`openings`, `players`) counted from the games' facts in memory (as the server
//! does) against the same panels read from the database (as the CLI does), over many filters
//! of a generated collection: the same games selected, the same rows to the last count and
//! date.

use kifudex::query::{Field, GameFilter, OpeningsBy, openings_with, players_with};
use kifudex::store::Store;

use super::openings::imported;

/// Filter fields (the API's names) and values: each picks some of the collection's games
/// (or none, for the values that match nothing).
const ATOMS: &[(&str, &str)] = &[
    ("winner", "sente"),
    ("winner", "gote"),
    ("winner", "draw"),
    ("event", "竜王"),
    ("event", "名人戦"),
    ("event", "no such event"),
    ("player", "佐藤"),
    ("player", "鈴木"),
    ("vs", "田中"),
    ("as", "sente"),
    ("as", "gote"),
    ("sente", "高橋"),
    ("gote", "伊藤"),
    ("opening", "四間飛車"),
    ("opening", "振り飛車"),
    ("opening", "居飛車"),
    ("opening", "相振り飛車"),
    ("opening_from", "header"),
    ("opening_from", "moves"),
    ("castle", "美濃囲い"),
    ("castle", "舟囲い"),
    ("castle", "居玉"),
    ("strategy", "四間飛車"),
    ("strategy", "振り飛車"),
    ("strategy", "居飛車"),
    ("since", "2001-03"),
    ("until", "2012-06-15"),
    ("since", "1995"),
    ("until", "2020"),
    ("min_plies", "60"),
    ("max_plies", "90"),
    ("handicap", "平手"),
    ("terminal", "resign"),
    ("source", "*g00[0-4]*"),
];

/// The filters: every atom alone, then combinations of two to four chosen by a fixed
/// sequence of numbers; those the filter refuses (a side without a player) are left out.
fn filters() -> Vec<(String, GameFilter)> {
    let mut out = Vec::new();
    let mut add = |atoms: &[usize]| {
        let mut f = GameFilter::default();
        let mut words = Vec::new();
        for &a in atoms {
            let (param, value) = ATOMS[a];
            let field = Field::from_param(param).unwrap_or_else(|| panic!("{param}"));
            if f.set(field, value).is_err() {
                return;
            }
            words.push(format!("{param}={value}"));
        }
        if f.check().is_ok() {
            out.push((words.join("&"), f));
        }
    };
    for a in 0..ATOMS.len() {
        add(&[a]);
    }
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for _ in 0..120 {
        let k = 2 + next(3);
        let atoms: Vec<usize> = (0..k).map(|_| next(ATOMS.len())).collect();
        add(&atoms);
    }
    out
}

#[test]
fn panels_from_the_facts_equal_panels_from_the_database() {
    let (_dir, db, _records) = imported("panels-facts", 400);
    let store = Store::open_read_only(&db).unwrap();
    let facts = store
        .facts()
        .unwrap()
        .expect("the facts hold this collection");
    assert_eq!(facts.len(), 400);
    let filters = filters();
    assert!(filters.len() > 100, "{} filters", filters.len());
    let mut selected_some = 0;
    for (words, f) in &filters {
        // The same games.
        let sel = f.selection(&store).unwrap();
        let from_db: Vec<i64> = store.select_games(&sel, None).unwrap().ids().collect();
        let from_facts: Vec<i64> = facts
            .select(&store, &sel)
            .unwrap()
            .into_iter()
            .map(|i| facts.game(i as usize).id)
            .collect();
        assert_eq!(from_facts, from_db, "{words}");
        if !from_db.is_empty() && from_db.len() < 400 {
            selected_some += 1;
        }
        // The same rows, in the same order.
        for by in [OpeningsBy::Name, OpeningsBy::Pair, OpeningsBy::Year] {
            let read = openings_with(&store, None, f, by).unwrap();
            let counted = openings_with(&store, Some(&facts), f, by).unwrap();
            assert_eq!(counted, read, "{words} by {by:?}");
        }
        // The same players; and the same one player, by a name.
        for name in [None, Some("佐藤")] {
            if name.is_some() && f.player.is_some() {
                continue;
            }
            let read = players_with(&store, None, f, name).unwrap();
            let counted = players_with(&store, Some(&facts), f, name).unwrap();
            assert_eq!(counted, read, "{words}, players {name:?}");
        }
    }
    // The filters are not all empty or all-inclusive: the comparison has something to see.
    assert!(
        selected_some > 60,
        "{selected_some} filters select some games"
    );
}
