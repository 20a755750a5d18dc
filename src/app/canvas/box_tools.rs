//! The "Box tools" menu over the canvas: fit, trace, interpolate and mirror collision boxes on
//! the frames selected in the timeline (the frame on show when none is), each one undo step.
//! Its choices (class, margin, most boxes, thin parts, easing, replace) are kept per window
//! while the editor runs.

use crate::app::canvas::tools::{CanvasOutcome, FrameContext, apply};
use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::Feedback;
use crate::assets::ImageStore;
use crate::boxes::roles::Role;
use crate::boxes::trace::MAX_TRACE_BOXES;
use crate::boxes::{BoxMethod, Easing, MirrorAxis, TraceOptions, plan_boxes};
use crate::edit::box_tools::{
    BoxRun, ExistingBoxes, InterpolateBoxes, InterpolationPlan, MirrorElements, PlaceBoxes,
};
use crate::formats::Severity;
use crate::model::{BoxClass, CollisionBox, ElementKind, SequenceId, effective_boxes};
use egui::containers::menu::{MenuButton, MenuConfig};
use std::collections::BTreeMap;

/// The menu's choices.
#[derive(Clone, Debug)]
struct Choices {
    class: BoxClass,
    margin: i32,
    max_boxes: usize,
    thin: u32,
    easing: Easing,
    replace: bool,
    /// Interpolate was asked for: the menu shows what the frames between would get, with
    /// Apply and Cancel.
    previewing: bool,
}

impl Default for Choices {
    fn default() -> Self {
        Choices {
            class: BoxClass::Hurt,
            margin: 0,
            max_boxes: 3,
            thin: 0,
            easing: Easing::Linear,
            replace: true,
            previewing: false,
        }
    }
}

/// What Interpolate would give the frames between two keyframes, shown before it is applied:
/// the boxes each in-between frame (by position) would show, of every class interpolated.
pub struct InterpolatePreview {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// The boxes of each frame between.
    pub frames: BTreeMap<usize, Vec<CollisionBox>>,
}

/// Shows the menu button; nothing where the format has no boxes or no frame is on show. Gives
/// what Interpolate would do while the menu shows it, for the canvas to draw.
pub fn show(
    ui: &mut egui::Ui,
    doc: &mut OpenDocument,
    context: Option<FrameContext>,
    pixels: &ImageStore,
    outcome: &mut CanvasOutcome,
) -> Option<InterpolatePreview> {
    let context = context.filter(|c| c.capabilities.boxes)?;
    let id = egui::Id::unique("sprat box tools choices");
    let mut choices: Choices = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    // Clicks inside the menu (its fields, its Class and Easing lists) leave it open: only a
    // click outside it, or one of its actions, closes it. The lists are submenus, not combo
    // boxes: egui keeps one popup open at a time, so a combo box's list would close the menu.
    let config = MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    let (button, shown) = MenuButton::new("Box tools").config(config).ui(ui, |ui| {
        options(ui, doc, &context, &mut choices);
        ui.separator();
        actions(ui, doc, &context, &mut choices, pixels, outcome)
    });
    button
        .on_hover_text("Fit, trace, interpolate and mirror boxes on the selected timeline frames");
    let preview = match shown {
        Some(shown) => shown.inner,
        // A closed menu shows no preview, and opens again without one.
        None => {
            choices.previewing = false;
            None
        }
    };
    ui.data_mut(|d| d.insert_temp(id, choices));
    preview
}

fn options(ui: &mut egui::Ui, doc: &OpenDocument, context: &FrameContext, choices: &mut Choices) {
    let mut classes = vec![BoxClass::Hit, BoxClass::Hurt];
    if context.capabilities.custom_box_classes {
        classes.extend(doc.session.document().box_classes());
    }
    classes.dedup();
    let class_label = context.capabilities.box_class_label(&choices.class);
    ui.menu_button(format!("Class: {class_label}"), |ui| {
        for class in classes {
            let label = context.capabilities.box_class_label(&class);
            ui.selectable_value(&mut choices.class, class, label);
        }
    });
    ui.horizontal(|ui| {
        ui.label("Margin");
        ui.add(
            egui::DragValue::new(&mut choices.margin)
                .range(-32..=64)
                .suffix(" px"),
        );
    });
    ui.horizontal(|ui| {
        ui.label("Most boxes");
        ui.add(egui::DragValue::new(&mut choices.max_boxes).range(1..=MAX_TRACE_BOXES));
    });
    ui.horizontal(|ui| {
        ui.label("Leave out parts thinner than");
        ui.add(
            egui::DragValue::new(&mut choices.thin)
                .range(0..=64)
                .suffix(" px"),
        );
    });
    ui.menu_button(format!("Easing: {}", choices.easing.label()), |ui| {
        for easing in Easing::ALL {
            ui.selectable_value(&mut choices.easing, easing, easing.label());
        }
    });
    ui.checkbox(&mut choices.replace, "Replace boxes the frames have")
        .on_hover_text("Off: frames that already show boxes of the class are left alone");
}

fn actions(
    ui: &mut egui::Ui,
    doc: &mut OpenDocument,
    context: &FrameContext,
    choices: &mut Choices,
    pixels: &ImageStore,
    outcome: &mut CanvasOutcome,
) -> Option<InterpolatePreview> {
    let mut frames = doc.selected_frames();
    if frames.is_empty() {
        frames.push(context.at.index);
    }
    let run = BoxRun {
        sequence: context.at.sequence,
        direction: context.at.direction,
        rule: context.rule,
        default_boxes: context.capabilities.default_boxes,
    };
    let count = frames.len();
    let trace = TraceOptions {
        max_boxes: choices.max_boxes,
        thin: choices.thin,
        margin: choices.margin,
    };
    for (label, method) in [
        (
            "Fit",
            BoxMethod::Fit {
                margin: choices.margin,
            },
        ),
        ("Trace", BoxMethod::Trace(trace)),
    ] {
        if ui
            .button(label)
            .on_hover_text(format!(
                "{label} {} boxes to the opaque pixels of {}",
                context.capabilities.box_class_label(&choices.class),
                crate::text::count(count, "frame")
            ))
            .clicked()
        {
            let sequence = doc.sequence().cloned()?;
            let planned = plan_boxes(
                doc.document(),
                &sequence,
                run.direction,
                &frames,
                method,
                pixels,
            );
            let command = PlaceBoxes {
                run,
                class: choices.class.clone(),
                frames: planned,
                existing: if choices.replace {
                    ExistingBoxes::Replace
                } else {
                    ExistingBoxes::Keep
                },
                label: format!(
                    "{} {}",
                    method.verb(),
                    crate::text::boxes_of(choices.class.name())
                ),
            };
            let changed = command.changed_frames(doc.document()).unwrap_or_default();
            if apply(doc, &command, None, outcome) {
                let said = command.done_sentence(&changed);
                outcome.feedback = Some(Feedback::new(Severity::Info, said));
            }
            ui.close();
        }
    }
    let (first, last) = (frames[0], frames[count - 1]);
    let between = last >= first + 2;
    let command = InterpolateBoxes {
        run,
        from: first,
        to: last,
        easing: choices.easing,
    };
    let mut preview = None;
    if choices.previewing && between {
        preview = interpolate_preview(ui, doc, context, &command, choices, outcome);
    } else {
        choices.previewing = false;
        if ui
            .add_enabled(between, egui::Button::new("Interpolate…"))
            .on_hover_text("Show what the frames between the first and last selected frames would get from their boxes and points, then apply it")
            .on_disabled_hover_text("Select two keyframes with frames between them in the timeline")
            .clicked()
        {
            choices.previewing = true;
        }
    }
    for (label, axis) in [
        ("Mirror horizontally", MirrorAxis::Horizontal),
        ("Mirror vertically", MirrorAxis::Vertical),
    ] {
        if ui
            .button(label)
            .on_hover_text("Copy the selected boxes and points (all of them when none is) of the frame on show, flipped about the origin, to the other selected frames (or flip them in place)")
            .clicked()
        {
            let command = MirrorElements {
                run,
                source: context.at.index,
                elements: mirrored_elements(doc, context),
                axis,
                targets: mirror_targets(&frames, context.at.index),
            };
            // Said in the user's terms (the frames chosen), not in the frames whose lines
            // changed: on M.U.G.E.N files a run of equal boxes is one default.
            let said = mirror_sentence(doc, &command, label);
            if apply(doc, &command, None, outcome) {
                outcome.feedback = Some(Feedback::new(Severity::Info, said));
            }
            ui.close();
        }
    }
    if !context.capabilities.box_classes_known {
        roles(ui, doc, context, outcome);
    }
    preview
}

/// What Interpolate would give each frame between the keyframes, listed in the menu (and
/// returned for the canvas to draw), with Apply and Cancel.
fn interpolate_preview(
    ui: &mut egui::Ui,
    doc: &mut OpenDocument,
    context: &FrameContext,
    command: &InterpolateBoxes,
    choices: &mut Choices,
    outcome: &mut CanvasOutcome,
) -> Option<InterpolatePreview> {
    let plan = command.plan(doc.document());
    ui.label(format!(
        "Interpolate from frame {} to frame {}; the frames between get:",
        command.from, command.to
    ));
    let applicable = match &plan {
        Err(refusal) => {
            ui.label(crate::text::capitalised(&refusal.message));
            false
        }
        Ok(plan) if plan.is_empty() => {
            ui.label("Nothing: the two keyframes have no boxes of the same class and no points of the same name");
            false
        }
        Ok(plan) => {
            for index in command.from + 1..command.to {
                ui.label(frame_line(index, plan, context));
            }
            true
        }
    };
    ui.horizontal(|ui| {
        if ui
            .add_enabled(applicable, egui::Button::new("Apply"))
            .on_hover_text("Give the frames between these boxes and points, in one undo step")
            .clicked()
        {
            choices.previewing = false;
            apply(doc, command, None, outcome);
            ui.close();
        }
        if ui.button("Cancel").clicked() {
            choices.previewing = false;
        }
    });
    let plan = plan.ok()?;
    let mut frames: BTreeMap<usize, Vec<CollisionBox>> = BTreeMap::new();
    for index in command.from + 1..command.to {
        let boxes: Vec<CollisionBox> = plan.boxes_of(index).into_iter().cloned().collect();
        if !boxes.is_empty() {
            frames.insert(index, boxes);
        }
    }
    Some(InterpolatePreview {
        sequence: command.run.sequence,
        direction: command.run.direction,
        frames,
    })
}

/// "Frame 2: hurt (Clsn2) −13,−80 30×80, hurt (Clsn2) 0,−94 12×14; 1 point".
fn frame_line(index: usize, plan: &InterpolationPlan, context: &FrameContext) -> String {
    let boxes: Vec<String> = plan
        .boxes_of(index)
        .iter()
        .map(|b| {
            let [left, top, right, bottom] = crate::boxes::matching::bounds(&b.shape);
            format!(
                "{} {},{} {}×{}",
                context.capabilities.box_class_label(&b.class),
                left.round(),
                top.round(),
                (right - left).round(),
                (bottom - top).round()
            )
        })
        .collect();
    let points = plan.points.get(&index).map_or(0, Vec::len);
    let mut line = format!("Frame {index}: ");
    line.push_str(&if boxes.is_empty() {
        "no boxes".to_string()
    } else {
        boxes.join(", ")
    });
    if points > 0 {
        line.push_str(&format!("; {}", crate::text::count(points, "point")));
    }
    line
}

/// Draws the boxes Interpolate would give the frame on show, dashed, while the menu shows
/// them: what the frame will look like before anything is applied.
pub fn paint_preview(
    painter: &egui::Painter,
    view: &crate::app::canvas::view::View,
    doc: &OpenDocument,
    preview: &InterpolatePreview,
) {
    if preview.sequence != doc.player.sequence() || preview.direction != doc.player.direction() {
        return;
    }
    let Some(boxes) = preview.frames.get(&doc.player.frame_index()) else {
        return;
    };
    for b in boxes {
        let outline: Vec<egui::Pos2> = crate::app::canvas::overlay::shape_outline(&b.shape)
            .into_iter()
            .map(|(x, y)| view.to_screen(x, y))
            .collect();
        let mut closed = outline.clone();
        closed.extend(outline.first().copied());
        let colour = crate::app::canvas::overlay::class_colour(&b.class);
        let stroke = egui::Stroke::new(2.0, colour.gamma_multiply(0.9));
        painter.extend(egui::Shape::dashed_line(&closed, stroke, 6.0, 4.0));
    }
}

/// Which of the document's box names are hit boxes and which hurt boxes, for the checks of a
/// format that only names its boxes (an Aseprite slice's name): the answer is kept per file in
/// Sprat's settings, and the box warnings are worked out again with it.
fn roles(
    ui: &mut egui::Ui,
    doc: &mut OpenDocument,
    context: &FrameContext,
    outcome: &mut CanvasOutcome,
) {
    let capabilities = context.capabilities;
    let names: Vec<String> = doc
        .document()
        .box_classes()
        .into_iter()
        .map(|class| class.name().to_string())
        .collect();
    if names.is_empty() {
        return;
    }
    ui.separator();
    ui.label(format!(
        "Which {} are hit and hurt boxes",
        crate::text::plural(capabilities.box_word())
    ))
    .on_hover_text(
        "The checks warn about hit boxes without a hurt box only for the names given here",
    );
    for name in names {
        let role = doc
            .box_roles
            .role_of(&BoxClass::Custom(name.clone()), false);
        let mut chosen = role;
        ui.menu_button(format!("{name}: {}", role_word(role)), |ui| {
            for option in [None, Some(Role::Hit), Some(Role::Hurt)] {
                if ui.radio(chosen == option, role_word(option)).clicked() {
                    chosen = option;
                    ui.close();
                }
            }
        });
        if chosen != role {
            let roles = &mut doc.box_roles;
            roles.hit.retain(|n| *n != name);
            roles.hurt.retain(|n| *n != name);
            match chosen {
                Some(Role::Hit) => roles.hit.push(name.clone()),
                Some(Role::Hurt) => roles.hurt.push(name.clone()),
                None => {}
            }
            let said = format!(
                "{} named “{name}” {}; the box warnings were worked out again",
                crate::text::plural(capabilities.box_word()),
                match chosen {
                    Some(Role::Hit) => "are hit boxes",
                    Some(Role::Hurt) => "are hurt boxes",
                    None => "are neither hit nor hurt boxes",
                }
            );
            outcome.feedback = Some(Feedback::new(
                Severity::Info,
                crate::text::capitalised(&said),
            ));
        }
    }
}

/// What a role is called in the menu.
fn role_word(role: Option<Role>) -> &'static str {
    match role {
        None => "neither",
        Some(Role::Hit) => "hit box",
        Some(Role::Hurt) => "hurt box",
    }
}

/// The selected boxes and points of the frame on show, or all of them when none is selected.
fn mirrored_elements(doc: &OpenDocument, context: &FrameContext) -> Vec<crate::model::ElementId> {
    let frames = doc.direction_frames();
    let Some(frame) = frames.get(context.at.index) else {
        return Vec::new();
    };
    let shown: Vec<crate::model::ElementId> =
        effective_boxes(&frames, context.at.index, context.rule)
            .iter()
            .map(|b| b.element.id)
            .chain(
                frame
                    .elements
                    .iter()
                    .filter(|e| matches!(e.kind, ElementKind::Point(_)))
                    .map(|e| e.id),
            )
            .collect();
    let selected: Vec<_> = doc
        .selected_elements()
        .iter()
        .copied()
        .filter(|id| shown.contains(id))
        .collect();
    if selected.is_empty() { shown } else { selected }
}

/// "Mirrored 2 boxes and 1 point of frame 3 horizontally onto 3 frames" (or "in place").
fn mirror_sentence(doc: &OpenDocument, command: &MirrorElements, menu_label: &str) -> String {
    let frames = doc.direction_frames();
    let points = frames.get(command.source).map_or(0, |frame| {
        frame
            .elements
            .iter()
            .filter(|e| command.elements.contains(&e.id) && matches!(e.kind, ElementKind::Point(_)))
            .count()
    });
    let boxes = command.elements.len() - points;
    let what = match (boxes, points) {
        (b, 0) => crate::text::count(b, "box"),
        (0, p) => crate::text::count(p, "point"),
        (b, p) => format!(
            "{} and {}",
            crate::text::count(b, "box"),
            crate::text::count(p, "point")
        ),
    };
    // "Mirror horizontally" -> "horizontally".
    let axis = menu_label.trim_start_matches("Mirror ");
    let onto = if command.targets == [command.source] {
        "in place".to_string()
    } else {
        format!(
            "onto {}",
            crate::text::count(command.targets.len(), "frame")
        )
    };
    format!("Mirrored {what} of frame {} {axis} {onto}", command.source)
}

/// The selected frames other than the one on show, or that one alone (a flip in place).
fn mirror_targets(frames: &[usize], source: usize) -> Vec<usize> {
    let others: Vec<usize> = frames.iter().copied().filter(|f| *f != source).collect();
    if others.is_empty() {
        vec![source]
    } else {
        others
    }
}
