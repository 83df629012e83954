//! The rows the text index is built from (see `text::TextSource`): games with their players,
//! headers and comments, read by id range or by a list of ids.

use std::borrow::Cow;
use std::cmp::Reverse;

use rusqlite::Connection;

use super::codec::{HeaderColumns, decode_comments, decode_headers};
use super::openings::{NameTable, decode, name_table};
use super::{Store, StoreError};
use crate::text::{GameText, TextSource};

/// The columns of a game's text, from `games g` with its players `ps` and `pg`.
const COLUMNS: &str = "SELECT g.id, ps.name, pg.name, g.event, g.opening, g.title, g.headers,
        g.comments, g.handicap, g.recognised, g.label, g.sente_id, g.gote_id
    FROM games g
    LEFT JOIN players ps ON ps.id = g.sente_id LEFT JOIN players pg ON pg.id = g.gote_id";

/// The names of a game's recognitions (`[[side, name id, ply], ...]`), sente's then gote's,
/// each side's by ply, a ply's strategies before its castles (kinds in reverse order), then
/// by id.
fn recognised_names<'n>(
    id: i64,
    json: Option<&str>,
    names: &'n NameTable,
) -> Result<Vec<&'n str>, StoreError> {
    let stored = decode(id, json)?;
    let mut items: Vec<(i64, i64, Reverse<&str>, i64, &str)> = stored
        .iter()
        .filter_map(|&[side, name, ply]| {
            let (kind, text) = names.get(&name)?;
            Some((side, ply, Reverse(kind.as_str()), name, text.as_str()))
        })
        .collect();
    items.sort_unstable();
    Ok(items.into_iter().map(|i| i.4).collect())
}

/// Games with `after < id <= upto`, in id order, at most `limit`.
pub(super) fn text_games(
    conn: &Connection,
    after: i64,
    upto: i64,
    limit: usize,
) -> Result<Vec<GameText>, StoreError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let sql = format!("{COLUMNS} WHERE g.id > ?1 AND g.id <= ?2 ORDER BY g.id LIMIT ?3");
    let names = name_table(conn)?;
    let rows = conn
        .prepare_cached(&sql)?
        .query_map([after, upto, limit], game_text)?
        .collect::<Result<_, _>>()?;
    finish(rows, &names)
}

/// How many games one statement reads by id: the ids travel as one JSON array.
const BY_ID: usize = 500;

/// The games of `ids` that are stored, in id order (the ids sorted, without repeats).
pub(super) fn text_games_of(conn: &Connection, ids: &[i64]) -> Result<Vec<GameText>, StoreError> {
    let sql = format!("{COLUMNS} WHERE g.id IN (SELECT value FROM json_each(?1)) ORDER BY g.id");
    let mut stmt = conn.prepare_cached(&sql)?;
    let names = name_table(conn)?;
    let mut games = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(BY_ID) {
        let list = serde_json::to_string(chunk).expect("integers serialise");
        let rows: Vec<_> = stmt
            .query_map([list], game_text)?
            .collect::<Result<_, _>>()?;
        games.extend(finish(rows, &names)?);
    }
    Ok(games)
}

/// A game's text as one row of [`COLUMNS`] gives it; its comments and recognitions are
/// still encoded.
struct Row {
    game: GameText,
    label: Option<String>,
    recognised: Option<String>,
    comments: Option<String>,
}

fn game_text(r: &rusqlite::Row<'_>) -> rusqlite::Result<Row> {
    let mut game = GameText {
        id: r.get(0)?,
        sente: r.get(1)?,
        gote: r.get(2)?,
        player_ids: [r.get(11)?, r.get(12)?],
        event: r.get(3)?,
        opening: r.get(4)?,
        title: r.get(5)?,
        ..GameText::default()
    };
    let handicap: Option<String> = r.get(8)?;
    if let Some(h) = r.get::<_, Option<String>>(6)? {
        let columns = HeaderColumns {
            sente: game.sente.as_deref(),
            gote: game.gote.as_deref(),
            event: game.event.as_deref(),
            opening: game.opening.as_deref(),
            title: game.title.as_deref(),
            handicap: handicap.as_deref(),
        };
        game.headers = decode_headers(&h, columns);
    }
    Ok(Row {
        game,
        label: r.get(10)?,
        recognised: r.get(9)?,
        comments: r.get(7)?,
    })
}

/// The games with their recognitions and comments decoded.
fn finish(rows: Vec<Row>, names: &NameTable) -> Result<Vec<GameText>, StoreError> {
    rows.into_iter()
        .map(|row| {
            let mut game = row.game;
            // The label, then the names with the ancestors they imply.
            let stored = recognised_names(game.id, row.recognised.as_deref(), names)?;
            let mut all: Vec<Cow<'static, str>> = row.label.map(Cow::Owned).into_iter().collect();
            for name in stored {
                let line = kifudex_classify::lineage_of(name);
                if line.is_empty() {
                    all.push(Cow::Owned(name.to_string()));
                }
                all.extend(line.iter().map(|&n| Cow::Borrowed(n)));
            }
            game.recognised = crate::text::unique_names(all);
            game.comments = decode_comments(game.id, row.comments.as_deref())?
                .into_iter()
                .map(|(ply, kind, text)| (ply as i64, kind, text))
                .collect();
            Ok(game)
        })
        .collect()
}

impl TextSource for Store {
    fn text_epoch(&self) -> Result<i64, StoreError> {
        super::openings::epoch(&self.conn)
    }

    fn text_epoch_revised(&self, since: i64) -> Result<bool, StoreError> {
        super::openings::logged_since(&self.conn, since)
    }

    type Error = StoreError;

    /// The largest id ever given to a game (games removed since included: the index, which
    /// saw them, is not thereby from another database), and the games stored.
    fn text_span(&self) -> Result<(i64, u64), StoreError> {
        Ok(self.conn.query_row(
            "SELECT max(coalesce(max(id), 0),
                        coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'games'), 0)),
                    count(*)
             FROM games",
            [],
            |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)),
        )?)
    }

    fn text_games(&self, after: i64, upto: i64, limit: usize) -> Result<Vec<GameText>, StoreError> {
        text_games(&self.conn, after, upto, limit)
    }

    fn text_games_of(&self, ids: &[i64]) -> Result<Vec<GameText>, StoreError> {
        text_games_of(&self.conn, ids)
    }

    fn text_revision(&self) -> Result<i64, StoreError> {
        Ok(self.conn.query_row(
            "SELECT coalesce(max(revision), 0) FROM game_revisions",
            [],
            |r| r.get(0),
        )?)
    }

    fn text_revised(&self, after: i64) -> Result<Vec<i64>, StoreError> {
        Ok(self
            .conn
            .prepare(
                "SELECT DISTINCT game_id FROM game_revisions WHERE revision > ?1 ORDER BY game_id",
            )?
            .query_map([after], |r| r.get(0))?
            .collect::<Result<_, _>>()?)
    }

    fn text_game_ids(&self) -> Result<Vec<i64>, StoreError> {
        Ok(self
            .conn
            .prepare("SELECT id FROM games ORDER BY id")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?)
    }
}
