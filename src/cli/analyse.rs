//! `kifudex analyse`: runs a USI engine over every main-line position of the selected games
//! and keeps its evaluation, best move, depth, nodes and the start of its principal
//! variation (`kifudex::analyse`). A run that stops is taken up by the next one.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use kifudex::analyse::{AnalyseReport, AnalyseRun, analyse};
use kifudex::evals::engine::{Deadlines, EngineCommand, Limit};

use super::filter::FilterArgs;
use super::output::{Bar, count};

#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true)
    .args(["nodes", "movetime", "depth", "byoyomi"])))]
pub struct AnalyseArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// The engine's command line (a program and its arguments, quoted as a shell would:
    /// `--engine "/opt/yaneuraou/YaneuraOu-by-gcc"`).
    #[arg(long, value_name = "CMD")]
    engine: String,
    /// An engine option, set on every start (`--option Threads=1 --option BookFile=no_book`);
    /// the options are part of what names the analysis.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Search each position this many nodes (`go nodes N`): the same answers on every run
    /// of a single-threaded engine.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Search each position this many milliseconds (`go movetime MS`).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Search each position to this depth (`go depth D`).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    /// Search each position with this byoyomi in milliseconds and no main time
    /// (`go btime 0 wtime 0 byoyomi MS`: the form every USI engine takes, gpsusi's only one).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    byoyomi: Option<u64>,
    /// Engine processes at once (lowered to four per core, with a note, beyond that).
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    jobs: u64,
    /// Seconds the engine may take beyond its limit (and to start) before it is killed and
    /// restarted.
    #[arg(long, default_value_t = 60, value_name = "S",
          value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// Print the run's summary as one JSON object.
    #[arg(long)]
    json: bool,
}

impl AnalyseArgs {
    fn limit(&self) -> Limit {
        match (self.nodes, self.movetime, self.depth, self.byoyomi) {
            (Some(n), ..) => Limit::Nodes(n),
            (_, Some(ms), ..) => Limit::Movetime(ms),
            (_, _, Some(d), _) => Limit::Depth(d),
            (.., Some(ms)) => Limit::Byoyomi(ms),
            // clap requires one of them.
            _ => Limit::Depth(1),
        }
    }

    fn options(&self) -> Result<Vec<(String, String)>> {
        self.options
            .iter()
            .map(|o| match o.split_once('=') {
                Some((n, v)) if !n.trim().is_empty() => Ok((n.trim().to_string(), v.to_string())),
                _ => bail!("--option {o:?}: give NAME=VALUE (an empty VALUE for a button)"),
            })
            .collect()
    }
}

pub fn run(db: &Path, args: &AnalyseArgs) -> Result<bool> {
    let command = EngineCommand::from_command_line(&args.engine).with_context(|| {
        format!(
            "--engine {:?}: no program, or a quote left open",
            args.engine
        )
    })?;
    let options = args.options()?;
    let filter = args.filter.filter()?;
    let (mut store, _lock) = super::open_for_writing(db)?;
    let games = filter.resolve(&store, None)?;
    let timeout = Duration::from_secs(args.timeout);
    let run = AnalyseRun {
        command,
        options,
        limit: args.limit(),
        jobs: super::bounds::threads("--jobs", usize::try_from(args.jobs).unwrap_or(usize::MAX)),
        deadlines: Deadlines {
            start: timeout,
            search: timeout,
        },
    };
    let bar = Bar::new();
    let warn = |line: &str| bar.println(&format!("kifudex: engine: {line}"));
    let report = analyse(&mut store, games.as_ref(), &run, &bar, &warn)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        print_report(&report, &mut out)?;
    }
    // Positions left behind (the engine could not be started again) make the run a failure:
    // the next one takes them up.
    Ok(report.left == 0)
}

fn print_report(r: &AnalyseReport, out: &mut impl Write) -> Result<()> {
    let a = &r.analysis;
    if r.games == 0 {
        writeln!(
            out,
            "nothing to analyse: every selected game is analysed by {} ({})",
            a.engine, a.limits
        )?;
        return Ok(());
    }
    let rate = r.analysed as f64 / r.seconds.max(1e-3);
    writeln!(
        out,
        "{} ({}): {} of {} analysed in {:.1} s ({rate:.1}/s){}; {} complete",
        a.engine,
        a.limits,
        count(r.analysed as usize, "position"),
        count(r.games as usize, "game"),
        r.seconds,
        match r.resumed {
            0 => String::new(),
            n => format!(
                ", going on from {} analysed before",
                count(n as usize, "position")
            ),
        },
        count(r.completed as usize, "game"),
    )?;
    if r.failures > 0 {
        writeln!(
            out,
            "{} (each restarted); {} without an answer",
            count(r.failures as usize, "engine failure"),
            count(r.unanswered as usize, "position")
        )?;
    }
    if r.left > 0 {
        writeln!(
            out,
            "{} left: the engine could not be started again; run the same command to go on",
            count(r.left as usize, "position")
        )?;
    }
    Ok(())
}
