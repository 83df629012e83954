//! The text index as a read finds it: tantivy's memory-mapped directory, with every write
//! refused and no lock file taken. A read never writes, so it works on a folder that cannot
//! be written (a read-only mount, a backup); a reader that meets a segment an import has just
//! merged away opens the index again (see `query::text::open_and_search`).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, MmapDirectory, WatchCallback, WatchHandle, WritePtr,
};

/// A directory that reads and never writes.
#[derive(Clone, Debug)]
pub(super) struct ReadOnlyDirectory {
    inner: MmapDirectory,
    path: PathBuf,
}

impl ReadOnlyDirectory {
    pub(super) fn open(path: &Path) -> Result<ReadOnlyDirectory, tantivy::TantivyError> {
        Ok(ReadOnlyDirectory {
            inner: MmapDirectory::open(path)?,
            path: path.to_path_buf(),
        })
    }

    fn refused(&self) -> io::Error {
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "the text index in {} is open for reading only",
                self.path.display()
            ),
        )
    }
}

impl Directory for ReadOnlyDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        self.inner.get_file_handle(path)
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        Err(DeleteError::IoError {
            io_error: Arc::new(self.refused()),
            filepath: path.to_path_buf(),
        })
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.inner.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        Err(OpenWriteError::IoError {
            io_error: Arc::new(self.refused()),
            filepath: path.to_path_buf(),
        })
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.inner.atomic_read(path)
    }

    fn atomic_write(&self, _path: &Path, _data: &[u8]) -> io::Result<()> {
        Err(self.refused())
    }

    fn sync_directory(&self) -> io::Result<()> {
        Ok(())
    }

    /// No lock file: nothing this reader does needs one, and none can be made where the
    /// folder cannot be written.
    fn acquire_lock(&self, _lock: &Lock) -> Result<DirectoryLock, LockError> {
        Ok(DirectoryLock::from(Box::new(())))
    }

    fn watch(&self, _watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        Ok(WatchHandle::empty())
    }
}
