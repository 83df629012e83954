//! Every source of a stored game, as `kifudex show --sources` lists them: the file and the
//! place in it, whether the game's row names it, the facts the game took from it, and
//! whether it holds the game under facts of its own.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{SourceFacts, load};
use crate::store::{Store, StoreError};

/// One source of a stored game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameSource {
    /// Its number, from 1 in the order listed (its own first): `twins --split ID --source N`.
    pub number: usize,
    /// The path as imported (an archive entry as `archive.zip!entry`).
    pub file: String,
    /// The game's place in the file, from 0.
    pub game_index: i64,
    /// The format the file was read as.
    pub format: Option<String>,
    /// The game's own source: the one its headers and terminal come from.
    pub own: bool,
    /// The facts the game took from this source, its own lacking them (`event`, `terminal`…).
    pub fields: Vec<String>,
    /// It holds the game with other headers or another terminal than the game's own source.
    pub differs: bool,
    /// It holds only the first `plies` moves of the main line (merged by hand).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<u32>,
    /// A person merged it (`kifudex twins --merge`).
    pub by_hand: bool,
}

impl Store {
    /// Every source of game `id`, its own first, then the others by source and place;
    /// `None` when there is no such game.
    pub fn game_sources(&self, id: i64) -> Result<Option<Vec<GameSource>>, StoreError> {
        let c = &self.conn;
        let Some(game) = load(c, id)? else {
            return Ok(None);
        };
        let mut fields: BTreeMap<(i64, i64), Vec<String>> = BTreeMap::new();
        for (field, source, index) in &game.filled {
            fields
                .entry((*source, *index))
                .or_default()
                .push(field.clone());
        }
        let mut rows: Vec<(i64, i64, Option<String>)> = vec![(game.source, game.index, None)];
        rows.extend(
            c.prepare_cached(
                "SELECT source_id, game_index, facts FROM game_sources WHERE game_id = ?1
                 ORDER BY source_id, game_index",
            )?
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<Vec<_>, _>>()?,
        );
        let mut out = Vec::with_capacity(rows.len());
        for (n, (source, index, facts)) in rows.into_iter().enumerate() {
            let (file, format): (String, Option<String>) = c
                .prepare_cached("SELECT path, format FROM sources WHERE id = ?1")?
                .query_row([source], |r| Ok((r.get(0)?, r.get(1)?)))?;
            let facts = facts
                .map(|text| SourceFacts::parse(id, &text))
                .transpose()?;
            out.push(GameSource {
                number: n + 1,
                file,
                game_index: index,
                format,
                own: n == 0,
                fields: fields.remove(&(source, index)).unwrap_or_default(),
                differs: facts.is_some(),
                plies: facts.as_ref().and_then(|f| f.plies),
                by_hand: facts.as_ref().is_some_and(|f| f.hand),
            });
        }
        Ok(Some(out))
    }
}
