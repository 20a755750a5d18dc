//! The software renderer: one frame of a document composited into an RGBA image.
//!
//! No window and no file access: pixels come through a [`PixelSource`], so the editor, the
//! command line and the tests all draw the same way. Reading order: [`Scene`] (what to draw),
//! [`RenderOptions`] (how), [`render`]; then the parts: [`geometry`] (where source pixels land),
//! [`canvas`] (exact blending), [`graphic`] (sampling), [`overlay`] (boxes, points, origin).
//!
//! Coordinates: sprite space has its origin at the sprite's origin, x right, y down. The canvas
//! shows a whole-pixel rectangle of sprite space ([`SpriteRect`]) enlarged by an integer
//! `scale`; every canvas pixel is sampled at its centre, so scaled-up pixel art stays crisp and
//! rotated graphics are resampled at the output resolution.

pub mod canvas;
pub mod geometry;
pub mod graphic;
pub mod overlay;

pub use geometry::{Placement, SpriteRect};
pub use graphic::View;
pub use overlay::{Overlay, class_colour};

use crate::model::{
    AnimationSet, AttachmentPoint, CollisionBox, DefaultBoxRule, ElementKind, Frame, FrameDuration,
    Graphic, SequenceId, effective_boxes,
};
use crate::pixels::PixelSource;
use crate::playback::{Player, displayed_frame};
use canvas::Canvas;
use image::RgbaImage;
use std::borrow::Cow;

/// The largest canvas scale factor.
pub const MAX_SCALE: u32 = 64;
/// The longest canvas side in pixels (larger content is cropped around the origin).
pub const MAX_CANVAS_SIDE: u32 = 8192;
/// The most canvas pixels (a 4096 × 4096 canvas); larger content lowers the scale, then crops.
pub const MAX_CANVAS_PIXELS: u64 = 4096 * 4096;

/// What one picture shows: a frame's elements and the collision boxes in force on it.
#[derive(Clone, Debug)]
pub struct Scene<'a> {
    /// The frame, possibly with interpolated values (then owned).
    pub frame: Cow<'a, Frame>,
    /// The collision boxes in force: the frame's own, or AIR defaults from earlier frames.
    pub boxes: Vec<CollisionBox>,
    /// For each of `boxes`, true when it is in force by default (drawn fainter and dashed).
    pub defaults: Vec<bool>,
    /// False once a sequence has disappeared (Solarus); nothing but the origin is drawn.
    pub visible: bool,
}

impl<'a> Scene<'a> {
    /// A frame on its own, with only the boxes it holds.
    pub fn of_frame(frame: &'a Frame) -> Scene<'a> {
        let boxes: Vec<CollisionBox> = frame.boxes().map(|(_, b)| b.clone()).collect();
        let defaults = boxes
            .iter()
            .map(|b| frame.declared_scope(&b.class) == Some(crate::model::BoxScope::FromHereOn))
            .collect();
        Scene {
            boxes,
            defaults,
            frame: Cow::Borrowed(frame),
            visible: true,
        }
    }

    /// Nothing: what is left after a sequence disappears.
    pub fn empty() -> Scene<'static> {
        Scene {
            frame: Cow::Owned(Frame::new(FrameDuration::Forever)),
            boxes: Vec::new(),
            defaults: Vec::new(),
            visible: false,
        }
    }

    /// Frame `index` of a direction of a sequence, with the boxes `rule` puts in force.
    pub fn at(
        document: &'a AnimationSet,
        sequence: SequenceId,
        direction: usize,
        index: usize,
        rule: DefaultBoxRule,
    ) -> Option<Scene<'a>> {
        let sequence = document.sequence(sequence)?;
        let frames = document.direction_frames(sequence, direction);
        let frame = *frames.get(index)?;
        let effective = effective_boxes(&frames, index, rule);
        Some(Scene {
            frame: Cow::Borrowed(frame),
            boxes: effective.iter().map(|b| b.collision.clone()).collect(),
            defaults: effective.iter().map(|b| b.is_default(frame)).collect(),
            visible: true,
        })
    }

    /// What `player` shows now: its frame with interpolated values, its boxes, or nothing once
    /// the sequence disappeared.
    pub fn playing(
        document: &'a AnimationSet,
        player: &Player,
        rule: DefaultBoxRule,
    ) -> Option<Scene<'a>> {
        if !player.visible() {
            return Some(Scene::empty());
        }
        let frame = displayed_frame(player, document)?;
        let mut scene = Scene::at(
            document,
            player.sequence(),
            player.direction(),
            player.frame_index(),
            rule,
        )?;
        scene.frame = frame;
        Some(scene)
    }

    /// The attachment points to draw.
    pub fn points(&self) -> Vec<&AttachmentPoint> {
        if !self.visible {
            return Vec::new();
        }
        self.frame
            .elements
            .iter()
            .filter_map(|e| e.as_point())
            .collect()
    }
}

/// The colour behind the sprite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Background {
    /// Fully transparent.
    #[default]
    Transparent,
    /// A straight-alpha RGBA colour.
    Colour([u8; 4]),
}

/// Which part of sprite space the canvas shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CanvasBounds {
    /// Just the scene's content (graphics, plus the overlay's boxes, points and origin when
    /// drawn), grown by a margin in sprite pixels.
    #[default]
    Fit,
    /// Fit, grown by this many sprite pixels on each side.
    FitWithMargin(u32),
    /// Exactly this rectangle (a strip or an animation uses the union over its frames so the
    /// sprite does not jump).
    Fixed(SpriteRect),
}

/// How to render.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderOptions {
    /// Canvas pixels per sprite pixel (1..=[`MAX_SCALE`]; 0 counts as 1).
    pub scale: u32,
    /// The colour behind the sprite.
    pub background: Background,
    /// The part of sprite space shown.
    pub bounds: CanvasBounds,
    /// The editing overlay.
    pub overlay: Overlay,
    /// Which AIR default-box rule decides the boxes in force (used by helpers that build
    /// scenes from a sequence).
    pub box_rule: DefaultBoxRule,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            scale: 1,
            background: Background::Transparent,
            bounds: CanvasBounds::Fit,
            overlay: Overlay::NONE,
            box_rule: DefaultBoxRule::default(),
        }
    }
}

impl RenderOptions {
    /// A picture at `scale`, on a `background` colour (transparent when `None`), with every
    /// overlay or none: what the exports and `sprat render` ask for.
    pub fn picture(scale: u32, background: Option<[u8; 4]>, overlay: bool) -> RenderOptions {
        RenderOptions {
            scale,
            background: background.map_or(Background::Transparent, Background::Colour),
            overlay: if overlay { Overlay::ALL } else { Overlay::NONE },
            ..RenderOptions::default()
        }
    }
}

/// Composites `scene` into an image.
pub fn render(
    document: &AnimationSet,
    scene: &Scene,
    pixels: &dyn PixelSource,
    options: &RenderOptions,
) -> RgbaImage {
    render_canvas(document, scene, pixels, options).into_image()
}

/// Composites `scene` onto a canvas of premultiplied pixels: [`render`] before its last step,
/// for a caller that wants premultiplied pixels (a texture) without the straight image between.
pub fn render_canvas(
    document: &AnimationSet,
    scene: &Scene,
    pixels: &dyn PixelSource,
    options: &RenderOptions,
) -> Canvas {
    let rect = match options.bounds {
        CanvasBounds::Fixed(rect) => rect,
        CanvasBounds::Fit => content_bounds(document, scene, pixels, options.overlay)
            .unwrap_or(SpriteRect::covering(0.0, 0.0, 1.0, 1.0).unwrap_or_default()),
        CanvasBounds::FitWithMargin(margin) => {
            content_bounds(document, scene, pixels, options.overlay)
                .unwrap_or(SpriteRect::covering(0.0, 0.0, 1.0, 1.0).unwrap_or_default())
                .grown(margin)
        }
    };
    let view = capped_view(rect, options.scale);
    let fill = match options.background {
        Background::Transparent => [0; 4],
        Background::Colour(c) => c,
    };
    let mut canvas = Canvas::new(
        view.rect.width * view.scale,
        view.rect.height * view.scale,
        fill,
    );
    if scene.visible {
        for element in &scene.frame.elements {
            let ElementKind::Graphic(graphic) = &element.kind else {
                continue;
            };
            if graphic.source.is_blank() {
                continue;
            }
            let Some(source) = pixels.pixels(document, &graphic.source) else {
                continue;
            };
            let nearest = document
                .source_image(&graphic.source)
                .is_none_or(|image| image.nearest_neighbour);
            graphic::draw_graphic(
                &mut canvas,
                &view,
                graphic,
                &source.image,
                source.axis,
                nearest,
            );
        }
    }
    if !options.overlay.is_none() {
        let boxes: &[CollisionBox] = if scene.visible { &scene.boxes } else { &[] };
        overlay::draw_overlay(
            &mut canvas,
            &view,
            options.overlay,
            boxes,
            &scene.defaults,
            &scene.points(),
        );
    }
    canvas
}

/// `scene` composited at one pixel per sprite pixel onto a transparent canvas cropped to what
/// it draws, with the sprite-space rectangle the canvas covers (the renderer crops a frame too
/// large for one canvas); `None` when it draws nothing. What the editor makes textures of.
pub fn render_cropped(
    document: &AnimationSet,
    scene: &Scene,
    pixels: &dyn PixelSource,
) -> Option<(SpriteRect, Canvas)> {
    let rect = content_bounds(document, scene, pixels, Overlay::NONE)?;
    let options = RenderOptions {
        bounds: CanvasBounds::Fixed(rect),
        ..RenderOptions::default()
    };
    let canvas = render_canvas(document, scene, pixels, &options);
    Some((capped_view(rect, 1).rect, canvas))
}

/// A frame that draws one graphic as its source is: moved and flipped by whole pixels, at
/// full opacity with the normal blend, over nothing. Its picture is the source's pixels, read
/// in place, where [`render`] would composite them onto a canvas first: what an HD character's
/// frames are, thirty times a second.
pub struct PlainPicture {
    /// Where the picture goes in sprite space: the graphic's bounds.
    pub rect: SpriteRect,
    image: std::sync::Arc<RgbaImage>,
    shift: graphic::PixelShift,
}

impl PlainPicture {
    /// The picture's pixels row by row, straight RGBA as [`render`] gives them at scale 1 with
    /// a transparent background (a transparent pixel is `[0, 0, 0, 0]`), each made into a `T`.
    pub fn map_pixels<T>(&self, texel: impl Fn([u8; 4]) -> T) -> Vec<T> {
        let raw = self.image.as_raw();
        // The source is exactly as wide as the picture: a row is read forwards, or backwards
        // when flipped.
        let stride = self.rect.width as usize * 4;
        let straight = |p: &[u8]| match p[3] {
            0 => texel([0; 4]),
            a => texel([p[0], p[1], p[2], a]),
        };
        let mut out = Vec::with_capacity(self.rect.width as usize * self.rect.height as usize);
        for j in 0..self.rect.height as i64 {
            let start = (self.shift.y.0 + self.shift.y.1 * j) as usize * stride;
            let row = raw[start..start + stride].chunks_exact(4);
            if self.shift.x.1 < 0 {
                out.extend(row.rev().map(straight));
            } else {
                out.extend(row.map(straight));
            }
        }
        out
    }
}

/// `scene` as a [`PlainPicture`], or `None` when it draws anything else (several graphics, a
/// turn, a scale, a blend, a fade) or nothing.
pub fn plain_picture(
    document: &AnimationSet,
    scene: &Scene,
    pixels: &dyn PixelSource,
) -> Option<PlainPicture> {
    let graphic = plain_graphic(scene)?;
    let source = pixels.pixels(document, &graphic.source)?;
    let placement = plain_placement(graphic, source.image.dimensions(), source.axis)?;
    Some(PlainPicture {
        rect: placement.rect,
        image: source.image,
        shift: placement.shift,
    })
}

/// The one graphic `scene` draws when it draws exactly one, as its source is (moved and
/// flipped only, full opacity, the normal blend); `None` otherwise. Whether it lands on whole
/// pixels depends on its source's size and axis: see [`plain_placement`].
pub fn plain_graphic<'s>(scene: &'s Scene) -> Option<&'s Graphic> {
    if !scene.visible {
        return None;
    }
    let mut drawn = scene
        .frame
        .elements
        .iter()
        .filter_map(|e| e.as_graphic())
        .filter(|g| g.opacity != 0 && !g.source.is_blank());
    let (graphic, None) = (drawn.next()?, drawn.next()) else {
        return None;
    };
    graphic.is_plain().then_some(graphic)
}

/// Where a plain graphic ([`plain_graphic`]) of a `size` source with `axis` lands: its
/// source's pixels, whole, one to one, flipped or not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlainPlacement {
    /// The graphic's bounds in sprite space (as big as its source).
    pub rect: SpriteRect,
    shift: graphic::PixelShift,
}

impl PlainPlacement {
    /// Whether the source is read right to left (flipped horizontally).
    pub fn flipped_x(&self) -> bool {
        self.shift.x.1 < 0
    }

    /// Whether the source is read bottom to top (flipped vertically).
    pub fn flipped_y(&self) -> bool {
        self.shift.y.1 < 0
    }
}

/// How `graphic` lands when its source is `size` with `axis`; `None` unless every source pixel
/// lands on one whole picture pixel within the canvas limits.
pub fn plain_placement(
    graphic: &Graphic,
    (width, height): (u32, u32),
    axis: (i32, i32),
) -> Option<PlainPlacement> {
    let rect = Placement::of(graphic, axis)?.bounds(width, height)?;
    // The whole source, uncropped: a picture as big as the canvas cap is composited.
    let view = capped_view(rect, 1);
    if (rect.width, rect.height) != (width, height) || view.rect != rect {
        return None;
    }
    let shift = graphic::PixelShift::of_graphic(graphic, axis, &view)?;
    let inside = |(start, step): (i64, i64), len: u32| {
        let end = start + step * (len as i64 - 1);
        (0..len as i64).contains(&start) && (0..len as i64).contains(&end)
    };
    (inside(shift.x, width) && inside(shift.y, height)).then_some(PlainPlacement { rect, shift })
}

/// The sprite-space rectangle the scene's visible content covers: graphics (with their
/// transforms), and with an overlay the boxes, points and origin it draws. `None` when there is
/// nothing to show.
pub fn content_bounds(
    document: &AnimationSet,
    scene: &Scene,
    pixels: &dyn PixelSource,
    overlay: Overlay,
) -> Option<SpriteRect> {
    let mut bounds = None;
    if scene.visible {
        for graphic in scene.frame.elements.iter().filter_map(|e| e.as_graphic()) {
            if graphic.opacity == 0 || graphic.source.is_blank() {
                continue;
            }
            let Some(source) = pixels.pixels(document, &graphic.source) else {
                continue;
            };
            let rect = Placement::of(graphic, source.axis)
                .and_then(|p| p.bounds(source.image.width(), source.image.height()))
                .filter(|r| r.width > 0 && r.height > 0);
            bounds = SpriteRect::union_opt(bounds, rect);
        }
    }
    let boxes: &[CollisionBox] = if scene.visible { &scene.boxes } else { &[] };
    let marks = overlay::overlay_bounds(overlay, boxes, &scene.points());
    SpriteRect::union_opt(bounds, marks)
}

/// The union of the content of every frame of one direction, so a strip or an animation of it
/// keeps the sprite still; `None` when no frame shows anything.
pub fn direction_bounds(
    document: &AnimationSet,
    sequence: SequenceId,
    direction: usize,
    pixels: &dyn PixelSource,
    options: &RenderOptions,
) -> Option<SpriteRect> {
    let count = document
        .sequence(sequence)?
        .directions
        .get(direction)?
        .frames
        .len();
    // Each frame's pictures are decoded (and their bounds found) on every thread of the
    // current pool.
    use rayon::prelude::*;
    let rects: Vec<Option<SpriteRect>> = (0..count)
        .into_par_iter()
        .map(|index| {
            let scene = Scene::at(document, sequence, direction, index, options.box_rule)?;
            content_bounds(document, &scene, pixels, options.overlay)
        })
        .collect();
    rects.into_iter().flatten().reduce(|a, b| a.union(&b))
}

/// The view for `rect` at `scale`, within the canvas limits: the scale drops until the canvas
/// fits; if even scale 1 is too big, the rectangle is cropped, keeping the origin in view where
/// the content allows.
pub fn capped_view(rect: SpriteRect, scale: u32) -> View {
    let mut scale = scale.clamp(1, MAX_SCALE);
    let fits = |w: u64, h: u64, k: u64| {
        w * k <= MAX_CANVAS_SIDE as u64
            && h * k <= MAX_CANVAS_SIDE as u64
            && w * h * k * k <= MAX_CANVAS_PIXELS
    };
    let (w, h) = (rect.width.max(1) as u64, rect.height.max(1) as u64);
    while scale > 1 && !fits(w, h, scale as u64) {
        scale -= 1;
    }
    let mut rect = SpriteRect {
        width: rect.width.max(1),
        height: rect.height.max(1),
        ..rect
    };
    let side = (MAX_CANVAS_PIXELS as f64).sqrt() as u32;
    if !fits(rect.width as u64, rect.height as u64, 1) {
        let (x, width) = crop_axis(rect.x, rect.width, side);
        let (y, height) = crop_axis(rect.y, rect.height, side);
        rect = SpriteRect {
            x,
            y,
            width,
            height,
        };
    }
    View { rect, scale }
}

/// `[start, start + length)` cut to at most `limit`, centred on 0 when 0 is inside.
fn crop_axis(start: i32, length: u32, limit: u32) -> (i32, u32) {
    if length <= limit {
        return (start, length);
    }
    let end = start as i64 + length as i64;
    let centred = -(limit as i64 / 2);
    let new_start = centred.clamp(start as i64, end - limit as i64);
    (new_start as i32, limit)
}

#[cfg(test)]
mod tests;
