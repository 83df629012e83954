//! The pattern-search language and its evaluator on arbitrary input: the text up to the first
//! NUL byte is a query, and each byte after it picks one of the legal moves of a game played
//! from the even start (at most 200). Nothing may panic; a query that reads is said back in
//! words, and its first ply in the game is the first of the plies at which it holds; a query
//! that does not read points at a column within the text.
#![no_main]

use kifudex::find::{Compiled, explain, first_in, parse, plies_in};
use kifudex::shogi::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, moves) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let text = String::from_utf8_lossy(text);
    let query = match parse(&text) {
        Ok(q) => q,
        Err(e) => {
            assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{e}");
            let _ = e.pointer(&text);
            return;
        }
    };
    let _ = explain(&query);
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut line = Vec::new();
    for &b in moves.iter().take(200) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[b as usize % legal.len()];
        pos.play(mv).expect("a legal move plays");
        line.push(mv);
    }
    let q = Compiled::new(&query);
    let plies = plies_in(&q, &start, &line);
    assert_eq!(first_in(&q, &start, &line), plies.first().map(|r| r[0]), "{text}");
    for w in plies.windows(2) {
        assert!(w[0][1] + 1 < w[1][0], "ranges apart and in order: {plies:?}");
    }
});
