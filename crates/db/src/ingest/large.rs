//! Files too big to hold whole. A file of more than [`ImportOptions::piece_bytes`] × 2 is
//! first read through once, a block at a time, for its content hash and for whether it is
//! UTF-8 ([`Utf8Survey`]); then, when its start reads as CSA (dumps of 100,000 games and
//! more are), it is read again a piece of about `piece_bytes` at a time, each piece ending
//! after a game separator ([`piece_end`]): memory stays bounded by the piece, whatever the
//! file's size. Any other format is read whole, as smaller files are, up to the import's
//! limit on one source.
//!
//! [`ImportOptions::piece_bytes`]: super::ImportOptions::piece_bytes

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use kifudex_notation::csa::pieces::{CsaPieces, Stopped, can_read_in_pieces, fill};
use kifudex_notation::decode::{self, Encoding, Utf8Survey};
use kifudex_notation::{Format, ReadFile, Record, read_bytes_each};

/// How much of a big file's start is read to judge its encoding (when it is not UTF-8) and
/// its format.
const SAMPLE_BYTES: usize = 1 << 20;

/// A big file read through once.
pub(super) struct Survey {
    /// Bytes read.
    pub len: u64,
    /// [`content_hash`] of them (with the size the file had when opened).
    pub hash: u64,
    /// `Some(bytes a cut end drops)` when the file is UTF-8.
    utf8: Option<usize>,
}

/// Reads `file` through from its start: `size` is its length when it was opened.
pub(super) fn survey(file: &mut File, size: u64) -> std::io::Result<Survey> {
    file.seek(SeekFrom::Start(0))?;
    let mut hasher = ContentHasher::new(size);
    let mut utf8 = Utf8Survey::new();
    let mut len = 0u64;
    let mut block = vec![0u8; 1 << 20];
    loop {
        // Whole blocks (a short read is filled up): the first holds a BOM whole.
        let mut n = 0;
        while n < block.len() {
            match file.read(&mut block[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if n == 0 {
            break;
        }
        hasher.update(&block[..n]);
        utf8.update(&block[..n]);
        len += n as u64;
    }
    Ok(Survey {
        len,
        hash: hasher.finish(),
        utf8: utf8.finish(),
    })
}

/// Reads a surveyed file's games, each handed to `each` as it is read: in pieces of about
/// `piece_bytes` when it is CSA, else whole (refused above `limit` bytes, the error
/// returned). An error reading the file ends the reading there: the games read before it
/// were handed over, and the [`ReadFile`]'s error says what happened.
pub(super) fn read_games(
    file: &mut File,
    survey: &Survey,
    path: &Path,
    limit: u64,
    piece_bytes: usize,
    each: &mut dyn FnMut(Record, Format),
) -> Result<ReadFile, String> {
    let io = |e: std::io::Error| format!("cannot read: {e}");
    // The encoding (when not UTF-8) and the format are judged from the file's first MiB.
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut buf = Vec::new();
    let eof = fill(file, &mut buf, SAMPLE_BYTES).map_err(io)?;
    let encoding = match survey.utf8 {
        Some(_) => Encoding::Utf8,
        None => decode::legacy_encoding(&buf),
    };
    // Up to its last line end (a UTF-8 character may be cut).
    let head_end = if eof {
        buf.len()
    } else {
        buf.iter()
            .rposition(|&b| b == b'\n')
            .map_or(buf.len(), |i| i + 1)
    };
    let (head, _) = decode::decode_piece(&buf[..head_end], encoding, true, eof);
    let json = head
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{');
    let csa = !json
        && can_read_in_pieces(encoding, &buf)
        && Format::detect(&head, Some(path)) == Some(Format::Csa);
    drop(head);
    if !csa {
        if survey.len > limit {
            return Err(super::walk::too_big(limit));
        }
        file.read_to_end(&mut buf).map_err(io)?;
        return Ok(read_bytes_each(&buf, Some(path), each));
    }
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    drop(buf);
    let (mut read, stopped) = CsaPieces::new(encoding).read_from(file, piece_bytes, limit, each);
    read.error = match stopped {
        Some(Stopped::GameOver(limit)) => Some(format!(
            "a game runs over {}: the rest of the file is not read",
            super::walk::size_words(limit)
        )),
        Some(Stopped::Io(e)) => Some(io(e)),
        None => read.error,
    };
    Ok(read)
}

/// A fast 64-bit hash of a file's bytes, to tell a changed file from a touched one.
pub fn content_hash(bytes: &[u8]) -> u64 {
    let mut h = ContentHasher::new(bytes.len() as u64);
    h.update(bytes);
    h.finish()
}

/// [`content_hash`] of a file read a block at a time, whose length is known beforehand.
pub struct ContentHasher {
    h: u64,
    /// The start of a word the last block ended inside.
    partial: [u8; 8],
    filled: usize,
}

impl ContentHasher {
    pub fn new(len: u64) -> ContentHasher {
        ContentHasher {
            h: 0x243F_6A88_85A3_08D3 ^ len,
            partial: [0; 8],
            filled: 0,
        }
    }

    fn word(&mut self, w: u64) {
        self.h = (self.h ^ w)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(31);
    }

    /// The next bytes of the file.
    pub fn update(&mut self, mut bytes: &[u8]) {
        if self.filled > 0 {
            let take = (8 - self.filled).min(bytes.len());
            self.partial[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled < 8 {
                return;
            }
            self.word(u64::from_le_bytes(self.partial));
            self.filled = 0;
        }
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            self.word(w);
        }
        let rest = chunks.remainder();
        self.partial[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    pub fn finish(self) -> u64 {
        let mut h = self.h;
        for &b in &self.partial[..self.filled] {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
        }
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 32)
    }
}
