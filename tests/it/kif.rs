//! The KIF reader against fixtures written for this project: every case of the KIF article.

use crate::util::{corpus, same_in_every_encoding, usi_moves};
use kifudex::notation::kif::{read_ki2, read_kif, write_ki2, write_kif};
use kifudex::notation::{Encoding, Format, GameResult, Record, TerminalKind, decode, read_bytes};
use kifudex::shogi::{Color, Handicap};

fn clean(text: &str) -> Record {
    let r = read_kif(text);
    assert_eq!(r.errors, [], "unexpected errors");
    same_in_every_encoding(text, "kif", &r);
    r
}

/// Reads a fixture (errors and all) and checks it reads the same in every encoding.
fn read(text: &str) -> Record {
    let r = read_kif(text);
    same_in_every_encoding(text, "kif", &r);
    r
}

const GAME: &str = "\
# ---- Kifu for Windows 棋譜ファイル ----
開始日時：2024/03/01(金) 10:00:00
棋戦：テスト棋戦
戦型：相掛かり
手合割：平手
先手：先手太郎
後手：後手花子
手数----指手---------消費時間--
   1 ２六歩(27)   ( 0:05/00:00:05)
   2 ８四歩(83)   ( 0:10/00:00:10)
   3 ２五歩(26)   ( 1:02/00:01:07)
   4 ８五歩(84)   ( 0:03/00:00:13)
   5 投了         ( 0:01/00:01:08)
まで4手で後手の勝ち
";

#[test]
fn headers_moves_times_and_result() {
    let r = clean(GAME);
    assert_eq!(usi_moves(&r), ["2g2f", "8c8d", "2f2e", "8d8e"]);
    assert_eq!(r.sente(), Some("先手太郎"));
    assert_eq!(r.gote(), Some("後手花子"));
    assert_eq!(r.event(), Some("テスト棋戦"));
    assert_eq!(r.opening(), Some("相掛かり"));
    assert_eq!(r.start_time(), Some("2024/03/01(金) 10:00:00"));
    assert_eq!(r.handicap(), Handicap::Even);
    let keys: Vec<&str> = r.headers.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["開始日時", "棋戦", "戦型", "手合割", "先手", "後手"]);
    assert_eq!(r.terminal(), Some(TerminalKind::Resign));
    assert_eq!(r.result(), GameResult::Win(Color::White));
    let t = r.main.moves[2].time.unwrap();
    assert_eq!((t.spent, t.total), (62.0, Some(67.0)));
    assert_eq!(r.main.terminal.as_ref().unwrap().time.unwrap().spent, 1.0);
}

#[test]
fn newlines_of_every_kind_and_none_at_the_end() {
    let crlf = GAME.replace('\n', "\r\n");
    let cr = GAME.replace('\n', "\r");
    let no_final = GAME.trim_end().to_string();
    for text in [crlf, cr, no_final] {
        let r = clean(&text);
        assert_eq!(usi_moves(&r), ["2g2f", "8c8d", "2f2e", "8d8e"]);
        assert_eq!(r.terminal(), Some(TerminalKind::Resign));
    }
}

#[test]
fn shift_jis_euc_jp_and_utf8_with_bom_decode_the_same() {
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(GAME);
    let (euc, _, _) = encoding_rs::EUC_JP.encode(GAME);
    let bom = [b"\xEF\xBB\xBF".as_slice(), GAME.as_bytes()].concat();
    for (bytes, enc) in [
        (sjis.to_vec(), Encoding::ShiftJis),
        (euc.to_vec(), Encoding::EucJp),
        (bom, Encoding::Utf8),
        (GAME.as_bytes().to_vec(), Encoding::Utf8),
    ] {
        let f = read_bytes(&bytes, None);
        assert_eq!(f.encoding, enc);
        assert_eq!(f.format, Some(Format::Kif));
        assert_eq!(f.games.len(), 1);
        assert_eq!(f.games[0].sente(), Some("先手太郎"));
        assert_eq!(usi_moves(&f.games[0]), ["2g2f", "8c8d", "2f2e", "8d8e"]);
    }
}

#[test]
fn same_square_promotion_drops_and_every_piece_name() {
    let r = clean(
        "手合割：平手\n\
         1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角成(88)\n4 同　銀(31)\n5 ４五角打\n\
         6 ５二金(41)\n7 ６三角成(45)\n8 同金(52)\n9 ８八銀(79)\n10 ３三角打\n\
         11 １六歩(17)\n12 ７七角成(33)\n13 同　桂(89)\n",
    );
    assert_eq!(
        usi_moves(&r),
        [
            "7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "4a5b", "4e6c+", "5b6c", "7i8h", "B*3c",
            "1g1f", "3c7g+", "8i7g"
        ]
    );
    assert!(r.main.moves.iter().all(|m| m.violations.is_empty()));
}

#[test]
fn promoted_piece_names_and_declined_promotion() {
    let r = clean(
        "後手の持駒：なし\n\
         ９ ８ ７ ６ ５ ４ ３ ２ １\n\
         +---------------------------+\n\
         | ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n\
         | ・ ・ 全 ・ ・ ・ 圭 ・ ・|三\n\
         | ・ ・ ・ ・ ・ ・ ・ 杏 ・|四\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n\
         | ・ 銀 ・ ・ ・ ・ ・ ・ ・|六\n\
         | ・ ・ ・ ・ ・ ・ ・ 龍 ・|七\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ 竜|八\n\
         | ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n\
         +---------------------------+\n\
         先手の持駒：なし\n\
         1 ６二成銀(73)\n2 ５二玉(51)\n3 ８五銀不成(86)\n4 ４一玉(52)\n5 ３二成桂(33)\n6 ５二玉(41)\n\
         7 ２三杏(24)\n8 ６三玉(52)\n9 ２六竜(27)\n10 ７四玉(63)\n11 １七龍(18)\n",
    );
    assert_eq!(
        usi_moves(&r),
        [
            "7c6b", "5a5b", "8f8e", "5b4a", "3c3b", "4a5b", "2d2c", "5b6c", "2g2f", "6c7d", "1h1g"
        ]
    );
    assert_eq!(
        r.start.to_sfen(),
        "4k4/9/2+S3+N2/7+L1/9/1S7/7+R1/8+R/4K4 b - 1"
    );
}

#[test]
fn board_diagram_with_hands_in_kanji_counts_and_white_to_move() {
    let r = clean(
        "後手の持駒：飛二　角　金四　銀三　桂四　香四　歩十三\n\
         ９ ８ ７ ６ ５ ４ ３ ２ １\n\
         +---------------------------+\n\
         | ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n\
         | ・ ・ ・ ・ ・ ・ 歩 歩 歩|三\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ 玉|九\n\
         +---------------------------+\n\
         先手の持駒：角　銀　歩二\n\
         後手番\n\
         手数----指手---------消費時間--\n\
         1 ２二玉(11)\n",
    );
    assert_eq!(
        r.start.to_sfen(),
        "8k/9/6PPP/9/9/9/9/9/8K w BS2P2rb4g3s4n4l13p 1"
    );
    assert_eq!(r.start.side_to_move(), Color::White);
    assert_eq!(usi_moves(&r), ["1a2b"]);
    assert_eq!(r.handicap(), Handicap::Other);
}

#[test]
fn handicap_games_start_with_white() {
    let r = clean(
        "手合割：香落ち\n上手：上手さん\n下手：下手さん\n1 ３四歩(33)\n2 ７六歩(77)\n3 投了\n",
    );
    assert_eq!(r.handicap(), Handicap::Lance);
    assert_eq!(r.start.side_to_move(), Color::White);
    assert_eq!(r.sente(), Some("下手さん"));
    assert_eq!(r.gote(), Some("上手さん"));
    assert_eq!(usi_moves(&r), ["3c3d", "7g7f"]);
    // 上手 (White) is to move after two moves, resigns: 下手 (Black) wins.
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    let r = clean("手合割：二枚落ち　\n1 ６二銀(71)\n");
    assert_eq!(r.handicap(), Handicap::TwoPieces);
    assert_eq!(usi_moves(&r), ["7a6b"]);
}

#[test]
fn comments_on_the_start_and_on_moves_and_bookmarks() {
    let r = clean(
        "先手：A\n*対局前のコメント\n*二行目\n1 ７六歩(77)\n*角道を開ける\n&序盤\n2 ３四歩(33)\n\
         3 中断\n*ここで中断\n",
    );
    assert_eq!(r.start_comments, ["対局前のコメント", "二行目"]);
    assert_eq!(r.main.moves[0].comments, ["角道を開ける"]);
    assert_eq!(r.main.moves[0].bookmarks, ["序盤"]);
    assert_eq!(r.main.terminal.as_ref().unwrap().comments, ["ここで中断"]);
    assert_eq!(r.main.comment_count(), 2);
    assert_eq!(r.result(), GameResult::Unknown);
}

#[test]
fn nested_variations_in_decreasing_order() {
    let r = clean(
        "1 ７六歩(77)\n2 ３四歩(33)\n3 ２六歩(27)\n4 ８四歩(83)\n5 投了\n\
         \n変化：3手\n3 ６六歩(67)\n4 ８四歩(83)\n5 ６八銀(79)\n\
         \n変化：4手\n4 ４二飛(82)\n5 ４八玉(59)\n\
         \n変化：2手\n2 ８四歩(83)\n3 ２六歩(27)\n\
         \n変化：3手\n3 ７八金(69)\n",
    );
    assert_eq!(usi_moves(&r), ["7g7f", "3c3d", "2g2f", "8c8d"]);
    assert_eq!(r.main.variation_count(), 4);
    let m3 = &r.main.moves[2];
    assert_eq!(m3.variations.len(), 1);
    let v = &m3.variations[0];
    assert_eq!(
        v.moves.iter().map(|m| m.mv.usi()).collect::<Vec<_>>(),
        ["6g6f", "8c8d", "7i6h"]
    );
    assert_eq!(
        v.moves[1].variations[0]
            .moves
            .iter()
            .map(|m| m.mv.usi())
            .collect::<Vec<_>>(),
        ["8b4b", "5i4h"]
    );
    let m2 = &r.main.moves[1];
    let v2 = &m2.variations[0];
    assert_eq!(
        v2.moves.iter().map(|m| m.mv.usi()).collect::<Vec<_>>(),
        ["8c8d", "2g2f"]
    );
    assert_eq!(v2.moves[0].mv.usi(), "8c8d");
    assert_eq!(v2.moves[1].variations[0].moves[0].mv.usi(), "6i7h");
}

/// Some writers list variations in increasing order, each one move long: every branch then
/// belongs to the main line (the innermost line that has a move at that ply).
#[test]
fn variations_in_increasing_order_attach_to_the_line_that_has_the_ply() {
    let r = clean(
        "1 ３六歩(37)\n2 ４二玉(51)\n3 ３五歩(36)\n4 ３二玉(42)\n5 ３四歩(35)\n\
         \n変化：1手\n1 ７六歩(77)\n\n変化：3手\n3 ２六歩(27)\n\n変化：5手\n5 ２六歩(27)\n",
    );
    assert_eq!(r.main.variation_count(), 3);
    for (i, usi) in [(0, "7g7f"), (2, "2g2f"), (4, "2g2f")] {
        assert_eq!(r.main.moves[i].variations[0].moves[0].mv.usi(), usi);
    }
}

/// The last move leaves the mover's own king in check (a real engine game ends so): the
/// move is kept and the game is flagged at that ply, as the project asks of every reader. One reference reader
/// keeps it, the other refuses the file.
#[test]
fn a_final_move_into_check_is_kept_and_flagged() {
    let r = clean(
        "1 ７六歩(77)\n2 ３四歩(33)\n3 ６八玉(59)\n4 ８八角成(22)\n5 ５九玉(68)\n6 ７九馬(88)\n",
    );
    assert_eq!(r.main.moves.len(), 6);
    assert_eq!(r.first_illegal(), None);
    let r = clean("1 ７六歩(77)\n2 ３四歩(33)\n3 ６八玉(59)\n4 ８八角成(22)\n5 ７八玉(68)\n");
    assert_eq!(r.main.moves.len(), 5);
    let (ply, rule) = r.first_illegal().unwrap();
    assert_eq!((ply, rule.code()), (5, "king_in_check"));
}

/// `手数：9` (a move-count header some writers add) is a header, not a move.
#[test]
fn a_move_count_header_is_a_header() {
    let r = clean("手数：2\n1 ７六歩(77)\n2 ３四歩(33)\n");
    assert_eq!(r.header(&["手数"]), Some("2"));
    assert_eq!(r.main.moves.len(), 2);
}

/// Quirks seen in real files: 変化：N手目, '#' comments after a time or a 変化 line, a board
/// diagram footer (手数＝0 まで), the English terminal Time-up, and a 中断 after the end.
#[test]
fn quirks_from_real_files() {
    let r = clean(
        "1 ７六歩(77) ( 0:05/00:00:05)#メモ\n2 ３四歩(33)\n3 Time-up\n\
         \n変化：2手目\n2 ８四歩(83)\n\n変化：1手#別の手\n1 ２六歩(27)\n",
    );
    assert_eq!(
        r.main.moves[0].time.map(|t| (t.spent, t.total)),
        Some((5.0, Some(5.0)))
    );
    assert_eq!(r.terminal(), Some(TerminalKind::TimeUp));
    assert_eq!(r.main.moves[1].variations[0].moves[0].mv.usi(), "8c8d");
    assert_eq!(r.main.moves[0].variations[0].moves[0].mv.usi(), "2g2f");
    let r = clean(
        "後手の持駒：なし\n+---------------------------+\n\
         | ・ ・ ・ ・v玉 ・ ・ ・ ・|\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|\n\
         +---------------------------+\n先手の持駒：金\n手数＝0 まで\n",
    );
    assert_eq!(r.start.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b G 1");
    // A 中断 after the real end loses nothing: no error (see tests/it/results.rs).
    let r = clean("1 ７六歩(77)\n2 投了\n3 中断\n");
    assert_eq!(r.terminal(), Some(TerminalKind::Resign));
}

/// A time that is no time is reported with its column, and the move is kept without it;
/// absurd values (found by fuzzing) are refused rather than overflowing.
/// Digits far beyond u64 in a time are refused, not added up until they overflow (found by
/// fuzzing the one-pass reader).
#[test]
fn a_time_with_too_many_digits_is_refused() {
    let r = read("   1 ７六歩(77)   ( 99999999999999999999999:01/)\n");
    assert_eq!(r.main.moves.len(), 1);
    assert_eq!(r.main.moves[0].time, None);
    assert_eq!(r.errors.len(), 1);
    assert!(r.errors[0].message.starts_with("the time"));
}

#[test]
fn unreadable_times_are_reported_and_the_move_kept() {
    let r = read(
        "1 ７六歩(77) ( 0:05/00:00:05)\n2 ３四歩(33)  ( 1:02/00:01:2222222222222)\n3 ２六歩(27) (x)\n\
         4 ８四歩(83) ( 0:05/00:00:0.5)\n",
    );
    assert_eq!(r.main.moves.len(), 4);
    assert_eq!(r.main.moves[1].time, None);
    // KIF times are whole seconds: a fraction is not a KIF time either.
    assert_eq!(r.main.moves[3].time, None);
    assert_eq!(r.errors.len(), 3);
    assert_eq!((r.errors[0].line, r.errors[0].column), (2, 12));
    assert_eq!(
        r.errors[0].message,
        "the time '( 1:02/00:01:2222222222222)' is not understood; the move is kept without it"
    );
    assert_eq!((r.errors[1].line, r.errors[1].column), (3, 11));
}

#[test]
fn every_terminal_word_and_its_winner() {
    // After one move White is to move.
    let cases = [
        ("投了", TerminalKind::Resign, GameResult::Win(Color::Black)),
        ("中断", TerminalKind::Abort, GameResult::Unknown),
        ("封じ手", TerminalKind::Abort, GameResult::Unknown),
        ("千日手", TerminalKind::Repetition, GameResult::Draw),
        ("持将棋", TerminalKind::Impasse, GameResult::Draw),
        (
            "切れ負け",
            TerminalKind::TimeUp,
            GameResult::Win(Color::Black),
        ),
        (
            "反則勝ち",
            TerminalKind::IllegalWin,
            GameResult::Win(Color::White),
        ),
        (
            "反則負け",
            TerminalKind::IllegalLoss,
            GameResult::Win(Color::Black),
        ),
        (
            "後手 反則負け",
            TerminalKind::IllegalLoss,
            GameResult::Win(Color::Black),
        ),
        (
            "入玉勝ち",
            TerminalKind::EnteringKingWin,
            GameResult::Win(Color::White),
        ),
        (
            "不戦勝",
            TerminalKind::DefaultWin,
            GameResult::Win(Color::White),
        ),
        (
            "不戦敗",
            TerminalKind::DefaultLoss,
            GameResult::Win(Color::Black),
        ),
        ("詰み", TerminalKind::Mate, GameResult::Win(Color::Black)),
        ("不詰", TerminalKind::NoMate, GameResult::Unknown),
    ];
    for (word, kind, result) in cases {
        let r = clean(&format!("1 ７六歩(77)\n2 {word}\n"));
        assert_eq!(r.terminal(), Some(kind), "{word}");
        assert_eq!(r.result(), result, "{word}");
    }
}

#[test]
fn illegal_moves_are_kept_and_flagged() {
    // Move 1 drops a second pawn on file 7: 二歩. The game goes on and keeps every move.
    let r = read(
        "後手の持駒：なし\n\
         +---------------------------+\n\
         | ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
         | ・ ・ 歩 ・ ・ ・ ・ ・ ・|七\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n\
         | ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n\
         +---------------------------+\n\
         先手の持駒：歩\n\
         1 ７五歩打\n2 ５二玉(51)\n3 ７六歩(77)\n",
    );
    assert_eq!(r.errors, []);
    assert_eq!(usi_moves(&r), ["P*7e", "5a5b", "7g7f"]);
    let (ply, rule) = r.first_illegal().unwrap();
    assert_eq!((ply, rule.code()), (1, "two_pawns"));
}

#[test]
fn an_impossible_move_ends_the_line_with_line_and_column() {
    let r = read("先手：A\n1 ７六歩(77)\n2 ３四歩(33)\n3 ５五角(88)\n4 ８四歩(83)\n");
    assert_eq!(usi_moves(&r), ["7g7f", "3c3d", "8h5e", "8c8d"]);
    // 8h5e is possible on the board (the 7g pawn moved), so it is played; now one that is not:
    let r = read("先手：A\n1 ７六歩(77)\n2 ３四歩(33)\n  3 ５五角(86)\n4 ８四歩(83)\n");
    assert_eq!(usi_moves(&r), ["7g7f", "3c3d"]);
    assert_eq!(r.errors.len(), 1);
    let e = &r.errors[0];
    assert_eq!((e.line, e.column), (4, 5));
    assert_eq!(e.message, "move 3: ５五角(86): there is no piece on ８六");
    assert_eq!(r.sente(), Some("A"));
    // The piece named must be the piece on the origin.
    let r = read("1 ７六歩(77)\n2 ３四歩(33)\n3 ５五角(87)\n");
    assert_eq!(usi_moves(&r), ["7g7f", "3c3d"]);
    assert_eq!(
        r.errors[0].message,
        "move 3: ５五角(87): the piece on ８七 is a pawn, not a bishop"
    );
}

#[test]
fn commented_out_board_is_ignored_as_the_specification_says() {
    // Every '#' line is a comment: the start is the even position, where 2三銀打 is impossible.
    let r = read(
        "# 先手の持駒：銀 金\n# | ・ ・ ・ ・ ・ ・ ・ ・v玉|二\n   1 ２三銀打     ( 0:00/00:00:00)\n",
    );
    assert_eq!(usi_moves(&r), Vec::<String>::new());
    assert_eq!(
        r.errors[0].message,
        "move 1: ２三銀打: black has no silver in hand to drop"
    );
    assert_eq!(r.errors[0].line, 3);
}

#[test]
fn half_width_colons_short_times_and_trailing_plus() {
    let r =
        clean("先手:Sente\n後手:Gote\n1 ７六歩(77) (0:16/)\n2 ３四歩(33)+\n3 ２六歩(27) ( 0:03)\n");
    assert_eq!(r.sente(), Some("Sente"));
    assert_eq!(usi_moves(&r), ["7g7f", "3c3d", "2g2f"]);
    assert_eq!(
        r.main.moves[0].time.map(|t| (t.spent, t.total)),
        Some((16.0, None))
    );
    assert_eq!(r.main.moves[2].time.map(|t| t.spent), Some(3.0));
}

#[test]
fn perpetual_check_repetition_goes_to_the_checked_side() {
    let mut text = String::from(
        "+---------------------------+\n\
         | ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
         | ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| 玉 ・ ・ ・ ・ ・ ・ 飛 ・|九\n\
         +---------------------------+\n",
    );
    let mut n = 1;
    for _ in 0..3 {
        for m in ["１九飛(29)", "２一玉(11)", "２九飛(19)", "１一玉(21)"] {
            text.push_str(&format!("{n} {m}\n"));
            n += 1;
        }
    }
    text.push_str(&format!("{n} 千日手\n"));
    let r = clean(&text);
    assert_eq!(r.main.moves.len(), 12);
    assert_eq!(r.terminal(), Some(TerminalKind::Repetition));
    assert_eq!(r.result(), GameResult::Win(Color::White));
}

/// Every KIF/KIFU and KI2/KI2U record of the shared corpus (when it is beside the project,
/// as in CI) reads back identically after writing (KIF → KIF; KI2 → KI2 → KIF): moves,
/// variations, comments, bookmarks, times, headers, terminal.
#[test]
fn kif_and_ki2_round_trip_over_the_shared_corpus() {
    let Some(files) = corpus(&[]) else {
        return;
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in files {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        let bytes = std::fs::read(&path).unwrap();
        let read = read_bytes(&bytes, Some(&path));
        let Some(mut original) = read.games.first().cloned() else {
            continue;
        };
        original.errors.clear();
        // What was cut is not in the text written: the copy is whole.
        original.incomplete = false;
        let ok = match (ext.as_str(), read.format) {
            ("kif" | "kifu", Some(Format::Kif)) => {
                let again = read_kif(&write_kif(&original));
                again.errors.is_empty() && again == original
            }
            // KI2 -> KI2 -> KIF: the record survives both writers.
            ("ki2" | "ki2u", Some(Format::Ki2)) => {
                let ki2 = read_ki2(&write_ki2(&original));
                let kif = read_kif(&write_kif(&ki2));
                ki2.errors.is_empty() && kif.errors.is_empty() && ki2 == original && kif == original
            }
            _ => continue,
        };
        if ok {
            checked += 1;
        } else {
            failures.push(path.display().to_string());
        }
    }
    assert_eq!(failures, Vec::<String>::new());
    assert!(checked >= 150, "only {checked} KIF and KI2 files checked");
}

/// The one-pass reader of the common move line (`   1 ７六歩(77)   ( 0:01/00:00:01)`) and the
/// general reader, which takes every line starting with a tab, agree on random games with
/// times, variations and comments, and on thousands of small corruptions of them: the same
/// record, and the same errors one column further right.
#[test]
fn common_move_lines_read_as_the_general_reader_reads_them() {
    use kifudex::notation::{Line, MoveNode, MoveTime};
    use kifudex::shogi::Position;

    let mut rng = crate::util::Rng::new(0x0b5e_55ed);
    let mut texts = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..60 {
        let mut rec = Record::default();
        let mut pos = Position::startpos();
        for _ in 0..1 + rng.below(150) {
            pos.generate_legal(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            pos.play(mv).unwrap();
            let mut node = MoveNode::new(mv);
            if rng.below(5) > 0 {
                node.time = Some(MoveTime {
                    spent: rng.below(5000) as f64,
                    total: (rng.below(2) == 0).then(|| rng.below(50000) as f64),
                });
            }
            if rng.below(40) == 0 {
                node.comments.push("コメント".into());
            }
            rec.main.moves.push(node);
        }
        if rec.main.moves.len() > 3 {
            let k = rng.below(rec.main.moves.len());
            let mut p = Position::startpos();
            for m in &rec.main.moves[..k] {
                p.play(m.mv).unwrap();
            }
            let mut line = Line::default();
            for _ in 0..rng.below(8) {
                p.generate_legal(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                p.play(mv).unwrap();
                line.moves.push(MoveNode::new(mv));
            }
            rec.main.moves[k].variations.push(line);
        }
        texts.push(write_kif(&rec));
    }
    const PIECES: [&str; 34] = [
        " ",
        "  ",
        "　",
        "\t",
        "(",
        ")",
        "（",
        "）",
        ":",
        "/",
        "+",
        "#",
        "0",
        "9",
        "１",
        "七",
        "同",
        "同　",
        "成",
        "不成",
        "生",
        "打",
        "歩",
        "成銀",
        "杏",
        "右",
        "(00)",
        "(07)",
        "(99)",
        "( 0:01/00:00:01)",
        "1234567890",
        "７六",
        "投了",
        "先手",
    ];
    let mut cases = texts.clone();
    // Other names the writer does not use, and relative words.
    for (from, to) in [
        ("不成", "生"),
        ("龍", "竜"),
        ("玉", "王"),
        ("成銀", "全"),
        ("成桂", "圭"),
        ("成香", "杏"),
        ("金(", "金右("),
        ("銀(", "銀左上("),
        ("同　", "同"),
    ] {
        cases.extend(texts.iter().map(|t| t.replace(from, to)));
    }
    // Other line ends: the one-pass reader reads up to them.
    cases.extend(texts.iter().map(|t| t.replace('\n', "\r\n")));
    cases.extend(texts.iter().map(|t| t.replace('\n', "\r")));
    for _ in 0..3000 {
        let mut t = texts[rng.below(texts.len())].clone();
        for _ in 0..1 + rng.below(3) {
            let cuts: Vec<usize> = (0..=t.len()).filter(|&i| t.is_char_boundary(i)).collect();
            let at = cuts[rng.below(cuts.len())];
            let next = cuts.iter().copied().find(|&c| c > at).unwrap_or(at);
            match rng.below(3) {
                0 => t.insert_str(at, PIECES[rng.below(PIECES.len())]),
                1 => t.replace_range(at..next, ""),
                _ => t.replace_range(at..next, PIECES[rng.below(PIECES.len())]),
            }
        }
        cases.push(t);
    }
    for text in &cases {
        let general: String = text
            .split_inclusive(['\n', '\r'])
            .map(|l| {
                if l.trim_start_matches(' ')
                    .starts_with(|c: char| c.is_ascii_digit())
                {
                    format!("\t{l}")
                } else {
                    l.to_string()
                }
            })
            .collect();
        let (a, mut b) = (read_kif(text), read_kif(&general));
        let lines =
            |t: &str| -> Vec<String> { decode::lines(t).iter().map(|l| l.to_string()).collect() };
        let (text_lines, general_lines) = (lines(text), lines(&general));
        for e in &mut b.errors {
            // Columns counted from the text (not fixed at 1) move right with the tab.
            if e.column > 1 && text_lines.get(e.line - 1) != general_lines.get(e.line - 1) {
                e.column -= 1;
            }
        }
        assert_eq!(a, b, "{text}");
    }
}

/// A variation that branches from a move the line does not have is reported and read into
/// nothing: its moves, comments, bookmarks and end stay out of the main line.
#[test]
fn a_variation_at_a_missing_move_keeps_its_comments_to_itself() {
    let r = read(
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*本譜のコメント\n   2 ３四歩(33)\n   3 投了\n\n変化：9手\n   9 ２六歩(27)\n*変化のコメント\n&変化のしおり\n  10 投了\n",
    );
    assert_eq!(r.main.moves.len(), 2);
    assert_eq!(r.main.moves[0].comments, ["本譜のコメント"]);
    assert!(r.main.moves[1].comments.is_empty());
    assert!(r.main.moves[1].bookmarks.is_empty());
    assert!(r.start_bookmarks.is_empty());
    let end = r.main.terminal.as_ref().unwrap();
    assert_eq!(end.kind, TerminalKind::Resign);
    assert!(end.comments.is_empty());
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].line, 8);
    assert_eq!(
        r.errors[0].message,
        "variation at move 9, but the line it branches from has no move 9"
    );
}

/// A header value with line breaks (JKF and PSN allow them) is written on one line, so that
/// the KIF reads back whole.
#[test]
fn header_values_with_line_breaks_are_written_on_one_line() {
    let mut rec = read_kif("手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n");
    rec.headers
        .push(("メモ".into(), "一行目\r\n二行目\n三行目\r四行目".into()));
    rec.headers.push(("棋戦".into(), "第1期\nテスト戦".into()));
    let kif = write_kif(&rec);
    let back = read_kif(&kif);
    assert_eq!(back.errors, []);
    assert_eq!(
        back.headers[back.headers.len() - 2..],
        [
            (
                "メモ".to_string(),
                "一行目 二行目 三行目 四行目".to_string()
            ),
            ("棋戦".to_string(), "第1期 テスト戦".to_string()),
        ]
    );
    assert_eq!(back.main.moves.len(), 1);
}
