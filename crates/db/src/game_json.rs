//! A game read from a record as JSON: the object `kifudex parse` prints for each game (less
//! the fields of its file), which the Python package's `Game` gives field by field. One
//! shaping for both, so that the two cannot drift apart (the Python tests compare them).

use std::collections::{BTreeMap, BTreeSet};

use kifudex_classify::Recognised;
use kifudex_notation::{Record, movetext};
use kifudex_shogi::Color;
use serde_json::{Map, Value, json};

/// The game as `kifudex parse` prints it, without `file`, `game_index`, `format` and
/// `encoding`; `positions` adds the SFEN of every main-line position.
pub fn game(rec: &Record, positions: bool) -> Value {
    let recognised = kifudex_classify::recognise_record(rec);
    let mut obj = json!({
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
        "comments": rec.start_comments.len() + rec.main.comment_count(),
        "engine_lines": rec.start_engine.len() + rec.main.engine_line_count(),
        "notes": rec.notes.len(),
        "incomplete": rec.incomplete,
        "illegal": illegal(rec),
        "errors": problems(rec, false),
        "warnings": problems(rec, true),
        "recognised": recognised_json(rec, &recognised),
        "evals": evals(rec),
        "error": Value::Null,
    });
    if positions && let Value::Object(map) = &mut obj {
        map.insert("positions".into(), json!(sfens(rec)));
    }
    obj
}

/// Every header: a key written twice keeps its first place and takes the later value.
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

/// The game's errors (`warnings`: its warnings) with their lines and columns.
pub fn problems(rec: &Record, warnings: bool) -> Value {
    rec.errors
        .iter()
        .filter(|e| e.is_warning() == warnings)
        .map(|e| json!({"line": e.line, "column": e.column, "message": e.message}))
        .collect()
}

/// The first illegal move of the main line: its ply and the rule it broke, or null.
pub fn illegal(rec: &Record) -> Value {
    rec.first_illegal().map_or(
        Value::Null,
        |(ply, rule)| json!({"ply": ply, "rule": rule.code()}),
    )
}

/// The SFEN of the main line's position after `ply` moves, or `None` past the last move
/// that can be played.
pub fn sfen_at(rec: &Record, ply: usize) -> Option<String> {
    let mut pos = rec.start.clone();
    for node in rec.main.moves.iter().take(ply) {
        pos.play(node.mv).ok()?;
    }
    (ply <= rec.main.moves.len()).then(|| pos.to_sfen())
}

/// The SFEN of every main-line position, the start first (a move that cannot be played
/// leaves the position as it was).
pub fn sfens(rec: &Record) -> Vec<String> {
    let mut pos = rec.start.clone();
    let mut list = vec![pos.to_sfen()];
    for node in &rec.main.moves {
        let _ = pos.play(node.mv);
        list.push(pos.to_sfen());
    }
    list
}

/// The opening, strategies and castles recognised from the moves.
pub fn recognised(rec: &Record) -> Value {
    recognised_json(rec, &kifudex_classify::recognise_record(rec))
}

/// The `recognised` object of what `r` recognised in `rec`: the game's label and why, and
/// each side's strategies and castles with the ply each first held at and the move that
/// completed it (USI and Japanese).
pub fn recognised_json(rec: &Record, r: &Recognised) -> Value {
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
pub fn completing_moves(rec: &Record, r: &Recognised) -> BTreeMap<u32, String> {
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

/// The evaluations the record's engine comments carry, one object a ply: `value` and `mate`
/// from sente's point of view (`mate` a signed distance in plies; a mate whose distance the
/// record does not give has both null and `mate_for` naming the winner), `best` the engine's
/// preferred move there when its variation can be read.
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
        let v = game(&rec, true);
        assert_eq!(v["sente"], "Alice");
        assert_eq!(v["winner"], "gote");
        assert_eq!(v["comments"], 1);
        assert_eq!(v["positions"].as_array().unwrap().len(), 3);
        assert!(game(&rec, false).get("positions").is_none());
    }

    #[test]
    fn the_fields_come_in_the_order_parse_prints_them() {
        let v = game(&record(), true);
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "headers",
                "sente",
                "gote",
                "event",
                "opening",
                "start_time",
                "handicap",
                "start_sfen",
                "moves",
                "terminal",
                "winner",
                "variations",
                "comments",
                "engine_lines",
                "notes",
                "incomplete",
                "illegal",
                "errors",
                "warnings",
                "recognised",
                "evals",
                "error",
                "positions"
            ]
        );
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
        assert_eq!(sfens(&rec)[2], sfen_at(&rec, 2).unwrap());
    }
}
