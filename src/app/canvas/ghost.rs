//! The ghost of a tool's moves on the canvas: the frames of the direction on show drawn faint
//! at the place a tool (Align frames) would move them to, with the outline of the frame on
//! show there, before anything is applied.

use crate::app::canvas::view::View;
use crate::app::context::document::{OpenDocument, box_rule};
use crate::app::context::ghost::FrameGhost;
use crate::app::context::pictures::{FrameKey, Pictures, RenderedFrame};
use crate::app::context::settings::Settings;
use crate::model::Point;
use crate::render::Scene;
use egui::{Color32, Rect, Stroke, StrokeKind, pos2};

/// At most this many frames of the direction are drawn (those nearest the frame on show):
/// enough to see them line up, without rendering a long sequence at every change.
const MOST_FRAMES: usize = 12;

/// The colour of the ghost.
const GHOST: Color32 = Color32::from_rgb(120, 200, 255);

/// Paints `ghost` when it moves frames of the direction on show.
pub fn paint(
    ctx: &egui::Context,
    painter: &egui::Painter,
    view: &View,
    doc: &OpenDocument,
    settings: &Settings,
    pictures: &mut Pictures,
    ghost: &FrameGhost,
) {
    if ghost.sequence != doc.player.sequence() || ghost.direction != doc.player.direction() {
        return;
    }
    let shown = doc.player.frame_index();
    let mut moves = ghost.moves.clone();
    moves.sort_by_key(|(position, _)| position.abs_diff(shown));
    moves.truncate(MOST_FRAMES);
    // The frame on show last, on top and less faint.
    moves.reverse();
    let rule = box_rule(settings.view.documented_default_box_rule);
    let document = doc.session.document();
    for (position, by) in moves {
        let key = FrameKey {
            sequence: ghost.sequence,
            direction: ghost.direction,
            index: position,
            progress: 0,
        };
        let scene = || Scene::at(document, key.sequence, key.direction, position, rule);
        let Some(picture) = pictures
            .textures
            .frame(ctx, document, key, scene, pictures.pixels)
        else {
            continue;
        };
        let on_show = position == shown;
        let alpha = if on_show { 0.6 } else { 0.22 };
        let rect = moved_rect(view, &picture, by);
        let uv = if view.mirrored {
            Rect::from_min_max(pos2(1.0, 0.0), pos2(0.0, 1.0))
        } else {
            Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0))
        };
        painter.image(picture.texture.id(), rect, uv, GHOST.gamma_multiply(alpha));
        if on_show {
            let stroke = Stroke::new(1.0, GHOST.gamma_multiply(0.9));
            painter.rect_stroke(rect, 0.0, stroke, StrokeKind::Outside);
        }
    }
}

/// Where `picture` goes on screen once moved by `by` sprite pixels.
fn moved_rect(view: &View, picture: &RenderedFrame, by: Point) -> Rect {
    let r = picture.rect;
    let (dx, dy) = (by.x.to_f64(), by.y.to_f64());
    let a = view.to_screen(r.x as f64 + dx, r.y as f64 + dy);
    let b = view.to_screen(
        r.x as f64 + r.width as f64 + dx,
        r.y as f64 + r.height as f64 + dy,
    );
    Rect::from_two_pos(a, b)
}
