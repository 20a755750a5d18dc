//! What is under the cursor: the topmost attachment point, collision box (own or inherited
//! from an AIR default) or graphic pixel, in that order, since that is the order they are drawn
//! in from the top; and every element a rubber band touches.

use super::geometry::{BoxHandle, edge_grip};
use crate::app::canvas::overlay::{shape_contains, shape_outline};
use crate::model::{AnimationSet, CollisionBox, Element, ElementId, ElementKind, Frame, Shape};
use crate::pixels::PixelSource;
use crate::render::Placement;

/// A box the canvas shows on the current frame.
#[derive(Clone, Debug)]
pub struct ShownBox {
    /// The element holding it (on this frame, or on the frame that set the default).
    pub id: ElementId,
    /// The box.
    pub collision: CollisionBox,
    /// True when it comes from an earlier frame's default.
    pub inherited: bool,
}

/// The topmost element at sprite position `(x, y)`. `tolerance` is how near (sprite pixels) a
/// point's cross must be; `boxes` are the boxes shown (hidden classes left out).
pub fn element_under(
    document: &AnimationSet,
    frame: &Frame,
    boxes: &[ShownBox],
    pixels: &dyn PixelSource,
    (x, y): (f64, f64),
    tolerance: f64,
) -> Option<ElementId> {
    point_under(frame, (x, y), tolerance)
        .or_else(|| box_under(boxes, (x, y)))
        .or_else(|| graphic_under(document, frame, pixels, (x, y)))
}

/// The topmost attachment point within `tolerance` of `(x, y)`.
pub fn point_under(frame: &Frame, (x, y): (f64, f64), tolerance: f64) -> Option<ElementId> {
    frame.elements.iter().rev().find_map(|e| {
        let p = e.as_point()?;
        let (dx, dy) = (p.position.x.to_f64() - x, p.position.y.to_f64() - y);
        (dx.abs() <= tolerance && dy.abs() <= tolerance).then_some(e.id)
    })
}

/// The topmost box containing `(x, y)`; a frame's own boxes are drawn over inherited ones.
pub fn box_under(boxes: &[ShownBox], (x, y): (f64, f64)) -> Option<ElementId> {
    let inside = |b: &&ShownBox| {
        let shape = &b.collision.shape;
        shape_contains(&shape_outline(shape), shape, x, y)
    };
    let own = boxes.iter().rev().filter(|b| !b.inherited).find(inside);
    own.or_else(|| boxes.iter().rev().filter(|b| b.inherited).find(inside))
        .map(|b| b.id)
}

/// A box's edge or corner gripped, with the offset from the pointer onto it.
pub type EdgeGrip = (BoxHandle, (f64, f64));

/// What the Box tool grips at `(x, y)`: the topmost box (own before inherited, as
/// [`box_under`]) whose edge or corner is within `tolerance` (a resize, with the grip's offset
/// onto the edge, see [`edge_grip`]) or that contains the point (a move: `None`).
pub fn box_grip_under(
    boxes: &[ShownBox],
    (x, y): (f64, f64),
    tolerance: f64,
) -> Option<(ElementId, Option<EdgeGrip>)> {
    let grip = |b: &ShownBox| {
        let shape = &b.collision.shape;
        match edge_grip(shape, (x, y), tolerance) {
            Some(edge) => Some((b.id, Some(edge))),
            None => shape_contains(&shape_outline(shape), shape, x, y).then_some((b.id, None)),
        }
    };
    let own = boxes.iter().rev().filter(|b| !b.inherited).find_map(grip);
    own.or_else(|| boxes.iter().rev().filter(|b| b.inherited).find_map(grip))
}

/// The topmost graphic with a visible pixel at `(x, y)`.
pub fn graphic_under(
    document: &AnimationSet,
    frame: &Frame,
    pixels: &dyn PixelSource,
    (x, y): (f64, f64),
) -> Option<ElementId> {
    frame
        .elements
        .iter()
        .rev()
        .find(|e| graphic_covers(document, e, pixels, (x, y)))
        .map(|e| e.id)
}

fn graphic_covers(
    document: &AnimationSet,
    element: &Element,
    pixels: &dyn PixelSource,
    (x, y): (f64, f64),
) -> bool {
    let ElementKind::Graphic(graphic) = &element.kind else {
        return false;
    };
    if graphic.opacity == 0 || graphic.source.is_blank() {
        return false;
    }
    let Some(source) = pixels.pixels(document, &graphic.source) else {
        return false;
    };
    let Some(inverse) = Placement::of(graphic, source.axis).and_then(|p| p.inverse()) else {
        return false;
    };
    let (u, v) = inverse.to_source((x, y));
    if u < 0.0 || v < 0.0 {
        return false;
    }
    let (u, v) = (u.floor() as u32, v.floor() as u32);
    source
        .image
        .get_pixel_checked(u, v)
        .is_some_and(|pixel| pixel[3] > 0)
}

/// Every element a rubber band from corner `a` to corner `b` (sprite space) touches: graphics
/// whose placed picture overlaps it and points within `tolerance` of it, in draw order, then
/// the `boxes` (shown ones) whose shape overlaps it.
pub fn touched_by_band(
    document: &AnimationSet,
    frame: &Frame,
    boxes: &[ShownBox],
    pixels: &dyn PixelSource,
    (a, b): ((f64, f64), (f64, f64)),
    tolerance: f64,
) -> Vec<ElementId> {
    let band = Band::spanning(a, b);
    let near = band.grown(tolerance);
    let elements = frame.elements.iter().filter(|e| match &e.kind {
        ElementKind::Point(p) => near.contains((p.position.x.to_f64(), p.position.y.to_f64())),
        ElementKind::Graphic(_) => {
            graphic_corners(document, e, pixels).is_some_and(|c| band.touches_convex(&c))
        }
        ElementKind::Box(_) => false,
    });
    let shapes = boxes
        .iter()
        .filter(|b| band.touches_shape(&b.collision.shape));
    elements.map(|e| e.id).chain(shapes.map(|b| b.id)).collect()
}

/// The corners of a graphic's placed picture, in sprite space, when it draws anything.
fn graphic_corners(
    document: &AnimationSet,
    element: &Element,
    pixels: &dyn PixelSource,
) -> Option<[(f64, f64); 4]> {
    let ElementKind::Graphic(graphic) = &element.kind else {
        return None;
    };
    if graphic.opacity == 0 || graphic.source.is_blank() {
        return None;
    }
    let source = pixels.pixels(document, &graphic.source)?;
    let placement = Placement::of(graphic, source.axis)?;
    let (w, h) = (source.image.width() as f64, source.image.height() as f64);
    Some([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)].map(|c| placement.to_sprite(c)))
}

/// An axis-aligned rectangle in sprite space.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Band {
    min: (f64, f64),
    max: (f64, f64),
}

impl Band {
    fn spanning(a: (f64, f64), b: (f64, f64)) -> Band {
        Band {
            min: (a.0.min(b.0), a.1.min(b.1)),
            max: (a.0.max(b.0), a.1.max(b.1)),
        }
    }

    fn grown(self, by: f64) -> Band {
        Band {
            min: (self.min.0 - by, self.min.1 - by),
            max: (self.max.0 + by, self.max.1 + by),
        }
    }

    fn contains(self, (x, y): (f64, f64)) -> bool {
        (self.min.0..=self.max.0).contains(&x) && (self.min.1..=self.max.1).contains(&y)
    }

    fn touches_shape(self, shape: &Shape) -> bool {
        match shape {
            Shape::Circle { center, radius } => {
                let (cx, cy) = (center.x.to_f64(), center.y.to_f64());
                let nearest = (
                    cx.clamp(self.min.0, self.max.0),
                    cy.clamp(self.min.1, self.max.1),
                );
                let (dx, dy) = (nearest.0 - cx, nearest.1 - cy);
                let r = radius.to_f64();
                dx * dx + dy * dy <= r * r
            }
            Shape::Rect { .. } => self.touches_convex(&shape_outline(shape)),
        }
    }

    /// True when the band and a convex polygon overlap or touch (separating axis test: they
    /// are apart exactly when the band's axes or one of the polygon's edge normals separate
    /// them).
    fn touches_convex(self, polygon: &[(f64, f64)]) -> bool {
        if polygon.is_empty() {
            return false;
        }
        let corners = [
            self.min,
            (self.max.0, self.min.1),
            self.max,
            (self.min.0, self.max.1),
        ];
        let apart_along = |axis: (f64, f64)| {
            let project = |points: &[(f64, f64)]| {
                points
                    .iter()
                    .map(|p| p.0 * axis.0 + p.1 * axis.1)
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                        (lo.min(v), hi.max(v))
                    })
            };
            let (a, b) = (project(&corners), project(polygon));
            a.1 < b.0 || b.1 < a.0
        };
        let edges = polygon
            .iter()
            .zip(polygon.iter().cycle().skip(1))
            .map(|(p, q)| (q.1 - p.1, p.0 - q.0));
        let mut axes = [(1.0, 0.0), (0.0, 1.0)].into_iter().chain(edges);
        !axes.any(|axis| axis != (0.0, 0.0) && apart_along(axis))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AttachmentPoint, BoxClass, FrameDuration, Point};

    fn shown(id: u64, a: (i32, i32), b: (i32, i32), inherited: bool) -> ShownBox {
        ShownBox {
            id: ElementId(id),
            collision: CollisionBox::rect_from_corners(
                BoxClass::Hurt,
                Point::from_ints(a.0, a.1),
                Point::from_ints(b.0, b.1),
            ),
            inherited,
        }
    }

    /// The boxes a band dragged from `a` to `b` touches on an empty frame (half a pixel of
    /// tolerance).
    fn band_over(boxes: &[ShownBox], a: (f64, f64), b: (f64, f64)) -> Vec<ElementId> {
        let frame = Frame::new(FrameDuration::Ticks(1));
        let document = AnimationSet::new();
        let pixels = crate::assets::ImageStore::default();
        touched_by_band(&document, &frame, boxes, &pixels, (a, b), 0.5)
    }

    #[test]
    fn a_frames_own_box_wins_over_an_inherited_one_and_later_boxes_over_earlier() {
        let boxes = [
            shown(1, (0, 0), (10, 10), false),
            shown(2, (0, 0), (20, 20), true),
            shown(3, (5, 5), (10, 10), false),
        ];
        assert_eq!(box_under(&boxes, (7.0, 7.0)), Some(ElementId(3)));
        assert_eq!(box_under(&boxes, (2.0, 2.0)), Some(ElementId(1)));
        assert_eq!(box_under(&boxes, (15.0, 15.0)), Some(ElementId(2)));
        assert_eq!(box_under(&boxes, (25.0, 15.0)), None);
    }

    #[test]
    fn the_box_tool_grips_a_boxs_edge_or_its_inside_topmost_first() {
        let boxes = [
            shown(1, (0, 0), (40, 40), true),
            shown(2, (10, 10), (20, 20), false),
        ];
        // Inside the small own box: it moves, though the big one is under it too.
        assert_eq!(
            box_grip_under(&boxes, (15.0, 15.0), 2.0),
            Some((ElementId(2), None))
        );
        // On the small box's right edge.
        let (id, edge) = box_grip_under(&boxes, (20.5, 15.0), 2.0).unwrap();
        assert_eq!(id, ElementId(2));
        assert!(matches!(edge, Some((BoxHandle::Edge { .. }, _))));
        // Inside the inherited box only, then on its left edge, then outside both.
        assert_eq!(
            box_grip_under(&boxes, (30.0, 30.0), 2.0),
            Some((ElementId(1), None))
        );
        assert!(matches!(
            box_grip_under(&boxes, (-1.0, 30.0), 2.0),
            Some((ElementId(1), Some(_)))
        ));
        assert_eq!(box_grip_under(&boxes, (50.0, 30.0), 2.0), None);
    }

    #[test]
    fn a_band_touches_boxes_it_overlaps_and_not_those_beside_it() {
        let boxes = [
            shown(1, (0, 0), (10, 10), false),
            shown(2, (20, 0), (30, 10), true),
            ShownBox {
                id: ElementId(3),
                collision: CollisionBox {
                    class: BoxClass::Hit,
                    shape: Shape::Circle {
                        center: Point::from_ints(50, 50),
                        radius: crate::model::Fx::from_int(5),
                    },
                    box_id: 0,
                    corners: None,
                },
                inherited: false,
            },
        ];
        let band = |a, b| band_over(&boxes, a, b);
        // Dragged either way, touching an edge counts.
        assert_eq!(
            band((9.0, 9.0), (20.0, 12.0)),
            vec![ElementId(1), ElementId(2)]
        );
        assert_eq!(
            band((20.0, 12.0), (9.0, 9.0)),
            vec![ElementId(1), ElementId(2)]
        );
        assert_eq!(band((11.0, -5.0), (19.0, 15.0)), Vec::<ElementId>::new());
        // Near the circle's bounding corner but outside the circle itself.
        assert_eq!(band((54.0, 54.0), (60.0, 60.0)), Vec::<ElementId>::new());
        assert_eq!(band((53.0, 53.0), (60.0, 60.0)), vec![ElementId(3)]);
    }

    #[test]
    fn a_band_touches_a_rotated_box_by_its_shape_not_its_bounds() {
        let diamond = ShownBox {
            id: ElementId(4),
            collision: CollisionBox {
                class: BoxClass::Hurt,
                shape: Shape::Rect {
                    x: crate::model::Fx::from_int(-5),
                    y: crate::model::Fx::from_int(-5),
                    width: crate::model::Fx::from_int(10),
                    height: crate::model::Fx::from_int(10),
                    rotation: 45.0,
                },
                box_id: 0,
                corners: None,
            },
            inherited: false,
        };
        let boxes = [diamond];
        let band = |a, b| band_over(&boxes, a, b);
        // Turned about its top-left corner (-5, -5), the square is a diamond with its right
        // corner at (2.07, 2.07) and its bottom one at (-5, 9.14): a band in the bottom-right
        // corner of its bounds misses it, one over its right corner touches it.
        assert!(band((0.5, 6.0), (2.0, 9.0)).is_empty());
        assert_eq!(band((1.5, 1.5), (3.0, 3.0)), vec![ElementId(4)]);
    }

    /// A frame holding one point, "hand" (element 9), at (4, -4).
    fn frame_with_hand() -> Frame {
        let mut frame = Frame::new(FrameDuration::Ticks(1));
        frame.elements.push(Element {
            id: ElementId(9),
            name: "hand".into(),
            kind: ElementKind::Point(AttachmentPoint::at(Point::from_ints(4, -4))),
        });
        frame
    }

    #[test]
    fn a_band_touches_points_within_the_tolerance() {
        let frame = frame_with_hand();
        let document = AnimationSet::new();
        let pixels = crate::assets::ImageStore::default();
        let band = |a, b| touched_by_band(&document, &frame, &[], &pixels, (a, b), 1.0);
        assert_eq!(band((5.0, -3.0), (8.0, 0.0)), vec![ElementId(9)]);
        assert!(band((5.5, -3.0), (8.0, 0.0)).is_empty());
    }

    #[test]
    fn points_are_found_within_the_tolerance() {
        let frame = frame_with_hand();
        assert_eq!(point_under(&frame, (5.5, -3.0), 2.0), Some(ElementId(9)));
        assert_eq!(point_under(&frame, (7.0, -4.0), 2.0), None);
    }
}
