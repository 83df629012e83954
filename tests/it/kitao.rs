//! Kitao–Kawasaki notation: the article's own examples, exact strings, errors, and every
//! legal (and physically possible) move of random games written and read back.

use kifudex::notation::movetext::kitao::{
    kitao_kawasaki, parse_kitao_kawasaki, resolve_kitao_kawasaki,
};
use kifudex::shogi::{Move, Position, Square};

use crate::util::{Rng, crowded, physical_moves, pos, setup, usi_move};

/// The USI of what `text` means on `p`.
fn read(p: &Position, text: &str, last_to: Option<Square>) -> Result<String, String> {
    let (mv, n) = parse_kitao_kawasaki(text).map_err(|e| e.to_string())?;
    assert_eq!(n, text.len(), "{text} was not read to its end");
    resolve_kitao_kawasaki(p, &mv, last_to)
        .map(Move::usi)
        .map_err(|e| e.to_string())
}

fn assert_round_trip(p: &Position, moves: &[Move], last_to: Option<Square>) {
    for &m in moves {
        let text = kitao_kawasaki(p, m, last_to);
        let back = read(p, &text, last_to)
            .unwrap_or_else(|e| panic!("{text} ({m}) on {}: {e}", p.to_sfen()));
        assert_eq!(back, m.usi(), "{text} read back wrong on {}", p.to_sfen());
    }
}

/// The article's Ishida game (its Japanese column), written move by move in Kitao–Kawasaki.
#[test]
fn the_articles_ishida_game() {
    let usi_moves = "7g7f 3c3d 7f7e 3d3e 2h7h 8b3b 6i5h 4a5b 5i4h 1c1d 1g1f 5a6b 4g4f 6c6d \
                     5h4g 7a7b 3i3h 6b7a 4h3i 3a4b 9g9f 4c4d 7i6h 4b4c 6g6f 4c5d 6h6g 3b4b \
                     6g5f 4d4e 4f4e 5d4e 5f4e 4b4e S*3d 4e4a 3d2c";
    let mut p = Position::startpos();
    let mut last_to = None;
    let mut out = Vec::new();
    for m in usi_moves.split_whitespace() {
        let m = usi_move(m);
        out.push(kitao_kawasaki(&p, m, last_to));
        p.play(m).unwrap();
        last_to = Some(m.to());
    }
    assert_eq!(
        out.join(" "),
        "☗歩-76 ☖歩-34 ☗歩-75 ☖歩-35 ☗飛-78 ☖飛-32 ☗金(69)-58 ☖金(41)-52 ☗玉-48 ☖歩-14 \
         ☗歩-16 ☖玉-62 ☗歩-46 ☖歩-64 ☗金-47 ☖銀-72 ☗銀-38 ☖玉-71 ☗玉-39 ☖銀-42 ☗歩-96 \
         ☖歩-44 ☗銀-68 ☖銀-43 ☗歩-66 ☖銀-54 ☗銀-67 ☖飛-42 ☗銀-56 ☖歩-45 ☗歩x ☖銀x ☗銀x \
         ☖飛x ☗銀*34 ☖飛-41 ☗銀x23="
    );
}

#[test]
fn promotions_promoted_pieces_origins_and_captures() {
    // The article's six-part example: two silvers reach 83, one takes and promotes.
    let p = pos(&setup("S72 S74 p83 K59 k11", "b", "-"));
    assert_eq!(kitao_kawasaki(&p, usi_move("7b8c+"), None), "☗銀(72)x83+");
    assert_eq!(kitao_kawasaki(&p, usi_move("7d8c"), None), "☗銀(74)x83=");
    assert_eq!(read(&p, "☗銀(72)x83+", None), Ok("7b8c+".into()));
    assert_eq!(read(&p, "銀(74)x83", None), Ok("7d8c".into()));
    // A promoted knight is +桂; と 馬 龍 as in Japanese.
    let p = pos(&setup("+N33 +P55 +B77 +R11 K59 k93", "b", "-"));
    assert_eq!(kitao_kawasaki(&p, usi_move("3c3b"), None), "☗+桂-32");
    assert_eq!(kitao_kawasaki(&p, usi_move("5e5d"), None), "☗と-54");
    assert_eq!(kitao_kawasaki(&p, usi_move("7g6f"), None), "☗馬-66");
    assert_eq!(kitao_kawasaki(&p, usi_move("1a1b"), None), "☗龍-12");
    assert_eq!(read(&p, "☗+桂-32", None), Ok("3c3b".into()));
    assert_eq!(read(&p, "☗成桂-32", None), Ok("3c3b".into()));
    assert_eq!(read(&p, "☗竜-12", None), Ok("1a1b".into()));
    // Gote's moves, with the previous square left out after x.
    let mut p = Position::startpos();
    for m in ["2g2f", "8c8d", "2f2e", "8d8e", "2e2d"] {
        p.play(usi_move(m)).unwrap();
    }
    assert_eq!(
        kitao_kawasaki(&p, usi_move("2c2d"), Some(usi_move("2e2d").to())),
        "☖歩x"
    );
    assert_eq!(kitao_kawasaki(&p, usi_move("2c2d"), None), "☖歩x24");
    assert_eq!(
        read(&p, "☖歩x", Some(usi_move("2e2d").to())),
        Ok("2c2d".into())
    );
    assert_eq!(read(&p, "☖歩x24", None), Ok("2c2d".into()));
}

#[test]
fn errors_say_what_is_wrong() {
    let p = pos(&setup("S72 S74 p83 K59 k11", "b", "S"));
    assert_eq!(
        read(&p, "☗銀x83", None),
        Err("☗銀x83 is ambiguous: silvers on 72 and 74 can move there; write ☗銀(72)x83 or ☗銀(74)x83".into())
    );
    assert_eq!(
        read(&p, "☗金-58", None),
        Err("☗金-58 is impossible: no black gold can move to 58".into())
    );
    assert_eq!(
        read(&p, "☖銀-84", None),
        Err("☖銀-84 is marked as white's move, but it is black's turn".into())
    );
    assert_eq!(
        read(&p, "☗銀x", None),
        Err("☗銀x: no destination, and there is no previous move whose square it would be".into())
    );
    assert_eq!(
        read(&p, "☗銀x84", None),
        Err("☗銀x84: there is nothing to capture on 84".into())
    );
    assert_eq!(
        parse_kitao_kawasaki("☗銀76").unwrap_err(),
        "expected the motion -, x or * after ☗銀"
    );
    assert_eq!(
        parse_kitao_kawasaki("☗銀-7").unwrap_err(),
        "expected a destination like 76 after ☗銀-"
    );
    assert_eq!(
        parse_kitao_kawasaki("☗銀*34+").unwrap_err(),
        "☗銀*34+: a drop has no origin and no promotion mark"
    );
    // A drop is read, and stops before the next move.
    let (m, n) = parse_kitao_kawasaki("☗銀*34☖飛-41").unwrap();
    assert_eq!((m.to_string(), n), ("☗銀*34".to_string(), "☗銀*34".len()));
}

/// Every legal move of random games, and every physically possible move of crowded
/// positions (illegal ones included), written and read back; within a position no two
/// moves share a text.
#[test]
fn every_move_round_trips_in_random_games() {
    let mut rng = Rng::new(0x6b6b_2026);
    let mut checked = 0;
    for _ in 0..12 {
        let mut p = Position::startpos();
        let mut last_to = None;
        for _ in 0..160 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            assert_round_trip(&p, &moves, last_to);
            let texts: std::collections::HashSet<String> = moves
                .iter()
                .map(|&m| kitao_kawasaki(&p, m, last_to))
                .collect();
            assert_eq!(texts.len(), moves.len(), "repeats on {}", p.to_sfen());
            checked += moves.len();
            let m = moves[rng.below(moves.len())];
            p.play(m).unwrap();
            last_to = Some(m.to());
        }
    }
    let mut positions = 0;
    while positions < 60 {
        let Some(p) = crowded(&mut rng) else { continue };
        positions += 1;
        for q in [p.clone(), p.flip()] {
            assert_round_trip(&q, &q.legal_moves(), None);
            assert_round_trip(&q, &physical_moves(&q), None);
            checked += q.legal_moves().len();
        }
    }
    assert!(checked > 50_000, "only {checked} moves checked");
}
