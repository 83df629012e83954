//! What an engine analysis keeps of each position beside its evaluation (the `details`
//! column of `engine_evals`), one record a position in ply order:
//!
//! ```text
//! best   2 bytes, little-endian: the best move's code (Move::to_u16), or NONE, RESIGN, WIN
//! nodes  LEB128 varint: the nodes searched (0: not reported)
//! pv     1 byte: bits 0–6 the PV moves that follow, bit 7 set when the PV starts with the
//!        best move (which is then not written again); then 2 bytes a move
//! ```
//!
//! Up to [`PV_START`] moves of the principal variation are kept: about 12 bytes a position
//! at `go nodes 100000` (a 3-byte node count, the best move and three more PV moves).

use super::super::codec::{get_varint, put_varint};
use kifudex_evals::engine::BestMove;
use kifudex_shogi::Move;

/// The moves of the principal variation kept, its first included.
pub const PV_START: usize = 4;

const NONE: u16 = 0xFFFF;
const RESIGN: u16 = 0xFFFE;
const WIN: u16 = 0xFFFD;
const STARTS_WITH_BEST: u8 = 0x80;

/// What an analysis kept of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionDetail {
    /// The engine's choice; `None` when it gave no answer (it failed there, and the run went
    /// on).
    pub best: Option<BestMove>,
    pub nodes: Option<u64>,
    /// The start of the principal variation (at most [`PV_START`] moves).
    pub pv: Vec<Move>,
}

/// Appends one position's record.
pub fn put(out: &mut Vec<u8>, d: &PositionDetail) {
    let best = match d.best {
        None => NONE,
        Some(BestMove::Resign) => RESIGN,
        Some(BestMove::Win) => WIN,
        Some(BestMove::Move(m)) => m.to_u16(),
    };
    out.extend_from_slice(&best.to_le_bytes());
    put_varint(out, d.nodes.unwrap_or(0));
    let pv = &d.pv[..d.pv.len().min(PV_START)];
    let (flag, rest) = match (pv.first(), d.best) {
        (Some(&first), Some(BestMove::Move(b))) if first == b => (STARTS_WITH_BEST, &pv[1..]),
        _ => (0, pv),
    };
    out.push(flag | rest.len() as u8);
    for m in rest {
        out.extend_from_slice(&m.to_u16().to_le_bytes());
    }
}

/// The records of `bytes`, in order; `None` when they are malformed.
pub fn decode(mut bytes: &[u8]) -> Option<Vec<PositionDetail>> {
    let mut out = Vec::new();
    let take_u16 = |b: &mut &[u8]| -> Option<u16> {
        let (v, rest) = b.split_first_chunk::<2>()?;
        *b = rest;
        Some(u16::from_le_bytes(*v))
    };
    while !bytes.is_empty() {
        let code = take_u16(&mut bytes)?;
        let best = match code {
            NONE => None,
            RESIGN => Some(BestMove::Resign),
            WIN => Some(BestMove::Win),
            c => Some(BestMove::Move(Move::from_u16(c)?)),
        };
        let nodes = get_varint(&mut bytes)?;
        let (&head, rest) = bytes.split_first()?;
        bytes = rest;
        let mut pv = Vec::new();
        if head & STARTS_WITH_BEST != 0 {
            match best {
                Some(BestMove::Move(m)) => pv.push(m),
                _ => return None,
            }
        }
        for _ in 0..head & !STARTS_WITH_BEST {
            pv.push(Move::from_u16(take_u16(&mut bytes)?)?);
        }
        out.push(PositionDetail {
            best,
            nodes: (nodes > 0).then_some(nodes),
            pv,
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let m = |s: &str| Move::from_usi(s).unwrap();
        let all = vec![
            PositionDetail {
                best: Some(BestMove::Move(m("7g7f"))),
                nodes: Some(100_123),
                pv: vec![m("7g7f"), m("3c3d"), m("2g2f"), m("8c8d"), m("6i7h")],
            },
            PositionDetail {
                best: Some(BestMove::Move(m("P*5e"))),
                nodes: None,
                pv: vec![m("2g2f")],
            },
            PositionDetail {
                best: Some(BestMove::Resign),
                nodes: Some(1),
                pv: vec![],
            },
            PositionDetail {
                best: None,
                nodes: None,
                pv: vec![],
            },
        ];
        let mut bytes = Vec::new();
        for d in &all {
            put(&mut bytes, d);
        }
        // 2 + 3 + 1 + 6, 2 + 1 + 1 + 2, 2 + 1 + 1, 2 + 1 + 1.
        assert_eq!(bytes.len(), 12 + 6 + 4 + 4);
        let mut want = all.clone();
        want[0].pv.truncate(PV_START);
        assert_eq!(decode(&bytes), Some(want));
        assert_eq!(decode(&bytes[..bytes.len() - 1]), None);
    }
}
