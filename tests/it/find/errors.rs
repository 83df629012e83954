//! The query language's errors: each names its column, what was expected there and, for a
//! misspelt word, the nearest known one; the pointer underlines the word.

use kifudex::find::parse;

/// Every error: its message (with the nearest known word for a misspelt one) and column.
#[test]
fn errors_name_the_column_what_was_expected_and_the_likely_word() {
    let cases: &[(&str, &str)] = &[
        (
            "",
            "column 1: the query is empty: give a condition such as ▲７六歩 or `black king on 9i`",
        ),
        (
            "   ",
            "column 1: the query is empty: give a condition such as ▲７六歩 or `black king on 9i`",
        ),
        (
            "blak king 9i",
            "column 1: expected a condition: a piece (▲７六歩, black pawn on 7f), a hand, ply, 手番, last, a castle or strategy name, found \"blak\"; did you mean \"black\"?",
        ),
        (
            "black kign 9i",
            "column 7: expected a piece (歩 … 龍, pawn … dragon), a castle or strategy name, 番 or \"to move\" after the side, found \"kign\"; did you mean \"king\"?",
        ),
        (
            "▲美野囲い",
            "column 2: expected a piece (歩 … 龍, pawn … dragon), a castle or strategy name, 番 or \"to move\" after the side, found \"美野囲い\"; did you mean \"美濃囲い\"?",
        ),
        (
            "▲９九玊",
            "column 4: expected a piece (歩 香 桂 銀 金 角 飛 玉 と 馬 龍 駒 空, or pawn, king …), found \"玊\"",
        ),
        (
            "▲９九玉 △５五桂",
            "column 6: expected \"and\", \"or\" or the end of the query, found \"△\": join two conditions with \"and\" or \"or\"",
        ),
        ("▲９九玉)", "column 5: found \")\" with no \"(\" before it"),
        (
            "▲５五角打",
            "column 5: \"打\" tells what a move did: put 直前 or last before the move (直前 ▲５五角打)",
        ),
        (
            "(▲９九玉",
            "column 6: expected \")\" to close the \"(\" of column 1, found the end of the query",
        ),
        (
            "▲９九玉 and",
            "column 9: expected a condition, found the end of the query",
        ),
        (
            "not",
            "column 4: expected a condition, found the end of the query",
        ),
        (
            "▲9j玉",
            "column 2: \"9j\" is no square: files and ranks run 1 to 9 (９九, 99, 9i)",
        ),
        (
            "▲90玉",
            "column 2: \"90\" is no square: files and ranks run 1 to 9 (９九, 99, 9i)",
        ),
        (
            "▲0九玉",
            "column 2: \"0\" is no file: files run 1 to 9 (９九, 99, 9i)",
        ),
        ("▲飛10筋", "column 3: there is no file 10: they run 1 to 9"),
        (
            "black K@9i",
            "column 7: a USI letter gives its side by its case (K black, k white): leave out the side word, or write the piece as 玉 or king",
        ),
        ("▲玉 in hand", "column 1: a hand never holds a king"),
        (
            "持駒 ▲と >= 1",
            "column 5: a hand holds pieces unpromoted: write the pawn itself",
        ),
        (
            "持駒 ▲駒 >= 1",
            "column 5: expected the kind held in hand (歩 香 桂 銀 金 角 飛), found \"駒\"",
        ),
        (
            "持駒",
            "column 3: expected the side whose hand it is (▲ or △), found the end of the query",
        ),
        (
            "歩 in hand >= 3",
            "column 1: a hand belongs to a side: write ▲ or △ (black or white) before the piece",
        ),
        (
            "▲歩 on 5e in hand",
            "column 10: a piece in hand stands on no square",
        ),
        (
            "▲歩 > 3",
            "column 4: a piece on the board is no number: compare a hand (▲歩 in hand > 3) or a count (count(▲歩) > 3)",
        ),
        ("▲５五空", "column 2: an empty square has no side"),
        (
            "ply",
            "column 4: expected a comparison (= != < <= > >=) or a range (30..60) after \"ply\", found the end of the query",
        ),
        (
            "手数 30",
            "column 4: expected a comparison (= != < <= > >=) or a range (30..60) after \"手数\", found \"30\"",
        ),
        (
            "手数 60..30",
            "column 8: the range 60..30 is empty: write the smaller number first",
        ),
        (
            "ply < 99999999",
            "column 7: 99999999 is too large a number (at most 1000000)",
        ),
        (
            "5 <",
            "column 4: expected a number, ply, a hand (▲歩 in hand), count(...), material(▲) or advantage(▲), found the end of the query",
        ),
        (
            "ply < ▲歩",
            "column 9: expected \"in hand\" (a number is wanted here), found the end of the query",
        ),
        (
            "material > 3",
            "column 10: expected a side (▲ or △, black or white), found \">\"",
        ),
        ("material(▲ > 3", "column 12: expected \")\", found \">\""),
        (
            "count ▲歩 > 3",
            "column 7: expected \"(\" and the pieces to count, as in count(▲金 自陣), found \"▲\"",
        ),
        (
            "count(▲歩 > 3",
            "column 10: expected \")\" to end the count, found \">\"",
        ),
        (
            "turn",
            "column 5: expected the side to move (black or white), found the end of the query",
        ),
        (
            "手番",
            "column 3: expected the side to move (▲ or △), found the end of the query",
        ),
        (
            "▲",
            "column 2: expected a piece (歩 … 龍, pawn … dragon), a castle or strategy name, 番 or \"to move\" after the side, found the end of the query",
        ),
        (
            "▲５五",
            "column 4: expected a piece (歩 香 桂 銀 金 角 飛 玉 と 馬 龍 駒 空, or pawn, king …), found the end of the query",
        ),
        (
            "black king on",
            "column 14: expected a square (９九, 99, 9i), {squares} or an area, found the end of the query",
        ),
        (
            "▲玉{９九,８八",
            "column 9: expected a square or \"}\" to close the \"{\" of column 3, found the end of the query",
        ),
        ("▲玉{}", "column 3: the set of squares is empty"),
        (
            "▲と in enemy",
            "column 12: expected \"camp\" (\"enemy camp\"), found the end of the query",
        ),
        (
            "▲飛 in file 0",
            "column 12: expected a file, 1 to 9, found \"0\"",
        ),
        (
            "▲飛 in rank j",
            "column 12: expected a rank, 1 to 9 or a to i, found \"j\"",
        ),
        (
            "black promoted king",
            "column 16: expected the piece promoted (pawn, lance, knight, silver, bishop or rook), found \"king\"",
        ),
        (
            "last",
            "column 5: expected what the last move was: a side, a piece, a square, 打 成 不成 取 王手 (drop, promotion, capture, check) or a USI move, found the end of the query",
        ),
        (
            "last and ply > 3",
            "column 6: expected what the last move was: a side, a piece, a square, 打 成 不成 取 王手 (drop, promotion, capture, check) or a USI move, found \"and\"",
        ),
        (
            "last 歩 角",
            "column 8: the last move's piece is given twice",
        ),
        ("last ▲ ▲", "column 8: the last move's side is given twice"),
        (
            "last 打 成",
            "column 8: a drop comes from no square, takes nothing and never promotes",
        ),
        (
            "last 成 不成",
            "column 8: a move cannot both promote and not promote",
        ),
        (
            "last 9j9k",
            "column 6: '9j9k' is not a USI move: the origin must be a file 1-9 and a rank a-i",
        ),
        (
            "last capture 駒",
            "column 14: name the piece taken by its kind (角, bishop)",
        ),
        (
            "last 空",
            "column 6: name the piece moved by its kind (歩, pawn …)",
        ),
        (
            "last K",
            "column 6: a USI letter gives its side by its case: write the piece moved as 歩 or pawn",
        ),
        (
            "力戦",
            "column 1: \"力戦\" names a whole game's opening, not one side's strategy or castle: select such games with --opening 力戦",
        ),
        (
            "▲９九玉 or or",
            "column 9: expected a condition: a piece (▲７六歩, black pawn on 7f), a hand, ply, 手番, last, a castle or strategy name, found \"or\"",
        ),
    ];
    for (text, want) in cases {
        match parse(text) {
            Ok(q) => panic!("{text}: read as {q:?}"),
            Err(e) => assert_eq!(e.to_string(), *want, "{text}"),
        }
    }
    let deep = format!("{}▲９九玉{}", "(".repeat(70), ")".repeat(70));
    let e = parse(&deep).unwrap_err();
    assert_eq!(
        e.to_string(),
        "column 65: the query nests deeper than 64 levels of parentheses and \"not\""
    );
}

/// The carets stand under the word at fault, wide characters counted as two columns.
#[test]
fn the_pointer_underlines_the_word() {
    let text = "▲９九玉 and △５五圭馬x";
    let e = parse(text).unwrap_err();
    assert_eq!(e.column, 14);
    assert_eq!(e.width, 1);
    assert_eq!(
        e.pointer(text),
        "  ▲９九玉 and △５五圭馬x\n                     ^^\n"
    );
    let text = "▲美野囲い";
    let e = parse(text).unwrap_err();
    assert_eq!((e.column, e.width), (2, 4));
    assert_eq!(e.suggestion.as_deref(), Some("美濃囲い"));
    assert_eq!(e.pointer(text), "  ▲美野囲い\n   ^^^^^^^^\n");
}

/// Text made of the language's words, stray characters and broken pieces of both: never a
/// panic. A query that does not read points within the text; one that reads is explained,
/// and on a generated game its first ply is the first of the plies at which it holds.
#[test]
fn random_text_reads_or_fails_cleanly() {
    use kifudex::find::{Compiled, explain, first_in, plies_in};
    use kifudex::synth::{Synth, SynthOptions};

    const WORDS: &[&str] = &[
        "▲",
        "△",
        "先手",
        "white",
        "and",
        "or",
        "not",
        "(",
        ")",
        "{",
        "}",
        ",",
        "９九",
        "99",
        "9i",
        "5",
        "五",
        "玉",
        "歩",
        "飛",
        "と",
        "馬",
        "駒",
        "空",
        "２筋",
        "三段目",
        "敵陣",
        "中央",
        "in",
        "hand",
        "持駒",
        "count",
        "material",
        "advantage",
        "駒得",
        "手番",
        "手数",
        "ply",
        "<=",
        ">=",
        "=",
        "..",
        "〜",
        "以上",
        "-",
        "+",
        "直前",
        "last",
        "打",
        "成",
        "不成",
        "取",
        "王手",
        "from",
        "to",
        "美濃",
        "四間飛車",
        "file",
        "rank",
        "enemy",
        "camp",
        "K",
        "@",
        "*",
        "7g7f",
        "P",
        "x",
        "0",
        "1000001",
        "の",
        "は",
        "（",
        "玊",
        "\u{1b}",
        "　",
        "",
    ];
    let rec = Synth::new(SynthOptions {
        seed: 3,
        ..SynthOptions::default()
    })
    .game();
    let moves: Vec<_> = rec.main.moves.iter().map(|m| m.mv).collect();
    let mut rng = crate::util::Rng::new(99);
    let mut read = 0;
    for _ in 0..20_000 {
        let n = 1 + rng.below(8);
        let text: String = (0..n)
            .map(|_| {
                let w = WORDS[rng.below(WORDS.len())];
                if rng.below(3) == 0 {
                    format!("{w} ")
                } else {
                    w.to_string()
                }
            })
            .collect();
        match parse(&text) {
            Ok(q) => {
                read += 1;
                let _ = explain(&q);
                let c = Compiled::new(&q);
                let plies = plies_in(&c, &rec.start, &moves);
                assert_eq!(
                    first_in(&c, &rec.start, &moves),
                    plies.first().map(|r| r[0]),
                    "{text}"
                );
            }
            Err(e) => {
                assert!(
                    e.column >= 1 && e.column <= text.chars().count() + 1,
                    "{text}: {e}"
                );
                let _ = e.pointer(&text);
            }
        }
    }
    assert!(read > 500, "only {read} texts read as queries");
}
