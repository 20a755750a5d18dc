//! Rendered frames as GPU textures, cached until what they show changes.
//!
//! The software renderer composites a frame at one image pixel per texel; the canvas shows the
//! texture with nearest-neighbour filtering at any zoom. A frame is rendered again only when
//! the displayed frame, the document or the image files change, so a paused editor costs
//! nothing and a playing one renders once per frame change.

use crate::assets::ImageStore;
use crate::model::{AnimationSet, SequenceId};
use crate::render::{
    Background, CanvasBounds, Overlay, RenderOptions, Scene, SpriteRect, capped_view,
    content_bounds, render,
};
use egui::{ColorImage, TextureHandle, TextureOptions};
use std::collections::HashMap;

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

/// A rendered frame: the texture and the sprite-space rectangle it covers.
#[derive(Clone)]
pub struct RenderedFrame {
    /// The pixels on the GPU.
    pub texture: TextureHandle,
    /// Where they go in sprite space (one texel per sprite pixel).
    pub rect: SpriteRect,
}

/// At most this many thumbnails are rendered per UI frame; the rest come on later frames.
pub const THUMBNAILS_PER_FRAME: usize = 6;

/// Cached frame textures for the canvas, the onion skin and the timeline.
#[derive(Default)]
pub struct FrameTextures {
    /// (document revision, image store generation) the caches were filled at.
    stamp: (u64, u64, u64),
    frames: HashMap<FrameKey, Option<RenderedFrame>>,
    thumbnails: HashMap<FrameKey, Option<RenderedFrame>>,
    thumbnails_this_frame: usize,
    /// Renders done since the editor started (tests check caching with it).
    pub renders: u64,
}

impl FrameTextures {
    /// Starts a UI frame: forgets everything if the document or its images changed.
    pub fn begin_frame(&mut self, revision: u64, pixels: &ImageStore) {
        let stamp = (revision, pixels.generation(), 0);
        if stamp != self.stamp {
            self.frames.clear();
            self.thumbnails.clear();
            self.stamp = stamp;
        }
        self.thumbnails_this_frame = 0;
        // Keep the playing frame and its neighbours, not every frame ever shown.
        if self.frames.len() > 64 {
            self.frames.clear();
        }
        if self.thumbnails.len() > 4096 {
            self.thumbnails.clear();
        }
    }

    /// Forgets everything (a new document).
    pub fn clear(&mut self) {
        self.frames.clear();
        self.thumbnails.clear();
    }

    /// The texture of a scene, rendered on first use.
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
        let rendered = scene().and_then(|s| self.render(ctx, document, &s, pixels, "frame"));
        self.frames.insert(key, rendered.clone());
        rendered
    }

    /// A timeline thumbnail; `None` while it waits its turn (then a repaint is requested) or
    /// when the frame draws nothing.
    pub fn thumbnail(
        &mut self,
        ctx: &egui::Context,
        document: &AnimationSet,
        key: FrameKey,
        pixels: &ImageStore,
    ) -> Option<RenderedFrame> {
        if let Some(done) = self.thumbnails.get(&key) {
            return done.clone();
        }
        if self.thumbnails_this_frame >= THUMBNAILS_PER_FRAME {
            ctx.request_repaint();
            return None;
        }
        self.thumbnails_this_frame += 1;
        let scene = Scene::at(
            document,
            key.sequence,
            key.direction,
            key.index,
            Default::default(),
        );
        let rendered = scene.and_then(|s| self.render(ctx, document, &s, pixels, "thumbnail"));
        self.thumbnails.insert(key, rendered.clone());
        rendered
    }

    fn render(
        &mut self,
        ctx: &egui::Context,
        document: &AnimationSet,
        scene: &Scene,
        pixels: &ImageStore,
        name: &str,
    ) -> Option<RenderedFrame> {
        let rendered = render_texture(ctx, document, scene, pixels, name)?;
        self.renders += 1;
        Some(rendered)
    }
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
    let rect = content_bounds(document, scene, pixels, Overlay::NONE)?;
    let options = RenderOptions {
        scale: 1,
        background: Background::Transparent,
        bounds: CanvasBounds::Fixed(rect),
        overlay: Overlay::NONE,
        ..RenderOptions::default()
    };
    let image = render(document, scene, pixels, &options);
    let texture = texture_of(
        ctx,
        format!("sprat-{name}"),
        &image,
        TextureOptions::NEAREST,
    );
    // The renderer crops a frame too large for one canvas; the texture covers what it drew.
    let rect = capped_view(rect, 1).rect;
    Some(RenderedFrame { texture, rect })
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
