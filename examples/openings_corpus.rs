//! Compares the recognised openings with the labels the records' headers carry, over a
//! folder of records (default: the shared corpus beside the project), at family level.
//!
//! `cargo run --release --example openings_corpus [DIR]`

use std::path::{Path, PathBuf};

use kifudex::classify::{family, recognise_record, split_header};
use kifudex::notation::read_bytes;
use kifudex::shogi::Color;

const OPENING_HEADERS: [&str; 8] = [
    "戦型",
    "$OPENING",
    "OPENING",
    "Opening",
    "先手の戦型",
    "後手の戦型",
    "下手の戦型",
    "上手の戦型",
];
/// Per-side castle headers (SHOGI-EXTEND exports) and the side each names.
const CASTLE_HEADERS: [(&str, Color); 4] = [
    ("先手の囲い", Color::Black),
    ("下手の囲い", Color::Black),
    ("後手の囲い", Color::White),
    ("上手の囲い", Color::White),
];

fn main() {
    let root = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/files"));
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let (mut games, mut agree, mut castles, mut castles_agree) = (0, 0, 0, 0);
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let read = read_bytes(&bytes, Some(&path));
        for (i, game) in read.games.iter().enumerate() {
            let r = recognise_record(game);
            for (key, side) in CASTLE_HEADERS {
                for (_, v) in game.headers.iter().filter(|(k, _)| k == key) {
                    for name in split_header(v) {
                        castles += 1;
                        let fams: Vec<&str> = r
                            .side(side)
                            .filter(|i| i.kind == kifudex::classify::Kind::Castle)
                            .map(|i| family(i.name))
                            .collect();
                        if fams.contains(&family(&name)) {
                            castles_agree += 1;
                        } else {
                            println!(
                                "CASTLE {} {key} {name}: recognised {:?}",
                                path.strip_prefix(&root).unwrap_or(&path).display(),
                                r.side(side)
                                    .filter(|i| i.kind == kifudex::classify::Kind::Castle)
                                    .map(|i| format!("{}@{}", i.name, i.ply))
                                    .collect::<Vec<_>>()
                            );
                        }
                    }
                }
            }
            let labels: Vec<String> = game
                .headers
                .iter()
                .filter(|(k, _)| OPENING_HEADERS.contains(&k.trim_start_matches('\'').trim()))
                .flat_map(|(_, v)| split_header(v))
                .collect();
            if labels.is_empty() {
                continue;
            }
            games += 1;
            let mut mine: Vec<&str> = r
                .items
                .iter()
                .filter(|i| i.kind == kifudex::classify::Kind::Strategy)
                .map(|i| i.name)
                .collect();
            mine.extend(r.opening);
            let fams: Vec<&str> = mine.iter().map(|n| family(n)).collect();
            let ok = labels.iter().any(|l| fams.contains(&family(l)));
            if ok {
                agree += 1;
            } else {
                println!(
                    "DIFF {} #{i} ({} plies): header {:?} recognised {:?} sente {:?} gote {:?}",
                    path.strip_prefix(&root).unwrap_or(&path).display(),
                    game.main.moves.len(),
                    labels,
                    r.opening,
                    r.side(Color::Black)
                        .map(|i| format!("{}@{}", i.name, i.ply))
                        .collect::<Vec<_>>(),
                    r.side(Color::White)
                        .map(|i| format!("{}@{}", i.name, i.ply))
                        .collect::<Vec<_>>(),
                );
            }
        }
    }
    println!("castles: {castles_agree} of {castles} header castles recognised at family level");
    println!(
        "{agree} of {games} games agree at family level ({:.1}%)",
        100.0 * agree as f64 / games.max(1) as f64
    );
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else {
            out.push(p);
        }
    }
}
