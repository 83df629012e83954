//! Evaluations: what engines said of a game's positions. Read from the records' engine
//! comments in every common dialect (Floodgate's CSA `'**` lines, ShogiHome, ShogiGUI,
//! 棋神アナリティクス, ぴよ将棋, K-Shogi; `docs/evaluations.md` describes each), kept in a
//! compact stored form ([`stored`]), and computed by a USI engine ([`engine`]). Knows the
//! board and the notation only.
//!
//! Every score here is from sente's point of view, whatever the writer's convention: positive
//! when sente is ahead. An evaluation belongs to a ply: ply N is the position after the N-th
//! move of the main line (ply 0 the start position).

#![doc = include_str!("../README.md")]

mod dialects;
pub mod engine;
mod pv;
pub mod stored;

pub use pv::Pv;

use kifudex_notation::Record;
use kifudex_shogi::{Color, Move, Position};

/// A score beyond which an evaluation says the game is decided: ShogiHome writes ±30000 for a
/// mate in the forms that have no mate syntax (Floodgate's, ShogiGUI's), and engines that print
/// a mate as centipawns print larger numbers still (gpsusi ±1148897, some ±100000).
pub const DECISIVE: i32 = 30_000;

/// An engine's judgement of a position, from sente's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// In the engine's units (centipawns, a pawn about 100), positive when sente is ahead; as
    /// written, however large.
    Value(i32),
    /// A forced mate by `winner`, in `plies` half-moves when the writer gives the distance.
    Mate { winner: Color, plies: Option<u32> },
}

impl Score {
    /// The value, when the score is one.
    pub fn value(self) -> Option<i32> {
        match self {
            Score::Value(v) => Some(v),
            Score::Mate { .. } => None,
        }
    }

    /// The mate as a signed distance in plies (positive: sente mates), when the score is a
    /// mate whose distance is known.
    pub fn mate(self) -> Option<i64> {
        match self {
            Score::Mate {
                winner,
                plies: Some(n),
            } => Some(if winner == Color::Black {
                i64::from(n)
            } else {
                -i64::from(n)
            }),
            _ => None,
        }
    }

    /// Who mates, when the score is a mate.
    pub fn mate_winner(self) -> Option<Color> {
        match self {
            Score::Mate { winner, .. } => Some(winner),
            Score::Value(_) => None,
        }
    }

    /// The side the score says wins: a mate, or a value of at least [`DECISIVE`].
    pub fn decisive(self) -> Option<Color> {
        match self {
            Score::Mate { winner, .. } => Some(winner),
            Score::Value(v) if v >= DECISIVE => Some(Color::Black),
            Score::Value(v) if v <= -DECISIVE => Some(Color::White),
            Score::Value(_) => None,
        }
    }

    /// The same judgement from the other side's point of view.
    pub fn flipped(self) -> Score {
        match self {
            Score::Value(v) => Score::Value(v.saturating_neg()),
            Score::Mate { winner, plies } => Score::Mate {
                winner: winner.opponent(),
                plies,
            },
        }
    }

    /// The score `side` gave from its own point of view, turned to sente's.
    pub fn from_side(self, side: Color) -> Score {
        match side {
            Color::Black => self,
            Color::White => self.flipped(),
        }
    }
}

/// Who wrote an evaluation: the dialect of a record's comment, or an engine kifudex ran.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// CSA `'**` engine lines (Floodgate, the CSA championships, 電竜戦), also written in KIF
    /// as `** 123 +7776FU`.
    Csa,
    /// ShogiHome (formerly Electron将棋): `評価値=`, `詰み=`, `読み筋=` lines.
    ShogiHome,
    /// ShogiGUI: `対局 … 評価値 …` and `解析 … 評価値 …` lines.
    ShogiGui,
    /// 棋神アナリティクス (将棋ウォーズ): `Engine <name> … 評価値 …` lines.
    Kishin,
    /// ぴよ将棋: `#指し手[value]` comments.
    Piyo,
    /// K-Shogi: `#形勢[value]` comments.
    KShogi,
    /// An engine kifudex ran (`kifudex analyse`).
    Engine,
}

impl Source {
    pub const ALL: [Source; 7] = [
        Source::Csa,
        Source::ShogiHome,
        Source::ShogiGui,
        Source::Kishin,
        Source::Piyo,
        Source::KShogi,
        Source::Engine,
    ];

    /// The name used in JSON output and the database.
    pub fn code(self) -> &'static str {
        match self {
            Source::Csa => "csa",
            Source::ShogiHome => "shogihome",
            Source::ShogiGui => "shogigui",
            Source::Kishin => "kishin",
            Source::Piyo => "piyo",
            Source::KShogi => "kshogi",
            Source::Engine => "engine",
        }
    }

    pub fn from_code(code: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|s| s.code() == code)
    }

    /// The index used by the stored form (0–6).
    pub fn index(self) -> u8 {
        self as u8
    }

    pub fn from_index(index: u8) -> Option<Source> {
        Source::ALL.get(usize::from(index)).copied()
    }
}

/// One evaluation of one position of a game's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Eval<'r> {
    /// The position evaluated: after this many main-line moves.
    pub ply: usize,
    pub score: Score,
    /// The nominal search depth, when written.
    pub depth: Option<u32>,
    /// The nodes searched, when written.
    pub nodes: Option<u64>,
    pub source: Source,
    /// An analysis of the game (ShogiGUI's 解析, ShogiHome's `#` lines, a later engine run)
    /// rather than a player's own search during the game. When both evaluate a ply, the
    /// analysis is kept: it covers both sides with one engine.
    pub analysis: bool,
    /// The principal variation from the evaluated position, as written.
    pub pv: Option<Pv<'r>>,
}

/// The evaluations the main line's engine comments carry, at most one per ply, in ply order.
///
/// A comment on the N-th move evaluates ply N: the position after that move. A variation
/// that begins with the N-th move itself (ShogiGUI's 対局 lines, ぴよ将棋, some Floodgate
/// engines) is read from the move after it. An analysis whose variation begins with another
/// move of the side that played the N-th move evaluates the position before that move, ply
/// N − 1, and prefers that other move there. When two lines evaluate one ply, an analysis
/// beats a player's search, and otherwise the first read is kept.
///
/// Nothing is replayed and no move is resolved: a record without engine comments costs a
/// look at each move's comment lists, and one with them a few number parses a line.
pub fn read(record: &Record) -> Vec<Eval<'_>> {
    let mut evals = Vec::new();
    let first = record.start.side_to_move();
    dialects::read_position(
        &mut evals,
        dialects::At::start(),
        &record.start_engine,
        &record.start_comments,
    );
    let mut prev_to = None;
    let plies = record.main.moves.len();
    for (i, node) in record.main.moves.iter().enumerate() {
        if !node.engine.is_empty() || !node.comments.is_empty() {
            if evals.capacity() == 0 && !node.engine.is_empty() {
                // Engines write a line a move, or one every other move.
                evals.reserve(plies - i + 1);
            }
            let mover = if i % 2 == 0 { first } else { first.opponent() };
            let at = dialects::At::after(i + 1, node.mv, mover, prev_to);
            dialects::read_position(&mut evals, at, &node.engine, &node.comments);
        }
        prev_to = Some(node.mv.to());
    }
    settle(&mut evals);
    evals
}

/// One evaluation a ply, in ply order: analyses first, then reading order.
fn settle(evals: &mut Vec<Eval<'_>>) {
    // Mostly read in order already, one a ply.
    if evals.windows(2).any(|w| w[0].ply >= w[1].ply) {
        // A stable sort keeps the reading order among equals.
        evals.sort_by_key(|e| (e.ply, !e.analysis));
        evals.dedup_by_key(|e| e.ply);
    }
}

/// The engine's preferred move at each evaluation's position (the first move of its principal
/// variation, resolved and checked legal there), replaying the record's main line once.
/// `None` where the evaluation has no variation or its first move cannot be read or played.
pub fn best_moves(record: &Record, evals: &[Eval<'_>]) -> Vec<Option<Move>> {
    let positions = main_line_positions(record);
    let played: Vec<Move> = record.main.moves.iter().map(|m| m.mv).collect();
    evals
        .iter()
        .map(|e| {
            e.pv.as_ref()?
                .moves(&positions, &played, 1)
                .first()
                .copied()
        })
        .collect()
}

/// The positions of the main line: before the first move and after each move, as far as the
/// moves can be played.
fn main_line_positions(record: &Record) -> Vec<Position> {
    let mut pos = record.start.clone();
    let mut out = Vec::with_capacity(record.main.moves.len() + 1);
    out.push(pos.clone());
    for node in &record.main.moves {
        if pos.play(node.mv).is_err() {
            break;
        }
        out.push(pos.clone());
    }
    out
}
