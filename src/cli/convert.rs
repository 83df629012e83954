//! `kifudex convert`: one record file to another format.

use std::path::Path;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use kifudex::notation::csa::{self, CsaVersion};
use kifudex::notation::{Line, Record, TerminalKind, kif, read_bytes};

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
    /// CSA in UTF-8, every game of the file (separated by `/` lines): no variations or bookmarks.
    Csa,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The record to convert.
    file: String,
    /// The format to write: kif, kifu, ki2, ki2u or csa.
    #[arg(long, value_enum)]
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
    let Some(game) = read.games.first() else {
        bail!("{}: no game in the file", args.file);
    };
    // A CSA file holds several games; the other targets one.
    let games = match args.to {
        Target::Csa => &read.games[..],
        _ => std::slice::from_ref(game),
    };
    if read.games.len() > games.len() {
        eprintln!(
            "kifudex: {}: holds {} games; a KIF file holds one, so only the first is written",
            args.file,
            read.games.len()
        );
    }
    for e in games.iter().flat_map(|g| &g.errors) {
        eprintln!("kifudex: {}: {e}", args.file);
    }
    let bytes = encode(games, args.to, args.csa_version);
    match &args.output {
        Some(out) => std::fs::write(out, bytes).with_context(|| format!("cannot write {out}"))?,
        None => {
            use std::io::Write;
            std::io::stdout().write_all(&bytes)?;
        }
    }
    Ok(games.iter().all(|g| g.errors.is_empty()))
}

/// The games in the target format, as the bytes to write (the first game only, unless the
/// target holds several); says on stderr what the target cannot hold.
pub fn encode(games: &[Record], to: Target, csa_version: CsaVersion) -> Vec<u8> {
    let Some(game) = games.first() else {
        return Vec::new();
    };
    let notes: usize = games.iter().map(|g| g.notes.len()).sum();
    if notes > 0 && !matches!(to, Target::Csa) {
        eprintln!(
            "kifudex: KIF has no place for the file's remarks (CSA ' lines): {notes} are not written"
        );
    }
    let text = match to {
        Target::Kif | Target::Kifu => kif::write_kif(game),
        Target::Ki2 | Target::Ki2u => {
            if has_times(&game.main) {
                eprintln!("kifudex: KI2 has no times: the move times are not written");
            }
            kif::write_ki2(game)
        }
        Target::Csa => {
            csa_losses(games, csa_version);
            csa::write_csa_games(games, csa_version)
        }
    };
    match to {
        Target::Kifu | Target::Ki2u | Target::Csa => text.into_bytes(),
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

/// Says on stderr what CSA cannot hold of these games.
fn csa_losses(games: &[Record], version: CsaVersion) {
    let variations: usize = games.iter().map(|g| g.main.variation_count()).sum();
    if variations > 0 {
        eprintln!("kifudex: CSA has no variations: {variations} are not written");
    }
    let bookmarks: usize = games
        .iter()
        .map(|g| g.start_bookmarks.len() + main_bookmarks(&g.main))
        .sum();
    if bookmarks > 0 {
        eprintln!("kifudex: CSA has no bookmarks: {bookmarks} are not written");
    }
    if games.iter().any(|g| {
        matches!(
            g.terminal(),
            Some(TerminalKind::DefaultWin | TerminalKind::DefaultLoss)
        )
    }) {
        eprintln!("kifudex: CSA has no word for 不戦勝 or 不戦敗: written as %CHUDAN");
    }
    let fractions = games.iter().any(|g| {
        g.main
            .moves
            .iter()
            .filter_map(|m| m.time)
            .chain(g.main.terminal.as_ref().and_then(|t| t.time))
            .any(|t| t.spent.fract() != 0.0)
    });
    if fractions && version == CsaVersion::V2_2 {
        eprintln!(
            "kifudex: CSA V2.2 times are whole seconds: fractions are cut off (--csa-version 3.0 keeps them)"
        );
    }
}

fn main_bookmarks(line: &Line) -> usize {
    line.moves.iter().map(|m| m.bookmarks.len()).sum()
}

fn has_times(line: &Line) -> bool {
    line.moves
        .iter()
        .any(|m| m.time.is_some() || m.variations.iter().any(has_times))
        || line.terminal.as_ref().is_some_and(|t| t.time.is_some())
}
