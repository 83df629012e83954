//! Copying the write-ahead log into the database beside the writer.
//!
//! Left to SQLite, the connection that commits past `wal_autocheckpoint` pages copies the log
//! into the database itself and waits for both files to reach the disk: at 1,000,000 games
//! that stopped the writer (and with it the readers, whose channel filled) for a third of a
//! second every 128 MB, and a tenth of the import's time went idle. A [`Checkpointer`]
//! copies what the log holds after each commit of the writer, on a connection of its own,
//! and waits for the disk there. The log is only started again from its beginning by a
//! writer whose read of the database needs nothing in it: the writer therefore copies the
//! last pages itself once the log has grown past a limit ([`LOG_LIMIT`] unless the importer
//! says otherwise; [`Checkpointer::log_is_long`]), which costs little since the checkpointer
//! has copied and synced the rest. That happens at the first commit after the checkpointer
//! found the log long (or the one after, when a round of the checkpointer was under way), so
//! the log goes past the limit by a commit or two.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::mpsc;

use rusqlite::Connection;

/// Bytes of log after which the writer finishes a checkpoint itself, so that the log starts
/// again from its beginning.
pub const LOG_LIMIT: u64 = 128 << 20;

/// A thread that copies the log into the database while the writer goes on.
pub(super) struct Checkpointer {
    /// A message after each commit; dropping it stops the thread.
    commits: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// Pages in the log at the end of the last checkpoint (−1 before the first).
    log_pages: Arc<AtomicI64>,
    /// Set while the writer wants to copy the rest of the log itself: the thread starts no
    /// round then (two checkpoints cannot run at once, and the writer's would fail).
    held: Arc<AtomicBool>,
}

impl Checkpointer {
    /// Starts one on the database at `path`; `None` when it cannot open it (the writer then
    /// lets SQLite checkpoint as usual).
    pub(super) fn start(path: &Path) -> Option<Checkpointer> {
        let conn = Connection::open(path).ok()?;
        let (commits, committed) = mpsc::channel::<()>();
        let log_pages = Arc::new(AtomicI64::new(-1));
        let held = Arc::new(AtomicBool::new(false));
        let (pages, hold) = (Arc::clone(&log_pages), Arc::clone(&held));
        let thread = std::thread::Builder::new()
            .name("kifudex-checkpoint".into())
            .spawn(move || {
                while committed.recv().is_ok() {
                    // Commits made while it copied are copied by one more round.
                    while committed.try_recv().is_ok() {}
                    if hold.load(Ordering::Relaxed) {
                        continue;
                    }
                    // An optimisation only: whatever goes wrong, the writer and closing
                    // checkpoint anyway.
                    let done = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                        Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
                    });
                    if let Ok((0, log)) = done {
                        pages.store(log, Ordering::Relaxed);
                    }
                }
            })
            .ok()?;
        Some(Checkpointer {
            commits: Some(commits),
            thread: Some(thread),
            log_pages,
            held,
        })
    }

    /// The writer committed: there is more log to copy.
    pub(super) fn committed(&self) {
        if let Some(c) = &self.commits {
            let _ = c.send(());
        }
    }

    /// Whether the log has grown past `limit` bytes, for pages of `page_size` bytes: the
    /// writer should then copy the rest itself, and until it asks again or
    /// [`Checkpointer::log_was_copied`], the thread starts no round.
    pub(super) fn log_is_long(&self, page_size: i64, limit: u64) -> bool {
        let long = self.log_pages.load(Ordering::Relaxed) * page_size >= limit as i64;
        self.held.store(long, Ordering::Relaxed);
        long
    }

    /// The writer finished a checkpoint: the log is short again until the thread says
    /// otherwise, and the thread goes on.
    pub(super) fn log_was_copied(&self) {
        self.log_pages.store(-1, Ordering::Relaxed);
        self.held.store(false, Ordering::Relaxed);
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        drop(self.commits.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
