//! Games out as record files: one file a game, named from date, players and id, or every
//! game in one file for the formats that hold many.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::stage::Stage;
use super::{ExportError, Pending, prepare_dir};
use crate::store::Store;
use kifudex_notation::csa::CsaVersion;
use kifudex_notation::write::{Dropped, Target, messages, write};

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
    let mut name = String::with_capacity(NAME_BYTES + 8);
    if !push_part(&mut name, date.unwrap_or(""), 10) {
        name.push_str("nodate");
    }
    let each = (NAME_BYTES - 40) / 2;
    for p in [sente, gote] {
        let before = name.len();
        name.push('_');
        if !push_part(&mut name, p.unwrap_or(""), each) {
            name.truncate(before);
        }
    }
    name.push('_');
    let _ = write!(name, "{id}");
    name.push('.');
    name.push_str(ext);
    name
}

/// Adds `s` to `name` as a part of a file name: separators, control, space and reserved
/// characters as `_`, at most `max` bytes of them, no run of underscores, none at the ends and
/// no dots at the ends (Windows drops them). Whether anything was added.
fn push_part(name: &mut String, s: &str, max: usize) -> bool {
    let start = name.len();
    // The bytes taken from `s`, before runs of underscores are squeezed: what `max` limits.
    let mut taken = 0;
    for c in s.chars() {
        let c = match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
            c if c.is_control() || c.is_whitespace() => '_',
            c => c,
        };
        if taken + c.len_utf8() > max {
            break;
        }
        taken += c.len_utf8();
        if c == '_' && name.len() > start && name.ends_with('_') {
            continue;
        }
        name.push(c);
    }
    let ends = |c: char| c == '_' || c == '.';
    let kept = name[start..].trim_end_matches(ends).len();
    name.truncate(start + kept);
    let lead = kept - name[start..].trim_start_matches(ends).len();
    name.drain(start..start + lead);
    name.len() > start
}

/// One sentence per kind of what a target could not hold, for each game that lost it:
/// counts are per game, so the sentence is kept without them.
fn note(lost: &mut BTreeMap<String, usize>, dropped: &[Dropped], to: Target) {
    let kinds: Vec<Dropped> = dropped.iter().map(Dropped::kind).collect();
    for m in messages(&kinds, to) {
        *lost
            .entry(m.replace(": 0 are not written", ": not written"))
            .or_default() += 1;
    }
}

/// Games read from the database at a time and handed to a writer thread.
const CHUNK: usize = 256;

/// Writes the games `ids` (in that order) as `opts` says; `progress` is called with the
/// number of games written so far.
pub fn export_files(
    store: &Store,
    ids: &[i64],
    opts: &FileOptions,
    mut progress: impl FnMut(usize),
) -> Result<FileReport, ExportError> {
    if ids.is_empty() {
        return Err(ExportError::NothingSelected);
    }
    let mut report = FileReport::default();
    let mut lost: BTreeMap<String, usize> = BTreeMap::new();
    if opts.one_file {
        prepare_dir(&opts.out, opts.force)?;
        let path = opts.out.join(format!("games.{}", opts.to.extension()));
        let mut file = Pending::create(&path)?;
        // A CSA file separates its games with `/` lines; PSN with a blank line.
        for (i, &id) in ids.iter().enumerate() {
            let g = store.game(id)?.ok_or(ExportError::Missing(id))?;
            let written = write(std::slice::from_ref(&g.record), opts.to, opts.csa_version);
            note(&mut lost, &written.dropped, opts.to);
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
        let stage = Stage::prepare(&opts.out, opts.force)?;
        report.games = write_each(store, ids, opts, &stage, &mut lost, &mut progress)?;
        stage.finish()?;
        report.files = report.games;
    }
    report.dropped = lost.into_iter().collect();
    Ok(report)
}

/// One file a game: writer threads (one a core), each with its own read-only connection to
/// the database, take the games a chunk at a time, read them and turn them into text and
/// files; this thread reports the progress. The first error stops them all.
fn write_each(
    store: &Store,
    ids: &[i64],
    opts: &FileOptions,
    stage: &Stage,
    lost: &mut BTreeMap<String, usize>,
    progress: &mut impl FnMut(usize),
) -> Result<usize, ExportError> {
    let writers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let writers = writers.clamp(1, ids.len().div_ceil(CHUNK).max(1));
    // The store is not shared between threads: each opens the database again.
    let dir = store.dir();
    let next_chunk = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // The first error any thread met: the one reported.
    let first_error: Mutex<Option<ExportError>> = Mutex::new(None);
    let fail = |e: ExportError| {
        stop.store(true, Ordering::Relaxed);
        if let Ok(mut first) = first_error.lock() {
            first.get_or_insert(e);
        }
    };
    let write_games =
        |tick: std::sync::mpsc::Sender<()>| -> Result<BTreeMap<String, usize>, ExportError> {
            let mut lost = BTreeMap::new();
            let own = Store::open_read_only(dir)?;
            own.read_unmapped()?;
            loop {
                let first = next_chunk
                    .fetch_add(1, Ordering::Relaxed)
                    .saturating_mul(CHUNK);
                let Some(chunk) = ids.get(first..ids.len().min(first.saturating_add(CHUNK))) else {
                    break;
                };
                if chunk.is_empty() {
                    break;
                }
                // One read transaction a chunk: SQLite locks once for its games.
                let read = own.read_transaction()?;
                let written = own.games_to_write(chunk, |id, g| -> Result<(), ExportError> {
                    if stop.load(Ordering::Relaxed) {
                        return Err(ExportError::Stopped);
                    }
                    let g = g.ok_or(ExportError::Missing(id))?;
                    let written = write(std::slice::from_ref(&g.record), opts.to, opts.csa_version);
                    note(&mut lost, &written.dropped, opts.to);
                    let name = file_name(
                        g.date.as_deref(),
                        g.sente.as_deref(),
                        g.gote.as_deref(),
                        g.id,
                        opts.to.extension(),
                    );
                    stage.write(&name, &written.bytes)?;
                    done.fetch_add(1, Ordering::Relaxed);
                    Ok(())
                });
                match written {
                    // Another thread failed: its error is the one reported.
                    Err(ExportError::Stopped) if stop.load(Ordering::Relaxed) => return Ok(lost),
                    w => w?,
                }
                drop(read);
                // The reporting thread has gone only when it stopped waiting: nothing to tell.
                let _ = tick.send(());
            }
            Ok(lost)
        };
    std::thread::scope(|s| {
        let (tick, ticks) = std::sync::mpsc::channel::<()>();
        let handles: Vec<_> = (0..writers)
            .map(|_| {
                let tick = tick.clone();
                s.spawn(move || write_games(tick).map_err(fail).ok())
            })
            .collect();
        drop(tick);
        // Until every writer has dropped its sender.
        while ticks.recv().is_ok() {
            progress(done.load(Ordering::Relaxed));
        }
        for h in handles {
            match h.join() {
                Ok(Some(l)) => {
                    for (k, n) in l {
                        *lost.entry(k).or_default() += n;
                    }
                }
                Ok(None) => {}
                Err(_) => fail(ExportError::Stopped),
            }
        }
        match first_error.lock().map_err(|_| ExportError::Stopped)?.take() {
            Some(e) => Err(e),
            None => {
                let n = done.load(Ordering::Relaxed);
                progress(n);
                Ok(n)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`file_name`] as it was written first, with a `String` a part and a join.
    fn reference(
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

    #[test]
    fn file_names_are_what_the_first_writer_made() {
        let texts = [
            None,
            Some(""),
            Some("2019-04-08"),
            Some("2019/04/08 10:00"),
            Some("羽生善治"),
            Some("羽生 善治 九段"),
            Some("  羽生\t\n善治  "),
            Some("._a_b_."),
            Some("..."),
            Some("___"),
            Some("_._._"),
            Some("a//b\\\\c::d**e??f\"g<h>i|j"),
            Some("CON"),
            Some("\u{0}\u{1f}x\u{7f}\u{85}y\u{3000}z"),
            Some("藤井聡太竜王・名人・王位・叡王・王将・棋聖・棋王・王座"),
            Some("abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz"),
            Some("a_______________________________________________________b"),
            Some("ＡＢＣ　ＤＥＦ"),
            Some("é̃👍🏽x"),
        ];
        for date in texts {
            for sente in texts {
                for gote in [texts[0], texts[5], texts[9], texts[14], texts[18]] {
                    for id in [0, 7, -3, i64::MAX] {
                        assert_eq!(
                            file_name(date, sente, gote, id, "kifu"),
                            reference(date, sente, gote, id, "kifu"),
                            "{date:?} {sente:?} {gote:?}"
                        );
                    }
                }
            }
        }
    }
}
