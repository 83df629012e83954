//! The scan over a database's games: the games to read cut into units (a range of ids, or a
//! list of the ids a selection left), one worker a thread of rayon's pool, each on its own
//! read-only connection, taking the next unit until none is left or the scan is stopped;
//! each keeps what it found in its own accumulator, merged at the end. Memory holds a unit's
//! rows at a time, whatever the size of the database.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use crate::store::{LineRow, LineSpan, Starts, Store, StoreError};
use kifudex_shogi::Move;

/// Ids a unit of a whole-range scan covers.
const RANGE_UNIT: i64 = 4096;
/// Ids a unit of a selection's scan holds.
const IDS_UNIT: usize = 1024;

/// How a scan reports and when it stops early.
#[derive(Clone, Copy, Default)]
pub struct Control<'a> {
    /// Set (by a Ctrl-C handler, say) to stop after the units under way.
    pub stop: Option<&'a AtomicBool>,
    /// Stop at this time (after the units under way).
    pub deadline: Option<Instant>,
    /// Told after each unit.
    pub progress: Option<&'a (dyn Fn(Progress) + Sync)>,
}

/// How far a scan is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub units_done: u64,
    pub units: u64,
    /// Games read so far.
    pub games: u64,
    /// What was found so far (games).
    pub found: u64,
}

impl Control<'_> {
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The games a scan reads.
#[derive(Debug, Clone)]
pub(crate) enum Units {
    /// Every game with an id up to `last`.
    All { last: i64 },
    /// These games (ascending ids).
    Ids(Vec<i64>),
}

impl Units {
    fn len(&self) -> usize {
        match self {
            Units::All { last } => (*last / RANGE_UNIT + 1) as usize,
            Units::Ids(ids) => ids.len().div_ceil(IDS_UNIT),
        }
    }

    fn span(&self, i: usize) -> LineSpan<'_> {
        match self {
            Units::All { .. } => {
                let first = i as i64 * RANGE_UNIT;
                LineSpan::Range(first, first + RANGE_UNIT - 1)
            }
            Units::Ids(ids) => {
                LineSpan::Ids(&ids[i * IDS_UNIT..((i + 1) * IDS_UNIT).min(ids.len())])
            }
        }
    }
}

/// How a scan ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Games read.
    pub scanned: u64,
    /// Stopped before every game was read.
    pub stopped: bool,
}

/// Runs `game` over each game of `units` with at least `min_plies` moves, on every thread
/// of rayon's pool, each with the accumulator `make` gives and a buffer for the game's
/// moves; `game` returns how many games it found (for the progress report). Returns the
/// accumulators.
pub(crate) fn run<A: Send>(
    store: &Store,
    units: &Units,
    min_plies: u32,
    control: &Control<'_>,
    make: impl Fn() -> A + Sync,
    game: impl Fn(&mut A, &LineRow<'_>, &mut Vec<Move>) -> u64 + Sync,
) -> Result<(Vec<A>, Outcome), StoreError> {
    let n = units.len();
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let scanned = AtomicU64::new(0);
    let found = AtomicU64::new(0);
    let stopped = AtomicBool::new(false);
    let dir = store.dir();
    let results = rayon::broadcast(|_| -> Result<A, StoreError> {
        let mut acc = make();
        let mut moves = Vec::new();
        let mut conn: Option<Store> = None;
        let mut starts = Starts::default();
        loop {
            if control.stopped() {
                stopped.store(true, Ordering::Relaxed);
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            let store = match &conn {
                Some(s) => s,
                None => {
                    let s = Store::open_read_only(dir)?;
                    // Each game is read once: the pages the scan touches are not kept
                    // mapped (they would count as this process's memory).
                    s.read_unmapped()?;
                    conn.insert(s)
                }
            };
            let mut games = 0u64;
            let mut hits = 0u64;
            store.each_line(units.span(i), min_plies, &mut starts, |row| {
                games += 1;
                hits += game(&mut acc, row, &mut moves);
            })?;
            scanned.fetch_add(games, Ordering::Relaxed);
            let f = found.fetch_add(hits, Ordering::Relaxed) + hits;
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(p) = control.progress {
                p(Progress {
                    units_done: d,
                    units: n as u64,
                    games: scanned.load(Ordering::Relaxed),
                    found: f,
                });
            }
        }
        Ok(acc)
    });
    let accs = results
        .into_iter()
        .collect::<Result<Vec<A>, StoreError>>()?;
    let outcome = Outcome {
        scanned: scanned.load(Ordering::Relaxed),
        stopped: stopped.load(Ordering::Relaxed) && done.load(Ordering::Relaxed) < n as u64,
    };
    Ok((accs, outcome))
}

/// The first `limit` moves of a row's codes (two bytes a move, [`Move::to_u16`],
/// little-endian) decoded into `buf`, up to the first code no move gives.
pub(crate) fn decode(codes: &[u8], limit: usize, buf: &mut Vec<Move>) {
    buf.clear();
    buf.extend(
        codes
            .chunks_exact(2)
            .take(limit)
            .map_while(|c| Move::from_u16(u16::from_le_bytes([c[0], c[1]]))),
    );
}

/// The rows a scan keeps to show: the first `limit` by their key, whatever order the
/// workers find them in.
#[derive(Debug)]
pub(crate) struct Kept<K: Ord, V> {
    limit: usize,
    rows: std::collections::BTreeMap<K, V>,
}

impl<K: Ord, V> Kept<K, V> {
    pub fn new(limit: usize) -> Kept<K, V> {
        Kept {
            limit,
            rows: std::collections::BTreeMap::new(),
        }
    }

    /// Whether a row of this key would be kept (so that it is worth making).
    pub fn wants(&self, key: &K) -> bool {
        self.rows.len() < self.limit || self.rows.last_key_value().is_some_and(|(k, _)| key < k)
    }

    pub fn add(&mut self, key: K, value: V) {
        if self.limit == 0 {
            return;
        }
        self.rows.insert(key, value);
        if self.rows.len() > self.limit {
            self.rows.pop_last();
        }
    }

    pub fn merge(&mut self, other: Kept<K, V>) {
        for (k, v) in other.rows {
            self.add(k, v);
        }
    }

    pub fn into_rows(self) -> Vec<(K, V)> {
        self.rows.into_iter().collect()
    }
}
