//! Reading a file with a bound: the one way documents, companions (`.air`, `.sff`, `.act`)
//! and images are read, folders listed and files looked up, so `/dev/zero`, a FIFO or a
//! folder never makes Sprat read without end, and files given without a disk (dropped on the
//! web page, [`provide_files`]) are found exactly where files on disk would be.

mod kept;
mod provided;

pub use kept::{CHANGED_SINCE_READ, KeptFile};

pub use provided::{
    MAX_PROVIDED_BYTES, MAX_PROVIDED_FILES, ProvidedFiles, clear_provided_files, provide_files,
    refusal_before_reading,
};

use super::diagnostics::{Diagnostic, Location, Severity};
use std::fmt;
use std::fs;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::SystemTime;

/// The largest file Sprat reads: far above any sprite file, SFF archive or sheet a game
/// ships, and small enough that a mistaken path cannot exhaust memory.
pub const MAX_FILE_BYTES: u64 = 2 << 30;

/// The decoded pictures one file may hold while it is read (an Aseprite file's cels and
/// tilesets, counted together): a file whose pictures need more is refused with a sentence
/// rather than left to exhaust memory, however well its pixels compress.
pub const MAX_PICTURE_BYTES: u64 = 2 << 30;

/// The sentence of a file whose pictures pass [`MAX_PICTURE_BYTES`]: `needed` bytes in all
/// once `what` is decoded.
pub fn pictures_too_large(what: &str, needed: u64) -> String {
    format!(
        "{what} would bring this file's decoded pictures to {needed} bytes, more than the {} MiB Sprat holds for one file",
        MAX_PICTURE_BYTES >> 20
    )
}

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

/// The bytes of the file provided at `path` ([`provide_files`]), else of the regular file
/// there on disk (symbolic links followed), at most [`MAX_FILE_BYTES`]. Folders, devices,
/// FIFOs and sockets are refused without being opened for reading, and the read itself stops
/// one byte past the limit, so a file that grows while it is read cannot make it unbounded
/// either.
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
    if let Some(found) = provided_file(path) {
        return match found {
            Provided::Folder => Err(fail(FOLDER.to_string())),
            Provided::File(file) if file.bytes.len() as u64 > limit => {
                Err(fail(too_large(file.bytes.len() as u64, limit)))
            }
            Provided::File(_) if progress.cancelled.load(Ordering::Relaxed) => {
                Err(fail(CANCELLED.to_string()))
            }
            Provided::File(file) => {
                progress
                    .bytes
                    .store(file.bytes.len() as u64, Ordering::Relaxed);
                Ok(file.bytes.to_vec())
            }
        };
    }
    read_disk_file(path, limit, progress).map(|(bytes, _, _)| bytes)
}

/// The bytes of the file at `path` (as [`read_file`] reads them) and, when it is on disk, the
/// file kept open ([`KeptFile`]) so that parts of it can be read again without holding all of
/// it; `None` for a provided file, or one that changed while it was read, and off Unix: on
/// Windows a file held open cannot be replaced by renaming another over it, as saves do.
pub fn read_file_kept(path: &Path) -> Result<(Vec<u8>, Option<KeptFile>), InputError> {
    if !cfg!(unix) || provided_file(path).is_some() {
        return read_file(path).map(|bytes| (bytes, None));
    }
    let (bytes, file, metadata) = read_disk_file(path, MAX_FILE_BYTES, &ReadProgress::default())?;
    Ok((bytes, KeptFile::keep(path, file, &metadata)))
}

/// Reads the regular file on disk at `path` (see [`read_file`]): its bytes, the open file
/// and its metadata just before reading.
fn read_disk_file(
    path: &Path,
    limit: u64,
    progress: &ReadProgress,
) -> Result<(Vec<u8>, fs::File, fs::Metadata), InputError> {
    let fail = |message: String| InputError {
        path: path.to_path_buf(),
        message,
    };
    let metadata = fs::metadata(path).map_err(|e| fail(plain_io_error(&e)))?;
    if metadata.is_dir() {
        return Err(fail(FOLDER.to_string()));
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
    // The open file's own metadata: what a kept file compares with later.
    let metadata = file.metadata().map_err(|e| fail(plain_io_error(&e)))?;
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
    Ok((bytes, reader.into_inner(), metadata))
}

/// The sentence of a read of a folder.
const FOLDER: &str = "it is a folder, not a file";

/// What is provided at a path.
enum Provided {
    /// A file.
    File(provided::ProvidedFile),
    /// A folder holding provided files.
    Folder,
}

/// The provided file or folder at `path`; `None` when nothing is provided there (look on
/// disk).
fn provided_file(path: &Path) -> Option<Provided> {
    let store = provided::read_store();
    if store.is_empty() {
        return None;
    }
    let key = provided::key(path);
    match store.file(&key) {
        Some(file) => Some(Provided::File(file.clone())),
        None => store.is_folder(&key).then_some(Provided::Folder),
    }
}

/// What a file is, as [`metadata`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file (links followed).
    File,
    /// A folder.
    Folder,
    /// A device, pipe or socket: never read.
    Other,
}

/// A file's identity for caches: equal stamps mean the file was not changed (as far as its
/// length and modification time tell; a provided file is changed when it is provided again).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    /// The round of [`provide_files`] that gave the file; 0 on disk.
    provided: u64,
}

/// What is known of a file without reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileFacts {
    /// File, folder or something else.
    pub kind: FileKind,
    /// Its length in bytes (0 for a provided folder).
    pub len: u64,
    /// Its identity for caches.
    pub stamp: Stamp,
}

/// What is known of the file or folder at `path` (provided, else on disk, links followed);
/// `None` when there is nothing there or it cannot be looked at.
pub fn metadata(path: &Path) -> Option<FileFacts> {
    let (kind, len, round) = match provided_file(path) {
        Some(Provided::File(file)) => (FileKind::File, file.bytes.len() as u64, file.round),
        Some(Provided::Folder) => (FileKind::Folder, 0, 0),
        None => return disk_metadata(path),
    };
    Some(FileFacts {
        kind,
        len,
        stamp: Stamp {
            len,
            modified: None,
            provided: round,
        },
    })
}

fn disk_metadata(path: &Path) -> Option<FileFacts> {
    let found = fs::metadata(path).ok()?;
    let kind = if found.is_file() {
        FileKind::File
    } else if found.is_dir() {
        FileKind::Folder
    } else {
        FileKind::Other
    };
    Some(FileFacts {
        kind,
        len: found.len(),
        stamp: Stamp {
            len: found.len(),
            modified: found.modified().ok(),
            provided: 0,
        },
    })
}

/// Whether `path` is a regular file, provided or on disk (links followed).
pub fn is_file(path: &Path) -> bool {
    metadata(path).is_some_and(|m| m.kind == FileKind::File)
}

/// Whether `path` is a folder, provided (some provided file lies below it) or on disk.
pub fn is_dir(path: &Path) -> bool {
    metadata(path).is_some_and(|m| m.kind == FileKind::Folder)
}

/// The files and folders directly in the folder `dir`, provided and on disk, each once and
/// sorted, spelled as `dir` joined with their names; `None` when `dir` is no folder.
pub fn read_dir(dir: &Path) -> Option<Vec<PathBuf>> {
    let provided: Vec<PathBuf> = {
        let store = provided::read_store();
        if store.is_empty() {
            Vec::new()
        } else {
            store.names_in(&provided::key(dir))
        }
    };
    let on_disk = fs::read_dir(dir).ok();
    if on_disk.is_none() && provided.is_empty() {
        return None;
    }
    let mut entries: Vec<PathBuf> = provided.iter().map(|name| dir.join(name)).collect();
    entries.extend(on_disk.into_iter().flatten().flatten().map(|e| e.path()));
    entries.sort();
    entries.dedup();
    Some(entries)
}

/// `path` as the file system resolves it (links, `..`), so two spellings of one file compare
/// equal; a provided file's is its absolute, normalised path. `None` when it does not exist.
pub fn canonicalize(path: &Path) -> Option<PathBuf> {
    if provided_file(path).is_some() {
        return Some(provided::key(path));
    }
    fs::canonicalize(path).ok()
}

/// The width and height of the image file at `path` from its header, without decoding its
/// pixels; the image format is told by the extension, as on disk. The error is a plain
/// sentence.
pub fn image_dimensions(path: &Path) -> Result<(u32, u32), String> {
    let Some(Provided::File(file)) = provided_file(path) else {
        return image::image_dimensions(path).map_err(|e| e.to_string());
    };
    let mut reader = image::ImageReader::new(Cursor::new(file.bytes.as_slice()));
    match image::ImageFormat::from_path(path) {
        Ok(format) => reader.set_format(format),
        Err(e) => return Err(e.to_string()),
    }
    reader.into_dimensions().map_err(|e| e.to_string())
}

fn too_large(size: u64, limit: u64) -> String {
    format!(
        "it is too large ({} bytes; Sprat reads files up to {} MiB)",
        size,
        limit >> 20
    )
}

/// The operating system's sentence without the "(os error 2)" tail. Where there is no file
/// system (the web page), a file that was not provided is missing: said so, rather than
/// "operation not supported on this platform".
fn plain_io_error(error: &std::io::Error) -> String {
    if error.kind() == std::io::ErrorKind::Unsupported {
        return "there is no such file among the files given".to_string();
    }
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
    fn without_a_file_system_a_file_not_given_is_missing() {
        let unsupported = std::io::Error::from(std::io::ErrorKind::Unsupported);
        assert_eq!(
            plain_io_error(&unsupported),
            "there is no such file among the files given"
        );
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
