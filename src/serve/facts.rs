//! The games' facts ([`Facts`]) the panels count from, read once per generation of the
//! database (see [`cache`](super::cache)) by a thread of their own.
//!
//! Reading them is a scan of the games: seconds at a million games. No request waits for it:
//! until they are read, the panels read the database as the CLI does, and from then on they
//! count from memory. The reading starts with the server and again at the first request
//! after the database changed; facts read in an older generation are never used. One
//! reading runs at a time.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::cache::Cache;
use crate::store::{Facts, Store};

pub struct FactsHolder {
    db: PathBuf,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The generation `facts` (or the reading under way) belongs to.
    generation: u64,
    facts: Option<Arc<Facts>>,
    /// A thread is reading the facts (of `generation`, or of one gone by): one at a time.
    reading: bool,
    /// Reading them for `generation` failed (or they hold too little): not tried again.
    failed: bool,
    /// No reading starts before then: a reading outdated by a change (an import running
    /// beside the server) is followed by a pause as long as it took, so that the facts
    /// take at most half a core while the database keeps changing.
    not_before: Option<Instant>,
}

impl FactsHolder {
    pub fn new(db: &Path) -> FactsHolder {
        FactsHolder {
            db: db.to_path_buf(),
            state: Mutex::new(State::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The facts of the cache's current generation; None while they are not read (and then
    /// this starts reading them when no reading is under way or due to wait).
    pub fn get(self: &Arc<Self>, cache: &Arc<Cache>) -> Option<Arc<Facts>> {
        let now = cache.generation();
        let mut state = self.lock();
        if state.generation == now {
            if let Some(f) = &state.facts {
                return Some(Arc::clone(f));
            }
            if state.failed {
                return None;
            }
        }
        if state.reading || state.not_before.is_some_and(|t| Instant::now() < t) {
            return None;
        }
        *state = State {
            generation: now,
            facts: None,
            reading: true,
            failed: false,
            not_before: None,
        };
        drop(state);
        let (holder, cache) = (Arc::clone(self), Arc::clone(cache));
        let started = std::thread::Builder::new()
            .name("facts".into())
            .spawn(move || holder.read(now, &cache));
        if started.is_err() {
            self.lock().reading = false;
        }
        None
    }

    /// Reads the facts for generation `now` and keeps them if it is still the current one.
    fn read(&self, now: u64, cache: &Cache) {
        let began = Instant::now();
        let read = Store::open_read_only(&self.db)
            .ok()
            .and_then(|s| s.facts().ok().flatten());
        let mut state = self.lock();
        state.reading = false;
        let current = state.generation == now && cache.generation() == now;
        match read {
            Some(f) if current => state.facts = Some(Arc::new(f)),
            None if current => state.failed = true,
            // Outdated while it was read.
            _ => state.not_before = Some(Instant::now() + began.elapsed()),
        }
    }

    /// Whether the facts of the current generation are read (for tests that wait for them).
    pub fn ready(&self, cache: &Cache) -> bool {
        let state = self.lock();
        state.generation == cache.generation() && state.facts.is_some()
    }
}
