//! The handles of the selection, drawn over the overlay, and the cursor the tool shows.

use super::geometry::{self, BoxHandle, Side};
use super::hit::ShownBox;
use super::input::{self, ROTATE_REACH};
use super::{FrameContext, Tool, ToolState};
use crate::app::view::View;
use crate::app::workspace::OpenDocument;
use egui::{Color32, CursorIcon, Painter, Pos2, Rect, Stroke, vec2};

const HANDLE_FILL: Color32 = Color32::WHITE;
const HANDLE_EDGE: Color32 = Color32::from_rgb(20, 20, 20);

/// Draws the handles of the selected box, the selected point's angle knob and the selected
/// graphic's origin, rotation knob and scale corner.
pub fn paint_handles(
    painter: &Painter,
    view: &View,
    open: &OpenDocument,
    context: &FrameContext,
    boxes: &[ShownBox],
    pixels: &dyn crate::pixels::PixelSource,
) {
    if let Some(handles) = input::graphic_handles(open, context, view, pixels) {
        let pivot = view.to_screen(handles.pivot.0, handles.pivot.1);
        let knob = view.to_screen(handles.knob.0, handles.knob.1);
        painter.line_segment([pivot, knob], Stroke::new(1.0, HANDLE_FILL));
        painter.circle(knob, 4.5, HANDLE_FILL, Stroke::new(1.0, HANDLE_EDGE));
        if let Some((x, y)) = handles.corner {
            square(painter, view.to_screen(x, y));
        }
    }
    if let Some(shown) = input::selected_box(open, boxes) {
        let reach = (ROTATE_REACH / view.scale) as f64;
        let shape = &shown.collision.shape;
        let all = geometry::handles(shape, context.capabilities.rotated_boxes, reach);
        for (handle, (x, y)) in all {
            let at = view.to_screen(x, y);
            if handle == BoxHandle::Rotate {
                if let Some((_, (tx, ty))) =
                    geometry::handles(shape, false, 0.0)
                        .into_iter()
                        .find(|(h, _)| {
                            *h == BoxHandle::Edge {
                                x: Side::Keep,
                                y: Side::Start,
                            }
                        })
                {
                    let stroke = Stroke::new(1.0, HANDLE_FILL);
                    painter.line_segment([view.to_screen(tx, ty), at], stroke);
                }
                painter.circle(at, 4.5, HANDLE_FILL, Stroke::new(1.0, HANDLE_EDGE));
            } else {
                square(painter, at);
            }
        }
    }
    if let Some(knob) = input::angle_knob(open, context, view) {
        let tip = view.to_screen(knob.tip.0, knob.tip.1);
        painter.circle(tip, 4.0, HANDLE_FILL, Stroke::new(1.0, HANDLE_EDGE));
    }
    if let Some((_, (x, y))) = input::graphic_origin(open) {
        let at = view.to_screen(x, y);
        diamond(painter, at);
    }
}

fn square(painter: &Painter, at: Pos2) {
    let square = Rect::from_center_size(at, vec2(7.0, 7.0));
    painter.rect_filled(square, 0.0, HANDLE_FILL);
    painter.rect_stroke(
        square,
        0.0,
        Stroke::new(1.0, HANDLE_EDGE),
        egui::StrokeKind::Inside,
    );
}

fn diamond(painter: &Painter, at: Pos2) {
    let r = 5.0;
    let points = vec![
        at + vec2(0.0, -r),
        at + vec2(r, 0.0),
        at + vec2(0.0, r),
        at + vec2(-r, 0.0),
    ];
    painter.add(egui::Shape::convex_polygon(
        points,
        Color32::from_rgb(255, 120, 40),
        Stroke::new(1.0, HANDLE_EDGE),
    ));
}

/// The cursor for the tool over sprite position `at`: resize arrows over handles, a move
/// cross over what the select tool would move, a crosshair for drawing and placing.
pub fn cursor(
    tools: &ToolState,
    open: &OpenDocument,
    context: &FrameContext,
    view: &View,
    boxes: &[ShownBox],
    pixels: &dyn crate::pixels::PixelSource,
    at: (f64, f64),
) -> CursorIcon {
    if tools.drag.is_some() {
        return CursorIcon::Grabbing;
    }
    let tolerance = (input::GRAB_RADIUS / view.scale) as f64;
    if let Some(shown) = input::selected_box(open, boxes) {
        let reach = (ROTATE_REACH / view.scale) as f64;
        let shape = &shown.collision.shape;
        let rotation = match shape {
            crate::model::Shape::Rect { rotation, .. } => *rotation,
            crate::model::Shape::Circle { .. } => 0.0,
        };
        for (handle, (x, y)) in geometry::handles(shape, context.capabilities.rotated_boxes, reach)
        {
            if (x - at.0).abs() <= tolerance && (y - at.1).abs() <= tolerance {
                return handle_cursor(handle, rotation);
            }
        }
    }
    match tools.tool {
        Tool::Box => CursorIcon::Crosshair,
        Tool::Point => CursorIcon::Cell,
        Tool::Select => {
            let near =
                |p: (f64, f64)| (p.0 - at.0).abs() <= tolerance && (p.1 - at.1).abs() <= tolerance;
            if let Some(handles) = input::graphic_handles(open, context, view, pixels) {
                if near(handles.knob) {
                    return CursorIcon::Grab;
                }
                if handles.corner.is_some_and(near) {
                    return CursorIcon::ResizeNwSe;
                }
            }
            if input::graphic_origin(open).is_some_and(|(_, o)| near(o)) {
                return CursorIcon::Crosshair;
            }
            let over_knob = input::angle_knob(open, context, view).is_some_and(|k| {
                (k.tip.0 - at.0).abs() <= tolerance && (k.tip.1 - at.1).abs() <= tolerance
            });
            if over_knob {
                return CursorIcon::Grab;
            }
            let over_element = open.frame().is_some_and(|frame| {
                super::hit::point_under(frame, at, tolerance).is_some()
                    || super::hit::box_under(boxes, at).is_some()
            });
            if over_element {
                CursorIcon::Move
            } else {
                CursorIcon::Default
            }
        }
    }
}

fn handle_cursor(handle: BoxHandle, rotation: f64) -> CursorIcon {
    let BoxHandle::Edge { x, y } = handle else {
        return CursorIcon::Grab;
    };
    // The handle's direction from the box centre, turned with the box, picks the arrow.
    let dx = match x {
        Side::Start => -1.0,
        Side::Keep => 0.0,
        Side::End => 1.0,
    };
    let dy = match y {
        Side::Start => -1.0,
        Side::Keep => 0.0,
        Side::End => 1.0,
    };
    let (sin, cos) = rotation.to_radians().sin_cos();
    let angle = (dx * sin + dy * cos)
        .atan2(dx * cos - dy * sin)
        .to_degrees();
    let octant = ((angle.rem_euclid(180.0) + 22.5) / 45.0).floor() as i32 % 4;
    match octant {
        0 => CursorIcon::ResizeHorizontal,
        1 => CursorIcon::ResizeNwSe,
        2 => CursorIcon::ResizeVertical,
        _ => CursorIcon::ResizeNeSw,
    }
}
