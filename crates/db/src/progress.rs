//! How far long work has got: the one way the import, the recomputations of an upgrade, the
//! exports and the analyses report it. The CLI draws a [`Progress`] as a bar on a terminal;
//! the server and the tests pass [`Quiet`].

/// Told how far a piece of work has got. Work comes in stages (importing files, recognising
/// openings, indexing positions …); each has a total when it is known.
pub trait Progress: Send + Sync {
    /// A stage starts: what it does, in words (`recognising openings`), how many `unit`s it
    /// has (`None`: not known).
    fn stage(&self, _what: &str, _total: Option<u64>, _unit: &str) {}
    /// `done` units of the stage are done.
    fn set(&self, _done: u64) {}
    /// What else to show beside the count (`1,200 games (3,400/s), 2 errors`).
    fn note(&self, _text: &str) {}
    /// The stage is over.
    fn finish(&self) {}
}

/// Progress nobody watches.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl Progress for Quiet {}
