//! `kifudex convert`: one record file to another format.

use std::path::Path;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use kifudex::notation::csa::{self, CsaVersion};
use kifudex::notation::{Line, Record, TerminalKind, jkf, kif, psn, read_bytes, usi};

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
    /// JKF (JSON Kifu Format), UTF-8: no bookmarks.
    Jkf,
    /// USI position lines (`startpos moves …`, `sfen … moves …`), one a game: main lines only.
    Usi,
    /// PSN (Portable Shogi Notation, Western moves), every game: no times or bookmarks.
    Psn,
}

impl Target {
    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Target::Kif | Target::Kifu => "KIF",
            Target::Ki2 | Target::Ki2u => "KI2",
            Target::Csa => "CSA",
            Target::Jkf => "JKF",
            Target::Usi => "USI",
            Target::Psn => "PSN",
        }
    }
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The record to convert.
    file: String,
    /// The format to write: kif, kifu, ki2, ki2u, csa, jkf, usi or psn.
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
    if read.games.is_empty() {
        bail!("{}: no game in the file", args.file);
    }
    // CSA, USI and PSN files hold many games; the others one.
    let all_games = matches!(args.to, Target::Csa | Target::Usi | Target::Psn);
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
            let message = format!("{}{which}: {e}", args.file);
            eprintln!("kifudex: {}", super::output::terminal_safe(&message));
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
            "kifudex: {} has no place for the file's remarks (CSA ' lines): {notes} are not written",
            to.name()
        );
    }
    let dropped = |what: &[(&str, bool)], format: &str| {
        let lost: Vec<&str> = what.iter().filter(|w| w.1).map(|w| w.0).collect();
        if !lost.is_empty() {
            eprintln!("kifudex: {format} cannot hold {}: not written", list(&lost));
        }
    };
    let has = |f: fn(&Record) -> bool| games.iter().any(f);
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
        Target::Jkf => {
            dropped(&[("bookmarks", has_bookmarks(game))], "JKF");
            if game.start.move_number() != 1 {
                eprintln!("kifudex: JKF has no move number for the start position: not written");
            }
            if jkf::has_nonstandard_special(game) {
                eprintln!(
                    "kifudex: the JKF schema has no special for an ending of this record; written as MAX_MOVES, FUSENSHO or FUSENPAI"
                );
            }
            jkf::write_jkf(game)
        }
        Target::Usi => {
            dropped(
                &[
                    ("headers", has(|g| !g.headers.is_empty())),
                    (
                        "comments",
                        has(|g| !g.start_comments.is_empty() || g.main.comment_count() > 0),
                    ),
                    ("bookmarks", has(has_bookmarks)),
                    ("times", has(|g| has_times(&g.main))),
                    ("variations", has(|g| g.main.variation_count() > 0)),
                    (
                        "endings (投了, 千日手…)",
                        has(|g| g.main.terminal.is_some()),
                    ),
                ],
                "USI",
            );
            games.iter().map(|g| usi::write_usi(g) + "\n").collect()
        }
        Target::Psn => {
            dropped(
                &[
                    ("times", has(|g| has_times(&g.main))),
                    ("bookmarks", has(has_bookmarks)),
                ],
                "PSN",
            );
            games
                .iter()
                .map(psn::write_psn)
                .collect::<Vec<_>>()
                .join("\n")
        }
    };
    match to {
        Target::Kifu | Target::Ki2u | Target::Csa | Target::Jkf | Target::Usi | Target::Psn => {
            text.into_bytes()
        }
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

/// "a", "a and b", "a, b and c".
fn list(items: &[&str]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

fn has_bookmarks(rec: &Record) -> bool {
    fn walk(line: &Line) -> bool {
        line.moves
            .iter()
            .any(|m| !m.bookmarks.is_empty() || m.variations.iter().any(walk))
    }
    !rec.start_bookmarks.is_empty() || walk(&rec.main)
}

fn has_times(line: &Line) -> bool {
    line.moves
        .iter()
        .any(|m| m.time.is_some() || m.variations.iter().any(has_times))
        || line.terminal.as_ref().is_some_and(|t| t.time.is_some())
}
