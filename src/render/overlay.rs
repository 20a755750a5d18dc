//! The editing overlay drawn over a frame: the origin cross, collision boxes coloured by class
//! and attachment points with their angle. Drawn at canvas resolution, so lines stay one
//! canvas pixel wide at any zoom.

use super::canvas::{Canvas, FULL, premultiply};
use super::geometry::{SpriteRect, exact_sin_cos};
use super::graphic::View;
use crate::model::{AttachmentPoint, BlendMode, BoxClass, CollisionBox, Shape};

/// Which parts of the overlay to draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Overlay {
    /// The sprite's origin (0, 0) as a cross.
    pub origin: bool,
    /// Collision boxes, filled translucent and outlined in their class colour.
    pub boxes: bool,
    /// Attachment points as crosses with a line along their angle.
    pub points: bool,
}

impl Overlay {
    /// No overlay.
    pub const NONE: Overlay = Overlay {
        origin: false,
        boxes: false,
        points: false,
    };
    /// Everything.
    pub const ALL: Overlay = Overlay {
        origin: true,
        boxes: true,
        points: true,
    };

    /// True when nothing is drawn.
    pub fn is_none(&self) -> bool {
        *self == Overlay::NONE
    }
}

/// Hit (attack, Clsn1) boxes: red.
pub const HIT_COLOUR: [u8; 3] = [255, 48, 48];
/// Hurt (body, Clsn2) boxes: blue.
pub const HURT_COLOUR: [u8; 3] = [64, 112, 255];
/// Custom box classes take a colour from this palette, picked by a hash of the class name so a
/// class keeps its colour across frames, files and runs.
pub const CUSTOM_PALETTE: [[u8; 3]; 8] = [
    [48, 200, 80],
    [240, 220, 40],
    [220, 80, 220],
    [40, 210, 220],
    [150, 100, 255],
    [255, 140, 170],
    [160, 220, 60],
    [200, 160, 100],
];
/// Attachment points: orange.
pub const POINT_COLOUR: [u8; 3] = [255, 160, 0];
/// The origin cross: white on a dark halo, visible on any background.
pub const ORIGIN_COLOUR: [u8; 3] = [255, 255, 255];
/// Alpha of a box's fill; its outline is opaque.
pub const BOX_FILL_ALPHA: u8 = 56;
/// Alpha of the fill of a box in force by default (an AIR `ClsnNDefault` box), fainter so the
/// frame's own boxes stand out; its outline is dashed ([`DEFAULT_BOX_DASH`]).
pub const DEFAULT_BOX_FILL_ALPHA: u8 = 20;
/// The dash and gap along a default box's outline: screen points in the editor, canvas
/// pixels in the renderer.
pub const DEFAULT_BOX_DASH: (f32, f32) = (6.0, 4.0);

/// Arm length of the origin cross, in canvas pixels.
const ORIGIN_ARM: i64 = 6;
/// Arm length of an attachment point's cross, in canvas pixels.
const POINT_ARM: f64 = 3.0;
/// Length of the line showing an attachment point's angle, in canvas pixels.
const POINT_RAY: f64 = 10.0;

/// The colour a box class is drawn in.
pub fn class_colour(class: &BoxClass) -> [u8; 3] {
    match class {
        BoxClass::Hit => HIT_COLOUR,
        BoxClass::Hurt => HURT_COLOUR,
        BoxClass::Custom(name) => CUSTOM_PALETTE[(fnv1a(name.as_bytes()) % 8) as usize],
    }
}

/// FNV-1a: a fixed, platform-independent hash (std's hasher is randomised per run).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The sprite-space area the overlay of these boxes and points covers, plus the origin pixel.
pub fn overlay_bounds(
    overlay: Overlay,
    boxes: &[CollisionBox],
    points: &[&AttachmentPoint],
) -> Option<SpriteRect> {
    let mut bounds = None;
    if overlay.origin {
        bounds = SpriteRect::covering(0.0, 0.0, 1.0, 1.0);
    }
    if overlay.boxes {
        for b in boxes {
            bounds = SpriteRect::union_opt(bounds, box_bounds(&b.shape));
        }
    }
    if overlay.points {
        for p in points {
            let (x, y) = (p.position.x.to_f64().floor(), p.position.y.to_f64().floor());
            bounds = SpriteRect::union_opt(bounds, SpriteRect::covering(x, y, x + 1.0, y + 1.0));
        }
    }
    bounds
}

fn box_bounds(shape: &Shape) -> Option<SpriteRect> {
    match shape {
        Shape::Rect { .. } => {
            let corners = rect_corners(shape, 1.0)?;
            let xs = corners.map(|c| c.0);
            let ys = corners.map(|c| c.1);
            SpriteRect::covering(
                xs.into_iter().fold(f64::INFINITY, f64::min),
                ys.into_iter().fold(f64::INFINITY, f64::min),
                xs.into_iter().fold(f64::NEG_INFINITY, f64::max),
                ys.into_iter().fold(f64::NEG_INFINITY, f64::max),
            )
        }
        Shape::Circle { center, radius } => {
            let (x, y, r) = (center.x.to_f64(), center.y.to_f64(), radius.to_f64().abs());
            SpriteRect::covering(x - r, y - r, x + r, y + r)
        }
    }
}

/// The corners of a rectangle shape (rotated clockwise about its (x, y), in exact steps for
/// right angles), in units where one sprite pixel is `scale`; each side is at least one unit so
/// an empty box still shows as a line. The renderer and the editor both draw and hit-test with
/// these corners.
pub fn rect_corners(shape: &Shape, scale: f64) -> Option<[(f64, f64); 4]> {
    let Shape::Rect {
        x,
        y,
        width,
        height,
        rotation,
    } = shape
    else {
        return None;
    };
    let (w, h) = (
        (width.to_f64().abs() * scale).max(1.0),
        (height.to_f64().abs() * scale).max(1.0),
    );
    let (sin, cos) = exact_sin_cos(*rotation);
    let (x0, y0) = (x.to_f64() * scale, y.to_f64() * scale);
    let at = |u: f64, v: f64| (x0 + u * cos - v * sin, y0 + u * sin + v * cos);
    Some([at(0.0, 0.0), at(w, 0.0), at(w, h), at(0.0, h)])
}

/// Draws the overlay onto `canvas`; `defaults[i]` says box `i` is in force by default (an
/// AIR `ClsnNDefault` box: a fainter fill and a dashed outline, as the editor draws it).
pub fn draw_overlay(
    canvas: &mut Canvas,
    view: &View,
    overlay: Overlay,
    boxes: &[CollisionBox],
    defaults: &[bool],
    points: &[&AttachmentPoint],
) {
    if overlay.boxes {
        for (i, b) in boxes.iter().enumerate() {
            draw_box(canvas, view, b, defaults.get(i).copied().unwrap_or(false));
        }
    }
    if overlay.points {
        for p in points {
            draw_point(canvas, view, p);
        }
    }
    if overlay.origin {
        draw_origin(canvas, view);
    }
}

fn draw_box(canvas: &mut Canvas, view: &View, collision: &CollisionBox, is_default: bool) {
    let [r, g, b] = class_colour(&collision.class);
    let alpha = if is_default {
        DEFAULT_BOX_FILL_ALPHA
    } else {
        BOX_FILL_ALPHA
    };
    let fill = premultiply([r, g, b, alpha], FULL);
    let stroke = premultiply([r, g, b, 255], FULL);
    let k = view.scale as f64;
    let (ox, oy) = view.to_canvas((0.0, 0.0));
    match &collision.shape {
        shape @ Shape::Rect { .. } => {
            let Some(corners) = rect_corners(shape, k) else {
                return;
            };
            let corners = corners.map(|(x, y)| (x + ox, y + oy));
            draw_convex(canvas, &corners, fill, stroke, is_default);
        }
        Shape::Circle { center, radius } => {
            let (cx, cy) = view.to_canvas((center.x.to_f64(), center.y.to_f64()));
            let r = (radius.to_f64().abs() * k).max(0.5);
            let distance = |x: f64, y: f64| ((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r;
            // Distance travelled along the circle from its rightmost point.
            let along =
                |x: f64, y: f64| (y - cy).atan2(x - cx).rem_euclid(std::f64::consts::TAU) * r;
            shade(
                canvas,
                (cx - r, cy - r, cx + r, cy + r),
                distance,
                fill,
                stroke,
                is_default.then_some(&along as &dyn Fn(f64, f64) -> f64),
            );
        }
    }
}

/// True where a dashed outline is drawn, `along` pixels from where it starts.
fn on_dash(along: f64) -> bool {
    let (dash, gap) = DEFAULT_BOX_DASH;
    along.rem_euclid(f64::from(dash + gap)) < f64::from(dash)
}

/// Fills a convex polygon (corners in order, either winding) and outlines it inside its edge.
fn draw_convex(
    canvas: &mut Canvas,
    corners: &[(f64, f64); 4],
    fill: [u32; 4],
    stroke: [u32; 4],
    dashed: bool,
) {
    let area: f64 = (0..4)
        .map(|i| {
            let (a, b) = (corners[i], corners[(i + 1) % 4]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    let winding = if area < 0.0 { -1.0 } else { 1.0 };
    // Signed distance to the polygon: the largest distance outside any edge's line.
    let distance = |x: f64, y: f64| {
        (0..4)
            .map(|i| {
                let (a, b) = (corners[i], corners[(i + 1) % 4]);
                let (ex, ey) = (b.0 - a.0, b.1 - a.1);
                let length = (ex * ex + ey * ey).sqrt().max(f64::MIN_POSITIVE);
                winding * (ex * (y - a.1) - ey * (x - a.0)) / -length
            })
            .fold(f64::NEG_INFINITY, f64::max)
    };
    // Distance travelled along the outline from the first corner, to the point's place on
    // the edge nearest to it.
    let lengths: Vec<f64> = (0..4)
        .map(|i| {
            let (a, b) = (corners[i], corners[(i + 1) % 4]);
            ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt()
        })
        .collect();
    let along = |x: f64, y: f64| {
        let mut best = (f64::INFINITY, 0.0);
        let mut start = 0.0;
        for i in 0..4 {
            let (a, b) = (corners[i], corners[(i + 1) % 4]);
            let length = lengths[i].max(f64::MIN_POSITIVE);
            let (ux, uy) = ((b.0 - a.0) / length, (b.1 - a.1) / length);
            let t = ((x - a.0) * ux + (y - a.1) * uy).clamp(0.0, length);
            let (px, py) = (a.0 + ux * t, a.1 + uy * t);
            let gap = (x - px).powi(2) + (y - py).powi(2);
            if gap < best.0 {
                best = (gap, start + t);
            }
            start += lengths[i];
        }
        best.1
    };
    let xs = corners.map(|c| c.0);
    let ys = corners.map(|c| c.1);
    let min = |v: [f64; 4]| v.into_iter().fold(f64::INFINITY, f64::min);
    let max = |v: [f64; 4]| v.into_iter().fold(f64::NEG_INFINITY, f64::max);
    shade(
        canvas,
        (min(xs), min(ys), max(xs), max(ys)),
        distance,
        fill,
        stroke,
        dashed.then_some(&along as &dyn Fn(f64, f64) -> f64),
    );
}

/// Paints every canvas pixel in `bbox` by the signed distance of its centre to a shape's edge
/// (negative inside): the band `(-1, 0]` is the outline, deeper pixels are the fill. With
/// `dashed` (the distance travelled along the outline at a point), the outline is dashed.
fn shade(
    canvas: &mut Canvas,
    (x0, y0, x1, y1): (f64, f64, f64, f64),
    distance: impl Fn(f64, f64) -> f64,
    fill: [u32; 4],
    stroke: [u32; 4],
    dashed: Option<&dyn Fn(f64, f64) -> f64>,
) {
    if ![x0, y0, x1, y1].iter().all(|v| v.is_finite()) {
        return;
    }
    let clip = |v: f64, max: u32| v.clamp(0.0, max as f64) as i64;
    let (i0, i1) = (
        clip(x0.floor(), canvas.width()),
        clip(x1.ceil(), canvas.width()),
    );
    let (j0, j1) = (
        clip(y0.floor(), canvas.height()),
        clip(y1.ceil(), canvas.height()),
    );
    for j in j0..j1 {
        for i in i0..i1 {
            let d = distance(i as f64 + 0.5, j as f64 + 0.5);
            if d <= -1.0 {
                canvas.blend(i, j, fill, BlendMode::Normal);
            } else if d <= 0.0 {
                let (x, y) = (i as f64 + 0.5, j as f64 + 0.5);
                if dashed.is_none_or(|along| on_dash(along(x, y))) {
                    canvas.blend(i, j, stroke, BlendMode::Normal);
                } else {
                    // The gaps of a dashed outline show the fill beneath.
                    canvas.blend(i, j, fill, BlendMode::Normal);
                }
            }
        }
    }
}

fn draw_point(canvas: &mut Canvas, view: &View, point: &AttachmentPoint) {
    let [r, g, b] = POINT_COLOUR;
    let colour = premultiply([r, g, b, 255], FULL);
    let (x, y) = view.to_canvas((point.position.x.to_f64(), point.position.y.to_f64()));
    // The centre of the pixel holding the point, so the cross is symmetric on the pixel grid.
    let (cx, cy) = (x.floor() + 0.5, y.floor() + 0.5);
    draw_line(
        canvas,
        (cx - POINT_ARM, cy - POINT_ARM),
        (cx + POINT_ARM, cy + POINT_ARM),
        colour,
    );
    draw_line(
        canvas,
        (cx - POINT_ARM, cy + POINT_ARM),
        (cx + POINT_ARM, cy - POINT_ARM),
        colour,
    );
    let (sin, cos) = exact_sin_cos(point.rotation);
    let end = (cx + cos * POINT_RAY, cy + sin * POINT_RAY);
    draw_line(canvas, (cx, cy), end, colour);
}

fn draw_origin(canvas: &mut Canvas, view: &View) {
    let (x, y) = view.to_canvas((0.0, 0.0));
    let (cx, cy) = (x.floor() as i64, y.floor() as i64);
    let halo = premultiply([0, 0, 0, 160], FULL);
    let [r, g, b] = ORIGIN_COLOUR;
    let line = premultiply([r, g, b, 255], FULL);
    let arm = -ORIGIN_ARM..=ORIGIN_ARM;
    let on_cross = |i: i64, j: i64| (j == 0 && arm.contains(&i)) || (i == 0 && arm.contains(&j));
    for j in -ORIGIN_ARM - 1..=ORIGIN_ARM + 1 {
        for i in -ORIGIN_ARM - 1..=ORIGIN_ARM + 1 {
            if on_cross(i, j) {
                canvas.blend(cx + i, cy + j, line, BlendMode::Normal);
            } else if on_cross(i - 1, j)
                || on_cross(i + 1, j)
                || on_cross(i, j - 1)
                || on_cross(i, j + 1)
            {
                canvas.blend(cx + i, cy + j, halo, BlendMode::Normal);
            }
        }
    }
}

/// A one-pixel line from `a` to `b` in canvas coordinates; each pixel is painted once.
fn draw_line(canvas: &mut Canvas, a: (f64, f64), b: (f64, f64), colour: [u32; 4]) {
    let steps = ((b.0 - a.0).abs().max((b.1 - a.1).abs()) * 2.0).ceil();
    if !steps.is_finite() {
        return;
    }
    let steps = steps.clamp(1.0, 1.0e5) as i64;
    let mut last = None;
    for s in 0..=steps {
        let t = s as f64 / steps as f64;
        let x = a.0 + (b.0 - a.0) * t;
        let y = a.1 + (b.1 - a.1) * t;
        let pixel = (x.floor() as i64, y.floor() as i64);
        if last != Some(pixel) {
            canvas.blend(pixel.0, pixel.1, colour, BlendMode::Normal);
            last = Some(pixel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_classes_keep_their_colour_and_differ_from_hit_and_hurt() {
        let a = class_colour(&BoxClass::Custom("shield".into()));
        assert_eq!(a, class_colour(&BoxClass::Custom("shield".into())));
        for name in ["shield", "push", "weapon", "x"] {
            let c = class_colour(&BoxClass::Custom(name.into()));
            assert_ne!(c, HIT_COLOUR);
            assert_ne!(c, HURT_COLOUR);
        }
    }

    #[test]
    fn fnv1a_matches_the_published_test_vector() {
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
