//! Loading and caching the pixels a document draws from.
//!
//! [`ImageStore`] is the [`PixelSource`] the editor, the command line and the tests use: it
//! decodes image files once ([`decode`]), cuts slices once ([`cut`]) and keeps both until told a
//! file changed or room is needed ([`Budgets`], least recently used first); SFF sprites come
//! from the SFF reader's own cache ([`SffStore`]), which it holds. It is `Send + Sync`: the
//! editor's worker composes the next frames of a playing sequence from it while the canvas
//! draws from what is already cached.

pub mod bands;
pub mod check;
pub mod cut;
pub mod decode;
pub mod groups;
pub mod import;
pub mod layout;
pub mod sheet_data;
pub mod sprites;

use crate::cache::ByteLru;
use crate::formats::sff::SffStore;
use crate::formats::sff::store::SpriteRequest;
use crate::model::{
    AnimationSet, GraphicSource, ImageKind, MemoryImage, PaletteSource, PixelRect, SourceImage,
};
use crate::pixels::{PixelSource, SourcePixels};
use image::RgbaImage;
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
/// Decoded SFF sprites kept at most (RGBA bytes).
pub const SPRITE_BUDGET_BYTES: usize = 256 << 20;

/// How many RGBA bytes the store keeps decoded at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Decoded image files.
    pub files: usize,
    /// Slices cut from them.
    pub cuts: usize,
    /// Decoded SFF sprites.
    pub sprites: usize,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets {
            files: FILE_BUDGET_BYTES,
            cuts: CUT_BUDGET_BYTES,
            sprites: SPRITE_BUDGET_BYTES,
        }
    }
}

impl Budgets {
    /// `total` bytes shared out: two fifths each to image files and SFF sprites (a document
    /// draws from one or the other, mostly), a fifth to slices.
    pub fn sharing(total: usize) -> Budgets {
        Budgets {
            files: total / 5 * 2,
            cuts: total / 5,
            sprites: total / 5 * 2,
        }
    }

    /// All three together.
    pub fn total(&self) -> usize {
        self.files + self.cuts + self.sprites
    }
}

/// A file's cell: filled once by whichever thread asks first; failures are kept too, so a
/// missing file is not searched for on every repaint.
type FileCell = Arc<OnceLock<Decoded>>;

/// A slice as cut from one file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct CutKey {
    path: PathBuf,
    rect: PixelRect,
    rotated: bool,
}

/// Decoded images and cut slices, by file, and the SFF sprites; each cache bounded by bytes,
/// the least recently used let go first.
pub struct ImageStore {
    files: Mutex<ByteLru<PathBuf, FileCell>>,
    cuts: Mutex<ByteLru<CutKey, Arc<RgbaImage>>>,
    sff: SffStore,
    generation: AtomicU64,
}

impl Default for ImageStore {
    fn default() -> ImageStore {
        ImageStore::with_budgets(Budgets::default())
    }
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
    /// An empty store with the default [`Budgets`].
    pub fn new() -> ImageStore {
        ImageStore::default()
    }

    /// An empty store keeping at most `budgets` of decoded pixels.
    pub fn with_budgets(budgets: Budgets) -> ImageStore {
        ImageStore {
            files: Mutex::new(ByteLru::new(budgets.files)),
            cuts: Mutex::new(ByteLru::new(budgets.cuts)),
            sff: SffStore::with_budget(budgets.sprites),
            generation: AtomicU64::new(0),
        }
    }

    /// Keeps at most `budgets` from now on, letting the least recently used go at once.
    pub fn set_budgets(&self, budgets: Budgets) {
        lock(&self.files).set_budget(budgets.files);
        lock(&self.cuts).set_budget(budgets.cuts);
        self.sff.set_budget(budgets.sprites);
    }

    /// What the store keeps at most.
    pub fn budgets(&self) -> Budgets {
        Budgets {
            files: lock(&self.files).budget(),
            cuts: lock(&self.cuts).budget(),
            sprites: self.sff.budget(),
        }
    }

    /// The decoded image file at `path`, loading it on first use.
    pub fn image(&self, path: &Path) -> Result<Arc<RgbaImage>, AssetError> {
        let cell = {
            let mut files = lock(&self.files);
            match files.get(path) {
                Some(cell) => cell.clone(),
                None => {
                    let cell = FileCell::default();
                    files.insert(path.to_path_buf(), cell.clone(), 0);
                    cell
                }
            }
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
            let mut files = lock(&self.files);
            // Unless the file was invalidated meanwhile, its cell now holds the pixels.
            if files
                .peek(path)
                .is_some_and(|kept| Arc::ptr_eq(kept, &cell))
            {
                files.resize(path, decoded_bytes(&cell));
            }
        }
        result
    }

    /// RGBA bytes of the decoded files, cut slices and SFF sprites kept now.
    pub fn cached_bytes(&self) -> usize {
        lock(&self.files).bytes() + lock(&self.cuts).bytes() + self.sff.cached_bytes()
    }

    /// Forgets `path` (decoded pixels, failures and slices cut from it; an SFF archive or
    /// `.act` palette and the sprites decoded from it) so the next use reads the file again.
    pub fn invalidate(&self, path: &Path) {
        lock(&self.files).remove(path);
        lock(&self.cuts).retain(|key, _| key.path != path);
        self.sff.invalidate(path);
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Lets go of everything read from the files `document` draws from (image files and the
    /// slices cut from them, SFF archives, `.act` palettes and the sprites decoded from them),
    /// but for the files `keep` says another open document draws from too. For a document
    /// closed: what only it used would otherwise stay until other pictures pushed it out.
    pub fn release_files_of(&self, document: &AnimationSet, keep: impl Fn(&Path) -> bool) {
        for path in files_drawn_from(document) {
            if !keep(&path) {
                self.invalidate(&path);
            }
        }
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

    /// The size and axis `source`'s pixels have, when they are known without reading or
    /// decoding anything: a slice's rectangle, an image held in memory or decoded already, an
    /// SFF sprite of an archive whose index is read. For a placeholder drawn while the
    /// pixels are made elsewhere.
    pub fn known_size(
        &self,
        document: &AnimationSet,
        source: &GraphicSource,
    ) -> Option<((u32, u32), (i32, i32))> {
        let image = document.source_image(source)?;
        let size = match source {
            GraphicSource::Slice(id) => {
                let rect = document.slice(*id)?.rect;
                (rect.width, rect.height)
            }
            GraphicSource::Image(_) => match &image.kind {
                ImageKind::Memory(memory) => memory.0.dimensions(),
                _ => {
                    let files = lock(&self.files);
                    let cell = files.peek(ImageStore::file_of(image)?)?;
                    cell.get()?.as_ref().ok()?.dimensions()
                }
            },
            GraphicSource::SffSprite { .. } => {
                let request = SpriteRequest::of(document, source)?;
                return self.sff.indexed_size(&request);
            }
        };
        Some((size, (0, 0)))
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
        if let Some(cut) = lock(&self.cuts).get(&key) {
            return Some(cut.clone());
        }
        let generation = self.generation();
        let sheet = self.image(path).ok()?;
        let cut = Arc::new(cut::cut_slice(&sheet, rect, rotated)?);
        let mut cuts = lock(&self.cuts);
        // A file invalidated while this cut was made must not get the old pixels back.
        if self.generation() == generation {
            let bytes = cut.as_raw().len();
            cuts.insert(key, cut.clone(), bytes);
        }
        Some(cut)
    }
}

/// Every file `document`'s pictures are read from: image files, SFF archives and their
/// `.act` palettes.
pub fn files_drawn_from(document: &AnimationSet) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for image in &document.images {
        files.extend(ImageStore::file_of(image).map(Path::to_path_buf));
        if let ImageKind::Sff { palettes, .. } = &image.kind {
            files.extend(image.resolved.clone());
            for palette in palettes {
                if let PaletteSource::ActFile {
                    resolved: Some(path),
                    ..
                } = palette
                {
                    files.push(path.clone());
                }
            }
        }
    }
    files.sort();
    files.dedup();
    files
}

fn decoded_bytes(cell: &OnceLock<Decoded>) -> usize {
    match cell.get() {
        Some(Ok(image)) => image.as_raw().len(),
        _ => 0,
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
