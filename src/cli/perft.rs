//! `kifudex perft`: leaf counts of the legal move tree, and how fast they were counted.

use std::time::Instant;

use anyhow::Result;
use clap::Args;
use kifudex::query::parse_position;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// How many plies deep to count (at most 12).
    #[arg(short, long, default_value_t = 5, value_parser = super::bounds::perft_depth())]
    depth: u32,
    /// Also print the count below each first move.
    #[arg(long)]
    divide: bool,
    /// The position: an SFEN, `sfen <SFEN> [moves ...]`, `startpos [moves ...]` or
    /// `position ...` (as `kifudex position` reads it).
    #[arg(default_value = "startpos", num_args = 1.., value_name = "POSITION")]
    position: Vec<String>,
}

pub fn run(args: &PerftArgs) -> Result<()> {
    let pos = parse_position(&args.position.join(" "))?;
    let start = Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (mv, n) in pos.perft_divide(args.depth) {
            outln!("{mv}: {n}");
            total += n;
        }
        total
    } else {
        pos.perft(args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    outln!("position: {}", pos.to_sfen());
    outln!(
        "depth {}: {nodes} nodes in {secs:.3} s ({:.0} nodes/s)",
        args.depth,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}
