//! Searching the index: the best documents of a query (in some games, of some players),
//! every game a query matches, and the snippets that show why.

use std::ops::Range;
use std::sync::Arc;

use tantivy::collector::{FilterCollector, TopDocs};
use tantivy::query::{BooleanQuery, ConstScoreQuery, Occur, Query, QueryParser, TermSetQuery};
use tantivy::schema::Field;
use tantivy::snippet::SnippetGenerator;
use tantivy::{IndexReader, ReloadPolicy, Term};

use super::{SNIPPET_BYTES, TextError, TextIndex, doc_of, names, tokenizers};
use crate::text::tokenizer::Mode;
use crate::text::{TextDoc, TextField};

/// Which games a search may find (by game id).
pub type GamePredicate = Arc<dyn Fn(i64) -> bool + Send + Sync>;

/// How to search.
#[derive(Clone, Default)]
pub struct SearchOptions {
    /// tantivy query syntax: words, "phrases", AND / OR / NOT, `field:word`.
    pub query: String,
    pub limit: usize,
    /// Search engine lines too when the query names no field.
    pub engine: bool,
    /// Only documents of the games it accepts (checked as documents are collected, so the
    /// best `limit` are those of the games taken).
    pub games: Option<GamePredicate>,
    /// Only documents of the games these players played (read from the index's terms, not
    /// document by document).
    pub players: Option<PlayerTerms>,
}

/// Players whose games a search keeps: their ids in the database, on either side or on one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerTerms {
    pub ids: Vec<i64>,
    /// Their games as sente (下手).
    pub sente: bool,
    /// Their games as gote (上手).
    pub gote: bool,
}

impl std::fmt::Debug for SearchOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchOptions")
            .field("query", &self.query)
            .field("limit", &self.limit)
            .field("engine", &self.engine)
            .field("games", &self.games.as_ref().map(|_| "…"))
            .field("players", &self.players)
            .finish()
    }
}

/// A document found: a game (`ply` `None`) or a position of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub id: i64,
    pub ply: Option<i64>,
    pub score: f32,
}

/// A piece of text with the byte ranges that matched.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snippet {
    pub text: String,
    pub highlights: Vec<Range<usize>>,
}

impl Snippet {
    /// The text with each match between `open` and `close`.
    pub fn render(&self, open: &str, close: &str) -> String {
        let mut out = String::with_capacity(self.text.len() + 8);
        let mut at = 0;
        for r in &self.highlights {
            out.push_str(&self.text[at..r.start]);
            out.push_str(open);
            out.push_str(&self.text[r.clone()]);
            out.push_str(close);
            at = r.end;
        }
        out.push_str(&self.text[at..]);
        out
    }
}

/// Cuts snippets for the hits of one query.
pub struct Highlighter {
    generators: Vec<(TextField, SnippetGenerator)>,
}

impl Highlighter {
    /// The first field of `doc` (in [`TextField::ALL`] order) where the query matched, with
    /// its snippet; the first field with text when none did (a hit by `NOT` alone).
    pub fn best(&self, doc: &TextDoc) -> Option<(TextField, Snippet)> {
        for (field, generator) in &self.generators {
            let text = doc.field(*field);
            if text.is_empty() {
                continue;
            }
            let s = generator.snippet(text);
            if !s.highlighted().is_empty() {
                let mut ranges: Vec<Range<usize>> = s.highlighted().to_vec();
                ranges.sort_by_key(|r| (r.start, r.end));
                let mut merged: Vec<Range<usize>> = Vec::new();
                for r in ranges {
                    match merged.last_mut() {
                        Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                        _ => merged.push(r),
                    }
                }
                let snippet = Snippet {
                    text: s.fragment().replace(['\n', '\r'], " "),
                    highlights: merged,
                };
                return Some((*field, snippet));
            }
        }
        let (field, text) = doc.fields.first()?;
        let end = text.char_indices().nth(60).map_or(text.len(), |(i, _)| i);
        Some((
            *field,
            Snippet {
                text: text[..end].replace(['\n', '\r'], " "),
                highlights: Vec::new(),
            },
        ))
    }
}

impl TextIndex {
    /// The index as last committed. Opening a reader reads every segment's metadata: it is
    /// kept for the next search until the index commits again.
    pub(super) fn reader(&self) -> Result<IndexReader, TextError> {
        let mut cached = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = &*cached {
            return Ok(r.clone());
        }
        let reader: IndexReader = self
            .index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        *cached = Some(reader.clone());
        Ok(reader)
    }

    /// The ids of the games the index holds (committed).
    pub(super) fn game_ids(&self) -> Result<Vec<i64>, TextError> {
        let searcher = self.reader()?.searcher();
        let mut out = Vec::new();
        for segment in searcher.segment_readers() {
            let keys = segment.fast_fields().i64("doc")?;
            for doc in segment.doc_ids_alive() {
                if let Some((id, None)) = keys.first(doc).map(doc_of) {
                    out.push(id);
                }
            }
        }
        Ok(out)
    }

    /// A query in tantivy's syntax, over every field (engine lines only when `engine`).
    fn parse(&self, text: &str, engine: bool) -> Result<Box<dyn tantivy::query::Query>, TextError> {
        let defaults: Vec<Field> = TextField::ALL
            .into_iter()
            .filter(|f| engine || *f != TextField::Engine)
            .map(|f| self.fields[f as usize])
            .collect();
        let mut parser = QueryParser::new(self.index.schema(), defaults, tokenizers(Mode::Query));
        parser.set_conjunction_by_default();
        let ast = tantivy::query_grammar::parse_query(text).map_err(|_| {
            TextError::Query(
                tantivy::query::QueryParserError::SyntaxError(text.to_string()).to_string(),
            )
        })?;
        parser
            .build_query_from_user_input_ast(names::expand(ast)?)
            .map_err(|e| TextError::Query(e.to_string()))
    }

    /// Every game with a document that matches the query (not only the best), in id order:
    /// what the game filter's `text` takes.
    pub fn matching_games(&self, text: &str, engine: bool) -> Result<Vec<i64>, TextError> {
        let searcher = self.reader()?.searcher();
        let query = self.parse(text, engine)?;
        let docs = searcher.search(&query, &tantivy::collector::DocSetCollector)?;
        let mut columns = std::collections::HashMap::new();
        let mut out = Vec::with_capacity(docs.len());
        for addr in docs {
            let keys = match columns.entry(addr.segment_ord) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    let fast = searcher.segment_reader(addr.segment_ord).fast_fields();
                    e.insert(fast.i64("doc")?)
                }
            };
            if let Some((id, _)) = keys.first(addr.doc_id).map(doc_of) {
                out.push(id);
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// The best `limit` documents for a query, and a highlighter for their snippets.
    pub fn search(&self, options: &SearchOptions) -> Result<(Vec<Hit>, Highlighter), TextError> {
        let searcher = self.reader()?.searcher();
        let mut query = self.parse(&options.query, options.engine)?;
        if let Some(p) = &options.players {
            let sides = [p.sente, p.gote];
            let terms = self
                .players
                .into_iter()
                .zip(sides)
                .filter(|(_, on)| *on)
                .flat_map(|(f, _)| {
                    p.ids
                        .iter()
                        .filter_map(|&id| u64::try_from(id).ok())
                        .map(move |id| Term::from_field_u64(f, id))
                });
            // Scoring nothing, the players' clause leaves each hit's score as the query gave it.
            let theirs = ConstScoreQuery::new(Box::new(TermSetQuery::new(terms)), 0.0);
            query = Box::new(BooleanQuery::new(vec![
                (Occur::Must, query),
                (Occur::Must, Box::new(theirs) as Box<dyn Query>),
            ]));
        }
        let collector = TopDocs::with_limit(options.limit.max(1)).order_by_score();
        let top = match &options.games {
            None => searcher.search(&query, &collector)?,
            Some(games) => {
                let games = Arc::clone(games);
                let filter = FilterCollector::new(
                    "doc".to_string(),
                    move |key: i64| games(doc_of(key).0),
                    collector,
                );
                searcher.search(&query, &filter)?
            }
        };
        let mut hits = Vec::with_capacity(top.len());
        // Opening a column reads its block index: once per segment, not per hit.
        let mut columns = std::collections::HashMap::new();
        for (score, addr) in top {
            let keys = match columns.entry(addr.segment_ord) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    let fast = searcher.segment_reader(addr.segment_ord).fast_fields();
                    e.insert(fast.i64("doc")?)
                }
            };
            if let Some((id, ply)) = keys.first(addr.doc_id).map(doc_of) {
                hits.push(Hit { id, ply, score });
            }
        }
        let mut generators = Vec::new();
        for f in TextField::ALL {
            let mut g = SnippetGenerator::create(&searcher, &*query, self.fields[f as usize])?;
            g.set_max_num_chars(SNIPPET_BYTES);
            generators.push((f, g));
        }
        Ok((hits, Highlighter { generators }))
    }
}
