//! `kifudex find QUERY` (pattern search over every position) and `kifudex find --like POS`
//! (positions within K changed squares of one), with a progress bar on long scans and
//! Ctrl-C stopping the scan with what was found so far.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kifudex::find::{
    Control, FindOptions, LikeOptions, Outcome, Progress, explain, find, like, parse_query,
};
use kifudex::query::parse_position;
use kifudex::store::{GameSummary, Store};

use super::filter::FilterArgs;
use super::output::{Table, count};

#[derive(Args, Debug)]
pub struct FindArgs {
    /// The query, quoted as one argument: `▲９九玉 and △５五桂 and ply <= 60` (see docs/find.md).
    #[arg(
        value_name = "QUERY",
        required_unless_present = "like",
        conflicts_with = "like"
    )]
    query: Option<String>,
    /// Instead of a query: positions like this one (an SFEN, `startpos moves ...`, `sfen ...`).
    #[arg(long, value_name = "POS")]
    like: Option<String>,
    /// With --like: the most squares whose contents may differ (0 to 81).
    #[arg(long, value_name = "K", default_value_t = 0, requires = "like", value_parser = super::bounds::diff())]
    diff: u32,
    /// With --like: any pieces in hand (else the hands must be the same).
    #[arg(long, requires = "like")]
    ignore_hands: bool,
    #[command(flatten)]
    filter: FilterArgs,
    /// Each game's first ply at which the query holds (the default; with --like, each game's
    /// nearest position).
    #[arg(long, conflicts_with = "all")]
    first: bool,
    /// Every ply at which it holds (with --like, every position near enough).
    #[arg(long)]
    all: bool,
    /// At most this many rows (every match is counted, up to 1,000,000).
    #[arg(long, default_value_t = 50, value_name = "N", value_parser = super::bounds::rows())]
    limit: usize,
    /// Only the totals.
    #[arg(long)]
    count: bool,
    /// Say the query back in words before it runs (on stderr with --json or --csv).
    #[arg(long)]
    explain: bool,
    /// One JSON object per row, then {"total": N, "positions": M}.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header row.
    #[arg(long)]
    csv: bool,
}

/// Ctrl-C sets a flag the scan reads between units of games; a second Ctrl-C ends the
/// process as usual.
#[cfg(target_os = "linux")]
mod interrupt {
    use std::sync::atomic::{AtomicBool, Ordering};

    static STOP: AtomicBool = AtomicBool::new(false);

    extern "C" fn on_interrupt(_: libc::c_int) {
        STOP.store(true, Ordering::Relaxed);
        // SAFETY: signal() is async-signal-safe; SIG_DFL is a valid disposition.
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
        }
    }

    /// Installs the handler and gives the flag it sets.
    pub fn catch() -> &'static AtomicBool {
        let handler = on_interrupt as extern "C" fn(libc::c_int);
        // SAFETY: the handler only stores to an atomic and resets the disposition.
        unsafe {
            libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        }
        &STOP
    }

    /// Ctrl-C ends the process again.
    pub fn release() {
        // SAFETY: as above.
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod interrupt {
    use std::sync::atomic::AtomicBool;

    static STOP: AtomicBool = AtomicBool::new(false);

    pub fn catch() -> &'static AtomicBool {
        &STOP
    }

    pub fn release() {}
}

/// The database, read without mapping its file: the filter may read the whole games table,
/// whose pages would all count as this process's memory through a mapping (the scan's own
/// connections read the same way).
fn open(db: &Path) -> Result<Store> {
    let store = super::open_for_reading(db, false)?;
    store.read_unmapped()?;
    Ok(store)
}

/// A progress bar for the scan, on a terminal only.
fn bar() -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr_with_hz(8));
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {percent}%  {msg}  [{elapsed_precise}, ETA {eta}]")
            .expect("valid template"),
    );
    Some(bar)
}

/// Runs a scan with the bar and Ctrl-C handler in place.
fn scanning<T>(run: impl FnOnce(&Control<'_>) -> T) -> T {
    let stop: &AtomicBool = interrupt::catch();
    let bar = bar();
    let report = |p: Progress| {
        if let Some(b) = &bar {
            b.set_length(p.units);
            b.set_position(p.units_done);
            b.set_message(format!("{} games read, {} found", p.games, p.found));
        }
    };
    let control = Control {
        stop: Some(stop),
        deadline: None,
        progress: Some(&report),
    };
    let out = run(&control);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    interrupt::release();
    out
}

/// The line said when Ctrl-C stopped the scan.
fn stopped_note(o: &Outcome) {
    if o.stopped {
        eprintln!(
            "kifudex: stopped by Ctrl-C after reading {}: the rows and counts are of those",
            count(o.scanned as usize, "game")
        );
    }
}

fn explain_out(args: &FindArgs, text: &str) -> Result<()> {
    if args.json || args.csv {
        eprint!("{text}");
    } else {
        outln!("{}", text.trim_end());
    }
    Ok(())
}

pub fn run(db: &Path, args: &FindArgs) -> Result<bool> {
    if let Some(pos) = &args.like {
        return run_like(db, args, pos);
    }
    let text = args.query.as_deref().unwrap_or_default();
    let query = parse_query(text)?;
    if args.explain {
        explain_out(args, &explain(&query))?;
    }
    let store = open(db)?;
    let options = FindOptions {
        all: args.all && !args.first,
        limit: if args.count { 0 } else { args.limit },
    };
    let filter = args.filter.filter()?;
    let found = scanning(|c| find(&store, &query, &filter, &options, c))?;
    stopped_note(&found.outcome);
    let ok = !found.outcome.stopped;
    let totals = |games: u64, positions: u64| {
        if args.all {
            format!(
                "{}, {}",
                count(games as usize, "game"),
                count(positions as usize, "position")
            )
        } else {
            count(games as usize, "game")
        }
    };
    let mut out = std::io::stdout().lock();
    let total = serde_json::json!({ "total": found.games, "positions": found.positions });
    if args.count {
        if args.json {
            writeln!(out, "{total}")?;
        } else {
            writeln!(out, "{}", totals(found.games, found.positions))?;
        }
        return Ok(ok);
    }
    if args.json {
        for r in &found.rows {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        }
        writeln!(out, "{total}")?;
        return Ok(ok);
    }
    let mut table = Table::new(vec![
        "id",
        "date",
        "sente",
        "gote",
        "winner",
        if args.all { "at" } else { "ply" },
        "plies",
        "event",
        "opening",
        "file",
    ]);
    if args.csv {
        // As search's CSV: the label as it is, and where it came from.
        table.columns.push("label_source");
    }
    for r in &found.rows {
        let at = match &r.matches {
            Some(ranges) => ranges
                .iter()
                .map(|[a, b]| {
                    if a == b {
                        a.to_string()
                    } else {
                        format!("{a}-{b}")
                    }
                })
                .collect::<Vec<_>>()
                .join(","),
            None => r.ply.to_string(),
        };
        let mut row = game_row(&r.game, at);
        if args.csv {
            row[8] = r.game.opening.clone().unwrap_or_default();
            row.push(r.game.label_source.unwrap_or_default().to_string());
        }
        table.rows.push(row);
    }
    table.path_column = Some(9);
    if args.csv {
        table.write_csv(&mut out)?;
        return Ok(ok);
    }
    if !found.rows.is_empty() {
        table.write(&mut out)?;
        if super::output::any_recognised(found.rows.iter().map(|r| &r.game)) {
            writeln!(out, "{}", super::output::OPENING_LEGEND)?;
        }
    }
    writeln!(
        out,
        "{} of {}",
        found.rows.len(),
        totals(found.games, found.positions)
    )?;
    Ok(ok)
}

/// The columns of a game in a table, with `at` as its ply column.
fn game_row(g: &GameSummary, at: String) -> Vec<String> {
    let text = |s: &Option<String>| s.clone().unwrap_or_default();
    vec![
        g.id.to_string(),
        text(&g.date),
        text(&g.sente),
        text(&g.gote),
        text(&g.winner),
        at,
        g.plies.to_string(),
        text(&g.event),
        super::output::opening_cell(g),
        g.file.clone(),
    ]
}

fn run_like(db: &Path, args: &FindArgs, pos: &str) -> Result<bool> {
    let target = parse_position(pos)?;
    if args.explain {
        let side = match target.side_to_move() {
            kifudex::shogi::Color::Black => "sente (▲)",
            kifudex::shogi::Color::White => "gote (△)",
        };
        let text = format!(
            "positions with {side} to move whose boards differ from {} on at most {}{}\n",
            target.to_sfen(),
            count(args.diff as usize, "square"),
            if args.ignore_hands {
                ", whatever the hands"
            } else {
                ", with the same hands"
            }
        );
        explain_out(args, &text)?;
    }
    let store = open(db)?;
    let options = LikeOptions {
        diff: args.diff,
        ignore_hands: args.ignore_hands,
        all: args.all && !args.first,
        limit: if args.count { 0 } else { args.limit },
    };
    let filter = args.filter.filter()?;
    let found = scanning(|c| like(&store, &target, &filter, &options, c))?;
    stopped_note(&found.outcome);
    let ok = !found.outcome.stopped;
    let totals = format!(
        "{}, {}",
        count(found.games as usize, "game"),
        count(found.positions as usize, "position")
    );
    let mut out = std::io::stdout().lock();
    let total = serde_json::json!({ "total": found.games, "positions": found.positions });
    if args.count {
        if args.json {
            writeln!(out, "{total}")?;
        } else {
            writeln!(out, "{totals}")?;
        }
        return Ok(ok);
    }
    if args.json {
        for r in &found.rows {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        }
        writeln!(out, "{total}")?;
        return Ok(ok);
    }
    let mut table = Table::new(vec![
        "id", "date", "sente", "gote", "ply", "plies", "diff", "squares", "file",
    ]);
    let text = |s: &Option<String>| s.clone().unwrap_or_default();
    for r in &found.rows {
        let g = &r.game;
        let squares: Vec<String> = r.squares.iter().map(|s| s.kif()).collect();
        table.rows.push(vec![
            g.id.to_string(),
            text(&g.date),
            text(&g.sente),
            text(&g.gote),
            r.ply.to_string(),
            g.plies.to_string(),
            r.diff.to_string(),
            squares.join(", "),
            g.file.clone(),
        ]);
    }
    table.path_column = Some(table.columns.len() - 1);
    if args.csv {
        table.write_csv(&mut out)?;
        return Ok(ok);
    }
    if !found.rows.is_empty() {
        table.write(&mut out)?;
    }
    if args.all {
        writeln!(
            out,
            "{} of {}, in {}",
            found.rows.len(),
            count(found.positions as usize, "position"),
            count(found.games as usize, "game")
        )?;
    } else {
        writeln!(
            out,
            "{} of {} ({} near enough)",
            found.rows.len(),
            count(found.games as usize, "game"),
            count(found.positions as usize, "position")
        )?;
    }
    Ok(ok)
}
