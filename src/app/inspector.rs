//! The inspector: every field of the selected sequence, frame and element. The loop point and
//! frame durations are edited here through `edit` commands (a drag is one undo step); a value
//! the document refuses is not applied and its message goes to the status bar.

use super::workspace::{OpenDocument, trim_float};
use crate::edit::inspector::{FrameField, SequenceField, SetFrameField, SetSequenceField};
use crate::edit::{Command, Gesture};
use crate::model::{
    BlendMode, BoxScope, ElementKind, EndBehavior, FrameDuration, GraphicSource, Origin, Shape,
};

/// An edit asked for in the inspector, applied after painting.
struct Edit {
    command: Box<dyn Command>,
    /// True when the change starts a new undo step (a new drag or a typed value).
    new_step: bool,
}

/// Whether a widget's change starts a new undo step: a click or typed value always does, a
/// drag only when it starts.
fn starts_step(response: &egui::Response) -> bool {
    !response.dragged() || response.drag_started()
}

fn field(ui: &mut egui::Ui, name: &str, value: impl Into<String>) {
    ui.label(name);
    ui.label(value.into());
    ui.end_row();
}

/// Paints the inspector; clicking an element in the list selects it. Returns the message of an
/// edit the document refused.
pub fn show(
    ui: &mut egui::Ui,
    open: &mut OpenDocument,
    gesture: &mut Option<Gesture>,
) -> Option<String> {
    let mut edits = Vec::new();
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            sequence_section(ui, open, &mut edits);
            if let Some(id) = frame_section(ui, open, &mut edits) {
                open.selected_element = Some(id);
            }
            element_section(ui, open);
        });
    let mut refusal = None;
    for edit in edits {
        if edit.new_step || gesture.is_none() {
            *gesture = Some(open.new_gesture());
        }
        if let Err(message) = open.apply(edit.command.as_ref(), *gesture) {
            refusal = Some(message);
        }
    }
    refusal
}

fn sequence_section(ui: &mut egui::Ui, open: &OpenDocument, edits: &mut Vec<Edit>) {
    let Some(sequence) = open.sequence() else {
        ui.weak("No sequence selected.");
        return;
    };
    egui::CollapsingHeader::new("Sequence")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("sequence fields")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    field(ui, "Name", &sequence.name);
                    let path: Vec<String> = open
                        .session
                        .document()
                        .group_path(sequence.id)
                        .iter()
                        .skip(1)
                        .map(|g| g.name.clone())
                        .collect();
                    if !path.is_empty() {
                        field(ui, "Group", path.join(" / "));
                    }
                    field(ui, "Directions", sequence.directions.len().to_string());
                    field(
                        ui,
                        "Direction",
                        sequence.direction_label(open.player.direction()),
                    );
                    field(
                        ui,
                        "Frames",
                        sequence
                            .directions
                            .get(open.player.direction())
                            .map_or(0, |d| d.frames.len())
                            .to_string(),
                    );
                    let loop_label = ui.label("Loop");
                    ui.horizontal(|ui| {
                        let mut loops = sequence.loop_point.is_some();
                        let mut target = sequence.loop_point.unwrap_or(0);
                        let check = ui.checkbox(&mut loops, "back to frame");
                        // Not clamped to the frames: a value past the end is refused by the
                        // document, with a message, rather than silently corrected.
                        let value = ui
                            .add_enabled(loops, egui::DragValue::new(&mut target).range(0..=9999))
                            .labelled_by(loop_label.id);
                        if check.changed() || value.changed() {
                            let field = SequenceField::LoopPoint(loops.then_some(target));
                            edits.push(Edit {
                                command: Box::new(SetSequenceField {
                                    sequence: sequence.id,
                                    field,
                                }),
                                new_step: check.changed() || starts_step(&value),
                            });
                        }
                    });
                    ui.end_row();
                    field(
                        ui,
                        "At the end",
                        match sequence.on_end {
                            EndBehavior::HoldLastFrame => "hold the last frame",
                            EndBehavior::Disappear => "disappear",
                        },
                    );
                    field(
                        ui,
                        "Follow-up",
                        sequence.follow_up.clone().unwrap_or_else(|| "none".into()),
                    );
                    let rate = match (sequence.frame_rate, open.session.document().frame_rate) {
                        (Some(r), _) => format!("{r} fps (own)"),
                        (None, Some(r)) => format!("{r} fps (set)"),
                        (None, None) => "—".to_string(),
                    };
                    field(ui, "Frame rate", rate);
                    let default = open.session.document().default_sequence == Some(sequence.id);
                    field(ui, "Default", if default { "yes" } else { "no" });
                });
        });
}

fn duration_text(duration: FrameDuration, rate: u32) -> String {
    match duration.exact(rate) {
        Some(t) if !matches!(duration, FrameDuration::Millis(_)) => {
            format!("{duration} ({} ms)", trim_float(t.as_millis_f64(), 3))
        }
        _ => duration.to_string(),
    }
}

/// Paints the frame's fields and element list; returns the element the user clicked.
fn frame_section(
    ui: &mut egui::Ui,
    open: &OpenDocument,
    edits: &mut Vec<Edit>,
) -> Option<crate::model::ElementId> {
    let frame = open.frame()?;
    let mut chosen = None;
    let index = open.player.frame_index();
    egui::CollapsingHeader::new(format!("Frame {index}"))
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("frame fields")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    if let Some(id) = open.player.frame_id(open.session.document()) {
                        field(ui, "Id", id.to_string());
                    }
                    let mut duration = duration_text(frame.duration, open.frame_rate());
                    if frame.duration.is_zero() {
                        duration.push_str(" — skipped in playback");
                    }
                    let duration_label = ui.label("Duration");
                    ui.horizontal(|ui| {
                        if let Some(response) = duration_editor(ui, frame.duration, |d| {
                            let Some(frame) = open.player.frame_id(open.session.document()) else {
                                return;
                            };
                            let field = FrameField::Duration(d);
                            edits.push(Edit {
                                command: Box::new(SetFrameField { frame, field }),
                                new_step: false,
                            });
                        }) {
                            let response = response.labelled_by(duration_label.id);
                            if let Some(edit) = edits.last_mut() {
                                edit.new_step = starts_step(&response);
                            }
                        }
                        ui.weak(duration);
                    });
                    ui.end_row();
                    field(ui, "Label", &frame.label);
                    field(ui, "Triggers", &frame.triggers);
                    field(ui, "Notes", &frame.notes);
                    let i = frame.interpolation;
                    let flags: Vec<&str> = [
                        (i.offset, "offset"),
                        (i.blend, "blend"),
                        (i.scale, "scale"),
                        (i.angle, "angle"),
                    ]
                    .iter()
                    .filter(|(on, _)| *on)
                    .map(|(_, n)| *n)
                    .collect();
                    field(
                        ui,
                        "Interpolate",
                        if flags.is_empty() {
                            "none".to_string()
                        } else {
                            flags.join(", ")
                        },
                    );
                    for decl in &frame.box_declarations {
                        let scope = match decl.scope {
                            BoxScope::ThisFrame => "this frame",
                            BoxScope::FromHereOn => "default from here on",
                        };
                        field(ui, &format!("Boxes {}", decl.class.label()), scope);
                    }
                });
            ui.separator();
            ui.label("Elements");
            for element in &frame.elements {
                let kind = match &element.kind {
                    ElementKind::Graphic(_) => "graphic".to_string(),
                    ElementKind::Point(_) => "point".to_string(),
                    ElementKind::Box(b) => format!("box {}", b.class.label()),
                };
                let text = if element.name.is_empty() {
                    kind
                } else {
                    format!("{kind} “{}”", element.name)
                };
                if ui
                    .selectable_label(open.selected_element == Some(element.id), text)
                    .clicked()
                {
                    chosen = Some(element.id);
                }
            }
        });
    chosen
}

fn element_section(ui: &mut egui::Ui, open: &OpenDocument) {
    let Some(selected) = open.selected_element else {
        return;
    };
    let Some(element) = open
        .frame()
        .and_then(|f| f.elements.iter().find(|e| e.id == selected))
    else {
        return;
    };
    let px = |v: crate::model::Fx| trim_float(v.to_f64(), 4);
    egui::CollapsingHeader::new("Element")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("element fields")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    field(ui, "Id", element.id.to_string());
                    field(ui, "Name", &element.name);
                    match &element.kind {
                        ElementKind::Graphic(g) => {
                            let source = match &g.source {
                                GraphicSource::Slice(id) => format!("slice {id}"),
                                GraphicSource::Image(id) => format!("image {id}"),
                                GraphicSource::SffSprite { group, image, .. } if *group < 0 => {
                                    format!("blank sprite ({group}, {image})")
                                }
                                GraphicSource::SffSprite { group, image, .. } => {
                                    format!("sprite {group}, {image}")
                                }
                            };
                            field(ui, "Kind", "graphic");
                            field(ui, "Source", source);
                            if let Some(image) = open.session.document().source_image(&g.source) {
                                field(ui, "Image", &image.path);
                            }
                            field(
                                ui,
                                "Position",
                                format!("{}, {}", px(g.position.x), px(g.position.y)),
                            );
                            field(
                                ui,
                                "Origin",
                                match g.origin {
                                    Origin::At(p) => format!("{}, {}", px(p.x), px(p.y)),
                                    Origin::SourceAxis => "the sprite's own axis".to_string(),
                                },
                            );
                            field(
                                ui,
                                "Flip",
                                match (g.flip_h, g.flip_v) {
                                    (false, false) => "none",
                                    (true, false) => "horizontal",
                                    (false, true) => "vertical",
                                    (true, true) => "both",
                                },
                            );
                            field(ui, "Rotation", format!("{}°", trim_float(g.rotation, 3)));
                            field(
                                ui,
                                "Scale",
                                format!(
                                    "{} × {}",
                                    trim_float(g.scale_x, 4),
                                    trim_float(g.scale_y, 4)
                                ),
                            );
                            field(
                                ui,
                                "Opacity",
                                format!("{}%", trim_float(g.opacity as f64 * 100.0 / 65535.0, 1)),
                            );
                            field(
                                ui,
                                "Blend",
                                match g.blend {
                                    BlendMode::Normal => "normal".to_string(),
                                    BlendMode::Add {
                                        source,
                                        destination,
                                    } => format!(
                                        "add (source {source}/256, destination {destination}/256)"
                                    ),
                                    BlendMode::Subtract => "subtract".to_string(),
                                },
                            );
                        }
                        ElementKind::Point(p) => {
                            field(ui, "Kind", "attachment point");
                            field(ui, "Point id", p.point_id.to_string());
                            field(
                                ui,
                                "Position",
                                format!("{}, {}", px(p.position.x), px(p.position.y)),
                            );
                            field(ui, "Angle", format!("{}°", trim_float(p.rotation, 3)));
                            field(
                                ui,
                                "Scale",
                                format!(
                                    "{} × {}",
                                    trim_float(p.scale_x, 4),
                                    trim_float(p.scale_y, 4)
                                ),
                            );
                            field(ui, "Flip", format!("h: {}, v: {}", p.flip_h, p.flip_v));
                            field(
                                ui,
                                "Opacity",
                                format!("{}%", trim_float(p.opacity as f64 * 100.0 / 65535.0, 1)),
                            );
                        }
                        ElementKind::Box(b) => {
                            field(ui, "Kind", "collision box");
                            field(ui, "Class", b.class.label());
                            field(ui, "Box id", b.box_id.to_string());
                            match &b.shape {
                                Shape::Rect {
                                    x,
                                    y,
                                    width,
                                    height,
                                    rotation,
                                } => {
                                    field(ui, "Shape", "rectangle");
                                    field(ui, "Left, top", format!("{}, {}", px(*x), px(*y)));
                                    field(ui, "Size", format!("{} × {}", px(*width), px(*height)));
                                    field(ui, "Rotation", format!("{}°", trim_float(*rotation, 3)));
                                }
                                Shape::Circle { center, radius } => {
                                    field(ui, "Shape", "circle");
                                    field(
                                        ui,
                                        "Centre",
                                        format!("{}, {}", px(center.x), px(center.y)),
                                    );
                                    field(ui, "Radius", px(*radius));
                                }
                            }
                        }
                    }
                });
        });
}

/// A number field for durations counted in whole units (ticks, milliseconds, holds); other
/// durations are shown only. Calls `changed` with the new duration.
fn duration_editor(
    ui: &mut egui::Ui,
    duration: FrameDuration,
    mut changed: impl FnMut(FrameDuration),
) -> Option<egui::Response> {
    let (mut value, unit, make): (u32, &str, fn(u32) -> FrameDuration) = match duration {
        FrameDuration::Ticks(t) => (t, "ticks", FrameDuration::Ticks),
        FrameDuration::Millis(m) => (m, "ms", FrameDuration::Millis),
        FrameDuration::Holds(h) => (h, "holds", FrameDuration::Holds),
        _ => return None,
    };
    let response = ui.add(
        egui::DragValue::new(&mut value)
            .range(0..=u32::MAX)
            .suffix(format!(" {unit}")),
    );
    if response.changed() {
        changed(make(value));
    }
    Some(response)
}
