//! The geometry of canvas edits, without egui: snapping to what the format can store, box
//! handles, and the shapes a move, resize or rotation drag gives.
//!
//! Everything here is in sprite space (pixels, y down, origin at the sprite's origin).

use crate::model::{Fx, Point, Shape};

/// How finely a format stores positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Snap {
    /// Whole pixels (AIR, Solarus, ADL).
    WholePixels,
    /// 1/256 px (ISPRITE, Sprat).
    Subpixel,
}

impl Snap {
    /// The stored value nearest to `v`.
    pub fn fx(self, v: f64) -> Fx {
        match self {
            Snap::WholePixels => Fx::from_int(v.round().clamp(-8_000_000.0, 8_000_000.0) as i32),
            Snap::Subpixel => Fx::from_f64(v.clamp(-8_000_000.0, 8_000_000.0)),
        }
    }

    /// The stored point nearest to `(x, y)`.
    pub fn point(self, (x, y): (f64, f64)) -> Point {
        Point {
            x: self.fx(x),
            y: self.fx(y),
        }
    }
}

/// Which side of a rectangle an edge handle moves along one axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The left or top edge.
    Start,
    /// The axis is not changed by this handle.
    Keep,
    /// The right or bottom edge.
    End,
}

/// A handle on a selected box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoxHandle {
    /// A corner or edge of a rectangle: which edges it moves (in the box's own, unrotated axes).
    Edge {
        /// Left (`Start`) or right (`End`) edge.
        x: Side,
        /// Top (`Start`) or bottom (`End`) edge.
        y: Side,
    },
    /// A point on a circle: drags the radius.
    Radius,
    /// The knob above a rectangle that turns it about its centre.
    Rotate,
}

/// The eight resize handles of a rectangle, corners first.
pub const EDGE_HANDLES: [(Side, Side); 8] = [
    (Side::Start, Side::Start),
    (Side::End, Side::Start),
    (Side::End, Side::End),
    (Side::Start, Side::End),
    (Side::Keep, Side::Start),
    (Side::End, Side::Keep),
    (Side::Keep, Side::End),
    (Side::Start, Side::Keep),
];

/// The rectangle's fields as floats: x, y, width, height, rotation in degrees.
fn rect_parts(shape: &Shape) -> Option<(f64, f64, f64, f64, f64)> {
    match shape {
        Shape::Rect {
            x,
            y,
            width,
            height,
            rotation,
        } => Some((
            x.to_f64(),
            y.to_f64(),
            width.to_f64(),
            height.to_f64(),
            *rotation,
        )),
        Shape::Circle { .. } => None,
    }
}

/// A vector turned clockwise (on screen, y down) by `degrees`.
fn turn((x, y): (f64, f64), degrees: f64) -> (f64, f64) {
    let (sin, cos) = degrees.to_radians().sin_cos();
    (x * cos - y * sin, x * sin + y * cos)
}

fn fraction(side: Side) -> f64 {
    match side {
        Side::Start => 0.0,
        Side::Keep => 0.5,
        Side::End => 1.0,
    }
}

/// Where each handle of a box is, in sprite space. `rotate_reach` is how far above the top
/// edge the rotation knob sits (in sprite pixels, so it stays the same size on screen); it is
/// left out when `rotatable` is false.
pub fn handles(shape: &Shape, rotatable: bool, rotate_reach: f64) -> Vec<(BoxHandle, (f64, f64))> {
    match shape {
        Shape::Circle { center, radius } => {
            let (cx, cy, r) = (center.x.to_f64(), center.y.to_f64(), radius.to_f64());
            [(r, 0.0), (0.0, r), (-r, 0.0), (0.0, -r)]
                .into_iter()
                .map(|(dx, dy)| (BoxHandle::Radius, (cx + dx, cy + dy)))
                .collect()
        }
        Shape::Rect { .. } => {
            let (x, y, w, h, rotation) = rect_parts(shape).expect("a rectangle");
            let at = |lx: f64, ly: f64| {
                let (dx, dy) = turn((lx, ly), rotation);
                (x + dx, y + dy)
            };
            let mut out: Vec<(BoxHandle, (f64, f64))> = EDGE_HANDLES
                .iter()
                .map(|&(sx, sy)| {
                    (
                        BoxHandle::Edge { x: sx, y: sy },
                        at(w * fraction(sx), h * fraction(sy)),
                    )
                })
                .collect();
            if rotatable {
                out.push((BoxHandle::Rotate, at(w / 2.0, -rotate_reach)));
            }
            out
        }
    }
}

/// The edge or corner of `shape` that sprite position `at` grips, when it is within
/// `tolerance` of one (the Box tool resizes a box there), with the offset from `at` to the
/// edge itself, so the edge follows the pointer without jumping to it. Inside a box, the
/// bands along its edges are at most a quarter of its size deep: the middle always moves it.
/// A circle is gripped on its rim ([`BoxHandle::Radius`]).
pub fn edge_grip(shape: &Shape, at: (f64, f64), tolerance: f64) -> Option<(BoxHandle, (f64, f64))> {
    match shape {
        Shape::Circle { center, radius } => {
            let (dx, dy) = (at.0 - center.x.to_f64(), at.1 - center.y.to_f64());
            let (distance, r) = (dx.hypot(dy), radius.to_f64());
            let inner = tolerance.min(r / 2.0);
            if distance < r - inner || distance > r + tolerance {
                return None;
            }
            // The rim point straight out from the centre through `at`.
            let offset = if distance > 0.0 {
                (dx / distance * r - dx, dy / distance * r - dy)
            } else {
                (0.0, 0.0)
            };
            Some((BoxHandle::Radius, offset))
        }
        Shape::Rect { .. } => {
            let (x, y, w, h, rotation) = rect_parts(shape).expect("a rectangle");
            let (lx, ly) = turn((at.0 - x, at.1 - y), -rotation);
            let side = |v: f64, size: f64| -> Option<(Side, f64)> {
                let inner = tolerance.min(size / 4.0);
                if v < -tolerance || v > size + tolerance {
                    None
                } else if v <= inner && (v.abs() <= (v - size).abs()) {
                    Some((Side::Start, -v))
                } else if v >= size - inner {
                    Some((Side::End, size - v))
                } else {
                    Some((Side::Keep, 0.0))
                }
            };
            let ((sx, ox), (sy, oy)) = (side(lx, w)?, side(ly, h)?);
            if sx == Side::Keep && sy == Side::Keep {
                return None;
            }
            Some((BoxHandle::Edge { x: sx, y: sy }, turn((ox, oy), rotation)))
        }
    }
}

/// The shape after dragging `handle` of `original` to `pointer`; `shift` keeps a rotation to
/// steps of 15°. Edges that cross over swap, so the box never gets a negative size.
pub fn reshaped(
    original: &Shape,
    handle: BoxHandle,
    pointer: (f64, f64),
    start: (f64, f64),
    shift: bool,
    snap: Snap,
) -> Shape {
    match (original, handle) {
        (Shape::Circle { center, .. }, _) => {
            let (dx, dy) = (pointer.0 - center.x.to_f64(), pointer.1 - center.y.to_f64());
            Shape::Circle {
                center: *center,
                radius: snap.fx(dx.hypot(dy)),
            }
        }
        (Shape::Rect { .. }, BoxHandle::Rotate) => rotated(original, pointer, start, shift, snap),
        (Shape::Rect { .. }, BoxHandle::Radius) => original.clone(),
        (Shape::Rect { .. }, BoxHandle::Edge { x: sx, y: sy }) => {
            resized(original, sx, sy, pointer, snap)
        }
    }
}

fn resized(original: &Shape, sx: Side, sy: Side, pointer: (f64, f64), snap: Snap) -> Shape {
    let (x, y, w, h, rotation) = rect_parts(original).expect("a rectangle");
    if rotation == 0.0 {
        // Axis-aligned: snap the edges themselves, so whole-pixel boxes stay whole.
        let (mut left, mut top) = (snap.fx(x), snap.fx(y));
        let (mut right, mut bottom) = (snap.fx(x + w), snap.fx(y + h));
        match sx {
            Side::Start => left = snap.fx(pointer.0),
            Side::End => right = snap.fx(pointer.0),
            Side::Keep => {}
        }
        match sy {
            Side::Start => top = snap.fx(pointer.1),
            Side::End => bottom = snap.fx(pointer.1),
            Side::Keep => {}
        }
        let (left, right) = (left.min(right), left.max(right));
        let (top, bottom) = (top.min(bottom), top.max(bottom));
        return Shape::Rect {
            x: left,
            y: top,
            width: right - left,
            height: bottom - top,
            rotation,
        };
    }
    // Rotated: work in the box's own axes, then turn the new top-left corner back.
    let local = turn((pointer.0 - x, pointer.1 - y), -rotation);
    let (mut l, mut t, mut r, mut b) = (0.0, 0.0, w, h);
    match sx {
        Side::Start => l = local.0,
        Side::End => r = local.0,
        Side::Keep => {}
    }
    match sy {
        Side::Start => t = local.1,
        Side::End => b = local.1,
        Side::Keep => {}
    }
    let (l, r) = (l.min(r), l.max(r));
    let (t, b) = (t.min(b), t.max(b));
    let corner = turn((l, t), rotation);
    Shape::Rect {
        x: snap.fx(x + corner.0),
        y: snap.fx(y + corner.1),
        width: snap.fx(r - l),
        height: snap.fx(b - t),
        rotation,
    }
}

/// A rectangle turned about its centre by the angle the pointer swept since `start`.
fn rotated(
    original: &Shape,
    pointer: (f64, f64),
    start: (f64, f64),
    shift: bool,
    snap: Snap,
) -> Shape {
    let (x, y, w, h, rotation) = rect_parts(original).expect("a rectangle");
    let half = turn((w / 2.0, h / 2.0), rotation);
    let centre = (x + half.0, y + half.1);
    let angle = |p: (f64, f64)| (p.1 - centre.1).atan2(p.0 - centre.0).to_degrees();
    let mut turned = normalised_degrees(rotation + angle(pointer) - angle(start));
    if shift {
        turned = normalised_degrees((turned / 15.0).round() * 15.0);
    }
    // Hundredths of a degree: what a person can aim at, and short in the file.
    turned = (turned * 100.0).round() / 100.0;
    let new_half = turn((w / 2.0, h / 2.0), turned);
    Shape::Rect {
        x: snap.fx(centre.0 - new_half.0),
        y: snap.fx(centre.1 - new_half.1),
        width: snap.fx(w),
        height: snap.fx(h),
        rotation: turned,
    }
}

/// An angle in (-180, 180].
pub fn normalised_degrees(degrees: f64) -> f64 {
    let d = degrees.rem_euclid(360.0);
    if d > 180.0 { d - 360.0 } else { d }
}

/// The angle of an attachment point whose angle knob is dragged to `pointer` (degrees
/// clockwise from the +x axis; `shift` keeps to steps of 15°).
pub fn point_angle(position: (f64, f64), pointer: (f64, f64), shift: bool) -> Option<f64> {
    let (dx, dy) = (pointer.0 - position.0, pointer.1 - position.1);
    if dx == 0.0 && dy == 0.0 {
        return None;
    }
    let mut degrees = dy.atan2(dx).to_degrees();
    if shift {
        degrees = (degrees / 15.0).round() * 15.0;
    }
    Some(normalised_degrees((degrees * 100.0).round() / 100.0))
}

/// The shape a box-tool drag from `start` to `pointer` draws: a rectangle between the two
/// corners, or a circle about `start` through `pointer`.
pub fn drawn_shape(start: (f64, f64), pointer: (f64, f64), circle: bool, snap: Snap) -> Shape {
    if circle {
        let center = snap.point(start);
        let (dx, dy) = (pointer.0 - center.x.to_f64(), pointer.1 - center.y.to_f64());
        Shape::Circle {
            center,
            radius: snap.fx(dx.hypot(dy)),
        }
    } else {
        let (a, b) = (snap.point(start), snap.point(pointer));
        Shape::Rect {
            x: a.x.min(b.x),
            y: a.y.min(b.y),
            width: Fx((a.x.0 - b.x.0).abs()),
            height: Fx((a.y.0 - b.y.0).abs()),
            rotation: 0.0,
        }
    }
}

/// True when a drawn shape has an area (a click without a drag draws nothing).
pub fn has_area(shape: &Shape) -> bool {
    match shape {
        Shape::Rect { width, height, .. } => width.0 > 0 && height.0 > 0,
        Shape::Circle { radius, .. } => radius.0 > 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boxes::test_shapes::{rect, turned_rect};

    #[test]
    fn whole_pixel_formats_round_and_isprite_keeps_256ths() {
        assert_eq!(Snap::WholePixels.fx(3.4), Fx::from_int(3));
        assert_eq!(Snap::WholePixels.fx(-3.6), Fx::from_int(-4));
        assert_eq!(Snap::Subpixel.fx(3.25), Fx(3 * 256 + 64));
        assert_eq!(Snap::Subpixel.fx(1.0 / 512.0 + 1e-9), Fx(1));
    }

    #[test]
    fn a_corner_handle_moves_two_edges_and_crossing_swaps_them() {
        let box_ = rect(0, 0, 10, 10);
        let bottom_right = BoxHandle::Edge {
            x: Side::End,
            y: Side::End,
        };
        let out = reshaped(
            &box_,
            bottom_right,
            (14.4, 7.6),
            (10.0, 10.0),
            false,
            Snap::WholePixels,
        );
        assert_eq!(out, rect(0, 0, 14, 8));
        let crossed = reshaped(
            &box_,
            bottom_right,
            (-5.0, 3.0),
            (10.0, 10.0),
            false,
            Snap::WholePixels,
        );
        assert_eq!(crossed, rect(-5, 0, 5, 3));
    }

    #[test]
    fn an_edge_handle_moves_one_edge_only() {
        let out = reshaped(
            &rect(0, 0, 10, 10),
            BoxHandle::Edge {
                x: Side::Keep,
                y: Side::Start,
            },
            (100.0, -4.0),
            (5.0, 0.0),
            false,
            Snap::WholePixels,
        );
        assert_eq!(out, rect(0, -4, 10, 14));
    }

    #[test]
    fn a_rotated_box_resizes_along_its_own_axes() {
        let turned = turned_rect(0, 0, 10, 4, 90.0);
        // Turned 90° clockwise, the box's right edge points down the screen: dragging the
        // right-edge handle down to y = 16 makes it 16 wide.
        let out = reshaped(
            &turned,
            BoxHandle::Edge {
                x: Side::End,
                y: Side::Keep,
            },
            (-2.0, 16.0),
            (-2.0, 10.0),
            false,
            Snap::Subpixel,
        );
        let Shape::Rect { width, height, .. } = out else {
            panic!("a rectangle")
        };
        assert_eq!((width, height), (Fx::from_int(16), Fx::from_int(4)));
    }

    #[test]
    fn the_rotation_knob_turns_about_the_centre() {
        let box_ = rect(-5, -5, 10, 10);
        // A quarter turn: from straight above the centre to straight right of it.
        let out = reshaped(
            &box_,
            BoxHandle::Rotate,
            (20.0, 0.0),
            (0.0, -20.0),
            false,
            Snap::Subpixel,
        );
        let Shape::Rect { x, y, rotation, .. } = out else {
            panic!("a rectangle")
        };
        assert_eq!(rotation, 90.0);
        // The top-left corner went round the centre to the top-right.
        assert_eq!((x, y), (Fx::from_int(5), Fx::from_int(-5)));
        let stepped = reshaped(
            &box_,
            BoxHandle::Rotate,
            (20.0, -3.0),
            (0.0, -20.0),
            true,
            Snap::Subpixel,
        );
        assert!(matches!(stepped, Shape::Rect { rotation, .. } if rotation == 75.0));
    }

    #[test]
    fn drawing_gives_a_rectangle_from_any_two_corners_or_a_circle() {
        assert_eq!(
            drawn_shape((4.2, 9.0), (-1.0, 2.7), false, Snap::WholePixels),
            rect(-1, 3, 5, 6)
        );
        assert_eq!(
            drawn_shape((0.0, 0.0), (3.0, 4.0), true, Snap::WholePixels),
            Shape::Circle {
                center: Point::from_ints(0, 0),
                radius: Fx::from_int(5)
            }
        );
        assert!(!has_area(&drawn_shape(
            (1.0, 1.0),
            (1.2, 9.0),
            false,
            Snap::WholePixels
        )));
    }

    #[test]
    fn point_angles_are_clockwise_and_step_with_shift() {
        assert_eq!(point_angle((0.0, 0.0), (0.0, 5.0), false), Some(90.0));
        assert_eq!(point_angle((0.0, 0.0), (-5.0, 0.0), false), Some(180.0));
        assert_eq!(point_angle((0.0, 0.0), (5.0, 1.0), true), Some(15.0));
        assert_eq!(point_angle((1.0, 1.0), (1.0, 1.0), false), None);
    }

    #[test]
    fn edges_and_corners_grip_near_the_outline_and_the_middle_does_not() {
        let box_ = rect(0, 0, 40, 20);
        let grip = |x: f64, y: f64| edge_grip(&box_, (x, y), 3.0).map(|(h, _)| h);
        let edge = |x, y| Some(BoxHandle::Edge { x, y });
        assert_eq!(grip(20.0, 10.0), None, "the middle moves the box");
        assert_eq!(grip(-2.0, 10.0), edge(Side::Start, Side::Keep));
        assert_eq!(grip(39.0, 10.0), edge(Side::End, Side::Keep));
        assert_eq!(grip(20.0, 21.0), edge(Side::Keep, Side::End));
        assert_eq!(grip(1.0, 1.0), edge(Side::Start, Side::Start));
        assert_eq!(grip(41.0, 22.0), edge(Side::End, Side::End));
        assert_eq!(grip(44.0, 10.0), None, "beyond the tolerance");
        // The offset brings the grip point onto the edge itself.
        assert_eq!(edge_grip(&box_, (-2.0, 10.0), 3.0).unwrap().1, (2.0, 0.0));
        // A box smaller than the tolerance keeps a middle to move it by.
        let small = rect(0, 0, 4, 4);
        assert_eq!(edge_grip(&small, (2.0, 2.0), 3.0), None);
        let circle = Shape::Circle {
            center: Point::from_ints(0, 0),
            radius: Fx::from_int(10),
        };
        assert_eq!(
            edge_grip(&circle, (0.0, 11.0), 3.0),
            Some((BoxHandle::Radius, (0.0, -1.0)))
        );
        assert_eq!(edge_grip(&circle, (0.0, 5.0), 3.0), None);
    }

    #[test]
    fn a_rotated_box_is_gripped_along_its_own_edges() {
        let turned = turned_rect(0, 0, 20, 10, 90.0);
        // Turned a quarter clockwise, its right edge lies along y = 20, x from -10 to 0.
        let (handle, _) = edge_grip(&turned, (-5.0, 20.5), 2.0).unwrap();
        assert_eq!(
            handle,
            BoxHandle::Edge {
                x: Side::End,
                y: Side::Keep
            }
        );
    }

    #[test]
    fn handles_sit_on_the_corners_edges_and_above_the_top() {
        let all = handles(&rect(0, 0, 10, 20), true, 5.0);
        assert_eq!(all.len(), 9);
        assert_eq!(all[2].1, (10.0, 20.0));
        assert_eq!(all[8], (BoxHandle::Rotate, (5.0, -5.0)));
        assert_eq!(handles(&rect(0, 0, 10, 20), false, 5.0).len(), 8);
    }
}
