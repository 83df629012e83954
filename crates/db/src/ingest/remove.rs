//! `kifudex remove`'s side of the sources: which stored sources lie at or under a path, which
//! no longer exist on disk; and the removal itself, the database first and the text index
//! after it (as an import commits them: an index left behind is repaired on its next open).

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use super::IngestError;
use super::walk::{self, Unit};
use crate::store::{Removal, Removed, Store, StoredSource};
use crate::text::{TextIndex, TextSource};

/// Where a source is on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A file, by the path given to import.
    File(PathBuf),
    /// An entry of a `.zip` archive: the archive's path and the entry's name.
    Entry { archive: PathBuf, name: String },
}

impl Place {
    /// The place of a stored source, from its key (`walk::file_key`, `walk::entry_key`), or
    /// from its displayed path for a row written before sources had keys.
    pub fn of(source: &StoredSource) -> Place {
        let entry = |archive: PathBuf| {
            let shown = format!("{}!", archive.to_string_lossy());
            let name = match source.path.strip_prefix(&shown) {
                Some(name) => name.to_string(),
                None => source
                    .path
                    .split_once('!')
                    .map_or("", |(_, n)| n)
                    .to_string(),
            };
            Place::Entry { archive, name }
        };
        match source.key.as_deref() {
            Some([b'f', path @ ..]) => Place::File(PathBuf::from(OsStr::from_bytes(path))),
            Some([b'z', rest @ ..]) => {
                let archive = rest.split(|&b| b == 0).next().unwrap_or_default();
                entry(PathBuf::from(OsStr::from_bytes(archive)))
            }
            _ => match zip_prefix(&source.path) {
                Some(archive) => entry(PathBuf::from(archive)),
                None => Place::File(PathBuf::from(&source.path)),
            },
        }
    }
}

/// The archive part of `a.zip!entry` (an older row's displayed path).
fn zip_prefix(path: &str) -> Option<&str> {
    path.match_indices('!')
        .map(|(i, _)| &path[..i])
        .find(|a| a.to_ascii_lowercase().ends_with(".zip"))
}

/// `path` made absolute from `cwd`, with `.` dropped and `..` taken off the path before it
/// (by the words alone: links are not followed).
pub fn absolute(path: &Path, cwd: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in cwd.join(path).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// Whether the source is `path` or lies under it: a file at or under the path (a directory),
/// an archive entry whose archive is at or under it, or an entry named `archive.zip!name`
/// (or `archive.zip!folder` for the entries in a folder of the archive). Relative paths,
/// stored and given, are taken from `cwd`.
pub fn is_under(source: &StoredSource, path: &Path, cwd: &Path) -> bool {
    let given = absolute(path, cwd);
    match Place::of(source) {
        Place::File(file) => absolute(&file, cwd).starts_with(&given),
        Place::Entry { archive, name } => {
            let archive = absolute(&archive, cwd);
            if archive.starts_with(&given) {
                return true;
            }
            let text = path.to_string_lossy();
            text.match_indices('!').any(|(i, _)| {
                let inside = text[i + 1..].trim_end_matches('/');
                absolute(Path::new(&text[..i]), cwd) == archive
                    && (inside.is_empty()
                        || name == inside
                        || name
                            .strip_prefix(inside)
                            .is_some_and(|r| r.starts_with('/')))
            })
        }
    }
}

/// Whether nothing a source could be read from is at `path` any more: no such file, or
/// something else than a file. A path that cannot be looked at (no permission) is not
/// missing: it may well be there.
fn file_is_gone(path: &Path) -> bool {
    match std::fs::metadata(path) {
        Ok(m) => !m.is_file(),
        Err(e) => matches!(
            e.kind(),
            std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
        ),
    }
}

/// The sources (of those given) whose file no longer exists on disk, or whose archive no
/// longer holds their entry. Relative paths are looked up from the current directory, as the
/// import that read them did.
pub fn missing(sources: &[&StoredSource]) -> Vec<i64> {
    let mut gone = Vec::new();
    let mut archives: HashMap<PathBuf, Vec<(&StoredSource, String)>> = HashMap::new();
    for s in sources {
        match Place::of(s) {
            Place::File(path) => {
                if file_is_gone(&path) {
                    gone.push(s.id);
                }
            }
            Place::Entry { archive, name } => archives.entry(archive).or_default().push((s, name)),
        }
    }
    for (archive, entries) in archives {
        if file_is_gone(&archive) {
            gone.extend(entries.iter().map(|(s, _)| s.id));
            continue;
        }
        // The entries the archive holds now, as an import would find them.
        let (units, problems) = walk::units(std::slice::from_ref(&archive));
        if units.is_empty() && !problems.is_empty() {
            // Unreadable now: whether an entry is still in it cannot be told.
            continue;
        }
        let mut keys = HashSet::new();
        let mut names = HashSet::new();
        for unit in &units {
            if let Unit::Zip { entries, .. } = unit {
                for (_, info) in entries {
                    keys.insert(info.key.clone());
                    names.insert(info.display.clone());
                }
            }
        }
        for (s, _) in entries {
            let there = match &s.key {
                Some(key) => keys.contains(key),
                None => names.contains(&s.path),
            };
            if !there {
                gone.push(s.id);
            }
        }
    }
    gone.sort_unstable();
    gone
}

/// Carries out a removal ([`Store::plan_removal`]): the database in one transaction, then
/// the text index. The caller holds the import lock. Returns what went, and a notice about
/// the text index when there is one (it was rebuilt first).
pub fn remove(store: &mut Store, plan: &Removal) -> Result<(Removed, Option<String>), IngestError> {
    let revision = store.text_revision()?;
    if plan.games.is_empty() {
        let removed = store.remove(plan)?;
        // A kept game that took facts from a source that went (a twin) has other text now.
        if store.text_revision()? == revision {
            return Ok((removed, None));
        }
        let (text, report) = TextIndex::open_synced(&store.db().text(), &*store)?;
        text.finish()?;
        return Ok((removed, report.notice));
    }
    // Brought up to date before the games go, so that only their documents are deleted.
    let (mut text, report) = TextIndex::open_synced(&store.db().text(), &*store)?;
    let removed = store.remove(plan)?;
    text.apply(&removed.games, &[])?;
    // The kept games whose text changed, indexed again.
    text.sync(&*store)?;
    text.finish()?;
    Ok((removed, report.notice))
}
