//! Answering questions about a database: header search (and, with the position index and the
//! text index, position, tree and text queries).

pub mod openings;
pub mod position;
pub mod search;
pub mod text;

pub use openings::{OpeningRow, openings};
pub use position::{
    PositionHit, PositionOptions, PositionResult, TreeResult, TreeRow, find_position,
    parse_position, position_from_file, tree,
};
pub use search::{GameRowSummary, SearchFilter, SearchResult, search};
pub use text::{TextHit, open_text, text_search};

use crate::store::StoreError;
use crate::text::TextError;

/// What can go wrong answering a query.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// The question itself is wrong (a bad date, an unknown handicap …).
    #[error("{0}")]
    BadArgument(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Text(TextError),
}

impl From<TextError> for QueryError {
    fn from(e: TextError) -> QueryError {
        match e {
            TextError::Query(m) => {
                QueryError::BadArgument(format!("cannot read the text query: {m}"))
            }
            e => QueryError::Text(e),
        }
    }
}

impl From<rusqlite::Error> for QueryError {
    fn from(e: rusqlite::Error) -> QueryError {
        QueryError::Store(StoreError::Sqlite(e))
    }
}
