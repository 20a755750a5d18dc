//! The tool strip above the canvas: the tools, and what the active tool and the selection
//! offer. Only what the document's format can save is offered (no circles or rotation handles
//! for AIR, no points where the format has none, no custom box classes in AIR).

use super::hit::ShownBox;
use super::naming::Naming;
use super::{CanvasOutcome, FrameContext, Tool, ToolState, apply};
use crate::app::canvas::overlay::class_colour;
use crate::app::context::availability::CommandView;
use crate::app::context::commands::UICommand;
use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::Feedback;
use crate::edit::boxes::{CopyBoxes, CopyBoxesTo, InheritedBoxes};
use crate::formats::Severity;
use crate::model::{BoxClass, ElementId, ElementKind};

/// Shows the strip.
pub fn show(
    ui: &mut egui::Ui,
    tools: &mut ToolState,
    doc: &mut OpenDocument,
    context: Option<FrameContext>,
    boxes: &[ShownBox],
    outcome: &mut CanvasOutcome,
) {
    let capabilities = doc.session.format().capabilities();
    // A tool chosen in another tab that this format cannot use (points in an AIR file)
    // gives way to Select, rather than staying chosen and refusing every click.
    if !tools.tool.usable_on(doc) {
        tools.tool = Tool::Select;
    }
    // Two rows that wrap in a narrow canvas rather than hiding buttons past its edge: the
    // first holds the tools and their options, the second what the selection offers.
    // Each row as tall as a button whatever it holds, so the canvas under a drag does not
    // move when a selection brings its buttons.
    let row_height = ui.spacing().interact_size.y;
    ui.horizontal_wrapped(|ui| {
        ui.set_min_height(row_height);
        tool_row(ui, tools, doc, context, capabilities)
    });
    ui.horizontal_wrapped(|ui| {
        ui.set_min_height(row_height);
        if let Some(context) = context {
            selection_actions(ui, tools, doc, &context, boxes, outcome);
        }
    });
}

fn tool_row(
    ui: &mut egui::Ui,
    tools: &mut ToolState,
    doc: &OpenDocument,
    context: Option<FrameContext>,
    capabilities: crate::formats::Capabilities,
) {
    let view = CommandView {
        doc: Some(doc),
        ..CommandView::default()
    };
    for (tool, hint) in [
        (Tool::Select, "Select, move, resize and rotate"),
        (
            Tool::Box,
            "Draw collision boxes from outside boxes; drag a box from inside to move it, by an \
             edge or corner to resize it; hold Ctrl to draw a new box over others",
        ),
        (Tool::Point, "Place attachment points"),
    ] {
        let command = tool.command();
        let availability = command.availability(&view);
        let key = command.shortcut_text(ui.ctx());
        let button = egui::Button::selectable(tools.tool == tool, tool.label());
        let response = ui
            .add_enabled(availability.is_ok(), button)
            .on_hover_text(format!("{hint} ({key})"));
        let response = match availability {
            Err(why) => response.on_disabled_hover_text(why.text()),
            Ok(()) => response,
        };
        if response.clicked() {
            tools.choose(tool, false);
        }
    }
    ui.separator();
    match tools.tool {
        Tool::Box => box_options(ui, tools, doc, capabilities.circles),
        Tool::Point | Tool::Select => {}
    }
    if context.is_some_and(|c| c.air) && capabilities.boxes {
        ui.separator();
        scope_toggle(ui, tools);
    }
}

fn box_options(ui: &mut egui::Ui, tools: &mut ToolState, doc: &OpenDocument, circles: bool) {
    if circles {
        ui.checkbox(&mut tools.circle, "Circle")
            .on_hover_text("Draw circles instead of rectangles (Shift+R)");
    } else {
        tools.circle = false;
    }
    let capabilities = doc.session.format().capabilities();
    // Where the format only names its boxes (Aseprite's slices), a new box is named, never
    // "hit" or "hurt", which it could not keep: the names the file uses, else these two.
    let mut classes = if capabilities.box_classes_known {
        vec![BoxClass::Hit, BoxClass::Hurt]
    } else {
        Vec::new()
    };
    if capabilities.custom_box_classes {
        let mut custom: Vec<BoxClass> = doc
            .document()
            .frames
            .values()
            .flat_map(|f| f.boxes().map(|(_, b)| b.class.clone()))
            .filter(|c| matches!(c, BoxClass::Custom(_)))
            .collect();
        custom.sort();
        custom.dedup();
        if custom.is_empty() && !capabilities.box_classes_known {
            custom = ["hitbox", "hurtbox"]
                .map(|name| BoxClass::Custom(name.to_string()))
                .to_vec();
        }
        classes.extend(custom);
        if !capabilities.box_classes_known && !matches!(tools.class, BoxClass::Custom(_)) {
            tools.class = classes[0].clone();
        }
        if !classes.contains(&tools.class) {
            classes.push(tools.class.clone());
        }
    } else if matches!(tools.class, BoxClass::Custom(_)) {
        tools.class = BoxClass::Hit;
    }
    ui.label("Class");
    egui::ComboBox::from_id_salt("sprat box class")
        .selected_text(
            egui::RichText::new(capabilities.box_class_label(&tools.class))
                .color(class_colour(&tools.class)),
        )
        .show_ui(ui, |ui| {
            for class in classes {
                let text = egui::RichText::new(capabilities.box_class_label(&class))
                    .color(class_colour(&class));
                ui.selectable_value(&mut tools.class, class.clone(), text);
            }
        })
        .response
        .on_hover_text("The class new boxes get");
    if capabilities.custom_box_classes {
        let field = ui.add(
            egui::TextEdit::singleline(&mut tools.new_class)
                .desired_width(80.0)
                .hint_text("new class"),
        );
        field.on_hover_text("Name a custom box class");
        let name = tools.new_class.trim().to_string();
        if ui
            .add_enabled(!name.is_empty(), egui::Button::new("Use class"))
            .on_hover_text("New boxes get the class typed beside")
            .clicked()
        {
            tools.class = BoxClass::Custom(name);
            tools.new_class.clear();
        }
    }
}

fn scope_toggle(ui: &mut egui::Ui, tools: &mut ToolState) {
    ui.label("Defaults:").on_hover_text(
        "On a frame that shows an earlier frame's default (ClsnNDefault) boxes, an edit either \
         changes this frame only or sets a new default from this frame on",
    );
    ui.selectable_value(
        &mut tools.scope,
        InheritedBoxes::ThisFrameOnly,
        "This frame only",
    )
    .on_hover_text("Default boxes: the frame gets its own ClsnN boxes");
    ui.selectable_value(
        &mut tools.scope,
        InheritedBoxes::DefaultFromHereOn,
        "From here on",
    )
    .on_hover_text(
        "Default boxes from here on: the frame declares ClsnNDefault boxes for the frames after it",
    );
}

/// Copy, delete, rename and hang buttons for what is selected.
fn selection_actions(
    ui: &mut egui::Ui,
    tools: &mut ToolState,
    doc: &mut OpenDocument,
    context: &FrameContext,
    boxes: &[ShownBox],
    outcome: &mut CanvasOutcome,
) {
    let selected = super::selection_on_frame(doc, boxes);
    let selected_boxes: Vec<_> = selected
        .iter()
        .copied()
        .filter(|id| boxes.iter().any(|b| b.id == *id))
        .collect();
    if context.capabilities.boxes {
        // The selected boxes, or every box the frame shows. A frame with none shows the
        // buttons greyed out rather than an empty row.
        let (elements, what) = match selected_boxes.len() {
            0 => (
                boxes.iter().map(|b| b.id).collect(),
                "every box of this frame",
            ),
            1 => (selected_boxes.clone(), "the selected box"),
            _ => (selected_boxes.clone(), "the selected boxes"),
        };
        let count = doc.direction_frames().len();
        let index = context.at.index;
        for (to, label, room, no_room) in [
            (
                CopyBoxesTo::Previous,
                "Copy boxes to previous",
                index > 0,
                "This is the first frame",
            ),
            (
                CopyBoxesTo::Next,
                "Copy boxes to next",
                index + 1 < count,
                "This is the last frame",
            ),
            (
                CopyBoxesTo::All,
                "Copy boxes to all",
                count > 1,
                "The direction has no other frame",
            ),
        ] {
            let whom = match to {
                CopyBoxesTo::Previous => "the previous frame",
                CopyBoxesTo::Next => "the next frame",
                CopyBoxesTo::All => "every other frame of the direction",
            };
            let hover = if selected_boxes.is_empty() {
                format!("Copy {what} to {whom}; they replace its boxes of the same classes")
            } else {
                format!(
                    "Copy {what} to {whom}; each replaces the box it overlaps there, or is added beside the boxes there"
                )
            };
            if ui
                .add_enabled(room && !boxes.is_empty(), egui::Button::new(label))
                .on_hover_text(hover)
                .on_disabled_hover_text(if boxes.is_empty() {
                    "This frame shows no boxes to copy"
                } else {
                    no_room
                })
                .clicked()
            {
                let command = CopyBoxes {
                    target: context.box_target(tools.scope),
                    elements: elements.clone(),
                    to,
                };
                // Said in the user's terms: which boxes went where, and what they took the
                // place of.
                let said = command.outcome(doc.document()).map(|c| c.sentence());
                if apply(doc, &command, None, outcome)
                    && let Ok(said) = said
                {
                    outcome.feedback = Some(Feedback::new(Severity::Info, said));
                }
            }
        }
    }
    let selected_point = doc.single_element().and_then(|id| {
        doc.frame()?
            .elements
            .iter()
            .find(|e| e.id == id && matches!(e.kind, ElementKind::Point(_)))
            .map(|e| (id, e.name.clone()))
    });
    if let Some((id, name)) = selected_point {
        ui.separator();
        if ui
            .button("Rename point")
            .on_hover_text("Name the selected point (double-click it on the canvas)")
            .clicked()
        {
            tools.naming = Some(Naming::new(id, name.to_string()));
        }
        if ui
            .button("Hang sequence…")
            .on_hover_text(format!(
                "Preview a sequence of this or another file hanging on \"{name}\""
            ))
            .clicked()
        {
            tools.hang.open_picker(name.to_string());
        }
    }
    // Last, so the buttons before it stay where they were whatever is selected.
    if !selected.is_empty() {
        ui.separator();
        let label = delete_label(doc, &selected, boxes);
        let key = UICommand::DeleteSelection.shortcut_text(ui.ctx());
        let refusal = super::graphic_delete_refusal(doc, &selected);
        if ui
            .add_enabled(refusal.is_none(), egui::Button::new(&label))
            .on_hover_text(format!("{label}, in one undo step ({key})"))
            .on_disabled_hover_text(refusal.unwrap_or_default())
            .clicked()
            && let Err(message) = super::delete_selection(doc, boxes, context, tools.scope)
        {
            outcome.feedback = Some(Feedback::refusal(&message, doc));
        }
    }
}

/// "Delete box", "Delete point", "Delete graphic" for one element, "Delete 3 elements" for more.
fn delete_label(doc: &OpenDocument, selected: &[ElementId], boxes: &[ShownBox]) -> String {
    let [only] = selected else {
        return format!("Delete {} elements", selected.len());
    };
    if boxes.iter().any(|b| b.id == *only) {
        return "Delete box".to_string();
    }
    let kind = doc
        .frame()
        .and_then(|f| f.elements.iter().find(|e| e.id == *only))
        .map(|e| &e.kind);
    match kind {
        Some(ElementKind::Point(_)) => "Delete point",
        Some(ElementKind::Graphic(_)) => "Delete graphic",
        _ => "Delete element",
    }
    .to_string()
}
