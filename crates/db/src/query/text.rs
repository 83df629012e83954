//! Full-text search: the text index finds documents, the database names their games, and the
//! snippet is cut from the game's text as the database holds it.

use crate::store::{Side, Store};
use crate::text::index::PlayerTerms;
use crate::text::{
    SearchOptions, Snippet, SyncReport, TextError, TextIndex, TextSource, documents,
};

use super::QueryError;
use super::filter::{Field, GameFilter, Words, matching_players};

/// One hit.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TextHit {
    pub id: i64,
    pub file: String,
    pub game_index: i64,
    /// The position the matching comment is on; `None` for a hit in the game's headers.
    pub ply: Option<i64>,
    /// The field that matched: players, event, opening, title, site, header, comment, remark
    /// or engine.
    pub field: &'static str,
    /// The matching text, each match in `[…]`.
    pub snippet: String,
    pub score: f32,
    pub date: Option<String>,
    pub sente: Option<String>,
    pub gote: Option<String>,
    /// The snippet with the byte ranges of the matches (to show them another way).
    #[serde(skip)]
    pub highlighted: Snippet,
}

/// Opens the text index of a database to write it, repaired and up to date (see
/// `TextIndex::sync`): for the commands that write.
pub fn open_text(store: &Store) -> Result<(TextIndex, SyncReport), QueryError> {
    Ok(TextIndex::open_synced(&store.db().text(), store)?)
}

/// Opens the text index of a database to read it, as it is (nothing written), with what it
/// lacks of the database in words (see `TextIndex::behind`).
pub fn open_text_read(store: &Store) -> Result<(TextIndex, Option<String>), QueryError> {
    let index = TextIndex::open_read(&store.db().text())?;
    let behind = index.behind(store)?;
    Ok((index, behind))
}

/// Splits a text query into its words for the text index and its game-filter fields
/// (the fields [`FIELDS`](super::FIELDS) marks `in_text`), which are set in `filter`. A value may be quoted: `player:"藤井 聡太"`.
pub fn split_query(query: &str, filter: &mut GameFilter) -> Result<String, QueryError> {
    let mut rest = String::new();
    let mut s = query.trim_start();
    while !s.is_empty() {
        // One term: up to whitespace outside quotes.
        let mut end = s.len();
        let mut quoted = false;
        for (i, c) in s.char_indices() {
            if c == '"' {
                quoted = !quoted;
            } else if c.is_whitespace() && !quoted {
                end = i;
                break;
            }
        }
        let term = &s[..end];
        s = s[end..].trim_start();
        let field = term
            .split_once(':')
            .and_then(|(key, value)| Some((key, Field::from_text_key(key)?, value)));
        let taken = match field {
            Some((key, field, value)) => {
                let value = value.trim_matches('"');
                if value.is_empty() {
                    return Err(QueryError::BadArgument(format!(
                        "{key}: in the text query needs a value ({key}:VALUE)"
                    )));
                }
                filter
                    .set(field, value)
                    .map_err(|e| QueryError::BadArgument(e.describe(Words::Text)))?;
                true
            }
            None => false,
        };
        if !taken {
            if !rest.is_empty() {
                rest.push(' ');
            }
            rest.push_str(term);
        }
    }
    Ok(rest)
}

/// [`split_query`], refusing a query that holds no words for the text index (only filter
/// fields): the CLI's `text` and the API's `/api/text` alike.
pub fn text_words(query: &str, filter: &mut GameFilter) -> Result<String, QueryError> {
    let words = split_query(query, filter)?;
    if words.trim().is_empty() {
        return Err(QueryError::BadArgument(
            "the text query holds no words to look for (only filter fields): use `kifudex search` for games by their headers".to_string(),
        ));
    }
    Ok(words)
}

/// The best hits for a query among the games the filter takes, best first.
pub fn text_search_filtered(
    store: &Store,
    index: &TextIndex,
    options: &SearchOptions,
    filter: &GameFilter,
) -> Result<Vec<TextHit>, QueryError> {
    let mut options = options.clone();
    // A player's games are found by the index's player terms; what else the filter asks is
    // checked game by game.
    if let Some(p) = &filter.player {
        options.players = Some(PlayerTerms {
            ids: matching_players(store, p)?,
            sente: filter.side != Some(Side::Gote),
            gote: filter.side != Some(Side::Sente),
        });
    }
    let rest = GameFilter {
        player: None,
        side: None,
        ..filter.clone()
    };
    if !rest.is_empty()
        && let Some(set) = filter.resolve(store, None)?
    {
        let set = std::sync::Arc::new(set);
        options.games = Some(std::sync::Arc::new(move |id| set.contains(id)));
    }
    text_search(store, index, &options)
}

/// Opens the text index to read it and searches it, with what the index lacks of the
/// database in words: when that fails for anything but the query itself (an import
/// committing beside it can delete a segment the index was just opened with; a rebuild can
/// make another index the current one), once more, on the index as it is then.
pub fn open_and_search(
    store: &Store,
    options: &SearchOptions,
    filter: &GameFilter,
) -> Result<(Vec<TextHit>, Option<String>), QueryError> {
    let attempt = || -> Result<(Vec<TextHit>, Option<String>), QueryError> {
        let (index, behind) = open_text_read(store)?;
        Ok((
            text_search_filtered(store, &index, options, filter)?,
            behind,
        ))
    };
    match attempt() {
        Err(e @ QueryError::BadArgument(_)) => Err(e),
        // Failing twice on the index's own files: it is damaged, and the error says how to
        // mend it.
        Err(_) => attempt().map_err(|e| match e {
            QueryError::Text(TextError::Tantivy(e)) => QueryError::Text(TextError::Damaged {
                dir: crate::text::generation::current(&store.db().text()),
                cause: e.to_string(),
            }),
            e => e,
        }),
        ok => ok,
    }
}

/// The best hits for a query, best first.
pub fn text_search(
    store: &Store,
    index: &TextIndex,
    options: &SearchOptions,
) -> Result<Vec<TextHit>, QueryError> {
    let (hits, highlighter) = index.search(options)?;
    let mut out = Vec::with_capacity(hits.len());
    for hit in hits {
        // A game deleted from the database after the index was last repaired is no hit.
        let Some(summary) = store.summary(hit.id)? else {
            continue;
        };
        let Some(game) = store.text_games(hit.id - 1, hit.id, 1)?.into_iter().next() else {
            continue;
        };
        let Some(doc) = documents(&game).into_iter().find(|d| d.ply == hit.ply) else {
            continue;
        };
        let Some((field, snippet)) = highlighter.best(&doc) else {
            continue;
        };
        out.push(TextHit {
            id: hit.id,
            file: summary.file,
            game_index: summary.game_index,
            ply: hit.ply,
            field: field.name(),
            snippet: snippet.render("[", "]"),
            score: hit.score,
            date: summary.date,
            sente: summary.sente,
            gote: summary.gote,
            highlighted: snippet,
        });
    }
    Ok(out)
}
