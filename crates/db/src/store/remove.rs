//! Removing games and sources (`kifudex remove`), with everything derived from them: the
//! games rows, their recognised openings, their places in `game_sources`, their import
//! errors, the players no game names any more, and their postings (the position segments
//! that held them are written again without them). The text index is the caller's (see
//! `ingest::remove`): [`Removed::games`] says what to delete from it.
//!
//! Two ways to remove, as the README tells users:
//! * games outright (by id or filter): every place that holds them is unlinked, while the
//!   sources themselves stay, so that importing the unchanged files again does not bring
//!   the games back (a changed file is read again, whole);
//! * sources: their rows go (an import reads the file again as new), with the games only
//!   they hold; a game another source also holds stays, and is then known by that source.

use std::collections::{BTreeSet, HashMap, HashSet};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::{Store, StoreError, postings};

/// A source as the database keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSource {
    pub id: i64,
    /// The path as displayed (`archive.zip!entry.kif` for an archive entry).
    pub path: String,
    /// Its exact identity (see `migrations/0007_source_keys.sql`); `None` for a row an
    /// older kifudex wrote and no import has read since.
    pub key: Option<Vec<u8>>,
}

/// What a removal takes away, worked out before anything changes (what `--dry-run` shows).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Removal {
    /// The games that go, in id order.
    pub games: Vec<i64>,
    /// The sources that go, in id order.
    pub sources: Vec<i64>,
    /// Games a removed source held that stay, for another source holds them too.
    pub kept: Vec<i64>,
    /// Players only removed games name.
    pub players: Vec<i64>,
    /// Import errors and warnings that go with the sources and games.
    pub errors: u64,
    /// Sources that stay and held only a prefix of a game that goes (merged into it by
    /// hand): the next import reads them again, and stores what they hold.
    pub read_again: Vec<i64>,
}

impl Removal {
    pub fn is_empty(&self) -> bool {
        self.games.is_empty() && self.sources.is_empty()
    }
}

/// What a removal did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Removed {
    /// The games deleted, in id order (for the text index).
    pub games: Vec<i64>,
    pub sources: usize,
    pub kept: usize,
    pub players: usize,
    pub errors: u64,
    /// Postings dropped from the position index.
    pub positions: u64,
    /// Position segments written again without the removed games.
    pub segments: usize,
}

impl Store {
    /// Every source, in id order.
    pub fn stored_sources(&self) -> Result<Vec<StoredSource>, StoreError> {
        Ok(self
            .conn
            .prepare("SELECT id, path, key FROM sources ORDER BY id")?
            .query_map([], |r| {
                Ok(StoredSource {
                    id: r.get(0)?,
                    path: r.get(1)?,
                    key: r.get(2)?,
                })
            })?
            .collect::<Result<_, _>>()?)
    }

    /// Those of `ids` that name no stored game, in the order given.
    pub fn unknown_games(&self, ids: &[i64]) -> Result<Vec<i64>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT 1 FROM games WHERE id = ?1")?;
        let mut unknown = Vec::new();
        for &id in ids {
            if stmt.query_row([id], |_| Ok(())).optional()?.is_none() && !unknown.contains(&id) {
                unknown.push(id);
            }
        }
        Ok(unknown)
    }

    /// What removing `games` outright and the sources `sources` (with the games only they
    /// hold) would take away.
    pub fn plan_removal(&self, games: &[i64], sources: &[i64]) -> Result<Removal, StoreError> {
        let c = &self.conn;
        let gone_sources: BTreeSet<i64> = sources.iter().copied().collect();
        let mut gone: BTreeSet<i64> = games.iter().copied().collect();
        let mut kept = BTreeSet::new();
        if !gone_sources.is_empty() {
            // Every place each game was read from: one pass over the games and the
            // duplicates (the games table has no index by source).
            let mut holders: HashMap<i64, Vec<i64>> = HashMap::new();
            let mut stmt = c.prepare("SELECT id, source_id FROM games")?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                holders.entry(r.get(0)?).or_default().push(r.get(1)?);
            }
            // A source that holds only a prefix of a game (merged by hand) does not keep it.
            let mut stmt = c.prepare(
                "SELECT game_id, source_id FROM game_sources
                 WHERE json_extract(facts, '$.plies') IS NULL",
            )?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                holders.entry(r.get(0)?).or_default().push(r.get(1)?);
            }
            for (game, from) in holders {
                if !from.iter().any(|s| gone_sources.contains(s)) || gone.contains(&game) {
                    continue;
                }
                if from.iter().all(|s| gone_sources.contains(s)) {
                    gone.insert(game);
                } else {
                    kept.insert(game);
                }
            }
        }
        let mut errors = 0u64;
        for &s in &gone_sources {
            errors += c
                .prepare_cached("SELECT count(*) FROM import_errors WHERE source_id = ?1")?
                .query_row([s], |r| r.get::<_, i64>(0))? as u64;
        }
        let mut players = BTreeSet::new();
        for &g in &gone {
            for (s, i) in places(c, g)? {
                if !gone_sources.contains(&s) {
                    errors +=
                        c.prepare_cached(
                            "SELECT count(*) FROM import_errors
                             WHERE source_id = ?1 AND game_index = ?2",
                        )?
                        .query_row([s, i], |r| r.get::<_, i64>(0))? as u64;
                }
            }
            let (a, b) = game_players(c, g)?;
            players.extend(a.into_iter().chain(b));
        }
        // A player goes when every game that names it goes.
        let mut unused = Vec::new();
        for p in players {
            let mut named: Vec<i64> = c
                .prepare_cached(
                    "SELECT id FROM games WHERE sente_id = ?1
                     UNION SELECT id FROM games WHERE gote_id = ?1",
                )?
                .query_map([p], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            named.retain(|g| !gone.contains(g));
            if named.is_empty() {
                unused.push(p);
            }
        }
        let mut read_again = BTreeSet::new();
        if !gone_sources.is_empty() {
            for &g in &gone {
                read_again.extend(
                    super::twins::partial_holders(c, g)?
                        .into_iter()
                        .filter(|s| !gone_sources.contains(s)),
                );
            }
        }
        Ok(Removal {
            games: gone.into_iter().collect(),
            sources: gone_sources.into_iter().collect(),
            kept: kept.into_iter().collect(),
            players: unused,
            errors,
            read_again: read_again.into_iter().collect(),
        })
    }

    /// Carries out a removal worked out by [`Store::plan_removal`], in one transaction: the
    /// rows, then the position segments that held the games, written again without them.
    /// The caller holds the import lock ([`Store::lock_import`]) from the plan on.
    pub fn remove(&mut self, plan: &Removal) -> Result<Removed, StoreError> {
        // Games an import left without postings get them first: every removed game is then
        // in a segment, and the merge below drops it for good.
        self.writer()?.index_missing()?;
        let before = postings::size(&self.conn)?.entries;
        // Deleting a source row makes SQLite look for games that name it, and games have no
        // index by source: a scan of the table per source (26 s for 1,000 sources of 100,000
        // games). Foreign keys are checked once instead, table by table, before the commit.
        let enforced: bool = self
            .conn
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))?;
        let check_once = enforced && !plan.sources.is_empty();
        if check_once {
            self.conn.pragma_update(None, "foreign_keys", false)?;
        }
        let result = remove_rows(&mut self.conn, plan, check_once);
        if check_once {
            self.conn.pragma_update(None, "foreign_keys", true)?;
        }
        let (sources, players, errors, segments) = result?;
        super::give_back_free_pages(&self.conn)?;
        let after = postings::size(&self.conn)?.entries;
        Ok(Removed {
            games: plan.games.clone(),
            sources,
            kept: plan.kept.len(),
            players,
            errors,
            positions: before.saturating_sub(after),
            segments,
        })
    }
}

/// The rows and postings of a removal, in one transaction; with `check`, the foreign keys of
/// the tables that name sources are checked before it commits. Returns how many sources,
/// players and errors went, and how many segments were written again.
fn remove_rows(
    conn: &mut Connection,
    plan: &Removal,
    check: bool,
) -> Result<(usize, usize, u64, usize), StoreError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let gone_sources: HashSet<i64> = plan.sources.iter().copied().collect();
    let mut errors = 0u64;
    let mut players = HashSet::new();
    // The games the sources that go held besides their own (the sources' links go below):
    // they work their facts out again without them.
    let mut linked: BTreeSet<i64> = plan.kept.iter().copied().collect();
    for &s in &plan.sources {
        let games: Vec<i64> = tx
            .prepare_cached("SELECT game_id FROM game_sources WHERE source_id = ?1")?
            .query_map([s], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        linked.extend(games);
    }
    // A game kept that was first read from a removed source is known by another one.
    for &g in &plan.kept {
        let first: i64 = tx.query_row("SELECT source_id FROM games WHERE id = ?1", [g], |r| {
            r.get(0)
        })?;
        if !gone_sources.contains(&first) {
            continue;
        }
        let others: Vec<(i64, i64)> = tx
            .prepare_cached(
                "SELECT source_id, game_index FROM game_sources WHERE game_id = ?1
                 AND json_extract(facts, '$.plies') IS NULL
                 ORDER BY source_id, game_index",
            )?
            .query_map([g], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        if let Some(&(s, i)) = others.iter().find(|(s, _)| !gone_sources.contains(s)) {
            players.extend(move_game(&tx, g, s, i)?.players_gone);
        }
    }
    super::twins::read_again(&tx, &plan.read_again)?;
    for &g in &plan.games {
        let (count, named) = delete_game(&tx, g)?;
        errors += count;
        players.extend(named);
    }
    for &s in &plan.sources {
        tx.prepare_cached("DELETE FROM game_sources WHERE source_id = ?1")?
            .execute([s])?;
        errors += tx
            .prepare_cached("DELETE FROM import_errors WHERE source_id = ?1")?
            .execute([s])? as u64;
        tx.prepare_cached("DELETE FROM sources WHERE id = ?1")?
            .execute([s])?;
    }
    for &s in &plan.sources {
        tx.prepare_cached("DELETE FROM twins_apart WHERE source_id = ?1")?
            .execute([s])?;
    }
    // What the kept games said they took from the sources that went, they say again from
    // the sources they keep.
    let mut players: Vec<i64> = players.into_iter().collect();
    for g in linked {
        let done = super::twins::refresh::refresh(&tx, g)?;
        players.extend(done.players_gone);
    }
    players.sort_unstable();
    players.dedup();
    let players = delete_unused_players(&tx, &players)?.len();
    if check {
        for table in ["games", "game_sources", "import_errors"] {
            let broken: Option<String> = tx
                .prepare(&format!("PRAGMA foreign_key_check({table})"))?
                .query_map([], |r| r.get(0))?
                .next()
                .transpose()?;
            if broken.is_some() {
                // Rolled back when the transaction drops.
                return Err(StoreError::Sqlite(rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY),
                    Some(format!(
                        "removal stopped: a row of {table} would name a removed source"
                    )),
                )));
            }
        }
    }
    let segments = drop_postings(&tx, &plan.games)?;
    tx.commit()?;
    Ok((plan.sources.len(), players, errors, segments))
}

/// Every `(source, game_index)` a game was read as: its own row's, then its duplicates'.
fn places(c: &Connection, game: i64) -> Result<Vec<(i64, i64)>, StoreError> {
    let mut out: Vec<(i64, i64)> = c
        .prepare_cached("SELECT source_id, game_index FROM games WHERE id = ?1")?
        .query_map([game], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    out.extend(
        c.prepare_cached("SELECT source_id, game_index FROM game_sources WHERE game_id = ?1")?
            .query_map([game], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?
            .collect::<Result<Vec<_>, _>>()?,
    );
    Ok(out)
}

fn game_players(c: &Connection, game: i64) -> Result<(Option<i64>, Option<i64>), StoreError> {
    Ok(
        c.prepare_cached("SELECT sente_id, gote_id FROM games WHERE id = ?1")?
            .query_row([game], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?
            .unwrap_or((None, None)),
    )
}

/// The first of a game's other sources that holds it whole (not only a prefix of it).
pub(super) fn whole_holder(c: &Connection, game: i64) -> Result<Option<(i64, i64)>, StoreError> {
    Ok(c.query_row(
        "SELECT source_id, game_index FROM game_sources WHERE game_id = ?1
             AND json_extract(facts, '$.plies') IS NULL
             ORDER BY source_id, game_index LIMIT 1",
        [game],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()?)
}

/// Makes `(source, index)`, one of a game's other sources, the place its row names: what
/// it says becomes the game's own (the other sources that said what the game's own source
/// said keep it as theirs), and the game's facts are worked out again.
pub(super) fn move_game(
    c: &Connection,
    game: i64,
    source: i64,
    index: i64,
) -> Result<super::twins::Refreshed, StoreError> {
    let facts: Option<String> = c
        .prepare_cached(
            "SELECT facts FROM game_sources WHERE source_id = ?1 AND game_index = ?2
             AND game_id = ?3",
        )?
        .query_row(params![source, index, game], |r| r.get(0))
        .optional()?
        .flatten();
    c.prepare_cached("DELETE FROM game_sources WHERE source_id = ?1 AND game_index = ?2")?
        .execute(params![source, index])?;
    let own = match facts {
        Some(text) => {
            let new = super::twins::SourceFacts::parse(game, &text)?;
            if let Some(g) = super::twins::load(c, game)? {
                c.prepare_cached(
                    "UPDATE game_sources SET facts = ?2 WHERE game_id = ?1 AND facts IS NULL",
                )?
                .execute(params![game, g.own_facts().json()])?;
            }
            Some(new)
        }
        None => None,
    };
    c.prepare_cached("UPDATE games SET source_id = ?2, game_index = ?3 WHERE id = ?1")?
        .execute(params![game, source, index])?;
    super::twins::refresh::refresh_with(c, game, own)
}

/// Deletes a game's row with its recognised openings, its duplicates' rows and the import
/// errors recorded for it, and lists it in `removed_games` (its postings stay in their
/// segment until a merge drops them; queries leave it out meanwhile). Returns how many
/// errors went, and its players (the caller deletes those no game names any more:
/// [`delete_unused_players`]).
pub(super) fn delete_game(c: &Connection, game: i64) -> Result<(u64, Vec<i64>), StoreError> {
    let mut errors = 0;
    for (s, i) in places(c, game)? {
        errors += c
            .prepare_cached("DELETE FROM import_errors WHERE source_id = ?1 AND game_index = ?2")?
            .execute([s, i])? as u64;
    }
    let (sente, gote) = game_players(c, game)?;
    super::players::subtract(c, game)?;
    super::labels::subtract(c, game)?;
    super::evals::delete_game(c, game)?;
    c.prepare_cached("DELETE FROM game_sources WHERE game_id = ?1")?
        .execute([game])?;
    super::twins::forget_game(c, game)?;
    c.prepare_cached("DELETE FROM games WHERE id = ?1")?
        .execute([game])?;
    c.prepare_cached("INSERT OR IGNORE INTO removed_games (id) VALUES (?1)")?
        .execute([game])?;
    Ok((errors, sente.into_iter().chain(gote).collect()))
}

/// Deletes those of `players` that no game names; returns them.
pub(super) fn delete_unused_players(
    c: &Connection,
    players: &[i64],
) -> Result<Vec<i64>, StoreError> {
    let mut gone = Vec::new();
    for &p in players {
        let n = c
            .prepare_cached(
                "DELETE FROM players WHERE id = ?1
                 AND NOT EXISTS (SELECT 1 FROM games WHERE sente_id = ?1)
                 AND NOT EXISTS (SELECT 1 FROM games WHERE gote_id = ?1)",
            )?
            .execute([p])?;
        if n > 0 {
            gone.push(p);
        }
    }
    Ok(gone)
}

/// Writes the position segments whose games include one of `games` again without the
/// removed games (one merge, as `kifudex optimize` does); a segment left with no posting
/// goes. Returns how many segments were written again.
fn drop_postings(c: &Connection, games: &[i64]) -> Result<usize, StoreError> {
    if games.is_empty() {
        return Ok(0);
    }
    let spans: Vec<(i64, i64, i64)> = c
        .prepare("SELECT id, first_game, last_game FROM position_segments ORDER BY id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    let mut sorted = games.to_vec();
    sorted.sort_unstable();
    let touched: Vec<i64> = spans
        .iter()
        .filter(|(_, first, last)| {
            // Some removed game within [first, last].
            let at = sorted.partition_point(|g| g < first);
            sorted.get(at).is_some_and(|g| g <= last)
        })
        .map(|&(id, _, _)| id)
        .collect();
    if let Some(segment) = postings::merge(c, &touched)? {
        c.execute(
            "DELETE FROM position_segments WHERE id = ?1 AND entries = 0",
            [segment],
        )?;
    }
    Ok(touched.len())
}
