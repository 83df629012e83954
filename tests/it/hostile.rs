//! Hostile and huge inputs (issue 19): deep nesting, loops in the walk, files that are no
//! files. Every input is generated here; none is kept in the repository.

use std::path::Path;

use crate::util::{Kifudex, TempDb, zip_stored};
use kifudex::notation::{Line, MAX_VARIATION_DEPTH, Record, jkf, kif, psn, usi};

/// The move of ply `p` in every line of the generated trees: the two rooks shuffle, so that
/// the position at a ply is the same whichever way it was reached.
fn shuffle_kif(p: usize) -> &'static str {
    ["８二飛(72)", "３八飛(28)", "７二飛(82)", "２八飛(38)"][p % 4]
}

fn shuffle_usi(p: usize) -> &'static str {
    ["7b8b", "2h3h", "8b7b", "3h2h"][p % 4]
}

/// A KIF record whose variations nest `depth` deep: the main line has `depth + 1` moves, and
/// the variation at ply `k` (two moves, `k` and `k + 1`) holds the one at ply `k + 1`.
fn nested_kif(depth: usize) -> String {
    let mut s = String::from("手合割：平手\n手数----指手---------消費時間--\n");
    for p in 1..=depth + 1 {
        s += &format!("{p:>4} {}\n", shuffle_kif(p));
    }
    for k in 2..=depth + 1 {
        s += &format!("\n変化：{k}手\n");
        for p in k..=(k + 1).min(depth + 1) {
            s += &format!("{p:>4} {}\n", shuffle_kif(p));
        }
    }
    s
}

/// The same tree as JKF, its forks nested `depth` deep.
fn nested_jkf(depth: usize) -> String {
    let entry = |p: usize| {
        let u = shuffle_usi(p).as_bytes();
        let (fx, fy, tx, ty) = (u[0] - b'0', u[1] - b'a' + 1, u[2] - b'0', u[3] - b'a' + 1);
        format!(
            r#""move":{{"color":{},"from":{{"x":{fx},"y":{fy}}},"to":{{"x":{tx},"y":{ty}}},"piece":"HI"}}"#,
            1 - p % 2
        )
    };
    // From the deepest fork out: the fork at ply k holds moves k and k + 1, the latter with
    // the fork at ply k + 1.
    let mut inner = String::new();
    for k in (2..=depth + 1).rev() {
        let next = if inner.is_empty() {
            format!("{{{}}}", entry(k + 1))
        } else {
            format!("{{{},\"forks\":[[{inner}]]}}", entry(k + 1))
        };
        inner = format!("{{{}}},{next}", entry(k));
    }
    let mut main = vec![format!("{{{}}}", entry(1))];
    main.push(format!("{{{},\"forks\":[[{inner}]]}}", entry(2)));
    for p in 3..=depth + 1 {
        main.push(format!("{{{}}}", entry(p)));
    }
    format!(r#"{{"header":{{}},"moves":[{{}},{}]}}"#, main.join(","))
}

/// How deep a line's variations nest (a variation of the line itself is at depth 1).
fn depth_of(line: &Line) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&Line, usize)> = vec![(line, 0)];
    while let Some((l, d)) = stack.pop() {
        deepest = deepest.max(d);
        for m in &l.moves {
            for v in &m.variations {
                stack.push((v, d + 1));
            }
        }
    }
    deepest
}

/// The moves of the innermost variation chain, checked against the shuffle.
fn check_chain(rec: &Record, plies: usize) {
    assert_eq!(rec.main.moves.len(), plies);
    for (i, m) in rec.main.moves.iter().enumerate() {
        assert_eq!(m.mv.usi(), shuffle_usi(i + 1), "main line ply {}", i + 1);
    }
    // Follow the chain: the variation at depth d begins with the move of ply d + 1 and
    // holds the next one on its second move.
    let mut line = &rec.main;
    let mut depth = 0;
    while let Some(v) = line.moves.get(1).and_then(|m| m.variations.first()) {
        depth += 1;
        assert_eq!(v.moves[0].mv.usi(), shuffle_usi(depth + 1), "depth {depth}");
        line = v;
    }
    assert_eq!(depth, MAX_VARIATION_DEPTH);
}

/// After thousands of cut levels (counted, not held), a variation of an earlier move closes
/// them all and is read into the line it branches from, here the main line and a real
/// variation.
#[test]
fn kif_a_variation_after_the_cut_levels_branches_from_its_own_line() {
    let depth = 3_000;
    let mut text = nested_kif(depth);
    // Ply 1 of the main line; ply 3 of the variation that starts at ply 2.
    text += &format!("\n変化：3手\n   3 {}\n", shuffle_kif(3));
    text += &format!("\n変化：1手\n   1 {}\n", shuffle_kif(1));
    let rec = kif::read_kif(&text);
    assert_eq!(depth_of(&rec.main), MAX_VARIATION_DEPTH);
    assert_eq!(rec.errors.len(), 1, "{:?}", rec.errors);
    assert_eq!(rec.main.moves[0].variations.len(), 1);
    assert_eq!(
        rec.main.moves[0].variations[0].moves[0].mv.usi(),
        shuffle_usi(1)
    );
    let at_2 = &rec.main.moves[1].variations[0];
    assert_eq!(at_2.moves.len(), 2);
    assert_eq!(
        at_2.moves[1].variations.len(),
        2,
        "the chain's and the new one"
    );
    assert_eq!(
        at_2.moves[1].variations[1].moves[0].mv.usi(),
        shuffle_usi(3)
    );
}

#[test]
fn kif_variations_nested_ten_thousand_deep_are_cut_at_the_limit() {
    let depth = 10_000;
    let text = nested_kif(depth);
    let rec = kif::read_kif(&text);
    assert_eq!(depth_of(&rec.main), MAX_VARIATION_DEPTH);
    check_chain(&rec, depth + 1);
    // The variation at ply 102 would be the 101st level: one error, at its 変化 line.
    let line = 2 + (depth + 1) + MAX_VARIATION_DEPTH * 4 + 2;
    assert_eq!(
        rec.errors
            .iter()
            .map(|e| (e.line, e.message.as_str()))
            .collect::<Vec<_>>(),
        vec![(
            line,
            "variation at move 102 nested more than 100 deep: it and the variations within it are not read"
        )]
    );
    assert!(
        text.lines()
            .nth(line - 1)
            .unwrap()
            .starts_with("変化：102手")
    );
    // Every writer, and every reader of what they wrote, goes through the deepest tree.
    let back = kif::read_kif(&kif::write_kif(&rec));
    assert!(back.errors.is_empty(), "{:?}", back.errors);
    assert_eq!(back.main, rec.main);
    let back = jkf::read_jkf(&jkf::write_jkf(&rec)).unwrap();
    assert!(back.errors.is_empty(), "{:?}", back.errors);
    assert_eq!(depth_of(&back.main), MAX_VARIATION_DEPTH);
    let back = kif::read_ki2(&kif::write_ki2(&rec));
    assert_eq!(depth_of(&back.main), MAX_VARIATION_DEPTH);
    let back = psn::read_psn(&psn::write_psn(&rec));
    assert_eq!(depth_of(&back[0].main), MAX_VARIATION_DEPTH);
    assert_eq!(usi::write_usi(&rec).lines().count(), 1);
    let csa = kifudex::notation::csa::write_csa(&rec, kifudex::notation::csa::CsaVersion::V2_2);
    assert_eq!(
        kifudex::notation::csa::read_csa(&csa)[0].main.moves.len(),
        depth + 1
    );
}

#[test]
fn jkf_forks_nested_a_thousand_deep_are_cut_at_the_limit() {
    let text = nested_jkf(1000);
    let rec = jkf::read_jkf(&text).unwrap();
    check_chain(&rec, 1001);
    assert_eq!(rec.errors.len(), 1, "{:?}", rec.errors);
    assert_eq!(
        rec.errors[0].message,
        "move 102: forks nested more than 100 deep: they and the forks within them are not read"
    );
    let back = kif::read_kif(&kif::write_kif(&rec));
    assert!(back.errors.is_empty(), "{:?}", back.errors);
    assert_eq!(back.main, rec.main);
}

#[test]
fn deep_trees_import_show_and_convert_without_a_crash() {
    let dir = TempDb::new("hostile-deep");
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    // 300 levels: more than the 256 the stored tree holds.
    std::fs::write(tree.join("a-deep.kifu"), nested_kif(300)).unwrap();
    std::fs::write(tree.join("b-deep.jkf"), nested_jkf(1000)).unwrap();
    std::fs::write(tree.join("c-deeper.kifu"), nested_kif(10_000)).unwrap();
    let out = Kifudex::new()
        .db(dir.path().join("db"))
        .args(&["import", tree.to_str().unwrap(), "--variations", "--json"])
        .output();
    let summary = &out.json_lines()[0];
    assert_eq!(summary["games"], 3, "{}", out.stderr);
    // Each file's cut is reported once, where it is.
    assert_eq!(summary["errors"], 3, "{}", out.stderr);
    let err = out.stderr.clone();
    for at in [
        "a-deep.kifu:705:1: variation at move 102 nested more than 100 deep",
        "b-deep.jkf:1:15800: move 102: forks nested more than 100 deep",
        "c-deeper.kifu:10405:1: variation at move 102 nested more than 100 deep",
    ] {
        assert_eq!(err.matches(at).count(), 1, "{at}: {err}");
    }
    for id in ["1", "2", "3"] {
        for to in ["kifu", "jkf", "ki2u", "csa", "psn", "usi"] {
            let out = Kifudex::new()
                .db(dir.path().join("db"))
                .args(&["show", id, "--to", to])
                .output();
            assert!(out.status.success(), "show --to {to}: {}", out.stderr);
        }
    }
    let out = Kifudex::new()
        .db(dir.path().join("db"))
        .args(&["show", "1", "--to", "jkf"])
        .output();
    let back = jkf::read_jkf(&out.stdout).unwrap();
    assert_eq!(depth_of(&back.main), MAX_VARIATION_DEPTH);
    for to in ["kif", "ki2", "csa", "jkf", "usi", "psn"] {
        for file in ["b-deep.jkf", "c-deeper.kifu"] {
            let out = Kifudex::new()
                .db(dir.path().join("db"))
                .args(&["convert", tree.join(file).to_str().unwrap(), "--to", to])
                .output();
            // Written whole, with the cut reported (status 1: the file had an error).
            assert_eq!(
                out.status.code(),
                Some(1),
                "{file} --to {to}: {}",
                out.stderr
            );
            assert!(out.stderr.contains("nested more than 100 deep"));
            assert!(out.stdout.len() > 1000, "{file} --to {to}");
        }
    }
}

/// A short game of the shuffle, as KIF, with a name of its own.
fn small_kif(name: &str, plies: usize) -> String {
    let mut s = format!("棋戦：{name}\n手数----指手---------消費時間--\n");
    for p in 1..=plies {
        s += &format!("{p:>4} {}\n", shuffle_kif(p));
    }
    s
}

#[test]
fn symlink_loops_are_walked_once_and_fifos_never_opened() {
    let dir = TempDb::new("hostile-walk");
    let tree = dir.join("tree");
    let sub = tree.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join("a.kif"), small_kif("a", 3)).unwrap();
    std::fs::write(tree.join("b.kif"), small_kif("b", 4)).unwrap();
    std::os::unix::fs::symlink(".", sub.join("self")).unwrap();
    std::os::unix::fs::symlink("..", sub.join("up")).unwrap();
    // A link to a folder outside the tree is followed once, though it is linked twice: the
    // first link in path order.
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("c.kif"), small_kif("c", 5)).unwrap();
    std::os::unix::fs::symlink(&outside, tree.join("x-link")).unwrap();
    std::os::unix::fs::symlink(&outside, sub.join("y-link")).unwrap();
    // A FIFO in the tree, and one named on the command line: open() would wait for ever.
    let fifo = tree.join("pipe.kif");
    let named = dir.join("named.kif");
    for f in [&fifo, &named] {
        let ok = std::process::Command::new("mkfifo")
            .arg(f)
            .status()
            .unwrap();
        assert!(ok.success());
    }
    let (units, problems) = kifudex::ingest::walk::units(&[tree.clone(), named.clone()]);
    let names: Vec<String> = units
        .iter()
        .map(|u| match u {
            kifudex::ingest::walk::Unit::File { display, .. } => display.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    let t = tree.to_string_lossy();
    assert_eq!(
        names,
        vec![
            format!("{t}/b.kif"),
            format!("{t}/sub/a.kif"),
            format!("{t}/sub/y-link/c.kif"),
        ]
    );
    let skipped = "a named pipe (FIFO), not a record file: skipped".to_string();
    assert_eq!(
        problems,
        vec![
            (format!("{t}/pipe.kif"), skipped.clone()),
            (named.to_string_lossy().into_owned(), skipped),
        ]
    );
    // Through the command line: three games, each once; the two FIFOs reported once each.
    let out = Kifudex::new()
        .db(dir.path().join("db"))
        .args(&[
            "import",
            tree.to_str().unwrap(),
            named.to_str().unwrap(),
            "--json",
        ])
        .output();
    let summary = &out.json_lines()[0];
    assert_eq!(summary["games"], 3, "{}", out.stderr);
    assert_eq!(summary["duplicates"], 0);
    assert_eq!(summary["errors"], 2, "{}", out.stderr);
    assert_eq!(out.stderr.matches("a named pipe (FIFO)").count(), 2);
}

#[test]
fn the_import_lock_comes_before_the_walk_and_reindex_takes_it() {
    let dir = TempDb::new("hostile-lock");
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(tree.join("a.kif"), small_kif("a", 3)).unwrap();
    let out = Kifudex::new()
        .db(dir.path().join("db"))
        .args(&["import", tree.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let store = kifudex::store::Store::open(&dir.join("db")).unwrap();
    let lock = store.lock_import().unwrap();
    // A second import waits for nothing: it stops before walking (the missing path would
    // have been reported by a walk).
    let out = Kifudex::new()
        .db(dir.path().join("db"))
        .args(&["import", dir.join("missing").to_str().unwrap()])
        .output();
    assert_eq!(out.status.code(), Some(1));
    let err = out.stderr.clone();
    assert!(err.contains("another import is running into"), "{err}");
    assert!(!err.contains("missing"), "{err}");
    // reindex would delete the text index under the import.
    let out = Kifudex::new()
        .db(dir.path().join("db"))
        .args(&["reindex"])
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.contains("another import is running into"));
    assert!(dir.join("db").join("text").is_dir());
    drop(lock);
    drop(store);
    let out = Kifudex::new()
        .db(dir.path().join("db"))
        .args(&["reindex", "--json"])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    assert_eq!(out.json_lines()[0]["games"], 1);
}

/// A deflated zip archive of `entries` (name, bytes).
fn zip_deflated(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        w.start_file(*name, options).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// Collects what an import reports.
#[derive(Default)]
struct Problems(Vec<String>);

impl kifudex::ingest::Observer for Problems {
    fn problem(&mut self, p: &kifudex::ingest::Problem) {
        self.0.push(p.to_string());
    }
}

#[test]
fn a_zip_bomb_is_refused_at_the_limit_and_the_other_entries_are_read() {
    use kifudex::ingest::{ImportOptions, import};
    let dir = TempDb::new("hostile-bomb");
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    // 8 MiB of zeros inflate from a few kilobytes; the limit here is 1 MiB (the default,
    // 256 MiB, is the same code with a bigger number). One entry claims 100 bytes.
    let zeros = vec![0u8; 8 << 20];
    let good = small_kif("good", 6);
    let mut zip = zip_deflated(&[
        ("a-bomb.kif", &zeros),
        ("b-good.kif", good.as_bytes()),
        ("c-big.kif", &zeros[..(1 << 20) + 1]),
        ("d-fits.kif", small_kif("fits", 7).as_bytes()),
    ]);
    assert!(zip.len() < 64 << 10, "{}", zip.len());
    lie_about_size(&mut zip, b"c-big.kif", 100);
    std::fs::write(tree.join("bombs.zip"), &zip).unwrap();
    // A plain file over the limit is not read either.
    std::fs::write(tree.join("e-huge.kif"), &zeros[..(1 << 20) + 7]).unwrap();
    let mut store = kifudex::store::Store::create(&dir.join("db")).unwrap();
    let options = ImportOptions {
        max_source_bytes: 1 << 20,
        ..ImportOptions::default()
    };
    let mut seen = Problems::default();
    let summary = import(
        &mut store,
        std::slice::from_ref(&tree),
        &options,
        &mut seen,
        &kifudex::progress::Quiet,
    )
    .unwrap();
    assert_eq!(summary.games, 2, "{:?}", seen.0);
    let t = tree.to_string_lossy();
    let msg = "larger than 1 MiB, the most kifudex reads of one file or archive entry: not read";
    assert_eq!(
        seen.0,
        vec![
            format!("{t}/bombs.zip!a-bomb.kif: cannot read: {msg}"),
            format!(
                "{t}/bombs.zip!c-big.kif: cannot read: File is larger than its declared uncompressed size"
            ),
            format!("{t}/e-huge.kif: cannot read: {msg}"),
        ]
    );
    assert_eq!(
        kifudex::ingest::walk::MAX_SOURCE_BYTES,
        256 << 20,
        "the README and the messages say 256 MiB"
    );
}

/// Rewrites the uncompressed size an archive gives for `name` (local header and central
/// directory) to `size`, as a zip bomb may.
fn lie_about_size(zip: &mut [u8], name: &[u8], size: u32) {
    let mut changed = 0;
    for at in 0..zip.len().saturating_sub(46) {
        let sig = &zip[at..at + 4];
        let (size_at, name_len_at, name_at) = if sig == b"PK\x03\x04" {
            (at + 22, at + 26, at + 30)
        } else if sig == b"PK\x01\x02" {
            (at + 24, at + 28, at + 46)
        } else {
            continue;
        };
        let len = u16::from_le_bytes([zip[name_len_at], zip[name_len_at + 1]]) as usize;
        if zip.get(name_at..name_at + len) == Some(name) {
            zip[size_at..size_at + 4].copy_from_slice(&size.to_le_bytes());
            changed += 1;
        }
    }
    assert_eq!(changed, 2);
}

/// Imports `paths` through the library; the summary and what was reported.
fn import_quiet(
    db: &Path,
    paths: &[std::path::PathBuf],
) -> (kifudex::ingest::ImportCounts, Vec<String>) {
    let mut store = kifudex::store::Store::create(db).unwrap();
    let mut seen = Problems::default();
    let options = kifudex::ingest::ImportOptions::default();
    let summary = kifudex::ingest::import(
        &mut store,
        paths,
        &options,
        &mut seen,
        &kifudex::progress::Quiet,
    )
    .unwrap();
    (summary, seen.0)
}

/// The sources table: (path as displayed, games).
fn sources(db: &Path) -> Vec<(String, i64)> {
    let store = kifudex::store::Store::open(db).unwrap();
    let conn = crate::util::sql(&store);
    let mut stmt = conn
        .prepare("SELECT path, games FROM sources ORDER BY id")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn sources_are_known_by_their_exact_name_and_entry() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDb::new("hostile-keys");
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    // Two names that are no UTF-8: both display as "�.kif".
    let ff = tree.join(std::ffi::OsStr::from_bytes(b"\xff.kif"));
    let fe = tree.join(std::ffi::OsStr::from_bytes(b"\xfe.kif"));
    std::fs::write(&ff, small_kif("ff", 3)).unwrap();
    std::fs::write(&fe, small_kif("fe", 4)).unwrap();
    // An archive with two entries of the same name, and a file named as one of its entries.
    let zip = zip_stored(&[
        (b"x.kif".to_vec(), small_kif("x1", 5).into_bytes()),
        (b"x.kif".to_vec(), small_kif("x2", 6).into_bytes()),
    ]);
    std::fs::write(tree.join("c.zip"), zip).unwrap();
    std::fs::write(tree.join("c.zip!x.kif"), small_kif("beside", 7)).unwrap();
    let db = dir.join("db");
    let (summary, problems) = import_quiet(&db, std::slice::from_ref(&tree));
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!((summary.files, summary.games), (5, 5));
    let t = tree.to_string_lossy();
    let mut found = sources(&db);
    found.sort();
    assert_eq!(
        found,
        vec![
            (format!("{t}/c.zip!x.kif"), 1),
            (format!("{t}/c.zip!x.kif"), 1),
            (format!("{t}/c.zip!x.kif"), 1),
            (format!("{t}/\u{fffd}.kif"), 1),
            (format!("{t}/\u{fffd}.kif"), 1),
        ]
    );
    // Again: nothing changed, nothing churns.
    let (summary, _) = import_quiet(&db, std::slice::from_ref(&tree));
    assert_eq!((summary.files, summary.unchanged, summary.games), (5, 5, 0));
    // One of them changes: only it is read again, and it replaces only itself.
    std::fs::write(&fe, small_kif("fe", 8)).unwrap();
    let (summary, _) = import_quiet(&db, std::slice::from_ref(&tree));
    assert_eq!((summary.unchanged, summary.games), (4, 1));
    let store = kifudex::store::Store::open(&db).unwrap();
    assert_eq!(store.game_count().unwrap(), 5);
}

#[test]
fn sources_of_the_previous_schema_are_found_by_their_path_and_given_a_key() {
    let dir = TempDb::new("hostile-keys-migrate");
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(tree.join("a.kif"), small_kif("a", 3)).unwrap();
    let zip = zip_stored(&[(b"z.kif".to_vec(), small_kif("z", 5).into_bytes())]);
    std::fs::write(tree.join("b.zip"), zip).unwrap();
    let db = dir.join("db");
    let (summary, _) = import_quiet(&db, std::slice::from_ref(&tree));
    assert_eq!(summary.games, 2);
    // The database as schema 3 left it: the same rows, without keys.
    {
        let conn = rusqlite::Connection::open(db.join("kifudex.sqlite")).unwrap();
        let version: u32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, kifudex::store::SCHEMA_VERSION);
        // Back to the version before the keys (and without the migrations after them).
        let before = kifudex::store::MIGRATIONS
            .iter()
            .position(|(name, _)| *name == "0007_source_keys.sql")
            .unwrap();
        conn.execute_batch(crate::util::BACK_TO_SCHEMA_10).unwrap();
        conn.execute_batch(&format!(
            "DROP INDEX sources_key; ALTER TABLE sources DROP COLUMN key;
             ALTER TABLE sources DROP COLUMN options;
             DROP VIEW recognised_items; DROP TABLE recognised; DROP TABLE opening_names;
             ALTER TABLE games DROP COLUMN label;
             DROP TABLE player_totals; DROP TABLE player_openings;
             PRAGMA user_version = {before};"
        ))
        .unwrap();
    }
    // Opened, it is migrated; an import finds both sources by their path, reads nothing
    // again, and stores no game twice.
    let (summary, problems) = import_quiet(&db, std::slice::from_ref(&tree));
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!((summary.unchanged, summary.games), (2, 0));
    assert_eq!(sources(&db).len(), 2);
    // A changed file replaces its old row, which gets its key.
    std::fs::write(tree.join("a.kif"), small_kif("a", 4)).unwrap();
    let (summary, _) = import_quiet(&db, std::slice::from_ref(&tree));
    assert_eq!((summary.unchanged, summary.games), (1, 1));
    let t = tree.to_string_lossy();
    assert_eq!(
        sources(&db),
        vec![(format!("{t}/a.kif"), 1), (format!("{t}/b.zip!z.kif"), 1)]
    );
    let store = kifudex::store::Store::open(&db).unwrap();
    let keys: i64 = crate::util::sql(&store)
        .query_row("SELECT count(key) FROM sources", [], |r| r.get(0))
        .unwrap();
    assert_eq!(keys, 1);
    assert_eq!(store.game_count().unwrap(), 2);
}

#[test]
fn a_utf8_file_cut_inside_its_last_character_is_still_utf8() {
    use kifudex::notation::{Encoding, read_bytes};
    let text = "先手：羽生善治\n後手：藤井聡太\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*ここで終わり";
    for cut in 1..=2 {
        let bytes = &text.as_bytes()[..text.len() - cut];
        let f = read_bytes(bytes, Some(Path::new("a.kif")));
        assert_eq!(f.encoding, Encoding::Utf8, "cut {cut}");
        let g = &f.games[0];
        assert_eq!(g.sente(), Some("羽生善治"));
        assert_eq!(g.main.moves.len(), 1);
        assert_eq!(g.main.moves[0].comments, ["ここで終わ"]);
        let dropped = 3 - cut;
        assert_eq!(
            g.errors
                .iter()
                .map(|e| (e.line, e.column, e.message.clone()))
                .collect::<Vec<_>>(),
            vec![(
                5,
                7,
                format!(
                    "the file ends inside a UTF-8 character (cut short?): its last {dropped} byte{} are not read",
                    if dropped == 1 { "" } else { "s" }
                )
            )]
        );
    }
    // ASCII and two bytes at the end: nothing says UTF-8, CP932 reads them whole.
    let f = read_bytes(b"startpos moves 7g7f\n\x82\xa0", Some(Path::new("a.usi")));
    assert_eq!(f.encoding, Encoding::ShiftJis);
}

#[test]
fn usi_lines_that_give_no_position_are_errors_not_games() {
    use kifudex::notation::read_bytes;
    let text = "junk first\nstartpos moves 7g7f\nnot a position\n\nsfen 9/9 b - 1\nstartpos moves 2g2f 8c8d\n";
    let f = read_bytes(text.as_bytes(), Some(Path::new("a.usi")));
    assert_eq!(f.error, None);
    assert_eq!(f.games.len(), 2);
    let errors = |g: &Record| {
        g.errors
            .iter()
            .map(|e| (e.line, e.column))
            .collect::<Vec<_>>()
    };
    assert_eq!(errors(&f.games[0]), vec![(1, 1), (3, 1), (5, 6)]);
    assert_eq!(
        f.games[0].errors[1].message,
        "expected startpos, sfen or an SFEN position, found 'not'"
    );
    assert_eq!(errors(&f.games[1]), vec![]);
    // A megabyte of random bytes read as USI makes no game at all: one blank record holding
    // an error a line, which read_bytes turns into one error for the file.
    let mut rng = crate::util::Rng::new(19);
    let junk: Vec<u8> = (0..1 << 20).map(|_| rng.next_u64() as u8).collect();
    let text = String::from_utf8_lossy(&junk);
    let lines = kifudex::notation::decode::lines(&text)
        .iter()
        .filter(|l| !l.trim().is_empty())
        .count();
    assert!(lines > 4000, "{lines}");
    let games = usi::read_usi(&text);
    assert_eq!(games.len(), 1);
    assert!(games[0].is_blank());
    assert_eq!(games[0].errors.len(), lines);
    let f = read_bytes(b"junk\nmore junk\n", Some(Path::new("junk.usi")));
    assert_eq!(f.format, Some(kifudex::notation::Format::Usi));
    assert_eq!(f.games.len(), 0);
    assert_eq!(
        f.error.as_deref(),
        Some(
            "not a game record kifudex recognises (line 1, column 1: expected startpos, sfen or an SFEN position, found 'junk')"
        )
    );
}

#[test]
fn a_csa_file_of_many_games_reserves_room_for_each_game_only() {
    use kifudex::notation::csa::read_csa;
    // 2,000 games of four moves: each game's move list has room for its own bytes, not for
    // what follows it in the file (it had room for 513 moves, 87 KB, whatever the game).
    let game = "V2.2\nN+a\nN-b\nPI\n+\n+2726FU\n-8384FU\n+2625FU\n-8485FU\n%TORYO\n";
    let text = vec![game; 2000].join("/\n");
    let games = read_csa(&text);
    assert_eq!(games.len(), 2000);
    for g in &games {
        assert_eq!(g.main.moves.len(), 4);
        // 32 bytes of moves and end: room for 32 / 8 + 1 moves.
        assert!(g.main.moves.capacity() <= 5, "{}", g.main.moves.capacity());
    }
}

/// Writes a CSA file of `KIFUDEX_CSA_GAMES` generated games to `KIFUDEX_CSA_OUT`, to measure
/// an import of it (`cargo test -q hostile::write_big_csa -- --ignored`).
#[test]
#[ignore]
fn write_big_csa() {
    use kifudex::synth::{Synth, SynthOptions};
    let n: usize = std::env::var("KIFUDEX_CSA_GAMES").map_or(100_000, |v| v.parse().unwrap());
    let out = std::env::var("KIFUDEX_CSA_OUT").unwrap_or("/tmp/big.csa".into());
    let mut synth = Synth::new(SynthOptions {
        seed: 19,
        ..SynthOptions::default()
    });
    let games: Vec<Record> = (0..n).map(|_| synth.game()).collect();
    let text =
        kifudex::notation::csa::write_csa_games(&games, kifudex::notation::csa::CsaVersion::V2_2);
    std::fs::write(out, text).unwrap();
}

#[test]
fn line_counting_goes_on_from_the_last_error_and_agrees_with_line_column() {
    use kifudex::notation::decode::{LineCounter, line_column};
    let mut rng = crate::util::Rng::new(7);
    let pieces = ["a", "\n", "\r", "\r\n", "歩", "x y", "é"];
    for _ in 0..200 {
        let text: String = (0..rng.below(60))
            .map(|_| pieces[rng.below(pieces.len())])
            .collect();
        let mut counter = LineCounter::new(&text);
        // Increasing offsets, and now and then one that goes back.
        let mut offsets: Vec<usize> = (0..20).map(|_| rng.below(text.len() + 2)).collect();
        offsets.sort_unstable();
        offsets.insert(10, rng.below(text.len() + 1));
        for at in offsets {
            assert_eq!(
                counter.line_column(at),
                line_column(&text, at),
                "{text:?} at {at}"
            );
        }
    }
    // 200,000 unmatched ')': one error each, read in linear time (it took minutes).
    let text = ")".repeat(200_000);
    let games = psn::read_psn(&text);
    let errors = &games[0].errors;
    assert_eq!(errors.len(), 200_000);
    assert_eq!((errors[199_999].line, errors[199_999].column), (1, 200_000));
}

/// A JKF record with an error in each of 100,000 forks: each error's line and column are
/// counted on from the last one's (from the file's start each time, this took minutes).
#[test]
fn jkf_errors_in_many_forks_are_placed_in_linear_time() {
    let fork = r#"[{"move":{"from":{"x":5,"y":5},"to":{"x":5,"y":4},"piece":"FU"}}]"#;
    let n = 100_000;
    let head = r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"},"forks":["#;
    let text = format!("{head}{}]}}]}}", vec![fork; n].join(",\n"));
    let rec = jkf::read_jkf(&text).unwrap();
    assert_eq!(rec.main.moves.len(), 1);
    assert_eq!(rec.errors.len(), n, "{:?}", rec.errors.first());
    // Fork k is on line k + 1, its entry one character in.
    for (k, e) in rec.errors.iter().enumerate() {
        let want_column = if k == 0 { head.chars().count() + 2 } else { 2 };
        assert_eq!((e.line, e.column), (k + 1, want_column), "{e:?}");
    }
    assert!(
        rec.errors[0].message.starts_with("move 1: "),
        "{}",
        rec.errors[0].message
    );
}

#[test]
fn messages_quote_a_short_excerpt_of_a_long_line() {
    let junk = "x".repeat(1_000_000);
    let rec = kif::read_kif(&format!("先手：a\n{junk}\n"));
    assert_eq!(rec.errors.len(), 1);
    assert_eq!(
        rec.errors[0].message,
        format!(
            "line not understood: '{}… (999920 more characters)'",
            "x".repeat(80)
        )
    );
    let games = kifudex::notation::csa::read_csa(&format!("V2.2\nPI\n+\n+7776FU {junk}\n"));
    for e in &games[0].errors {
        assert!(e.message.chars().count() <= 400, "{}", e.message.len());
    }
}

#[test]
fn control_characters_from_records_and_names_never_reach_the_terminal() {
    let dir = TempDb::new("hostile-escape");
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    let evil = "\u{1b}[2J\u{1b}]0;owned\u{7}";
    std::fs::write(
        tree.join("a.kif"),
        format!("棋戦：{evil}\n先手：a\nb\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 {evil}\n"),
    )
    .unwrap();
    std::fs::write(tree.join(format!("b{evil}\n.kif")), "junk line\n").unwrap();
    let out = Kifudex::new()
        .db(dir.path().join("db"))
        .args(&["import", tree.to_str().unwrap()])
        .output();
    let err = out.stderr.clone();
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains("\\u{1b}[2J\\u{1b}]0;owned\\u{7}"), "{err}");
    // The file name's newline is shown, not obeyed: one line a problem.
    assert!(
        err.lines()
            .any(|l| l.contains("b\\u{1b}[2J") && l.contains("\\n.kif")),
        "{err}"
    );
    let out = Kifudex::new()
        .db(dir.path().join("db"))
        .args(&["search"])
        .output();
    let table = out.stdout.clone();
    assert!(out.status.success());
    assert!(
        !table.contains('\u{1b}') && !table.contains('\u{7}'),
        "{table:?}"
    );
    assert!(table.contains("\\u{1b}[2J"), "{table}");
    // JSON keeps the value, escaped as JSON escapes it.
    let out = Kifudex::new()
        .db(dir.path().join("db"))
        .args(&["search", "--json"])
        .output();
    assert_eq!(out.json_lines()[0]["event"], evil);
}

#[test]
fn a_database_locked_by_another_program_is_said_once_in_words() {
    use kifudex::store::StoreError;
    for code in [rusqlite::ffi::SQLITE_BUSY, rusqlite::ffi::SQLITE_LOCKED] {
        let e = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(code),
            Some("database is locked".into()),
        );
        assert_eq!(
            StoreError::from(e).to_string(),
            "the database is locked by another program (one that holds a write transaction on kifudex.sqlite): kifudex waited 30 s; try again once it is done"
        );
    }
    // Other errors keep SQLite's words.
    let e = rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT),
        Some("database disk image is malformed".into()),
    );
    assert!(
        StoreError::from(e)
            .to_string()
            .starts_with("database error: database disk image is malformed")
    );
}

#[test]
fn a_tree_of_hostile_inputs_imports_every_good_game_and_reports_each_bad_input_once() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDb::new("hostile-all");
    let tree = dir.join("tree");
    let sub = tree.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    // Good records: five games, one of them inside the zip beside the bomb.
    for (name, plies) in [("good1.kif", 3), ("good2.kif", 4)] {
        std::fs::write(tree.join(name), small_kif(name, plies)).unwrap();
    }
    std::fs::write(sub.join("good3.kif"), small_kif("good3", 5)).unwrap();
    std::fs::write(
        tree.join(std::ffi::OsStr::from_bytes(b"\xff-good4.kif")),
        small_kif("good4", 6),
    )
    .unwrap();
    let zeros = vec![0u8; 4 << 20];
    let zip = zip_deflated(&[
        ("bomb.kif", &zeros),
        ("good5.kif", small_kif("good5", 7).as_bytes()),
    ]);
    std::fs::write(tree.join("archive.zip"), zip).unwrap();
    // Hostile ones, each with the one problem it must be reported for.
    std::fs::write(tree.join("deep.kifu"), nested_kif(10_000)).unwrap();
    std::fs::write(tree.join("deep.jkf"), nested_jkf(1000)).unwrap();
    std::fs::write(tree.join("junk.usi"), "junk\n\u{1b}[2J more junk\n").unwrap();
    let cut = small_kif("切れた", 8) + "*終";
    std::fs::write(tree.join("cut.kif"), &cut.as_bytes()[..cut.len() - 1]).unwrap();
    std::os::unix::fs::symlink(".", sub.join("self")).unwrap();
    std::os::unix::fs::symlink("..", sub.join("up")).unwrap();
    let ok = std::process::Command::new("mkfifo")
        .arg(tree.join("fifo.kif"))
        .status()
        .unwrap();
    assert!(ok.success());
    let mut store = kifudex::store::Store::create(&dir.join("db")).unwrap();
    let options = kifudex::ingest::ImportOptions {
        max_source_bytes: 1 << 20,
        variations: true,
        ..kifudex::ingest::ImportOptions::default()
    };
    let mut seen = Problems::default();
    let summary = kifudex::ingest::import(
        &mut store,
        std::slice::from_ref(&tree),
        &options,
        &mut seen,
        &kifudex::progress::Quiet,
    )
    .unwrap();
    // Five good games, the two deep trees and the cut file's game.
    assert_eq!(summary.games, 8, "{:#?}", seen.0);
    assert_eq!(store.game_count().unwrap(), 8);
    let t = tree.to_string_lossy();
    let expected = [
        (format!("{t}/archive.zip!bomb.kif"), "larger than 1 MiB"),
        (format!("{t}/cut.kif"), "ends inside a UTF-8 character"),
        (format!("{t}/deep.jkf"), "forks nested more than 100 deep"),
        (format!("{t}/deep.kifu"), "nested more than 100 deep"),
        (format!("{t}/fifo.kif"), "a named pipe (FIFO)"),
        (
            format!("{t}/junk.usi"),
            "not a game record kifudex recognises",
        ),
    ];
    assert_eq!(seen.0.len(), expected.len(), "{:#?}", seen.0);
    for (path, reason) in expected {
        let hits: Vec<&String> = seen
            .0
            .iter()
            .filter(|p| p.starts_with(&format!("{path}:")))
            .collect();
        assert_eq!(hits.len(), 1, "{path}: {:#?}", seen.0);
        assert!(hits[0].contains(reason), "{}", hits[0]);
    }
    // Every stored game can be shown.
    for id in 1..=8 {
        assert!(store.game(id).unwrap().is_some());
    }
}

/// A header value longer than `MAX_HEADER_VALUE` and a comment longer than `MAX_COMMENT`
/// (here inside a variation) are cut at a character boundary with a warning at their line;
/// the game and its moves are kept whole, in `parse` and in an import alike.
#[test]
fn huge_header_values_and_comments_are_cut_with_a_warning() {
    use kifudex::notation::{MAX_COMMENT, MAX_HEADER_VALUE};
    let dir = TempDb::new("hostile-huge-text");
    std::fs::create_dir_all(&dir).unwrap();
    // Three-byte characters, so that the limit falls inside one.
    let event = "あ".repeat(MAX_HEADER_VALUE / 3 + 100);
    let comment = "い".repeat(MAX_COMMENT / 3 + 100);
    let text = format!(
        "棋戦：{event}\n先手：甲\n後手：乙\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n*{comment}\n   3 ２六歩(27)\n"
    );
    let file = dir.join("huge.kif");
    std::fs::write(&file, &text).unwrap();
    let out = Kifudex::new()
        .db(dir.join("db"))
        .args(&["parse", file.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let v = &out.json_lines()[0];
    let kept = v["event"].as_str().unwrap();
    assert_eq!(kept.len(), MAX_HEADER_VALUE / 3 * 3);
    assert!(event.starts_with(kept));
    assert_eq!(v["moves"].as_array().unwrap().len(), 3);
    let warnings: Vec<(u64, String)> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["line"].as_u64().unwrap(),
                w["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        warnings,
        vec![
            (
                1,
                format!(
                    "the header 棋戦 is {} bytes long: kept its first 64 KiB",
                    event.len()
                )
            ),
            (
                11,
                format!(
                    "a comment is {} bytes long: kept its first 1024 KiB",
                    comment.len()
                )
            ),
        ]
    );

    let out = Kifudex::new()
        .db(dir.join("db"))
        .args(&["import", dir.to_str().unwrap()])
        .output();
    assert!(out.status.success(), "{}", out.stderr);
    let err = out.stderr.clone();
    assert!(
        err.contains(&format!(
            "huge.kif:1:1: warning: the header 棋戦 is {} bytes long",
            event.len()
        )),
        "{err}"
    );
    let games = Kifudex::new()
        .db(dir.join("db"))
        .args(&["search", "--json"])
        .output()
        .json_lines();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["plies"], 3);
    assert_eq!(
        games[0]["event"].as_str().unwrap().len(),
        MAX_HEADER_VALUE / 3 * 3
    );
}

/// A record holds at most `MAX_RECORD_MOVES` moves, its main line and variations together,
/// whichever reader builds it: one error says so where reading stopped, once; what came
/// before is kept. (A 65 MB KIF of one long line took 613 MB to import, a 50 MB one of
/// 1,700,000 variations 1.09 GB: the memory of one file had no bound below the source limit.)
#[test]
fn a_record_stops_at_the_most_moves_kifudex_reads_in_one() {
    use kifudex::notation::MAX_RECORD_MOVES;
    let kif_moves = ["５八玉(59)", "５二玉(51)", "５九玉(58)", "５一玉(52)"];
    let psn_moves = ["K5i-5h", "K5a-5b", "K5h-5i", "K5b-5a"];
    let full = format!(
        "the record holds {MAX_RECORD_MOVES} moves, as many as kifudex reads in one: the rest is not read"
    );
    let total = |r: &Record| {
        fn count(line: &Line) -> usize {
            line.moves
                .iter()
                .map(|m| 1 + m.variations.iter().map(count).sum::<usize>())
                .sum()
        }
        count(&r.main)
    };

    // One long KIF line: the move after the last is where it stops (line, column).
    let mut text = String::from("手合割：平手\n手数----指手---------消費時間--\n");
    for i in 0..MAX_RECORD_MOVES + 10 {
        text.push_str(&format!("{} {}\n", i + 1, kif_moves[i % 4]));
    }
    let r = kif::read_kif(&text);
    assert_eq!(r.main.moves.len(), MAX_RECORD_MOVES);
    let stop = MAX_RECORD_MOVES + 3;
    assert_eq!(
        r.errors,
        [kifudex::notation::ReadError::new(stop, 8, full.as_str())]
    );
    assert!(r.incomplete);

    // KIF variations, each of one move, listed after the main line's first move.
    let mut text = format!(
        "手合割：平手\n手数----指手---------消費時間--\n1 {}\n",
        kif_moves[0]
    );
    for _ in 0..MAX_RECORD_MOVES + 10 {
        text.push_str(&format!("変化：1手\n1 {}\n", kif_moves[0]));
    }
    let r = kif::read_kif(&text);
    assert_eq!(total(&r), MAX_RECORD_MOVES);
    assert_eq!(r.main.moves[0].variations.len(), MAX_RECORD_MOVES - 1);
    let messages: Vec<&str> = r.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages, [full.as_str()]);
    // The 変化 line after the record filled up: line 3 + 2 a variation.
    assert_eq!(r.errors[0].line, 3 + 2 * MAX_RECORD_MOVES - 1);
    assert!(!r.incomplete);

    // PSN variations.
    let mut text = format!("1.{}", psn_moves[0]);
    for _ in 0..MAX_RECORD_MOVES + 10 {
        text.push_str(&format!(" ({})", psn_moves[0]));
    }
    text.push_str(&format!(" {}\n", psn_moves[1]));
    let games = psn::read_psn(&text);
    let r = &games[0];
    assert_eq!(total(r), MAX_RECORD_MOVES);
    let messages: Vec<&str> = r.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages, [full.as_str()]);

    // JKF forks.
    let mv = r#"{"move":{"from":{"x":5,"y":9},"to":{"x":5,"y":8},"piece":"OU"}}"#;
    let fork = format!("[{mv}]");
    let forks = vec![fork.as_str(); MAX_RECORD_MOVES + 10].join(",");
    let text = format!(
        r#"{{"moves":[{{}},{{"move":{{"from":{{"x":5,"y":9}},"to":{{"x":5,"y":8}},"piece":"OU"}},"forks":[{forks}]}}]}}"#
    );
    let r = jkf::read_jkf(&text).unwrap();
    assert_eq!(total(&r), MAX_RECORD_MOVES);
    let messages: Vec<&str> = r.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].ends_with(&full), "{messages:?}");
}
