//! `kifudex convert`: one record file to another format.

use std::path::Path;

use anyhow::{Context, Result, bail};
use clap::Args;
use kifudex::notation::csa::CsaVersion;
use kifudex::notation::write::{Target, messages, write};
use kifudex::notation::{Record, read_bytes};

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The record to convert.
    file: String,
    /// The format to write: kif, kifu, ki2, ki2u, csa, jkf, usi or psn.
    #[arg(long)]
    to: Target,
    /// The CSA version written by `--to csa`: 2.2 (whole seconds) or 3.0 (fractions of a second).
    #[arg(long, value_name = "VERSION", default_value = "2.2", value_parser = csa_version)]
    csa_version: CsaVersion,
    /// Where to write (standard output when absent).
    #[arg(short, long, value_name = "OUT")]
    output: Option<String>,
}

fn csa_version(s: &str) -> Result<CsaVersion, String> {
    CsaVersion::from_name(s)
        .ok_or_else(|| format!("'{s}' is no CSA version kifudex writes: 2.2 or 3.0"))
}

pub fn run(args: &ConvertArgs) -> Result<bool> {
    let bytes = std::fs::read(&args.file).with_context(|| format!("cannot read {}", args.file))?;
    let read = read_bytes(&bytes, Some(Path::new(&args.file)));
    if let Some(e) = read.error {
        bail!("{}: {e}", args.file);
    }
    if read.games.is_empty() {
        bail!("{}: no game in the file", args.file);
    }
    // CSA, USI and PSN files hold many games; the others one.
    let all_games = args.to.holds_many();
    if read.games.len() > 1 && !all_games {
        eprintln!(
            "kifudex: {}: holds {} games; a {} file holds one, so only the first is written",
            args.file,
            read.games.len(),
            args.to.name()
        );
    }
    let games: &[Record] = if all_games {
        &read.games
    } else {
        &read.games[..1]
    };
    for (i, g) in games.iter().enumerate() {
        let which = if games.len() > 1 {
            format!(" (game {})", i + 1)
        } else {
            String::new()
        };
        for e in &g.errors {
            let warning = if e.is_warning() { "warning: " } else { "" };
            eprintln!("kifudex: {}{which}: {warning}{e}", args.file);
        }
    }
    let bytes = encode(games, args.to, args.csa_version);
    match &args.output {
        Some(out) => std::fs::write(out, bytes).with_context(|| format!("cannot write {out}"))?,
        None => {
            use std::io::Write;
            std::io::stdout().write_all(&bytes)?;
        }
    }
    Ok(games.iter().all(|g| !g.has_errors()))
}

/// The games in the target format, as the bytes to write (the first game only, unless the
/// target holds several); says on stderr what the target cannot hold.
pub fn encode(games: &[Record], to: Target, csa_version: CsaVersion) -> Vec<u8> {
    let written = write(games, to, csa_version);
    for m in messages(&written.dropped, to) {
        eprintln!("kifudex: {m}");
    }
    written.bytes
}
