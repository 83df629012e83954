//! Sorting more variable-length records than memory holds, into key order, on every core:
//! each record is a key (any bytes) and a fixed-size tail whose first [`ORDER`] bytes order
//! the records of a key (unique within a key). The keys are cut into ranges (buckets) by
//! splitters taken from a sample, so that every record of a key lands in one bucket and the
//! buckets, each sorted on its own, follow one another in key order; a record leaves out the
//! bytes every key of its bucket starts with. Workers lay their records out by bucket
//! ([`BatchBuilder`]); past a budget the batches held are written out as a part file, bucket
//! after bucket. At the end the buckets are read back a few at a time (the next ones while
//! the last are sorted), sorted and handed, key by key, to a [`GroupSink`] on every core
//! ([`bucket`]); the sinks come back in key order. A bucket too big for memory is sorted
//! through [`RunSort`] instead.

use std::cell::RefCell;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::iter::{IntoParallelIterator, ParallelIterator};

mod bucket;

use self::bucket::{Records, sort_bucket};
use super::runs::RunSort;

/// Bytes of a record's tail that order records of the same key (big-endian).
pub(crate) const ORDER: usize = 8;

/// Takes the records of each key, in order, key after key.
pub(crate) trait GroupSink: Send {
    /// A key's records start.
    fn begin(&mut self, key: &[u8]);
    /// The next record of the key begun (in the order of the tails' bytes).
    fn row(&mut self, tail: &[u8]);
    /// The key's records are done.
    fn end(&mut self);
    /// Bytes it holds: a sink is handed on once it holds many.
    fn size(&self) -> usize;
}

/// The splitters that cut keys into buckets, and the bytes every key of each bucket starts
/// with (those its two splitters share: a record leaves them out).
pub(crate) struct Splitters {
    cuts: Vec<Vec<u8>>,
    shared: Vec<usize>,
}

impl Splitters {
    /// Splitters for about `buckets` buckets of even size, from a sample of the keys (with
    /// their repeats).
    pub(crate) fn from_sample(mut sample: Vec<Vec<u8>>, buckets: usize) -> Splitters {
        sample.sort_unstable();
        let buckets = buckets.clamp(1, sample.len().max(1));
        let mut cuts: Vec<Vec<u8>> = (1..buckets)
            .map(|i| sample[i * sample.len() / buckets].clone())
            .collect();
        cuts.dedup();
        // Keys from one splitter (included) to the next (excluded) start with the bytes the
        // two share; the first and last buckets are open.
        let shared = (0..=cuts.len())
            .map(
                |b| match (b.checked_sub(1).and_then(|i| cuts.get(i)), cuts.get(b)) {
                    (Some(lo), Some(hi)) => lo.iter().zip(hi).take_while(|(a, b)| a == b).count(),
                    _ => 0,
                },
            )
            .collect();
        Splitters { cuts, shared }
    }

    pub(crate) fn buckets(&self) -> usize {
        self.cuts.len() + 1
    }

    /// The bucket of `key`.
    pub(crate) fn bucket(&self, key: &[u8]) -> usize {
        self.cuts
            .partition_point(|s| compare_bytes(s, key) != std::cmp::Ordering::Greater)
    }

    /// The bytes every key of `bucket` starts with.
    fn prefix(&self, bucket: usize) -> &[u8] {
        match bucket.checked_sub(1).and_then(|i| self.cuts.get(i)) {
            Some(lo) => &lo[..self.shared[bucket]],
            None => &[],
        }
    }
}

/// Buffers handed back for reuse, up to a number of bytes: memory freed goes back to the
/// system at once (see `main.rs`), and taking it again costs a page fault and a cleared page
/// for every 4 KB.
pub(crate) struct Buffers {
    free: Mutex<(Vec<Vec<u8>>, usize)>,
    limit: usize,
}

impl Buffers {
    pub(crate) fn new(limit: usize) -> Buffers {
        Buffers {
            free: Mutex::new((Vec::new(), 0)),
            limit,
        }
    }

    /// An empty buffer (with the room of one handed back, if any).
    pub(crate) fn get(&self) -> Vec<u8> {
        let Ok(mut free) = self.free.lock() else {
            return Vec::new();
        };
        match free.0.pop() {
            Some(b) => {
                free.1 -= b.capacity();
                b
            }
            None => Vec::new(),
        }
    }

    pub(crate) fn put(&self, mut b: Vec<u8>) {
        b.clear();
        if let Ok(mut free) = self.free.lock()
            && free.1 + b.capacity() <= self.limit
        {
            free.1 += b.capacity();
            free.0.push(b);
        }
    }

    pub(crate) fn clear(&self) {
        if let Ok(mut free) = self.free.lock() {
            *free = (Vec::new(), 0);
        }
    }
}

/// `a` and `b` compared as byte strings, eight bytes at a time (keys share long prefixes).
#[inline]
fn compare_bytes(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let mut a8 = a.chunks_exact(8);
    let mut b8 = b.chunks_exact(8);
    for (x, y) in (&mut a8).zip(&mut b8) {
        let word = |w: &[u8]| u64::from_be_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        let (x, y) = (word(x), word(y));
        if x != y {
            return x.cmp(&y);
        }
    }
    let done = a.len().min(b.len()) / 8 * 8;
    a[done..].cmp(&b[done..])
}

/// Records of some games, laid out by bucket: what a worker hands to [`KeyRanges::push`].
pub(crate) struct RangeBatch {
    bytes: Vec<u8>,
    /// Where each bucket's records start in `bytes`, and the end.
    starts: Vec<usize>,
}

/// A worker's records before they are laid out by bucket, and each one's bucket and start.
type Scratch = (Vec<u8>, Vec<(u32, u32)>);

thread_local! {
    static SCRATCH: RefCell<Scratch> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// Builds a [`RangeBatch`]: records in any order.
pub(crate) struct BatchBuilder<'a> {
    splitters: &'a Splitters,
    buffers: &'a Buffers,
    bytes: Vec<u8>,
    /// Each record's bucket and start.
    marks: Vec<(u32, u32)>,
}

impl<'a> BatchBuilder<'a> {
    /// Records cut by `splitters`, laid out in a buffer of `buffers`.
    pub(crate) fn new(splitters: &'a Splitters, buffers: &'a Buffers) -> BatchBuilder<'a> {
        let (bytes, marks) = SCRATCH.with_borrow_mut(std::mem::take);
        BatchBuilder {
            splitters,
            buffers,
            bytes,
            marks,
        }
    }

    /// Adds a record: `key` and `tail` (the spill's tail size). What follows the bytes the
    /// keys of its bucket share is at most 255 bytes.
    pub(crate) fn push(&mut self, key: &[u8], tail: &[u8]) {
        self.push_to(self.splitters.bucket(key), key, tail);
    }

    /// Adds a record whose key's bucket ([`Splitters::bucket`]) is known.
    pub(crate) fn push_to(&mut self, bucket: usize, key: &[u8], tail: &[u8]) {
        debug_assert_eq!(bucket, self.splitters.bucket(key));
        let rest = &key[self.splitters.shared[bucket]..];
        debug_assert!(rest.len() <= usize::from(u8::MAX));
        self.marks.push((bucket as u32, self.bytes.len() as u32));
        self.bytes.push(rest.len() as u8);
        self.bytes.extend_from_slice(rest);
        self.bytes.extend_from_slice(tail);
    }

    /// The records, bucket after bucket.
    pub(crate) fn finish(mut self) -> RangeBatch {
        let buckets = self.splitters.buckets();
        let end_of = |i: usize| {
            self.marks
                .get(i + 1)
                .map_or(self.bytes.len(), |m| m.1 as usize)
        };
        let mut starts = vec![0usize; buckets + 1];
        for (i, &(b, at)) in self.marks.iter().enumerate() {
            starts[b as usize + 1] += end_of(i) - at as usize;
        }
        for b in 0..buckets {
            starts[b + 1] += starts[b];
        }
        let mut fill = starts.clone();
        let mut bytes = self.buffers.get();
        bytes.resize(self.bytes.len(), 0);
        for (i, &(b, at)) in self.marks.iter().enumerate() {
            let (at, end) = (at as usize, end_of(i));
            let to = fill[b as usize];
            bytes[to..to + end - at].copy_from_slice(&self.bytes[at..end]);
            fill[b as usize] += end - at;
        }
        self.bytes.clear();
        self.marks.clear();
        let scratch = (
            std::mem::take(&mut self.bytes),
            std::mem::take(&mut self.marks),
        );
        SCRATCH.set(scratch);
        RangeBatch { bytes, starts }
    }
}

/// A part file: every bucket's records of the batches it was written from.
struct Part {
    file: File,
    /// Each bucket's offset and length.
    extents: Vec<(u64, usize)>,
}

/// Records being gathered, to be read back in key order.
pub(crate) struct KeyRanges {
    splitters: Arc<Splitters>,
    /// The batches' buffers, handed back once written.
    buffers: Arc<Buffers>,
    /// Buffers of the buckets read back.
    bucket_buffers: Arc<Buffers>,
    tail: usize,
    dir: PathBuf,
    budget: usize,
    held: Vec<RangeBatch>,
    held_bytes: usize,
    parts: Vec<Part>,
}

impl KeyRanges {
    /// Records whose tails are `tail` bytes (the first [`ORDER`] of which order records of a
    /// key), cut by `splitters`, in buffers of `buffers`; part files, when needed, go into
    /// `dir` (created then, removed at the end); a part is written each time the records
    /// held reach `budget` bytes.
    pub(crate) fn new(
        splitters: Arc<Splitters>,
        buffers: Arc<Buffers>,
        tail: usize,
        dir: &Path,
        budget: usize,
    ) -> KeyRanges {
        KeyRanges {
            splitters,
            buffers,
            bucket_buffers: Arc::new(Buffers::new(budget / 2)),
            tail,
            dir: dir.to_path_buf(),
            budget: budget.max(1),
            held: Vec::new(),
            held_bytes: 0,
            parts: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, batch: RangeBatch) -> std::io::Result<()> {
        self.held_bytes += batch.bytes.len();
        self.held.push(batch);
        if self.held_bytes >= self.budget {
            self.write_part()?;
        }
        Ok(())
    }

    fn write_part(&mut self) -> std::io::Result<()> {
        if self.held.is_empty() {
            return Ok(());
        }
        if self.parts.is_empty() {
            std::fs::create_dir_all(&self.dir)?;
        }
        let path = self.dir.join(format!("part-{:04}", self.parts.len()));
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)?;
        let mut w = BufWriter::with_capacity(1 << 20, file);
        let mut extents = Vec::with_capacity(self.splitters.buckets());
        let mut at = 0u64;
        for b in 0..self.splitters.buckets() {
            let mut len = 0;
            for batch in &self.held {
                let slice = &batch.bytes[batch.starts[b]..batch.starts[b + 1]];
                w.write_all(slice)?;
                len += slice.len();
            }
            extents.push((at, len));
            at += len as u64;
        }
        let file = w.into_inner().map_err(|e| e.into_error())?;
        self.parts.push(Part { file, extents });
        for batch in self.held.drain(..) {
            self.buffers.put(batch.bytes);
        }
        self.held_bytes = 0;
        Ok(())
    }

    /// Bytes of the records of `bucket`.
    fn bucket_bytes(&self, bucket: usize) -> usize {
        let on_disk: usize = self.parts.iter().map(|p| p.extents[bucket].1).sum();
        let held: usize = self
            .held
            .iter()
            .map(|b| b.starts[bucket + 1] - b.starts[bucket])
            .sum();
        on_disk + held
    }

    /// Appends the records of `bucket` to `out`.
    fn read_bucket(&mut self, bucket: usize, out: &mut Vec<u8>) -> std::io::Result<()> {
        for part in &mut self.parts {
            let (at, len) = part.extents[bucket];
            if len == 0 {
                continue;
            }
            let start = out.len();
            out.resize(start + len, 0);
            part.file.seek(SeekFrom::Start(at))?;
            part.file.read_exact(&mut out[start..])?;
        }
        for batch in &self.held {
            out.extend_from_slice(&batch.bytes[batch.starts[bucket]..batch.starts[bucket + 1]]);
        }
        Ok(())
    }

    /// The buckets from `from` on that are read and sorted in memory together: as many as
    /// fit in `limit` bytes (at least one).
    fn chunk_end(&self, from: usize, limit: usize) -> usize {
        let mut end = from;
        let mut bytes = 0;
        while end < self.splitters.buckets() {
            bytes += self.bucket_bytes(end);
            if bytes > limit && end > from {
                break;
            }
            end += 1;
        }
        end
    }

    /// Reads the buckets `from..to` into buffers.
    fn read_chunk(&mut self, from: usize, to: usize) -> std::io::Result<Vec<(usize, Vec<u8>)>> {
        let mut chunk = Vec::with_capacity(to - from);
        for b in from..to {
            // Buffers of a few sizes (powers of two), so that one handed back fits again.
            let mut data = self.bucket_buffers.get();
            data.reserve_exact(self.bucket_bytes(b).next_power_of_two());
            self.read_bucket(b, &mut data)?;
            chunk.push((b, data));
        }
        Ok(chunk)
    }

    /// Feeds every record to sinks made by `make` (given the bytes of records a sink is to
    /// take, about), key after key in order (the records of a key in the order of their
    /// tails), on every core, and hands the sinks to `take` in key order; the sort's own I/O
    /// errors become `E` through `io`. Removes the part files.
    pub(crate) fn sorted<S: GroupSink, E: Send>(
        mut self,
        io: impl Fn(std::io::Error) -> E + Sync,
        make: impl Fn(usize) -> S + Sync,
        mut take: impl FnMut(S) -> Result<(), E>,
    ) -> Result<(), E> {
        if !self.parts.is_empty() {
            self.write_part().map_err(&io)?;
        }
        self.buffers.clear();
        let result = self.drain(&io, &make, &mut take);
        self.parts.clear();
        let _ = std::fs::remove_dir_all(&self.dir);
        result
    }

    fn drain<S: GroupSink, E: Send>(
        &mut self,
        io: &(impl Fn(std::io::Error) -> E + Sync),
        make: &(impl Fn(usize) -> S + Sync),
        take: &mut impl FnMut(S) -> Result<(), E>,
    ) -> Result<(), E> {
        // Buckets are sorted in memory a few at a time, as many as fit in a quarter of the
        // budget (their records, their index and the sinks' output take about twice that,
        // and the next few are read meanwhile); a bucket bigger than half the budget is
        // sorted on disk.
        let limit = self.budget / 4;
        let buckets = self.splitters.buckets();
        let splitters = Arc::clone(&self.splitters);
        let buffers = Arc::clone(&self.bucket_buffers);
        let tail = self.tail;
        let sort_chunk = |chunk: Vec<(usize, Vec<u8>)>| -> Vec<S> {
            chunk
                .into_par_iter()
                .map(|(b, data)| {
                    let mut sink = make(data.len());
                    sort_bucket(&data, splitters.prefix(b), tail, &mut sink);
                    buffers.put(data);
                    sink
                })
                .collect()
        };
        let mut b = 0;
        let mut ready: Option<Vec<(usize, Vec<u8>)>> = None;
        while b < buckets || ready.is_some() {
            let Some(chunk) = ready.take() else {
                if self.bucket_bytes(b) > 2 * limit {
                    self.sort_on_disk(b, io, make, take)?;
                    b += 1;
                } else {
                    let end = self.chunk_end(b, limit);
                    ready = Some(self.read_chunk(b, end).map_err(io)?);
                    b = end;
                }
                continue;
            };
            // The next chunk is read while this one is sorted.
            let next = (b < buckets && self.bucket_bytes(b) <= 2 * limit)
                .then(|| self.chunk_end(b, limit));
            let (done, read) = rayon::join(
                || sort_chunk(chunk),
                || next.map(|end| self.read_chunk(b, end)),
            );
            if let Some(end) = next {
                ready = Some(read.transpose().map_err(io)?.unwrap_or_default());
                b = end;
            }
            for sink in done {
                take(sink)?;
            }
        }
        Ok(())
    }

    /// A bucket bigger than memory: its records through a [`RunSort`] keyed by the key
    /// [`escape`]d, a zero byte (below any escaped key's bytes, so that a key sorts before
    /// the keys it starts) and the tail's order bytes.
    fn sort_on_disk<S: GroupSink, E>(
        &mut self,
        bucket: usize,
        io: &impl Fn(std::io::Error) -> E,
        make: &(impl Fn(usize) -> S + Sync),
        take: &mut impl FnMut(S) -> Result<(), E>,
    ) -> Result<(), E> {
        let tail = self.tail;
        let mut runs = RunSort::new(&self.dir.join(format!("bucket-{bucket}")), self.budget);
        let mut key = Vec::new();
        let mut piece = Vec::new();
        for p in 0..self.parts.len() + 1 {
            // One part's records at a time (the last piece: those held).
            piece.clear();
            match self.parts.get_mut(p) {
                Some(part) => {
                    let (at, len) = part.extents[bucket];
                    piece.resize(len, 0);
                    part.file
                        .seek(SeekFrom::Start(at))
                        .and_then(|_| part.file.read_exact(&mut piece))
                        .map_err(io)?;
                }
                None => {
                    for batch in &self.held {
                        piece.extend_from_slice(
                            &batch.bytes[batch.starts[bucket]..batch.starts[bucket + 1]],
                        );
                    }
                }
            }
            for (k, t) in Records::new(&piece, tail) {
                key.clear();
                escape(k, &mut key);
                key.push(0);
                key.extend_from_slice(&t[..ORDER]);
                runs.push(&key, &t[ORDER..]).map_err(io)?;
            }
        }
        drop(piece);
        const PIECE: usize = 1 << 20;
        let mut sink = make(PIECE);
        let mut current: Option<Vec<u8>> = None;
        let mut row = vec![0u8; tail];
        let prefix = self.splitters.prefix(bucket);
        let mut unescaped = Vec::new();
        runs.sorted(io, |k, payload| {
            let escaped = &k[..k.len() - ORDER - 1];
            if current.as_deref() != Some(escaped) {
                if current.is_some() {
                    sink.end();
                    if sink.size() >= PIECE {
                        take(std::mem::replace(&mut sink, make(PIECE)))?;
                    }
                }
                unescaped.clear();
                unescaped.extend_from_slice(prefix);
                unescape(escaped, &mut unescaped);
                sink.begin(&unescaped);
                current = Some(escaped.to_vec());
            }
            row[..ORDER].copy_from_slice(&k[k.len() - ORDER..]);
            row[ORDER..].copy_from_slice(payload);
            sink.row(&row);
            Ok(())
        })?;
        if current.is_some() {
            sink.end();
        }
        take(sink)
    }
}

impl Drop for KeyRanges {
    fn drop(&mut self) {
        self.buffers.clear();
        self.bucket_buffers.clear();
        if !self.parts.is_empty() {
            self.parts.clear();
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Appends `key` to `out` with its bytes 0 and 1 written as two bytes (1 0, 1 1): escaped
/// keys hold no zero byte and sort as the keys do.
fn escape(key: &[u8], out: &mut Vec<u8>) {
    for &b in key {
        if b <= 1 {
            out.push(1);
        }
        out.push(b);
    }
}

/// The key [`escape`] wrote.
fn unescape(escaped: &[u8], out: &mut Vec<u8>) {
    let mut bytes = escaped.iter();
    while let Some(&b) = bytes.next() {
        match b {
            1 => out.push(bytes.next().copied().unwrap_or(1)),
            b => out.push(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collects what it is fed: each key with its tails.
    #[derive(Default)]
    struct Collect {
        groups: Vec<(Vec<u8>, Vec<Vec<u8>>)>,
        open: bool,
    }

    impl GroupSink for Collect {
        fn begin(&mut self, key: &[u8]) {
            assert!(!self.open);
            self.open = true;
            self.groups.push((key.to_vec(), Vec::new()));
        }

        fn row(&mut self, tail: &[u8]) {
            assert!(self.open);
            if let Some(g) = self.groups.last_mut() {
                g.1.push(tail.to_vec());
            }
        }

        fn end(&mut self) {
            assert!(self.open);
            self.open = false;
        }

        fn size(&self) -> usize {
            self.groups.len() * 16
        }
    }

    /// Keys of many lengths (zero bytes, keys that start others, one key repeated far more
    /// than a bucket holds), sorted in memory, through part files and through the on-disk
    /// fallback, come out grouped by key in order, each key's tails in order.
    #[test]
    fn ranges_give_the_plain_sort_grouped() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        const TAIL: usize = ORDER + 3;
        let mut records: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        for i in 0..6_000u64 {
            let key: Vec<u8> = if i % 5 == 0 {
                b"hot".to_vec()
            } else {
                let len = (next() % 12) as usize;
                (0..len)
                    .map(|_| b"\0\x01ab\xff"[(next() % 5) as usize])
                    .collect()
            };
            // Order bytes unique within a key, as the book's (game, ply) are.
            let mut tail = ((next() % 1000) << 16 | i).to_be_bytes().to_vec();
            tail.extend_from_slice(&(i as u32).to_le_bytes()[..3]);
            records.push((key, tail));
        }
        let mut want: Vec<(Vec<u8>, Vec<Vec<u8>>)> = Vec::new();
        let mut sorted = records.clone();
        sorted.sort();
        for (k, t) in sorted {
            match want.last_mut() {
                Some(g) if g.0 == k => g.1.push(t),
                _ => want.push((k, vec![t])),
            }
        }
        for (budget, buckets) in [(1 << 30, 1), (1 << 30, 50), (20_000, 50), (2_000, 200)] {
            let dir = std::env::temp_dir().join(format!(
                "kifudex-ranges-test-{}-{budget}-{buckets}",
                std::process::id()
            ));
            let sample: Vec<Vec<u8>> = records.iter().step_by(7).map(|r| r.0.clone()).collect();
            let splitters = Arc::new(Splitters::from_sample(sample, buckets));
            let buffers = Arc::new(Buffers::new(budget));
            let mut ranges = KeyRanges::new(
                Arc::clone(&splitters),
                Arc::clone(&buffers),
                TAIL,
                &dir,
                budget,
            );
            for batch in records.chunks(333) {
                let mut b = BatchBuilder::new(&splitters, &buffers);
                for (k, t) in batch {
                    b.push(k, t);
                }
                ranges.push(b.finish()).unwrap();
            }
            let mut got: Vec<(Vec<u8>, Vec<Vec<u8>>)> = Vec::new();
            ranges
                .sorted(
                    |e| e,
                    |_| Collect::default(),
                    |c: Collect| {
                        assert!(!c.open);
                        got.extend(c.groups);
                        Ok(())
                    },
                )
                .unwrap();
            assert_eq!(got, want, "budget {budget}, {buckets} buckets");
            assert!(!dir.exists(), "parts removed");
        }
    }

    #[test]
    fn escaped_keys_sort_as_the_keys() {
        let keys: Vec<Vec<u8>> = vec![
            vec![],
            vec![0],
            vec![0, 0],
            vec![0, 1],
            vec![1],
            vec![1, 0],
            vec![2],
            vec![255, 0],
        ];
        for a in &keys {
            let mut ea = escape_for_test(a);
            let mut back = Vec::new();
            unescape(&ea[..ea.len() - 1], &mut back);
            assert_eq!(&back, a);
            for b in &keys {
                let eb = escape_for_test(b);
                assert_eq!(ea.cmp(&eb), a.cmp(b), "{a:?} {b:?}");
            }
            ea.clear();
        }
    }

    /// A key escaped and ended as the fallback ends it.
    fn escape_for_test(key: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        escape(key, &mut out);
        out.push(0);
        out
    }
}
