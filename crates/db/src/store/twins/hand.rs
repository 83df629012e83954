//! Games made one (a game's sources become another's: the migration that re-keys older
//! databases, and `kifudex twins --merge`) and made two again (`kifudex twins --split`).

use rusqlite::{Connection, params};

use super::refresh::{Refreshed, refresh};
use super::{GameFacts, SourceFacts, link, load, other_facts};
use crate::store::codec::{decode_moves, start_position};
use crate::store::players::subtract;
use crate::store::remove::delete_unused_players;
use crate::store::{GameRow, Store, StoreError};
use kifudex_notation::{Format, Line, MoveNode, Record, Terminal, TerminalKind};

/// Why two games cannot be made one.
#[derive(Debug, thiserror::Error)]
pub enum TwinError {
    #[error("no game with id {0}")]
    NoGame(i64),
    #[error("game {0} twice: give two games")]
    Same(i64),
    #[error(
        "games {0} and {1} are not one game: {2}; only a main line and its prefix (a record cut short) are merged"
    )]
    NotOneGame(i64, i64, String),
    #[error(
        "game {0} has no source to split from it: every other source read it with the same headers and terminal"
    )]
    NothingToSplit(i64),
    #[error(
        "game {game} has no source {number}: it has {count} (`kifudex show {game} --sources` numbers them)"
    )]
    NoSource {
        game: i64,
        number: usize,
        count: usize,
    },
    #[error(
        "source 1 is game {0}'s own source (the game's row was read from it): split its other sources from it instead"
    )]
    OwnSource(i64),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for TwinError {
    fn from(e: rusqlite::Error) -> TwinError {
        TwinError::Store(StoreError::from(e))
    }
}

/// What `twins --merge` did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MergedGames {
    /// The game that stays (the longer main line; the first given when they are equal).
    pub kept: i64,
    /// The game that went; its sources are the kept game's now.
    pub gone: i64,
    /// Its sources that moved.
    pub sources: usize,
}

/// What `twins --split` did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SplitGame {
    pub game: i64,
    /// The games made of its other sources, one a source (or the game of another stored
    /// record, when the rule finds it one).
    pub games: Vec<i64>,
}

/// Makes every source of game `from` a source of game `into` (whose main line is `from`'s
/// or longer), then deletes `from` and works `into`'s facts out again. `hand`: a person
/// said so. Returns what the refresh did, with the players `from`'s going left unnamed.
pub(crate) fn absorb(
    c: &Connection,
    into: &GameFacts,
    from: &GameFacts,
    hand: bool,
) -> Result<(Refreshed, usize), StoreError> {
    let plies = (from.plies != into.plies).then_some(from.plies);
    let keep = |f: SourceFacts| -> Option<SourceFacts> {
        let same = plies.is_none()
            && !hand
            && f.headers == into.own
            && f.terminal == into.own_terminal
            && f.winner == into.own_winner;
        (!same).then_some(SourceFacts {
            plies,
            hand: hand || f.hand,
            ..f
        })
    };
    let mut moved = vec![(from.source, from.index, keep(from.own_facts()))];
    let all: Vec<(i64, i64, Option<String>)> = c
        .prepare_cached(
            "SELECT source_id, game_index, facts FROM game_sources WHERE game_id = ?1
             ORDER BY source_id, game_index",
        )?
        .query_map([from.id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    for (s, i, facts) in all {
        let f = match facts {
            Some(text) => SourceFacts::parse(from.id, &text)?,
            None => from.own_facts(),
        };
        moved.push((s, i, keep(f)));
    }
    c.prepare_cached("DELETE FROM game_sources WHERE game_id = ?1")?
        .execute([from.id])?;
    for (s, i, f) in &moved {
        link(c, *s, *i, into.id, f.as_ref())?;
        // Made one by hand: a split before is undone.
        c.prepare_cached(
            "DELETE FROM twins_apart WHERE source_id = ?1 AND game_index = ?2 AND game_id = ?3",
        )?
        .execute(params![s, i, into.id])?;
    }
    // The game goes; its import errors stay with its records, which are the kept game's.
    let players: (Option<i64>, Option<i64>) = c
        .prepare_cached("SELECT sente_id, gote_id FROM games WHERE id = ?1")?
        .query_row([from.id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    subtract(c, from.id)?;
    crate::store::labels::subtract(c, from.id)?;
    super::forget_game(c, from.id)?;
    c.prepare_cached("DELETE FROM games WHERE id = ?1")?
        .execute([from.id])?;
    c.prepare_cached("INSERT OR IGNORE INTO removed_games (id) VALUES (?1)")?
        .execute([from.id])?;
    let mut done = refresh(c, into.id)?;
    let named: Vec<i64> = [players.0, players.1].into_iter().flatten().collect();
    done.players_gone.extend(delete_unused_players(c, &named)?);
    Ok((done, moved.len()))
}

/// A game's start (`start_sfen`, `handicap`) and main line as stored.
fn line_of(c: &Connection, id: i64) -> Result<(Option<String>, String, Vec<u8>), StoreError> {
    Ok(
        c.prepare_cached("SELECT start_sfen, handicap, moves FROM games WHERE id = ?1")?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?,
    )
}

impl Store {
    /// Makes games `a` and `b` one by hand: the one whose main line is the other's or
    /// longer stays (`a` when they are equal) and takes every source of the other, which
    /// goes (`kifudex twins --merge`). Facts are not compared: a person said they are one.
    /// The caller holds the import lock; the text index follows on its next update.
    pub fn merge_twins(&mut self, a: i64, b: i64) -> Result<MergedGames, TwinError> {
        if a == b {
            return Err(TwinError::Same(a));
        }
        self.writer()?.index_missing()?;
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let ga = load(&tx, a)?.ok_or(TwinError::NoGame(a))?;
        let gb = load(&tx, b)?.ok_or(TwinError::NoGame(b))?;
        let (sa, sb) = (line_of(&tx, a)?, line_of(&tx, b)?);
        if (&sa.0, &sa.1) != (&sb.0, &sb.1) {
            return Err(TwinError::NotOneGame(a, b, "their starts differ".into()));
        }
        let (into, from) = if gb.plies > ga.plies {
            (gb, ga)
        } else {
            (ga, gb)
        };
        let (long, short) = if into.id == a {
            (&sa.2, &sb.2)
        } else {
            (&sb.2, &sa.2)
        };
        if !long.starts_with(short) {
            let at = long
                .chunks(2)
                .zip(short.chunks(2))
                .take_while(|(x, y)| x == y)
                .count();
            return Err(TwinError::NotOneGame(
                a,
                b,
                format!("their main lines part at move {}", at + 1),
            ));
        }
        let (_, sources) = absorb(&tx, &into, &from, true)?;
        tx.commit()?;
        Ok(MergedGames {
            kept: into.id,
            gone: from.id,
            sources,
        })
    }

    /// Makes each source of game `game` that holds it under facts of its own (a twin, or a
    /// record merged by hand) a game again, never merged into `game` again (`kifudex twins
    /// --split`). A new game has the main line its source holds (the game's, or the prefix
    /// of it), its source's headers and terminal; the comments and times of its file are
    /// read when the file changes and is imported again. The caller holds the import lock;
    /// the text index follows on its next update.
    pub fn split_twins(&mut self, game: i64) -> Result<SplitGame, TwinError> {
        let g = load(&self.conn, game)?.ok_or(TwinError::NoGame(game))?;
        let others = other_facts(&self.conn, game)?;
        if others.is_empty() {
            return Err(TwinError::NothingToSplit(game));
        }
        self.split_off(g, others)
    }

    /// Makes source `number` of game `game` (numbered from 1 as
    /// [`game_sources`](Store::game_sources) lists them, its own first) a game again, never
    /// merged into `game` again (`kifudex twins --split ID --source N`). A source that read
    /// the game with the same headers and terminal as its own is split too: a person says it
    /// is another game. The game's own source cannot be split from it (its row is that
    /// source's record): its other sources can.
    pub fn split_twin_source(&mut self, game: i64, number: usize) -> Result<SplitGame, TwinError> {
        let g = load(&self.conn, game)?.ok_or(TwinError::NoGame(game))?;
        let others: Vec<(i64, i64, Option<String>)> = self
            .conn
            .prepare_cached(
                "SELECT source_id, game_index, facts FROM game_sources WHERE game_id = ?1
                 ORDER BY source_id, game_index",
            )?
            .query_map([game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<_, _>>()?;
        let count = others.len() + 1;
        if number == 1 {
            return Err(if count == 1 {
                TwinError::NothingToSplit(game)
            } else {
                TwinError::OwnSource(game)
            });
        }
        let Some((source, index, facts)) = number
            .checked_sub(2)
            .and_then(|at| others.into_iter().nth(at))
        else {
            return Err(TwinError::NoSource {
                game,
                number,
                count,
            });
        };
        let facts = match facts {
            Some(text) => SourceFacts::parse(game, &text)?,
            None => g.own_facts(),
        };
        self.split_off(g, vec![(source, index, facts)])
    }

    /// Makes each of `sources` (sources of game `g` other than its own, with what each
    /// says) a game again, never merged into `g` again; works `g`'s facts out again.
    fn split_off(
        &mut self,
        g: super::GameFacts,
        sources: Vec<(i64, i64, SourceFacts)>,
    ) -> Result<SplitGame, TwinError> {
        let game = g.id;
        let (start_sfen, handicap, moves) = line_of(&self.conn, game)?;
        let start = start_position(game, start_sfen.as_deref(), &handicap)?;
        let moves = decode_moves(&moves)
            .ok_or_else(|| StoreError::Corrupt(game, "bad move list".into()))?;
        let mut made = Vec::new();
        let mut w = self.writer()?;
        w.begin()?;
        for (source, index, f) in sources {
            let format: Option<String> = w.conn_ref().query_row(
                "SELECT format FROM sources WHERE id = ?1",
                [source],
                |r| r.get(0),
            )?;
            let plies = f
                .plies
                .map_or(moves.len(), |p| (p as usize).min(moves.len()));
            let mut rec = Record {
                headers: f.headers.clone(),
                start: start.clone(),
                main: Line {
                    moves: moves[..plies].iter().copied().map(MoveNode::new).collect(),
                    terminal: f
                        .terminal
                        .as_deref()
                        .and_then(TerminalKind::from_code)
                        .map(|k| Terminal::new(k, None)),
                },
                ..Record::default()
            };
            rec.check_declaration();
            let format = format
                .as_deref()
                .and_then(Format::from_name)
                .unwrap_or(Format::Kif);
            let c = w.conn_ref();
            c.execute(
                "DELETE FROM game_sources WHERE source_id = ?1 AND game_index = ?2",
                params![source, index],
            )?;
            c.execute(
                "INSERT OR IGNORE INTO twins_apart (source_id, game_index, game_id)
                 VALUES (?1, ?2, ?3)",
                params![source, index, game],
            )?;
            let row = GameRow::new(&rec, format);
            let id = match w.put_game(source, index as usize, &row)? {
                crate::store::Inserted::New(id)
                | crate::store::Inserted::Duplicate(id)
                | crate::store::Inserted::Twin(id) => id,
            };
            made.push(id);
        }
        w.refresh_game(g.id)?;
        w.commit()?;
        w.finish()?;
        made.sort_unstable();
        made.dedup();
        Ok(SplitGame { game, games: made })
    }
}
