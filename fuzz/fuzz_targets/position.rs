//! The position argument of `position`, `tree`, `perft` and the API (`startpos moves …`,
//! `sfen …`, a bare SFEN): an error, never a panic; a position read writes as an SFEN that
//! reads back to it.
#![no_main]

use kifudex::query::parse_position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = parse_position(&text) {
        let again = parse_position(&pos.to_sfen()).expect("its own SFEN reads");
        assert_eq!(again.to_sfen(), pos.to_sfen());
    }
    // As the moves after the start.
    let _ = parse_position(&format!("startpos moves {text}"));
});
