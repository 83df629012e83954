//! Header search: the games a [`GameFilter`] takes, newest first.

use crate::store::Store;

pub use crate::store::GameSummary as GameRowSummary;

use super::QueryError;
use super::filter::GameFilter;

/// The result of a search: the rows (up to the limit) and how many games match in all.
#[derive(Debug, Clone)]
pub struct SearchResult {
    pub rows: Vec<GameRowSummary>,
    pub total: usize,
}

/// Runs a header search: at most `limit` rows, newest first.
pub fn search(
    store: &Store,
    f: &GameFilter,
    limit: Option<usize>,
) -> Result<SearchResult, QueryError> {
    let sel = f.selection(store)?;
    let (rows, total) = store.search_games(&sel, limit)?;
    Ok(SearchResult { rows, total })
}
