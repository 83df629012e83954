//! Reading never writes: every read command answers on a database folder that cannot be
//! written, as a user who may not write it, and leaves no file behind; a database whose
//! write-ahead log holds changes is read through it, or refused in words when it cannot be.

use std::path::Path;

use crate::util::{Kifudex, TempDb};

/// The read commands asked, each with its arguments.
const READS: &[&[&str]] = &[
    &["stats", "--json"],
    &["search", "--json", "--limit", "5"],
    &["search", "--opening", "振り飛車", "--json"],
    &[
        "position",
        "startpos moves 7g7f 3c3d",
        "--json",
        "--limit",
        "5",
    ],
    &["tree", "startpos", "--json"],
    &["text", "序盤", "--json", "--limit", "3"],
    &["openings", "--json"],
    &["players", "--json", "--limit", "5"],
    &["show", "1", "--board", "--ply", "3"],
];

/// Every file and folder below `dir`, with the size of each file.
fn listing(dir: &Path) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let path = e.path();
            let meta = e.metadata().unwrap();
            out.push((
                path.strip_prefix(dir).unwrap().display().to_string(),
                if meta.is_dir() { 0 } else { meta.len() },
            ));
            if meta.is_dir() {
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Sets the modes of everything below `dir`: folders `dirs`, files `files`.
fn chmod_all(dir: &Path, dirs: u32, files: u32) {
    use std::os::unix::fs::PermissionsExt;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path.clone());
            } else {
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(files)).unwrap();
            }
        }
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(dirs)).unwrap();
    }
}

fn answers(db: &Path, unprivileged: bool) -> Vec<String> {
    READS
        .iter()
        .map(|args| {
            let mut k = Kifudex::new().db(db).args(args.iter());
            if unprivileged {
                k = k.unprivileged();
            }
            let out = k.output();
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", out.stderr);
            assert_eq!(out.stderr, "", "{args:?}");
            if args[0] == "stats" {
                // The folder's size counts SQLite's side files, there or not.
                let mut v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
                v.as_object_mut().unwrap().remove("bytes");
                return v.to_string();
            }
            out.stdout
        })
        .collect()
}

#[test]
fn every_read_answers_on_a_folder_that_cannot_be_written() {
    let root = TempDb::new("readonly");
    let db = root.join("db");
    let out = Kifudex::new()
        .db(&db)
        .args(["import", "sample_db/"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let want = answers(&db, false);
    // Whoever may read the folder may read every file of the text index (tantivy makes its
    // two small files readable by their owner alone; kifudex gives them the folder's modes).
    {
        use std::os::unix::fs::PermissionsExt;
        for name in ["meta.json", ".managed.json"] {
            let mode = std::fs::metadata(db.join("text").join(name))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o044, 0o044, "{name}: {mode:o}");
        }
    }
    // The folder and its files readable by all, writable by none.
    chmod_all(&root, 0o755, 0o644);
    chmod_all(&db, 0o555, 0o444);
    // With SQLite's side files beside the database (the reads above made them) ...
    let before = listing(&db);
    assert!(
        before.iter().any(|(n, _)| n == "kifudex.sqlite-shm"),
        "{before:?}"
    );
    assert!(answers(&db, true) == want, "another answer as nobody");
    assert_eq!(listing(&db), before, "a read left a file behind");
    // ... and without them, as a copy of the database file alone would be.
    chmod_all(&db, 0o755, 0o644);
    for side in ["kifudex.sqlite-shm", "kifudex.sqlite-wal"] {
        std::fs::remove_file(db.join(side)).unwrap();
    }
    chmod_all(&db, 0o555, 0o444);
    let before = listing(&db);
    assert!(answers(&db, true) == want, "another answer as nobody");
    assert_eq!(listing(&db), before, "a read left a file behind");
    chmod_all(&db, 0o755, 0o644);
}

#[test]
fn a_log_beside_a_read_only_database_is_read_or_refused_in_words() {
    let root = TempDb::new("readonly-log");
    let db = root.join("db");
    let out = Kifudex::new()
        .db(&db)
        .args(["import", "sample_db/"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    // A copy taken while a writer holds the log open: the log holds a change the file lacks.
    let copy = root.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('probe', 'in the log')",
        [],
    )
    .unwrap();
    for name in ["kifudex.sqlite", "kifudex.sqlite-wal", "kifudex.sqlite-shm"] {
        std::fs::copy(db.join(name), copy.join(name)).unwrap();
    }
    drop(conn);
    let text = root.join("copy").join("text");
    std::fs::create_dir_all(&text).unwrap();
    for e in std::fs::read_dir(db.join("text")).unwrap().flatten() {
        std::fs::copy(e.path(), text.join(e.file_name())).unwrap();
    }
    chmod_all(&root, 0o755, 0o644);
    chmod_all(&copy, 0o555, 0o444);
    // With the shared-memory file beside it, SQLite reads the log as it is.
    let stats = |dir: &Path| {
        Kifudex::new()
            .db(dir)
            .args(["stats", "--json"])
            .unprivileged()
            .output()
    };
    let out = stats(&copy);
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    assert_eq!(out.json_lines()[0]["games"], 219);
    // Without it, the log cannot be read where nothing can be written: said, not misread.
    chmod_all(&copy, 0o755, 0o644);
    std::fs::remove_file(copy.join("kifudex.sqlite-shm")).unwrap();
    chmod_all(&copy, 0o555, 0o444);
    let out = stats(&copy);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stderr.starts_with(&format!(
            "kifudex: cannot read the database: its folder cannot be written, and its write-ahead log {} holds changes not yet in the database file",
            copy.join("kifudex.sqlite-wal").display()
        )),
        "{}",
        out.stderr
    );
    chmod_all(&copy, 0o755, 0o644);
}
