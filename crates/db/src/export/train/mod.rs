//! Training data for shogi engines: every position of the selected games as dlshogi's `hcpe`
//! records (HuffmanCodedPosAndEval, 38 bytes) or YaneuraOu's PackedSfenValue records (40
//! bytes), with the move to learn, the evaluation where the record has one and the game's
//! result.
//!
//! The move to learn is the engine's preferred move where the record's engine comments give
//! one (the first move of the evaluation's variation, checked legal), else the move played.
//! Evaluations come from the records' engine comments ([`kifudex_evals::read`]), turned to
//! the side to move's point of view as both formats want them.

pub mod pack;
mod seen;
mod select;
mod write;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use kifudex_evals::Score;
use kifudex_notation::{GameResult, Record};
use kifudex_shogi::{Color, Move};
use serde::Serialize;

use super::{ExportError, Pending};
use crate::store::Store;
use pack::Packing;
pub use select::Split;

/// The two record formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TrainFormat {
    /// dlshogi's HuffmanCodedPosAndEval: hcp (32 bytes), eval (i16), bestMove16 (u16),
    /// gameResult (u8: 0 draw, 1 sente won, 2 gote won), one byte of padding.
    Hcpe,
    /// YaneuraOu's PackedSfenValue: sfen (32 bytes), score (i16), move (u16), gamePly (u16),
    /// game_result (i8: 1 the side to move won, -1 lost, 0 draw), one byte of padding.
    Psv,
}

impl TrainFormat {
    /// Bytes a record.
    pub fn record_len(self) -> usize {
        match self {
            TrainFormat::Hcpe => 38,
            TrainFormat::Psv => 40,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TrainFormat::Hcpe => "hcpe",
            TrainFormat::Psv => "psv",
        }
    }

    fn packing(self) -> Packing {
        match self {
            TrainFormat::Hcpe => Packing::Hcp,
            TrainFormat::Psv => Packing::PackedSfen,
        }
    }
}

/// What to write, and which positions.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub format: TrainFormat,
    pub out: PathBuf,
    /// Write over files that exist.
    pub force: bool,
    /// Only positions at this ply or later (0 is the game's start).
    pub min_ply: u32,
    /// Only positions at this ply or earlier.
    pub max_ply: Option<u32>,
    /// Leave out positions whose side to move is in check.
    pub skip_check: bool,
    /// Only the first record of a position (board, hands and side to move) in the whole export.
    pub unique: bool,
    /// Only positions reached in at least this many of the selected games (within the ply range).
    pub min_games: u32,
    /// Only positions with an evaluation.
    pub evaluated_only: bool,
    /// Always the move played, never the engine's preferred move.
    pub played_moves: bool,
    /// Games without a result (aborted, unfinished) too: their records say draw.
    pub keep_unknown_results: bool,
    /// Shuffle the records with this seed (they are held in memory until written).
    pub shuffle: Option<u64>,
    /// Put some games' records into a second file.
    pub split: Option<Split>,
}

impl TrainOptions {
    pub fn new(format: TrainFormat, out: PathBuf) -> TrainOptions {
        TrainOptions {
            format,
            out,
            force: false,
            min_ply: 0,
            max_ply: None,
            skip_check: false,
            unique: false,
            min_games: 1,
            evaluated_only: false,
            played_moves: false,
            keep_unknown_results: false,
            shuffle: None,
            split: None,
        }
    }
}

/// What an export wrote and left out.
#[derive(Debug, Default, Clone, Serialize, PartialEq, Eq)]
pub struct TrainReport {
    pub format: &'static str,
    /// Games whose positions were looked at.
    pub games: usize,
    /// Records written into the main file.
    pub records: u64,
    /// Records written into the test file of a split.
    pub test_records: u64,
    /// Records carrying an evaluation.
    pub evaluated: u64,
    /// Records whose move is the engine's preferred one rather than the move played.
    pub engine_moves: u64,
    /// Games left out for want of a result.
    pub games_without_result: usize,
    /// Games whose main line stops at an illegal move: the positions from there on are left out.
    pub games_cut_at_illegal_move: usize,
    /// Positions left out because they are not the full set of 40 pieces (handicap games,
    /// problems): the 256-bit packings cannot hold them.
    pub skipped_not_full_set: u64,
    pub skipped_in_check: u64,
    pub skipped_unevaluated: u64,
    /// Positions already written (with `unique`).
    pub skipped_repeated: u64,
    /// Positions reached in fewer games than `min_games`.
    pub skipped_rare: u64,
    pub bytes: u64,
}

/// One record made from a game, with what selects it.
struct Item {
    hash: u64,
    test: bool,
    evaluated: bool,
    /// The move is the engine's, not the one played.
    engine_move: bool,
    bytes: [u8; 40],
}

/// What one game gave.
#[derive(Default)]
struct GameItems {
    items: Vec<Item>,
    no_result: bool,
    cut: bool,
    not_full_set: u64,
    in_check: u64,
    unevaluated: u64,
}

/// The score from `side`'s point of view, as both formats' 16 bits: values clamped to ±30000,
/// a mate in n plies 32000 − n, a mate of unknown distance 31000 (YaneuraOu's convention:
/// the mate value less the distance).
fn score_for(score: Score, side: Color) -> i16 {
    let score = if side == Color::White {
        score.flipped()
    } else {
        score
    };
    match score {
        Score::Value(v) => v.clamp(-30_000, 30_000) as i16,
        Score::Mate { winner, plies } => {
            let v = 32_000 - plies.map_or(1000, |p| p.min(1000)) as i16;
            if winner == side { v } else { -v }
        }
    }
}

/// Why a position gives no record.
enum Skip {
    Unevaluated,
    InCheck,
    NotFullSet,
}

impl Skip {
    fn count(self, g: &mut GameItems) {
        match self {
            Skip::Unevaluated => g.unevaluated += 1,
            Skip::InCheck => g.in_check += 1,
            Skip::NotFullSet => g.not_full_set += 1,
        }
    }
}

/// The record of the position `pos` with the move `mv` to learn, or why the options leave
/// it out or the packing cannot hold it (`squares`: the position's square codes, when it is
/// known to be a full set, [`pack::is_full_set`]).
fn item(
    pos: &kifudex_shogi::Position,
    squares: Option<&pack::SquareCodes>,
    mv: Move,
    score: Option<Score>,
    result: GameResult,
    test: bool,
    opts: &TrainOptions,
) -> Result<Item, Skip> {
    let side = pos.side_to_move();
    if opts.evaluated_only && score.is_none() {
        return Err(Skip::Unevaluated);
    }
    if opts.skip_check && pos.in_check() {
        return Err(Skip::InCheck);
    }
    let packed = match squares {
        Some(squares) => pack::pack_full_set(pos, squares),
        None => pack::pack(pos, opts.format.packing()).ok_or(Skip::NotFullSet)?,
    };
    let eval = score.map_or(0, |s| score_for(s, side));
    let mut bytes = [0u8; 40];
    bytes[..32].copy_from_slice(&packed);
    bytes[32..34].copy_from_slice(&eval.to_le_bytes());
    match opts.format {
        TrainFormat::Hcpe => {
            bytes[34..36].copy_from_slice(&pack::hcpe_move(mv).to_le_bytes());
            bytes[36] = match result {
                GameResult::Win(Color::Black) => 1,
                GameResult::Win(Color::White) => 2,
                GameResult::Draw | GameResult::Unknown => 0,
            };
        }
        TrainFormat::Psv => {
            bytes[34..36].copy_from_slice(&pack::psv_move(mv).to_le_bytes());
            let game_ply = pos.move_number().min(u32::from(u16::MAX)) as u16;
            bytes[36..38].copy_from_slice(&game_ply.to_le_bytes());
            bytes[38] = match result {
                GameResult::Win(c) if c == side => 1,
                GameResult::Win(_) => (-1i8) as u8,
                GameResult::Draw | GameResult::Unknown => 0,
            };
        }
    }
    Ok(Item {
        hash: pos.hash(),
        test,
        evaluated: score.is_some(),
        engine_move: false,
        bytes,
    })
}

/// The records of one game (`test`: it belongs to the test file), as `opts` selects them.
#[cfg(test)]
fn game_items(record: &Record, result: GameResult, test: bool, opts: &TrainOptions) -> GameItems {
    game_items_in(record, result, test, opts, Vec::new())
}

/// [`game_items`] into `items` (emptied, its room kept: a game's records are written and
/// their vector handed back for another game, so that none is allocated again).
fn game_items_in(
    record: &Record,
    result: GameResult,
    test: bool,
    opts: &TrainOptions,
    mut items: Vec<Item>,
) -> GameItems {
    items.clear();
    let mut g = GameItems {
        items,
        ..GameItems::default()
    };
    if result == GameResult::Unknown && !opts.keep_unknown_results {
        g.no_result = true;
        return g;
    }
    let evals = kifudex_evals::read(record);
    let best = if opts.played_moves {
        vec![None; evals.len()]
    } else {
        kifudex_evals::best_moves(record, &evals)
    };
    let mut judged: HashMap<usize, (Score, Option<Move>)> = HashMap::with_capacity(evals.len());
    for (e, b) in evals.iter().zip(best) {
        judged.insert(e.ply, (e.score, b));
    }
    let moves = &record.main.moves;
    let mut pos = record.start.clone();
    // Moves only take pieces between the board and the hands: a game whose start is the
    // full set is one at every position, and is counted once instead of at every position;
    // its square codes are kept move by move.
    let mut squares =
        pack::is_full_set(&pos).then(|| pack::SquareCodes::of(&pos, opts.format.packing()));
    let last = opts
        .max_ply
        .map_or(moves.len(), |m| (m as usize).min(moves.len()));
    g.items.reserve(last + 1);
    for ply in 0..=last {
        let played = moves.get(ply).map(|m| m.mv);
        let (score, engine) = match judged.get(&ply) {
            Some((s, b)) => (Some(*s), *b),
            None => (None, None),
        };
        let item = match engine.or(played) {
            Some(mv) if ply >= opts.min_ply as usize => {
                debug_assert!(squares.is_none() || pack::is_full_set(&pos));
                Some(
                    item(&pos, squares.as_ref(), mv, score, result, test, opts).map(|mut item| {
                        item.engine_move = engine.is_some_and(|e| Some(e) != played);
                        item
                    }),
                )
            }
            _ => None,
        };
        // A record is kept (or counted as left out) only when the move played from its
        // position is legal: the positions after an illegal move are no game's, nor is the
        // illegal move one to learn.
        if let Some(mv) = played {
            match pos.play(mv) {
                Ok(broken) if broken.is_empty() => {
                    if let Some(squares) = &mut squares {
                        squares.played(&pos, mv);
                    }
                }
                _ => {
                    g.cut = true;
                    break;
                }
            }
        }
        match item {
            Some(Ok(item)) => g.items.push(item),
            Some(Err(skip)) => skip.count(&mut g),
            None => {}
        }
    }
    g
}

/// The hashes of the positions of one game that `opts` would look at, each once: what
/// `min_games` counts.
fn game_hashes(record: &Record, opts: &TrainOptions) -> Vec<u64> {
    let moves = &record.main.moves;
    let last = opts
        .max_ply
        .map_or(moves.len(), |m| (m as usize).min(moves.len()));
    let mut pos = record.start.clone();
    let mut out = Vec::with_capacity(last + 1);
    for ply in 0..=last {
        if ply >= opts.min_ply as usize {
            out.push(pos.hash());
        }
        match moves.get(ply) {
            Some(m) if matches!(pos.play(m.mv), Ok(b) if b.is_empty()) => {}
            _ => break,
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Writes the training records of the games `ids` (in id order) as `opts` says; `progress`
/// hears the games done so far.
pub fn write_training(
    store: &Store,
    ids: &[i64],
    opts: &TrainOptions,
    mut progress: impl FnMut(usize),
) -> Result<TrainReport, ExportError> {
    if ids.is_empty() {
        return Err(ExportError::NothingSelected);
    }
    let paths: Vec<&Path> = std::iter::once(opts.out.as_path())
        .chain(opts.split.as_ref().map(|s| s.out.as_path()))
        .collect();
    for p in &paths {
        if p.exists() && !opts.force {
            return Err(ExportError::Exists(p.to_path_buf()));
        }
    }
    let counts = if opts.min_games > 1 {
        Some(select::count_games(store, ids, opts, game_hashes)?)
    } else {
        None
    };
    let files: Vec<Pending> = paths
        .iter()
        .map(|p| Pending::create(p))
        .collect::<Result<_, _>>()?;
    let report = TrainReport {
        format: opts.format.name(),
        games: ids.len(),
        ..TrainReport::default()
    };
    let spare = write::Spare::default();
    let mut writer = write::Writer::new(opts, counts, files, report, &spare);
    select::each_game(
        store,
        ids,
        |id, record: &Record| {
            let test = opts.split.as_ref().is_some_and(|s| s.is_test(id));
            game_items_in(record, record.result(), test, opts, spare.take())
        },
        |g: GameItems| writer.take(g, &mut progress),
    )?;
    writer.finish(&mut progress)
}

#[cfg(test)]
mod tests;
