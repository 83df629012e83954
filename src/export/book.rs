//! An opening book for engines, in YaneuraOu's text format (`#YANEURAOU-DB2016 1.00`), which
//! YaneuraOu engines and ShogiHome read.
//!
//! A book holds, for each position, the moves played from it in the selected games: `sfen`
//! lines sorted by their SFEN (without the move number, as YaneuraOu's on-the-fly book
//! lookup requires), each followed by one line per move: the move, the reply most played
//! after it in the games that played it there (the ponder move; `none` when none of them goes
//! on), a value, a depth (0: not from a search) and the number of games that played it. The
//! value turns the move's score `s` (points for the side to move per game with a known
//! result, a draw ½) into the engines' scale with the logistic model they use:
//! `600 × ln(s / (1 − s))`, `s` kept within [0.01, 0.99] (±2757); 0 when no game that played
//! it has a known result.
//!
//! Counts are those of `kifudex tree` on the same position: each game counts once per move,
//! whatever ply it reaches the position at. The book holds the positions a game reaches
//! within its first `max_ply` moves, each with its moves played `min_count` times or more.

use std::io::Write;
use std::path::Path;

use rayon::iter::{IntoParallelIterator, ParallelIterator};

use super::pool::with_workers;
use super::runs::RunSort;
use super::spill::{Spill, SpillRow};
use super::{ExportError, Pending};
use crate::shogi::{Color, Move, Position};
use crate::store::{GameLine, Store};

/// Which moves go into the book.
#[derive(Debug, Clone)]
pub struct BookOptions {
    /// Moves played by fewer games are left out (and positions left with no move).
    pub min_count: u64,
    /// Positions first reached after this many moves are left out.
    pub max_ply: u32,
    /// Only moves of the side that won the game.
    pub winner_only: bool,
    /// Only positions with this side to move.
    pub side: Option<Color>,
    /// Write over a file that exists.
    pub force: bool,
    /// Bytes each of the book's sorts holds in memory before it sorts on disk (the memory a
    /// book takes is about three times this); `None`: [`SORT_BUDGET`].
    pub memory: Option<usize>,
}

impl Default for BookOptions {
    fn default() -> BookOptions {
        BookOptions {
            min_count: 1,
            max_ply: 40,
            winner_only: false,
            side: None,
            force: false,
            memory: None,
        }
    }
}

/// What a book holds.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct BookReport {
    pub games: usize,
    pub positions: usize,
    pub moves: usize,
}

/// A move of a position in the book.
#[derive(Debug, Clone)]
pub struct BookMove {
    pub mv: Move,
    pub count: u64,
    /// sente wins, gote wins, draws
    pub results: [u64; 3],
    /// The reply most played after it in the games that played it here (ties: the first in
    /// USI order); `None` when none of them goes on.
    pub ponder: Option<Move>,
}

impl BookMove {
    /// Points for the side to move per game with a known result.
    pub fn score(&self, to_move: Color) -> Option<f64> {
        let [s, g, d] = self.results;
        let known = s + g + d;
        if known == 0 {
            return None;
        }
        let wins = if to_move == Color::Black { s } else { g };
        Some((wins as f64 + d as f64 / 2.0) / known as f64)
    }

    /// The book's value: see the module's documentation.
    pub fn value(&self, to_move: Color) -> i32 {
        match self.score(to_move) {
            None => 0,
            Some(s) => {
                let s = s.clamp(0.01, 0.99);
                (600.0 * (s / (1.0 - s)).ln()).round() as i32
            }
        }
    }
}

/// One position of one game, as the book gathers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct BookRow {
    hash: u64,
    /// The game's place in the selection.
    game: u32,
    /// The ply, shifted left once; the low bit is set when gote is to move.
    ply: u32,
    /// The move played from the position ([`Move::to_u16`]).
    next: u16,
    /// The move played after it, 0 at the end of the game.
    reply: u16,
    /// 0 unknown, 1 sente won, 2 gote won, 3 draw.
    result: u8,
}

impl SpillRow for BookRow {
    const BYTES: usize = 8 + 4 + 4 + 2 + 2 + 1;

    fn hash(&self) -> u64 {
        self.hash
    }

    fn encode(&self, out: &mut [u8]) {
        out[0..8].copy_from_slice(&self.hash.to_le_bytes());
        out[8..12].copy_from_slice(&self.game.to_le_bytes());
        out[12..16].copy_from_slice(&self.ply.to_le_bytes());
        out[16..18].copy_from_slice(&self.next.to_le_bytes());
        out[18..20].copy_from_slice(&self.reply.to_le_bytes());
        out[20] = self.result;
    }

    fn decode(b: &[u8]) -> BookRow {
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        BookRow {
            hash: u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
            game: u32_at(8),
            ply: u32_at(12),
            next: u16::from_le_bytes([b[16], b[17]]),
            reply: u16::from_le_bytes([b[18], b[19]]),
            result: b[20],
        }
    }
}

/// Bytes each of the book's sorts holds in memory before it sorts on disk, by default.
pub const SORT_BUDGET: usize = 192 << 20;

/// Writes a book of the games `ids` to `out`.
///
/// Memory stays bounded whatever the number of games: every position of every game goes
/// through a spill sorted by hash (a position's count takes in the games that reach it late
/// too); the positions kept go, with their move lines, through a sort by the game and ply
/// that first reach them, so that each game is replayed once more for their SFENs; and the
/// positions then go through a sort by SFEN, the order the file is written in.
pub fn write_book(
    store: &Store,
    ids: &[i64],
    out: &Path,
    opts: &BookOptions,
    mut progress: impl FnMut(usize),
) -> Result<BookReport, ExportError> {
    if ids.is_empty() {
        return Err(ExportError::NothingSelected);
    }
    if out.exists() && !opts.force {
        return Err(ExportError::Exists(out.to_path_buf()));
    }
    if u32::try_from(ids.len()).is_err() {
        return Err(ExportError::Io(
            out.to_path_buf(),
            std::io::Error::other("more than 2^32 games selected"),
        ));
    }
    let work = out.with_file_name(format!(
        ".{}.work",
        out.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    ));
    let result = build(store, ids, out, &work, opts, &mut progress);
    let _ = std::fs::remove_dir_all(&work);
    result
}

fn build(
    store: &Store,
    ids: &[i64],
    out: &Path,
    work: &Path,
    opts: &BookOptions,
    progress: &mut impl FnMut(usize),
) -> Result<BookReport, ExportError> {
    let io = |e| ExportError::Io(out.to_path_buf(), e);
    // 1. Every position of every game that has a move from it, the games replayed by one
    // worker a core.
    let memory = opts.memory.unwrap_or(SORT_BUDGET).max(1);
    let mut rows: Spill<BookRow> =
        Spill::with_limit(&work.join("rows"), memory / std::mem::size_of::<BookRow>());
    let mut done = 0;
    with_workers(
        store,
        |store, (first, chunk): (usize, &[i64])| game_rows(store, first, chunk),
        |feed| {
            let mut take = |batches: Vec<(usize, Vec<BookRow>)>| -> Result<(), ExportError> {
                for (games, batch) in batches {
                    for row in batch {
                        rows.push(row).map_err(io)?;
                    }
                    done += games;
                    progress(done);
                }
                Ok(())
            };
            for (i, chunk) in ids.chunks(GAMES_A_BATCH).enumerate() {
                take(feed.send((i * GAMES_A_BATCH, chunk))?)?;
            }
            take(feed.finish()?)
        },
    )?;
    // 2. The positions kept, keyed by the game and ply that first reach them, with their
    // move lines written out.
    let mut report = BookReport {
        games: ids.len(),
        ..BookReport::default()
    };
    let mut kept = RunSort::new(&work.join("kept"), memory);
    rows.sorted(|rows| {
        // The bucket cut between positions into parts done on every core.
        let parts = rayon::current_num_threads() * 4;
        let mut cuts = vec![0];
        for k in 1..parts {
            let mut at = (rows.len() * k / parts).max(*cuts.last().unwrap_or(&0));
            while at > 0 && at < rows.len() && rows[at - 1].hash == rows[at].hash {
                at += 1;
            }
            cuts.push(at.min(rows.len()));
        }
        cuts.push(rows.len());
        let done: Vec<std::io::Result<Entries>> = cuts
            .windows(2)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|w| entries(&rows[w[0]..w[1]], opts))
            .collect();
        for part in done {
            let part = part?;
            report.positions += part.positions;
            report.moves += part.moves;
            part.each(|key, lines| kept.push(key, lines))?;
        }
        Ok(())
    })
    .map_err(io)?;
    // 3. Their SFENs, each game replayed once (by one worker a core); the positions keyed
    // by SFEN (without the move number, which goes first in the payload).
    let mut by_sfen = RunSort::new(&work.join("sfen"), memory);
    with_workers(
        store,
        |store, batch: Kept| batch.sfens(store, ids),
        |feed| {
            let mut take = |done: Vec<Kept>| -> Result<(), ExportError> {
                for batch in done {
                    batch.each(|sfen, payload| by_sfen.push(sfen, payload).map_err(io))?;
                }
                Ok(())
            };
            let mut batch = Kept::default();
            kept.sorted(io, |key, lines| {
                let game = u32::from_be_bytes([key[0], key[1], key[2], key[3]]);
                let ply = u32::from_be_bytes([key[4], key[5], key[6], key[7]]);
                // A batch ends between games, so that each game is replayed once.
                if batch.len() >= POSITIONS_A_BATCH && batch.last_game() != Some(game) {
                    take(feed.send(std::mem::take(&mut batch))?)?;
                }
                batch.push(game, ply, lines);
                Ok(())
            })?;
            if batch.len() > 0 {
                take(feed.send(batch)?)?;
            }
            take(feed.finish()?)
        },
    )?;
    // 4. The file, in SFEN order.
    let mut file = Pending::create(out)?;
    file.write_all(b"#YANEURAOU-DB2016 1.00\n")?;
    by_sfen.sorted(io, |sfen, rest| {
        let w = file.writer();
        w.write_all(b"sfen ")
            .and_then(|()| w.write_all(sfen))
            .and_then(|()| w.write_all(b" "))
            .and_then(|()| w.write_all(rest))
            .map_err(io)
    })?;
    file.finish()?;
    Ok(report)
}

/// Positions kept from a run of rows: each its key (the game and ply that first reach it,
/// big-endian) and its move lines.
#[derive(Default)]
struct Entries {
    /// End of each key and of its lines in `bytes`.
    ends: Vec<(usize, usize)>,
    bytes: Vec<u8>,
    positions: usize,
    moves: usize,
}

impl Entries {
    fn each(&self, mut f: impl FnMut(&[u8], &[u8]) -> std::io::Result<()>) -> std::io::Result<()> {
        let mut start = 0;
        for &(key_end, end) in &self.ends {
            f(&self.bytes[start..key_end], &self.bytes[key_end..end])?;
            start = end;
        }
        Ok(())
    }
}

/// The positions kept from `rows` (sorted, whole positions), with their move lines.
fn entries(rows: &[BookRow], opts: &BookOptions) -> std::io::Result<Entries> {
    let mut out = Entries::default();
    for group in rows.chunk_by(|a, b| a.hash == b.hash) {
        let Some((side, (game, ply), moves)) = position_entry(group, opts) else {
            continue;
        };
        out.bytes.extend_from_slice(&game.to_be_bytes());
        out.bytes.extend_from_slice(&ply.to_be_bytes());
        let key_end = out.bytes.len();
        for m in &moves {
            write!(out.bytes, "{} ", m.mv)?;
            match m.ponder {
                Some(p) => write!(out.bytes, "{p} ")?,
                None => out.bytes.extend_from_slice(b"none "),
            }
            writeln!(out.bytes, "{} 0 {}", m.value(side), m.count)?;
        }
        out.ends.push((key_end, out.bytes.len()));
        out.positions += 1;
        out.moves += moves.len();
    }
    Ok(out)
}

/// Games a worker replays at a time for the positions' rows.
const GAMES_A_BATCH: usize = 256;
/// Positions a worker writes the SFEN of at a time.
const POSITIONS_A_BATCH: usize = 4096;

/// The rows of the games `chunk`, the first of which is the selection's `first`.
fn game_rows(
    store: &Store,
    first: usize,
    chunk: &[i64],
) -> Result<(usize, Vec<BookRow>), ExportError> {
    let mut rows = Vec::with_capacity(chunk.len() * 128);
    for (i, &id) in chunk.iter().enumerate() {
        let line = store.game_line(id)?.ok_or(ExportError::Missing(id))?;
        let result = match line.winner.as_deref() {
            Some("sente") => 1,
            Some("gote") => 2,
            Some("draw") => 3,
            _ => 0,
        };
        let mut pos = line.start;
        for (ply, &mv) in line.moves.iter().enumerate() {
            let side = pos.side_to_move();
            rows.push(BookRow {
                hash: pos.hash(),
                game: (first + i) as u32,
                ply: (ply as u32) << 1 | u32::from(side == Color::White),
                next: mv.to_u16(),
                reply: line.moves.get(ply + 1).map_or(0, |m| m.to_u16()),
                result,
            });
            pos.play(mv)
                .map_err(|e| ExportError::BadMove(id, ply + 1, e.to_string()))?;
        }
    }
    Ok((chunk.len(), rows))
}

/// Positions kept, in the order of the game and ply that first reach them, with their move
/// lines; once a worker is done, each with its SFEN (without the move number) and the rest
/// of its text (the move number, then the move lines).
#[derive(Default)]
struct Kept {
    /// game, ply, end of its text in `text`
    at: Vec<(u32, u32, usize)>,
    text: Vec<u8>,
    /// Once done: the end of each position's SFEN and payload in `out`.
    ends: Vec<(usize, usize)>,
    out: Vec<u8>,
}

impl Kept {
    fn len(&self) -> usize {
        self.at.len()
    }

    fn last_game(&self) -> Option<u32> {
        self.at.last().map(|a| a.0)
    }

    fn push(&mut self, game: u32, ply: u32, lines: &[u8]) {
        self.text.extend_from_slice(lines);
        self.at.push((game, ply, self.text.len()));
    }

    /// Replays the games (`ids` by their place in the selection) for the positions' SFENs.
    fn sfens(mut self, store: &Store, ids: &[i64]) -> Result<Kept, ExportError> {
        let mut current: Option<(u32, GameLine, Position, u32)> = None;
        let mut start = 0;
        for &(game, ply, end) in &self.at {
            let id = ids[game as usize];
            if current.as_ref().is_none_or(|c| c.0 != game) {
                let line = store.game_line(id)?.ok_or(ExportError::Missing(id))?;
                let pos = line.start.clone();
                current = Some((game, line, pos, 0));
            }
            let Some((_, line, pos, at)) = current.as_mut() else {
                continue;
            };
            while *at < ply {
                let n = *at as usize;
                let mv = *line
                    .moves
                    .get(n)
                    .ok_or_else(|| ExportError::BadMove(id, n + 1, "the game is shorter".into()))?;
                pos.play(mv)
                    .map_err(|e| ExportError::BadMove(id, n + 1, e.to_string()))?;
                *at += 1;
            }
            let sfen = pos.to_sfen();
            let (head, number) = sfen.rsplit_once(' ').unwrap_or((&sfen, ""));
            self.out.extend_from_slice(head.as_bytes());
            let head_end = self.out.len();
            self.out.extend_from_slice(number.as_bytes());
            self.out.push(b'\n');
            self.out.extend_from_slice(&self.text[start..end]);
            self.ends.push((head_end, self.out.len()));
            start = end;
        }
        self.text = Vec::new();
        Ok(self)
    }

    /// Calls `f` with each position's SFEN and payload (once [`Kept::sfens`] is done).
    fn each(
        &self,
        mut f: impl FnMut(&[u8], &[u8]) -> Result<(), ExportError>,
    ) -> Result<(), ExportError> {
        let mut start = 0;
        for &(head_end, end) in &self.ends {
            f(&self.out[start..head_end], &self.out[head_end..end])?;
            start = end;
        }
        Ok(())
    }
}

/// The moves of one position (its rows, sorted by game then ply) that the options keep,
/// with its side to move and the game and ply that first reach it.
fn position_entry(
    rows: &[BookRow],
    opts: &BookOptions,
) -> Option<(Color, (u32, u32), Vec<BookMove>)> {
    let first = rows.iter().min_by_key(|r| r.ply >> 1)?;
    if first.ply >> 1 >= opts.max_ply {
        return None;
    }
    let side = if first.ply & 1 == 1 {
        Color::White
    } else {
        Color::Black
    };
    if opts.side.is_some_and(|s| s != side) {
        return None;
    }
    struct Tally {
        next: u16,
        mv: BookMove,
        last_game: Option<u32>,
        /// reply → games
        replies: Vec<(u16, u64)>,
    }
    let mut moves: Vec<Tally> = Vec::new();
    for r in rows {
        if opts.winner_only {
            let won = match side {
                Color::Black => r.result == 1,
                Color::White => r.result == 2,
            };
            if !won {
                continue;
            }
        }
        let Some(mv) = Move::from_u16(r.next) else {
            continue;
        };
        let i = match moves.iter().position(|m| m.next == r.next) {
            Some(i) => i,
            None => {
                moves.push(Tally {
                    next: r.next,
                    mv: BookMove {
                        mv,
                        count: 0,
                        results: [0; 3],
                        ponder: None,
                    },
                    last_game: None,
                    replies: Vec::new(),
                });
                moves.len() - 1
            }
        };
        let t = &mut moves[i];
        // A game counts once per move, however often it plays it here.
        if t.last_game == Some(r.game) {
            continue;
        }
        t.last_game = Some(r.game);
        t.mv.count += 1;
        if (1..=3).contains(&r.result) {
            t.mv.results[r.result as usize - 1] += 1;
        }
        if r.reply != 0 {
            match t.replies.iter_mut().find(|(m, _)| *m == r.reply) {
                Some((_, n)) => *n += 1,
                None => t.replies.push((r.reply, 1)),
            }
        }
    }
    let mut kept: Vec<BookMove> = moves
        .into_iter()
        .filter(|t| t.mv.count >= opts.min_count)
        .map(|t| {
            let ponder = t
                .replies
                .iter()
                .filter_map(|&(m, n)| Move::from_u16(m).map(|m| (m, n)))
                .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.usi().cmp(&a.0.usi())))
                .map(|(m, _)| m);
            BookMove { ponder, ..t.mv }
        })
        .collect();
    if kept.is_empty() {
        return None;
    }
    kept.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then(b.value(side).cmp(&a.value(side)))
            .then(a.mv.usi().cmp(&b.mv.usi()))
    });
    Some((side, (first.game, first.ply >> 1), kept))
}
