//! Mirror: boxes and points flipped about the sprite's origin.

use crate::model::{AttachmentPoint, Fx, Point, Shape};
use crate::render::geometry::exact_sin_cos;

/// Which way to flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MirrorAxis {
    /// Left-right, about the vertical line through the origin (x becomes -x).
    Horizontal,
    /// Top-bottom, about the horizontal line through the origin (y becomes -y).
    Vertical,
}

impl MirrorAxis {
    /// A name for menus.
    pub fn label(self) -> &'static str {
        match self {
            MirrorAxis::Horizontal => "horizontally",
            MirrorAxis::Vertical => "vertically",
        }
    }
}

/// `shape` flipped about the origin. A rotated rectangle stays a rectangle turned the other way,
/// anchored at the corner that lands top-left.
pub fn mirror_shape(shape: &Shape, axis: MirrorAxis) -> Shape {
    match shape {
        Shape::Rect {
            x,
            y,
            width,
            height,
            rotation,
        } => {
            let (sin, cos) = exact_sin_cos(*rotation);
            let (w, h) = (width.to_f64(), height.to_f64());
            // The corner that becomes the new top-left: the old top-right (left-right flip) or
            // bottom-left (top-bottom flip), with the rotation reversed.
            let (nx, ny) = match axis {
                MirrorAxis::Horizontal if *rotation == 0.0 => {
                    return upright(-(*x + *width), *y, shape);
                }
                MirrorAxis::Vertical if *rotation == 0.0 => {
                    return upright(*x, -(*y + *height), shape);
                }
                MirrorAxis::Horizontal => (-(x.to_f64() + w * cos), y.to_f64() + w * sin),
                MirrorAxis::Vertical => (x.to_f64() - h * sin, -(y.to_f64() + h * cos)),
            };
            Shape::Rect {
                x: Fx::from_f64(nx),
                y: Fx::from_f64(ny),
                width: *width,
                height: *height,
                rotation: -rotation,
            }
        }
        Shape::Circle { center, radius } => Shape::Circle {
            center: mirror_position(*center, axis),
            radius: *radius,
        },
    }
}

fn upright(x: Fx, y: Fx, original: &Shape) -> Shape {
    match original {
        Shape::Rect { width, height, .. } => Shape::Rect {
            x,
            y,
            width: *width,
            height: *height,
            rotation: 0.0,
        },
        other => other.clone(),
    }
}

fn mirror_position(p: Point, axis: MirrorAxis) -> Point {
    match axis {
        MirrorAxis::Horizontal => Point { x: -p.x, y: p.y },
        MirrorAxis::Vertical => Point { x: p.x, y: -p.y },
    }
}

/// `point` flipped about the origin: its position mirrored, its angle reversed and what hangs
/// on it flipped the same way.
pub fn mirror_point(point: &AttachmentPoint, axis: MirrorAxis) -> AttachmentPoint {
    AttachmentPoint {
        position: mirror_position(point.position, axis),
        rotation: -point.rotation,
        flip_h: point.flip_h ^ (axis == MirrorAxis::Horizontal),
        flip_v: point.flip_v ^ (axis == MirrorAxis::Vertical),
        ..point.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boxes::mask::shape_contains;
    use crate::boxes::test_shapes::turned_rect;

    #[test]
    fn an_upright_box_flips_about_the_origin() {
        let b = turned_rect(-13, -79, 29, 79, 0.0);
        assert_eq!(
            mirror_shape(&b, MirrorAxis::Horizontal),
            turned_rect(-16, -79, 29, 79, 0.0)
        );
        assert_eq!(
            mirror_shape(&b, MirrorAxis::Vertical),
            turned_rect(-13, 0, 29, 79, 0.0)
        );
        assert_eq!(
            mirror_shape(
                &mirror_shape(&b, MirrorAxis::Horizontal),
                MirrorAxis::Horizontal
            ),
            b
        );
    }

    #[test]
    fn a_rotated_box_covers_the_mirrored_points() {
        let b = turned_rect(3, 4, 20, 10, 30.0);
        for axis in [MirrorAxis::Horizontal, MirrorAxis::Vertical] {
            let m = mirror_shape(&b, axis);
            for (px, py) in [
                (10.0, 12.0),
                (5.0, 7.0),
                (18.0, 16.0),
                (0.0, 0.0),
                (25.0, 0.0),
            ] {
                let (qx, qy) = match axis {
                    MirrorAxis::Horizontal => (-px, py),
                    MirrorAxis::Vertical => (px, -py),
                };
                assert_eq!(
                    shape_contains(&b, px, py),
                    shape_contains(&m, qx, qy),
                    "{axis:?} {px},{py}"
                );
            }
        }
    }

    #[test]
    fn a_point_flips_its_position_and_what_hangs_on_it() {
        let p = AttachmentPoint::at(Point::from_ints(5, -7));
        let m = mirror_point(&p, MirrorAxis::Horizontal);
        assert_eq!(m.position, Point::from_ints(-5, -7));
        assert!(m.flip_h && !m.flip_v);
    }
}
