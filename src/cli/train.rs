//! `kifudex export --hcpe FILE` and `--psv FILE`: the selected games' positions as the
//! training records of dlshogi and YaneuraOu.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, bail};
use clap::Args;
use kifudex::export::train::{Split, TrainFormat, TrainOptions, TrainReport, write_training};
use kifudex::store::Store;

#[derive(Args, Debug, Default)]
pub struct TrainArgs {
    /// Write dlshogi's hcpe records (HuffmanCodedPosAndEval, 38 bytes each) into this file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["psv", "to", "parquet"])]
    hcpe: Option<PathBuf>,
    /// Write YaneuraOu's PackedSfenValue records (40 bytes each) into this file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["to", "parquet"])]
    psv: Option<PathBuf>,
    /// Training records: only positions at this ply or later (0 is the start).
    #[arg(long, value_name = "N", default_value_t = 0)]
    min_ply: u32,
    /// Training records: only positions at this ply or earlier.
    #[arg(long, value_name = "N")]
    max_ply: Option<u32>,
    /// Training records: leave out positions whose side to move is in check.
    #[arg(long)]
    skip_check: bool,
    /// Training records: each position once in the whole export (the first game's record).
    #[arg(long)]
    unique: bool,
    /// Training records: only positions reached in at least this many of the selected games.
    #[arg(long, value_name = "N", default_value_t = 1)]
    min_games: u32,
    /// Training records: only positions with an evaluation in the record.
    #[arg(long)]
    evaluated_only: bool,
    /// Training records: always the move played, never the engine's preferred move.
    #[arg(long)]
    played_moves: bool,
    /// Training records: games without a result too (their records say draw).
    #[arg(long)]
    keep_unknown_results: bool,
    /// Training records: shuffle them with this seed (held in memory until written).
    #[arg(long, value_name = "SEED")]
    shuffle: Option<u64>,
    /// Training records: put this share of the games (0–1) into the --test-out file.
    #[arg(long, value_name = "F", requires = "test_out")]
    test_fraction: Option<f64>,
    /// Training records: the file of the test games' records.
    #[arg(long, value_name = "FILE", requires = "test_fraction")]
    test_out: Option<PathBuf>,
    /// Training records: the seed that picks the test games.
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    split_seed: u64,
}

impl TrainArgs {
    /// The training export asked for, if any.
    pub fn options(&self, force: bool) -> Result<Option<TrainOptions>> {
        let (format, file) = match (&self.hcpe, &self.psv) {
            (Some(f), None) => (TrainFormat::Hcpe, f.clone()),
            (None, Some(f)) => (TrainFormat::Psv, f.clone()),
            _ => {
                if let Some(flag) = self.training_flag() {
                    bail!("{flag} is an option of the training records: give --hcpe or --psv");
                }
                return Ok(None);
            }
        };
        if let Some(max) = self.max_ply
            && max < self.min_ply
        {
            bail!(
                "--max-ply {max} is before --min-ply {}: no position is in the range",
                self.min_ply
            );
        }
        let split = match (self.test_fraction, &self.test_out) {
            (Some(f), Some(out)) => {
                if !(0.0..=1.0).contains(&f) {
                    bail!("--test-fraction {f}: give a share from 0 to 1");
                }
                if *out == file {
                    bail!("--test-out is the same file as the records'");
                }
                Some(Split {
                    fraction: f,
                    seed: self.split_seed,
                    out: out.clone(),
                })
            }
            _ => None,
        };
        Ok(Some(TrainOptions {
            force,
            min_ply: self.min_ply,
            max_ply: self.max_ply,
            skip_check: self.skip_check,
            unique: self.unique,
            min_games: self.min_games.max(1),
            evaluated_only: self.evaluated_only,
            played_moves: self.played_moves,
            keep_unknown_results: self.keep_unknown_results,
            shuffle: self.shuffle,
            split,
            ..TrainOptions::new(format, file)
        }))
    }
}

/// Writes the training records of `ids`, and prints what was written.
pub fn run(
    store: &Store,
    ids: &[i64],
    opts: &TrainOptions,
    json: bool,
    progress: impl FnMut(usize),
) -> Result<bool> {
    let start = Instant::now();
    let report = write_training(store, ids, opts, progress)?;
    if json {
        let mut v = serde_json::to_value(&report)?;
        v["seconds"] = serde_json::json!(start.elapsed().as_secs_f64());
        println!("{v}");
    } else {
        print_report(&report, opts, start.elapsed().as_secs_f64());
    }
    Ok(true)
}

impl TrainArgs {
    /// The first training option given, when one is.
    fn training_flag(&self) -> Option<&'static str> {
        [
            (self.min_ply != 0, "--min-ply"),
            (self.max_ply.is_some(), "--max-ply"),
            (self.skip_check, "--skip-check"),
            (self.unique, "--unique"),
            (self.min_games != 1, "--min-games"),
            (self.evaluated_only, "--evaluated-only"),
            (self.played_moves, "--played-moves"),
            (self.keep_unknown_results, "--keep-unknown-results"),
            (self.shuffle.is_some(), "--shuffle"),
            (self.test_fraction.is_some(), "--test-fraction"),
            (self.split_seed != 0, "--split-seed"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

fn print_report(r: &TrainReport, opts: &TrainOptions, seconds: f64) {
    let mut line = format!(
        "wrote {} {} records ({} evaluated, {} with the engine's move) from {} games into {}",
        r.records,
        r.format,
        r.evaluated,
        r.engine_moves,
        r.games,
        opts.out.display()
    );
    if let Some(split) = &opts.split {
        line.push_str(&format!(
            ", {} test records into {}",
            r.test_records,
            split.out.display()
        ));
    }
    println!("{line} in {seconds:.2} s");
    let left: Vec<String> = [
        (r.games_without_result as u64, "games without a result"),
        (
            r.games_cut_at_illegal_move as u64,
            "games cut at an illegal move",
        ),
        (
            r.skipped_not_full_set,
            "positions without the full set of pieces",
        ),
        (r.skipped_in_check, "positions in check"),
        (r.skipped_unevaluated, "positions without an evaluation"),
        (r.skipped_repeated, "repeated positions"),
        (r.skipped_rare, "positions in too few games"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    if !left.is_empty() {
        println!("left out: {}", left.join(", "));
    }
}
