//! Playing moves: from a position (the input's first line as SFEN, read with
//! `Strictness::PiecesOnly`, or the start position), play the rest of the input as 16-bit
//! move codes, as USI move text, and as choices among the legal moves. After every move
//! played, the incrementally kept hashes must equal a full recomputation, the SFEN must
//! read back to the same position, and the transforms and move generation must hold up.

#![no_main]

use kifudex::shogi::{Move, Position, Strictness};
use libfuzzer_sys::fuzz_target;

/// Moves played per phase at most, so that long inputs stay fast.
const MAX_PLIES: usize = 256;

fuzz_target!(|data: &[u8]| {
    let (start, rest) = start_position(data);
    // Move generation is most of the cost, so each phase keeps the legal moves of its
    // current position and recomputes them only after a move is played.
    let start_moves = start.legal_moves();

    // Phase 1: the bytes as little-endian u16 move codes.
    let (mut pos, mut moves) = (start.clone(), start_moves.clone());
    for pair in data_pairs(rest).take(MAX_PLIES) {
        let code = u16::from_le_bytes(pair);
        if let Some(mv) = Move::from_u16(code) {
            assert_eq!(Move::from_u16(mv.to_u16()), Some(mv), "u16 code of {mv:?}");
            if let Some((_, after)) = try_play(&mut pos, &moves, mv) {
                moves = after;
            }
        }
    }

    // Phase 2: the bytes as whitespace-separated USI move text.
    let (mut pos, mut moves) = (start.clone(), start_moves.clone());
    let text = String::from_utf8_lossy(rest);
    for token in text.split_ascii_whitespace().take(MAX_PLIES) {
        if let Ok(mv) = Move::from_usi(token) {
            assert_eq!(Move::from_usi(&mv.usi()), Ok(mv), "USI text of {mv:?}");
            if let Some((_, after)) = try_play(&mut pos, &moves, mv) {
                moves = after;
            }
        }
    }

    // Phase 3: each byte picks one of the legal moves, so that games go deep.
    let (mut pos, mut moves) = (start, start_moves);
    for &b in rest.iter().take(MAX_PLIES) {
        if moves.is_empty() {
            break;
        }
        let mv = moves[b as usize % moves.len()];
        let Some((true, after)) = try_play(&mut pos, &moves, mv) else {
            panic!("legal_moves() gave {mv} but play() refused it or reported a broken rule");
        };
        moves = after;
    }
});

/// The position on the input's first line if it reads (PiecesOnly) and the bytes after it;
/// otherwise the start position and the whole input.
fn start_position(data: &[u8]) -> (Position, &[u8]) {
    if let Some(nl) = data.iter().position(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(&data[..nl]);
        if let Ok(p) = Position::from_sfen_with(&line, Strictness::PiecesOnly) {
            return (p, &data[nl + 1..]);
        }
    }
    (Position::startpos(), data)
}

fn data_pairs(bytes: &[u8]) -> impl Iterator<Item = [u8; 2]> + '_ {
    bytes.chunks_exact(2).map(|c| [c[0], c[1]])
}

/// Plays `mv` on `pos`, whose legal moves are `moves`, and checks the position afterwards.
/// `None` when the move was refused; when it was played, whether it was legal and the
/// legal moves of the new position.
fn try_play(pos: &mut Position, moves: &[Move], mv: Move) -> Option<(bool, Vec<Move>)> {
    let before = pos.clone();
    // Whether the move is legal, as move generation sees it.
    let generated = moves.contains(&mv);
    match pos.play(mv) {
        Err(e) => {
            assert_eq!(
                *pos, before,
                "play({mv}) failed ({e}) but changed the position"
            );
            assert!(
                !generated,
                "legal_moves() has {mv} but play() refused it: {e}"
            );
            None
        }
        Ok(violations) => {
            assert_eq!(
                violations.is_empty(),
                generated,
                "play({mv}) on {} reported {:?}, but legal_moves() {} it",
                before.to_sfen(),
                violations.iter().collect::<Vec<_>>(),
                if generated { "has" } else { "lacks" },
            );
            Some((violations.is_empty(), check(pos)))
        }
    }
}

/// Checks a position reached by a move; returns its legal moves.
fn check(p: &Position) -> Vec<Move> {
    assert_eq!(
        p.compute_keys(),
        (p.board_hash(), p.hash() ^ p.board_hash()),
        "incremental hash differs from a full recomputation in {}",
        p.to_sfen()
    );
    let sfen = p.to_sfen();
    assert_eq!(
        Position::from_sfen_with(&sfen, Strictness::PiecesOnly).as_ref(),
        Ok(p),
        "SFEN round trip of {sfen}"
    );
    let moves = p.legal_moves();
    let in_check = p.in_check();
    let mate = p.is_checkmate();
    assert_eq!(
        mate,
        in_check && moves.is_empty(),
        "is_checkmate() in {sfen}"
    );
    let m = p.mirror();
    assert_eq!(m.mirror(), *p, "mirror twice in {sfen}");
    let f = p.flip();
    assert_eq!(f.flip(), *p, "flip twice in {sfen}");
    // The transforms keep their stored hashes consistent too.
    for t in [&m, &f] {
        assert_eq!(
            t.compute_keys(),
            (t.board_hash(), t.hash() ^ t.board_hash()),
            "transformed position's keys in {sfen}"
        );
    }
    moves
}
