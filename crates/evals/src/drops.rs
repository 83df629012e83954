//! What a game's evaluations say of its moves: how much each move cost its mover (its
//! *drop*), the one move that turned a game for good (its *deciding swing*), and a move's
//! loss as lichess counts it (values capped). Everything here works on evaluations in ply
//! order, as [`super::stored`] gives them back.
//!
//! A drop compares the evaluations of the positions before and after a move, whoever wrote
//! them: in a record where each player's engine wrote its own values, a drop may be the two
//! engines disagreeing rather than a mistake. An analysis by one engine (`kifudex analyse`)
//! has no such mix.

use super::stored::StoredEval;
use super::{DECISIVE, Score};
use kifudex_shogi::Color;

/// How far a loss is counted in [`MoveDrop::capped_loss`]: lichess caps its evaluations at
/// ±1000 centipawns before it counts what a move lost, so that a position already won or lost
/// does not count thousands of points for a move that changed nothing.
pub const LOSS_CAP: i32 = 1000;

/// An evaluation as a number to compare and subtract, from sente's point of view: a value,
/// held within ±[`DECISIVE`]; a mate, ±[`DECISIVE`] (a mate in 3 and a mate in 9 win alike).
pub fn points(score: Score) -> i32 {
    match score {
        Score::Value(v) => v.clamp(-DECISIVE, DECISIVE),
        Score::Mate {
            winner: Color::Black,
            ..
        } => DECISIVE,
        Score::Mate {
            winner: Color::White,
            ..
        } => -DECISIVE,
    }
}

/// `points` (sente's view) from `side`'s point of view.
pub fn for_side(points: i32, side: Color) -> i32 {
    match side {
        Color::Black => points,
        Color::White => -points,
    }
}

/// The side to move at `ply` (the position after `ply` moves) of a game `first` starts.
pub fn mover_at(first: Color, ply: usize) -> Color {
    if ply.is_multiple_of(2) {
        first
    } else {
        first.opponent()
    }
}

/// One move whose positions before and after are both evaluated.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveDrop {
    /// The move's number: it was played from ply `ply - 1` and led to ply `ply`.
    pub ply: usize,
    pub mover: Color,
    /// [`points`] of the position before the move, sente's view.
    pub before: i32,
    /// [`points`] of the position after it, sente's view.
    pub after: i32,
}

impl MoveDrop {
    /// How far the mover's evaluation fell (negative: it rose).
    pub fn drop(&self) -> i32 {
        for_side(self.before, self.mover) - for_side(self.after, self.mover)
    }

    /// What the move lost its mover, counted as lichess counts it: both evaluations capped at
    /// ±[`LOSS_CAP`] first, and a move that gained counting 0.
    pub fn capped_loss(&self) -> i32 {
        let cap = |p: i32| for_side(p, self.mover).clamp(-LOSS_CAP, LOSS_CAP);
        (cap(self.before) - cap(self.after)).max(0)
    }
}

/// The drop of every move whose positions before and after are both evaluated, in ply
/// order; `first` is the side that plays the game's first move.
pub fn drops(evals: &[StoredEval], first: Color) -> impl Iterator<Item = MoveDrop> + '_ {
    evals
        .windows(2)
        .filter(|w| w[0].ply + 1 == w[1].ply)
        .map(move |w| MoveDrop {
            ply: w[1].ply,
            mover: mover_at(first, w[0].ply),
            before: points(w[0].score),
            after: points(w[1].score),
        })
}

/// How far the single move that decided the game swung it, when one did: the loser's move
/// played from the last evaluated position where the winner was not ahead (its points ≤ 0
/// from the winner's side) to a position where the winner was ahead, and stayed ahead at
/// every evaluated position after it. `None` for a draw or an unknown result, when the winner
/// was ahead from the first evaluation or not at the last, when that turn came with the
/// winner's own move, or when the positions on either side of it are not both evaluated.
/// The value is the loser's [`MoveDrop::drop`]: positive.
pub fn deciding_swing(evals: &[StoredEval], first: Color, winner: Option<Color>) -> Option<i32> {
    let winner = winner?;
    let ahead = |e: &StoredEval| for_side(points(e.score), winner) > 0;
    let last_even = evals.iter().rposition(|e| !ahead(e))?;
    let (before, after) = (&evals[last_even], evals.get(last_even + 1)?);
    if after.ply != before.ply + 1 || mover_at(first, before.ply) == winner {
        return None;
    }
    let d = MoveDrop {
        ply: after.ply,
        mover: winner.opponent(),
        before: points(before.score),
        after: points(after.score),
    };
    Some(d.drop())
}

/// [`points`] of the evaluation at `ply`, when there is one.
pub fn points_at(evals: &[StoredEval], ply: usize) -> Option<i32> {
    evals
        .binary_search_by_key(&ply, |e| e.ply)
        .ok()
        .map(|i| points(evals[i].score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Source;

    fn series(first_ply: usize, values: &[i32]) -> Vec<StoredEval> {
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                StoredEval::new(first_ply + i, Score::Value(v), None, Source::Csa, false)
            })
            .collect()
    }

    #[test]
    fn a_drop_is_the_movers_loss() {
        // Sente moves from ply 0; gote from ply 1.
        let e = series(0, &[50, -250, -100, 40_000]);
        let d: Vec<(usize, Color, i32)> = drops(&e, Color::Black)
            .map(|d| (d.ply, d.mover, d.drop()))
            .collect();
        assert_eq!(
            d,
            [
                (1, Color::Black, 300),
                (2, Color::White, 150),
                (3, Color::Black, -(DECISIVE + 100))
            ]
        );
        let third = drops(&e, Color::Black).nth(2).unwrap();
        assert_eq!(third.capped_loss(), 0);
        assert_eq!(drops(&e, Color::Black).next().unwrap().capped_loss(), 300);
    }

    #[test]
    fn the_deciding_swing_is_the_losers_move_that_turned_the_game_for_good() {
        // Gote wins: sente's move 3 turns +100 into -500 and it stays below.
        let e = series(0, &[0, 120, 100, -500, -450, -3000]);
        assert_eq!(
            deciding_swing(&e, Color::Black, Some(Color::White)),
            Some(600)
        );
        // The same values, sente winning: the winner was never ahead for good.
        assert_eq!(deciding_swing(&e, Color::Black, Some(Color::Black)), None);
        // The turn came with the winner's own move (gote's move 2 from ply 1).
        let e = series(0, &[100, 100, -200, -300]);
        assert_eq!(deciding_swing(&e, Color::Black, Some(Color::White)), None);
        // A gap before the turn: not both sides of it evaluated.
        let mut e = series(0, &[0, 10, 20]);
        e.extend(series(4, &[-900, -900]));
        assert_eq!(deciding_swing(&e, Color::Black, Some(Color::White)), None);
        assert_eq!(deciding_swing(&e, Color::Black, None), None);
    }

    #[test]
    fn points_hold_mates_at_the_decisive_value() {
        let mate = Score::Mate {
            winner: Color::White,
            plies: Some(3),
        };
        assert_eq!(points(mate), -DECISIVE);
        assert_eq!(points(Score::Value(99_999)), DECISIVE);
        let e = series(3, &[7, 8]);
        assert_eq!(points_at(&e, 4), Some(8));
        assert_eq!(points_at(&e, 2), None);
    }
}
