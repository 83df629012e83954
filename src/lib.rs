//! kifudex: a shogi game-database indexer.
//!
//! The layers are crates of one workspace (see `docs/architecture.md`): the board
//! (`kifudex-shogi`), records (`kifudex-notation`), recognition (`kifudex-classify`),
//! evaluations (`kifudex-evals`) and the database with its queries and exports (`kifudex-db`). This crate adds the explorer's
//! server and re-exports the layers under one name for the binary, the tests and the
//! benchmarks.

pub use kifudex_classify as classify;
pub use kifudex_db::{
    analyse, export, find, game_json, ingest, numhash, progress, query, sort, store, text,
};
pub use kifudex_evals as evals;
pub use kifudex_notation as notation;
pub use kifudex_notation::{normalize, synth};
pub use kifudex_shogi as shogi;
pub use kifudex_shogi::ascii;

pub mod picture;
pub mod serve;
