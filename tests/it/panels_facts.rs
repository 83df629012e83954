//! A store holding the games' facts in memory (as the server's connections do) against the
//! same store reading the database (as the CLI does), over many filters of a generated
//! collection: the same games selected (alone and among candidates), the same newest games,
//! the same panels (`openings`, `players`) to the last count and date.

use std::sync::Arc;

use kifudex::query::{Field, GameFilter, OpeningsBy, openings, players, search};
use kifudex::store::{Facts, Store, TextColumn};

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
    let facts = Arc::new(
        store
            .facts()
            .unwrap()
            .expect("the facts hold this collection"),
    );
    assert_eq!(facts.len(), 400);
    let filters = filters();
    assert!(filters.len() > 100, "{} filters", filters.len());
    // Every third game, as a position's candidates would be.
    let within: Vec<i64> = (1..=400).step_by(3).collect();
    let mut selected_some = 0;
    for (words, f) in &filters {
        // Read from the database, then with the facts held.
        let answers = |held: Option<Arc<Facts>>| {
            store.hold_facts(held);
            let sel = f.selection(&store).unwrap();
            let games: Vec<i64> = store.select_games(&sel, None).unwrap().ids().collect();
            let among: Vec<i64> = store
                .select_games(&sel, Some(&within))
                .unwrap()
                .ids()
                .collect();
            let newest = search(&store, f, Some(25)).unwrap();
            let newest: Vec<i64> = newest.rows.iter().map(|r| r.id).collect();
            let tables: Vec<_> = [OpeningsBy::Name, OpeningsBy::Pair, OpeningsBy::Year]
                .into_iter()
                .map(|by| openings(&store, f, by).unwrap())
                .collect();
            // All players; and one player by a name.
            let mut people = vec![players(&store, f, None).unwrap()];
            if f.player.is_none() {
                people.push(players(&store, f, Some("佐藤")).unwrap());
            }
            (games, among, newest, tables, people)
        };
        let read = answers(None);
        let counted = answers(Some(Arc::clone(&facts)));
        assert_eq!(counted.0, read.0, "{words}: the games");
        assert_eq!(counted.1, read.1, "{words}: the games among candidates");
        assert_eq!(counted.2, read.2, "{words}: the newest 25");
        assert_eq!(counted.3, read.3, "{words}: the openings");
        assert_eq!(counted.4, read.4, "{words}: the players");
        if !read.0.is_empty() && read.0.len() < 400 {
            selected_some += 1;
        }
    }
    // The filters are not all empty or all-inclusive: the comparison has something to see.
    assert!(
        selected_some > 60,
        "{selected_some} filters select some games"
    );
    // The distinct values of the text columns the facts hold.
    for column in [TextColumn::Event, TextColumn::Opening, TextColumn::Handicap] {
        store.hold_facts(None);
        let mut read = store.distinct_values(column).unwrap();
        store.hold_facts(Some(Arc::clone(&facts)));
        let mut held = store.distinct_values(column).unwrap();
        read.sort();
        held.sort();
        assert!(!read.is_empty(), "{column:?}");
        assert_eq!(held, read, "{column:?}");
    }
}
