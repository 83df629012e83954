//! `kifudex convert`: one record file to another format.

use std::path::Path;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use kifudex::notation::{Line, Record, kif, read_bytes};

#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum Target {
    /// KIF in Shift-JIS (CP932), as `.kif` files are.
    Kif,
    /// KIF in UTF-8, as `.kifu` files are.
    Kifu,
    /// KI2 in Shift-JIS (CP932), as `.ki2` files are: no times.
    Ki2,
    /// KI2 in UTF-8, as `.ki2u` files are: no times.
    Ki2u,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The record to convert.
    file: String,
    /// The format to write: kif, kifu, ki2 or ki2u.
    #[arg(long, value_enum)]
    to: Target,
    /// Where to write (standard output when absent).
    #[arg(short, long, value_name = "OUT")]
    output: Option<String>,
}

pub fn run(args: &ConvertArgs) -> Result<bool> {
    let bytes = std::fs::read(&args.file).with_context(|| format!("cannot read {}", args.file))?;
    let read = read_bytes(&bytes, Some(Path::new(&args.file)));
    if let Some(e) = read.error {
        bail!("{}: {e}", args.file);
    }
    let Some(game) = read.games.first() else {
        bail!("{}: no game in the file", args.file);
    };
    if read.games.len() > 1 {
        eprintln!(
            "kifudex: {}: holds {} games; a KIF file holds one, so only the first is written",
            args.file,
            read.games.len()
        );
    }
    for e in &game.errors {
        eprintln!("kifudex: {}: {e}", args.file);
    }
    let bytes = encode(game, args.to);
    match &args.output {
        Some(out) => std::fs::write(out, bytes).with_context(|| format!("cannot write {out}"))?,
        None => {
            use std::io::Write;
            std::io::stdout().write_all(&bytes)?;
        }
    }
    Ok(game.errors.is_empty())
}

/// The record in the target format, as the bytes to write; says on stderr what the target
/// cannot hold.
pub fn encode(game: &Record, to: Target) -> Vec<u8> {
    let text = match to {
        Target::Kif | Target::Kifu => kif::write_kif(game),
        Target::Ki2 | Target::Ki2u => {
            if has_times(&game.main) {
                eprintln!("kifudex: KI2 has no times: the move times are not written");
            }
            kif::write_ki2(game)
        }
    };
    match to {
        Target::Kifu | Target::Ki2u => text.into_bytes(),
        Target::Kif | Target::Ki2 => {
            let (encoded, _, lossy) = encoding_rs::SHIFT_JIS.encode(&text);
            if lossy {
                eprintln!(
                    "kifudex: some characters have no Shift-JIS form and were written as &#NNNN; references"
                );
            }
            encoded.into_owned()
        }
    }
}

fn has_times(line: &Line) -> bool {
    line.moves
        .iter()
        .any(|m| m.time.is_some() || m.variations.iter().any(has_times))
        || line.terminal.as_ref().is_some_and(|t| t.time.is_some())
}
