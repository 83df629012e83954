//! Move generation against published perft counts.

use kifudex::shogi::Position;

use crate::util::pos;

#[test]
fn start_position_depths_1_to_4() {
    let start = Position::startpos();
    assert_eq!(start.perft(1), 30);
    assert_eq!(start.perft(2), 900);
    assert_eq!(start.perft(3), 25_470);
    assert_eq!(start.perft(4), 719_731);
}

/// The "matsuri" position: both sides hold pieces, promoted pieces on the board.
#[test]
fn matsuri_position_with_pieces_in_hand() {
    let p = pos("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
    assert_eq!(p.perft(1), 207);
    assert_eq!(p.perft(2), 28_684);
    assert_eq!(p.perft(3), 4_809_015);
}

/// The position with the most legal moves known (593), nearly everything in Black's hand.
#[test]
fn maximum_moves_position_with_full_hand() {
    let p = pos("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1");
    assert_eq!(p.perft(1), 593);
    assert_eq!(p.perft(2), 105_677);
}

#[test]
fn divide_sums_to_perft_and_lists_each_move_once() {
    let start = Position::startpos();
    let divide = start.perft_divide(3);
    assert_eq!(divide.len(), 30);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 25_470);
    let mut moves: Vec<String> = divide.iter().map(|(m, _)| m.usi()).collect();
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), 30);
}
