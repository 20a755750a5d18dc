//! The canvas's mapping between sprite space (pixels, y down, origin at the sprite's origin)
//! and the screen, with zoom and pan.

use egui::{Pos2, Rect, Vec2, pos2, vec2};

/// The smallest zoom (10%).
pub const MIN_ZOOM: f32 = 0.1;
/// The largest zoom (6400%).
pub const MAX_ZOOM: f32 = 64.0;
/// The zoom steps Ctrl+= and Ctrl+- go through.
pub const ZOOM_STEPS: [f32; 17] = [
    0.1, 0.125, 0.25, 0.5, 0.75, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0,
];

/// Where the sprite is on the canvas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// The canvas rectangle on screen (points).
    pub canvas: Rect,
    /// Image pixels to screen points: zoom divided by the display's pixels per point, so 100%
    /// shows one image pixel per physical pixel.
    pub scale: f32,
    /// The sprite origin's offset from the canvas centre, in points.
    pub pan: Vec2,
    /// Facing left: sprite x grows to the left, as engines draw a character turned round
    /// (everything drawn, and every pointer position read, goes through here).
    pub mirrored: bool,
    /// The sprite-space x the picture turns about when facing left: the frame's origin (0)
    /// where the format has one, the middle of the canvas where it has none (Aseprite), so
    /// the sprite stays in view ([`mirror_axis`]).
    pub axis: f64,
}

impl View {
    /// The view for a zoom (1.0 = 100%) on a display with `pixels_per_point`.
    pub fn new(canvas: Rect, zoom: f32, pixels_per_point: f32, pan: Vec2) -> View {
        View {
            canvas,
            scale: zoom / pixels_per_point.max(0.01),
            pan,
            mirrored: false,
            axis: 0.0,
        }
    }

    /// The same view, mirrored about the vertical line through sprite x `axis` when
    /// `facing_left`.
    pub fn facing_left(self, facing_left: bool, axis: f64) -> View {
        View {
            mirrored: facing_left,
            axis: if facing_left { axis } else { 0.0 },
            ..self
        }
    }

    /// Sprite x as it lies across the screen: turned about the axis when facing left.
    fn turned(&self, x: f64) -> f64 {
        if self.mirrored {
            2.0 * self.axis - x
        } else {
            x
        }
    }

    /// A sprite-space direction on screen (`x` turned round when facing left).
    pub fn direction(&self, x: f32, y: f32) -> Vec2 {
        vec2(if self.mirrored { -x } else { x }, y)
    }

    /// Where sprite x 0 would be on screen unturned: the canvas centre moved by the pan.
    fn anchor(&self) -> Pos2 {
        self.canvas.center() + self.pan
    }

    /// The sprite origin on screen.
    pub fn origin(&self) -> Pos2 {
        self.to_screen(0.0, 0.0)
    }

    /// A sprite-space point on screen.
    pub fn to_screen(&self, x: f64, y: f64) -> Pos2 {
        self.anchor() + vec2(self.turned(x) as f32, y as f32) * self.scale
    }

    /// The sprite-space point under a screen position.
    pub fn to_sprite(&self, screen: Pos2) -> (f64, f64) {
        let d = (screen - self.anchor()) / self.scale;
        (self.turned(d.x as f64), d.y as f64)
    }
}

/// The sprite-space x a frame turns about when facing left: its origin (0) where the format
/// has origins, else the middle of `picture` (the frame's picture, as wide as the canvas of a
/// format whose frames are whole canvases). Engines turn a character about its origin; a
/// picture whose origin is its canvas's top-left corner turned about that corner would leave
/// the view.
pub fn mirror_axis(has_origin: bool, picture: Option<(f64, f64)>) -> f64 {
    match picture {
        Some((left, width)) if !has_origin => left + width / 2.0,
        _ => 0.0,
    }
}

/// The zoom after `factor` clamped to the range, and the pan that keeps the sprite point under
/// `anchor` (a screen position) where it is.
pub fn zoom_about(canvas: Rect, zoom: f32, pan: Vec2, factor: f32, anchor: Pos2) -> (f32, Vec2) {
    let new_zoom = (zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
    let ratio = new_zoom / zoom;
    let from_centre = anchor - canvas.center();
    let new_pan = from_centre - (from_centre - pan) * ratio;
    (new_zoom, new_pan)
}

/// The pan that keeps the sprite where it was on screen when a panel below the canvas came,
/// went or was resized (the canvas kept its top edge and width, only its height changed): a
/// warnings panel opening when the background check answers must not move the sprite under
/// the pointer. Any other change of the canvas keeps the sprite about its centre.
pub fn pan_after_resize(old: Rect, new: Rect, pan: Vec2) -> Vec2 {
    let same = |a: f32, b: f32| (a - b).abs() < 0.5;
    if same(old.min.x, new.min.x) && same(old.min.y, new.min.y) && same(old.width(), new.width()) {
        pan + vec2(0.0, (old.height() - new.height()) / 2.0)
    } else {
        pan
    }
}

/// The next zoom step above (`up`) or below the current zoom.
pub fn next_zoom_step(zoom: f32, up: bool) -> f32 {
    if up {
        ZOOM_STEPS
            .iter()
            .copied()
            .find(|z| *z > zoom * 1.001)
            .unwrap_or(MAX_ZOOM)
    } else {
        ZOOM_STEPS
            .iter()
            .rev()
            .copied()
            .find(|z| *z < zoom / 1.001)
            .unwrap_or(MIN_ZOOM)
    }
}

/// The zoom and pan that show `bounds` (sprite space) whole and centred, with a margin.
pub fn fit(canvas: Rect, bounds: Rect, pixels_per_point: f32) -> (f32, Vec2) {
    let size = bounds.size().max(vec2(1.0, 1.0));
    let room = (canvas.size() - vec2(32.0, 32.0)).max(vec2(8.0, 8.0));
    let scale = (room.x / size.x).min(room.y / size.y);
    let zoom = (scale * pixels_per_point).clamp(MIN_ZOOM, MAX_ZOOM);
    let scale = zoom / pixels_per_point;
    let pan = -(bounds.center().to_vec2()) * scale;
    (zoom, pan)
}

/// The bounding rectangle of some sprite-space points, or a small square about the origin.
pub fn bounds_of(points: impl IntoIterator<Item = (f64, f64)>) -> Rect {
    let mut rect = Rect::NOTHING;
    for (x, y) in points {
        rect.extend_with(pos2(x as f32, y as f32));
    }
    if rect.is_positive() {
        rect
    } else if rect.is_finite() {
        Rect::from_center_size(rect.center(), vec2(64.0, 64.0))
    } else {
        Rect::from_center_size(Pos2::ZERO, vec2(64.0, 64.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panel_opening_below_the_canvas_leaves_the_sprite_where_it_was() {
        let old = canvas();
        let new = Rect::from_min_max(old.min, pos2(old.max.x, old.max.y - 110.0));
        let pan = vec2(12.0, -7.0);
        let before = View::new(old, 4.0, 1.0, pan).to_screen(3.0, -20.0);
        let after = View::new(new, 4.0, 1.0, pan_after_resize(old, new, pan)).to_screen(3.0, -20.0);
        assert_eq!(before, after);
        // The tree or inspector resized, or the window: the sprite stays about the centre.
        let narrower = Rect::from_min_max(pos2(old.min.x + 40.0, old.min.y), old.max);
        assert_eq!(pan_after_resize(old, narrower, pan), pan);
    }

    fn canvas() -> Rect {
        Rect::from_min_size(pos2(100.0, 50.0), vec2(400.0, 300.0))
    }

    #[test]
    fn zooming_keeps_the_point_under_the_cursor() {
        let pan = vec2(10.0, -20.0);
        let before = View::new(canvas(), 2.0, 1.0, pan);
        let cursor = pos2(420.0, 120.0);
        let under = before.to_sprite(cursor);
        let (zoom, pan) = zoom_about(canvas(), 2.0, pan, 3.0, cursor);
        let after = View::new(canvas(), zoom, 1.0, pan);
        let moved = after.to_screen(under.0, under.1);
        assert!((moved - cursor).length() < 1e-3, "{moved:?}");
        assert_eq!(zoom, 6.0);
    }

    #[test]
    fn zoom_stays_within_ten_percent_and_6400_percent() {
        let (z, _) = zoom_about(canvas(), 60.0, Vec2::ZERO, 10.0, pos2(0.0, 0.0));
        assert_eq!(z, MAX_ZOOM);
        let (z, _) = zoom_about(canvas(), 0.2, Vec2::ZERO, 0.01, pos2(0.0, 0.0));
        assert_eq!(z, MIN_ZOOM);
        assert_eq!(next_zoom_step(1.0, true), 2.0);
        assert_eq!(next_zoom_step(1.0, false), 0.75);
        assert_eq!(next_zoom_step(64.0, true), 64.0);
    }

    #[test]
    fn fit_centres_the_bounds() {
        let bounds = Rect::from_min_max(pos2(-20.0, -80.0), pos2(20.0, 0.0));
        let (zoom, pan) = fit(canvas(), bounds, 1.0);
        let view = View::new(canvas(), zoom, 1.0, pan);
        let centre = view.to_screen(0.0, -40.0);
        assert!((centre - canvas().center()).length() < 1e-3);
        assert!(view.to_screen(0.0, -80.0).y >= canvas().top());
    }

    #[test]
    fn facing_left_mirrors_about_the_origin_both_ways() {
        let view = View::new(canvas(), 2.0, 1.0, vec2(10.0, 0.0)).facing_left(true, 0.0);
        let origin = view.origin();
        assert_eq!(view.to_screen(5.0, -3.0), origin + vec2(-10.0, -6.0));
        assert_eq!(view.to_sprite(origin + vec2(-10.0, -6.0)), (5.0, -3.0));
        assert_eq!(view.direction(1.0, 1.0), vec2(-1.0, 1.0));
    }

    #[test]
    fn facing_left_about_the_middle_of_a_canvas_keeps_the_picture_where_it_was() {
        // A 64-pixel-wide canvas whose origin is its top-left corner.
        let axis = mirror_axis(false, Some((0.0, 64.0)));
        assert_eq!(axis, 32.0);
        let right = View::new(canvas(), 2.0, 1.0, vec2(-64.0, 0.0));
        let left = right.facing_left(true, axis);
        // The picture's edges swap places on screen; its middle stays put.
        assert_eq!(left.to_screen(0.0, 5.0), right.to_screen(64.0, 5.0));
        assert_eq!(left.to_screen(64.0, 5.0), right.to_screen(0.0, 5.0));
        assert_eq!(left.to_screen(32.0, 5.0), right.to_screen(32.0, 5.0));
        assert_eq!(left.to_sprite(right.to_screen(10.0, 5.0)), (54.0, 5.0));
        // Where the format has an origin, the frame turns about it.
        assert_eq!(mirror_axis(true, Some((0.0, 64.0))), 0.0);
    }

    #[test]
    fn empty_bounds_become_a_square_about_the_origin() {
        let b = bounds_of(std::iter::empty());
        assert_eq!(b.center(), pos2(0.0, 0.0));
        assert_eq!(b.size(), vec2(64.0, 64.0));
    }
}
