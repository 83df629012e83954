//! Turning the paths a user gives into units of work: record files, found recursively in
//! directories, and the entries of `.zip` archives (names in UTF-8 or Shift-JIS).

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Extensions a directory walk takes (case-insensitive). A file named on the command line is
/// read whatever its name.
pub const RECORD_EXTENSIONS: &[&str] = &[
    "kif", "kifu", "ki2", "ki2u", "csa", "jkf", "usi", "sfen", "psn",
];

/// One file or archive entry to read.
#[derive(Debug, Clone)]
pub struct SourceInfo {
    /// The path as stored: the walked path, or `archive.zip!entry/name.kif` (lossily, for a
    /// name that is no UTF-8).
    pub display: String,
    /// What the source is, exactly ([`file_key`], [`entry_key`]).
    pub key: Vec<u8>,
    pub size: u64,
    /// Seconds since 1970 (0 when unknown, and for a file whose time was the second it was
    /// read: it could have changed again within that second).
    pub mtime: i64,
    /// For an archive entry: its CRC-32 from the archive's directory.
    pub crc: Option<u32>,
}

/// A unit of work for one worker: a file, or some entries of one archive.
#[derive(Debug, Clone)]
pub enum Unit {
    /// A file's size and time are learnt when a worker opens it (a walk that asked for
    /// them spent most of its time there, before any file was read).
    File { path: PathBuf, display: String },
    Zip {
        path: PathBuf,
        entries: Vec<(Entry, SourceInfo)>,
    },
}

/// Where an archive entry is.
#[derive(Debug, Clone)]
pub enum Entry {
    /// Its index in the `zip` crate's list.
    Index(usize),
    /// An entry the crate does not list, for another of the same name shadows it.
    Shadowed(super::zipraw::RawEntry),
}

impl Unit {
    pub fn sources(&self) -> usize {
        match self {
            Unit::File { .. } => 1,
            Unit::Zip { entries, .. } => entries.len(),
        }
    }
}

/// Bytes of records a worker reads before it hands them over: one message (and one wake-up
/// of the writer) per small file cost more than reading it.
pub const HAND_OVER_BYTES: u64 = 256 << 10;

/// Consecutive units a worker takes together: up to 32 files, or archive entries of about
/// [`HAND_OVER_BYTES`]. A worker hands over what it read of a batch whenever that passes
/// [`HAND_OVER_BYTES`] (file sizes are not known before).
pub fn batches(units: &[Unit]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0u64);
    for (i, u) in units.iter().enumerate() {
        if let Unit::Zip { entries, .. } = u {
            bytes += entries.iter().map(|(_, e)| e.size).sum::<u64>();
        }
        if i + 1 - start >= 32 || bytes >= HAND_OVER_BYTES {
            out.push(start..i + 1);
            (start, bytes) = (i + 1, 0);
        }
    }
    if start < units.len() {
        out.push(start..units.len());
    }
    out
}

/// Archive entries per unit: enough to pay for opening the archive, few enough to spread a
/// big archive over the workers.
const ZIP_CHUNK: usize = 64;

/// The key of a file: `f` and its path's bytes.
pub fn file_key(path: &Path) -> Vec<u8> {
    let mut key = vec![b'f'];
    key.extend_from_slice(path.as_os_str().as_encoded_bytes());
    key
}

/// The key of an archive's entry: `z`, the archive's path bytes, a NUL (which no path holds)
/// and the entry's index in the archive (for an entry shadowed by another of the same name,
/// `@` and the offset of its header).
pub fn entry_key(archive: &Path, index: usize) -> Vec<u8> {
    let mut key = vec![b'z'];
    key.extend_from_slice(archive.as_os_str().as_encoded_bytes());
    key.push(0);
    key.extend_from_slice(index.to_string().as_bytes());
    key
}

/// The units of work for `paths`, in a stable order, and the paths that could not be used
/// (with why).
///
/// Each directory is walked once, known by its device and inode: a symbolic link back to a
/// directory already walked (`sub/self -> .`, `sub/up -> ..`) is not followed again. Links
/// to directories are followed after the walk of the real tree, in path order, so that what
/// is found, and under which path, does not depend on which worker got there first. Anything
/// that is neither a regular file nor a directory (a FIFO, a socket, a device) is never
/// opened: named on the command line, or met in a tree under a record's name, it is skipped
/// with a word.
pub fn units(paths: &[PathBuf]) -> (Vec<Unit>, Vec<(String, String)>) {
    let mut found = Found::default();
    let seen = Seen::default();
    for path in paths {
        let display = path.to_string_lossy().into_owned();
        match std::fs::metadata(path) {
            Err(e) => found.problems.push((display, format!("cannot read: {e}"))),
            Ok(m) if m.is_dir() => {
                if seen.first(&m) {
                    let inside = walk_dir(path, &seen);
                    if inside.units.is_empty()
                        && inside.problems.is_empty()
                        && inside.links.is_empty()
                    {
                        let looked: Vec<String> = RECORD_EXTENSIONS
                            .iter()
                            .chain(&["zip"])
                            .map(|e| format!(".{e}"))
                            .collect();
                        let message = format!(
                            "no record files under {display}: looked for {}",
                            looked.join(" ")
                        );
                        found.problems.push((display, message));
                    }
                    found.append(inside);
                }
            }
            Ok(m) if m.is_file() => add_file(path, &m, &mut found.units, &mut found.problems),
            Ok(m) => found.problems.push((display, not_a_file(&m))),
        }
    }
    // Links to directories, in the order found; those they hold come after them.
    let mut next = 0;
    while next < found.links.len() {
        let link = found.links[next].clone();
        next += 1;
        if let Ok(m) = std::fs::metadata(&link)
            && seen.first(&m)
        {
            found.append(walk_dir(&link, &seen));
        }
    }
    (found.units, found.problems)
}

/// Why a path that is neither a regular file nor a directory is skipped.
fn not_a_file(m: &std::fs::Metadata) -> String {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    let kind = if t.is_fifo() {
        "a named pipe (FIFO)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    };
    format!("{kind}, not a record file: skipped")
}

/// The directories walked, by device and inode.
#[derive(Default)]
struct Seen(std::sync::Mutex<std::collections::HashSet<(u64, u64)>>);

impl Seen {
    /// Whether the directory `m` describes is met for the first time (it is noted).
    fn first(&self, m: &std::fs::Metadata) -> bool {
        use std::os::unix::fs::MetadataExt;
        let mut seen = self.0.lock().unwrap_or_else(|p| p.into_inner());
        seen.insert((m.dev(), m.ino()))
    }
}

/// What a walk found, in path order.
#[derive(Default)]
struct Found {
    units: Vec<Unit>,
    problems: Vec<(String, String)>,
    /// Symbolic links to directories, followed once the real tree is walked.
    links: Vec<PathBuf>,
}

impl Found {
    fn append(&mut self, mut other: Found) {
        self.units.append(&mut other.units);
        self.problems.append(&mut other.problems);
        self.links.append(&mut other.links);
    }
}

/// Walks a directory; its entries are looked at on all cores (a tree of 100,000 files took
/// a tenth of a second on one, before any file was read), and found in path order.
fn walk_dir(dir: &Path, seen: &Seen) -> Found {
    use rayon::prelude::*;
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            let mut found = Found::default();
            found.problems.push((
                dir.to_string_lossy().into_owned(),
                format!("cannot list: {e}"),
            ));
            return found;
        }
    };
    // The kind of each entry comes with the listing; only links (and archives, whose time
    // their entries take) need a stat.
    let mut entries: Vec<(std::ffi::OsString, Option<std::fs::FileType>)> = entries
        .flatten()
        .map(|e| (e.file_name(), e.file_type().ok()))
        .collect();
    // One directory's entries differ only in their names: sorting by the name's bytes is the
    // order of their paths, without comparing the paths component by component.
    entries.sort_unstable_by(|a, b| a.0.as_encoded_bytes().cmp(b.0.as_encoded_bytes()));
    // Folded in runs and joined in order (rayon keeps the order of an indexed iterator).
    entries
        .into_par_iter()
        .fold(Found::default, |mut found, (name, kind)| {
            visit(dir.join(name), kind, seen, &mut found);
            found
        })
        .reduce(Found::default, |mut a, b| {
            a.append(b);
            a
        })
}

/// Adds what a directory entry holds.
fn visit(path: PathBuf, kind: Option<std::fs::FileType>, seen: &Seen, found: &mut Found) {
    let link = kind.is_none_or(|k| k.is_symlink());
    let meta = match kind {
        Some(k) if !k.is_symlink() && (k.is_file() || k.is_dir()) => None,
        _ => match std::fs::metadata(&path) {
            Ok(m) => Some(m),
            // A dangling link.
            Err(_) => return,
        },
    };
    let (is_dir, is_file) = match (&meta, kind) {
        (Some(m), _) => (m.is_dir(), m.is_file()),
        (None, Some(k)) => (k.is_dir(), k.is_file()),
        (None, None) => return,
    };
    if is_dir && link {
        found.links.push(path);
    } else if is_dir {
        // A real directory is reached once by the walk; it is noted for the links.
        if let Ok(m) = std::fs::metadata(&path)
            && seen.first(&m)
        {
            found.append(walk_dir(&path, seen));
        }
    } else if is_file && is_zip(&path) {
        match std::fs::metadata(&path) {
            Ok(m) => add_file(&path, &m, &mut found.units, &mut found.problems),
            Err(e) => found.problems.push((
                path.to_string_lossy().into_owned(),
                format!("cannot read: {e}"),
            )),
        }
    } else if is_file && has_record_extension(&path) {
        found.units.push(Unit::File {
            display: path.to_string_lossy().into_owned(),
            path,
        });
    } else if !is_file
        && (is_zip(&path) || has_record_extension(&path))
        && let Some(m) = meta
    {
        found
            .problems
            .push((path.to_string_lossy().into_owned(), not_a_file(&m)));
    }
}

fn extension(path: &Path) -> &str {
    path.extension().and_then(|e| e.to_str()).unwrap_or("")
}

fn is_zip(path: &Path) -> bool {
    extension(path).eq_ignore_ascii_case("zip")
}

fn has_record_extension(path: &Path) -> bool {
    let e = extension(path);
    RECORD_EXTENSIONS.iter().any(|r| r.eq_ignore_ascii_case(e))
}

/// Seconds since 1970.
fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn mtime(m: &std::fs::Metadata) -> i64 {
    m.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs() as i64)
}

fn add_file(
    path: &Path,
    m: &std::fs::Metadata,
    units: &mut Vec<Unit>,
    problems: &mut Vec<(String, String)>,
) {
    let display = path.to_string_lossy().into_owned();
    if !is_zip(path) {
        units.push(Unit::File {
            path: path.to_path_buf(),
            display,
        });
        return;
    }
    let archive = File::open(path)
        .map_err(|e| e.to_string())
        .and_then(|f| zip::ZipArchive::new(f).map_err(|e| e.to_string()));
    let archive = match archive {
        Ok(a) => a,
        Err(e) => {
            problems.push((display, format!("not a readable zip archive: {e}")));
            return;
        }
    };
    let mut entries = Vec::new();
    let mut listed = std::collections::HashSet::new();
    for i in 0..archive.len() {
        let entry = match archive.by_index_data(i) {
            Ok(e) => e,
            Err(e) => {
                problems.push((format!("{display}!#{i}"), format!("unreadable entry: {e}")));
                continue;
            }
        };
        listed.insert(entry.header_start());
        if !entry.is_file() {
            continue;
        }
        let name = entry_name(entry.name_raw());
        if !has_record_extension(Path::new(&name)) {
            continue;
        }
        entries.push((
            Entry::Index(i),
            SourceInfo {
                display: format!("{display}!{name}"),
                key: entry_key(path, i),
                size: entry.size(),
                mtime: mtime(m),
                crc: Some(entry.crc32()),
            },
        ));
    }
    // Entries the crate shadows (an earlier entry of the same name): read on their own.
    let raw = File::open(path)
        .ok()
        .and_then(|mut f| super::zipraw::central_directory(&mut f));
    for e in raw.unwrap_or_default() {
        if listed.contains(&e.local) || e.name.ends_with(b"/") {
            continue;
        }
        let name = entry_name(&e.name);
        if !has_record_extension(Path::new(&name)) {
            continue;
        }
        let mut key = entry_key(path, 0);
        // Not an index but where its header is: `@` and the offset.
        key.pop();
        key.extend_from_slice(format!("@{}", e.local).as_bytes());
        entries.push((
            Entry::Shadowed(e.clone()),
            SourceInfo {
                display: format!("{display}!{name}"),
                key,
                size: e.size,
                mtime: mtime(m),
                crc: Some(e.crc),
            },
        ));
    }
    for chunk in entries.chunks(ZIP_CHUNK) {
        units.push(Unit::Zip {
            path: path.to_path_buf(),
            entries: chunk.to_vec(),
        });
    }
}

/// An entry name: UTF-8 when it is valid UTF-8, else Shift-JIS (as Japanese Windows writes).
fn entry_name(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::SHIFT_JIS.decode(raw).0.into_owned(),
    }
}

/// The most bytes kifudex reads of one file or one archive entry (256 MiB): a zip bomb (an
/// entry of a gigabyte of zeros in a zip of a megabyte) is refused once it has inflated this
/// far, and the archive's other entries are read. The largest real collections seen are CSA
/// dumps of 100,000 games (some 150 MB), which stay under it.
pub const MAX_SOURCE_BYTES: u64 = 256 << 20;

/// The error of a source bigger than `limit`.
pub(super) fn too_big(limit: u64) -> String {
    let limit = size_words(limit);
    format!("larger than {limit}, the most kifudex reads of one file or archive entry: not read")
}

/// A limit in words: `256 MiB`, `1000 bytes`.
pub(super) fn size_words(limit: u64) -> String {
    if limit >= 1 << 20 && limit.is_multiple_of(1 << 20) {
        format!("{} MiB", limit >> 20)
    } else {
        format!("{limit} bytes")
    }
}

/// What a worker found in a source.
#[derive(Debug)]
pub enum Content {
    Bytes(Vec<u8>),
    /// A file of more bytes than an import reads at once, open and unread: a CSA file is then
    /// read in pieces, any other whole (and refused above `limit` bytes).
    Large {
        file: File,
        limit: u64,
    },
    /// Left unread: an earlier import read it with the same size and time (a file) or the
    /// same size and CRC (an archive entry).
    Unchanged,
    /// Why it could not be read.
    Failed(String),
}

/// Reads each source of a unit, in order, except those `unchanged` says an earlier import
/// read as they are.
/// A source larger than `limit` bytes (a file, or an archive entry once inflated, whatever
/// size it claims) is [`Content::Failed`], but for a file of more than `pieces_from` bytes,
/// which is left open, unread ([`Content::Large`]).
pub fn read_unit(
    unit: &Unit,
    limit: u64,
    pieces_from: u64,
    unchanged: impl Fn(&SourceInfo) -> bool,
) -> Vec<(SourceInfo, Content)> {
    match unit {
        Unit::File { path, display } => {
            let mut info = SourceInfo {
                display: display.clone(),
                key: file_key(path),
                size: 0,
                mtime: 0,
                crc: None,
            };
            let content = read_file(path, &mut info, limit, pieces_from, unchanged);
            vec![(info, content)]
        }
        Unit::Zip { path, entries } => {
            let archive = File::open(path)
                .map_err(|e| e.to_string())
                .and_then(|f| zip::ZipArchive::new(f).map_err(|e| e.to_string()));
            let mut archive = match archive {
                Ok(a) => a,
                Err(e) => {
                    return entries
                        .iter()
                        .map(|(_, info)| (info.clone(), Content::Failed(e.clone())))
                        .collect();
                }
            };
            entries
                .iter()
                .map(|(entry, info)| {
                    if unchanged(info) {
                        return (info.clone(), Content::Unchanged);
                    }
                    if info.size > limit {
                        return (info.clone(), Content::Failed(too_big(limit)));
                    }
                    let i = match entry {
                        Entry::Index(i) => *i,
                        Entry::Shadowed(raw) => {
                            let bytes = File::open(path)
                                .map_err(|e| e.to_string())
                                .and_then(|mut f| super::zipraw::read_entry(&mut f, raw, limit));
                            let content = bytes.map_or_else(Content::Failed, Content::Bytes);
                            return (info.clone(), content);
                        }
                    };
                    // The size the archive claims is not trusted: what inflates is counted.
                    let bytes = archive
                        .by_index(i)
                        .map_err(|e| e.to_string())
                        .and_then(|f| {
                            let mut buf = Vec::with_capacity(info.size.min(1 << 26) as usize);
                            f.take(limit + 1)
                                .read_to_end(&mut buf)
                                .map_err(|e| e.to_string())?;
                            if buf.len() as u64 > limit {
                                return Err(too_big(limit));
                            }
                            Ok(buf)
                        });
                    let content = bytes.map_or_else(Content::Failed, Content::Bytes);
                    (info.clone(), content)
                })
                .collect()
        }
    }
}

/// Opens a file, fills in its size and time, and reads it unless it is `unchanged`.
fn read_file(
    path: &Path,
    info: &mut SourceInfo,
    limit: u64,
    pieces_from: u64,
    unchanged: impl Fn(&SourceInfo) -> bool,
) -> Content {
    // Opened without waiting: a path that became a FIFO since the walk must not block.
    let mut file = match open_nonblocking(path) {
        Ok(f) => f,
        Err(e) => return Content::Failed(e.to_string()),
    };
    let m = match file.metadata() {
        Ok(m) => m,
        Err(e) => return Content::Failed(e.to_string()),
    };
    if !m.is_file() {
        return Content::Failed(not_a_file(&m));
    }
    (info.size, info.mtime) = (m.len(), mtime(&m));
    if unchanged(info) {
        return Content::Unchanged;
    }
    if m.len() > limit && m.len() <= pieces_from {
        return Content::Failed(too_big(limit));
    }
    // A file whose time is this second (or later) could change again within it, keeping its
    // time and perhaps its size: its time is not kept, so that the next import reads it again
    // (and finds by its content hash whether it changed).
    if info.mtime >= now() {
        info.mtime = 0;
    }
    if m.len() > pieces_from {
        return Content::Large { file, limit };
    }
    match read_sized(&mut file, m.len()) {
        Ok(buf) => Content::Bytes(buf),
        Err(e) => Content::Failed(e.to_string()),
    }
}

/// Opens a file for reading without blocking in `open` (a FIFO with no writer would wait
/// for one for ever); reads from a regular file are not affected.
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: 0o4000 on Linux (x86, ARM, RISC-V), 4 on the BSDs and macOS.
    #[cfg(target_os = "linux")]
    const O_NONBLOCK: i32 = 0o4000;
    #[cfg(not(target_os = "linux"))]
    const O_NONBLOCK: i32 = 4;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(path)
}

/// Reads the `size` bytes `fstat` gave. `read_to_end` on the file would ask the size again
/// (a second `statx` and an `lseek`) and read once more to find the end: three system calls
/// of the seven a file took. Through `take` the end is known without asking, and the buffer
/// is filled without being zeroed first. A file that reports no size (a pipe, a /proc file)
/// is read to its end.
fn read_sized(file: &mut File, size: u64) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    if size == 0 {
        file.read_to_end(&mut buf)?;
    } else {
        buf.reserve_exact(size.min(1 << 30) as usize);
        file.take(size).read_to_end(&mut buf)?;
    }
    Ok(buf)
}
