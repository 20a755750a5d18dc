//! The selection drawn over the overlay (every selected element outlined, the handles of a
//! lone selected element), the rubber band, and the cursor the tool shows.

use super::geometry::{self, BoxHandle, Side};
use super::hit::ShownBox;
use super::input::{self, DragKind};
use super::transform_handles;
use super::transform_handles::ROTATE_REACH;
use super::{FrameContext, Tool, ToolState};
use crate::app::canvas::overlay::{POINT_COLOUR, class_colour, shape_outline};
use crate::app::canvas::view::View;
use crate::app::context::document::OpenDocument;
use crate::model::ElementKind;
use crate::render::Placement;
use egui::{Color32, CursorIcon, Painter, Pos2, Rect, Stroke, vec2};

const HANDLE_FILL: Color32 = Color32::WHITE;
const HANDLE_EDGE: Color32 = Color32::from_rgb(20, 20, 20);
/// The dashes over a selected element's outline, readable on any class colour.
const SELECTION_DASH: Color32 = Color32::WHITE;

/// Outlines every selected element the canvas shows: selected boxes get a thick outline in
/// their class colour with white dashes over it, selected points a ring, selected graphics a
/// dashed frame around their picture.
pub fn paint_selection(
    painter: &Painter,
    view: &View,
    doc: &OpenDocument,
    boxes: &[ShownBox],
    pixels: &dyn crate::pixels::PixelSource,
) {
    let dashes = Stroke::new(1.0, SELECTION_DASH);
    for shown in boxes.iter().filter(|b| doc.is_selected(b.id)) {
        let outline: Vec<Pos2> = shape_outline(&shown.collision.shape)
            .into_iter()
            .map(|(x, y)| view.to_screen(x, y))
            .collect();
        let colour = class_colour(&shown.collision.class);
        painter.add(egui::Shape::closed_line(
            outline.clone(),
            Stroke::new(3.0, colour),
        ));
        dashed_loop(painter, outline, dashes);
    }
    let Some(frame) = doc.frame() else {
        return;
    };
    for element in frame.elements.iter().filter(|e| doc.is_selected(e.id)) {
        match &element.kind {
            ElementKind::Point(point) => {
                let at = view.to_screen(point.position.x.to_f64(), point.position.y.to_f64());
                painter.circle_stroke(at, 9.0, Stroke::new(2.0, POINT_COLOUR));
                painter.circle_stroke(at, 10.5, Stroke::new(1.0, HANDLE_EDGE));
            }
            ElementKind::Graphic(graphic) => {
                let Some(source) = pixels.pixels(doc.document(), &graphic.source) else {
                    continue;
                };
                let Some(placement) = Placement::of(graphic, source.axis) else {
                    continue;
                };
                let (w, h) = (source.image.width() as f64, source.image.height() as f64);
                let corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
                    .map(|c| placement.to_sprite(c))
                    .map(|(x, y)| view.to_screen(x, y));
                dashed_loop(painter, corners.to_vec(), dashes);
            }
            ElementKind::Box(_) => {}
        }
    }
}

/// Draws the rubber band of a band drag in progress.
pub fn paint_band(painter: &Painter, view: &View, tools: &ToolState) {
    let Some(drag) = &tools.drag else {
        return;
    };
    let DragKind::Band { corner, .. } = drag.kind else {
        return;
    };
    let a = view.to_screen(drag.start.0, drag.start.1);
    let b = view.to_screen(corner.0, corner.1);
    let band = Rect::from_two_pos(a, b);
    painter.rect_filled(
        band,
        0.0,
        Color32::from_rgba_unmultiplied(120, 170, 255, 40),
    );
    let outline = vec![
        band.left_top(),
        band.right_top(),
        band.right_bottom(),
        band.left_bottom(),
    ];
    dashed_loop(painter, outline, Stroke::new(1.0, SELECTION_DASH));
}

fn dashed_loop(painter: &Painter, mut outline: Vec<Pos2>, stroke: Stroke) {
    if let Some(first) = outline.first().copied() {
        outline.push(first);
        painter.extend(egui::Shape::dashed_line(&outline, stroke, 4.0, 4.0));
    }
}

/// Draws the handles of the selected element when it is the only one: a box's resize and
/// rotation handles, a point's angle knob, a graphic's origin, rotation knob and scale corner.
pub fn paint_handles(
    painter: &Painter,
    view: &View,
    doc: &OpenDocument,
    context: &FrameContext,
    boxes: &[ShownBox],
    pixels: &dyn crate::pixels::PixelSource,
) {
    if let Some(handles) = transform_handles::graphic_handles(doc, context, view, pixels) {
        let pivot = view.to_screen(handles.pivot.0, handles.pivot.1);
        let knob = view.to_screen(handles.knob.0, handles.knob.1);
        painter.line_segment([pivot, knob], Stroke::new(1.0, HANDLE_FILL));
        painter.circle(knob, 4.5, HANDLE_FILL, Stroke::new(1.0, HANDLE_EDGE));
        if let Some((x, y)) = handles.corner {
            square(painter, view.to_screen(x, y));
        }
    }
    if let Some(shown) = input::selected_box(doc, boxes) {
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
    if let Some(knob) = transform_handles::angle_knob(doc, context, view) {
        let tip = view.to_screen(knob.tip.0, knob.tip.1);
        painter.circle(tip, 4.0, HANDLE_FILL, Stroke::new(1.0, HANDLE_EDGE));
    }
    if let Some((_, (x, y))) = transform_handles::graphic_origin(doc) {
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

/// The cursor for the tool over sprite position `at`: resize arrows over handles (and, for
/// the Box tool, over any box's edges and corners), a move cross over what a drag would move,
/// a crosshair for drawing (everywhere with the Box tool when `draw_anywhere`, Ctrl held) and
/// placing.
pub fn cursor(
    tools: &ToolState,
    doc: &OpenDocument,
    scene: &input::Scene,
    at: (f64, f64),
    draw_anywhere: bool,
) -> CursorIcon {
    let (context, view, boxes, pixels) = (&scene.context, scene.view, scene.boxes, scene.pixels);
    if let Some(drag) = &tools.drag {
        return match drag.kind {
            DragKind::Box {
                handle: Some(handle),
                ref original,
                ..
            } => handle_cursor(handle, rotation_of(original), view.mirrored),
            DragKind::Draw { .. } => CursorIcon::Crosshair,
            _ => CursorIcon::Grabbing,
        };
    }
    let tolerance = (input::GRAB_RADIUS / view.scale) as f64;
    if let Some(shown) = input::selected_box(doc, boxes) {
        let reach = (ROTATE_REACH / view.scale) as f64;
        let shape = &shown.collision.shape;
        let rotation = rotation_of(shape);
        for (handle, (x, y)) in geometry::handles(shape, context.capabilities.rotated_boxes, reach)
        {
            if (x - at.0).abs() <= tolerance && (y - at.1).abs() <= tolerance {
                return handle_cursor(handle, rotation, view.mirrored);
            }
        }
    }
    match tools.tool {
        Tool::Box if draw_anywhere || !context.capabilities.boxes => CursorIcon::Crosshair,
        Tool::Box => match super::hit::box_grip_under(boxes, at, tolerance) {
            Some((id, Some((handle, _)))) => {
                let shape = boxes
                    .iter()
                    .find(|b| b.id == id)
                    .map(|b| &b.collision.shape);
                handle_cursor(handle, shape.map_or(0.0, rotation_of), view.mirrored)
            }
            Some((_, None)) => CursorIcon::Move,
            None => CursorIcon::Crosshair,
        },
        Tool::Point => CursorIcon::Cell,
        Tool::Select => {
            let near =
                |p: (f64, f64)| (p.0 - at.0).abs() <= tolerance && (p.1 - at.1).abs() <= tolerance;
            if let Some(handles) = transform_handles::graphic_handles(doc, context, view, pixels) {
                if near(handles.knob) {
                    return CursorIcon::Grab;
                }
                if handles.corner.is_some_and(near) {
                    return CursorIcon::ResizeNwSe;
                }
            }
            if transform_handles::graphic_origin(doc).is_some_and(|(_, o)| near(o)) {
                return CursorIcon::Crosshair;
            }
            let over_knob = transform_handles::angle_knob(doc, context, view).is_some_and(|k| {
                (k.tip.0 - at.0).abs() <= tolerance && (k.tip.1 - at.1).abs() <= tolerance
            });
            if over_knob {
                return CursorIcon::Grab;
            }
            let over_element = doc.frame().is_some_and(|frame| {
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

fn rotation_of(shape: &crate::model::Shape) -> f64 {
    match shape {
        crate::model::Shape::Rect { rotation, .. } => *rotation,
        crate::model::Shape::Circle { .. } => 0.0,
    }
}

/// The resize arrow for a handle of a box turned by `rotation`, on a canvas `mirrored` or not.
fn handle_cursor(handle: BoxHandle, rotation: f64, mirrored: bool) -> CursorIcon {
    let BoxHandle::Edge { x, y } = handle else {
        // A circle's rim: drags the radius, any way out.
        return if handle == BoxHandle::Radius {
            CursorIcon::ResizeNwSe
        } else {
            CursorIcon::Grab
        };
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
    let on_screen_x = dx * cos - dy * sin;
    let on_screen_x = if mirrored { -on_screen_x } else { on_screen_x };
    let angle = (dx * sin + dy * cos).atan2(on_screen_x).to_degrees();
    let octant = ((angle.rem_euclid(180.0) + 22.5) / 45.0).floor() as i32 % 4;
    match octant {
        0 => CursorIcon::ResizeHorizontal,
        1 => CursorIcon::ResizeNwSe,
        2 => CursorIcon::ResizeVertical,
        _ => CursorIcon::ResizeNeSw,
    }
}
