//! JKF writing: the header, the start as a preset or `OTHER` data, and every move with the
//! fields a normalized JKF holds, forks, times, comments and specials.

use serde_json::{Map, Value, json};

use super::{preset_name, terminal_special};
use crate::headers::{KeyStyle, keys_for};
use crate::movetext::{Relative, japanese, parse_japanese_move};
use crate::record::{Line, MoveTime, Record};
use kifudex_shogi::{Color, Handicap, Move, PieceKind, Position, Square};

/// A number of seconds as JSON: a whole number when it is one.
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

/// `x` as whole `unit`s and what is left, which is never negative even if the division
/// rounds the quotient up.
fn split(x: f64, unit: f64) -> (f64, f64) {
    let mut q = (x / unit).floor().max(0.0);
    while q > 0.0 && q * unit > x {
        q -= 1.0;
    }
    (q, x - q * unit)
}

fn time_json(t: MoveTime) -> Value {
    // Whole minutes and hours are taken off exactly, so that h*3600 + m*60 + s reads back
    // as the same number even for fractional seconds.
    let (m, s) = split(t.spent, 60.0);
    let mut out = json!({"now": {"m": number(m), "s": number(s)}});
    if let Some(total) = t.total {
        let (h, rest) = split(total, 3600.0);
        let (m, _) = split(rest, 60.0);
        let s = total - (h * 3600.0 + m * 60.0);
        out["total"] = json!({"h": number(h), "m": number(m), "s": number(s)});
    }
    out
}

fn place(sq: Square) -> Value {
    json!({"x": sq.file(), "y": sq.rank()})
}

fn color_code(c: Color) -> u8 {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The JKF `move` object of `mv` on `pos`: every field a normalized JKF holds.
fn move_json(pos: &Position, mv: Move, last_to: Option<Square>) -> Value {
    let us = pos.side_to_move();
    let mut m = Map::new();
    m.insert("color".into(), json!(color_code(us)));
    let to = mv.to();
    let piece = match mv {
        Move::Board { from, .. } => {
            m.insert("from".into(), place(from));
            pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind)
        }
        Move::Drop { kind, .. } => kind,
    };
    m.insert("to".into(), place(to));
    m.insert("piece".into(), json!(piece.csa()));
    if last_to == Some(to) {
        m.insert("same".into(), json!(true));
    }
    if let Move::Board { from, promote, .. } = mv
        && piece.can_promote()
        && (from.in_zone(us) || to.in_zone(us) || promote)
    {
        m.insert("promote".into(), json!(promote));
    }
    if let Some(captured) = pos.piece_at(to) {
        m.insert("capture".into(), json!(captured.kind.csa()));
    }
    // The relative words the KI2 writer would use, as JKF letters.
    if let Ok((jm, _)) = parse_japanese_move(&japanese(pos, mv, last_to)) {
        let mut rel = String::new();
        for (word, letter) in [
            (Relative::LEFT, 'L'),
            (Relative::STRAIGHT, 'C'),
            (Relative::RIGHT, 'R'),
            (Relative::UP, 'U'),
            (Relative::SIDEWAYS, 'M'),
            (Relative::DOWN, 'D'),
        ] {
            if jm.relative.contains(word) {
                rel.push(letter);
            }
        }
        if jm.drop {
            rel.push('H');
        }
        if !rel.is_empty() {
            m.insert("relative".into(), json!(rel));
        }
    }
    Value::Object(m)
}

/// Comments, then engine lines written as comments starting with `*` (as KIF writes them
/// after its own `*`: `**`), which the reader takes back as engine lines.
fn with_engine(comments: &[String], engine: &[String]) -> Vec<String> {
    comments
        .iter()
        .cloned()
        .chain(engine.iter().map(|e| format!("*{e}")))
        .collect()
}

/// The entries of a line played from `pos` (without the start-comment entry).
fn line_json(line: &Line, pos: &Position, last_to: Option<Square>) -> Vec<Value> {
    let mut out = Vec::with_capacity(line.moves.len() + 1);
    let mut pos = pos.clone();
    let mut last_to = last_to;
    for node in &line.moves {
        let mut e = Map::new();
        if !node.comments.is_empty() || !node.engine.is_empty() {
            e.insert(
                "comments".into(),
                json!(with_engine(&node.comments, &node.engine)),
            );
        }
        e.insert("move".into(), move_json(&pos, node.mv, last_to));
        if let Some(t) = node.time {
            e.insert("time".into(), time_json(t));
        }
        if !node.variations.is_empty() {
            let forks: Vec<Value> = node
                .variations
                .iter()
                .map(|v| Value::Array(line_json(v, &pos, last_to)))
                .collect();
            e.insert("forks".into(), Value::Array(forks));
        }
        out.push(Value::Object(e));
        let _ = pos.play(node.mv);
        last_to = Some(node.mv.to());
    }
    if let Some(t) = &line.terminal {
        let mut e = Map::new();
        if !t.comments.is_empty() {
            e.insert("comments".into(), json!(t.comments));
        }
        e.insert(
            "special".into(),
            json!(terminal_special(t.kind, pos.side_to_move()).0),
        );
        if let Some(time) = t.time {
            e.insert("time".into(), time_json(time));
        }
        out.push(Value::Object(e));
    }
    out
}

/// The `initial` object: a preset for a named handicap, else `OTHER` with the position.
fn initial_json(start: &Position) -> Value {
    let h = Handicap::detect(start);
    if h != Handicap::Other {
        return json!({"preset": preset_name(h)});
    }
    let board: Vec<Value> = (1..=9u8)
        .map(|x| {
            let column: Vec<Value> = (1..=9u8)
                .map(
                    |y| match Square::new(x, y).and_then(|s| start.piece_at(s)) {
                        Some(p) => json!({"color": color_code(p.color), "kind": p.kind.csa()}),
                        None => json!({}),
                    },
                )
                .collect();
            Value::Array(column)
        })
        .collect();
    let hands: Vec<Value> = [Color::Black, Color::White]
        .iter()
        .map(|&c| {
            let mut m = Map::new();
            for k in PieceKind::HAND {
                m.insert(k.csa().into(), json!(start.hand(c).count(k)));
            }
            Value::Object(m)
        })
        .collect();
    json!({
        "preset": "OTHER",
        "data": {"color": color_code(start.side_to_move()), "board": board, "hands": hands},
    })
}

/// The record as JKF: header, initial, and one line per move entry. Bookmarks, which JKF
/// cannot hold, are not written; nor is the start's move number.
pub fn write_jkf(rec: &Record) -> String {
    // JKF's header keys are KIF's: other formats' keys (N+, Sente) under their KIF names.
    let handicap = crate::kif::is_handicap_game(rec);
    // One value a key: the first header under it (`repeated_headers` counts the others).
    let mut header: Map<String, Value> = Map::new();
    for (k, (_, v)) in keys_for(&rec.headers, KeyStyle::Jkf, handicap)
        .into_iter()
        .zip(&rec.headers)
    {
        if let Some(k) = k {
            header.entry(k.into_owned()).or_insert_with(|| json!(v));
        }
    }
    let mut first = Map::new();
    if !rec.start_comments.is_empty() || !rec.start_engine.is_empty() {
        first.insert(
            "comments".into(),
            json!(with_engine(&rec.start_comments, &rec.start_engine)),
        );
    }
    let mut entries = vec![Value::Object(first)];
    entries.extend(line_json(&rec.main, &rec.start, None));
    let mut out = String::from("{\n");
    out.push_str(&format!("  \"header\": {},\n", Value::Object(header)));
    out.push_str(&format!("  \"initial\": {},\n", initial_json(&rec.start)));
    out.push_str("  \"moves\": [\n");
    for (i, e) in entries.iter().enumerate() {
        let comma = if i + 1 < entries.len() { "," } else { "" };
        out.push_str(&format!("    {e}{comma}\n"));
    }
    out.push_str("  ]\n}\n");
    out
}

/// How many headers [`write_jkf`] leaves out: those under a JKF key an earlier header takes.
pub fn repeated_headers(rec: &Record) -> usize {
    let handicap = crate::kif::is_handicap_game(rec);
    let mut seen = std::collections::HashSet::new();
    keys_for(&rec.headers, KeyStyle::Jkf, handicap)
        .into_iter()
        .flatten()
        .filter(|k| !seen.insert(k.clone()))
        .count()
}

/// Whether a record uses an ending the JKF schema has no `special` for (see [`terminal_special`]).
pub fn has_nonstandard_special(rec: &Record) -> bool {
    fn walk(line: &Line, pos: &Position) -> bool {
        let mut pos = pos.clone();
        for node in &line.moves {
            if node.variations.iter().any(|v| walk(v, &pos)) {
                return true;
            }
            let _ = pos.play(node.mv);
        }
        line.terminal
            .as_ref()
            .is_some_and(|t| !terminal_special(t.kind, pos.side_to_move()).1)
    }
    walk(&rec.main, &rec.start)
}
