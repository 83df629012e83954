//! The contracts users and scripts rely on: the `parse` object (docs/formats.md) (every field,
//! golden), and the README's examples on `sample_db/` (its import figures, and every query
//! it shows, which must print exactly what the README pastes).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::util::{Kifudex, TempDb};

/// The fields the `parse` object has for a game (`positions` only with `--positions`).
const FIELDS: [&str; 23] = [
    "file",
    "game_index",
    "format",
    "encoding",
    "headers",
    "sente",
    "gote",
    "event",
    "opening",
    "start_time",
    "handicap",
    "start_sfen",
    "moves",
    "terminal",
    "winner",
    "variations",
    "comments",
    "illegal",
    "recognised",
    "evals",
    "errors",
    "warnings",
    "error",
];

const GAME: &str = "開始日時：2024/03/09 10:00
棋戦：テスト棋戦
戦型：四間飛車
先手：先手太郎
後手：後手花子
手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:05/00:00:05)
*角道を開ける
   2 ３四歩(33)   ( 0:03/00:00:03)
   3 ６八飛(28)   ( 0:10/00:00:15)
   4 投了         ( 0:01/00:00:04)
まで3手で先手の勝ち

変化：3手
   3 ２六歩(27)   ( 0:02/00:00:07)
";

/// A two-pawn drop kept as data (ply 8), then a move that cannot be played (line 13).
const BROKEN: &str = "先手：甲
後手：乙
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ７五歩(76)
   4 ３五歩(34)
   5 ７四歩(75)
   6 同　歩(73)
   7 ４八銀(39)
   8 ３四歩打
   9 ２六歩(27)
  10 ５九金(61)
";

fn parse(dir: &Path, name: &str, text: &str, positions: bool) -> (i32, Value) {
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let mut args = vec!["parse".to_string()];
    if positions {
        args.push("--positions".into());
    }
    args.push(file.display().to_string());
    let run = Kifudex::new().args(&args).output();
    let mut games = run.json_lines();
    assert_eq!(games.len(), 1, "{}", run.stdout);
    (run.code(), games.remove(0))
}

/// The object restricted to the fixed fields (more are welcome), each of which must be there.
fn contract(game: &Value, fields: &[&str]) -> Value {
    let object = game.as_object().expect("an object");
    let mut out = serde_json::Map::new();
    for f in fields {
        let v = object
            .get(*f)
            .unwrap_or_else(|| panic!("field {f} missing from {game}"));
        out.insert(f.to_string(), v.clone());
    }
    Value::Object(out)
}

#[test]
fn parse_prints_every_field_of_the_contract() {
    let dir = TempDb::new("contract-parse");
    let (code, game) = parse(&dir, "g.kif", GAME, true);
    assert_eq!(code, 0);
    let file = dir.join("g.kif").display().to_string();
    let mut fields = FIELDS.to_vec();
    fields.push("positions");
    assert_eq!(
        contract(&game, &fields),
        json!({
            "file": file,
            "game_index": 0,
            "format": "kif",
            "encoding": "utf-8",
            "headers": {
                "開始日時": "2024/03/09 10:00",
                "棋戦": "テスト棋戦",
                "戦型": "四間飛車",
                "先手": "先手太郎",
                "後手": "後手花子",
                "手合割": "平手"
            },
            "sente": "先手太郎",
            "gote": "後手花子",
            "event": "テスト棋戦",
            "opening": "四間飛車",
            "start_time": "2024/03/09 10:00",
            "handicap": "平手",
            "start_sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "moves": ["7g7f", "3c3d", "2h6h"],
            "positions": [
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
                "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
                "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B1R5/LNSGKGSNL w - 4"
            ],
            "terminal": "resign",
            "winner": "sente",
            "variations": 1,
            "comments": 1,
            "illegal": null,
            "recognised": {
                "opening": "四間飛車",
                "reason": "四間飛車: sente's rook to ６八 at ply 3; gote stays static rook",
                "sente": [
                    {"kind": "strategy", "name": "角道オープン四間飛車", "ply": 3, "move": "2h6h", "move_japanese": "☗６八飛"},
                    {"kind": "strategy", "name": "先手四間飛車", "ply": 3, "move": "2h6h", "move_japanese": "☗６八飛"},
                    {"kind": "strategy", "name": "四間飛車", "ply": 3, "move": "2h6h", "move_japanese": "☗６八飛"},
                    {"kind": "strategy", "name": "振り飛車", "ply": 3, "move": "2h6h", "move_japanese": "☗６八飛"}
                ],
                "gote": []
            },
            "evals": [],
            "errors": [],
            "warnings": [],
            "error": null
        })
    );
    // Without --positions there are none.
    let (_, game) = parse(&dir, "g.kif", GAME, false);
    assert!(game.get("positions").is_none(), "{game}");
}

#[test]
fn parse_reports_a_broken_rule_and_an_error_with_line_and_column() {
    let dir = TempDb::new("contract-broken");
    let (code, game) = parse(&dir, "h.kif", BROKEN, false);
    assert_eq!(
        code, 1,
        "a file read with errors fails (its record is printed all the same)"
    );
    let file = dir.join("h.kif").display().to_string();
    assert_eq!(
        contract(&game, &FIELDS),
        json!({
            "file": file,
            "game_index": 0,
            "format": "kif",
            "encoding": "utf-8",
            "headers": {"先手": "甲", "後手": "乙"},
            "sente": "甲",
            "gote": "乙",
            "event": null,
            "opening": null,
            "start_time": null,
            "handicap": "平手",
            "start_sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "moves": ["7g7f", "3c3d", "7f7e", "3d3e", "7e7d", "7c7d", "3i4h", "P*3d", "2g2f"],
            "terminal": null,
            "winner": null,
            "variations": 0,
            "comments": 0,
            "illegal": {"ply": 8, "rule": "two_pawns"},
            "recognised": {
                "opening": "その他の戦型",
                "reason": "その他の戦型: 9 plies, too few to name an opening",
                "sente": [],
                "gote": []
            },
            "evals": [],
            "errors": [{
                "line": 13,
                "column": 6,
                "message": "move 10: ５九金(61) cannot be played: the move would capture the king on 5i"
            }],
            "warnings": [],
            "error": null
        })
    );
}

#[test]
fn parse_says_why_a_file_could_not_be_read_at_all() {
    let dir = TempDb::new("contract-empty");
    let (code, game) = parse(&dir, "empty.kif", "", false);
    assert_eq!(code, 1);
    let file = dir.join("empty.kif").display().to_string();
    assert_eq!(
        game,
        json!({
            "file": file,
            "game_index": 0,
            "format": "kif",
            "encoding": "utf-8",
            "error": "no game in this file"
        })
    );
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Commands the README shows that only read the database.
const QUERIES: [&str; 10] = [
    "search", "tree", "position", "players", "text", "show", "hash", "openings", "find", "check",
];

/// Imports `sample_db/` as the README does (from the project's folder, so the files are
/// stored as `sample_db/...`), checks the figures the README gives, then runs every query
/// the README shows (without a pipe) and compares what it prints with what the README
/// pastes: on success the standard output, on failure the exit status and standard error.
#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    let db = TempDb::new("contract-readme");
    let import = Kifudex::new()
        .db(&db)
        .args(["import", "sample_db/"])
        .current_dir(root())
        .output()
        .success();
    let summary = import
        .stderr
        .lines()
        .chain(import.stdout.lines())
        .find(|l| l.starts_with("imported "))
        .unwrap_or_else(|| panic!("no summary: {} {}", import.stdout, import.stderr))
        .to_string();
    let counts = summary
        .split_once(": ")
        .map(|(_, rest)| rest.split(" in ").next().unwrap_or_default().to_string());
    assert!(summary.starts_with("imported 215 files into "), "{summary}");
    assert_eq!(
        counts.as_deref(),
        Some("219 games new, 1 duplicate (1 with other headers), 0 errors, 0 warnings"),
        "{summary}"
    );

    // KIFUDEX_BLESS_README=1 writes what the commands print into the pages instead of
    // comparing (to paste real output after a change; review the diff).
    let bless = std::env::var_os("KIFUDEX_BLESS_README").is_some();
    let mut pages = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| format!("docs/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|p| p.ends_with(".md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let mut checked = 0;
    for page in &pages {
        checked += page_examples(&db, page, bless);
    }
    assert!(checked >= 30, "only {checked} examples found");

    // `stats`, but for the database's name and its sizes on disk.
    let stats = Kifudex::new()
        .db(&db)
        .args(["stats", "--json"])
        .output()
        .success()
        .json_lines();
    let s = &stats[0];
    for (field, want) in [
        ("games", 219),
        ("positions", 25255),
        ("players", 281),
        ("files", 215),
        ("duplicates", 1),
        ("illegal", 3),
        ("errors", 0),
        ("warnings", 0),
    ] {
        assert_eq!(s[field], json!(want), "stats {field}: {s}");
    }
}

/// Runs every query a page shows (a `$ kifudex` line in a fenced block, without a pipe)
/// against `db` and compares what it prints with what the page pastes: on success the
/// standard output, on failure the exit status and standard error. With `bless`, writes
/// what the commands print into the page instead. Returns how many were checked.
fn page_examples(db: &TempDb, page: &str, bless: bool) -> usize {
    let readme = std::fs::read_to_string(root().join(page)).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    let mut blessed: Vec<(usize, usize, String)> = Vec::new();
    let mut checked = 0;
    let mut in_block = false;
    // A block that imports or removes something shows another database from then on.
    let mut other_db = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.starts_with("```") {
            in_block = !in_block;
            other_db = false;
            continue;
        }
        let Some(command) = line.strip_prefix("$ kifudex ").filter(|_| in_block) else {
            continue;
        };
        let mut shown = Vec::new();
        while i < lines.len() && !lines[i].starts_with("```") && !lines[i].starts_with("$ ") {
            shown.push(lines[i]);
            i += 1;
        }
        let mut args = words(command);
        // A file an example writes (`-o FILE`) goes into the test's folder, not the checkout.
        for k in 1..args.len() {
            if args[k - 1] == "-o" {
                args[k] = db.join(&args[k]).to_string_lossy().into_owned();
            }
        }
        if !QUERIES.contains(&args[0].as_str()) {
            other_db = true;
            continue;
        }
        if command.contains('|') || other_db {
            continue;
        }
        let run = Kifudex::new()
            .db(db)
            .args(&args)
            .current_dir(root())
            .output();
        let got = if run.status.success() {
            run.stdout.trim_end().to_string()
        } else {
            format!("(exit status {})\n{}", run.code(), run.stderr.trim_end())
        };
        if bless {
            // Blank lines that end the shown output stay.
            let blank = shown
                .iter()
                .rev()
                .take_while(|l| l.trim().is_empty())
                .count();
            blessed.push((i - shown.len(), i - blank, got));
            checked += 1;
            continue;
        }
        assert_eq!(
            got,
            shown.join("\n").trim_end(),
            "{page} line {}: kifudex {command}",
            i - shown.len()
        );
        checked += 1;
    }
    if bless {
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for (from, to, got) in blessed.into_iter().rev() {
            out.splice(from..to, got.lines().map(str::to_string));
        }
        std::fs::write(root().join(page), out.join("\n") + "\n").unwrap();
    }
    checked
}

/// A command line split as a shell would: words, and "quoted words".
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            _ => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// The README stays short, and every link of the README and of `docs/`, and every document a
/// code comment points at, leads to a file of the repository.
#[test]
fn the_readme_is_short_and_every_link_leads_somewhere() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines (at most 300)");
    let mut pages = vec![root().join("README.md")];
    for e in std::fs::read_dir(root().join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            pages.push(p);
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let dir = page.parent().unwrap();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = &rest[..end];
            let path = target.split('#').next().unwrap_or_default();
            if !(path.is_empty() || path.contains("://") || dir.join(path).exists()) {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    // Code comments that name a document.
    let mut stack: Vec<std::path::PathBuf> = ["src", "crates", "tests", "benches", "examples"]
        .iter()
        .map(|d| root().join(d))
        .collect();
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            for e in std::fs::read_dir(&p).unwrap() {
                stack.push(e.unwrap().path());
            }
            continue;
        }
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        for (n, line) in text.lines().enumerate() {
            let Some(comment) = line.split_once("//").map(|(_, c)| c) else {
                continue;
            };
            assert!(
                !comment.contains("GUIDE §"),
                "{}:{}: points at a guide the repository does not hold",
                p.display(),
                n + 1
            );
            let mut rest = comment;
            while let Some(at) = rest.find("docs/") {
                let name: String = rest[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || "/._-".contains(*c))
                    .collect();
                let name = name.trim_end_matches('.');
                if name.ends_with(".md") && !root().join(name).exists() {
                    broken.push(format!("{}:{}: {name}", p.display(), n + 1));
                }
                rest = &rest[at + 5..];
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}
