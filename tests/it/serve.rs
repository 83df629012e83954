//! `kifudex serve`: real HTTP requests on a loopback port, every endpoint's answer compared
//! with the CLI's `--json` answer on the same database, bad requests, parallel clients.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::util::{Kifudex, TempDb};
use kifudex::serve::{Running, ServeOptions, start};
use serde_json::Value;

/// The sample collection imported once for every test of this module, and a server on it.
fn server() -> &'static (PathBuf, SocketAddr) {
    static SERVER: OnceLock<(PathBuf, SocketAddr)> = OnceLock::new();
    SERVER.get_or_init(|| {
        let dir = TempDb::new("serve");
        let db = dir.join("db");
        let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample_db");
        let out = Kifudex::new()
            .db(&db)
            .args(&["import", sample.to_str().unwrap()])
            .output();
        assert!(out.status.success(), "{out:?}");
        let running: Running = start(&ServeOptions::new(&db, "127.0.0.1:0".parse().unwrap()))
            .expect("the server starts");
        let addr = running.addr();
        // The server lives as long as the test binary.
        std::mem::forget(running);
        // And so does its directory.
        std::mem::forget(dir);
        (db, addr)
    })
}

/// `%XX` for every byte but the unreserved ones.
pub(crate) fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b',' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// One HTTP/1.1 request; the status and the body.
pub(crate) fn request(addr: SocketAddr, method: &str, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8(raw).expect("UTF-8 answer");
    let (head, body) = text.split_once("\r\n\r\n").expect("a header and a body");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

fn get(path: &str) -> (u16, Value) {
    let (status, body) = request(server().1, "GET", path);
    let v = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    (status, v)
}

fn ok(path: &str) -> Value {
    let (status, v) = get(path);
    assert_eq!(status, 200, "{path}: {v}");
    v
}

fn cli(args: &[&str]) -> Vec<Value> {
    let out = Kifudex::new().db(&server().0).args(args).output();
    assert!(out.status.success(), "{args:?}: {out:?}");
    out.json_lines()
}

#[test]
fn tree_equals_the_cli() {
    for (play, pos) in [
        ("", "startpos"),
        ("7g7f", "startpos moves 7g7f"),
        ("7g7f,3c3d", "startpos moves 7g7f 3c3d"),
        ("2g2f,8c8d", "startpos moves 2g2f 8c8d"),
    ] {
        let v = ok(&format!("/api/tree?play={play}&reached=1"));
        let rows: Vec<Value> = cli(&["tree", pos, "--json"])
            .into_iter()
            .filter(|r| r.get("move").is_some())
            .collect();
        assert_eq!(v["moves"], Value::Array(rows.clone()), "{pos}");
        // Without `reached=1`, the same rows without the transpositions' count.
        let plain = ok(&format!("/api/tree?play={play}"));
        let mut without: Vec<Value> = rows.clone();
        for r in &mut without {
            r.as_object_mut().unwrap().remove("reached");
        }
        assert_eq!(plain["moves"], Value::Array(without), "{pos}");
        let hits = cli(&["position", pos, "--json", "--limit", "20"]);
        let total = hits.last().unwrap()["total"].clone();
        assert_eq!(v["games"], total, "{pos}");
        assert_eq!(
            v["recent_games"],
            Value::Array(hits[..hits.len() - 1].to_vec()),
            "{pos}"
        );
        let sum = |k: &str| rows.iter().map(|r| r[k].as_u64().unwrap()).sum::<u64>();
        assert_eq!(v["sente_wins"], sum("sente_wins"));
        assert_eq!(v["gote_wins"], sum("gote_wins"));
        assert_eq!(v["draws"], sum("draws"));
    }
}

#[test]
fn tree_gives_the_position_its_legal_moves_and_the_line() {
    let v = ok("/api/tree?play=7g7f,3c3d,8h2b%2B&at=2");
    assert_eq!(
        v["sfen"],
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    );
    assert_eq!(v["side"], "sente");
    assert_eq!(v["at"], 2);
    assert_eq!(v["last_move"], "3c3d");
    assert_eq!(
        v["line"],
        serde_json::json!(["☗７六歩", "☖３四歩", "☗２二角成"])
    );
    // 30 legal moves for sente here, as the move generator counts them.
    let legal = v["legal"].as_array().unwrap();
    let pos = kifudex::shogi::Position::from_sfen(v["sfen"].as_str().unwrap()).unwrap();
    assert_eq!(legal.len(), pos.legal_moves().len());
    assert!(legal.contains(&Value::from("8h2b+")));
    assert!(legal.contains(&Value::from("8h2b")));
}

#[test]
fn position_and_search_equal_the_cli() {
    let v = ok("/api/position?sfen=startpos&play=7g7f,3c3d&limit=5");
    let hits = cli(&[
        "position",
        "startpos moves 7g7f 3c3d",
        "--json",
        "--limit",
        "5",
    ]);
    assert_eq!(v["games"], Value::Array(hits[..hits.len() - 1].to_vec()));
    assert_eq!(v["total"], hits.last().unwrap()["total"]);

    let v = ok(&format!("/api/search?player={}&limit=3", enc("羽生")));
    let rows = cli(&["search", "--player", "羽生", "--json", "--limit", "3"]);
    assert_eq!(v["games"], Value::Array(rows));
    let all = cli(&["search", "--player", "羽生", "--json", "--limit", "1000"]);
    assert_eq!(v["total"], all.len());

    let v = ok(&format!("/api/text?q={}&limit=5", enc("矢倉")));
    let hits = cli(&["text", "矢倉", "--json", "--limit", "5"]);
    assert!(!hits.is_empty());
    assert_eq!(v["hits"], Value::Array(hits));

    // The game filter narrows the text search, as parameters or inside q.
    let all = cli(&["text", "矢倉", "--json", "--limit", "1000"]);
    let hits = cli(&[
        "text", "矢倉", "--player", "羽生", "--json", "--limit", "500",
    ]);
    assert!(
        !hits.is_empty() && hits.len() < all.len(),
        "{} of {}",
        hits.len(),
        all.len()
    );
    let v = ok(&format!(
        "/api/text?q={}&player={}&limit=500",
        enc("矢倉"),
        enc("羽生")
    ));
    assert_eq!(v["hits"], Value::Array(hits.clone()));
    let v = ok(&format!(
        "/api/text?q={}&limit=500",
        enc("矢倉 player:羽生")
    ));
    assert_eq!(v["hits"], Value::Array(hits));
    let hits = cli(&[
        "text", "矢倉", "--since", "2015", "--as", "gote", "--player", "羽生", "--json",
    ]);
    let v = ok(&format!(
        "/api/text?q={}&since=2015&as=gote&player={}",
        enc("矢倉"),
        enc("羽生")
    ));
    assert_eq!(v["hits"], Value::Array(hits));
}

#[test]
fn find_equals_the_cli() {
    let q = "▲美濃囲い and 持駒 ▲歩 >= 1";
    let v = ok(&format!("/api/find?q={}&all=1&limit=5", enc(q)));
    let rows = cli(&["find", q, "--all", "--json", "--limit", "5"]);
    assert!(rows.len() > 1, "{rows:?}");
    assert_eq!(v["games"], Value::Array(rows[..rows.len() - 1].to_vec()));
    assert_eq!(v["total"], rows.last().unwrap()["total"]);
    assert_eq!(v["positions"], rows.last().unwrap()["positions"]);
    // With the filter, and --like.
    let v = ok(&format!("/api/find?q={}&since=2015", enc("last 王手")));
    let rows = cli(&["find", "last 王手", "--since", "2015", "--json"]);
    assert_eq!(v["games"], Value::Array(rows[..rows.len() - 1].to_vec()));
    let pos = "startpos moves 7g7f 3c3d 2g2f";
    let v = ok(&format!("/api/find?like={}&diff=2&limit=3", enc(pos)));
    let rows = cli(&[
        "find", "--like", pos, "--diff", "2", "--json", "--limit", "3",
    ]);
    assert_eq!(v["games"], Value::Array(rows[..rows.len() - 1].to_vec()));
    assert_eq!(v["total"], rows.last().unwrap()["total"]);
    // A query that cannot be read is a bad request that says where.
    let (status, v) = get(&format!("/api/find?q={}", enc("▲９九玊")));
    assert_eq!(status, 400);
    assert_eq!(
        v["error"],
        "cannot read the query: column 4: expected a piece (歩 香 桂 銀 金 角 飛 玉 と 馬 龍 駒 空, or pawn, king …), found \"玊\""
    );
    let (status, v) = get("/api/find?limit=3");
    assert_eq!(status, 400);
    assert_eq!(
        v["error"],
        "give q= (a query) or like= (a position), one of them"
    );
}

#[test]
fn a_game_with_its_positions() {
    let id = cli(&["search", "--player", "羽生", "--json", "--limit", "1"])[0]["id"]
        .as_i64()
        .unwrap();
    let v = ok(&format!("/api/game/{id}"));
    let plies = v["plies"].as_u64().unwrap() as usize;
    assert_eq!(v["moves"].as_array().unwrap().len(), plies);
    assert_eq!(v["positions"].as_array().unwrap().len(), plies + 1);
    // The last position is the board `show --board` prints.
    let out = Kifudex::new()
        .db(&server().0)
        .args(&["show", &id.to_string(), "--board"])
        .output();
    let shown = out.stdout;
    let sfen = shown
        .lines()
        .find_map(|l| l.strip_prefix("# sfen "))
        .unwrap();
    assert_eq!(v["positions"][plies], sfen);
    // The moves are the record's main line.
    let usi = Kifudex::new()
        .db(&server().0)
        .args(&["show", &id.to_string(), "--to", "usi"])
        .output();
    let usi = usi.stdout;
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["usi"].as_str().unwrap())
        .collect();
    assert!(usi.contains(&moves.join(" ")), "{usi}");
}

#[test]
fn bad_requests_get_a_json_error_and_the_right_status() {
    let cases: &[(&str, u16, &str)] = &[
        (
            "/api/tree?play=7g7e",
            400,
            "play: move 1 (7g7e) is not legal in its position",
        ),
        (
            "/api/tree?play=7g7f,zz",
            400,
            "play: move 2 (zz) is no USI move",
        ),
        ("/api/tree?sfen=xyz", 400, "cannot read the position"),
        ("/api/tree?colour=red", 400, "unknown parameter \"colour\""),
        (
            "/api/position?limit=100000",
            400,
            "limit=\"100000\": give a number from 1 to 500",
        ),
        (
            "/api/tree?play=7g7f&at=5",
            400,
            "at=5, but play holds 1 moves",
        ),
        (
            "/api/search?min_plies=-3",
            400,
            "min_plies=\"-3\" is no number of moves",
        ),
        (
            "/api/search?player=%E3",
            400,
            "the query string is not UTF-8",
        ),
        ("/api/search?player=%zz", 400, "a bad %-escape"),
        ("/api/game/999999", 404, "no game with id 999999"),
        ("/api/game/abc", 400, "\"abc\" is no game id"),
        ("/api/nothing", 404, "no API call /api/nothing"),
        ("/nothing.html", 404, "no page /nothing.html"),
        ("/api/text", 400, "give q="),
        (
            "/api/text?q=player:x",
            400,
            "the text query holds no words to look for",
        ),
        ("/api/text?q=a&colour=red", 400, "colour"),
    ];
    for &(path, status, message) in cases {
        let (got, v) = get(path);
        assert_eq!(got, status, "{path}: {v}");
        let e = v["error"].as_str().unwrap_or_else(|| panic!("{path}: {v}"));
        assert!(e.contains(message), "{path}: {e:?} lacks {message:?}");
    }
    let (status, body) = request(server().1, "POST", "/api/tree");
    assert_eq!(status, 405, "{body}");
}

#[test]
fn the_page_is_served_from_the_binary() {
    for (path, needle) in [
        ("/", "<script src=\"/app.js\">"),
        ("/app.js", "function drawBoard"),
        ("/style.css", ".bar"),
    ] {
        let (status, body) = request(server().1, "GET", path);
        assert_eq!(status, 200, "{path}");
        assert!(body.contains(needle), "{path}");
        // Nothing from outside: no address of another host in the page's files.
        assert!(!body.contains("https://"), "{path} refers to another host");
    }
}

#[test]
fn fifty_clients_in_parallel_are_all_answered() {
    let want = ok("/api/tree?play=7g7f");
    let answers: Vec<(u16, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..50)
            .map(|i| {
                s.spawn(move || {
                    let path = if i % 2 == 0 {
                        "/api/tree?play=7g7f"
                    } else {
                        "/api/game/1"
                    };
                    request(server().1, "GET", path)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (i, (status, body)) in answers.iter().enumerate() {
        assert_eq!(*status, 200, "client {i}: {body}");
        if i % 2 == 0 {
            assert_eq!(serde_json::from_str::<Value>(body).unwrap(), want);
        }
    }
}

#[test]
fn a_full_queue_is_answered_busy_not_held() {
    // One worker, a queue of one: a burst of requests gets 200s and 503s, and every
    // connection is answered.
    let (db, _) = server();
    let mut opts = ServeOptions::new(db, "127.0.0.1:0".parse().unwrap());
    opts.workers = 1;
    opts.queue = 1;
    let running = start(&opts).unwrap();
    let addr = running.addr();
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..30)
            .map(|_| s.spawn(move || request(addr, "GET", "/api/tree?play=7g7f").0))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(statuses.len(), 30);
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 503),
        "{statuses:?}"
    );
    assert!(statuses.contains(&200));
    running.stop();
}

#[test]
fn the_filter_narrows_tree_and_games_as_the_cli_does() {
    // Every game whose text matches, as `text` finds them, is what `--text` selects.
    let hits = cli(&["text", "矢倉", "--json", "--limit", "100000"]);
    let mut want: Vec<i64> = hits.iter().map(|h| h["id"].as_i64().unwrap()).collect();
    want.sort_unstable();
    want.dedup();
    let rows = cli(&["search", "--text", "矢倉", "--json", "--limit", "100000"]);
    let mut got: Vec<i64> = rows
        .iter()
        .filter_map(|r| r.get("id").and_then(Value::as_i64))
        .collect();
    got.sort_unstable();
    assert!(want.len() > 3, "{want:?}");
    assert_eq!(got, want);
    for (query, args) in [
        (format!("text={}", enc("矢倉")), vec!["--text", "矢倉"]),
        (
            format!("player={}&since=2010", enc("羽生")),
            vec!["--player", "羽生", "--since", "2010"],
        ),
        (
            "winner=gote&min_plies=80".to_string(),
            vec!["--winner", "gote", "--min-plies", "80"],
        ),
    ] {
        let v = ok(&format!("/api/tree?play=7g7f&reached=1&{query}"));
        let mut cmd = vec!["tree", "startpos moves 7g7f", "--json"];
        cmd.extend(args.iter().copied());
        let rows: Vec<Value> = cli(&cmd)
            .into_iter()
            .filter(|r| r.get("move").is_some())
            .collect();
        assert_eq!(v["moves"], Value::Array(rows), "{query}");
        let mut cmd = vec!["position", "startpos moves 7g7f", "--json", "--limit", "20"];
        cmd.extend(args.iter().copied());
        let hits = cli(&cmd);
        assert_eq!(
            v["recent_games"],
            Value::Array(hits[..hits.len() - 1].to_vec()),
            "{query}"
        );
    }
}

#[test]
fn players_equal_the_cli() {
    let v = ok(&format!("/api/players?name={}", enc("羽生")));
    let rows = cli(&["players", "羽生", "--json"]);
    let rows: Vec<Value> = rows
        .into_iter()
        .filter(|r| r.get("name").is_some())
        .collect();
    assert!(!rows.is_empty());
    assert_eq!(v["players"], Value::Array(rows.clone()));
    assert_eq!(v["total"], rows.len());
    let v = ok("/api/players?limit=3&since=2020");
    assert_eq!(v["players"].as_array().unwrap().len(), 3);
    let all = cli(&["players", "--since", "2020", "--json"]);
    assert_eq!(v["players"][0], all[0]);
}

/// `serve --open` hands the page's address (with the port the server got) to the desktop's
/// opener once it listens; the page is served there. A fake `xdg-open` on the PATH records
/// what it was given. Without an opener the server warns and keeps serving.
#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn open_hands_the_page_address_to_the_desktop() {
    use std::os::unix::fs::PermissionsExt;
    use std::process::Stdio;

    let db = server().0.clone();
    let bin = TempDb::new("serve-open");
    std::fs::create_dir_all(&bin).unwrap();
    let seen = bin.join("seen");
    let opener = bin.join("xdg-open");
    std::fs::write(
        &opener,
        format!(
            "#!/bin/sh\necho \"$1\" > '{}.tmp'\nmv '{0}.tmp' '{0}'\n",
            seen.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = |path: String| {
        Kifudex::new()
            .db(&db)
            .args(["serve", "--port", "0", "--open"])
            .env("PATH", path)
            .command()
            .stderr(Stdio::piped())
            .spawn()
            .expect("start kifudex serve")
    };
    let mut child = run(format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    ));
    // Wait for the opener to have run (the server opens it once it listens).
    let mut url = None;
    for _ in 0..600 {
        if let Ok(text) = std::fs::read_to_string(&seen) {
            url = Some(text.trim().to_string());
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let url = url.expect("the opener was called");
    let addr: SocketAddr = url
        .strip_prefix("http://")
        .and_then(|u| u.strip_suffix('/'))
        .expect("http://ADDR/")
        .parse()
        .expect("an address");
    assert!(addr.ip().is_loopback(), "{url}");
    let (status, body) = request(addr, "GET", "/");
    assert_eq!(status, 200);
    assert!(body.contains("<html"), "{body}");
    child.kill().unwrap();
    child.wait().unwrap();

    // No opener at all: a warning, and the page is served all the same.
    let mut child = run(bin.join("none").display().to_string());
    let mut err = child.stderr.take().unwrap();
    let mut text = String::new();
    let mut buf = [0u8; 256];
    let mut served = None;
    while !text.contains("open it yourself") {
        let n = err.read(&mut buf).unwrap();
        assert!(n > 0, "kifudex serve stopped: {text}");
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
        if served.is_none()
            && let Some(at) = text.find("http://")
        {
            let rest = &text[at + 7..];
            served = rest
                .find('/')
                .and_then(|end| rest[..end].parse::<SocketAddr>().ok());
        }
    }
    assert!(
        text.contains("kifudex: warning: cannot open a browser on http://"),
        "{text}"
    );
    let (status, _) = request(served.expect("the address printed"), "GET", "/");
    assert_eq!(status, 200);
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Connections opened together and kept alive are all answered while all stay open: none
/// waits for another to close. (tiny_http's thread pool lost a wake-up when connections came
/// in a burst: the connection it lost was read only once another closed, which under kept-alive
/// clients, a browser's, could be never.)
#[test]
fn kept_alive_connections_opened_together_are_all_answered() {
    use std::io::{BufRead, BufReader};
    let (db, _) = server();
    let running = start(&ServeOptions::new(db, "127.0.0.1:0".parse().unwrap())).unwrap();
    let addr = running.addr();
    for _round in 0..3 {
        let streams: Vec<TcpStream> = (0..32).map(|_| TcpStream::connect(addr).unwrap()).collect();
        let barrier = std::sync::Barrier::new(streams.len());
        let statuses: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = streams
                .into_iter()
                .map(|mut stream| {
                    let barrier = &barrier;
                    s.spawn(move || {
                        stream
                            .set_read_timeout(Some(std::time::Duration::from_secs(20)))
                            .unwrap();
                        write!(
                            stream,
                            "GET /api/tree?play=7g7f HTTP/1.1\r\nHost: t\r\n\r\n"
                        )
                        .unwrap();
                        let mut reader = BufReader::new(stream.try_clone().unwrap());
                        let mut status = String::new();
                        let got = reader
                            .read_line(&mut status)
                            .map(|_| status.trim().to_string());
                        // Every connection stays open until all have their answer.
                        barrier.wait();
                        got.unwrap_or_else(|e| format!("no answer: {e}"))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(
            statuses.iter().all(|s| s == "HTTP/1.1 200 OK"),
            "{statuses:?}"
        );
    }
    running.stop();
}

/// The server's HTTP: requests sent together on one connection are answered in order; HEAD
/// has no body; what is not HTTP gets 400 and a closed connection; a head over 16 KB gets 431.
#[test]
fn http_on_one_connection_pipelined_head_and_bad_requests() {
    let addr = server().1;
    let exchange = |bytes: &[u8]| -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(20)))
            .unwrap();
        s.write_all(bytes).unwrap();
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        String::from_utf8_lossy(&raw).into_owned()
    };
    let two = exchange(
        b"GET /api/tree?play=7g7f HTTP/1.1\r\nHost: t\r\n\r\nHEAD /style.css HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
    );
    let answers: Vec<&str> = two.matches("HTTP/1.1 ").collect();
    assert_eq!(answers.len(), 2, "{two}");
    assert!(two.starts_with("HTTP/1.1 200 OK\r\n"), "{two}");
    let (first, second) = two.split_at(two.rfind("HTTP/1.1 200 OK").unwrap());
    assert!(first.contains("\"moves\""), "{first}");
    assert!(second.contains("Content-Type: text/css"), "{second}");
    assert!(second.ends_with("\r\n\r\n"), "HEAD has no body: {second:?}");

    let bad = exchange(b"HELLO\r\n\r\nGET / HTTP/1.1\r\n\r\n");
    assert!(bad.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{bad}");
    assert_eq!(
        bad.matches("HTTP/1.1 ").count(),
        1,
        "closed after the 400: {bad}"
    );

    let mut long = b"GET / HTTP/1.1\r\n".to_vec();
    for i in 0..2000 {
        long.extend_from_slice(format!("X-Filler-{i}: abcdef\r\n").as_bytes());
    }
    long.extend_from_slice(b"\r\n");
    let answer = exchange(&long);
    assert!(answer.starts_with("HTTP/1.1 431 "), "{answer}");
}

/// The server answers from what the database holds when the request comes: games an import
/// adds while it runs are counted by the next answer (no answer kept from before), and so are
/// those a removal takes out (a removal gives pages back, which may shrink the file under the
/// workers' mapping of it).
#[test]
fn answers_follow_imports_and_removals_made_while_serving() {
    let dir = TempDb::new("serve-live");
    let db = dir.join("db");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    let run = |args: &[&str]| {
        let out = Kifudex::new().db(&db).args(args).output();
        assert!(out.status.success(), "{args:?}: {out:?}");
    };
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample_db");
    run(&["import", sample.to_str().unwrap()]);
    let running = start(&ServeOptions::new(&db, "127.0.0.1:0".parse().unwrap())).unwrap();
    let addr = running.addr();
    let games = |play: &str| -> u64 {
        let (status, body) = request(addr, "GET", &format!("/api/tree?play={play}"));
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        v["games"].as_u64().unwrap()
    };
    let at_start = games("");
    let after_7g7f = games("7g7f");
    assert!(at_start > 0 && after_7g7f > 0);
    // Twelve new games (all different: the same game twice is stored once), all opening
    // 7g7f, imported while the server runs.
    let mut text = String::new();
    for reply in ["3c3d", "8c8d", "5c5d"] {
        for then in ["4c4d", "6c6d", "1c1d", "9c9d"] {
            text.push_str(&format!("startpos moves 7g7f {reply} 2g2f {then}\n"));
        }
    }
    std::fs::write(files.join("new.usi"), &text).unwrap();
    run(&["import", files.to_str().unwrap()]);
    assert_eq!(games(""), at_start + 12);
    assert_eq!(games("7g7f"), after_7g7f + 12);
    // Every game removed, then answered.
    run(&["remove", "--all"]);
    assert_eq!(games(""), 0);
    assert_eq!(games("7g7f"), 0);
    // The file changed is read again, whole (an unchanged one stays removed).
    text.push_str("startpos moves 2g2f\n");
    std::fs::write(files.join("new.usi"), &text).unwrap();
    run(&["import", files.to_str().unwrap()]);
    assert_eq!(games(""), 13);
    assert_eq!(games("7g7f"), 12);
    running.stop();
}

#[path = "serve_panels.rs"]
mod panels;
