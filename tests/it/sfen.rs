//! SFEN reading and writing: round trips, canonical output, and errors that explain themselves.

use kifudex::shogi::{Color, PieceKind, Position, STARTPOS_SFEN, SfenError, Square, Strictness};

use crate::util::pos;

fn err(sfen: &str) -> String {
    match Position::from_sfen(sfen) {
        Ok(p) => panic!("accepted {sfen} as {}", p.to_sfen()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn start_position_reads_and_writes() {
    let p = pos(STARTPOS_SFEN);
    assert_eq!(p, Position::startpos());
    assert_eq!(p.to_sfen(), STARTPOS_SFEN);
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.move_number(), 1);
    let at = |f, r| {
        p.piece_at(Square::new(f, r).unwrap())
            .map(|x| (x.color, x.kind))
    };
    assert_eq!(at(5, 9), Some((Color::Black, PieceKind::King)));
    assert_eq!(at(8, 8), Some((Color::Black, PieceKind::Bishop)));
    assert_eq!(at(2, 8), Some((Color::Black, PieceKind::Rook)));
    assert_eq!(at(8, 2), Some((Color::White, PieceKind::Rook)));
    assert_eq!(at(1, 1), Some((Color::White, PieceKind::Lance)));
    assert_eq!(at(5, 5), None);
}

#[test]
fn move_number_is_optional_and_kept() {
    assert_eq!(
        pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -").to_sfen(),
        STARTPOS_SFEN
    );
    let p = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
    assert_eq!(p.move_number(), 2);
    assert_eq!(p.side_to_move(), Color::White);
}

#[test]
fn hands_are_written_in_canonical_order_whatever_order_they_came_in() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b p2PSr2LbGNB 1");
    assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b BGSN2L2Prbp 1");
    assert_eq!(p.hand(Color::Black).count(PieceKind::Pawn), 2);
    assert_eq!(p.hand(Color::Black).count(PieceKind::Lance), 2);
    assert_eq!(p.hand(Color::White).count(PieceKind::Rook), 1);
    assert_eq!(p.hand(Color::White).count(PieceKind::Gold), 0);
}

#[test]
fn promoted_pieces_and_tsume_positions_round_trip() {
    for sfen in [
        "k1+P4n1/2L+P2sL1/r4+P+P1P/+BpP+Pl1+Rg1/NP1S+PP+p1g/2L+p1g+P1+P/Ps1G1+P1N1/1sN1P4/B8 b - 1",
        "8l/6S1k/9/9/9/9/9/9/9 b G2r2b3g3s4n3l18p 1",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
    ] {
        assert_eq!(pos(sfen).to_sfen(), sfen);
    }
    let p = pos(
        "k1+P4n1/2L+P2sL1/r4+P+P1P/+BpP+Pl1+Rg1/NP1S+PP+p1g/2L+p1g+P1+P/Ps1G1+P1N1/1sN1P4/B8 b - 1",
    );
    let piece = p.piece_at(Square::new(7, 1).unwrap()).unwrap();
    assert_eq!(
        (piece.color, piece.kind),
        (Color::Black, PieceKind::ProPawn)
    );
    let piece = p.piece_at(Square::new(9, 4).unwrap()).unwrap();
    assert_eq!((piece.color, piece.kind), (Color::Black, PieceKind::Horse));
}

#[test]
fn structural_errors_say_what_is_wrong() {
    assert_eq!(
        err("lnsgkgsnl/1r5b1/pppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        "rank 3 has 10 squares"
    );
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R/LNSGKGSNL b - 1"),
        "rank 8 has 8 squares"
    );
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        "the board has 8 ranks; it needs 9, separated by '/'"
    );
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/4x4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        "rank 5: 'x' is not a piece letter (P L N S G B R K, lower case for white)"
    );
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/4+G4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        "rank 5: '+' must be followed by a piece that promotes (P L N S B R)"
    );
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1"),
        "the side to move is 'x'; it must be b (black) or w (white)"
    );
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b"),
        "an SFEN has a board, a side to move, hands and an optional move number, but this has 2 field(s)"
    );
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0"),
        "the move number must be a positive whole number, but it is '0'"
    );
}

#[test]
fn piece_errors_say_what_is_wrong() {
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKKSNL b - 1"),
        "two black kings"
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4K4 b 19P 1"),
        "hand count 19 for pawns (at most 18)"
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4K4 b 3R 1"),
        "hand count 3 for rooks (at most 2)"
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4K4 b K 1"),
        "hands: 'K' is not a piece a hand can hold (P L N S G B R, lower case for white)"
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4K4 b 2P3P 1"),
        "hands: black's pawns are listed twice"
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4K4 b 1P 1"),
        "hands: a count of 1 is not allowed (omit the piece, or write no count for one)"
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4K4 b P2 1"),
        "hands: the count 2 is not followed by a piece letter"
    );
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1"),
        "too many pawns: 19 on the board and in hands, but a set has 18"
    );
    assert_eq!(
        err("4P4/9/9/9/9/9/9/9/4K4 b - 1"),
        "black pawn on the last rank (5a) can never move"
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/2l1K4 b - 1"),
        "white lance on the last rank (7i) can never move"
    );
    assert_eq!(
        err("4k4/2N6/9/9/9/9/9/9/4K4 b - 1"),
        "black knight on the last two ranks (7b) can never move"
    );
    assert_eq!(
        err("4k4/9/9/4P4/9/4P4/9/9/4K4 b - 1"),
        "two unpromoted black pawns on file 5 (二歩)"
    );
    assert_eq!(
        err("4k4/4R4/9/9/9/9/9/9/4K4 b - 1"),
        "white's king is in check, but it is black's move"
    );
}

#[test]
fn pieces_only_strictness_accepts_positions_illegal_records_reach() {
    let sfen = "4k4/4R4/9/4P4/9/4P4/9/9/4K3P b - 1";
    assert!(Position::from_sfen(sfen).is_err());
    let p = Position::from_sfen_with(sfen, Strictness::PiecesOnly).unwrap();
    assert_eq!(p.to_sfen(), sfen);
    // Still no more pieces than a set holds.
    assert!(matches!(
        Position::from_sfen_with("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", Strictness::PiecesOnly),
        Err(SfenError::Position(_))
    ));
}

#[test]
fn tsume_positions_without_a_black_king_are_accepted() {
    let p = pos("7k1/9/7S1/9/9/9/9/9/9 b S2r2b4g2s4n4l18p 1");
    assert_eq!(p.king(Color::Black), None);
    assert_eq!(p.king(Color::White), Square::new(2, 1));
    assert!(!p.in_check());
}
