//! Every field of the filter's one declaration (`kifudex::query::FIELDS`) through each entry
//! point: the CLI's flag, the API's parameter, and the text query's `key:value` where the
//! field may stand there. For each field the three must select the same games, and the
//! selection must be neither empty nor every game (the field is read, not ignored).
//!
//! The value tried for a field comes from an exhaustive match on `Field`: a new field does
//! not compile here until it has one.

use std::collections::BTreeSet;
use std::path::Path;

use crate::util::{Kifudex, TempDb};
use kifudex::query::{FIELDS, Field};
use kifudex::serve::{ServeOptions, start};
use serde_json::Value;

/// The fields a field needs beside it, and its own value (sample_db and the evaluated
/// games of `evals_db::write_games`).
fn value_for(field: Field) -> (Vec<(Field, &'static str)>, &'static str) {
    match field {
        Field::Player => (vec![], "羽生"),
        Field::As => (vec![(Field::Player, "羽生")], "gote"),
        Field::Sente => (vec![], "藤井"),
        Field::Gote => (vec![], "羽生"),
        Field::Vs => (vec![(Field::Player, "伊藤印達")], "六代大橋宗銀"),
        Field::Event => (vec![], "竜王"),
        Field::Opening => (vec![], "振り飛車"),
        Field::OpeningFrom => (vec![(Field::Opening, "矢倉")], "header"),
        Field::Castle => (vec![], "美濃囲い"),
        Field::Strategy => (vec![], "四間飛車"),
        Field::Since => (vec![], "2015"),
        Field::Until => (vec![], "2000"),
        Field::Winner => (vec![], "draw"),
        Field::Handicap => (vec![], "香落ち"),
        Field::MinPlies => (vec![], "150"),
        Field::MaxPlies => (vec![], "60"),
        Field::Terminal => (vec![], "千日手"),
        Field::Source => (vec![], "*/csa/*"),
        Field::Text => (vec![], "羽生"),
        Field::Evaluated => (vec![], "yes"),
        Field::Swing => (vec![], "300"),
        Field::EvalAt => (vec![], "8:0.."),
    }
}

fn def(field: Field) -> &'static kifudex::query::FieldDef {
    FIELDS.iter().find(|d| d.field == field).unwrap()
}

/// `%XX` for every byte but the unreserved ones.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn http_get(addr: std::net::SocketAddr, path: &str) -> (u16, Value) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8(raw).expect("UTF-8 answer");
    let (head, body) = text.split_once("\r\n\r\n").expect("a header and a body");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let v = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    (status, v)
}

fn ids(rows: &[Value]) -> BTreeSet<i64> {
    rows.iter().map(|r| r["id"].as_i64().unwrap()).collect()
}

#[test]
fn every_filter_field_selects_alike_through_the_cli_the_api_and_a_text_query() {
    let dir = TempDb::new("filter-fields");
    let db = dir.join("db");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample_db");
    let evaluated = dir.join("evaluated");
    crate::evals_db::write_games(&evaluated, 30, 5);
    for from in [sample.as_path(), evaluated.as_path()] {
        Kifudex::new()
            .db(&db)
            .args(&["import", from.to_str().unwrap()])
            .output()
            .success();
    }
    let cli = |args: &[&str]| -> Vec<Value> {
        Kifudex::new()
            .db(&db)
            .args(args)
            .output()
            .success()
            .json_lines()
    };
    let every = ids(&cli(&["search", "--json", "--limit", "100000"]));
    // Text queries need a term of their own: `*`, which every game's document holds.
    let text_all = ids(&cli(&["text", "*", "--json", "--limit", "100000"]));
    assert_eq!(text_all, every);
    let running =
        start(&ServeOptions::new(&db, "127.0.0.1:0".parse().unwrap())).expect("the server starts");
    let addr = running.addr();
    let mut in_text = 0;
    for d in FIELDS {
        let (with, value) = value_for(d.field);
        let mut pairs: Vec<(&kifudex::query::FieldDef, &str)> =
            with.iter().map(|&(f, v)| (def(f), v)).collect();
        pairs.push((d, value));
        let what = format!("--{} {value}", d.flag);

        // The CLI.
        let mut args: Vec<String> = vec!["search".into()];
        for (f, v) in &pairs {
            args.push(format!("--{}", f.flag));
            args.push(v.to_string());
        }
        args.extend(["--json", "--limit", "500"].map(String::from));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let rows = cli(&args);
        let got = ids(&rows);
        assert!(!got.is_empty(), "{what}: no game");
        assert!(got.len() < every.len(), "{what}: every game");

        // The API: the very rows.
        let query: Vec<String> = pairs
            .iter()
            .map(|(f, v)| format!("{}={}", f.param, enc(v)))
            .collect();
        let (status, v) = http_get(addr, &format!("/api/search?{}&limit=500", query.join("&")));
        assert_eq!(status, 200, "{what}: {v}");
        assert_eq!(v["games"], Value::Array(rows.clone()), "{what}: the API");
        assert_eq!(v["total"], rows.len(), "{what}: the API's total");

        // A text query, where every field of the pair may stand in one.
        if pairs.iter().all(|(f, _)| f.in_text) {
            in_text += 1;
            let mut q = String::from("*");
            for (f, v) in &pairs {
                q.push_str(&format!(" {}:\"{v}\"", f.flag));
            }
            let hits = ids(&cli(&["text", &q, "--json", "--limit", "100000"]));
            let want: BTreeSet<i64> = got.intersection(&text_all).copied().collect();
            assert_eq!(hits, want, "{what}: the text query {q}");
        }
    }
    // Most fields can stand in a text query.
    assert!(in_text >= 15, "{in_text}");
    running.stop();
}
