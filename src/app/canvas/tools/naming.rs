//! Naming attachment points in place: a small field beside the point, opened when a point is
//! placed, on a double click or from the tool strip. Points are matched across frames by name,
//! so a new point is offered the name of a point the neighbouring frames have and this one
//! lacks.

use super::{CanvasOutcome, apply};
use crate::app::canvas::view::View;
use crate::app::context::document::OpenDocument;
use crate::edit::inspector::{ElementField, SetElementField};
use crate::model::ElementId;

/// The name field of one point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Naming {
    /// The point.
    pub element: ElementId,
    /// The text typed so far.
    pub text: String,
    /// The field takes the keyboard at its first frame.
    focus_pending: bool,
}

impl Naming {
    /// A field for `element` holding `text`.
    pub fn new(element: ElementId, text: String) -> Naming {
        Naming {
            element,
            text,
            focus_pending: true,
        }
    }
}

/// The name a new point on the current frame gets: a name the other frames of the direction
/// use that this frame does not have yet (nearest frame first), else "point N".
pub fn suggested_name(doc: &OpenDocument) -> String {
    let frames = doc.direction_frames();
    let index = doc.player.frame_index();
    let here: Vec<&str> = frames
        .get(index)
        .map(|f| {
            f.elements
                .iter()
                .filter(|e| e.as_point().is_some())
                .map(|e| e.name.as_str())
                .collect()
        })
        .unwrap_or_default();
    let mut order: Vec<usize> = (0..frames.len()).filter(|i| *i != index).collect();
    order.sort_by_key(|i| i.abs_diff(index));
    for i in order {
        for element in &frames[i].elements {
            if element.as_point().is_some()
                && !element.name.is_empty()
                && !here.contains(&element.name.as_str())
            {
                return element.name.to_string();
            }
        }
    }
    (1..)
        .map(|n| format!("point {n}"))
        .find(|name| !here.contains(&name.as_str()))
        .expect("some number is free")
}

/// Shows the name field beside its point; Enter or OK renames, Escape or Cancel closes.
pub fn show(
    ctx: &egui::Context,
    naming: &mut Option<Naming>,
    doc: &mut OpenDocument,
    view: &View,
    outcome: &mut CanvasOutcome,
) {
    let Some(state) = naming.as_mut() else {
        return;
    };
    let Some(point) = doc
        .frame()
        .and_then(|f| f.elements.iter().find(|e| e.id == state.element))
        .and_then(|e| e.as_point())
    else {
        *naming = None;
        return;
    };
    let at = view.to_screen(point.position.x.to_f64(), point.position.y.to_f64());
    let mut commit = false;
    let mut close = false;
    egui::Area::new(egui::Id::unique("sprat point name"))
        .fixed_pos(at + egui::vec2(12.0, 8.0))
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label("Point name");
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut state.text)
                            .desired_width(120.0)
                            .hint_text("hand"),
                    );
                    let field = field.on_hover_text("Points are matched across frames by name");
                    if state.focus_pending {
                        field.request_focus();
                        state.focus_pending = false;
                    }
                    if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                        commit = true;
                    }
                    if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                        close = true;
                    }
                    commit |= ui.button("OK").clicked();
                    close |= ui.button("Cancel").clicked();
                });
            });
        });
    if commit {
        let command = SetElementField {
            element: state.element,
            field: ElementField::Name(state.text.trim().to_string()),
        };
        let unchanged = doc
            .document()
            .element(state.element)
            .is_some_and(|(_, e)| e.name == state.text.trim());
        if unchanged || apply(doc, &command, None, outcome) {
            *naming = None;
        }
    } else if close {
        *naming = None;
    }
}
