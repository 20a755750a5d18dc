//! Rendered frames as GPU textures, cached until what they show changes or room is needed.
//!
//! The software renderer composites a frame at one image pixel per texel; the canvas shows the
//! texture with nearest-neighbour filtering at any zoom. A frame is rendered again only when
//! the displayed frame, the document or the image files change, so a paused editor costs
//! nothing and a playing one renders once per frame change. While a sequence plays, its
//! next frames' pictures are composed ahead on a worker thread ([`compose`]) and shown through
//! one texture the new pixels are handed to ([`playing`]), so the UI thread only uploads.
//! Decoded pictures, composed pictures and textures together are kept within
//! [`PictureMemory`] (a setting), the least recently shown let go first. On the glow backend a
//! played frame that is one paletted sprite stays colour indices until the GPU ([`indexed`],
//! [`gpu_palette`]).

pub mod compose;
pub mod gpu_palette;
pub mod indexed;
pub mod playing;

use crate::assets::{Budgets, ImageStore};
use crate::cache::ByteLru;
use crate::model::{AnimationSet, SequenceId};
use crate::render::{Scene, SpriteRect};
use egui::{ColorImage, TextureHandle, TextureOptions};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Where the panels get their frame pictures.
pub struct Pictures<'a> {
    /// Rendered-frame cache.
    pub textures: &'a mut FrameTextures,
    /// Image files and SFF sprites (shared with the thread that decodes ahead).
    pub pixels: &'a Arc<ImageStore>,
}

/// Which picture a texture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameKey {
    /// The sequence.
    pub sequence: SequenceId,
    /// Direction index.
    pub direction: usize,
    /// Frame index.
    pub index: usize,
    /// Interpolation progress (f64 bits) when the frame is interpolated, else 0.
    pub progress: u64,
}

/// Which pictures a cache holds: those of one document at one revision, drawn from the image
/// store at one generation. A [`FrameKey`] is only told apart from another within one stamp:
/// two documents can have the same sequence ids and revisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PictureStamp {
    /// The document ([`crate::app::context::document::OpenDocument::identity`]).
    pub document: u64,
    /// Its revision.
    pub revision: u64,
    /// The image store's generation.
    pub images: u64,
}

impl PictureStamp {
    /// No document's: what an empty cache holds.
    pub const NONE: PictureStamp = PictureStamp {
        document: 0,
        revision: u64::MAX,
        images: u64::MAX,
    };
}

/// A rendered frame: the texture and the sprite-space rectangle it covers.
#[derive(Clone)]
pub struct RenderedFrame {
    /// The pixels on the GPU.
    pub texture: TextureHandle,
    /// Where they go in sprite space (one texel per sprite pixel).
    pub rect: SpriteRect,
}

/// What the canvas shows of the frame on show.
#[derive(Clone)]
pub enum ShownPicture {
    /// A texture of its pixels.
    Texture(RenderedFrame),
    /// One paletted sprite, drawn through the GPU's palette lookup.
    Indexed {
        /// The sprite's indices and colours, and where they go.
        picture: indexed::IndexedPicture,
        /// The lookup that draws it.
        painter: Arc<gpu_palette::PalettePainter>,
    },
}

impl ShownPicture {
    /// Where the picture goes in sprite space (one pixel per sprite pixel).
    pub fn rect(&self) -> SpriteRect {
        match self {
            ShownPicture::Texture(frame) => frame.rect,
            ShownPicture::Indexed { picture, .. } => picture.rect,
        }
    }
}

/// What the timeline shows of a cell's frame.
#[derive(Clone)]
pub enum CellPicture {
    /// Its thumbnail.
    Ready(RenderedFrame),
    /// Its thumbnail is being made: a placeholder covering the sprite-space rectangle the
    /// picture will, when that is known without decoding (`None` otherwise).
    Coming(Option<SpriteRect>),
    /// The frame draws nothing.
    Nothing,
}

/// Where there is no worker (the web), at most this many thumbnails are rendered per UI frame;
/// the rest come on later frames.
pub const THUMBNAILS_PER_FRAME: usize = 6;
/// Nor more than this many pixels of frames drawn for thumbnails per UI frame (past the
/// first one): six 1280x720 frames would hold a UI frame for a long time.
const THUMBNAIL_PIXELS_PER_FRAME: usize = 1 << 20;
/// A thumbnail's texture is at most this many texels on its longer side: a timeline cell is
/// far smaller, and a 1280x720 texture per cell would hold 3.7 MB each.
pub const THUMBNAIL_TEXELS: u32 = 160;
/// What a thumbnail counts against its share of the memory setting, at the least: every live
/// texture costs each paint something besides its bytes (with software rendering, the HD
/// character's window went from 90% to 98% of a core once 18 actions had left their small
/// thumbnails behind). 32 MiB, the default share, holds about 170 thumbnails: the cells in
/// view of the last half-dozen sequences.
const THUMBNAIL_LEAST_BYTES: usize = 192 * 1024;

/// How much memory the editor keeps pictures in: decoded images and sprites, composed frame
/// pictures, and the textures of frames and thumbnails (a setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PictureMemory {
    /// Megabytes (MiB) for all of them together.
    pub megabytes: u32,
}

impl Default for PictureMemory {
    /// 256 MiB: about seventy 1280x720 pictures in all, plenty for smooth playback of
    /// high-definition characters, and small beside what an editor of them may use.
    fn default() -> PictureMemory {
        PictureMemory { megabytes: 256 }
    }
}

impl PictureMemory {
    /// The least accepted (a hand-edited setting of 0 would redraw every frame every time).
    pub const MIN_MEGABYTES: u32 = 16;

    /// All of it, in bytes.
    pub fn bytes(self) -> usize {
        (self.megabytes.max(Self::MIN_MEGABYTES) as usize) << 20
    }

    /// Three eighths for decoded pictures (the image store's caches)...
    pub fn decoded(self) -> Budgets {
        Budgets::sharing(self.bytes() / 8 * 3)
    }

    /// ...a quarter for frame pictures composed ahead of their time while a sequence plays...
    pub fn composed(self) -> usize {
        self.bytes() / 4
    }

    /// ...a quarter for the textures of frames (the one a playing sequence is shown through
    /// included)...
    pub fn frames(self) -> usize {
        self.bytes() / 4
    }

    /// ...and an eighth for thumbnails.
    pub fn thumbnails(self) -> usize {
        self.bytes() / 8
    }
}

/// Cached frame textures for the canvas, the onion skin and the timeline, each cache bounded
/// by bytes (the least recently shown go first).
pub struct FrameTextures {
    /// The pictures of what the caches hold: see [`PictureStamp`].
    stamp: PictureStamp,
    frames: ByteLru<FrameKey, Option<RenderedFrame>>,
    thumbnails: ByteLru<FrameKey, Option<RenderedFrame>>,
    thumbnails_this_frame: usize,
    thumbnail_pixels_this_frame: usize,
    /// The thumbnails asked of the worker during this UI frame (those of the cells in view).
    thumbnails_asked: Vec<FrameKey>,
    /// Whether the thumbnails the worker made were taken during this UI frame.
    thumbnails_taken: bool,
    /// The budget in force.
    memory: PictureMemory,
    /// Composed pictures, and the worker composing the next frames' while a sequence plays
    /// (started on first use).
    pub(crate) ahead: Option<compose::ComposeAhead>,
    /// The texture a playing sequence's pictures are handed to, one after another (reused
    /// while their size stays the same).
    pub(crate) stage: Option<TextureHandle>,
    /// The frame the canvas showed last while playing: shown on while the next one's
    /// picture is still being composed.
    pub(crate) shown: Option<(FrameKey, ShownPicture)>,
    /// The GPU's palette lookup, when the backend runs one (glow, OpenGL 3.1 / ES 3.0 on).
    pub(crate) palette_painter: Option<Arc<gpu_palette::PalettePainter>>,
    /// Whether the backend was asked for the palette lookup yet.
    palette_painter_tried: bool,
    /// Renders done since the editor started (tests check caching with it).
    pub renders: u64,
}

impl Default for FrameTextures {
    fn default() -> FrameTextures {
        let memory = PictureMemory::default();
        FrameTextures {
            stamp: PictureStamp::NONE,
            frames: ByteLru::new(memory.frames()),
            thumbnails: ByteLru::new(memory.thumbnails()),
            thumbnails_this_frame: 0,
            thumbnail_pixels_this_frame: 0,
            thumbnails_asked: Vec::new(),
            thumbnails_taken: false,
            memory,
            ahead: None,
            stage: None,
            shown: None,
            palette_painter: None,
            palette_painter_tried: false,
            renders: 0,
        }
    }
}

impl FrameTextures {
    /// Starts a UI frame on the document `identity` ([`crate::app::context::document::OpenDocument::identity`])
    /// at `revision`: forgets everything if another document is on show, or the document or
    /// its images changed.
    pub fn begin_frame(&mut self, identity: u64, revision: u64, pixels: &ImageStore) {
        let stamp = PictureStamp {
            document: identity,
            revision,
            images: pixels.generation(),
        };
        if stamp != self.stamp {
            self.clear();
            // Another document, or its files changed: the indices decoded for the last one are
            // no use (a new revision alone keeps them, for a palette change to cost no decode).
            if (stamp.document, stamp.images) != (self.stamp.document, self.stamp.images) {
                self.forget_indices();
            }
            self.stamp = stamp;
        }
        self.thumbnails_this_frame = 0;
        self.thumbnail_pixels_this_frame = 0;
        self.thumbnails_taken = false;
        // Thumbnails of cells no longer in view are not made.
        if let Some(ahead) = &self.ahead {
            ahead.keep_thumbnails(&self.thumbnails_asked);
        }
        self.thumbnails_asked.clear();
    }

    /// Draws played paletted sprites through a palette lookup on `gl` when it can run one (the
    /// first call decides; on another backend, `None`, frames stay RGBA textures). Called
    /// with the context current, each frame.
    pub fn use_gl(&mut self, gl: Option<&Arc<eframe::glow::Context>>) {
        if std::mem::replace(&mut self.palette_painter_tried, true) {
            return;
        }
        let Some(gl) = gl else {
            return;
        };
        // A way round a driver that draws the lookup wrong, and the way the speed of the
        // RGBA path is measured beside it (docs/speed.md).
        if std::env::var_os("SPRAT_RGBA_PICTURES").is_some() {
            log::info!("paletted sprites are drawn as RGBA textures: SPRAT_RGBA_PICTURES is set");
            return;
        }
        match gpu_palette::PalettePainter::new(gl) {
            Ok(painter) => self.palette_painter = Some(Arc::new(painter)),
            Err(why) => log::info!("paletted sprites are drawn as RGBA textures: {why}"),
        }
    }

    /// Keeps pictures within `memory` from now on: these textures and `pixels`' decoded
    /// images. Cheap when nothing changed (call it every frame).
    pub fn set_memory(&mut self, memory: PictureMemory, pixels: &ImageStore) {
        if pixels.budgets() != memory.decoded() {
            pixels.set_budgets(memory.decoded());
        }
        if memory != self.memory {
            self.memory = memory;
            self.fit_frames_budget();
            self.thumbnails.set_budget(memory.thumbnails());
            if let Some(ahead) = &self.ahead {
                ahead.set_budget(memory.composed());
            }
        }
    }

    /// The frame textures' share less what the playing texture holds.
    fn fit_frames_budget(&mut self) {
        let staged = self.stage.as_ref().map_or(0, texture_bytes);
        let budget = self.memory.frames().saturating_sub(staged);
        if budget != self.frames.budget() {
            self.frames.set_budget(budget);
        }
    }

    /// Bytes of texture memory held now (frames, the playing texture and thumbnails, each
    /// thumbnail counted at no less than `THUMBNAIL_LEAST_BYTES`), and the most allowed.
    pub fn texture_bytes(&self) -> (usize, usize) {
        let staged = self.stage.as_ref().map_or(0, texture_bytes);
        (
            self.frames.bytes() + staged + self.thumbnails.bytes(),
            self.memory.frames() + self.thumbnails.budget(),
        )
    }

    /// Bytes of frame pictures composed ahead and kept now, and the most allowed.
    pub fn composed_bytes(&self) -> (usize, usize) {
        let held = self.ahead.as_ref().map_or(0, |a| a.bytes());
        (held, self.memory.composed())
    }

    /// Forgets everything (a new document): textures are freed on the GPU once egui has
    /// let go of their handles, at the end of the next paint.
    pub fn clear(&mut self) {
        self.frames.clear();
        self.thumbnails.clear();
        self.thumbnails_asked.clear();
        self.shown = None;
        self.stage = None;
        self.fit_frames_budget();
        if let Some(ahead) = &self.ahead {
            ahead.clear();
        }
    }

    /// Forgets everything and ends the worker (no document is on show).
    pub fn release(&mut self) {
        self.clear();
        self.forget_indices();
        self.ahead = None;
    }

    /// Lets go of the sprites' indices kept for the palette lookup: those the worker decoded
    /// and the ones drawn last.
    fn forget_indices(&self) {
        if let Some(ahead) = &self.ahead {
            ahead.forget_indices();
        }
        if let Some(painter) = &self.palette_painter {
            painter.let_go();
        }
    }

    /// The frame the canvas shows while playing (`None` paused).
    pub fn shown_key(&self) -> Option<FrameKey> {
        self.shown.as_ref().map(|(key, _)| *key)
    }

    /// The texture of a scene (frame `key.index` of direction `key.direction` of sequence
    /// `key.sequence`, as `scene` makes it): made on first use from the picture composed
    /// ahead when there is one, else composed now; then kept until room is needed.
    pub fn frame<'a>(
        &mut self,
        ctx: &egui::Context,
        document: &'a AnimationSet,
        key: FrameKey,
        scene: impl FnOnce() -> Option<Scene<'a>>,
        pixels: &ImageStore,
    ) -> Option<RenderedFrame> {
        if let Some(done) = self.frames.get(&key) {
            return done.clone();
        }
        let composed = match self.ahead.as_ref().and_then(|a| a.get(&key)) {
            Some(ready) => ready,
            None => scene().and_then(|s| {
                self.renders += 1;
                compose::compose(document, &s, pixels)
            }),
        };
        let rendered = composed.map(|c| RenderedFrame {
            texture: ctx.load_texture("sprat-frame", c.texels(), TextureOptions::NEAREST),
            rect: c.rect,
        });
        let bytes = rendered.as_ref().map_or(0, |r| texture_bytes(&r.texture));
        self.frames.insert(key, rendered.clone(), bytes);
        rendered
    }

    /// What the timeline shows of the frame `key`: its thumbnail once made, else a
    /// placeholder while it is made. Natively the thumbnails are made on the worker (the UI
    /// thread only uploads the small pictures as they come); where no thread can start, a
    /// few are made each paint here.
    pub fn thumbnail(
        &mut self,
        ctx: &egui::Context,
        document: &AnimationSet,
        key: FrameKey,
        pixels: &Arc<ImageStore>,
    ) -> CellPicture {
        self.start_ahead(ctx, pixels);
        let stamp = self.stamp;
        let worker = self.ahead.as_ref().filter(|ahead| ahead.has_worker());
        if let Some(ahead) = worker {
            ahead.follow(stamp, || compose::PictureSources::of(document));
            if !self.thumbnails_taken {
                self.thumbnails_taken = true;
                let made = ahead.take_thumbnails();
                for (made_key, thumbnail) in made {
                    self.keep_thumbnail(ctx, made_key, thumbnail);
                }
            }
        }
        if let Some(done) = self.thumbnails.get(&key) {
            return done
                .clone()
                .map_or(CellPicture::Nothing, CellPicture::Ready);
        }
        let Some(scene) = Scene::at(
            document,
            key.sequence,
            key.direction,
            key.index,
            Default::default(),
        ) else {
            return CellPicture::Nothing;
        };
        if let Some(ahead) = self.ahead.as_ref().filter(|ahead| ahead.has_worker()) {
            ahead.want_thumbnail(compose::ThumbnailJob {
                key,
                frame: scene.frame.clone().into_owned(),
            });
            self.thumbnails_asked.push(key);
            return CellPicture::Coming(placeholder_rect(document, &scene, pixels));
        }
        if self.thumbnails_this_frame >= THUMBNAILS_PER_FRAME
            || self.thumbnail_pixels_this_frame >= THUMBNAIL_PIXELS_PER_FRAME
        {
            ctx.request_repaint();
            return CellPicture::Coming(placeholder_rect(document, &scene, pixels));
        }
        self.thumbnails_this_frame += 1;
        self.renders += 1;
        let made = compose::thumbnail_of(document, &scene.frame, pixels);
        if let Some(made) = &made {
            self.thumbnail_pixels_this_frame += (made.rect.width * made.rect.height) as usize;
        }
        self.keep_thumbnail(ctx, key, made)
            .map_or(CellPicture::Nothing, CellPicture::Ready)
    }

    /// Uploads a thumbnail made and keeps its texture.
    fn keep_thumbnail(
        &mut self,
        ctx: &egui::Context,
        key: FrameKey,
        made: Option<compose::Thumbnail>,
    ) -> Option<RenderedFrame> {
        let rendered = made.map(|made| {
            let filter = if made.shrunk {
                TextureOptions::LINEAR
            } else {
                TextureOptions::NEAREST
            };
            RenderedFrame {
                texture: ctx.load_texture("sprat-thumbnail", made.image, filter),
                rect: made.rect,
            }
        });
        let bytes = rendered.as_ref().map_or(0, |r| texture_bytes(&r.texture));
        self.thumbnails
            .insert(key, rendered.clone(), bytes.max(THUMBNAIL_LEAST_BYTES));
        rendered
    }

    /// Whether thumbnails asked for are still being made (tests and screenshots wait for
    /// them).
    pub fn thumbnails_pending(&self) -> bool {
        self.ahead
            .as_ref()
            .is_some_and(compose::ComposeAhead::thumbnails_pending)
    }

    /// How many thumbnails the worker has made (none where there is no worker).
    pub fn thumbnails_made_on_worker(&self) -> u64 {
        self.ahead
            .as_ref()
            .map_or(0, compose::ComposeAhead::thumbnails_made)
    }
}

/// The sprite-space rectangle `scene`'s picture will cover, when the size of every graphic it
/// draws is known without decoding ([`ImageStore::known_size`]); `None` otherwise.
pub fn placeholder_rect(
    document: &AnimationSet,
    scene: &Scene,
    pixels: &ImageStore,
) -> Option<SpriteRect> {
    let mut bounds = None;
    for graphic in scene.frame.elements.iter().filter_map(|e| e.as_graphic()) {
        if graphic.opacity == 0 || graphic.source.is_blank() {
            continue;
        }
        let ((width, height), axis) = pixels.known_size(document, &graphic.source)?;
        let rect = crate::render::Placement::of(graphic, axis)
            .and_then(|p| p.bounds(width, height))
            .filter(|r| r.width > 0 && r.height > 0);
        bounds = SpriteRect::union_opt(bounds, rect);
    }
    bounds
}

/// The bytes a texture holds on the GPU (RGBA, one byte a channel).
pub fn texture_bytes(texture: &TextureHandle) -> usize {
    let [width, height] = texture.size();
    width * height * 4
}

/// `image` made at most `longest` pixels on its longer side (kept as it is when it fits).
fn shrunk_to(image: &image::RgbaImage, longest: u32) -> std::borrow::Cow<'_, image::RgbaImage> {
    let (width, height) = image.dimensions();
    if width.max(height) <= longest {
        return std::borrow::Cow::Borrowed(image);
    }
    let fit = longest as f64 / width.max(height) as f64;
    let size = |side: u32| ((side as f64 * fit).round() as u32).max(1);
    std::borrow::Cow::Owned(image::imageops::thumbnail(image, size(width), size(height)))
}

/// Renders `scene` at one texel per sprite pixel, cropped to what it draws, into a texture
/// named `sprat-{name}`. `None` when the scene draws nothing.
pub fn render_texture(
    ctx: &egui::Context,
    document: &AnimationSet,
    scene: &Scene,
    pixels: &ImageStore,
    name: &str,
) -> Option<RenderedFrame> {
    let (rect, image) = render_image(document, scene, pixels)?;
    let texture = texture_of(
        ctx,
        format!("sprat-{name}"),
        &image,
        TextureOptions::NEAREST,
    );
    Some(RenderedFrame { texture, rect })
}

/// `scene` rendered at one pixel per sprite pixel, cropped to what it draws, with the
/// sprite-space rectangle the picture covers. `None` when the scene draws nothing.
pub fn render_image(
    document: &AnimationSet,
    scene: &Scene,
    pixels: &ImageStore,
) -> Option<(SpriteRect, image::RgbaImage)> {
    if let Some(plain) = crate::render::plain_picture(document, scene, pixels) {
        // One sprite placed as it is: its pixels as they are, with no canvas between.
        let pixels = plain.map_pixels(|p| p).into_flattened();
        let image = image::RgbaImage::from_raw(plain.rect.width, plain.rect.height, pixels)?;
        return Some((plain.rect, image));
    }
    let (rect, canvas) = crate::render::render_cropped(document, scene, pixels)?;
    Some((rect, canvas.into_image()))
}

/// An RGBA picture on the GPU, named `name` (for egui's texture list).
pub fn texture_of(
    ctx: &egui::Context,
    name: impl Into<String>,
    image: &image::RgbaImage,
    options: TextureOptions,
) -> TextureHandle {
    let size = [image.width() as usize, image.height() as usize];
    ctx.load_texture(
        name,
        ColorImage::from_rgba_unmultiplied(size, image.as_raw()),
        options,
    )
}
