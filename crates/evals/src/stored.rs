//! The stored form of a game's evaluations: one little-endian 32-bit word per evaluated ply,
//! in ply order, nothing for a game without evaluations.
//!
//! ```text
//! bits  0–15  payload: the value (i16), or a mate's distance (bits 0–14) and winner (bit 15)
//! bits 16–17  kind: 0 value, 1 value written beyond ±32767 (payload ±32767 or -32768),
//!             2 mate in `distance` plies, 3 mate of unknown distance (distance 0)
//! bits 18–23  depth: 0 unknown, 1–63 (63: 63 or deeper)
//! bits 24–26  source (`Source::index`); 7 marks a skip word
//! bit  27     analysis (see `Eval::analysis`)
//! bits 28–31  gap: plies without an evaluation between the previous word's ply and this one
//!             (the first word's gap counts from ply 0)
//! ```
//!
//! A gap of 16 plies or more is written as a skip word before the evaluation's word: source
//! 7, the plies to skip in bits 0–23, every other bit 0. Evaluations less than 16 plies apart
//! (every dialect writes one a move, or one every other move) cost exactly 4 bytes each.
//! What is not kept: the variation, the nodes, a value's digits beyond ±32767 (flagged), a
//! depth beyond 63 (saturated).

use super::{Eval, Score, Source};
use kifudex_shogi::Color;

/// The deepest depth the stored form tells apart.
pub const MAX_DEPTH: u32 = 63;

const KIND_VALUE: u32 = 0;
const KIND_CLAMPED: u32 = 1;
const KIND_MATE: u32 = 2;
const KIND_MATE_UNKNOWN: u32 = 3;
const SKIP: u32 = 7;
const MAX_GAP: usize = 15;
const MAX_SKIP: usize = (1 << 24) - 1;

/// An evaluation as the stored form gives it back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StoredEval {
    pub ply: usize,
    pub score: Score,
    /// The value was written beyond ±32767 and is stored as the nearest end of that range.
    pub clamped: bool,
    /// The depth, at most [`MAX_DEPTH`].
    pub depth: Option<u32>,
    pub source: Source,
    pub analysis: bool,
}

impl StoredEval {
    /// What the stored form keeps of `eval`.
    pub fn of(eval: &Eval<'_>) -> StoredEval {
        StoredEval::new(eval.ply, eval.score, eval.depth, eval.source, eval.analysis)
    }

    /// What the stored form keeps of a score at `ply`, from `source` (an engine's answer).
    pub fn new(
        ply: usize,
        score: Score,
        depth: Option<u32>,
        source: Source,
        analysis: bool,
    ) -> StoredEval {
        let (score, clamped) = match score {
            Score::Value(v) => {
                let c = v.clamp(i32::from(i16::MIN), i32::from(i16::MAX));
                (Score::Value(c), c != v)
            }
            Score::Mate { winner, plies } => (
                Score::Mate {
                    winner,
                    plies: plies.map(|p| p.min(0x7fff)),
                },
                false,
            ),
        };
        StoredEval {
            ply,
            score,
            clamped,
            depth: depth.filter(|&d| d > 0).map(|d| d.min(MAX_DEPTH)),
            source,
            analysis,
        }
    }

    fn word(&self, gap: usize) -> u32 {
        let (kind, payload) = match self.score {
            Score::Value(v) => {
                let kind = if self.clamped {
                    KIND_CLAMPED
                } else {
                    KIND_VALUE
                };
                (kind, u32::from(v as i16 as u16))
            }
            Score::Mate { winner, plies } => {
                let side = u32::from(winner == Color::White) << 15;
                match plies {
                    Some(p) => (KIND_MATE, side | p.min(0x7fff)),
                    None => (KIND_MATE_UNKNOWN, side),
                }
            }
        };
        payload
            | kind << 16
            | self.depth.unwrap_or(0).min(MAX_DEPTH) << 18
            | u32::from(self.source.index()) << 24
            | u32::from(self.analysis) << 27
            | (gap as u32) << 28
    }
}

/// Why stored bytes are no evaluations.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoredError {
    #[error("{0} bytes of stored evaluations: not a whole number of 4-byte words")]
    Length(usize),
    #[error("stored evaluation word {index} ({word:#010x}) is malformed: {why}")]
    Word {
        index: usize,
        word: u32,
        why: &'static str,
    },
    #[error("the evaluations are not in strictly increasing ply order (ply {ply} after {after})")]
    Order { ply: usize, after: usize },
}

/// The stored form of `evals`, which must be in strictly increasing ply order (as
/// [`super::read`] gives them). Empty for no evaluations.
pub fn encode(evals: &[Eval<'_>]) -> Result<Vec<u8>, StoredError> {
    let stored: Vec<StoredEval> = evals.iter().map(StoredEval::of).collect();
    encode_stored(&stored)
}

/// [`encode`] for evaluations already in their stored shape.
pub fn encode_stored(evals: &[StoredEval]) -> Result<Vec<u8>, StoredError> {
    let mut out = Vec::with_capacity(evals.len() * 4);
    let mut next = 0usize;
    for (i, e) in evals.iter().enumerate() {
        if e.ply < next {
            return Err(StoredError::Order {
                ply: e.ply,
                after: evals[i - 1].ply,
            });
        }
        let mut gap = e.ply - next;
        while gap > MAX_GAP {
            let skip = gap.min(MAX_SKIP);
            out.extend_from_slice(&((skip as u32) | SKIP << 24).to_le_bytes());
            gap -= skip;
        }
        out.extend_from_slice(&e.word(gap).to_le_bytes());
        next = e.ply + 1;
    }
    Ok(out)
}

/// The evaluations stored in `bytes`.
pub fn decode(bytes: &[u8]) -> Result<Vec<StoredEval>, StoredError> {
    let mut out = Vec::with_capacity(bytes.len() / 4);
    decode_into(bytes, &mut out)?;
    Ok(out)
}

/// [`decode`] into `out` (cleared first): a scan over many games reuses one vector.
pub fn decode_into(bytes: &[u8], out: &mut Vec<StoredEval>) -> Result<(), StoredError> {
    out.clear();
    if !bytes.len().is_multiple_of(4) {
        return Err(StoredError::Length(bytes.len()));
    }
    let mut next = 0usize;
    for (index, chunk) in bytes.chunks_exact(4).enumerate() {
        let word = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        let bad = |why| StoredError::Word { index, word, why };
        let source = (word >> 24) & 7;
        if source == SKIP {
            if word >> 27 != 0 || word & 0xff_ffff == 0 {
                return Err(bad("a skip word with other bits set, or skipping nothing"));
            }
            next += (word & 0xff_ffff) as usize;
            continue;
        }
        let payload = word & 0xffff;
        let score = match (word >> 16) & 3 {
            KIND_VALUE => Score::Value(i32::from(payload as u16 as i16)),
            KIND_CLAMPED => {
                let v = i32::from(payload as u16 as i16);
                if v != i32::from(i16::MAX) && v != i32::from(i16::MIN) {
                    return Err(bad("a clamped value inside the range"));
                }
                Score::Value(v)
            }
            kind => {
                let winner = if payload & 0x8000 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let plies = payload & 0x7fff;
                if kind == KIND_MATE_UNKNOWN && plies != 0 {
                    return Err(bad("a mate of unknown distance with a distance"));
                }
                Score::Mate {
                    winner,
                    plies: (kind == KIND_MATE).then_some(plies),
                }
            }
        };
        let depth = (word >> 18) & 0x3f;
        let ply = next + (word >> 28) as usize;
        out.push(StoredEval {
            ply,
            score,
            clamped: (word >> 16) & 3 == KIND_CLAMPED,
            depth: (depth != 0).then_some(depth),
            source: Source::from_index(source as u8).ok_or_else(|| bad("no such source"))?,
            analysis: word & 1 << 27 != 0,
        });
        next = ply + 1;
    }
    Ok(())
}
