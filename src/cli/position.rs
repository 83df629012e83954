//! `kifudex position` (games reaching a position) and `kifudex tree` (moves played from it).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use clap::{Args, ValueEnum};
use kifudex::query::{
    PositionOptions, PositionQuery, SortBy, find_games, parse_position, position_from_file,
    tree_filtered,
};
use kifudex::shogi::Position;

use super::filter::FilterArgs;
use super::output::{OPENING_LEGEND, Table, any_recognised, count, opening_cell};

/// The position asked about, and how to widen it (shared by `position` and `tree`).
#[derive(Args, Debug, Default)]
pub struct PosArgs {
    /// The position: an SFEN, `sfen <SFEN> [moves ...]`, `startpos [moves ...]` or
    /// `position ...` (quote it as one argument).
    #[arg(
        value_name = "POS",
        required_unless_present = "file",
        conflicts_with = "file"
    )]
    pos: Option<String>,
    /// Take the position from a record (or a KIF board diagram) instead; `-` reads standard
    /// input.
    #[arg(long, value_name = "F")]
    file: Option<PathBuf>,
    /// With --file: the position after this many moves of the main line (default: the last).
    #[arg(long, value_name = "N", requires = "file", conflicts_with = "pos")]
    ply: Option<usize>,
    /// Same board and side to move, whatever the hands.
    #[arg(long)]
    ignore_hands: bool,
    /// Either side to move.
    #[arg(long)]
    either_side: bool,
    /// Also the board mirrored left to right.
    #[arg(long)]
    mirror: bool,
    /// Also the colours swapped (the board turned round, hands exchanged).
    #[arg(long)]
    flip: bool,
    /// Print the time the query took on stderr.
    #[arg(long, hide = true)]
    timing: bool,
}

impl PosArgs {
    fn position(&self) -> Result<Position> {
        Ok(match (&self.file, &self.pos) {
            (Some(f), _) => position_from_file(f, self.ply)?,
            (None, Some(p)) => parse_position(p)?,
            (None, None) => parse_position("")?,
        })
    }

    fn options(&self) -> PositionOptions {
        PositionOptions {
            ignore_hands: self.ignore_hands,
            either_side: self.either_side,
            mirror: self.mirror,
            flip: self.flip,
        }
    }
}

/// How `position` orders its rows.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SortArg {
    /// Newest first.
    #[default]
    Date,
    /// Longest game first.
    Plies,
    /// Reaching the position earliest first.
    Ply,
}

#[derive(Args, Debug)]
pub struct PositionArgs {
    #[command(flatten)]
    pos: PosArgs,
    #[command(flatten)]
    filter: FilterArgs,
    /// The order of the rows.
    #[arg(long, value_enum, default_value_t = SortArg::Date)]
    sort: SortArg,
    /// The other way round (oldest, shortest, or reaching it latest first).
    #[arg(long)]
    reverse: bool,
    /// At most this many rows (up to 1,000,000).
    #[arg(long, default_value_t = 50, value_name = "N", value_parser = super::bounds::rows())]
    limit: usize,
    /// One JSON object per row, then {"total": N}.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header row.
    #[arg(long)]
    csv: bool,
}

pub fn run_position(db: &Path, args: &PositionArgs) -> Result<bool> {
    let pos = args.pos.position()?;
    let filter = args.filter.filter()?;
    let with_handicap = filter.handicap.is_some();
    let store = super::open_for_reading(db, true)?;
    let started = Instant::now();
    let q = PositionQuery {
        options: args.pos.options(),
        filter,
        sort: match args.sort {
            SortArg::Date => SortBy::Date,
            SortArg::Plies => SortBy::Plies,
            SortArg::Ply => SortBy::Ply,
        },
        reverse: args.reverse,
        limit: args.limit,
    };
    let found = find_games(&store, &pos, &q)?;
    if args.pos.timing {
        eprintln!("query: {:.3} ms", started.elapsed().as_secs_f64() * 1e3);
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        for r in &found.rows {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        }
        writeln!(out, "{}", serde_json::json!({ "total": found.total }))?;
        return Ok(true);
    }
    let handicap = with_handicap;
    let mut columns = vec![
        "id", "date", "sente", "gote", "winner", "ply", "plies", "event", "opening",
    ];
    if handicap {
        columns.push("handicap");
    }
    columns.push("file");
    let mut table = Table::new(columns);
    let text = |s: &Option<String>| s.clone().unwrap_or_default();
    for r in &found.rows {
        let g = &r.game;
        let mut row = vec![
            g.id.to_string(),
            text(&g.date),
            text(&g.sente),
            text(&g.gote),
            text(&g.winner),
            r.ply.to_string(),
            g.plies.to_string(),
            text(&g.event),
            if args.csv {
                text(&g.opening)
            } else {
                opening_cell(g)
            },
        ];
        if handicap {
            row.push(g.handicap.clone());
        }
        row.push(g.file.clone());
        table.rows.push(row);
    }
    table.path_column = Some(table.columns.len() - 1);
    if args.csv {
        table.write_csv(&mut out)?;
        return Ok(true);
    }
    if !found.rows.is_empty() {
        table.write(&mut out)?;
        if any_recognised(found.rows.iter().map(|r| &r.game)) {
            writeln!(out, "{OPENING_LEGEND}")?;
        }
    }
    writeln!(
        out,
        "{} of {}{}",
        found.rows.len(),
        count(found.total, "game"),
        if found.exact {
            ""
        } else {
            " (rows verified by replay; the total counts index matches)"
        }
    )?;
    Ok(true)
}

#[derive(Args, Debug)]
pub struct TreeArgs {
    #[command(flatten)]
    pos: PosArgs,
    #[command(flatten)]
    filter: FilterArgs,
    /// One JSON object per move, then {"total": N} (the games reaching the position).
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header row.
    #[arg(long)]
    csv: bool,
}

pub fn run_tree(db: &Path, args: &TreeArgs) -> Result<bool> {
    let pos = args.pos.position()?;
    let store = super::open_for_reading(db, true)?;
    let started = Instant::now();
    let t = tree_filtered(&store, &pos, args.pos.options(), &args.filter.filter()?)?;
    if args.pos.timing {
        eprintln!("query: {:.3} ms", started.elapsed().as_secs_f64() * 1e3);
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        for r in &t.rows {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        }
        writeln!(
            out,
            "{}",
            serde_json::json!({ "total": t.games, "exact": t.exact })
        )?;
        return Ok(true);
    }
    let mut table = Table::new(vec![
        "move",
        "japanese",
        "games",
        "reached",
        "sente",
        "gote",
        "draws",
        "score",
        "last played",
        "first played",
        "first game",
    ]);
    for r in &t.rows {
        table.rows.push(vec![
            r.mv.clone(),
            r.japanese.clone(),
            r.count.to_string(),
            r.reached.map_or_else(String::new, |n| n.to_string()),
            r.sente_wins.to_string(),
            r.gote_wins.to_string(),
            r.draws.to_string(),
            r.score
                .map_or(String::new(), |s| format!("{:.1}%", s * 100.0)),
            r.last_date.clone().unwrap_or_default(),
            r.first_date.clone().unwrap_or_default(),
            r.first_game.to_string(),
        ]);
    }
    if args.csv {
        table.write_csv(&mut out)?;
        return Ok(true);
    }
    if !t.rows.is_empty() {
        table.write(&mut out)?;
    }
    let mover = match pos.side_to_move() {
        kifudex::shogi::Color::Black => "sente",
        kifudex::shogi::Color::White => "gote",
    };
    writeln!(
        out,
        "{} from a position reached in {}; score for {mover}, the side to move{}",
        count(t.rows.len(), "move"),
        count(t.games, "game"),
        if t.exact {
            ""
        } else {
            " (counted from the index, not verified by replay)"
        }
    )?;
    Ok(true)
}
