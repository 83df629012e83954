//! Where the files of a one-file-a-game export are written before they take their final
//! names: no file is ever seen half-written under its final name.
//!
//! When the output folder does not exist (or exists and is empty) every file is written
//! under its final name into a hidden folder beside it, `.NAME.part-PID`, which is renamed to
//! the output folder once every file is complete: one rename for the export instead of one a
//! file (on tmpfs a rename cost as much as creating the file). A failed export removes the
//! hidden folder; a killed one leaves it, hidden, and no output folder. Into a folder that
//! already holds files (`--force`), each file is written under a hidden temporary name beside
//! its final one and renamed when complete, as [`Pending`] does.

use std::fs::File;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use super::{ExportError, Pending, prepare_dir};

/// The files of an export on their way to the output folder.
#[derive(Debug)]
pub struct Stage {
    out: PathBuf,
    force: bool,
    /// The hidden folder the files are written into, until [`Stage::finish`] renames it; `None`:
    /// each file is renamed into `out` when written.
    folder: Option<PathBuf>,
}

impl Stage {
    /// Prepares the output folder `out`: one that exists and holds anything is refused
    /// unless `force`.
    pub fn prepare(out: &Path, force: bool) -> Result<Stage, ExportError> {
        let io = |e| ExportError::Io(out.to_path_buf(), e);
        let in_place = |out: &Path| -> Result<Stage, ExportError> {
            prepare_dir(out, force)?;
            Ok(Stage {
                out: out.to_path_buf(),
                force,
                folder: None,
            })
        };
        // A folder of its own (not a link to one, which a rename would replace) that is
        // empty, or no folder yet: staged beside it.
        let mut exists = false;
        match std::fs::symlink_metadata(out) {
            Ok(meta) if meta.is_dir() => {
                let empty = std::fs::read_dir(out).map_err(io)?.next().is_none();
                if !empty {
                    return in_place(out);
                }
                exists = true;
            }
            Ok(_) => return in_place(out),
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(io(e)),
        }
        Stage::hidden(out, force, exists).or_else(|e| match e {
            Some(e) => Err(e),
            None => in_place(out),
        })
    }

    /// Prepares the output folder `out` for files that must appear together or not at all
    /// (Parquet's three): they are always written into a hidden folder beside it, even when
    /// `out` already holds files (`--force`), where [`Stage::finish`] renames them in one by
    /// one. One that exists and holds anything is refused unless `force`.
    pub fn staged(out: &Path, force: bool) -> Result<Stage, ExportError> {
        let io = |e| ExportError::Io(out.to_path_buf(), e);
        let exists = out.is_dir();
        if exists && !force && std::fs::read_dir(out).map_err(io)?.next().is_some() {
            return Err(ExportError::Exists(out.to_path_buf()));
        }
        if out.exists() && !exists {
            return Err(io(std::io::Error::new(
                ErrorKind::AlreadyExists,
                "exists and is not a folder",
            )));
        }
        Stage::hidden(out, force, exists).map_err(|e| {
            e.unwrap_or_else(|| {
                io(std::io::Error::new(
                    ErrorKind::PermissionDenied,
                    "no hidden folder can be made beside it",
                ))
            })
        })
    }

    /// The hidden folder beside `out`, made; `Err(None)` when none can be made beside an
    /// existing folder (the caller writes in place). Folders left by killed exports to the same
    /// `out` are removed first.
    fn hidden(out: &Path, force: bool, exists: bool) -> Result<Stage, Option<ExportError>> {
        let io = |e| Some(ExportError::Io(out.to_path_buf(), e));
        let Some(name) = out.file_name() else {
            return Err(None);
        };
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        std::fs::create_dir_all(parent).map_err(io)?;
        let name = name.to_string_lossy();
        let pid = std::process::id();
        remove_left(parent, &name);
        // A folder left by a killed export of a process with the same id is not reused.
        for n in 0u32.. {
            let folder = parent.join(match n {
                0 => format!(".{name}.part-{pid}"),
                n => format!(".{name}.part-{pid}-{n}"),
            });
            match std::fs::create_dir(&folder) {
                Ok(()) => {
                    return Ok(Stage {
                        out: out.to_path_buf(),
                        force,
                        folder: Some(folder),
                    });
                }
                Err(e) if e.kind() == ErrorKind::AlreadyExists && n < 100 => {}
                // An empty folder in a folder the user may not write: into it, file by file.
                Err(_) if exists => return Err(None),
                Err(e) => return Err(io(e)),
            }
        }
        unreachable!("the loop returns")
    }

    /// The folder the files are written into: the hidden one, or the output folder itself.
    pub fn folder(&self) -> &Path {
        self.folder.as_deref().unwrap_or(&self.out)
    }

    /// The output folder.
    pub fn out(&self) -> &Path {
        &self.out
    }

    /// Writes the file `name` (a bare file name) of the export, whole.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<(), ExportError> {
        let Some(folder) = &self.folder else {
            return Pending::write_file(&self.out.join(name), bytes);
        };
        // Errors name the file the user asked for, not the hidden folder.
        let io = |e| ExportError::Io(self.out.join(name), e);
        // Every name is new in a new folder: `create_new`, no truncation to do.
        let mut f = File::options()
            .write(true)
            .create_new(true)
            .open(folder.join(name))
            .map_err(io)?;
        f.write_all(bytes).map_err(io)
    }

    /// Gives every file written its final name: the hidden folder becomes the output folder.
    pub fn finish(mut self) -> Result<(), ExportError> {
        let Some(folder) = self.folder.take() else {
            return Ok(());
        };
        let io = |e| ExportError::Io(self.out.clone(), e);
        let done = match std::fs::rename(&folder, &self.out) {
            Ok(()) => Ok(()),
            // A folder made meanwhile (or an empty one that cannot be replaced: a mount
            // point, or a system that renames onto no folder): the files go in one by one.
            Err(_) if self.out.is_dir() => self.move_files(&folder),
            Err(e) => Err(io(e)),
        };
        if done.is_err() {
            let _ = std::fs::remove_dir_all(&folder);
        }
        done
    }

    /// Renames each file of `folder` into the output folder (each is complete), then removes
    /// `folder`.
    fn move_files(&self, folder: &Path) -> Result<(), ExportError> {
        let io = |e| ExportError::Io(self.out.clone(), e);
        let holds_any = std::fs::read_dir(&self.out).map_err(io)?.next().is_some();
        if holds_any && !self.force {
            return Err(ExportError::Exists(self.out.clone()));
        }
        for entry in std::fs::read_dir(folder).map_err(io)? {
            let name = entry.map_err(io)?.file_name();
            std::fs::rename(folder.join(&name), self.out.join(&name))
                .map_err(|e| ExportError::Io(self.out.join(&name), e))?;
        }
        std::fs::remove_dir(folder).map_err(io)
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        // Not finished: the hidden folder and what it holds go.
        if let Some(folder) = self.folder.take() {
            let _ = std::fs::remove_dir_all(folder);
        }
    }
}

/// Removes the hidden folders (`.NAME.part-PID`, `.NAME.part-PID-N`) that exports to `NAME`
/// killed before their end left in `parent`: those of processes no longer running.
fn remove_left(parent: &Path, name: &str) {
    let prefix = format!(".{name}.part-");
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        let Ok(pid) = rest.split('-').next().unwrap_or_default().parse::<u32>() else {
            continue;
        };
        if pid != std::process::id() && !running(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether a process `pid` is running; where that cannot be known, it is taken to be (its
/// folder is left alone).
fn running(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}
