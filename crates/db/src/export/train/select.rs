//! The training export's plumbing: games read and turned into records on one worker a core,
//! handed back in id order (so that "the first record of a position" is the same every run);
//! the split into train and test games; the seeded shuffle.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use super::TrainOptions;
use crate::export::ExportError;
use crate::export::pool::with_workers;
use crate::store::Store;
use kifudex_notation::Record;

/// Games a batch: large enough that handing out costs nothing, small enough to spread.
const BATCH: usize = 64;

/// A split of the games into train and test: each game goes to one side, by its id and the
/// seed, so that no position of a test game is learned from.
#[derive(Clone, Debug)]
pub struct Split {
    /// The share of games for the test file, 0–1.
    pub fraction: f64,
    pub seed: u64,
    /// The test file.
    pub out: PathBuf,
}

impl Split {
    /// Whether the game with this id is a test game.
    pub fn is_test(&self, id: i64) -> bool {
        let x = mix(self.seed ^ (id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        // The top 53 bits as a number in [0, 1).
        ((x >> 11) as f64 / (1u64 << 53) as f64) < self.fraction
    }
}

/// SplitMix64's finaliser: a well-spread 64-bit number from any other.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Runs `make` on every game of `ids` (its id and record) on the workers and `take` on the
/// results here, in the order of `ids`.
pub(super) fn each_game<T: Send>(
    store: &Store,
    ids: &[i64],
    make: impl Fn(i64, &Record) -> T + Sync,
    mut take: impl FnMut(T) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    let work = |store: &Store, (n, batch): (usize, Vec<i64>)| {
        let mut out = Vec::with_capacity(batch.len());
        // One read transaction a batch (SQLite locks once), and the batch's games read in
        // one pass over their range when they are most of it: only the record is needed,
        // its moves replayed without the rules (each_game's callers play them again).
        let _read = store.read_transaction()?;
        store.games_to_write(&batch, |id, game| {
            let game = game.ok_or(ExportError::Missing(id))?;
            out.push(make(id, &game.record));
            Ok::<(), ExportError>(())
        })?;
        Ok((n, out))
    };
    with_workers(store, work, |feed| {
        // Batches done out of order wait here for the ones before them.
        let mut waiting: BTreeMap<usize, Vec<T>> = BTreeMap::new();
        let mut next = 0usize;
        let mut drain = |done: Vec<(usize, Vec<T>)>,
                         waiting: &mut BTreeMap<usize, Vec<T>>|
         -> Result<(), ExportError> {
            waiting.extend(done);
            while let Some(batch) = waiting.remove(&next) {
                for t in batch {
                    take(t)?;
                }
                next += 1;
            }
            Ok(())
        };
        for (n, chunk) in ids.chunks(BATCH).enumerate() {
            let done = feed.send((n, chunk.to_vec()))?;
            drain(done, &mut waiting)?;
        }
        let done = feed.finish()?;
        drain(done, &mut waiting)
    })
}

/// In how many of the games `ids` each position is reached (`hashes` gives a game's
/// positions, each once).
pub(super) fn count_games(
    store: &Store,
    ids: &[i64],
    opts: &TrainOptions,
    hashes: fn(&Record, &TrainOptions) -> Vec<u64>,
) -> Result<HashMap<u64, u32>, ExportError> {
    let mut counts: HashMap<u64, u32> = HashMap::new();
    each_game(
        store,
        ids,
        |_, record| hashes(record, opts),
        |hs| {
            for h in hs {
                *counts.entry(h).or_insert(0) += 1;
            }
            Ok(())
        },
    )?;
    Ok(counts)
}

/// Shuffles the records of `len` bytes each held in `records` (Fisher–Yates, driven by
/// SplitMix64 from `seed`): the same seed gives the same order.
pub(super) fn shuffle(records: &mut [u8], len: usize, seed: u64) {
    let n = records.len() / len;
    let mut state = seed;
    let mut tmp = vec![0u8; len];
    for i in (1..n).rev() {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let j = (mix(state) % (i as u64 + 1)) as usize;
        if i != j {
            tmp.copy_from_slice(&records[j * len..(j + 1) * len]);
            records.copy_within(i * len..(i + 1) * len, j * len);
            records[i * len..(i + 1) * len].copy_from_slice(&tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffle_moves_whole_records_and_repeats_with_its_seed() {
        let mut a: Vec<u8> = (0..100u8).flat_map(|i| [i, i, i]).collect();
        let mut b = a.clone();
        shuffle(&mut a, 3, 7);
        shuffle(&mut b, 3, 7);
        assert_eq!(a, b);
        let mut firsts: Vec<u8> = a.chunks(3).map(|c| c[0]).collect();
        assert!(a.chunks(3).all(|c| c[0] == c[1] && c[1] == c[2]));
        assert_ne!(firsts, (0..100u8).collect::<Vec<_>>());
        firsts.sort();
        assert_eq!(firsts, (0..100u8).collect::<Vec<_>>());
        let mut c: Vec<u8> = (0..100u8).flat_map(|i| [i, i, i]).collect();
        shuffle(&mut c, 3, 8);
        assert_ne!(a, c);
    }

    #[test]
    fn a_split_takes_about_its_share_and_always_the_same_games() {
        let split = Split {
            fraction: 0.1,
            seed: 42,
            out: PathBuf::new(),
        };
        let tests: Vec<i64> = (1..=10_000).filter(|&id| split.is_test(id)).collect();
        assert!((900..=1100).contains(&tests.len()), "{}", tests.len());
        let again: Vec<i64> = (1..=10_000).filter(|&id| split.is_test(id)).collect();
        assert_eq!(tests, again);
        let none = Split {
            fraction: 0.0,
            ..split.clone()
        };
        assert!((1..=1000).all(|id| !none.is_test(id)));
        let all = Split {
            fraction: 1.0,
            ..split
        };
        assert!((1..=1000).all(|id| all.is_test(id)));
    }
}
