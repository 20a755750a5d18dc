//! Noticing when files a document uses change on disk.
//!
//! The caller polls (through [`super::Session::tick`], or [`super::Session::check_files`] when
//! told something changed); each poll compares every watched file's size and modification
//! time with what was seen before. Polling a handful of files once a second costs nothing,
//! works on every platform and network drive, sees editors that save by renaming, and keeps
//! time in the caller's hands so tests are exact; a notification crate would add platform
//! quirks for no gain here. The editor, which must not wake while idle, hands the stamps last
//! seen ([`FileWatch::baseline`]) to a thread of its own that compares them with the disk and
//! wakes it only on a difference; then the session polls as here.

use crate::model::{AnimationSet, ImageId, ImageKind, PaletteSource};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A change seen on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileChange {
    /// The open file itself changed (or was removed): ask the user whether to reload.
    Document {
        /// The file.
        path: PathBuf,
        /// False when it no longer exists.
        exists: bool,
    },
    /// A file read together with the open one (the `.air` a character's `.def` names)
    /// changed (or was removed): the document no longer matches it; tell the user, who may
    /// reload it (a save will ask before replacing the change).
    Companion {
        /// The file.
        path: PathBuf,
        /// False when it no longer exists.
        exists: bool,
    },
    /// An image, SFF archive or palette the document draws from changed: reload its pixels.
    Source {
        /// The image (for a palette, the SFF archive it colours).
        image: ImageId,
        /// The file that changed.
        path: PathBuf,
        /// False when it no longer exists.
        exists: bool,
    },
}

/// Size and modification time; `None` when the file is missing.
pub type Stamp = Option<(u64, Option<SystemTime>)>;

/// What a file looks like on disk now.
pub fn stamp_of(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()))
}

/// What was last seen of each watched file.
#[derive(Debug, Default)]
pub struct FileWatch {
    seen: HashMap<PathBuf, Stamp>,
}

impl FileWatch {
    /// A watch that has seen nothing yet (the first poll only records).
    pub fn new() -> FileWatch {
        FileWatch::default()
    }

    /// Records the current state of a file without reporting it (after saving it ourselves).
    pub fn refresh(&mut self, path: &Path) {
        self.seen.insert(path.to_path_buf(), stamp_of(path));
    }

    /// Compares the files of `document` (the document's own file, the files read with it,
    /// its images, archives and palettes) with the last poll. Files seen for the first time
    /// are recorded, not reported; a file that is both a companion and a source of pixels is
    /// reported once, as a source.
    pub fn poll(
        &mut self,
        document_path: Option<&Path>,
        document: &AnimationSet,
    ) -> Vec<FileChange> {
        let mut changes = Vec::new();
        if let Some(path) = document_path
            && let Some(exists) = self.check(path)
        {
            changes.push(FileChange::Document {
                path: path.to_path_buf(),
                exists,
            });
        }
        for (image, path) in source_files(document) {
            if let Some(exists) = self.check(&path) {
                changes.push(FileChange::Source {
                    image,
                    path,
                    exists,
                });
            }
        }
        let sources: Vec<PathBuf> = source_files(document).into_iter().map(|(_, p)| p).collect();
        for path in companion_files(document) {
            if document_path == Some(path.as_path()) || sources.contains(&path) {
                continue;
            }
            if let Some(exists) = self.check(&path) {
                changes.push(FileChange::Companion { path, exists });
            }
        }
        changes
    }

    /// Each of `paths` with the stamp last seen of it; a path not seen yet is looked at now
    /// (its stamp becomes the one later changes are measured against).
    pub fn baseline(&mut self, paths: Vec<PathBuf>) -> Vec<(PathBuf, Stamp)> {
        paths
            .into_iter()
            .map(|path| {
                let stamp = *self
                    .seen
                    .entry(path.clone())
                    .or_insert_with(|| stamp_of(&path));
                (path, stamp)
            })
            .collect()
    }

    /// `Some(exists)` when the file changed since last seen.
    fn check(&mut self, path: &Path) -> Option<bool> {
        let now = stamp_of(path);
        match self.seen.insert(path.to_path_buf(), now) {
            Some(before) if before != now => Some(now.is_some()),
            _ => None,
        }
    }
}

/// Every file a poll of `document` looks at: its own file, the files read with it and its
/// sources, each once.
pub fn watched_paths(document_path: Option<&Path>, document: &AnimationSet) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = Vec::new();
    let all = document_path
        .map(Path::to_path_buf)
        .into_iter()
        .chain(source_files(document).into_iter().map(|(_, path)| path))
        .chain(companion_files(document));
    for path in all {
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    paths
}

/// The files read together with the document's own (the `.air` a `.def` names), and those a
/// save wrote over whose earlier bytes the document keeps.
pub fn companion_files(document: &AnimationSet) -> Vec<PathBuf> {
    document
        .companion_originals
        .iter()
        .filter_map(|o| o.path.clone())
        .collect()
}

/// Every file on disk the document's pixels come from.
pub fn source_files(document: &AnimationSet) -> Vec<(ImageId, PathBuf)> {
    let mut out = Vec::new();
    for image in &document.images {
        if let Some(path) = &image.resolved {
            out.push((image.id, path.clone()));
        }
        match &image.kind {
            ImageKind::Sff { palettes, .. } => {
                for palette in palettes {
                    if let PaletteSource::ActFile {
                        resolved: Some(path),
                        ..
                    } = palette
                    {
                        out.push((image.id, path.clone()));
                    }
                }
            }
            ImageKind::SolarusTileset { chosen: Some(path) } => out.push((image.id, path.clone())),
            _ => {}
        }
    }
    out
}
