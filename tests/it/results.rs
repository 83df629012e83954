//! How records say a game ended: every summary (`まで…`) and terminal form of the KIF/KI2
//! table, on the main line and in variations, read and written back.

use crate::util::{Kifudex, TempDb};
use kifudex::notation::kif::{
    read_ki2, read_kif, summary_terminal, summary_text, terminal_text, write_ki2, write_kif,
};
use kifudex::notation::{Encoding, GameResult, Record, TerminalKind, read_bytes};
use kifudex::shogi::Color;

const SENTE: GameResult = GameResult::Win(Color::Black);
const GOTE: GameResult = GameResult::Win(Color::White);

/// KI2 moves for 1, 2 and 3 plies.
fn ki2_moves(plies: usize) -> &'static str {
    [
        "",
        "▲７六歩\n",
        "▲７六歩 △３四歩\n",
        "▲７六歩 △３四歩 ▲２六歩\n",
    ][plies]
}

/// KIF move lines for 1, 2 and 3 plies.
fn kif_moves(plies: usize) -> String {
    ["1 ７六歩(77)", "2 ３四歩(33)", "3 ２六歩(27)"][..plies]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect()
}

fn no_errors(r: &Record, what: &str) {
    assert!(r.errors.is_empty(), "{what}: {:?}", r.errors);
}

/// Every summary form: (summary, plies before it, terminal, winner).
const SUMMARIES: [(&str, usize, TerminalKind, GameResult); 27] = {
    use TerminalKind::*;
    [
        ("まで3手で先手の勝ち", 3, Resign, SENTE),
        ("まで2手で後手の勝ち", 2, Resign, GOTE),
        ("まで3手で下手の勝ち", 3, Resign, SENTE),
        ("まで2手で上手の勝ち", 2, Resign, GOTE),
        // Named winner to move: the other side's last move was a foul.
        ("まで2手で先手の勝ち", 2, IllegalWin, SENTE),
        ("まで3手で時間切れにより先手の勝ち", 3, TimeUp, SENTE),
        ("まで2手で時間切れにより後手の勝ち", 2, TimeUp, GOTE),
        ("まで3手で先手の勝ち（切れ負け）", 3, TimeUp, SENTE),
        ("まで2手で先手の切れ負け", 2, TimeUp, GOTE),
        ("まで3手で後手の時間切れ負け", 3, TimeUp, SENTE),
        ("まで2手で先手の反則負け", 2, IllegalLoss, GOTE),
        ("まで2手で先手の反則負け#コメント", 2, IllegalLoss, GOTE),
        ("まで3手で先手の反則負け", 3, IllegalWin, GOTE),
        ("まで3手で後手の反則勝ち", 3, IllegalWin, GOTE),
        ("まで2手で後手の反則勝ち", 2, IllegalLoss, GOTE),
        ("まで2手で先手の入玉勝ち", 2, EnteringKingWin, SENTE),
        ("まで3手で後手の不戦勝", 3, DefaultWin, GOTE),
        ("まで3手で後手の不戦敗", 3, DefaultLoss, SENTE),
        ("まで2手で後手の不戦敗", 2, DefaultWin, SENTE),
        ("まで3手で後手の投了負け", 3, Resign, SENTE),
        ("まで2手で封じ手", 2, Abort, GameResult::Unknown),
        ("まで2手で中断", 2, Abort, GameResult::Unknown),
        ("まで3手で千日手", 3, Repetition, GameResult::Draw),
        ("まで3手で持将棋", 3, Impasse, GameResult::Draw),
        ("まで3手で詰み", 3, Mate, SENTE),
        ("まで3手詰", 3, Mate, SENTE),
        ("まで1手で不詰", 1, NoMate, GameResult::Unknown),
    ]
};

#[test]
fn every_summary_form_on_the_main_line() {
    for (summary, plies, kind, winner) in SUMMARIES {
        let ki2 = read_ki2(&format!("{}{summary}\n", ki2_moves(plies)));
        no_errors(&ki2, summary);
        assert_eq!(
            (ki2.terminal(), ki2.result()),
            (Some(kind), winner),
            "KI2 {summary}"
        );
        let kif = read_kif(&format!("{}{summary}\n", kif_moves(plies)));
        no_errors(&kif, summary);
        assert_eq!(
            (kif.terminal(), kif.result()),
            (Some(kind), winner),
            "KIF {summary}"
        );
    }
}

#[test]
fn every_summary_form_in_a_variation() {
    for (summary, plies, kind, _) in SUMMARIES {
        // The variation replaces the first move by ７六歩 again: the same plies.
        let text = format!(
            "▲２六歩\nまで1手で中断\n\n変化：1手\n{}{summary}\n",
            ki2_moves(plies)
        );
        let r = read_ki2(&text);
        no_errors(&r, summary);
        assert_eq!(r.terminal(), Some(TerminalKind::Abort), "{summary}");
        let v = &r.main.moves[0].variations[0];
        assert_eq!(v.moves.len(), plies, "{summary}");
        assert_eq!(v.terminal.as_ref().map(|t| t.kind), Some(kind), "{summary}");
    }
}

/// Move-line terminal words, bare and with the side they name (将棋倶楽部24 writes the loser):
/// (line, plies before it, terminal, winner).
const WORDS: [(&str, usize, TerminalKind, GameResult); 14] = {
    use TerminalKind::*;
    [
        ("投了", 2, Resign, GOTE),
        ("反則負け", 2, IllegalLoss, GOTE),
        ("先手 反則負け", 2, IllegalLoss, GOTE),
        ("先手 反則負け", 3, IllegalWin, GOTE),
        ("後手　反則負け", 2, IllegalWin, SENTE),
        ("先手 反則勝ち", 3, IllegalLoss, SENTE),
        ("反則勝ち", 3, IllegalWin, GOTE),
        ("切れ負け", 3, TimeUp, SENTE),
        ("時間切れ", 2, TimeUp, GOTE),
        ("後手 不戦敗", 3, DefaultLoss, SENTE),
        ("先手 不戦敗", 3, DefaultWin, GOTE),
        ("入玉勝ち", 2, EnteringKingWin, SENTE),
        ("宣言勝ち", 3, EnteringKingWin, GOTE),
        ("封じ手", 3, Abort, GameResult::Unknown),
    ]
};

#[test]
fn every_terminal_word_on_the_main_line_and_in_a_variation() {
    for (word, plies, kind, winner) in WORDS {
        let text = format!("{}{} {word}\n", kif_moves(plies), plies + 1);
        let r = read_kif(&text);
        no_errors(&r, word);
        assert_eq!(
            (r.terminal(), r.result()),
            (Some(kind), winner),
            "{word} after {plies}"
        );
        // The same line as a variation of move 1.
        let text = format!("1 ２六歩(27)\n2 中断\n\n変化：1手\n{text}");
        let r = read_kif(&text);
        no_errors(&r, word);
        let v = &r.main.moves[0].variations[0];
        assert_eq!(v.moves.len(), plies, "{word}");
        assert_eq!(v.terminal.as_ref().map(|t| t.kind), Some(kind), "{word}");
    }
}

#[test]
fn an_interruption_after_the_real_end_is_no_error() {
    let r = read_kif("1 ７六歩(77)\n2 投了\n3 中断\n");
    no_errors(&r, "投了 then 中断");
    assert_eq!(
        (r.terminal(), r.result()),
        (Some(TerminalKind::Resign), SENTE)
    );
    // Anything else after the end still is one.
    let r = read_kif("1 ７六歩(77)\n2 投了\n3 ３四歩(33)\n");
    assert_eq!(r.errors.len(), 1);
    assert_eq!(
        r.errors[0].to_string(),
        "line 3, column 3: '３四歩(33)' comes after the game ended (resign); it and what follows in this line are ignored"
    );
}

/// The writer's summary reads back as the terminal it wrote (kinds the KIF specification
/// has no word for by this program's own names: 最大手数, 宣言引き分け, 反則手, 待った, エラー),
/// for either side to move, and through KI2 and KIF text.
#[test]
fn summaries_and_words_read_back_as_written() {
    for kind in TerminalKind::ALL {
        for to_move in [Color::Black, Color::White] {
            let summary = format!("3手で{}", summary_text(kind, to_move));
            assert_eq!(
                summary_terminal(&summary, to_move),
                Some(kind),
                "{summary} with {to_move:?} to move"
            );
        }
        for plies in [2, 3] {
            let mut r = read_ki2(ki2_moves(plies));
            r.main.terminal = Some(kifudex::notation::Terminal {
                kind,
                time: None,
                comments: Vec::new(),
            });
            let back = read_ki2(&write_ki2(&r));
            no_errors(&back, terminal_text(kind));
            assert_eq!(back.terminal(), Some(kind), "KI2 {kind}");
            let back = read_kif(&write_kif(&r));
            no_errors(&back, terminal_text(kind));
            assert_eq!(back.terminal(), Some(kind), "KIF {kind}");
            assert_eq!(back.result(), r.result(), "KIF {kind} after {plies}");
        }
    }
}

#[test]
fn a_shift_jis_summary_reads_the_same() {
    let text = "先手：甲\n後手：乙\n▲７六歩 △３四歩 ▲２六歩\nまで3手で時間切れにより先手の勝ち\n";
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(text);
    let read = read_bytes(&bytes, None);
    assert_eq!(read.encoding, Encoding::ShiftJis);
    let r = &read.games[0];
    no_errors(r, "shift_jis");
    assert_eq!(
        (r.terminal(), r.result()),
        (Some(TerminalKind::TimeUp), SENTE)
    );
}

/// Quirks of real KIF files: `同　銀　(31)` with full-width spaces around the piece, and
/// Kifu for Windows' `盤面回転` line; both read with no problem, in UTF-8 and Shift-JIS.
#[test]
fn full_width_spaces_around_the_piece_and_a_turned_board() {
    let text = "盤面回転\n先手：甲\n手数----指手---------消費時間--\n\
                1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角成(88)\n4 同　銀　(31)   ( 0:01/00:00:01)\n5 投了\n";
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(text);
    for bytes in [text.as_bytes(), &sjis[..]] {
        let read = read_bytes(bytes, None);
        let r = &read.games[0];
        no_errors(r, "同　銀　(31)");
        let moves: Vec<String> = r.main.moves.iter().map(|m| m.mv.usi()).collect();
        assert_eq!(moves, ["7g7f", "3c3d", "8h2b+", "3a2b"]);
        assert_eq!(r.main.moves[3].time.map(|t| t.spent), Some(1.0));
        assert_eq!(
            (r.terminal(), r.result()),
            (Some(TerminalKind::Resign), GOTE)
        );
    }
}

/// `parse` puts errors and warnings in their own arrays; `parse` and `convert` succeed when
/// there are only warnings.
#[test]
fn warnings_are_not_errors_in_parse_and_convert() {
    let dir = TempDb::new("warnings-cli");
    let file = dir.join("w.kif");
    std::fs::write(&file, "手合割：謎の手合\n1 ７六歩(77)\n2 投了\n").unwrap();
    let path = file.to_str().unwrap();
    let out = Kifudex::new()
        .db(dir.join("db"))
        .args(&["parse", path])
        .output();
    assert!(out.status.success());
    let game: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(game["errors"], serde_json::json!([]));
    assert_eq!(
        game["warnings"],
        serde_json::json!([{"line": 1, "column": 5, "message": "unknown handicap (手合割) '謎の手合' and no board diagram: read as 平手"}])
    );
    let out = Kifudex::new()
        .db(dir.join("db"))
        .args(&["convert", path, "--to", "csa"])
        .output();
    assert!(out.status.success());
    assert_eq!(
        out.stderr,
        format!(
            "kifudex: {path}: warning: line 1, column 5: unknown handicap (手合割) '謎の手合' and no board diagram: read as 平手\n"
        )
    );
    // An error still fails both.
    std::fs::write(&file, "1 ７六歩(77)\n2 ３三銀打\n").unwrap();
    let out = Kifudex::new()
        .db(dir.join("db"))
        .args(&["parse", path])
        .output();
    assert!(!out.status.success());
    let out = Kifudex::new()
        .db(dir.join("db"))
        .args(&["convert", path, "--to", "csa"])
        .output();
    assert!(!out.status.success());
}

/// An empty file, or a JKF object with no record in it, is no game: an error, and nothing
/// stored that later files could be counted as duplicates of.
#[test]
fn a_file_with_no_game_is_an_error() {
    let dir = TempDb::new("no-game");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("empty.kif"), b"").unwrap();
    std::fs::write(files.join("blank.kif"), b"\r\n\r\n").unwrap();
    std::fs::write(files.join("none.jkf"), br#"{"header": {}, "moves": [{}]}"#).unwrap();
    for name in ["empty.kif", "blank.kif", "none.jkf"] {
        let read = read_bytes(&std::fs::read(files.join(name)).unwrap(), None);
        assert_eq!(
            read.error.as_deref(),
            Some("no game in this file"),
            "{name}"
        );
        assert!(read.games.is_empty(), "{name}");
    }
    let out = Kifudex::new()
        .db(dir.join("db"))
        .args(&["import", "--json", files.to_str().unwrap()])
        .output();
    assert_eq!(out.status.code(), Some(1));
    let summary: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        (
            summary["games"].as_u64(),
            summary["errors"].as_u64(),
            summary["failed_files"].as_u64()
        ),
        (Some(0), Some(3), Some(3))
    );
    let mut lines: Vec<String> = out.stderr.lines().map(str::to_string).collect();
    lines.sort();
    let at = |name: &str| {
        format!(
            "kifudex: {}: no game in this file",
            files.join(name).display()
        )
    };
    assert_eq!(lines, [at("blank.kif"), at("empty.kif"), at("none.jkf")]);
}

/// A game whose main line stops at a move that cannot be applied is marked incomplete, in
/// `parse`, in the database, in `search` (table and JSON) and by `show`; a variation that
/// stops does not make the game incomplete.
#[test]
fn a_game_cut_short_by_a_bad_move_is_marked_incomplete() {
    let dir = TempDb::new("incomplete");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    let cut = files.join("cut.kif");
    std::fs::write(
        &cut,
        "先手：甲\n後手：乙\n1 ７六歩(77)\n2 ３四歩(33)\n3 ５五角打\n4 ８四歩(83)\n",
    )
    .unwrap();
    let whole = files.join("whole.kif");
    std::fs::write(
        &whole,
        "先手：丙\n後手：丁\n1 ７六歩(77)\n2 投了\n\n変化：1手\n1 ５五角打\n",
    )
    .unwrap();
    let db = dir.join("db");
    let out = Kifudex::new()
        .db(&db)
        .args(&["parse", cut.to_str().unwrap(), whole.to_str().unwrap()])
        .output();
    let games = out.json_lines();
    assert_eq!(games[0]["incomplete"], true);
    assert_eq!(games[0]["moves"], serde_json::json!(["7g7f", "3c3d"]));
    assert_eq!(
        games[0]["errors"][0]["message"],
        "move 3: ５五角打: black has no bishop in hand to drop"
    );
    assert_eq!(games[1]["incomplete"], false);
    let out = Kifudex::new()
        .db(&db)
        .args(&["import", files.to_str().unwrap()])
        .output();
    assert_eq!(out.status.code(), Some(1));
    let rows = Kifudex::new()
        .db(&db)
        .args(&["search", "--json"])
        .output()
        .json_lines();
    let mut marks: Vec<(String, bool)> = rows
        .iter()
        .map(|r| {
            (
                r["sente"].as_str().unwrap().to_string(),
                r["incomplete"].as_bool().unwrap(),
            )
        })
        .collect();
    marks.sort();
    assert_eq!(marks, [("丙".to_string(), false), ("甲".to_string(), true)]);
    let table = Kifudex::new()
        .db(&db)
        .args(&["search", "--sente", "甲"])
        .output()
        .stdout;
    assert!(table.contains(" 2 (incomplete) "), "{table}");
    let id = rows.iter().find(|r| r["sente"] == "甲").unwrap()["id"]
        .as_i64()
        .unwrap();
    let out = Kifudex::new()
        .db(&db)
        .args(&["show", &id.to_string()])
        .output();
    assert_eq!(
        out.stderr,
        format!(
            "kifudex: game {id} is incomplete: its record stops at move 3, which could not be applied (see the import errors of {})\n",
            cut.display()
        )
    );
}

/// `import --variations` over files imported before without it indexes their variations:
/// each source remembers the options it was indexed with and is read again when they differ.
#[test]
fn import_options_apply_to_files_imported_before() {
    let dir = TempDb::new("import-options");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(
        files.join("v.kif"),
        "先手：甲\n後手：乙\n1 ７六歩(77)\n2 ３四歩(33)\n3 中断\n\n変化：1手\n1 ２六歩(27)\n",
    )
    .unwrap();
    let db = dir.join("db");
    let files_arg = files.to_str().unwrap();
    let import = |extra: &[&str]| {
        let mut args = vec!["import", "--json", files_arg];
        args.extend_from_slice(extra);
        let out = Kifudex::new().db(&db).args(&args).output();
        assert!(out.status.success(), "{}", out.stderr);
        let s: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        (
            s["games"].as_u64().unwrap(),
            s["unchanged"].as_u64().unwrap(),
        )
    };
    let found = || {
        let out = Kifudex::new()
            .db(&db)
            .args(&["position", "startpos moves 2g2f", "--json"])
            .output();
        out.json_lines().last().unwrap()["total"].as_u64().unwrap()
    };
    assert_eq!(import(&[]), (1, 0));
    assert_eq!(
        found(),
        0,
        "the variation is not indexed without --variations"
    );
    assert_eq!(import(&[]), (0, 1));
    assert_eq!(
        import(&["--variations"]),
        (1, 0),
        "read again with the new option"
    );
    assert_eq!(found(), 1);
    assert_eq!(import(&["--variations"]), (0, 1));
}

/// An import that finds no record file under a folder says so and fails.
#[test]
fn a_folder_without_records_is_an_error() {
    let dir = TempDb::new("no-records");
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("notes.txt"), "not a record\n").unwrap();
    let out = Kifudex::new()
        .db(dir.join("db"))
        .args(&["import", files.to_str().unwrap()])
        .output();
    assert_eq!(out.status.code(), Some(1));
    let shown = files.display();
    assert_eq!(
        out.stderr,
        format!(
            "kifudex: {shown}: no record files under {shown}: looked for .kif .kifu .ki2 .ki2u .csa .jkf .usi .sfen .psn .zip\n"
        )
    );
}
