//! SFEN reading and writing: whatever `from_sfen_with` accepts must be written back by
//! `to_sfen` as text that reads to the same position, with consistent hashes.

#![no_main]

use kifudex::shogi::{Position, Strictness};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut full_ok = false;
    for strictness in [Strictness::Full, Strictness::PiecesOnly] {
        let Ok(p) = Position::from_sfen_with(&text, strictness) else {
            // Anything Full accepts, the laxer PiecesOnly must accept too.
            assert!(!full_ok, "Full accepted but PiecesOnly rejected {text:?}");
            continue;
        };
        if strictness == Strictness::Full {
            full_ok = true;
        }
        let sfen = p.to_sfen();
        assert_eq!(
            Position::from_sfen_with(&sfen, strictness),
            Ok(p.clone()),
            "round trip through {sfen:?} ({strictness:?}) of {text:?}"
        );
        assert_eq!(
            p.compute_keys(),
            (p.board_hash(), p.hash() ^ p.board_hash()),
            "stored keys differ from recomputed ones for {sfen:?}"
        );
    }
});
