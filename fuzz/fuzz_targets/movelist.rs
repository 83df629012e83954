//! The plain move-list reader on arbitrary text. Nothing may panic; a list read without
//! errors must read back with the same start and moves from its list in every notation
//! kifudex reads (iroha is written only).
#![no_main]

use kifudex::notation::movelist::{Notation, read_move_list, write_move_list};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let game = read_move_list(&text);
    if !game.errors.is_empty() {
        return;
    }
    for n in Notation::ALL {
        let written = write_move_list(&game, n, true);
        if n == Notation::Iroha {
            continue;
        }
        let again = read_move_list(&written);
        assert_eq!(again.errors, [], "{}:\n{written}", n.name());
        assert_eq!(again.start, game.start, "{}", n.name());
        let moves = |r: &kifudex::notation::Record| -> Vec<_> {
            r.main.moves.iter().map(|m| m.mv).collect()
        };
        assert_eq!(moves(&again), moves(&game), "{}:\n{written}", n.name());
    }
});
