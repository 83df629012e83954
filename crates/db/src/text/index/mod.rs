//! The tantivy index in `DIR/text`: its schema and state here; opening it (with its version
//! check) in [`open`], writing (add, delete, commit with a payload, catching up with the
//! database) in [`write`], searching with snippets in [`search`].
//!
//! Every commit carries a payload `{"version", "last_id", "games"}`: the schema and tokenizer
//! versions the index was built with, the largest game id it holds, and how many games it
//! holds. The database is committed first, the index after; [`TextIndex::sync`] compares the
//! payload with the database and repairs what a killed import left behind: games with larger
//! ids are added, and when the counts still differ (games deleted by a re-import whose index
//! commit never happened) the two id sets are compared and the index follows the database.

use std::path::{Path, PathBuf};

use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::{TextAnalyzer, TokenizerManager};
use tantivy::{Index, IndexReader, IndexWriter};

use super::tokenizer::{self, JapaneseTokenizer, Mode, TOKENIZER_VERSION};
use super::{GameText, TextError, TextField, TextSource, names};

mod open;
mod revise;
mod search;
mod write;

pub use search::{GamePredicate, Highlighter, Hit, PlayerTerms, SearchOptions, Snippet};

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
