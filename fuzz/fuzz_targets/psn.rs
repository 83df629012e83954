//! The PSN reader on arbitrary text. Nothing may panic; a game read without errors must
//! read back as one game with the same start, comments and move tree after `write_psn`,
//! keep its main line through KIF (headers aside: tags can be anything), and keep its
//! record whole through JKF (headers aside: PSN keys are renamed).
#![no_main]

use kifudex::notation::jkf::{read_jkf, write_jkf};
use kifudex::notation::kif::{read_kif, write_kif};
use kifudex::notation::psn::{read_psn, write_psn};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for game in read_psn(&text) {
        if !game.errors.is_empty() {
            continue;
        }
        let again = read_psn(&write_psn(&game));
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].errors, []);
        assert_eq!(again[0].start, game.start);
        assert_eq!(again[0].start_comments, game.start_comments);
        assert_eq!(again[0].main, game.main);

        let jkf = read_jkf(&write_jkf(&game)).expect("the writer's JKF reads");
        assert_eq!(jkf.errors, []);
        assert_eq!(jkf.main, game.main);
        assert_eq!(jkf.start_comments, game.start_comments);

        let mut bare = game.clone();
        bare.headers.clear();
        let kif = read_kif(&write_kif(&bare));
        let moves = |r: &kifudex::notation::Record| -> Vec<String> {
            r.main.moves.iter().map(|m| m.mv.usi()).collect()
        };
        assert_eq!(moves(&kif), moves(&game));
    }
});
