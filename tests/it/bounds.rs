//! Every count a user gives has a bound: threads beyond what can help are lowered with a
//! note, other counts beyond their bound are bad usage (exit status 2) naming the bound, and
//! an input echoed in an error is cut to a few hundred characters.

use crate::util::{Kifudex, TempDb};

fn threads_that_help() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) * 4
}

#[test]
fn import_lowers_jobs_to_what_can_help_and_says_so() {
    let dir = TempDb::new("bounds-jobs");
    let out = Kifudex::new()
        .db(dir.join("db"))
        .args(["import", "--jobs", "99999999999", "sample_db/"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    assert_eq!(out.code(), 0, "{}", out.stderr);
    let max = threads_that_help();
    assert!(
        out.stderr.contains(&format!(
            "kifudex: note: --jobs 99999999999 is more than this machine can use; using {max} (4 per core)"
        )),
        "{}",
        out.stderr
    );
    assert!(
        out.stdout.contains("220 games new") || out.stderr.contains("220 games new"),
        "{} {}",
        out.stdout,
        out.stderr
    );
    // A request within the bound is taken as it is, without a note.
    let out = Kifudex::new()
        .db(dir.join("db2"))
        .args(["import", "--jobs", "1", "sample_db/"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    assert_eq!(out.code(), 0);
    assert!(!out.stderr.contains("note: --jobs"), "{}", out.stderr);
}

#[test]
fn counts_beyond_their_bound_are_bad_usage_naming_it() {
    let dir = TempDb::new("bounds-counts");
    let db = dir.join("db");
    for (args, bound) in [
        (
            vec!["search", "--limit", "1000001"],
            "invalid value '1000001' for '--limit <N>': 1000001 is not in 0..=1000000",
        ),
        (
            vec!["text", "好手", "--limit", "99999999999999"],
            "99999999999999 is not in 0..=1000000",
        ),
        (
            vec!["perft", "--depth", "13"],
            "invalid value '13' for '--depth <DEPTH>': 13 is not in 0..=12",
        ),
        (
            vec!["find", "--like", "startpos", "--diff", "82"],
            "82 is not in 0..=81",
        ),
        (
            vec!["book", "--out", "x.db", "--max-ply", "100001"],
            "100001 is not in 0..=100000",
        ),
    ] {
        let out = Kifudex::new().db(&db).args(&args).output();
        assert_eq!(out.code(), 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(bound), "{args:?}: {}", out.stderr);
    }
    // The bound itself is taken.
    let out = Kifudex::new().args(["perft", "--depth", "0"]).output();
    assert_eq!(out.code(), 0, "{}", out.stderr);
}

#[test]
fn a_long_input_is_echoed_cut() {
    let dir = TempDb::new("bounds-echo");
    let sfen = "lnsgk".repeat(20_000);
    let out = Kifudex::new()
        .db(dir.join("db"))
        .args(["hash", sfen.as_str()])
        .output();
    assert_eq!(
        out.code(),
        2,
        "{}",
        &out.stderr[..200.min(out.stderr.len())]
    );
    assert!(
        out.stderr.len() < 1_500,
        "{} bytes on stderr",
        out.stderr.len()
    );
    assert!(
        out.stderr
            .starts_with("kifudex: cannot read the position \"lnsgklnsgk"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(" characters left out] … "),
        "{}",
        out.stderr
    );
}
