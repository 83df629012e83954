//! The SQLite database: opening it, its schema (migrations), the games, players, sources and
//! errors tables. A database is a directory holding `kifudex.sqlite` (and `text/`, the full-text index derived from it).

mod check;
mod checkpoint;
pub mod checksum;
pub(crate) mod codec;
mod evals;
mod facts;
mod indexes;
pub mod labels;
mod lines;
mod migrate;
mod openings;
mod players;
pub mod postings;
mod read;
mod rekey;
mod remove;
mod select;
mod text;
mod tree;
pub mod twins;
mod write;

pub use check::StoreCheck;
pub use checkpoint::LOG_LIMIT;
pub use codec::{GameRow, HeaderColumns, fingerprint, read_back, read_columns};
pub use evals::{
    AnalysisKey, AnalysisWork, EvalsRow, GameEvals, GameToAnalyse, PV_START, PositionDetail,
    PositionResult, ScannedEvals,
};
pub use facts::{FactGame, FactItem, Facts, winner_code, winner_word};
pub use lines::{LineRow, LineSpan, Starts};
pub use migrate::{MIGRATIONS, SCHEMA_VERSION};
pub use openings::{CLASSIFY_META, OpeningGame, StoredItem};
pub use players::{PlayerTotals, SideTotals};
pub use read::{GameLine, GameToWrite, ReadTransaction, StoredGame};
pub use remove::{Removal, Removed, StoredSource};
pub use select::{
    Cond, GameSet, GameSummary, LabelSource, PlayerGame, PlayerName, Selection, Side, TextColumn,
};
pub use twins::hand::{MergedGames, SplitGame, TwinError};
pub use twins::{GameSource, NearTwin, NearTwinKind};
pub use write::{Inserted, KnownSource, KnownSources, SourceRow, Writer};

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use crate::progress::Progress;

use kifudex_shogi::HASH_VERSION;

/// The database file inside a database directory.
pub const DB_FILE: &str = "kifudex.sqlite";

/// The full-text index's directory inside a database directory.
pub const TEXT_DIR: &str = "text";

/// A database as a whole: the directory a user names with `--db`, and where each part of
/// the database lives in it: the SQLite file (games, players, positions), the full-text
/// index derived from it, and the import lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbDir {
    dir: PathBuf,
}

impl DbDir {
    pub fn new(dir: impl Into<PathBuf>) -> DbDir {
        DbDir { dir: dir.into() }
    }

    /// The directory itself.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The SQLite file.
    pub fn sqlite(&self) -> PathBuf {
        self.dir.join(DB_FILE)
    }

    /// The full-text index's directory.
    pub fn text(&self) -> PathBuf {
        self.dir.join(TEXT_DIR)
    }

    /// The import lock file.
    pub fn lock(&self) -> PathBuf {
        self.dir.join(LOCK_FILE)
    }
}

/// What can go wrong with the database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("no kifudex database in {0} (run `kifudex import` first, or give --db)")]
    Missing(PathBuf),
    #[error("cannot create the database directory {0}: {1}")]
    CreateDir(PathBuf, std::io::Error),
    #[error(
        "the database has schema version {found}, newer than this kifudex knows ({known}): use a newer kifudex"
    )]
    TooNew { found: u32, known: u32 },
    #[error(
        "the database hashes positions with version {found} of the hash tables, this kifudex with {known}: re-import into a new database"
    )]
    HashVersion { found: String, known: u32 },
    #[error(
        "the database's position index has format {found}, this kifudex writes {known}: re-import into a new database"
    )]
    PostingsVersion { found: String, known: u32 },
    #[error(
        "the database is of an older format (schema {found}; this kifudex reads {known}): run `kifudex upgrade` to bring it up to date (a command that only reads never changes it)"
    )]
    NeedsUpgrade { found: u32, known: u32 },
    #[error(
        "cannot read the database: its folder cannot be written, and its write-ahead log {} holds changes not yet in the database file; open it once where it can be written (`kifudex upgrade`), or copy the folder ({cause})",
        log.display()
    )]
    ReadOnlyLog {
        log: PathBuf,
        cause: Box<StoreError>,
    },
    #[error("migration {0} failed: {1}")]
    Migration(String, rusqlite::Error),
    #[error("game {0} is damaged in the database: {1}")]
    Corrupt(i64, String),
    #[error("the position index is damaged ({0}): re-import into a new database")]
    IndexDamaged(&'static str),
    #[error(
        "the database is damaged: {0} does not match its checksum; `kifudex check --repair` rebuilds what is derived from the games"
    )]
    Damaged(String),
    #[error("another import is running into {0}")]
    Busy(PathBuf),
    #[error("cannot lock {0}: {1}")]
    Lock(PathBuf, std::io::Error),
    #[error(
        "the database is locked by another program (one that holds a write transaction on {DB_FILE}): kifudex waited 30 s; try again once it is done"
    )]
    Locked,
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
    /// A stored value that cannot be what its column holds (text that is not UTF-8, a blob
    /// where text belongs): the file was changed under kifudex or damaged on disk.
    #[error(
        "the database file {DB_FILE} is damaged: a stored value is not what its column holds ({0}); the games it holds cannot be rebuilt from it: re-import them, or restore a backup"
    )]
    DamagedValue(String),
}

impl From<rusqlite::Error> for StoreError {
    /// A lock held by another program is said once, in words (SQLite's own message repeats
    /// "database is locked" and adds its error code).
    fn from(e: rusqlite::Error) -> StoreError {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                StoreError::Locked
            }
            _ => match e {
                rusqlite::Error::Utf8Error(..)
                | rusqlite::Error::FromSqlConversionFailure(..)
                | rusqlite::Error::InvalidColumnType(..)
                | rusqlite::Error::IntegralValueOutOfRange(..) => {
                    StoreError::DamagedValue(e.to_string())
                }
                e => StoreError::Sqlite(e),
            },
        }
    }
}

/// The import lock file inside a database directory.
pub const LOCK_FILE: &str = "import.lock";

/// Held while an import runs (see [`Store::lock_import`]).
pub struct ImportLock {
    _file: std::fs::File,
}

/// An open kifudex database.
pub struct Store {
    conn: Connection,
    db: DbDir,
    /// The position index with its columns as last read, and what the database was then
    /// (see [`Store::position_index`]).
    index_cache: std::cell::RefCell<Option<postings::CachedIndex>>,
    /// Main lines read for replays, kept between questions as long as the index is (see
    /// [`Store::kept_game_line`]).
    line_cache: std::cell::RefCell<read::KeptLines>,
    /// What the migrations run by this open said they did ([`Store::migration_notes`]).
    notes: Vec<String>,
    /// The games' facts this connection's owner handed it ([`Store::hold_facts`]).
    facts: std::cell::RefCell<Option<std::sync::Arc<Facts>>>,
}

impl Store {
    /// Opens the database in `dir`, creating the directory and the schema when needed
    /// (for import).
    pub fn create(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::CreateDir(dir.to_path_buf(), e))?;
        let conn = Connection::open(DbDir::new(dir).sqlite())?;
        // Both only take effect on a new, empty database. Games rows are about 900 bytes:
        // 8 KB pages waste less of each page than 4 KB ones (position blocks, at most 4,000
        // bytes, go two to a page).
        conn.pragma_update(None, "page_size", 8192)?;
        // Merging position segments frees many pages: give them back to the file system.
        conn.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
        Store::migrated(conn, dir, true)
    }

    /// The store of a connection opened to write: configured, its schema brought up to date
    /// and its meta checked (`new`: a database just created).
    fn migrated(mut conn: Connection, dir: &Path, new: bool) -> Result<Store, StoreError> {
        configure(&conn)?;
        let notes = migrate::migrate(&mut conn)?;
        let store = Store {
            conn,
            db: DbDir::new(dir),
            index_cache: Default::default(),
            line_cache: Default::default(),
            notes,
            facts: Default::default(),
        };
        store.check_meta(new)?;
        Ok(store)
    }

    /// Opens an existing database to write it; a missing one is an error, an old schema is
    /// brought up to date (the migrations). What is derived from the games (recognition,
    /// the position index) is brought up to date by [`Store::upgrade`].
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        let file = DbDir::new(dir).sqlite();
        if !file.is_file() {
            return Err(StoreError::Missing(dir.to_path_buf()));
        }
        let conn = Connection::open_with_flags(
            &file,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        Store::migrated(conn, dir, false)
    }

    /// Opens an existing database to read it only; nothing is ever written, not even SQLite's
    /// side files where the folder cannot be written (a read-only mount, a backup, a folder
    /// of another user's): the file is then read as it is (SQLite's `immutable`), which is
    /// right when no write-ahead log holds changes the file lacks. A database that needs an
    /// upgrade of its schema is refused with words that name `kifudex upgrade`; one whose
    /// derived data is behind is read as it is ([`Store::staleness`] says what is behind).
    pub fn open_read_only(dir: &Path) -> Result<Store, StoreError> {
        let file = DbDir::new(dir).sqlite();
        if !file.is_file() {
            return Err(StoreError::Missing(dir.to_path_buf()));
        }
        let conn = match read_only_connection(&file, false) {
            Ok(conn) => conn,
            Err(e) => {
                // SQLite could not make its shared-memory file beside the database: read the
                // file alone, when the log beside it holds nothing the file lacks.
                let wal = file.with_extension("sqlite-wal");
                let log = std::fs::metadata(&wal).map_or(0, |m| m.len());
                if log > 0 {
                    return Err(StoreError::ReadOnlyLog {
                        log: wal,
                        cause: Box::new(e),
                    });
                }
                read_only_connection(&file, true)?
            }
        };
        let version: u32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version < SCHEMA_VERSION {
            return Err(StoreError::NeedsUpgrade {
                found: version,
                known: SCHEMA_VERSION,
            });
        }
        if version > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                found: version,
                known: SCHEMA_VERSION,
            });
        }
        let store = Store {
            conn,
            db: DbDir::new(dir),
            index_cache: Default::default(),
            line_cache: Default::default(),
            notes: Vec::new(),
            facts: Default::default(),
        };
        store.check_meta(false)?;
        Ok(store)
    }

    /// What the migrations this open ran said they did (games merged as twins), for the
    /// user.
    pub fn migration_notes(&self) -> &[String] {
        &self.notes
    }

    /// The schema version of the database in `dir` as it is on disk (0 for one made before
    /// versions were kept), read without changing anything.
    pub fn schema_version(dir: &Path) -> Result<u32, StoreError> {
        let file = DbDir::new(dir).sqlite();
        if !file.is_file() {
            return Err(StoreError::Missing(dir.to_path_buf()));
        }
        let conn =
            read_only_connection(&file, false).or_else(|_| read_only_connection(&file, true))?;
        Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    /// What of the database's derived data is behind its games: a read answers from what
    /// there is and says so; [`Store::upgrade`] (in `kifudex upgrade` and every command that
    /// writes) brings it up to date.
    pub fn staleness(&self) -> Result<Staleness, StoreError> {
        Ok(Staleness {
            recognition: openings::stale(&self.conn)?,
            unindexed_games: self.unindexed_games()?,
            import_running: self.import_running(),
            game_indexes: !indexes::missing(&self.conn)?.is_empty(),
        })
    }

    /// The opening totals (`opening_totals`), or None while they are stale (a removal took a
    /// year's first or last game away, or the openings were recognised by other
    /// definitions): the caller then counts from the games.
    pub fn opening_totals(
        &self,
    ) -> Result<Option<Vec<(labels::TotalKey, labels::Tally)>>, StoreError> {
        if openings::stale(&self.conn)? {
            return Ok(None);
        }
        labels::read(&self.conn)
    }

    /// Whether an import holds the import lock now. Asked without writing: the lock file is
    /// opened for reading, and a shared lock tried and let go.
    pub fn import_running(&self) -> bool {
        let Ok(file) = std::fs::File::open(self.db.lock()) else {
            return false;
        };
        matches!(
            file.try_lock_shared(),
            Err(std::fs::TryLockError::WouldBlock)
        )
    }

    /// Brings what is derived from the games up to date: the games indexes a killed bulk
    /// import left out, the openings recognised again when the definitions changed, the
    /// positions of games an import stopped before indexing. Takes the import lock
    /// ([`StoreError::Busy`] while an import runs). `progress` hears each stage.
    pub fn upgrade(&mut self, progress: &dyn Progress) -> Result<Upgraded, StoreError> {
        let _lock = self.lock_import()?;
        self.upgrade_locked(progress)
    }

    /// [`Store::upgrade`] by a caller that holds the import lock.
    pub fn upgrade_locked(&mut self, progress: &dyn Progress) -> Result<Upgraded, StoreError> {
        let mut done = Upgraded::default();
        if !indexes::missing(&self.conn)?.is_empty() {
            progress.stage("building the games indexes", None, "");
            indexes::restore(&self.conn)?;
            progress.finish();
            done.game_indexes = true;
        }
        if openings::stale(&self.conn)? {
            done.recognised = openings::recompute(&mut self.conn, progress)?;
        }
        if labels::stale(&self.conn)? {
            progress.stage("counting the openings' totals", None, "");
            let tx = self.conn.transaction()?;
            labels::rebuild(&tx)?;
            tx.commit()?;
            progress.finish();
        }
        if self.unindexed_games()? > 0 {
            progress.stage("indexing positions", None, "games");
            done.indexed = self.writer()?.index_missing()? as u64;
            progress.finish();
        }
        Ok(done)
    }

    /// The games the database holds.
    pub fn game_count(&self) -> Result<u64, StoreError> {
        let n: i64 = self
            .conn
            .query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
        Ok(n as u64)
    }

    /// Reads pages by system calls instead of through a mapping of the file: for a
    /// connection that reads the games once in order (an export), whose resident size then
    /// counts only its own memory, not the database's pages it has touched.
    pub fn read_unmapped(&self) -> Result<(), StoreError> {
        self.conn.pragma_update(None, "mmap_size", 0)?;
        Ok(())
    }

    /// [`Store::read_unmapped`], and a page cache of 2 MB instead of 64: for a connection
    /// that reads each game once and nothing else (an export's worker), whose cache would
    /// only fill with pages never read again (64 MB a core at 1,000,000 games).
    pub fn read_once(&self) -> Result<(), StoreError> {
        self.read_unmapped()?;
        self.conn.pragma_update(None, "cache_size", -2048)?;
        Ok(())
    }

    /// The database's directory.
    pub fn dir(&self) -> &Path {
        self.db.path()
    }

    /// The database as a whole: where its parts live.
    pub fn db(&self) -> &DbDir {
        &self.db
    }

    /// Takes the import lock of the database (a file beside it, released when the guard is
    /// dropped or the process ends): one import at a time, and nothing else indexes games
    /// while one runs. `Ok(None)` when an import holds it.
    pub fn try_lock_import(&self) -> Result<Option<ImportLock>, StoreError> {
        let path = self.db.lock();
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| StoreError::Lock(path.clone(), e))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(ImportLock { _file: file })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(StoreError::Lock(path, e)),
        }
    }

    /// The import lock, or [`StoreError::Busy`] when another import holds it.
    pub fn lock_import(&self) -> Result<ImportLock, StoreError> {
        self.try_lock_import()?
            .ok_or_else(|| StoreError::Busy(self.dir().to_path_buf()))
    }

    /// Games whose positions are not in the position index yet: those of an import still
    /// running, or of one that stopped before writing them ([`Store::index_missing`]).
    pub fn unindexed_games(&self) -> Result<u64, StoreError> {
        let covered = postings::covered_through(&self.conn)?;
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM games WHERE id > ?1", [covered], |r| {
                r.get::<_, i64>(0)
            })? as u64)
    }

    /// Starts a write transaction (see [`Writer`]).
    pub fn writer(&mut self) -> Result<Writer<'_>, StoreError> {
        Writer::new(&mut self.conn)
    }

    /// A `meta` value.
    pub fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        meta_value(&self.conn, key)
    }

    /// Sets a `meta` value.
    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
            [key, value],
        )?;
        Ok(())
    }

    /// Records the versions in `meta` on a new database; refuses a database whose positions
    /// were hashed with other tables.
    fn check_meta(&self, write: bool) -> Result<(), StoreError> {
        if let Some(v) = self.meta("postings_version")?
            && v != postings::POSTINGS_VERSION.to_string()
        {
            return Err(StoreError::PostingsVersion {
                found: v,
                known: postings::POSTINGS_VERSION,
            });
        }
        match self.meta("hash_version")? {
            Some(v) if v != HASH_VERSION.to_string() => Err(StoreError::HashVersion {
                found: v,
                known: HASH_VERSION,
            }),
            Some(_) => Ok(()),
            None if write => {
                let mut put = self
                    .conn
                    .prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")?;
                put.execute(["schema_version", &SCHEMA_VERSION.to_string()])?;
                put.execute(["hash_version", &HASH_VERSION.to_string()])?;
                put.execute(["postings_version", &postings::POSTINGS_VERSION.to_string()])?;
                put.execute(["created_by", concat!("kifudex ", env!("CARGO_PKG_VERSION"))])?;
                put.execute([
                    openings::CLASSIFY_META,
                    &kifudex_classify::CLASSIFY_VERSION.to_string(),
                ])?;
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// Counts for `kifudex stats`.
    pub fn stats(&self) -> Result<Stats, StoreError> {
        let index = postings::size(&self.conn)?;
        let count = |sql: &str| -> Result<u64, StoreError> {
            Ok(self.conn.query_row(sql, [], |r| r.get::<_, i64>(0))? as u64)
        };
        Ok(Stats {
            games: count("SELECT count(*) FROM games")?,
            positions: index.entries,
            position_segments: index.segments,
            position_bytes: index.bytes,
            players: count("SELECT count(*) FROM players")?,
            files: count("SELECT count(*) FROM sources")?,
            errors: count("SELECT count(*) FROM import_errors WHERE severity = 'error'")?,
            warnings: count("SELECT count(*) FROM import_errors WHERE severity = 'warning'")?,
            duplicates: count("SELECT count(*) FROM game_sources")?,
            illegal: count("SELECT count(*) FROM games WHERE illegal_ply IS NOT NULL")?,
            bytes: dir_size(self.dir()),
            text_bytes: dir_size(&self.db.text()),
        })
    }
}

/// What `kifudex optimize` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptimizeReport {
    pub segments_before: u64,
    pub segments_after: u64,
    /// Whether segments were merged (or removed games dropped).
    pub merged: bool,
    /// The lists of games by recognised name, before and after.
    pub lists: (u64, u64),
}

impl Store {
    /// Merges every position segment into one (dropping removed games), then lets SQLite
    /// update its statistics and folds the write-ahead log back into the file.
    /// The caller holds the import lock ([`Store::lock_import`]).
    pub fn optimize(&mut self) -> Result<OptimizeReport, StoreError> {
        self.writer()?.index_missing()?;
        let before = postings::size(&self.conn)?.segments;
        let ids: Vec<i64> = self
            .conn
            .prepare("SELECT id FROM position_segments ORDER BY id")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let removed: i64 = self
            .conn
            .query_row("SELECT count(*) FROM removed_games", [], |r| r.get(0))?;
        let merged = ids.len() > 1 || removed > 0;
        if merged {
            let tx = self.conn.transaction()?;
            postings::merge(&tx, &ids)?;
            tx.execute("DELETE FROM removed_games", [])?;
            tx.commit()?;
        }
        let tx = self.conn.transaction()?;
        let lists = openings::merge_lists(&tx, removed > 0)?;
        tx.commit()?;
        give_back_free_pages(&self.conn)?;
        self.conn.execute_batch("PRAGMA optimize")?;
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(OptimizeReport {
            segments_before: before,
            segments_after: postings::size(&self.conn)?.segments,
            merged,
            lists,
        })
    }
}

/// Database-wide counts.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    pub games: u64,
    /// Positions indexed: every position of every game's main line, the start included.
    pub positions: u64,
    /// Sorted runs the position index is made of (`kifudex optimize` merges them into one).
    pub position_segments: u64,
    /// Size of the position index inside the database file.
    pub position_bytes: u64,
    pub players: u64,
    /// Files (and archive entries) read.
    pub files: u64,
    /// Problems recorded at import that lost data (see [`kifudex_notation::Severity`]).
    pub errors: u64,
    /// Problems recorded at import that lost no game data.
    pub warnings: u64,
    /// Games read more than once (in two files, or twice in one).
    pub duplicates: u64,
    /// Games with a move that broke a rule.
    pub illegal: u64,
    /// Size on disk of the database directory (the text index included).
    pub bytes: u64,
    /// Size on disk of the text index alone.
    pub text_bytes: u64,
}

/// A `meta` value (for [`Store::meta`] and the writer).
pub(crate) fn meta_value(conn: &Connection, key: &str) -> Result<Option<String>, StoreError> {
    use rusqlite::OptionalExtension;
    Ok(conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .optional()?)
}

/// Returns the database's free pages to the file system (databases are created with
/// incremental auto-vacuum). Each step of the pragma frees one page.
pub(crate) fn give_back_free_pages(conn: &Connection) -> Result<(), StoreError> {
    let mut stmt = conn.prepare("PRAGMA incremental_vacuum")?;
    let mut rows = stmt.query([])?;
    while rows.next()?.is_some() {}
    Ok(())
}

/// What of a database's derived data is behind its games ([`Store::staleness`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Staleness {
    /// The openings were recognised by other definitions.
    pub recognition: bool,
    /// Games whose positions are not in the position index.
    pub unindexed_games: u64,
    /// An import is running now (its games are indexed at its end).
    pub import_running: bool,
    /// A killed bulk import left the games indexes out (queries are right, slower).
    pub game_indexes: bool,
}

impl Staleness {
    /// What a read should say of it, in words (empty when nothing is behind). `positions`:
    /// whether the read asks the position index.
    pub fn notes(&self, positions: bool) -> Vec<String> {
        let mut out = Vec::new();
        if self.recognition {
            out.push(
                "the openings were recognised by older definitions: `kifudex upgrade` recognises them again".to_string(),
            );
        }
        if positions && self.unindexed_games > 0 {
            out.push(if self.import_running {
                format!(
                    "{} games of the import now running are not in the position index yet",
                    self.unindexed_games
                )
            } else {
                format!(
                    "{} games are not in the position index (an import stopped before indexing them): `kifudex upgrade` indexes them",
                    self.unindexed_games
                )
            });
        }
        out
    }
}

/// What [`Store::upgrade`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Upgraded {
    /// The games indexes were built.
    pub game_indexes: bool,
    /// Games whose openings were recognised again.
    pub recognised: u64,
    /// Games whose positions were indexed.
    pub indexed: u64,
}

/// A connection that reads only, tried at once; `immutable`: the file read alone, no side
/// file made or read.
fn read_only_connection(file: &Path, immutable: bool) -> Result<Connection, StoreError> {
    let conn = if immutable {
        Connection::open_with_flags(
            format!("file:{}?immutable=1", uri_path(file)),
            OpenFlags::SQLITE_OPEN_READ_ONLY
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
                | OpenFlags::SQLITE_OPEN_URI,
        )?
    } else {
        Connection::open_with_flags(
            file,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?
    };
    conn.busy_timeout(std::time::Duration::from_secs(30))?;
    conn.pragma_update(None, "cache_size", -65536)?;
    // Pages read in place from a mapping of the file rather than copied by a system call
    // each: the explorer's replays read thousands of games a second (SQLite caps the
    // mapping at its compile-time limit and reads the rest of a larger file as before).
    conn.pragma_update(None, "mmap_size", READ_MAP_BYTES)?;
    evals::register_functions(&conn)?;
    // The first read opens the log and its index: it fails here, not in a query, when they
    // cannot be made.
    conn.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))?;
    Ok(conn)
}

/// A path as the path of a `file:` URI: every byte but unreserved ones and `/` escaped.
fn uri_path(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = String::new();
    for &b in absolute.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// How much of the database file a read-only connection maps (see `open_read_only`).
const READ_MAP_BYTES: i64 = 1 << 40;

fn configure(conn: &Connection) -> Result<(), StoreError> {
    conn.busy_timeout(std::time::Duration::from_secs(30))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "cache_size", -65536)?;
    evals::register_functions(conn)?;
    Ok(())
}

fn dir_size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}
