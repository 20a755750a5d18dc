//! What is under the cursor: the topmost attachment point, collision box (own or inherited
//! from an AIR default) or graphic pixel, in that order, since that is the order they are drawn
//! in from the top.

use crate::app::overlay::{shape_contains, shape_outline};
use crate::model::{AnimationSet, CollisionBox, Element, ElementId, ElementKind, Frame};
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
    fn points_are_found_within_the_tolerance() {
        let mut frame = Frame::new(FrameDuration::Ticks(1));
        frame.elements.push(Element {
            id: ElementId(9),
            name: "hand".to_string(),
            kind: ElementKind::Point(AttachmentPoint::at(Point::from_ints(4, -4))),
        });
        assert_eq!(point_under(&frame, (5.5, -3.0), 2.0), Some(ElementId(9)));
        assert_eq!(point_under(&frame, (7.0, -4.0), 2.0), None);
    }
}
