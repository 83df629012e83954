//! What kifudex writes reads back as it was: every terminal through every writer (for either
//! side to move), the characters Japanese text holds in a JIS and a CP932 form through
//! every writer (Shift-JIS files hold their bytes, never `&#NNNN;`), and records of no moves
//! (a stated start, no moves) through `parse`, `convert` and `import`.

use std::path::Path;

use crate::util::{Kifudex, TempDb};
use kifudex::notation::csa::CsaVersion;
use kifudex::notation::decode::{cp932_form, encode_shift_jis};
use kifudex::notation::kif::read_kif;
use kifudex::notation::write::{Dropped, Target, write};
use kifudex::notation::{Record, Terminal, TerminalKind, read_bytes};

/// KIF moves for 0 to 3 plies.
fn moves(plies: usize) -> Record {
    let lines = ["1 ７六歩(77)", "2 ３四歩(33)", "3 ２六歩(27)"];
    let text: String = lines[..plies].iter().map(|l| format!("{l}\n")).collect();
    let mut rec = read_kif(&format!(
        "先手：甲\n後手：乙\n手数----指手---------消費時間--\n{text}"
    ));
    assert!(rec.errors.is_empty(), "{:?}", rec.errors);
    assert_eq!(rec.main.moves.len(), plies);
    rec.main.terminal = None;
    rec
}

/// The file name a target's files have, so that the reader is given what a user gives it.
fn file_of(to: Target) -> String {
    format!("game.{}", to.extension())
}

/// Every terminal, written by every writer, reads back as itself with its winner, whichever
/// side is to move; the one writer that has no endings (USI) says so.
#[test]
fn every_terminal_through_every_writer() {
    let mut checked = 0;
    for kind in TerminalKind::ALL {
        for plies in 0..=3 {
            let mut rec = moves(plies);
            rec.main.terminal = Some(Terminal::new(kind, None));
            for to in Target::ALL {
                let written = write(std::slice::from_ref(&rec), to, CsaVersion::V2_2);
                if to == Target::Usi {
                    assert!(written.dropped.contains(&Dropped::Endings), "{kind}");
                    continue;
                }
                let read = read_bytes(&written.bytes, Some(Path::new(&file_of(to))));
                let what = format!(
                    "{kind} after {plies} plies through {to}:\n{}",
                    String::from_utf8_lossy(&written.bytes)
                );
                let back = read.games.first().unwrap_or_else(|| panic!("{what}"));
                assert!(!back.has_errors(), "{what}: {:?}", back.errors);
                assert_eq!(back.main.moves.len(), plies, "{what}");
                assert_eq!(back.terminal(), Some(kind), "{what}");
                assert_eq!(back.result(), rec.result(), "{what}");
                // Nothing more comes back than went in (a remark that said which ending).
                assert!(back.notes.is_empty(), "{what}: {:?}", back.notes);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 17 * 4 * 8);
}

/// The case of the issue: a CSA draw by the move limit, exported to KIF, is a draw by the
/// move limit again (the KIF move line says 持将棋, which every KIF reader knows).
#[test]
fn a_csa_max_moves_through_kif_is_a_draw_by_the_move_limit() {
    let csa = "V2.2\nN+甲\nN-乙\nPI\n+\n+7776FU\n-3334FU\n%MAX_MOVES\n";
    let dir = TempDb::new("max-moves");
    let file = dir.join("limit.csa");
    std::fs::write(&file, csa).unwrap();
    let out = Kifudex::new()
        .args(["convert", file.to_str().unwrap(), "--to", "kifu"])
        .output()
        .success();
    let kif = out.stdout;
    assert!(kif.contains("   3 持将棋"), "{kif}");
    assert!(kif.contains("まで2手で最大手数"), "{kif}");
    let kif_file = dir.join("limit.kifu");
    std::fs::write(&kif_file, &kif).unwrap();
    let parsed = Kifudex::new()
        .args(["parse", kif_file.to_str().unwrap()])
        .output()
        .success()
        .json_lines();
    assert_eq!(parsed[0]["terminal"], "max_moves");
    assert_eq!(parsed[0]["winner"], "draw");
}

/// The characters with a JIS and a CP932 form, and the CP932 forms themselves.
const VARIANTS: &str = "〜～‖∥−－¢£¬￠￡￢—―¦￤";

/// What a Shift-JIS file of `text` reads back as: each character in the form CP932 has
/// bytes for (U+2212 is written with U+FF0D's bytes, and read back so).
fn as_cp932(text: &str) -> String {
    text.chars()
        .map(|c| match cp932_form(c) {
            '\u{2212}' => '\u{FF0D}',
            c => c,
        })
        .collect()
}

/// The variant characters, in a header and a comment, through every writer: Shift-JIS
/// targets write the bytes Japanese software reads (WAVE DASH as 81 60, not `&#12316;`) and
/// say nothing was lost; every target that holds headers and comments reads them back (in
/// the CP932 forms from Shift-JIS, as written from UTF-8).
#[test]
fn the_variant_characters_through_every_writer() {
    let mut rec = moves(2);
    rec.headers
        .push(("棋戦".into(), format!("第1期{VARIANTS}戦")));
    rec.main.moves[0].comments.push(format!("波{VARIANTS}線"));
    rec.main.terminal = Some(Terminal::new(TerminalKind::Resign, None));
    for to in Target::ALL {
        let written = write(std::slice::from_ref(&rec), to, CsaVersion::V2_2);
        assert!(!written.dropped.contains(&Dropped::NotShiftJis), "{to}");
        assert!(
            !written.bytes.windows(2).any(|w| w == b"&#"),
            "{to}: {}",
            String::from_utf8_lossy(&written.bytes)
        );
        if matches!(to, Target::Usi | Target::Kk) {
            continue;
        }
        let shift_jis = matches!(to, Target::Kif | Target::Ki2);
        if shift_jis {
            // 〜 and ～ are both 81 60; ‖ and ∥ 81 61; − and － 81 7C.
            let wave = [
                0x81, 0x60, 0x81, 0x60, 0x81, 0x61, 0x81, 0x61, 0x81, 0x7C, 0x81, 0x7C,
            ];
            assert!(written.bytes.windows(12).any(|w| w == wave), "{to}");
        }
        let read = read_bytes(&written.bytes, Some(Path::new(&file_of(to))));
        let back = &read.games[0];
        let want = |s: String| if shift_jis { as_cp932(&s) } else { s };
        assert_eq!(
            back.event(),
            Some(want(format!("第1期{VARIANTS}戦")).as_str()),
            "{to}"
        );
        assert_eq!(
            back.main.moves[0].comments,
            [want(format!("波{VARIANTS}線"))],
            "{to}"
        );
    }
}

/// The encoder itself: every JIS form goes to its CP932 form's bytes, and a character
/// Shift-JIS has no form for is still a reference, said so.
#[test]
fn shift_jis_bytes_of_both_forms() {
    let pairs = [
        ('〜', '～'),
        ('‖', '∥'),
        ('—', '―'),
        ('¢', '￠'),
        ('£', '￡'),
        ('¬', '￢'),
        ('¦', '￤'),
        ('−', '－'),
    ];
    for (jis, cp932) in pairs {
        let (a, lossy_a) = encode_shift_jis(&jis.to_string());
        let (b, lossy_b) = encode_shift_jis(&cp932.to_string());
        assert_eq!(a, b, "{jis} and {cp932}");
        assert_eq!(a.len(), 2, "{jis}: {a:02X?}");
        assert!(!lossy_a && !lossy_b);
    }
    let (bytes, lossy) = encode_shift_jis("歩😀");
    assert!(lossy);
    assert_eq!(String::from_utf8_lossy(&bytes[2..]), "&#128512;");
}

/// A CSA start position with no moves (the usual start as `PI`, as nine rows, a handicap,
/// a problem's position) is a record of 0 moves for `parse`, as the reference readers read
/// it; `convert --to usi` writes a line the USI reader reads back as the same start.
#[test]
fn a_record_of_no_moves_is_a_record() {
    let dir = TempDb::new("no-moves");
    let rows = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n";
    let even = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let cases = [
        ("pi.csa", "V2.2\nPI\n+\n".to_string(), even.to_string()),
        ("rows.csa", format!("V2.2\n{rows}+\n"), even.to_string()),
        (
            "white.csa",
            format!("{rows}-\n"),
            even.replace(" b ", " w "),
        ),
        (
            "lance.csa",
            "PI11KY\n-\n".to_string(),
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1".to_string(),
        ),
        (
            "problem.csa",
            "P-21OU\nP+00HI\n+\n".to_string(),
            "7k1/9/9/9/9/9/9/9/9 b R 1".to_string(),
        ),
    ];
    for (name, text, sfen) in &cases {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let parsed = Kifudex::new()
            .args(["parse", file.to_str().unwrap()])
            .output()
            .success()
            .json_lines();
        assert_eq!(parsed.len(), 1, "{name}");
        let game = &parsed[0];
        assert_eq!(game["error"], serde_json::Value::Null, "{name}");
        assert_eq!(game["moves"], serde_json::json!([]), "{name}");
        assert_eq!(game["start_sfen"], sfen.as_str(), "{name}");
        let usi = Kifudex::new()
            .args(["convert", file.to_str().unwrap(), "--to", "usi"])
            .output()
            .success()
            .stdout;
        let usi_file = dir.join(format!("{name}.usi"));
        std::fs::write(&usi_file, &usi).unwrap();
        let back = Kifudex::new()
            .args(["parse", usi_file.to_str().unwrap()])
            .output()
            .success()
            .json_lines();
        assert_eq!(back.len(), 1, "{name}: {usi}");
        assert_eq!(back[0]["error"], serde_json::Value::Null, "{name}: {usi}");
        assert_eq!(back[0]["start_sfen"], sfen.as_str(), "{name}: {usi}");
        assert_eq!(back[0]["moves"], serde_json::json!([]), "{name}: {usi}");
    }
    // An empty file is still no game.
    let empty = dir.join("empty.csa");
    std::fs::write(&empty, "").unwrap();
    let out = Kifudex::new()
        .args(["parse", empty.to_str().unwrap()])
        .output();
    assert_eq!(out.code(), 1);
}

/// Import keeps a record of no moves that carries headers, or a start that is no handicap's
/// (a problem); one with neither (the usual start, nothing else) is skipped with a warning
/// that names it, never an error; the file's other games keep their places.
#[test]
fn import_keeps_a_record_of_no_moves_with_something_in_it() {
    let dir = TempDb::new("import-no-moves");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("a-headers.csa"), "N+甲\nN-乙\nPI\n+\n").unwrap();
    std::fs::write(files.join("b-problem.csa"), "P-21OU\nP+00HI\n+\n").unwrap();
    std::fs::write(files.join("c-bare.csa"), "PI\n+\n").unwrap();
    // Three games in one file: the bare one in the middle is skipped, the third keeps its
    // place (game index 2).
    std::fs::write(
        files.join("d-several.csa"),
        "N+丙\nN-丁\nPI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n/\nN+戊\nN-己\nPI\n+\n+2726FU\n%TORYO\n",
    )
    .unwrap();
    let db = dir.join("db");
    let out = Kifudex::new()
        .db(&db)
        .args(["import", "--json", files.to_str().unwrap()])
        .output();
    assert_eq!(out.code(), 0, "{}", out.stderr);
    let summary: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(summary["games"], 4, "{summary}");
    assert_eq!(summary["errors"], 0, "{summary}");
    assert_eq!(summary["warnings"], 2, "{summary}");
    let mut warned: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains("skipped"))
        .collect();
    warned.sort();
    assert_eq!(warned.len(), 2, "{}", out.stderr);
    assert!(
        warned[0].contains("c-bare.csa: warning: a record of no moves"),
        "{warned:?}"
    );
    assert!(
        warned[1].contains("d-several.csa: game 2: warning"),
        "{warned:?}"
    );
    let games = crate::util::list_games(&db);
    let mut rows: Vec<(String, i64, i64)> = games
        .iter()
        .map(|g| {
            let file = g["file"].as_str().unwrap();
            let name = Path::new(file).file_name().unwrap().to_string_lossy();
            (
                name.into_owned(),
                g["game_index"].as_i64().unwrap(),
                g["plies"].as_i64().unwrap(),
            )
        })
        .collect();
    rows.sort();
    assert_eq!(
        rows,
        [
            ("a-headers.csa".to_string(), 0, 0),
            ("b-problem.csa".to_string(), 0, 0),
            ("d-several.csa".to_string(), 0, 1),
            ("d-several.csa".to_string(), 2, 1),
        ]
    );
}
