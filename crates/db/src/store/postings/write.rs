//! Writing postings: a [`Batch`] gathers an import's postings in buckets by key, is sorted
//! and cut into blocks beside the writer ([`PreparedSegment`]), and is written as a segment
//! with its per-game columns.

use rayon::iter::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};
use rusqlite::{Connection, params};

use super::block::{self, BLOCK_BYTES, Entry};
use crate::store::{Store, StoreError};

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

    /// Sets the result and date of a game of the batch; false when the batch has no such
    /// game (a game's facts changed after its postings were gathered: a twin filled them).
    pub fn set_columns(&mut self, game: i64, result: u8, date: u32) -> bool {
        match self.games.binary_search_by_key(&game, |g| g.0) {
            Ok(i) => {
                self.games[i] = (game, result, date);
                true
            }
            Err(_) => false,
        }
    }

    /// Whether the batch should be written as a segment now, with segments of `limit`
    /// postings ([`SEGMENT_ENTRIES`] unless a test asks for small ones).
    pub fn is_full(&self, limit: usize) -> bool {
        self.len >= limit || self.games.len() >= 1 << 23
    }
}

/// A segment's per-game columns, indexed by game − first game.
pub(super) struct GameColumns {
    first: i64,
    results: Vec<u8>,
    dates: Vec<u8>,
}

impl GameColumns {
    pub(super) fn new(first: i64, last: i64) -> GameColumns {
        let n = (last - first + 1).max(0) as usize;
        GameColumns {
            first,
            results: vec![0; n],
            dates: vec![0; n * 4],
        }
    }

    pub(super) fn set(&mut self, game: i64, result: u8, date: u32) {
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
pub(super) struct Cutter {
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
pub(super) struct BlockSink<'c> {
    conn: &'c Connection,
    segment: i64,
    cutter: Cutter,
    entries: u64,
    blocks: u64,
    bytes: u64,
}

impl BlockSink<'_> {
    pub(super) fn new(conn: &Connection, segment: i64, base: i64) -> BlockSink<'_> {
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
    pub(super) fn push(&mut self, e: Entry) -> Result<(), StoreError> {
        if let Some(block) = self.cutter.push(e) {
            self.write(block)?;
        }
        Ok(())
    }

    pub(super) fn flush(&mut self) -> Result<(), StoreError> {
        if let Some(block) = self.cutter.flush() {
            self.write(block)?;
        }
        Ok(())
    }

    /// Writes a block cut elsewhere.
    fn write(&mut self, block: CutBlock) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(
                "INSERT INTO position_blocks (segment, first_key, data, crc)
                 VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![
                self.segment,
                block.first_key as i64,
                block.data,
                crate::store::checksum::block(self.segment, block.first_key as i64, &block.data)
            ])?;
        self.entries += block.entries as u64;
        self.blocks += 1;
        self.bytes += block.data.len() as u64;
        Ok(())
    }
}

pub(super) fn new_segment(conn: &Connection, first: i64, last: i64) -> Result<i64, StoreError> {
    conn.execute(
        "INSERT INTO position_segments (first_game, last_game, games, entries, blocks, bytes,
         results, dates) VALUES (?1, ?2, 0, 0, 0, 0, x'', x'')",
        params![first, last],
    )?;
    Ok(conn.last_insert_rowid())
}

pub(super) fn finish_segment(
    sink: BlockSink<'_>,
    games: usize,
    cols: GameColumns,
) -> Result<(), StoreError> {
    let (first, last): (i64, i64) = sink.conn.query_row(
        "SELECT first_game, last_game FROM position_segments WHERE id = ?1",
        [sink.segment],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let crc = crate::store::checksum::segment(
        first,
        last,
        games as i64,
        sink.entries as i64,
        &cols.results,
        &cols.dates,
    );
    sink.conn.execute(
        "UPDATE position_segments SET games = ?2, entries = ?3, blocks = ?4, bytes = ?5,
         results = ?6, dates = ?7, crc = ?8 WHERE id = ?1",
        params![
            sink.segment,
            games as i64,
            sink.entries as i64,
            sink.blocks as i64,
            (sink.bytes + cols.results.len() as u64 + cols.dates.len() as u64) as i64,
            cols.results,
            cols.dates,
            crc
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
        // with a new key), to be written in order. Each group is taken, and its postings
        // freed as they are cut: the blocks (about half the batch's size) do not stand
        // beside the whole batch.
        let mut groups: Vec<Vec<Vec<Vec<Pending>>>> = Vec::new();
        let mut buckets = batch.buckets.into_iter();
        loop {
            let group: Vec<Vec<Vec<Pending>>> = buckets.by_ref().take(64).collect();
            if group.is_empty() {
                break;
            }
            groups.push(group);
        }
        let blocks: Vec<Vec<CutBlock>> = groups
            .into_par_iter()
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
                        run.extend_from_slice(&chunk);
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

impl Store {
    /// Writes a batch of postings as a new segment (outside any import: for tests).
    #[cfg(test)]
    pub(crate) fn write_postings(&self, batch: &mut Batch) -> Result<Option<i64>, StoreError> {
        write_segment(&self.conn, batch)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_big_segment_holds_every_posting_under_its_key_in_game_order() {
        use super::Batch;
        use crate::store::Store;
        use std::collections::BTreeMap;

        // Keys that repeat within and across games; half of them in 16 of the 4,096 buckets a
        // batch sorts separately, so that those hold thousands of postings each (sorted by
        // radix, as at 100,000 games), the others a few each (sorted by comparison).
        let dir = std::env::temp_dir().join(format!("kifudex-postings-big-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::create(&dir).unwrap();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pool: Vec<u64> = (0..30_000u64)
            .map(|i| match i % 2 {
                0 => random() >> 24,
                _ => (random() >> 36) | (i % 16) << 36,
            })
            .collect();
        let mut batch = Batch::default();
        let mut want: BTreeMap<u64, Vec<(i64, u16)>> = BTreeMap::new();
        for game in 1..=900i64 {
            let packed: Vec<u64> = (0..100)
                .map(|_| {
                    let key = pool[(random() % pool.len() as u64) as usize];
                    (key << 24) | (random() % 13_691)
                })
                .collect();
            for &p in &packed {
                want.entry(p >> 24).or_default().push((game, p as u16));
            }
            batch.add(game, &packed, 0, 0);
        }
        store.write_postings(&mut batch).unwrap();
        let index = store.position_index(true).unwrap();
        assert_eq!(index.segments.len(), 1);
        assert_eq!(index.segments[0].entries, 90_000);
        for (&key, expected) in want.iter().step_by(7) {
            let mut got = Vec::new();
            index
                .for_each(&store, key, None, |_, e| {
                    got.push((e.game, e.next));
                    true
                })
                .unwrap();
            // Within a key, by game, and a game's postings of one key in the order it had them.
            assert_eq!(&got, expected, "key {key:#x}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A segment's columns read back are checked against their checksum: a flipped byte is
    /// an error that names the segment, never other results and dates.
    #[test]
    fn damaged_segment_columns_are_an_error() {
        use super::Batch;
        use crate::store::{Store, StoreError};

        let dir = std::env::temp_dir().join(format!("kifudex-postings-crc-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::create(&dir).unwrap();
        let mut batch = Batch::default();
        for game in 1..=50i64 {
            batch.add(
                game,
                &[(game as u64) << 24 | 1],
                (game % 4) as u8,
                20_200_101,
            );
        }
        store.write_postings(&mut batch).unwrap();
        assert!(store.position_index(true).is_ok());
        let mut dates: Vec<u8> = store
            .conn
            .query_row("SELECT dates FROM position_segments", [], |r| r.get(0))
            .unwrap();
        dates[0] ^= 1;
        store
            .conn
            .execute("UPDATE position_segments SET dates = ?1", [dates])
            .unwrap();
        match store.position_index(true).map(|_| ()) {
            Err(StoreError::Damaged(what)) => assert_eq!(
                what,
                "segment 1 of the position index (its games' results and dates)"
            ),
            other => panic!("{other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
