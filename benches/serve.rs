//! The explorer's API under load, over HTTP on loopback (issue 24's figure): the server runs
//! in this process on a free port, and CLIENTS threads, each with one kept-alive
//! connection, click through the explorer as users do. A walk starts at the start position
//! and asks `/api/tree`; the next move is drawn from the moves played there, weighted by
//! their counts, until the position has no games or DEPTH moves were played; then a new walk
//! starts. Prints the latency percentiles of `/api/tree` and the requests per second.
//!
//! `cargo bench --bench serve -- DB [CLIENTS] [SECONDS] [DEPTH]` (defaults 20, 30, 16).
//! Unlike `scripts/load_serve.py`, the client costs little CPU and keeps its connections, so
//! the figures are the server's.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use kifudex::serve::{ServeOptions, start};

/// The binary's allocator (see `src/main.rs`): the server measured as it runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(db) = args.first() else {
        eprintln!("usage: cargo bench --bench serve -- DB [CLIENTS] [SECONDS] [DEPTH]");
        std::process::exit(2);
    };
    let number =
        |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (clients, seconds, depth) = (
        number(1, 20) as usize,
        number(2, 30),
        number(3, 16) as usize,
    );
    let opts = ServeOptions::new(std::path::Path::new(db), "127.0.0.1:0".parse().unwrap());
    let server = start(&opts).expect("start the server");
    let addr = server.addr();
    let started = Instant::now();
    let stop = started + Duration::from_secs(seconds);
    let results: Vec<(Vec<f64>, usize, Vec<Slow>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..clients)
            .map(|n| s.spawn(move || client(addr, n as u64 + 1, depth, started, stop)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let elapsed = started.elapsed().as_secs_f64();
    let failed: usize = results.iter().map(|r| r.1).sum();
    let mut slow: Vec<Slow> = results.iter().flat_map(|r| r.2.iter().cloned()).collect();
    slow.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (took, at, play) in slow.iter().take(10) {
        eprintln!("slow: {took:.0} ms, sent at {at:.2} s: /api/tree?play={play}");
    }
    let mut ms: Vec<f64> = results.into_iter().flat_map(|r| r.0).collect();
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{clients} clients, {} tree requests in {elapsed:.1} s ({:.0}/s), {failed} failed: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms.len(),
        ms.len() as f64 / elapsed,
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
    server.stop();
}

/// A request slower than 100 ms: its time, when it was sent (seconds from the start), and
/// its line of moves.
type Slow = (f64, f64, String);

/// One user: walks until `stop`; returns each request's time, the failures, and the
/// requests slower than 100 ms.
fn client(
    addr: SocketAddr,
    seed: u64,
    depth: usize,
    started: Instant,
    stop: Instant,
) -> (Vec<f64>, usize, Vec<Slow>) {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut times, mut failed, mut slow) = (Vec::new(), 0, Vec::new());
    let mut conn = Connection::open(addr);
    while Instant::now() < stop {
        let mut line: Vec<String> = Vec::new();
        for _ in 0..=depth {
            // `+` (a promotion) is a space in a query string unless encoded.
            let play = line.join(",").replace('+', "%2B");
            let t = Instant::now();
            let Some(body) = conn.get(&format!("/api/tree?play={play}")) else {
                failed += 1;
                conn = Connection::open(addr);
                break;
            };
            let took = t.elapsed().as_secs_f64() * 1e3;
            // The slowest are told at the end, with when they were sent.
            if took > 100.0 {
                slow.push((took, (t - started).as_secs_f64(), play.clone()));
            }
            times.push(took);
            // Only the moves and their counts are read (into types, the rest skipped): a
            // client that built the whole answer as a JSON value cost a sixth of the
            // machine, taken from the server it measures.
            let tree: Tree = serde_json::from_str(&body).unwrap_or_default();
            let moves: Vec<(String, u64)> =
                tree.moves.into_iter().map(|m| (m.mv, m.count)).collect();
            let total: u64 = moves.iter().map(|m| m.1).sum();
            if total == 0 || Instant::now() >= stop {
                break;
            }
            let mut pick = next() % total;
            for (mv, count) in moves {
                if pick < count {
                    line.push(mv);
                    break;
                }
                pick -= count;
            }
        }
    }
    (times, failed, slow)
}

/// What a client reads of `/api/tree`'s answer.
#[derive(Default, serde::Deserialize)]
struct Tree {
    moves: Vec<TreeMove>,
}

#[derive(serde::Deserialize)]
struct TreeMove {
    #[serde(rename = "move")]
    mv: String,
    count: u64,
}

/// A kept-alive HTTP/1.1 connection.
struct Connection {
    reader: BufReader<TcpStream>,
}

impl Connection {
    fn open(addr: SocketAddr) -> Connection {
        let stream = TcpStream::connect(addr).expect("connect to the server");
        stream.set_nodelay(true).ok();
        Connection {
            reader: BufReader::new(stream),
        }
    }

    /// The body of a 200 answer to GET `path`; `None` for another status or a broken
    /// connection.
    fn get(&mut self, path: &str) -> Option<String> {
        let request = format!("GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n");
        self.reader.get_mut().write_all(request.as_bytes()).ok()?;
        let mut status = String::new();
        self.reader.read_line(&mut status).ok()?;
        let ok = status.split_whitespace().nth(1) == Some("200");
        let mut length = 0usize;
        loop {
            let mut header = String::new();
            if self.reader.read_line(&mut header).ok()? == 0 {
                return None;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((k, v)) = header.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().ok()?;
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).ok()?;
        ok.then(|| String::from_utf8_lossy(&body).into_owned())
    }
}
