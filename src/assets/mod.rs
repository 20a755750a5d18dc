//! Loading and caching the pixels a document draws from.
//!
//! [`ImageStore`] is the [`PixelSource`] the editor, the command line and the tests use: it
//! decodes image files once ([`decode`]), cuts slices once ([`cut`]) and keeps both until told a
//! file changed; SFF sprites come from the SFF reader's own cache ([`SffStore`]), which it
//! holds. It is `Send + Sync`: the editor can load on a worker thread while the canvas
//! draws from what is already cached.

pub mod check;
pub mod cut;
pub mod decode;
pub mod import;

use crate::formats::sff::SffStore;
use crate::model::{AnimationSet, GraphicSource, ImageKind, MemoryImage, PixelRect, SourceImage};
use crate::pixels::{PixelSource, SourcePixels};
use image::RgbaImage;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// Why an image could not be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssetError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong, as a plain sentence.
    pub message: String,
}

impl fmt::Display for AssetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for AssetError {}

type Decoded = Result<Arc<RgbaImage>, AssetError>;

/// Decoded image files kept at most (RGBA bytes); the least recently used go first past it
/// (the one in use always stays). With the cut slices' budget and the SFF sprites' it keeps a
/// render or check of any file under about 1 GB.
pub const FILE_BUDGET_BYTES: usize = 384 << 20;
/// Cut slices kept at most (RGBA bytes).
pub const CUT_BUDGET_BYTES: usize = 128 << 20;

/// How many RGBA bytes the store keeps decoded at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Decoded image files.
    pub files: usize,
    /// Slices cut from them.
    pub cuts: usize,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets {
            files: FILE_BUDGET_BYTES,
            cuts: CUT_BUDGET_BYTES,
        }
    }
}

/// One file's cell and when it was last asked for.
struct FileEntry {
    cell: Arc<OnceLock<Decoded>>,
    last_used: u64,
}

/// A cut slice and when it was last asked for.
struct CutEntry {
    image: Arc<RgbaImage>,
    last_used: u64,
}

/// A slice as cut from one file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct CutKey {
    path: PathBuf,
    rect: PixelRect,
    rotated: bool,
}

/// Decoded images and cut slices, by file, and the SFF sprites.
#[derive(Default)]
pub struct ImageStore {
    /// One cell per file; a cell is filled once by whichever thread asks first, and failures
    /// are kept too, so a missing file is not searched for on every repaint.
    files: Mutex<HashMap<PathBuf, FileEntry>>,
    cuts: Mutex<HashMap<CutKey, CutEntry>>,
    sff: SffStore,
    generation: AtomicU64,
    /// Counts uses, for "least recently used".
    clock: AtomicU64,
    budgets: Budgets,
}

impl fmt::Debug for ImageStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImageStore")
            .field("files", &lock(&self.files).len())
            .field("cuts", &lock(&self.cuts).len())
            .field("sff", &self.sff)
            .field("generation", &self.generation())
            .finish()
    }
}

/// A poisoned lock only means another thread panicked mid-insert; the maps stay consistent.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ImageStore {
    /// An empty store.
    pub fn new() -> ImageStore {
        ImageStore::default()
    }

    /// An empty store keeping at most `budgets` of decoded pixels.
    pub fn with_budgets(budgets: Budgets) -> ImageStore {
        ImageStore {
            budgets,
            ..ImageStore::default()
        }
    }

    /// The decoded image file at `path`, loading it on first use.
    pub fn image(&self, path: &Path) -> Result<Arc<RgbaImage>, AssetError> {
        let now = self.tick();
        let cell = {
            let mut files = lock(&self.files);
            let entry = files
                .entry(path.to_path_buf())
                .or_insert_with(|| FileEntry {
                    cell: Arc::default(),
                    last_used: now,
                });
            entry.last_used = now;
            entry.cell.clone()
        };
        let mut decoded_now = false;
        // Decoding happens outside the map's lock: other files stay available meanwhile.
        let result = cell
            .get_or_init(|| {
                decoded_now = true;
                decode::decode_file(path)
                    .map(Arc::new)
                    .map_err(|message| AssetError {
                        path: path.to_path_buf(),
                        message,
                    })
            })
            .clone();
        if decoded_now {
            evict_files_past_budget(&mut lock(&self.files), self.budgets.files);
        }
        result
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// RGBA bytes of the decoded files and cut slices kept now.
    pub fn cached_bytes(&self) -> usize {
        let files: usize = lock(&self.files)
            .values()
            .map(|e| decoded_bytes(&e.cell))
            .sum();
        let cuts: usize = lock(&self.cuts)
            .values()
            .map(|e| e.image.as_raw().len())
            .sum();
        files + cuts
    }

    /// Forgets `path` (decoded pixels, failures and slices cut from it; an SFF archive or
    /// `.act` palette and the sprites decoded from it) so the next use reads the file again.
    pub fn invalidate(&self, path: &Path) {
        lock(&self.files).remove(path);
        lock(&self.cuts).retain(|key, _| key.path != path);
        self.sff.invalidate(path);
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The SFF sprite cache (for an archive's index and the problems met reading it).
    pub fn sff(&self) -> &SffStore {
        &self.sff
    }

    /// A number that changes whenever something is invalidated, so a user interface knows its
    /// textures made from this store are stale.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed)
    }

    /// The file `image` draws from: its resolved path, or for the Solarus `tileset`
    /// placeholder the image the user chose. SFF archives are not image files.
    pub fn file_of(image: &SourceImage) -> Option<&Path> {
        match &image.kind {
            ImageKind::File => image.resolved.as_deref(),
            ImageKind::SolarusTileset { chosen } => chosen.as_deref(),
            ImageKind::Sff { .. } | ImageKind::Memory(_) => None,
        }
    }

    /// Why `source` cannot be drawn, if it is because its file failed to load or an SFF
    /// sprite is missing from its archive. AIR's blank sprite is not a problem.
    pub fn problem(&self, document: &AnimationSet, source: &GraphicSource) -> Option<AssetError> {
        let image = document.source_image(source)?;
        if let GraphicSource::SffSprite {
            group,
            image: number,
            ..
        } = source
        {
            return self.sff_problem(image, *group, *number);
        }
        self.image(ImageStore::file_of(image)?).err()
    }

    fn sff_problem(&self, archive: &SourceImage, group: i32, number: i32) -> Option<AssetError> {
        if group < 0 || self.sff.sprite(archive, group, number).is_some() {
            return None;
        }
        let path = archive.resolved.clone()?;
        let message = match self.sff.archive(&path) {
            None => self.sff.problems(&path).first().map_or_else(
                || "the archive cannot be read".to_string(),
                |d| d.message.clone(),
            ),
            Some(_) => format!("sprite {group},{number} is missing, empty or cannot be decoded"),
        };
        Some(AssetError { path, message })
    }

    fn slice(&self, path: &Path, rect: PixelRect, rotated: bool) -> Option<Arc<RgbaImage>> {
        let key = CutKey {
            path: path.to_path_buf(),
            rect,
            rotated,
        };
        let now = self.tick();
        if let Some(cut) = lock(&self.cuts).get_mut(&key) {
            cut.last_used = now;
            return Some(cut.image.clone());
        }
        let generation = self.generation();
        let sheet = self.image(path).ok()?;
        let cut = Arc::new(cut::cut_slice(&sheet, rect, rotated)?);
        let mut cuts = lock(&self.cuts);
        // A file invalidated while this cut was made must not get the old pixels back.
        if self.generation() == generation {
            cuts.insert(
                key,
                CutEntry {
                    image: cut.clone(),
                    last_used: now,
                },
            );
            evict_cuts_past_budget(&mut cuts, self.budgets.cuts);
        }
        Some(cut)
    }
}

fn decoded_bytes(cell: &OnceLock<Decoded>) -> usize {
    match cell.get() {
        Some(Ok(image)) => image.as_raw().len(),
        _ => 0,
    }
}

/// Forgets the least recently used decoded files until the rest fit in `budget` (the most
/// recent one always stays: it is being drawn). Failures cost nothing and stay known.
fn evict_files_past_budget(files: &mut HashMap<PathBuf, FileEntry>, budget: usize) {
    let mut total: usize = files.values().map(|e| decoded_bytes(&e.cell)).sum();
    if total <= budget {
        return;
    }
    let mut by_age: Vec<(u64, PathBuf)> = files
        .iter()
        .filter(|(_, e)| decoded_bytes(&e.cell) > 0)
        .map(|(p, e)| (e.last_used, p.clone()))
        .collect();
    by_age.sort_unstable();
    by_age.pop();
    for (_, path) in by_age {
        if total <= budget {
            break;
        }
        if let Some(old) = files.remove(&path) {
            total -= decoded_bytes(&old.cell);
        }
    }
}

/// Forgets the least recently used slices until the rest fit in `budget`.
fn evict_cuts_past_budget(cuts: &mut HashMap<CutKey, CutEntry>, budget: usize) {
    let mut total: usize = cuts.values().map(|e| e.image.as_raw().len()).sum();
    if total <= budget {
        return;
    }
    let mut by_age: Vec<(u64, CutKey)> =
        cuts.iter().map(|(k, e)| (e.last_used, k.clone())).collect();
    by_age.sort_unstable_by_key(|(age, _)| *age);
    by_age.pop();
    for (_, key) in by_age {
        if total <= budget {
            break;
        }
        if let Some(old) = cuts.remove(&key) {
            total -= old.image.as_raw().len();
        }
    }
}

impl PixelSource for ImageStore {
    fn pixels(&self, document: &AnimationSet, source: &GraphicSource) -> Option<SourcePixels> {
        if let Some(ImageKind::Memory(memory)) = document.source_image(source).map(|i| &i.kind) {
            return memory_pixels(document, source, memory);
        }
        let image = match source {
            GraphicSource::Slice(id) => {
                let slice = document.slice(*id)?;
                let file = ImageStore::file_of(document.image(slice.image)?)?;
                self.slice(file, slice.rect, slice.rotated)?
            }
            GraphicSource::Image(id) => self
                .image(ImageStore::file_of(document.image(*id)?)?)
                .ok()?,
            GraphicSource::SffSprite { .. } => return self.sff.pixels(document, source),
        };
        Some(SourcePixels {
            image,
            axis: (0, 0),
        })
    }
}

/// Pixels held in memory need no loading; a slice of them is cut on each use.
fn memory_pixels(
    document: &AnimationSet,
    source: &GraphicSource,
    memory: &MemoryImage,
) -> Option<SourcePixels> {
    let image = match source {
        GraphicSource::Slice(id) => {
            let slice = document.slice(*id)?;
            Arc::new(cut::cut_slice(&memory.0, slice.rect, slice.rotated)?)
        }
        _ => memory.0.clone(),
    };
    Some(SourcePixels {
        image,
        axis: (0, 0),
    })
}

#[cfg(test)]
mod tests;
