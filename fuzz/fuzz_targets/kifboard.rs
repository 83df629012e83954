//! KIF board diagrams (BOD): the input stands where a record's diagram stands, between its
//! headers and its moves. Nothing may panic; a game read without errors writes as KIF and
//! reads back from the same start.
#![no_main]

use kifudex::notation::kif::{read_kif, write_kif};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let board = String::from_utf8_lossy(data);
    let text = format!("先手：甲\n後手：乙\n{board}\n手数----指手---------消費時間--\n");
    let game = read_kif(&text);
    if game.errors.is_empty() {
        let again = read_kif(&write_kif(&game));
        assert_eq!(again.start, game.start);
        assert_eq!(again.main.moves.len(), game.main.moves.len());
    }
});
