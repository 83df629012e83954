//! The record readers on arbitrary bytes: decoding, format detection, reading in every
//! format. Nothing may panic; and a KIF or KI2 game read without errors must read back
//! identically after being written as KIF (and as KI2 for KI2 input).
#![no_main]

use kifudex::notation::kif::{read_ki2, read_kif, write_ki2, write_kif};
use kifudex::notation::{Format, read_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let file = read_bytes(data, None);
    // Both dialects on the same text, whatever the detection said.
    let text = String::from_utf8_lossy(data);
    let _ = read_kif(&text);
    let _ = read_ki2(&text);
    // The KIF round trip is for KIF and KI2 input; CSA, JKF, USI and PSN records have their own
    // targets (CSA times may hold fractions, their headers what KIF cannot).
    if !matches!(file.format, Some(Format::Kif | Format::Ki2)) {
        return;
    }
    for game in &file.games {
        if !game.errors.is_empty() {
            continue;
        }
        let again = read_kif(&write_kif(game));
        assert_eq!(again.errors, []);
        assert_eq!(&again.main, &game.main);
        assert_eq!(again.start, game.start);
        if file.format == Some(Format::Ki2) {
            let again = read_ki2(&write_ki2(game));
            assert_eq!(&again.main, &game.main);
        }
    }
});
