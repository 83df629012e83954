//! A USI engine driver: starts any USI engine command, sets its options, and asks it for its
//! evaluation and best move in positions, one at a time. It survives the engine: a crash, a
//! hang past the deadline (the engine is killed) or output it cannot read is a typed
//! [`EngineError`], never a panic, and [`Engine::restart`] starts the engine anew so that a
//! caller can go on with the next position.
//!
//! The conversation: `usi` … `usiok`, `setoption name N value V` for each option, `isready` …
//! `readyok`, then per game `usinewgame`, and per position `position sfen … moves …` and
//! `go …` until `bestmove`; `quit` at the end.

mod info;
mod process;

use std::fmt;
use std::time::{Duration, Instant};

use info::{BestWord, parse_bestmove, parse_info};
use process::{Process, Received};

use super::Score;
use kifudex_shogi::{Move, Position};

/// How many moves of the principal variation an analysis keeps.
pub const PV_MOVES: usize = 8;
/// How many of the engine's unreadable lines an analysis keeps for a report.
const KEPT_UNREAD: usize = 8;

/// An engine program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    pub program: String,
    pub args: Vec<String>,
}

impl EngineCommand {
    pub fn new(
        program: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> EngineCommand {
        EngineCommand {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// A command line as a user writes it: words separated by spaces, a word in double or
    /// single quotes keeping its spaces. `None` when it holds no program or a quote is open.
    pub fn from_command_line(line: &str) -> Option<EngineCommand> {
        let mut words = Vec::new();
        let mut word = String::new();
        let mut in_word = false;
        let mut quote = None;
        for c in line.chars() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => word.push(c),
                None if c == '"' || c == '\'' => {
                    quote = Some(c);
                    in_word = true;
                }
                None if c.is_whitespace() => {
                    if in_word {
                        words.push(std::mem::take(&mut word));
                        in_word = false;
                    }
                }
                None => {
                    word.push(c);
                    in_word = true;
                }
            }
        }
        if quote.is_some() {
            return None;
        }
        if in_word {
            words.push(word);
        }
        let mut words = words.into_iter();
        Some(EngineCommand::new(words.next()?, words))
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.program)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

/// How long the engine may take to answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// For `usiok` and `readyok` (an engine loading a large evaluation file takes seconds).
    pub start: Duration,
    /// For `bestmove`, beyond the time the limit itself gives the search.
    pub search: Duration,
}

impl Default for Deadlines {
    fn default() -> Deadlines {
        Deadlines {
            start: Duration::from_secs(60),
            search: Duration::from_secs(60),
        }
    }
}

/// How long a search may go on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `go nodes N`.
    Nodes(u64),
    /// `go movetime MS`.
    Movetime(u64),
    /// `go depth D`.
    Depth(u32),
    /// `go btime 0 wtime 0 byoyomi MS`: the form every USI engine takes (gpsusi takes no
    /// other).
    Byoyomi(u64),
}

impl Limit {
    /// The `go` command.
    pub fn go(self) -> String {
        match self {
            Limit::Nodes(n) => format!("go nodes {n}"),
            Limit::Movetime(ms) => format!("go movetime {ms}"),
            Limit::Depth(d) => format!("go depth {d}"),
            Limit::Byoyomi(ms) => format!("go btime 0 wtime 0 byoyomi {ms}"),
        }
    }

    /// The time the limit itself gives the search.
    fn time(self) -> Duration {
        match self {
            Limit::Movetime(ms) | Limit::Byoyomi(ms) => Duration::from_millis(ms),
            Limit::Nodes(_) | Limit::Depth(_) => Duration::ZERO,
        }
    }
}

/// The engine's choice in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A move, legal in the position.
    Move(Move),
    /// `bestmove resign`.
    Resign,
    /// `bestmove win`: the engine declares an entering-king win.
    Win,
}

/// What the engine said of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Its last evaluation of the principal variation, from sente's point of view; `None`
    /// when it gave none (a book move).
    pub score: Option<Score>,
    pub best: BestMove,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// The most nodes it reported.
    pub nodes: Option<u64>,
    /// The first moves of the principal variation, each legal where it is played (up to
    /// [`PV_MOVES`]; cut at the first move that is not).
    pub pv: Vec<Move>,
    /// Lines it printed that are no USI kifudex reads (the first few); they were ignored.
    pub unread: Vec<String>,
}

/// Why the engine gave no analysis.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("cannot start the engine '{program}': {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("the engine stopped ({status}) while {doing}{}", stderr_note(.stderr))]
    Exited {
        doing: String,
        status: String,
        stderr: String,
    },
    #[error("the engine gave no answer within {} s while {doing}; it was killed", .waited.as_secs_f64())]
    Timeout { doing: String, waited: Duration },
    #[error("cannot write to the engine while {doing}: {source}")]
    Write {
        doing: String,
        source: std::io::Error,
    },
    #[error("the engine's best move '{text}' {why} (position {sfen})")]
    BadBestMove {
        text: String,
        why: String,
        sfen: String,
    },
    #[error("the engine has no option '{name}' (it has: {known})")]
    UnknownOption { name: String, known: String },
    #[error("the position to analyse cannot be reached: move {ply} ({mv}) cannot be played")]
    Unplayable { ply: usize, mv: String },
    #[error("the engine is not running after an earlier failure; restart it")]
    NotRunning,
}

fn stderr_note(stderr: &str) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!(
            "; it said: {}",
            kifudex_notation::record::excerpt(stderr, 300)
        )
    }
}

/// A running USI engine.
pub struct Engine {
    command: EngineCommand,
    options: Vec<(String, String)>,
    deadlines: Deadlines,
    process: Option<Process>,
    name: Option<String>,
    option_names: Vec<String>,
    restarts: usize,
}

impl Engine {
    /// Starts `command`, says `usi`, sets `options` (name, value; an empty value for a
    /// button), and waits for `readyok`. An option the engine does not list is an error
    /// (names starting with `USI_` excepted: USI defines them for every engine).
    pub fn start(
        command: EngineCommand,
        options: &[(String, String)],
        deadlines: Deadlines,
    ) -> Result<Engine, EngineError> {
        let mut engine = Engine {
            command,
            options: options.to_vec(),
            deadlines,
            process: None,
            name: None,
            option_names: Vec::new(),
            restarts: 0,
        };
        engine.launch()?;
        Ok(engine)
    }

    /// The engine's `id name`, when it gave one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The options the engine listed after `usi`.
    pub fn option_names(&self) -> &[String] {
        &self.option_names
    }

    pub fn command(&self) -> &EngineCommand {
        &self.command
    }

    /// How many times [`Engine::restart`] started it anew.
    pub fn restarts(&self) -> usize {
        self.restarts
    }

    /// Whether the engine is running (no failure since it was last started).
    pub fn is_running(&self) -> bool {
        self.process.is_some()
    }

    /// Kills the engine if it still runs and starts it again with the same command, options
    /// and deadlines: what a caller does after an error to go on.
    pub fn restart(&mut self) -> Result<(), EngineError> {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        self.restarts += 1;
        self.launch()
    }

    /// Says `usinewgame`: the positions that follow belong to another game.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("usinewgame", "starting a new game")
    }

    /// Asks for the evaluation and best move of the position after `moves` from `start`.
    /// The best move must be legal there; the score is turned to sente's point of view.
    pub fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
        limit: Limit,
    ) -> Result<Analysis, EngineError> {
        let mut pos = start.clone();
        for (i, &mv) in moves.iter().enumerate() {
            if pos.play(mv).is_err() {
                return Err(EngineError::Unplayable {
                    ply: i + 1,
                    mv: mv.usi(),
                });
            }
        }
        self.send(&position_command(start, moves), "sending the position")?;
        self.send(&limit.go(), "starting the search")?;
        let deadline = self.deadlines.search + limit.time();
        let mut search = Search::default();
        let until = Instant::now() + deadline;
        let best = loop {
            let line = self.receive(until, deadline, "searching")?;
            if line.split_ascii_whitespace().next() == Some("bestmove") {
                let word = parse_bestmove(&line).ok_or_else(|| EngineError::BadBestMove {
                    text: String::new(),
                    why: "names no move".to_string(),
                    sfen: pos.to_sfen(),
                })?;
                break word_to_move(word, &pos)?;
            }
            search.read(&line);
        };
        Ok(search.finish(best, &pos))
    }

    /// Says `quit` and waits a moment for the engine to exit; kills it if it does not.
    pub fn quit(mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = p.send("quit");
            if p.exit_status(Duration::from_secs(2)).is_none() {
                p.kill();
            }
        }
    }

    /// Starts the process and holds the conversation up to `readyok`.
    fn launch(&mut self) -> Result<(), EngineError> {
        let process = Process::spawn(&self.command).map_err(|source| EngineError::Spawn {
            program: self.command.program.clone(),
            source,
        })?;
        self.process = Some(process);
        self.name = None;
        self.option_names.clear();
        self.send("usi", "starting")?;
        let wait = self.deadlines.start;
        let until = Instant::now() + wait;
        loop {
            let line = self.receive(until, wait, "waiting for usiok")?;
            let mut words = line.split_ascii_whitespace();
            match (words.next(), words.next()) {
                (Some("usiok"), _) => break,
                (Some("id"), Some("name")) => {
                    self.name = Some(words.collect::<Vec<_>>().join(" "));
                }
                (Some("option"), Some("name")) => {
                    let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
                    self.option_names.push(name.join(" "));
                }
                _ => {}
            }
        }
        for (name, value) in self.options.clone() {
            if !name.starts_with("USI_") && !self.option_names.contains(&name) {
                let known = self.option_names.join(", ");
                if let Some(mut p) = self.process.take() {
                    p.kill();
                }
                return Err(EngineError::UnknownOption { name, known });
            }
            let command = if value.is_empty() {
                format!("setoption name {name}")
            } else {
                format!("setoption name {name} value {value}")
            };
            self.send(&command, "setting its options")?;
        }
        self.send("isready", "getting ready")?;
        loop {
            let line = self.receive(until, wait, "waiting for readyok")?;
            if line.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    fn send(&mut self, line: &str, doing: &str) -> Result<(), EngineError> {
        let p = self.process.as_mut().ok_or(EngineError::NotRunning)?;
        if let Err(source) = p.send(line) {
            // A closed pipe is a crash: report it as one, with what the engine said.
            let err = self.failure(doing);
            return Err(match err {
                EngineError::Exited { .. } => err,
                _ => EngineError::Write {
                    doing: doing.to_string(),
                    source,
                },
            });
        }
        Ok(())
    }

    /// The engine's next line; on a crash or past `until` the engine is stopped and the error
    /// returned (`waited`: the deadline, for the report).
    fn receive(
        &mut self,
        until: Instant,
        waited: Duration,
        doing: &str,
    ) -> Result<String, EngineError> {
        let p = self.process.as_mut().ok_or(EngineError::NotRunning)?;
        match p.receive(until) {
            Received::Line(line) => Ok(line),
            Received::Closed => Err(self.failure(doing)),
            Received::TimedOut => {
                if let Some(mut p) = self.process.take() {
                    p.kill();
                }
                Err(EngineError::Timeout {
                    doing: doing.to_string(),
                    waited,
                })
            }
        }
    }

    /// Takes the process down after it failed and says how it ended.
    fn failure(&mut self, doing: &str) -> EngineError {
        let Some(mut p) = self.process.take() else {
            return EngineError::NotRunning;
        };
        let status = p.exit_status(Duration::from_secs(2));
        let stderr = p.stderr_tail();
        p.kill();
        EngineError::Exited {
            doing: doing.to_string(),
            status: status.unwrap_or_else(|| "its output closed".to_string()),
            stderr,
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = p.send("quit");
            p.kill();
        }
    }
}

/// `position startpos moves …` or `position sfen … moves …`.
fn position_command(start: &Position, moves: &[Move]) -> String {
    let mut s = if start.is_startpos() && start.move_number() == 1 {
        "position startpos".to_string()
    } else {
        format!("position sfen {}", start.to_sfen())
    };
    if !moves.is_empty() {
        s.push_str(" moves");
        for m in moves {
            s.push(' ');
            s.push_str(&m.usi());
        }
    }
    s
}

/// The `bestmove` word as a move legal in `pos`.
fn word_to_move(word: BestWord<'_>, pos: &Position) -> Result<BestMove, EngineError> {
    let bad = |text: &str, why: String| EngineError::BadBestMove {
        text: text.to_string(),
        why,
        sfen: pos.to_sfen(),
    };
    match word {
        BestWord::Resign => Ok(BestMove::Resign),
        BestWord::Win => Ok(BestMove::Win),
        BestWord::Move(text) => {
            let mv =
                Move::from_usi(text).map_err(|e| bad(text, format!("is no move: {}", e.reason)))?;
            if pos.is_legal(mv) {
                Ok(BestMove::Move(mv))
            } else {
                Err(bad(text, "is not legal".to_string()))
            }
        }
    }
}

/// What the `info` lines of one search said so far.
#[derive(Default)]
struct Search {
    score: Option<Score>,
    depth: Option<u32>,
    seldepth: Option<u32>,
    nodes: Option<u64>,
    pv: Vec<String>,
    unread: Vec<String>,
}

impl Search {
    fn read(&mut self, line: &str) {
        let word = line.split_ascii_whitespace().next().unwrap_or("");
        let Some(info) = parse_info(line) else {
            if !word.is_empty() && self.unread.len() < KEPT_UNREAD {
                self.unread
                    .push(kifudex_notation::record::excerpt(line, 200).into_owned());
            }
            return;
        };
        if let Some(n) = info.nodes {
            self.nodes = Some(self.nodes.map_or(n, |m| m.max(n)));
        }
        // The principal variation's line: the first of several, or the only one.
        if info.multipv.is_some_and(|m| m != 1) {
            return;
        }
        if let Some(score) = info.score {
            self.score = Some(score);
            self.depth = info.depth.or(self.depth);
            self.seldepth = info.seldepth.or(self.seldepth);
            if !info.pv.is_empty() {
                self.pv = info
                    .pv
                    .iter()
                    .take(PV_MOVES)
                    .map(|s| s.to_string())
                    .collect();
            }
        }
    }

    fn finish(self, best: BestMove, pos: &Position) -> Analysis {
        let mut pv = Vec::new();
        let mut p = pos.clone();
        for text in &self.pv {
            let Ok(mv) = Move::from_usi(text) else {
                break;
            };
            if !p.is_legal(mv) || p.play(mv).is_err() {
                break;
            }
            pv.push(mv);
        }
        Analysis {
            score: self.score.map(|s| s.from_side(pos.side_to_move())),
            best,
            depth: self.depth,
            seldepth: self.seldepth,
            nodes: self.nodes,
            pv,
            unread: self.unread,
        }
    }
}
