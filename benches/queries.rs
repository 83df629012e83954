//! Query times on an imported database, in-process (start-up excluded).
//!
//! `cargo bench --bench queries -- DB [QUERIES]` picks QUERIES (default 1,000) positions
//! from random games of DB at random plies (seeded), answers `position` (limit 50) for each
//! and prints p50/p90/p99/max for the positions reached by at most 1,000 games (the project.s
//! target) and for all; then `tree` on the start position, five times; then full-text
//! queries (limit 20) of several shapes, each 20 times. Then the same questions under a game
//! filter (issue 22.s targets): `tree` on the start position in one player's games,
//! `position` limited to a period and to a player, `players` listing everyone, and text
//! queries limited to a player.

use std::time::Instant;

use kifudex::query::filter::GameFilter;
use kifudex::query::players::players;
use kifudex::query::position::{PositionQuery, find_games};
use kifudex::query::text::text_search_filtered;
use kifudex::query::tree::tree_filtered;
use kifudex::query::{PositionOptions, find_position, open_text, text_search, tree};
use kifudex::shogi::Position;
use kifudex::store::Store;
use kifudex::text::index::SearchOptions;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(db) = args.first() else {
        eprintln!("usage: cargo bench --bench queries -- DB [QUERIES]");
        std::process::exit(2);
    };
    let queries: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let store = Store::open(std::path::Path::new(db)).expect("open the database");
    let (max_id, games) = store.game_span().expect("count games");
    println!("{db}: {games} games");
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut picked: Vec<Position> = Vec::new();
    while picked.len() < queries {
        let id = 1 + (next() % max_id as u64) as i64;
        let Ok(Some(line)) = store.game_line(id) else {
            continue;
        };
        let (mut pos, moves) = (line.start, line.moves);
        let ply = (next() % (moves.len() as u64 + 1)) as usize;
        for &mv in &moves[..ply] {
            if pos.play(mv).is_err() {
                break;
            }
        }
        picked.push(pos);
    }
    let o = PositionOptions::default();
    // Warm the page cache and the statement cache once.
    let _ = find_position(&store, &Position::startpos(), o, 50);
    let mut small = Vec::new();
    let mut all = Vec::new();
    let mut found_games = 0usize;
    for pos in &picked {
        let t = Instant::now();
        let r = find_position(&store, pos, o, 50).expect("position query");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        all.push(ms);
        if r.total <= 1000 {
            small.push(ms);
        }
        found_games += r.total;
        assert!(r.total >= 1, "a position taken from a game is found");
    }
    report("position, reached by ≤ 1,000 games", &mut small);
    report("position, all", &mut all);
    println!(
        "  ({} queries, {:.1} games per query on average)",
        picked.len(),
        found_games as f64 / picked.len() as f64
    );
    let mut times = Vec::new();
    let mut reached = 0;
    for _ in 0..5 {
        let t = Instant::now();
        let r = tree(&store, &Position::startpos(), o).expect("tree");
        times.push(t.elapsed().as_secs_f64() * 1e3);
        reached = r.games;
    }
    report(
        &format!("tree on the start position ({reached} games)"),
        &mut times,
    );

    let (index, _) = open_text(&store).expect("open the text index");
    let mut times = Vec::new();
    let mut by_query: Vec<(&str, Vec<f64>)> = Vec::new();
    for round in 0..20 {
        for q in [
            "勝負所",
            "comment:好手",
            "\"形勢は互角\"",
            "opening:四間飛車",
            "竜王戦 AND 矢倉",
            "銀",
            "Engine",
        ] {
            let t = Instant::now();
            let hits = text_search(
                &store,
                &index,
                &SearchOptions {
                    query: q.to_string(),
                    limit: 20,
                    engine: false,
                    games: None,
                    players: None,
                },
            )
            .expect("text query");
            let ms = t.elapsed().as_secs_f64() * 1e3;
            times.push(ms);
            match by_query.iter_mut().find(|(name, _)| *name == q) {
                Some((_, v)) => v.push(ms),
                None => by_query.push((q, vec![ms])),
            }
            if round == 0 {
                println!(
                    "  text {q:?}: {} hits shown, first query {ms:.1} ms",
                    hits.len()
                );
            }
        }
    }
    for (q, mut v) in by_query {
        report(&format!("  text {q:?}"), &mut v);
    }
    report("text queries", &mut times);

    filtered(&store, &picked, &index);
}

/// The questions of issue 22 under a game filter.
fn filtered(store: &Store, picked: &[Position], index: &kifudex::text::TextIndex) {
    let o = PositionOptions::default();
    // The sente player of game 1: one player's games (a few thousand at 1,000,000).
    let player = store
        .game(1)
        .ok()
        .flatten()
        .and_then(|g| g.sente)
        .expect("game 1 has a sente player");
    let by_player = GameFilter {
        player: Some(player.clone()),
        ..GameFilter::default()
    };
    let mut times = Vec::new();
    let mut reached = 0;
    for _ in 0..5 {
        let t = Instant::now();
        let r = tree_filtered(store, &Position::startpos(), o, &by_player).expect("tree");
        times.push(t.elapsed().as_secs_f64() * 1e3);
        reached = r.games;
    }
    report(
        &format!("tree on the start position, --player {player} ({reached} games)"),
        &mut times,
    );

    let since = GameFilter {
        since: Some("2015".into()),
        ..GameFilter::default()
    };
    for (name, filter) in [("--since 2015", &since), ("--player", &by_player)] {
        let mut small = Vec::new();
        let mut all = Vec::new();
        let mut found = 0usize;
        for pos in picked {
            let q = PositionQuery {
                options: o,
                filter: filter.clone(),
                limit: 50,
                ..PositionQuery::default()
            };
            let t = Instant::now();
            let r = find_games(store, pos, &q).expect("position query");
            let ms = t.elapsed().as_secs_f64() * 1e3;
            all.push(ms);
            if r.total <= 1000 {
                small.push(ms);
            }
            found += r.total;
        }
        report(
            &format!("position {name}, ≤ 1,000 games ({found} found in all)"),
            &mut small,
        );
        report(&format!("position {name}, all"), &mut all);
    }

    let mut times = Vec::new();
    let mut count = 0;
    for _ in 0..5 {
        let t = Instant::now();
        count = players(store, &GameFilter::default(), None)
            .expect("players")
            .len();
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    report(&format!("players, all ({count} players)"), &mut times);

    let mut times = Vec::new();
    for _ in 0..20 {
        for q in ["勝負所", "comment:好手", "銀", "opening:四間飛車"] {
            let t = Instant::now();
            text_search_filtered(
                store,
                index,
                &SearchOptions {
                    query: q.to_string(),
                    limit: 20,
                    engine: false,
                    games: None,
                    players: None,
                },
                &by_player,
            )
            .expect("text query");
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    report("text queries, --player", &mut times);
}

fn report(name: &str, ms: &mut [f64]) {
    if ms.is_empty() {
        println!("{name}: no queries");
        return;
    }
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{name}: n={} p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        ms.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
}
