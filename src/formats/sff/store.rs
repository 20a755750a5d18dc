//! The sprite cache the renderer and the editor draw through: archives are read once, sprites
//! decoded on first use and kept (within a memory budget) until their file changes.

use super::archive::{PaletteChoice, SffArchive};
use super::palette::Palette;
use crate::cache::ByteLru;
use crate::formats::{Diagnostic, Location, Severity};
use crate::model::{AnimationSet, GraphicSource, ImageKind, PaletteSource, SourceImage};
use crate::pixels::{PixelSource, SourcePixels};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

mod indexed_sprites;
pub use indexed_sprites::{Colours, IndexedSprite, Indices, IndicesKey};

/// Decoded sprites kept at most by default (RGBA bytes); the least recently used go first
/// past it.
const SPRITE_BUDGET_BYTES: usize = 256 << 20;

/// Which palette a cached sprite was decoded with.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum PaletteKey {
    Own,
    Embedded(usize),
    Act(PathBuf),
    /// A `.act` palette as the document holds it, edited and not saved yet.
    EditedAct(Arc<Vec<u8>>),
}

/// A decoded sprite: its archive, palette, and the position in the archive of the sprite
/// whose bytes were decoded (a link's target).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct SpriteKey {
    archive: PathBuf,
    palette: PaletteKey,
    index: usize,
}

struct State {
    /// `None` remembers a file that could not be read, so it is not re-read every frame.
    archives: HashMap<PathBuf, Option<Arc<SffArchive>>>,
    act_files: HashMap<PathBuf, Option<Arc<Palette>>>,
    /// Decoded pixels (`None`: an empty sprite or one that does not decode).
    sprites: ByteLru<SpriteKey, Option<SourcePixels>>,
    /// Problems met per file: the index's, then decoding errors as sprites are asked for.
    problems: HashMap<PathBuf, Vec<Diagnostic>>,
    /// Edited archives held in a document and not saved yet, newest last: their bytes (kept
    /// alive, so the key cannot be reused) and the key their archive and sprites are cached
    /// under in place of a file path.
    editions: Vec<(Arc<Vec<u8>>, PathBuf)>,
    /// Numbers the editions' keys.
    next_edition: u64,
}

/// Edited archives whose sprites stay cached (an undo or redo goes back to a recent one).
const KEPT_EDITIONS: usize = 8;

/// Sprites of SFF archives, shared by every view (`&self` everywhere; `Send + Sync`).
pub struct SffStore {
    state: Mutex<State>,
}

impl Default for SffStore {
    fn default() -> SffStore {
        SffStore::with_budget(SPRITE_BUDGET_BYTES)
    }
}

impl std::fmt::Debug for SffStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.lock();
        f.debug_struct("SffStore")
            .field("archives", &state.archives.len())
            .field("sprites", &state.sprites.len())
            .field("cached_bytes", &state.sprites.bytes())
            .finish()
    }
}

impl SffStore {
    /// An empty store keeping 256 MiB of decoded sprites at most.
    pub fn new() -> SffStore {
        SffStore::default()
    }

    /// An empty store keeping at most `budget` bytes of decoded sprites (RGBA).
    pub fn with_budget(budget: usize) -> SffStore {
        SffStore {
            state: Mutex::new(State {
                archives: HashMap::new(),
                act_files: HashMap::new(),
                sprites: ByteLru::new(budget),
                problems: HashMap::new(),
                editions: Vec::new(),
                next_edition: 0,
            }),
        }
    }

    /// Keeps at most `budget` bytes of decoded sprites from now on.
    pub fn set_budget(&self, budget: usize) {
        self.lock().sprites.set_budget(budget);
    }

    /// The most bytes of decoded sprites kept.
    pub fn budget(&self) -> usize {
        self.lock().sprites.budget()
    }

    /// The bytes of decoded sprites kept now.
    pub fn cached_bytes(&self) -> usize {
        self.lock().sprites.bytes()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves only cache entries behind; keep
        // using them.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Pixels of sprite (group, image) of the archive `image` (a SourceImage of kind
    /// ImageKind::Sff: file at image.resolved, palettes and active_palette in its kind).
    /// `None` for AIR's blank sprite (negative group), a missing file or sprite, an empty
    /// sprite, or one that does not decode (see [`SffStore::problems`]).
    pub fn sprite(&self, image: &SourceImage, group: i32, number: i32) -> Option<SourcePixels> {
        self.sprite_of(image, None, None, group, number)
    }

    /// [`SffStore::sprite`] of the archive as `edited` holds it (a document's unsaved sprite
    /// edits, see [`super::document`]) when given, else as its file is; coloured with the
    /// `.act` bytes `edited_palette` when the palette in use is an edited `.act`.
    pub fn sprite_of(
        &self,
        image: &SourceImage,
        edited: Option<&Arc<Vec<u8>>>,
        edited_palette: Option<&Arc<Vec<u8>>>,
        group: i32,
        number: i32,
    ) -> Option<SourcePixels> {
        if group < 0 {
            return None;
        }
        let (path, palette) = self.cache_place(image, edited, edited_palette)?;
        let (archive, act, index, key) = {
            let mut state = self.lock();
            let archive = state.archive(&path)?;
            let Some(index) = archive.find(group, number) else {
                drop(state);
                self.note_problems(
                    &path,
                    &archive,
                    vec![Diagnostic::new(
                        Severity::Warning,
                        Location::File,
                        format!("there is no sprite {group},{number} in this archive"),
                    )],
                );
                return None;
            };
            // Linked sprites share their target's pixels: decoded once, whatever the number
            // of links (each keeps its own axis).
            let key = SpriteKey {
                archive: path.clone(),
                palette: palette.clone(),
                index: archive.same_pixels_as(index),
            };
            if let Some(cached) = state.sprites.get(&key) {
                return with_axis(cached.clone(), &archive, index);
            }
            let act = state.act_of(&palette, &path);
            (archive, act, index, key)
        };
        // Decode without holding the lock, so other views keep drawing meanwhile.
        let choice = palette_choice(&palette, act.as_deref());
        let mut problems = Vec::new();
        let pixels = match archive.decode(key.index, choice) {
            Ok(sprite) => {
                problems.extend(sprite.warnings);
                (sprite.image.width() > 0 && sprite.image.height() > 0).then(|| SourcePixels {
                    image: Arc::new(sprite.image),
                    axis: sprite.axis,
                })
            }
            Err(e) => {
                problems.push(e);
                None
            }
        };
        if !self.note_problems(&path, &archive, problems) {
            return with_axis(pixels, &archive, index);
        }
        let bytes = pixels.as_ref().map_or(0, |p| p.image.as_raw().len());
        self.lock().sprites.insert(key, pixels.clone(), bytes);
        with_axis(pixels, &archive, index)
    }

    /// The key an archive's sprites are cached under (its path, or an edition's key) and the
    /// palette they are coloured with.
    fn cache_place(
        &self,
        image: &SourceImage,
        edited: Option<&Arc<Vec<u8>>>,
        edited_palette: Option<&Arc<Vec<u8>>>,
    ) -> Option<(PathBuf, PaletteKey)> {
        let path = match edited {
            Some(bytes) => self.edition_key(image.resolved.as_deref(), bytes),
            None => image.resolved.clone()?,
        };
        let palette = match (palette_key(image), edited_palette) {
            (PaletteKey::Act(_), Some(bytes)) => PaletteKey::EditedAct(Arc::clone(bytes)),
            (key, _) => key,
        };
        Some((path, palette))
    }

    /// [`SffStore::cache_place`] of the sprite `request` asks for.
    fn request_place(&self, request: &SpriteRequest) -> Option<(PathBuf, PaletteKey)> {
        self.cache_place(
            &request.archive,
            request.edited.as_ref(),
            request.edited_palette.as_ref(),
        )
    }

    /// Files `problems` under `path`, unless the file was invalidated since `archive` was
    /// read (then nothing read before that is kept, and false is returned).
    fn note_problems(
        &self,
        path: &Path,
        archive: &Arc<SffArchive>,
        problems: Vec<Diagnostic>,
    ) -> bool {
        let mut state = self.lock();
        let still_current = state
            .archives
            .get(path)
            .and_then(|a| a.as_ref())
            .is_some_and(|a| Arc::ptr_eq(a, archive));
        if !still_current {
            return false;
        }
        let file = path.display().to_string();
        let list = state.problems.entry(path.to_path_buf()).or_default();
        for p in problems {
            let p = if p.file.is_none() {
                p.in_file(&file)
            } else {
                p
            };
            if !list.contains(&p) {
                list.push(p);
            }
        }
        true
    }

    /// Forget everything read from `path` (the file changed on disk): an archive, or a `.act`
    /// palette, and every sprite decoded from or with it.
    pub fn invalidate(&self, path: &Path) {
        let mut state = self.lock();
        let target = canonical(path);
        let same = |p: &Path| p == path || canonical(p) == target;
        state.archives.retain(|p, _| !same(p));
        state.act_files.retain(|p, _| !same(p));
        state.problems.retain(|p, _| !same(p));
        state.sprites.retain(|k, _| {
            !same(&k.archive) && !matches!(&k.palette, PaletteKey::Act(act) if same(act))
        });
    }

    /// The colours of the `.act` file at `path`, read now if they were not yet.
    pub fn act_palette(&self, path: &Path) -> Option<Arc<Palette>> {
        self.lock().act_file(path, path)
    }

    /// The archive at `path`, read now if it was not yet.
    pub fn archive(&self, path: &Path) -> Option<Arc<SffArchive>> {
        self.lock().archive(path)
    }

    /// Takes `archive`, read by the caller from the file at `path` (the editor reads the
    /// archives of a document with it, off the UI thread), as that file's archive: its sprites
    /// are then decoded from it without reading the file again. An archive the store has read
    /// already stays (its sprites may be cached).
    pub fn keep_archive(&self, path: &Path, archive: Arc<SffArchive>) {
        let mut state = self.lock();
        if !state.archives.contains_key(path) {
            state.keep(path, Ok(archive));
        }
    }

    /// The archive as `edited` holds it, parsed once and cached like a file.
    pub fn edited_archive(
        &self,
        path: Option<&Path>,
        edited: &Arc<Vec<u8>>,
    ) -> Option<Arc<SffArchive>> {
        let key = self.edition_key(path, edited);
        self.lock().archives.get(&key).cloned().flatten()
    }

    /// The cache key of an edited archive (parsing it on first sight); the oldest editions
    /// past [`KEPT_EDITIONS`] are forgotten with their sprites.
    fn edition_key(&self, path: Option<&Path>, bytes: &Arc<Vec<u8>>) -> PathBuf {
        let parse = || {
            SffArchive::parse_shared(Arc::clone(bytes))
                .ok()
                .map(Arc::new)
        };
        self.edition_key_parsed(path, bytes, parse)
    }

    /// Takes `archive`, parsed by the caller from `bytes` (an archive a document holds: its
    /// unsaved edits, or the file it was read as; the editor parses it off the UI thread), as
    /// the archive of that edition, unless the store knows the edition already.
    pub fn keep_edition(
        &self,
        path: Option<&Path>,
        bytes: &Arc<Vec<u8>>,
        archive: Arc<SffArchive>,
    ) {
        self.edition_key_parsed(path, bytes, || Some(archive));
    }

    /// [`SffStore::edition_key`], the archive of an edition not seen yet given by `parse`.
    fn edition_key_parsed(
        &self,
        path: Option<&Path>,
        bytes: &Arc<Vec<u8>>,
        parse: impl FnOnce() -> Option<Arc<SffArchive>>,
    ) -> PathBuf {
        let mut state = self.lock();
        if let Some((_, key)) = state.editions.iter().find(|(b, _)| Arc::ptr_eq(b, bytes)) {
            return key.clone();
        }
        state.next_edition += 1;
        let base = path.map_or_else(|| PathBuf::from("archive"), Path::to_path_buf);
        let mut key = base.into_os_string();
        key.push(format!("\u{0}edition {}", state.next_edition));
        let key = PathBuf::from(key);
        state.archives.insert(key.clone(), parse());
        state.editions.push((Arc::clone(bytes), key.clone()));
        while state.editions.len() > KEPT_EDITIONS {
            let (_, old) = state.editions.remove(0);
            state.archives.remove(&old);
            state.problems.remove(&old);
            state.sprites.retain(|k, _| k.archive != old);
        }
        key
    }

    /// Problems met so far with the file at `path`: reading it, its index, and decoding the
    /// sprites asked for.
    pub fn problems(&self, path: &Path) -> Vec<Diagnostic> {
        self.lock().problems.get(path).cloned().unwrap_or_default()
    }
}

/// The colours sprites cached under `palette` are drawn with, `act` being the `.act` colours
/// it names when they could be read (else the archive's own).
fn palette_choice<'a>(palette: &PaletteKey, act: Option<&'a Palette>) -> PaletteChoice<'a> {
    match (palette, act) {
        (PaletteKey::Embedded(n), _) => PaletteChoice::Embedded(*n),
        (PaletteKey::Act(_) | PaletteKey::EditedAct(_), Some(colours)) => {
            PaletteChoice::Colours(colours)
        }
        _ => PaletteChoice::Own,
    }
}

impl State {
    /// The colours of the `.act` palette `palette` names (its file, read now if it was not
    /// yet, or its edited bytes); problems are filed under the archive at `archive`.
    fn act_of(&mut self, palette: &PaletteKey, archive: &Path) -> Option<Arc<Palette>> {
        match palette {
            PaletteKey::Act(act_path) => self.act_file(act_path, archive),
            PaletteKey::EditedAct(bytes) => Palette::from_act(bytes).ok().map(Arc::new),
            _ => None,
        }
    }

    fn archive(&mut self, path: &Path) -> Option<Arc<SffArchive>> {
        if let Some(known) = self.archives.get(path) {
            return known.clone();
        }
        self.keep(path, SffArchive::open(path).map(Arc::new))
    }

    /// Keeps what reading the file at `path` gave as its archive, with the problems met.
    fn keep(
        &mut self,
        path: &Path,
        read: Result<Arc<SffArchive>, Diagnostic>,
    ) -> Option<Arc<SffArchive>> {
        let file = path.display().to_string();
        let loaded = match read {
            Ok(archive) => {
                let problems = self.problems.entry(path.to_path_buf()).or_default();
                problems.extend(
                    archive
                        .diagnostics()
                        .iter()
                        .map(|d| d.clone().in_file(&file)),
                );
                Some(archive)
            }
            Err(e) => {
                self.problems
                    .entry(path.to_path_buf())
                    .or_default()
                    .push(e.in_file(&file));
                None
            }
        };
        self.archives.insert(path.to_path_buf(), loaded.clone());
        loaded
    }

    /// The colours of a `.act` file; problems are filed under the archive that uses it.
    fn act_file(&mut self, path: &Path, archive: &Path) -> Option<Arc<Palette>> {
        if let Some(known) = self.act_files.get(path) {
            return known.clone();
        }
        let loaded = crate::formats::read_file(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| Palette::from_act(&bytes));
        let palette = match loaded {
            Ok(p) => Some(Arc::new(p)),
            Err(message) => {
                self.problems.entry(archive.to_path_buf()).or_default().push(
                    Diagnostic::new(
                        Severity::Warning,
                        Location::File,
                        format!("palette {} cannot be used ({message}); showing the archive's own colours", path.display()),
                    )
                    .in_file(path.display().to_string()),
                );
                None
            }
        };
        self.act_files.insert(path.to_path_buf(), palette.clone());
        palette
    }
}

/// `pixels` with the axis of sprite `index` (a link keeps its own axis over shared pixels).
fn with_axis(
    pixels: Option<SourcePixels>,
    archive: &SffArchive,
    index: usize,
) -> Option<SourcePixels> {
    let axis = archive.sprites().get(index)?.axis;
    pixels.map(|p| SourcePixels { axis, ..p })
}

fn palette_key(image: &SourceImage) -> PaletteKey {
    let ImageKind::Sff {
        palettes,
        active_palette,
    } = &image.kind
    else {
        return PaletteKey::Own;
    };
    match active_palette.and_then(|i| palettes.get(i)) {
        Some(PaletteSource::Embedded(n)) => PaletteKey::Embedded(*n as usize),
        Some(PaletteSource::ActFile {
            resolved: Some(path),
            ..
        }) => PaletteKey::Act(path.clone()),
        _ => PaletteKey::Own,
    }
}

fn canonical(path: &Path) -> PathBuf {
    crate::formats::input::canonicalize(path).unwrap_or_else(|| path.to_path_buf())
}

/// One sprite as a document draws it, held apart from the document (a worker thread decodes
/// it ahead of time): the archive, its edited bytes and edited `.act` palette when unsaved
/// edits hold them, and the sprite's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct SpriteRequest {
    /// The archive (a source image of kind [`ImageKind::Sff`]).
    pub archive: SourceImage,
    /// The archive as the document's unsaved edits hold it.
    pub edited: Option<Arc<Vec<u8>>>,
    /// The `.act` palette in use as the document's unsaved edits hold it.
    pub edited_palette: Option<Arc<Vec<u8>>>,
    /// Sprite group.
    pub group: i32,
    /// Sprite number in the group.
    pub number: i32,
}

impl SpriteRequest {
    /// The request for `source`, an SFF sprite of `document`; `None` for anything else.
    pub fn of(document: &AnimationSet, source: &GraphicSource) -> Option<SpriteRequest> {
        let GraphicSource::SffSprite {
            archive,
            group,
            image,
        } = source
        else {
            return None;
        };
        let source = document.image(*archive)?;
        let edited_palette = match &source.kind {
            ImageKind::Sff {
                active_palette: Some(n),
                ..
            } => document.edited_palette(*archive, *n),
            _ => None,
        };
        Some(SpriteRequest {
            archive: source.clone(),
            edited: document.edited_file(*archive).cloned(),
            edited_palette: edited_palette.cloned(),
            group: *group,
            number: *image,
        })
    }
}

impl SffStore {
    /// The pixels `request` asks for (see [`SffStore::sprite_of`]).
    pub fn requested(&self, request: &SpriteRequest) -> Option<SourcePixels> {
        self.sprite_of(
            &request.archive,
            request.edited.as_ref(),
            request.edited_palette.as_ref(),
            request.group,
            request.number,
        )
    }

    /// The size and axis of the sprite `request` asks for, as the archive's index gives them,
    /// without decoding its pixels; `None` when the archive is not read yet or has no such
    /// sprite (a caller that must not wait, such as a placeholder's, does without).
    pub fn indexed_size(&self, request: &SpriteRequest) -> Option<((u32, u32), (i32, i32))> {
        if request.group < 0 {
            return None;
        }
        let (path, _) = self.request_place(request)?;
        let state = self.lock();
        let archive = state.archives.get(&path)?.as_ref()?;
        let info = archive
            .sprites()
            .get(archive.find(request.group, request.number)?)?;
        Some(((info.width, info.height), info.axis))
    }
}

impl PixelSource for SffStore {
    /// SFF sprites only; other sources are not the store's to load.
    fn pixels(&self, document: &AnimationSet, source: &GraphicSource) -> Option<SourcePixels> {
        self.requested(&SpriteRequest::of(document, source)?)
    }
}
