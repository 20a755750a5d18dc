//! The canvas tools, like Fighter Factory's and Aseprite's: a tool strip over the canvas with
//! Select (V), Box (R, Shift+R for circles) and Point (P), the class picker for new boxes, the
//! AIR default-box scope, copy-boxes buttons, point naming and hanging a sequence on a point.
//!
//! Several elements can be selected at once (Shift/Ctrl+click, a rubber band, Ctrl+A); the
//! selection lives in the session's selection ([`OpenDocument::selected_elements`]), drags,
//! nudges and Delete act on all of it in one undo step, and handles show for a lone element.
//!
//! Reading order: [`ToolState`] and [`FrameContext`] (this file), [`strip`] (the buttons),
//! [`input`] (pointer drags and arrow nudges, one undo step per drag), [`geometry`] (snapping,
//! handles, the shapes a drag gives), [`hit`] (what is under the cursor or a rubber band),
//! [`transform_handles`] (the knobs and corners that turn and scale an element), [`paint`]
//! (the selection, handles), [`naming`] (the point-name popup), [`hang`] (sequences
//! hung on points).
//!
//! Every change goes through the commands of [`crate::edit`]; a refusal comes back to the app
//! as a status message in [`CanvasOutcome`].

pub mod click;
pub mod geometry;
pub mod hang;
pub mod hit;
pub mod input;
pub mod naming;
pub mod paint;
pub mod strip;
pub mod transform_handles;

use crate::app::canvas::overlay;
use crate::app::context::availability::CommandView;
use crate::app::context::commands::UICommand;
use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::Feedback;
use crate::edit::Command;
use crate::edit::Gesture;
use crate::edit::boxes::{BoxTarget, FrameAt, InheritedBoxes};
use crate::edit::elements::DeleteSelection;
use crate::formats::Capabilities;
use crate::model::{BoxClass, DefaultBoxRule, ElementId, ElementKind, FrameId, effective_boxes};
use geometry::Snap;
use hit::ShownBox;

/// The tool the canvas's primary button uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Click to select, drag to move, handles to resize and rotate.
    #[default]
    Select,
    /// Drag to draw a box of the chosen class.
    Box,
    /// Click to place an attachment point, drag one to move it.
    Point,
}

impl Tool {
    /// The command that chooses the tool; whether `doc` can use the tool is that command's
    /// [`UICommand::availability`].
    pub fn command(self) -> UICommand {
        match self {
            Tool::Select => UICommand::SelectTool,
            Tool::Box => UICommand::BoxTool,
            Tool::Point => UICommand::PointTool,
        }
    }

    /// Whether `doc` (its format) can use the tool.
    pub fn usable_on(self, doc: &OpenDocument) -> bool {
        let view = CommandView {
            doc: Some(doc),
            ..CommandView::default()
        };
        self.command().availability(&view).is_ok()
    }

    /// The name on the tool strip.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Select => "Select",
            Tool::Box => "Box",
            Tool::Point => "Point",
        }
    }
}

/// What the tools remember between frames.
pub struct ToolState {
    /// The active tool.
    pub tool: Tool,
    /// The box tool draws circles (where the format can hold them).
    pub circle: bool,
    /// The class new boxes get.
    pub class: BoxClass,
    /// The name typed for a new custom class.
    pub new_class: String,
    /// On AIR frames, whether a box edit is for this frame only or the default from here on.
    pub scope: InheritedBoxes,
    /// The drag in progress.
    pub drag: Option<input::Drag>,
    /// The point-name popup, when open.
    pub naming: Option<naming::Naming>,
    /// Sequences hung on points, and the picker.
    pub hang: hang::Hanging,
}

impl Default for ToolState {
    fn default() -> Self {
        ToolState {
            tool: Tool::Select,
            circle: false,
            class: BoxClass::Hit,
            new_class: String::new(),
            scope: InheritedBoxes::ThisFrameOnly,
            drag: None,
            naming: None,
            hang: hang::Hanging::default(),
        }
    }
}

impl ToolState {
    /// Takes up `tool` (drawing circles when `circle`, for the box tool), ending any drag.
    pub fn choose(&mut self, tool: Tool, circle: bool) {
        self.tool = tool;
        if tool == Tool::Box {
            self.circle = circle;
        }
        self.drag = None;
    }
}

/// What the canvas's parts ask for during a frame.
#[derive(Debug, Default)]
pub struct CanvasOutcome {
    /// What the status bar should say (a refused edit, with the reason).
    pub feedback: Option<Feedback>,
    /// The user wants to hang a sequence from another file: show the open dialog.
    pub pick_hang_file: bool,
}

/// The frame the canvas edits and what its format can hold.
#[derive(Clone, Copy, Debug)]
pub struct FrameContext {
    /// The frame's place in its sequence.
    pub at: FrameAt,
    /// The frame.
    pub frame: FrameId,
    /// What the document's format can save.
    pub capabilities: Capabilities,
    /// How positions are rounded.
    pub snap: Snap,
    /// The default-box rule the preview follows.
    pub rule: DefaultBoxRule,
    /// The format has AIR default boxes (`ClsnNDefault`).
    pub air: bool,
}

impl FrameContext {
    /// The frame the player shows, or `None` when there is none.
    pub fn of(doc: &OpenDocument, rule: DefaultBoxRule) -> Option<FrameContext> {
        let frame = doc.player.frame_id(doc.document())?;
        let capabilities = doc.session.format().capabilities();
        Some(FrameContext {
            at: FrameAt {
                sequence: doc.player.sequence(),
                direction: doc.player.direction(),
                index: doc.player.frame_index(),
            },
            frame,
            capabilities,
            // Whole pixels, as the status bar shows them; Alt allows fractions where the
            // format keeps them (see `allowing_subpixel`).
            snap: Snap::WholePixels,
            rule,
            air: capabilities.default_boxes,
        })
    }

    /// The context with sub-pixel positions when the user holds the key for them (Alt) and
    /// the format keeps fractions of a pixel; otherwise positions snap to whole pixels.
    pub fn allowing_subpixel(mut self, held: bool) -> FrameContext {
        if held && self.capabilities.subpixel {
            self.snap = Snap::Subpixel;
        }
        self
    }

    /// Where box commands edit, with the user's scope choice for AIR defaults.
    pub fn box_target(&self, scope: InheritedBoxes) -> BoxTarget {
        BoxTarget {
            at: self.at,
            rule: self.rule,
            inherited: self.air.then_some(scope),
        }
    }
}

/// The boxes shown on the current frame (own and inherited), hidden classes left out.
pub fn shown_boxes(
    doc: &OpenDocument,
    rule: DefaultBoxRule,
    visible: impl Fn(&BoxClass) -> bool,
) -> Vec<ShownBox> {
    let frames = doc.direction_frames();
    let index = doc.player.frame_index();
    let Some(frame) = frames.get(index) else {
        return Vec::new();
    };
    overlay::drawn_boxes(frame, effective_boxes(&frames, index, rule))
        .into_iter()
        .filter(|b| visible(&b.effective.collision.class))
        .map(|b| ShownBox {
            id: b.effective.element.id,
            collision: b.effective.collision.clone(),
            inherited: !matches!(b.effective.origin, crate::model::BoxOrigin::ThisFrame),
        })
        .collect()
}

/// Applies an edit; a refusal is kept in `outcome` for the status bar. The elements the edit
/// selects (a new box, the copies of moved inherited boxes) become the canvas selection
/// through [`OpenDocument::apply`].
pub fn apply(
    doc: &mut OpenDocument,
    command: &dyn Command,
    gesture: Option<Gesture>,
    outcome: &mut CanvasOutcome,
) -> bool {
    match doc.apply(command, gesture) {
        Ok(()) => true,
        Err(message) => {
            outcome.feedback = Some(Feedback::refusal(&message, doc));
            false
        }
    }
}

/// The selected elements of the frame on show (its graphics and points, and those of `boxes`,
/// the boxes in force on it, own or inherited from an AIR default), in selection order: what
/// moving and deleting act on. Elements of other frames, and boxes left out of `boxes` (the
/// canvas leaves hidden ones out of what it moves), are left alone.
pub fn selection_on_frame(doc: &OpenDocument, boxes: &[ShownBox]) -> Vec<ElementId> {
    let Some(frame) = doc.frame() else {
        return Vec::new();
    };
    let shown = |id: ElementId| {
        boxes.iter().any(|b| b.id == id)
            || frame
                .elements
                .iter()
                .any(|e| e.id == id && !matches!(e.kind, ElementKind::Box(_)))
    };
    doc.selected_elements()
        .iter()
        .copied()
        .filter(|id| shown(*id))
        .collect()
}

/// Deletes the selected elements of the frame on show (see [`selection_on_frame`]) in one
/// undo step; boxes inherited from an AIR default follow the scope toggle.
pub fn delete_selection(
    doc: &mut OpenDocument,
    boxes: &[ShownBox],
    context: &FrameContext,
    scope: InheritedBoxes,
) -> Result<(), String> {
    let elements = selection_on_frame(doc, boxes);
    if elements.is_empty() {
        return Err("no selected element is on this frame".to_string());
    }
    if let Some(why) = graphic_delete_refusal(doc, &elements) {
        return Err(why);
    }
    let command = DeleteSelection {
        target: context.box_target(scope),
        elements,
    };
    doc.apply(&command, None)
}

/// Why the graphics among `elements` cannot be deleted, on a format whose frame N always
/// shows cell N of the direction's grid (Solarus): a frame without its picture cannot be
/// written; or on a frame read from a file whose pictures are written as read (an Aseprite
/// file's cels). None where they can.
pub fn graphic_delete_refusal(doc: &OpenDocument, elements: &[ElementId]) -> Option<String> {
    let frame = doc.frame()?;
    let graphic = frame
        .elements
        .iter()
        .any(|e| elements.contains(&e.id) && matches!(e.kind, ElementKind::Graphic(_)));
    if !graphic {
        return None;
    }
    let shown = doc.player.frame_id(doc.document())?;
    if let Some(why) = doc.session.why_pictures_kept(shown) {
        return Some(why);
    }
    doc.session
        .format()
        .capabilities()
        .frames_are_grid_cells
        .then(|| {
            format!(
                "{} files show one cell of the direction's picture on every frame: a frame's graphic cannot be deleted (delete the last frames instead)",
                doc.format_name()
            )
        })
}

/// The graphics of the direction's other frames that stand where the selected graphics of
/// the frame on show do (the same place among each frame's graphics), on a format with one
/// origin per direction (Solarus): there moving one frame's picture moves the direction's
/// origin, so all its frames' pictures go with it. Empty elsewhere.
pub fn same_place_graphics(doc: &OpenDocument, elements: &[ElementId]) -> Vec<ElementId> {
    if !doc.session.format().capabilities().one_origin_per_direction {
        return Vec::new();
    }
    let (Some(frame), Some(shown)) = (doc.frame(), doc.player.frame_id(doc.document())) else {
        return Vec::new();
    };
    let graphics_of = |frame: &crate::model::Frame| -> Vec<ElementId> {
        frame
            .elements
            .iter()
            .filter(|e| matches!(e.kind, ElementKind::Graphic(_)))
            .map(|e| e.id)
            .collect()
    };
    let places: Vec<usize> = graphics_of(frame)
        .iter()
        .enumerate()
        .filter(|(_, id)| elements.contains(id))
        .map(|(place, _)| place)
        .collect();
    if places.is_empty() {
        return Vec::new();
    }
    let mut others = doc.direction_frame_ids();
    others.sort_unstable();
    others.dedup();
    others
        .into_iter()
        .filter(|id| *id != shown)
        .filter_map(|id| doc.document().frame(id))
        .flat_map(|other| {
            let graphics = graphics_of(other);
            places
                .iter()
                .filter_map(|place| graphics.get(*place).copied())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Every element the canvas shows on the frame (Ctrl+A): graphics and points in draw order,
/// then the boxes shown (`boxes`, own and inherited, hidden classes left out).
pub fn all_on_frame(doc: &OpenDocument, boxes: &[ShownBox]) -> Vec<ElementId> {
    let Some(frame) = doc.frame() else {
        return Vec::new();
    };
    frame
        .elements
        .iter()
        .filter(|e| !matches!(e.kind, ElementKind::Box(_)))
        .map(|e| e.id)
        .chain(boxes.iter().map(|b| b.id))
        .collect()
}
