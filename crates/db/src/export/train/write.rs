//! The records made from the games, taken in the games' order and written out many games at
//! a time: with `unique`, the positions of a whole batch go into the set of written ones at
//! once ([`Seen::insert_all`], on every core), and the first record of a position is still
//! the first in the games' order.

use std::collections::HashMap;
use std::sync::Mutex;

use super::seen::Seen;
use super::{GameItems, Item, TrainOptions, TrainReport};
use crate::export::{ExportError, Pending};

/// Records gathered before they are written: enough that each of the set's 65,536 tables
/// is reached for several positions at once, few enough to hold (some 15 MB).
const BATCH_RECORDS: usize = 1 << 18;

/// The most record vectors kept for the next games (some 20 MB of room): more than a batch
/// holds.
const SPARE_VECTORS: usize = 4096;

/// Record vectors written out, handed back to the workers for the next games: the records
/// are made on the workers and written here, and freeing them here had the allocator give
/// their memory back to the system and take it again: at 1,000,000 games, 17–19 system
/// CPU-s against 8 now.
#[derive(Default)]
pub(super) struct Spare(Mutex<Vec<Vec<Item>>>);

impl Spare {
    /// A vector for a game's records (empty, perhaps with room).
    pub fn take(&self) -> Vec<Item> {
        self.0
            .lock()
            .ok()
            .and_then(|mut s| s.pop())
            .unwrap_or_default()
    }

    fn give(&self, items: Vec<Item>) {
        if let Ok(mut s) = self.0.lock()
            && s.len() < SPARE_VECTORS
        {
            s.push(items);
        }
    }
}

/// The files being written, and what decides which records go into them.
pub(super) struct Writer<'a> {
    opts: &'a TrainOptions,
    /// With `min_games`: in how many games each position is reached.
    counts: Option<HashMap<u64, u32>>,
    seen: Seen,
    files: Vec<Pending>,
    /// With a shuffle, each file's records wait here.
    held: Vec<Vec<u8>>,
    /// Games taken and not yet written, in order, and their records' number.
    games: Vec<GameItems>,
    records: usize,
    done: usize,
    pub report: TrainReport,
    spare: &'a Spare,
}

impl<'a> Writer<'a> {
    pub fn new(
        opts: &'a TrainOptions,
        counts: Option<HashMap<u64, u32>>,
        files: Vec<Pending>,
        report: TrainReport,
        spare: &'a Spare,
    ) -> Writer<'a> {
        Writer {
            opts,
            counts,
            seen: Seen::default(),
            held: vec![Vec::new(); files.len()],
            files,
            games: Vec::new(),
            records: 0,
            done: 0,
            report,
            spare,
        }
    }

    /// Takes the next game's records; `progress` hears the games written so far.
    pub fn take(
        &mut self,
        game: GameItems,
        progress: &mut impl FnMut(usize),
    ) -> Result<(), ExportError> {
        self.records += game.items.len();
        self.games.push(game);
        if self.records >= BATCH_RECORDS {
            self.write_games(progress)?;
        }
        Ok(())
    }

    /// Writes the games taken so far.
    fn write_games(&mut self, progress: &mut impl FnMut(usize)) -> Result<(), ExportError> {
        let games = std::mem::take(&mut self.games);
        self.records = 0;
        let opts = self.opts;
        // Whether each record not left out as rare is the first of its position.
        let first = if opts.unique {
            let hashes: Vec<u64> = games
                .iter()
                .flat_map(|g| &g.items)
                .map(|item| item.hash)
                .filter(|&h| !rare(&self.counts, opts, h))
                .collect();
            self.seen.insert_all(&hashes)
        } else {
            Vec::new()
        };
        let mut first = first.into_iter();
        let len = opts.format.record_len();
        let report = &mut self.report;
        let (files, held) = (&mut self.files, &mut self.held);
        for g in games {
            report.games_without_result += usize::from(g.no_result);
            report.games_cut_at_illegal_move += usize::from(g.cut);
            report.skipped_not_full_set += g.not_full_set;
            report.skipped_in_check += g.in_check;
            report.skipped_unevaluated += g.unevaluated;
            for item in &g.items {
                if rare(&self.counts, opts, item.hash) {
                    report.skipped_rare += 1;
                    continue;
                }
                if opts.unique && first.next() == Some(false) {
                    report.skipped_repeated += 1;
                    continue;
                }
                report.evaluated += u64::from(item.evaluated);
                report.engine_moves += u64::from(item.engine_move);
                let file = usize::from(item.test);
                if item.test {
                    report.test_records += 1;
                } else {
                    report.records += 1;
                }
                let bytes = &item.bytes[..len];
                if opts.shuffle.is_some() {
                    held[file].extend_from_slice(bytes);
                } else {
                    files[file].write_all(bytes)?;
                }
            }
            self.spare.give(g.items);
            self.done += 1;
            progress(self.done);
        }
        Ok(())
    }

    /// Writes what is left (and the shuffled records) and closes the files.
    pub fn finish(mut self, progress: &mut impl FnMut(usize)) -> Result<TrainReport, ExportError> {
        self.write_games(progress)?;
        let len = self.opts.format.record_len();
        if let Some(seed) = self.opts.shuffle {
            for (i, (file, records)) in self.files.iter_mut().zip(&mut self.held).enumerate() {
                super::select::shuffle(records, len, seed.wrapping_add(i as u64));
                file.write_all(records)?;
            }
        }
        let mut report = self.report;
        report.bytes = (report.records + report.test_records) * len as u64;
        for f in self.files {
            f.finish()?;
        }
        Ok(report)
    }
}

/// Whether a position is reached in fewer games than `min_games` (`counts`: in how many games
/// each is, when `min_games` asks).
fn rare(counts: &Option<HashMap<u64, u32>>, opts: &TrainOptions, hash: u64) -> bool {
    counts
        .as_ref()
        .is_some_and(|c| c.get(&hash).copied().unwrap_or(0) < opts.min_games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::train::TrainFormat;
    use std::collections::HashSet;

    /// Games of 1 to 200 records each, more records in all than a batch holds, whose
    /// positions repeat within games, across games and across the batch boundary; some in
    /// the test file.
    fn games() -> Vec<GameItems> {
        let mut x = 0x853c_49e6_748f_ea9bu64;
        let mut n = 0u32;
        let mut games = Vec::new();
        while n < (BATCH_RECORDS as u32) * 5 / 4 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 200) as usize + 1;
            let test = x.is_multiple_of(7);
            let items = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // 60,000 positions, spread over the whole 64 bits.
                    let hash = (x % 60_000).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    n += 1;
                    let mut bytes = [0u8; 40];
                    bytes[..4].copy_from_slice(&n.to_le_bytes());
                    bytes[30..38].copy_from_slice(&hash.to_le_bytes());
                    Item {
                        hash,
                        test,
                        evaluated: n.is_multiple_of(3),
                        engine_move: n.is_multiple_of(5),
                        bytes,
                    }
                })
                .collect();
            games.push(GameItems {
                items,
                no_result: x.is_multiple_of(11),
                ..GameItems::default()
            });
        }
        games
    }

    /// Writing in batches gives the files and counts of the records taken one at a time, in
    /// order, with a `HashSet` of the positions written and the rare ones left out first.
    #[test]
    fn batches_write_what_one_record_at_a_time_writes() {
        let dir = std::env::temp_dir().join(format!("kifudex-train-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (main, test) = (dir.join("main.hcpe"), dir.join("test.hcpe"));
        let mut opts = TrainOptions::new(TrainFormat::Hcpe, main.clone());
        opts.unique = true;
        opts.min_games = 2;
        let all = games();
        // Positions reached in "one game" only: every 10th.
        let counts: HashMap<u64, u32> = all
            .iter()
            .flat_map(|g| &g.items)
            .map(|i| (i.hash, if i.hash.is_multiple_of(10) { 1 } else { 2 }))
            .collect();

        let mut want: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        let mut seen = HashSet::new();
        let (mut rare, mut repeated, mut evaluated, mut without_result) = (0, 0, 0, 0);
        for g in &all {
            without_result += usize::from(g.no_result);
            for i in &g.items {
                if counts[&i.hash] < 2 {
                    rare += 1;
                } else if !seen.insert(i.hash) {
                    repeated += 1;
                } else {
                    evaluated += u64::from(i.evaluated);
                    want[usize::from(i.test)].extend_from_slice(&i.bytes[..38]);
                }
            }
        }

        let files = vec![
            Pending::create(&main).unwrap(),
            Pending::create(&test).unwrap(),
        ];
        let spare = Spare::default();
        let mut writer = Writer::new(&opts, Some(counts), files, TrainReport::default(), &spare);
        let n_games = all.len();
        let mut heard = 0;
        let mut progress = |n| heard = n;
        for g in all {
            writer.take(g, &mut progress).unwrap();
        }
        let report = writer.finish(&mut progress).unwrap();
        let got = [std::fs::read(&main).unwrap(), std::fs::read(&test).unwrap()];
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(repeated > 10_000 && rare > 10_000, "{repeated} {rare}");
        assert_eq!(got[0].len(), want[0].len());
        assert!(got[0] == want[0] && got[1] == want[1]);
        assert_eq!(report.records as usize, want[0].len() / 38);
        assert_eq!(report.test_records as usize, want[1].len() / 38);
        assert_eq!(report.skipped_repeated, repeated);
        assert_eq!(report.skipped_rare, rare);
        assert_eq!(report.evaluated, evaluated);
        assert_eq!(report.games_without_result, without_result);
        assert_eq!(report.bytes as usize, (want[0].len() + want[1].len()));
        assert_eq!(heard, n_games);
    }
}
