//! The bar above the timeline's cells: the frame buttons and one duration for every selected
//! frame (or a Solarus animation's one delay).

use super::{SAME_FRAME_COLOUR, TimelineOutput, list_of_cells};
use crate::app::context::commands::UICommand;
use crate::app::context::document::{FrameLayoutChange, OpenDocument};
use crate::app::context::feedback::Feedback;
use crate::app::context::{deletion, duration_field};
use crate::app::timeline::edit::{self, DurationField, TimelineState};
use crate::model::FrameDuration;

/// The bar above the cells: frame buttons and the duration of the selected frames.
pub(super) fn selection_bar(
    ui: &mut egui::Ui,
    state: &mut TimelineState,
    doc: &mut OpenDocument,
    output: &mut TimelineOutput,
) {
    let selected = doc.selected_frames();
    // Wrapped: in a narrow window the duration field goes to a second line, not off the edge.
    ui.horizontal_wrapped(|ui| {
        for command in [
            UICommand::InsertFrame,
            UICommand::Duplicate,
            UICommand::DeleteSelection,
        ] {
            let hint = format!("{} ({})", command.label(), command.shortcut_text(ui.ctx()));
            let label = match command {
                UICommand::Duplicate => "Duplicate frames",
                UICommand::DeleteSelection => "Delete frames",
                _ => command.label(),
            };
            let enabled = command == UICommand::InsertFrame || !selected.is_empty();
            // Where frames are cells of one grid (Solarus) some of these cannot be done: the
            // button says why rather than the save's loss list later.
            let refusal = match command {
                UICommand::Duplicate => doc.frame_layout_refusal(FrameLayoutChange::Duplicate),
                UICommand::DeleteSelection => deletion::keeps_the_selected_frames(doc)
                    .err()
                    .map(|why| why.to_string()),
                _ => None,
            }
            .filter(|_| enabled);
            let button = ui.add_enabled(enabled && refusal.is_none(), egui::Button::new(label));
            let button = match refusal {
                Some(why) => button.on_disabled_hover_text(why),
                None => button.on_hover_text(hint),
            };
            if button.clicked() {
                // These buttons are about frames, whatever the canvas has selected.
                doc.clear_elements();
                edit::select_frames(doc, selected.clone());
                output.commands.send_ui(command);
            }
        }
        ui.separator();
        if doc.session.format().capabilities().per_frame_durations {
            duration_field(ui, state, doc, &selected, output);
        } else {
            delay_field(ui, state, doc, output);
        }
    });
}

/// The duration of the selected frames, for formats that keep one per frame. A typed value
/// lands in the field on Enter or when the field is left (Esc gives the old one back); then,
/// or at the end of a drag, it applies as one undo step.
fn duration_field(
    ui: &mut egui::Ui,
    state: &mut TimelineState,
    doc: &mut OpenDocument,
    selected: &[usize],
    output: &mut TimelineOutput,
) {
    if selected.is_empty() {
        ui.weak("No frame selected (click a cell; Shift/Ctrl+click for more)");
        state.duration_field = None;
        return;
    }
    let common = edit::common_duration(doc);
    // Mixed durations start the field from the frame on show.
    let shown = doc
        .direction_frames()
        .get(doc.player.frame_index())
        .map(|f| f.duration);
    let start = common.or(shown).filter(|d| *d != FrameDuration::Forever);
    let unit = start.unwrap_or_else(|| edit::duration_unit(doc));
    let label = format!(
        "Duration of {} selected frame{}",
        selected.len(),
        if selected.len() == 1 { "" } else { "s" }
    );
    let field = number_field(ui, state, doc, selected, unit, &label);
    if common.is_none() {
        ui.weak("(mixed)");
    }
    // Cells showing the same frame as a selected one change with it: say which.
    let sharing = doc.cells_sharing_frames();
    let mut also: Vec<usize> = selected
        .iter()
        .flat_map(|&i| sharing.get(i).cloned().unwrap_or_default())
        .filter(|i| !selected.contains(i))
        .collect();
    also.sort_unstable();
    also.dedup();
    if !also.is_empty() {
        ui.label(
            egui::RichText::new(format!(
                "also cell {} (same frame)",
                list_of_cells(&also, ", ")
            ))
            .color(SAME_FRAME_COLOUR),
        );
    }
    let set = ui
        .button("Set duration")
        .on_hover_text("Give every selected frame this duration (one undo step)")
        .clicked();
    // Enter on mixed durations gives them all the value shown.
    let committed = field.changed || (field.entered && common.is_none());
    if committed || set {
        let duration = duration_field::typed_duration(unit, field.value);
        if let Err(why) = edit::set_selected_durations(doc, duration) {
            output.feedback = Some(Feedback::refusal(&why, doc));
        }
        state.duration_field = None;
    }
}

/// The animation's one delay, for formats that keep no duration per frame (Solarus): every
/// frame of every direction of the sequence gets it, one undo step, as the inspector's
/// "Delay" does.
fn delay_field(
    ui: &mut egui::Ui,
    state: &mut TimelineState,
    doc: &mut OpenDocument,
    output: &mut TimelineOutput,
) {
    let Some(sequence) = doc.sequence().map(|s| s.id) else {
        return;
    };
    let Some(first) = doc.direction_frames().first().map(|f| f.duration) else {
        return;
    };
    // Solarus's delay 0 shows the first frame forever.
    let unit = if first == FrameDuration::Forever {
        FrameDuration::Millis(0)
    } else {
        first
    };
    let field = number_field(ui, state, doc, &[], unit, "Frame delay of the animation");
    let hint = format!(
        "{} files keep one delay for every frame of an animation",
        doc.format_name()
    );
    field.response.on_hover_text(hint);
    if field.changed {
        let duration = match duration_field::typed_duration(unit, field.value) {
            FrameDuration::Millis(0) => FrameDuration::Forever,
            other => other,
        };
        let delay = crate::edit::timeline::SetSequenceDelay { sequence, duration };
        if let Err(why) = doc.apply(&delay, None) {
            output.feedback = Some(Feedback::refusal(&why, doc));
        }
        state.duration_field = None;
    }
}

/// What the number field of the selection bar said this pass.
struct NumberField {
    response: egui::Response,
    /// The number in the field.
    value: f64,
    /// The field was left (Enter, a click elsewhere, the end of a drag) with a new value.
    changed: bool,
    /// Enter was pressed in it.
    entered: bool,
}

/// The selection bar's number field, labelled `label`, filled from `unit` for `cells` at this
/// revision and kept while the user edits it.
fn number_field(
    ui: &mut egui::Ui,
    state: &mut TimelineState,
    doc: &OpenDocument,
    cells: &[usize],
    unit: FrameDuration,
    label: &str,
) -> NumberField {
    let revision = doc.revision;
    let initial = duration_field::shown_number(unit);
    if state
        .duration_field
        .as_ref()
        .is_none_or(|f| f.cells != cells || f.revision != revision || f.filled_from != unit)
    {
        state.duration_field = Some(DurationField {
            cells: cells.to_vec(),
            revision,
            filled_from: unit,
            value: initial,
        });
    }
    let value = &mut state.duration_field.as_mut().expect("filled above").value;
    let label = ui.label(label);
    let response = duration_field::add(ui, true, unit, value).labelled_by(label.id);
    let escaped = ui.input(|i| i.key_pressed(egui::Key::Escape));
    let left = (response.lost_focus() && !escaped) || response.drag_stopped();
    let entered = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    NumberField {
        changed: left && *value != initial,
        entered,
        value: *value,
        response,
    }
}
