//! What the canvas draws around the frame on show: the onion skin (up to five frames before
//! and after, tinted in two colours or as flat silhouettes, under or over the frame) and the
//! pinned reference (a frame of any sequence or tab, faint under everything).

use crate::app::canvas::view::View;
use crate::app::context::document::{OpenDocument, box_rule};
use crate::app::context::pictures::{FrameKey, Pictures, RenderedFrame, render_image, texture_of};
use crate::app::context::reference::PinnedReference;
use crate::app::context::settings::{OnionStyle, Settings};
use crate::render::Scene;
use egui::{Color32, Rect, pos2};
use std::collections::HashMap;

/// Silhouettes of the frames around the one on show, rendered once and kept until the
/// document or its pictures change (a handful: at most ten frames are around).
#[derive(Default)]
pub struct Silhouettes {
    /// (document revision, image store generation) they were rendered at.
    stamp: (u64, u64),
    shapes: HashMap<FrameKey, Option<RenderedFrame>>,
}

/// At most this many silhouettes are kept (the frames around a few frames on show).
const KEPT_SILHOUETTES: usize = 32;

impl Silhouettes {
    /// The silhouette of frame `key`: white where the frame is opaque, with its opacity.
    fn of(
        &mut self,
        ctx: &egui::Context,
        doc: &OpenDocument,
        key: FrameKey,
        rule: crate::model::DefaultBoxRule,
        pictures: &Pictures,
    ) -> Option<RenderedFrame> {
        let stamp = (doc.revision, pictures.pixels.generation());
        if stamp != self.stamp || self.shapes.len() >= KEPT_SILHOUETTES {
            self.shapes.clear();
            self.stamp = stamp;
        }
        self.shapes
            .entry(key)
            .or_insert_with(|| {
                let document = doc.session.document();
                let scene = Scene::at(document, key.sequence, key.direction, key.index, rule)?;
                let (rect, mut image) = render_image(document, &scene, pictures.pixels)?;
                for pixel in image.pixels_mut() {
                    pixel.0[..3].fill(255);
                }
                let texture = texture_of(
                    ctx,
                    "sprat-silhouette",
                    &image,
                    egui::TextureOptions::NEAREST,
                );
                Some(RenderedFrame { texture, rect })
            })
            .clone()
    }
}

/// Paints `picture` where it lies in sprite space, multiplied by `tint`.
pub fn paint_picture(painter: &egui::Painter, view: &View, picture: &RenderedFrame, tint: Color32) {
    let r = picture.rect;
    let a = view.to_screen(r.x as f64, r.y as f64);
    let b = view.to_screen(r.x as f64 + r.width as f64, r.y as f64 + r.height as f64);
    // Facing left, the picture's left edge is on the right: the texture is read right to left.
    let uv = if view.mirrored {
        Rect::from_min_max(pos2(1.0, 0.0), pos2(0.0, 1.0))
    } else {
        Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0))
    };
    painter.image(picture.texture.id(), Rect::from_two_pos(a, b), uv, tint);
}

/// The onion skin: the frames before and after the one on show, the nearest strongest.
pub fn paint_onion_skin(
    painter: &egui::Painter,
    view: &View,
    doc: &OpenDocument,
    settings: &Settings,
    pictures: &mut Pictures,
    silhouettes: &mut Silhouettes,
    on_show: FrameKey,
) {
    let ctx = painter.ctx();
    let view_settings = &settings.view;
    let count = doc.direction_frames().len();
    let index = on_show.index;
    let rule = box_rule(view_settings.documented_default_box_rule);
    let document = doc.session.document();
    let colour = |[r, g, b]: [u8; 3]| Color32::from_rgb(r, g, b);
    let (before, after) = (
        colour(view_settings.onion_before_colour),
        colour(view_settings.onion_after_colour),
    );
    let frames = view_settings.onion_frames.clamp(
        1,
        crate::app::context::settings::ViewSettings::MAX_ONION_FRAMES,
    );
    // The farthest first, so the nearest are drawn over them.
    for distance in (1..=frames as usize).rev() {
        let alpha = 0.5 / distance as f32;
        let neighbours = [
            (index.checked_sub(distance), before),
            (Some(index + distance).filter(|i| *i < count), after),
        ];
        for (neighbour, tint) in neighbours {
            let Some(i) = neighbour else { continue };
            let key = FrameKey {
                index: i,
                progress: 0,
                ..on_show
            };
            let picture = match view_settings.onion_style {
                OnionStyle::Tinted => {
                    let scene = || Scene::at(document, key.sequence, key.direction, i, rule);
                    pictures
                        .textures
                        .frame(ctx, document, key, scene, pictures.pixels)
                }
                OnionStyle::Silhouettes => silhouettes.of(ctx, doc, key, rule, pictures),
            };
            if let Some(picture) = picture {
                paint_picture(painter, view, &picture, tint.gamma_multiply(alpha));
            }
        }
    }
}

/// The pinned reference, faint, and a line saying what it is at the canvas' bottom left.
pub fn paint_reference(
    painter: &egui::Painter,
    view: &View,
    canvas: Rect,
    reference: &PinnedReference,
    settings: &Settings,
) {
    let opacity = settings.view.reference_opacity.clamp(10, 90) as f32 / 100.0;
    paint_picture(
        painter,
        view,
        &reference.picture,
        Color32::WHITE.gamma_multiply(opacity),
    );
    painter.text(
        canvas.left_bottom() + egui::vec2(6.0, -6.0),
        egui::Align2::LEFT_BOTTOM,
        format!("Reference: {}", reference.label),
        egui::FontId::proportional(12.0),
        Color32::from_rgba_unmultiplied(230, 230, 230, 200),
    );
}
