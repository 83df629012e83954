//! An opening book for engines, in YaneuraOu's text format (`#YANEURAOU-DB2016 1.00`), which
//! YaneuraOu engines and ShogiHome read.
//!
//! A book holds, for each position, the moves played from it in the selected games: `sfen`
//! lines sorted by their SFEN (without the move number, as YaneuraOu's on-the-fly book
//! lookup requires), each followed by one line per move: the move, the reply most played
//! after it in the games that played it there (the ponder move; `none` when none of them goes
//! on), a value, a depth (0: not from a search) and the number of games that played it. The
//! value turns the move's score `s` (points for the side to move per game with a known
//! result, a draw ½) into the engines' scale with the logistic model they use:
//! `600 × ln(s / (1 − s))`, `s` kept within [0.01, 0.99] (±2757); 0 when no game that played
//! it has a known result.
//!
//! Counts are those of `kifudex tree` on the same position: each game counts once per move,
//! whatever ply it reaches the position at. The book holds the positions a game reaches
//! within its first `max_ply` moves, each with its moves played `min_count` times or more.

mod key;
mod rows;
mod tally;

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use self::rows::{Seen, SpareHashes};
use self::tally::BookText;
use super::pool::with_workers;
use super::{ExportError, Pending};
use crate::sort::{Buffers, KeyRanges, RangeBatch, Splitters};
use crate::store::Store;
use kifudex_shogi::{Color, Move};

/// Which moves go into the book.
#[derive(Debug, Clone)]
pub struct BookOptions {
    /// Moves played by fewer games are left out (and positions left with no move).
    pub min_count: u64,
    /// Positions first reached after this many moves are left out.
    pub max_ply: u32,
    /// Only moves of the side that won the game.
    pub winner_only: bool,
    /// Only positions with this side to move.
    pub side: Option<Color>,
    /// Write over a file that exists.
    pub force: bool,
    /// Bytes of rows the book's sort holds in memory before it writes them out (the memory
    /// a book takes is about three times this); `None`: [`SORT_BUDGET`].
    pub memory: Option<usize>,
}

impl Default for BookOptions {
    fn default() -> BookOptions {
        BookOptions {
            min_count: 1,
            max_ply: 40,
            winner_only: false,
            side: None,
            force: false,
            memory: None,
        }
    }
}

/// What a book holds.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct BookReport {
    pub games: usize,
    pub positions: usize,
    pub moves: usize,
}

/// A move of a position in the book.
#[derive(Debug, Clone)]
pub struct BookMove {
    pub mv: Move,
    pub count: u64,
    /// sente wins, gote wins, draws
    pub results: [u64; 3],
    /// The reply most played after it in the games that played it here (ties: the first in
    /// USI order); `None` when none of them goes on.
    pub ponder: Option<Move>,
}

impl BookMove {
    /// Points for the side to move per game with a known result.
    pub fn score(&self, to_move: Color) -> Option<f64> {
        let [s, g, d] = self.results;
        let known = s + g + d;
        if known == 0 {
            return None;
        }
        let wins = if to_move == Color::Black { s } else { g };
        Some((wins as f64 + d as f64 / 2.0) / known as f64)
    }

    /// The book's value: see the module's documentation.
    pub fn value(&self, to_move: Color) -> i32 {
        match self.score(to_move) {
            None => 0,
            Some(s) => {
                let s = s.clamp(0.01, 0.99);
                (600.0 * (s / (1.0 - s)).ln()).round() as i32
            }
        }
    }
}

/// Bytes of rows the book's sort holds in memory before it writes them out, by default.
pub const SORT_BUDGET: usize = 192 << 20;

/// Writes a book of the games `ids` to `out`.
///
/// One sort, in the order the file is written in, with memory bounded whatever the number
/// of games: each position a game reaches within `max_ply` moves gives a row keyed by its
/// SFEN (packed, [`key`]), and so does each position a game reaches later that may be one of
/// those (a Bloom filter of their hashes: a position's count takes in the games that reach
/// it late too). The rows are cut into ranges of keys by splitters sampled from the games,
/// written out past the memory budget, and read back a range at a time: each range sorted,
/// counted and written as text on every core ([`crate::sort`]).
pub fn write_book(
    store: &Store,
    ids: &[i64],
    out: &Path,
    opts: &BookOptions,
    mut progress: impl FnMut(usize),
) -> Result<BookReport, ExportError> {
    if ids.is_empty() {
        return Err(ExportError::NothingSelected);
    }
    if out.exists() && !opts.force {
        return Err(ExportError::Exists(out.to_path_buf()));
    }
    if u32::try_from(ids.len()).is_err() {
        return Err(ExportError::Io(
            out.to_path_buf(),
            std::io::Error::other("more than 2^32 games selected"),
        ));
    }
    let work = out.with_file_name(format!(
        ".{}.work",
        out.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    ));
    let result = build(store, ids, out, &work, opts, &mut progress);
    let _ = std::fs::remove_dir_all(&work);
    result
}

fn build(
    store: &Store,
    ids: &[i64],
    out: &Path,
    work: &Path,
    opts: &BookOptions,
    progress: &mut impl FnMut(usize),
) -> Result<BookReport, ExportError> {
    let io = |e| ExportError::Io(out.to_path_buf(), e);
    let memory = opts.memory.unwrap_or(SORT_BUDGET).max(1);
    // 1. The splitters of the SFEN order, from a sample of games spread over the selection;
    // buckets of about BUCKET_BYTES each (a bucket is sorted, then read in key order all
    // over: it should fit in a core's cache), up to MAX_BUCKETS.
    let sample: Vec<i64> = ids
        .iter()
        .step_by(ids.len().div_ceil(SAMPLE_GAMES))
        .copied()
        .collect();
    let keys = rows::sample_keys(store, &sample, opts)?;
    let scale = |n: usize| n.saturating_mul(ids.len()) / sample.len();
    let early_rows = scale(keys.len());
    let bytes = scale(keys.iter().map(|k| 2 + k.len() + rows::TAIL).sum());
    let buckets = (bytes / BUCKET_BYTES.min(memory / 16).max(1)).clamp(1, MAX_BUCKETS);
    let splitters = Splitters::from_sample(keys, buckets);
    let splitters = Arc::new(splitters);
    let buffers = Arc::new(Buffers::new(memory));
    let cuts = (&*splitters, &*buffers);
    let mut sorted = KeyRanges::new(
        Arc::clone(&splitters),
        Arc::clone(&buffers),
        rows::TAIL,
        &work.join("rows"),
        memory,
    );
    // 2. The rows of the positions every game reaches within max_ply moves, the games
    // replayed by one worker a core; then those of the positions reached later that may be
    // among them.
    let mut seen = Seen::with_bytes((early_rows * 2).min(memory / 4));
    let spare = SpareHashes::default();
    let mut done = 0;
    with_workers(
        store,
        |store, (first, chunk): (usize, &[i64])| {
            rows::early_rows(store, first, chunk, opts, cuts, &spare)
        },
        |feed| {
            let mut take = |batches: Vec<rows::Early>| -> Result<(), ExportError> {
                for (games, batch, hashes) in batches {
                    seen.touch(hashes.iter().copied());
                    for &h in &hashes {
                        seen.insert(h);
                    }
                    spare.put(hashes);
                    sorted.push(batch).map_err(io)?;
                    done += games;
                    progress(done);
                }
                Ok(())
            };
            for (i, chunk) in ids.chunks(GAMES_A_BATCH).enumerate() {
                take(feed.send((i * GAMES_A_BATCH, chunk))?)?;
            }
            take(feed.finish()?)
        },
    )?;
    with_workers(
        store,
        |store, (first, chunk): (usize, &[i64])| {
            rows::late_rows(store, first, chunk, opts, cuts, &seen)
        },
        |feed| {
            let mut take = |batches: Vec<RangeBatch>| -> Result<(), ExportError> {
                for batch in batches {
                    sorted.push(batch).map_err(io)?;
                }
                Ok(())
            };
            for (i, chunk) in ids.chunks(GAMES_A_BATCH).enumerate() {
                take(feed.send((i * GAMES_A_BATCH, chunk))?)?;
            }
            take(feed.finish()?)
        },
    )?;
    drop(seen);
    // 3. The positions in SFEN order, counted on every core, written by a thread of its own.
    let mut report = BookReport {
        games: ids.len(),
        ..BookReport::default()
    };
    let mut file = Pending::create(out)?;
    file.write_all(b"#YANEURAOU-DB2016 1.00\n")?;
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<u8>>(4);
    let texts = Buffers::new(memory / 2);
    let file = std::thread::scope(|s| {
        let texts = &texts;
        let writer = s.spawn(move || -> Result<Pending, ExportError> {
            for text in rx {
                file.writer().write_all(&text).map_err(io)?;
                texts.put(text);
            }
            Ok(file)
        });
        let counted = sorted.sorted(
            io,
            |bytes| {
                // Buffers of a few sizes (powers of two), so that one handed back fits again.
                let mut text = texts.get();
                text.reserve_exact((bytes + bytes / 8).next_power_of_two());
                BookText::new(opts, text)
            },
            |text: BookText| {
                report.positions += text.positions;
                report.moves += text.moves;
                tx.send(text.text).map_err(|_| ExportError::Stopped)
            },
        );
        drop(tx);
        let written = writer.join().map_err(|_| ExportError::Stopped)?;
        // The writer's error says more than the counting's Stopped.
        let file = written?;
        counted.map(|()| file)
    })?;
    file.finish()?;
    Ok(report)
}

/// Games sampled for the splitters of the SFEN order.
const SAMPLE_GAMES: usize = 2048;
/// Bytes of rows a bucket of the SFEN order is meant to hold.
const BUCKET_BYTES: usize = 1 << 20;
/// The most buckets the SFEN order is cut into.
const MAX_BUCKETS: usize = 4096;
/// Games a worker replays at a time.
const GAMES_A_BATCH: usize = 256;
