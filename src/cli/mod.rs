//! Command-line parsing and dispatch. Each command has its own module and options struct.

mod convert;
mod parse;
mod perft;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// kifudex: a shogi game-database indexer.
#[derive(Parser, Debug)]
#[command(name = "kifudex", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Convert a record to another format, keeping moves, variations, comments, bookmarks,
    /// times and headers.
    Convert(convert::ConvertArgs),
    /// Read game records without a database and print one JSON object per game.
    Parse(parse::ParseArgs),
    /// Count the leaf nodes of the legal move tree from a position (move generator check
    /// and speed measure), with nodes per second.
    Perft(perft::PerftArgs),
}

/// Parses the command line, runs the command and maps failures to exit status 1
/// (clap itself exits with 2 on bad usage).
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Convert(args) => convert::run(&args),
        Command::Parse(args) => parse::run(&args),
        Command::Perft(args) => perft::run(&args).map(|()| true),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("kifudex: {e:#}");
            ExitCode::from(1)
        }
    }
}
