//! The USI record reader on arbitrary text. Nothing may panic; a game read without errors
//! must read back with the same start and moves after `write_usi`, and through KIF.
#![no_main]

use kifudex::notation::kif::{read_kif, write_kif};
use kifudex::notation::usi::{read_usi, read_usi_line, write_usi};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for game in read_usi(&text) {
        if !game.errors.is_empty() {
            continue;
        }
        let again = read_usi_line(&write_usi(&game), 1);
        assert_eq!(again.errors, []);
        assert_eq!(again.start, game.start);
        assert_eq!(again.main, game.main);
        let kif = read_kif(&write_kif(&game));
        assert_eq!(kif.errors, []);
        assert_eq!(
            kif.start.to_sfen().rsplit_once(' ').map(|s| s.0),
            game.start.to_sfen().rsplit_once(' ').map(|s| s.0)
        );
        assert_eq!(kif.main, game.main);
    }
});
