//! The rows a book is counted from: one a position of a game that has a move from it, keyed
//! by the position's SFEN without its move number (the order the book is written in).
//!
//! Positions a game reaches within the book's first `max_ply` moves all give rows; a
//! position reached later gives one only when some game reaches it early enough to be in
//! the book (its count takes in the games that reach it late too). The early rows are
//! gathered first, the hashes of their positions going into a Bloom filter; then the games
//! are replayed to the end, and a later position gives a row when the filter may hold it (a
//! false positive costs a row whose position the tally leaves out).

use std::sync::Mutex;

use super::{BookOptions, key};
use crate::export::ExportError;
use crate::sort::{BatchBuilder, Buffers, RangeBatch, Splitters};
use crate::store::{GameLine, Store};
use kifudex_shogi::{Color, HashWalk, Position};

/// Bytes of a row after its key: game and ply (big-endian, the order of a key's rows), the
/// move, the reply, the result and the move number.
pub(super) const TAIL: usize = 4 + 4 + 2 + 2 + 1 + 4;

/// One position of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Row {
    /// The game's place in the selection.
    pub game: u32,
    /// The ply, shifted left once; the low bit is set when gote is to move.
    pub ply: u32,
    /// The move played from the position ([`kifudex_shogi::Move::to_u16`]).
    pub next: u16,
    /// The move played after it, 0 at the end of the game.
    pub reply: u16,
    /// 0 unknown, 1 sente won, 2 gote won, 3 draw.
    pub result: u8,
    /// The position's move number, as its SFEN gives it.
    pub number: u32,
}

impl Row {
    pub(super) fn encode(&self) -> [u8; TAIL] {
        let mut b = [0u8; TAIL];
        b[0..4].copy_from_slice(&self.game.to_be_bytes());
        b[4..8].copy_from_slice(&self.ply.to_be_bytes());
        b[8..10].copy_from_slice(&self.next.to_le_bytes());
        b[10..12].copy_from_slice(&self.reply.to_le_bytes());
        b[12] = self.result;
        b[13..17].copy_from_slice(&self.number.to_le_bytes());
        b
    }

    pub(super) fn decode(b: &[u8]) -> Row {
        Row {
            game: u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            ply: u32::from_be_bytes([b[4], b[5], b[6], b[7]]),
            next: u16::from_le_bytes([b[8], b[9]]),
            reply: u16::from_le_bytes([b[10], b[11]]),
            result: b[12],
            number: u32::from_le_bytes([b[13], b[14], b[15], b[16]]),
        }
    }
}

/// A Bloom filter of position hashes: each hash sets four bits of one 512-bit block (one
/// cache line).
pub(super) struct Seen {
    words: Vec<u64>,
    blocks: u64,
}

impl Seen {
    /// A filter of about `bytes` bytes (at least one block).
    pub(super) fn with_bytes(bytes: usize) -> Seen {
        let blocks = (bytes / 64).max(1);
        Seen {
            words: vec![0; blocks * 8],
            blocks: blocks as u64,
        }
    }

    /// The four bits of `hash`: word and bit.
    #[inline]
    fn bits(&self, hash: u64) -> [(usize, u64); 4] {
        // The hash is a Zobrist key: its bits are already well mixed. The block comes from
        // the high bits, the four bits within it from the low 36.
        let block = ((u128::from(hash) * u128::from(self.blocks)) >> 64) as usize;
        std::array::from_fn(|i| {
            let bit = (hash >> (9 * i)) & 511;
            (block * 8 + (bit >> 6) as usize, 1u64 << (bit & 63))
        })
    }

    pub(super) fn insert(&mut self, hash: u64) {
        for (w, bit) in self.bits(hash) {
            self.words[w] |= bit;
        }
    }

    /// Reads the block of each hash, so that their cache misses overlap (the loads do not
    /// wait on one another), before [`Seen::may_hold`] tests them one by one.
    pub(super) fn touch(&self, hashes: impl Iterator<Item = u64>) {
        let mut any = 0;
        for h in hashes {
            any ^= self.words[self.bits(h)[0].0];
        }
        std::hint::black_box(any);
    }

    /// Whether `hash` may have been inserted.
    #[inline]
    pub(super) fn may_hold(&self, hash: u64) -> bool {
        self.bits(hash)
            .iter()
            .fold(true, |all, &(w, bit)| all & (self.words[w] & bit != 0))
    }
}

/// The game `id` from the store, with its result as a row holds it.
fn line_of(store: &Store, id: i64) -> Result<(GameLine, u8), ExportError> {
    let line = store.game_line(id)?.ok_or(ExportError::Missing(id))?;
    let result = match line.winner.as_deref() {
        Some("sente") => 1,
        Some("gote") => 2,
        Some("draw") => 3,
        _ => 0,
    };
    Ok((line, result))
}

/// Whether the options keep positions with `side` to move.
fn side_kept(opts: &BookOptions, side: Color) -> bool {
    opts.side.is_none_or(|s| s == side)
}

/// The row of `line`'s position `pos` before its move `ply`.
fn row_at(line: &GameLine, game: u32, ply: usize, pos: &Position, result: u8) -> Row {
    Row {
        game,
        ply: (ply as u32) << 1 | u32::from(pos.side_to_move() == Color::White),
        next: line.moves[ply].to_u16(),
        reply: line.moves.get(ply + 1).map_or(0, |m| m.to_u16()),
        result,
        number: pos.move_number(),
    }
}

fn play(pos: &mut Position, line: &GameLine, id: i64, ply: usize) -> Result<(), ExportError> {
    pos.play_quietly(line.moves[ply])
        .map_err(|e| ExportError::BadMove(id, ply + 1, e.to_string()))
}

/// Scratch space for a key.
#[derive(Default)]
struct KeyText {
    key: Vec<u8>,
}

impl KeyText {
    /// The key of `pos` in the book's order ([`key::position_key`]).
    fn of(&mut self, pos: &Position) -> &[u8] {
        self.key.clear();
        key::position_key(pos, &mut self.key);
        &self.key
    }
}

/// The keys of the early rows of the games `ids` (a sample, for the splitters), with their
/// repeats.
pub(super) fn sample_keys(
    store: &Store,
    ids: &[i64],
    opts: &BookOptions,
) -> Result<Vec<Vec<u8>>, ExportError> {
    let mut keys = Vec::new();
    for &id in ids {
        let (line, _) = line_of(store, id)?;
        let mut pos = line.start.clone();
        for ply in 0..line.moves.len().min(opts.max_ply as usize) {
            if side_kept(opts, pos.side_to_move()) {
                keys.push(KeyText::default().of(&pos).to_vec());
            }
            play(&mut pos, &line, id, ply)?;
        }
    }
    Ok(keys)
}

/// Hash buffers handed back by the driver for the workers' next batches (memory freed goes
/// back to the system at once: taking it again costs page faults).
#[derive(Default)]
pub(super) struct SpareHashes(Mutex<Vec<Vec<u64>>>);

impl SpareHashes {
    fn get(&self) -> Vec<u64> {
        self.0
            .lock()
            .ok()
            .and_then(|mut s| s.pop())
            .unwrap_or_default()
    }

    pub(super) fn put(&self, mut hashes: Vec<u64>) {
        hashes.clear();
        if let Ok(mut s) = self.0.lock()
            && s.len() < 64
        {
            s.push(hashes);
        }
    }
}

/// The key and bucket of a position met lately (the first plies of the games of a
/// collection are much the same): a worker's table of them, one slot a hash's top bits.
#[derive(Clone, Copy)]
struct Recent {
    hash: u64,
    bucket: usize,
    len: u8,
    key: [u8; 48],
}

impl Default for Recent {
    fn default() -> Recent {
        Recent {
            hash: 0,
            bucket: 0,
            len: 0,
            key: [0; 48],
        }
    }
}

/// Slots of a worker's [`Recent`] table: 2^RECENT_BITS.
const RECENT_BITS: u32 = 14;
/// Positions this early in a game go through the [`Recent`] table (later ones are mostly
/// met once).
const RECENT_PLIES: usize = 16;

thread_local! {
    static RECENT: std::cell::RefCell<Vec<Recent>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What [`early_rows`] gives for a batch of games: their number, their rows, and the hashes
/// of the positions of those rows.
pub(super) type Early = (usize, RangeBatch, Vec<u64>);

/// The rows of the positions the games `chunk` (the first of which is the selection's
/// `first`) reach within `max_ply` moves.
pub(super) fn early_rows(
    store: &Store,
    first: usize,
    chunk: &[i64],
    opts: &BookOptions,
    (splitters, buffers): (&Splitters, &Buffers),
    spare: &SpareHashes,
) -> Result<Early, ExportError> {
    let mut batch = BatchBuilder::new(splitters, buffers);
    let mut hashes = spare.get();
    let mut writer = key::KeyWriter::default();
    let mut key = Vec::with_capacity(160);
    let mut recent = RECENT.with_borrow_mut(std::mem::take);
    if recent.is_empty() {
        recent = vec![Recent::default(); 1 << RECENT_BITS];
    }
    for (i, &id) in chunk.iter().enumerate() {
        let (line, result) = line_of(store, id)?;
        let mut pos = line.start.clone();
        writer.restart();
        for ply in 0..line.moves.len().min(opts.max_ply as usize) {
            if side_kept(opts, pos.side_to_move()) {
                let row = row_at(&line, (first + i) as u32, ply, &pos, result);
                let hash = pos.hash();
                let slot = &mut recent[(hash >> (64 - RECENT_BITS)) as usize];
                if ply < RECENT_PLIES && slot.hash == hash && slot.len > 0 {
                    batch.push_to(slot.bucket, &slot.key[..slot.len as usize], &row.encode());
                } else {
                    key.clear();
                    writer.key(&pos, &mut key);
                    let bucket = splitters.bucket(&key);
                    batch.push_to(bucket, &key, &row.encode());
                    if ply < RECENT_PLIES && key.len() <= slot.key.len() {
                        slot.hash = hash;
                        slot.bucket = bucket;
                        slot.len = key.len() as u8;
                        slot.key[..key.len()].copy_from_slice(&key);
                    }
                }
                hashes.push(hash);
            }
            play(&mut pos, &line, id, ply)?;
            writer.moved(line.moves[ply]);
        }
    }
    RECENT.set(recent);
    Ok((chunk.len(), batch.finish(), hashes))
}

/// The rows of the positions the games `chunk` reach after `max_ply` moves that `seen` may
/// hold (every move of these games is played: one that cannot be is an error, as in the
/// first `max_ply`).
pub(super) fn late_rows(
    store: &Store,
    first: usize,
    chunk: &[i64],
    opts: &BookOptions,
    (splitters, buffers): (&Splitters, &Buffers),
    seen: &Seen,
) -> Result<RangeBatch, ExportError> {
    let mut batch = BatchBuilder::new(splitters, buffers);
    let mut scratch = KeyText::default();
    let max_ply = opts.max_ply as usize;
    let mut hashes: Vec<(usize, u64)> = Vec::new();
    let mut hits: Vec<usize> = Vec::new();
    for (i, &id) in chunk.iter().enumerate() {
        let (line, result) = line_of(store, id)?;
        if line.moves.len() <= max_ply {
            continue;
        }
        // The game's hashes first, then the filter's tests all at once (their cache misses
        // overlap), then the positions it may hold again for their SFENs.
        hashes.clear();
        let mut walk = HashWalk::of(&line.start);
        for (ply, &mv) in line.moves.iter().enumerate() {
            if ply >= max_ply && side_kept(opts, walk.side_to_move()) {
                hashes.push((ply, walk.hash()));
            }
            walk.play_quietly(mv)
                .map_err(|e| ExportError::BadMove(id, ply + 1, e.to_string()))?;
        }
        seen.touch(hashes.iter().map(|&(_, h)| h));
        hits.clear();
        hits.extend(
            hashes
                .iter()
                .filter(|&&(_, h)| seen.may_hold(h))
                .map(|&(ply, _)| ply),
        );
        if hits.is_empty() {
            continue;
        }
        let mut pos = line.start.clone();
        let mut ply = 0;
        for &hit in &hits {
            while ply < hit {
                play(&mut pos, &line, id, ply)?;
                ply += 1;
            }
            let key = scratch.of(&pos);
            let row = row_at(&line, (first + i) as u32, ply, &pos, result);
            batch.push(key, &row.encode());
        }
    }
    Ok(batch.finish())
}
