//! Reading files off the UI thread.
//!
//! A large SFF takes long to read; the editor starts the read in the background (a worker
//! thread on the desktop; on the web, the page's one thread once the progress window has
//! painted) and keeps painting (with a progress bar) until the result arrives.
//!
//! The SFF archives the document draws from are read there too, once: the editor's sprite
//! store takes them ([`OpenedFile::archives`]), so the canvas decodes the first sprite it
//! shows without reading a file on the UI thread; the same bytes are what the archive's
//! fingerprint is taken from, on a thread of its own (docs/speed.md, "The first picture").

use crate::app::context::platform::Platform;
use crate::formats::input::ReadProgress;
use crate::formats::sff::{SffArchive, SffStore};
use crate::formats::{Diagnostic, Loaded, ReadContext, ReadOptions, registry};
use crate::model::{AnimationSet, ImageKind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use web_time::Instant;

/// A file read that succeeded, with the format that read it.
#[derive(Debug)]
pub struct OpenedFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// The document and its diagnostics.
    pub loaded: Loaded,
    /// The format that read it.
    pub format: &'static dyn crate::formats::Format,
    /// What each file of the document held when read (recorded on the reading thread where
    /// there is a disk; empty otherwise): a save compares the disk with it.
    pub fingerprints: crate::session::Fingerprints,
    /// The SFF archives the document draws from, each read once with it: the sprite store
    /// keeps them.
    pub archives: Vec<ReadArchive>,
}

/// An SFF archive read with a document, off the UI thread.
#[derive(Debug)]
pub struct ReadArchive {
    /// Its file (the image's resolved path).
    pub path: PathBuf,
    /// The bytes the document holds of it, when it draws from those rather than from the file
    /// (an archive opened alone): the archive was parsed from them.
    pub held: Option<Arc<Vec<u8>>>,
    /// The archive.
    pub archive: Arc<SffArchive>,
    /// The bytes read from the file (what its fingerprint is taken from); `None` for held
    /// bytes. Not kept past the fingerprint: a large archive's sprites are read from its file.
    read: Option<Arc<Vec<u8>>>,
}

impl ReadArchive {
    /// Hands the archive to `store`, which then draws the document's sprites from it
    /// ([`SffStore::keep_archive`], or [`SffStore::keep_edition`] for held bytes).
    pub fn keep_in(self, store: &SffStore) {
        match &self.held {
            None => store.keep_archive(&self.path, self.archive),
            Some(bytes) => store.keep_edition(Some(&self.path), bytes, self.archive),
        }
    }
}

/// The result of a read: the file, or why it could not be read.
pub type LoadResult = Result<OpenedFile, Vec<Diagnostic>>;

/// Reads a file with whichever registered format it is in, on the calling thread.
pub fn load_now(path: &Path) -> LoadResult {
    load_watched(path, &ReadOptions::default(), &ReadProgress::default())
}

/// [`load_now`] counting the bytes read in `progress`, stopping when it is cancelled.
fn load_watched(path: &Path, options: &ReadOptions, progress: &ReadProgress) -> LoadResult {
    let mut context = ReadContext::for_path(path);
    context.options = options.clone();
    match registry().open_watched(path, &context, progress) {
        Ok((loaded, format)) => {
            crate::session::remove_stale_temporaries_of(path, &loaded.document);
            let archives = read_archives(&loaded.document);
            Ok(OpenedFile {
                path: path.to_path_buf(),
                loaded,
                format,
                fingerprints: crate::session::Fingerprints::new(),
                archives,
            })
        }
        Err(failure) => Err(failure.diagnostics),
    }
}

/// The SFF archives `document` draws from, each read from its file once (by its resolved
/// path), or parsed from the bytes the document holds of it (an archive opened alone). One
/// that cannot be read is left to the sprite store to report.
fn read_archives(document: &AnimationSet) -> Vec<ReadArchive> {
    let mut archives: Vec<ReadArchive> = Vec::new();
    for image in &document.images {
        let (ImageKind::Sff { .. }, Some(path)) = (&image.kind, &image.resolved) else {
            continue;
        };
        if archives.iter().any(|a| a.path == *path) {
            continue;
        }
        let held = document.edited_file(image.id).cloned();
        let archive = match &held {
            Some(bytes) => SffArchive::parse_shared(Arc::clone(bytes)).map(|a| (a, None)),
            None => SffArchive::read(path).map(|(a, read)| (a, Some(read))),
        };
        if let Ok((archive, read)) = archive {
            archives.push(ReadArchive {
                path: path.clone(),
                held,
                archive: Arc::new(archive),
                read,
            });
        }
    }
    archives
}

/// What each file of `file`'s document held when read; its archives are recorded from the
/// bytes read with it, a large one hashed on a thread of its own.
fn fingerprints_of(file: &OpenedFile) -> crate::session::Fingerprints {
    // Held bytes are the document's own, which it records from them anyway.
    let read: Vec<(PathBuf, crate::session::ReadBytes)> = file
        .archives
        .iter()
        .filter_map(|archive| {
            let bytes = Arc::clone(archive.read.as_ref()?);
            Some((archive.path.clone(), bytes))
        })
        .collect();
    crate::session::Fingerprints::of_document_read(Some(&file.path), &file.loaded.document, &read)
}

/// A read under way on a worker thread.
pub struct PendingLoad {
    /// The file being read.
    pub path: PathBuf,
    /// Its size in bytes, for the progress line.
    pub size: u64,
    /// When the read started.
    pub started: Instant,
    progress: Arc<ReadProgress>,
    receiver: Receiver<LoadResult>,
}

impl PendingLoad {
    /// Starts reading `path` in the background of `platform`; `wake` is called when the
    /// result is ready (the editor asks egui to repaint there).
    pub fn start(
        platform: &dyn Platform,
        path: PathBuf,
        options: ReadOptions,
        wake: impl FnOnce() + Send + 'static,
    ) -> PendingLoad {
        let (sender, receiver) = channel();
        let size = crate::formats::input::metadata(&path).map_or(0, |facts| facts.len);
        let worker_path = path.clone();
        let progress = Arc::new(ReadProgress::default());
        let worker_progress = Arc::clone(&progress);
        let has_disk = platform.has_disk();
        platform.run_in_background(Box::new(move || {
            let result = load_watched(&worker_path, &options, &worker_progress).map(|mut file| {
                if has_disk {
                    file.fingerprints = fingerprints_of(&file);
                }
                file
            });
            // The editor may have been closed meanwhile; then nobody needs the result.
            let _ = sender.send(result);
            wake();
        }));
        PendingLoad {
            path,
            size,
            started: Instant::now(),
            progress,
            receiver,
        }
    }

    /// Bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.progress.bytes.load(Ordering::Relaxed)
    }

    /// Asks the worker to stop reading; whatever it hands back is not used.
    pub fn cancel(&self) {
        self.progress.cancelled.store(true, Ordering::Relaxed);
    }

    /// The result if the read has finished.
    pub fn poll(&self) -> Option<LoadResult> {
        match self.receiver.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(vec![Diagnostic::new(
                crate::formats::Severity::Error,
                crate::formats::Location::File,
                "the reader stopped unexpectedly",
            )])),
        }
    }
}
