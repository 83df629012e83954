//! The JKF reader on arbitrary text. Nothing may panic; a record read without errors must
//! read back identically after `write_jkf`, keep its start and main line through USI, its
//! whole move tree (times aside) through PSN, and its main line through KIF (headers aside:
//! KIF cannot hold every key and value JSON can).
#![no_main]

use kifudex::notation::jkf::{read_jkf, write_jkf};
use kifudex::notation::kif::{read_kif, write_kif};
use kifudex::notation::psn::{read_psn, write_psn};
use kifudex::notation::usi::{read_usi_line, write_usi};
use kifudex::notation::{Line, Record};
use libfuzzer_sys::fuzz_target;

fn strip_times(line: &mut Line) {
    for m in &mut line.moves {
        m.time = None;
        m.variations.iter_mut().for_each(strip_times);
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
    if !rec.errors.is_empty() {
        return;
    }
    let again = read_jkf(&write_jkf(&rec)).expect("the writer's JKF reads");
    assert_eq!(again, rec);

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
    strip_times(&mut main);
    assert_eq!(psn[0].main, main);

    let mut bare = rec.clone();
    bare.headers.clear();
    let kif = read_kif(&write_kif(&bare));
    assert_eq!(kif.start, rec.start);
    assert_eq!(moves(&kif), moves(&rec));
});
