//! Rectangles in sprite space and where a graphic's source pixels land.

use crate::model::{Graphic, Origin};

/// A rectangle of whole sprite pixels: `[x, x + width) × [y, y + height)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpriteRect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width in sprite pixels.
    pub width: u32,
    /// Height in sprite pixels.
    pub height: u32,
}

impl SpriteRect {
    /// The smallest whole-pixel rectangle holding the real box `[x0, x1] × [y0, y1]`
    /// (coordinates are clamped to the `i32` range; non-finite ones give `None`).
    pub fn covering(x0: f64, y0: f64, x1: f64, y1: f64) -> Option<SpriteRect> {
        if ![x0, y0, x1, y1].iter().all(|v| v.is_finite()) {
            return None;
        }
        let clamp = |v: f64| v.clamp(i32::MIN as f64, i32::MAX as f64) as i64;
        let (left, top) = (clamp(x0.min(x1).floor()), clamp(y0.min(y1).floor()));
        let (right, bottom) = (clamp(x0.max(x1).ceil()), clamp(y0.max(y1).ceil()));
        Some(SpriteRect::from_edges(left, top, right, bottom))
    }

    /// The rectangle from its edges, widths clamped to `u32`.
    fn from_edges(left: i64, top: i64, right: i64, bottom: i64) -> SpriteRect {
        SpriteRect {
            x: left as i32,
            y: top as i32,
            width: (right - left).clamp(0, u32::MAX as i64) as u32,
            height: (bottom - top).clamp(0, u32::MAX as i64) as u32,
        }
    }

    /// Right edge (exclusive), widened so it cannot overflow.
    pub fn right(&self) -> i64 {
        self.x as i64 + self.width as i64
    }

    /// Bottom edge (exclusive), widened so it cannot overflow.
    pub fn bottom(&self) -> i64 {
        self.y as i64 + self.height as i64
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &SpriteRect) -> SpriteRect {
        let left = (self.x as i64).min(other.x as i64);
        let top = (self.y as i64).min(other.y as i64);
        SpriteRect::from_edges(
            left,
            top,
            self.right().max(other.right()),
            self.bottom().max(other.bottom()),
        )
    }

    /// The union of two optional rectangles.
    pub fn union_opt(a: Option<SpriteRect>, b: Option<SpriteRect>) -> Option<SpriteRect> {
        match (a, b) {
            (Some(a), Some(b)) => Some(a.union(&b)),
            (a, b) => a.or(b),
        }
    }

    /// The rectangle grown by `margin` pixels on every side.
    pub fn grown(&self, margin: u32) -> SpriteRect {
        let m = margin as i64;
        SpriteRect::from_edges(
            (self.x as i64 - m).max(i32::MIN as i64),
            (self.y as i64 - m).max(i32::MIN as i64),
            self.right() + m,
            self.bottom() + m,
        )
    }
}

/// Scale factors beyond this are treated as this (a larger one could only overflow).
const MAX_ELEMENT_SCALE: f64 = 1.0e6;

/// The affine map from a graphic's source pixels to sprite space:
/// `sprite = position + M · (source − origin)`, where `M` mirrors, then scales, then rotates
/// clockwise (y points down, so the usual rotation matrix turns clockwise on screen).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// `M` as `[a, b, c, d]`: `dx = a·sx + b·sy`, `dy = c·sx + d·sy`.
    pub matrix: [f64; 4],
    /// The pivot, in source pixels.
    pub origin: (f64, f64),
    /// Where the pivot lands, in sprite pixels.
    pub position: (f64, f64),
}

impl Placement {
    /// The placement of `graphic` whose source has the axis `axis`; `None` when the graphic
    /// cannot be drawn (a non-finite scale).
    pub fn of(graphic: &Graphic, axis: (i32, i32)) -> Option<Placement> {
        if !graphic.scale_x.is_finite() || !graphic.scale_y.is_finite() {
            return None;
        }
        let sign = |flip: bool| if flip { -1.0 } else { 1.0 };
        let sx =
            graphic.scale_x.clamp(-MAX_ELEMENT_SCALE, MAX_ELEMENT_SCALE) * sign(graphic.flip_h);
        let sy =
            graphic.scale_y.clamp(-MAX_ELEMENT_SCALE, MAX_ELEMENT_SCALE) * sign(graphic.flip_v);
        let (sin, cos) = exact_sin_cos(graphic.rotation);
        let origin = match graphic.origin {
            Origin::At(p) => (p.x.to_f64(), p.y.to_f64()),
            Origin::SourceAxis => (axis.0 as f64, axis.1 as f64),
        };
        Some(Placement {
            matrix: [cos * sx, -sin * sy, sin * sx, cos * sy],
            origin,
            position: (graphic.position.x.to_f64(), graphic.position.y.to_f64()),
        })
    }

    /// Where the source point `(u, v)` lands in sprite space.
    pub fn to_sprite(&self, (u, v): (f64, f64)) -> (f64, f64) {
        let [a, b, c, d] = self.matrix;
        let (du, dv) = (u - self.origin.0, v - self.origin.1);
        (
            self.position.0 + a * du + b * dv,
            self.position.1 + c * du + d * dv,
        )
    }

    /// The source point under the sprite point `(x, y)`, as a reusable map; `None` when the
    /// graphic is squashed to nothing (a zero scale).
    pub fn inverse(&self) -> Option<InverseMap> {
        let [a, b, c, d] = self.matrix;
        let det = a * d - b * c;
        if det == 0.0 || !det.is_finite() {
            return None;
        }
        let inv = [d / det, -b / det, -c / det, a / det];
        inv.iter().all(|v| v.is_finite()).then_some(InverseMap {
            matrix: inv,
            origin: self.origin,
            position: self.position,
        })
    }

    /// The sprite-space bounding box of a `width × height` source.
    pub fn bounds(&self, width: u32, height: u32) -> Option<SpriteRect> {
        let (w, h) = (width as f64, height as f64);
        let corners = [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)].map(|p| self.to_sprite(p));
        let xs = corners.map(|p| p.0);
        let ys = corners.map(|p| p.1);
        let min = |v: [f64; 4]| v.into_iter().fold(f64::INFINITY, f64::min);
        let max = |v: [f64; 4]| v.into_iter().fold(f64::NEG_INFINITY, f64::max);
        SpriteRect::covering(min(xs), min(ys), max(xs), max(ys))
    }
}

/// Sprite space back to source pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InverseMap {
    matrix: [f64; 4],
    origin: (f64, f64),
    position: (f64, f64),
}

impl InverseMap {
    /// The linear part `[a, b, c, d]`: `du = a·dx + b·dy`, `dv = c·dx + d·dy`.
    pub fn matrix(&self) -> [f64; 4] {
        self.matrix
    }

    /// The source point under the sprite point `(x, y)`.
    pub fn to_source(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let [a, b, c, d] = self.matrix;
        let (dx, dy) = (x - self.position.0, y - self.position.1);
        (
            self.origin.0 + a * dx + b * dy,
            self.origin.1 + c * dx + d * dy,
        )
    }
}

/// `(sin, cos)` of a clockwise angle in degrees, exact for multiples of 90° so quarter turns
/// of pixel art stay pixel-exact. A non-finite angle counts as 0.
pub fn exact_sin_cos(degrees: f64) -> (f64, f64) {
    if !degrees.is_finite() {
        return (0.0, 1.0);
    }
    let turn = degrees.rem_euclid(360.0);
    match turn {
        0.0 => (0.0, 1.0),
        90.0 => (1.0, 0.0),
        180.0 => (0.0, -1.0),
        270.0 => (-1.0, 0.0),
        _ => turn.to_radians().sin_cos(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GraphicSource, ImageId, Point};

    fn graphic() -> Graphic {
        Graphic::new(
            GraphicSource::Image(ImageId(1)),
            Point::from_ints(10, 20),
            Origin::At(Point::from_ints(2, 3)),
        )
    }

    #[test]
    fn the_origin_lands_on_the_position() {
        let mut g = graphic();
        g.rotation = 33.0;
        g.scale_x = 2.5;
        g.flip_v = true;
        let p = Placement::of(&g, (0, 0)).unwrap();
        assert_eq!(p.to_sprite((2.0, 3.0)), (10.0, 20.0));
    }

    #[test]
    fn a_quarter_turn_clockwise_sends_right_to_down_exactly() {
        let mut g = graphic();
        g.rotation = 90.0;
        let p = Placement::of(&g, (0, 0)).unwrap();
        assert_eq!(p.to_sprite((3.0, 3.0)), (10.0, 21.0));
        g.rotation = -270.0;
        assert_eq!(
            Placement::of(&g, (0, 0)).unwrap().to_sprite((3.0, 3.0)),
            (10.0, 21.0)
        );
    }

    #[test]
    fn inverse_undoes_the_placement() {
        let mut g = graphic();
        g.rotation = 17.0;
        g.scale_x = 0.5;
        g.scale_y = 3.0;
        g.flip_h = true;
        let p = Placement::of(&g, (0, 0)).unwrap();
        let back = p.inverse().unwrap().to_source(p.to_sprite((5.0, -1.0)));
        assert!((back.0 - 5.0).abs() < 1e-9 && (back.1 + 1.0).abs() < 1e-9);
    }

    #[test]
    fn zero_and_non_finite_scales_draw_nothing() {
        let mut g = graphic();
        g.scale_x = 0.0;
        assert!(Placement::of(&g, (0, 0)).unwrap().inverse().is_none());
        g.scale_x = f64::NAN;
        assert!(Placement::of(&g, (0, 0)).is_none());
    }

    #[test]
    fn covering_rounds_outwards_and_rejects_nan() {
        let r = SpriteRect::covering(-0.5, 1.0, 2.25, 3.0).unwrap();
        assert_eq!(
            r,
            SpriteRect {
                x: -1,
                y: 1,
                width: 4,
                height: 2
            }
        );
        assert!(SpriteRect::covering(f64::NAN, 0.0, 1.0, 1.0).is_none());
    }
}
