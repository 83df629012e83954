//! Sorting more records than memory holds, for the exports. Three sorts, each for the shape
//! of what it sorts; all hand the records back in order and remove their files when done or
//! dropped:
//!
//! - [`HashSort`] (`by_hash`): fixed-size rows ordered by a 64-bit hash first (the positions
//!   of `positions.parquet`): buckets by the hash's top byte, no sample needed.
//! - `RunSort` (`runs`): variable-length records (key and payload bytes), one thread: sorted
//!   runs written out past a budget, merged at the end.
//! - [`KeyRanges`] (`by_key`): variable-length keys on every core (the positions of a book): the
//!   keys cut into ranges by splitters sampled beforehand, each range sorted on its own and
//!   handed key by key to a [`GroupSink`]; a range too big for memory goes through `RunSort`.

mod by_hash;
mod by_key;
mod runs;

pub use by_hash::{HashSort, HashedRow};
pub(crate) use by_key::{BatchBuilder, Buffers, GroupSink, KeyRanges, RangeBatch, Splitters};
