//! `kifudex serve`: the explorer page and its JSON API over HTTP, read-only.
//!
//! Three kinds of threads: one accepts connections; a thread a connection (see [`http`], at
//! most 256) reads its requests and answers files and errors itself; queries go to a few
//! workers, each with its own read connection to the database, through a short queue (a full
//! one is answered `503` at once, so the server never holds more than it can work off), and
//! a connection that waits longer than the time limit answers `503` without waiting further.
//! Every list has a limit (see [`api`]).

mod api;
mod cache;
mod facts;
pub mod http;
mod params;
mod questions;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use http::{Answer, Head, Listening};

pub use api::{ApiError, answer};
pub use cache::Cache;
pub use params::Params;

use crate::store::Store;
use facts::FactsHolder;

/// The page's files, compiled into the binary: the page works offline.
const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const PANELS_JS: &str = include_str!("page/panels.js");
const EVALS_JS: &str = include_str!("page/evals.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// How the server runs.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub db: PathBuf,
    pub addr: SocketAddr,
    /// Threads that run queries, each with its own connection.
    pub workers: usize,
    /// Queries waiting for a worker; more are answered 503 at once.
    pub queue: usize,
    /// The longest a query may take before its request is answered 503.
    pub time_limit: Duration,
    /// Bytes of answers kept for requests that ask the same again (0: none kept).
    pub cache_bytes: usize,
    /// Hold the games' facts in memory for the panels (see [`facts`]): about 100 bytes a
    /// game, read by a thread of their own at start and after the database changes.
    pub facts: bool,
}

impl ServeOptions {
    pub fn new(db: &Path, addr: SocketAddr) -> ServeOptions {
        ServeOptions {
            db: db.to_path_buf(),
            addr,
            workers: 4,
            queue: 256,
            time_limit: Duration::from_secs(10),
            cache_bytes: cache::DEFAULT_BUDGET,
            facts: true,
        }
    }
}

/// What can stop the server from starting.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, String),
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
}

/// A query handed to a worker, with where to send its answer.
struct Job {
    path: String,
    params: Params,
    reply: SyncSender<Result<Vec<u8>, ApiError>>,
}

/// A running server; dropping it does not stop it (call [`Running::stop`]).
pub struct Running {
    listening: Listening,
    addr: SocketAddr,
    workers: Vec<thread::JoinHandle<()>>,
    jobs: SyncSender<Job>,
    facts: Option<(Arc<FactsHolder>, Arc<Cache>)>,
}

impl Running {
    /// The address it listens on (the port chosen when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Whether the panels count from the games' facts in memory yet (they are read by a
    /// thread of their own after the server starts).
    pub fn facts_ready(&self) -> bool {
        self.facts.as_ref().is_some_and(|(h, c)| h.ready(c))
    }

    /// Blocks until the server stops (it runs until the process ends).
    pub fn wait(self) {
        self.listening.wait();
    }

    /// Stops accepting and lets the workers end once the connections open are done.
    pub fn stop(self) {
        self.listening.stop();
        drop(self.jobs);
        drop(self.workers);
    }
}

/// Listens on `addr` with Nagle's algorithm off for every connection (TCP_NODELAY on the
/// listening socket, which Linux passes on to the connections it accepts; each connection
/// sets it again). An answer written in two parts would otherwise wait for the client to
/// acknowledge the first, which a client on a kept-alive connection (a browser) delays by
/// 40 ms.
fn listen(addr: SocketAddr) -> std::io::Result<std::net::TcpListener> {
    let listener = std::net::TcpListener::bind(addr)?;
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let on: libc::c_int = 1;
        // SAFETY: the descriptor is the listener's own, open while `listener` lives; the
        // option's value is a c_int that outlives the call, and its size is passed with it.
        let rc = unsafe {
            libc::setsockopt(
                listener.as_raw_fd(),
                libc::IPPROTO_TCP,
                libc::TCP_NODELAY,
                (&on as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            )
        };
        if rc != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(listener)
}

/// Opens the database read-only (to fail early when there is none, or when it needs
/// `kifudex upgrade`) and starts serving it. The server never writes the database.
pub fn start(opts: &ServeOptions) -> Result<Running, ServeError> {
    // Checked once here, so that a wrong --db is an error at start, not on every request.
    drop(Store::open_read_only(&opts.db)?);
    let bind = |e: &dyn std::fmt::Display| ServeError::Bind(opts.addr, e.to_string());
    let listener = listen(opts.addr).map_err(|e| bind(&e))?;
    let (job_tx, job_rx) = sync_channel::<Job>(opts.queue.max(1));
    let job_rx = Arc::new(Mutex::new(job_rx));
    let cache = Arc::new(Cache::new(opts.cache_bytes));
    let facts = opts.facts.then(|| Arc::new(FactsHolder::new(&opts.db)));
    if let Some(f) = &facts {
        // Read from the start: the first panel asked is likely to find them.
        f.get(&cache);
    }
    let mut workers = Vec::new();
    for _ in 0..opts.workers.max(1) {
        let rx = Arc::clone(&job_rx);
        let db = opts.db.clone();
        let cache = Arc::clone(&cache);
        let facts = facts.clone();
        workers.push(thread::spawn(move || {
            work(&db, &rx, &cache, facts.as_ref())
        }));
    }
    let limit = opts.time_limit;
    let jobs = job_tx.clone();
    let handler = move |head: &Head| handle(head, &jobs, limit);
    let listening = http::serve(listener, Arc::new(handler)).map_err(|e| bind(&e))?;
    Ok(Running {
        addr: listening.addr(),
        listening,
        workers,
        jobs: job_tx,
        facts: facts.map(|f| (f, cache)),
    })
}

/// Answers one request: the page's files here, API calls through a worker.
fn handle(head: &Head, jobs: &SyncSender<Job>, limit: Duration) -> Answer {
    if head.method != "GET" && head.method != "HEAD" {
        return error_answer(&ApiError::Method);
    }
    let (path, query) = head.target.split_once('?').unwrap_or((&head.target, ""));
    let file = match path {
        "/" | "/index.html" => Some((INDEX_HTML, "text/html; charset=utf-8")),
        "/app.js" => Some((APP_JS, "text/javascript; charset=utf-8")),
        "/panels.js" => Some((PANELS_JS, "text/javascript; charset=utf-8")),
        "/evals.js" => Some((EVALS_JS, "text/javascript; charset=utf-8")),
        "/style.css" => Some((STYLE_CSS, "text/css; charset=utf-8")),
        _ => None,
    };
    if let Some((body, kind)) = file {
        return Answer {
            status: 200,
            content_type: kind,
            body: body.as_bytes().to_vec(),
        };
    }
    if !path.starts_with("/api/") {
        return error_answer(&ApiError::NotFound(format!("no page {path}")));
    }
    let params = match Params::parse(query) {
        Ok(p) => p,
        Err(e) => return error_answer(&e),
    };
    let (tx, rx) = sync_channel(1);
    let job = Job {
        path: path.to_string(),
        params,
        reply: tx,
    };
    if let Err(e) = jobs.try_send(job) {
        let why = match e {
            TrySendError::Full(_) => ApiError::Busy("every worker is busy; try again"),
            TrySendError::Disconnected(_) => ApiError::Busy("the server is stopping"),
        };
        return error_answer(&why);
    }
    match rx.recv_timeout(limit) {
        Ok(Ok(body)) => Answer {
            status: 200,
            content_type: questions::content_type(path),
            body,
        },
        Ok(Err(e)) => error_answer(&e),
        Err(RecvTimeoutError::Timeout) => error_answer(&ApiError::TooSlow(limit)),
        Err(RecvTimeoutError::Disconnected) => {
            error_answer(&ApiError::Internal("the query stopped".into()))
        }
    }
}

/// The API calls whose answers are kept (see [`cache`]): all but the text search, whose
/// index is written apart from the database.
/// The board's PNG picture is not kept either: the cache holds text.
fn cacheable(path: &str) -> bool {
    path != "/api/text" && path != "/api/board.png"
}

/// The answer to an API call: the board's PNG picture, or the text of the others.
fn reply(store: &Store, path: &str, params: &Params) -> Result<Vec<u8>, ApiError> {
    if path == "/api/board.png" {
        return questions::board_png(store, params);
    }
    answer(store, path, params).map(String::into_bytes)
}

fn next<T>(rx: &Mutex<Receiver<T>>) -> Option<T> {
    rx.lock().ok()?.recv().ok()
}

/// A worker: answers queries on its own connection, opened again after a failure.
fn work(
    db: &Path,
    rx: &Mutex<Receiver<Job>>,
    cache: &Arc<Cache>,
    facts: Option<&Arc<FactsHolder>>,
) {
    // Opened, and the position index read, before the first question: a worker that opened
    // at its first job made that question (the page's first, often) wait for both, and
    // emptied the answers the other workers had kept.
    let mut store = Store::open_read_only(db).ok();
    if let Some(s) = &store {
        let _ = s.position_index(true);
    }
    let mut seen = store.as_ref().and_then(|s| s.data_version().ok());
    while let Some(job) = next(rx) {
        if store.is_none() {
            match Store::open_read_only(db) {
                Ok(s) => store = Some(s),
                Err(e) => {
                    let _ = job.reply.send(Err(ApiError::Internal(e.to_string())));
                    continue;
                }
            }
            // Opened again after a failure: what other workers kept may predate this
            // connection's view.
            cache.changed();
            seen = None;
        }
        let s = store.as_ref().expect("opened above");
        let version = s.data_version().ok();
        if version.is_none() || version != seen {
            if seen.is_some() {
                cache.changed();
            }
            seen = version;
        }
        let key = cacheable(&job.path).then(|| format!("{}?{}", job.path, job.params.key()));
        if let Some(body) = key.as_deref().and_then(|k| cache.get(k)) {
            let _ = job.reply.send(Ok(body.as_bytes().to_vec()));
            continue;
        }
        let generation = cache.generation();
        // The facts of this generation, when read: the connection's selections and the
        // panels' counts come from them (see `facts`).
        s.hold_facts(facts.and_then(|f| f.get(cache)));
        // A panic in one query must not take the worker (and the server's capacity) with it.
        let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            reply(s, &job.path, &job.params)
        }))
        .unwrap_or_else(|_| Err(ApiError::Internal("the query failed".into())));
        if matches!(out, Err(ApiError::Internal(_))) {
            store = None;
        }
        if let (Some(key), Ok(body)) = (key, &out)
            && let Ok(text) = std::str::from_utf8(body)
        {
            cache.put(key, generation, Arc::from(text));
        }
        let _ = job.reply.send(out);
    }
}

fn error_answer(e: &ApiError) -> Answer {
    http::error(e.status(), &e.to_string())
}

#[cfg(test)]
mod tests {
    /// Every connection the server accepts has Nagle's algorithm off (see `listen`).
    #[test]
    #[cfg(target_os = "linux")]
    fn accepted_connections_have_nodelay() {
        let listener = super::listen("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = listener.local_addr().unwrap();
        let client = std::net::TcpStream::connect(addr).unwrap();
        let (accepted, _) = listener.accept().unwrap();
        assert!(accepted.nodelay().unwrap());
        // Not so without it: the client's own socket, made without the option.
        assert!(!client.nodelay().unwrap());
    }
}
