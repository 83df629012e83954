//! Work spread over one thread a core, each with its own read-only connection to the
//! database: this thread hands out batches and takes the results back (in the order they are
//! done), so what it feeds (a sort, a file) needs no lock.

use std::sync::mpsc::{Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};

use super::ExportError;
use crate::store::Store;

/// The handle [`with_workers`] gives to its driver.
pub(crate) struct Feed<B, T> {
    tx: Option<SyncSender<B>>,
    rx: Receiver<Result<T, ExportError>>,
    /// Batches handed out and not yet taken back.
    pending: usize,
}

impl<B, T> Feed<B, T> {
    /// Hands out a batch (waiting while every worker is busy and the queue is full), and
    /// returns the results done so far.
    pub(crate) fn send(&mut self, batch: B) -> Result<Vec<T>, ExportError> {
        let tx = self.tx.as_ref().ok_or(ExportError::Stopped)?;
        if tx.send(batch).is_err() {
            // Every worker stopped: the first result that is an error says why.
            return Err(self.finish().err().unwrap_or(ExportError::Stopped));
        }
        self.pending += 1;
        let mut done = Vec::new();
        while let Ok(r) = self.rx.try_recv() {
            self.pending -= 1;
            done.push(r?);
        }
        Ok(done)
    }

    /// Waits for every batch handed out, and returns the results not taken yet.
    pub(crate) fn finish(&mut self) -> Result<Vec<T>, ExportError> {
        self.tx = None;
        let mut done = Vec::new();
        while self.pending > 0 {
            let r = self.rx.recv().map_err(|_| ExportError::Stopped)?;
            self.pending -= 1;
            done.push(r?);
        }
        Ok(done)
    }
}

/// Runs `drive` on this thread while one worker a core does `work` on the batches it hands
/// out through the [`Feed`]. The first error stops it.
pub(crate) fn with_workers<B: Send, T: Send, R>(
    store: &Store,
    work: impl Fn(&Store, B) -> Result<T, ExportError> + Sync,
    drive: impl FnOnce(&mut Feed<B, T>) -> Result<R, ExportError>,
) -> Result<R, ExportError> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let (tx, jobs) = std::sync::mpsc::sync_channel::<B>(workers * 2);
    let (done_tx, rx) = std::sync::mpsc::channel::<Result<T, ExportError>>();
    // The workers hold the queue: when they have all stopped, a send fails instead of waiting.
    let jobs = Arc::new(Mutex::new(jobs));
    let dir = store.dir().to_path_buf();
    std::thread::scope(|s| {
        for _ in 0..workers {
            let done_tx: Sender<Result<T, ExportError>> = done_tx.clone();
            let jobs = Arc::clone(&jobs);
            let (work, dir) = (&work, &dir);
            s.spawn(move || {
                let store = match Store::open_read_only(dir).and_then(|s| {
                    // Each game is read once, in order: no mapping to count as this
                    // process's memory, and little cache.
                    s.read_once()?;
                    Ok(s)
                }) {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = done_tx.send(Err(e.into()));
                        return;
                    }
                };
                loop {
                    let next = match jobs.lock() {
                        Ok(j) => j.recv(),
                        Err(_) => return,
                    };
                    let Ok(batch) = next else { return };
                    let failed = {
                        let r = work(&store, batch);
                        let failed = r.is_err();
                        if done_tx.send(r).is_err() {
                            return;
                        }
                        failed
                    };
                    if failed {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        drop(jobs);
        let mut feed = Feed {
            tx: Some(tx),
            rx,
            pending: 0,
        };
        let r = drive(&mut feed);
        // Workers stop once the batches run out (or at once, when the driver failed).
        feed.tx = None;
        r
    })
}
