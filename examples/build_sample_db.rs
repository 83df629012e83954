//! Builds `sample_db/` from a folder of real records (the sample the README imports):
//!
//! `cargo run --release --example build_sample_db -- ../shared/corpus/files sample_db [--min N]`
//!
//! Every readable game with both players' names and at least twenty moves is kept once (same
//! start, moves, terminal and date = same game); its comments, engine lines and remarks are
//! dropped (their prose belongs to their authors), and only header facts are kept (players,
//! date, event, opening, handicap, time control, site). The games are written by kifudex
//! itself, spread round-robin over every format and encoding it reads (USI files hold no
//! headers), plus one multi-game CSA file. When fewer than `--min` (default 220) real games are found, generated games top
//! the collection up; their event says `(generated)`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use kifudex::notation::csa::{CsaVersion, write_csa, write_csa_games};
use kifudex::notation::kif::{write_ki2, write_kif};
use kifudex::notation::{Line, Record, jkf, psn, read_bytes, usi};
use kifudex::store::fingerprint;
use kifudex::synth::{Synth, SynthOptions};

/// Header keys that state facts (KIF and CSA spellings).
const FACT_KEYS: &[&str] = &[
    "開始日時",
    "終了日時",
    "対局日",
    "棋戦",
    "戦型",
    "手合割",
    "先手",
    "後手",
    "下手",
    "上手",
    "場所",
    "持ち時間",
    "N+",
    "N-",
    "$EVENT",
    "$SITE",
    "$START_TIME",
    "$END_TIME",
    "$OPENING",
    "$TIME_LIMIT",
    "EVENT",
    "SITE",
    "START_TIME",
    "END_TIME",
    "OPENING",
    "TIME_LIMIT",
];

/// Comments written for the sample (ours), put on a few games so that text search has
/// something to find.
const OWN_COMMENTS: &[&str] = &[
    "kifudex sample: 序盤の駒組みが終わったところ。",
    "kifudex sample: ここから攻め合いになる。",
    "kifudex sample: 中盤の分かれ目。",
];

/// The formats the sample is spread over: (directory, extension).
const OUTPUTS: &[(&str, &str)] = &[
    ("kif-sjis", "kif"),
    ("kifu-utf8", "kifu"),
    ("ki2-sjis", "ki2"),
    ("ki2u-utf8", "ki2u"),
    ("csa", "csa"),
    ("kif-eucjp", "kif"),
    ("jkf", "jkf"),
    ("psn", "psn"),
    ("usi", "usi"),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: build_sample_db SOURCE_DIR OUT_DIR [--min N]");
        std::process::exit(2);
    }
    let source = PathBuf::from(&args[0]);
    let out = PathBuf::from(&args[1]);
    let min: usize = args
        .iter()
        .position(|a| a == "--min")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(220);
    let mut files = Vec::new();
    walk(&source, &mut files);
    files.sort();
    let mut seen = HashSet::new();
    let mut games: Vec<Record> = Vec::new();
    for file in &files {
        let Ok(bytes) = std::fs::read(file) else {
            continue;
        };
        let read = read_bytes(&bytes, Some(file));
        for rec in read.games {
            if !rec.errors.is_empty()
                || rec.main.moves.len() < 20
                || rec.sente().is_none()
                || rec.gote().is_none()
            {
                continue;
            }
            if seen.insert(fingerprint(&rec, rec.date())) {
                games.push(facts_only(rec));
            }
        }
    }
    let real = games.len();
    let mut synth = Synth::new(SynthOptions {
        seed: 2026,
        comment_rate: 0.0,
        variation_rate: 0.0,
        ..SynthOptions::default()
    });
    while games.len() < min {
        games.push(synth.game());
    }
    for (i, rec) in games.iter_mut().enumerate().take(real) {
        if i % 15 == 3 && rec.main.moves.len() > 30 {
            rec.main.moves[24]
                .comments
                .push(OWN_COMMENTS[i % OWN_COMMENTS.len()].to_string());
        }
    }
    for (dir, _) in OUTPUTS {
        std::fs::create_dir_all(out.join(dir)).expect("create output directory");
    }
    // The last real games go together into one multi-game CSA file.
    let multi = 6.min(real);
    let (single, together) = games.split_at(games.len() - multi);
    for (i, rec) in single.iter().enumerate() {
        let (dir, ext) = OUTPUTS[i % OUTPUTS.len()];
        let name = format!("{i:03}-{}.{ext}", slug(rec));
        let bytes = match dir {
            "kif-sjis" => sjis(&write_kif(rec)),
            "kifu-utf8" => write_kif(rec).into_bytes(),
            "ki2-sjis" => sjis(&write_ki2(rec)),
            "ki2u-utf8" => write_ki2(rec).into_bytes(),
            "csa" => write_csa(rec, CsaVersion::V2_2).into_bytes(),
            "jkf" => jkf::write_jkf(rec).into_bytes(),
            "psn" => psn::write_psn(rec).into_bytes(),
            "usi" => (usi::write_usi(rec) + "\n").into_bytes(),
            _ => encoding_rs::EUC_JP.encode(&write_kif(rec)).0.into_owned(),
        };
        std::fs::write(out.join(dir).join(name), bytes).expect("write sample file");
    }
    if !together.is_empty() {
        std::fs::write(
            out.join("csa").join("several-games.csa"),
            write_csa_games(together, CsaVersion::V2_2),
        )
        .expect("write sample file");
    }
    println!(
        "{} games ({real} real, {} generated) from {} files into {}",
        games.len(),
        games.len() - real,
        files.len(),
        out.display()
    );
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The record with its comments, engine lines, remarks and non-fact headers dropped.
fn facts_only(mut rec: Record) -> Record {
    fn strip(line: &mut Line) {
        for m in &mut line.moves {
            m.comments.clear();
            m.engine.clear();
            m.bookmarks.clear();
            m.variations.clear();
        }
        if let Some(t) = &mut line.terminal {
            t.comments.clear();
        }
    }
    rec.headers.retain(|(k, _)| FACT_KEYS.contains(&k.as_str()));
    rec.start_comments.clear();
    rec.start_engine.clear();
    rec.start_bookmarks.clear();
    rec.notes.clear();
    strip(&mut rec.main);
    rec
}

/// A short ASCII-safe file name part from the players.
fn slug(rec: &Record) -> String {
    let name = |s: Option<&str>| -> String {
        s.unwrap_or("unknown")
            .chars()
            .filter(|c| c.is_alphanumeric())
            .take(8)
            .collect()
    };
    format!("{}-{}", name(rec.sente()), name(rec.gote()))
}

fn sjis(text: &str) -> Vec<u8> {
    encoding_rs::SHIFT_JIS.encode(text).0.into_owned()
}
