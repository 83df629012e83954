//! `kifudex analyse`: a USI engine over every main-line position of the selected games, one
//! engine process a job, each position's evaluation, best move, depth, nodes and the start
//! of its principal variation saved as the run goes (about once a second), so that a run
//! that is killed loses at most that second and the next run of the same engine and limits
//! goes on from there: nothing is analysed twice.
//!
//! Threads: a reader prepares each game's work from a connection of its own, the jobs each
//! drive one engine, and the caller's thread writes what they find. An engine that fails on
//! a position (a crash, a hang past its deadline, a best move that is no move) is reported,
//! restarted and asked again once; a position it fails twice is kept without an answer and
//! the run goes on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::progress::Progress;
use crate::store::{
    AnalysisKey, AnalysisWork, GameSet, PositionDetail, PositionResult, Store, StoreError,
};
use kifudex_evals::engine::{Deadlines, Engine, EngineCommand, EngineError, Limit};
use kifudex_shogi::{Move, Position};

/// How often what was found is written.
const SAVE_EVERY: Duration = Duration::from_secs(1);
/// How many engine failures a report lists one by one (the rest are counted).
const LISTED_FAILURES: usize = 20;

/// What to run and how.
#[derive(Debug, Clone)]
pub struct AnalyseRun {
    pub command: EngineCommand,
    /// Options set on every start (name, value).
    pub options: Vec<(String, String)>,
    pub limit: Limit,
    /// Engine processes at once (at least 1).
    pub jobs: usize,
    pub deadlines: Deadlines,
}

/// Why a run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum AnalyseError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a run did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct AnalyseReport {
    /// The engine and limits, as the database names the analysis.
    pub analysis: AnalysisKey,
    /// Games with positions left to analyse when the run started, and their positions.
    pub games: u64,
    pub positions: u64,
    /// Positions analysed already by an earlier run (of those games).
    pub resumed: u64,
    /// Positions this run analysed, with an answer or not.
    pub analysed: u64,
    /// Games whose whole main line is now analysed.
    pub completed: u64,
    /// Positions the engine failed twice (kept without an answer).
    pub unanswered: u64,
    /// Positions still to analyse (the engine could not be started again): the next run
    /// takes them up.
    pub left: u64,
    /// Engine failures, each followed by a restart.
    pub failures: u64,
    /// The first failures, in words.
    pub failure_notes: Vec<String>,
    pub seconds: f64,
}

/// The search limit as the database names it: `nodes 100000`, `movetime 500`, `depth 12`,
/// `byoyomi 1000`.
pub fn limit_text(limit: Limit) -> String {
    match limit {
        Limit::Nodes(n) => format!("nodes {n}"),
        Limit::Movetime(ms) => format!("movetime {ms}"),
        Limit::Depth(d) => format!("depth {d}"),
        Limit::Byoyomi(ms) => format!("byoyomi {ms}"),
    }
}

/// The engine as the database names an analysis: its `id name` (the program's name when it
/// gives none), then the options set, sorted, since they change what it finds
/// (`YaneuraOu NNUE 8.30 [BookFile=no_book, Threads=1]`).
pub fn engine_text(
    name: Option<&str>,
    command: &EngineCommand,
    options: &[(String, String)],
) -> String {
    let name = name.map_or_else(|| command.program.clone(), str::to_string);
    if options.is_empty() {
        return name;
    }
    let mut set: Vec<String> = options.iter().map(|(n, v)| format!("{n}={v}")).collect();
    set.sort();
    format!("{name} [{}]", set.join(", "))
}

/// What the jobs tell the writer.
enum Found {
    /// A game's work starts (with what earlier runs found).
    Begin(Box<AnalysisWork>),
    /// The next position of a game.
    Position(i64, PositionResult),
    /// An engine failed; it was restarted (or could not be: then the job stopped).
    Failure(String),
    /// The reader could not prepare a game: the run stops.
    Fatal(StoreError),
}

/// Runs the analysis of the games of `games` (every game when `None`), writing into `store`.
/// `warn` hears each engine failure as it happens.
pub fn analyse(
    store: &mut Store,
    games: Option<&GameSet>,
    run: &AnalyseRun,
    progress: &dyn Progress,
    warn: &(dyn Fn(&str) + Sync),
) -> Result<AnalyseReport, AnalyseError> {
    let started = Instant::now();
    let first = Engine::start(run.command.clone(), &run.options, run.deadlines)?;
    let engine = engine_text(first.name(), &run.command, &run.options);
    let options = serde_json::Value::Object(
        run.options
            .iter()
            .map(|(n, v)| (n.clone(), serde_json::Value::String(v.clone())))
            .collect(),
    );
    let key = store.analysis_key(
        &engine,
        &limit_text(run.limit),
        &run.command.to_string(),
        &options.to_string(),
    )?;
    let todo = store.games_to_analyse(key.id, games)?;
    let mut report = AnalyseReport {
        analysis: key.clone(),
        games: todo.len() as u64,
        positions: todo.iter().map(|t| t.positions as u64).sum(),
        resumed: todo.iter().map(|t| t.done as u64).sum(),
        analysed: 0,
        completed: 0,
        unanswered: 0,
        left: 0,
        failures: 0,
        failure_notes: Vec::new(),
        seconds: 0.0,
    };
    if todo.is_empty() {
        first.quit();
        report.seconds = started.elapsed().as_secs_f64();
        return Ok(report);
    }
    let left = report.positions - report.resumed;
    progress.stage("analysing", Some(left), "positions");
    let jobs = run.jobs.clamp(1, todo.len());
    let stop = AtomicBool::new(false);
    let (work_tx, work_rx) = mpsc::sync_channel::<AnalysisWork>(jobs);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (found_tx, found_rx) = mpsc::channel::<Found>();
    let dir = store.dir().to_path_buf();
    let analysis = key.id;
    let result = std::thread::scope(|scope| -> Result<(), AnalyseError> {
        // The reader: each game's work, from a connection of its own.
        {
            let found_tx = found_tx.clone();
            let stop = &stop;
            let todo = &todo;
            let dir = &dir;
            scope.spawn(move || {
                let prepare = || -> Result<(), StoreError> {
                    let reader = Store::open_read_only(dir)?;
                    for t in todo {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let work = reader.analysis_work(analysis, t)?;
                        if work_tx.send(work).is_err() {
                            break;
                        }
                    }
                    Ok(())
                };
                if let Err(e) = prepare() {
                    let _ = found_tx.send(Found::Fatal(e));
                }
            });
        }
        let mut first = Some(first);
        for _ in 0..jobs {
            let engine = first.take();
            let found_tx = found_tx.clone();
            let work_rx = Arc::clone(&work_rx);
            let stop = &stop;
            scope.spawn(move || job(engine, run, &work_rx, &found_tx, stop));
        }
        // When every job has stopped, the queue closes and the reader stops with it; when
        // the reader and the jobs have stopped, the writer's channel closes.
        drop(work_rx);
        drop(found_tx);
        write(store, found_rx, &mut report, progress, warn, left, started).inspect_err(|_| {
            stop.store(true, Ordering::Relaxed);
        })
    });
    // A reader or writer failure stops the jobs (they see `stop` or a closed channel).
    result?;
    report.seconds = started.elapsed().as_secs_f64();
    progress.finish();
    report.left = report.positions - report.resumed - report.analysed;
    Ok(report)
}

/// The writer: keeps each game's work, adds what the jobs find and saves it every
/// [`SAVE_EVERY`] and at the end.
fn write(
    store: &mut Store,
    found: mpsc::Receiver<Found>,
    report: &mut AnalyseReport,
    progress: &dyn Progress,
    warn: &(dyn Fn(&str) + Sync),
    left: u64,
    started: Instant,
) -> Result<(), AnalyseError> {
    let mut open: Vec<AnalysisWork> = Vec::new();
    let mut dirty = false;
    let mut saved_at = Instant::now();
    let save = |store: &mut Store, open: &mut Vec<AnalysisWork>, report: &mut AnalyseReport| {
        let all: Vec<&AnalysisWork> = open.iter().collect();
        store.save_analysis(&all)?;
        let before = open.len();
        open.retain(|w| !w.is_complete());
        report.completed += (before - open.len()) as u64;
        Ok::<(), StoreError>(())
    };
    loop {
        let msg = match found.recv_timeout(SAVE_EVERY) {
            Ok(m) => Some(m),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        match msg {
            Some(Found::Begin(w)) => open.push(*w),
            Some(Found::Position(game, r)) => {
                if r.detail.best.is_none() {
                    report.unanswered += 1;
                }
                if let Some(w) = open.iter_mut().find(|w| w.game == game) {
                    w.add(&r);
                }
                report.analysed += 1;
                dirty = true;
                progress.set(report.analysed);
            }
            Some(Found::Failure(note)) => {
                report.failures += 1;
                warn(&note);
                if report.failure_notes.len() < LISTED_FAILURES {
                    report.failure_notes.push(note);
                }
            }
            Some(Found::Fatal(e)) => {
                if dirty {
                    save(store, &mut open, report)?;
                }
                return Err(e.into());
            }
            None => {}
        }
        if dirty && saved_at.elapsed() >= SAVE_EVERY {
            save(store, &mut open, report)?;
            dirty = false;
            saved_at = Instant::now();
            let secs = started.elapsed().as_secs_f64().max(1e-3);
            progress.note(&format!(
                "{:.1} positions/s, {} of {left} done{}",
                report.analysed as f64 / secs,
                report.analysed,
                match report.failures {
                    0 => String::new(),
                    n => format!(", {n} engine failures"),
                }
            ));
        }
    }
    if dirty {
        save(store, &mut open, report)?;
    }
    Ok(())
}

/// One job: an engine (the one started first, or its own) over the games it takes from the
/// queue, until the queue is empty, the run stops or its engine cannot be started again.
fn job(
    engine: Option<Engine>,
    run: &AnalyseRun,
    work: &Mutex<mpsc::Receiver<AnalysisWork>>,
    found: &mpsc::Sender<Found>,
    stop: &AtomicBool,
) {
    let mut engine = match engine {
        Some(e) => e,
        None => match Engine::start(run.command.clone(), &run.options, run.deadlines) {
            Ok(e) => e,
            Err(e) => {
                let _ = found.send(Found::Failure(format!("cannot start another engine: {e}")));
                return;
            }
        },
    };
    loop {
        let next = work.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(w) = next else { break };
        let (game, start, moves, from, to) = (
            w.game,
            w.line.start.clone(),
            w.line.moves.clone(),
            w.done,
            w.positions,
        );
        if found.send(Found::Begin(Box::new(w))).is_err() {
            break;
        }
        if !game_positions(
            &mut engine,
            run,
            game,
            &start,
            &moves,
            from..to,
            found,
            stop,
        ) {
            return;
        }
    }
    engine.quit();
}

/// Analyses the positions `plies` of a game; `false` when the job must stop.
#[allow(clippy::too_many_arguments)]
fn game_positions(
    engine: &mut Engine,
    run: &AnalyseRun,
    game: i64,
    start: &Position,
    moves: &[Move],
    plies: std::ops::Range<usize>,
    found: &mpsc::Sender<Found>,
    stop: &AtomicBool,
) -> bool {
    let failed = |engine: &mut Engine, doing: String, e: &EngineError| -> bool {
        let restarted = engine.restart();
        let then = match &restarted {
            Ok(()) => "restarted".to_string(),
            Err(r) => format!("it could not be restarted: {r}"),
        };
        let _ = found.send(Found::Failure(format!("game {game}, {doing}: {e}; {then}")));
        restarted.is_ok()
    };
    if let Err(e) = engine.new_game()
        && !failed(engine, "a new game".to_string(), &e)
    {
        return false;
    }
    for ply in plies {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let mut answer = None;
        for _attempt in 0..2 {
            match engine.analyse(start, &moves[..ply], run.limit) {
                Ok(a) => {
                    answer = Some(a);
                    break;
                }
                Err(e) => {
                    if !failed(engine, format!("position {ply}"), &e) {
                        return false;
                    }
                }
            }
        }
        let result = match answer {
            Some(a) => PositionResult {
                ply,
                score: a.score,
                depth: a.depth,
                detail: PositionDetail {
                    best: Some(a.best),
                    nodes: a.nodes,
                    pv: a.pv,
                },
            },
            None => PositionResult {
                ply,
                score: None,
                depth: None,
                detail: PositionDetail {
                    best: None,
                    nodes: None,
                    pv: Vec::new(),
                },
            },
        };
        if found.send(Found::Position(game, result)).is_err() {
            return false;
        }
    }
    true
}
