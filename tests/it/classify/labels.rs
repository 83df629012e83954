//! The game label (戦型): one test per rule, the reasons in words, the resolver of short
//! names, and the agreement with the `戦型` headers of the shared corpus.

use kifudex::classify::{Kind, Resolved, Rule, family, recognise_record, resolve, split_header};
use kifudex::notation::read_bytes;
use kifudex::shogi::Color;

use super::pairs::{parse, run};
use super::pairs_labels::WAITS;
use crate::util::{corpus, corpus_root};

fn label(moves: &str) -> (Option<&'static str>, String) {
    let r = run(&parse(moves)).unwrap_or_else(|e| panic!("{moves}: {e}"));
    (
        r.opening,
        r.reason.map(|x| x.to_string()).unwrap_or_default(),
    )
}

/// 横歩取り: sente's rook takes the side pawn on 3四 at ply 13, gote's rook on 8六.
const YOKOFU: &str = "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d";
/// 角換わり by the usual exchange on 7七, at ply 9.
const KAKUGAWARI: &str = "7g7f 8c8d 2g2f 3c3d 8h7g 4a3b 7i8h 2b7g+ 8h7g 3a2b";

#[test]
fn a_ranging_rook_names_the_game_by_its_file_and_line() {
    assert_eq!(
        label("7g7f 3c3d 2g2f 8b4b"),
        (
            Some("四間飛車"),
            "四間飛車: gote's rook to ４二 at ply 4; sente stays static rook".into()
        )
    );
    assert_eq!(label("7g7f 3c3d 2h7h 8c8d").0, Some("三間飛車"));
    // The named line played there in the opening.
    let (l, why) = label("7g7f 3c3d 7f7e 8c8d 2h7h");
    assert_eq!(l, Some("早石田"));
    assert_eq!(
        why,
        "早石田: sente's rook to ７八 at ply 5; gote stays static rook; sente's 早石田 at ply 5"
    );
    assert_eq!(
        label("7g7f 3c3d 8h2b+ 3a2b 2h8h").0,
        Some("ダイレクト向かい飛車")
    );
    // A rook that ranges after the bishops were exchanged still ranges.
    assert_eq!(
        label("7g7f 3c3d 2g2f 2b8h+ 7i8h 8b4b").0,
        Some("角交換四間飛車")
    );
    // 陽動振り飛車: the rook pawn pushed first, as a static rook would.
    let (l, why) = label("2g2f 3c3d 2f2e 4a3b 2h6h");
    assert_eq!(l, Some("陽動振り飛車"));
    assert_eq!(
        why,
        "陽動振り飛車: sente's rook to ６八 at ply 5 after pushing its rook pawn (陽動); gote stays static rook"
    );
    // A rook in the centre is 中飛車 even from a static rook's castle (矢倉中飛車).
    assert_eq!(label("5i6h 3c3d 6h7h 4a3b 2h5h").0, Some("矢倉中飛車"));
}

#[test]
fn both_ranging_rooks_make_ai_furibisha() {
    assert_eq!(
        label("7g7f 3c3d 2h7h 8b5b"),
        (
            Some("相振り飛車"),
            "相振り飛車: sente's rook to ７八 at ply 3, gote's to ５二 at ply 4".into()
        )
    );
    assert_eq!(label("7g7f 3c3d 2h7h 8b3b").0, Some("相三間飛車"));
}

#[test]
fn a_rook_moved_after_the_opening_ranges_nothing() {
    // 横歩取り: the rook that took the side pawn swings to the centre later.
    let moves = format!("{YOKOFU} 4a3b 3d3f 6a5b 3f5f");
    let r = run(&parse(&moves)).unwrap();
    assert_eq!(r.opening, Some("横歩取り"));
    for name in ["中飛車", "振り飛車", "袖飛車", "三間飛車"] {
        assert!(!r.has(Color::Black, name), "{name}: {:?}", r.items);
    }
    // A rook that swings along its home rank once a knight was taken: the middle game.
    let r = run(&parse("7g7f 6c6d 8i7g 4a4b 7g6e 6d6e 2h6h")).unwrap();
    assert!(!r.has(Color::Black, "四間飛車"), "{:?}", r.items);
    assert_eq!(r.opening, Some("鬼殺し"));
    // The same swing in the opening is a ranging rook.
    let r = run(&parse("7g7f 6c6d 8i7g 4a4b 2h6h")).unwrap();
    assert_eq!(r.opening, Some("四間飛車"));
}

#[test]
fn a_side_pawn_taken_late_does_not_make_yokofudori() {
    // 角換わり, then a rook takes the pawn on 3四 at ply 17.
    let moves = format!("{KAKUGAWARI} 2f2e 1c1d 2e2d 2c2d 2h2d 9c9d 2d3d");
    let r = run(&parse(&moves)).unwrap();
    assert_eq!(r.opening, Some("角換わり"));
    assert!(!r.has(Color::Black, "横歩取り"), "{:?}", r.items);
    assert_eq!(
        r.reason.unwrap().to_string(),
        "角換わり: bishops exchanged at ply 9, both sides static rook"
    );
    // A side pawn taken after 相掛かり names the side's 横歩取り, but the game stays 相掛かり,
    // which came first.
    let moves = "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d 3c3d 2d3d";
    let r = run(&parse(moves)).unwrap();
    assert!(r.has(Color::Black, "横歩取り"));
    assert_eq!(r.opening.map(family), Some("相掛かり"));
}

#[test]
fn the_first_static_opening_names_the_game() {
    assert_eq!(
        label(YOKOFU),
        (
            Some("横歩取り"),
            "横歩取り: sente's rook took the side pawn on ３四 at ply 13".into()
        )
    );
    assert_eq!(label("2g2f 8c8d 2f2e 8d8e 2e2d").0, Some("相掛かり"));
    // The same pushes, then the bishop's diagonal opened: not 相掛かり (角換わり may follow).
    assert_eq!(label("2g2f 8c8d 2f2e 8d8e 7g7f").0, Some("その他の戦型"));
    let (l, why) = label("7g7f 3c3d 2g2f 2b8h+ 7i8h");
    assert_eq!(l, Some("一手損角換わり"));
    assert!(
        why.contains("gote's bishop having taken the other at home"),
        "{why}"
    );
    // 5筋位取り early.
    assert_eq!(label("7g7f 5c5d 2g2f 5d5e").0, Some("5筋位取り"));
    // 力戦 after 20 plies of static rooks, その他の戦型 before.
    assert_eq!(label(WAITS).0, Some("力戦"));
    assert_eq!(label("7g7f 3c3d").0, Some("その他の戦型"));
    assert_eq!(label("").0, Some("その他の戦型"));
}

#[test]
fn between_yagura_and_gangi_the_structure_chosen_second_names_the_game() {
    // Sente's 矢倉 at ply 9, gote's 雁木 (silvers 4三 and 5三 behind pawns on 4四 and 5四) at
    // 16: gote answered with 雁木.
    let moves = "7g7f 4c4d 6g6f 3a4b 7i6h 4b4c 6h7g 4a3b 6i7h 5c5d 1g1f 7a6b 9g9f 6b5c 1f1e 5a4a";
    let r = run(&parse(moves)).unwrap();
    assert_eq!(r.opening, Some("雁木"));
    let reason = r.reason.unwrap();
    assert_eq!(reason.rule, Rule::Gangi);
    assert_eq!(
        reason.to_string(),
        "雁木: gote's 雁木 at ply 16, both sides static rook; answering sente's 矢倉 at ply 9"
    );
    // Without the 雁木, the game is 矢倉.
    let moves = "7g7f 4c4d 6g6f 3a4b 7i6h 4b4c 6h7g 4a3b 6i7h 5c5d 1g1f 7a6b 9g9f 6b5c 1f1e 5a5b";
    assert_eq!(label(moves).0, Some("矢倉"));
    // Sente's 雁木 at ply 15, answered by gote's 矢倉 at ply 18: 矢倉.
    let moves =
        "6g6f 1c1d 7i6h 9c9d 6h6g 1d1e 6i7h 9d9e 5g5f 3c3d 3i4h 4c4d 4h5g 3a4b 5i6i 4b3c 1g1f 4a3b";
    assert_eq!(
        label(moves),
        (
            Some("矢倉"),
            "矢倉: gote's 矢倉 at ply 18, both sides static rook; answering sente's 雁木 at ply 15"
                .into()
        )
    );
}

#[test]
fn every_item_says_the_move_that_completed_it() {
    let moves = parse("7g7f 3c3d 2g2f 8b4b 5i6h 5a6b 6h7h 6b7b 4i5h");
    let r = run(&moves).unwrap();
    for i in &r.items {
        assert_eq!(i.mv, moves[i.ply as usize - 1], "{}", i.name);
    }
    assert_eq!(r.ply(Color::Black, "舟囲い"), Some(9));
}

#[test]
fn short_names_resolve_to_the_name_they_stand_for() {
    let name = |s, k| match resolve(s, k) {
        Resolved::Name(n) => Some(n),
        Resolved::Unknown => None,
    };
    // Any spelling.
    assert_eq!(name("相振飛車", None), Some("相振り飛車"));
    assert_eq!(name("ｙａｇｕｒａ", None), Some("矢倉"));
    assert_eq!(
        name("四枚美濃", Some(Kind::Castle)),
        Some("ダイヤモンド美濃")
    );
    // A strategy's name asked as a castle, and a family by its short name.
    assert_eq!(name("矢倉", Some(Kind::Castle)), Some("矢倉囲い"));
    assert_eq!(name("矢倉", Some(Kind::Strategy)), Some("矢倉"));
    assert_eq!(name("矢倉", None), Some("矢倉"));
    assert_eq!(name("雁木", Some(Kind::Castle)), Some("雁木囲い"));
    assert_eq!(name("美濃", Some(Kind::Castle)), Some("美濃囲い"));
    assert_eq!(name("美濃", None), Some("美濃囲い"));
    // The start of one name, or of one family.
    assert_eq!(name("四間", None), Some("四間飛車"));
    assert_eq!(name("四間", Some(Kind::Strategy)), Some("四間飛車"));
    assert_eq!(name("ゴキゲン", None), Some("ゴキゲン中飛車"));
    assert_eq!(name("石田", None), Some("石田流"));
    assert_eq!(name("藤井シ", None), Some("藤井システム"));
    // 藤井システム and 藤井流早囲い (a spelling of 矢倉早囲い) both start so.
    assert_eq!(name("藤井", None), None);
    assert_eq!(name("角換", None), Some("角換わり"));
    assert_eq!(name("一手損", None), Some("一手損角換わり"));
    // The start of names of several families, text of no name, a name of another kind.
    assert_eq!(name("ノーマル", None), None);
    assert_eq!(name("相", None), None);
    assert_eq!(name("将棋", None), None);
    assert_eq!(name("", None), None);
    assert_eq!(name("四間飛車", Some(Kind::Castle)), None);
    assert_eq!(name("相振り飛車", Some(Kind::Strategy)), None);
}

const GAME_HEADERS: [&str; 4] = ["戦型", "$OPENING", "OPENING", "Opening"];

/// The games of the shared corpus whose game-level header (戦型, CSA's $OPENING) names the
/// opening and that are long enough to have one (20 plies), each once (a game kept in two
/// formats counts once): the recognised label agrees with one of the header's names at
/// family level in at least 95% of them. Skipped when the corpus
/// is not beside the project; a failure under CI. `cargo run --release --example
/// openings_corpus` lists every disagreement.
#[test]
fn the_label_agrees_with_the_corpus_headers() {
    let Some(root) = corpus_root() else {
        return;
    };
    let Some(files) = corpus(&[]) else {
        return;
    };
    let (mut games, mut agree) = (0, 0);
    let mut differ = Vec::new();
    // Some games are in the corpus twice, in two formats: each counts once.
    let mut seen = std::collections::HashSet::new();
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        for game in read_bytes(&bytes, Some(&path)).games {
            let moves: Vec<_> = game.main.moves.iter().map(|m| m.mv).collect();
            if !seen.insert((game.start.to_sfen(), moves)) {
                continue;
            }
            let labels: Vec<String> = game
                .headers
                .iter()
                .filter(|(k, _)| GAME_HEADERS.contains(&k.trim_start_matches('\'').trim()))
                .flat_map(|(_, v)| split_header(v))
                .collect();
            if labels.is_empty() || game.main.moves.len() < 20 {
                continue;
            }
            games += 1;
            let r = recognise_record(&game);
            let mine = family(r.opening.unwrap_or_default());
            if labels.iter().any(|l| family(l) == mine) {
                agree += 1;
            } else {
                differ.push(format!(
                    "{}: {labels:?} / {:?}",
                    path.strip_prefix(&root).unwrap().display(),
                    r.opening
                ));
            }
        }
    }
    eprintln!("{agree} of {games} games agree; differ: {differ:#?}");
    assert!(games >= 30, "only {games} labelled games");
    assert!(
        agree * 100 >= games * 95,
        "{agree} of {games} agree: {differ:#?}"
    );
}
