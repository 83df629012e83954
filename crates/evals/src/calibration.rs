//! The calibration of evaluations: for each size of advantage, how often the side ahead went
//! on to win. It tells what "+800" means for the engines and the level of play of a
//! collection, which no single number does (see `docs/evaluations.md`).
//!
//! Every evaluated position of a game with a known result counts once, in the bucket of its
//! advantage's size: [`Calibration::width`] points wide up to [`TOP`], one bucket from there
//! to the decisive values, one for the decisive ones (mates, ±30000 and beyond). A position
//! evaluated exactly 0 has no side ahead and counts in no bucket ([`Calibration::level`]).

use super::drops::{for_side, points};
use super::stored::StoredEval;
use super::{DECISIVE, Score};
use kifudex_shogi::Color;

/// Where the buckets of fixed width end: one bucket holds every advantage from here to the
/// decisive values.
pub const TOP: i32 = 3000;

/// How a game ended, for the calibration.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won(Color),
    Draw,
}

/// The positions of one bucket.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Bucket {
    /// The smallest advantage the bucket holds (points from the side ahead's view).
    pub low: i32,
    /// The first advantage past it (`None` for the decisive bucket, which has no end).
    pub high: Option<i32>,
    /// Whether it holds the decisive evaluations (mates, ±30000 and beyond).
    pub decisive: bool,
    pub positions: u64,
    /// Distinct games with a position in the bucket.
    pub games: u64,
    /// Positions whose side ahead won the game.
    pub ahead_won: u64,
    pub drawn: u64,
    /// Positions whose side ahead lost the game.
    pub ahead_lost: u64,
}

impl Bucket {
    /// The share of its positions whose side ahead won.
    pub fn won(&self) -> Option<f64> {
        (self.positions > 0).then(|| self.ahead_won as f64 / self.positions as f64)
    }

    /// Points the side ahead scored per position (a win 1, a draw ½).
    pub fn score(&self) -> Option<f64> {
        (self.positions > 0)
            .then(|| (self.ahead_won as f64 + self.drawn as f64 / 2.0) / self.positions as f64)
    }
}

/// The calibration table as it is counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calibration {
    width: i32,
    buckets: Vec<Bucket>,
    /// The last game counted in each bucket (games come one at a time).
    last_game: Vec<u64>,
    games: u64,
    level: u64,
}

impl Calibration {
    /// Buckets `width` points wide (at least 1; at most [`TOP`]).
    pub fn new(width: i32) -> Calibration {
        let width = width.clamp(1, TOP);
        let fixed = (TOP + width - 1) / width;
        let mut buckets: Vec<Bucket> = (0..fixed)
            .map(|i| Bucket {
                low: i * width,
                high: Some(((i + 1) * width).min(TOP)),
                ..Bucket::default()
            })
            .collect();
        buckets.push(Bucket {
            low: TOP,
            high: Some(DECISIVE),
            ..Bucket::default()
        });
        buckets.push(Bucket {
            low: DECISIVE,
            high: None,
            decisive: true,
            ..Bucket::default()
        });
        Calibration {
            width,
            last_game: vec![0; buckets.len()],
            buckets,
            games: 0,
            level: 0,
        }
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    /// The bucket an evaluation falls in, `None` for an even one (0).
    fn bucket(&self, score: Score) -> Option<usize> {
        let a = points(score).unsigned_abs() as i32;
        match a {
            0 => None,
            a if a >= DECISIVE => Some(self.buckets.len() - 1),
            a if a >= TOP => Some(self.buckets.len() - 2),
            a => Some((a / self.width) as usize),
        }
    }

    /// Counts the evaluated positions of one game that ended as `outcome`.
    pub fn add_game(&mut self, evals: &[StoredEval], outcome: Outcome) {
        if evals.is_empty() {
            return;
        }
        self.games += 1;
        let game = self.games;
        for e in evals {
            let Some(i) = self.bucket(e.score) else {
                self.level += 1;
                continue;
            };
            let ahead = if points(e.score) > 0 {
                Color::Black
            } else {
                Color::White
            };
            let b = &mut self.buckets[i];
            b.positions += 1;
            if self.last_game[i] != game {
                self.last_game[i] = game;
                b.games += 1;
            }
            match outcome {
                Outcome::Draw => b.drawn += 1,
                Outcome::Won(w) if w == ahead => b.ahead_won += 1,
                Outcome::Won(_) => b.ahead_lost += 1,
            }
        }
    }

    /// Adds another count of the same width (a scan split over threads).
    pub fn merge(&mut self, other: &Calibration) {
        for (a, b) in self.buckets.iter_mut().zip(&other.buckets) {
            a.positions += b.positions;
            a.games += b.games;
            a.ahead_won += b.ahead_won;
            a.drawn += b.drawn;
            a.ahead_lost += b.ahead_lost;
        }
        self.games += other.games;
        self.level += other.level;
    }

    /// The buckets, smallest advantage first, those without positions left out.
    pub fn buckets(&self) -> Vec<Bucket> {
        self.buckets
            .iter()
            .filter(|b| b.positions > 0)
            .cloned()
            .collect()
    }

    /// Games counted (with at least one evaluation).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Positions evaluated exactly 0: no side ahead, in no bucket.
    pub fn level(&self) -> u64 {
        self.level
    }
}

/// Whether `score` says `side` is ahead.
pub fn ahead(score: Score, side: Color) -> bool {
    for_side(points(score), side) > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Source;

    #[test]
    fn buckets_by_the_size_of_the_advantage() {
        let mut c = Calibration::new(200);
        let e = |ply, v| StoredEval::new(ply, Score::Value(v), None, Source::Engine, true);
        let game = [
            e(0, 0),
            e(1, 150),
            e(2, -199),
            e(3, 250),
            e(4, 5000),
            e(5, -40_000),
        ];
        c.add_game(&game, Outcome::Won(Color::Black));
        let rows = c.buckets();
        let got: Vec<(i32, u64, u64, u64, u64)> = rows
            .iter()
            .map(|b| (b.low, b.positions, b.games, b.ahead_won, b.ahead_lost))
            .collect();
        assert_eq!(
            got,
            [
                (0, 2, 1, 1, 1),
                (200, 1, 1, 1, 0),
                (TOP, 1, 1, 1, 0),
                (DECISIVE, 1, 1, 0, 1)
            ]
        );
        assert_eq!(c.level(), 1);
        assert_eq!(rows[0].high, Some(200));
        // A width that does not divide the top: the last fixed bucket ends at the top.
        let c = Calibration::new(700);
        assert_eq!(c.buckets[4].high, Some(TOP));
    }
}
