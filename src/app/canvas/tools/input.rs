//! Pointer input on the canvas: what a press grabs (a handle of the selected element, an
//! element, empty space for a rubber band) and the edits a drag sends (all with one gesture,
//! so a drag is one undo step, however many elements it moves). Clicks and arrow-key nudges
//! are in [`super::click`].

use super::geometry::{self, BoxHandle, Snap};
use super::hit::{self, ShownBox};
use super::transform_handles::{
    GraphicHandles, ROTATE_REACH, angle_knob, graphic_handles, graphic_origin, scale_for,
};
use super::{CanvasOutcome, FrameContext, Tool, ToolState, apply, selection_on_frame};
use crate::app::canvas::view::View;
use crate::app::context::document::OpenDocument;
use crate::edit::Gesture;
use crate::edit::boxes::{AddBox, SetBoxShape};
use crate::edit::canvas::{MoveOrigin, RotateElement, ScaleElement};
use crate::edit::elements::MoveSelection;
use crate::model::{BoxClass, ElementId, Point, Shape};
use crate::pixels::PixelSource;
use crate::render::Placement;

/// How near (screen points) the cursor must be to grab a handle or a point.
pub const GRAB_RADIUS: f32 = 7.0;

/// A drag in progress.
#[derive(Clone, Debug)]
pub struct Drag {
    /// What it changes.
    pub kind: DragKind,
    /// Every edit of the drag carries it: the drag is one undo step.
    pub gesture: Gesture,
    /// Where the button went down, in sprite space.
    pub start: (f64, f64),
    /// Some edit of the drag went through (Escape then takes it back).
    pub edited: bool,
}

impl Drag {
    /// A drag that has changed nothing yet.
    pub fn new(kind: DragKind, gesture: Gesture, start: (f64, f64)) -> Drag {
        Drag {
            kind,
            gesture,
            start,
            edited: false,
        }
    }
}

/// Escape during a drag: the drag ends and what it changed is undone, like in Aseprite; a
/// rubber band gives back the selection it started from.
pub fn cancel_drag(tools: &mut ToolState, doc: &mut OpenDocument) {
    let Some(drag) = tools.drag.take() else {
        return;
    };
    if let DragKind::Band { before, .. } = drag.kind {
        doc.select_elements(before);
    } else if drag.edited {
        doc.undo();
    }
}

/// What a drag changes.
#[derive(Clone, Debug)]
pub enum DragKind {
    /// Moves a box (`handle` = `None`) or drags one of its handles.
    Box {
        /// The box; an inherited one gets a new id when the first edit copies it.
        element: ElementId,
        /// Its shape when the drag began.
        original: Shape,
        /// The handle held, or `None` to move the whole box.
        handle: Option<BoxHandle>,
        /// Added to the pointer for a handle: an edge gripped a little off the outline
        /// follows the pointer from where it is rather than jumping under it.
        grip: (f64, f64),
        /// The shape last applied.
        last: Option<Shape>,
    },
    /// Moves the selected elements together: a lone graphic or point, or several elements of
    /// any kind (a lone box moves as [`DragKind::Box`]).
    Move {
        /// What moves; boxes inherited from an AIR default become the frame's copies after the
        /// first step.
        elements: Vec<ElementId>,
        /// The offset applied so far.
        applied: Point,
    },
    /// A rubber band drawn from empty canvas: selects every element it touches.
    Band {
        /// The selection when the band began: Escape gives it back.
        before: Vec<ElementId>,
        /// Shift or Ctrl was held: the band adds to `before` instead of replacing it.
        adding: bool,
        /// The band's corner under the pointer, in sprite space (the other is the drag start).
        corner: (f64, f64),
    },
    /// Turns an attachment point by its angle knob.
    PointAngle {
        /// The point.
        element: ElementId,
        /// Its position, in sprite space.
        position: (f64, f64),
        /// The angle last applied.
        last: Option<f64>,
    },
    /// Moves a graphic's origin (pivot), keeping its pixels in place.
    Origin {
        /// The graphic.
        element: ElementId,
        /// The origin last applied, in source pixels.
        last: Option<Point>,
    },
    /// Turns a graphic about its pivot by its rotation knob.
    GraphicRotate {
        /// The graphic.
        element: ElementId,
        /// Its pivot, in sprite space.
        pivot: (f64, f64),
        /// The angle last applied.
        last: Option<f64>,
    },
    /// Scales a graphic by its corner handle.
    GraphicScale {
        /// The graphic.
        element: ElementId,
        /// The handles when the drag began.
        handles: GraphicHandles,
        /// The scale last applied.
        last: Option<(f64, f64)>,
    },
    /// Draws a new box.
    Draw {
        /// The box once the drag has drawn something.
        element: Option<ElementId>,
        /// The class it gets.
        class: BoxClass,
        /// A circle rather than a rectangle.
        circle: bool,
        /// The shape last applied.
        last: Option<Shape>,
    },
}

/// Everything a press or drag looks at.
pub struct Scene<'a> {
    /// The frame edited.
    pub context: FrameContext,
    /// The screen mapping.
    pub view: &'a View,
    /// Boxes shown on the frame.
    pub boxes: &'a [ShownBox],
    /// Pixels, for hit-testing graphics.
    pub pixels: &'a dyn PixelSource,
}

impl Scene<'_> {
    pub(super) fn tolerance(&self) -> f64 {
        (GRAB_RADIUS / self.view.scale) as f64
    }
}

/// The selected box, if exactly one element is selected and it is a shown box (handles are
/// for one element).
pub fn selected_box<'a>(doc: &OpenDocument, boxes: &'a [ShownBox]) -> Option<&'a ShownBox> {
    let id = doc.single_element()?;
    boxes.iter().find(|b| b.id == id)
}

/// The handle of the selected box under sprite position `at`.
fn handle_under(
    doc: &OpenDocument,
    scene: &Scene,
    at: (f64, f64),
) -> Option<(ElementId, Shape, BoxHandle)> {
    let shown = selected_box(doc, scene.boxes)?;
    let reach = (ROTATE_REACH / scene.view.scale) as f64;
    let rotatable = scene.context.capabilities.rotated_boxes;
    let tolerance = scene.tolerance();
    geometry::handles(&shown.collision.shape, rotatable, reach)
        .into_iter()
        .find(|(_, (x, y))| (x - at.0).abs() <= tolerance && (y - at.1).abs() <= tolerance)
        .map(|(handle, _)| (shown.id, shown.collision.shape.clone(), handle))
}

fn near(a: (f64, f64), b: (f64, f64), tolerance: f64) -> bool {
    (a.0 - b.0).abs() <= tolerance && (a.1 - b.1).abs() <= tolerance
}

/// The modifier keys held at a press.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PressKeys {
    /// Shift or Ctrl (Cmd on a Mac): a grabbed element joins the selection, a rubber band
    /// adds to it.
    pub adding: bool,
    /// Ctrl (Cmd on a Mac): the Box tool draws a new box even over an existing one.
    pub draw_anywhere: bool,
}

/// Starts a drag at sprite position `start`: a handle of the selected element first, then what
/// the tool does there (the Box tool moves a box dragged from inside and resizes one dragged by
/// an edge or corner, and draws elsewhere). Returns `None` when the press grabs nothing.
pub fn begin_drag(
    tools: &ToolState,
    doc: &mut OpenDocument,
    scene: &Scene,
    start: (f64, f64),
    keys: PressKeys,
) -> Option<DragKind> {
    let adding = keys.adding;
    let tolerance = scene.tolerance();
    if let Some((element, original, handle)) = handle_under(doc, scene, start) {
        return Some(DragKind::Box {
            element,
            original,
            handle: Some(handle),
            grip: (0.0, 0.0),
            last: None,
        });
    }
    if tools.tool != Tool::Box
        && let Some(knob) = angle_knob(doc, &scene.context, scene.view)
        && near(knob.tip, start, tolerance)
    {
        return Some(DragKind::PointAngle {
            element: knob.element,
            position: knob.position,
            last: None,
        });
    }
    if tools.tool == Tool::Select
        && let Some(handles) = graphic_handles(doc, &scene.context, scene.view, scene.pixels)
    {
        if near(handles.knob, start, tolerance) {
            return Some(DragKind::GraphicRotate {
                element: handles.element,
                pivot: handles.pivot,
                last: None,
            });
        }
        if handles.corner.is_some_and(|c| near(c, start, tolerance)) {
            return Some(DragKind::GraphicScale {
                element: handles.element,
                handles,
                last: None,
            });
        }
    }
    if tools.tool == Tool::Select
        && let Some((element, at)) = graphic_origin(doc)
        && near(at, start, tolerance)
    {
        return Some(DragKind::Origin {
            element,
            last: None,
        });
    }
    match tools.tool {
        Tool::Box => {
            let capabilities = scene.context.capabilities;
            if !capabilities.boxes {
                return None;
            }
            if !keys.draw_anywhere
                && let Some(grabbed) = box_tool_grab(doc, scene, start, adding)
            {
                return Some(grabbed);
            }
            Some(DragKind::Draw {
                element: None,
                class: tools.class.clone(),
                circle: tools.circle && capabilities.circles,
                last: None,
            })
        }
        Tool::Point => {
            let frame = doc.frame()?;
            let id = hit::point_under(frame, start, tolerance)?;
            Some(grab(doc, scene, id, adding))
        }
        Tool::Select => {
            let frame = doc.frame()?;
            let under = hit::element_under(
                doc.document(),
                frame,
                scene.boxes,
                scene.pixels,
                start,
                tolerance,
            );
            match under {
                Some(id) => Some(grab(doc, scene, id, adding)),
                None => Some(DragKind::Band {
                    before: doc.selected_elements().to_vec(),
                    adding,
                    corner: start,
                }),
            }
        }
    }
}

/// A Box-tool press on a box: by an edge or corner it resizes that box alone (it becomes the
/// selection); inside, it grabs the box as the Select tool would (moving the selection it is
/// part of). `None` when the press is on no box.
fn box_tool_grab(
    doc: &mut OpenDocument,
    scene: &Scene,
    start: (f64, f64),
    adding: bool,
) -> Option<DragKind> {
    let (id, edge) = hit::box_grip_under(scene.boxes, start, scene.tolerance())?;
    let Some((handle, grip)) = edge else {
        return Some(grab(doc, scene, id, adding));
    };
    let shown = scene.boxes.iter().find(|b| b.id == id)?;
    doc.select_element(id);
    Some(DragKind::Box {
        element: id,
        original: shown.collision.shape.clone(),
        handle: Some(handle),
        grip,
        last: None,
    })
}

/// A press on element `id`: an unselected element becomes the selection (or joins it when
/// `adding`); a selected one keeps the selection, so the drag moves every selected element.
fn grab(doc: &mut OpenDocument, scene: &Scene, id: ElementId, adding: bool) -> DragKind {
    if !doc.is_selected(id) {
        if adding {
            let mut elements = doc.selected_elements().to_vec();
            elements.push(id);
            doc.select_elements(elements);
        } else {
            doc.select_element(id);
        }
    }
    let elements = selection_on_frame(doc, scene.boxes);
    if let [only] = elements[..]
        && let Some(shown) = scene.boxes.iter().find(|b| b.id == only)
    {
        return DragKind::Box {
            element: only,
            original: shown.collision.shape.clone(),
            handle: None,
            grip: (0.0, 0.0),
            last: None,
        };
    }
    DragKind::Move {
        elements,
        applied: Point::ZERO,
    }
}

/// Sends the edit for the drag's new pointer position (nothing when it changes nothing).
pub fn continue_drag(
    tools: &mut ToolState,
    doc: &mut OpenDocument,
    scene: &Scene,
    pointer: (f64, f64),
    shift: bool,
    outcome: &mut CanvasOutcome,
) {
    let Some(drag) = tools.drag.as_mut() else {
        return;
    };
    let revision = doc.revision;
    let snap = scene.context.snap;
    let mut step = DragStep {
        doc,
        scene,
        outcome,
        gesture: Some(drag.gesture),
        target: scene.context.box_target(tools.scope),
        start: drag.start,
        pointer,
        delta: snap.point((pointer.0 - drag.start.0, pointer.1 - drag.start.1)),
        shift,
        snap,
    };
    // `None`: nothing to do for this position; else whether the edit was refused.
    let refused = match &mut drag.kind {
        DragKind::Box {
            element,
            original,
            handle,
            grip,
            last,
        } => step.reshape_box(element, original, *handle, *grip, last),
        DragKind::Move { elements, applied } => step.move_selection(elements, applied),
        DragKind::Band {
            before,
            adding,
            corner,
        } => step.band(before, *adding, corner),
        DragKind::PointAngle {
            element,
            position,
            last,
        } => {
            let angle = geometry::point_angle(*position, pointer, shift);
            angle.and_then(|angle| step.rotate(*element, angle, last))
        }
        DragKind::GraphicRotate {
            element,
            pivot,
            last,
        } => {
            // The knob points up from the pivot at no rotation.
            let angle = geometry::point_angle(*pivot, pointer, shift)
                .map(|angle| geometry::normalised_degrees(angle + 90.0));
            angle.and_then(|angle| step.rotate(*element, angle, last))
        }
        DragKind::GraphicScale {
            element,
            handles,
            last,
        } => step.scale(*element, handles, last),
        DragKind::Origin { element, last } => step.move_origin(*element, last),
        DragKind::Draw {
            element,
            class,
            circle,
            last,
        } => step.draw(element, class, *circle, last),
    };
    let Some(refused) = refused else {
        return;
    };
    if step.doc.revision != revision
        && let Some(drag) = tools.drag.as_mut()
    {
        drag.edited = true;
    }
    // A refused edit ends the drag: the message says why, and the mouse does nothing more.
    if refused {
        tools.drag = None;
    }
}

/// One step of a drag: where the pointer is, and what an edit it makes goes through. Each
/// method handles one kind of drag and answers `None` when this position changes nothing,
/// else whether the edit was refused.
struct DragStep<'a, 'b> {
    doc: &'a mut OpenDocument,
    scene: &'a Scene<'b>,
    outcome: &'a mut CanvasOutcome,
    gesture: Option<Gesture>,
    target: crate::edit::boxes::BoxTarget,
    start: (f64, f64),
    pointer: (f64, f64),
    /// The pointer's move from the start, snapped.
    delta: Point,
    shift: bool,
    snap: Snap,
}

impl DragStep<'_, '_> {
    fn apply(&mut self, command: &dyn crate::edit::Command) -> bool {
        apply(self.doc, command, self.gesture, self.outcome)
    }

    /// Moves the box, or one of its handles.
    fn reshape_box(
        &mut self,
        element: &mut ElementId,
        original: &Shape,
        handle: Option<BoxHandle>,
        grip: (f64, f64),
        last: &mut Option<Shape>,
    ) -> Option<bool> {
        let shape = match handle {
            // Moved, not rebuilt: the box keeps its size and the corners it was stored by.
            None => original.translated(self.delta),
            Some(h) => {
                let pointer = (self.pointer.0 + grip.0, self.pointer.1 + grip.1);
                geometry::reshaped(original, h, pointer, self.start, self.shift, self.snap)
            }
        };
        if last.as_ref() == Some(&shape) {
            return None;
        }
        // Named for what the drag does, as the history and the status bar tell it.
        let what = match handle {
            None => "Move",
            Some(BoxHandle::Rotate) => "Rotate",
            Some(BoxHandle::Edge { .. } | BoxHandle::Radius) => "Resize",
        };
        let command = crate::edit::Transaction::new(format!("{what} box")).with(SetBoxShape {
            target: self.target,
            element: *element,
            shape: shape.clone(),
        });
        if !self.apply(&command) {
            return Some(true);
        }
        // Editing an inherited box copies it onto this frame on the first step.
        *element = self.doc.single_element().unwrap_or(*element);
        *last = Some(shape);
        Some(false)
    }

    /// Moves the selected elements by the pointer's move.
    fn move_selection(
        &mut self,
        elements: &mut Vec<ElementId>,
        applied: &mut Point,
    ) -> Option<bool> {
        if self.delta == *applied {
            return None;
        }
        let command = MoveSelection {
            target: self.target,
            elements: elements.clone(),
            delta: self.delta - *applied,
        };
        let command = with_same_place_graphics(self.doc, command);
        let done = self.apply(command.as_ref());
        if done {
            *applied = self.delta;
            // The first step gives inherited boxes the frame's own copies: move those next.
            *elements = self.doc.selected_elements().to_vec();
        }
        Some(!done)
    }

    /// Selects what the band from the start to the pointer touches.
    fn band(
        &mut self,
        before: &[ElementId],
        adding: bool,
        corner: &mut (f64, f64),
    ) -> Option<bool> {
        *corner = self.pointer;
        let frame = self.doc.frame()?;
        let touched = hit::touched_by_band(
            self.doc.document(),
            frame,
            self.scene.boxes,
            self.scene.pixels,
            (self.start, self.pointer),
            self.scene.tolerance(),
        );
        let mut selection = if adding { before.to_vec() } else { Vec::new() };
        selection.extend(touched);
        self.doc.select_elements(selection);
        Some(false)
    }

    /// Turns a point or graphic to `angle`.
    fn rotate(&mut self, element: ElementId, angle: f64, last: &mut Option<f64>) -> Option<bool> {
        rotate_step(self.doc, element, angle, last, self.gesture, self.outcome)
    }

    /// Scales a graphic by the handle dragged.
    fn scale(
        &mut self,
        element: ElementId,
        handles: &GraphicHandles,
        last: &mut Option<(f64, f64)>,
    ) -> Option<bool> {
        let scale = scale_for(handles, self.pointer, self.shift);
        if *last == Some(scale) {
            return None;
        }
        let command = ScaleElement {
            element,
            scale_x: scale.0,
            scale_y: scale.1,
        };
        let done = self.apply(&command);
        if done {
            *last = Some(scale);
        }
        Some(!done)
    }

    /// Moves a graphic's origin, keeping the picture in place.
    fn move_origin(&mut self, element: ElementId, last: &mut Option<Point>) -> Option<bool> {
        let origin = source_point(self.doc, self.scene, element, self.pointer, self.snap)?;
        if *last == Some(origin) {
            return None;
        }
        let command = MoveOrigin {
            element,
            origin,
            keep_in_place: true,
        };
        // One origin per direction (Solarus): every frame's picture takes the new origin.
        let followers = super::same_place_graphics(self.doc, &[element]);
        let done = if followers.is_empty() {
            self.apply(&command)
        } else {
            let mut all = crate::edit::Transaction::new("Move origin");
            all.push(command);
            for follower in followers {
                all.push(MoveOrigin {
                    element: follower,
                    origin,
                    keep_in_place: true,
                });
            }
            self.apply(&all)
        };
        if done {
            *last = Some(origin);
        }
        Some(!done)
    }

    /// Draws a new box from the start to the pointer (the first step adds it).
    fn draw(
        &mut self,
        element: &mut Option<ElementId>,
        class: &BoxClass,
        circle: bool,
        last: &mut Option<Shape>,
    ) -> Option<bool> {
        // Shift draws a square, as in Aseprite.
        let pointer = if self.shift && !circle {
            square_corner(self.start, self.pointer)
        } else {
            self.pointer
        };
        let shape = geometry::drawn_shape(self.start, pointer, circle, self.snap);
        if !geometry::has_area(&shape) || last.as_ref() == Some(&shape) {
            return None;
        }
        let done = match element {
            None => {
                let command = AddBox {
                    target: self.target,
                    class: class.clone(),
                    shape: shape.clone(),
                };
                let done = self.apply(&command);
                if done {
                    *element = self.doc.single_element();
                }
                done
            }
            Some(id) => {
                // The box being drawn, grown: the step stays the drawing of a box.
                let label = format!("Add {}", crate::text::box_of(class.name()));
                let command = crate::edit::Transaction::new(label).with(SetBoxShape {
                    target: self.target,
                    element: *id,
                    shape: shape.clone(),
                });
                self.apply(&command)
            }
        };
        if done {
            *last = Some(shape);
        }
        Some(!done)
    }
}

/// The corner that makes the rectangle from `start` a square, on the side of `pointer`.
/// Turns `element` to `angle` unless that is the angle last applied (`None`: nothing to do);
/// otherwise whether the document refused it.
fn rotate_step(
    doc: &mut OpenDocument,
    element: ElementId,
    angle: f64,
    last: &mut Option<f64>,
    gesture: Option<Gesture>,
    outcome: &mut CanvasOutcome,
) -> Option<bool> {
    if *last == Some(angle) {
        return None;
    }
    let command = RotateElement {
        element,
        rotation: angle,
    };
    let done = apply(doc, &command, gesture, outcome);
    if done {
        *last = Some(angle);
    }
    Some(!done)
}

fn square_corner(start: (f64, f64), pointer: (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (pointer.0 - start.0, pointer.1 - start.1);
    let side = dx.abs().max(dy.abs());
    (start.0 + side.copysign(dx), start.1 + side.copysign(dy))
}

/// The source pixel of graphic `element` under sprite position `pointer`.
fn source_point(
    doc: &OpenDocument,
    scene: &Scene,
    element: ElementId,
    pointer: (f64, f64),
    snap: Snap,
) -> Option<Point> {
    let frame = doc.frame()?;
    let graphic = frame
        .elements
        .iter()
        .find(|e| e.id == element)?
        .as_graphic()?;
    let axis = scene
        .pixels
        .pixels(doc.document(), &graphic.source)
        .map_or((0, 0), |s| s.axis);
    let inverse = Placement::of(graphic, axis)?.inverse()?;
    Some(snap.point(inverse.to_source(pointer)))
}

/// `command`, with the graphics of the direction's other frames moved alike where the format
/// keeps one origin per direction (see [`super::same_place_graphics`]), as one step.
pub(super) fn with_same_place_graphics(
    doc: &OpenDocument,
    command: MoveSelection,
) -> Box<dyn crate::edit::Command> {
    let followers = super::same_place_graphics(doc, &command.elements);
    if followers.is_empty() {
        return Box::new(command);
    }
    // The frame moved and at least one other.
    let label = match followers.len() + 1 {
        2 => "Move the pictures of both frames of the direction".to_string(),
        n => format!("Move the pictures of all {n} frames of the direction"),
    };
    let delta = command.delta;
    Box::new(crate::edit::Transaction::new(label).with(command).with(
        crate::edit::canvas::MoveElements {
            elements: followers,
            delta,
        },
    ))
}
