//! The engine's process: started with its standard streams piped, its output read by a thread
//! into lines (bounded in length and in how many wait unread), its last error output kept for
//! reports, and killed (with any process it started) when it must stop.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::EngineCommand;

/// The longest line of the engine's output kept; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;
/// Lines read but not yet taken; the reader waits when that many are queued, so an engine
/// printing without end cannot fill the memory.
const QUEUED_LINES: usize = 4096;
/// How much of the engine's error output is kept for reports (its end).
const STDERR_TAIL: usize = 2048;

/// What waiting for the engine's next line gave.
pub(crate) enum Received {
    Line(String),
    /// The engine closed its output: it exited or crashed.
    Closed,
    TimedOut,
}

pub(crate) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
}

impl Process {
    /// Starts `command`. A bare program name not on the PATH is also looked for in
    /// /usr/games, where Debian installs engines.
    pub fn spawn(command: &EngineCommand) -> io::Result<Process> {
        let mut child = match build(&command.program, &command.args).spawn() {
            Err(e) if e.kind() == io::ErrorKind::NotFound && !command.program.contains('/') => {
                let games = format!("/usr/games/{}", command.program);
                if std::path::Path::new(&games).is_file() {
                    build(&games, &command.args).spawn()?
                } else {
                    return Err(e);
                }
            }
            other => other?,
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other(
                "the engine's standard streams are not piped",
            ));
        };
        let (tx, lines) = sync_channel(QUEUED_LINES);
        std::thread::Builder::new()
            .name("engine-stdout".into())
            .spawn(move || read_lines(stdout, tx))?;
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let keep = Arc::clone(&tail);
        std::thread::Builder::new()
            .name("engine-stderr".into())
            .spawn(move || keep_tail(stderr, &keep))?;
        Ok(Process {
            child,
            stdin,
            lines,
            stderr: tail,
        })
    }

    /// Writes one command line.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.write_all(b"\n")?;
        self.stdin.flush()
    }

    /// The engine's next line, waiting until `deadline` at most.
    pub fn receive(&self, deadline: Instant) -> Received {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Received::Line(line),
            Err(RecvTimeoutError::Timeout) => Received::TimedOut,
            Err(RecvTimeoutError::Disconnected) => Received::Closed,
        }
    }

    /// How the process ended, waiting up to `grace` for it; `None` if it is still running.
    pub fn exit_status(&mut self, grace: Duration) -> Option<String> {
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status.to_string()),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                Ok(None) => return None,
                Err(e) => return Some(format!("with an unknown status ({e})")),
            }
        }
    }

    /// The end of what the engine wrote to its error output, on one line.
    pub fn stderr_tail(&self) -> String {
        // Give the stderr thread a moment to take what a crashing engine wrote last.
        std::thread::sleep(Duration::from_millis(20));
        let tail = match self.stderr.lock() {
            Ok(t) => t.iter().copied().collect::<Vec<u8>>(),
            Err(poisoned) => poisoned.into_inner().iter().copied().collect(),
        };
        String::from_utf8_lossy(&tail)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Stops the engine now, with whatever it started, and reaps it.
    pub fn kill(&mut self) {
        #[cfg(target_os = "linux")]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // The engine leads its own process group (see `build`): a wrapper script's engine
            // goes with it.
            // SAFETY: kill(2) with a negative pid signals that process group; no memory is
            // involved.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            self.kill();
        }
    }
}

fn build(program: &str, args: &[String]) -> Command {
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    command
}

/// Splits the engine's output into lines (without `\r`), each cut at [`MAX_LINE`] bytes, and
/// queues them; stops at the end of the output or when nobody listens any more.
fn read_lines(stdout: impl Read, tx: SyncSender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        let (done, used) = match reader.fill_buf() {
            Ok([]) => break,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    take(&mut line, &buf[..i]);
                    (true, i + 1)
                }
                None => {
                    take(&mut line, buf);
                    (false, buf.len())
                }
            },
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        reader.consume(used);
        if done && tx.send(finish(&mut line)).is_err() {
            return;
        }
    }
    if !line.is_empty() {
        let _ = tx.send(finish(&mut line));
    }
}

fn take(line: &mut Vec<u8>, bytes: &[u8]) {
    let room = MAX_LINE.saturating_sub(line.len());
    line.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

fn finish(line: &mut Vec<u8>) -> String {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    let text = String::from_utf8_lossy(line).into_owned();
    line.clear();
    text
}

/// Keeps the last [`STDERR_TAIL`] bytes of the engine's error output.
fn keep_tail(mut stderr: impl Read, tail: &Mutex<VecDeque<u8>>) {
    let mut buf = [0u8; 1024];
    loop {
        match stderr.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                let Ok(mut t) = tail.lock() else {
                    return;
                };
                t.extend(&buf[..n]);
                let extra = t.len().saturating_sub(STDERR_TAIL);
                t.drain(..extra);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}
