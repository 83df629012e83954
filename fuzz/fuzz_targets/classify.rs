//! Recognition of openings and castles on arbitrary records: nothing may panic, and a game
//! recognised from its row (its moves as the database holds them, which is what the importer
//! recognises) is recognised as from its record.
#![no_main]

use kifudex::classify::recognise_record;
use kifudex::notation::{Format, read_bytes};
use kifudex::store::GameRow;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for game in read_bytes(data, None).games {
        let want = recognise_record(&game);
        let mut row = GameRow::from_record(game, Format::Kif, false);
        row.recognise();
        assert_eq!(row.recognised.as_ref(), Some(&want));
    }
});
