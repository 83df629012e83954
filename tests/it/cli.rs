//! The command line, run as a user runs it.

use crate::util::{Kifudex, TempDb};

#[test]
fn help_lists_the_commands() {
    let (code, out, _) = Kifudex::new().args(&["--help"]).output().parts();
    assert_eq!(code, 0);
    assert!(out.contains("perft"), "{out}");
}

#[test]
fn perft_counts_the_start_position() {
    let (code, out, err) = Kifudex::new()
        .args(&["perft", "--depth", "3"])
        .output()
        .parts();
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "position: lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    assert!(lines[1].starts_with("depth 3: 25470 nodes in "), "{out}");
    assert!(lines[1].ends_with(" nodes/s)"), "{out}");
}

#[test]
fn perft_divide_from_an_sfen() {
    let (code, out, err) = Kifudex::new()
        .args(&[
            "perft",
            "-d",
            "2",
            "--divide",
            "sfen",
            "8k/6S2/7G1/9/9/9/9/9/4K4",
            "b",
            "P",
            "1",
        ])
        .output()
        .parts();
    assert_eq!(code, 0, "{err}");
    // The mating pawn drop on 1b is not a legal move, so it is not listed.
    assert!(!out.contains("P*1b"), "{out}");
    assert!(out.contains("P*1c: "), "{out}");
}

#[test]
fn a_bad_position_is_a_clear_error_with_status_2() {
    let (code, out, err) = Kifudex::new()
        .args(&[
            "perft",
            "lnsgkgsnl/1r5b1/pppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
            "b",
            "-",
        ])
        .output()
        .parts();
    // perft reads positions as `position` does: a bad one is bad usage, and the message
    // points at the rank that is wrong.
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err.trim_end(),
        "kifudex: cannot read the position \"lnsgkgsnl/1r5b1/pppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -\": the SFEN is not a position: rank 3 has 10 squares (at character 17)"
    );
}

#[test]
fn bad_usage_exits_with_status_2() {
    let (code, _, err) = Kifudex::new()
        .args(&["perft", "--depth", "many"])
        .output()
        .parts();
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'many'"), "{err}");
    let (code, _, _) = Kifudex::new().args(&["no-such-command"]).output().parts();
    assert_eq!(code, 2);
}

/// A file of many problems shows five of them and a line counting the rest, and the next
/// file's problem is shown all the same; past fifty lines, only each file's first problem.
#[test]
fn import_shows_a_few_problems_a_file_and_every_bad_file() {
    let dir = TempDb::new("cli-problems");
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    // a.psn: twenty `)` that close nothing, each its own error.
    std::fs::write(
        tree.join("a.psn"),
        format!("[Sente \"a\"]\n{}\n", ")".repeat(20)),
    )
    .unwrap();
    // b.kif .. : one error each (a move that cannot be played); sixty of them.
    for i in 0..60 {
        let kif = "手数----指手---------消費時間--\n   1 ５五歩(56)\n";
        std::fs::write(tree.join(format!("b{i:02}.kif")), kif).unwrap();
    }
    std::fs::write(tree.join("c.psn"), "[Sente \"c\"]\n))\n").unwrap();
    let db = dir.join("db");
    let (code, _, err) = Kifudex::new()
        .args(&[
            "--db",
            db.to_str().unwrap(),
            "import",
            tree.to_str().unwrap(),
        ])
        .output()
        .parts();
    assert_eq!(code, 1, "{err}");
    let t = tree.to_string_lossy();
    let lines: Vec<&str> = err.lines().collect();
    for (i, line) in lines.iter().take(5).enumerate() {
        assert!(
            line.starts_with(&format!("kifudex: {t}/a.psn:2:{}: ", i + 1)),
            "{line}"
        );
    }
    assert_eq!(
        lines[5],
        format!("kifudex: {t}/a.psn: ... and 15 more problems in this file")
    );
    // Every b file once, in order, then c's first problem and the count of its second.
    for i in 0..60 {
        assert!(
            lines[6 + i].starts_with(&format!("kifudex: {t}/b{i:02}.kif: ")),
            "{}",
            lines[6 + i]
        );
    }
    assert!(
        lines[66].starts_with(&format!("kifudex: {t}/c.psn:2:1: ")),
        "{err}"
    );
    assert_eq!(
        lines[67],
        format!("kifudex: {t}/c.psn: ... and 1 more problem in this file")
    );
    assert_eq!(lines.len(), 68, "{err}");
}
