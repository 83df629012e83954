//! `kifudex convert`: one record file to another format.

use std::path::Path;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use kifudex::notation::{kif, read_bytes};

#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum Target {
    /// KIF in Shift-JIS (CP932), as `.kif` files are.
    Kif,
    /// KIF in UTF-8, as `.kifu` files are.
    Kifu,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The record to convert.
    file: String,
    /// The format to write.
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
    let text = kif::write_kif(game);
    let bytes = match args.to {
        Target::Kifu => text.into_bytes(),
        Target::Kif => {
            let (encoded, _, lossy) = encoding_rs::SHIFT_JIS.encode(&text);
            if lossy {
                eprintln!(
                    "kifudex: some characters have no Shift-JIS form and were written as &#NNNN; references"
                );
            }
            encoded.into_owned()
        }
    };
    match &args.output {
        Some(out) => std::fs::write(out, bytes).with_context(|| format!("cannot write {out}"))?,
        None => {
            use std::io::Write;
            std::io::stdout().write_all(&bytes)?;
        }
    }
    Ok(game.errors.is_empty())
}
