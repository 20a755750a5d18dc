//! The inspector: every field of the selected sequence, frame and element (read-only here).

use super::workspace::{OpenDocument, trim_float};
use crate::model::{
    BlendMode, BoxScope, ElementKind, EndBehavior, FrameDuration, GraphicSource, Origin, Shape,
};

fn field(ui: &mut egui::Ui, name: &str, value: impl Into<String>) {
    ui.label(name);
    ui.label(value.into());
    ui.end_row();
}

/// Paints the inspector; clicking an element in the list selects it.
pub fn show(ui: &mut egui::Ui, open: &mut OpenDocument) {
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            sequence_section(ui, open);
            if let Some(id) = frame_section(ui, open) {
                open.selected_element = Some(id);
            }
            element_section(ui, open);
        });
}

fn sequence_section(ui: &mut egui::Ui, open: &OpenDocument) {
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
                        .document
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
                    field(
                        ui,
                        "Loop",
                        match sequence.loop_point {
                            Some(lp) => format!("back to frame {lp}"),
                            None => "no".to_string(),
                        },
                    );
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
                    let rate = match (sequence.frame_rate, open.document.frame_rate) {
                        (Some(r), _) => format!("{r} fps (own)"),
                        (None, Some(r)) => format!("{r} fps (set)"),
                        (None, None) => "—".to_string(),
                    };
                    field(ui, "Frame rate", rate);
                    let default = open.document.default_sequence == Some(sequence.id);
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
fn frame_section(ui: &mut egui::Ui, open: &OpenDocument) -> Option<crate::model::ElementId> {
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
                    if let Some(id) = open.player.frame_id(&open.document) {
                        field(ui, "Id", id.to_string());
                    }
                    let mut duration = duration_text(frame.duration, open.frame_rate());
                    if frame.duration.is_zero() {
                        duration.push_str(" — skipped in playback");
                    }
                    field(ui, "Duration", duration);
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
                            if let Some(image) = open.document.source_image(&g.source) {
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
