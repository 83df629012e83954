//! `kifudex import`: files, directories and .zip archives into the database, with a progress
//! bar on a terminal and a summary at the end.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use kifudex::ingest::{ImportCounts, ImportOptions, Observer, Problem, import};
use kifudex::store::Store;

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// Record files, directories (read recursively) and .zip archives.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Worker threads reading records (default: one per core; at most four per core).
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
    /// Leave the openings to the next `kifudex upgrade` (or command that writes) instead of
    /// recognising them while reading (for measuring what recognition costs).
    #[arg(long, hide = true)]
    no_recognise: bool,
    /// After this many commits, say so on stderr (`paused after N commits`) and wait until
    /// standard input closes before going on: tests stop an import at a known point
    /// (readers beside it, a kill) without watching the clock.
    #[arg(long, hide = true, value_name = "COMMITS")]
    pause_after_commits: Option<u64>,
}

/// Problems printed one by one: at most [`PER_SOURCE`] of one file (then a line that counts
/// the rest), and past [`SHOWN_PROBLEMS`] lines only the first of each file, up to
/// [`MOST_LINES`]; whatever is not printed is counted at the end (all are in the
/// import_errors table). A file of 200,000 bad lines does not hide the next file's problem.
const SHOWN_PROBLEMS: usize = 50;
const PER_SOURCE: usize = 5;
const MOST_LINES: usize = 1000;

struct Report<'b> {
    bar: &'b super::output::Bar,
    problems: usize,
    /// Lines printed.
    lines: usize,
    /// The file of the last problem, and its problems so far and those not printed.
    source: Option<(String, usize, usize)>,
    /// Problems neither printed nor counted on their file's line.
    untold: usize,
    /// See `--pause-after-commits`.
    pause_after: Option<u64>,
}

impl<'b> Report<'b> {
    fn new(bar: &'b super::output::Bar) -> Report<'b> {
        Report {
            bar,
            problems: 0,
            lines: 0,
            source: None,
            untold: 0,
            pause_after: None,
        }
    }

    fn print(&mut self, text: &str) {
        self.lines += 1;
        self.bar
            .println(&format!("kifudex: {}", super::output::terminal_safe(text)));
    }

    /// The line counting what was not printed of the last file's problems.
    fn close_source(&mut self) {
        let Some((path, _, hidden)) = self.source.take() else {
            return;
        };
        if hidden == 0 {
            return;
        }
        if self.lines < MOST_LINES {
            let s = if hidden == 1 { "" } else { "s" };
            self.print(&format!(
                "{path}: ... and {hidden} more problem{s} in this file"
            ));
        } else {
            self.untold += hidden;
        }
    }

    /// The end of the import: the last file's count, and what no line told.
    fn finish(&mut self) {
        self.close_source();
        if self.untold > 0 {
            eprintln!(
                "kifudex: ... and {} more problems (all are in the import_errors table)",
                self.untold
            );
        }
    }
}

impl Observer for Report<'_> {
    fn problem(&mut self, problem: &Problem) {
        self.problems += 1;
        if self.source.as_ref().is_none_or(|s| s.0 != problem.path) {
            self.close_source();
            self.source = Some((problem.path.clone(), 0, 0));
        }
        let seen = {
            let s = self.source.as_mut().expect("set above");
            s.1 += 1;
            s.1
        };
        let show = if self.lines < SHOWN_PROBLEMS {
            seen <= PER_SOURCE
        } else {
            seen == 1 && self.lines < MOST_LINES
        };
        if show {
            self.print(&problem.to_string());
        } else if let Some(s) = &mut self.source {
            s.2 += 1;
        }
    }

    fn notice(&mut self, message: &str) {
        self.print(message);
    }

    fn committed(&mut self, commits: u64, _files: usize) {
        if self.pause_after == Some(commits) {
            eprintln!("kifudex: paused after {commits} commits");
            let mut rest = Vec::new();
            // Until the other end closes it (or it cannot be read): then the import goes on.
            let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut rest);
        }
    }
}

pub fn run(db: &Path, args: &ImportArgs) -> Result<bool> {
    let mut store = Store::create(db)?;
    let bar = super::output::Bar::new();
    let mut report = Report::new(&bar);
    report.pause_after = args.pause_after_commits;
    let mut options = ImportOptions {
        jobs: args.jobs.map(|j| super::bounds::threads("--jobs", j)),
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
    let summary = import(&mut store, &args.paths, &options, &mut report, &bar)?;
    report.finish();
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

fn summary_line(s: &ImportCounts, db: &Path) -> String {
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
