//! The game database: the SQLite store and its position index, the tantivy text index, the
//! import, the queries and the exports. Built on the board (`kifudex-shogi`), the records
//! (`kifudex-notation`) and recognition (`kifudex-classify`).

#![doc = include_str!("../README.md")]

pub mod analyse;
pub mod export;
pub mod find;
pub mod game_json;
pub mod ingest;
pub mod numhash;
pub mod progress;
pub mod query;
pub mod sort;
pub mod store;
pub mod text;
