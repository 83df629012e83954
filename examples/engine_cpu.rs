//! kifudex's own CPU per analysed position against the engine's (Linux):
//!
//! `cargo run --release --example engine_cpu -- [ENGINE] [NODES] [POSITIONS]`
//!
//! Analyses the positions of generated games with `go nodes NODES` (defaults: fairy-stockfish,
//! 100000, 40 positions). kifudex's CPU is its process's (the driver and its reader threads)
//! over the analyses; the engine's is its process's CPU, reaped after `quit`, less that of an
//! engine that was only started and stopped.

use std::time::Instant;

use kifudex::evals::engine::{Deadlines, Engine, EngineCommand, Limit};
use kifudex::synth::{Synth, SynthOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let engine = args.next().unwrap_or_else(|| "fairy-stockfish".to_string());
    let nodes: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let positions: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let command = EngineCommand::from_command_line(&engine).unwrap_or_else(|| {
        eprintln!("engine_cpu: no engine command");
        std::process::exit(2)
    });

    // An engine started and stopped, for what starting costs it.
    let before = children_cpu();
    match Engine::start(command.clone(), &[], Deadlines::default()) {
        Ok(e) => e.quit(),
        Err(e) => {
            eprintln!("engine_cpu: {e}");
            std::process::exit(1)
        }
    }
    let start_cost = children_cpu() - before;

    let mut synth = Synth::new(SynthOptions::default());
    let mut work = Vec::new();
    while work.len() < positions {
        let game = synth.game();
        let moves: Vec<_> = game.main.moves.iter().map(|m| m.mv).collect();
        for ply in (0..moves.len()).step_by(7) {
            if work.len() < positions {
                work.push((game.start.clone(), moves[..ply].to_vec()));
            }
        }
    }

    let before = children_cpu();
    let mut e = Engine::start(command, &[], Deadlines::default()).unwrap_or_else(|e| {
        eprintln!("engine_cpu: {e}");
        std::process::exit(1)
    });
    let ours_before = own_cpu();
    let wall = Instant::now();
    for (start, moves) in &work {
        if let Err(err) = e.analyse(start, moves, Limit::Nodes(nodes)) {
            eprintln!("engine_cpu: {err}");
            std::process::exit(1)
        }
    }
    let wall = wall.elapsed().as_secs_f64();
    let ours = own_cpu() - ours_before;
    e.quit();
    let engine_cpu = children_cpu() - before - start_cost;
    let n = work.len() as f64;
    println!(
        "{} positions at go nodes {nodes}: {:.1} ms wall, engine {:.1} ms CPU, kifudex {:.3} ms CPU a position: kifudex {:.2}% of the engine",
        work.len(),
        wall * 1e3 / n,
        engine_cpu * 1e3 / n,
        ours * 1e3 / n,
        ours / engine_cpu * 100.0
    );
}

/// Seconds of CPU (user and system) of `who`.
#[cfg(target_os = "linux")]
fn cpu(who: libc::c_int) -> f64 {
    // SAFETY: getrusage fills the struct it is given; a zeroed rusage is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage the call may write.
    if unsafe { libc::getrusage(who, &mut usage) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

#[cfg(target_os = "linux")]
fn own_cpu() -> f64 {
    cpu(libc::RUSAGE_SELF)
}

#[cfg(target_os = "linux")]
fn children_cpu() -> f64 {
    cpu(libc::RUSAGE_CHILDREN)
}

#[cfg(not(target_os = "linux"))]
fn own_cpu() -> f64 {
    eprintln!("engine_cpu: measures on Linux only");
    std::process::exit(2)
}

#[cfg(not(target_os = "linux"))]
fn children_cpu() -> f64 {
    own_cpu()
}
