//! Pattern search times on an imported database, in-process (start-up excluded).
//!
//! `cargo bench --bench find -- DB [RUNS]` runs each query of a fixed set RUNS times (default
//! 3) over every game of DB and prints, per query, the games found, the games read, the
//! median and best wall time and the median CPU time (user + system, every thread); then the
//! process's peak resident memory. The set: queries that must look at every position (a
//! piece on a square, hands, a castle's shape, the last move, material, `--like`), then
//! selective ones that the database lets the scan narrow (recognised names, the game filter,
//! a ply range). Measure builds alternately, never in a timed test.

use std::time::Instant;

use kifudex::find::{Control, FindOptions, LikeOptions, find, like, parse};
use kifudex::query::{GameFilter, parse_position};
use kifudex::store::Store;

/// User + system CPU seconds of the process so far (every thread).
#[cfg(target_os = "linux")]
fn cpu() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    t(u.ru_utime) + t(u.ru_stime)
}

#[cfg(not(target_os = "linux"))]
fn cpu() -> f64 {
    0.0
}

/// Peak resident memory in MB.
#[cfg(target_os = "linux")]
fn peak_mb() -> f64 {
    // SAFETY: as above.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    u.ru_maxrss as f64 / 1024.0
}

#[cfg(not(target_os = "linux"))]
fn peak_mb() -> f64 {
    0.0
}

/// What to run: a query (with a filter), or positions like one.
enum Ask {
    Query(&'static str, Box<GameFilter>),
    Like(&'static str, u32),
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(db) = args.first() else {
        eprintln!("usage: cargo bench --bench find -- DB [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3).max(1);
    let store = Store::open_read_only(std::path::Path::new(db)).expect("open the database");
    let (_, games) = store.game_span().expect("count games");
    println!(
        "{db}: {games} games, {} threads",
        rayon::current_num_threads()
    );
    // One player's games: the first game's sente.
    let name = store
        .summary(1)
        .ok()
        .flatten()
        .and_then(|g| g.sente)
        .unwrap_or_default();
    let player = GameFilter {
        player: Some(name),
        ..GameFilter::default()
    };
    let asks: Vec<(&str, Ask)> = vec![
        ("full", Ask::Query("▲９九玉", Box::default())),
        (
            "full",
            Ask::Query("持駒 ▲歩 >= 3 and 持駒 △歩 >= 3", Box::default()),
        ),
        ("full", Ask::Query("▲美濃囲い", Box::default())),
        ("full", Ask::Query("last △ 打 王手", Box::default())),
        ("full", Ask::Query("advantage(▲) >= 15", Box::default())),
        (
            "full",
            Ask::Query("count(空 ５筋) = 9 and ▲飛 ５筋", Box::default()),
        ),
        (
            "full",
            Ask::Like("startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e", 2),
        ),
        (
            "selective",
            Ask::Query("△四間飛車 and ▲美濃囲い", Box::default()),
        ),
        (
            "selective",
            Ask::Query("▲相掛かり and ply <= 40 and ▲飛 ２六", Box::default()),
        ),
        ("selective", Ask::Query("▲９九玉", Box::new(player))),
        (
            "selective",
            Ask::Query("手数 <= 20 and ▲５五角", Box::default()),
        ),
    ];
    println!(
        "{:<10} {:<42} {:>8} {:>9} {:>9} {:>8} {:>8}",
        "kind", "query", "found", "read", "median s", "best s", "CPU s"
    );
    for (kind, ask) in &asks {
        let mut wall = Vec::new();
        let mut cpus = Vec::new();
        let mut found = (0, 0);
        let label = match ask {
            Ask::Query(q, f) if f.player.is_some() => {
                format!("{q} --player {}", f.player.as_deref().unwrap_or(""))
            }
            Ask::Query(q, _) => q.to_string(),
            Ask::Like(p, k) => format!("--like {p} --diff {k}"),
        };
        for _ in 0..runs {
            let (t, c) = (Instant::now(), cpu());
            found = match ask {
                Ask::Query(q, f) => {
                    let query = parse(q).expect("a query of the benchmark reads");
                    let options = FindOptions {
                        all: false,
                        limit: 50,
                    };
                    let r = find(&store, &query, f, &options, &Control::default())
                        .expect("the search runs");
                    (r.games, r.outcome.scanned)
                }
                Ask::Like(p, k) => {
                    let pos = parse_position(p).expect("a position");
                    let options = LikeOptions {
                        diff: *k,
                        ignore_hands: false,
                        all: false,
                        limit: 50,
                    };
                    let r = like(
                        &store,
                        &pos,
                        &GameFilter::default(),
                        &options,
                        &Control::default(),
                    )
                    .expect("the search runs");
                    (r.games, r.outcome.scanned)
                }
            };
            wall.push(t.elapsed().as_secs_f64());
            cpus.push(cpu() - c);
        }
        let best = wall.iter().copied().fold(f64::INFINITY, f64::min);
        let label: String = label.chars().take(42).collect();
        println!(
            "{kind:<10} {label:<42} {:>8} {:>9} {:>9.3} {:>8.3} {:>8.2}",
            found.0,
            found.1,
            median(&mut wall),
            best,
            median(&mut cpus)
        );
    }
    println!("peak resident memory: {:.0} MB", peak_mb());
}
