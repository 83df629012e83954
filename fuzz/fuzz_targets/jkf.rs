//! The JKF reader on arbitrary text. Nothing may panic; a record read without errors must
//! read back identically after `write_jkf` (but for other formats' keys of the key table,
//! which become KIF's, and then stay), keep its start and main line through USI, its
//! whole move tree (times and engine lines aside: PSN has neither, and says so) through PSN,
//! and its main line through KIF (headers aside: KIF cannot hold every key and value JSON can).
#![no_main]

use kifudex::notation::headers::key_row;
use kifudex::notation::jkf::{read_jkf, write_jkf};
use kifudex::notation::kif::{read_kif, write_kif};
use kifudex::notation::psn::{read_psn, write_psn};
use kifudex::notation::usi::{read_usi_line, write_usi};
use kifudex::notation::{Line, Record};
use libfuzzer_sys::fuzz_target;

/// The line without what PSN cannot hold: times and engine lines.
fn strip_for_psn(line: &mut Line) {
    for m in &mut line.moves {
        m.time = None;
        m.engine.clear();
        m.variations.iter_mut().for_each(strip_for_psn);
    }
    if let Some(t) = &mut line.terminal {
        t.time = None;
    }
}

fn moves(r: &Record) -> Vec<String> {
    r.main.moves.iter().map(|m| m.mv.usi()).collect()
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(rec) = read_jkf(&text) else {
        return;
    };
    // Headers that repeat a JKF key are reported as not written (`Dropped::RepeatedHeaders`).
    if !rec.errors.is_empty() || kifudex::notation::jkf::repeated_headers(&rec) > 0 {
        return;
    }
    let again = read_jkf(&write_jkf(&rec)).expect("the writer's JKF reads");
    // Headers come back with their values, in order, each under its own key or, for a fact
    // of the key table read under another format's key (`$END_TIME`), under KIF's.
    assert_eq!(again.headers.len(), rec.headers.len());
    for ((k, v), (k0, v0)) in again.headers.iter().zip(&rec.headers) {
        assert_eq!(v, v0);
        let same_fact = key_row(k).is_some() && key_row(k) == key_row(k0);
        assert!(k == k0 || same_fact, "{k0} came back as {k}");
    }
    let mut same = again.clone();
    same.headers = rec.headers.clone();
    assert_eq!(same, rec);
    // Written again, the keys stay.
    let third = read_jkf(&write_jkf(&again)).expect("the writer's JKF reads");
    assert_eq!(third, again);

    let usi = read_usi_line(&write_usi(&rec), 1);
    assert_eq!(usi.errors, []);
    assert_eq!(usi.start, rec.start);
    assert_eq!(moves(&usi), moves(&rec));

    let psn = read_psn(&write_psn(&rec));
    assert_eq!(psn.len(), 1);
    assert_eq!(psn[0].errors, []);
    assert_eq!(psn[0].start, rec.start);
    assert_eq!(psn[0].start_comments, rec.start_comments);
    let mut main = rec.main.clone();
    strip_for_psn(&mut main);
    assert_eq!(psn[0].main, main);

    let mut bare = rec.clone();
    bare.headers.clear();
    let kif = read_kif(&write_kif(&bare));
    assert_eq!(kif.start, rec.start);
    assert_eq!(moves(&kif), moves(&rec));
});
