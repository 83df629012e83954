//! The PSN reader on arbitrary text. Nothing may panic; a game read without errors must
//! read back as one game with the same start, comments and move tree after `write_psn`,
//! keep its main line through KIF (headers aside: tags can be anything), and keep its
//! record whole through JKF (headers aside: PSN keys are renamed).
#![no_main]

use kifudex::notation::jkf::{read_jkf, write_jkf};
use kifudex::notation::kif::{read_kif, write_kif};
use kifudex::notation::psn::{read_psn, write_psn};
use kifudex::notation::{Line, Record};
use libfuzzer_sys::fuzz_target;

/// Comments that start with `*` moved to the engine lines before the others, as the JKF
/// reader takes them back.
fn star_to_engine(comments: &mut Vec<String>, engine: &mut Vec<String>) {
    let (star, plain): (Vec<String>, Vec<String>) =
        comments.drain(..).partition(|c| c.starts_with('*'));
    *comments = plain;
    let mut moved: Vec<String> = star.into_iter().map(|c| c[1..].to_string()).collect();
    moved.append(engine);
    *engine = moved;
}

fn line_as_jkf_reads(line: &mut Line) {
    for node in &mut line.moves {
        star_to_engine(&mut node.comments, &mut node.engine);
        for v in &mut node.variations {
            line_as_jkf_reads(v);
        }
    }
}

fn as_jkf_reads(game: &Record) -> Record {
    let mut g = game.clone();
    star_to_engine(&mut g.start_comments, &mut g.start_engine);
    line_as_jkf_reads(&mut g.main);
    g
}

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

        // JKF (as KIF) writes engine lines as comments starting with `*`: a comment that
        // starts with `*` itself (PSN's `;*`) comes back as an engine line. Compared as
        // written, the record is the same.
        let jkf = read_jkf(&write_jkf(&game)).expect("the writer's JKF reads");
        assert_eq!(jkf.errors, []);
        let written = as_jkf_reads(&game);
        assert_eq!(jkf.main, written.main);
        assert_eq!(jkf.start_comments, written.start_comments);
        assert_eq!(jkf.start_engine, written.start_engine);

        let mut bare = game.clone();
        bare.headers.clear();
        let kif = read_kif(&write_kif(&bare));
        let moves = |r: &kifudex::notation::Record| -> Vec<String> {
            r.main.moves.iter().map(|m| m.mv.usi()).collect()
        };
        assert_eq!(moves(&kif), moves(&game));
    }
});
