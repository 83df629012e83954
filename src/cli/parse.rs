//! `kifudex parse`: read records without a database and print one JSON object per game.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::Args;
use kifudex::notation::{Record, read_bytes};
use serde_json::{Value, json};

#[derive(Args, Debug)]
pub struct ParseArgs {
    /// Also print the SFEN of every main-line position (before the first move and after each).
    #[arg(long)]
    positions: bool,
    /// The record files to read (`-`: standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
}

/// Prints every game of every file; returns whether every file was read without error.
pub fn run(args: &ParseArgs) -> Result<bool> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut all_ok = true;
    for file in &args.files {
        let bytes = match super::read_input(file) {
            Ok(b) => b,
            Err(e) => {
                all_ok = false;
                let obj = json!({"file": file, "game_index": 0, "error": format!("cannot read the file: {e}")});
                writeln!(out, "{obj}")?;
                continue;
            }
        };
        let read = read_bytes(&bytes, Some(Path::new(file)));
        if let Some(error) = &read.error {
            all_ok = false;
            let obj = json!({
                "file": file, "game_index": 0,
                "format": read.format.map(|f| f.name()),
                "encoding": read.encoding.name(),
                "error": error,
            });
            writeln!(out, "{obj}")?;
            continue;
        }
        for (index, game) in read.games.iter().enumerate() {
            if game.has_errors() {
                all_ok = false;
            }
            let mut obj = json!({
                "file": file,
                "game_index": index,
                "format": read.format.map(|f| f.name()),
                "encoding": read.encoding.name(),
            });
            if let (Value::Object(map), Value::Object(game)) =
                (&mut obj, game_json(game, args.positions))
            {
                map.extend(game);
            }
            writeln!(out, "{obj}")?;
        }
    }
    Ok(all_ok)
}

fn game_json(game: &Record, positions: bool) -> Value {
    let headers: serde_json::Map<String, Value> = game
        .headers
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    let moves: Vec<String> = game.main.moves.iter().map(|m| m.mv.usi()).collect();
    let mut obj = json!({
        "headers": headers,
        "sente": game.sente(),
        "gote": game.gote(),
        "event": game.event(),
        "opening": game.opening(),
        "start_time": game.start_time(),
        "handicap": game.handicap().kif_name(),
        "start_sfen": game.start.to_sfen(),
        "moves": moves,
        "terminal": game.terminal().map(|t| t.code()),
        "winner": game.result().code(),
        "variations": game.main.variation_count(),
        "comments": game.start_comments.len() + game.main.comment_count(),
        "engine_lines": game.start_engine.len() + game.main.engine_line_count(),
        "notes": game.notes.len(),
        "incomplete": game.incomplete,
        "illegal": game.first_illegal().map(|(ply, rule)| json!({"ply": ply, "rule": rule.code()})),
        "errors": problems(game, false),
        "warnings": problems(game, true),
        "recognised": recognised_json(game, &kifudex::classify::recognise_record(game)),
        "evals": evals_json(game),
        "error": Value::Null,
    });
    if positions && let Value::Object(map) = &mut obj {
        let mut p = game.start.clone();
        let mut list = vec![p.to_sfen()];
        for node in &game.main.moves {
            let _ = p.play(node.mv);
            list.push(p.to_sfen());
        }
        map.insert("positions".into(), json!(list));
    }
    obj
}

/// The `recognised` object: the game's label and why, and each side's strategies and
/// castles with the ply each first held at and the move that completed it (USI and
/// Japanese).
pub fn recognised_json(rec: &Record, r: &kifudex::classify::Recognised) -> Value {
    use kifudex::shogi::Color;
    let japanese = completing_moves(rec, r);
    let side = |c: Color| {
        r.side(c)
            .map(|i| {
                json!({
                    "kind": i.kind.code(), "name": i.name, "ply": i.ply,
                    "move": i.mv.usi(),
                    "move_japanese": japanese.get(&i.ply),
                })
            })
            .collect::<Vec<_>>()
    };
    json!({
        "opening": r.opening,
        "reason": r.reason.map(|x| x.to_string()),
        "sente": side(Color::Black),
        "gote": side(Color::White),
    })
}

/// The Japanese text (`☗６八飛`) of the moves at the plies where something was recognised,
/// by ply.
pub fn completing_moves(
    rec: &Record,
    r: &kifudex::classify::Recognised,
) -> std::collections::BTreeMap<u32, String> {
    let plies: std::collections::BTreeSet<u32> = r.items.iter().map(|i| i.ply).collect();
    let mut out = std::collections::BTreeMap::new();
    let Some(&last) = plies.last() else {
        return out;
    };
    let mut pos = rec.start.clone();
    for (i, node) in rec.main.moves.iter().enumerate().take(last as usize) {
        let ply = i as u32 + 1;
        if plies.contains(&ply) {
            out.insert(
                ply,
                kifudex::notation::movetext::japanese(&pos, node.mv, None),
            );
        }
        if pos.play(node.mv).is_err() {
            break;
        }
    }
    out
}

/// The evaluations the record's engine comments carry, one object a ply: `value` and `mate`
/// from sente's point of view (`mate` a signed distance in plies; a mate whose distance the
/// record does not give has both null and `mate_for` naming the winner), `best` the engine's
/// preferred move there when its variation can be read.
fn evals_json(game: &Record) -> Vec<Value> {
    let evals = kifudex::evals::read(game);
    if evals.is_empty() {
        return Vec::new();
    }
    let best = kifudex::evals::best_moves(game, &evals);
    evals
        .iter()
        .zip(best)
        .map(|(e, best)| {
            let mut obj = json!({
                "ply": e.ply,
                "value": e.score.value(),
                "mate": e.score.mate(),
                "depth": e.depth,
                "source": e.source.code(),
                "best": best.map(|m| m.usi()),
            });
            if let (None, Some(winner), Value::Object(map)) =
                (e.score.mate(), e.score.mate_winner(), &mut obj)
            {
                let side = if winner == kifudex::shogi::Color::Black {
                    "sente"
                } else {
                    "gote"
                };
                map.insert("mate_for".into(), json!(side));
            }
            obj
        })
        .collect()
}

/// The game's errors, or its warnings, as JSON objects.
fn problems(game: &Record, warnings: bool) -> Vec<Value> {
    game.errors
        .iter()
        .filter(|e| e.is_warning() == warnings)
        .map(|e| json!({"line": e.line, "column": e.column, "message": e.message}))
        .collect()
}
