//! Writing the index: documents added and deleted, commits with their payload, and
//! [`TextIndex::sync`], which brings the index up to date with the database.

use std::collections::HashSet;
use std::sync::Arc;

use tantivy::indexer::UserOperation;
use tantivy::query::doc_predicate_query::{DocPredicateQuery, FunctionPredicate};
use tantivy::{DocId, IndexWriter, SegmentReader, TantivyDocument};

use super::{
    GameText, PAGE, SyncReport, TextError, TextIndex, TextSource, WRITER_MEMORY, doc_key, doc_of,
    names, share_like_folder, source,
};
use crate::text::each_indexed_document;

impl TextIndex {
    pub(super) fn writer(&mut self) -> Result<&mut IndexWriter, TextError> {
        if self.writer.is_none() {
            self.writer = Some(self.index.writer_with_num_threads(1, WRITER_MEMORY)?);
        }
        Ok(self.writer.as_mut().expect("just made"))
    }

    pub(super) fn add_game(&mut self, game: &GameText) -> Result<(), TextError> {
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
    pub(super) fn delete_games(&mut self, ids: &[i64]) -> Result<(), TextError> {
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
        if epoch != self.state.openings
            && self.state.last_id > 0
            && src
                .text_epoch_revised(self.state.openings)
                .map_err(source)?
        {
            // The openings were recognised again, and every game whose names changed was
            // revised: those are indexed again below, with the revisions.
            self.state.openings = epoch;
        } else if epoch != self.state.openings {
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
            let missing: Vec<i64> = want
                .iter()
                .copied()
                .filter(|id| have.binary_search(id).is_err())
                .collect();
            for ids in missing.chunks(PAGE) {
                let games = src.text_games_of(ids).map_err(source)?;
                for g in &games {
                    self.add_game(g)?;
                }
                report.added += games.len();
            }
            self.state.games = count;
            self.commit()?;
        }
        if revision > self.state.revision {
            report.revised = self.index_revised(src, revision)?;
        }
        Ok(report)
    }
}
