//! One bucket of a [`super::KeyRanges`] sorted in memory: by windows of its keys' bytes,
//! integers only, then fed to a [`GroupSink`] key by key.

use std::cell::RefCell;

use rayon::slice::ParallelSliceMut;

use super::{GroupSink, ORDER};

/// The records of a run of bytes: each key and tail.
pub(super) struct Records<'a> {
    bytes: &'a [u8],
    tail: usize,
}

impl<'a> Records<'a> {
    pub(super) fn new(bytes: &'a [u8], tail: usize) -> Records<'a> {
        Records { bytes, tail }
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let (&len, rest) = self.bytes.split_first()?;
        let len = usize::from(len);
        let (key, rest) = rest.split_at_checked(len)?;
        let (tail, rest) = rest.split_at_checked(self.tail)?;
        self.bytes = rest;
        Some((key, tail))
    }
}

/// Bytes of a key an [`Item`] holds at a time.
const WINDOW: usize = 16;

/// A record's place in a bucket being sorted, with the bytes of its key being compared.
#[derive(Clone, Copy)]
struct Item {
    /// [`WINDOW`] bytes of the key (zeros past its end), big-endian, in two words (an
    /// item of 32 bytes, not the 48 a `u128` would align it to).
    window: [u64; 2],
    /// How many of them the key has.
    filled: u8,
    /// The tail's order bytes.
    order: u64,
    /// Where the key starts in the bucket, and its length.
    at: u32,
    len: u16,
    /// Once sorted: the key is the one before's.
    same: bool,
}

impl Item {
    /// The key's window at byte `from`.
    #[inline]
    fn fill(&mut self, data: &[u8], from: usize) {
        let key = &data[self.at as usize..self.at as usize + self.len as usize];
        let rest = key.get(from..).unwrap_or_default();
        let n = rest.len().min(WINDOW);
        let mut window = [0u8; WINDOW];
        match rest.first_chunk::<WINDOW>() {
            Some(full) => window = *full,
            None => {
                for (w, &b) in window.iter_mut().zip(rest) {
                    *w = b;
                }
            }
        }
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&window[i * 8..i * 8 + 8]);
            u64::from_be_bytes(w)
        };
        self.window = [word(0), word(1)];
        self.filled = n as u8;
    }
}

/// Sorts `items` (whose keys agree before byte `from`, windows filled there) by key then
/// order: by window, then the runs of items whose full windows agree by the next window.
/// Only integers are compared. Marks the items whose key is the one before's.
fn sort_items(items: &mut [Item], data: &[u8], from: usize) {
    // The window's bytes, then how many the key has (a key that ends sorts before the keys
    // it starts), then the order bytes (what decides between equal keys, and is put right
    // again where the windows go on).
    let compare = |a: &Item, b: &Item| {
        (a.window[0], a.window[1], a.filled, a.order).cmp(&(
            b.window[0],
            b.window[1],
            b.filled,
            b.order,
        ))
    };
    if items.len() > 1 << 16 {
        items.par_sort_unstable_by(compare);
    } else {
        items.sort_unstable_by(compare);
    }
    let mut start = 0;
    while start < items.len() {
        let first = items[start];
        let end = start
            + items[start..]
                .iter()
                .take_while(|it| it.window == first.window && it.filled == first.filled)
                .count();
        if end - start > 1 {
            let run = &mut items[start..end];
            if usize::from(first.filled) == WINDOW {
                for it in run.iter_mut() {
                    it.fill(data, from + WINDOW);
                }
                sort_items(run, data, from + WINDOW);
            } else {
                // The keys end in this window: all equal.
                for it in &mut run[1..] {
                    it.same = true;
                }
            }
        }
        start = end;
    }
}

/// Sorts one bucket's records (the rest of keys that all start with `prefix`) and feeds them
/// to `sink`.
pub(super) fn sort_bucket(data: &[u8], prefix: &[u8], tail: usize, sink: &mut impl GroupSink) {
    thread_local! {
        static ITEMS: RefCell<Vec<Item>> = const { RefCell::new(Vec::new()) };
    }
    let mut items = ITEMS.with_borrow_mut(std::mem::take);
    items.clear();
    let mut at = 0usize;
    for (key, t) in Records::new(data, tail) {
        let mut order = [0u8; 8];
        order.copy_from_slice(&t[..ORDER]);
        let mut item = Item {
            window: [0; 2],
            filled: 0,
            order: u64::from_be_bytes(order),
            at: (at + 1) as u32,
            len: key.len() as u16,
            same: false,
        };
        item.fill(data, 0);
        items.push(item);
        at += 1 + key.len() + tail;
    }
    sort_items(&mut items, data, 0);
    let key_of = |it: &Item| &data[it.at as usize..it.at as usize + it.len as usize];
    let mut open = false;
    let mut key = prefix.to_vec();
    for it in &items {
        if !it.same {
            if open {
                sink.end();
            }
            key.truncate(prefix.len());
            key.extend_from_slice(key_of(it));
            sink.begin(&key);
            open = true;
        }
        let t = it.at as usize + it.len as usize;
        sink.row(&data[t..t + tail]);
    }
    if open {
        sink.end();
    }
    ITEMS.set(items);
}
