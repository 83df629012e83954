//! Evaluations read from arbitrary records: nothing may panic; they are one a ply, in order,
//! within the main line; every best move a variation gives is legal where it is played; and
//! the stored form gives back what it keeps of them.
#![no_main]

use kifudex::evals::stored::{StoredEval, decode, encode};
use kifudex::evals::{best_moves, read};
use kifudex::notation::read_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for game in read_bytes(data, None).games {
        let evals = read(&game);
        assert!(evals.windows(2).all(|w| w[0].ply < w[1].ply));
        assert!(evals.iter().all(|e| e.ply <= game.main.moves.len()));
        let mut positions = vec![game.start.clone()];
        for node in &game.main.moves {
            let mut next = positions[positions.len() - 1].clone();
            if next.play(node.mv).is_err() {
                break;
            }
            positions.push(next);
        }
        for (e, best) in evals.iter().zip(best_moves(&game, &evals)) {
            if let Some(mv) = best {
                assert!(positions[e.ply].is_legal(mv), "ply {}: {mv}", e.ply);
            }
        }
        let bytes = encode(&evals).expect("in ply order");
        let want: Vec<StoredEval> = evals.iter().map(StoredEval::of).collect();
        assert_eq!(decode(&bytes).expect("its own encoding"), want);
    }
});
