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
    /// The path as stored: the walked path, or `archive.zip!entry/name.kif`.
    pub display: String,
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
        entries: Vec<(usize, SourceInfo)>,
    },
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

/// The units of work for `paths`, in a stable order, and the paths that could not be used
/// (with why).
pub fn units(paths: &[PathBuf]) -> (Vec<Unit>, Vec<(String, String)>) {
    let mut found = Found::default();
    for path in paths {
        let display = path.to_string_lossy().into_owned();
        match std::fs::metadata(path) {
            Err(e) => found.problems.push((display, format!("cannot read: {e}"))),
            Ok(m) if m.is_dir() => {
                let inside = walk_dir(path);
                if inside.units.is_empty() && inside.problems.is_empty() {
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
            Ok(m) => add_file(path, &m, &mut found.units, &mut found.problems),
        }
    }
    (found.units, found.problems)
}

/// What a walk found, in path order.
#[derive(Default)]
struct Found {
    units: Vec<Unit>,
    problems: Vec<(String, String)>,
}

impl Found {
    fn append(&mut self, mut other: Found) {
        self.units.append(&mut other.units);
        self.problems.append(&mut other.problems);
    }
}

/// Walks a directory; its entries are looked at on all cores (a tree of 100,000 files took
/// a tenth of a second on one, before any file was read), and found in path order.
fn walk_dir(dir: &Path) -> Found {
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
            visit(dir.join(name), kind, &mut found);
            found
        })
        .reduce(Found::default, |mut a, b| {
            a.append(b);
            a
        })
}

/// Adds what a directory entry holds.
fn visit(path: PathBuf, kind: Option<std::fs::FileType>, found: &mut Found) {
    let (is_dir, is_file) = match kind {
        Some(k) if !k.is_symlink() => (k.is_dir(), k.is_file()),
        _ => match std::fs::metadata(&path) {
            Ok(m) => (m.is_dir(), m.is_file()),
            Err(_) => return,
        },
    };
    if is_dir {
        found.append(walk_dir(&path));
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
    for i in 0..archive.len() {
        let entry = match archive.by_index_data(i) {
            Ok(e) => e,
            Err(e) => {
                problems.push((format!("{display}!#{i}"), format!("unreadable entry: {e}")));
                continue;
            }
        };
        if !entry.is_file() {
            continue;
        }
        let name = entry_name(entry.name_raw());
        if !has_record_extension(Path::new(&name)) {
            continue;
        }
        entries.push((
            i,
            SourceInfo {
                display: format!("{display}!{name}"),
                size: entry.size(),
                mtime: mtime(m),
                crc: Some(entry.crc32()),
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

/// What a worker found in a source.
#[derive(Debug)]
pub enum Content {
    Bytes(Vec<u8>),
    /// Left unread: an earlier import read it with the same size and time (a file) or the
    /// same size and CRC (an archive entry).
    Unchanged,
    /// Why it could not be read.
    Failed(String),
}

/// Reads each source of a unit, in order, except those `unchanged` says an earlier import
/// read as they are.
pub fn read_unit(
    unit: &Unit,
    unchanged: impl Fn(&SourceInfo) -> bool,
) -> Vec<(SourceInfo, Content)> {
    match unit {
        Unit::File { path, display } => {
            let mut info = SourceInfo {
                display: display.clone(),
                size: 0,
                mtime: 0,
                crc: None,
            };
            let content = read_file(path, &mut info, unchanged);
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
                .map(|(i, info)| {
                    if unchanged(info) {
                        return (info.clone(), Content::Unchanged);
                    }
                    let bytes =
                        archive
                            .by_index(*i)
                            .map_err(|e| e.to_string())
                            .and_then(|mut f| {
                                let mut buf = Vec::with_capacity(info.size.min(1 << 26) as usize);
                                f.read_to_end(&mut buf).map_err(|e| e.to_string())?;
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
    unchanged: impl Fn(&SourceInfo) -> bool,
) -> Content {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) => return Content::Failed(e.to_string()),
    };
    let m = match file.metadata() {
        Ok(m) => m,
        Err(e) => return Content::Failed(e.to_string()),
    };
    (info.size, info.mtime) = (m.len(), mtime(&m));
    if unchanged(info) {
        return Content::Unchanged;
    }
    // A file whose time is this second (or later) could change again within it, keeping its
    // time and perhaps its size: its time is not kept, so that the next import reads it again
    // (and finds by its content hash whether it changed).
    if info.mtime >= now() {
        info.mtime = 0;
    }
    match read_sized(&mut file, m.len()) {
        Ok(buf) => Content::Bytes(buf),
        Err(e) => Content::Failed(e.to_string()),
    }
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
