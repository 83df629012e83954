//! Answers kept for the next request that asks the same: explorer users click through the
//! same first moves again and again, and the tree of an early position over a million games
//! costs far more than looking up its answer.
//!
//! An answer is kept with the *generation* it was computed in. The generation moves on
//! whenever a worker sees that another connection committed to the database (an import
//! running beside the server; see [`Store::data_version`](crate::store::Store::data_version))
//! and when a worker opens its connection; answers of an older generation are never served
//! again. Before it looks an answer up, a worker checks its own connection's data version, so
//! an answer is never older than the database as it was when its request was taken. The
//! answers held are bounded in bytes; the least recently used go first.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Answers kept by default, in bytes of JSON.
pub const DEFAULT_BUDGET: usize = 64 << 20;

/// Answers longer than this are not kept (a few would push out hundreds of small ones).
const MAX_ANSWER: usize = 1 << 20;

pub struct Cache {
    generation: AtomicU64,
    budget: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    map: HashMap<String, Entry>,
    bytes: usize,
    clock: u64,
}

struct Entry {
    generation: u64,
    body: Arc<str>,
    used: u64,
}

impl Cache {
    /// A cache holding at most `budget` bytes of answers (0: none).
    pub fn new(budget: usize) -> Cache {
        Cache {
            generation: AtomicU64::new(0),
            budget,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// The current generation: an answer computed from now on is kept with it.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// The database changed: no answer kept so far is served again.
    pub fn changed(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The answer kept for `key` in the current generation.
    pub fn get(&self, key: &str) -> Option<Arc<str>> {
        let now = self.generation();
        let mut inner = self.lock();
        inner.clock += 1;
        let clock = inner.clock;
        let entry = inner.map.get_mut(key)?;
        if entry.generation == now {
            entry.used = clock;
            return Some(Arc::clone(&entry.body));
        }
        let old = inner.map.remove(key).expect("found above");
        inner.bytes -= key.len() + old.body.len();
        None
    }

    /// Keeps `body` for `key`, computed in `generation`.
    pub fn put(&self, key: String, generation: u64, body: Arc<str>) {
        let size = key.len() + body.len();
        if generation != self.generation() || body.len() > MAX_ANSWER || size > self.budget {
            return;
        }
        let mut inner = self.lock();
        inner.clock += 1;
        let used = inner.clock;
        inner.bytes += size;
        if let Some(old) = inner.map.insert(
            key.clone(),
            Entry {
                generation,
                body,
                used,
            },
        ) {
            inner.bytes -= key.len() + old.body.len();
        }
        if inner.bytes > self.budget {
            inner.evict(self.budget / 4 * 3, self.generation());
        }
    }

    /// The number of answers held and their size in bytes.
    pub fn size(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.map.len(), inner.bytes)
    }
}

impl Inner {
    /// Drops the answers of older generations, then the least recently used until at most
    /// `target` bytes are held.
    fn evict(&mut self, target: usize, now: u64) {
        self.map.retain(|_, e| e.generation == now);
        let mut order: Vec<(u64, String)> =
            self.map.iter().map(|(k, e)| (e.used, k.clone())).collect();
        order.sort_unstable();
        self.bytes = self.map.iter().map(|(k, e)| k.len() + e.body.len()).sum();
        for (_, key) in order {
            if self.bytes <= target {
                break;
            }
            if let Some(e) = self.map.remove(&key) {
                self.bytes -= key.len() + e.body.len();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_of_an_older_generation_are_not_served() {
        let c = Cache::new(1 << 20);
        c.put("a".into(), 0, Arc::from("1"));
        assert_eq!(c.get("a").as_deref(), Some("1"));
        c.changed();
        assert_eq!(c.get("a"), None);
        assert_eq!(c.size(), (0, 0));
        // Computed before the change, kept after it: never stored.
        c.put("b".into(), 0, Arc::from("2"));
        assert_eq!(c.get("b"), None);
        c.put("b".into(), 1, Arc::from("3"));
        assert_eq!(c.get("b").as_deref(), Some("3"));
    }

    #[test]
    fn the_least_recently_used_go_first_when_the_budget_is_exceeded() {
        // Each entry is 1 + 9 = 10 bytes; the budget holds 10 of them.
        let c = Cache::new(100);
        for k in 0..10u8 {
            c.put(((b'a' + k) as char).to_string(), 0, Arc::from("123456789"));
        }
        assert_eq!(c.size(), (10, 100));
        // Use a and b, then add one more: the budget is exceeded, the oldest unused go until
        // 75 bytes are held.
        assert!(c.get("a").is_some());
        assert!(c.get("b").is_some());
        c.put("k".into(), 0, Arc::from("123456789"));
        assert_eq!(c.size(), (7, 70));
        for k in ["a", "b", "k", "f", "g", "h", "i", "j"] {
            if k == "f" {
                assert!(c.get(k).is_none(), "{k} was among the oldest");
            } else {
                assert!(c.get(k).is_some(), "{k} was kept");
            }
        }
        // Replacing an answer counts its size once.
        c.put("a".into(), 0, Arc::from("1"));
        assert_eq!(c.size(), (7, 62));
    }
}
