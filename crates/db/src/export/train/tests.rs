use super::*;
use kifudex_shogi::Position;

/// Sente opens, gote answers, sente takes the bishop and gote the horse; sente resigns. The
/// Floodgate engine lines evaluate the position after each move from sente's side, and their
/// variations begin with the reply: at ply 2 the engine prefers 2g2f to the 8h2b+ played.
const GAME: &str = "V2.2
N+Alice
N-Bob
PI
+
+7776FU
'** 50 -3334FU +2726FU
-3334FU
'** 40 +2726FU
+8822UM
'** 900 -3122GI
-3122GI
%TORYO
";

fn record() -> Record {
    let mut read = kifudex_notation::read_bytes(GAME.as_bytes(), None);
    assert!(read.error.is_none());
    read.games.remove(0)
}

fn position_at(ply: usize) -> Position {
    let mut pos = Position::startpos();
    for m in ["7g7f", "3c3d", "8h2b+", "3a2b"].iter().take(ply) {
        pos.play(Move::from_usi(m).unwrap()).unwrap();
    }
    pos
}

fn i16_at(b: &[u8], i: usize) -> i16 {
    i16::from_le_bytes([b[i], b[i + 1]])
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn mv(s: &str) -> Move {
    Move::from_usi(s).unwrap()
}

#[test]
fn hcpe_records_hold_the_position_the_engine_move_the_eval_and_the_result() {
    let rec = record();
    assert_eq!(rec.result(), GameResult::Win(Color::White));
    let opts = TrainOptions::new(TrainFormat::Hcpe, PathBuf::new());
    let g = game_items(&rec, rec.result(), false, &opts);
    // The last position has no move to learn: four records.
    assert_eq!(g.items.len(), 4);
    let want = [
        // (ply, eval from the side to move, move)
        (0, 0, "7g7f"),
        (1, -50, "3c3d"),
        (2, 40, "2g2f"),
        (3, -900, "3a2b"),
    ];
    for (item, (ply, eval, m)) in g.items.iter().zip(want) {
        let b = &item.bytes[..38];
        let pos = position_at(ply);
        assert_eq!(
            b[..32],
            pack::pack(&pos, Packing::Hcp).unwrap(),
            "ply {ply}"
        );
        assert_eq!(item.hash, pos.hash());
        assert_eq!(i16_at(b, 32), eval, "ply {ply}");
        assert_eq!(u16_at(b, 34), pack::hcpe_move(mv(m)), "ply {ply}");
        // Gote won, whoever is to move.
        assert_eq!(b[36], 2);
        assert_eq!(b[37], 0);
        assert_eq!(item.evaluated, ply > 0);
        assert_eq!(item.engine_move, ply == 2);
    }
}

#[test]
fn psv_records_give_the_result_and_the_ply_from_the_side_to_move() {
    let rec = record();
    let mut opts = TrainOptions::new(TrainFormat::Psv, PathBuf::new());
    opts.played_moves = true;
    let g = game_items(&rec, rec.result(), false, &opts);
    assert_eq!(g.items.len(), 4);
    let played = ["7g7f", "3c3d", "8h2b+", "3a2b"];
    for (ply, item) in g.items.iter().enumerate() {
        let b = &item.bytes;
        assert_eq!(
            b[..32],
            pack::pack(&position_at(ply), Packing::PackedSfen).unwrap()
        );
        assert_eq!(u16_at(b, 34), pack::psv_move(mv(played[ply])), "ply {ply}");
        assert_eq!(u16_at(b, 36), ply as u16 + 1, "gamePly counts from 1");
        // Sente (to move at even plies) lost.
        let result = if ply % 2 == 0 { -1 } else { 1 };
        assert_eq!(b[38] as i8, result, "ply {ply}");
        assert_eq!(b[39], 0);
        assert!(!item.engine_move);
    }
    assert_eq!(i16_at(&g.items[3].bytes, 32), -900);
}

#[test]
fn the_ply_range_and_the_evaluated_positions_select_records() {
    let rec = record();
    let mut opts = TrainOptions::new(TrainFormat::Hcpe, PathBuf::new());
    opts.min_ply = 1;
    opts.max_ply = Some(2);
    let g = game_items(&rec, rec.result(), false, &opts);
    let hashes: Vec<u64> = g.items.iter().map(|i| i.hash).collect();
    assert_eq!(hashes, [position_at(1).hash(), position_at(2).hash()]);
    assert_eq!(game_hashes(&rec, &opts).len(), 2);

    let mut opts = TrainOptions::new(TrainFormat::Hcpe, PathBuf::new());
    opts.evaluated_only = true;
    let g = game_items(&rec, rec.result(), false, &opts);
    assert_eq!(g.items.len(), 3);
    assert_eq!(g.unevaluated, 1);
}

#[test]
fn a_game_without_a_result_is_left_out_unless_asked() {
    let rec = record();
    let opts = TrainOptions::new(TrainFormat::Hcpe, PathBuf::new());
    let g = game_items(&rec, GameResult::Unknown, false, &opts);
    assert!(g.no_result && g.items.is_empty());
    let mut opts = opts;
    opts.keep_unknown_results = true;
    let g = game_items(&rec, GameResult::Unknown, false, &opts);
    assert_eq!(g.items.len(), 4);
    assert!(g.items.iter().all(|i| i.bytes[36] == 0));
}

#[test]
fn positions_in_check_and_after_an_illegal_move_are_left_out() {
    // B*1e checks the king on 5a along 2d-3c-4b (ply 5, gote in check); the gold blocks;
    // 1e4b takes it and checks again (ply 7); gote ignores the check with 9c9d, illegal.
    let text = "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*1e 4a4b 1e4b 9c9d\n";
    let mut read = kifudex_notation::read_bytes(text.as_bytes(), None);
    let rec = read.games.remove(0);
    assert_eq!(rec.main.moves.len(), 8, "{:?}", rec.errors);
    let mut opts = TrainOptions::new(TrainFormat::Hcpe, PathBuf::new());
    let all = game_items(&rec, GameResult::Draw, false, &opts);
    assert!(all.cut);
    // Plies 0 to 6; ply 7's move is the illegal one.
    assert_eq!(all.items.len(), 7);
    assert_eq!(all.in_check, 0);
    opts.skip_check = true;
    let some = game_items(&rec, GameResult::Draw, false, &opts);
    assert_eq!(some.items.len(), 6);
    assert_eq!(some.in_check, 1);
    let mut after = Position::startpos();
    for m in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*1e"] {
        after.play(mv(m)).unwrap();
    }
    assert!(after.in_check());
    assert!(some.items.iter().all(|i| i.hash != after.hash()));
}
