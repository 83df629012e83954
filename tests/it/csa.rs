//! The CSA reader against fixtures written for this project: every case of the CSA specification.

use crate::util::{CSA_GAME, corpus_root, csa_clean, usi_moves};
use kifudex::notation::csa::read_csa;
use kifudex::notation::{
    Encoding, Format, GameResult, Note, ReadError, Record, TerminalKind, read_bytes,
};
use kifudex::shogi::{Color, Handicap, Rule};

/// The one game of `text`, errors and all.
fn one(text: &str) -> Record {
    let mut games = read_csa(text);
    assert_eq!(games.len(), 1, "one game expected");
    games.remove(0)
}

const EVEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

#[test]
fn headers_moves_times_and_result() {
    let r = csa_clean(CSA_GAME);
    assert_eq!(usi_moves(&r), ["2g2f", "8c8d", "2f2e", "8d8e"]);
    assert_eq!(r.start.to_sfen(), EVEN);
    let keys: Vec<&str> = r.headers.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "N+",
            "N-",
            "$EVENT",
            "$SITE",
            "$START_TIME",
            "$END_TIME",
            "$TIME_LIMIT",
            "$OPENING",
            "$NOTE"
        ]
    );
    assert_eq!(r.sente(), Some("先手太郎"));
    assert_eq!(r.gote(), Some("後手花子"));
    assert_eq!(r.event(), Some("第1回テスト棋戦"));
    assert_eq!(r.site(), Some("東京"));
    assert_eq!(r.start_time(), Some("2024/03/01 10:00:00"));
    assert_eq!(r.end_time(), Some("2024/03/01 12:00:00"));
    assert_eq!(r.time_control(), Some("00:25+00"));
    assert_eq!(r.opening(), Some("相掛かり"));
    assert_eq!(r.header(&["$NOTE"]), Some("a remark, with a comma"));
    assert_eq!(r.terminal(), Some(TerminalKind::Resign));
    assert_eq!(r.result(), GameResult::Win(Color::White));
    // CSA gives each move's time; the totals are each side's running sum.
    let times: Vec<(f64, Option<f64>)> = r
        .main
        .moves
        .iter()
        .map(|m| m.time.map(|t| (t.spent, t.total)).unwrap())
        .collect();
    assert_eq!(
        times,
        [
            (5.0, Some(5.0)),
            (10.0, Some(10.0)),
            (62.0, Some(67.0)),
            (3.0, Some(13.0))
        ]
    );
    let end = r.main.terminal.as_ref().unwrap().time.unwrap();
    assert_eq!((end.spent, end.total), (1.0, Some(68.0)));
}

#[test]
fn every_version_line_and_none() {
    for version in ["V2", "V2.1", "V2.2", "V3.0", ""] {
        let text = CSA_GAME.replacen("V2.2", version, 1);
        let r = csa_clean(&text);
        assert_eq!(usi_moves(&r), ["2g2f", "8c8d", "2f2e", "8d8e"], "{version}");
        assert_eq!(r.sente(), Some("先手太郎"));
    }
    let r = one(&CSA_GAME.replacen("V2.2", "V9.9", 1));
    assert_eq!(usi_moves(&r).len(), 4);
    assert_eq!(
        r.errors,
        [ReadError::warning(
            1,
            1,
            "'V9.9' is no CSA version kifudex knows (V2, V2.1, V2.2, V3.0); read as V3.0"
        )]
    );
}

#[test]
fn newlines_of_every_kind_and_none_at_the_end() {
    for text in [
        CSA_GAME.replace('\n', "\r\n"),
        CSA_GAME.replace('\n', "\r"),
        CSA_GAME.trim_end().to_string(),
    ] {
        let r = csa_clean(&text);
        assert_eq!(usi_moves(&r), ["2g2f", "8c8d", "2f2e", "8d8e"]);
        assert_eq!(r.terminal(), Some(TerminalKind::Resign));
    }
}

#[test]
fn shift_jis_and_utf8_with_and_without_bom() {
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(CSA_GAME);
    let bom = [b"\xEF\xBB\xBF".as_slice(), CSA_GAME.as_bytes()].concat();
    for (bytes, enc) in [
        (sjis.to_vec(), Encoding::ShiftJis),
        (bom, Encoding::Utf8),
        (CSA_GAME.as_bytes().to_vec(), Encoding::Utf8),
    ] {
        let f = read_bytes(&bytes, None);
        assert_eq!(f.encoding, enc);
        assert_eq!(f.format, Some(Format::Csa));
        assert_eq!(f.error, None);
        assert_eq!(f.games.len(), 1);
        assert_eq!(f.games[0].sente(), Some("先手太郎"));
        assert_eq!(f.games[0].event(), Some("第1回テスト棋戦"));
        assert_eq!(usi_moves(&f.games[0]), ["2g2f", "8c8d", "2f2e", "8d8e"]);
    }
}

#[test]
fn pi_with_removed_pieces_names_the_handicap() {
    let r = csa_clean("V2.2\nN+下手\nN-上手\nPI82HI22KA\n-\n-5142OU\n+7776FU\n%TORYO\n");
    assert_eq!(r.handicap(), Handicap::TwoPieces);
    assert_eq!(
        r.start.to_sfen(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(usi_moves(&r), ["5a4b", "7g7f"]);
    // 上手 (White) moved first; after two moves White resigns.
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    // The removals in any order.
    assert_eq!(csa_clean("PI22KA82HI\n-\n").handicap(), Handicap::TwoPieces);
    assert_eq!(csa_clean("PI11KY\n-\n").handicap(), Handicap::Lance);
    assert_eq!(csa_clean("PI\n+\n").handicap(), Handicap::Even);
}

#[test]
fn pi_removing_a_piece_that_is_not_there() {
    let r = one("PI82HI55KA\n-\n-5142OU\n");
    assert_eq!(r.handicap(), Handicap::Rook);
    assert_eq!(usi_moves(&r), ["5a4b"]);
    assert_eq!(
        r.errors,
        [ReadError::new(
            1,
            7,
            "PI: the even-game position has no bishop (KA) on 55 to take off"
        )]
    );
    let r = one("PI82H\n+\n");
    assert_eq!(
        r.errors,
        [ReadError::new(
            1,
            3,
            "PI: '82H' is no square and piece to take off (like 82HI)"
        )]
    );
}

#[test]
fn rows_with_standard_and_collapsed_spaces() {
    let text = "\
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI * * * * * -KA *
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  *
P5 * * * * * * * * *
P6*********
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI *.
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
+7776FU
";
    let r = csa_clean(text);
    assert_eq!(r.start.to_sfen(), EVEN);
    assert_eq!(usi_moves(&r), ["7g7f"]);
    let r = one("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -XX\n+\n");
    assert_eq!(
        r.errors,
        [ReadError::new(
            2,
            1,
            "row P2: '-XX' is no piece; the row is left empty"
        )]
    );
    let r = one("P3-FU-FU-FU\n+\n");
    assert_eq!(
        r.errors,
        [ReadError::new(
            1,
            1,
            "row P3: 3 squares, not 9; the row is left empty"
        )]
    );
}

#[test]
fn rows_with_promoted_pieces_and_a_side_line_for_white() {
    let text = "\
P1 *  *  *  *  *  *  *  * -OU
P2 *  *  *  *  *  *  *  *  *
P3 *  *  *  *  *  *  * +TO *
P4 *  *  *  *  *  *  *  *  *
P5 *  *  *  * +UM *  *  *  *
P6 *  *  *  *  *  *  *  *  *
P7 *  *  *  *  *  *  *  *  *
P8 *  * -RY *  *  *  *  *  *
P9 *  *  *  * +OU *  *  *  *
P+00KI
-
-1121OU
";
    let r = csa_clean(text);
    assert_eq!(r.start.to_sfen(), "8k/9/7+P1/9/4+B4/9/9/2+r6/4K4 w G 1");
    assert_eq!(usi_moves(&r), ["1a2a"]);
}

#[test]
fn piece_lists_with_hands_and_al() {
    // A tsume problem: the board from P+/P- lists, Gote holding every other piece (AL).
    let r = csa_clean("P-11OU\nP+13FU\nP+00KI\nP-00AL\n+\n+0012KI\n%TSUMI\n");
    assert_eq!(
        r.start.to_sfen(),
        "8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
    );
    assert_eq!(usi_moves(&r), ["G*1b"]);
    assert_eq!(r.terminal(), Some(TerminalKind::Mate));
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    assert_eq!(r.handicap(), Handicap::Other);
    // Several pieces a line, board and hand mixed.
    let r = csa_clean("P-11OU21FU\nP+00HI00HI00KY\nP-00GI00GI\n+\n");
    assert_eq!(r.start.to_sfen(), "7pk/9/9/9/9/9/9/9/9 b 2RL2s 1");
}

#[test]
fn piece_list_errors_have_columns() {
    let r = one("P-11OU\nP+00KI00OU55XX\nP+11FU\n+\n");
    assert_eq!(
        r.errors,
        [
            ReadError::new(2, 7, "a hand cannot hold a king (OU)"),
            ReadError::new(
                2,
                11,
                "'55XX' is no square and piece (like 99KY, 00KI or 00AL)"
            ),
            ReadError::new(3, 3, "11 already holds a piece; it is replaced"),
        ]
    );
    assert_eq!(r.start.to_sfen(), "8P/9/9/9/9/9/9/9/9 b G 1");
}

#[test]
fn an_impossible_start_is_an_error_and_no_move_is_read() {
    let r = one(
        "P-11OU\nP+00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU\n+\n+0055FU\n",
    );
    assert_eq!(usi_moves(&r), Vec::<String>::new());
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].line, 4);
    assert!(
        r.errors[0]
            .message
            .starts_with("the start position is impossible: "),
        "{}",
        r.errors[0].message
    );
}

#[test]
fn the_side_to_move_comes_from_the_first_move_when_no_line_gives_it() {
    let r = csa_clean("PI82HI\n-3334FU\n+7776FU\n");
    assert_eq!(r.start.side_to_move(), Color::White);
    assert_eq!(usi_moves(&r), ["3c3d", "7g7f"]);
}

/// Shogi Wars exports have no `PI` line: the even start is the normal case, no problem.
#[test]
fn a_game_with_no_start_position_is_read_from_the_even_start() {
    let r = csa_clean("N+a\nN-b\n+7776FU,T3\n-3334FU,T2\n%TORYO\n");
    assert_eq!(usi_moves(&r), ["7g7f", "3c3d"]);
    assert_eq!(
        r.start.to_sfen(),
        kifudex::shogi::Position::startpos().to_sfen()
    );
    assert_eq!(r.result(), GameResult::Win(Color::White));
}

/// A GPS/WCSC client log: the server's `#` messages confirm the end, or give it when no `%`
/// line does; none is an error.
#[test]
fn server_protocol_lines_confirm_or_give_the_end() {
    use TerminalKind::*;
    let moves = "N+a\nN-b\nPI\n+\n+7776FU\nT1\n-3334FU\nT1\n";
    for (tail, kind, winner) in [
        (
            "%TORYO\n#RESIGN\n#LOSE\n",
            Resign,
            GameResult::Win(Color::White),
        ),
        ("#RESIGN\n#WIN\n", Resign, GameResult::Win(Color::White)),
        ("#TIME_UP\n#LOSE\n", TimeUp, GameResult::Win(Color::White)),
        (
            "#ILLEGAL_MOVE\n#WIN\n",
            IllegalMove,
            GameResult::Win(Color::White),
        ),
        ("#SENNICHITE\n#DRAW\n", Repetition, GameResult::Draw),
        ("#OUTE_SENNICHITE\n#LOSE\n", Repetition, GameResult::Draw),
        ("#MAX_MOVES\n#CENSORED\n", MaxMoves, GameResult::Draw),
        ("#CHUDAN\n", Abort, GameResult::Unknown),
        ("%CHUDAN\n#CHUDAN\n", Abort, GameResult::Unknown),
    ] {
        let r = csa_clean(&format!("{moves}{tail}"));
        assert_eq!((r.terminal(), r.result()), (Some(kind), winner), "{tail}");
        assert_eq!(r.main.moves.len(), 2, "{tail}");
    }
    // After a right declaration the server answers #JISHOGI.
    let r = csa_clean(&(declaration(2) + "%KACHI\n#JISHOGI\n#WIN\n"));
    assert_eq!(r.terminal(), Some(EnteringKingWin));
    let r = csa_clean(&(declaration(2) + "#JISHOGI\n#WIN\n"));
    assert_eq!(r.terminal(), Some(EnteringKingWin));
    // Anything else after `#` is named.
    let r = one(&format!("{moves}#HELLO\n"));
    assert_eq!(
        r.errors,
        [ReadError::warning(
            9,
            1,
            "'#HELLO' is no CSA server message (like #RESIGN); ignored"
        )]
    );
}

/// Engine output whose `'` was lost (`** 1248 -7667NG …`) is engine output all the same.
#[test]
fn engine_lines_without_their_quote_are_engine_output() {
    let r = csa_clean("PI\n+\n+7776FU\n** 1248 -3334FU +2726FU\n-3334FU\n'** -30 +2726FU\n");
    assert_eq!(r.main.moves[0].engine, [" 1248 -3334FU +2726FU"]);
    assert_eq!(r.main.moves[1].engine, [" -30 +2726FU"]);
}

#[test]
fn integer_and_fractional_times() {
    let r = csa_clean("V3.0\nPI\n+\n+7776FU\nT6.123\n-3334FU\nT0.5\n+8822UM\nT12\n%TORYO\nT1.25\n");
    assert_eq!(usi_moves(&r), ["7g7f", "3c3d", "8h2b+"]);
    let spent: Vec<f64> = r.main.moves.iter().map(|m| m.time.unwrap().spent).collect();
    assert_eq!(spent, [6.123, 0.5, 12.0]);
    assert_eq!(r.main.moves[2].time.unwrap().total, Some(6.123 + 12.0));
    let end = r.main.terminal.as_ref().unwrap().time.unwrap();
    assert_eq!((end.spent, end.total), (1.25, Some(1.75)));
}

#[test]
fn bad_times_are_errors_and_the_moves_are_kept() {
    let r = one("PI\n+\nT3\n+7776FU\nTx\nT-1\nT5\nT6\n");
    assert_eq!(usi_moves(&r), ["7g7f"]);
    assert_eq!(r.main.moves[0].time.unwrap().spent, 5.0);
    assert_eq!(
        r.errors,
        [
            ReadError::new(3, 1, "'T3': a time with no move before it; ignored"),
            ReadError::new(
                5,
                1,
                "'Tx' is no time in seconds (like T12 or T6.123); ignored"
            ),
            ReadError::new(
                6,
                1,
                "'T-1' is no time in seconds (like T12 or T6.123); ignored"
            ),
            ReadError::new(8, 1, "'T6': a second time for the same move; ignored"),
        ]
    );
}

#[test]
fn statements_joined_with_commas() {
    let r = csa_clean("V2.2\nPI,+\n+7776FU,T12,-3334FU,T3\n+8822UM,T1,-3122GI,T2\n%TORYO,T0\n");
    assert_eq!(usi_moves(&r), ["7g7f", "3c3d", "8h2b+", "3a2b"]);
    let spent: Vec<f64> = r.main.moves.iter().map(|m| m.time.unwrap().spent).collect();
    assert_eq!(spent, [12.0, 3.0, 1.0, 2.0]);
    assert_eq!(r.main.terminal.as_ref().unwrap().time.unwrap().spent, 0.0);
    assert_eq!(r.result(), GameResult::Win(Color::White));
    // A comment after a comma runs to the end of the line, commas and all.
    let r = csa_clean("PI\n+\n+7776FU,'*good, very good\n");
    assert_eq!(r.main.moves[0].comments, ["good, very good"]);
}

#[test]
fn comments_engine_lines_and_notes_are_kept_apart() {
    let text = "\
V2.2
' ---- a writer's banner ----
N+alice
N-bob
PI
+
'*on the start
'**0 +7776FU
+7776FU
T1
'*a human comment
'**30 -3334FU +2726FU
' a plain remark
-3334FU
%TORYO
'*after the end
'summary:toryo:alice lose:bob win
";
    let r = csa_clean(text);
    assert_eq!(r.start_comments, ["on the start"]);
    assert_eq!(r.start_engine, ["0 +7776FU"]);
    assert_eq!(r.main.moves[0].comments, ["a human comment"]);
    assert_eq!(r.main.moves[0].engine, ["30 -3334FU +2726FU"]);
    assert!(r.main.moves[1].comments.is_empty() && r.main.moves[1].engine.is_empty());
    assert_eq!(
        r.main.terminal.as_ref().unwrap().comments,
        ["after the end"]
    );
    let note = |after: usize, text: &str| Note {
        after,
        text: text.to_string(),
    };
    assert_eq!(
        r.notes,
        [
            note(0, " ---- a writer's banner ----"),
            note(1, " a plain remark"),
            note(3, "summary:toryo:alice lose:bob win"),
        ]
    );
    // Human comments only are counted as comments.
    assert_eq!(r.start_comments.len() + r.main.comment_count(), 3);
    assert_eq!(r.start_engine.len() + r.main.engine_line_count(), 2);
    assert_eq!(r.result(), GameResult::Win(Color::White));
}

#[test]
fn floodgate_engine_lines_after_the_moves() {
    // Floodgate logs each client's `,'*` comment as a `'**` line under the move.
    let text = "V2\nN+a\nN-b\nPI\n+\n+2726FU\nT10\n'** 130 -8384FU +2625FU\n-8384FU\nT3\n'** -50 +2625FU\n%TORYO\n";
    let r = csa_clean(text);
    let engine: Vec<&[String]> = r.main.moves.iter().map(|m| m.engine.as_slice()).collect();
    assert_eq!(
        engine,
        [
            [" 130 -8384FU +2625FU".to_string()],
            [" -50 +2625FU".to_string()]
        ]
    );
    assert_eq!(r.main.comment_count(), 0);
}

/// Three moves (Gote to move) and then the terminal.
fn ended(terminal: &str) -> Record {
    one(&format!(
        "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n{terminal}\n"
    ))
}

#[test]
fn every_terminal_with_its_winner() {
    use TerminalKind::*;
    let sente = GameResult::Win(Color::Black);
    let gote = GameResult::Win(Color::White);
    let cases = [
        ("%TORYO", Resign, sente),
        ("%CHUDAN", Abort, GameResult::Unknown),
        ("%SENNICHITE", Repetition, GameResult::Draw),
        ("%OUTE_SENNICHITE", Repetition, GameResult::Draw),
        ("%TIME_UP", TimeUp, sente),
        // The side to move (Gote) made an illegal move and loses.
        ("%ILLEGAL_MOVE", IllegalMove, sente),
        // Sente fouled: Gote, to move, wins.
        ("%+ILLEGAL_ACTION", IllegalWin, gote),
        // Gote, to move, fouled: Sente wins.
        ("%-ILLEGAL_ACTION", IllegalLoss, sente),
        ("%JISHOGI", Impasse, GameResult::Draw),
        // A declaration in this opening is wrong, but the record's word is the result (the
        // game is flagged: see kachi_is_the_declarers_win_and_a_wrong_one_is_flagged).
        ("%KACHI", EnteringKingWin, gote),
        ("%HIKIWAKE", EnteringKingDraw, GameResult::Draw),
        ("%MATTA", Takeback, GameResult::Unknown),
        // The side to move is mated.
        ("%TSUMI", Mate, sente),
        ("%FUZUMI", NoMate, GameResult::Unknown),
        ("%ERROR", Error, GameResult::Unknown),
        ("%MAX_MOVES", MaxMoves, GameResult::Draw),
    ];
    for (word, kind, winner) in cases {
        let r = ended(word);
        assert_eq!(r.errors, [], "{word}");
        assert_eq!(r.terminal(), Some(kind), "{word}");
        assert_eq!(r.result(), winner, "{word}");
    }
    // With Sente to move, the illegal actions turn round.
    let r = csa_clean("PI\n+\n+7776FU\n-3334FU\n%+ILLEGAL_ACTION\n");
    assert_eq!((r.terminal(), r.result()), (Some(IllegalLoss), gote));
    let r = csa_clean("PI\n+\n+7776FU\n-3334FU\n%-ILLEGAL_ACTION\n");
    assert_eq!((r.terminal(), r.result()), (Some(IllegalWin), sente));
}

#[test]
fn an_unknown_terminal_is_an_error() {
    let r = ended("%FOO");
    assert_eq!(r.terminal(), None);
    assert_eq!(
        r.errors,
        [ReadError::new(
            7,
            1,
            "'%FOO' is no CSA terminal (like %TORYO); ignored"
        )]
    );
}

#[test]
fn a_move_after_the_end_is_an_error() {
    let r = ended("%TORYO\n-8384FU");
    assert_eq!(usi_moves(&r).len(), 3);
    assert_eq!(r.terminal(), Some(TerminalKind::Resign));
    assert_eq!(
        r.errors,
        [ReadError::new(
            8,
            1,
            "'-8384FU' comes after the game ended (resign); it and what follows are ignored"
        )]
    );
    let r = ended("%TORYO\n%CHUDAN");
    assert_eq!(
        r.errors,
        [ReadError::warning(
            8,
            1,
            "'%CHUDAN' comes after the game ended (resign); ignored"
        )]
    );
}

/// Sente's king in Gote's camp with ten pieces there: rooks, bishops, golds and silvers
/// (26 points), and `hand` pawns in hand.
fn declaration(hand: usize) -> String {
    format!(
        "P1 * +HI+HI+KA+KA *  *  *  *\nP2+KI+KI+KI+KI+OU *  *  *  *\nP3+GI+GI *  *  *  *  *  *  *\nP9 *  *  *  * -OU *  *  *  *\nP+{}\n+\n",
        "00FU".repeat(hand)
    )
}

#[test]
fn kachi_is_the_declarers_win_and_a_wrong_one_is_flagged() {
    use kifudex::shogi::Rule;
    // 26 + 2 = 28 points: enough for Sente.
    let r = csa_clean(&(declaration(2) + "%KACHI\n"));
    assert_eq!(r.terminal(), Some(TerminalKind::EnteringKingWin));
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    assert_eq!(r.first_illegal(), None);
    // 27 points: Sente needs 28. The record says Sente won, and so it stays; the declaration
    // is flagged at its ply (the first, no move being played).
    let r = csa_clean(&(declaration(1) + "%KACHI\n"));
    assert_eq!(r.terminal(), Some(TerminalKind::EnteringKingWin));
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    assert_eq!(r.first_illegal(), Some((1, Rule::InvalidDeclaration)));
    assert_eq!(Rule::InvalidDeclaration.code(), "invalid_declaration");
    // Floodgate's summary, when there is one, is the server's ruling.
    let r = csa_clean(&(declaration(1) + "%KACHI\n'summary:kachi:a win:b lose\n"));
    assert_eq!(r.terminal(), Some(TerminalKind::EnteringKingWin));
    assert_eq!(r.first_illegal(), None);
    let r = csa_clean(&(declaration(2) + "%KACHI\n'summary:illegal kachi:a lose:b win\n"));
    assert_eq!(r.terminal(), Some(TerminalKind::IllegalLoss));
    assert_eq!(r.result(), GameResult::Win(Color::White));
}

/// The same declarations in KIF (入玉勝ち on a move line) and as a まで summary.
#[test]
fn a_kif_entering_king_win_is_checked_the_same_way() {
    use kifudex::notation::kif::{read_ki2, read_kif};
    use kifudex::shogi::Rule;
    let board = |hand: &str| {
        format!(
            "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
             | ・ ・ ・ ・ ・ 角 角 飛 飛|\n| ・ ・ ・ ・ 玉 金 金 金 金|\n| ・ ・ ・ ・ ・ ・ ・ 銀 銀|\n\
             | ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n\
             | ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|\n\
             +---------------------------+\n先手の持駒：{hand}\n"
        )
    };
    for (hand, flagged) in [("歩二", false), ("歩", true)] {
        let r = read_kif(&(board(hand) + "1 入玉勝ち\n"));
        assert_eq!(r.errors, []);
        assert_eq!(r.terminal(), Some(TerminalKind::EnteringKingWin), "{hand}");
        assert_eq!(r.result(), GameResult::Win(Color::Black), "{hand}");
        let expected = flagged.then_some((1, Rule::InvalidDeclaration));
        assert_eq!(r.first_illegal(), expected, "{hand}");
        let r = read_ki2(&(board(hand) + "まで0手で先手の入玉勝ち\n"));
        assert_eq!(r.errors, []);
        assert_eq!(r.result(), GameResult::Win(Color::Black), "{hand}");
        assert_eq!(r.first_illegal(), expected, "{hand}");
    }
}

#[test]
fn a_repeated_terminal_is_read_once() {
    // Floodgate logs the client's `%KACHI,'* …` and then its own `%KACHI`.
    let r = csa_clean(&(declaration(2) + "%KACHI,'* -5000 win\nT10\n%KACHI\n"));
    let t = r.main.terminal.as_ref().unwrap();
    assert_eq!(t.kind, TerminalKind::EnteringKingWin);
    assert_eq!(t.comments, [" -5000 win"]);
    assert_eq!(t.time.unwrap().spent, 10.0);
}

#[test]
fn a_floodgate_summary_gives_the_end_when_no_terminal_does() {
    let r = csa_clean(
        "V2\nN+alice\nN-bob\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n'summary:time up:alice win:bob lose\n",
    );
    assert_eq!(r.terminal(), Some(TerminalKind::TimeUp));
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    let r = csa_clean(
        "PI\n+\n+7776FU\n'ILLEGAL_MOVE(-3344FU)\n'summary:illegal move:alice win:bob lose\n",
    );
    assert_eq!(r.terminal(), Some(TerminalKind::IllegalMove));
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    let r = csa_clean("PI\n+\n+7776FU\n-3334FU\n'summary:sennichite:alice draw:bob draw\n");
    assert_eq!(r.terminal(), Some(TerminalKind::Repetition));
}

#[test]
fn several_games_in_one_file() {
    let text = "\
V2.2
N+A
N-B
PI
+
+7776FU
-3334FU
%TORYO
/
V2.2
N+C
N-D
PI82HI
-
-3334FU
+7776FU
-2288UM
%TORYO
/
'a tsume problem
P-11OU
P+13FU
P+00KI
P-00AL
+
+0012KI
what is this
%TSUMI
/
";
    let f = read_bytes(text.as_bytes(), None);
    assert_eq!(f.format, Some(Format::Csa));
    let g = &f.games;
    assert_eq!(g.len(), 3);
    assert_eq!(
        g.iter().map(|r| r.handicap()).collect::<Vec<_>>(),
        [Handicap::Even, Handicap::Rook, Handicap::Other]
    );
    assert_eq!(
        g.iter().map(|r| r.sente()).collect::<Vec<_>>(),
        [Some("A"), Some("C"), None]
    );
    assert_eq!(usi_moves(&g[0]), ["7g7f", "3c3d"]);
    assert_eq!(usi_moves(&g[1]), ["3c3d", "7g7f", "2b8h+"]);
    assert_eq!(usi_moves(&g[2]), ["G*1b"]);
    let winners: Vec<GameResult> = g.iter().map(Record::result).collect();
    assert_eq!(
        winners,
        [
            GameResult::Win(Color::White),
            GameResult::Win(Color::White),
            GameResult::Win(Color::Black)
        ]
    );
    assert!(g[0].errors.is_empty() && g[1].errors.is_empty());
    // Errors carry the line of the file, not of the game.
    assert_eq!(
        g[2].errors,
        [ReadError::new(
            27,
            1,
            "'what is this' is no CSA statement; ignored"
        )]
    );
    assert_eq!(g[2].notes[0].text, "a tsume problem");
}

#[test]
fn an_illegal_move_is_played_and_flagged() {
    // P*2c onto a file where Sente already has a pawn (二歩).
    let r = csa_clean(
        "PI\n+\n+2726FU\n-2324FU\n+2625FU\n-8384FU\n+2524FU\n-8485FU\n+0023FU\n-4132KI\n%TORYO\n",
    );
    assert_eq!(
        usi_moves(&r),
        [
            "2g2f", "2c2d", "2f2e", "8c8d", "2e2d", "8d8e", "P*2c", "4a3b"
        ]
    );
    assert_eq!(r.first_illegal(), Some((7, Rule::TwoPawns)));
    assert_eq!(r.terminal(), Some(TerminalKind::Resign));
}

#[test]
fn an_impossible_move_ends_the_game_with_its_line_and_column() {
    let r = one("V2.2\nPI\n+\n+7776FU,-3334FU,+7775FU\n-8384FU\n%TORYO\n");
    assert_eq!(usi_moves(&r), ["7g7f", "3c3d"]);
    assert_eq!(r.terminal(), None);
    assert_eq!(
        r.errors,
        [ReadError::new(
            4,
            17,
            "move 3: +7775FU cannot be played: there is no piece on 77; the game is read up to move 2"
        )]
    );
}

#[test]
fn moves_that_do_not_fit_the_position() {
    let cases = [
        (
            "+7776KE",
            "move 1: +7776KE cannot be played: the piece on 77 is a pawn (FU), not a knight (KE); the game is read up to move 0",
        ),
        (
            "-3334FU",
            "move 1: -3334FU is white's move, but it is black's turn; the game is read up to move 0",
        ),
        (
            "+0055KA",
            "move 1: +0055KA cannot be played: black has no bishop in hand; the game is read up to move 0",
        ),
        (
            "+0055TO",
            "move 1: +0055TO: a promoted pawn (TO) cannot be dropped; the game is read up to move 0",
        ),
        (
            "+7776F",
            "move 1: '+7776F' is no CSA move (like +7776FU); the game is read up to move 0",
        ),
        (
            "+2829HI",
            "move 1: +2829HI cannot be played: 2i already holds a piece of the side to move; the game is read up to move 0",
        ),
    ];
    for (mv, message) in cases {
        let r = one(&format!("PI\n+\n{mv}\n"));
        assert_eq!(usi_moves(&r), Vec::<String>::new());
        assert_eq!(r.errors, [ReadError::new(3, 1, message)], "{mv}");
    }
}

#[test]
fn statements_that_are_not_csa() {
    let r = one("V2.2\n$EVENT\nPI\n+\nhello\n+7776FU\nP1-KY\n+\n");
    assert_eq!(usi_moves(&r), ["7g7f"]);
    assert_eq!(
        r.errors,
        [
            ReadError::warning(
                2,
                1,
                "the header '$EVENT' has no ':' between key and value; ignored"
            ),
            ReadError::new(5, 1, "'hello' is no CSA statement; ignored"),
            ReadError::new(
                7,
                1,
                "'P1-KY': the start position is given after the moves began; ignored"
            ),
            ReadError::new(8, 1, "a side-to-move line after the moves began; ignored"),
        ]
    );
}

/// The CSA files of the shared corpus that the two reference readers disagree on, pinned
/// (when the corpus is beside the project); each case is also a fixture of our own below.
#[test]
fn disputed_corpus_files_as_the_specification_reads_them() {
    let Some(root) = corpus_root() else {
        return;
    };
    let read = |path: &str| {
        let bytes = std::fs::read(root.join(path)).ok()?;
        read_bytes(&bytes, None).games.into_iter().next()
    };
    if let Some(r) = read("mog-core-scala/jvm/src/test/resources/csa/game/002.csa") {
        // One reader stops at +2824HI (ply 11), a legal capture of the pawn on 24.
        assert_eq!(r.errors, []);
        assert_eq!(r.main.moves.len(), 258);
        assert_eq!(r.main.moves[10].mv.usi(), "2h2d");
        assert_eq!(r.first_illegal(), None);
        // %JISHOGI is 持将棋 in the specification, a draw, whatever the comment after it says.
        assert_eq!(r.terminal(), Some(TerminalKind::Impasse));
        assert_eq!(r.result(), GameResult::Draw);
    }
    if let Some(r) = read("shogi-kifu-converter/data/tests/csa/tsumeshogi.csa") {
        // `P-00AL`: Gote holds every piece not on the board (kings excepted).
        assert_eq!(
            r.start.to_sfen(),
            "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1"
        );
        assert_eq!(usi_moves(&r), ["7e7b+", "N*8f", "7f7c"]);
        assert_eq!(r.terminal(), Some(TerminalKind::Mate));
    }
    if let Some(r) = read("shogiboardq/tests/fixtures/test_various_pieces.csa") {
        // +8855KA jumps the knight on 77: physically possible, so played and flagged.
        assert_eq!(r.errors, []);
        assert_eq!(r.main.moves.len(), 11);
        assert_eq!(r.first_illegal(), Some((11, Rule::IllegalMovement)));
    }
}

#[test]
fn a_bishop_move_through_a_piece_is_played_and_flagged() {
    // As in the disputed corpus file: the bishop passes over the knight on 77.
    let r = csa_clean("V2.2\nPI\n+\n+7776FU\n-8384FU\n+8977KE\n-4132KI\n+8855KA\n");
    assert_eq!(usi_moves(&r), ["7g7f", "8c8d", "8i7g", "4a3b", "8h5e"]);
    assert_eq!(r.first_illegal(), Some((5, Rule::IllegalMovement)));
}

#[test]
fn format_detection_of_csa_text() {
    for text in [
        CSA_GAME,
        "V3.0\nPI\n+\n",
        "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n",
        "'just a comment\nPI\n",
    ] {
        let f = read_bytes(text.as_bytes(), None);
        assert_eq!(f.format, Some(Format::Csa), "{text}");
    }
    let f = read_bytes(b"", Some(std::path::Path::new("empty.csa")));
    assert_eq!(f.format, Some(Format::Csa));
    assert!(f.games.is_empty());
    assert_eq!(f.error.as_deref(), Some("the CSA file holds no game"));
}
