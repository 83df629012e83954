//! `evals.parquet`: one row per evaluated position of every game, as `show --evals` gives
//! them (the database's evaluations: the record's engine comments, or the engine analysis that
//! replaced them; straight from files, the records'). Sente's point of view throughout, as
//! in the database. Sorted by game, then ply: the rows of a game are together, and the
//! calibration or the blunders are a window over them.

use std::path::Path;

use parquet::basic::Encoding;

use super::super::ExportError;
use super::table::{Column, Layout, Table, push_opt, static_text};
use kifudex_evals::stored::StoredEval;
use kifudex_shogi::Color;

const EVALS_SCHEMA: &str = "message evals {
    REQUIRED INT64 game;
    REQUIRED INT32 ply;
    OPTIONAL INT32 value;
    OPTIONAL INT32 mate;
    OPTIONAL BYTE_ARRAY mate_for (UTF8);
    OPTIONAL INT32 depth;
    REQUIRED BYTE_ARRAY source (UTF8);
}";

/// The file, empty, in `dir`.
pub(super) fn create(dir: &Path) -> Result<Table, ExportError> {
    Table::create(
        &dir.join("evals.parquet"),
        EVALS_SCHEMA,
        vec![
            Column::I64(vec![]),
            Column::I32(vec![]),
            Column::opt_i32(),
            Column::opt_i32(),
            Column::opt_str(),
            Column::opt_i32(),
            Column::Str(vec![]),
        ],
        // A game's rows share its id and count up their plies: both differ by little from
        // one row to the next.
        &[
            ("game", Layout::Plain(Encoding::DELTA_BINARY_PACKED)),
            ("ply", Layout::Plain(Encoding::DELTA_BINARY_PACKED)),
        ],
    )
}

/// Adds the rows of game `game`'s evaluations (in ply order, as they are stored); returns
/// how many.
pub(super) fn add(t: &mut Table, game: i64, evals: &[StoredEval]) -> u64 {
    let [
        Column::I64(games),
        Column::I32(plies),
        Column::OptI32(values, value_defs),
        Column::OptI32(mates, mate_defs),
        Column::OptStr(winners, winner_defs),
        Column::OptI32(depths, depth_defs),
        Column::Str(sources),
    ] = &mut t.columns[..]
    else {
        unreachable!("the evals table's columns")
    };
    for e in evals {
        games.push(game);
        plies.push(e.ply as i32);
        push_opt(values, value_defs, e.score.value());
        // A distance in plies fits an i32 (the stored form keeps 15 bits of it).
        push_opt(mates, mate_defs, e.score.mate().map(|m| m as i32));
        let winner = e.score.mate_winner().map(|c| match c {
            Color::Black => static_text("sente"),
            Color::White => static_text("gote"),
        });
        push_opt(winners, winner_defs, winner);
        push_opt(
            depths,
            depth_defs,
            e.depth.map(|d| d.min(i32::MAX as u32) as i32),
        );
        sources.push(static_text(e.source.code()));
        t.rows += 1;
    }
    evals.len() as u64
}
