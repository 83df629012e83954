//! The records made from the games, taken in the games' order and written out many games at
//! a time: with `unique`, the positions of a whole batch go into the set of written ones at
//! once ([`Seen::insert_all`], on every core), and the first record of a position is still
//! the first in the games' order.

use std::collections::HashMap;

use super::seen::Seen;
use super::{GameItems, TrainOptions, TrainReport};
use crate::export::{ExportError, Pending};

/// Records gathered before they are written: enough that each of the set's 65,536 tables
/// is reached for several positions at once, few enough to hold (some 30 MB).
const BATCH_RECORDS: usize = 1 << 19;

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
}

impl<'a> Writer<'a> {
    pub fn new(
        opts: &'a TrainOptions,
        counts: Option<HashMap<u64, u32>>,
        files: Vec<Pending>,
        report: TrainReport,
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
            for item in g.items {
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
