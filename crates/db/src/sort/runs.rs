//! Sorting more variable-length records than memory holds: each record is a key and a
//! payload, both bytes, ordered by the key's bytes. Records gather in one buffer; past a
//! budget the buffer is sorted and written out as a run; at the end the runs are merged, so
//! memory holds one buffer while sorting and one record a run while merging.

use std::cmp::Ordering;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

/// Bytes of key kept beside each record's place, so that most comparisons read no further.
const PREFIX: usize = 16;

#[derive(Clone, Copy)]
struct Item {
    prefix: [u8; PREFIX],
    start: usize,
    key_len: u32,
    payload_len: u32,
}

/// Records being gathered, to be read back sorted by key.
pub(crate) struct RunSort {
    dir: PathBuf,
    budget: usize,
    buf: Vec<u8>,
    items: Vec<Item>,
    runs: Vec<PathBuf>,
}

impl RunSort {
    /// Runs, when needed, go into `dir` (created then, removed by [`RunSort::sorted`] or on
    /// drop); a run is written each time the records held reach `budget` bytes.
    pub(crate) fn new(dir: &Path, budget: usize) -> RunSort {
        RunSort {
            dir: dir.to_path_buf(),
            budget: budget.max(1),
            buf: Vec::new(),
            items: Vec::new(),
            runs: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, key: &[u8], payload: &[u8]) -> std::io::Result<()> {
        let mut prefix = [0u8; PREFIX];
        let n = key.len().min(PREFIX);
        prefix[..n].copy_from_slice(&key[..n]);
        self.items.push(Item {
            prefix,
            start: self.buf.len(),
            key_len: key.len() as u32,
            payload_len: payload.len() as u32,
        });
        self.buf.extend_from_slice(key);
        self.buf.extend_from_slice(payload);
        if self.buf.len() + self.items.len() * std::mem::size_of::<Item>() >= self.budget {
            self.write_run()?;
        }
        Ok(())
    }

    fn key<'a>(buf: &'a [u8], item: &Item) -> &'a [u8] {
        &buf[item.start..item.start + item.key_len as usize]
    }

    fn sort_items(&mut self) {
        let buf = &self.buf;
        self.items.par_sort_unstable_by(|a, b| {
            a.prefix
                .cmp(&b.prefix)
                .then_with(|| Self::key(buf, a).cmp(Self::key(buf, b)))
        });
    }

    fn write_run(&mut self) -> std::io::Result<()> {
        if self.items.is_empty() {
            return Ok(());
        }
        if self.runs.is_empty() {
            std::fs::create_dir_all(&self.dir)?;
        }
        self.sort_items();
        let path = self.dir.join(format!("run-{:04}", self.runs.len()));
        self.runs.push(path.clone());
        let mut w = BufWriter::with_capacity(256 * 1024, File::create(&path)?);
        for it in &self.items {
            let end = it.start + it.key_len as usize + it.payload_len as usize;
            w.write_all(&it.key_len.to_le_bytes())?;
            w.write_all(&it.payload_len.to_le_bytes())?;
            w.write_all(&self.buf[it.start..end])?;
        }
        w.flush()?;
        self.items.clear();
        self.buf.clear();
        Ok(())
    }

    /// Calls `each` with every record's key and payload, in key order (records with equal
    /// keys in no set order), then removes the runs; the sort's own I/O errors become `E`
    /// through `io`. The first error stops it.
    pub(crate) fn sorted<E>(
        mut self,
        io: impl Fn(std::io::Error) -> E,
        mut each: impl FnMut(&[u8], &[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.runs.is_empty() {
            self.sort_items();
            for it in &self.items {
                let k = it.start + it.key_len as usize;
                each(
                    &self.buf[it.start..k],
                    &self.buf[k..k + it.payload_len as usize],
                )?;
            }
            return Ok(());
        }
        self.write_run().map_err(&io)?;
        self.buf = Vec::new();
        self.items = Vec::new();
        let result = merge(&self.runs, &io, &mut each);
        let _ = std::fs::remove_dir_all(&self.dir);
        self.runs.clear();
        result
    }
}

impl Drop for RunSort {
    fn drop(&mut self) {
        if !self.runs.is_empty() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// One run being merged: its reader and its current record (key then payload).
struct Head {
    reader: BufReader<File>,
    record: Vec<u8>,
    key_len: usize,
    done: bool,
}

impl Head {
    fn advance(&mut self) -> std::io::Result<()> {
        let mut lens = [0u8; 8];
        match self.reader.read_exact(&mut lens) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                self.done = true;
                return Ok(());
            }
            Err(e) => return Err(e),
        }
        let key_len = u32::from_le_bytes([lens[0], lens[1], lens[2], lens[3]]) as usize;
        let payload_len = u32::from_le_bytes([lens[4], lens[5], lens[6], lens[7]]) as usize;
        self.record.resize(key_len + payload_len, 0);
        self.reader.read_exact(&mut self.record)?;
        self.key_len = key_len;
        Ok(())
    }

    fn key(&self) -> &[u8] {
        &self.record[..self.key_len]
    }
}

/// Merges sorted runs: a binary heap of the runs ordered by their current key.
fn merge<E>(
    runs: &[PathBuf],
    io: impl Fn(std::io::Error) -> E,
    each: &mut impl FnMut(&[u8], &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let mut heads = Vec::with_capacity(runs.len());
    for path in runs {
        let mut h = Head {
            reader: BufReader::with_capacity(256 * 1024, File::open(path).map_err(&io)?),
            record: Vec::new(),
            key_len: 0,
            done: false,
        };
        h.advance().map_err(&io)?;
        if !h.done {
            heads.push(h);
        }
    }
    let less =
        |heads: &[Head], a: usize, b: usize| heads[a].key().cmp(heads[b].key()) == Ordering::Less;
    // heap[0] is the run with the least key.
    let mut heap: Vec<usize> = (0..heads.len()).collect();
    let sift_down = |heap: &mut [usize], heads: &[Head], mut i: usize| {
        loop {
            let l = 2 * i + 1;
            if l >= heap.len() {
                break;
            }
            let r = l + 1;
            let c = if r < heap.len() && less(heads, heap[r], heap[l]) {
                r
            } else {
                l
            };
            if less(heads, heap[c], heap[i]) {
                heap.swap(c, i);
                i = c;
            } else {
                break;
            }
        }
    };
    for i in (0..heap.len() / 2).rev() {
        sift_down(&mut heap, &heads, i);
    }
    while let Some(&top) = heap.first() {
        {
            let h = &heads[top];
            each(&h.record[..h.key_len], &h.record[h.key_len..])?;
        }
        heads[top].advance().map_err(&io)?;
        if heads[top].done {
            let last = heap.len() - 1;
            heap.swap(0, last);
            heap.pop();
        }
        sift_down(&mut heap, &heads, 0);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys and payloads of many lengths (long shared prefixes, keys that are prefixes of
    /// others), sorted through runs and in memory, equal a plain sort.
    #[test]
    fn runs_merge_to_the_plain_sort() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut records: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        for i in 0..5_000u32 {
            let len = (next() % 40) as usize;
            let mut key = b"lnsgkgsnl/1r5b1/".to_vec();
            key.truncate((next() % 17) as usize);
            key.extend((0..len).map(|_| b"ab\0c"[(next() % 4) as usize]));
            records.push((key, i.to_le_bytes().to_vec()));
        }
        let mut want = records.clone();
        want.sort();
        for budget in [1 << 30, 4096, 1000] {
            let dir = std::env::temp_dir()
                .join(format!("kifudex-runs-test-{}-{budget}", std::process::id()));
            let mut s = RunSort::new(&dir, budget);
            for (k, p) in &records {
                s.push(k, p).unwrap();
            }
            let mut got: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
            s.sorted(
                |e| e,
                |k, p| {
                    got.push((k.to_vec(), p.to_vec()));
                    Ok(())
                },
            )
            .unwrap();
            // Equal keys come in no set order: compare keys, and the records as a set.
            let keys = |v: &[(Vec<u8>, Vec<u8>)]| v.iter().map(|r| r.0.clone()).collect::<Vec<_>>();
            assert_eq!(keys(&got), keys(&want), "budget {budget}");
            got.sort();
            assert_eq!(got, want, "budget {budget}");
            assert!(!dir.exists(), "runs removed");
        }
    }
}
