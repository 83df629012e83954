//! kifudex: a shogi game-database indexer.
//!
//! The library holds every stage of the pipeline (see the project README); the `kifudex`
//! binary is a thin command-line front end over it.

pub mod ascii;
pub mod classify;
pub mod export;
pub mod find;
pub mod ingest;
pub mod normalize;
pub mod notation;
pub mod numhash;
pub mod query;
pub mod serve;
pub mod shogi;
pub mod store;
pub mod synth;
pub mod text;
