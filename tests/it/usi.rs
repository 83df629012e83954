//! USI move text and the compact move code.

use kifudex::shogi::{Move, PieceKind, Position, Square};

#[test]
fn usi_moves_read_and_write() {
    let sq = |f, r| Square::new(f, r).unwrap();
    assert_eq!(
        Move::from_usi("7g7f"),
        Ok(Move::Board {
            from: sq(7, 7),
            to: sq(7, 6),
            promote: false
        })
    );
    assert_eq!(
        Move::from_usi("8h2b+"),
        Ok(Move::Board {
            from: sq(8, 8),
            to: sq(2, 2),
            promote: true
        })
    );
    assert_eq!(
        Move::from_usi("P*5e"),
        Ok(Move::Drop {
            kind: PieceKind::Pawn,
            to: sq(5, 5)
        })
    );
    for text in ["7g7f", "8h2b+", "P*5e", "R*1a", "1a9i", "9i1a+"] {
        assert_eq!(Move::from_usi(text).unwrap().usi(), text);
    }
}

#[test]
fn bad_usi_moves_are_explained() {
    let e = |s: &str| Move::from_usi(s).unwrap_err().to_string();
    assert_eq!(
        e("7g7"),
        "'7g7' is not a USI move: expected four or five characters, like 7g7f, 8h2b+ or P*5e"
    );
    assert_eq!(
        e("K*5e"),
        "'K*5e' is not a USI move: a drop names its piece with one of P L N S G B R"
    );
    assert_eq!(
        e("p*5e"),
        "'p*5e' is not a USI move: a drop names its piece with one of P L N S G B R"
    );
    assert_eq!(
        e("0g7f"),
        "'0g7f' is not a USI move: the origin must be a file 1-9 and a rank a-i"
    );
    assert_eq!(
        e("7g7j"),
        "'7g7j' is not a USI move: the destination must be a file 1-9 and a rank a-i"
    );
    assert_eq!(
        e("7g7f="),
        "'7g7f=' is not a USI move: only '+' may follow the destination"
    );
    assert_eq!(
        e("7g7g"),
        "'7g7g' is not a USI move: origin and destination are the same square"
    );
}

#[test]
fn every_move_code_round_trips() {
    let mut seen = std::collections::HashSet::new();
    let mut count = 0;
    for code in 0..=u16::MAX {
        if let Some(mv) = Move::from_u16(code) {
            assert_eq!(mv.to_u16(), code, "{mv}");
            assert_ne!(code, u16::MAX);
            assert!(seen.insert(mv));
            count += 1;
        }
    }
    // Board moves: 81 origins x 81 destinations x 2 (the code does not exclude from == to);
    // drops: 7 kinds x 81 squares.
    assert_eq!(count, 81 * 81 * 2 + 7 * 81);
    // The legal moves of a position survive the code.
    let p = Position::from_sfen("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1").unwrap();
    for mv in p.legal_moves() {
        assert_eq!(Move::from_u16(mv.to_u16()), Some(mv));
    }
}
