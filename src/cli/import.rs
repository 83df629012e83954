//! `kifudex import`: files, directories and .zip archives into the database, with a progress
//! bar on a terminal and a summary at the end.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kifudex::ingest::{ImportOptions, Observer, Problem, Progress, import};
use kifudex::store::Store;

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// Record files, directories (read recursively) and .zip archives.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Worker threads reading records (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// Also index the positions of variations (`kifudex position` and `tree` then find
    /// them; a tree counts a variation's move as played).
    #[arg(long)]
    variations: bool,
    /// Commit after this many games (tuning and tests; default 16384, or every 2 s).
    #[arg(long, hide = true, value_name = "GAMES")]
    batch: Option<usize>,
    /// Build the date and player indexes at the end when at least this many new files are
    /// imported, no fewer than the games stored, and at most 2,000,000 games are then stored
    /// (tuning and tests; default 10000).
    #[arg(long, hide = true, value_name = "FILES")]
    defer_indexes_from: Option<usize>,
    /// Leave the openings to the next command that opens the database instead of
    /// recognising them while reading (for measuring what recognition costs).
    #[arg(long, hide = true)]
    no_recognise: bool,
}

/// Problems printed one by one; the rest are counted (all are in the import_errors table).
const SHOWN_PROBLEMS: usize = 50;

struct Report {
    bar: Option<ProgressBar>,
    problems: usize,
}

impl Observer for Report {
    fn progress(&mut self, p: &Progress) {
        if let Some(bar) = &self.bar {
            bar.set_length(p.total_files as u64);
            bar.set_position(p.files as u64);
            let rate = if p.seconds > 0.0 {
                p.games as f64 / p.seconds
            } else {
                0.0
            };
            bar.set_message(format!(
                "{} games ({:.0}/s), {} duplicates, {} errors, {} warnings",
                p.games, rate, p.duplicates, p.errors, p.warnings
            ));
        }
    }

    fn problem(&mut self, problem: &Problem) {
        self.problems += 1;
        if self.problems > SHOWN_PROBLEMS {
            return;
        }
        let text = format!(
            "kifudex: {}",
            super::output::terminal_safe(&problem.to_string())
        );
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    fn notice(&mut self, message: &str) {
        let text = format!("kifudex: {}", super::output::terminal_safe(message));
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }
}

pub fn run(db: &Path, args: &ImportArgs) -> Result<bool> {
    let mut store = Store::create(db)?;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr_with_hz(8));
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} files  {msg}  [{elapsed_precise}, ETA {eta}]",
            )
            .expect("valid template"),
        );
        bar
    });
    let mut report = Report { bar, problems: 0 };
    let mut options = ImportOptions {
        jobs: args.jobs,
        variations: args.variations,
        recognise: !args.no_recognise,
        ..ImportOptions::default()
    };
    if let Some(b) = args.batch {
        options.batch_games = b.max(1);
    }
    if let Some(n) = args.defer_indexes_from {
        options.defer_indexes_from = n;
    }
    let summary = import(&mut store, &args.paths, &options, &mut report)?;
    if let Some(bar) = &report.bar {
        bar.finish_and_clear();
    }
    if report.problems > SHOWN_PROBLEMS {
        eprintln!(
            "kifudex: ... and {} more problems (all are in the import_errors table)",
            report.problems - SHOWN_PROBLEMS
        );
    }
    if args.json {
        let obj = serde_json::json!({
            "files": summary.total_files,
            "games": summary.games,
            "duplicates": summary.duplicates,
            "errors": summary.errors,
            "warnings": summary.warnings,
            "seconds": (summary.seconds * 1000.0).round() / 1000.0,
            "unchanged": summary.unchanged,
            "failed_files": summary.failed_files,
            "db": db.to_string_lossy(),
        });
        outln!("{obj}");
    } else {
        outln!("{}", summary_line(&summary, db));
    }
    Ok(summary.errors == 0)
}

fn summary_line(s: &Progress, db: &Path) -> String {
    let rate = if s.seconds > 0.0 {
        s.games as f64 / s.seconds
    } else {
        0.0
    };
    let mut line = format!(
        "imported {} into {}: {} new, {} duplicate{}, {}, {}",
        plural(s.total_files, "file"),
        db.display(),
        plural(s.games, "game"),
        s.duplicates,
        if s.duplicates == 1 { "" } else { "s" },
        plural(s.errors, "error"),
        plural(s.warnings, "warning"),
    );
    if s.unchanged > 0 {
        line += &format!(", {} unchanged", plural(s.unchanged, "file"));
    }
    line + &format!(" in {:.2} s ({rate:.0} games/s)", s.seconds)
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}
