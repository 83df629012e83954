//! The position index: for every position of every game, a posting (position key, game,
//! hand signature, move played next), kept as sorted runs ("segments") of bit-packed blocks
//! inside the SQLite file (GUIDE §4).
//!
//! * The key is the top [`KEY_BITS`] bits of the board hash (board and side to move), so one
//!   lookup serves searches with and without hands. Keys this short can collide, and hands
//!   are not in them: candidates are verified by replay (position, hands and all) before they
//!   are shown.
//! * An import gathers postings in memory (in buckets by key, [`Batch`]) and writes them as
//!   one segment when [`SEGMENT_ENTRIES`] have gathered and at its end. A full batch is
//!   sorted and cut beside the writer and written by one of its later transactions; the end
//!   of an import merges the small segments, and `kifudex optimize` merges them all. Like the
//!   text index, the postings follow the games: games committed by an import that stopped
//!   before writing their segment have ids above [`covered_through`], and the next writer
//!   replays them from their rows (`Writer::index_missing`). One sorted pass over a whole
//!   import costs far less than a segment per commit merged at the end (35 µs a game on the
//!   writer thread at 100,000 games).
//! * A segment also keeps, per game, the result and the date, so that trees and newest-first
//!   orders need no game rows.
//! * Games deleted later (a changed file re-imported) are listed in `removed_games` until a
//!   merge drops their entries.

pub mod block;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::rc::Rc;

use rayon::iter::{IndexedParallelIterator, ParallelIterator};
use rayon::slice::ParallelSlice;
use rusqlite::{Connection, OptionalExtension, params};

use super::{GameSet, Store, StoreError};
use crate::shogi::{Move, Position};
use block::{BLOCK_BYTES, Block};
pub use block::{Entry, code_move, move_code};

/// Bits of the board hash a key keeps: at 100 million postings a key delta takes about 10
/// bits, and a position not in the index shares its key with an indexed one about once in
/// 700 lookups (a candidate the replay then refuses).
pub const KEY_BITS: u32 = 36;

/// The `meta` key set once an import indexed variations (their games are then replayed
/// whole when verified).
pub const VARIATIONS_META: &str = "variation_positions";

/// The format of the postings (blocks, keys, signatures); recorded in `meta`.
pub const POSTINGS_VERSION: u32 = 1;

/// The key of a position: the top [`KEY_BITS`] bits of its board hash.
#[inline]
pub fn key_of(board_hash: u64) -> u64 {
    board_hash >> (64 - KEY_BITS)
}

/// A posting as the readers produce it, before the game has an id:
/// key << 24 | [`move_code`] + 1 of the move played next (0: none).
#[inline]
pub fn pack(pos: &Position, next: Option<Move>) -> u64 {
    pack_hash(pos.board_hash(), next)
}

/// [`pack`] of a position's board hash.
#[inline]
pub fn pack_hash(board_hash: u64, next: Option<Move>) -> u64 {
    key_of(board_hash) << 24 | next.map_or(0, |m| move_code(m) as u64 + 1)
}

/// Results as segments store them (one byte per game).
pub const RESULT_UNKNOWN: u8 = 0;
pub const RESULT_SENTE: u8 = 1;
pub const RESULT_GOTE: u8 = 2;
pub const RESULT_DRAW: u8 = 3;

/// The result byte of a `winner` column value.
pub fn result_code(winner: Option<&str>) -> u8 {
    match winner {
        Some("sente") => RESULT_SENTE,
        Some("gote") => RESULT_GOTE,
        Some("draw") => RESULT_DRAW,
        _ => RESULT_UNKNOWN,
    }
}

/// A date (YYYY, YYYY-MM or YYYY-MM-DD) as a sortable number YYYYMMDD (0: none).
pub fn date_code(date: Option<&str>) -> u32 {
    let Some(d) = date else { return 0 };
    let mut code = 0u32;
    let mut n = 0;
    for b in d.bytes().filter(u8::is_ascii_digit).take(8) {
        code = code * 10 + (b - b'0') as u32;
        n += 1;
    }
    // Missing month and day count as zeros.
    code * 10u32.pow(8 - n)
}

/// The date of a [`date_code`], as YYYY[-MM[-DD]].
pub fn date_text(code: u32) -> Option<String> {
    if code == 0 {
        return None;
    }
    let (y, m, d) = (code / 10000, code / 100 % 100, code % 100);
    Some(match (m, d) {
        (0, _) => format!("{y:04}"),
        (_, 0) => format!("{y:04}-{m:02}"),
        _ => format!("{y:04}-{m:02}-{d:02}"),
    })
}

/// A posting waiting in a [`Batch`]: key << 24 | game − first game, and the next move's code.
/// Packed into 10 bytes: a batch holds up to [`SEGMENT_ENTRIES`] of them.
#[derive(Debug, Clone, Copy)]
#[repr(C, packed(2))]
struct Pending {
    key_game: u64,
    next: u16,
}

/// Buckets at least this long are sorted by radix, shorter ones by comparison.
const RADIX_MIN: usize = 768;

/// Sorts a bucket's postings by key, then game. They arrive in game order (the order games
/// are added), so a stable sort by the key bits the bucket leaves free does it: three
/// counting passes over 28 bits, where a comparison sort of the 2,900 entries a bucket holds
/// at 100,000 games compares each about 12 times. Postings of one position repeated in a
/// game stay in ply order.
fn sort_bucket(run: &mut Vec<Pending>, scratch: &mut Vec<Pending>) {
    if run.len() < RADIX_MIN {
        run.sort_by_key(|e| e.key_game);
        return;
    }
    scratch.clear();
    scratch.extend_from_slice(run);
    // The game takes the low 24 bits, the bucket the top BUCKET_BITS.
    const FREE_LOW: u32 = 24;
    const FREE_HIGH: u32 = 64 - BUCKET_BITS;
    let mut shift = FREE_LOW;
    while shift < FREE_HIGH {
        let bits = (FREE_HIGH - shift).min(10);
        let mask = (1u64 << bits) - 1;
        let digit = |e: &Pending| ((e.key_game >> shift) & mask) as usize;
        let mut starts = [0u32; 1 << 10];
        for e in run.iter() {
            starts[digit(e)] += 1;
        }
        let mut sum = 0;
        for c in &mut starts[..1 << bits] {
            (*c, sum) = (sum, sum + *c);
        }
        for e in run.iter() {
            let d = digit(e);
            scratch[starts[d] as usize] = *e;
            starts[d] += 1;
        }
        std::mem::swap(run, scratch);
        shift += bits;
    }
}

/// A batch is written as a segment once it holds this many postings (about 110,000 games):
/// 120 MB while it gathers. Fewer, bigger segments need no merging after an import.
pub const SEGMENT_ENTRIES: usize = 12 << 20;

/// Postings are gathered in buckets by the top bits of their key, so that a segment is
/// sorted bucket by bucket, each in cache, on all cores, and without a pass over the whole
/// batch (sorting it whole took twice as long, and a radix pass at the end ran on one core).
const BUCKET_BITS: u32 = 12;
/// A bucket grows by chunks of this many entries (1.25 KB): at most one partly filled a
/// bucket, instead of the half-empty tail of a doubling `Vec`.
const CHUNK: usize = 128;

/// Postings of the games written since the last segment.
#[derive(Debug, Default)]
pub struct Batch {
    /// Chunks of entries, bucket by bucket (empty until the first game).
    buckets: Vec<Vec<Vec<Pending>>>,
    len: usize,
    first_game: Option<i64>,
    last_game: i64,
    /// (game, result, date code)
    games: Vec<(i64, u8, u32)>,
}

impl Batch {
    /// Adds a game's postings ([`pack`]ed, in ply order).
    pub fn add(&mut self, game: i64, packed: &[u64], result: u8, date: u32) {
        let first = *self.first_game.get_or_insert(game);
        let off = (game - first) as u64;
        debug_assert!(off < 1 << 24, "a batch spans fewer than 2^24 games");
        self.last_game = self.last_game.max(game);
        if self.buckets.is_empty() {
            self.buckets = vec![Vec::new(); 1 << BUCKET_BITS];
        }
        for &p in packed {
            let e = Pending {
                key_game: (p >> 24) << 24 | off,
                next: p as u16,
            };
            let bucket = &mut self.buckets[(p >> (64 - BUCKET_BITS)) as usize];
            match bucket.last_mut() {
                Some(chunk) if chunk.len() < CHUNK => chunk.push(e),
                _ => {
                    let mut chunk = Vec::with_capacity(CHUNK);
                    chunk.push(e);
                    bucket.push(chunk);
                }
            }
        }
        self.len += packed.len();
        self.games.push((game, result, date));
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Whether the batch should be written as a segment now, with segments of `limit`
    /// postings ([`SEGMENT_ENTRIES`] unless a test asks for small ones).
    pub fn is_full(&self, limit: usize) -> bool {
        self.len >= limit || self.games.len() >= 1 << 23
    }
}

/// A segment's per-game columns, indexed by game − first game.
struct GameColumns {
    first: i64,
    results: Vec<u8>,
    dates: Vec<u8>,
}

impl GameColumns {
    fn new(first: i64, last: i64) -> GameColumns {
        let n = (last - first + 1).max(0) as usize;
        GameColumns {
            first,
            results: vec![0; n],
            dates: vec![0; n * 4],
        }
    }

    fn set(&mut self, game: i64, result: u8, date: u32) {
        let i = (game - self.first) as usize;
        self.results[i] = result;
        self.dates[i * 4..i * 4 + 4].copy_from_slice(&date.to_le_bytes());
    }
}

/// A block cut from a run of entries, ready to write.
struct CutBlock {
    first_key: u64,
    entries: usize,
    data: Vec<u8>,
}

/// Cuts a sorted run of entries into blocks, greedily: each holds as many entries as fit
/// in [`BLOCK_BYTES`].
struct Cutter {
    base: i64,
    pending: Vec<Entry>,
    /// The widths the pending entries need.
    widths: [u8; 3],
    /// The largest values of those widths.
    limits: [u64; 3],
    /// How many entries fit in a block at these widths.
    room: usize,
}

/// The largest value of `width` bits.
fn limit(width: u8) -> u64 {
    u64::MAX.checked_shr(64 - width as u32).unwrap_or(0)
}

/// The most entries a block holds at `widths`.
fn room(widths: [u8; 3]) -> usize {
    let bits: usize = widths.iter().map(|&w| w as usize).sum();
    if bits == 0 {
        return usize::MAX;
    }
    // A first guess without the rounding of each column to whole bytes, then put right.
    let mut n = BLOCK_BYTES * 8 / bits;
    while n > 0 && block::encoded_len(n, widths) > BLOCK_BYTES {
        n -= 1;
    }
    while block::encoded_len(n + 1, widths) <= BLOCK_BYTES {
        n += 1;
    }
    n
}

impl Cutter {
    fn new(base: i64) -> Cutter {
        Cutter {
            base,
            pending: Vec::with_capacity(1024),
            widths: [0; 3],
            limits: [0; 3],
            room: room([0; 3]),
        }
    }

    /// Sets the widths of the pending block.
    fn set_widths(&mut self, widths: [u8; 3], room: usize) {
        self.widths = widths;
        self.limits = widths.map(limit);
        self.room = room;
    }

    /// Adds an entry (in key order); returns the pending block when the entry does not fit
    /// in it (the entry then starts the next one).
    #[inline(always)]
    fn push(&mut self, e: Entry) -> Option<CutBlock> {
        let delta = self.pending.last().map_or(0, |p| e.key - p.key);
        let (game, next) = ((e.game - self.base) as u64, e.next as u64);
        let [lk, lg, lm] = self.limits;
        if delta <= lk && game <= lg && next <= lm {
            // Most entries: the widths stay, and so does the room.
            if self.pending.len() < self.room {
                self.pending.push(e);
                return None;
            }
        } else {
            let [wk, wg, wm] = self.widths;
            let widths = [
                wk.max(block::width(delta)),
                wg.max(block::width(game)),
                wm.max(block::width(next)),
            ];
            let room = room(widths);
            if self.pending.len() < room {
                self.set_widths(widths, room);
                self.pending.push(e);
                return None;
            }
        }
        self.push_cut(e, game, next)
    }

    /// Cuts the pending block, and starts the next with `e`.
    #[cold]
    fn push_cut(&mut self, e: Entry, game: u64, next: u64) -> Option<CutBlock> {
        let full = self.flush();
        let widths = [0, block::width(game), block::width(next)];
        self.set_widths(widths, room(widths));
        self.pending.push(e);
        full
    }

    /// The pending block, if any.
    fn flush(&mut self) -> Option<CutBlock> {
        let block = CutBlock {
            first_key: self.pending.first()?.key,
            entries: self.pending.len(),
            data: block::encode(&self.pending, self.base),
        };
        self.pending.clear();
        self.set_widths([0; 3], room([0; 3]));
        Some(block)
    }
}

/// Writes blocks of a segment, counting what it wrote.
struct BlockSink<'c> {
    conn: &'c Connection,
    segment: i64,
    cutter: Cutter,
    entries: u64,
    blocks: u64,
    bytes: u64,
}

impl BlockSink<'_> {
    fn new(conn: &Connection, segment: i64, base: i64) -> BlockSink<'_> {
        BlockSink {
            conn,
            segment,
            cutter: Cutter::new(base),
            entries: 0,
            blocks: 0,
            bytes: 0,
        }
    }

    /// Adds an entry (in key order), writing the pending block when the entry does not fit
    /// in it.
    fn push(&mut self, e: Entry) -> Result<(), StoreError> {
        if let Some(block) = self.cutter.push(e) {
            self.write(block)?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), StoreError> {
        if let Some(block) = self.cutter.flush() {
            self.write(block)?;
        }
        Ok(())
    }

    /// Writes a block cut elsewhere.
    fn write(&mut self, block: CutBlock) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(
                "INSERT INTO position_blocks (segment, first_key, data) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![self.segment, block.first_key as i64, block.data])?;
        self.entries += block.entries as u64;
        self.blocks += 1;
        self.bytes += block.data.len() as u64;
        Ok(())
    }
}

fn new_segment(conn: &Connection, first: i64, last: i64) -> Result<i64, StoreError> {
    conn.execute(
        "INSERT INTO position_segments (first_game, last_game, games, entries, blocks, bytes,
         results, dates) VALUES (?1, ?2, 0, 0, 0, 0, x'', x'')",
        params![first, last],
    )?;
    Ok(conn.last_insert_rowid())
}

fn finish_segment(sink: BlockSink<'_>, games: usize, cols: GameColumns) -> Result<(), StoreError> {
    sink.conn.execute(
        "UPDATE position_segments SET games = ?2, entries = ?3, blocks = ?4, bytes = ?5,
         results = ?6, dates = ?7 WHERE id = ?1",
        params![
            sink.segment,
            games as i64,
            sink.entries as i64,
            sink.blocks as i64,
            (sink.bytes + cols.results.len() as u64 + cols.dates.len() as u64) as i64,
            cols.results,
            cols.dates
        ],
    )?;
    Ok(())
}

/// A batch sorted and cut into blocks, ready to be written as a segment
/// ([`PreparedSegment::store`]). Preparing needs no database, so it can run beside the
/// writer.
pub struct PreparedSegment {
    first: i64,
    last: i64,
    games: usize,
    cols: GameColumns,
    blocks: Vec<Vec<CutBlock>>,
}

impl Batch {
    /// Takes the batch's postings, sorted and cut into blocks, leaving it empty; `None` for
    /// an empty batch.
    pub fn prepare(&mut self) -> Option<PreparedSegment> {
        let batch = std::mem::take(self);
        let first = batch.first_game?;
        let mut cols = GameColumns::new(first, batch.last_game);
        for &(game, result, date) in &batch.games {
            cols.set(game, result, date);
        }
        // Sorted and cut into blocks on all cores, in groups of buckets (a bucket starts
        // with a new key), to be written in order.
        let blocks: Vec<Vec<CutBlock>> = batch
            .buckets
            .par_chunks(64)
            // One task a group, so that every core takes some.
            .with_max_len(1)
            .map(|group| {
                let mut cutter = Cutter::new(first);
                let mut out = Vec::new();
                let mut run: Vec<Pending> = Vec::new();
                let mut scratch: Vec<Pending> = Vec::new();
                for bucket in group {
                    run.clear();
                    for chunk in bucket {
                        run.extend_from_slice(chunk);
                    }
                    sort_bucket(&mut run, &mut scratch);
                    for e in &run {
                        let k = e.key_game;
                        let entry = Entry {
                            key: k >> 24,
                            game: first + (k & 0xff_ffff) as i64,
                            next: e.next,
                        };
                        out.extend(cutter.push(entry));
                    }
                }
                out.extend(cutter.flush());
                out
            })
            .collect();
        Some(PreparedSegment {
            first,
            last: batch.last_game,
            games: batch.games.len(),
            cols,
            blocks,
        })
    }
}

impl PreparedSegment {
    /// Writes it as a new segment (inside the caller's transaction); returns its id.
    pub fn store(self, conn: &Connection) -> Result<i64, StoreError> {
        let segment = new_segment(conn, self.first, self.last)?;
        let mut sink = BlockSink::new(conn, segment, self.first);
        for block in self.blocks.into_iter().flatten() {
            sink.write(block)?;
        }
        sink.flush()?;
        finish_segment(sink, self.games, self.cols)?;
        Ok(segment)
    }
}

/// Writes `batch` as a new segment (inside the caller's transaction) and empties it. Returns
/// the segment's id, or `None` for an empty batch.
pub(crate) fn write_segment(
    conn: &Connection,
    batch: &mut Batch,
) -> Result<Option<i64>, StoreError> {
    batch.prepare().map(|p| p.store(conn)).transpose()
}

/// A segment as queries see it.
#[derive(Debug, Clone)]
pub struct Segment {
    pub id: i64,
    pub first_game: i64,
    pub last_game: i64,
    pub games: i64,
    pub entries: i64,
    results: Vec<u8>,
    dates: Vec<u8>,
}

impl Segment {
    fn index(&self, game: i64) -> Option<usize> {
        (game >= self.first_game && game <= self.last_game)
            .then(|| (game - self.first_game) as usize)
    }

    /// The result byte of a game of this segment.
    pub fn result(&self, game: i64) -> u8 {
        self.index(game)
            .and_then(|i| self.results.get(i).copied())
            .unwrap_or(RESULT_UNKNOWN)
    }

    /// The date code of a game of this segment.
    pub fn date(&self, game: i64) -> u32 {
        self.index(game)
            .and_then(|i| self.dates.get(i * 4..i * 4 + 4))
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The position index of a database, ready for lookups.
pub struct PositionIndex {
    pub segments: Vec<Segment>,
    /// Games deleted since their postings were written.
    pub removed: HashSet<i64>,
}

impl PositionIndex {
    /// The segments with their per-game results and dates (5 bytes a game: for merges and
    /// for questions about many games).
    pub(crate) fn load(conn: &Connection) -> Result<PositionIndex, StoreError> {
        PositionIndex::read(conn, true)
    }

    fn read(conn: &Connection, columns: bool) -> Result<PositionIndex, StoreError> {
        let sql = if columns {
            "SELECT id, first_game, last_game, games, entries, results, dates
             FROM position_segments ORDER BY id"
        } else {
            "SELECT id, first_game, last_game, games, entries, x'', x''
             FROM position_segments ORDER BY id"
        };
        let segments = conn
            .prepare(sql)?
            .query_map([], |r| {
                Ok(Segment {
                    id: r.get(0)?,
                    first_game: r.get(1)?,
                    last_game: r.get(2)?,
                    games: r.get(3)?,
                    entries: r.get(4)?,
                    results: r.get(5)?,
                    dates: r.get(6)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        let removed = conn
            .prepare("SELECT id FROM removed_games")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(PositionIndex { segments, removed })
    }

    /// Calls `f` with every entry with `key` (and its segment's index in `segments`), by
    /// segment and then by game, while it returns true; removed games left out, and with
    /// `set`, the games it does not hold.
    pub fn for_each(
        &self,
        store: &Store,
        key: u64,
        set: Option<&GameSet>,
        f: impl FnMut(usize, Entry) -> bool,
    ) -> Result<(), StoreError> {
        self.scan(&store.conn, key, set, f)
    }

    fn scan(
        &self,
        conn: &Connection,
        key: u64,
        set: Option<&GameSet>,
        mut f: impl FnMut(usize, Entry) -> bool,
    ) -> Result<(), StoreError> {
        let sparse = set.is_some_and(GameSet::is_sparse);
        // The last block starting before the key may end with it; later ones start with it.
        let mut before = conn.prepare_cached(
            "SELECT max(first_key) FROM position_blocks WHERE segment = ?1 AND first_key < ?2",
        )?;
        let mut blocks = conn.prepare_cached(
            "SELECT first_key, data FROM position_blocks
             WHERE segment = ?1 AND first_key >= ?2 AND first_key <= ?3 ORDER BY first_key, id",
        )?;
        for (si, seg) in self.segments.iter().enumerate() {
            let from: Option<i64> = before.query_row(params![seg.id, key as i64], |r| r.get(0))?;
            let mut rows = blocks.query(params![seg.id, from.unwrap_or(key as i64), key as i64])?;
            while let Some(row) = rows.next()? {
                let first = row.get::<_, i64>(0)? as u64;
                let data = row
                    .get_ref(1)?
                    .as_blob()
                    .map_err(|_| StoreError::IndexDamaged("a block is not a blob"))?;
                let block =
                    Block::parse(data).ok_or(StoreError::IndexDamaged("a block cannot be read"))?;
                let mut each = |e: Entry| {
                    (!self.removed.is_empty() && self.removed.contains(&e.game)) || f(si, e)
                };
                let go_on = match set {
                    None => block.find_each(first, key, seg.first_game, each),
                    Some(s) => block.find_each_taken(
                        first,
                        key,
                        seg.first_game,
                        sparse,
                        |g| s.next_from(g),
                        &mut each,
                    ),
                };
                if !go_on {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

/// Reads a segment's blocks in key order, one block at a time.
struct Cursor {
    segment: i64,
    base: i64,
    /// (first_key, id) of the last block read.
    at: Option<(i64, i64)>,
    buffer: std::vec::IntoIter<Entry>,
    done: bool,
}

impl Cursor {
    fn next(&mut self, conn: &Connection) -> Result<Option<Entry>, StoreError> {
        loop {
            if let Some(e) = self.buffer.next() {
                return Ok(Some(e));
            }
            if self.done {
                return Ok(None);
            }
            let (k, id) = self.at.unwrap_or((i64::MIN, i64::MIN));
            let row: Option<(i64, i64, Vec<u8>)> = conn
                .prepare_cached(
                    "SELECT first_key, id, data FROM position_blocks
                     WHERE segment = ?1 AND (first_key, id) > (?2, ?3)
                     ORDER BY first_key, id LIMIT 1",
                )?
                .query_row(params![self.segment, k, id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .optional()?;
            let Some((first, id, data)) = row else {
                self.done = true;
                return Ok(None);
            };
            self.at = Some((first, id));
            let block =
                Block::parse(&data).ok_or(StoreError::IndexDamaged("a block cannot be read"))?;
            self.buffer = block
                .entries(first as u64, self.base)
                .collect::<Vec<_>>()
                .into_iter();
        }
    }
}

/// Merges segments into one (inside the caller's transaction), leaving out the entries of
/// removed games, and deletes them. Returns the new segment's id (`None` when `ids` is empty).
pub fn merge(conn: &Connection, ids: &[i64]) -> Result<Option<i64>, StoreError> {
    if ids.is_empty() {
        return Ok(None);
    }
    let index = PositionIndex::load(conn)?;
    let chosen: Vec<&Segment> = index
        .segments
        .iter()
        .filter(|s| ids.contains(&s.id))
        .collect();
    let Some(first) = chosen.iter().map(|s| s.first_game).min() else {
        return Ok(None);
    };
    let last = chosen.iter().map(|s| s.last_game).max().unwrap_or(first);
    let segment = new_segment(conn, first, last)?;
    let mut cols = GameColumns::new(first, last);
    let mut games = 0usize;
    for s in &chosen {
        for g in s.first_game..=s.last_game {
            if !index.removed.contains(&g) {
                cols.set(g, s.result(g), s.date(g));
            }
        }
        games += s.games as usize;
    }
    let mut cursors: Vec<Cursor> = chosen
        .iter()
        .map(|s| Cursor {
            segment: s.id,
            base: s.first_game,
            at: None,
            buffer: Vec::new().into_iter(),
            done: false,
        })
        .collect();
    let mut heap = BinaryHeap::new();
    for (i, c) in cursors.iter_mut().enumerate() {
        if let Some(e) = c.next(conn)? {
            heap.push(Reverse((e, i)));
        }
    }
    let mut sink = BlockSink::new(conn, segment, first);
    while let Some(Reverse((e, i))) = heap.pop() {
        if !index.removed.contains(&e.game) {
            sink.push(e)?;
        }
        if let Some(next) = cursors[i].next(conn)? {
            heap.push(Reverse((next, i)));
        }
    }
    sink.flush()?;
    let removed_in: Vec<i64> = index
        .removed
        .iter()
        .copied()
        .filter(|g| {
            chosen
                .iter()
                .any(|s| s.first_game <= *g && *g <= s.last_game)
        })
        .collect();
    games -= removed_in.len().min(games);
    finish_segment(sink, games, cols)?;
    for s in &chosen {
        conn.execute("DELETE FROM position_blocks WHERE segment = ?1", [s.id])?;
        conn.execute("DELETE FROM position_segments WHERE id = ?1", [s.id])?;
    }
    // A removed game's entries are gone once no segment covers it any more.
    let remaining = PositionIndex::load(conn)?;
    for g in removed_in {
        let covered = remaining
            .segments
            .iter()
            .any(|s| s.id != segment && s.first_game <= g && g <= s.last_game);
        if !covered {
            conn.execute("DELETE FROM removed_games WHERE id = ?1", [g])?;
        }
    }
    Ok(Some(segment))
}

/// The largest game id the segments cover: games with larger ids were committed by an import
/// that stopped before it wrote their segment (see [`Writer::index_missing`]).
///
/// [`Writer::index_missing`]: crate::store::Writer::index_missing
pub fn covered_through(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn.query_row(
        "SELECT coalesce(max(last_game), 0) FROM position_segments",
        [],
        |r| r.get(0),
    )?)
}

/// Sizes of the position index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct IndexSize {
    pub segments: u64,
    pub entries: u64,
    pub blocks: u64,
    pub bytes: u64,
}

pub fn size(conn: &Connection) -> Result<IndexSize, StoreError> {
    Ok(conn.query_row(
        "SELECT count(*), coalesce(sum(entries), 0), coalesce(sum(blocks), 0),
         coalesce(sum(bytes), 0) FROM position_segments",
        [],
        |r| {
            Ok(IndexSize {
                segments: r.get::<_, i64>(0)? as u64,
                entries: r.get::<_, i64>(1)? as u64,
                blocks: r.get::<_, i64>(2)? as u64,
                bytes: r.get::<_, i64>(3)? as u64,
            })
        },
    )?)
}

/// The position index with its columns, and the database it was read from: SQLite's
/// `data_version` (which moves when another connection commits) and the rows this connection
/// changed (`total_changes`).
pub(crate) struct CachedIndex {
    version: (i64, u64),
    index: Rc<PositionIndex>,
}

impl Store {
    /// The position index, with each segment's per-game results and dates when `columns`
    /// (5 bytes a game: for questions about many games), without them otherwise. The index
    /// with its columns is kept between questions while the database does not change.
    pub fn position_index(&self, columns: bool) -> Result<Rc<PositionIndex>, StoreError> {
        let version = (
            self.conn
                .query_row("PRAGMA data_version", [], |r| r.get(0))?,
            self.conn.total_changes(),
        );
        if let Some(c) = &*self.index_cache.borrow()
            && c.version == version
        {
            return Ok(Rc::clone(&c.index));
        }
        let index = Rc::new(PositionIndex::read(&self.conn, columns)?);
        if columns {
            *self.index_cache.borrow_mut() = Some(CachedIndex {
                version,
                index: Rc::clone(&index),
            });
        }
        Ok(index)
    }

    /// Writes a batch of postings as a new segment (outside any import: for tests and tools).
    pub fn write_postings(&self, batch: &mut Batch) -> Result<Option<i64>, StoreError> {
        write_segment(&self.conn, batch)
    }
}
