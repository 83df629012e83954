//! Games whose text changed after they were indexed (facts a game took from a twin, a
//! merge or a split: `store::twins`), indexed again. The database numbers each change
//! ([`TextSource::text_revision`]); the index keeps the last number it took.

use super::{GameText, PAGE, TextError, TextIndex, TextSource, source};

impl TextIndex {
    /// Indexes again the games whose text changed since they were indexed (`revised`, of
    /// which `pending` were never indexed: their first text is this one), as of the
    /// database's revision `revision`.
    pub fn revise(
        &mut self,
        revised: &[i64],
        games: &[GameText],
        pending: usize,
        revision: i64,
    ) -> Result<(), TextError> {
        self.delete_games(revised)?;
        for g in games {
            self.add_game(g)?;
            self.state.last_id = self.state.last_id.max(g.id);
        }
        let before = revised.len().saturating_sub(pending) as u64;
        self.state.games = (self.state.games + games.len() as u64).saturating_sub(before);
        self.state.revision = self.state.revision.max(revision);
        Ok(())
    }

    /// Indexes again the games the database revised after the index's last revision, up to
    /// `revision`, and commits; returns how many.
    pub(super) fn index_revised(
        &mut self,
        src: &impl TextSource,
        revision: i64,
    ) -> Result<usize, TextError> {
        let revised = src.text_revised(self.state.revision).map_err(source)?;
        self.delete_games(&revised)?;
        for ids in revised.chunks(PAGE) {
            for g in &src.text_games_of(ids).map_err(source)? {
                self.add_game(g)?;
            }
        }
        self.state.revision = revision;
        self.commit()?;
        Ok(revised.len())
    }
}
