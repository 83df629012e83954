//! USI/SFEN records: every shape of position line, one game a line, errors with their
//! column, and the writer.

use crate::util::usi_moves;
use kifudex::notation::kif::{read_kif, write_kif};
use kifudex::notation::usi::{read_usi, read_usi_line, write_usi};
use kifudex::notation::{Format, Record, read_bytes};
use kifudex::shogi::{Handicap, Position, Rule, STARTPOS_SFEN};

fn clean(line: &str) -> Record {
    let r = read_usi_line(line, 1);
    assert_eq!(r.errors, [], "{line}");
    r
}

const TWO_PIECES: &str = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";

#[test]
fn every_shape_of_position_line() {
    let cases: [(&str, &str, &[&str]); 11] = [
        ("startpos", STARTPOS_SFEN, &[]),
        ("startpos moves", STARTPOS_SFEN, &[]),
        ("startpos moves 7g7f 3c3d", STARTPOS_SFEN, &["7g7f", "3c3d"]),
        ("position startpos", STARTPOS_SFEN, &[]),
        (
            "position startpos moves 2g2f 8c8d 2f2e",
            STARTPOS_SFEN,
            &["2g2f", "8c8d", "2f2e"],
        ),
        (
            "position sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 7a6b 7g7f",
            TWO_PIECES,
            &["7a6b", "7g7f"],
        ),
        (
            "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            TWO_PIECES,
            &[],
        ),
        // Without the move number.
        (
            "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - moves 7a6b",
            TWO_PIECES,
            &["7a6b"],
        ),
        // A bare SFEN, with and without moves; a later move number is kept.
        (
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
            TWO_PIECES,
            &[],
        ),
        (
            "8k/9/9/9/9/9/9/9/K8 b G2r2b3g4s4n4l18p 37 moves G*1b",
            "8k/9/9/9/9/9/9/9/K8 b G2r2b3g4s4n4l18p 37",
            &["G*1b"],
        ),
        ("  startpos   moves\t7g7f  ", STARTPOS_SFEN, &["7g7f"]),
    ];
    for (line, start, moves) in cases {
        let r = clean(line);
        assert_eq!(r.start.to_sfen(), start, "{line}");
        assert_eq!(usi_moves(&r), moves, "{line}");
        assert_eq!(r.headers, [], "{line}");
        assert_eq!(r.terminal(), None, "{line}");
    }
    assert_eq!(
        clean(&format!("sfen {TWO_PIECES}")).handicap(),
        Handicap::TwoPieces
    );
    assert_eq!(
        clean("startpos moves 1g1f 9c9d 1f1e 9d9e 1e1d 9e9f 1d1c+")
            .main
            .moves[6]
            .mv
            .usi(),
        "1d1c+"
    );
}

#[test]
fn one_game_a_line() {
    let text = "startpos moves 7g7f\r\n\r\nposition startpos moves 2g2f 8c8d\n   \nsfen 8k/9/9/9/9/9/9/9/K8 b - 1\nstartpos";
    let games = read_usi(text);
    assert_eq!(games.len(), 4);
    assert_eq!(usi_moves(&games[0]), ["7g7f"]);
    assert_eq!(usi_moves(&games[1]), ["2g2f", "8c8d"]);
    assert_eq!(games[2].start.to_sfen(), "8k/9/9/9/9/9/9/9/K8 b - 1");
    assert_eq!(usi_moves(&games[3]), Vec::<String>::new());
    let f = read_bytes(text.as_bytes(), None);
    assert_eq!(f.format, Some(Format::Usi));
    assert_eq!(f.games.len(), 4);
    // A bare SFEN line is recognised too.
    let f = read_bytes(
        b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f\n",
        None,
    );
    assert_eq!(f.format, Some(Format::Usi));
    assert_eq!(usi_moves(&f.games[0]), ["7g7f"]);
}

#[test]
fn errors_name_the_column_and_keep_what_was_read() {
    let cases = [
        (
            "startpos moves 7g7f 3c3x 2g2f",
            3,
            21,
            &["7g7f"][..],
            "move 2: '3c3x' is not a USI move: the destination must be a file 1-9 and a rank a-i; the rest of the line is ignored",
        ),
        (
            "startpos moves 7g7f 7g7f",
            3,
            21,
            &["7g7f"][..],
            "move 2: 7g7f cannot be played: there is no piece on 7g; the rest of the line is ignored",
        ),
        (
            "startpos 7g7f",
            3,
            10,
            &[][..],
            "expected 'moves' after the position, found '7g7f'; the rest of the line is ignored",
        ),
        (
            "go infinite",
            3,
            1,
            &[][..],
            "expected startpos, sfen or an SFEN position, found 'go'",
        ),
        (
            "position sfen 9/9/9 b - 1 moves 7g7f",
            3,
            15,
            &[][..],
            "the SFEN is not a position: the board has 3 ranks; it needs 9, separated by '/'",
        ),
        (
            "sfen",
            3,
            5,
            &[][..],
            "the SFEN is not a position: an SFEN has a board, a side to move, hands and an optional move number, but this has 0 field(s)",
        ),
    ];
    for (line, n, column, moves, message) in cases {
        let r = read_usi_line(line, n);
        assert_eq!(usi_moves(&r), moves, "{line}");
        assert_eq!(r.errors.len(), 1, "{line}");
        assert_eq!(
            (r.errors[0].line, r.errors[0].column),
            (n, column),
            "{line}"
        );
        assert_eq!(r.errors[0].message, message, "{line}");
    }
}

#[test]
fn illegal_moves_are_played_and_flagged() {
    let r = clean("sfen 4k4/9/9/9/9/9/4P4/9/4K4 b P 1 moves P*5e 5a4a");
    assert_eq!(usi_moves(&r), ["P*5e", "5a4a"]);
    assert_eq!(r.first_illegal(), Some((1, Rule::TwoPawns)));
}

#[test]
fn the_writer_gives_the_main_line_only() {
    let r = read_kif(
        "先手：甲\n*開始\n1 ７六歩(77)   ( 0:01/00:00:01)\n*コメント\n2 ３四歩(33)\n3 投了\n\n変化：2手\n2 ８四歩(83)\n",
    );
    assert_eq!(r.errors, []);
    assert_eq!(write_usi(&r), "startpos moves 7g7f 3c3d");
    let back = clean(&write_usi(&r));
    assert_eq!(usi_moves(&back), usi_moves(&r));
    assert_eq!(back.start, r.start);
    // Any other start is an SFEN, with its move number; no moves, no `moves`.
    let r = clean(&format!("sfen {TWO_PIECES} moves 7a6b"));
    assert_eq!(write_usi(&r), format!("sfen {TWO_PIECES} moves 7a6b"));
    let r = clean("sfen 8k/9/9/9/9/9/9/9/K8 b G2r2b3g4s4n4l18p 37");
    assert_eq!(
        write_usi(&r),
        "sfen 8k/9/9/9/9/9/9/9/K8 b G2r2b3g4s4n4l18p 37"
    );
    // A start with a later move number is not `startpos`.
    let mut p = Position::startpos();
    p.set_move_number(5);
    let r = Record {
        start: p,
        ..Record::default()
    };
    assert_eq!(
        write_usi(&r),
        format!("sfen {}", STARTPOS_SFEN.replace(" 1", " 5"))
    );
}

#[test]
fn usi_to_kif_and_back() {
    for line in [
        "startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
        "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 7a6b 7g7f 6b5b",
        "sfen 4k4/9/9/9/1N7/9/9/9/4K4 b S2p 1 moves 8e7c 5a4b S*5b P*5f 7c6a+ 4b3c 6a5a",
    ] {
        let r = clean(line);
        let kif = read_kif(&write_kif(&r));
        assert_eq!(kif.errors, [], "{line}");
        assert_eq!(kif.start, r.start, "{line}");
        assert_eq!(kif.main, r.main, "{line}");
        assert_eq!(write_usi(&kif), line);
    }
}

/// `kifudex convert` to the three formats, run as a user runs it.
mod convert {
    use crate::util::{Kifudex, TempDb};

    /// Writes `text` to a file in a scratch folder of its own (removed with the guard).
    fn file(name: &str, text: &str) -> (TempDb, String) {
        let dir = TempDb::new(&format!("formats-{name}"));
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        (dir, path.display().to_string())
    }

    const KIF: &str = "先手：甲\n後手：乙\n*開始\n1 ７六歩(77)   ( 0:01/00:00:01)\n&しおり\n\
                       2 ３四歩(33)\n3 投了\n\n変化：2手\n2 ８四歩(83)\n";

    #[test]
    fn to_usi_says_what_it_drops() {
        let (_dir_f, f) = file("drops.kif", KIF);
        let (code, out, err) = Kifudex::new()
            .args(&["convert", &f, "--to", "usi"])
            .output()
            .parts();
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "startpos moves 7g7f 3c3d\n");
        assert_eq!(
            err,
            "kifudex: USI cannot hold headers, comments, bookmarks, times, variations and endings (投了, 千日手…): not written\n"
        );
    }

    #[test]
    fn to_jkf_and_psn() {
        let (_dir_f, f) = file("both.kif", KIF);
        let (code, out, err) = Kifudex::new()
            .args(&["convert", &f, "--to", "jkf"])
            .output()
            .parts();
        assert_eq!(code, 0, "{err}");
        assert_eq!(err, "kifudex: JKF cannot hold bookmarks: not written\n");
        let (_dir_j, j) = file("both.jkf", &out);
        let (code, out, err) = Kifudex::new()
            .args(&["convert", &j, "--to", "psn"])
            .output()
            .parts();
        assert_eq!(code, 0, "{err}");
        assert_eq!(err, "kifudex: PSN cannot hold times: not written\n");
        assert_eq!(
            out,
            "[Sente \"甲\"]\n[Gote \"乙\"]\n\n{開始} 1.P-7f P-3d (1...P-8d) Resign 0-1\n"
        );
        let (_dir_p, p) = file("both.psn", &out);
        let (code, out, _) = Kifudex::new()
            .args(&["convert", &p, "--to", "kifu"])
            .output()
            .parts();
        assert_eq!(code, 0);
        assert!(out.contains("   2 ３四歩(33)\n   3 投了\n"), "{out}");
    }

    /// Found by fuzzing (jkf target): engine lines (KIF `**`, JKF comments starting with `*`)
    /// were dropped by PSN, USI and the move list without a word.
    #[test]
    fn engine_lines_a_target_cannot_hold_are_reported() {
        let (_dir_f, f) = file("engine.kifu", "1 ７六歩(77)\n**評価値 30\n*a comment\n");
        for (to, want) in [
            (
                "psn",
                "kifudex: PSN cannot hold engine lines (KIF's **): not written\n",
            ),
            (
                "usi",
                "kifudex: USI cannot hold comments and engine lines (KIF's **): not written\n",
            ),
            (
                "kk",
                "kifudex: a move list cannot hold comments and engine lines (KIF's **): not written\n",
            ),
            ("jkf", ""),
            ("csa", ""),
        ] {
            let (code, _, err) = Kifudex::new()
                .args(&["convert", &f, "--to", to])
                .output()
                .parts();
            assert_eq!((code, err.as_str()), (0, want), "{to}");
        }
    }

    #[test]
    fn every_game_of_a_usi_file_to_psn() {
        let (_dir_f, f) = file(
            "many.usi",
            "startpos moves 7g7f\nstartpos moves 2g2f 8c8d\n",
        );
        let (code, out, err) = Kifudex::new()
            .args(&["convert", &f, "--to", "psn"])
            .output()
            .parts();
        assert_eq!(code, 0, "{err}");
        assert_eq!(err, "");
        assert_eq!(out, "1.P-7f *\n\n1.P-2f P-8d *\n");
        // One game only for JKF.
        let (code, out, err) = Kifudex::new()
            .args(&["convert", &f, "--to", "jkf"])
            .output()
            .parts();
        assert_eq!(code, 0);
        assert_eq!(
            err,
            format!(
                "kifudex: {f}: holds 2 games; a JKF file holds one, so only the first is written\n"
            )
        );
        assert!(
            out.contains(
                "\"moves\": [\n    {},\n    {\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7}"
            ),
            "{out}"
        );
    }

    #[test]
    fn invalid_jkf_fails_with_its_place() {
        let (_dir_f, f) = file("bad.jkf", "{\"header\": {},\n \"moves\": [{} {}]}\n");
        let (code, out, err) = Kifudex::new()
            .args(&["convert", &f, "--to", "kifu"])
            .output()
            .parts();
        assert_eq!(code, 1);
        assert_eq!(out, "");
        assert_eq!(
            err,
            format!("kifudex: {f}: line 2, column 15: invalid JSON: expected `,` or `]`\n")
        );
    }
}

/// A USI file's games are handed over as they are read (an import never holds them all),
/// and they are exactly what the whole file reads as: errors of bad lines with the game
/// before them, lines before the first game, a move list, a lone failed line, a cut end.
#[test]
fn usi_games_one_at_a_time_are_the_games_of_the_whole_file() {
    use kifudex::notation::{read_bytes, read_bytes_each};
    let mut many = String::from("junk before\n");
    for i in 0..300 {
        many.push_str("startpos moves 7g7f 3c3d\n");
        if i % 7 == 3 {
            many.push_str("sfen not a position\n\n");
        }
        if i % 11 == 5 {
            many.push_str("startpos moves 7g7f 7g7f\n");
        }
    }
    let mut cut = many.clone().into_bytes();
    cut.extend_from_slice("startpos moves 7g7f\n#終".as_bytes());
    cut.pop();
    let texts: Vec<Vec<u8>> = vec![
        many.into_bytes(),
        cut,
        b"startpos moves 7g7f 3c3d\n".to_vec(),
        b"junk\nmore junk\n".to_vec(),
        b"sfen x\nsfen y\n".to_vec(),
        b"startpos moves 7g7f 7g7f\nstartpos moves 7i7i\n".to_vec(),
        b"7g7f 3c3d 2g2f\n".to_vec(),
    ];
    let path = std::path::Path::new("games.usi");
    for bytes in &texts {
        let whole = read_bytes(bytes, Some(path));
        let mut each = Vec::new();
        let file = read_bytes_each(bytes, Some(path), &mut |g, f| each.push((g, f)));
        let label = String::from_utf8_lossy(&bytes[..bytes.len().min(40)]).into_owned();
        assert_eq!(file.error, whole.error, "{label}");
        assert_eq!(file.format, whole.format, "{label}");
        assert_eq!(each.len(), whole.games.len(), "{label}");
        for ((g, f), w) in each.iter().zip(&whole.games) {
            assert_eq!(g, w, "{label}");
            assert_eq!(Some(*f), whole.format, "{label}");
        }
    }
}
