//! The KI2 reader and writer against fixtures written for this project.

use crate::util::{same_in_every_encoding, usi_moves};
use kifudex::notation::kif::{read_ki2, read_kif, write_ki2, write_kif};
use kifudex::notation::{Encoding, Format, GameResult, TerminalKind, read_bytes};
use kifudex::shogi::{Color, Handicap};

const GAME: &str = "\
開始日時：2023/11/05
棋戦：テスト杯
先手：甲
後手：乙
手合割：平手
▲７六歩    △３四歩    ▲２六歩    △８四歩    ▲２五歩    △８五歩
▲７八金    △３二金    ▲２四歩    △同　歩    ▲同　飛    △２三歩
*飛車を引く
▲２六飛    △８六歩    ▲同　歩    △同　飛    ▲３六飛
まで17手で先手の勝ち
";

#[test]
fn several_moves_a_line_same_square_comments_and_summary() {
    let r = ki2(GAME);
    assert_eq!(r.errors, []);
    assert_eq!(
        usi_moves(&r),
        [
            "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d", "2h2d",
            "P*2c", "2d2f", "8e8f", "8g8f", "8b8f", "2f3f"
        ]
    );
    assert_eq!(r.main.moves[11].comments, ["飛車を引く"]);
    assert_eq!(r.terminal(), Some(TerminalKind::Resign));
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    assert_eq!(r.event(), Some("テスト杯"));
}

#[test]
fn detected_from_content_in_every_encoding() {
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(GAME);
    let (euc, _, _) = encoding_rs::EUC_JP.encode(GAME);
    for (bytes, enc) in [
        (sjis.to_vec(), Encoding::ShiftJis),
        (euc.to_vec(), Encoding::EucJp),
        (GAME.as_bytes().to_vec(), Encoding::Utf8),
    ] {
        let f = read_bytes(&bytes, Some(std::path::Path::new("game.txt")));
        assert_eq!((f.encoding, f.format), (enc, Some(Format::Ki2)));
        assert_eq!(usi_moves(&f.games[0]).len(), 17);
        assert_eq!(f.games[0].sente(), Some("甲"));
    }
}

#[test]
fn relative_words_and_other_marks() {
    // Two golds can reach 5h (5b): 右 and 左, from the mover's side, pick them. ☗ and ▽ are side marks too.
    let r = ki2("☗５八金右\n▽５二金左\n▲５八金左\n");
    assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    assert_eq!(usi_moves(&r), ["4i5h", "4a5b"]);
    // The third move is impossible: the gold on 4i already left; the error says where.
    assert_eq!((r.errors[0].line, r.errors[0].column), (3, 1));
    assert!(
        r.errors[0].message.starts_with("move 3: "),
        "{}",
        r.errors[0].message
    );
}

#[test]
fn an_ambiguous_move_is_an_error_never_a_guess() {
    let r = ki2("▲５八金\n");
    assert_eq!(usi_moves(&r), Vec::<String>::new());
    assert_eq!(r.errors.len(), 1);
    let e = &r.errors[0];
    assert_eq!((e.line, e.column), (1, 1));
    assert!(e.message.contains("ambiguous"), "{}", e.message);
}

#[test]
fn promotion_declined_with_funari_and_nama() {
    let board = "後手の持駒：なし\n\
        +---------------------------+\n\
        | ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n\
        | 銀 ・ ・ ・ ・ ・ ・ 銀 ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
        | ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n\
        +---------------------------+\n先手の持駒：なし\n";
    let r = ki2(&format!(
        "{board}▲２三銀不成　△５二玉　▲９三銀生　△５一玉　▲２二銀成\n"
    ));
    assert_eq!(r.errors, []);
    assert_eq!(usi_moves(&r), ["2d2c", "5a5b", "9d9c", "5b5a", "2c2b+"]);
}

#[test]
fn handicap_and_terminal_summaries() {
    let r = ki2("手合割：角落ち\n△６二銀    ▲７六歩\nまで2手で中断\n");
    assert_eq!(r.handicap(), Handicap::Bishop);
    assert_eq!(usi_moves(&r), ["7a6b", "7g7f"]);
    assert_eq!(r.terminal(), Some(TerminalKind::Abort));
    for (summary, kind, result) in [
        (
            "まで1手で先手の勝ち",
            TerminalKind::Resign,
            GameResult::Win(Color::Black),
        ),
        (
            "まで1手で後手の反則勝ち",
            TerminalKind::IllegalWin,
            GameResult::Win(Color::White),
        ),
        (
            "まで1手で先手の反則勝ち",
            TerminalKind::IllegalLoss,
            GameResult::Win(Color::Black),
        ),
        (
            "まで1手で千日手",
            TerminalKind::Repetition,
            GameResult::Draw,
        ),
        ("まで1手で持将棋", TerminalKind::Impasse, GameResult::Draw),
        (
            "まで1手で詰み",
            TerminalKind::Mate,
            GameResult::Win(Color::Black),
        ),
    ] {
        let r = ki2(&format!("▲７六歩\n{summary}\n"));
        assert_eq!(
            (r.terminal(), r.result()),
            (Some(kind), result),
            "{summary}"
        );
    }
}

/// A game that ends before any move (found by fuzzing): the terminal survives writing.
#[test]
fn a_terminal_with_no_move() {
    let r = ki2("△投了\n");
    assert_eq!(r.terminal(), Some(TerminalKind::Resign));
    let text = write_ki2(&r);
    assert_eq!(text, "まで0手で後手の勝ち\n");
    assert_eq!(read_ki2(&text), r);
    assert_eq!(read_kif(&write_kif(&r)).main, r.main);
}

#[test]
fn writer_uses_relative_words_and_reads_back() {
    let r = ki2(GAME);
    let text = write_ki2(&r);
    assert!(text.contains("▲７六歩"), "{text}");
    assert!(text.contains("△同　歩"), "{text}");
    assert!(text.contains("まで17手で先手の勝ち"), "{text}");
    assert_eq!(read_ki2(&text), r);
    let r = ki2("☗５八金右\n");
    assert_eq!(write_ki2(&r).trim_end(), "▲５八金右");
    // And through KIF.
    assert_eq!(read_kif(&write_kif(&r)).main, r.main);
}

#[test]
fn variations_in_ki2() {
    let r = ki2("▲７六歩    △３四歩    ▲２六歩\n\n変化：2手\n△８四歩    ▲６八銀\n");
    assert_eq!(r.errors, []);
    assert_eq!(usi_moves(&r), ["7g7f", "3c3d", "2g2f"]);
    let v = &r.main.moves[1].variations[0];
    assert_eq!(
        v.moves.iter().map(|m| m.mv.usi()).collect::<Vec<_>>(),
        ["8c8d", "7i6h"]
    );
    assert_eq!(read_ki2(&write_ki2(&r)), r);
}

/// Reads a KI2 fixture and checks it reads the same from Shift-JIS, EUC-JP and UTF-8 bytes.
fn ki2(text: &str) -> kifudex::notation::Record {
    let r = read_ki2(text);
    same_in_every_encoding(text, "ki2", &r);
    r
}

/// A move no piece could make (a pawn from ５七 to ７五), kept as data with its broken rule,
/// is written with KIF's origin, `(57)`, since KI2's words cannot name it, and reads back.
/// Found by the `read` fuzz target.
#[test]
fn an_impossible_move_is_written_with_its_origin_and_reads_back() {
    let r = read_ki2("▲７五歩(57)\n");
    assert_eq!(r.errors, []);
    assert_eq!(usi_moves(&r), ["5g7e"]);
    let written = write_ki2(&r);
    assert!(written.contains("▲７五歩上(57)"), "{written}");
    let again = read_ki2(&written);
    assert_eq!(again.errors, []);
    assert_eq!(again.main, r.main);
    // A move its words do name keeps them alone.
    let r = read_ki2("▲７六歩(77)\n");
    let written = write_ki2(&r);
    assert!(written.contains("▲７六歩\n"), "{written}");
}
