//! Writes a generated collection for benchmarks (see kifudex::synth):
//!
//! `cargo run --release --example gen_games -- --games N --out DIR [--seed S]
//! [--formats kifu,kif,ki2,ki2u,csa] [--comments RATE] [--engine-lines | --evals]`
//!
//! `--comments` is the share of moves with a comment (default 0.03); `--comments 0` makes the
//! collection without comments that the database-size target is stated for.
//! `--engine-lines` gives every move an engine line as Floodgate's engines write them (CSA
//! `'** value variation`, KIF `** value variation`): the load the evaluation reader is
//! measured on.
//! `--evals` gives every move a bare engine value instead (`'** 123`, as Floodgate's engines
//! write it for a book move): a game's evaluation as a random walk, with now and then a
//! blunder's jump and a mate-sized value near the end: the database `blunders` and
//! `stats --evals` are measured on (a line without a variation keeps the database small).
//!
//! Files go into sub-directories of 1,000 files each, one game per file, the formats taken in
//! turn. The same seed writes the same collection.

use std::path::PathBuf;

use kifudex::notation::csa::{CsaVersion, write_csa};
use kifudex::notation::kif::{write_ki2, write_kif};
use kifudex::synth::{Synth, SynthOptions};

fn main() {
    let mut games = 10_000usize;
    let mut out = PathBuf::from("generated");
    let mut seed = 1u64;
    let mut formats = vec!["kifu".to_string()];
    let mut comment_rate = SynthOptions::default().comment_rate;
    let mut engine_lines = false;
    let mut evals = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{a} needs a value")))
        };
        match a.as_str() {
            "--games" => games = value().parse().unwrap_or_else(|_| usage("--games N")),
            "--out" => out = PathBuf::from(value()),
            "--seed" => seed = value().parse().unwrap_or_else(|_| usage("--seed S")),
            "--formats" => formats = value().split(',').map(str::to_string).collect(),
            "--comments" => {
                comment_rate = value()
                    .parse()
                    .ok()
                    .filter(|r: &f64| (0.0..=1.0).contains(r))
                    .unwrap_or_else(|| usage("--comments RATE (0 to 1)"))
            }
            "--engine-lines" => engine_lines = true,
            "--evals" => evals = true,
            _ => usage(&format!("unknown argument {a}")),
        }
    }
    for f in &formats {
        if !["kif", "kifu", "ki2", "ki2u", "csa"].contains(&f.as_str()) {
            usage(&format!("unknown format {f}"));
        }
    }
    let start = std::time::Instant::now();
    let mut synth = Synth::new(SynthOptions {
        seed,
        comment_rate,
        ..SynthOptions::default()
    });
    let mut bytes = 0usize;
    for i in 0..games {
        let mut rec = synth.game();
        if engine_lines {
            kifudex::synth::add_engine_lines(&mut rec, seed.wrapping_add(i as u64));
        } else if evals {
            add_values(&mut rec, seed.wrapping_add(i as u64));
        }
        let format = formats[i % formats.len()].as_str();
        let text = match format {
            "kif" | "kifu" => write_kif(&rec),
            "csa" => write_csa(&rec, CsaVersion::V2_2),
            _ => write_ki2(&rec),
        };
        let data = match format {
            "kif" | "ki2" => kifudex::notation::decode::encode_shift_jis(&text).0,
            _ => text.into_bytes(),
        };
        let dir = out.join(format!("{:04}", i / 1000));
        if i % 1000 == 0 {
            std::fs::create_dir_all(&dir)
                .unwrap_or_else(|e| usage(&format!("{}: {e}", dir.display())));
        }
        let path = dir.join(format!("g{i:07}.{format}"));
        bytes += data.len();
        std::fs::write(&path, data).unwrap_or_else(|e| usage(&format!("{}: {e}", path.display())));
    }
    println!(
        "wrote {games} games ({:.1} MB) to {} in {:.1} s",
        bytes as f64 / 1e6,
        out.display(),
        start.elapsed().as_secs_f64()
    );
}

fn usage(why: &str) -> ! {
    eprintln!(
        "gen_games: {why}\nusage: gen_games --games N --out DIR [--seed S] [--formats kifu,kif,ki2,ki2u,csa] [--comments RATE] [--engine-lines | --evals]"
    );
    std::process::exit(2)
}

/// A bare engine value after every move: a walk of steps within ±150 (sente's view), one move
/// in twenty a jump of 300 to 1500 against its mover, and in one game in ten the last three
/// moves at a mate-sized ±30000.
fn add_values(rec: &mut kifudex::notation::Record, seed: u64) {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mated = next(10) == 0;
    let plies = rec.main.moves.len();
    let mut value = 0i64;
    for (i, node) in rec.main.moves.iter_mut().enumerate() {
        // Move i + 1 is sente's when i is even: a blunder moves the value against its mover.
        let against = if i % 2 == 0 { -1 } else { 1 };
        value += next(301) as i64 - 150;
        if next(20) == 0 {
            value += against * (300 + next(1201) as i64);
        }
        value = value.clamp(-5000, 5000);
        let shown = if mated && i + 3 >= plies {
            30_000 * value.signum()
        } else {
            value
        };
        // Kept without the first `*`, as the readers keep engine lines.
        node.engine.push(format!(" {shown}"));
    }
}
