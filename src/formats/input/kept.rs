//! A file read once and kept open, so parts of it are read again when needed instead of all
//! its bytes staying in memory (a high-definition character's 139 MB archive, of which one
//! sprite at a time is drawn).
//!
//! The handle kept is the very file that was read: a program that saves by writing a new file
//! and renaming it over the old one leaves the kept handle on the bytes that were read. A
//! file changed in place is noticed by its length and modification time, and its parts are
//! then refused rather than read as what they no longer are.

use super::{InputError, plain_io_error};
use std::fs;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::SystemTime;

/// The sentence of a kept file changed in place since it was read.
pub const CHANGED_SINCE_READ: &str = "the file was changed on disk since it was read";

/// An open file whose length and modification time were those of the bytes read from it.
#[derive(Debug)]
pub struct KeptFile {
    path: PathBuf,
    file: Mutex<fs::File>,
    len: u64,
    modified: Option<SystemTime>,
}

impl KeptFile {
    /// Keeps `file`, read from `path` when its metadata was `read_as`; `None` when it has
    /// changed since (the bytes read may be half old, half new: nothing should be read again
    /// from it).
    pub(super) fn keep(path: &Path, file: fs::File, read_as: &fs::Metadata) -> Option<KeptFile> {
        let now = file.metadata().ok()?;
        let same = now.len() == read_as.len() && now.modified().ok() == read_as.modified().ok();
        same.then(|| KeptFile {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            len: read_as.len(),
            modified: read_as.modified().ok(),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its length when read.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether it was empty when read.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes at `range`, as they were when the file was read; refused when the range
    /// passes the end, or the file was changed in place since.
    pub fn read_range(&self, range: Range<usize>) -> Result<Vec<u8>, InputError> {
        let fail = |message: String| InputError {
            path: self.path.clone(),
            message,
        };
        if range.start > range.end || range.end as u64 > self.len {
            return Err(fail(format!(
                "bytes {}..{} are past the end of its {} bytes",
                range.start, range.end, self.len
            )));
        }
        let mut file = self.unchanged().map_err(fail)?;
        let mut bytes = vec![0; range.len()];
        file.seek(SeekFrom::Start(range.start as u64))
            .and_then(|_| file.read_exact(&mut bytes))
            .map_err(|e| fail(plain_io_error(&e)))?;
        Ok(bytes)
    }

    /// All its bytes, as they were when the file was read (see [`KeptFile::read_range`]).
    pub fn read_all(&self) -> Result<Vec<u8>, InputError> {
        let len = usize::try_from(self.len).map_err(|_| InputError {
            path: self.path.clone(),
            message: "it is too large to read on this machine".to_string(),
        })?;
        self.read_range(0..len)
    }

    /// The open file, once it is seen to have the length and time it was read with.
    fn unchanged(&self) -> Result<MutexGuard<'_, fs::File>, String> {
        // A panic while reading leaves only a file position behind; every read seeks first.
        let file = self
            .file
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let now = file.metadata().map_err(|e| plain_io_error(&e))?;
        if now.len() != self.len || now.modified().ok() != self.modified {
            return Err(CHANGED_SINCE_READ.to_string());
        }
        Ok(file)
    }
}
