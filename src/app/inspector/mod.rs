//! The inspector: every field of the selected sequence, frame and element, each editable
//! through `edit::inspector` commands (a drag is one undo step). A value the document refuses
//! is not applied and its message goes to the status bar; a field the file's format cannot
//! hold is shown disabled with the reason as its hover text.
//!
//! Reading order: [`show`], the sequence section, the frame section here; the element section
//! in [`crate::app::inspector::element`]; the widgets in [`crate::app::inspector::widgets`]; which fields a
//! format holds in [`crate::app::context::field_support`].

pub mod element;
pub mod widgets;

use crate::app::context::command_sender::SystemCommand;
use crate::app::context::document::OpenDocument;
use crate::app::context::duration_field;
use crate::app::context::duration_text::trim_float;
use crate::app::context::field_support::{Field, Support};
use crate::app::context::panel::PanelCtx;
use crate::app::inspector::element::element_section;
use crate::app::inspector::widgets::{
    Draft, Edits, check, choice_row, field, fields_grid, number, section, text_row,
};
use crate::edit::Gesture;
use crate::edit::inspector::{FrameField, SequenceField, SetFrameField, SetSequenceField};
use crate::edit::timeline::{SetPlayOrder, SetSequenceDelay, play_order_of};
use crate::model::{
    BoxScope, ElementKind, EndBehavior, FrameDuration, Interpolation, PlayDirection, Sequence,
};

/// What the inspector remembers for a tab between frames.
#[derive(Default)]
pub struct InspectorState {
    /// The undo step the current drag adds to.
    pub gesture: Option<Gesture>,
    /// Text typed in a field and not applied yet, applied if the field goes away.
    pub draft: Option<Draft>,
}

/// Paints the inspector; clicking an element in the list selects it (Shift/Ctrl+click adds it
/// or takes it out). An edit the document refused is said through `ctx`.
pub fn show(ui: &mut egui::Ui, state: &mut InspectorState, ctx: &mut PanelCtx) {
    let doc: &mut OpenDocument = ctx.doc;
    let InspectorState { gesture, draft } = state;
    let mut edits = Edits::default();
    let support = Support::of_format(doc.session.format());
    // Both ways: content wider than the panel scrolls instead of widening the panel, which
    // would move the canvas under a drag in progress.
    egui::ScrollArea::both()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            sequence_section(ui, doc, &support, &mut edits);
            // Selected once every panel has painted: a field of the element shown below the
            // list applies what was typed in it to its own element first.
            if let Some(ElementClick { element, adding }) =
                frame_section(ui, doc, &support, &mut edits)
            {
                let select = SystemCommand::SelectElement { element, adding };
                ctx.out.commands.send_system(select);
            }
            element_section(ui, doc, &support, &mut edits);
        });
    edits.keep_vanished_draft(ui.ctx(), draft.take());
    *draft = edits.draft.take();
    let mut refusal = None;
    for edit in edits.edits {
        if edit.new_step || gesture.is_none() {
            *gesture = Some(doc.new_gesture());
        }
        if let Err(message) = doc.apply(edit.command.as_ref(), *gesture) {
            refusal = Some(message);
        }
    }
    if let Some(message) = refusal {
        ctx.refuse(&message);
    }
}

fn set_sequence(sequence: &Sequence, field: SequenceField) -> SetSequenceField {
    SetSequenceField {
        sequence: sequence.id,
        field,
    }
}

fn sequence_section(ui: &mut egui::Ui, doc: &OpenDocument, support: &Support, edits: &mut Edits) {
    let Some(sequence) = doc.sequence() else {
        ui.weak("No sequence selected.");
        return;
    };
    let document = doc.session.document();
    section(ui, "Sequence", "sequence fields", |ui| {
        let name = text_row(ui, "Name", sequence.id, &sequence.name, false, None);
        edits.text(name, |name| {
            set_sequence(sequence, SequenceField::Name(name))
        });
        // A title is shown where the format keeps one, or where the file had one
        // (so the user sees what a conversion would lose).
        let why_not_title = support.why_not(Field::SequenceTitle);
        if why_not_title.is_none() || sequence.title.is_some() {
            let title = text_row(
                ui,
                "Title",
                sequence.id,
                sequence.title.as_deref().unwrap_or(""),
                false,
                why_not_title.as_deref(),
            );
            edits.text(title, |title| {
                set_sequence(sequence, SequenceField::Title(Some(title)))
            });
        }
        let path: Vec<String> = document
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
            sequence.direction_label(doc.player.direction()),
        );
        field(
            ui,
            "Frames",
            sequence
                .directions
                .get(doc.player.direction())
                .map_or(0, |d| d.frames.len())
                .to_string(),
        );
        loop_row(ui, sequence, edits);
        if doc.session.format().capabilities().numbered_file_frames {
            play_order_row(ui, doc, sequence, edits);
        }
        let disappear = support.why_not(Field::Disappear);
        let ends = [
            (EndBehavior::HoldLastFrame, "hold last frame".to_string()),
            (EndBehavior::Disappear, "disappear".to_string()),
        ];
        if let Some((on_end, response)) = choice_row(
            ui,
            "At the end",
            sequence.id,
            &sequence.on_end,
            &ends,
            disappear.as_deref(),
        ) {
            edits.push(
                set_sequence(sequence, SequenceField::OnEnd(on_end)),
                &response,
            );
        }
        let mut follow_ups = vec![(None, "none".to_string())];
        follow_ups.extend(
            document
                .sequences()
                .iter()
                .map(|s| (Some(s.name.clone()), s.name.clone())),
        );
        if let Some((follow_up, response)) = choice_row(
            ui,
            "Follow-up",
            sequence.id,
            &sequence.follow_up,
            &follow_ups,
            support.why_not(Field::FollowUp).as_deref(),
        ) {
            let field = SequenceField::FollowUp(follow_up);
            edits.push(set_sequence(sequence, field), &response);
        }
        frame_rate_row(ui, doc, sequence, support, edits);
        if !support.holds(Field::FrameDuration) {
            delay_row(ui, doc, sequence, edits);
        }
        let default = document.default_sequence == Some(sequence.id);
        field(ui, "Default", if default { "yes" } else { "no" });
    });
}

fn loop_row(ui: &mut egui::Ui, sequence: &Sequence, edits: &mut Edits) {
    let loop_label = ui.label("Loop");
    ui.horizontal(|ui| {
        let mut loops = sequence.loop_point.is_some();
        let mut target = sequence.loop_point.unwrap_or(0);
        let check = ui.checkbox(&mut loops, "back to frame");
        // Not clamped to the frames: a value past the end is refused by the document, with a
        // message, rather than silently corrected.
        let field = egui::DragValue::new(&mut target).range(0..=9999);
        let value =
            crate::app::context::number_field::add(ui, loops, field).labelled_by(loop_label.id);
        if check.changed() || value.changed() {
            let field = SequenceField::LoopPoint(loops.then_some(target));
            let response = if check.changed() { &check } else { &value };
            edits.push(set_sequence(sequence, field), response);
        }
    });
    ui.end_row();
}

/// How the direction on show plays its frames of the file (an Aseprite tag's direction and
/// repeat count, 0 = forever), each a command with undo; "its own order" when no direction
/// plays the cells as they are (the first choice then puts them in order).
fn play_order_row(ui: &mut egui::Ui, doc: &OpenDocument, sequence: &Sequence, edits: &mut Edits) {
    let direction = doc.player.direction();
    let current = play_order_of(doc.document(), sequence.id, direction);
    let label = ui.label("Plays");
    ui.horizontal(|ui| {
        let looping = u16::from(sequence.loop_point.is_none());
        let (mut play, mut repeat) = current.unwrap_or((PlayDirection::Forward, looping));
        let mut chosen = false;
        let combo = egui::ComboBox::from_id_salt(("sprat plays", sequence.id, direction))
            .selected_text(current.map_or("its own order", |(p, _)| p.label()))
            .show_ui(ui, |ui| {
                for option in PlayDirection::ALL {
                    chosen |= ui
                        .selectable_value(&mut play, option, option.label())
                        .clicked();
                }
            })
            .response
            .labelled_by(label.id);
        let field = egui::DragValue::new(&mut repeat).range(0..=9999);
        let value = crate::app::context::number_field::add(ui, true, field)
            .labelled_by(label.id)
            .on_hover_text("Times the frames play; 0 = forever");
        ui.weak(if repeat == 0 { "forever" } else { "times" });
        if chosen || value.changed() {
            let command = SetPlayOrder {
                sequence: sequence.id,
                direction,
                play,
                repeat,
            };
            edits.push(command, if chosen { &combo } else { &value });
        }
    });
    ui.end_row();
}

/// The sequence's own frame rate (for hold-based durations), or the set's.
fn frame_rate_row(
    ui: &mut egui::Ui,
    doc: &OpenDocument,
    sequence: &Sequence,
    support: &Support,
    edits: &mut Edits,
) {
    let why_not = support.why_not(Field::SequenceFrameRate);
    let label = ui.label("Frame rate");
    ui.horizontal(|ui| {
        let set_rate = doc.session.document().frame_rate;
        let own = sequence.frame_rate.is_some();
        if let Some((own, response)) = check(ui, "own", own, why_not.as_deref()) {
            let rate = own.then(|| sequence.frame_rate.or(set_rate).unwrap_or(60).max(1));
            edits.push(
                set_sequence(sequence, SequenceField::FrameRate(rate)),
                &response,
            );
        }
        match sequence.frame_rate {
            Some(rate) => {
                if let Some((rate, response)) = number(
                    ui,
                    label.id,
                    rate,
                    |d| d.range(1..=1000).suffix(" fps"),
                    why_not.as_deref(),
                ) {
                    let field = SequenceField::FrameRate(Some(rate));
                    edits.push(set_sequence(sequence, field), &response);
                }
            }
            None => {
                ui.weak(match set_rate {
                    Some(r) => format!("{r} fps (the set's)"),
                    None => "—".to_string(),
                });
            }
        }
    });
    ui.end_row();
}

/// One delay for every frame of the sequence, for formats that keep one per animation
/// (Solarus `frame_delay`: 0 shows the first frame forever).
fn delay_row(ui: &mut egui::Ui, doc: &OpenDocument, sequence: &Sequence, edits: &mut Edits) {
    let document = doc.session.document();
    let first = sequence
        .directions
        .iter()
        .flat_map(|d| d.frames.first())
        .find_map(|id| document.frame(*id))
        .map(|f| f.duration);
    let Some(current) = first else {
        return;
    };
    // Short, so the sequence's fields fit a narrow inspector; the hover text says the rest.
    let label = ui
        .label("Delay")
        .on_hover_text("The animation's frame delay: every frame of it lasts this long");
    ui.horizontal(|ui| {
        let changed = match current {
            FrameDuration::Forever | FrameDuration::Millis(_) => {
                let ms = match current {
                    FrameDuration::Millis(ms) => ms,
                    _ => 0,
                };
                number(
                    ui,
                    label.id,
                    ms,
                    |d| d.range(0..=600_000).suffix(" ms"),
                    None,
                )
                .map(|(ms, r)| {
                    let duration = if ms == 0 {
                        FrameDuration::Forever
                    } else {
                        FrameDuration::Millis(ms)
                    };
                    (duration, r)
                })
            }
            other => duration_editor(ui, label.id, other),
        };
        if current == FrameDuration::Forever {
            ui.weak("0 = the first frame stays");
        }
        if let Some((duration, response)) = changed {
            let delay = SetSequenceDelay {
                sequence: sequence.id,
                duration,
            };
            edits.push(delay, &response);
        }
    });
    ui.end_row();
}

fn duration_text(duration: FrameDuration, rate: u32) -> String {
    match duration.exact(rate) {
        Some(t) if !matches!(duration, FrameDuration::Millis(_)) => {
            format!("{duration} ({} ms)", trim_float(t.as_millis_f64(), 3))
        }
        _ => duration.to_string(),
    }
}

/// A click on a row of the element list.
#[derive(Debug)]
struct ElementClick {
    element: crate::model::ElementId,
    /// Shift or Ctrl held: add the element to the selection or take it out.
    adding: bool,
}

/// Paints the frame's fields and element list, every selected element marked; returns the
/// element the user clicked.
fn frame_section(
    ui: &mut egui::Ui,
    doc: &OpenDocument,
    support: &Support,
    edits: &mut Edits,
) -> Option<ElementClick> {
    let frame = doc.frame()?;
    let frame_id = doc.player.frame_id(doc.session.document())?;
    let mut chosen = None;
    let index = doc.player.frame_index();
    let set = |field| SetFrameField {
        frame: frame_id,
        field,
    };
    // One id whatever the frame's number: the section keeps its folding, and playback moving
    // to the next frame makes no new widgets (which would cost egui extra layout passes).
    egui::CollapsingHeader::new(format!("Frame {index}"))
        .id_salt("frame section")
        .default_open(true)
        .show(ui, |ui| {
            // Above the grid, not in it, and wrapped: as a row its label would widen the
            // grid's first column for this frame alone, and in the paint where egui lays the
            // grid out again the sentence would lie over its label.
            let sharing = doc.cells_sharing_frames();
            if let Some(others) = sharing.get(index).filter(|o| !o.is_empty()) {
                let cells: Vec<String> = others.iter().map(usize::to_string).collect();
                let cells = match cells.as_slice() {
                    [one] => format!("cell {one}"),
                    _ => format!("cells {}", cells.join(", ")),
                };
                let them = if others.len() == 1 { "it" } else { "them" };
                ui.add(
                    egui::Label::new(format!(
                        "Same frame as {cells}: edits here change {them} too"
                    ))
                    .wrap(),
                );
            }
            fields_grid(ui, "frame fields", |ui| {
                field(ui, "Id", frame_id.to_string());
                duration_row(ui, doc, frame.duration, support, &mut |d, r| {
                    edits.push(set(FrameField::Duration(d)), r)
                });
                let text = support.why_not(Field::FrameText);
                let text = text.as_deref();
                let label = text_row(ui, "Label", frame_id, &frame.label, false, text);
                edits.text(label, |t| set(FrameField::Label(t)));
                let triggers = text_row(ui, "Triggers", frame_id, &frame.triggers, false, text);
                edits.text(triggers, |t| set(FrameField::Triggers(t)));
                let notes = text_row(ui, "Notes", frame_id, &frame.notes, true, text);
                edits.text(notes, |t| set(FrameField::Notes(t)));
                interpolation_row(ui, frame.interpolation, support, &mut |i, r| {
                    edits.push(set(FrameField::Interpolation(i)), r)
                });
            });
            // Below the grid, not in it: a frame that declares boxes would otherwise widen
            // the grid's first column for that frame alone, and egui lays a grid out again
            // (two more paints) whenever its columns change.
            let frames = doc.direction_frames();
            let most_declarations = frames.iter().map(|f| f.box_declarations.len()).max();
            for slot in 0..most_declarations.unwrap_or(0) {
                let text = frame.box_declarations.get(slot).map(|decl| {
                    let scope = match decl.scope {
                        BoxScope::ThisFrame => "this frame",
                        BoxScope::FromHereOn => "default from here on",
                    };
                    format!("Boxes {}: {scope}", support.box_class_label(&decl.class))
                });
                list_row(
                    ui,
                    text.is_some(),
                    egui::Label::new(text.unwrap_or_default()),
                );
            }
            ui.separator();
            ui.label("Elements");
            let most_elements = frames.iter().map(|f| f.elements.len()).max();
            for slot in 0..most_elements.unwrap_or(0) {
                let Some(element) = frame.elements.get(slot) else {
                    list_row(ui, false, egui::Button::selectable(false, ""));
                    continue;
                };
                let kind = match &element.kind {
                    ElementKind::Graphic(_) => "graphic".to_string(),
                    ElementKind::Point(_) => "point".to_string(),
                    ElementKind::Box(b) => format!("box {}", support.box_class_label(&b.class)),
                };
                let text = if element.name.is_empty() {
                    kind
                } else {
                    format!("{kind} “{}”", element.name)
                };
                let row = egui::Button::selectable(doc.is_selected(element.id), text);
                if list_row(ui, true, row).clicked() {
                    chosen = Some(ElementClick {
                        element: element.id,
                        adding: ui.input(|i| i.modifiers.shift || i.modifiers.command),
                    });
                }
            }
        });
    chosen
}

/// A row of one of the frame section's lists, which have as many rows as the busiest of the
/// direction's frames: the rows this frame does not have are laid out unseen. So the panel
/// does not jump while frames play, no scroll bar comes and goes, and every row keeps its
/// widget id from frame to frame (egui styles a widget it did not see in the previous paint
/// with two more paints).
fn list_row(ui: &mut egui::Ui, shown: bool, row: impl egui::Widget) -> egui::Response {
    ui.add_visible(shown, row)
}

fn duration_row(
    ui: &mut egui::Ui,
    doc: &OpenDocument,
    duration: FrameDuration,
    support: &Support,
    changed: &mut dyn FnMut(FrameDuration, &egui::Response),
) {
    let label = ui.label("Duration");
    let why_not = support.why_not(Field::FrameDuration);
    // Wrapped, so "= 166.7 ms" goes under the field rather than past a narrow inspector.
    ui.horizontal_wrapped(|ui| {
        let mut forever = duration == FrameDuration::Forever;
        if why_not.is_none() {
            if let Some((d, r)) = duration_editor(ui, label.id, duration) {
                changed(d, &r);
            }
            // Back from "forever", the frame takes the unit the document counts in.
            let finite = unit_of(doc).map(|unit| unit(1));
            let toggle = ui.add_enabled(
                forever || finite.is_some(),
                egui::Checkbox::new(&mut forever, "forever"),
            );
            if toggle.changed() {
                match (forever, finite) {
                    (true, _) => changed(FrameDuration::Forever, &toggle),
                    (false, Some(d)) => changed(d, &toggle),
                    (false, None) => {}
                }
            }
        } else {
            let why = why_not.as_deref().unwrap_or_default();
            ui.add_enabled(false, egui::Label::new(duration.to_string()))
                .on_disabled_hover_text(why);
        }
        // The field already shows the native unit: beside it only what that is in ms, short
        // enough to fit a narrow inspector.
        let mut text = match duration.exact(doc.frame_rate()) {
            Some(t) if !matches!(duration, FrameDuration::Millis(_)) => {
                format!("= {} ms", trim_float(t.as_millis_f64(), 1))
            }
            _ => String::new(),
        };
        if duration.is_zero() {
            text = "skipped".to_string();
        }
        // Kept whole: the row wraps before it rather than inside it.
        let text = egui::RichText::new(text).weak();
        ui.add(egui::Label::new(text).extend())
            .on_hover_text(if duration.is_zero() {
                "A frame of no length is skipped in playback".to_string()
            } else {
                duration_text(duration, doc.frame_rate())
            });
    });
    ui.end_row();
}

/// The unit the document counts durations in, from any frame that is not shown forever.
fn unit_of(doc: &OpenDocument) -> Option<fn(u32) -> FrameDuration> {
    let found = doc
        .session
        .document()
        .frames
        .values()
        .map(|f| f.duration)
        .find(|d| *d != FrameDuration::Forever)?;
    Some(match found {
        FrameDuration::Millis(_) => FrameDuration::Millis,
        FrameDuration::Ticks(_) => FrameDuration::Ticks,
        FrameDuration::Holds(_) => FrameDuration::Holds,
        FrameDuration::Seconds { .. } => |ms| FrameDuration::Seconds {
            nanos: u64::from(ms) * 1_000_000,
        },
        FrameDuration::Forever => return None,
    })
}

/// The duration field (see [`duration_field`]): a duration in its own unit (ticks,
/// milliseconds, holds, or seconds shown in milliseconds exact to the nanosecond).
fn duration_editor(
    ui: &mut egui::Ui,
    label: egui::Id,
    duration: FrameDuration,
) -> Option<(FrameDuration, egui::Response)> {
    if duration == FrameDuration::Forever {
        return None;
    }
    let mut value = duration_field::shown_number(duration);
    let response = duration_field::add(ui, true, duration, &mut value).labelled_by(label);
    response
        .changed()
        .then(|| (duration_field::typed_duration(duration, value), response))
}

/// Reaches one interpolation flag.
type FlagOf = fn(&mut Interpolation) -> &mut bool;

fn interpolation_row(
    ui: &mut egui::Ui,
    flags: Interpolation,
    support: &Support,
    changed: &mut dyn FnMut(Interpolation, &egui::Response),
) {
    ui.label("Interpolate");
    let why_not = support.why_not(Field::Interpolation);
    // Four check boxes are wider than a narrow inspector: they wrap rather than being cut.
    ui.horizontal_wrapped(|ui| {
        let mut next = flags;
        let boxes: [(&str, FlagOf); 4] = [
            ("offset", |i| &mut i.offset),
            ("blend", |i| &mut i.blend),
            ("scale", |i| &mut i.scale),
            ("angle", |i| &mut i.angle),
        ];
        for (name, flag) in boxes {
            let current = *flag(&mut next);
            if let Some((on, response)) = check(ui, name, current, why_not.as_deref()) {
                *flag(&mut next) = on;
                changed(next, &response);
            }
        }
    });
    ui.end_row();
}
