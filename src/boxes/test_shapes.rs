//! Boxes the tests build from whole pixels.

use crate::model::{BoxClass, CollisionBox, Fx, Point, Shape};

/// A box with its top-left corner at (`x`, `y`), `width` × `height` pixels, turned clockwise
/// by `rotation` degrees about that corner.
pub fn turned_rect(x: i32, y: i32, width: i32, height: i32, rotation: f64) -> Shape {
    Shape::Rect {
        x: Fx::from_int(x),
        y: Fx::from_int(y),
        width: Fx::from_int(width),
        height: Fx::from_int(height),
        rotation,
    }
}

/// An upright box with its top-left corner at (`x`, `y`), `width` × `height` pixels.
pub fn rect(x: i32, y: i32, width: i32, height: i32) -> Shape {
    turned_rect(x, y, width, height, 0.0)
}

/// A hurt box between the corners `a` and `b`, given in any order.
pub fn hurt_box(a: (i32, i32), b: (i32, i32)) -> CollisionBox {
    CollisionBox::rect_from_corners(
        BoxClass::Hurt,
        Point::from_ints(a.0, a.1),
        Point::from_ints(b.0, b.1),
    )
}
