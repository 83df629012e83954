//! Compares the recognised openings with the labels the records' headers carry, over a
//! folder of records (default: the shared corpus beside the project): the game's label
//! against the game-level header (戦型, CSA's $OPENING) at family level, and each side's
//! names against the per-side headers of SHOGI-EXTEND's exports (先手の戦型, 先手の囲い…).
//! Every disagreement is listed with the moves' label, the reason and each side's names.
//!
//! `cargo run --release --example openings_corpus [DIR]`

use std::path::{Path, PathBuf};

use kifudex::classify::{Kind, family, names, recognise_record, split_header};
use kifudex::notation::read_bytes;
use kifudex::shogi::Color;

/// The headers that name the game's opening.
const GAME_HEADERS: [&str; 4] = ["戦型", "$OPENING", "OPENING", "Opening"];
/// Per-side headers (SHOGI-EXTEND exports): the side and the kind each names.
const SIDE_HEADERS: [(&str, Color, Kind); 12] = [
    ("先手の戦型", Color::Black, Kind::Strategy),
    ("先手の戦法", Color::Black, Kind::Strategy),
    ("下手の戦型", Color::Black, Kind::Strategy),
    ("後手の戦型", Color::White, Kind::Strategy),
    ("後手の戦法", Color::White, Kind::Strategy),
    ("上手の戦型", Color::White, Kind::Strategy),
    ("先手の囲い", Color::Black, Kind::Castle),
    ("下手の囲い", Color::Black, Kind::Castle),
    ("後手の囲い", Color::White, Kind::Castle),
    ("上手の囲い", Color::White, Kind::Castle),
    ("*▲戦型", Color::Black, Kind::Strategy),
    ("*△戦型", Color::White, Kind::Strategy),
];
/// Games shorter than this have no opening to name.
const MIN_PLIES: usize = 20;

fn main() {
    let root = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/files"));
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let (mut games, mut agree, mut short) = (0, 0, 0);
    let (mut side_names, mut side_known, mut side_agree) = (0, 0, 0);
    // Some games are in a folder twice, in two formats: each counts once.
    let (mut seen, mut twice) = (std::collections::HashSet::new(), 0);
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let shown = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for (i, game) in read_bytes(&bytes, Some(&path)).games.iter().enumerate() {
            let moves: Vec<_> = game.main.moves.iter().map(|m| m.mv).collect();
            if !seen.insert((game.start.to_sfen(), moves)) {
                twice += 1;
                continue;
            }
            let r = recognise_record(game);
            let names_of = |side: Color, kind: Kind| -> Vec<String> {
                r.side(side)
                    .filter(|i| i.kind == kind)
                    .map(|i| format!("{}@{}", i.name, i.ply))
                    .collect()
            };
            for (key, side, kind) in SIDE_HEADERS {
                for (_, v) in game.headers.iter().filter(|(k, _)| k == key) {
                    for name in split_header(v) {
                        side_names += 1;
                        if names::about(&name).is_none() {
                            println!("SIDE {shown} #{i} {key} {name}: not a name kifudex knows");
                            continue;
                        }
                        side_known += 1;
                        let fams: Vec<&str> = r.side(side).map(|i| family(i.name)).collect();
                        if r.has(side, &name) || fams.contains(&family(&name)) {
                            side_agree += 1;
                        } else {
                            println!(
                                "SIDE {shown} #{i} {key} {name}: recognised {:?}",
                                names_of(side, kind)
                            );
                        }
                    }
                }
            }
            let labels: Vec<String> = game
                .headers
                .iter()
                .filter(|(k, _)| GAME_HEADERS.contains(&k.trim_start_matches('\'').trim()))
                .flat_map(|(_, v)| split_header(v))
                .collect();
            if labels.is_empty() {
                continue;
            }
            if game.main.moves.len() < MIN_PLIES {
                short += 1;
                continue;
            }
            games += 1;
            let mine = family(r.opening.unwrap_or_default());
            if labels.iter().any(|l| family(l) == mine) {
                agree += 1;
            } else {
                println!(
                    "DIFF {shown} #{i} ({} plies): header {labels:?}, moves {:?}\n     {}\n     sente {:?}\n     gote {:?}",
                    game.main.moves.len(),
                    r.opening,
                    r.reason.map(|x| x.to_string()).unwrap_or_default(),
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
    println!(
        "per-side headers: {side_names} names, {side_known} known to kifudex, {side_agree} of them recognised for their side (or a name of their family)"
    );
    println!(
        "{agree} of {games} labelled games of {MIN_PLIES} plies or more agree at family level ({:.1}%); {short} shorter ones left out, {twice} games met a second time (another format) counted once",
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
