//! The compact columns of a game, and the varints they and the position blocks use.
//!
//! `moves`: 2 bytes little-endian per main-line move ([`Move::to_u16`]).
//! `times`: a flags byte, then per move the time spent in milliseconds + 1 as a LEB128
//! varint (0: no time); with flag [`TOTALS`], each followed by the mover's total in
//! milliseconds + 1; with flag [`TERMINAL`], one more entry for the terminal. Without
//! [`TOTALS`], totals are the running sum of each side's times (flag [`RUNNING`]) or absent.
//! With flag [`SECONDS`] (every time a whole number of seconds), the unit is the second.

use kifudex_notation::{Line, MoveNode, MoveTime};
use kifudex_shogi::Move;

const TOTALS: u8 = 1;
const TERMINAL: u8 = 2;
const RUNNING: u8 = 4;
const SECONDS: u8 = 8;

pub(super) fn encode_moves(moves: &[MoveNode]) -> Vec<u8> {
    let mut out = Vec::with_capacity(moves.len() * 2);
    for node in moves {
        out.extend_from_slice(&node.mv.to_u16().to_le_bytes());
    }
    out
}

/// The moves of a stored `moves` blob.
pub(in crate::store) fn decode_moves(blob: &[u8]) -> Option<Vec<Move>> {
    if !blob.len().is_multiple_of(2) {
        return None;
    }
    // A loop into a vector of the right size: collecting into an Option took three times
    // the instructions.
    let mut moves = Vec::with_capacity(blob.len() / 2);
    for c in blob.chunks_exact(2) {
        moves.push(Move::from_u16(u16::from_le_bytes([c[0], c[1]]))?);
    }
    Some(moves)
}

/// The longest time stored, in milliseconds (about 285,000 years): sums and `+ 1` of the
/// encodings stay far from overflowing whatever a record claims.
const MAX_MS: u64 = 1 << 53;

/// Whole milliseconds, rounded half away from zero; 0 for negatives and NaN, at most
/// [`MAX_MS`]. (`f64::round` is a library call on x86-64 without SSE4.1; this is not.)
pub(in crate::store) fn ms(seconds: f64) -> u64 {
    let x = seconds * 1000.0;
    let whole = x as u64;
    // Exact: a double minus its own truncation loses nothing.
    let rounded = if x - whole as f64 >= 0.5 {
        whole.saturating_add(1)
    } else {
        whole
    };
    rounded.min(MAX_MS)
}

pub(super) fn encode_times(line: &Line) -> Option<Vec<u8>> {
    let terminal = line.terminal.as_ref().and_then(|t| t.time);
    if terminal.is_none() && line.moves.iter().all(|m| m.time.is_none()) {
        return None;
    }
    // Milliseconds spent and total, converted once.
    let times: Vec<Option<(u64, Option<u64>)>> = line
        .moves
        .iter()
        .map(|m| m.time)
        .chain(terminal.map(Some))
        .map(|t| t.map(|t| (ms(t.spent), t.total.map(ms))))
        .collect();
    let has_totals = times.iter().flatten().any(|t| t.1.is_some());
    let running = has_totals && totals_are_running(&times);
    let mut flags = 0;
    if has_totals && !running {
        flags |= TOTALS;
    }
    if running {
        flags |= RUNNING;
    }
    if terminal.is_some() {
        flags |= TERMINAL;
    }
    let whole = |ms: u64| ms.is_multiple_of(1000);
    let unit = if times
        .iter()
        .flatten()
        .all(|t| whole(t.0) && (flags & TOTALS == 0 || t.1.is_none_or(whole)))
    {
        flags |= SECONDS;
        1000
    } else {
        1
    };
    let mut out = Vec::with_capacity(times.len() + 1);
    out.push(flags);
    for t in &times {
        put_varint(&mut out, t.map_or(0, |t| t.0 / unit + 1));
        if flags & TOTALS != 0 {
            put_varint(&mut out, t.and_then(|t| t.1).map_or(0, |ms| ms / unit + 1));
        }
    }
    Some(out)
}

/// Are the totals, on every move that has a time, each side's running sum?
fn totals_are_running(times: &[Option<(u64, Option<u64>)>]) -> bool {
    let mut sums = [0u64; 2];
    for (i, t) in times.iter().enumerate() {
        let Some((spent, total)) = t else {
            return false;
        };
        sums[i % 2] += spent;
        if *total != Some(sums[i % 2]) {
            return false;
        }
    }
    true
}

/// An unsigned LEB128 varint (also used by the position blocks).
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub(crate) fn get_varint(bytes: &mut &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let (&b, rest) = bytes.split_first()?;
        *bytes = rest;
        v |= ((b & 0x7F) as u64) << shift;
        if b < 0x80 {
            return Some(v);
        }
    }
    None
}

/// Times of `count` moves (and the terminal's, when stored).
pub(super) fn decode_times(
    blob: &[u8],
    count: usize,
) -> Option<(Vec<Option<MoveTime>>, Option<MoveTime>)> {
    let (&flags, mut rest) = blob.split_first()?;
    let unit = if flags & SECONDS != 0 { 1.0 } else { 1000.0 };
    let entries = count + usize::from(flags & TERMINAL != 0);
    let mut out = Vec::with_capacity(entries);
    let mut sums = [0u64; 2];
    for i in 0..entries {
        let spent = get_varint(&mut rest)?;
        let total = if flags & TOTALS != 0 {
            get_varint(&mut rest)?
        } else {
            0
        };
        if spent == 0 {
            out.push(None);
            continue;
        }
        sums[i % 2] = sums[i % 2].checked_add(spent - 1)?;
        let total = if flags & TOTALS != 0 {
            total.checked_sub(1).map(|t| t as f64 / unit)
        } else if flags & RUNNING != 0 {
            Some(sums[i % 2] as f64 / unit)
        } else {
            None
        };
        out.push(Some(MoveTime {
            spent: (spent - 1) as f64 / unit,
            total,
        }));
    }
    if !rest.is_empty() {
        return None;
    }
    let terminal = if flags & TERMINAL != 0 {
        out.pop().flatten()
    } else {
        None
    };
    Some((out, terminal))
}
