//! `kifudex export`, `kifudex parquet`, `kifudex book` and `kifudex hash`: games out of the
//! database as files, as Parquet, as an engine book; a position's hashes.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use kifudex::export::book::{BookOptions, write_book};
use kifudex::export::files::{FileOptions, export_files};
use kifudex::export::parquet::{export_parquet, write_parquet};
use kifudex::export::{ExportError, ExportGame};
use kifudex::notation::csa::CsaVersion;
use kifudex::notation::read_bytes;
use kifudex::notation::write::Target;
use kifudex::query::parse_position;
use kifudex::shogi::Color;
use kifudex::store::Store;

use super::filter::FilterArgs;

#[derive(Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    filter: FilterArgs,
    #[command(flatten)]
    train: super::train::TrainArgs,
    /// Write the games as record files in this format: kif, kifu, ki2, ki2u, csa, jkf, psn, usi.
    #[arg(long, requires = "out", conflicts_with = "parquet")]
    to: Option<Target>,
    /// The folder to write the record files into.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Every game in one file (games.csa, games.psn, games.usi): for the formats that hold many.
    #[arg(long, requires = "to")]
    one_file: bool,
    /// Write games.parquet, positions.parquet, comments.parquet and evals.parquet into this folder instead.
    #[arg(long, value_name = "DIR")]
    parquet: Option<PathBuf>,
    /// Write into a folder that exists (files of the same name are replaced).
    #[arg(long)]
    force: bool,
    /// A summary as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct ParquetArgs {
    /// Record files (no database): every game of each.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The folder to write games.parquet, positions.parquet, comments.parquet and evals.parquet into.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Number the games from this id (shards of one collection: give each its own range).
    #[arg(long, default_value_t = 1, value_name = "N")]
    first_id: i64,
    /// Write into a folder that exists.
    #[arg(long)]
    force: bool,
    /// A summary as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum SideArg {
    Sente,
    Gote,
}

#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// The book file to write (YaneuraOu's `#YANEURAOU-DB2016 1.00` text format).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Only moves played in at least this many games.
    #[arg(long, default_value_t = 1, value_name = "N")]
    min_count: u64,
    /// Only positions reached within this many moves (at most 100,000).
    #[arg(long, default_value_t = 40, value_name = "N", value_parser = super::bounds::ply::<u32>())]
    max_ply: u32,
    /// Only the moves of the side that won.
    #[arg(long)]
    winner_only: bool,
    /// Only positions with this side to move.
    #[arg(long = "side", id = "book_side", value_enum)]
    book_side: Option<SideArg>,
    /// Write over a file that exists.
    #[arg(long)]
    force: bool,
    /// A summary as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct HashArgs {
    /// The position: an SFEN, `sfen ...`, `startpos [moves ...]` or `position ...`.
    position: String,
}

fn bar(len: usize, what: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(len as u64);
    let style = ProgressStyle::with_template(&format!(
        "{{bar:40}} {{pos}}/{{len}} {what} ({{per_sec}}, {{eta}} left)"
    ))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    Some(bar)
}

/// The games the filter selects, in id order.
fn selected(store: &Store, filter: &FilterArgs) -> Result<Vec<i64>> {
    let sel = filter.filter()?.selection(store)?;
    Ok(store.select_games(&sel, None)?.ids().collect())
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn run_export(db: &Path, args: &ExportArgs) -> Result<bool> {
    let store = super::open_for_reading(db, false)?;
    let ids = selected(&store, &args.filter)?;
    let start = Instant::now();
    if ids.is_empty() {
        return Err(ExportError::NothingSelected.into());
    }
    if let Some(opts) = args.train.options(args.force)? {
        let b = bar(ids.len(), "games");
        let ok = super::train::run(&store, &ids, &opts, args.json, |n| {
            if let Some(b) = &b {
                b.set_position(n as u64);
            }
        })?;
        if let Some(b) = b {
            b.finish_and_clear();
        }
        return Ok(ok);
    }
    if let Some(dir) = &args.parquet {
        let b = bar(ids.len(), "games");
        let report = export_parquet(&store, &ids, dir, args.force, |n| {
            if let Some(b) = &b {
                b.set_position(n as u64);
            }
        })?;
        if let Some(b) = b {
            b.finish_and_clear();
        }
        if args.json {
            println!("{}", serde_json::to_string(&report)?);
        } else {
            println!(
                "wrote {} with {}, {}, {} and {} ({} bytes) in {:.2} s",
                dir.display(),
                plural(report.games, "game", "games"),
                plural(report.positions as usize, "position", "positions"),
                plural(report.comments as usize, "comment", "comments"),
                plural(report.evals as usize, "evaluation", "evaluations"),
                report.bytes,
                start.elapsed().as_secs_f64()
            );
        }
        return Ok(true);
    }
    let (Some(to), Some(out)) = (args.to, &args.out) else {
        bail!(
            "give --to FORMAT --out DIR (record files), --parquet DIR, --hcpe FILE or --psv FILE"
        );
    };
    if args.one_file && !to.holds_many() {
        bail!(
            "--one-file: a {} file holds one game; csa, psn and usi hold many",
            to.name()
        );
    }
    let opts = FileOptions {
        to,
        out: out.clone(),
        one_file: args.one_file,
        force: args.force,
        csa_version: CsaVersion::V2_2,
    };
    let b = bar(ids.len(), "games");
    let report = export_files(&store, &ids, &opts, |n| {
        if let Some(b) = &b {
            b.set_position(n as u64);
        }
    })?;
    if let Some(b) = b {
        b.finish_and_clear();
    }
    for (message, games) in &report.dropped {
        eprintln!("kifudex: {message} ({})", plural(*games, "game", "games"));
    }
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "files": report.files,
                "games": report.games,
                "seconds": start.elapsed().as_secs_f64(),
            })
        );
    } else {
        println!(
            "wrote {} as {} into {} in {:.2} s",
            plural(report.games, "game", "games"),
            plural(
                report.files,
                &format!("{} file", to.name()),
                &format!("{} files", to.name())
            ),
            out.display(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(true)
}

pub fn run_parquet(args: &ParquetArgs) -> Result<bool> {
    let start = Instant::now();
    let mut files = args.files.iter();
    let mut pending: std::vec::IntoIter<ExportGame> = Vec::new().into_iter();
    let mut next_id = args.first_id;
    let mut failed = 0usize;
    let mut next = || -> Option<Result<ExportGame, ExportError>> {
        loop {
            if let Some(g) = pending.next() {
                return Some(Ok(g));
            }
            let path = files.next()?;
            let shown = path.display().to_string();
            let bytes = match std::fs::read(path) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("kifudex: {shown}: {e}");
                    failed += 1;
                    continue;
                }
            };
            let read = read_bytes(&bytes, Some(path));
            if let Some(e) = &read.error {
                eprintln!("kifudex: {shown}: {e}");
                failed += 1;
                continue;
            }
            let format = read.format.unwrap_or(kifudex::notation::Format::Kif);
            let mut games = Vec::with_capacity(read.games.len());
            for (i, rec) in read.games.into_iter().enumerate() {
                for e in &rec.errors {
                    eprintln!("kifudex: {shown}: {e}");
                }
                games.push(ExportGame::from_record(next_id, &shown, i, format, rec));
                next_id += 1;
            }
            pending = games.into_iter();
        }
    };
    let report = write_parquet(&args.out, args.force, &mut next, |_| {})?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "wrote {} with {} and {} ({} bytes) in {:.2} s",
            args.out.display(),
            plural(report.games, "game", "games"),
            plural(report.positions as usize, "position", "positions"),
            report.bytes,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(failed == 0)
}

pub fn run_book(db: &Path, args: &BookArgs) -> Result<bool> {
    let store = super::open_for_reading(db, true)?;
    let ids = selected(&store, &args.filter)?;
    let start = Instant::now();
    let opts = BookOptions {
        min_count: args.min_count.max(1),
        max_ply: args.max_ply,
        winner_only: args.winner_only,
        side: args.book_side.map(|s| match s {
            SideArg::Sente => Color::Black,
            SideArg::Gote => Color::White,
        }),
        force: args.force,
        memory: None,
    };
    let b = bar(ids.len(), "games");
    let report = write_book(&store, &ids, &args.out, &opts, |n| {
        if let Some(b) = &b {
            b.set_position(n as u64);
        }
    })?;
    if let Some(b) = b {
        b.finish_and_clear();
    }
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "wrote {} with {} and {} from {} in {:.2} s",
            args.out.display(),
            plural(report.positions, "position", "positions"),
            plural(report.moves, "move", "moves"),
            plural(report.games, "game", "games"),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(true)
}

pub fn run_hash(args: &HashArgs) -> Result<bool> {
    let pos = parse_position(&args.position)?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}",
        serde_json::json!({
            "sfen": pos.to_sfen(),
            "hash": pos.hash(),
            "board_hash": pos.board_hash(),
            "hand_hash": pos.hash() ^ pos.board_hash(),
        })
    )?;
    Ok(true)
}
