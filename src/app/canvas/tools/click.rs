//! Canvas input that is not a drag: clicks that select (Shift/Ctrl+click adds or takes out) or
//! place points, and arrow-key nudges.

use super::hit;
use super::input::{Scene, with_same_place_graphics};
use super::{CanvasOutcome, Tool, ToolState, apply, selection_on_frame};
use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::Feedback;
use crate::edit::elements::MoveSelection;
use crate::edit::points::AddPoint;
use crate::model::{ElementId, Point};

/// A click without a drag: the select tool selects what is under the cursor alone (or
/// nothing), or with `adding` (Shift or Ctrl held) adds it to the selection or takes it out;
/// the point tool selects a point the same way or places a new one and opens its name field.
pub fn click(
    tools: &mut ToolState,
    doc: &mut OpenDocument,
    scene: &Scene,
    at: (f64, f64),
    adding: bool,
    outcome: &mut CanvasOutcome,
) {
    let Some(frame) = doc.frame() else {
        return;
    };
    let tolerance = scene.tolerance();
    match tools.tool {
        Tool::Select | Tool::Box => {
            let id = hit::element_under(
                doc.document(),
                frame,
                scene.boxes,
                scene.pixels,
                at,
                tolerance,
            );
            pick(doc, id, adding);
        }
        Tool::Point => {
            if let Some(id) = hit::point_under(frame, at, tolerance) {
                pick(doc, Some(id), adding);
                return;
            }
            if !scene.context.capabilities.points {
                let why = format!("{} files cannot hold attachment points", doc.format_name());
                outcome.feedback = Some(Feedback::refusal(&why, doc));
                return;
            }
            let name = super::naming::suggested_name(doc);
            let command = AddPoint {
                frame: scene.context.frame,
                position: scene.context.snap.point(at),
                name: name.clone(),
            };
            if apply(doc, &command, None, outcome)
                && let Some(id) = doc.single_element()
            {
                tools.naming = Some(super::naming::Naming::new(id, name));
            }
        }
    }
}

/// A click on `id` (or on nothing): alone it becomes the selection (nothing clears it); with
/// `adding` it joins the selection or leaves it, and a click on nothing changes nothing.
fn pick(doc: &mut OpenDocument, id: Option<ElementId>, adding: bool) {
    match (id, adding) {
        (Some(id), true) => doc.toggle_element(id),
        (Some(id), false) => doc.select_element(id),
        (None, true) => {}
        (None, false) => doc.clear_elements(),
    }
}

/// Nudges every selected element the frame shows by `(dx, dy)` whole pixels (arrow keys), as
/// one undo step per press: boxes inherited from an AIR default follow the scope toggle.
pub fn nudge(
    tools: &ToolState,
    doc: &mut OpenDocument,
    scene: &Scene,
    (dx, dy): (i32, i32),
    outcome: &mut CanvasOutcome,
) {
    let elements = selection_on_frame(doc, scene.boxes);
    if elements.is_empty() {
        return;
    }
    let command = MoveSelection {
        target: scene.context.box_target(tools.scope),
        elements,
        delta: Point::from_ints(dx, dy),
    };
    let command = with_same_place_graphics(doc, command);
    apply(doc, command.as_ref(), None, outcome);
}
