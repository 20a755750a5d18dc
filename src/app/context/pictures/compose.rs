//! Composing frame pictures ahead of their time: while a sequence plays, the pictures of the
//! next frames are composed (sprites decoded, palettes applied, graphics blended and placed)
//! on a worker thread into pixels ready for a texture, so the UI thread only hands egui a
//! picture that is already made.
//!
//! The worker works from [`PictureSources`], a copy of only what drawing reads from the
//! document (its images, slices and unsaved archives; a few shared byte buffers, no frames),
//! and from frames handed to it with each job: the document itself stays the UI thread's.
//! Composed pictures are kept in a cache bounded by bytes; the worker never composes further
//! ahead than that cache holds, so playing ahead cannot push out the picture on show. Each
//! picture has the time its frame is due: a worker that falls behind (a busy machine) passes
//! over the pictures it could not finish before their frame is due and composes the ones it
//! can, so the frames it skips are skipped on time rather than every picture coming late.
//!
//! The worker also makes the timeline's thumbnails, when no picture of the playing sequence
//! is to be composed: a newly chosen action's cells are drawn and shrunk here, not on the UI
//! thread, which only uploads the small pictures as they come.
//!
//! The web has no threads: there no worker is started and the frame on show is composed when
//! it is drawn ([`super::FrameTextures::frame`]), the thumbnails a few a paint.

use super::indexed::{IndexedPicture, indexed_picture};
use super::{FrameKey, PictureStamp};
use crate::assets::ImageStore;
use crate::cache::ByteLru;
use crate::formats::sff::store::{Indices, IndicesKey};
use crate::model::{AnimationSet, Frame};
use crate::render::canvas::{Canvas, unpremultiply};
use crate::render::{Scene, SpriteRect, plain_picture, render_cropped};
use egui::{Color32, ColorImage};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;
use web_time::Instant;

/// A frame's picture ready for the GPU, and the sprite-space rectangle it covers (one pixel
/// per sprite pixel).
#[derive(Clone)]
pub struct Composed {
    /// The picture.
    pub pixels: ComposedPixels,
    /// Where it goes in sprite space.
    pub rect: SpriteRect,
}

/// What a composed picture holds.
#[derive(Clone)]
pub enum ComposedPixels {
    /// A texture's premultiplied pixels, shared with the texture upload (handing them to egui
    /// copies nothing).
    Texels(Arc<ColorImage>),
    /// One paletted sprite's indices and colours, for the GPU's palette lookup.
    Indexed(IndexedPicture),
}

impl Composed {
    /// The bytes the picture holds.
    pub fn bytes(&self) -> usize {
        match &self.pixels {
            ComposedPixels::Texels(image) => image.pixels.len() * 4,
            ComposedPixels::Indexed(picture) => picture.bytes(),
        }
    }

    /// The picture as a texture's pixels: an indexed one's colours looked up here.
    pub fn texels(&self) -> Arc<ColorImage> {
        match &self.pixels {
            ComposedPixels::Texels(image) => Arc::clone(image),
            ComposedPixels::Indexed(picture) => Arc::new(picture.texels()),
        }
    }
}

/// What drawing a frame reads from a document besides the frame: images, slices, and the
/// archive and palette bytes it holds. Cheap to make: the bytes are shared, not copied.
pub struct PictureSources {
    /// A document holding only those (no sequences, no frames).
    document: AnimationSet,
}

impl PictureSources {
    /// What drawing `document`'s frames reads.
    pub fn of(document: &AnimationSet) -> PictureSources {
        PictureSources {
            document: AnimationSet {
                frame_rate: document.frame_rate,
                images: document.images.clone(),
                slices: document.slices.clone(),
                original: document.original.clone(),
                companion_originals: document.companion_originals.clone(),
                edited_files: document.edited_files.clone(),
                ..AnimationSet::new()
            },
        }
    }
}

/// `frame` composed at one pixel per sprite pixel, cropped to what it draws, as a texture's
/// pixels; `None` when it draws nothing. The one way every RGBA frame picture is made, on the
/// worker or not.
pub fn compose(document: &AnimationSet, scene: &Scene, pixels: &ImageStore) -> Option<Composed> {
    if let Some(plain) = plain_picture(document, scene, pixels) {
        // One sprite placed as it is (most frames of most characters): its pixels as they are.
        let size = [plain.rect.width as usize, plain.rect.height as usize];
        let texels = plain.map_pixels(|[r, g, b, a]| Color32::from_rgba_unmultiplied(r, g, b, a));
        return Some(Composed {
            pixels: ComposedPixels::Texels(Arc::new(ColorImage::new(size, texels))),
            rect: plain.rect,
        });
    }
    let (rect, canvas) = render_cropped(document, scene, pixels)?;
    Some(Composed {
        pixels: ComposedPixels::Texels(Arc::new(texels_of(&canvas))),
        rect,
    })
}

/// `frame` composed as [`compose`] does, but kept as indices and colours when it is one
/// paletted sprite drawn as it is ([`indexed_picture`]); `known` gives indices decoded
/// before.
pub fn compose_for_palette_lookup(
    document: &AnimationSet,
    scene: &Scene,
    pixels: &ImageStore,
    known: &dyn Fn(&IndicesKey) -> Option<Arc<Indices>>,
) -> Option<Composed> {
    match indexed_picture(document, scene, pixels, known) {
        Some(picture) => Some(Composed {
            rect: picture.rect,
            pixels: ComposedPixels::Indexed(picture),
        }),
        None => compose(document, scene, pixels),
    }
}

/// The texture's pixels straight from the canvas: what `ColorImage::from_rgba_unmultiplied`
/// makes of the rendered image, without making that image (a pass and 3.7 MB a 1280x720
/// picture).
fn texels_of(canvas: &Canvas) -> ColorImage {
    let size = [canvas.width() as usize, canvas.height() as usize];
    let texels = canvas
        .pixels()
        .iter()
        .map(|p| {
            let [r, g, b, a] = unpremultiply(p.map(u32::from));
            Color32::from_rgba_unmultiplied(r, g, b, a)
        })
        .collect();
    ColorImage::new(size, texels)
}

/// A picture to compose: the frame as the player will show it, under its key.
pub struct Job {
    /// Which picture.
    pub key: FrameKey,
    /// The frame (elements only are read).
    pub frame: Frame,
    /// When the frame is due on screen.
    pub due: Instant,
}

/// A timeline thumbnail to make: the frame of a cell, under its key.
pub struct ThumbnailJob {
    /// Which picture.
    pub key: FrameKey,
    /// The frame (elements only are read).
    pub frame: Frame,
}

/// A thumbnail as the worker made it: the frame's picture shrunk to at most
/// [`super::THUMBNAIL_TEXELS`] on its longer side, ready for a texture.
#[derive(Clone)]
pub struct Thumbnail {
    /// The shrunk pixels.
    pub image: Arc<ColorImage>,
    /// Where the whole picture goes in sprite space.
    pub rect: SpriteRect,
    /// Whether it was shrunk (then drawn with linear filtering).
    pub shrunk: bool,
}

/// The thumbnail of `frame` (`None` when it draws nothing).
pub fn thumbnail_of(
    document: &AnimationSet,
    frame: &Frame,
    pixels: &ImageStore,
) -> Option<Thumbnail> {
    let scene = Scene::of_frame(frame);
    let (rect, image) = super::render_image(document, &scene, pixels)?;
    let small = super::shrunk_to(&image, super::THUMBNAIL_TEXELS);
    let shrunk = small.dimensions() != image.dimensions();
    let size = [small.width() as usize, small.height() as usize];
    Some(Thumbnail {
        image: Arc::new(ColorImage::from_rgba_unmultiplied(size, small.as_raw())),
        rect,
        shrunk,
    })
}

/// What the UI thread and the worker share.
struct State {
    /// What drawing reads, as of `stamp`.
    sources: Arc<PictureSources>,
    /// The document, revision and image store generation of `sources` and of the composed
    /// pictures.
    stamp: PictureStamp,
    /// Pictures to compose, soonest due first (kept while composed, so the worker knows how
    /// far ahead it is).
    wanted: Vec<Job>,
    /// Composed pictures (`None`: the frame draws nothing), bounded by bytes.
    composed: ByteLru<FrameKey, Option<Composed>>,
    /// The picture the canvas waits for: when it is composed, the UI is woken.
    awaited: Option<FrameKey>,
    /// How long composing a picture takes lately (an average of the last few).
    compose_time: Duration,
    /// Thumbnails to make, in the order they were asked for (those of cells in view).
    thumbnails_wanted: Vec<ThumbnailJob>,
    /// Thumbnails made and not taken yet by the UI thread (`None`: the frame draws nothing).
    thumbnails_made: Vec<(FrameKey, Option<Thumbnail>)>,
    /// The thumbnail the worker is making now, if any.
    thumbnail_making: Option<FrameKey>,
    /// Thumbnails made since the worker started.
    thumbnails_count: u64,
    /// Whether paletted sprites are kept as indices for the GPU's palette lookup.
    palette_lookup: bool,
    /// Sprites' indices decoded lately, whatever palette colours them: kept while only the
    /// document's revision changes (a palette chosen, a frame moved), so a palette change
    /// costs no decode. A share of the composed pictures' budget; the indices of the
    /// pictures composed are shared with them, not copied.
    indices: ByteLru<IndicesKey, Arc<Indices>>,
    /// The document and image store generation the indices were decoded for.
    indices_of: (u64, u64),
    /// The owner is gone: the worker ends.
    closed: bool,
}

/// The share of the composed pictures' budget that decoded indices are kept within (their
/// bytes are mostly those of the composed pictures, shared).
const INDICES_SHARE: usize = 4;

struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic on the worker mid-compose leaves only cache entries behind; keep using them.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// `scene`'s picture: indices and colours for the palette lookup when it is on and the
    /// scene is one paletted sprite as it is (indices decoded lately are not decoded again),
    /// else RGBA.
    fn compose(
        &self,
        document: &AnimationSet,
        scene: &Scene,
        pixels: &ImageStore,
    ) -> Option<Composed> {
        if !self.lock().palette_lookup {
            return compose(document, scene, pixels);
        }
        let known = |key: &IndicesKey| self.lock().indices.get(key).cloned();
        compose_for_palette_lookup(document, scene, pixels, &known)
    }
}

/// Composed pictures, and the worker that composes the coming ones ahead of their time.
/// Dropping it ends the worker (after the picture it is composing, if any) and lets every
/// composed picture go.
pub struct ComposeAhead {
    shared: Arc<Shared>,
    /// Whether a worker composes ahead (not on the web, nor when no thread could start).
    worker: bool,
}

impl ComposeAhead {
    /// An empty cache of at most `budget` bytes of composed pictures, with a worker composing
    /// from `pixels` (natively) that calls `awaited_ready` when the picture the canvas waits
    /// for is composed, and when a thumbnail is made.
    pub fn start(
        budget: usize,
        pixels: Arc<ImageStore>,
        awaited_ready: impl Fn() + Send + 'static,
    ) -> ComposeAhead {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                sources: Arc::new(PictureSources::of(&AnimationSet::new())),
                stamp: PictureStamp::NONE,
                wanted: Vec::new(),
                composed: ByteLru::new(budget),
                awaited: None,
                compose_time: Duration::ZERO,
                thumbnails_wanted: Vec::new(),
                thumbnails_made: Vec::new(),
                thumbnail_making: None,
                thumbnails_count: 0,
                palette_lookup: false,
                indices: ByteLru::new(budget / INDICES_SHARE),
                indices_of: (PictureStamp::NONE.document, PictureStamp::NONE.images),
                closed: false,
            }),
            changed: Condvar::new(),
        });
        // The web has no threads: there spawning fails at once, and no worker composes.
        let theirs = Arc::clone(&shared);
        let worker = std::thread::Builder::new()
            .name("sprat-compose-ahead".into())
            .spawn(move || work(&theirs, &pixels, &awaited_ready))
            .is_ok();
        ComposeAhead { shared, worker }
    }

    /// Whether pictures are composed ahead on a worker (not where no thread can start).
    pub fn has_worker(&self) -> bool {
        self.worker
    }

    /// Forgets every composed picture and what was wanted when the document or its images
    /// changed since `stamp` was last given; `sources` makes what drawing reads then.
    pub fn follow(&self, stamp: PictureStamp, sources: impl FnOnce() -> PictureSources) {
        let mut state = self.shared.lock();
        if state.stamp != stamp {
            // Indices stay valid while the same document draws from the same files.
            let files = (stamp.document, stamp.images);
            if state.indices_of != files {
                state.indices.clear();
                state.indices_of = files;
            }
            state.stamp = stamp;
            state.sources = Arc::new(sources());
            state.composed.clear();
            state.wanted.clear();
            state.awaited = None;
            state.forget_thumbnails();
        }
    }

    /// Replaces what is wanted with `jobs`, soonest due first; `awaited` is the picture the canvas waits for, if any.
    pub fn want(&self, jobs: Vec<Job>, awaited: Option<FrameKey>) {
        let mut state = self.shared.lock();
        let same = jobs.len() == state.wanted.len()
            && jobs.iter().zip(&state.wanted).all(|(a, b)| a.key == b.key);
        state.awaited = awaited.filter(|key| !state.composed.contains(key));
        if !same {
            state.wanted = jobs;
            self.shared.changed.notify_one();
        }
    }

    /// The composed picture of `key` (`Some(None)`: it draws nothing), marked as just used;
    /// `None` when it is not composed.
    pub fn get(&self, key: &FrameKey) -> Option<Option<Composed>> {
        self.shared.lock().composed.get(key).cloned()
    }

    /// `scene`'s picture composed now, on this thread (where there is no worker): as indices
    /// for the palette lookup when it is on and the scene allows, else RGBA.
    pub fn compose_now(
        &self,
        document: &AnimationSet,
        scene: &Scene,
        pixels: &ImageStore,
    ) -> Option<Composed> {
        let composed = self.shared.compose(document, scene, pixels);
        self.shared.lock().keep_indices(composed.as_ref());
        composed
    }

    /// Keeps a picture composed on the UI thread.
    pub fn insert(&self, key: FrameKey, composed: Option<Composed>) {
        let bytes = composed.as_ref().map_or(0, Composed::bytes);
        self.shared.lock().composed.insert(key, composed, bytes);
    }

    /// Keeps at most `budget` bytes of composed pictures from now on.
    pub fn set_budget(&self, budget: usize) {
        let mut state = self.shared.lock();
        state.composed.set_budget(budget);
        state.indices.set_budget(budget / INDICES_SHARE);
    }

    /// Whether paletted sprites are composed as indices and colours for the GPU's palette
    /// lookup (when one runs) rather than into RGBA.
    pub fn set_palette_lookup(&self, on: bool) {
        let mut state = self.shared.lock();
        if state.palette_lookup != on {
            state.palette_lookup = on;
            // Pictures composed the other way are no use to the canvas now.
            state.composed.clear();
        }
    }

    /// Bytes of composed pictures kept now.
    pub fn bytes(&self) -> usize {
        self.shared.lock().composed.bytes()
    }

    /// How long composing a picture has taken lately (zero before the first).
    pub fn compose_time(&self) -> Duration {
        self.shared.lock().compose_time
    }

    /// Lets every composed picture and everything wanted go, and what drawing reads: the next
    /// [`ComposeAhead::follow`] takes it again, and a picture the worker is composing now is
    /// not kept. Decoded indices stay (a new revision of the same document draws them again,
    /// with another palette say): [`ComposeAhead::forget_indices`] lets them go.
    pub fn clear(&self) {
        let mut state = self.shared.lock();
        state.stamp = PictureStamp::NONE;
        state.sources = Arc::new(PictureSources::of(&AnimationSet::new()));
        state.composed.clear();
        state.wanted.clear();
        state.awaited = None;
        state.forget_thumbnails();
    }

    /// Lets go of the decoded indices kept (another document is on show, or its files changed).
    pub fn forget_indices(&self) {
        self.shared.lock().indices.clear();
    }

    /// Asks for the thumbnail of `job.key`, unless it is asked for, being made or made
    /// already; the worker makes it when no picture of the playing sequence is to be composed.
    pub fn want_thumbnail(&self, job: ThumbnailJob) {
        let mut state = self.shared.lock();
        let key = job.key;
        if state.thumbnail_making == Some(key)
            || state.thumbnails_wanted.iter().any(|j| j.key == key)
            || state.thumbnails_made.iter().any(|(k, _)| *k == key)
        {
            return;
        }
        state.thumbnails_wanted.push(job);
        self.shared.changed.notify_one();
    }

    /// Forgets the thumbnails asked for but for those of `keys` (the cells still in view).
    pub fn keep_thumbnails(&self, keys: &[FrameKey]) {
        let mut state = self.shared.lock();
        state
            .thumbnails_wanted
            .retain(|job| keys.contains(&job.key));
    }

    /// The thumbnails made since the last call.
    pub fn take_thumbnails(&self) -> Vec<(FrameKey, Option<Thumbnail>)> {
        std::mem::take(&mut self.shared.lock().thumbnails_made)
    }

    /// Whether thumbnails are asked for and not all taken yet.
    pub fn thumbnails_pending(&self) -> bool {
        let state = self.shared.lock();
        !state.thumbnails_wanted.is_empty()
            || state.thumbnail_making.is_some()
            || !state.thumbnails_made.is_empty()
    }

    /// How many thumbnails the worker has made since it started.
    pub fn thumbnails_made(&self) -> u64 {
        self.shared.lock().thumbnails_count
    }
}

impl State {
    /// Keeps the indices of `composed`, when it has some, for the next time their sprite is
    /// drawn (with another palette, say).
    fn keep_indices(&mut self, composed: Option<&Composed>) {
        if let Some(ComposedPixels::Indexed(picture)) = composed.map(|c| &c.pixels) {
            let sprite = &picture.sprite;
            let bytes = sprite.indices.pixels.len();
            let indices = Arc::clone(&sprite.indices);
            self.indices.insert(sprite.key.clone(), indices, bytes);
        }
    }

    /// Lets go of every thumbnail asked for or made (another document, or it changed).
    fn forget_thumbnails(&mut self) {
        self.thumbnails_wanted.clear();
        self.thumbnails_made.clear();
        self.thumbnail_making = None;
    }
}

impl Drop for ComposeAhead {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.closed = true;
        state.wanted.clear();
        state.composed.clear();
        state.indices.clear();
        state.forget_thumbnails();
        self.shared.changed.notify_one();
    }
}

/// What the worker does next.
enum Task {
    /// Composes a picture of the playing sequence.
    Compose(Job),
    /// Makes a timeline thumbnail.
    Thumbnail(ThumbnailJob),
}

/// The worker's loop: takes the soonest due picture and composes it, unless the pictures
/// composed ahead of it already fill the cache; else makes the first thumbnail asked for;
/// sleeps while there is nothing to do.
fn work(shared: &Shared, pixels: &ImageStore, wake: &dyn Fn()) {
    loop {
        let (task, sources, stamp) = {
            let mut state = shared.lock();
            loop {
                if state.closed {
                    return;
                }
                if let Some(job) = next_job(&state) {
                    break (Task::Compose(job), Arc::clone(&state.sources), state.stamp);
                }
                if !state.thumbnails_wanted.is_empty() {
                    let job = state.thumbnails_wanted.remove(0);
                    state.thumbnail_making = Some(job.key);
                    break (
                        Task::Thumbnail(job),
                        Arc::clone(&state.sources),
                        state.stamp,
                    );
                }
                state = shared
                    .changed
                    .wait(state)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
        };
        match task {
            Task::Compose(job) => compose_job(shared, job, &sources, stamp, pixels, wake),
            Task::Thumbnail(job) => {
                let made = thumbnail_of(&sources.document, &job.frame, pixels);
                let mut state = shared.lock();
                // A thumbnail of a document that changed meanwhile, or no longer asked for
                // (forgotten while it was made), is of no use.
                if state.stamp != stamp || state.thumbnail_making != Some(job.key) {
                    continue;
                }
                state.thumbnail_making = None;
                state.thumbnails_made.push((job.key, made));
                state.thumbnails_count += 1;
                drop(state);
                wake();
            }
        }
    }
}

/// Composes `job`'s picture and keeps it; wakes the UI when the canvas waits for it.
fn compose_job(
    shared: &Shared,
    job: Job,
    sources: &PictureSources,
    stamp: PictureStamp,
    pixels: &ImageStore,
    wake: &dyn Fn(),
) {
    let started = Instant::now();
    let scene = Scene::of_frame(&job.frame);
    let composed = shared.compose(&sources.document, &scene, pixels);
    let bytes = composed.as_ref().map_or(0, Composed::bytes);
    let mut state = shared.lock();
    state.compose_time = (state.compose_time * 3 + started.elapsed()) / 4;
    // A picture of a document that changed meanwhile is of no use.
    if state.stamp != stamp {
        return;
    }
    state.keep_indices(composed.as_ref());
    state.composed.insert(job.key, composed, bytes);
    if state.awaited == Some(job.key) {
        state.awaited = None;
        drop(state);
        wake();
    }
}

/// The soonest due picture not composed yet, passing over those that could not be finished
/// before their frame is due while a later one can; `None` when every wanted one is composed, or when
/// composing the next would need more room than the cache has left after the wanted pictures
/// composed before it (it would push out one due sooner).
fn next_job(state: &State) -> Option<Job> {
    let budget = state.composed.budget();
    let mut ahead_bytes = 0;
    let mut largest = 0;
    let ready_at = Instant::now() + state.compose_time;
    let can_be_on_time = state
        .wanted
        .iter()
        .any(|job| job.due >= ready_at && !state.composed.contains(&job.key));
    for job in &state.wanted {
        if let Some(done) = state.composed.peek(&job.key) {
            let bytes = done.as_ref().map_or(0, Composed::bytes);
            ahead_bytes += bytes;
            largest = largest.max(bytes);
            continue;
        }
        // Finished after its frame is due, it would not be shown: the time goes to the next.
        if job.due < ready_at && can_be_on_time {
            continue;
        }
        // The soonest due picture is always composed; later ones only while the ones before
        // them and one more of the largest size seen fit.
        if ahead_bytes > 0 && ahead_bytes + largest > budget {
            return None;
        }
        return Some(Job {
            key: job.key,
            frame: job.frame.clone(),
            due: job.due,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::BlendMode;
    use crate::render::canvas::{FULL, premultiply};

    #[test]
    fn texels_are_what_egui_makes_of_the_rendered_image() {
        let mut canvas = Canvas::new(7, 3, [0; 4]);
        for (i, alpha) in [255u8, 254, 128, 3, 1, 0].into_iter().enumerate() {
            let source = premultiply([200, 90, 17, alpha], FULL);
            canvas.blend(i as i64, 0, source, BlendMode::Normal);
            canvas.blend(i as i64, 1, source, BlendMode::Normal);
            canvas.blend(
                i as i64,
                1,
                premultiply([5, 250, 60, 100], FULL),
                BlendMode::Normal,
            );
            let add = BlendMode::Add {
                source: 256,
                destination: 128,
            };
            canvas.blend(i as i64, 2, source, add);
        }
        let texels = texels_of(&canvas);
        let image = canvas.into_image();
        let expected = ColorImage::from_rgba_unmultiplied([7, 3], image.as_raw());
        assert_eq!(texels.pixels, expected.pixels);
        assert_eq!(texels.size, expected.size);
    }
}
