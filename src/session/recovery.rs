//! Recovery files: the open document written aside every 30 seconds while it has unsaved
//! changes, so a crash loses at most that much work, and found again on the next start.
//!
//! Each open document gets a folder in the recovery directory holding `document.ron` (the whole
//! model, with where its images were found, and the diagnostics of the read), `original.bin`
//! and `companion-N.bin` (the bytes of every file the document was read from — a character's
//! `.def` and its `.air`, and the archives and palettes a save wrote over as they were before —
//! so saving the recovered document keeps untouched parts byte for byte,
//! exactly as saving the open one would), `edited-N.bin` (the edited archives not yet saved)
//! and `info.ron` (which file and format it belongs to), written last so a folder with
//! `info.ron` is complete.
//! Every file is replaced atomically, so a crash during an autosave keeps the previous one.

use super::Session;
use super::atomic::replace_file;
use super::fingerprint::Fingerprints;
use crate::formats::Diagnostic;
use crate::model::{AnimationSet, EditedFile, ImageId, ImageKind, OriginalSource, PaletteSource};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a document stays dirty before it is written to its recovery folder.
pub const AUTOSAVE_INTERVAL: Duration = Duration::from_secs(30);

const VERSION: u32 = 1;
const INFO: &str = "info.ron";
const DOCUMENT: &str = "document.ron";
const ORIGINAL: &str = "original.bin";

/// The file holding the bytes of companion original `index`.
fn companion_file(index: usize) -> String {
    format!("companion-{index}.bin")
}

/// The file holding edited archive `index`.
fn edited_file(index: usize) -> String {
    format!("edited-{index}.bin")
}

#[derive(Serialize, Deserialize)]
struct RecoveryInfo {
    version: u32,
    /// The file the document belongs to; `None` for a document never saved.
    source: Option<PathBuf>,
    /// The format it is saved in.
    format: String,
    /// The format and path of the original bytes, when `original.bin` holds them.
    original: Option<(String, Option<PathBuf>)>,
    /// The format and path of each companion original, in `companion-N.bin`.
    #[serde(default)]
    companions: Vec<(String, Option<PathBuf>)>,
    /// When the recovery was written, in seconds since 1970.
    written: u64,
    /// What each file of the document held when the session read or last saved it, so the
    /// recovered document's save stops before replacing a change another program made since
    /// (empty in a recovery written before it was kept: then nothing is compared).
    #[serde(default)]
    read: Fingerprints,
}

#[derive(Serialize, Deserialize)]
struct RecoveredDocument {
    set: AnimationSet,
    /// Where each image was found on disk (not part of the model's serialised form).
    image_paths: Vec<(ImageId, PathBuf)>,
    /// Where each `.act` palette was found: image, palette index, path.
    palette_paths: Vec<(ImageId, usize, PathBuf)>,
    /// The images whose edited files are in `edited-N.bin`, in order.
    #[serde(default)]
    edited_files: Vec<ImageId>,
    /// For each of those, the palette source whose `.act` it is (`None`: the image's file).
    #[serde(default)]
    edited_palettes: Vec<Option<usize>>,
    /// What reading the file reported, shown again with the recovered document.
    #[serde(default)]
    diagnostics: Vec<Diagnostic>,
}

/// A document that can be recovered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecoveryEntry {
    /// Its recovery folder.
    pub folder: PathBuf,
    /// The file it belongs to, or `None` for a document never saved.
    pub source: Option<PathBuf>,
    /// The format id it is saved in.
    pub format: String,
    /// When it was written.
    pub written: SystemTime,
}

/// The recovery directory (the caller picks it, e.g. in the user's data folder).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecoveryStore {
    dir: PathBuf,
}

static FOLDER_COUNTER: AtomicU64 = AtomicU64::new(0);

impl RecoveryStore {
    /// A store in `dir` (created when first written).
    pub fn new(dir: impl Into<PathBuf>) -> RecoveryStore {
        RecoveryStore { dir: dir.into() }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A new folder name for a document from `source`, unique to this process.
    pub(crate) fn new_folder(&self, source: Option<&Path>) -> PathBuf {
        let stem = source
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "untitled".to_string());
        let stem = crate::text::file_name_characters(&stem);
        let n = FOLDER_COUNTER.fetch_add(1, Ordering::Relaxed);
        let hash = source.map_or(0, |p| fnv1a(p.to_string_lossy().as_bytes()));
        self.dir
            .join(format!("{stem}-{hash:016x}-{}-{n}", std::process::id()))
    }

    /// Every complete recovery in the store, newest first.
    pub fn list(&self) -> Vec<RecoveryEntry> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out: Vec<RecoveryEntry> = entries
            .flatten()
            .filter_map(|entry| {
                let folder = entry.path();
                let info = read_info(&folder).ok()?;
                folder.join(DOCUMENT).is_file().then(|| RecoveryEntry {
                    folder,
                    source: info.source,
                    format: info.format,
                    written: UNIX_EPOCH + Duration::from_secs(info.written),
                })
            })
            .collect();
        out.sort_by(|a, b| b.written.cmp(&a.written).then(a.folder.cmp(&b.folder)));
        out
    }

    /// Opens a recovered document as a session with unsaved changes, bound to its original
    /// file and format. The recovery folder stays until the session saves or is discarded.
    pub fn recover(&self, entry: &RecoveryEntry) -> Result<Session, String> {
        let info = read_info(&entry.folder)?;
        let text = fs::read_to_string(entry.folder.join(DOCUMENT))
            .map_err(|e| format!("cannot read the recovered document: {e}"))?;
        let recovered: RecoveredDocument =
            ron::from_str(&text).map_err(|e| format!("the recovered document is damaged: {e}"))?;
        let mut document = recovered.set;
        for (id, path) in recovered.image_paths {
            if let Some(image) = document.images.iter_mut().find(|i| i.id == id) {
                image.resolved = Some(path);
            }
        }
        for (id, index, path) in recovered.palette_paths {
            if let Some(image) = document.images.iter_mut().find(|i| i.id == id)
                && let ImageKind::Sff { palettes, .. } = &mut image.kind
                && let Some(PaletteSource::ActFile { resolved, .. }) = palettes.get_mut(index)
            {
                *resolved = Some(path);
            }
        }
        let read_bytes = |name: &str| {
            fs::read(entry.folder.join(name))
                .map(Arc::new)
                .map_err(|e| format!("cannot read the recovered original bytes ({name}): {e}"))
        };
        if let Some((format, path)) = info.original {
            document.original = Some(OriginalSource {
                format,
                bytes: read_bytes(ORIGINAL)?,
                path,
            });
        }
        document.companion_originals = Vec::with_capacity(info.companions.len());
        for (index, (format, path)) in info.companions.into_iter().enumerate() {
            document.companion_originals.push(OriginalSource {
                format,
                bytes: read_bytes(&companion_file(index))?,
                path,
            });
        }
        document.edited_files = Vec::with_capacity(recovered.edited_files.len());
        for (index, image) in recovered.edited_files.into_iter().enumerate() {
            document.edited_files.push(EditedFile {
                image,
                palette: recovered.edited_palettes.get(index).copied().flatten(),
                bytes: read_bytes(&edited_file(index))?,
            });
        }
        let format = crate::formats::registry()
            .by_id(&info.format)
            .ok_or_else(|| format!("Sprat does not know the format \"{}\"", info.format))?;
        let mut session = Session::with_document(document, format, info.source);
        session.diagnostics = recovered.diagnostics;
        session.set_fingerprints(info.read);
        session.mark_unsaved();
        session.adopt_recovery_folder(self.clone(), entry.folder.clone());
        Ok(session)
    }

    /// Deletes a recovery (the user declined it, or its document was saved).
    pub fn discard(&self, entry: &RecoveryEntry) -> io::Result<()> {
        remove_folder(&entry.folder)
    }

    /// Writes `document` into `folder`, with `read`, what its files held when the session
    /// read or last saved them; `with_original` also writes its original bytes.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn write(
        &self,
        folder: &Path,
        source: Option<&Path>,
        format: &str,
        document: &AnimationSet,
        diagnostics: &[Diagnostic],
        read: &Fingerprints,
        with_original: bool,
    ) -> io::Result<()> {
        fs::create_dir_all(folder)?;
        // The archives first, so the document never names one that is not there yet.
        for (index, edited) in document.edited_files.iter().enumerate() {
            replace_file(&folder.join(edited_file(index)), &edited.bytes)?;
        }
        let recovered = RecoveredDocument {
            set: document.clone(),
            image_paths: document
                .images
                .iter()
                .filter_map(|i| i.resolved.clone().map(|p| (i.id, p)))
                .collect(),
            palette_paths: palette_paths(document),
            edited_files: document.edited_files.iter().map(|e| e.image).collect(),
            edited_palettes: document.edited_files.iter().map(|e| e.palette).collect(),
            diagnostics: diagnostics.to_vec(),
        };
        let text = ron::to_string(&recovered).map_err(io::Error::other)?;
        replace_file(&folder.join(DOCUMENT), text.as_bytes())?;
        if with_original {
            if let Some(original) = &document.original {
                replace_file(&folder.join(ORIGINAL), &original.bytes)?;
            }
            for (index, companion) in document.companion_originals.iter().enumerate() {
                replace_file(&folder.join(companion_file(index)), &companion.bytes)?;
            }
        }
        let info = RecoveryInfo {
            version: VERSION,
            source: source.map(Path::to_path_buf),
            format: format.to_string(),
            original: document
                .original
                .as_ref()
                .map(|o| (o.format.clone(), o.path.clone())),
            companions: document
                .companion_originals
                .iter()
                .map(|o| (o.format.clone(), o.path.clone()))
                .collect(),
            written: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            read: read.clone(),
        };
        let text = ron::to_string(&info).map_err(io::Error::other)?;
        replace_file(&folder.join(INFO), text.as_bytes())
    }
}

/// Removes a recovery folder (missing is fine).
pub(crate) fn remove_folder(folder: &Path) -> io::Result<()> {
    match fs::remove_dir_all(folder) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

fn read_info(folder: &Path) -> Result<RecoveryInfo, String> {
    let text = fs::read_to_string(folder.join(INFO))
        .map_err(|e| format!("cannot read the recovery information: {e}"))?;
    let info: RecoveryInfo =
        ron::from_str(&text).map_err(|e| format!("the recovery information is damaged: {e}"))?;
    if info.version != VERSION {
        return Err(format!(
            "the recovery was written by another version of Sprat (format {})",
            info.version
        ));
    }
    Ok(info)
}

fn palette_paths(document: &AnimationSet) -> Vec<(ImageId, usize, PathBuf)> {
    let mut out = Vec::new();
    for image in &document.images {
        if let ImageKind::Sff { palettes, .. } = &image.kind {
            for (index, palette) in palettes.iter().enumerate() {
                if let PaletteSource::ActFile {
                    resolved: Some(path),
                    ..
                } = palette
                {
                    out.push((image.id, index, path.clone()));
                }
            }
        }
    }
    out
}

/// FNV-1a: a stable hash for folder names (std's hasher may change between Rust releases).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ *byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
