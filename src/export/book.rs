//! An opening book for engines, in YaneuraOu's text format (`#YANEURAOU-DB2016 1.00`), which
//! YaneuraOu engines and ShogiHome read.
//!
//! A book holds, for each position, the moves played from it in the selected games: `sfen`
//! lines sorted by their SFEN (without the move number, as YaneuraOu's on-the-fly book
//! lookup requires), each followed by one line per move: the move, the most played reply
//! (`none` when the book has none), a value, a depth (0: not from a search) and the number
//! of games that played it. The value turns the move's score `s` (points for the side to
//! move per game with a known result, a draw ½) into the engines' scale with the logistic
//! model they use: `600 × ln(s / (1 − s))`, `s` kept within [0.01, 0.99] (±2757); 0 when no
//! game that played it has a known result.
//!
//! Counts are those of `kifudex tree` on the same position: each game counts once per move,
//! whatever ply it reaches the position at. The book holds the positions a game reaches
//! within its first `max_ply` moves, each with its moves played `min_count` times or more.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use super::spill::{PosRow, Spill};
use super::{ExportError, Pending};
use crate::shogi::{Color, Move, Position, Strictness};
use crate::store::Store;

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
}

impl Default for BookOptions {
    fn default() -> BookOptions {
        BookOptions {
            min_count: 1,
            max_ply: 40,
            winner_only: false,
            side: None,
            force: false,
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

/// A position kept in the book: its side to move, a game and ply that reach it, its moves.
type Entry = (Color, (i64, u32), Vec<BookMove>);

/// Writes a book of the games `ids` to `out`.
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
    let spill_dir = out.with_file_name(format!(
        ".{}.spill",
        out.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    ));
    // Every position of every game (a position's count takes in the games that reach it
    // late too), with the side to move in the low bit of the ply.
    let mut spill = Spill::new(&spill_dir);
    let io = |e| ExportError::Io(out.to_path_buf(), e);
    for (i, &id) in ids.iter().enumerate() {
        let line = store.game_line(id)?.ok_or(ExportError::Missing(id))?;
        let result = match line.winner.as_deref() {
            Some("sente") => 1,
            Some("gote") => 2,
            Some("draw") => 3,
            _ => 0,
        };
        let mut pos = line.start.clone();
        for (ply, &mv) in line.moves.iter().enumerate() {
            let side = pos.side_to_move();
            spill
                .push(PosRow {
                    hash: pos.hash(),
                    game: id,
                    ply: (ply as u32) << 1 | u32::from(side == Color::White),
                    board_hash: 0,
                    next: mv.to_u16(),
                    result,
                    date: 0,
                })
                .map_err(io)?;
            pos.play(mv)
                .map_err(|e| ExportError::BadMove(id, ply + 1, e.to_string()))?;
        }
        progress(i + 1);
    }
    // Positions kept: hash → (side to move, where a game reaches it, moves).
    let mut kept: HashMap<u64, Entry> = HashMap::new();
    spill
        .sorted(|rows| {
            for group in rows.chunk_by(|a, b| a.hash == b.hash) {
                if let Some(entry) = position_entry(group, opts) {
                    kept.insert(group[0].hash, entry);
                }
            }
            Ok(())
        })
        .map_err(io)?;
    // The SFEN of each position kept, from one game that reaches it, each game replayed once.
    let mut wanted: Vec<(i64, u32, u64)> = kept
        .iter()
        .map(|(&h, (_, (game, ply), _))| (*game, *ply, h))
        .collect();
    wanted.sort_unstable();
    let mut sfens: HashMap<u64, String> = HashMap::with_capacity(wanted.len());
    for per_game in wanted.chunk_by(|a, b| a.0 == b.0) {
        let id = per_game[0].0;
        let line = store.game_line(id)?.ok_or(ExportError::Missing(id))?;
        let mut pos = line.start.clone();
        let mut at = 0u32;
        for &(_, ply, hash) in per_game {
            while at < ply {
                let mv = line.moves[at as usize];
                pos.play(mv)
                    .map_err(|e| ExportError::BadMove(id, at as usize + 1, e.to_string()))?;
                at += 1;
            }
            sfens.insert(hash, pos.to_sfen());
        }
    }
    let mut entries: Vec<(String, u64)> = sfens
        .iter()
        .map(|(&h, sfen)| (without_move_number(sfen).to_string(), h))
        .collect();
    entries.sort_unstable();
    // The most played move of each position kept: the reply (ponder) written after a move.
    let best: HashMap<u64, Move> = kept
        .iter()
        .filter_map(|(&h, (_, _, moves))| moves.first().map(|m| (h, m.mv)))
        .collect();
    let mut file = Pending::create(out)?;
    let mut report = BookReport {
        games: ids.len(),
        ..BookReport::default()
    };
    let bad = |e| ExportError::Io(out.to_path_buf(), e);
    writeln!(file.writer(), "#YANEURAOU-DB2016 1.00").map_err(bad)?;
    for (_, hash) in &entries {
        let (side, _, moves) = &kept[hash];
        let sfen = &sfens[hash];
        let pos = Position::from_sfen_with(sfen, Strictness::PiecesOnly).map_err(|e| {
            ExportError::Io(out.to_path_buf(), std::io::Error::other(e.to_string()))
        })?;
        writeln!(file.writer(), "sfen {sfen}").map_err(bad)?;
        report.positions += 1;
        for m in moves {
            let mut next = pos.clone();
            let ponder = match next.play(m.mv) {
                Ok(_) => best.get(&next.hash()).map(|r| r.usi()),
                Err(_) => None,
            };
            writeln!(
                file.writer(),
                "{} {} {} 0 {}",
                m.mv.usi(),
                ponder.as_deref().unwrap_or("none"),
                m.value(*side),
                m.count
            )
            .map_err(bad)?;
            report.moves += 1;
        }
    }
    file.finish()?;
    Ok(report)
}

/// The SFEN without its move number: what YaneuraOu sorts and looks up by.
fn without_move_number(sfen: &str) -> &str {
    sfen.rsplit_once(' ').map_or(sfen, |(head, _)| head)
}

/// The moves of one position (its rows, sorted by game then ply) that the options keep.
fn position_entry(
    rows: &[PosRow],
    opts: &BookOptions,
) -> Option<(Color, (i64, u32), Vec<BookMove>)> {
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
    // move → (count, results, last game counted)
    let mut moves: Vec<(u16, BookMove, i64)> = Vec::new();
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
        let i = match moves.iter().position(|m| m.0 == r.next) {
            Some(i) => i,
            None => {
                moves.push((
                    r.next,
                    BookMove {
                        mv,
                        count: 0,
                        results: [0; 3],
                    },
                    0,
                ));
                moves.len() - 1
            }
        };
        let (_, m, last) = &mut moves[i];
        if *last == r.game {
            continue;
        }
        *last = r.game;
        m.count += 1;
        if (1..=3).contains(&r.result) {
            m.results[r.result as usize - 1] += 1;
        }
    }
    let mut kept: Vec<BookMove> = moves
        .into_iter()
        .map(|(_, m, _)| m)
        .filter(|m| m.count >= opts.min_count)
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
