//! `kifudex find` against a brute-force replay of every game: random queries (from a seeded
//! generator, over every construct of the language) are written as text in Japanese or
//! English and run through the library, and each is also interpreted by this test's own
//! simple reading of its conditions on every position of every game; both must give the same
//! games and plies. `--like` is checked the same way, and the command's output on a small
//! collection.

mod brute;
mod cli;
mod errors;
mod like;
mod parse;
mod queries;

use std::path::{Path, PathBuf};

use kifudex::classify::{self, Recognised};
use kifudex::notation::kif::write_kif;
use kifudex::notation::read_bytes;
use kifudex::shogi::{Color, Move, Piece, Position};
use kifudex::synth::{Synth, SynthOptions};

use crate::util::{Rng, import_and_list};

/// Records written for these tests: castles built and then left, drops, promotions.
pub(crate) const OWN: &[(&str, &str)] = &[
    // Sente: 舟囲い (K78 G69 G58) after ply 5; gote: 金無双 (K72 G52 G62) after ply 8; then
    // sente's king walks away (ply 11) and the 舟囲い is gone.
    (
        "castles.usi",
        "startpos moves 5i6h 5a6b 6h7h 6b7b 4i5h 4a5b 7g7f 6a6b 3g3f 3c3d 7h6h 8c8d\n",
    ),
    // Sente: 居飛車穴熊 (K99 L98 S88) at ply 15.
    (
        "anaguma.usi",
        "startpos moves 7g7f 3c3d 8h7g 8c8d 9i9h 8d8e 5i6h 5c5d 6h7h 6c6d 7h8h 1c1d 8h9i 9c9d 7i8h 2c2d\n",
    ),
    // A bishop exchange (ply 3), a bishop dropped with check (ply 7), a pawn dropped
    // (ply 14) and taken by a promoting rook (ply 15).
    (
        "drops.usi",
        "startpos moves 7g7f 3c3d 8h2b+ 3a2b 2g2f 5a4b B*1e 4b5b 2f2e 6a6b 2e2d 2c2d 2h2d P*2c 2d2c+\n",
    ),
];

/// One game as the brute force sees it: every position, the move into it (the piece moved
/// and the piece taken), what was recognised.
pub(crate) struct Game {
    pub id: i64,
    pub positions: Vec<Position>,
    pub moves: Vec<(Move, Piece, Option<Piece>)>,
    pub recognised: Recognised,
}

pub(crate) fn write_collection(files: &Path, games: usize, seed: u64) {
    std::fs::create_dir_all(files.join("synth")).unwrap();
    let mut synth = Synth::new(SynthOptions {
        seed,
        comment_rate: 0.0,
        ..SynthOptions::default()
    });
    for i in 0..games {
        let text = write_kif(&synth.game());
        std::fs::write(files.join("synth").join(format!("g{i:04}.kifu")), text).unwrap();
    }
    for (name, text) in OWN {
        std::fs::write(files.join(name), text).unwrap();
    }
}

/// Imports the collection and replays every game.
pub(crate) fn build(dir: &Path, games: usize) -> (PathBuf, Vec<Game>) {
    let files = dir.join("files");
    write_collection(&files, games, 11);
    let db = dir.join("db");
    let rows = import_and_list(&db, &files);
    let mut out = Vec::new();
    for r in rows {
        let path = r["file"].as_str().unwrap();
        let read = read_bytes(&std::fs::read(path).unwrap(), Some(Path::new(path)));
        let rec = &read.games[r["game_index"].as_u64().unwrap() as usize];
        let mut pos = rec.start.clone();
        let mut positions = vec![pos.clone()];
        let mut moves = Vec::new();
        for node in &rec.main.moves {
            let mv = node.mv;
            let (piece, taken) = match mv {
                Move::Board { from, to, .. } => (pos.piece_at(from).unwrap(), pos.piece_at(to)),
                Move::Drop { kind, .. } => (Piece::new(pos.side_to_move(), kind), None),
            };
            pos.play(mv).expect("a stored move plays");
            positions.push(pos.clone());
            moves.push((mv, piece, taken));
        }
        out.push(Game {
            id: r["id"].as_i64().unwrap(),
            recognised: classify::recognise(&rec.start, rec.main.moves.iter().map(|m| m.mv)),
            positions,
            moves,
        });
    }
    assert_eq!(out.len(), games + OWN.len());
    (db, out)
}

/// A side at random.
pub(crate) fn side_of(rng: &mut Rng) -> Color {
    if rng.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    }
}
