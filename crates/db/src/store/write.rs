//! Writing: sources, games (stored once, however often they are read), players, headers,
//! comments and errors, in explicit transactions that the importer commits in batches. A source
//! row is written in the same transaction as its games, so a killed import leaves either both
//! or neither, and the next import reads the file again.

use kifudex_notation::{Encoding, Format};
use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, OptionalExtension, Statement, params};

use super::checkpoint::Checkpointer;
use super::{GameRow, StoreError, codec, postings};
use kifudex_notation::normalize::{name_key, strip_titles};
use kifudex_notation::{Severity, TerminalKind};

/// A source already in the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownSource {
    pub id: i64,
    pub size: u64,
    pub mtime: i64,
    pub content_hash: String,
    /// The import options it was indexed with ([`SourceRow::options`]).
    pub options: String,
}

/// The sources an earlier import read: by their exact key, and (for rows written before
/// sources had keys) by their displayed path.
#[derive(Debug, Default)]
pub struct KnownSources {
    by_key: HashMap<Vec<u8>, KnownSource>,
    legacy: HashMap<String, KnownSource>,
}

impl KnownSources {
    /// The source read before under `key`, or under the displayed `path` by an older
    /// kifudex.
    pub fn get(&self, key: &[u8], path: &str) -> Option<&KnownSource> {
        self.by_key.get(key).or_else(|| self.legacy.get(path))
    }

    pub fn len(&self) -> usize {
        self.by_key.len() + self.legacy.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A source as read now.
#[derive(Debug, Clone)]
pub struct SourceRow {
    /// The path as displayed (lossily, for a name that is no UTF-8).
    pub path: String,
    /// What the source is, exactly: see `migrations/0007_source_keys.sql`
    /// (`ingest::walk::SourceInfo::key` makes it).
    pub key: Vec<u8>,
    pub size: u64,
    pub mtime: i64,
    pub content_hash: String,
    pub format: Option<Format>,
    pub encoding: Option<Encoding>,
    pub games: usize,
    pub error: Option<String>,
    /// The import options that change what is indexed, as the importer names them
    /// (`variations`, or empty): a source indexed with others is read again.
    pub options: &'static str,
    /// The id of the source an earlier import read from this path, when the caller knows it
    /// ([`Writer::known_sources`]); otherwise the writer looks for it.
    pub replaces: Option<i64>,
}

/// What writing a game did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inserted {
    New(i64),
    /// The game was already stored (from another file, or earlier in this one) under this id,
    /// read with the same headers and terminal.
    Duplicate(i64),
    /// The game was already stored under this id, and this record of it says other things
    /// (a twin: see `store::twins`); the game took what its own source lacks.
    Twin(i64),
}

/// Writes to the database inside explicit transactions ([`Writer::begin`], [`Writer::commit`]).
/// Dropping a writer in a transaction rolls it back. [`Writer::finish`] writes the position
/// postings still gathered; a writer dropped without it leaves its last games unindexed until
/// the next [`Writer::index_missing`].
pub struct Writer<'a> {
    pub(super) conn: &'a Connection,
    pub(super) players: HashMap<String, i64>,
    /// Numbers of the recognised names written so far.
    opening_names: super::openings::NameIds,
    /// The games of each recognised name written in the open transaction.
    recognised: super::openings::Lists,
    /// Whether a game went in without its recognition (the version in meta was dropped).
    unrecognised: bool,
    in_tx: bool,
    /// Games deleted since the last [`Writer::take_deleted`] (for the text index).
    deleted: Vec<i64>,
    /// Postings of the games written in the open transaction.
    pub(super) postings: postings::Batch,
    /// The players' totals of the games written in the open transaction.
    pub(super) totals: super::players::Pending,
    /// The opening totals of the games written in the open transaction.
    pub(super) opening_totals: super::labels::Pending,
    /// Numbers of the game labels written so far.
    labels: super::labels::LabelIds,
    /// The player ids (sente's, gote's) of the last game [`Writer::put_game`] wrote.
    last_players: [Option<i64>; 2],
    /// The stored games a new record may be a twin of, by key (loaded on the first game),
    /// so that a new game needs no lookup.
    pub(super) twins: super::twins::Candidates,
    /// Games whose text changed since the last [`Writer::take_revised`] (a twin filled them).
    pub(super) revised: Vec<i64>,
    /// Result and date changes of games whose postings are in the batch being prepared
    /// beside the writer: applied once its segment is written.
    pub(super) corrections: Vec<(i64, u8, u32)>,
    /// A 64-bit hash of every source's key (loaded on the first source): a new source needs
    /// no lookup.
    paths: Option<HashSet<u64>>,
    /// The sources this writer wrote: none of them is replaced by another.
    written_sources: HashSet<i64>,
    /// A full batch being sorted and cut beside the writer; its segment is written by a
    /// later transaction ([`Writer::store_prepared`]).
    pub(super) preparing: Option<std::thread::JoinHandle<Option<postings::PreparedSegment>>>,
    /// Postings a segment holds ([`postings::SEGMENT_ENTRIES`]; see [`Writer::segment_entries`]).
    segment_entries: usize,
    /// The two inserts every source and game makes, prepared once: the statement cache
    /// hashes the SQL on each lookup and resets and clears the statement on each return.
    insert_source: Option<Statement<'a>>,
    insert_game: Option<Statement<'a>>,
    /// Copies the log into the database beside the writer (see [`super::checkpoint`]).
    checkpointer: Option<Checkpointer>,
    page_size: i64,
    /// Bytes of log after which the writer finishes a checkpoint itself.
    log_limit: u64,
    /// [`super::checkpoint::pages_written`] when the log last started again (as far as
    /// this writer knows: at its start, or after it copied the whole log).
    log_start: i64,
}

/// Pages of log after which SQLite checkpoints on a writer's connection when no
/// [`Checkpointer`] runs beside it: fewer, larger checkpoints write each page fewer times.
const AUTOCHECKPOINT: i64 = 16_384;

const INSERT_SOURCE: &str = "INSERT INTO sources (path, key, size, mtime, content_hash, format,
    encoding, games, error, options) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";

const INSERT_GAME: &str = "INSERT INTO games (source_id, game_index, format, start_sfen, moves,
    times, plies, handicap, date, event, opening, title, sente_id, gote_id, terminal, winner,
    illegal_ply, illegal_rule, tree, fingerprint, headers, comments, incomplete, label,
    recognised, moves_crc, label_id)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
    ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27)";

/// `slot`'s statement, prepared on first use.
fn held<'s, 'a>(
    conn: &'a Connection,
    slot: &'s mut Option<Statement<'a>>,
    sql: &str,
) -> Result<&'s mut Statement<'a>, StoreError> {
    if slot.is_none() {
        *slot = Some(conn.prepare(sql)?);
    }
    Ok(slot.as_mut().expect("prepared above"))
}

impl<'a> Writer<'a> {
    pub(super) fn new(conn: &'a mut Connection) -> Result<Writer<'a>, StoreError> {
        conn.set_prepared_statement_cache_capacity(64);
        // A writer touches index pages all over the file: a bigger page cache, and fewer,
        // larger checkpoints, write each page fewer times.
        conn.pragma_update(None, "cache_size", -131_072)?;
        let checkpointer = conn
            .path()
            .filter(|p| !p.is_empty())
            .and_then(|p| Checkpointer::start(std::path::Path::new(p)));
        // With a checkpointer beside it, SQLite's own checkpoints (which stop the writer until
        // the disk has the data) are off.
        let autocheckpoint = if checkpointer.is_some() {
            0
        } else {
            AUTOCHECKPOINT
        };
        conn.pragma_update(None, "wal_autocheckpoint", autocheckpoint)?;
        let page_size = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        Ok(Writer {
            conn,
            players: HashMap::new(),
            opening_names: Default::default(),
            recognised: Default::default(),
            unrecognised: false,
            in_tx: false,
            deleted: Vec::new(),
            postings: postings::Batch::default(),
            totals: Default::default(),
            opening_totals: Default::default(),
            labels: Default::default(),
            last_players: [None; 2],
            twins: Default::default(),
            revised: Vec::new(),
            corrections: Vec::new(),
            paths: None,
            written_sources: HashSet::new(),
            preparing: None,
            segment_entries: postings::SEGMENT_ENTRIES,
            insert_source: None,
            insert_game: None,
            checkpointer,
            page_size,
            log_limit: super::checkpoint::LOG_LIMIT,
            log_start: super::checkpoint::pages_written(conn),
        })
    }

    /// The connection the writer writes through.
    pub(crate) fn conn_ref(&self) -> &'a Connection {
        self.conn
    }

    /// Writes segments of `n` postings instead of [`postings::SEGMENT_ENTRIES`] (for tests of
    /// imports that write several).
    pub fn segment_entries(&mut self, n: usize) {
        self.segment_entries = n.max(1);
    }

    /// Lets the write-ahead log grow to `bytes` instead of [`super::checkpoint::LOG_LIMIT`]
    /// before the writer copies what is left of it and starts it again.
    pub fn log_limit(&mut self, bytes: u64) {
        self.log_limit = bytes;
    }

    pub fn begin(&mut self) -> Result<(), StoreError> {
        if !self.in_tx {
            self.conn.execute_batch("BEGIN IMMEDIATE")?;
            self.in_tx = true;
        }
        Ok(())
    }

    /// Commits the open transaction, with the segment of a full batch when it is ready.
    /// Postings are written as a segment when a batch is full ([`Writer::put_game`]); until
    /// then games are committed without them (see [`Writer::finish`] and
    /// [`Writer::index_missing`]).
    pub fn commit(&mut self) -> Result<(), StoreError> {
        if self.in_tx && self.preparing.as_ref().is_some_and(|t| t.is_finished()) {
            self.store_prepared()?;
        }
        if self.in_tx {
            self.totals.flush(self.conn)?;
            self.opening_totals.flush(self.conn)?;
            self.recognised.finish(self.conn)?;
            self.conn.execute_batch("COMMIT")?;
            self.in_tx = false;
            if let Some(c) = &self.checkpointer {
                c.committed();
            }
        }
        // The log has grown past the limit since it last started again: the rest is copied
        // here (the checkpointer has copied most of it), so that the next transaction starts
        // the log again from its beginning.
        if let Some(c) = &self.checkpointer {
            let written = super::checkpoint::pages_written(self.conn) - self.log_start;
            if written * self.page_size >= self.log_limit as i64 {
                let _round = c.hold();
                let (busy, log, copied): (i64, i64, i64) =
                    self.conn
                        .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                        })?;
                // All of it copied: the next write starts the log again. (A reader of the
                // database that still reads the log keeps it; the next commit tries again.)
                if busy == 0 && log == copied {
                    self.log_start = super::checkpoint::pages_written(self.conn);
                }
            }
        }
        Ok(())
    }

    /// Waits for the batch being prepared, if any, and writes its segment (in the open
    /// transaction). Segments are written in game order, so that the games above the last
    /// segment are the ones without postings (see [`Writer::index_missing`]).
    fn store_prepared(&mut self) -> Result<(), StoreError> {
        let Some(t) = self.preparing.take() else {
            return Ok(());
        };
        let prepared = t.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        if let Some(p) = prepared {
            p.store(self.conn)?;
        }
        for (game, result, date) in std::mem::take(&mut self.corrections) {
            postings::set_game_columns(self.conn, game, result, date)?;
        }
        Ok(())
    }

    /// Drops the games indexes for a bulk import, which builds them at its end
    /// ([`Writer::finish`]; see [`super::indexes`]).
    pub fn defer_game_indexes(&mut self) -> Result<(), StoreError> {
        self.begin()?;
        super::indexes::drop_all(self.conn)?;
        self.commit()
    }

    /// Builds the games indexes the database lacks (after [`Writer::defer_game_indexes`], or
    /// left out by a killed import) and writes the postings still gathered as a segment; then
    /// merges the small segments of the database (this writer's last one and those of earlier
    /// small imports) into one. Each step has a transaction of its own. Returns how many
    /// segments were merged.
    pub fn finish(&mut self) -> Result<usize, StoreError> {
        if self.preparing.is_some() {
            self.begin()?;
            self.store_prepared()?;
        }
        self.commit()?;
        if self.postings.is_empty() {
            super::indexes::restore(self.conn)?;
        } else {
            // The last segment is sorted beside the writer while it builds the indexes (each
            // a scan of the games on one core), and the checkpointer copies what the last
            // commit added to the log.
            let mut batch = std::mem::take(&mut self.postings);
            let preparing = std::thread::spawn(move || batch.prepare());
            let built = super::indexes::restore(self.conn);
            let prepared = preparing
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
            built?;
            if let Some(p) = prepared {
                self.begin()?;
                p.store(self.conn)?;
                self.commit()?;
            }
        }
        let small: Vec<i64> = self
            .conn
            .prepare("SELECT id FROM position_segments WHERE entries < ?1 ORDER BY id")?
            .query_map([(self.segment_entries / 4) as i64], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        if small.len() < 2 {
            return Ok(0);
        }
        self.begin()?;
        postings::merge(self.conn, &small)?;
        self.commit()?;
        super::give_back_free_pages(self.conn)?;
        Ok(small.len())
    }

    /// Indexes the positions of games committed without them (by an import that stopped
    /// before it wrote their segment), replaying them from their rows, in a transaction of
    /// its own. Returns how many games it indexed.
    pub fn index_missing(&mut self) -> Result<usize, StoreError> {
        let c = self.conn;
        let covered = postings::covered_through(c)?;
        let variations = super::meta_value(c, postings::VARIATIONS_META)?.is_some();
        let mut batch = postings::Batch::default();
        let mut games = 0;
        self.begin()?;
        {
            let mut stmt = c.prepare(
                "SELECT id, start_sfen, handicap, moves, tree, winner, date FROM games
                 WHERE id > ?1 ORDER BY id",
            )?;
            let mut rows = stmt.query([covered])?;
            while let Some(r) = rows.next()? {
                let id: i64 = r.get(0)?;
                let sfen: Option<String> = r.get(1)?;
                let handicap: String = r.get(2)?;
                let blob = r.get_ref(3)?.as_blob().unwrap_or(&[]);
                let (start, moves) = codec::main_line(id, sfen.as_deref(), &handicap, blob)?;
                let tree = match variations {
                    true => codec::stored_tree(id, r.get_ref(4)?)?,
                    false => None,
                };
                let positions = match tree {
                    Some(tree) => codec::tree_positions(id, start, moves, tree)?,
                    None => codec::line_positions(&start, moves.into_iter()),
                };
                let winner: Option<String> = r.get(5)?;
                let date: Option<String> = r.get(6)?;
                batch.add(
                    id,
                    &positions,
                    postings::result_code(winner.as_deref()),
                    date.as_deref()
                        .and_then(kifudex_notation::dates::GameDate::parse)
                        .map_or(0, |d| d.code()),
                );
                games += 1;
                if batch.is_full(self.segment_entries) {
                    postings::write_segment(c, &mut batch)?;
                }
            }
        }
        postings::write_segment(c, &mut batch)?;
        self.commit()?;
        Ok(games)
    }

    /// The games deleted (by re-imports of changed files) since the last call.
    pub fn take_deleted(&mut self) -> Vec<i64> {
        std::mem::take(&mut self.deleted)
    }

    /// Every source read before, by path.
    pub fn known_sources(&self) -> Result<KnownSources, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, path, size, mtime, content_hash, key, options FROM sources")?;
        let mut rows = stmt.query([])?;
        let mut known = KnownSources::default();
        while let Some(r) = rows.next()? {
            let source = KnownSource {
                id: r.get(0)?,
                size: r.get::<_, i64>(2)? as u64,
                mtime: r.get(3)?,
                content_hash: r.get(4)?,
                options: r.get(6)?,
            };
            match r.get::<_, Option<Vec<u8>>>(5)? {
                Some(key) => known.by_key.insert(key, source),
                None => known.legacy.insert(r.get(1)?, source),
            };
        }
        Ok(known)
    }

    /// Records that a known source's modification time changed while its content did not.
    pub fn touch_source(&mut self, id: i64, mtime: i64) -> Result<(), StoreError> {
        self.conn
            .prepare_cached("UPDATE sources SET mtime = ?2 WHERE id = ?1")?
            .execute(params![id, mtime])?;
        Ok(())
    }

    /// Writes a source row, replacing what an earlier import read from the same path (its
    /// games, unless another source also holds them, and its errors). Returns its id.
    /// A source written by this writer is never replaced by another one it writes (two
    /// sources that once had the same row, as an older kifudex keyed them, both stay).
    pub fn put_source(&mut self, row: &SourceRow) -> Result<i64, StoreError> {
        let existing = match row.replaces {
            Some(id) => Some(id),
            None => self.source_id(&row.key)?,
        }
        .filter(|id| !self.written_sources.contains(id));
        let values = params![
            row.path,
            row.key,
            row.size as i64,
            row.mtime,
            row.content_hash,
            row.format.map(Format::name),
            row.encoding.map(Encoding::name),
            row.games as i64,
            row.error,
            row.options
        ];
        match existing {
            Some(id) => {
                self.forget_source_games(id)?;
                self.conn
                    .prepare_cached(
                        "UPDATE sources SET path = ?1, key = ?2, size = ?3, mtime = ?4,
                         content_hash = ?5, format = ?6, encoding = ?7, games = ?8, error = ?9,
                         options = ?10
                         WHERE id = ?11",
                    )?
                    .execute(rusqlite::params_from_iter(
                        values.iter().copied().chain([&id as &dyn rusqlite::ToSql]),
                    ))?;
                if let Some(seen) = &mut self.paths {
                    seen.insert(path_hash(&row.key));
                }
                self.written_sources.insert(id);
                Ok(id)
            }
            None => {
                held(self.conn, &mut self.insert_source, INSERT_SOURCE)?.execute(values)?;
                let id = self.conn.last_insert_rowid();
                if let Some(seen) = &mut self.paths {
                    seen.insert(path_hash(&row.key));
                }
                self.written_sources.insert(id);
                Ok(id)
            }
        }
    }

    /// Completes the row of a source written in parts ([`Writer::put_source`] wrote its first
    /// part's, to be read again): its time and hash, the games it holds, its format,
    /// encoding and error as read whole.
    pub fn finish_source(&mut self, row: &SourceRow, id: i64) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(
                "UPDATE sources SET mtime = ?2, content_hash = ?3, format = ?4, encoding = ?5,
                 games = ?6, error = ?7 WHERE id = ?1",
            )?
            .execute(params![
                id,
                row.mtime,
                row.content_hash,
                row.format.map(Format::name),
                row.encoding.map(Encoding::name),
                row.games as i64,
                row.error
            ])?;
        Ok(())
    }

    /// The id of the source read before under `key`, if any.
    fn source_id(&mut self, key: &[u8]) -> Result<Option<i64>, StoreError> {
        if self.paths.is_none() {
            let mut seen = HashSet::new();
            let mut stmt = self
                .conn
                .prepare("SELECT key FROM sources WHERE key IS NOT NULL")?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                seen.insert(path_hash(r.get_ref(0)?.as_bytes().unwrap_or_default()));
            }
            self.paths = Some(seen);
        }
        if !self
            .paths
            .as_ref()
            .is_some_and(|s| s.contains(&path_hash(key)))
        {
            return Ok(None);
        }
        Ok(self
            .conn
            .prepare_cached("SELECT id FROM sources WHERE key = ?1")?
            .query_row([key], |r| r.get(0))
            .optional()?)
    }

    /// Unlinks a source's games and errors: a game first read from it moves to another
    /// source that holds it whole, and is deleted when none does (a source that holds only a
    /// prefix of it, merged by hand, is then read again by the next import); a game it was
    /// one more source of works its facts out again without it.
    fn forget_source_games(&mut self, source: i64) -> Result<(), StoreError> {
        let c = self.conn;
        // A game deleted below may be one this transaction wrote: its totals go in first.
        self.totals.flush(c)?;
        self.opening_totals.flush(c)?;
        c.execute("DELETE FROM import_errors WHERE source_id = ?1", [source])?;
        let twinned: Vec<i64> = c
            .prepare("SELECT DISTINCT game_id FROM game_sources WHERE source_id = ?1")?
            .query_map([source], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        c.execute("DELETE FROM game_sources WHERE source_id = ?1", [source])?;
        let games: Vec<i64> = c
            .prepare("SELECT id FROM games WHERE source_id = ?1")?
            .query_map([source], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut changed = twinned;
        for game in games {
            match super::remove::whole_holder(c, game)? {
                Some((s, i)) => {
                    let done = super::remove::move_game(c, game, s, i)?;
                    self.refreshed(game, done);
                }
                None => {
                    let partial = super::twins::partial_holders(c, game)?;
                    super::twins::read_again(c, &partial)?;
                    let (_, players) = super::remove::delete_game(c, game)?;
                    // A name only this game spelt goes with it.
                    for p in super::remove::delete_unused_players(c, &players)? {
                        self.players.retain(|_, id| *id != p);
                    }
                    self.twins.forget(game);
                    self.deleted.push(game);
                }
            }
        }
        changed.sort_unstable();
        changed.dedup();
        for game in changed {
            self.refresh_game(game)?;
        }
        Ok(())
    }

    /// The id of a player, added when new.
    fn player(&mut self, name: &str) -> Result<i64, StoreError> {
        if let Some(&id) = self.players.get(name) {
            return Ok(id);
        }
        let found: Option<i64> = self
            .conn
            .prepare_cached("SELECT id FROM players WHERE name = ?1")?
            .query_row([name], |r| r.get(0))
            .optional()?;
        let id = match found {
            Some(id) => id,
            None => {
                let key = name_key(name);
                let bare = strip_titles(&key);
                self.conn
                    .prepare_cached("INSERT INTO players (name, key, bare) VALUES (?1, ?2, ?3)")?
                    .execute(params![name, key, bare])?;
                self.conn.last_insert_rowid()
            }
        };
        self.players.insert(name.to_string(), id);
        Ok(id)
    }

    /// Writes a game read as game `index` of `source`, or links it when it is already stored.
    pub fn put_game(
        &mut self,
        source: i64,
        index: usize,
        g: &GameRow,
    ) -> Result<Inserted, StoreError> {
        let c = self.conn;
        // Look first rather than insert-or-ignore: a refused insert would still use up an id.
        let placed = self.twins.place(c, source, index, g)?;
        let result = match placed {
            super::twins::Placed::Same(id) => {
                super::twins::link(c, source, index as i64, id, None)?;
                Inserted::Duplicate(id)
            }
            super::twins::Placed::Twin(id, facts) => {
                super::twins::link(c, source, index as i64, id, Some(&facts))?;
                self.refresh_game(id)?;
                Inserted::Twin(id)
            }
            super::twins::Placed::New => {
                let sente = g.sente.as_deref().map(|n| self.player(n)).transpose()?;
                let gote = g.gote.as_deref().map(|n| self.player(n)).transpose()?;
                let date = g.date.map(|d| d.to_string());
                let (recognised_json, recognised_keys) = match &g.recognised {
                    Some(r) => super::openings::encode(c, &mut self.opening_names, r)?,
                    None => (None, Vec::new()),
                };
                let game_label = kifudex_classify::game_label(
                    g.opening.as_deref(),
                    g.recognised.as_ref().and_then(|r| r.opening),
                );
                let label_id = game_label.map(|l| self.labels.id(c, l)).transpose()?;
                held(c, &mut self.insert_game, INSERT_GAME)?.execute(params![
                    source,
                    index as i64,
                    g.format.name(),
                    g.start_sfen,
                    g.moves,
                    g.times,
                    g.plies,
                    g.handicap.kif_name(),
                    date,
                    g.event,
                    g.opening,
                    g.title,
                    sente,
                    gote,
                    g.terminal.map(TerminalKind::code),
                    g.result.code(),
                    g.illegal.map(|(p, _)| p),
                    g.illegal.map(|(_, r)| r.code()),
                    g.tree,
                    &g.fingerprint[..],
                    g.headers_text,
                    g.comments_json,
                    g.incomplete,
                    g.recognised.as_ref().and_then(|r| r.opening),
                    recognised_json,
                    super::checksum::moves(&g.moves),
                    label_id,
                ])?;
                let id = c.last_insert_rowid();
                if let Some(e) = &g.evals {
                    super::evals::put(c, id, e, None)?;
                }
                let label = g.recognised.as_ref().and_then(|r| r.opening);
                self.last_players = [sente, gote];
                self.totals.add(
                    [sente, gote],
                    g.result.code(),
                    date.as_deref(),
                    g.opening.as_deref().or(label),
                );
                self.opening_totals.add(
                    label_id.zip(game_label),
                    g.recognised.as_ref(),
                    g.result.code(),
                    date.as_deref(),
                );
                match &g.recognised {
                    Some(_) => self.recognised.add(id, &recognised_keys),
                    // Not recognised: the next upgrade (or command that writes) does it.
                    None if !self.unrecognised => {
                        self.unrecognised = true;
                        c.execute(
                            "DELETE FROM meta WHERE key = ?1",
                            [super::openings::CLASSIFY_META],
                        )?;
                    }
                    None => {}
                }
                self.twins.add(&g.fingerprint, id);
                self.postings.add(
                    id,
                    &g.positions,
                    postings::result_byte(g.result),
                    g.date.map_or(0, |d| d.code()),
                );
                // A full batch is sorted and cut beside the writer, and written by a later
                // transaction; the one before it first, so that memory stays bounded.
                if self.postings.is_full(self.segment_entries) {
                    self.store_prepared()?;
                    let mut batch = std::mem::take(&mut self.postings);
                    self.preparing = Some(std::thread::spawn(move || batch.prepare()));
                }
                Inserted::New(id)
            }
        };
        Ok(result)
    }

    /// The player ids (sente's, gote's) of the game the last [`Writer::put_game`] wrote new.
    pub fn last_players(&self) -> [Option<i64>; 2] {
        self.last_players
    }

    /// Records a problem met in a source (in game `index`, at `line`/`column` when known),
    /// an error or a warning.
    pub fn put_error(
        &mut self,
        source: i64,
        index: Option<usize>,
        at: Option<(usize, usize)>,
        message: &str,
        severity: Severity,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(
                "INSERT INTO import_errors (source_id, game_index, line, col, message, severity)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                source,
                index.map(|i| i as i64),
                at.map(|(l, _)| l as i64),
                at.map(|(_, c)| c as i64),
                message,
                severity.code()
            ])?;
        Ok(())
    }
}

/// A path's hash for [`Writer::source_id`] (kept in memory only, never stored).
fn path_hash(path: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    path.hash(&mut h);
    h.finish()
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        if self.in_tx {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        // The connection outlives the writer: it checkpoints as SQLite does again.
        if self.checkpointer.take().is_some() {
            let _ = self
                .conn
                .pragma_update(None, "wal_autocheckpoint", AUTOCHECKPOINT);
        }
    }
}
