//! Reading a file from disk with a bound: the one way documents, companions (`.air`, `.sff`,
//! `.act`) and images are read, so `/dev/zero`, a FIFO or a folder never makes Sprat read
//! without end.

use super::diagnostics::{Diagnostic, Location, Severity};
use std::fmt;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The largest file Sprat reads: far above any sprite file, SFF archive or sheet a game
/// ships, and small enough that a mistaken path cannot exhaust memory.
pub const MAX_FILE_BYTES: u64 = 2 << 30;

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The file.
    pub path: PathBuf,
    /// A plain sentence (without the path).
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InputError {}

impl From<InputError> for Diagnostic {
    fn from(error: InputError) -> Diagnostic {
        Diagnostic::new(
            Severity::Error,
            Location::File,
            format!("cannot read the file: {}", error.message),
        )
    }
}

/// The bytes of the regular file at `path` (symbolic links followed), at most
/// [`MAX_FILE_BYTES`]. Folders, devices, FIFOs and sockets are refused without being opened
/// for reading, and the read itself stops one byte past the limit, so a file that grows while
/// it is read cannot make it unbounded either.
pub fn read_file(path: &Path) -> Result<Vec<u8>, InputError> {
    read_file_within(path, MAX_FILE_BYTES)
}

/// How far a read has got, and whether the reader is asked to stop; shared with another
/// thread (the editor shows the bytes read and offers Cancel).
#[derive(Debug, Default)]
pub struct ReadProgress {
    /// Bytes read so far.
    pub bytes: AtomicU64,
    /// Set to stop the read at the next chunk.
    pub cancelled: AtomicBool,
}

/// The sentence of a read stopped by [`ReadProgress::cancelled`].
pub const CANCELLED: &str = "the read was cancelled";

/// Bytes read between two looks at a [`ReadProgress`].
const CHUNK: usize = 1 << 20;

/// [`read_file`] with another limit (image decoders keep a smaller one).
pub fn read_file_within(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    read_file_watched(path, limit, &ReadProgress::default())
}

/// [`read_file_within`] that counts its bytes in `progress` and stops when it is cancelled.
pub fn read_file_watched(
    path: &Path,
    limit: u64,
    progress: &ReadProgress,
) -> Result<Vec<u8>, InputError> {
    let fail = |message: String| InputError {
        path: path.to_path_buf(),
        message,
    };
    let metadata = fs::metadata(path).map_err(|e| fail(plain_io_error(&e)))?;
    if metadata.is_dir() {
        return Err(fail("it is a folder, not a file".to_string()));
    }
    if !metadata.is_file() {
        return Err(fail(
            "it is not a regular file (a device, pipe or socket); Sprat reads only files"
                .to_string(),
        ));
    }
    if metadata.len() > limit {
        return Err(fail(too_large(metadata.len(), limit)));
    }
    let file = fs::File::open(path).map_err(|e| fail(plain_io_error(&e)))?;
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    let mut reader = file.take(limit + 1);
    loop {
        if progress.cancelled.load(Ordering::Relaxed) {
            return Err(fail(CANCELLED.to_string()));
        }
        let read = (&mut reader)
            .take(CHUNK as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| fail(plain_io_error(&e)))?;
        progress.bytes.store(bytes.len() as u64, Ordering::Relaxed);
        if read == 0 {
            break;
        }
    }
    if bytes.len() as u64 > limit {
        return Err(fail(too_large(bytes.len() as u64, limit)));
    }
    Ok(bytes)
}

fn too_large(size: u64, limit: u64) -> String {
    format!(
        "it is too large ({} bytes; Sprat reads files up to {} MiB)",
        size,
        limit >> 20
    )
}

/// The operating system's sentence without the "(os error 2)" tail.
fn plain_io_error(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watched_read_counts_its_bytes_and_stops_when_cancelled() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.bin");
        fs::write(&path, vec![7u8; 3 * CHUNK + 5]).unwrap();
        let progress = ReadProgress::default();
        let bytes = read_file_watched(&path, MAX_FILE_BYTES, &progress).unwrap();
        assert_eq!(bytes.len(), 3 * CHUNK + 5);
        assert_eq!(progress.bytes.load(Ordering::Relaxed), bytes.len() as u64);
        progress.cancelled.store(true, Ordering::Relaxed);
        let error = read_file_watched(&path, MAX_FILE_BYTES, &progress).unwrap_err();
        assert_eq!(error.message, CANCELLED);
    }

    #[test]
    fn reads_a_regular_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        fs::write(&path, b"hello").unwrap();
        assert_eq!(read_file(&path).unwrap(), b"hello");
    }

    #[test]
    fn refuses_folders_missing_files_and_files_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let folder = read_file(dir.path()).unwrap_err();
        assert!(folder.message.contains("folder"), "{folder}");
        let missing = read_file(&dir.path().join("nothing")).unwrap_err();
        assert!(!missing.message.contains("os error"), "{missing}");
        let path = dir.path().join("big.bin");
        fs::write(&path, [0u8; 100]).unwrap();
        let big = read_file_within(&path, 99).unwrap_err();
        assert!(big.message.contains("too large"), "{big}");
        assert_eq!(read_file_within(&path, 100).unwrap().len(), 100);
    }

    #[cfg(unix)]
    #[test]
    fn refuses_devices_without_reading_them() {
        // /dev/zero never ends: reading it without a bound grows memory until killed.
        let zero = read_file(Path::new("/dev/zero")).unwrap_err();
        assert!(zero.message.contains("not a regular file"), "{zero}");
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_fifo_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo on this machine
        }
        // Opening a FIFO for reading blocks until a writer comes: the check must come first.
        let error = read_file(&fifo).unwrap_err();
        assert!(error.message.contains("not a regular file"), "{error}");
    }
}
