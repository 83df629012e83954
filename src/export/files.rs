//! Games out as record files: one file a game, named from date, players and id, or every
//! game in one file for the formats that hold many.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::{ExportError, ExportGame, Pending, prepare_dir};
use crate::notation::csa::CsaVersion;
use crate::notation::write::{Dropped, Target, messages, write};
use crate::store::Store;

/// How to write.
#[derive(Debug, Clone)]
pub struct FileOptions {
    pub to: Target,
    pub out: PathBuf,
    /// Every game in one file (`games.csa`, `games.psn`, `games.usi`).
    pub one_file: bool,
    /// Write into a folder that exists.
    pub force: bool,
    pub csa_version: CsaVersion,
}

/// What an export wrote, and what the target could not hold (each kind once, with the
/// number of games that lost it).
#[derive(Debug, Clone, Default)]
pub struct FileReport {
    pub files: usize,
    pub games: usize,
    pub dropped: Vec<(String, usize)>,
}

/// The longest file name written, in bytes (most file systems allow 255).
const NAME_BYTES: usize = 120;

/// A file name for a game: `2019-04-08_羽生善治_渡邉明_123.kif`. Only characters every file
/// system takes: no separators, no control or reserved characters, no leading dot, limited
/// length; the id makes it unique and keeps it clear of reserved names (CON, NUL …).
pub fn file_name(
    date: Option<&str>,
    sente: Option<&str>,
    gote: Option<&str>,
    id: i64,
    ext: &str,
) -> String {
    let part = |s: Option<&str>, max: usize| -> String {
        let mut out = String::new();
        for c in s.unwrap_or("").chars() {
            let c = match c {
                '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
                c if c.is_control() || c.is_whitespace() => '_',
                c => c,
            };
            if out.len() + c.len_utf8() > max {
                break;
            }
            out.push(c);
        }
        // No run of underscores, none at the ends, no dots at the ends (Windows drops them).
        let mut squeezed = String::with_capacity(out.len());
        for c in out.chars() {
            if !(c == '_' && squeezed.ends_with('_')) {
                squeezed.push(c);
            }
        }
        squeezed.trim_matches(|c| c == '_' || c == '.').to_string()
    };
    let date = part(date, 10);
    let each = (NAME_BYTES - 40) / 2;
    let mut fields: Vec<String> = Vec::new();
    fields.push(if date.is_empty() {
        "nodate".into()
    } else {
        date
    });
    for p in [part(sente, each), part(gote, each)] {
        if !p.is_empty() {
            fields.push(p);
        }
    }
    fields.push(id.to_string());
    format!("{}.{ext}", fields.join("_"))
}

/// Writes the games `ids` (in that order) as `opts` says; `progress` is called after each.
pub fn export_files(
    store: &Store,
    ids: &[i64],
    opts: &FileOptions,
    mut progress: impl FnMut(usize),
) -> Result<FileReport, ExportError> {
    if ids.is_empty() {
        return Err(ExportError::NothingSelected);
    }
    prepare_dir(&opts.out, opts.force)?;
    let mut report = FileReport::default();
    let mut lost: BTreeMap<String, usize> = BTreeMap::new();
    let mut note = |dropped: &[Dropped]| {
        // One sentence per kind of loss: counts are per game, so the sentence without them.
        let kinds: Vec<Dropped> = dropped.iter().map(Dropped::kind).collect();
        for m in messages(&kinds, opts.to) {
            *lost
                .entry(m.replace(": 0 are not written", ": not written"))
                .or_default() += 1;
        }
    };
    if opts.one_file {
        let path = opts.out.join(format!("games.{}", opts.to.extension()));
        let mut file = Pending::create(&path)?;
        // A CSA file separates its games with `/` lines; PSN with a blank line.
        for (i, &id) in ids.iter().enumerate() {
            let g = ExportGame::load(store, id)?;
            let written = write(std::slice::from_ref(&g.record), opts.to, opts.csa_version);
            note(&written.dropped);
            if i > 0 {
                match opts.to {
                    Target::Csa => file.write_all(b"/\n")?,
                    Target::Psn => file.write_all(b"\n")?,
                    _ => {}
                }
            }
            file.write_all(&written.bytes)?;
            report.games += 1;
            progress(i + 1);
        }
        file.finish()?;
        report.files = 1;
    } else {
        for (i, &id) in ids.iter().enumerate() {
            let g = ExportGame::load(store, id)?;
            let written = write(std::slice::from_ref(&g.record), opts.to, opts.csa_version);
            note(&written.dropped);
            let name = file_name(
                g.row.date.as_deref(),
                g.row.sente.as_deref(),
                g.row.gote.as_deref(),
                g.id,
                opts.to.extension(),
            );
            let mut file = Pending::create(&opts.out.join(name))?;
            file.write_all(&written.bytes)?;
            file.finish()?;
            report.files += 1;
            report.games += 1;
            progress(i + 1);
        }
    }
    report.dropped = lost.into_iter().collect();
    Ok(report)
}
