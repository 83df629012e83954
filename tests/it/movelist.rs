//! Plain move lists: written in every notation (exact strings), read back from random games,
//! read from books' and web pages' layouts, errors with ply, line and column, the iroha
//! table, and the command line (`parse -`, `convert --to kk`, `show --notation`, `import`,
//! `position --file -`).

use kifudex::notation::movelist::{Notation, read_move_list, write_move_list};
use kifudex::notation::movetext::iroha::{IROHA_SQUARES, iroha, iroha_square, iroha_square_of};
use kifudex::notation::{Format, MoveNode, ReadError, Record, TerminalKind, read_bytes};
use kifudex::shogi::{Position, Square};

use crate::util::Rng;
use crate::util::usi_move;
use crate::util::{Kifudex, TempDb};

/// A record from the usual start with these USI moves.
fn game(moves: &str) -> Record {
    let mut rec = Record::default();
    let mut p = Position::startpos();
    for m in moves.split_whitespace() {
        let m = usi_move(m);
        p.play(m).unwrap();
        rec.main.moves.push(MoveNode::new(m));
    }
    rec
}

fn moves_of(rec: &Record) -> Vec<String> {
    rec.main.moves.iter().map(|m| m.mv.usi()).collect()
}

/// What `read_bytes` makes of `text`: the format and the main line.
fn read(text: &str) -> (Option<Format>, Vec<String>, Vec<ReadError>) {
    let f = read_bytes(text.as_bytes(), None);
    assert_eq!(f.error, None, "{text}");
    assert_eq!(f.games.len(), 1, "{text}");
    (f.format, moves_of(&f.games[0]), f.games[0].errors.clone())
}

const OPENING: &str = "7g7f 3c3d 8h2b+ 3a2b B*4e";

#[test]
fn every_notation_writes_a_numbered_list() {
    let rec = game(OPENING);
    let want = [
        (
            Notation::Japanese,
            "  1 ☗７六歩\n  2 ☖３四歩\n  3 ☗２二角成\n  4 ☖同　銀\n  5 ☗４五角\n",
        ),
        (
            Notation::Hodges,
            "  1 P-7f\n  2 P-3d\n  3 Bx2b+\n  4 Sx2b\n  5 B*4e\n",
        ),
        (
            Notation::Hosking,
            "  1 P76\n  2 P34\n  3 Bx22+\n  4 Sx22\n  5 B*45\n",
        ),
        (
            Notation::KitaoKawasaki,
            "  1 ☗歩-76\n  2 ☖歩-34\n  3 ☗角x22+\n  4 ☖銀x\n  5 ☗角*45\n",
        ),
        (
            Notation::Iroha,
            "  1 ☗春歩\n  2 ☖ら歩\n  3 ☗る角成\n  4 ☖同銀\n  5 ☗え角\n",
        ),
        (
            Notation::Usi,
            "  1 7g7f\n  2 3c3d\n  3 8h2b+\n  4 3a2b\n  5 B*4e\n",
        ),
        (
            Notation::Csa,
            "  1 +7776FU\n  2 -3334FU\n  3 +8822UM\n  4 -3122GI\n  5 +0045KA\n",
        ),
    ];
    for (n, text) in want {
        assert_eq!(write_move_list(&rec, n, false), text, "{}", n.name());
        if n != Notation::Iroha {
            let (format, moves, errors) = read(text);
            // Numbered Japanese moves are KIF move lines without origins: KIF's reader takes them.
            let want = if n == Notation::Japanese {
                Format::Kif
            } else {
                Format::Moves
            };
            assert_eq!(format, Some(want), "{}", n.name());
            assert_eq!(moves, moves_of(&rec), "{}", n.name());
            assert_eq!(errors, [], "{}", n.name());
        }
    }
}

#[test]
fn headers_start_and_ending_are_written_and_read() {
    let mut rec = Record {
        start: Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        )
        .unwrap(),
        ..Record::default()
    };
    let mut p = rec.start.clone();
    for m in ["3c3d", "7g7f"] {
        p.play(usi_move(m)).unwrap();
        rec.main.moves.push(MoveNode::new(usi_move(m)));
    }
    rec.headers = vec![
        ("N+".to_string(), "Alice".to_string()),
        ("$EVENT".to_string(), "Cup".to_string()),
    ];
    rec.main.terminal = Some(kifudex::notation::Terminal {
        kind: kifudex::notation::TerminalKind::Resign,
        time: None,
        comments: Vec::new(),
    });
    let text = write_move_list(&rec, Notation::KitaoKawasaki, true);
    assert_eq!(
        text,
        "# 先手：Alice\n# 棋戦：Cup\n\
         # sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1\n\
         \x20 1 ☖歩-34\n  2 ☗歩-76\n  3 投了\n"
    );
    let back = read_move_list(&text);
    assert_eq!(back.errors, []);
    assert_eq!(back.start, rec.start);
    assert_eq!(back.main, rec.main);
    assert_eq!(
        back.headers,
        [
            ("先手".to_string(), "Alice".to_string()),
            ("棋戦".to_string(), "Cup".to_string())
        ]
    );
    for n in Notation::ALL.into_iter().filter(|&n| n != Notation::Iroha) {
        let back = read_move_list(&write_move_list(&rec, n, false));
        assert_eq!(back.errors, [], "{}", n.name());
        assert_eq!(back.main, rec.main, "{}", n.name());
    }
}

/// Lists as books and pages print them: numbers or none, several moves a line, mixed.
#[test]
fn book_and_web_layouts_are_read() {
    let cases = [
        "1. P-7f P-3d 2. Bx2b+ Sx2b 3. B*4e",
        "1.P76 P34\n2.Bx22+ Sx22\n3.B*45\n",
        "☗歩-76☖歩-34☗角x22+☖銀x☗角*45",
        "1 ▲７六歩 △３四歩\n2 ▲２二角成 △同　銀\n3 ▲４五角\n",
        "76歩 34歩 22角成 同銀 45角打",
        "7g7f 3c3d 8h2b+ 3a2b B*4e\n",
        "+7776FU -3334FU +8822UM -3122GI +0045KA",
        "1... ☗７六歩 ☖歩-34, Bx2b+ 3a2b; B*45",
    ];
    for text in cases {
        let (format, moves, errors) = read(text);
        assert_eq!(errors, [], "{text}");
        assert_eq!(moves.join(" "), OPENING, "{text}");
        assert!(
            matches!(
                format,
                Some(Format::Moves | Format::Psn | Format::Ki2 | Format::Csa)
            ),
            "{text}: {format:?}"
        );
    }
    // Hosking without dots and Hodges without numbers go to the list reader, not KIF's.
    assert_eq!(read("1 P-7f\n2 P-3d\n").0, Some(Format::Moves));
    assert_eq!(read("P-7f P-3d\n").0, Some(Format::Moves));
}

#[test]
fn errors_name_the_ply_line_and_column() {
    let r = read_move_list("1. ☗歩-76 ☖歩-34\n2. ☗金-58\n");
    assert_eq!(moves_of(&r), ["7g7f", "3c3d"]);
    assert_eq!(
        r.errors,
        [ReadError::new(
            2,
            4,
            "ply 3: ☗金-58 is ambiguous: golds on 49 and 69 can move there; write ☗金(49)-58 or ☗金(69)-58; the rest of the list is ignored"
        )]
    );
    // The list stops at a move the file goes on after: the record is incomplete, as every
    // reader's is.
    assert!(r.incomplete);
    // A USI move no piece of the mover can make is refused, not kept as a broken rule.
    let r = read_move_list("7g7f 3c3d 2g2e 2g2f");
    assert_eq!(moves_of(&r), ["7g7f", "3c3d"]);
    assert_eq!(
        r.errors,
        [ReadError::new(
            1,
            11,
            "ply 3: 2g2e cannot be played: no piece of the mover can make that move; the rest of the list is ignored"
        )]
    );
    assert!(r.incomplete);
    let r = read_move_list("7g7f 3c3d\n  P-5e\n");
    assert_eq!(
        r.errors,
        [ReadError::new(
            2,
            3,
            "ply 3: P-5e is impossible: no black pawn can move to 5e; the rest of the list is ignored"
        )]
    );
    let r = read_move_list("▲７六歩 △７六歩");
    assert_eq!(r.errors.len(), 1);
    assert_eq!((r.errors[0].line, r.errors[0].column), (1, 6));
    assert!(r.errors[0].message.starts_with("ply 2: "), "{:?}", r.errors);
    let r = read_move_list("7g7f resign 3c3d");
    assert_eq!(
        r.errors,
        [ReadError::new(
            1,
            13,
            "'3c3d' after the end of the game; the rest is ignored"
        )]
    );
    // A word after the end is no move the game went on with.
    assert!(!r.incomplete);
    assert_eq!(r.main.terminal.map(|t| t.kind), Some(TerminalKind::Resign));
    let r = read_move_list("hello world");
    assert_eq!(
        r.errors,
        [ReadError::new(
            1,
            1,
            "ply 1: 'hello' is not a move: a move starts with a piece letter: P L N S G B R K; the rest of the list is ignored"
        )]
    );
    // A file that is no list and no record stays unrecognised.
    let f = read_bytes(b"hello world\n", None);
    assert!(f.games.is_empty());
    assert!(f.error.is_some());
}

/// Random legal games: every notation's list (iroha aside) reads back to the same moves.
#[test]
fn random_games_round_trip_in_every_notation() {
    let mut rng = Rng::new(0x6d6f_7665);
    for _ in 0..30 {
        let mut rec = Record::default();
        let mut p = Position::startpos();
        for _ in 0..(20 + rng.below(140)) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            p.play(m).unwrap();
            rec.main.moves.push(MoveNode::new(m));
        }
        for n in Notation::ALL.into_iter().filter(|&n| n != Notation::Iroha) {
            let text = write_move_list(&rec, n, false);
            let f = read_bytes(text.as_bytes(), None);
            assert_eq!(f.games.len(), 1, "{}:\n{text}", n.name());
            let back = &f.games[0];
            assert_eq!(back.errors, [], "{}:\n{text}", n.name());
            assert_eq!(moves_of(back), moves_of(&rec), "{}:\n{text}", n.name());
        }
    }
}

#[test]
fn the_iroha_table() {
    let all: std::collections::HashSet<char> = IROHA_SQUARES.iter().flatten().copied().collect();
    assert_eq!(all.len(), 81);
    for sq in Square::all() {
        assert_eq!(iroha_square_of(iroha_square(sq)), Some(sq));
    }
    let sq = |f, r| Square::new(f, r).unwrap();
    assert_eq!(iroha_square(sq(7, 6)), '春');
    assert_eq!(iroha_square(sq(3, 4)), 'ら');
    assert_eq!(iroha_square(sq(1, 1)), 'い');
    assert_eq!(iroha_square(sq(5, 9)), '京');
    assert_eq!(iroha_square(sq(9, 1)), '谷');
    assert_eq!(iroha_square(sq(6, 7)), '十');
    // File 1 runs down the iroha from い.
    let file1: String = (1..=9).map(|r| iroha_square(sq(1, r))).collect();
    assert_eq!(file1, "いろはにほへとちり");
    let p = Position::startpos();
    assert_eq!(iroha(&p, usi_move("7g7f"), None), "☗春歩");
    assert_eq!(iroha(&p, usi_move("6i5h"), None), "☗す金左");
}

#[test]
fn the_command_line_reads_lists_from_files_and_standard_input() {
    let (code, out, _) = Kifudex::new()
        .args(&["parse", "-"])
        .stdin("1. P-7f P-3d 2. P-2f\n")
        .output()
        .parts();
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(v["format"], "psn");
    assert_eq!(v["moves"], serde_json::json!(["7g7f", "3c3d", "2g2f"]));
    let (code, out, _) = Kifudex::new()
        .args(&["parse", "-"])
        .stdin("☗歩-76 ☖歩-34\n")
        .output()
        .parts();
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(v["format"], "moves");
    assert_eq!(v["moves"], serde_json::json!(["7g7f", "3c3d"]));
    let (code, out, err) = Kifudex::new()
        .args(&["convert", "-", "--to", "kk"])
        .stdin("7g7f 3c3d 8h2b+ 3a2b\n")
        .output()
        .parts();
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, "  1 ☗歩-76\n  2 ☖歩-34\n  3 ☗角x22+\n  4 ☖銀x\n");
    let (code, out, _) = Kifudex::new()
        .args(&["convert", "-", "--to", "kifu"])
        .stdin("☗歩-76 ☖歩-34\n")
        .output()
        .parts();
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n"
    );
    // A database of one list imported from a file of any name; show in every notation;
    // position --file - from standard input.
    let dir = TempDb::new("movelist-cli");
    let list = dir.join("game.txt");
    std::fs::write(&list, "1. ☗歩-76 ☖歩-34 2. ☗歩-26\n").unwrap();
    let db = dir.join("db");
    let o = Kifudex::new()
        .db(&db)
        .args(&["import", list.to_str().unwrap()])
        .output();
    assert!(o.status.success(), "{}", o.stderr);
    let o = Kifudex::new()
        .db(&db)
        .args(&["show", "1", "--notation", "hodges"])
        .output();
    assert_eq!(o.stdout, "  1 P-7f\n  2 P-3d\n  3 P-2f\n");
    let o = Kifudex::new()
        .db(&db)
        .args(&["show", "1", "--notation", "iroha"])
        .output();
    assert_eq!(o.stdout, "  1 ☗春歩\n  2 ☖ら歩\n  3 ☗よ歩\n");
    let o = Kifudex::new()
        .db(&db)
        .args(&["show", "1", "--notation", "kitao-kawasaki"])
        .output();
    assert_eq!(o.stdout, "  1 ☗歩-76\n  2 ☖歩-34\n  3 ☗歩-26\n");
    let o = Kifudex::new()
        .db(&db)
        .args(&["show", "1", "--notation", "western"])
        .output();
    assert_eq!(o.status.code(), Some(2));
    let (code, out, err) = Kifudex::new()
        .args(&[
            "--db",
            db.to_str().unwrap(),
            "position",
            "--file",
            "-",
            "--json",
        ])
        .stdin("P-7f P-3d P-2f\n")
        .output()
        .parts();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"total\":1"), "{out}");
}

/// What the fuzz target checks, on lists built from the notations' own pieces of text: no
/// panic, and a list read without errors reads back from every notation's list.
#[test]
fn token_soup_never_panics_and_clean_lists_round_trip() {
    let tokens = [
        "☗",
        "☖",
        "▲",
        "△",
        "歩",
        "銀",
        "金",
        "角",
        "飛",
        "玉",
        "と",
        "+",
        "-",
        "x",
        "*",
        "=",
        "76",
        "34",
        "26",
        "22",
        "(77)",
        "(72)",
        "７六",
        "同",
        "同　",
        "成",
        "不成",
        "打",
        "右",
        "P",
        "B",
        "S",
        "G",
        "7f",
        "3d",
        "2b",
        "7g7f",
        "3c3d",
        "8h2b+",
        "+7776FU",
        "-3334FU",
        "1.",
        "2...",
        " ",
        " ",
        "\n",
        ",",
        "投了",
        "Resign",
        "%TORYO",
        "# sfen ",
        "# 先手：x",
        "P*5e",
        "B*45",
    ];
    let mut rng = Rng::new(0x0050_0b1e);
    let mut clean = 0;
    for _ in 0..60_000 {
        let text: String = (0..1 + rng.below(12))
            .map(|_| tokens[rng.below(tokens.len())])
            .collect();
        let game = read_move_list(&text);
        if !game.errors.is_empty() || game.main.moves.is_empty() {
            continue;
        }
        clean += 1;
        for n in Notation::ALL.into_iter().filter(|&n| n != Notation::Iroha) {
            let written = write_move_list(&game, n, true);
            let again = read_move_list(&written);
            assert_eq!(again.errors, [], "{text:?} as {}:\n{written}", n.name());
            assert_eq!(again.start, game.start);
            assert_eq!(
                moves_of(&again),
                moves_of(&game),
                "{text:?} as {}",
                n.name()
            );
        }
    }
    assert!(clean > 200, "only {clean} clean lists");
}
