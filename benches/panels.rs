//! The explorer's panels and selections under filters other than dates (issue 41's figure):
//! the server runs in this process with no answer kept, reads the games' facts, then answers
//! each request ROUNDS times; prints how long the facts took to read and each request's
//! fastest and median time. With `--no-facts`, the same requests read the database.
//!
//! `cargo bench --bench panels -- DB [ROUNDS] [--no-facts]` (ROUNDS defaults to 5).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use kifudex::serve::{ServeOptions, start};

/// The binary's allocator (see `src/main.rs`): the server measured as it runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The requests: the panels, then the selections behind the tree, the games and comments.
const REQUESTS: &[&str] = &[
    "/api/openings?winner=sente",
    "/api/openings?event=%E7%AB%9C%E7%8E%8B",
    "/api/openings?winner=gote&by=pair",
    "/api/openings?min_plies=50&by=year",
    "/api/openings?castle=%E7%BE%8E%E6%BF%83%E5%9B%B2%E3%81%84&winner=sente",
    "/api/players?winner=sente",
    "/api/players?event=%E7%AB%9C%E7%8E%8B",
    "/api/search?event=%E7%AB%9C%E7%8E%8B",
    "/api/search?winner=sente&min_plies=100",
    "/api/tree?winner=sente",
    "/api/tree?event=%E7%AB%9C%E7%8E%8B&play=7g7f",
];

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let facts = !args.iter().any(|a| a == "--no-facts");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--no-facts").collect();
    let Some(db) = args.first() else {
        eprintln!("usage: cargo bench --bench panels -- DB [ROUNDS] [--no-facts]");
        std::process::exit(2);
    };
    let rounds: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5).max(1);
    let mut opts = ServeOptions::new(std::path::Path::new(db), "127.0.0.1:0".parse().unwrap());
    opts.cache_bytes = 0;
    opts.facts = facts;
    let started = Instant::now();
    let server = start(&opts).expect("start the server");
    if facts {
        while !server.facts_ready() {
            assert!(
                started.elapsed() < Duration::from_secs(600),
                "the facts were not read in 10 minutes"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        println!("facts read in {:.2} s", started.elapsed().as_secs_f64());
    }
    let addr = server.addr();
    for path in REQUESTS {
        let mut ms: Vec<f64> = (0..rounds).map(|_| get(addr, path)).collect();
        ms.sort_by(f64::total_cmp);
        println!(
            "{path}: fastest {:.1} ms, median {:.1} ms",
            ms[0],
            ms[ms.len() / 2]
        );
    }
    server.stop();
}

/// One request on its own connection; its time in milliseconds (a failure stops the bench).
fn get(addr: SocketAddr, path: &str) -> f64 {
    let t = Instant::now();
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).expect("read the answer");
    let took = t.elapsed().as_secs_f64() * 1000.0;
    let head = String::from_utf8_lossy(&answer[..answer.len().min(16)]).to_string();
    assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
    took
}
