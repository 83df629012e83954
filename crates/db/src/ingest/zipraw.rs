//! The entries of a zip archive that the `zip` crate does not hand out: it keeps one entry
//! per name, so an archive holding two entries of the same name would lose all but one
//! without a word. Its central directory is read here record by record, and an entry the
//! crate shadows is read from its local header (stored or deflated, its CRC checked).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

/// One record of an archive's central directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawEntry {
    pub name: Vec<u8>,
    flags: u16,
    method: u16,
    pub crc: u32,
    compressed: u64,
    pub size: u64,
    /// Where its local header starts.
    pub local: u64,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The most bytes of central directory read (some 500,000 entries).
const MAX_DIRECTORY: u64 = 64 << 20;

/// The records of the central directory, in order; `None` when it cannot be read this simply
/// (a Zip64 archive, a damaged one: the `zip` crate's own reading stands alone then).
pub fn central_directory(file: &mut File) -> Option<Vec<RawEntry>> {
    let len = file.metadata().ok()?.len();
    let tail_len = len.min(65_535 + 22);
    file.seek(SeekFrom::Start(len - tail_len)).ok()?;
    let mut tail = vec![0; tail_len as usize];
    file.read_exact(&mut tail).ok()?;
    let end = (0..tail.len().saturating_sub(21))
        .rev()
        .find(|&i| tail[i..].starts_with(b"PK\x05\x06"))?;
    let size = u32_at(&tail, end + 12)? as u64;
    let offset = u32_at(&tail, end + 16)? as u64;
    if size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF || size > MAX_DIRECTORY {
        return None;
    }
    file.seek(SeekFrom::Start(offset)).ok()?;
    let mut dir = vec![0; size as usize];
    file.read_exact(&mut dir).ok()?;
    let mut out = Vec::new();
    let mut at = 0;
    while at + 46 <= dir.len() && dir[at..].starts_with(b"PK\x01\x02") {
        let name_len = u16_at(&dir, at + 28)? as usize;
        let extra_len = u16_at(&dir, at + 30)? as usize;
        let comment_len = u16_at(&dir, at + 32)? as usize;
        let entry = RawEntry {
            flags: u16_at(&dir, at + 8)?,
            method: u16_at(&dir, at + 10)?,
            crc: u32_at(&dir, at + 16)?,
            compressed: u32_at(&dir, at + 20)? as u64,
            size: u32_at(&dir, at + 24)? as u64,
            local: u32_at(&dir, at + 42)? as u64,
            name: dir.get(at + 46..at + 46 + name_len)?.to_vec(),
        };
        if entry.compressed == 0xFFFF_FFFF
            || entry.size == 0xFFFF_FFFF
            || entry.local == 0xFFFF_FFFF
        {
            return None;
        }
        out.push(entry);
        at += 46 + name_len + extra_len + comment_len;
    }
    Some(out)
}

/// Reads an entry from its local header: at most `limit` bytes once inflated.
pub fn read_entry(file: &mut File, e: &RawEntry, limit: u64) -> Result<Vec<u8>, String> {
    if e.flags & 1 != 0 {
        return Err("the entry is encrypted".into());
    }
    let io = |err: std::io::Error| err.to_string();
    file.seek(SeekFrom::Start(e.local)).map_err(io)?;
    let mut header = [0u8; 30];
    file.read_exact(&mut header).map_err(io)?;
    if !header.starts_with(b"PK\x03\x04") {
        return Err("the entry's local header is missing".into());
    }
    let skip = u16_at(&header, 26).unwrap_or(0) as i64 + u16_at(&header, 28).unwrap_or(0) as i64;
    file.seek(SeekFrom::Current(skip)).map_err(io)?;
    let data = file.take(e.compressed);
    let mut buf = Vec::with_capacity(e.size.min(limit).min(1 << 26) as usize);
    match e.method {
        0 => data.take(limit + 1).read_to_end(&mut buf),
        8 => flate2::read::DeflateDecoder::new(data)
            .take(limit + 1)
            .read_to_end(&mut buf),
        m => return Err(format!("compression method {m} is not read")),
    }
    .map_err(io)?;
    if buf.len() as u64 > limit {
        return Err(super::walk::too_big(limit));
    }
    let mut crc = flate2::Crc::new();
    crc.update(&buf);
    if crc.sum() != e.crc || buf.len() as u64 != e.size {
        return Err("the entry is damaged (its size or CRC does not match)".into());
    }
    Ok(buf)
}
