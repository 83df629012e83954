//! Sorting more variable-length records than memory holds, into key order, on every core:
//! each record is a key and a fixed-size tail, ordered by the key's bytes and then the tail's.
//! The keys are cut into ranges (buckets) by splitters taken from a sample, so that every
//! record of a key lands in one bucket and the buckets, each sorted on its own, follow one
//! another in key order. Records gather in memory; past a budget they are written out as a
//! part file, laid out bucket after bucket. At the end the buckets are read back a few at a
//! time, sorted and handed, key by key, to a [`GroupSink`] on every core; the sinks come back
//! in key order. A bucket too big for memory is sorted through [`RunSort`] instead.

use std::cmp::Ordering;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::iter::{IntoParallelIterator, ParallelIterator};
use rayon::slice::ParallelSliceMut;

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

/// The splitters that cut keys into buckets.
pub(crate) struct Splitters(Vec<Vec<u8>>);

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
        Splitters(cuts)
    }

    pub(crate) fn buckets(&self) -> usize {
        self.0.len() + 1
    }

    /// The bucket of `key`.
    pub(crate) fn bucket(&self, key: &[u8]) -> usize {
        self.0.partition_point(|s| s.as_slice() <= key)
    }

    /// The bytes every key of `bucket` starts with: those its two splitters share.
    fn shared(&self, bucket: usize) -> usize {
        match (
            bucket.checked_sub(1).and_then(|i| self.0.get(i)),
            self.0.get(bucket),
        ) {
            (Some(lo), Some(hi)) => lo.iter().zip(hi).take_while(|(a, b)| a == b).count(),
            _ => 0,
        }
    }
}

/// Records of some games, laid out by bucket: what a worker hands to [`KeyRanges::push`].
pub(crate) struct RangeBatch {
    bytes: Vec<u8>,
    /// Where each bucket's records start in `bytes`, and the end.
    starts: Vec<usize>,
}

/// Builds a [`RangeBatch`]: records in any order.
pub(crate) struct BatchBuilder<'a> {
    splitters: &'a Splitters,
    bytes: Vec<u8>,
    /// Each record's bucket and start.
    marks: Vec<(u32, u32)>,
}

impl<'a> BatchBuilder<'a> {
    pub(crate) fn new(splitters: &'a Splitters) -> BatchBuilder<'a> {
        BatchBuilder {
            splitters,
            bytes: Vec::new(),
            marks: Vec::new(),
        }
    }

    /// Adds a record: `key` (at most 65,535 bytes, no zero byte) and `tail` (the spill's
    /// tail size).
    pub(crate) fn push(&mut self, key: &[u8], tail: &[u8]) {
        debug_assert!(key.len() <= usize::from(u16::MAX) && !key.contains(&0));
        let bucket = self.splitters.bucket(key) as u32;
        self.marks.push((bucket, self.bytes.len() as u32));
        self.bytes
            .extend_from_slice(&(key.len() as u16).to_le_bytes());
        self.bytes.extend_from_slice(key);
        self.bytes.extend_from_slice(tail);
    }

    /// The records, bucket after bucket.
    pub(crate) fn finish(self) -> RangeBatch {
        let buckets = self.splitters.buckets();
        let ends = self
            .marks
            .iter()
            .skip(1)
            .map(|m| m.1 as usize)
            .chain([self.bytes.len()]);
        let spans: Vec<(usize, usize, usize)> = self
            .marks
            .iter()
            .zip(ends)
            .map(|(&(b, at), end)| (b as usize, at as usize, end))
            .collect();
        let mut starts = vec![0usize; buckets + 1];
        for &(b, at, end) in &spans {
            starts[b + 1] += end - at;
        }
        for b in 0..buckets {
            starts[b + 1] += starts[b];
        }
        let mut fill = starts.clone();
        let mut bytes = vec![0u8; self.bytes.len()];
        for (b, at, end) in spans {
            let to = fill[b];
            bytes[to..to + end - at].copy_from_slice(&self.bytes[at..end]);
            fill[b] += end - at;
        }
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
    tail: usize,
    dir: PathBuf,
    budget: usize,
    held: Vec<RangeBatch>,
    held_bytes: usize,
    parts: Vec<Part>,
}

impl KeyRanges {
    /// Records whose tails are `tail` bytes (the first [`ORDER`] of which order records of a
    /// key), cut by `splitters`; part files, when needed, go into `dir` (created then, removed
    /// at the end); a part is written each time the records held reach `budget` bytes.
    pub(crate) fn new(
        splitters: Arc<Splitters>,
        tail: usize,
        dir: &Path,
        budget: usize,
    ) -> KeyRanges {
        KeyRanges {
            splitters,
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
        self.held.clear();
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

    /// The records of `bucket`, one piece (a part's or those held) at a time.
    fn each_piece(
        &mut self,
        bucket: usize,
        mut f: impl FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let mut buf = Vec::new();
        for part in &mut self.parts {
            let (at, len) = part.extents[bucket];
            if len == 0 {
                continue;
            }
            buf.resize(len, 0);
            part.file.seek(SeekFrom::Start(at))?;
            part.file.read_exact(&mut buf)?;
            f(&buf)?;
        }
        for batch in &self.held {
            let slice = &batch.bytes[batch.starts[bucket]..batch.starts[bucket + 1]];
            if !slice.is_empty() {
                f(slice)?;
            }
        }
        Ok(())
    }

    /// Feeds every record to sinks made by `make`, key after key in order (the records of a
    /// key in the order of their tails), on every core, and hands the sinks to `take` in key
    /// order; the sort's own I/O errors become `E` through `io`. Removes the part files.
    pub(crate) fn sorted<S: GroupSink, E>(
        mut self,
        io: impl Fn(std::io::Error) -> E,
        make: impl Fn() -> S + Sync,
        mut take: impl FnMut(S) -> Result<(), E>,
    ) -> Result<(), E> {
        if !self.parts.is_empty() {
            self.write_part().map_err(&io)?;
        }
        let result = self.drain(&io, &make, &mut take);
        for part in std::mem::take(&mut self.parts) {
            drop(part.file);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        result
    }

    fn drain<S: GroupSink, E>(
        &mut self,
        io: &impl Fn(std::io::Error) -> E,
        make: &(impl Fn() -> S + Sync),
        take: &mut impl FnMut(S) -> Result<(), E>,
    ) -> Result<(), E> {
        // Buckets are sorted in memory a few at a time, as many as fit in half the budget
        // (their records, their index and the sinks' output take about twice that).
        let limit = self.budget / 2;
        let buckets = self.splitters.buckets();
        let mut b = 0;
        while b < buckets {
            if self.bucket_bytes(b) > limit {
                self.sort_on_disk(b, io, make, take)?;
                b += 1;
                continue;
            }
            let mut chunk: Vec<(usize, Vec<u8>)> = Vec::new();
            let mut bytes = 0;
            while b < buckets && bytes + self.bucket_bytes(b) <= limit.max(1) {
                let mut data = Vec::with_capacity(self.bucket_bytes(b));
                self.each_piece(b, |piece| {
                    data.extend_from_slice(piece);
                    Ok(())
                })
                .map_err(io)?;
                bytes += data.len();
                chunk.push((b, data));
                b += 1;
            }
            let splitters = &self.splitters;
            let tail = self.tail;
            let done: Vec<S> = chunk
                .into_par_iter()
                .map(|(b, data)| {
                    let mut sink = make();
                    sort_bucket(&data, splitters.shared(b), tail, &mut sink);
                    sink
                })
                .collect();
            for sink in done {
                take(sink)?;
            }
        }
        Ok(())
    }

    /// A bucket bigger than memory: its records through a [`RunSort`] keyed by the key, a
    /// zero byte (below any byte of a key, so that a key sorts before the keys it starts)
    /// and the tail's order bytes.
    fn sort_on_disk<S: GroupSink, E>(
        &mut self,
        bucket: usize,
        io: &impl Fn(std::io::Error) -> E,
        make: &(impl Fn() -> S + Sync),
        take: &mut impl FnMut(S) -> Result<(), E>,
    ) -> Result<(), E> {
        let tail = self.tail;
        let mut runs = RunSort::new(&self.dir.join(format!("bucket-{bucket}")), self.budget);
        let mut key = Vec::new();
        self.each_piece(bucket, |piece| {
            for (k, t) in Records::new(piece, tail) {
                key.clear();
                key.extend_from_slice(k);
                key.push(0);
                key.extend_from_slice(&t[..ORDER]);
                runs.push(&key, &t[ORDER..])?;
            }
            Ok(())
        })
        .map_err(io)?;
        let mut sink = make();
        let mut current: Option<Vec<u8>> = None;
        let mut row = vec![0u8; tail];
        runs.sorted(io, |k, payload| {
            let k_only = &k[..k.len() - ORDER - 1];
            if current.as_deref() != Some(k_only) {
                if current.is_some() {
                    sink.end();
                    if sink.size() >= 1 << 20 {
                        take(std::mem::replace(&mut sink, make()))?;
                    }
                }
                sink.begin(k_only);
                current = Some(k_only.to_vec());
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
        if !self.parts.is_empty() {
            self.parts.clear();
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The records of a run of bytes: each key and tail.
struct Records<'a> {
    bytes: &'a [u8],
    tail: usize,
}

impl<'a> Records<'a> {
    fn new(bytes: &'a [u8], tail: usize) -> Records<'a> {
        Records { bytes, tail }
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let (len, rest) = self.bytes.split_first_chunk::<2>()?;
        let len = u16::from_le_bytes(*len) as usize;
        let (key, rest) = rest.split_at_checked(len)?;
        let (tail, rest) = rest.split_at_checked(self.tail)?;
        self.bytes = rest;
        Some((key, tail))
    }
}

/// A record's place in a bucket being sorted, with the bytes that decide most comparisons.
struct Item {
    /// Eight bytes of the key after those every key of the bucket shares (zeros past its end).
    prefix: u64,
    /// The tail's order bytes.
    order: u64,
    /// Where the key starts in the bucket, and its length.
    at: u32,
    len: u16,
}

/// Sorts one bucket's records (keys sharing their first `shared` bytes) and feeds them to
/// `sink`.
fn sort_bucket(data: &[u8], shared: usize, tail: usize, sink: &mut impl GroupSink) {
    let mut items = Vec::new();
    let mut at = 0usize;
    for (key, t) in Records::new(data, tail) {
        let mut prefix = [0u8; 8];
        let rest = key.get(shared..).unwrap_or_default();
        let n = rest.len().min(8);
        prefix[..n].copy_from_slice(&rest[..n]);
        let mut order = [0u8; 8];
        order.copy_from_slice(&t[..ORDER]);
        items.push(Item {
            prefix: u64::from_be_bytes(prefix),
            order: u64::from_be_bytes(order),
            at: (at + 2) as u32,
            len: key.len() as u16,
        });
        at += 2 + key.len() + tail;
    }
    let key_of = |it: &Item| &data[it.at as usize..it.at as usize + it.len as usize];
    let compare = |a: &Item, b: &Item| {
        a.prefix
            .cmp(&b.prefix)
            .then_with(|| {
                let (ka, kb) = (key_of(a), key_of(b));
                ka.get(shared..)
                    .unwrap_or_default()
                    .cmp(kb.get(shared..).unwrap_or_default())
            })
            .then(a.order.cmp(&b.order))
    };
    if items.len() > 1 << 16 {
        items.par_sort_unstable_by(compare);
    } else {
        items.sort_unstable_by(compare);
    }
    let mut current: Option<&[u8]> = None;
    for it in &items {
        let key = key_of(it);
        if current.is_none_or(|c| c.cmp(key) != Ordering::Equal) {
            if current.is_some() {
                sink.end();
            }
            sink.begin(key);
            current = Some(key);
        }
        let t = it.at as usize + it.len as usize;
        sink.row(&data[t..t + tail]);
    }
    if current.is_some() {
        sink.end();
    }
}
