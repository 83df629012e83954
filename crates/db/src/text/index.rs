//! The tantivy index in `DIR/text`: schema, opening (with its version check), writing (add,
//! delete, commit with a payload) and searching with snippets.
//!
//! Every commit carries a payload `{"version", "last_id", "games"}`: the schema and tokenizer
//! versions the index was built with, the largest game id it holds, and how many games it
//! holds. The database is committed first, the index after; [`TextIndex::sync`] compares the
//! payload with the database and repairs what a killed import left behind: games with larger
//! ids are added, and when the counts still differ (games deleted by a re-import whose index
//! commit never happened) the two id sets are compared and the index follows the database.

use std::collections::HashSet;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::collector::{FilterCollector, TopDocs};
use tantivy::indexer::UserOperation;
use tantivy::query::doc_predicate_query::{DocPredicateQuery, FunctionPredicate};
use tantivy::query::{BooleanQuery, ConstScoreQuery, Occur, Query, QueryParser, TermSetQuery};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::snippet::SnippetGenerator;
use tantivy::tokenizer::{TextAnalyzer, TokenizerManager};
use tantivy::{
    DocId, Index, IndexReader, IndexWriter, ReloadPolicy, SegmentReader, TantivyDocument,
    TantivyError, Term,
};

use super::tokenizer::{self, JapaneseTokenizer, Mode, TOKENIZER_VERSION};
use super::{GameText, TextDoc, TextError, TextField, TextSource, each_indexed_document, names};

mod revise;

/// Bump when the fields or what goes into them change: the index is then rebuilt.
pub const SCHEMA_VERSION: u32 = 6;

/// A document's game and ply share one column ([`doc_key`]): the ply takes the low bits.
const PLY_BITS: u32 = 24;
const PLY_MASK: i64 = (1 << PLY_BITS) - 1;

/// The `doc` column's value: the game id above the ply + 1 (0 for the game's own document).
/// A ply past the 16 millionth counts as the last one the column holds.
fn doc_key(id: i64, ply: Option<i64>) -> i64 {
    id << PLY_BITS | ply.map_or(0, |p| (p + 1).clamp(1, PLY_MASK))
}

/// The game id and ply of a `doc` column value.
fn doc_of(key: i64) -> (i64, Option<i64>) {
    (
        key >> PLY_BITS,
        Some((key & PLY_MASK) - 1).filter(|&p| p >= 0),
    )
}

/// Games read from the database at a time while catching up.
const PAGE: usize = 2048;

/// Memory for tantivy's indexing thread: at 3% of moves commented, about 270,000 games
/// before it writes a segment of its own accord.
const WRITER_MEMORY: usize = 128 << 20;

/// Longest snippet, in bytes (tantivy counts bytes: about 60 Japanese characters).
const SNIPPET_BYTES: usize = 180;

fn version() -> String {
    format!("schema {SCHEMA_VERSION}, tokenizer {TOKENIZER_VERSION}")
}

/// What the last commit of the index says about it.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct Payload {
    version: String,
    last_id: i64,
    games: u64,
    /// The database's recognition epoch ([`TextSource::text_epoch`]) the recognised
    /// openings in the index come from.
    #[serde(default)]
    openings: i64,
    /// The last revision of the games' text ([`TextSource::text_revision`]) the index holds.
    #[serde(default)]
    revision: i64,
}

/// What [`TextIndex::sync`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SyncReport {
    /// Something the user should hear (the index was rebuilt, or could not be repaired now).
    pub notice: Option<String>,
    /// Games added to the index.
    pub added: usize,
    /// Games indexed again, their text having changed (facts taken from a twin).
    pub revised: usize,
    /// Games deleted from it.
    pub deleted: usize,
}

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

/// The full-text index of a database.
pub struct TextIndex {
    dir: PathBuf,
    index: Index,
    doc: Field,
    /// The sente and gote player ids (indexed, not stored).
    players: [Field; 2],
    fields: [Field; 9],
    /// The recognised names, each a term.
    names: Field,
    writer: Option<IndexWriter>,
    /// The reader searches use, opened on the first and dropped by each commit.
    reader: std::sync::Mutex<Option<IndexReader>>,
    state: Payload,
}

/// The fields of the sente and the gote player's id.
const PLAYER_FIELDS: [&str; 2] = ["sente_id", "gote_id"];

fn schema() -> Schema {
    let mut b = Schema::builder();
    // Not indexed: a term per document, there only for the rare deletion, cost about 7% of
    // the indexing thread's instructions; deletions read the column instead (`delete_games`).
    // One column for game and ply: each column costs a lookup by name for every document.
    b.add_i64_field("doc", FAST);
    // The players' ids, on every document of a game: a search in some players' games reads
    // their terms' documents instead of testing every document it scores.
    for name in PLAYER_FIELDS {
        b.add_u64_field(name, INDEXED);
    }
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(tokenizer::NAME)
        .set_index_option(IndexRecordOption::WithFreqsAndPositions);
    let options = TextOptions::default().set_indexing_options(indexing);
    for f in TextField::ALL {
        b.add_text_field(f.name(), options.clone());
    }
    // Each recognised name as its number, on the game's own document (see `text::names`).
    b.add_u64_field(names::FIELD, INDEXED);
    b.build()
}

/// tantivy writes its two small files (`meta.json`, `.managed.json`) readable by their owner
/// alone; they are given the modes the segment files have (those of the folder, less its
/// execute bits), so that whoever may read the database may read its text index.
fn share_like_folder(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(folder) = std::fs::metadata(dir) else {
            return;
        };
        let mode = folder.permissions().mode() & 0o666;
        for name in ["meta.json", ".managed.json"] {
            let path = dir.join(name);
            if std::fs::metadata(&path).is_ok_and(|m| m.permissions().mode() & 0o777 != mode) {
                let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode));
            }
        }
    }
}

fn io(dir: &Path) -> impl Fn(std::io::Error) -> TextError + '_ {
    move |e| TextError::Io(dir.to_path_buf(), e)
}

fn source<E: std::error::Error + Send + Sync + 'static>(e: E) -> TextError {
    TextError::Source(Box::new(e))
}

impl TextIndex {
    /// Opens the current index of the database's text folder `base` to read it: nothing is
    /// written, no lock file made. An index that is missing or was built by another version
    /// is an error that names `kifudex upgrade`; one behind the database is read as it is
    /// ([`TextIndex::behind`] says how far).
    pub fn open_read(base: &Path) -> Result<TextIndex, TextError> {
        let dir = super::generation::current(base);
        if !dir.join("meta.json").is_file() {
            return Err(TextError::Missing(base.to_path_buf()));
        }
        let damaged = |e: tantivy::TantivyError| TextError::Damaged {
            dir: dir.clone(),
            cause: e.to_string(),
        };
        let index =
            Index::open(super::readonly::ReadOnlyDirectory::open(&dir)?).map_err(damaged)?;
        let state: Payload = match index.load_metas().map_err(damaged)?.payload {
            None => Payload::default(),
            Some(p) => serde_json::from_str(&p).unwrap_or_default(),
        };
        if state.version != version() || index.schema() != schema() {
            return Err(TextError::Outdated {
                found: if state.version.is_empty() {
                    "an unknown version".into()
                } else {
                    state.version
                },
                known: version(),
            });
        }
        Ok(TextIndex::from_index(&dir, index, state))
    }

    /// Reads every file of the current index against its checksum and opens every segment:
    /// what is damaged, in words (empty when nothing is).
    pub fn check(base: &Path) -> Vec<String> {
        let index = match TextIndex::open_read(base) {
            Ok(i) => i,
            Err(e) => return vec![e.to_string()],
        };
        let mut damage = Vec::new();
        match index.index.validate_checksum() {
            Ok(bad) => {
                let mut bad: Vec<String> = bad.iter().map(|p| p.display().to_string()).collect();
                bad.sort();
                for file in bad {
                    damage.push(format!(
                        "{}: does not match its checksum",
                        index.dir.join(file).display()
                    ));
                }
            }
            Err(e) => damage.push(format!("cannot be read whole: {e}")),
        }
        if let Err(e) = index.game_ids() {
            damage.push(format!("its segments cannot be read: {e}"));
        }
        damage
    }

    /// What the index lacks of the database, in words (None: it is up to date).
    pub fn behind(&self, src: &impl TextSource) -> Result<Option<String>, TextError> {
        let (max, count) = src.text_span().map_err(source)?;
        let epoch = src.text_epoch().map_err(source)?;
        if epoch != self.state.openings {
            return Ok(Some(
                "the text index names openings recognised by older definitions: `kifudex upgrade` brings it up to date".into(),
            ));
        }
        if max == self.state.last_id
            && count == self.state.games
            && src.text_revision().map_err(source)? <= self.state.revision
        {
            return Ok(None);
        }
        let missing = count.abs_diff(self.state.games);
        Ok(Some(format!(
            "the text index is behind the database by about {missing} games: `kifudex upgrade` brings it up to date"
        )))
    }

    /// Opens the current index of the database's text folder `base` to write it, creating it
    /// when missing. An index built by another version, or one that cannot be opened, is
    /// thrown away and started again empty (the notice says so): [`TextIndex::sync`] then
    /// fills it from the database.
    pub fn open(base: &Path) -> Result<(TextIndex, Option<String>), TextError> {
        let dir = super::generation::current(base);
        let dir = dir.as_path();
        let mut notice = None;
        if dir.join("meta.json").is_file() {
            match Index::open_in_dir(dir) {
                Ok(index) => {
                    let payload = index.load_metas()?.payload;
                    let state: Payload = match payload {
                        None => Payload {
                            version: version(),
                            ..Payload::default()
                        },
                        Some(p) => serde_json::from_str(&p).unwrap_or_default(),
                    };
                    if state.version == version() && index.schema() == schema() {
                        return Ok((TextIndex::from_index(dir, index, state), None));
                    }
                    notice = Some(format!(
                        "the text index was built with {}, this kifudex uses {}: rebuilding it from the database",
                        if state.version.is_empty() {
                            "an unknown version"
                        } else {
                            &state.version
                        },
                        version()
                    ));
                }
                Err(e) => {
                    notice = Some(format!(
                        "cannot open the text index ({e}): rebuilding it from the database"
                    ));
                }
            }
        }
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(io(dir))?;
        }
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let index = Index::create_in_dir(dir, schema())?;
        let state = Payload {
            version: version(),
            ..Payload::default()
        };
        Ok((TextIndex::from_index(dir, index, state), notice))
    }

    /// Opens the index and brings it up to date with the database. When another process
    /// holds the index's writer lock (an import running), the index is searched as it is.
    pub fn open_synced(
        dir: &Path,
        src: &impl TextSource,
    ) -> Result<(TextIndex, SyncReport), TextError> {
        let (mut index, notice) = TextIndex::open(dir)?;
        let mut report = match index.sync(src) {
            Ok(r) => r,
            Err(TextError::Tantivy(TantivyError::LockFailure(..))) => SyncReport {
                notice: Some(
                    "the text index is being written by another kifudex: searching it as it is"
                        .into(),
                ),
                ..SyncReport::default()
            },
            Err(e) => return Err(e),
        };
        report.notice = notice.or(report.notice);
        Ok((index, report))
    }

    /// Builds the index again from the database, in a folder of its own
    /// ([`super::generation`]), and makes it the current one once it is whole: searches
    /// beside it answer from the index before until then.
    pub fn rebuild(base: &Path, src: &impl TextSource) -> Result<SyncReport, TextError> {
        let dir = super::generation::next(base).map_err(io(base))?;
        let index = Index::create_in_dir(&dir, schema())?;
        let state = Payload {
            version: version(),
            ..Payload::default()
        };
        let mut index = TextIndex::from_index(&dir, index, state);
        let report = index.sync(src)?;
        index.finish()?;
        super::generation::switch(base, &dir).map_err(io(base))?;
        Ok(report)
    }

    fn from_index(dir: &Path, mut index: Index, state: Payload) -> TextIndex {
        index.set_tokenizers(tokenizers(Mode::Index));
        let schema = index.schema();
        let field = |name: &str| schema.get_field(name).expect("field of our schema");
        TextIndex {
            dir: dir.to_path_buf(),
            doc: field("doc"),
            players: PLAYER_FIELDS.map(field),
            fields: TextField::ALL.map(|f| field(f.name())),
            names: field(names::FIELD),
            index,
            writer: None,
            reader: std::sync::Mutex::new(None),
            state,
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The largest game id the index holds (as of its last commit, plus what was added since).
    pub fn last_id(&self) -> i64 {
        self.state.last_id
    }

    fn writer(&mut self) -> Result<&mut IndexWriter, TextError> {
        if self.writer.is_none() {
            self.writer = Some(self.index.writer_with_num_threads(1, WRITER_MEMORY)?);
        }
        Ok(self.writer.as_mut().expect("just made"))
    }

    fn add_game(&mut self, game: &GameText) -> Result<(), TextError> {
        let (doc, fields, players, names) = (self.doc, self.fields, self.players, self.names);
        let writer = self.writer()?;
        // One message to the indexing thread per game rather than per document: a full
        // channel made the sender spin and wake once per document.
        let mut docs = Vec::new();
        each_indexed_document(game, |doc_ply, texts| {
            // Room for what the document holds (the default, 1 KB, is several times more:
            // fresh memory for every document, since the indexing thread frees them).
            let bytes = 32
                + texts.iter().map(|(_, t)| t.len() + 16).sum::<usize>()
                + if doc_ply.is_none() {
                    16 * game.recognised.len()
                } else {
                    0
                };
            let mut d = TantivyDocument::with_capacity(bytes);
            d.add_i64(doc, doc_key(game.id, doc_ply));
            for (field, id) in players.into_iter().zip(game.player_ids) {
                if let Some(id) = id.and_then(|id| u64::try_from(id).ok()) {
                    d.add_u64(field, id);
                }
            }
            for &(f, text) in texts {
                d.add_text(fields[f as usize], text);
            }
            if doc_ply.is_none() {
                for n in game.recognised.iter().filter_map(|n| names::number(n)) {
                    d.add_u64(names, n);
                }
            }
            docs.push(UserOperation::Add(d));
        });
        writer.run(docs)?;
        Ok(())
    }

    /// Deletes every document of these games: one query that reads each segment's `id`
    /// column once, however many games go.
    fn delete_games(&mut self, ids: &[i64]) -> Result<(), TextError> {
        if ids.is_empty() {
            return Ok(());
        }
        let gone: Arc<HashSet<i64>> = Arc::new(ids.iter().copied().collect());
        let predicate = FunctionPredicate::from(move |segment: &SegmentReader| {
            let column = segment.fast_fields().i64("doc")?;
            let gone = Arc::clone(&gone);
            Ok(move |doc: DocId| {
                column
                    .first(doc)
                    .is_some_and(|k| gone.contains(&doc_of(k).0))
            })
        });
        self.writer()?
            .delete_query(Box::new(DocPredicateQuery::from(predicate)))?;
        Ok(())
    }

    /// Deletes games and adds others (games just committed to the database, in id order);
    /// [`TextIndex::commit`] makes it durable.
    pub fn apply(&mut self, deleted: &[i64], games: &[GameText]) -> Result<(), TextError> {
        self.delete_games(deleted)?;
        for g in games {
            self.add_game(g)?;
            self.state.last_id = self.state.last_id.max(g.id);
        }
        self.state.games =
            (self.state.games + games.len() as u64).saturating_sub(deleted.len() as u64);
        Ok(())
    }

    /// Commits what was added and deleted, with the payload.
    pub fn commit(&mut self) -> Result<(), TextError> {
        let payload = serde_json::to_string(&self.state).expect("plain struct");
        let writer = self.writer()?;
        let mut commit = writer.prepare_commit()?;
        commit.set_payload(&payload);
        commit.commit()?;
        *self.reader.lock().unwrap_or_else(|e| e.into_inner()) = None;
        share_like_folder(&self.dir);
        Ok(())
    }

    /// Merges the committed segments into one (`kifudex optimize`): a search reads every
    /// segment's term dictionary. Returns how many segments there were.
    pub fn merge_all(&mut self) -> Result<usize, TextError> {
        let ids = self.index.searchable_segment_ids()?;
        if ids.len() > 1 {
            self.writer()?.merge(&ids).wait()?;
            *self.reader.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
        Ok(ids.len())
    }

    /// How many segments the committed index has.
    pub fn segments(&self) -> Result<usize, TextError> {
        Ok(self.index.searchable_segment_ids()?.len())
    }

    /// Commits, then waits for tantivy's segment merges (end of an import).
    pub fn finish(mut self) -> Result<(), TextError> {
        if self.writer.is_some() {
            self.commit()?;
        }
        if let Some(w) = self.writer.take() {
            w.wait_merging_threads()?;
        }
        Ok(())
    }

    /// Brings the index up to date with the database (see the module documentation).
    pub fn sync(&mut self, src: &impl TextSource) -> Result<SyncReport, TextError> {
        let mut report = SyncReport::default();
        let (max, count) = src.text_span().map_err(source)?;
        let epoch = src.text_epoch().map_err(source)?;
        let revision = src.text_revision().map_err(source)?;
        if max == self.state.last_id
            && count == self.state.games
            && epoch == self.state.openings
            && revision <= self.state.revision
        {
            return Ok(report);
        }
        // An index filled from nothing holds every game's text as it is now.
        if self.state.last_id == 0 {
            self.state.revision = revision;
        }
        if epoch != self.state.openings {
            // The openings were recognised again (new definitions): every game document
            // names them.
            if self.state.last_id > 0 {
                report.notice = Some(
                    "the recognised openings changed: rebuilding the text index from the database"
                        .into(),
                );
            }
            self.writer()?.delete_all_documents()?;
            self.state.last_id = 0;
            self.state.games = 0;
            self.state.openings = epoch;
            self.state.revision = revision;
        } else if max < self.state.last_id {
            // Not the database this index was built from.
            report.notice =
                Some("the text index does not match the database: rebuilding it".into());
            self.writer()?.delete_all_documents()?;
            self.state.last_id = 0;
            self.state.games = 0;
            self.state.revision = revision;
        }
        loop {
            let games = src
                .text_games(self.state.last_id, max, PAGE)
                .map_err(source)?;
            if games.is_empty() {
                break;
            }
            report.added += games.len();
            self.apply(&[], &games)?;
        }
        // Every game up to `max` is in: ids of games removed since are not waited for.
        self.state.last_id = self.state.last_id.max(max);
        self.commit()?;
        if self.state.games != count {
            let mut have = self.game_ids()?;
            have.sort_unstable();
            let mut want = src.text_game_ids().map_err(source)?;
            want.sort_unstable();
            let gone: Vec<i64> = have
                .iter()
                .copied()
                .filter(|id| want.binary_search(id).is_err())
                .collect();
            self.delete_games(&gone)?;
            report.deleted += gone.len();
            for &id in &want {
                if have.binary_search(&id).is_err() {
                    let games = src.text_games(id - 1, id, 1).map_err(source)?;
                    for g in &games {
                        self.add_game(g)?;
                    }
                    report.added += games.len();
                }
            }
            self.state.games = count;
            self.commit()?;
        }
        if revision > self.state.revision {
            report.revised = self.index_revised(src, revision)?;
        }
        Ok(report)
    }

    /// The index as last committed. Opening a reader reads every segment's metadata: it is
    /// kept for the next search until the index commits again.
    fn reader(&self) -> Result<IndexReader, TextError> {
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
    fn game_ids(&self) -> Result<Vec<i64>, TextError> {
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

/// The tokenizers text is cut with: documents in [`Mode::Index`], queries in [`Mode::Query`].
pub(super) fn tokenizers(mode: Mode) -> TokenizerManager {
    let manager = TokenizerManager::default();
    manager.register(
        tokenizer::NAME,
        TextAnalyzer::from(JapaneseTokenizer::new(mode)),
    );
    manager
}
