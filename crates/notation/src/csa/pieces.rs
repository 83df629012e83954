//! A CSA file read a piece at a time: a dump of 100,000 games (150 MB and more) is read in
//! pieces of a few megabytes, each ending just after a game separator (`/`), so that the
//! file is never held whole. The games, their errors and the lines they name are those
//! [`read_bytes_each`](crate::read_bytes_each) reads of the whole file.

use std::io::Read;

use crate::decode::{self, Encoding};
use crate::{Format, ReadFile, Record, cap_text, cut_warning_at};

/// The end of the last game separator line in `bytes` (a line that is `/`, with spaces or
/// tabs around it, ended by `\n`): where a piece may end, the next starting a new game.
/// `None` when `bytes` holds none.
pub fn piece_end(bytes: &[u8]) -> Option<usize> {
    let mut end = bytes.len();
    // From the last line end back, one line at a time.
    while let Some(nl) = bytes[..end].iter().rposition(|&b| b == b'\n') {
        let start = bytes[..nl]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |i| i + 1);
        let line = &bytes[start..nl];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.trim_ascii() == b"/" && !line.contains(&b'\x0b') && !line.contains(&b'\x0c') {
            return Some(nl + 1);
        }
        end = start;
    }
    None
}

/// Whether a file in `encoding` that starts with `start` can be read in pieces: not a file
/// that is no UTF-8 but starts with a byte-order mark (UTF-16, or a broken UTF-8 file), which
/// is decoded whole by the mark's own encoding, and whose line ends are not single bytes.
pub fn can_read_in_pieces(encoding: Encoding, start: &[u8]) -> bool {
    encoding == Encoding::Utf8
        || ![&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"]
            .iter()
            .any(|bom| start.starts_with(bom))
}

/// Reads the pieces of one CSA file in order: [`CsaPieces::read`] for each, then
/// [`CsaPieces::finish`].
pub struct CsaPieces {
    encoding: Encoding,
    /// Lines in the pieces read so far.
    lines: usize,
    /// Games read so far.
    games: usize,
    /// The last game read, held back: the end of the file (a cut character) belongs to it.
    held: Option<Record>,
    first: bool,
}

impl CsaPieces {
    /// The reader of a file in `encoding` (chosen from the whole file beforehand).
    pub fn new(encoding: Encoding) -> CsaPieces {
        CsaPieces {
            encoding,
            lines: 0,
            games: 0,
            held: None,
            first: true,
        }
    }

    /// Reads the next piece: whole lines, ending after a game separator ([`piece_end`]) or
    /// where the file ends (`last`). Each game read before is handed to `each`.
    pub fn read(&mut self, bytes: &[u8], last: bool, each: &mut dyn FnMut(Record, Format)) {
        let (text, cut) = decode::decode_piece(bytes, self.encoding, self.first, last);
        self.first = false;
        let offset = self.lines;
        let held = &mut self.held;
        let games = &mut self.games;
        super::read_csa_each(&text, &mut |mut rec| {
            *games += 1;
            cap_text(&mut rec, &text);
            for e in &mut rec.errors {
                e.line += offset;
            }
            if let Some(done) = held.replace(rec) {
                each(done, Format::Csa);
            }
        });
        if last
            && cut > 0
            && let Some(rec) = &mut self.held
        {
            let (line, column) = decode::line_column(&text, text.len());
            cut_warning_at(rec, line + offset, column, cut);
        }
        self.lines += decode::Lines::new(&text).count();
    }

    /// Reads the whole file from `reader` (at its start), a piece of about `piece_bytes` at
    /// a time, then [`finish`](CsaPieces::finish)es. A piece in which no game ends grows
    /// until one does, up to `max_game` bytes: past them, or at an error reading, the
    /// reading stops (the games read before were handed over) and says why.
    pub fn read_from(
        mut self,
        reader: &mut dyn Read,
        piece_bytes: usize,
        max_game: u64,
        each: &mut dyn FnMut(Record, Format),
    ) -> (ReadFile, Option<Stopped>) {
        let piece_bytes = piece_bytes.max(1);
        let mut buf = Vec::with_capacity(piece_bytes + (piece_bytes >> 3));
        let mut want = piece_bytes;
        let stopped = loop {
            let eof = match fill(reader, &mut buf, want) {
                Ok(eof) => eof,
                Err(e) => break Some(Stopped::Io(e)),
            };
            let end = if eof {
                Some(buf.len())
            } else {
                piece_end(&buf)
            };
            let Some(end) = end else {
                // No game ends in this piece: it grows by another piece's worth.
                if buf.len() as u64 > max_game {
                    break Some(Stopped::GameOver(max_game));
                }
                want = buf.len() + piece_bytes;
                continue;
            };
            self.read(&buf[..end], eof, each);
            if eof {
                break None;
            }
            buf.drain(..end);
            want = piece_bytes;
        };
        (self.finish(each), stopped)
    }

    /// The file as read: its encoding, format and error (its games were handed over).
    pub fn finish(mut self, each: &mut dyn FnMut(Record, Format)) -> ReadFile {
        if let Some(rec) = self.held.take() {
            each(rec, Format::Csa);
        }
        ReadFile {
            encoding: self.encoding,
            format: Some(Format::Csa),
            games: Vec::new(),
            error: (self.games == 0).then(|| "the CSA file holds no game".to_string()),
        }
    }
}

/// Why [`CsaPieces::read_from`] stopped before the file's end.
#[derive(Debug)]
pub enum Stopped {
    /// A game ran over this many bytes.
    GameOver(u64),
    /// Reading failed.
    Io(std::io::Error),
}

/// Reads `reader` into `buf` until it holds `want` bytes; `true` when the input ended first.
pub fn fill(reader: &mut dyn Read, buf: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
    while buf.len() < want {
        let n = reader.take((want - buf.len()) as u64).read_to_end(buf)?;
        if n == 0 {
            return Ok(true);
        }
    }
    Ok(false)
}
