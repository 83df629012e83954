//! The game filter's fields about evaluations (`--evaluated`, `--swing`, `--eval-at`): their
//! values read into types, and the store's conditions they make.

use super::GameFilter;
use crate::store::Cond;

/// The evaluation at a ply in a range (`--eval-at 40:-300..300`): points from sente's point
/// of view, mates counting ±30000 (see `kifudex_evals::drops::points`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalAt {
    /// The position after this many moves.
    pub ply: u32,
    /// The least value taken (none: no least).
    pub low: Option<i32>,
    /// The greatest value taken.
    pub high: Option<i32>,
}

/// `yes` or `no` (`true`/`false`, `1`/`0`, はい/いいえ).
pub(super) fn yes_no(v: &str) -> Result<bool, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "yes" | "y" | "true" | "1" | "はい" => Ok(true),
        "no" | "n" | "false" | "0" | "いいえ" => Ok(false),
        _ => Err(": give yes or no".to_string()),
    }
}

/// A swing's size: a whole number of the evaluations' units.
pub(super) fn swing_value(v: &str) -> Result<i32, String> {
    v.trim()
        .parse::<u32>()
        .ok()
        .and_then(|n| i32::try_from(n).ok())
        .ok_or_else(|| " is no size of swing: give a whole number, as 500".to_string())
}

/// `PLY:LOW..HIGH`, either bound left out at will (`40:..-300`, `60:1000..`).
pub(super) fn eval_at_value(v: &str) -> Result<EvalAt, String> {
    let bad = || {
        " is no ply and range: give PLY:LOW..HIGH, as 40:-300..300 (a bound may be left out)"
            .to_string()
    };
    let (ply, range) = v.trim().split_once(':').ok_or_else(bad)?;
    let ply: u32 = ply.trim().parse().map_err(|_| bad())?;
    let (low, high) = range.split_once("..").ok_or_else(bad)?;
    let bound = |s: &str| -> Result<Option<i32>, String> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(None);
        }
        let s = s.strip_prefix('+').unwrap_or(s);
        s.parse::<i32>().map(Some).map_err(|_| bad())
    };
    let (low, high) = (bound(low)?, bound(high)?);
    if let (Some(l), Some(h)) = (low, high)
        && l > h
    {
        return Err(format!(": the range is empty ({l} is above {h})"));
    }
    Ok(EvalAt { ply, low, high })
}

impl GameFilter {
    /// The store's conditions of the fields about evaluations.
    pub(super) fn eval_conds(&self, conds: &mut Vec<Cond>) {
        if let Some(yes) = self.evaluated {
            conds.push(Cond::Evaluated(yes));
        }
        if let Some(n) = self.swing {
            conds.push(Cond::Swing(n));
        }
        if let Some(at) = self.eval_at {
            conds.push(Cond::EvalAt {
                ply: at.ply,
                low: at.low,
                high: at.high,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_with_either_bound_left_out() {
        let at = |v| eval_at_value(v);
        let r = |ply, low, high| Ok(EvalAt { ply, low, high });
        assert_eq!(at("40:-300..300"), r(40, Some(-300), Some(300)));
        assert_eq!(at(" 60 : +1000.. "), r(60, Some(1000), None));
        assert_eq!(at("0:..-50"), r(0, None, Some(-50)));
        assert_eq!(at("7:.."), r(7, None, None));
        assert!(at("40:300..-300").unwrap_err().contains("empty"));
        for bad in ["40", "40:300", "-1:0..1", "x:1..2", "40:a..b", ""] {
            assert!(at(bad).is_err(), "{bad}");
        }
        assert_eq!(swing_value("500"), Ok(500));
        assert!(swing_value("-5").is_err());
        assert_eq!(yes_no("No"), Ok(false));
    }
}
