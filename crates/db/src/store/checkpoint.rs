//! Copying the write-ahead log into the database beside the writer.
//!
//! Left to SQLite, the connection that commits past `wal_autocheckpoint` pages copies the log
//! into the database itself and waits for both files to reach the disk: at 1,000,000 games
//! that stopped the writer (and with it the readers, whose channel filled) for a third of a
//! second every 128 MB, and a tenth of the import's time went idle. A [`Checkpointer`]
//! copies what the log holds after each commit of the writer, on a connection of its own,
//! and waits for the disk there. The log is only started again from its beginning by a
//! writer whose read of the database needs nothing in it: the writer therefore copies the
//! last pages itself once it has written more than a limit of log since the log last started
//! again ([`LOG_LIMIT`] unless the importer says otherwise), which costs little since the
//! checkpointer has copied and synced the rest. The writer counts the pages it wrote to the
//! log itself (SQLite's `SQLITE_DBSTATUS_CACHE_WRITE`), and waits for a round of the
//! checkpointer under way before it copies the rest ([`Checkpointer::hold`]): the log goes
//! past the limit by at most the commit that crossed it, however the threads are scheduled.

use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};

use rusqlite::Connection;

/// Bytes of log after which the writer finishes a checkpoint itself, so that the log starts
/// again from its beginning.
pub const LOG_LIMIT: u64 = 128 << 20;

/// A thread that copies the log into the database while the writer goes on.
pub(super) struct Checkpointer {
    /// A message after each commit; dropping it stops the thread.
    commits: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// Held by the thread for each round, and by the writer while it copies the rest itself
    /// (two checkpoints cannot run at once: the second would find SQLite busy).
    round: Arc<Mutex<()>>,
}

impl Checkpointer {
    /// Starts one on the database at `path`; `None` when it cannot open it (the writer then
    /// lets SQLite checkpoint as usual).
    pub(super) fn start(path: &Path) -> Option<Checkpointer> {
        let conn = Connection::open(path).ok()?;
        let (commits, committed) = mpsc::channel::<()>();
        let round = Arc::new(Mutex::new(()));
        let held = Arc::clone(&round);
        let thread = std::thread::Builder::new()
            .name("kifudex-checkpoint".into())
            .spawn(move || {
                while committed.recv().is_ok() {
                    // Commits made while it copied are copied by one more round.
                    while committed.try_recv().is_ok() {}
                    let _round = held.lock().unwrap_or_else(|p| p.into_inner());
                    // An optimisation only: whatever goes wrong, the writer and closing
                    // checkpoint anyway.
                    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                }
            })
            .ok()?;
        Some(Checkpointer {
            commits: Some(commits),
            thread: Some(thread),
            round,
        })
    }

    /// The writer committed: there is more log to copy.
    pub(super) fn committed(&self) {
        if let Some(c) = &self.commits {
            let _ = c.send(());
        }
    }

    /// Waits for the round under way, if any, and keeps the thread from starting another
    /// while the guard lives.
    pub(super) fn hold(&self) -> MutexGuard<'_, ()> {
        self.round.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Pages this connection has written to the log since it was opened (SQLite's
/// `SQLITE_DBSTATUS_CACHE_WRITE`; 0 when SQLite cannot say).
pub(super) fn pages_written(conn: &Connection) -> i64 {
    let (mut current, mut highest) = (0, 0);
    // SAFETY: the handle is the open connection's own, valid while `conn` is borrowed; the
    // call only reads one of its counters into the two integers given.
    let rc = unsafe {
        rusqlite::ffi::sqlite3_db_status(
            conn.handle(),
            rusqlite::ffi::SQLITE_DBSTATUS_CACHE_WRITE,
            &mut current,
            &mut highest,
            0,
        )
    };
    if rc == rusqlite::ffi::SQLITE_OK {
        current as i64
    } else {
        0
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
