//! What the twin rule does not merge but a person should look at (`kifudex twins`):
//! * a main line that is a prefix of another's, with the same players on the same day (a
//!   record cut short);
//! * games with the same moves whose metadata conflicts (other players, other days, another
//!   time of day, another end).

use std::collections::HashMap;

use super::{Conflicts, conflicts_among, every_facts, load};
use crate::store::{GameSet, Store, StoreError};

/// A game's start (`start_sfen`, `handicap`) and main line as stored.
type StoredLine = (Option<String>, String, Vec<u8>);

/// What kind of near twins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NearTwinKind {
    /// The first game's main line is a prefix of the second's; same players, same day.
    Prefix,
    /// The games have the same start and moves, and their metadata conflicts.
    Conflict,
}

/// Games the rule keeps apart that may be one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NearTwin {
    pub kind: NearTwinKind,
    /// The games, in id order (a prefix first for [`NearTwinKind::Prefix`]).
    pub games: Vec<i64>,
    /// Their main lines' lengths, in the same order.
    pub plies: Vec<u32>,
    /// What conflicts between them: `players`, `date`, `time`, `end` (for a conflict).
    pub conflicts: Vec<&'static str>,
}

impl Store {
    /// The near twins of the database (see the module documentation), those with a game in
    /// `within` when given; conflicts first, then prefixes, each by their first game.
    pub fn near_twins(&self, within: Option<&GameSet>) -> Result<Vec<NearTwin>, StoreError> {
        let wanted =
            |games: &[i64]| within.is_none_or(|set| games.iter().any(|g| set.contains(*g)));
        let mut out = self.conflicting(&wanted)?;
        out.extend(self.prefixes(&wanted)?);
        Ok(out)
    }

    /// Games that share a key (start and moves) and were kept apart.
    fn conflicting(&self, wanted: &dyn Fn(&[i64]) -> bool) -> Result<Vec<NearTwin>, StoreError> {
        let c = &self.conn;
        let mut groups = super::shared_keys(c)?;
        groups.retain(|g| wanted(g));
        let mut out = Vec::new();
        for games in groups {
            let facts: Vec<super::GameFacts> = games
                .iter()
                .map(|&id| load(c, id))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .flatten()
                .collect();
            let every: Vec<Vec<super::Facts>> = facts
                .iter()
                .map(|g| every_facts(c, g))
                .collect::<Result<_, _>>()?;
            let mut conflicts = Conflicts::default();
            for (i, a) in every.iter().enumerate() {
                for b in &every[i + 1..] {
                    conflicts = conflicts.or(conflicts_among(a, b));
                }
            }
            out.push(NearTwin {
                kind: NearTwinKind::Conflict,
                games: facts.iter().map(|g| g.id).collect(),
                plies: facts.iter().map(|g| g.plies).collect(),
                conflicts: conflicts.words(),
            });
        }
        Ok(out)
    }

    /// Pairs of games of the same players on the same day, one's main line a prefix of the
    /// other's, whose facts do not conflict otherwise.
    fn prefixes(&self, wanted: &dyn Fn(&[i64]) -> bool) -> Result<Vec<NearTwin>, StoreError> {
        let c = &self.conn;
        // Games grouped by both players' compared names and the date (games without them
        // cannot be told to be one by their metadata).
        let form = "CASE WHEN p.bare = '' THEN p.key ELSE p.bare END";
        let mut groups: HashMap<(String, String, String), Vec<i64>> = HashMap::new();
        let mut stmt = c.prepare(&format!(
            "SELECT g.id, (SELECT {form} FROM players p WHERE p.id = g.sente_id),
                    (SELECT {form} FROM players p WHERE p.id = g.gote_id), g.date
             FROM games g
             WHERE g.sente_id IS NOT NULL AND g.gote_id IS NOT NULL AND g.date IS NOT NULL"
        ))?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let (Some(s), Some(g)) = (r.get::<_, Option<String>>(1)?, r.get(2)?) else {
                continue;
            };
            groups.entry((s, g, r.get(3)?)).or_default().push(r.get(0)?);
        }
        let mut groups: Vec<Vec<i64>> = groups.into_values().filter(|g| g.len() > 1).collect();
        groups.sort_unstable();
        let mut out = Vec::new();
        let mut line = c.prepare("SELECT start_sfen, handicap, moves FROM games WHERE id = ?1")?;
        for ids in groups {
            let lines: Vec<(i64, StoredLine)> = ids
                .iter()
                .map(|&id| {
                    Ok((
                        id,
                        line.query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?,
                    ))
                })
                .collect::<Result<_, StoreError>>()?;
            for (a, la) in &lines {
                for (b, lb) in &lines {
                    let prefix = (&la.0, &la.1) == (&lb.0, &lb.1)
                        && la.2.len() < lb.2.len()
                        && lb.2.starts_with(&la.2);
                    if !prefix || !wanted(&[*a, *b]) {
                        continue;
                    }
                    let (Some(fa), Some(fb)) = (load(c, *a)?, load(c, *b)?) else {
                        continue;
                    };
                    let mut conflicts =
                        conflicts_among(&every_facts(c, &fa)?, &every_facts(c, &fb)?);
                    // A record cut short has no end of its own.
                    conflicts.end = false;
                    if conflicts.any() {
                        continue;
                    }
                    out.push(NearTwin {
                        kind: NearTwinKind::Prefix,
                        games: vec![*a, *b],
                        plies: vec![fa.plies, fb.plies],
                        conflicts: Vec::new(),
                    });
                }
            }
        }
        out.sort_by_key(|t| t.games.clone());
        Ok(out)
    }
}
