//! Playing moves: every broken rule reported, impossible moves refused, mate and repetition.

use kifudex::shogi::{
    BoardWalk, Color, HashWalk, History, Move, MoveError, Position, Repetition, Rule, Strictness,
};

use crate::util::pos;

fn mv(s: &str) -> Move {
    Move::from_usi(s).unwrap()
}

/// Plays `usi` on `sfen` and returns the rules it broke, by code.
fn broken(sfen: &str, usi: &str) -> Vec<&'static str> {
    let mut p = pos(sfen);
    let v = p
        .play(mv(usi))
        .unwrap_or_else(|e| panic!("{usi} refused: {e}"));
    v.iter().map(Rule::code).collect()
}

fn refused(sfen: &str, usi: &str) -> String {
    let mut p = pos(sfen);
    let before = p.clone();
    let e = p.play(mv(usi)).expect_err("move was played");
    assert_eq!(
        p, before,
        "a refused move must leave the position unchanged"
    );
    e.to_string()
}

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

#[test]
fn legal_moves_break_nothing_and_update_the_position() {
    let mut p = Position::startpos();
    assert!(p.play(mv("7g7f")).unwrap().is_empty());
    assert!(p.play(mv("3c3d")).unwrap().is_empty());
    assert!(p.play(mv("8h2b+")).unwrap().is_empty());
    assert_eq!(
        p.to_sfen(),
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    );
    assert!(p.play(mv("3a2b")).unwrap().is_empty());
    assert!(p.play(mv("B*4e")).unwrap().is_empty());
    assert_eq!(
        p.to_sfen(),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
    );
}

#[test]
fn two_pawns() {
    assert_eq!(
        broken("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e"),
        ["two_pawns"]
    );
    // A promoted pawn on the file does not count.
    assert!(broken("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1", "P*5e").is_empty());
}

#[test]
fn drop_pawn_mate() {
    // White king 1a; the silver on 3b guards 2a, the gold on 2c guards 2b and 1b.
    let mate = "8k/6S2/7G1/9/9/9/9/9/4K4 b P 1";
    assert_eq!(broken(mate, "P*1b"), ["drop_pawn_mate"]);
    assert!(!pos(mate).legal_moves().contains(&mv("P*1b")));
    // Without the silver the king escapes to 2a: the same drop is a legal check.
    let escape = "8k/9/7G1/9/9/9/9/9/4K4 b P 1";
    assert!(broken(escape, "P*1b").is_empty());
    assert!(pos(escape).legal_moves().contains(&mv("P*1b")));
    // Mate by a pawn pushed from the board is fine.
    let mut p = pos("8k/6S2/7G1/8P/9/9/9/9/4K4 b - 1");
    assert!(p.play(mv("1d1c")).unwrap().is_empty());
    let mut p2 = pos("8k/6S2/7GP/9/9/9/9/9/4K4 b - 1");
    assert!(p2.play(mv("1c1b")).unwrap().is_empty());
    assert!(p2.is_checkmate());
}

#[test]
fn king_left_or_put_in_check() {
    // The gold on 5h is pinned by the rook on 5a.
    let pinned = "4r3k/9/9/9/9/9/9/4G4/4K4 b - 1";
    assert_eq!(broken(pinned, "5h4h"), ["king_in_check"]);
    assert!(broken(pinned, "5h5g").is_empty());
    // The king walks onto the rook's file.
    assert_eq!(
        broken("3r4k/9/9/9/9/9/9/9/4K4 b - 1", "5i6i"),
        ["king_in_check"]
    );
    // In check and ignoring it.
    assert_eq!(
        broken("4r3k/9/9/9/9/9/9/9/4K2P1 b - 1", "2i2h"),
        ["king_in_check"]
    );
}

#[test]
fn dead_pieces_and_missing_forced_promotions() {
    assert_eq!(
        broken("k8/4P4/9/9/9/9/9/9/4K4 b - 1", "5b5a"),
        ["dead_piece"]
    );
    assert!(broken("k8/4P4/9/9/9/9/9/9/4K4 b - 1", "5b5a+").is_empty());
    assert_eq!(
        broken("k8/9/4N4/9/9/9/9/9/4K4 b - 1", "5c4a"),
        ["dead_piece"]
    );
    assert_eq!(broken("k8/9/9/9/9/9/9/9/4K4 b N 1", "N*1b"), ["dead_piece"]);
    assert_eq!(broken("k8/9/9/9/9/9/9/9/4K4 b L 1", "L*1a"), ["dead_piece"]);
    assert!(broken("k8/9/9/9/9/9/9/9/4K4 b L 1", "L*1b").is_empty());
    assert_eq!(
        broken("4K4/9/9/9/9/9/9/9/4k4 w p 1", "P*1i"),
        ["dead_piece"]
    );
}

#[test]
fn illegal_promotions_and_movements() {
    assert_eq!(broken(START, "3i3h+"), ["illegal_promotion"]);
    assert_eq!(broken(START, "7g7e"), ["illegal_movement"]);
    // The bishop cannot pass its own pawn on 7g.
    assert_eq!(broken(START, "8h6f"), ["illegal_movement"]);
    assert_eq!(
        broken("4k4/9/9/9/9/9/9/9/4K4 b - 1", "5i5g"),
        ["illegal_movement"]
    );
    // A knight jumps over pieces; a gold moves back but not diagonally back.
    assert!(broken("4k4/9/9/9/9/9/9/9/1N2K4 b - 1", "8i7g").is_empty());
    assert_eq!(
        broken("4k4/9/9/9/4G4/9/9/9/4K4 b - 1", "5e4f"),
        ["illegal_movement"]
    );
    // Several rules at once: a pawn jumping to the last rank.
    assert_eq!(
        broken("k8/9/4P4/9/9/9/9/9/4K4 b - 1", "5c5a"),
        ["dead_piece", "illegal_movement"]
    );
}

#[test]
fn physically_impossible_moves_are_refused() {
    assert_eq!(refused(START, "5e5d"), "there is no piece on 5e");
    assert_eq!(
        refused(START, "3c3d"),
        "the piece on 3c is white's, but it is black's move"
    );
    assert_eq!(
        refused(START, "7i7g"),
        "7g already holds a piece of the side to move"
    );
    assert_eq!(refused(START, "6i5h+"), "a gold cannot promote");
    assert_eq!(refused(START, "P*5e"), "black has no pawn in hand");
    assert_eq!(
        refused("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5i"),
        "cannot drop on 5i: the square is occupied"
    );
    // Capturing a king is refused too: a hand cannot hold it.
    let mut p =
        Position::from_sfen_with("4k4/9/9/9/9/9/9/9/K3R4 b - 1", Strictness::PiecesOnly).unwrap();
    assert_eq!(
        p.play(mv("5i5a")).unwrap_err(),
        MoveError::CapturesKing(kifudex::shogi::Square::new(5, 1).unwrap())
    );
    assert_eq!(
        p.play(mv("5i5a")).unwrap_err().to_string(),
        "the move would capture the king on 5a"
    );
}

#[test]
fn check_and_checkmate() {
    // White king 5a, black gold 5b guarded by the pawn on 5c.
    let mated = pos("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    assert!(mated.in_check());
    assert!(mated.is_checkmate());
    assert!(mated.legal_moves().is_empty());
    // Unguarded, the king takes the gold.
    let escape = pos("4k4/4G4/9/9/9/9/9/9/4K4 w - 1");
    assert!(escape.in_check());
    assert!(!escape.is_checkmate());
    assert_eq!(
        escape
            .legal_moves()
            .iter()
            .map(|m| m.usi())
            .collect::<Vec<_>>(),
        ["5a5b"]
    );
    assert!(!Position::startpos().in_check());
}

fn play_all(p: &mut Position, history: &mut History, moves: &str) {
    for m in moves.split_whitespace() {
        assert!(p.play(mv(m)).unwrap().is_empty(), "{m}");
        history.push(p);
    }
}

#[test]
fn repetition_is_a_draw_on_the_fourth_occurrence() {
    let mut p = Position::startpos();
    let mut h = History::new(&p);
    let cycle = "5i5h 5a5b 5h5i 5b5a";
    play_all(&mut p, &mut h, cycle);
    play_all(&mut p, &mut h, cycle);
    assert_eq!(h.occurrences(), 3);
    play_all(&mut p, &mut h, "5i5h 5a5b 5h5i");
    assert_eq!(h.repetition(), None);
    play_all(&mut p, &mut h, "5b5a");
    assert_eq!(h.occurrences(), 4);
    assert_eq!(h.len(), 13);
    assert_eq!(h.repetition(), Some(Repetition::Draw));
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    // Black's rook checks from file 1 and file 2 in turn; White's king steps between 1a and 2a.
    let mut p = pos("8k/9/9/9/9/9/9/9/K6R1 b - 1");
    let mut h = History::new(&p);
    let cycle = "2i1i 1a2a 1i2i 2a1a";
    for _ in 0..2 {
        play_all(&mut p, &mut h, cycle);
    }
    play_all(&mut p, &mut h, "2i1i 1a2a 1i2i");
    assert_eq!(h.repetition(), None);
    play_all(&mut p, &mut h, "2a1a");
    assert_eq!(
        h.repetition(),
        Some(Repetition::PerpetualCheck {
            loser: Color::Black
        })
    );
    // The same cycle seen from the other side: White checks, White loses.
    let mut p = pos("1r6k/9/9/9/9/9/9/9/K8 w - 1");
    let mut h = History::new(&p);
    for _ in 0..3 {
        play_all(&mut p, &mut h, "8a9a 9i8i 9a8a 8i9i");
    }
    assert_eq!(
        h.repetition(),
        Some(Repetition::PerpetualCheck {
            loser: Color::White
        })
    );
}

/// Random games of physically possible moves, legal or not, so that kings are left in check
/// and pieces stand where no legal game puts them. After every move both check flags equal a
/// full scan; in every position `is_legal` agrees with `play` on every move code, and
/// `play_quietly` leaves the position `play` does (or refuses the move with the same error),
/// and so does a `BoardWalk` on its board, hands and side, and a `HashWalk` on its hash.
#[test]
fn check_flags_and_is_legal_agree_with_play_in_wild_games() {
    let starts = [
        Position::startpos(),
        pos("4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p 1"),
        pos("9/9/9/9/4k4/9/9/9/9 b 2R2B4G4S4N4L18P 1"),
        pos("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"),
    ];
    let codes: Vec<Move> = (0..=u16::MAX).filter_map(Move::from_u16).collect();
    let mut rng = crate::util::Rng::new(0xc4ec_f1a9);
    let mut positions = 0;
    for start in &starts {
        for _ in 0..8 {
            let mut p = start.clone();
            for _ in 0..40 {
                let mut possible = Vec::new();
                for &m in &codes {
                    let mut after = p.clone();
                    let played = after.play(m);
                    // play_quietly: the same position, the same error, no rules.
                    let mut quiet = p.clone();
                    assert_eq!(
                        quiet.play_quietly(m),
                        played.clone().map(|_| ()),
                        "{m} at {}",
                        p.to_sfen()
                    );
                    assert_eq!(quiet, after, "{m} at {}", p.to_sfen());
                    // BoardWalk: the same, on the board, hands and side alone.
                    let mut walk = BoardWalk::of(&p);
                    assert_eq!(walk.play_quietly(m), played.clone().map(|_| ()));
                    assert_eq!(walk, BoardWalk::of(&after), "{m} at {}", p.to_sfen());
                    let mut hashed = HashWalk::of(&p);
                    assert_eq!(hashed.play_quietly(m), played.clone().map(|_| ()));
                    assert_eq!(hashed, HashWalk::of(&after), "{m} at {}", p.to_sfen());
                    assert_eq!(hashed.hash(), after.hash());
                    assert_eq!(
                        (quiet.hash(), quiet.in_check()),
                        (after.hash(), after.in_check())
                    );
                    assert_eq!(
                        p.is_legal(m),
                        matches!(played, Ok(v) if v.is_empty()),
                        "is_legal({m}) at {}",
                        p.to_sfen()
                    );
                    if played.is_ok() {
                        possible.push(m);
                    }
                }
                positions += 1;
                if possible.is_empty() {
                    break;
                }
                p.play(possible[rng.below(possible.len())]).unwrap();
                for c in Color::ALL {
                    let full = p.king(c).is_some_and(|k| p.is_attacked(k, c.opponent()));
                    assert_eq!(p.is_king_attacked(c), full, "{c:?} at {}", p.to_sfen());
                }
            }
        }
    }
    assert!(positions > 1000);
}
