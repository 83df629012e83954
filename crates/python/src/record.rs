//! A game read from a record, as the Python package shows it: the same fields, names and
//! values as `kifudex parse` prints (the tests compare the two), plus the comments themselves.

use std::collections::{BTreeMap, BTreeSet};

use kifudex_classify::Recognised;
use kifudex_notation::{Record, movetext};
use kifudex_shogi::{Color, Position};
use serde_json::{Map, Value, json};

/// Every header: a key written twice keeps its place and takes the later value (as
/// `kifudex parse` shows it).
pub fn headers(rec: &Record) -> Value {
    let mut map = Map::new();
    for (k, v) in &rec.headers {
        map.insert(k.clone(), json!(v));
    }
    Value::Object(map)
}

/// The main line's moves in USI.
pub fn moves(rec: &Record) -> Vec<String> {
    rec.main.moves.iter().map(|m| m.mv.usi()).collect()
}

/// The comments on the main line's positions: `ply` 0 is the start, N the position after the
/// N-th move; one entry a comment line.
pub fn comments(rec: &Record) -> Value {
    let mut out = Vec::new();
    for c in &rec.start_comments {
        out.push(json!({"ply": 0, "text": c}));
    }
    for (i, m) in rec.main.moves.iter().enumerate() {
        for c in &m.comments {
            out.push(json!({"ply": i + 1, "text": c}));
        }
    }
    Value::Array(out)
}

/// The errors (`warnings`: the warnings) with their lines and columns.
pub fn problems(rec: &Record, warnings: bool) -> Value {
    rec.errors
        .iter()
        .filter(|e| e.is_warning() == warnings)
        .map(|e| json!({"line": e.line, "column": e.column, "message": e.message}))
        .collect()
}

/// The SFEN of the main line's position after `ply` moves, or `None` past the last move
/// that can be played.
pub fn sfen_at(rec: &Record, ply: usize) -> Option<String> {
    let mut pos: Position = rec.start.clone();
    for node in rec.main.moves.iter().take(ply) {
        pos.play(node.mv).ok()?;
    }
    (ply <= rec.main.moves.len()).then(|| pos.to_sfen())
}

/// The SFEN of every main-line position, the start first.
pub fn positions(rec: &Record) -> Vec<String> {
    let mut pos = rec.start.clone();
    let mut list = vec![pos.to_sfen()];
    for node in &rec.main.moves {
        let _ = pos.play(node.mv);
        list.push(pos.to_sfen());
    }
    list
}

/// The evaluations of the engine comments: `value` and `mate` from sente's point of view,
/// `best` the engine's preferred move (as `kifudex parse` gives them).
pub fn evals(rec: &Record) -> Value {
    let evals = kifudex_evals::read(rec);
    if evals.is_empty() {
        return Value::Array(Vec::new());
    }
    let best = kifudex_evals::best_moves(rec, &evals);
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
                let side = if winner == Color::Black {
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

/// The opening, strategies and castles recognised from the moves.
pub fn recognised(rec: &Record) -> Value {
    let r = kifudex_classify::recognise_record(rec);
    let japanese = completing_moves(rec, &r);
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

/// The Japanese text of the moves that completed something recognised, by ply.
fn completing_moves(rec: &Record, r: &Recognised) -> BTreeMap<u32, String> {
    let plies: BTreeSet<u32> = r.items.iter().map(|i| i.ply).collect();
    let mut out = BTreeMap::new();
    let Some(&last) = plies.last() else {
        return out;
    };
    let mut pos = rec.start.clone();
    for (i, node) in rec.main.moves.iter().enumerate().take(last as usize) {
        let ply = i as u32 + 1;
        if plies.contains(&ply) {
            out.insert(ply, movetext::japanese(&pos, node.mv, None));
        }
        if pos.play(node.mv).is_err() {
            break;
        }
    }
    out
}

/// The first illegal move: its ply and the rule it broke.
pub fn illegal(rec: &Record) -> Value {
    rec.first_illegal().map_or(
        Value::Null,
        |(ply, rule)| json!({"ply": ply, "rule": rule.code()}),
    )
}

/// Everything at once, as `kifudex parse --positions` prints a game (without the file's
/// fields), plus `comments` and `comment_count`.
pub fn game_value(rec: &Record) -> Value {
    json!({
        "headers": headers(rec),
        "sente": rec.sente(),
        "gote": rec.gote(),
        "event": rec.event(),
        "opening": rec.opening(),
        "start_time": rec.start_time(),
        "handicap": rec.handicap().kif_name(),
        "start_sfen": rec.start.to_sfen(),
        "moves": moves(rec),
        "terminal": rec.terminal().map(|t| t.code()),
        "winner": rec.result().code(),
        "variations": rec.main.variation_count(),
        "comment_count": rec.start_comments.len() + rec.main.comment_count(),
        "comments": comments(rec),
        "engine_lines": rec.start_engine.len() + rec.main.engine_line_count(),
        "incomplete": rec.incomplete,
        "illegal": illegal(rec),
        "errors": problems(rec, false),
        "warnings": problems(rec, true),
        "recognised": recognised(rec),
        "evals": evals(rec),
        "positions": positions(rec),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "V2.2\nN+Alice\nN-Bob\nPI\n+\n+7776FU\n'*a comment\n-3334FU\n%TORYO\n";

    fn record() -> Record {
        kifudex_notation::read_bytes(GAME.as_bytes(), None)
            .games
            .remove(0)
    }

    #[test]
    fn the_fields_of_a_short_game() {
        let rec = record();
        assert_eq!(moves(&rec), ["7g7f", "3c3d"]);
        assert_eq!(comments(&rec), json!([{"ply": 1, "text": "a comment"}]));
        let v = game_value(&rec);
        assert_eq!(v["sente"], "Alice");
        assert_eq!(v["winner"], "gote");
        assert_eq!(v["positions"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn the_sfen_at_each_ply_and_none_past_the_end() {
        let rec = record();
        assert_eq!(
            sfen_at(&rec, 0).unwrap(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        );
        assert_eq!(
            sfen_at(&rec, 2).unwrap(),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
        assert_eq!(sfen_at(&rec, 3), None);
    }
}
