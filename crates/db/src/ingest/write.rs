//! The writer side of an import: one thread writes what the workers parsed, in the order
//! of the walk, committing in batches, and hands the text thread what each commit added.

use super::*;

/// What the writer hands the text thread after each database commit.
pub(super) struct TextJob {
    deleted: Vec<i64>,
    added: Vec<GameText>,
    /// Games whose text changed (a twin filled their facts), their text now, how many of
    /// them were never indexed, and the database's revision.
    revised: Vec<i64>,
    revised_texts: Vec<GameText>,
    pending: usize,
    revision: i64,
}

/// The text thread: applies each commit's games to the index, commits it every
/// [`TEXT_COMMIT_EVERY`] and when the writer is done.
pub(super) fn index_text(
    mut text: TextIndex,
    jobs: mpsc::Receiver<TextJob>,
) -> Result<(), TextError> {
    let mut committed = Instant::now();
    for job in jobs {
        text.apply(&job.deleted, &job.added)?;
        if !job.revised.is_empty() {
            text.revise(&job.revised, &job.revised_texts, job.pending, job.revision)?;
        }
        if committed.elapsed() >= TEXT_COMMIT_EVERY {
            text.commit()?;
            committed = Instant::now();
        }
    }
    text.finish()
}

pub(super) fn write_all(
    sink: &mut Sink<'_, '_>,
    rx: mpsc::Receiver<Part>,
    written: &AtomicUsize,
    options: &ImportOptions,
    progress: &mut ImportCounts,
    observer: &mut dyn Observer,
    watch: &dyn crate::progress::Progress,
) -> Result<(), IngestError> {
    let started = sink.started;
    let mut pending: BTreeMap<(usize, usize), Part> = BTreeMap::new();
    let (mut next_batch, mut next_part) = (0, 0);
    let mut batch_games = 0;
    let mut commits = 0u64;
    let mut batch_start = Instant::now();
    // A big file whose parts are being written: its id.
    let mut open: Option<i64> = None;
    for part in rx {
        pending.insert((part.batch, part.part), part);
        while let Some(part) = pending.remove(&(next_batch, next_part)) {
            if part.last {
                (next_batch, next_part) = (next_batch + 1, 0);
                written.store(next_batch, Ordering::Relaxed);
            } else {
                next_part += 1;
            }
            for p in part.parsed {
                if p.unchanged {
                    progress.unchanged += 1;
                    progress.files += 1;
                    progress.seconds = started.elapsed().as_secs_f64();
                    show(watch, progress);
                    continue;
                }
                if batch_games == 0 {
                    sink.db.begin()?;
                    batch_start = Instant::now();
                }
                let more = p.more;
                batch_games += write_source(sink, p, &mut open, progress, observer)?.max(1);
                if !more {
                    progress.files += 1;
                }
                if batch_games >= options.batch_games || batch_start.elapsed() >= options.batch_time
                {
                    sink.commit()?;
                    batch_games = 0;
                    commits += 1;
                    observer.committed(commits, progress.files);
                }
                progress.seconds = started.elapsed().as_secs_f64();
                show(watch, progress);
            }
        }
    }
    sink.commit()?;
    Ok(())
}

/// Where the writer thread writes: the database, and the text index derived from it.
pub(super) struct Sink<'s, 'c> {
    pub(super) db: &'s mut crate::store::Writer<'c>,
    pub(super) text: mpsc::SyncSender<TextJob>,
    /// The text of the games written since the last commit.
    pub(super) texts: Vec<GameText>,
    /// When the import started (its rate is counted from then).
    pub(super) started: Instant,
}

/// Games in one job of the text thread.
const TEXT_JOB_GAMES: usize = 2048;

/// The text index commits at most this often during an import (and at its end): each commit
/// makes a segment, and tantivy merges eight of them, which at 1,000,000 games cost 10
/// CPU-seconds when it committed every 10 s. An index left behind by a killed import is
/// repaired on the next open.
const TEXT_COMMIT_EVERY: Duration = Duration::from_secs(30);

impl Sink<'_, '_> {
    /// Commits the database, then hands the text thread what that commit added and deleted.
    fn commit(&mut self) -> Result<(), IngestError> {
        self.db.commit()?;
        let deleted = self.db.take_deleted();
        let (mut revised, revision) = self.db.take_revised();
        let mut revised_texts = Vec::new();
        let mut pending = 0;
        if !revised.is_empty() {
            revised.sort_unstable();
            revised.dedup();
            // A game written in this commit is indexed once, with its text as it is now.
            let before = self.texts.len();
            self.texts.retain(|t| revised.binary_search(&t.id).is_err());
            pending = before - self.texts.len();
            revised_texts = self.db.game_texts(&revised)?;
        }
        if deleted.is_empty() && self.texts.is_empty() && revised.is_empty() {
            return Ok(());
        }
        // In pieces, so that the few jobs the channel holds stay small.
        let mut texts = std::mem::take(&mut self.texts).into_iter().peekable();
        let mut deleted = Some(deleted);
        let mut revised = Some((revised, revised_texts));
        while deleted.is_some() || texts.peek().is_some() {
            let added: Vec<GameText> = texts.by_ref().take(TEXT_JOB_GAMES).collect();
            // The revised games go with the last job, after every game it adds.
            let (revised, revised_texts) = match texts.peek() {
                None => revised.take().unwrap_or_default(),
                Some(_) => Default::default(),
            };
            let job = TextJob {
                deleted: deleted.take().unwrap_or_default(),
                added,
                revised,
                revised_texts,
                pending,
                revision,
            };
            // A closed channel means the text thread stopped with an error, which the
            // import reports when it joins the thread.
            self.text.send(job).map_err(|_| IngestError::TextStopped)?;
        }
        Ok(())
    }
}

/// What the text index takes of a game just written as `id`.
fn game_text(id: i64, player_ids: [Option<i64>; 2], g: GameRow) -> GameText {
    let recognised = g.recognised.as_ref().map_or_else(Vec::new, |r| {
        crate::text::unique_names(
            r.opening
                .into_iter()
                .chain(r.items.iter().map(|i| i.name))
                .map(std::borrow::Cow::Borrowed),
        )
    });
    GameText {
        recognised,
        id,
        sente: g.sente,
        gote: g.gote,
        player_ids,
        event: g.event,
        opening: g.opening,
        title: g.title,
        headers: g.headers,
        comments: g
            .comments
            .into_iter()
            .map(|(ply, kind, text)| (ply as i64, kind, text))
            .collect(),
    }
}

/// Writes one parsed source with its games and errors; returns the games it held.
fn write_source(
    sink: &mut Sink<'_, '_>,
    p: Parsed,
    open: &mut Option<i64>,
    progress: &mut ImportCounts,
    observer: &mut dyn Observer,
) -> Result<usize, IngestError> {
    if let Some(id) = p.touch {
        sink.db.touch_source(id, p.source.mtime)?;
        progress.unchanged += 1;
        return Ok(0);
    }
    let writer = &mut *sink.db;
    // The first part of a big file writes its row as one to read again (no time, no hash):
    // a commit may come before its last part, and an import killed then leaves a source the
    // next import reads again whole, in place of the games written so far. The last part
    // completes the row.
    let source = match open.take() {
        Some(id) => {
            if !p.more {
                writer.finish_source(&p.source, id)?;
            }
            id
        }
        None if p.more => {
            let unfinished = SourceRow {
                mtime: 0,
                content_hash: String::new(),
                ..p.source.clone()
            };
            writer.put_source(&unfinished)?
        }
        None => writer.put_source(&p.source)?,
    };
    if p.more {
        *open = Some(source);
    } else if p.source.error.is_some() {
        progress.failed_files += 1;
    }
    let games = p.games.len();
    for (index, game) in p.games {
        match writer.put_game(source, index, &game)? {
            Inserted::New(id) => {
                progress.games += 1;
                let players = writer.last_players();
                sink.texts.push(game_text(id, players, game));
            }
            Inserted::Duplicate(_) => progress.duplicates += 1,
            Inserted::Twin(_) => {
                progress.duplicates += 1;
                progress.twins += 1;
            }
        }
    }
    for e in &p.errors {
        let at = e.line.zip(e.column);
        sink.db
            .put_error(source, e.game_index, at, &e.message, e.severity)?;
        match e.severity {
            Severity::Error => progress.errors += 1,
            Severity::Warning => progress.warnings += 1,
        }
        observer.problem(e);
    }
    Ok(games)
}
