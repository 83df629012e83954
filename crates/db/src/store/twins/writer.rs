//! What the writer does when a game's facts are worked out again from its sources (a
//! twin read, a source gone): the postings it gathered, the players it knows, the text
//! index's revisions.

use crate::store::{StoreError, Writer};

impl Writer<'_> {
    /// The games whose text changed (a twin filled their facts) since the last call, and the
    /// last revision recorded (0: none).
    pub fn take_revised(&mut self) -> (Vec<i64>, i64) {
        let revised = std::mem::take(&mut self.revised);
        if revised.is_empty() {
            return (revised, 0);
        }
        let last = self
            .conn
            .query_row(
                "SELECT coalesce(max(revision), 0) FROM game_revisions",
                [],
                |r| r.get(0),
            )
            .unwrap_or(0);
        (revised, last)
    }

    /// The text index's documents of these games as the database holds them now.
    pub fn game_texts(&self, ids: &[i64]) -> Result<Vec<crate::text::GameText>, StoreError> {
        let mut out = Vec::with_capacity(ids.len());
        for &id in ids {
            out.extend(crate::store::text::text_games(self.conn, id - 1, id, 1)?);
        }
        Ok(out)
    }

    /// Works game `game`'s facts out again from its sources ([`super::refresh`]),
    /// with the postings it gathered and the players it knows brought up to date.
    pub fn refresh_game(&mut self, game: i64) -> Result<(), StoreError> {
        // Its totals, if this transaction wrote it, go in before they are worked out again.
        self.totals.flush(self.conn)?;
        self.opening_totals.flush(self.conn)?;
        let done = super::refresh::refresh(self.conn, game)?;
        self.refreshed(game, done);
        Ok(())
    }

    /// What follows in the writer from a game's facts worked out again: the postings it
    /// gathered, the players it knows, the games whose text changed.
    pub(in crate::store) fn refreshed(&mut self, game: i64, done: super::Refreshed) {
        self.twins.forget(game);
        for p in &done.players_gone {
            self.players.retain(|_, id| id != p);
        }
        if done.changed {
            self.revised.push(game);
        }
        if let Some((result, date, false)) = done.columns
            && !self.postings.set_columns(game, result, date)
            && self.preparing.is_some()
        {
            self.corrections.push((game, result, date));
        }
    }
}
