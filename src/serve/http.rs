//! The server's HTTP/1.1, on the standard library's sockets: one thread a connection (at most
//! [`MAX_CONNECTIONS`] at once; more are answered 503 and closed), connections kept alive
//! until the client closes them or stays idle for [`IDLE`], GET and HEAD only, heads of at
//! most [`MAX_HEAD`] bytes, and each answer written with one call (head and body together:
//! no wait for the client's acknowledgement of the head).
//!
//! It replaced tiny_http, whose thread pool left connections that came in a burst unread
//! until another connection closed: kept-alive clients (a browser opens six at once) waited
//! for ever.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 256;
/// The longest request head (request line and headers), in bytes.
pub const MAX_HEAD: usize = 16 << 10;
/// How long a kept-alive connection may wait for its next request.
pub const IDLE: Duration = Duration::from_secs(60);
/// How long writing an answer may take.
const WRITE_LIMIT: Duration = Duration::from_secs(30);

/// A request as the server reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub method: String,
    /// The request target: path and query (`/api/tree?play=7g7f`).
    pub target: String,
    /// Whether the client keeps the connection for another request.
    pub keep_alive: bool,
    /// A body follows (`Content-Length` above 0, or chunked): not read, so the connection
    /// is closed after the answer.
    pub has_body: bool,
}

/// Why a head could not be read: the answer is 400 and the connection closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadHead(pub String);

/// Reads a request head (without its final empty line), whatever bytes it holds: never a
/// panic, a [`BadHead`] for anything that is not HTTP/1.0 or 1.1.
pub fn parse_head(head: &[u8]) -> Result<Head, BadHead> {
    let bad = |why: &str| BadHead(why.to_string());
    let text = std::str::from_utf8(head).map_err(|_| bad("the request head is not UTF-8"))?;
    let mut lines = text.split("\r\n").flat_map(|l| l.split('\n'));
    let line = lines.next().unwrap_or("");
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad("the request line is not METHOD TARGET VERSION"));
    };
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        _ => return Err(bad("only HTTP/1.0 and HTTP/1.1 are spoken")),
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(bad("the method is no word of capitals"));
    }
    if !target.starts_with('/') {
        return Err(bad("the target is no path"));
    }
    let mut keep_alive = !http10;
    let mut has_body = false;
    for header in lines {
        if header.is_empty() {
            continue;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(bad("a header line without a colon"));
        };
        let value = value.trim().to_ascii_lowercase();
        if name.eq_ignore_ascii_case("connection") {
            if value.split(',').any(|v| v.trim() == "close") {
                keep_alive = false;
            } else if value.split(',').any(|v| v.trim() == "keep-alive") {
                keep_alive = true;
            }
        } else if name.eq_ignore_ascii_case("content-length") {
            has_body |= value != "0";
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            has_body = true;
        }
    }
    Ok(Head {
        method: method.to_string(),
        target: target.to_string(),
        keep_alive: keep_alive && !has_body,
        has_body,
    })
}

/// An answer: status, content type and body.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Internal Server Error",
    }
}

/// The answer's bytes, head and body (no body for HEAD).
fn encode(answer: &Answer, keep_alive: bool, head_only: bool) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: {}\r\n\r\n",
        answer.status,
        reason(answer.status),
        answer.content_type,
        answer.body.len(),
        if keep_alive { "keep-alive" } else { "close" }
    )
    .into_bytes();
    if !head_only {
        out.extend_from_slice(&answer.body);
    }
    out
}

/// What a connection thread calls for each request.
pub type Handler = dyn Fn(&Head) -> Answer + Send + Sync;

/// A listening server: accepts until [`Listening::stop`].
pub struct Listening {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<thread::JoinHandle<()>>,
}

impl Listening {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting; connections open finish their request under way and close.
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accepting thread, blocked in accept().
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }

    /// Blocks while the server runs (until the process ends).
    pub fn wait(mut self) {
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

/// Serves `listener` with `handler`, a thread a connection.
pub fn serve(listener: TcpListener, handler: Arc<Handler>) -> std::io::Result<Listening> {
    let addr = listener.local_addr()?;
    let stop = Arc::new(AtomicBool::new(false));
    let open = Arc::new(AtomicUsize::new(0));
    let accept = {
        let stop = Arc::clone(&stop);
        thread::Builder::new()
            .name("kifudex-accept".into())
            .spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else {
                        // Out of descriptors, or a connection reset before it was taken:
                        // a pause, not a loop that spins on the error.
                        thread::sleep(Duration::from_millis(10));
                        continue;
                    };
                    if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                        open.fetch_sub(1, Ordering::SeqCst);
                        refuse(stream);
                        continue;
                    }
                    let (counter, stop, handler) =
                        (Arc::clone(&open), Arc::clone(&stop), Arc::clone(&handler));
                    let spawned =
                        thread::Builder::new()
                            .name("kifudex-conn".into())
                            .spawn(move || {
                                connection(stream, &*handler, &stop);
                                counter.fetch_sub(1, Ordering::SeqCst);
                            });
                    if spawned.is_err() {
                        // No thread for it: the stream was closed with the closure.
                        open.fetch_sub(1, Ordering::SeqCst);
                    }
                }
            })?
    };
    Ok(Listening {
        addr,
        stop,
        accept: Some(accept),
    })
}

/// More connections than the server takes: 503, closed.
fn refuse(mut stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let answer = Answer {
        status: 503,
        content_type: "application/json; charset=utf-8",
        body: "{\"error\":\"too many connections; try again\"}".into(),
    };
    let _ = stream.write_all(&encode(&answer, false, false));
    let _ = stream.shutdown(Shutdown::Both);
}

/// Reads requests from one connection and answers each, until the client closes, stays idle
/// past [`IDLE`], sends what is not HTTP, or the server stops.
fn connection(stream: TcpStream, handler: &Handler, stop: &AtomicBool) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_read_timeout(Some(IDLE));
    let _ = stream.set_write_timeout(Some(WRITE_LIMIT));
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    let mut head = Vec::new();
    loop {
        head.clear();
        match read_head(&mut reader, &mut head) {
            Ok(true) => {}
            Ok(false) => return,
            Err(HeadTooLong) => {
                let answer = error(431, "the request head is too long");
                let _ = writer.write_all(&encode(&answer, false, false));
                return linger(&writer, reader);
            }
        }
        let (answer, keep_alive, head_only) = match parse_head(&head) {
            Ok(h) => {
                let head_only = h.method == "HEAD";
                (handler(&h), h.keep_alive, head_only)
            }
            Err(BadHead(why)) => (error(400, &why), false, false),
        };
        let keep_alive = keep_alive && !stop.load(Ordering::SeqCst);
        if writer
            .write_all(&encode(&answer, keep_alive, head_only))
            .is_err()
        {
            return;
        }
        if !keep_alive {
            return linger(&writer, reader);
        }
    }
}

/// Closes a connection whose client may still be sending (a body, the rest of a long head):
/// the answer is sent and the writing side closed first, then what comes in is read and
/// dropped for a moment, so that closing does not reset the connection before the client
/// has read the answer.
fn linger(writer: &TcpStream, mut reader: BufReader<TcpStream>) {
    let _ = writer.shutdown(Shutdown::Write);
    let _ = writer.set_read_timeout(Some(Duration::from_secs(1)));
    let _ = std::io::copy(&mut reader.by_ref().take(1 << 20), &mut std::io::sink());
}

/// A JSON error answer.
pub fn error(status: u16, message: &str) -> Answer {
    Answer {
        status,
        content_type: "application/json; charset=utf-8",
        body: serde_json::json!({ "error": message })
            .to_string()
            .into_bytes(),
    }
}

/// A head longer than [`MAX_HEAD`].
struct HeadTooLong;

/// Reads up to the empty line that ends a head (CRLF or LF line ends), leaving it out;
/// `Ok(false)` when the connection ended (or idled out, or failed) before a head began or
/// within one. Empty lines before a request line are skipped, as RFC 9112 allows.
fn read_head(reader: &mut BufReader<TcpStream>, head: &mut Vec<u8>) -> Result<bool, HeadTooLong> {
    loop {
        let start = head.len();
        let mut limited = reader.by_ref().take((MAX_HEAD + 2 - start) as u64);
        let n = match limited.read_until(b'\n', head) {
            Ok(n) => n,
            Err(_) => return Ok(false),
        };
        if n == 0 {
            return Ok(false);
        }
        if !head.ends_with(b"\n") {
            // Cut by the limit (or by the connection's end within the line).
            return if head.len() > MAX_HEAD {
                Err(HeadTooLong)
            } else {
                Ok(false)
            };
        }
        let line_len = head.len() - start;
        let blank = line_len <= 2 && head[start..].iter().all(|&b| b == b'\r' || b == b'\n');
        if blank {
            head.truncate(start);
            if start == 0 {
                continue;
            }
            return Ok(true);
        }
        if head.len() > MAX_HEAD {
            return Err(HeadTooLong);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_read_or_refused_in_words() {
        let h = parse_head(b"GET /api/tree?play=7g7f HTTP/1.1\r\nHost: x\r\n").unwrap();
        assert_eq!(
            h,
            Head {
                method: "GET".into(),
                target: "/api/tree?play=7g7f".into(),
                keep_alive: true,
                has_body: false,
            }
        );
        // HTTP/1.0 closes unless asked; 1.1 keeps unless asked; a body closes.
        assert!(!parse_head(b"GET / HTTP/1.0\r\n").unwrap().keep_alive);
        assert!(
            parse_head(b"GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n")
                .unwrap()
                .keep_alive
        );
        assert!(
            !parse_head(b"GET / HTTP/1.1\r\nconnection: close\r\n")
                .unwrap()
                .keep_alive
        );
        let b = parse_head(b"POST / HTTP/1.1\r\nContent-Length: 5\r\n").unwrap();
        assert!(b.has_body && !b.keep_alive);
        assert!(parse_head(b"GET / HTTP/1.1\nHost: x\n").is_ok());
        for (bad, why) in [
            (&b""[..], "METHOD TARGET VERSION"),
            (b"GET /", "METHOD TARGET VERSION"),
            (b"GET / HTTP/1.1 x", "METHOD TARGET VERSION"),
            (b"GET / HTTP/2.0", "HTTP/1.0 and HTTP/1.1"),
            (b"get / HTTP/1.1", "capitals"),
            (b"GET x HTTP/1.1", "no path"),
            (b"GET / HTTP/1.1\r\nno colon", "without a colon"),
            (b"GET /\xff HTTP/1.1", "not UTF-8"),
        ] {
            let e = parse_head(bad).unwrap_err();
            assert!(e.0.contains(why), "{bad:?}: {e:?}");
        }
    }
}
