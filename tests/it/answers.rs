//! No silent wrong answer: every question `position`, `tree`, `perft` and `show` cannot
//! answer as asked is an error with its exact message and exit status; a database opened for
//! queries is never written.

use crate::util::{Kifudex, TempDb};
use std::collections::BTreeMap;
use std::path::Path;

fn setup(name: &str) -> (TempDb, std::path::PathBuf) {
    let dir = TempDb::new(name);
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("a.usi"), "startpos moves 7g7f 3c3d 2g2f\n").unwrap();
    std::fs::write(files.join("b.usi"), "startpos moves 7g7f 3c3d 6g6f 8c8d\n").unwrap();
    let db = dir.join("db");
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["import", files.to_str().unwrap()])
            .output()
            .status
            .success()
    );
    (dir, db)
}

fn fails(db: &Path, args: &[&str], code: i32, message: &str) {
    let out = Kifudex::new().db(db).args(args).output();
    assert_eq!(out.stderr, message, "{args:?}");
    assert_eq!(out.status.code(), Some(code), "{args:?}");
    assert_eq!(out.stdout, "", "{args:?}");
}

#[test]
fn a_position_file_that_gives_no_position_is_an_error() {
    let (dir, db) = setup("answers-file");
    let f = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let empty = f("empty.kif", "");
    let junk = f("junk.kif", "hello world\n");
    let stop = f(
        "stop.kif",
        "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ９九玉(11)\n   4 ２六歩(27)\n",
    );
    let missing = dir.join("nothere.kif").to_str().unwrap().to_string();
    for cmd in ["position", "tree"] {
        fails(
            &db,
            &[cmd, "--file", &missing],
            1,
            &format!("kifudex: cannot read {missing}: No such file or directory (os error 2)\n"),
        );
        fails(
            &db,
            &[cmd, "--file", &empty],
            1,
            &format!("kifudex: {empty}: the file is empty\n"),
        );
        fails(
            &db,
            &[cmd, "--file", &junk],
            1,
            &format!(
                "kifudex: {junk}: not a game record kifudex recognises (line 1, column 1: line not understood: 'hello world')\n"
            ),
        );
        let stopped = format!(
            "kifudex: {stop}:4:6: move 3: ９九玉(11): the piece on １一 is white's, but it is black's move; the record stops after move 2: give --ply 2 or less for a position it reached\n"
        );
        fails(&db, &[cmd, "--file", &stop], 1, &stopped);
        fails(&db, &[cmd, "--file", &stop, "--ply", "3"], 1, &stopped);
    }
    // A ply that was read answers: both games reach the position after 7g7f 3c3d.
    let out = Kifudex::new()
        .db(&db)
        .args(&["position", "--file", &stop, "--ply", "2", "--json"])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let plies: BTreeMap<String, u64> = out
        .json_lines()
        .iter()
        .filter(|r| r.get("ply").is_some())
        .map(|r| {
            (
                r["file"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string(),
                r["ply"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        plies,
        BTreeMap::from([("a.usi".to_string(), 2), ("b.usi".to_string(), 2)])
    );
    // `--file -` reads standard input.
    let out = Kifudex::new()
        .db(&db)
        .args(["tree", "--file", "-", "--json"])
        .stdin("startpos moves 7g7f 3c3d\n")
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let lines = out.json_lines();
    let moves: Vec<(&str, u64)> = lines[..lines.len() - 1]
        .iter()
        .map(|r| (r["move"].as_str().unwrap(), r["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(moves, vec![("2g2f", 1), ("6g6f", 1)]);
    assert_eq!(lines.last().unwrap()["total"].as_u64(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_position_asked_wrongly_is_bad_usage() {
    let (dir, db) = setup("answers-usage");
    fails(
        &db,
        &["position", "startpos moves 7g7e"],
        2,
        "kifudex: cannot read the position \"startpos moves 7g7e\": move 1 (7g7e) is not legal in its position\n",
    );
    fails(
        &db,
        &["tree", "startpos moves 7g7f 3c3d 2g2e"],
        2,
        "kifudex: cannot read the position \"startpos moves 7g7f 3c3d 2g2e\": move 3 (2g2e) is not legal in its position\n",
    );
    // SFEN errors point at the character that is wrong.
    fails(
        &db,
        &[
            "position",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
        ],
        2,
        "kifudex: cannot read the position \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1\": the SFEN is not a position: rank 9: 'X' is not a piece letter (P L N S G B R K, lower case for white) (at character 57)\n",
    );
    fails(
        &db,
        &[
            "tree",
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2Q 1",
        ],
        2,
        "kifudex: cannot read the position \"sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2Q 1\": the SFEN is not a position: hands: 'Q' is not a piece a hand can hold (P L N S G B R, lower case for white) (at character 67)\n",
    );
    // Options that do nothing where they are given are usage errors (clap's own wording).
    let out = Kifudex::new()
        .db(&db)
        .args(&["position", "startpos", "--ply", "3"])
        .output();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr
            .starts_with("error: the argument '[POS]' cannot be used with '--ply <N>'\n"),
        "{}",
        out.stderr
    );
    let out = Kifudex::new()
        .db(&db)
        .args(&["show", "1", "--ply", "3", "--to", "csa"])
        .output();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr
            .starts_with("error: the argument '--ply <N>' cannot be used with '--to <TO>'\n"),
        "{}",
        out.stderr
    );
    // An unquoted position: clap sees `moves` as an argument of its own; a hint says why.
    let out = Kifudex::new()
        .db(&db)
        .args(&["position", "startpos", "moves", "7g7f"])
        .output();
    assert_eq!(out.status.code(), Some(2));
    let err = out.stderr.clone();
    assert!(
        err.starts_with("error: unexpected argument 'moves' found\n"),
        "{err}"
    );
    assert!(
        err.ends_with("hint: quote the position as one argument: 'startpos moves 7g7f 3c3d'\n"),
        "{err}"
    );
    // perft reads positions as position does.
    let out = Kifudex::new()
        .db(&db)
        .args(&["perft", "-d", "1", "startpos moves 7g7f 3c3d"])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    assert!(
        out.stdout.starts_with(
            "position: lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\ndepth 1: 39 nodes"
        ),
        "{}",
        out.stdout
    );
    fails(
        &db,
        &["perft", "startpos moves 7g7e"],
        2,
        "kifudex: cannot read the position \"startpos moves 7g7e\": move 1 (7g7e) is not legal in its position\n",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every file of a directory with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().display().to_string(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

#[cfg(unix)]
#[test]
fn queries_never_write_and_answer_on_a_read_only_database() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, db) = setup("answers-readonly");
    // A first query may finish what the import left (the text index's first open); after
    // it, the database is what it is.
    assert!(
        Kifudex::new()
            .db(&db)
            .args(&["text", "nothing", "--json"])
            .output()
            .status
            .success()
    );
    let queries: Vec<Vec<&str>> = vec![
        vec!["search", "--json"],
        vec!["search", "--player", "x", "--json"],
        vec!["position", "startpos moves 7g7f", "--json"],
        vec!["tree", "startpos", "--json", "--since", "2000"],
        vec!["stats", "--json"],
        vec!["stats", "--min-plies", "4", "--json"],
        vec!["show", "1"],
        vec!["text", "7g7f", "--json"],
    ];
    let answers: Vec<String> = queries
        .iter()
        .map(|q| Kifudex::new().db(&db).args(q).output().stdout)
        .collect();
    let before = snapshot(&db);
    // Read-only on disk: the file and its folder. Root may write anyway, so the check that
    // holds for every user is that no byte changed and no file came or went.
    let mode = |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
    for p in before.keys() {
        mode(&db.join(p), 0o444).unwrap();
    }
    mode(&db, 0o555).unwrap();
    for (q, want) in queries.iter().zip(&answers) {
        let out = Kifudex::new().db(&db).args(q).output();
        assert!(out.status.success(), "{q:?}: {}", out.stderr);
        // stats counts the bytes on disk; the rest answers the same.
        if q[0] != "stats" || q.len() > 2 {
            assert_eq!(&out.stdout, want, "{q:?}");
        }
        assert_eq!(snapshot(&db), before, "{q:?} wrote to the database");
    }
    mode(&db, 0o755).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
