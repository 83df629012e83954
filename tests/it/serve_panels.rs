//! The calls behind the explorer's panels (a player's page, the openings table, comment hits,
//! the board's picture, the filter's castle and strategy), each compared with the CLI's
//! answer on the same database. A child of `serve` (its server and helpers).

use super::{cli, enc, get, ok, request, server};
use serde_json::Value;

#[test]
fn castle_and_strategy_filter_search_as_the_cli_does() {
    for (param, flag, value) in [
        ("castle", "--castle", "美濃囲い"),
        ("strategy", "--strategy", "四間飛車"),
        ("castle", "--castle", "矢倉囲い"),
    ] {
        let v = ok(&format!("/api/search?{param}={}&limit=500", enc(value)));
        let rows = cli(&["search", flag, value, "--json", "--limit", "500"]);
        assert!(!rows.is_empty(), "{value}: no game in sample_db");
        assert_eq!(v["games"], Value::Array(rows.clone()), "{value}");
        assert_eq!(v["total"], rows.len(), "{value}");
    }
    // With the side that played it.
    let v = ok(&format!(
        "/api/search?castle={}&as=gote&limit=500",
        enc("美濃囲い")
    ));
    let rows = cli(&[
        "search",
        "--castle",
        "美濃囲い",
        "--as",
        "gote",
        "--json",
        "--limit",
        "500",
    ]);
    assert_eq!(v["games"], Value::Array(rows));
    let (status, v) = get(&format!("/api/search?castle={}", enc("金閣寺")));
    assert_eq!(status, 400, "{v}");
}

#[test]
fn openings_equal_the_cli() {
    for (query, args) in [
        ("", vec![]),
        ("by=pair", vec!["--pairs"]),
        ("by=year", vec!["--by", "year"]),
        ("since=2010", vec!["--since", "2010"]),
    ] {
        let v = ok(&format!("/api/openings?{query}"));
        let mut cmd = vec!["openings", "--json"];
        cmd.extend(args.iter().copied());
        let rows = cli(&cmd);
        assert!(!rows.is_empty(), "{query}");
        assert_eq!(v["rows"], Value::Array(rows), "{query}");
    }
    // A player's repertoire.
    let v = ok(&format!("/api/openings?player={}", enc("羽生")));
    let rows = cli(&["openings", "--player", "羽生", "--json"]);
    assert_eq!(v["rows"], Value::Array(rows));
    let (status, v) = get("/api/openings?by=month");
    assert_eq!(status, 400);
    assert_eq!(v["error"], "by=\"month\": give name, pair or year");
}

#[test]
fn a_players_page_equals_the_cli() {
    let v = ok(&format!("/api/player?name={}", enc("羽生")));
    let rows = cli(&["players", "羽生", "--json"]);
    assert_eq!(v["player"], rows[0]);
    let name = rows[0]["name"].as_str().unwrap().to_string();
    let names: Vec<Value> = rows.iter().map(|r| r["name"].clone()).collect();
    assert_eq!(v["matches"], Value::Array(names));
    // Each year's line is `players NAME --since Y --until Y`, and the years add up to the
    // player's games (every game of theirs in sample_db has a date).
    let years = v["years"].as_array().unwrap();
    assert!(years.len() >= 2, "{years:?}");
    let mut games = 0;
    for y in years {
        let year = y["year"].as_str().unwrap();
        let want = cli(&["players", &name, "--since", year, "--until", year, "--json"]);
        // The player under the spelling most of that year's games use.
        let spellings = &v["player"]["spellings"];
        let want = want
            .iter()
            .find(|r| {
                r["name"] == name.as_str() || spellings.as_array().unwrap().contains(&r["name"])
            })
            .unwrap();
        assert_eq!(&y["row"], want, "{year}");
        games += want["games"].as_u64().unwrap();
    }
    assert_eq!(v["player"]["games"], games);
    let first = &v["player"]["first_date"].as_str().unwrap()[..4];
    assert_eq!(years[0]["year"], first);
    // The repertoire.
    let openings = cli(&["openings", "--player", &name, "--json"]);
    assert_eq!(v["openings"], Value::Array(openings));
    assert!(v.get("head_to_head").is_none());

    // Head to head with their most frequent opponent.
    let games = cli(&["search", "--player", &name, "--json", "--limit", "500"]);
    let other = games
        .iter()
        .map(|g| {
            if g["sente"].as_str().unwrap_or("").contains("羽生") {
                g["gote"].as_str().unwrap_or("").to_string()
            } else {
                g["sente"].as_str().unwrap_or("").to_string()
            }
        })
        .find(|o| !o.is_empty())
        .unwrap();
    let v = ok(&format!(
        "/api/player?name={}&vs={}",
        enc(&name),
        enc(&other)
    ));
    let rows = cli(&["players", &name, "--vs", &other, "--json"]);
    assert_eq!(v["player"], rows[0]);
    let games = cli(&[
        "search", "--player", &name, "--vs", &other, "--json", "--limit", "50",
    ]);
    assert!(!games.is_empty());
    assert_eq!(v["head_to_head"]["games"], Value::Array(games.clone()));
    assert_eq!(v["head_to_head"]["total"], games.len());

    for (path, status, message) in [
        ("/api/player", 400, "give name="),
        (
            "/api/player?name=%E8%AA%B0%E3%82%82%E3%81%84%E3%81%AA%E3%81%84",
            404,
            "no player matches \"誰もいない\"",
        ),
        ("/api/player?name=a&player=b", 400, "give the player once"),
    ] {
        let (got, v) = get(path);
        assert_eq!(got, status, "{path}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains(message),
            "{path}: {v}"
        );
    }
}

#[test]
fn comment_hits_carry_their_ply_and_snippet() {
    let v = ok(&format!("/api/text?q={}&limit=50", enc("sample")));
    let hits = cli(&["text", "sample", "--json", "--limit", "50"]);
    assert_eq!(v["hits"], Value::Array(hits.clone()));
    let comment = hits
        .iter()
        .find(|h| h["field"] == "comment")
        .expect("a comment of sample_db says `kifudex sample:`");
    let ply = comment["ply"].as_i64().unwrap();
    assert!(
        comment["snippet"].as_str().unwrap().contains("[sample]"),
        "{comment}"
    );
    // The game holds that comment at that ply.
    let game = ok(&format!("/api/game/{}", comment["id"]));
    let at: Vec<&str> = game["comments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["ply"] == ply)
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert!(
        at.iter().any(|t| t.contains("sample")),
        "{at:?} at ply {ply}"
    );
}

#[test]
fn the_boards_png_is_the_clis() {
    use std::io::{Read, Write};
    if crate::picture_png::ipa_mincho().is_none() {
        return;
    }
    let id = cli(&["search", "--player", "羽生", "--json", "--limit", "1"])[0]["id"]
        .as_i64()
        .unwrap();
    let dir = crate::util::TempDb::new("serve-png");
    for ply in ["0", "17"] {
        let mut s = std::net::TcpStream::connect(server().1).unwrap();
        write!(
            s,
            "GET /api/board.png?id={id}&ply={ply} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).unwrap();
        let end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{head}");
        assert!(head.contains("content-type: image/png\r\n"), "{head}");
        let file = dir.join(format!("{ply}.png"));
        crate::util::Kifudex::new()
            .db(&server().0)
            .args(["show", &id.to_string(), "--ply", ply, "--png", "-o"])
            .args([file.as_os_str()])
            .output()
            .success();
        assert_eq!(&raw[end + 4..], std::fs::read(&file).unwrap(), "ply {ply}");
    }
    for (path, status, message) in [
        (
            format!("/api/board.png?id={id}&ply=9999"),
            400,
            "there is no ply 9999",
        ),
        (
            "/api/board.png?id=999999".to_string(),
            404,
            "no game with id 999999",
        ),
        (
            format!("/api/board.png?id={id}&size=2"),
            400,
            "unknown parameter",
        ),
    ] {
        let (got, v) = get(&path);
        assert_eq!(got, status, "{path}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains(message),
            "{path}: {v}"
        );
    }
}

#[test]
fn the_boards_picture_is_the_clis() {
    let id = cli(&["search", "--player", "羽生", "--json", "--limit", "1"])[0]["id"]
        .as_i64()
        .unwrap();
    for ply in ["0", "17", "40"] {
        let (status, body) = request(
            server().1,
            "GET",
            &format!("/api/board.svg?id={id}&ply={ply}"),
        );
        assert_eq!(status, 200, "{body}");
        let out = crate::util::Kifudex::new()
            .db(&server().0)
            .args(["show", &id.to_string(), "--ply", ply, "--svg"])
            .output()
            .success();
        assert_eq!(body, out.stdout, "ply {ply}");
    }
    // Served as an SVG image.
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(server().1).unwrap();
    write!(
        s,
        "GET /api/board.svg?id={id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let head = raw.split("\r\n\r\n").next().unwrap().to_ascii_lowercase();
    assert!(
        head.contains("content-type: image/svg+xml; charset=utf-8"),
        "{head}"
    );
    for (path, status, message) in [
        (
            format!("/api/board.svg?id={id}&ply=9999"),
            400,
            "there is no ply 9999",
        ),
        (
            "/api/board.svg?id=999999".to_string(),
            404,
            "no game with id 999999",
        ),
        ("/api/board.svg".to_string(), 400, "give id="),
    ] {
        let (got, v) = get(&path);
        assert_eq!(got, status, "{path}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains(message),
            "{path}: {v}"
        );
    }
}

/// Once the server holds the games' facts, the panels count from memory: the same answers
/// as the CLI's reading of the database, under filters other than dates.
#[test]
fn panels_counted_from_the_facts_equal_the_cli() {
    use kifudex::serve::{ServeOptions, start};
    let db = &super::server().0;
    let mut opts = ServeOptions::new(db, "127.0.0.1:0".parse().unwrap());
    // Nothing kept: every answer below is counted.
    opts.cache_bytes = 0;
    let running = start(&opts).unwrap();
    // Read by a thread of their own; a generous bound, not a measure of speed.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !running.facts_ready() {
        assert!(
            std::time::Instant::now() < deadline,
            "the facts were never read"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let addr = running.addr();
    for (query, args) in [
        ("winner=sente", vec!["--winner", "sente"]),
        ("event=竜王&by=pair", vec!["--event", "竜王", "--pairs"]),
        (
            "castle=美濃囲い&by=year",
            vec!["--castle", "美濃囲い", "--by", "year"],
        ),
        (
            "player=羽生&min_plies=80",
            vec!["--player", "羽生", "--min-plies", "80"],
        ),
        (
            "opening=振り飛車&terminal=resign",
            vec!["--opening", "振り飛車", "--terminal", "resign"],
        ),
    ] {
        let path = format!(
            "/api/openings?{}",
            query
                .split('&')
                .map(|kv| {
                    let (k, v) = kv.split_once('=').unwrap();
                    format!("{k}={}", enc(v))
                })
                .collect::<Vec<_>>()
                .join("&")
        );
        let (status, body) = super::request(addr, "GET", &path);
        assert_eq!(status, 200, "{query}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let mut cmd = vec!["openings", "--json"];
        cmd.extend(args.iter().copied());
        let rows = cli(&cmd);
        assert!(!rows.is_empty(), "{query}");
        assert_eq!(v["rows"], Value::Array(rows), "{query}");
    }
    running.stop();
}
