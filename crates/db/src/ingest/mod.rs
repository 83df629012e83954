//! Import: walk the inputs, read and replay the records in parallel (rayon), and write them
//! with one writer in batched transactions. A file that fails is recorded with its errors and
//! the import goes on; what was readable in it is kept. Game ids follow the order of the
//! inputs (sorted within directories), whatever the number of workers.
//!
//! The text index follows the database: after each database commit the games it added (and
//! deleted) go to the text thread, which commits the index after the database. An import
//! killed between the two commits leaves the index behind; the next open of the index catches
//! up (`TextIndex::sync`). Position postings follow the same way (see `store::postings`). One
//! import runs at a time (`Store::lock_import`).

mod large;
pub mod remove;
pub mod walk;
mod write;
mod zipraw;

pub use large::{ContentHasher, content_hash};

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::progress::Progress;
use crate::store::{GameRow, Inserted, KnownSources, SourceRow, Store, StoreError};
use crate::text::{GameText, TextError, TextIndex};
use kifudex_notation::{Severity, read_bytes_each};
use walk::{Content, SourceInfo, Unit};
use write::{Sink, TextJob, index_text, write_all};

/// What can stop an import (a bad file never does).
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Text(#[from] TextError),
    #[error("the text index stopped")]
    TextStopped,
    #[error("cannot start {0} import workers: {1}")]
    Pool(usize, String),
}

/// How to import.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// Worker threads reading and replaying records (default: one per core).
    pub jobs: Option<usize>,
    /// Commit after this many games...
    pub batch_games: usize,
    /// ... or after this long, whichever comes first.
    pub batch_time: Duration,
    /// Index the positions of variations too.
    pub variations: bool,
    /// Recognise openings, strategies and castles while reading (the default). Without,
    /// the games are recognised by the next command that opens the database (for measuring
    /// what recognition costs).
    pub recognise: bool,
    /// Postings a segment of the position index holds (the default,
    /// [`SEGMENT_ENTRIES`](crate::store::postings::SEGMENT_ENTRIES), is about 110,000 games;
    /// tests ask for small ones to write several).
    pub segment_entries: usize,
    /// An import of at least this many new files, and of no fewer than the games already
    /// stored, drops the games' date and player indexes and builds them at its end
    /// (see `store::indexes`), unless the database would then hold more than
    /// [`DEFER_INDEXES_UP_TO`] games.
    pub defer_indexes_from: usize,
    /// Bytes the write-ahead log may grow to before the writer copies what is left of it
    /// into the database and starts it again (the default is
    /// [`LOG_LIMIT`](crate::store::LOG_LIMIT); see `store::checkpoint`).
    pub log_limit: u64,
    /// The most bytes one file, or one archive entry once inflated, may hold
    /// ([`walk::MAX_SOURCE_BYTES`] by default); a bigger one is an error, the rest of the
    /// import goes on. A CSA file read in pieces (see `piece_bytes`) may be bigger: only
    /// one of its games may not.
    pub max_source_bytes: u64,
    /// A file of more than twice this many bytes is read through once for its hash and
    /// encoding, then, when it is CSA, read again this many bytes at a time (see `large`):
    /// 16 MiB by default.
    pub piece_bytes: usize,
    /// A file holding more games than this is handed to the writer in parts of this many
    /// games as it is read, so that memory does not grow with the games of one file (they
    /// are still written in one transaction with their source).
    pub source_part_games: usize,
}

/// The most games a database may hold at the end of an import that builds the games indexes
/// at its end. The build reads the whole table once per index, on one core, beside the last
/// segment's sort and the text index's last commit: at 100,000 games it takes 0.4 s and saves
/// 0.6 CPU-s; at 1,000,000 it takes 5 s and saves 14–16 CPU-s (the indexes' random inserts
/// had grown to a seventh of the import's CPU): 53–56 s against 63–65 s, alternated on the
/// 2-core machine of the README's figures. Larger imports were not measured.
pub const DEFER_INDEXES_UP_TO: u64 = 2_000_000;

impl Default for ImportOptions {
    fn default() -> ImportOptions {
        ImportOptions {
            jobs: None,
            // Each commit writes every index page it touched to the log again: few, big
            // commits write the date and player indexes fewer times (a third of the writer's
            // time at 1M games with commits of 4,096 games).
            batch_games: 16_384,
            batch_time: Duration::from_secs(2),
            variations: false,
            recognise: true,
            segment_entries: crate::store::postings::SEGMENT_ENTRIES,
            defer_indexes_from: 10_000,
            log_limit: crate::store::LOG_LIMIT,
            max_source_bytes: walk::MAX_SOURCE_BYTES,
            piece_bytes: 16 << 20,
            source_part_games: 4096,
        }
    }
}

/// How far ahead of the writer the workers may read, in batches of units
/// ([`walk::batches`]).
const REORDER_WINDOW: usize = 16;

/// Where an import stands, in counts; also its summary at the end.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ImportCounts {
    /// Files (and archive entries) to read in all.
    pub total_files: usize,
    /// Files (and archive entries) done, unchanged ones included.
    pub files: usize,
    /// Files skipped because an earlier import read them as they are.
    pub unchanged: usize,
    /// Games stored.
    pub games: usize,
    /// Games read that were already stored.
    pub duplicates: usize,
    /// Of those, records that said other things than the stored game's own source (twins:
    /// see `store::twins`), whose facts the game took where its own lacked them.
    pub twins: usize,
    /// Errors recorded (unreadable files, and data a file holds that could not be kept).
    pub errors: usize,
    /// Warnings recorded (lines skipped that hold no game data, defaults assumed).
    pub warnings: usize,
    /// Files that could not be read at all.
    pub failed_files: usize,
    pub seconds: f64,
}

/// Something the user should hear about at once.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub path: String,
    /// The game in the file (when the file holds several, or always for reading errors).
    pub game_index: Option<usize>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
    pub severity: Severity,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.path)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        if let Some(i) = self.game_index.filter(|&i| i > 0) {
            write!(f, ": game {}", i + 1)?;
        }
        if self.severity == Severity::Warning {
            write!(f, ": warning")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Shows where an import stands: files done of all, and the counts beside them.
pub(crate) fn show(watch: &dyn Progress, c: &ImportCounts) {
    watch.set(c.files as u64);
    let rate = if c.seconds > 0.0 {
        c.games as f64 / c.seconds
    } else {
        0.0
    };
    watch.note(&format!(
        "{} games ({:.0}/s), {} duplicates, {} errors, {} warnings",
        c.games, rate, c.duplicates, c.errors, c.warnings
    ));
}

/// Events an import reports while it runs, besides its progress.
pub trait Observer {
    fn problem(&mut self, _problem: &Problem) {}
    /// Something about the database as a whole (the text index was rebuilt ...).
    fn notice(&mut self, _message: &str) {}
    /// A transaction of the import was committed: `commits` so far, `files` done. What it
    /// wrote is in the database for every reader; the import goes on when this returns.
    fn committed(&mut self, _commits: u64, _files: usize) {}
}

/// A source read and parsed by a worker, ready for the writer.
struct Parsed {
    source: SourceRow,
    /// Left unread: an earlier import read it as it is.
    unchanged: bool,
    /// Known source whose content turned out unchanged (only its mtime changed).
    touch: Option<i64>,
    /// The games, each with its place in the source (a record skipped leaves a gap).
    games: Vec<(usize, GameRow)>,
    errors: Vec<Problem>,
    /// More games of this source follow in the next `Parsed` (a big file, handed over in
    /// parts); the last part has the source as read whole (its games, format, error).
    more: bool,
}

/// Imports `paths` into `store`, first bringing what is derived from its games up to date
/// ([`Store::upgrade`]). `watch` hears the stages and the files done.
pub fn import(
    store: &mut Store,
    paths: &[PathBuf],
    options: &ImportOptions,
    observer: &mut dyn Observer,
    watch: &dyn Progress,
) -> Result<ImportCounts, IngestError> {
    let started = Instant::now();
    let mut progress = ImportCounts::default();
    // Taken before the walk: of two imports started together, the first to ask runs first
    // (a walk of a big tree takes a while), and the other waits for it whole.
    let _lock = store.lock_import()?;
    let upgraded = store.upgrade_locked(watch)?;
    if upgraded.recognised > 0 {
        observer.notice(&format!(
            "recognised the openings of {} games again (new definitions)",
            upgraded.recognised
        ));
    }
    if upgraded.indexed > 0 {
        observer.notice(&format!(
            "indexed the positions of {} games an earlier import had left out",
            upgraded.indexed
        ));
    }
    let (units, problems) = walk::units(paths);
    for (path, message) in problems {
        progress.errors += 1;
        progress.failed_files += 1;
        observer.problem(&Problem {
            path,
            game_index: None,
            line: None,
            column: None,
            message,
            severity: Severity::Error,
        });
    }
    let (text, report) = TextIndex::open_synced(&store.db().text(), &*store)?;
    if let Some(n) = &report.notice {
        observer.notice(n);
    }
    if options.variations {
        store.set_meta(crate::store::postings::VARIATIONS_META, "1")?;
    }
    let stored = store.game_count()?;
    let mut writer = store.writer()?;
    writer.segment_entries(options.segment_entries);
    writer.log_limit(options.log_limit);
    let known = writer.known_sources()?;
    progress.total_files = units.iter().map(Unit::sources).sum::<usize>();
    let new_files = progress.total_files.saturating_sub(known.len());
    if new_files >= options.defer_indexes_from
        && new_files as u64 >= stored
        && stored + new_files as u64 <= DEFER_INDEXES_UP_TO
    {
        writer.defer_game_indexes()?;
    }
    watch.stage("importing", Some(progress.total_files as u64), "files");
    show(watch, &progress);

    let jobs = options.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .thread_name(|i| format!("kifudex-read-{i}"))
        .build()
        .map_err(|e| IngestError::Pool(jobs, e.to_string()))?;

    // Workers take batches of units in order from a shared counter and send what they read
    // in parts; the writer puts them back in order, so ids do not depend on scheduling. The
    // channel is bounded: memory stays flat however big the collection.
    let batches = walk::batches(&units);
    let (tx, rx) = mpsc::sync_channel::<Part>(4 * jobs.max(1));
    let next = AtomicUsize::new(0);
    let written = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let units = &units;
        let batches = &batches;
        let known = &known;
        let next = &next;
        let written = &written;
        let stop = &stop;
        let pool = &pool;
        scope.spawn(move || {
            pool.scope(|s| {
                for _ in 0..jobs.max(1) {
                    let tx = tx.clone();
                    s.spawn(move |_| {
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= batches.len() || stop.load(Ordering::Relaxed) {
                                break;
                            }
                            // Stay within a window of the writer, so that one slow unit
                            // cannot make the reorder buffer grow without bound.
                            while i >= written.load(Ordering::Relaxed) + REORDER_WINDOW
                                && !stop.load(Ordering::Relaxed)
                            {
                                std::thread::sleep(Duration::from_millis(1));
                            }
                            if !read_batch(&units[batches[i].clone()], i, known, options, &tx) {
                                break;
                            }
                        }
                    });
                }
            });
            drop(tx);
        });
        // The text index is written by a thread of its own, a commit behind the database.
        // Its channel holds 8 jobs of up to 2,048 games, so that reading and writing go on
        // for a while when it commits (a second or more for a segment of 100,000 games).
        let (text_tx, text_rx) = mpsc::sync_channel::<TextJob>(8);
        let text_thread = scope.spawn(move || index_text(text, text_rx));
        let mut sink = Sink {
            db: &mut writer,
            text: text_tx,
            texts: Vec::new(),
            started,
        };
        let done = write_all(
            &mut sink,
            rx,
            written,
            options,
            &mut progress,
            observer,
            watch,
        );
        if done.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        drop(sink);
        // The last postings, and the games indexes a bulk import left out (or a killed one
        // before it), are written while the text thread commits.
        let done = done.and_then(|()| {
            writer.finish()?;
            Ok(())
        });
        let text_done = text_thread
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        // A text index that stopped first closes the channel: its error is the one to tell.
        match (done, text_done) {
            (_, Err(e)) => Err(IngestError::from(e)),
            (done, Ok(())) => done,
        }
    });
    result?;
    drop(writer);
    progress.seconds = started.elapsed().as_secs_f64();
    show(watch, &progress);
    watch.finish();
    Ok(progress)
}

/// What a worker read of a batch: all of it (`last`), or the part that passed
/// [`walk::HAND_OVER_BYTES`].
struct Part {
    batch: usize,
    part: usize,
    last: bool,
    parsed: Vec<Parsed>,
}

/// Reads and parses batch `batch` and sends it in parts; false when the writer is gone.
fn read_batch(
    units: &[Unit],
    batch: usize,
    known: &KnownSources,
    options: &ImportOptions,
    tx: &mpsc::SyncSender<Part>,
) -> bool {
    let (mut part, mut parsed, mut bytes) = (0, Vec::new(), 0);
    let mut gone = false;
    let send = |mut parsed: Vec<Parsed>, last: bool, part: &mut usize| {
        // The openings of all the games of the part, one after another: the matcher's tables
        // stay in the cache from one game to the next (recognised as each game was read, they
        // were pushed out by the reader's work in between), and it reads each game's moves
        // from the row, two bytes a move.
        if options.recognise {
            for (_, g) in parsed.iter_mut().flat_map(|p| p.games.iter_mut()) {
                g.recognise();
            }
        }
        let ok = tx
            .send(Part {
                batch,
                part: *part,
                last,
                parsed,
            })
            .is_ok();
        *part += 1;
        ok
    };
    for (n, unit) in units.iter().enumerate() {
        parse_unit(unit, known, options, &mut |p| {
            // A part of a big file goes to the writer at once.
            let more = p.more;
            bytes += if more { 0 } else { p.source.size };
            parsed.push(p);
            if more && !gone && !send(std::mem::take(&mut parsed), false, &mut part) {
                gone = true;
            }
        });
        if gone {
            return false;
        }
        let last = n + 1 == units.len();
        if last || bytes >= walk::HAND_OVER_BYTES {
            if !send(std::mem::take(&mut parsed), last, &mut part) {
                return false;
            }
            bytes = 0;
        }
    }
    true
}

/// Reads, decodes, parses and replays every source of a unit, except those an earlier
/// import read with the same size and time (files) or the same size and CRC (archive
/// entries).
fn parse_unit(
    unit: &Unit,
    known: &KnownSources,
    options: &ImportOptions,
    emit: &mut dyn FnMut(Parsed),
) {
    let indexed = index_options(options.variations);
    let unchanged = |info: &SourceInfo| {
        known.get(&info.key, &info.display).is_some_and(|k| {
            k.options == indexed
                && k.size == info.size
                && match info.crc {
                    Some(crc) => k.content_hash == format!("{crc:08x}"),
                    None => k.mtime == info.mtime,
                }
        })
    };
    let pieces_from = (options.piece_bytes as u64).saturating_mul(2);
    for (info, content) in walk::read_unit(unit, options.max_source_bytes, pieces_from, unchanged) {
        parse_source(info, content, known, options, emit);
    }
}

/// The import options that change what is indexed, as the `sources` table keeps them: a
/// source indexed with other options is read again.
fn index_options(variations: bool) -> &'static str {
    if variations { "variations" } else { "" }
}

fn parse_source(
    info: SourceInfo,
    content: Content,
    known: &KnownSources,
    options: &ImportOptions,
    emit: &mut dyn FnMut(Parsed),
) {
    let mut source = SourceRow {
        path: info.display.clone(),
        key: info.key.clone(),
        size: info.size,
        mtime: info.mtime,
        content_hash: String::new(),
        format: None,
        encoding: None,
        games: 0,
        error: None,
        replaces: known.get(&info.key, &info.display).map(|k| k.id),
        options: index_options(options.variations),
    };
    let failed = |mut source: SourceRow, message: String, emit: &mut dyn FnMut(Parsed)| {
        source.error = Some(message.clone());
        let errors = vec![problem(&source.path, None, None, message)];
        emit(Parsed {
            source,
            unchanged: false,
            touch: None,
            games: Vec::new(),
            errors,
            more: false,
        })
    };
    // The file's bytes, or a big file surveyed (read through once, see `large`).
    let (bytes, mut large) = match content {
        Content::Bytes(b) => {
            source.size = b.len() as u64;
            source.content_hash = match info.crc {
                Some(crc) => format!("{crc:08x}"),
                None => format!("{:016x}", content_hash(&b)),
            };
            (b, None)
        }
        Content::Large { mut file, limit } => match large::survey(&mut file, info.size) {
            Ok(survey) => {
                source.size = survey.len;
                source.content_hash = format!("{:016x}", survey.hash);
                (Vec::new(), Some((file, limit, survey)))
            }
            Err(e) => return failed(source, format!("cannot read: {e}"), emit),
        },
        Content::Unchanged => {
            return emit(Parsed {
                source,
                unchanged: true,
                touch: None,
                games: Vec::new(),
                errors: Vec::new(),
                more: false,
            });
        }
        Content::Failed(e) => return failed(source, format!("cannot read: {e}"), emit),
    };
    if let Some(k) = known.get(&source.key, &source.path)
        && k.content_hash == source.content_hash
        && k.size == source.size
        && k.options == source.options
    {
        return emit(Parsed {
            touch: Some(k.id),
            unchanged: false,
            source,
            games: Vec::new(),
            errors: Vec::new(),
            more: false,
        });
    }
    let path = std::path::Path::new(&info.display);
    let mut parts = Parts {
        source,
        games: Vec::new(),
        errors: Vec::new(),
        done: 0,
        part: options.source_part_games.max(1),
        options,
        emit,
    };
    let read = match &mut large {
        None => Ok(read_bytes_each(&bytes, Some(path), &mut |rec, format| {
            parts.add(rec, format)
        })),
        Some((file, limit, survey)) => large::read_games(
            file,
            survey,
            path,
            *limit,
            options.piece_bytes,
            &mut |rec, f| parts.add(rec, f),
        ),
    };
    drop(bytes);
    match read {
        Ok(read) => parts.finish(read),
        Err(message) => {
            let Parts { source, emit, .. } = parts;
            failed(source, message, emit)
        }
    }
}

/// A source's games, handed to the writer in parts as they are read: each game becomes its
/// row as soon as it is read, and a file of 100,000 games never holds 100,000 records, nor
/// rows, at once (they are still written in one transaction with their source).
struct Parts<'o, 'e> {
    source: SourceRow,
    games: Vec<(usize, GameRow)>,
    errors: Vec<Problem>,
    /// Records read so far (those skipped included): the next one's place in the source.
    done: usize,
    part: usize,
    options: &'o ImportOptions,
    emit: &'e mut dyn FnMut(Parsed),
}

impl Parts<'_, '_> {
    fn add(&mut self, mut rec: kifudex_notation::Record, format: kifudex_notation::Format) {
        let i = self.done;
        self.done += 1;
        for e in std::mem::take(&mut rec.errors) {
            let at = Some((e.line, e.column));
            let mut p = problem(&self.source.path, Some(i), at, e.message);
            p.severity = e.severity;
            self.errors.push(p);
        }
        if is_empty_game(&rec) {
            let mut p = problem(
                &self.source.path,
                Some(i),
                None,
                "a record of no moves, with no headers and the usual start of its handicap: nothing to keep, skipped".to_string(),
            );
            p.severity = Severity::Warning;
            self.errors.push(p);
            return;
        }
        // Its openings are recognised later, still in the parallel stage, with the other games
        // of the batch (`read_batch`): the writer only stores what was found.
        self.games.push((
            i,
            GameRow::from_record(rec, format, self.options.variations),
        ));
        if self.games.len() == self.part {
            (self.emit)(Parsed {
                source: self.source.clone(),
                unchanged: false,
                touch: None,
                games: std::mem::take(&mut self.games),
                errors: std::mem::take(&mut self.errors),
                more: true,
            });
        }
    }

    /// The last part, with the source as read whole.
    fn finish(self, read: kifudex_notation::ReadFile) {
        let Parts {
            mut source,
            games,
            mut errors,
            done,
            emit,
            ..
        } = self;
        source.format = read.format;
        source.encoding = Some(read.encoding);
        source.games = done;
        if let Some(e) = &read.error {
            source.error = Some(e.clone());
            errors.insert(0, problem(&source.path, None, None, e.clone()));
        }
        emit(Parsed {
            source,
            unchanged: false,
            touch: None,
            games,
            errors,
            more: false,
        })
    }
}

/// A record of no moves that holds nothing else a game has: no header, no comment, and
/// the start of a named handicap (the even one included). Kept, it would only be a
/// duplicate of every other such record: an import skips it, with a warning. A record of
/// no moves that carries headers or a start set up by hand (a problem, a position to
/// study) is a game.
fn is_empty_game(rec: &kifudex_notation::Record) -> bool {
    rec.main.moves.is_empty()
        && rec.headers.is_empty()
        && rec.start_comments.is_empty()
        && rec.handicap() != kifudex_shogi::Handicap::Other
}

fn problem(
    path: &str,
    game_index: Option<usize>,
    at: Option<(usize, usize)>,
    message: String,
) -> Problem {
    Problem {
        path: path.to_string(),
        game_index,
        line: at.map(|a| a.0),
        column: at.map(|a| a.1),
        message,
        severity: Severity::Error,
    }
}
