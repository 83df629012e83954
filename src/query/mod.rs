//! Answering questions about a database: header search (and, with the position index and the
//! text index, position, tree and text queries).

pub mod search;

pub use search::{GameRowSummary, SearchFilter, SearchResult, search};

use crate::store::StoreError;

/// What can go wrong answering a query.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// The question itself is wrong (a bad date, an unknown handicap …).
    #[error("{0}")]
    BadArgument(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for QueryError {
    fn from(e: rusqlite::Error) -> QueryError {
        QueryError::Store(StoreError::Sqlite(e))
    }
}
