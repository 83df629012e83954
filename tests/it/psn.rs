//! The PSN reader and writer against fixtures written for this project: tags, Hodges and
//! Hosking moves, drops, promotions taken and declined, ambiguity, comments, variations,
//! endings and results, several games a file; and the round trips PSN → PSN and PSN → KIF → PSN.

use crate::util::usi_line;
use kifudex::notation::kif::{read_kif, write_kif};
use kifudex::notation::psn::{read_psn, write_psn};
use kifudex::notation::{Format, GameResult, Record, TerminalKind, read_bytes};
use kifudex::shogi::{Color, Handicap, Rule};

fn one(text: &str) -> Record {
    let games = read_psn(text);
    assert_eq!(games.len(), 1, "games");
    assert_eq!(games[0].errors, [], "unexpected errors");
    games.into_iter().next().unwrap()
}

const GAME: &str = r#"[Sente "Sente Player"]
[Gote "Gote Player"]
[Event "kifudex fixture"]
[Date "2024.05.01"]

{Bishop exchange.}
1.P-7f P-3d 2.Bx2b+ Sx2b 3.B*4e {a drop} 3...G4a-3b 4.Bx3d ; takes the pawn
4...P-4d 5.B-4c+ Gx4c 6.G6i-5h B*5e 7.S-6h Bx9i+ 8.Resign 0-1
"#;

const GAME_MOVES: [&str; 14] = [
    "7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "4a3b", "4e3d", "4c4d", "3d4c+", "3b4c", "6i5h",
    "B*5e", "7i6h", "5e9i+",
];

#[test]
fn tags_moves_drops_promotions_comments_and_the_ending() {
    let r = one(GAME);
    let keys: Vec<&str> = r.headers.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["Sente", "Gote", "Event", "Date"]);
    assert_eq!(r.sente(), Some("Sente Player"));
    assert_eq!(r.gote(), Some("Gote Player"));
    assert_eq!(r.event(), Some("kifudex fixture"));
    assert_eq!(r.start_time(), Some("2024.05.01"));
    assert_eq!(r.handicap(), Handicap::Even);
    assert_eq!(usi_line(&r.main), GAME_MOVES);
    assert_eq!(r.start_comments, ["Bishop exchange."]);
    assert_eq!(r.main.moves[4].comments, ["a drop"]);
    assert_eq!(r.main.moves[6].comments, [" takes the pawn"]);
    assert_eq!(r.terminal(), Some(TerminalKind::Resign));
    assert_eq!(r.result(), GameResult::Win(Color::White));
    assert_eq!(r.first_illegal(), None);
}

#[test]
fn the_writer_numbers_moves_in_pairs_and_gives_origins_only_where_needed() {
    let r = one(GAME);
    assert_eq!(
        write_psn(&r),
        "[Sente \"Sente Player\"]\n\
         [Gote \"Gote Player\"]\n\
         [Event \"kifudex fixture\"]\n\
         [Date \"2024.05.01\"]\n\
         \n\
         {Bishop exchange.} 1.P-7f P-3d 2.Bx2b+ Sx2b 3.B*4e {a drop} 3...G-3b 4.Bx3d\n\
         { takes the pawn} 4...P-4d 5.B-4c+ Gx4c 6.G6i-5h B*5e 7.S-6h Bx9i+ Resign 0-1\n"
    );
}

#[test]
fn psn_to_psn_and_psn_to_kif_to_psn() {
    let r = one(GAME);
    let again = one(&write_psn(&r));
    assert_eq!(again, r);
    let kif = read_kif(&write_kif(&r));
    assert_eq!(kif.errors, []);
    assert_eq!(kif.main, r.main);
    let back = one(&write_psn(&kif));
    assert_eq!(back.main, r.main);
    assert_eq!(back.start, r.start);
    // KIF's header names come back as PSN tags.
    let kif_game =
        read_kif("先手：甲\n後手：乙\n棋戦：棋戦名\n開始日時：2024/05/01\n1 ７六歩(77)\n2 投了\n");
    let psn = write_psn(&kif_game);
    assert_eq!(
        psn,
        "[Sente \"甲\"]\n[Gote \"乙\"]\n[Event \"棋戦名\"]\n[Date \"2024/05/01\"]\n\n1.P-7f Resign 1-0\n"
    );
    let r = one(&psn);
    assert_eq!(r.sente(), Some("甲"));
    assert_eq!(r.result(), GameResult::Win(Color::Black));
}

#[test]
fn a_start_position_tag_promotions_declined_and_promoted_pieces() {
    let r = one("[SFEN \"4k4/9/9/9/1N7/9/9/9/4K4 b S2p 1\"]\n\
         1.N-7c= K-4b 2.S*5b P*5f 3.N-6a+ K-3c 4.+N-5a *\n");
    assert_eq!(r.start.to_sfen(), "4k4/9/9/9/1N7/9/9/9/4K4 b S2p 1");
    assert_eq!(r.handicap(), Handicap::Other);
    assert_eq!(
        usi_line(&r.main),
        ["8e7c", "5a4b", "S*5b", "P*5f", "7c6a+", "4b3c", "6a5a"]
    );
    assert_eq!(r.terminal(), None);
    assert_eq!(r.first_illegal(), None);
    // Hosking's notation and USI moves say the same; FEN is read like SFEN.
    for text in [
        "[FEN \"4k4/9/9/9/1N7/9/9/9/4K4 b S2p 1\"]\n1.N73= K42 2.S'52 P'56 3.N61+ K33 4.+N51\n",
        "[SFEN \"sfen 4k4/9/9/9/1N7/9/9/9/4K4 b S2p\"]\n8e7c 5a4b S*5b P*5f 7c6a+ 4b3c 6a5a\n",
    ] {
        assert_eq!(usi_line(&one(text).main), usi_line(&r.main), "{text}");
    }
    // Dragon, horse and tokin letters (D H T) as some writers give them.
    let r = one("[SFEN \"4k4/9/9/9/9/9/9/1+B5+R1/4K2+P1 b - 1\"]\nD-2a K-4b H-4d K-5b T-3h\n");
    assert_eq!(usi_line(&r.main), ["2h2a", "5a4b", "8h4d", "4b5b", "2i3h"]);
    // The writer gives the start as an SFEN tag and writes +N, D as +R.
    assert!(
        write_psn(&r).starts_with("[SFEN \"4k4/9/9/9/9/9/9/1+B5+R1/4K2+P1 b - 1\"]\n\n1.+R-2a")
    );
}

#[test]
fn handicap_games_start_with_gote_and_number_from_1_dots() {
    let r = one(
        "[Handicap \"2 piece\"]\n[Sente \"Shitate\"]\n[Gote \"Uwate\"]\n\
         1...S-6b 2.P-7f P-3d 3.Resign 0-1\n",
    );
    assert_eq!(r.handicap(), Handicap::TwoPieces);
    assert_eq!(r.start.side_to_move(), Color::White);
    assert_eq!(usi_line(&r.main), ["7a6b", "7g7f", "3c3d"]);
    assert_eq!(r.result(), GameResult::Win(Color::White));
    assert_eq!(
        write_psn(&r),
        "[Handicap \"2 piece\"]\n[Sente \"Shitate\"]\n[Gote \"Uwate\"]\n\n\
         1...S-6b 2.P-7f P-3d Resign 0-1\n"
    );
    for (name, h) in [
        ("Lance", Handicap::Lance),
        ("Left Lance", Handicap::Lance),
        ("right lance", Handicap::RightLance),
        ("Rook and Lance", Handicap::RookLance),
        ("Rook+Lance", Handicap::RookLance),
        ("2-Pieces", Handicap::TwoPieces),
        ("Left 5 piece", Handicap::LeftFivePieces),
        ("10 piece", Handicap::TenPieces),
        ("香落ち", Handicap::Lance),
        ("HI", Handicap::Rook),
        ("Even", Handicap::Even),
    ] {
        let r = one(&format!("[Handicap \"{name}\"]\n*\n"));
        assert_eq!(r.handicap(), h, "{name}");
    }
    let games = read_psn("[Handicap \"Queen\"]\n1.P-7f\n");
    assert_eq!(
        games[0].errors[0].message,
        "unknown handicap 'Queen'; read as an even game"
    );
    assert_eq!((games[0].errors[0].line, games[0].errors[0].column), (1, 1));
    assert_eq!(usi_line(&games[0].main), ["7g7f"]);
}

#[test]
fn an_ambiguous_move_is_an_error_never_a_guess() {
    let games = read_psn("1.P-7f P-3d 2.G-5h G-5b\n");
    let r = &games[0];
    assert_eq!(usi_line(&r.main), ["7g7f", "3c3d"]);
    assert_eq!(r.errors.len(), 1);
    assert_eq!((r.errors[0].line, r.errors[0].column), (1, 15));
    assert_eq!(
        r.errors[0].message,
        "move 3: G-5h is ambiguous: golds on 4i and 6i can move to 5h; write G4i-5h or G6i-5h; the rest of the line is ignored"
    );
    // With the origin, in Hodges' or Hosking's squares, it is one move.
    assert_eq!(
        usi_line(&one("1.G4i-5h G6a-5b 2.G69-68").main),
        ["4i5h", "6a5b", "6i6h"]
    );
    // Two silvers, but only one reaches 6h: no origin needed.
    assert_eq!(usi_line(&one("1.S-6h").main), ["7i6h"]);
}

#[test]
fn moves_that_do_not_fit_are_errors_with_their_place() {
    let cases = [
        (
            "1.P-7f Px3d",
            (1, 8),
            "move 2: Px3d: there is nothing to capture on 3d",
        ),
        (
            "1.P-7e",
            (1, 3),
            "move 1: P-7e is impossible: no black pawn can move to 7e",
        ),
        (
            "1.B*5e",
            (1, 3),
            "move 1: B*5e cannot be played: black has no bishop in hand",
        ),
        ("1.K*5e", (1, 3), "move 1: K*5e: a king cannot be dropped"),
        ("1.G-5h+", (1, 3), "move 1: G-5h+: a gold cannot promote"),
        (
            "1.P-7f\nZ-5e",
            (2, 1),
            "move 2: 'Z-5e' is not a move: a move starts with a piece letter: P L N S G B R K",
        ),
        (
            "1.P7g-7f P3c-3d 2.B7g-3c",
            (1, 19),
            "move 3: B7g-3c: there is no piece on 7g",
        ),
        (
            "1.P-7f P-3d 2.R-7h R-3b 3.R-2b",
            (1, 27),
            "move 5: R-2b is impossible: no black rook can move to 2b",
        ),
    ];
    for (text, at, message) in cases {
        let games = read_psn(text);
        let e = &games[0].errors;
        assert_eq!(e.len(), 1, "{text}: {e:?}");
        assert_eq!((e[0].line, e[0].column), at, "{text}");
        assert_eq!(
            e[0].message,
            format!("{message}; the rest of the line is ignored"),
            "{text}"
        );
    }
    // A drop is named as such when the piece is in hand.
    let games = read_psn("[SFEN \"4k4/9/9/9/9/9/9/9/4K4 b G 1\"]\n1.G-5e\n");
    assert_eq!(
        games[0].errors[0].message,
        "move 1: G-5e is impossible: no black gold can move to 5e (a drop is written G*5e); the rest of the line is ignored"
    );
}

#[test]
fn illegal_moves_are_played_and_flagged() {
    let r = one("[SFEN \"4k4/9/9/9/9/9/4P4/9/4K4 b P 1\"]\n1.P*5e\n");
    assert_eq!(usi_line(&r.main), ["P*5e"]);
    assert_eq!(r.first_illegal(), Some((1, Rule::TwoPawns)));
}

#[test]
fn nested_variations_and_comments_of_both_kinds() {
    let text = "1.P-7f P-3d (1...P-8d {Static rook} 2.P-2f (2.S-6h P-8e) P-8e)\n\
                2.P-2f P-4d ; a comment to the end of the line\n\
                (2...P-8d 3.P-2e) 3.P-2e {two\nlines} *\n";
    let r = one(text);
    assert_eq!(usi_line(&r.main), ["7g7f", "3c3d", "2g2f", "4c4d", "2f2e"]);
    assert_eq!(r.main.variation_count(), 3);
    let v = &r.main.moves[1].variations[0];
    assert_eq!(usi_line(v), ["8c8d", "2g2f", "8d8e"]);
    assert_eq!(v.moves[0].comments, ["Static rook"]);
    assert_eq!(usi_line(&v.moves[1].variations[0]), ["7i6h", "8d8e"]);
    assert_eq!(usi_line(&r.main.moves[3].variations[0]), ["8c8d", "2f2e"]);
    assert_eq!(
        r.main.moves[3].comments,
        [" a comment to the end of the line"]
    );
    assert_eq!(r.main.moves[4].comments, ["two", "lines"]);
    let written = write_psn(&r);
    assert_eq!(
        written,
        "1.P-7f P-3d (1...P-8d {Static rook} 2.P-2f (2.S-6h P-8e) 2...P-8e) 2.P-2f P-4d\n\
         { a comment to the end of the line} (2...P-8d 3.P-2e) 3.P-2e {two} {lines} *\n"
    );
    assert_eq!(one(&written), r);
    // KIF keeps the tree too.
    let kif = read_kif(&write_kif(&r));
    assert_eq!(kif.main, r.main);
}

#[test]
fn comments_holding_a_brace_are_written_to_the_end_of_the_line() {
    let mut r = one("1.P-7f {x} *");
    r.main.moves[0].comments = vec!["a } brace".to_string(), "{ok".to_string()];
    let w = write_psn(&r);
    assert_eq!(w, "1.P-7f ;a } brace\n{{ok} *\n");
    assert_eq!(one(&w), r);
}

#[test]
fn results_without_an_ending_word() {
    // The loser is to move: resignation.
    let r = one("1.P-7f P-3d 2.P-2f 1-0");
    assert_eq!(r.terminal(), Some(TerminalKind::Resign));
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    // The winner is to move: the opponent's last move lost by a foul.
    let r = one("1.P-7f P-3d 1-0");
    assert_eq!(r.terminal(), Some(TerminalKind::IllegalWin));
    assert_eq!(r.result(), GameResult::Win(Color::Black));
    // A draw with no repetition: an impasse; a repeated position: a repetition.
    let r = one("[Result \"1/2-1/2\"]\n1.P-7f");
    assert_eq!(r.terminal(), Some(TerminalKind::Impasse));
    assert_eq!(r.result(), GameResult::Draw);
    let r = one("1.S-6h S-6b 2.S-7i S-7a 3.S-6h S-6b 4.S-7i S-7a 5.S-6h S-6b 6.S-7i S-7a 1/2-1/2");
    assert_eq!(r.terminal(), Some(TerminalKind::Repetition));
    assert_eq!(r.result(), GameResult::Draw);
    // `*` and no result: no ending.
    assert_eq!(one("1.P-7f *").terminal(), None);
    assert_eq!(one("1.P-7f").terminal(), None);
    // An ending word wins over the result.
    let r = one("1.P-7f Sennichite 1-0");
    assert_eq!(r.terminal(), Some(TerminalKind::Repetition));
    for (word, kind) in [
        ("Resign", TerminalKind::Resign),
        ("resigns", TerminalKind::Resign),
        ("TimeUp", TerminalKind::TimeUp),
        ("Time-up", TerminalKind::TimeUp),
        ("TIME_UP", TerminalKind::TimeUp),
        ("Jishogi", TerminalKind::Impasse),
        ("Abort", TerminalKind::Abort),
        ("Mate", TerminalKind::Mate),
        ("EnteringKingWin", TerminalKind::EnteringKingWin),
        ("IllegalLoss", TerminalKind::IllegalLoss),
    ] {
        assert_eq!(
            one(&format!("1.P-7f {word}")).terminal(),
            Some(kind),
            "{word}"
        );
    }
}

#[test]
fn several_games_in_one_file() {
    let text = "[Sente \"A\"]\n[Gote \"B\"]\n\n1.P-7f P-3d 2.Resign 0-1\n\n\
                [Sente \"C\"]\n[Handicap \"Bishop\"]\n\n1...P-3d 2.P-7f *\n\n\
                1.P-2f P-8d 1-0\n";
    let games = read_psn(text);
    assert_eq!(games.len(), 3);
    assert!(games.iter().all(|g| g.errors.is_empty()));
    assert_eq!(games[0].sente(), Some("A"));
    assert_eq!(usi_line(&games[0].main), ["7g7f", "3c3d"]);
    assert_eq!(games[0].result(), GameResult::Win(Color::White));
    assert_eq!(games[1].sente(), Some("C"));
    assert_eq!(games[1].handicap(), Handicap::Bishop);
    assert_eq!(usi_line(&games[1].main), ["3c3d", "7g7f"]);
    assert_eq!(games[1].terminal(), None);
    // Movetext after a result starts a game with no tags.
    assert_eq!(games[2].headers, []);
    assert_eq!(usi_line(&games[2].main), ["2g2f", "8c8d"]);
    assert_eq!(games[2].result(), GameResult::Win(Color::Black));
    let f = read_bytes(text.as_bytes(), None);
    assert_eq!(f.format, Some(Format::Psn));
    assert_eq!(f.games.len(), 3);
}

#[test]
fn errors_of_the_text_itself() {
    let games = read_psn("[Sente \"A\"\n1.P-7f {unclosed\n");
    assert_eq!(games.len(), 1);
    let messages: Vec<(usize, usize, &str)> = games[0]
        .errors
        .iter()
        .map(|e| (e.line, e.column, e.message.as_str()))
        .collect();
    assert_eq!(
        messages,
        [
            (1, 1, "a tag '[' is not closed by ']' on its line"),
            (2, 8, "a comment '{' is not closed by '}'"),
        ]
    );
    assert_eq!(usi_line(&games[0].main), ["7g7f"]);
    assert_eq!(games[0].sente(), Some("A"));
    let games = read_psn("1.P-7f) P-3d (1...P-8d\n");
    let messages: Vec<&str> = games[0].errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "')' closes no variation",
            "a variation '(' is not closed by ')' before the game ends"
        ]
    );
    let games = read_psn("(1.P-7f {inside}) 1.P-2f");
    assert_eq!(
        games[0].errors[0].message,
        "a variation '(' before any move: it is ignored"
    );
    assert_eq!(usi_line(&games[0].main), ["2g2f"]);
    // The comments of what is not read are not read either (they went to the main line).
    assert_eq!(games[0].start_comments, Vec::<String>::new());
    let games = read_psn("1.P-7f P-3x {after the error}");
    assert_eq!(usi_line(&games[0].main), ["7g7f"]);
    assert_eq!(games[0].main.moves[0].comments, Vec::<String>::new());
    let games = read_psn("1.P-7f Resign P-3d");
    assert_eq!(
        games[0].errors[0].message,
        "'P-3d' comes after the end (Resign); it and what follows in this line are ignored"
    );
}

#[test]
fn detection_by_tags_or_numbered_moves_and_escapes_in_tags() {
    for text in [
        "[Event \"x\"]\n1.P-7f\n",
        "1.P-7f P-3d\n2.P-2f\n",
        "1. P-7f P-3d\n",
    ] {
        let f = read_bytes(text.as_bytes(), None);
        assert_eq!(f.format, Some(Format::Psn), "{text}");
        assert_eq!(usi_line(&f.games[0].main)[0], "7g7f");
    }
    let r = one("[Event \"The \\\"Cup\\\" \\\\ 2024\"]\n*");
    assert_eq!(r.event(), Some("The \"Cup\" \\ 2024"));
    assert!(write_psn(&r).starts_with("[Event \"The \\\"Cup\\\" \\\\ 2024\"]\n"));
}

#[test]
fn variations_nest_at_most_a_hundred_deep() {
    let mut text = String::from("1.P-7f");
    for _ in 0..120 {
        text.push_str(" (1.P-7f");
    }
    let games = read_psn(&text);
    let r = &games[0];
    let mut depth = 0;
    let mut line = &r.main;
    while let Some(v) = line.moves.first().and_then(|m| m.variations.first()) {
        depth += 1;
        line = v;
    }
    assert_eq!(depth, 100);
    let messages: Vec<&str> = r.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "variations nested more than 100 deep are not read",
            "a variation '(' is not closed by ')' before the game ends"
        ]
    );
    // A comment line that looks like a USI command does not hide a PSN file.
    let f = read_bytes(b"[Event \"e\"]\n{\nposition startpos\n}\n1.P-7f\n", None);
    assert_eq!(f.format, Some(Format::Psn));
    assert_eq!(f.games[0].start_comments, ["", "position startpos"]);
}

/// Variations inside a line that is not read (here: opened before any move of their parent)
/// are only counted: a hundred thousand of them nest and close as they should, the game goes
/// on after them, and a result inside them is not the game's. (Each used to cost an open line
/// of its own: 2 MB of `(` took 569 MB.)
#[test]
fn variations_inside_an_unread_line_nest_and_close_without_holding_lines() {
    let deep = 100_000;
    let text = format!(
        "1.P-7f P-3d ( ({} 1-0 {} ) ) 2.P-2f P-8d Resign 0-1\n",
        "( P-2f ".repeat(deep),
        ")".repeat(deep)
    );
    let games = read_psn(&text);
    assert_eq!(games.len(), 1);
    let r = &games[0];
    assert_eq!(usi_line(&r.main), ["7g7f", "3c3d", "2g2f", "8c8d"]);
    // The one variation read: of 3c3d, empty (its '(' came before any move).
    assert_eq!(r.main.moves[1].variations.len(), 1);
    assert!(r.main.moves[1].variations[0].moves.is_empty());
    assert_eq!(
        r.main.terminal.as_ref().map(|t| t.kind),
        Some(TerminalKind::Resign)
    );
    assert_eq!(r.result(), GameResult::Win(Color::White));
    let messages: Vec<&str> = r.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages, ["a variation '(' before any move: it is ignored"]);
    // Left open, they are reported once at the end.
    let games = read_psn(&format!("1.P-7f ( ({}", "( ".repeat(deep)));
    let messages: Vec<&str> = games[0].errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "a variation '(' before any move: it is ignored",
            "a variation '(' is not closed by ')' before the game ends"
        ]
    );
}

/// Found by fuzzing (jkf target): a JKF header key holding `]` ended the PSN tag early and
/// split the game in two. Tag names and values are now written so that they read back.
#[test]
fn any_header_is_written_as_a_tag_that_reads_back() {
    let mut r = one("1.P-7f");
    r.headers = vec![
        ("x]]名".to_string(), "三手詰".to_string()),
        (String::new(), "empty key".to_string()),
        ("a b\"c[".to_string(), "two\nlines\r\\ \"q\"".to_string()),
    ];
    let w = write_psn(&r);
    assert_eq!(
        w,
        "[x__名 \"三手詰\"]\n[_ \"empty key\"]\n[a_b_c_ \"two lines \\\\ \\\"q\\\"\"]\n\n1.P-7f *\n"
    );
    let again = one(&w);
    assert_eq!(again.main, r.main);
    assert_eq!(
        again.headers,
        [
            ("x__名".to_string(), "三手詰".to_string()),
            ("_".to_string(), "empty key".to_string()),
            ("a_b_c_".to_string(), "two lines \\ \"q\"".to_string()),
        ]
    );
}

/// A PSN file's games are handed over as they are read, and they are exactly what the whole
/// file reads as (errors and lines included), for many games, one, and text that is none.
#[test]
fn psn_games_one_at_a_time_are_the_games_of_the_whole_file() {
    use kifudex::notation::read_bytes_each;
    let mut many = String::new();
    for i in 0..200 {
        many.push_str(&format!(
            "[Sente \"s{i}\"]\n[Gote \"g{i}\"]\n\n1.P-7f P-3d 2.P-2f"
        ));
        if i % 9 == 4 {
            many.push_str(" ) 3.Zz");
        }
        many.push_str(" {a comment}\n\n");
    }
    let texts = [
        many,
        "[Sente \"a\"]\n\n1.P-7f\n".to_string(),
        ")))\n".to_string(),
        "[Sente \"a\"]\n\n1.Zz\n\n[Sente \"b\"]\n\n1.Qq\n".to_string(),
    ];
    let path = std::path::Path::new("games.psn");
    for text in &texts {
        let whole = kifudex::notation::read_bytes(text.as_bytes(), Some(path));
        let mut each = Vec::new();
        let file = read_bytes_each(text.as_bytes(), Some(path), &mut |g, _| each.push(g));
        let label: String = text.chars().take(30).collect();
        assert_eq!(file.error, whole.error, "{label}");
        assert_eq!(file.format, whole.format, "{label}");
        assert_eq!(each, whole.games, "{label}");
    }
}
