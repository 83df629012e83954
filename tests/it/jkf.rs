//! The JKF reader and writer against fixtures written for this project, and the round trips
//! KIF → JKF → KIF and JKF → JKF; over the shared corpus, KIF → JKF/USI/PSN → back.

use crate::util::{corpus, usi_line};
use kifudex::notation::jkf::{read_jkf, write_jkf};
use kifudex::notation::kif::{read_kif, write_kif};
use kifudex::notation::psn::{read_psn, write_psn};
use kifudex::notation::usi::{read_usi, write_usi};
use kifudex::notation::{Format, GameResult, Line, Record, TerminalKind, read_bytes};
use kifudex::shogi::{Color, Handicap, Rule};

fn clean(text: &str) -> Record {
    let r = read_jkf(text).unwrap_or_else(|e| panic!("not read: {e}"));
    assert_eq!(r.errors, [], "unexpected errors");
    r
}

/// An even game with comments, times, a special with time and comment, and forks nested
/// three deep (a fork of a fork of a fork).
const FORKS: &str = r#"{
  "header": {"先手": "先手太郎", "後手": "後手花子", "棋戦": "JKFテスト", "開始日時": "2024/05/01 10:00"},
  "initial": {"preset": "HIRATE"},
  "moves": [
    {"comments": ["対局開始"]},
    {"move": {"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"},
     "time": {"now": {"m": 0, "s": 5}, "total": {"h": 0, "m": 0, "s": 5}},
     "comments": ["角道を開ける", "二行目"]},
    {"move": {"color": 1, "from": {"x": 3, "y": 3}, "to": {"x": 3, "y": 4}, "piece": "FU"},
     "time": {"now": {"m": 1, "s": 10}, "total": {"h": 0, "m": 1, "s": 10}},
     "forks": [
       [
         {"move": {"color": 1, "from": {"x": 8, "y": 3}, "to": {"x": 8, "y": 4}, "piece": "FU"}},
         {"move": {"color": 0, "from": {"x": 2, "y": 7}, "to": {"x": 2, "y": 6}, "piece": "FU"},
          "forks": [
            [
              {"move": {"color": 0, "from": {"x": 6, "y": 7}, "to": {"x": 6, "y": 6}, "piece": "FU"}, "comments": ["振り飛車模様"]},
              {"move": {"color": 1, "from": {"x": 8, "y": 4}, "to": {"x": 8, "y": 5}, "piece": "FU"},
               "forks": [
                 [
                   {"move": {"color": 1, "from": {"x": 3, "y": 3}, "to": {"x": 3, "y": 4}, "piece": "FU"}},
                   {"special": "CHUDAN"}
                 ]
               ]}
            ]
          ]},
         {"move": {"color": 1, "from": {"x": 8, "y": 4}, "to": {"x": 8, "y": 5}, "piece": "FU"}}
       ],
       [
         {"move": {"color": 1, "from": {"x": 5, "y": 3}, "to": {"x": 5, "y": 4}, "piece": "FU"}}
       ]
     ]},
    {"move": {"color": 0, "from": {"x": 2, "y": 7}, "to": {"x": 2, "y": 6}, "piece": "FU"}},
    {"move": {"color": 1, "from": {"x": 8, "y": 3}, "to": {"x": 8, "y": 4}, "piece": "FU"}},
    {"move": {"color": 0, "from": {"x": 2, "y": 6}, "to": {"x": 2, "y": 5}, "piece": "FU"},
     "time": {"now": {"m": 2, "s": 3}, "total": {"h": 1, "m": 0, "s": 8}}},
    {"move": {"color": 1, "from": {"x": 8, "y": 4}, "to": {"x": 8, "y": 5}, "piece": "FU"}},
    {"special": "TORYO", "time": {"now": {"m": 0, "s": 30}, "total": {"h": 0, "m": 3, "s": 0}},
     "comments": ["先手投了"]}
  ]
}"#;

#[test]
fn headers_in_order_moves_times_comments_and_the_special() {
    let r = clean(FORKS);
    let keys: Vec<&str> = r.headers.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["先手", "後手", "棋戦", "開始日時"]);
    assert_eq!(r.sente(), Some("先手太郎"));
    assert_eq!(r.gote(), Some("後手花子"));
    assert_eq!(r.event(), Some("JKFテスト"));
    assert_eq!(r.handicap(), Handicap::Even);
    assert_eq!(
        usi_line(&r.main),
        ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e"]
    );
    assert_eq!(r.start_comments, ["対局開始"]);
    assert_eq!(r.main.moves[0].comments, ["角道を開ける", "二行目"]);
    let t = r.main.moves[1].time.unwrap();
    assert_eq!((t.spent, t.total), (70.0, Some(70.0)));
    let t = r.main.moves[4].time.unwrap();
    assert_eq!((t.spent, t.total), (123.0, Some(3608.0)));
    assert_eq!(r.main.moves[2].time, None);
    let end = r.main.terminal.as_ref().unwrap();
    assert_eq!(end.kind, TerminalKind::Resign);
    assert_eq!(end.comments, ["先手投了"]);
    assert_eq!(end.time.unwrap().spent, 30.0);
    assert_eq!(end.time.unwrap().total, Some(180.0));
    // Black to move resigned.
    assert_eq!(r.result(), GameResult::Win(Color::White));
}

#[test]
fn forks_nested_three_deep() {
    let r = clean(FORKS);
    assert_eq!(r.main.variation_count(), 4);
    // Two on move 1, one in a fork, one on the special.
    assert_eq!(r.main.comment_count(), 4);
    let forks = &r.main.moves[1].variations;
    assert_eq!(forks.len(), 2);
    assert_eq!(usi_line(&forks[0]), ["8c8d", "2g2f", "8d8e"]);
    assert_eq!(usi_line(&forks[1]), ["5c5d"]);
    assert_eq!(forks[0].terminal, None);
    let second = &forks[0].moves[1].variations;
    assert_eq!(second.len(), 1);
    assert_eq!(usi_line(&second[0]), ["6g6f", "8d8e"]);
    assert_eq!(second[0].moves[0].comments, ["振り飛車模様"]);
    let third = &second[0].moves[1].variations;
    assert_eq!(usi_line(&third[0]), ["3c3d"]);
    assert_eq!(
        third[0].terminal.as_ref().unwrap().kind,
        TerminalKind::Abort
    );
}

#[test]
fn jkf_round_trips_through_its_writer() {
    let r = clean(FORKS);
    let written = write_jkf(&r);
    let again = clean(&written);
    assert_eq!(again, r);
    // The writer's output is itself stable.
    assert_eq!(write_jkf(&again), written);
}

#[test]
fn the_writer_fills_every_field_of_a_normalized_move() {
    let r = clean(
        r#"{"header": {}, "moves": [{},
        {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU", "color": 0}},
        {"move": {"from": {"x": 3, "y": 3}, "to": {"x": 3, "y": 4}, "piece": "FU", "color": 1}},
        {"move": {"from": {"x": 8, "y": 8}, "to": {"x": 2, "y": 2}, "piece": "KA", "promote": true, "color": 0}},
        {"move": {"from": {"x": 3, "y": 1}, "to": {"x": 2, "y": 2}, "piece": "GI", "color": 1}},
        {"move": {"to": {"x": 4, "y": 5}, "piece": "KA", "color": 0}}
        ]}"#,
    );
    assert_eq!(usi_line(&r.main), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    let w = write_jkf(&r);
    assert!(w.contains(r#""initial": {"preset":"HIRATE"}"#), "{w}");
    assert!(
        w.contains(r#"{"move":{"color":0,"from":{"x":8,"y":8},"to":{"x":2,"y":2},"piece":"KA","promote":true,"capture":"KA"}}"#),
        "{w}"
    );
    assert!(
        w.contains(r#"{"move":{"color":1,"from":{"x":3,"y":1},"to":{"x":2,"y":2},"piece":"GI","same":true,"capture":"UM"}}"#),
        "{w}"
    );
    assert!(
        w.contains(r#"{"move":{"color":0,"to":{"x":4,"y":5},"piece":"KA"}}"#),
        "{w}"
    );
}

/// Builds `initial.data` from a few pieces (x, y, color, kind): the rest of the board empty.
fn initial_data(pieces: &[(u8, u8, u8, &str)], color: u8, hands: &str) -> String {
    let columns: Vec<String> = (1..=9)
        .map(|x| {
            let cells: Vec<String> = (1..=9)
                .map(|y| match pieces.iter().find(|p| p.0 == x && p.1 == y) {
                    Some(p) => format!(r#"{{"color": {}, "kind": "{}"}}"#, p.2, p.3),
                    None => "{}".to_string(),
                })
                .collect();
            format!("[{}]", cells.join(", "))
        })
        .collect();
    format!(
        r#"{{"preset": "OTHER", "data": {{"color": {color}, "board": [{}], "hands": {hands}}}}}"#,
        columns.join(",\n")
    )
}

#[test]
fn a_custom_initial_position_with_hands() {
    // A three-move mate: White's king on 1a, Black's dragon on 2c and a gold in hand.
    let initial = initial_data(
        &[
            (1, 1, 1, "OU"),
            (3, 1, 1, "KE"),
            (2, 3, 0, "RY"),
            (5, 9, 0, "OU"),
        ],
        0,
        r#"[{"KI": 1, "FU": 0}, {"FU": 2, "HI": 1}]"#,
    );
    let text = format!(
        r#"{{"header": {{"作品名": "三手詰"}}, "initial": {initial}, "moves": [{{}},
        {{"move": {{"color": 0, "to": {{"x": 2, "y": 2}}, "piece": "KI"}}}},
        {{"move": {{"color": 1, "from": {{"x": 1, "y": 1}}, "to": {{"x": 2, "y": 2}}, "piece": "OU", "capture": "KI"}}}},
        {{"move": {{"color": 0, "from": {{"x": 2, "y": 3}}, "to": {{"x": 2, "y": 1}}, "piece": "RY", "promote": false}}}},
        {{"special": "TSUMI"}}]}}"#
    );
    let r = clean(&text);
    assert_eq!(r.start.to_sfen(), "6n1k/9/7+R1/9/9/9/9/9/4K4 b Gr2p 1");
    assert_eq!(r.handicap(), Handicap::Other);
    assert_eq!(r.title(), Some("三手詰"));
    assert_eq!(usi_line(&r.main), ["G*2b", "1a2b", "2c2a"]);
    assert_eq!(r.terminal(), Some(TerminalKind::Mate));
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    // Written back as OTHER with the same position.
    let w = write_jkf(&r);
    assert!(w.contains(r#""preset":"OTHER""#), "{w}");
    assert!(
        w.contains(r#""hands":[{"FU":0,"KY":0,"KE":0,"GI":0,"KI":1,"KA":0,"HI":0},{"FU":2,"KY":0,"KE":0,"GI":0,"KI":0,"KA":0,"HI":1}]"#),
        "{w}"
    );
    assert_eq!(clean(&w), r);
    // White to move.
    let white = initial_data(&[(1, 1, 1, "OU"), (5, 9, 0, "OU")], 1, "[{}, {}]");
    let r = clean(&format!(
        r#"{{"header": {{}}, "initial": {white}, "moves": [{{}}]}}"#
    ));
    assert_eq!(r.start.to_sfen(), "8k/9/9/9/9/9/9/9/4K4 w - 1");
}

#[test]
fn handicap_presets() {
    for (preset, handicap) in [
        ("KY", Handicap::Lance),
        ("KY_R", Handicap::RightLance),
        ("KA", Handicap::Bishop),
        ("HI", Handicap::Rook),
        ("HIKY", Handicap::RookLance),
        ("2", Handicap::TwoPieces),
        ("4", Handicap::FourPieces),
        ("5_L", Handicap::LeftFivePieces),
        ("7_R", Handicap::RightSevenPieces),
        ("10", Handicap::TenPieces),
        ("香落ち", Handicap::Lance),
        ("二枚落ち", Handicap::TwoPieces),
    ] {
        let r = clean(&format!(
            r#"{{"header": {{}}, "initial": {{"preset": "{preset}"}}, "moves": [{{}}]}}"#
        ));
        assert_eq!(r.handicap(), handicap, "{preset}");
        assert_eq!(r.start.side_to_move(), Color::White, "{preset}");
    }
    let r = clean(
        r#"{"header": {"上手": "上手さん", "下手": "下手さん"}, "initial": {"preset": "2"}, "moves": [{},
        {"move": {"color": 1, "from": {"x": 7, "y": 1}, "to": {"x": 6, "y": 2}, "piece": "GI"}},
        {"move": {"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"}},
        {"special": "TORYO"}]}"#,
    );
    assert_eq!(
        r.start.to_sfen(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(usi_line(&r.main), ["7a6b", "7g7f"]);
    assert_eq!(r.sente(), Some("下手さん"));
    // 上手 (White) to move resigned.
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    assert!(write_jkf(&r).contains(r#""initial": {"preset":"2"}"#));
    // No initial, or a null one, is the even start.
    for initial in ["", r#""initial": null,"#] {
        let r = clean(&format!(r#"{{"header": {{}}, {initial} "moves": [{{}}]}}"#));
        assert_eq!(r.handicap(), Handicap::Even);
    }
}

#[test]
fn every_special_and_its_winner() {
    use TerminalKind::*;
    // After one move (7g7f), White is to move.
    let cases = [
        ("TORYO", Resign, Some("sente")),
        ("CHUDAN", Abort, None),
        ("SENNICHITE", Repetition, Some("draw")),
        ("TIME_UP", TimeUp, Some("sente")),
        ("ILLEGAL_MOVE", IllegalMove, Some("sente")),
        ("+ILLEGAL_ACTION", IllegalWin, Some("gote")),
        ("-ILLEGAL_ACTION", IllegalLoss, Some("sente")),
        ("JISHOGI", Impasse, Some("draw")),
        ("KACHI", EnteringKingWin, Some("gote")),
        ("HIKIWAKE", EnteringKingDraw, Some("draw")),
        ("MATTA", Takeback, None),
        ("TSUMI", Mate, Some("sente")),
        ("FUZUMI", NoMate, None),
        ("ERROR", Error, None),
    ];
    for (special, kind, winner) in cases {
        let r = clean(&format!(
            r#"{{"header": {{}}, "moves": [{{}},
            {{"move": {{"color": 0, "from": {{"x": 7, "y": 7}}, "to": {{"x": 7, "y": 6}}, "piece": "FU"}}}},
            {{"special": "{special}"}}]}}"#
        ));
        assert_eq!(r.terminal(), Some(kind), "{special}");
        assert_eq!(r.result().code(), winner, "{special}");
        // The writer gives the same name back.
        assert!(
            write_jkf(&r).contains(&format!(r#"{{"special":"{special}"}}"#)),
            "{special}"
        );
    }
}

#[test]
fn invalid_json_is_an_error_with_line_and_column() {
    let e = read_jkf("{\n  \"header\": {},\n  \"moves\": [\n    {},\n    {\"move\": {\"to\": {\"x\": 7, \"y\": 6} \"piece\": \"FU\"}}\n  ]\n}\n")
        .unwrap_err();
    assert_eq!((e.line, e.column), (5, 38));
    assert_eq!(e.message, "invalid JSON: expected `,` or `}`");
    let e = read_jkf("{\"header\": {}, \"moves\": [{}").unwrap_err();
    assert_eq!((e.line, e.column), (1, 27));
    assert_eq!(e.message, "the JSON ends early: EOF while parsing a list");
    let e = read_jkf("[1, 2]").unwrap_err();
    assert_eq!((e.line, e.column), (1, 2));
    assert_eq!(
        e.message,
        "not a JKF record: invalid type: integer `1`, expected a map"
    );
    // Through read_bytes the file cannot be read at all, and says where.
    let f = read_bytes(b"{\"header\": {}, \"moves\": [{}, {\"move\": nul}]}", None);
    assert_eq!(f.format, Some(Format::Jkf));
    assert!(f.games.is_empty());
    assert_eq!(
        f.error.as_deref(),
        Some("line 1, column 42: invalid JSON: expected ident")
    );
}

#[test]
fn a_move_that_does_not_fit_names_its_ply_and_entry() {
    let text = "{\n  \"header\": {},\n  \"moves\": [\n    {},\n    {\"move\": {\"color\": 0, \"from\": {\"x\": 7, \"y\": 7}, \"to\": {\"x\": 7, \"y\": 6}, \"piece\": \"FU\"}},\n    {\"move\": {\"color\": 1, \"from\": {\"x\": 7, \"y\": 7}, \"to\": {\"x\": 7, \"y\": 6}, \"piece\": \"FU\"}},\n    {\"move\": {\"color\": 0, \"from\": {\"x\": 2, \"y\": 7}, \"to\": {\"x\": 2, \"y\": 6}, \"piece\": \"FU\"}}\n  ]\n}\n";
    let r = read_jkf(text).unwrap();
    assert_eq!(usi_line(&r.main), ["7g7f"]);
    assert_eq!(r.errors.len(), 1);
    assert_eq!((r.errors[0].line, r.errors[0].column), (6, 5));
    assert_eq!(
        r.errors[0].message,
        "move 2: there is no piece on 7g; the rest of the line is ignored"
    );
    // A move marked for the wrong side.
    let r = read_jkf(r#"{"header": {}, "moves": [{}, {"move": {"color": 1, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"}}]}"#).unwrap();
    assert_eq!(
        r.errors[0].message,
        "move 1: the move is marked as white's, but it is black's turn; the rest of the line is ignored"
    );
    // A piece that is not what stands on the origin; an unknown piece name.
    let r = read_jkf(r#"{"header": {}, "moves": [{}, {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "KI"}}]}"#).unwrap();
    assert_eq!(
        r.errors[0].message,
        "move 1: the piece on 7g is a pawn, not a gold; the rest of the line is ignored"
    );
    let r = read_jkf(r#"{"header": {}, "moves": [{}, {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "XX"}}]}"#).unwrap();
    assert_eq!(
        r.errors[0].message,
        "move 1: 'XX' is not a piece (FU KY KE GI KI KA HI OU TO NY NK NG UM RY); the rest of the line is ignored"
    );
    // A drop of a piece not in hand.
    let r = read_jkf(
        r#"{"header": {}, "moves": [{}, {"move": {"to": {"x": 5, "y": 5}, "piece": "KA"}}]}"#,
    )
    .unwrap();
    assert_eq!(
        r.errors[0].message,
        "move 1: ５五角 is impossible: no black bishop can move to ５五, and black has none in hand; the rest of the line is ignored"
    );
    // An entry after the special; an unknown special.
    let r =
        read_jkf(r#"{"header": {}, "moves": [{}, {"special": "TORYO"}, {"special": "TORYO"}]}"#)
            .unwrap();
    assert_eq!(r.terminal(), Some(TerminalKind::Resign));
    assert_eq!(
        r.errors[0].message,
        "an entry after the end of the game (resign); it and what follows in this line are ignored"
    );
    let r = read_jkf(r#"{"header": {}, "moves": [{}, {"special": "GIVE_UP"}]}"#).unwrap();
    assert_eq!(r.terminal(), None);
    assert_eq!(
        r.errors[0].message,
        "move 1: unknown special 'GIVE_UP'; the rest of the line is ignored"
    );
}

#[test]
fn illegal_moves_are_played_and_flagged() {
    // 二歩: a pawn dropped on the file of Black's own pawn.
    let r = read_jkf(
        r#"{"header": {}, "initial": {"preset": "OTHER", "data": {"color": 0,
        "board": [[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],
                  [{},{},{},{},{},{},{},{},{}],[{"color":1,"kind":"OU"},{},{},{},{},{},{"color":0,"kind":"FU"},{},{"color":0,"kind":"OU"}],
                  [{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}]],
        "hands": [{"FU": 1}, {}]}},
        "moves": [{}, {"move": {"color": 0, "to": {"x": 5, "y": 5}, "piece": "FU"}}]}"#,
    )
    .unwrap();
    assert_eq!(r.errors, []);
    assert_eq!(r.start.to_sfen(), "4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert_eq!(usi_line(&r.main), ["P*5e"]);
    assert_eq!(r.first_illegal(), Some((1, Rule::TwoPawns)));
}

#[test]
fn moves_without_origin_are_resolved_with_their_relative_words() {
    // As records converted from KI2 give them: destination, piece and relative words only.
    let r = clean(
        r#"{"header": {}, "moves": [{},
        {"move": {"to": {"x": 5, "y": 8}, "piece": "KI", "relative": "R"}},
        {"move": {"to": {"x": 5, "y": 2}, "piece": "KI", "relative": "L"}},
        {"move": {"to": {"x": 7, "y": 8}, "piece": "GI"}}
        ]}"#,
    );
    assert_eq!(usi_line(&r.main), ["4i5h", "4a5b", "7i7h"]);
    let r = read_jkf(
        r#"{"header": {}, "moves": [{}, {"move": {"to": {"x": 5, "y": 8}, "piece": "KI"}}]}"#,
    )
    .unwrap();
    assert_eq!(
        r.errors[0].message,
        "move 1: ５八金 is ambiguous: golds on ６九 and ４九 can move there; add 左 or 右; the rest of the line is ignored"
    );
}

#[test]
fn comments_only_entries_a_comment_string_and_lenient_headers() {
    let r = clean(
        r#"{"header": {"手数": 3, "備考": null}, "moves": [{"comment": "開始\n二行目"},
        {"move": {"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"}},
        {"comments": ["あとから"]}]}"#,
    );
    assert_eq!(
        r.headers,
        [
            ("手数".to_string(), "3".to_string()),
            ("備考".to_string(), String::new())
        ]
    );
    assert_eq!(r.start_comments, ["開始", "二行目"]);
    assert_eq!(r.main.moves[0].comments, ["あとから"]);
}

#[test]
fn detected_from_content_however_laid_out() {
    let r = clean(FORKS);
    let pretty =
        serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(FORKS).unwrap())
            .unwrap();
    let bom = [b"\xEF\xBB\xBF".as_slice(), FORKS.as_bytes()].concat();
    for bytes in [
        FORKS.as_bytes().to_vec(),
        pretty.into_bytes(),
        bom,
        write_jkf(&r).into_bytes(),
    ] {
        let f = read_bytes(&bytes, None);
        assert_eq!(f.format, Some(Format::Jkf));
        assert_eq!(f.error, None);
        assert_eq!(f.games.len(), 1);
        assert_eq!(f.games[0].main, r.main);
    }
}

#[test]
fn fractional_times_read_back_exactly() {
    let mut r = clean(FORKS);
    for (i, node) in r.main.moves.iter_mut().enumerate() {
        node.time = Some(kifudex::notation::MoveTime {
            spent: 0.001 + 61.7 * i as f64,
            total: Some(3599.999 + 1000.125 * i as f64),
        });
    }
    let again = clean(&write_jkf(&r));
    assert_eq!(again, r);
    // Just below a whole minute and hour; and the largest times read.
    for (spent, total) in [
        (59.999_999_999_999_99, 3_599.999_999_999_999_5),
        (1e12, 1e12),
    ] {
        r.main.moves[0].time = Some(kifudex::notation::MoveTime {
            spent,
            total: Some(total),
        });
        let again = clean(&write_jkf(&r));
        assert_eq!(again, r, "{spent} {total}");
    }
    // Parts that add up beyond that are not understood.
    let r = read_jkf(r#"{"header": {}, "moves": [{}, {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"}, "time": {"now": {"h": 1e12, "m": 1, "s": 0}}}]}"#).unwrap();
    assert_eq!(r.main.moves[0].time, None);
    assert_eq!(
        r.errors[0].message,
        "move 1: the time is not understood (needs now {m, s} with numbers from 0); the move is kept without it"
    );
}

const KIF: &str = "\
開始日時：2024/05/01 10:00
棋戦：往復テスト
手合割：平手
先手：甲
後手：乙
*対局前
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:03/00:00:03)
*一手目のコメント
&しおり
   2 ３四歩(33)   ( 0:04/00:00:04)
   3 ２二角成(88)   ( 0:05/00:00:08)
   4 同　銀(31)   ( 0:06/00:00:10)
   5 ４五角打   ( 1:00/00:01:08)
   6 ５二金(61)   ( 0:01/00:00:11)
   7 ２三角成(45)   ( 0:02/00:01:10)
   8 投了   ( 0:10/00:00:21)
*終局

変化：6手
   6 ６二銀(71)   ( 0:02/00:00:12)
   7 ３四角(45)
*変化のコメント

変化：7手
   7 ５六角(45)
";

#[test]
fn kif_to_jkf_to_kif_keeps_moves_variations_comments_and_times() {
    let mut kif = read_kif(KIF);
    assert_eq!(kif.errors, []);
    let jkf = clean(&write_jkf(&kif));
    // JKF has no bookmarks; everything else survives.
    assert_eq!(kif.main.moves[0].bookmarks, ["しおり"]);
    kif.main.moves[0].bookmarks.clear();
    assert_eq!(jkf, kif);
    let back = read_kif(&write_kif(&jkf));
    assert_eq!(back.errors, []);
    assert_eq!(back, kif);
    assert_eq!(back.main.variation_count(), 2);
    assert_eq!(
        usi_line(&back.main.moves[5].variations[0]),
        ["7a6b", "4e3d"]
    );
}

/// Every readable KIF/KIFU record of the shared corpus (when it is beside the project)
/// survives KIF → JKF → KIF whole (bookmarks aside), and KIF → USI and KIF → PSN keep the
/// start and the main line; PSN also keeps comments, variations and the ending.
#[test]
fn corpus_kif_through_jkf_usi_and_psn() {
    let Some(files) = corpus(&["kif", "kifu"]) else {
        return;
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in files {
        let read = read_bytes(&std::fs::read(&path).unwrap(), Some(&path));
        if read.format != Some(Format::Kif) {
            continue;
        }
        let Some(mut original) = read.games.first().cloned() else {
            continue;
        };
        original.errors.clear();
        // What was cut is not in the text written: the copy is whole.
        original.incomplete = false;
        let name = path.display().to_string();
        let jkf = match read_jkf(&write_jkf(&original)) {
            Ok(j) => j,
            Err(e) => {
                failures.push(format!("{name}: JKF not read: {e}"));
                continue;
            }
        };
        let mut expected = original.clone();
        strip_bookmarks(&mut expected);
        if jkf.errors.is_empty() && jkf == expected {
            let kif = read_kif(&write_kif(&jkf));
            if !(kif.errors.is_empty() && kif == expected) {
                failures.push(format!("{name}: JKF → KIF differs"));
            }
        } else {
            failures.push(format!("{name}: KIF → JKF differs: {:?}", jkf.errors));
        }
        let usi = read_usi(&write_usi(&original));
        if !(usi.len() == 1
            && usi[0].errors.is_empty()
            && usi[0].start == original.start
            && usi[0].main.moves
                == original
                    .main
                    .moves
                    .iter()
                    .map(|m| plain(m.clone()))
                    .collect::<Vec<_>>())
        {
            failures.push(format!(
                "{name}: USI differs: {:?}",
                usi.first().map(|u| &u.errors)
            ));
        }
        let psn = read_psn(&write_psn(&original));
        let same = psn.len() == 1
            && psn[0].errors.is_empty()
            && psn[0].start == original.start
            && usi_line(&psn[0].main) == usi_line(&original.main)
            && psn[0].main.variation_count() == original.main.variation_count()
            && psn[0].main.comment_count() == original.main.comment_count()
            && psn[0].start_comments == original.start_comments
            && psn[0].terminal() == original.terminal();
        if !same {
            failures.push(format!(
                "{name}: PSN differs: {:?}",
                psn.first().map(|p| &p.errors)
            ));
        }
        checked += 1;
    }
    assert_eq!(failures, Vec::<String>::new());
    assert!(checked >= 150, "only {checked} KIF files checked");
}

/// A main-line node as a format without comments, times, bookmarks or variations keeps it.
fn plain(mut m: kifudex::notation::MoveNode) -> kifudex::notation::MoveNode {
    m.comments.clear();
    m.engine.clear();
    m.bookmarks.clear();
    m.variations.clear();
    m.time = None;
    m
}

fn strip_bookmarks(rec: &mut Record) {
    fn walk(line: &mut Line) {
        for m in &mut line.moves {
            m.bookmarks.clear();
            m.variations.iter_mut().for_each(walk);
        }
    }
    rec.start_bookmarks.clear();
    walk(&mut rec.main);
}
