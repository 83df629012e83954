//! Answering questions about a database: header search (and, with the position index and the
//! text index, position, tree and text queries).

pub mod evals;
pub mod filter;
pub mod openings;
pub mod players;
pub mod position;
pub mod search;
pub mod text;
pub mod tree;
mod years;

pub use filter::{FIELDS, Field, FieldDef, FilterError, GameFilter, WinnerArg, Words, date_value};
pub use openings::{OpeningRow, OpeningsBy, openings};
pub use players::{PlayerRow, players};
pub use position::{
    PositionHit, PositionOptions, PositionQuery, PositionResult, SortBy, find_games, find_position,
    parse_position, position_from_file,
};
pub use search::{GameRowSummary, SearchResult, search};
pub use text::{
    TextHit, open_and_search, open_text, open_text_read, split_query, text_search,
    text_search_filtered, text_words,
};
pub use tree::{TreeResult, TreeRow, tree, tree_and_games, tree_filtered, tree_with};

use crate::store::StoreError;
use crate::text::TextError;

/// What can go wrong answering a query.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// The question itself is wrong (a bad date, an unknown handicap …).
    #[error("{0}")]
    BadArgument(String),
    /// The game filter asked wrongly (a bad date, an unknown handicap …), in the CLI's words;
    /// [`FilterError::describe`] words it for another caller.
    #[error(transparent)]
    Filter(#[from] FilterError),
    /// An input the question names (a record file) cannot be read or holds no position.
    #[error("{0}")]
    Input(String),
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
