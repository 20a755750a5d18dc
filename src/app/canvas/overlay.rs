//! Collision boxes and attachment points drawn over the sprite with the egui painter, so they
//! stay crisp at any zoom.

use crate::app::canvas::view::View;
use crate::model::{BoxClass, EffectiveBox, ElementId, ElementKind, Frame, Shape};
use crate::render::overlay as look;
use egui::{Align2, Color32, FontId, Painter, Pos2, Stroke, vec2};

/// The colour of a box class, the same as `sprat render --overlay` draws it
/// ([`look::class_colour`]): hit red, hurt blue, others from a palette by name.
pub fn class_colour(class: &BoxClass) -> Color32 {
    let [r, g, b] = look::class_colour(class);
    Color32::from_rgb(r, g, b)
}

/// The colour of attachment points ([`look::POINT_COLOUR`]).
pub const POINT_COLOUR: Color32 = {
    let [r, g, b] = look::POINT_COLOUR;
    Color32::from_rgb(r, g, b)
};

/// A box as the overlay draws it.
pub struct DrawnBox<'a> {
    /// The box and where it comes from.
    pub effective: EffectiveBox<'a>,
    /// True for an AIR default box (declared `ClsnNDefault` here or on an earlier frame).
    pub is_default: bool,
}

/// The boxes in force on a frame with whether each is a default.
pub fn drawn_boxes<'a>(frame: &Frame, effective: Vec<EffectiveBox<'a>>) -> Vec<DrawnBox<'a>> {
    effective
        .into_iter()
        .map(|effective| DrawnBox {
            is_default: effective.is_default(frame),
            effective,
        })
        .collect()
}

/// The corners of a (possibly rotated) rectangle or the samples of a circle, in sprite space.
pub fn shape_outline(shape: &Shape) -> Vec<(f64, f64)> {
    match shape {
        Shape::Rect { .. } => look::rect_corners(shape, 1.0)
            .map(Vec::from)
            .unwrap_or_default(),
        Shape::Circle { center, radius } => {
            let (cx, cy, r) = (center.x.to_f64(), center.y.to_f64(), radius.to_f64());
            (0..32)
                .map(|i| {
                    let a = i as f64 / 32.0 * std::f64::consts::TAU;
                    (cx + r * a.cos(), cy + r * a.sin())
                })
                .collect()
        }
    }
}

/// Draws collision boxes: filled faintly, outlined solid, defaults dashed.
pub fn paint_boxes(
    painter: &Painter,
    view: &View,
    boxes: &[DrawnBox],
    selected: Option<ElementId>,
) {
    let outlines: Vec<Vec<Pos2>> = boxes
        .iter()
        .map(|drawn| {
            shape_outline(&drawn.effective.collision.shape)
                .into_iter()
                .map(|(x, y)| view.to_screen(x, y))
                .collect()
        })
        .collect();
    // Every fill first, then every outline, so no box's fill veils another's outline.
    for (drawn, outline) in boxes.iter().zip(&outlines) {
        let colour = class_colour(&drawn.effective.collision.class);
        let alpha = if drawn.is_default {
            look::DEFAULT_BOX_FILL_ALPHA
        } else {
            look::BOX_FILL_ALPHA
        };
        let fill = Color32::from_rgba_unmultiplied(colour.r(), colour.g(), colour.b(), alpha);
        painter.add(egui::Shape::convex_polygon(
            outline.clone(),
            fill,
            Stroke::NONE,
        ));
    }
    for (drawn, outline) in boxes.iter().zip(outlines) {
        let colour = class_colour(&drawn.effective.collision.class);
        let selected = selected == Some(drawn.effective.element.id);
        let stroke = Stroke::new(if selected { 2.5 } else { 1.5 }, colour);
        if drawn.is_default {
            let mut closed = outline.clone();
            closed.extend(outline.first().copied());
            let (dash, gap) = look::DEFAULT_BOX_DASH;
            painter.extend(egui::Shape::dashed_line(&closed, stroke, dash, gap));
        } else {
            painter.add(egui::Shape::closed_line(outline, stroke));
        }
    }
}

/// Draws attachment points as crosses with their name and angle.
pub fn paint_points(painter: &Painter, view: &View, frame: &Frame, selected: Option<ElementId>) {
    for element in &frame.elements {
        let ElementKind::Point(point) = &element.kind else {
            continue;
        };
        let at = view.to_screen(point.position.x.to_f64(), point.position.y.to_f64());
        let width = if selected == Some(element.id) {
            2.5
        } else {
            1.5
        };
        let stroke = Stroke::new(width, POINT_COLOUR);
        let arm = 6.0;
        painter.line_segment([at - vec2(arm, 0.0), at + vec2(arm, 0.0)], stroke);
        painter.line_segment([at - vec2(0.0, arm), at + vec2(0.0, arm)], stroke);
        let (sin, cos) = (point.rotation as f32).to_radians().sin_cos();
        let tip = at + view.direction(cos, sin) * 18.0;
        painter.arrow(at, tip - at, Stroke::new(1.0, POINT_COLOUR));
        let name = if element.name.is_empty() {
            format!("#{}", point.point_id)
        } else {
            element.name.to_string()
        };
        let label = if point.rotation != 0.0 {
            format!(
                "{name} {}°",
                crate::app::context::duration_text::trim_float(point.rotation, 2)
            )
        } else {
            name
        };
        let text_pos = at + vec2(8.0, -8.0);
        let font = FontId::proportional(12.0);
        // A dark halo keeps the label readable on any sprite.
        for offset in [
            vec2(1.0, 1.0),
            vec2(-1.0, -1.0),
            vec2(1.0, -1.0),
            vec2(-1.0, 1.0),
        ] {
            painter.text(
                text_pos + offset,
                Align2::LEFT_BOTTOM,
                &label,
                font.clone(),
                Color32::BLACK,
            );
        }
        painter.text(text_pos, Align2::LEFT_BOTTOM, &label, font, POINT_COLOUR);
    }
}

/// Sprite-space points to include when fitting the frame in view.
pub fn overlay_extent(frame: &Frame) -> Vec<(f64, f64)> {
    let mut points = vec![(0.0, 0.0)];
    for element in &frame.elements {
        match &element.kind {
            ElementKind::Box(b) => points.extend(shape_outline(&b.shape)),
            ElementKind::Point(p) => points.push((p.position.x.to_f64(), p.position.y.to_f64())),
            ElementKind::Graphic(_) => {}
        }
    }
    points
}

/// True when sprite point `(x, y)` is inside `shape` (`outline` from [`shape_outline`]).
pub fn shape_contains(outline: &[(f64, f64)], shape: &Shape, x: f64, y: f64) -> bool {
    if let Shape::Circle { center, radius } = shape {
        let (dx, dy) = (x - center.x.to_f64(), y - center.y.to_f64());
        return dx * dx + dy * dy <= radius.to_f64().powi(2);
    }
    // A convex polygon contains the point when it is on the same side of every edge.
    let mut sign = 0.0f64;
    for i in 0..outline.len() {
        let (ax, ay) = outline[i];
        let (bx, by) = outline[(i + 1) % outline.len()];
        let cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
        if cross != 0.0 {
            if sign != 0.0 && cross.signum() != sign {
                return false;
            }
            sign = cross.signum();
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CollisionBox, Fx, Point};

    #[test]
    fn a_rotated_rectangle_turns_clockwise_about_its_corner() {
        let shape = Shape::Rect {
            x: Fx::from_int(0),
            y: Fx::from_int(0),
            width: Fx::from_int(10),
            height: Fx::from_int(2),
            rotation: 90.0,
        };
        let corners = shape_outline(&shape);
        // The top-right corner (10, 0) turns clockwise on screen (y down) to (0, 10).
        assert!((corners[1].0).abs() < 1e-9 && (corners[1].1 - 10.0).abs() < 1e-9);
    }

    #[test]
    fn shapes_contain_their_inside_only() {
        let rect = CollisionBox::rect_from_corners(
            BoxClass::Hit,
            Point::from_ints(0, 0),
            Point::from_ints(10, 10),
        )
        .shape;
        let circle = Shape::Circle {
            center: Point::from_ints(30, 0),
            radius: Fx::from_int(5),
        };
        let inside = |shape: &Shape, x, y| shape_contains(&shape_outline(shape), shape, x, y);
        assert!(inside(&rect, 5.0, 5.0));
        assert!(!inside(&rect, 11.0, 5.0));
        assert!(inside(&circle, 33.0, 3.0));
        assert!(!inside(&circle, 20.0, 0.0));
    }

    #[test]
    fn the_editor_draws_every_class_in_the_colour_the_renderer_uses() {
        for class in [
            BoxClass::Hit,
            BoxClass::Hurt,
            BoxClass::Custom("feet".into()),
            BoxClass::Custom("shield".into()),
        ] {
            let [r, g, b] = look::class_colour(&class);
            assert_eq!(
                class_colour(&class),
                Color32::from_rgb(r, g, b),
                "{class:?}"
            );
        }
    }

    #[test]
    fn hit_and_hurt_keep_their_conventional_colours() {
        assert_eq!(class_colour(&BoxClass::Hit), Color32::from_rgb(255, 48, 48));
        assert_eq!(
            class_colour(&BoxClass::Custom("feet".into())),
            class_colour(&BoxClass::Custom("feet".into()))
        );
    }
}
