//! Evaluations in the CLI's words: `show ID --evals` (the moves with their evaluations) and
//! `stats --evals` (the calibration).

use std::io::Write;

use anyhow::Result;
use kifudex::evals::calibration::{Bucket, Calibration};
use kifudex::query::evals::{EvalEntry, eval_text, game_evals, source_text};
use kifudex::shogi::Move;
use kifudex::store::{Store, StoredGame};
use serde_json::json;

use super::output::Table;

/// `show ID --evals`: every position of the main line with the move that led to it and its
/// evaluation, depth and the engine's preferred move there.
pub fn show_evals(
    store: &Store,
    game: &StoredGame,
    json: bool,
    out: &mut impl Write,
) -> Result<bool> {
    let list = game_evals(store, game)?;
    if json {
        let obj = json!({
            "id": game.id,
            "analysis": list.as_ref().and_then(|l| l.analysis.as_ref()),
            "evals": list.as_ref().map_or(&[][..], |l| &l.evals[..]),
        });
        writeln!(out, "{obj}")?;
        return Ok(true);
    }
    let Some(list) = list else {
        writeln!(out, "# game {}: no evaluations", game.id)?;
        return Ok(true);
    };
    let from = match &list.analysis {
        Some(a) => format!("{} ({})", a.engine, a.limits),
        None => "the record's engine comments".to_string(),
    };
    writeln!(
        out,
        "# game {}: evaluations from {from}, sente's view",
        game.id
    )?;
    let analysed = list.analysis.is_some();
    let mut columns = vec!["ply", "move", "eval", "depth", "best"];
    if analysed {
        columns.extend(["nodes", "pv"]);
    } else {
        columns.push("source");
    }
    let mut table = Table::new(columns);
    let rec = &game.record;
    let mut pos = rec.start.clone();
    let mut last_to = None;
    let mut evals = list.evals.iter().peekable();
    for ply in 0..=rec.main.moves.len() {
        let played = match ply {
            0 => "(start)".to_string(),
            n => {
                let mv = rec.main.moves[n - 1].mv;
                let text = kifudex::notation::movetext::japanese(&pos, mv, last_to);
                pos.apply(mv);
                last_to = Some(mv.to());
                text
            }
        };
        let Some(e) = evals.next_if(|e| e.ply == ply) else {
            table.rows.push(vec![ply.to_string(), played]);
            continue;
        };
        let mut row = vec![
            ply.to_string(),
            played,
            eval_text(e),
            e.depth.map_or(String::new(), |d| d.to_string()),
            best_text(&pos, e, last_to),
        ];
        if analysed {
            row.push(e.nodes.map_or(String::new(), |n| n.to_string()));
            row.push(e.pv.join(" "));
        } else {
            row.push(source_text(e, list.analysis.as_ref()));
        }
        table.rows.push(row);
    }
    table.write(out)?;
    Ok(true)
}

/// The engine's preferred move in Japanese (USI when it cannot be read so; `resign`, `win`).
fn best_text(
    pos: &kifudex::shogi::Position,
    e: &EvalEntry,
    last_to: Option<kifudex::shogi::Square>,
) -> String {
    let Some(best) = &e.best else {
        return String::new();
    };
    match Move::from_usi(best) {
        Ok(m) if pos.is_legal(m) => kifudex::notation::movetext::japanese(pos, m, last_to),
        _ => best.clone(),
    }
}

/// A bucket's range as a person reads it: `0–199`, `3000–29999`, `decisive`.
fn bucket_text(b: &Bucket) -> String {
    match b.high {
        _ if b.decisive => "decisive (mate, ±30000)".to_string(),
        Some(h) => format!("{}–{}", b.low, h - 1),
        None => format!("{}+", b.low),
    }
}

fn percent(x: Option<f64>) -> String {
    x.map_or(String::new(), |v| format!("{:.1}%", v * 100.0))
}

/// `stats --evals`: the calibration table, or one JSON object per bucket.
pub fn print_calibration(c: &Calibration, json: bool, out: &mut impl Write) -> Result<()> {
    if json {
        for b in c.buckets() {
            let mut v = serde_json::to_value(&b)?;
            if let Some(m) = v.as_object_mut() {
                m.insert("won".into(), json!(b.won()));
                m.insert("score".into(), json!(b.score()));
            }
            writeln!(out, "{v}")?;
        }
        writeln!(
            out,
            "{}",
            json!({"games": c.games(), "level": c.level(), "width": c.width()})
        )?;
        return Ok(());
    }
    let mut table = Table::new(vec![
        "advantage",
        "positions",
        "games",
        "ahead won",
        "drawn",
        "ahead lost",
        "won",
        "score",
    ]);
    for b in c.buckets() {
        table.rows.push(vec![
            bucket_text(&b),
            b.positions.to_string(),
            b.games.to_string(),
            b.ahead_won.to_string(),
            b.drawn.to_string(),
            b.ahead_lost.to_string(),
            percent(b.won()),
            percent(b.score()),
        ]);
    }
    table.write(out)?;
    writeln!(
        out,
        "{} games with evaluations and a result; {} positions evaluated 0 (no side ahead) left out",
        c.games(),
        c.level()
    )?;
    Ok(())
}
