//! Timeline editing: the frame selection (kept in the session's `Selection.frames`, so it
//! survives undo), how it and the player follow each other, and the frame commands the
//! timeline, its context menu and the keyboard give.

use crate::app::context::document::{FrameLayoutChange, OpenDocument};
use crate::edit::timeline::{
    DeleteFrames, DuplicateFrames, InsertBlankFrame, MoveFrames, SetDurations, SetFrameDuration,
    SetLoopPoint,
};
use crate::edit::{Command, Gesture, Selection};
use crate::model::{FrameDuration, SequenceId};

/// What the player showed and what was selected at the last look, to tell a step of the
/// playhead (which selects the new frame) from a deliberate change of the selection.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    sequence: SequenceId,
    direction: usize,
    index: usize,
    playing: bool,
    selection: Selection,
}

/// The timeline's own state between frames.
#[derive(Default)]
pub struct TimelineState {
    /// The cell a Shift+click range starts from.
    pub anchor: Option<usize>,
    /// A drag in progress.
    pub drag: Option<TimelineDrag>,
    /// The "duration of selected frames" field.
    pub duration_field: Option<DurationField>,
    seen: Option<Seen>,
}

/// The "duration of selected frames" field: its value, refilled from the document when the
/// selection or the document changes.
#[derive(Clone, Debug, PartialEq)]
pub struct DurationField {
    /// The cells it was filled for.
    pub cells: Vec<usize>,
    /// The document revision it was filled at.
    pub revision: u64,
    /// The duration it was filled from: another sequence or direction on show (the same
    /// cells and revision) shows its own.
    pub filled_from: FrameDuration,
    /// The number in the field (see [`crate::app::context::duration_field`]).
    pub value: f64,
}

/// A drag on the timeline.
#[derive(Clone, Debug, PartialEq)]
pub enum TimelineDrag {
    /// Cells being moved; `gap` is where they would be dropped (0 = before the first cell).
    Frames {
        /// The positions dragged.
        positions: Vec<usize>,
        /// The gap under the pointer.
        gap: Option<usize>,
    },
    /// The loop marker; `target` is the cell under the pointer.
    LoopMarker {
        /// The cell the marker would be dropped on.
        target: Option<usize>,
    },
    /// A cell's right edge: the frame's duration follows the pointer, one undo step.
    Edge {
        /// The cell.
        index: usize,
        /// The duration when the drag started.
        start: FrameDuration,
        /// The undo step the drag adds to.
        gesture: Gesture,
    },
}

impl TimelineState {
    /// Forgets everything about the previous document.
    pub fn reset(&mut self) {
        *self = TimelineState::default();
    }
}

/// Makes these cells the selection (sorted), keeping the sequence and direction on show.
pub fn select_frames(doc: &mut OpenDocument, mut frames: Vec<usize>) {
    frames.sort_unstable();
    frames.dedup();
    let selection = Selection::frames(doc.player.sequence(), doc.player.direction(), frames);
    doc.session.set_selection(selection);
}

/// A click on a cell: alone it selects that cell, Ctrl toggles it, Shift selects the range from
/// the anchor. The playhead goes to the clicked cell (or stays on a still-selected one).
pub fn click_cell(
    doc: &mut OpenDocument,
    state: &mut TimelineState,
    index: usize,
    modifiers: egui::Modifiers,
) {
    let mut frames = doc.selected_frames();
    if modifiers.shift {
        let anchor = state
            .anchor
            .filter(|a| *a < doc.direction_frames().len())
            .unwrap_or(doc.player.frame_index());
        let (low, high) = (anchor.min(index), anchor.max(index));
        if !modifiers.command {
            frames.clear();
        }
        frames.extend(low..=high);
    } else if modifiers.command {
        if let Some(at) = frames.iter().position(|f| *f == index) {
            frames.remove(at);
        } else {
            frames.push(index);
        }
        state.anchor = Some(index);
    } else {
        frames = vec![index];
        state.anchor = Some(index);
    }
    let frame_changes = doc.player.frame_index() != index;
    if frames.contains(&index) {
        doc.select_frame(index);
    } else if let Some(first) = frames.iter().min() {
        doc.select_frame(*first);
    }
    let elements = doc.session.selection().elements.clone();
    select_frames(doc, frames);
    if frame_changes {
        doc.clear_elements();
    } else if !elements.is_empty() {
        // Still on the same frame: the canvas keeps its selected elements.
        let selection = doc.session.selection().clone().with_elements(elements);
        doc.session.set_selection(selection);
    }
}

/// Keeps the selection and the player in step, once per UI frame before the panels: when the
/// playhead was stepped (keys, transport) or playback stopped on a cell outside the selection,
/// that cell becomes the selection; when the player went to another sequence or direction (keys, diagnostics),
/// the selection follows with no cell selected (and a selected group gives way to it).
pub fn sync_with_player(doc: &mut OpenDocument, state: &mut TimelineState) {
    let now = (
        doc.player.sequence(),
        doc.player.direction(),
        doc.player.frame_index(),
    );
    let selection = doc.session.selection().clone();
    let player_moved = state
        .seen
        .as_ref()
        .is_some_and(|seen| (seen.sequence, seen.direction) != (now.0, now.1));
    if selection.group.is_some() && player_moved && !doc.player.is_playing() {
        // A group was selected and the user went to a sequence (Alt+arrows, diagnostics):
        // the sequence is what commands act on now.
        doc.session
            .set_selection(Selection::frames(now.0, now.1, Vec::new()));
    } else if !doc.player.is_playing() && selection.group.is_none() {
        let moved_elsewhere = selection.sequence != Some(now.0) || selection.direction != now.1;
        let stepped = state.seen.as_ref().is_some_and(|seen| {
            seen.selection == selection
                && (seen.sequence, seen.direction) == (now.0, now.1)
                && (seen.index != now.2 || seen.playing)
        });
        if moved_elsewhere {
            // Elements chosen before any sequence was named belong to the frame on show.
            let elements = if selection.sequence.is_none() {
                selection.elements.clone()
            } else {
                Vec::new()
            };
            doc.session
                .set_selection(Selection::frames(now.0, now.1, Vec::new()).with_elements(elements));
        } else if stepped && !selection.frames.contains(&now.2) {
            doc.session
                .set_selection(Selection::frames(now.0, now.1, vec![now.2]));
            state.anchor = Some(now.2);
        }
    }
    state.seen = Some(Seen {
        sequence: now.0,
        direction: now.1,
        index: now.2,
        playing: doc.player.is_playing(),
        selection: doc.session.selection().clone(),
    });
}

fn here(doc: &OpenDocument) -> (SequenceId, usize) {
    (doc.player.sequence(), doc.player.direction())
}

fn apply(doc: &mut OpenDocument, command: &dyn Command) -> Result<(), String> {
    if doc.sequence().is_none() {
        return Err("no sequence is selected".to_string());
    }
    doc.apply(command, None)
}

/// Inserts a blank frame after the selected cells (or the playhead's cell), as long as its
/// neighbour. Where frames are cells of one grid (Solarus) the frame added is the
/// direction's next cell, at the end.
pub fn insert_frame(doc: &mut OpenDocument) -> Result<(), String> {
    let (sequence, direction) = here(doc);
    if doc.session.format().capabilities().frames_are_grid_cells {
        let cell = crate::edit::sheet::next_grid_cell(doc.document(), sequence, direction)?;
        let add = crate::edit::Transaction::new("Add the next cell as a frame").with(cell);
        return apply(doc, &add);
    }
    let count = doc.direction_frames().len();
    let after = doc
        .selected_frames()
        .last()
        .copied()
        .or((count > 0).then(|| doc.player.frame_index()));
    let index = after.map_or(0, |i| i + 1);
    apply(
        doc,
        &InsertBlankFrame {
            sequence,
            direction,
            index,
        },
    )
}

/// Adds a frame showing a sprite dragged from the sprite browser, after the selected frame
/// (at the end when none is selected), lasting as long as its neighbour.
pub fn insert_sprite_frame(
    doc: &mut OpenDocument,
    drag: crate::app::context::drag::SpriteDrag,
) -> Result<(), String> {
    let (sequence, direction) = here(doc);
    let frames = doc.direction_frames();
    let count = frames.len();
    let duration = frames
        .last()
        .map(|f| f.duration)
        .or_else(|| doc.document().frames.values().next().map(|f| f.duration))
        .unwrap_or(crate::model::FrameDuration::Ticks(6));
    let index = doc.selected_frames().last().map_or(count, |i| i + 1);
    apply(
        doc,
        &crate::edit::sprites::InsertSpriteFrame {
            sequence,
            direction,
            index,
            archive: drag.archive,
            number: drag.number,
            duration,
        },
    )
}

/// Duplicates the selected cells after the last of them.
pub fn duplicate_frames(doc: &mut OpenDocument) -> Result<(), String> {
    if let Some(why) = doc.frame_layout_refusal(FrameLayoutChange::Duplicate) {
        return Err(why);
    }
    let (sequence, direction) = here(doc);
    let positions = doc.selected_frames();
    apply(
        doc,
        &DuplicateFrames {
            sequence,
            direction,
            positions,
        },
    )
}

/// Deletes the selected cells.
pub fn delete_frames(doc: &mut OpenDocument) -> Result<(), String> {
    let (sequence, direction) = here(doc);
    let positions = doc.selected_frames();
    if let Some(why) = doc.frame_layout_refusal(FrameLayoutChange::Delete(&positions)) {
        return Err(why);
    }
    apply(
        doc,
        &DeleteFrames {
            sequence,
            direction,
            positions,
        },
    )
}

/// Moves cells to a gap (counted before the move), as one undo step.
pub fn move_frames(doc: &mut OpenDocument, positions: Vec<usize>, to: usize) -> Result<(), String> {
    if let Some(why) = doc.frame_layout_refusal(FrameLayoutChange::Move) {
        return Err(why);
    }
    let (sequence, direction) = here(doc);
    apply(
        doc,
        &MoveFrames {
            sequence,
            direction,
            positions,
            to,
        },
    )
}

/// Sets the duration of every selected cell at once.
pub fn set_selected_durations(
    doc: &mut OpenDocument,
    duration: FrameDuration,
) -> Result<(), String> {
    let (sequence, direction) = here(doc);
    let positions = doc.selected_frames();
    if positions.is_empty() {
        return Err("no frame is selected".to_string());
    }
    apply(
        doc,
        &SetDurations {
            sequence,
            direction,
            positions,
            duration,
        },
    )
}

/// Sets one cell's duration as part of a drag (`gesture` makes the drag one undo step).
pub fn set_duration_in_drag(
    doc: &mut OpenDocument,
    index: usize,
    duration: FrameDuration,
    gesture: Gesture,
) -> Result<(), String> {
    let (sequence, direction) = here(doc);
    let frame = doc
        .session
        .document()
        .sequence(sequence)
        .and_then(|s| s.directions.get(direction))
        .and_then(|d| d.frames.get(index).copied())
        .ok_or_else(|| format!("there is no frame {index}"))?;
    if doc.session.document().frame(frame).map(|f| f.duration) == Some(duration) {
        return Ok(());
    }
    doc.apply(&SetFrameDuration { frame, duration }, Some(gesture))?;
    // The edit selects nothing itself; keep the dragged cell selected and shown.
    if !doc.selected_frames().contains(&index) {
        select_frames(doc, vec![index]);
        doc.select_frame(index);
    }
    Ok(())
}

/// Sets (or clears) the loop point of the sequence on show.
pub fn set_loop_point(doc: &mut OpenDocument, loop_point: Option<usize>) -> Result<(), String> {
    let (sequence, _) = here(doc);
    apply(
        doc,
        &SetLoopPoint {
            sequence,
            loop_point,
        },
    )
}

/// The shared duration of the selected cells, when they all have the same one.
pub fn common_duration(doc: &OpenDocument) -> Option<FrameDuration> {
    let frames = doc.direction_frames();
    let mut durations = doc
        .selected_frames()
        .into_iter()
        .filter_map(|i| frames.get(i).map(|f| f.duration));
    let first = durations.next()?;
    durations.all(|d| d == first).then_some(first)
}

/// The unit of the durations on show (the first frame that is not "forever"), for new values.
pub fn duration_unit(doc: &OpenDocument) -> FrameDuration {
    let shown = doc.direction_frames();
    shown
        .iter()
        .map(|f| f.duration)
        .chain(doc.session.document().frames.values().map(|f| f.duration))
        .find(|d| *d != FrameDuration::Forever)
        .unwrap_or(FrameDuration::Millis(100))
}

/// Points of pointer travel per step of the duration when cells all have the same width.
pub const EDGE_STEP_POINTS: f32 = 8.0;

/// The duration a cell gets when its right edge was dragged `delta` points from where the drag
/// started on a frame of duration `start`, in the frame's own unit. With proportional cells the
/// edge follows the time under the pointer (`points_per_ms`); with fixed cells each
/// [`EDGE_STEP_POINTS`] is one step (a tick, a hold, 10 ms). Never below one unit; "forever"
/// stays.
pub fn edge_duration(
    start: FrameDuration,
    delta: f32,
    points_per_ms: Option<f32>,
    frame_rate: u32,
) -> FrameDuration {
    let delta_ms = points_per_ms.map(|p| f64::from(delta / p));
    let steps = f64::from(delta / EDGE_STEP_POINTS).round() as i64;
    let shift = |value: u64, per_ms: f64, step: i64| -> u64 {
        let change = match delta_ms {
            Some(ms) => (ms * per_ms).round() as i64,
            None => steps * step,
        };
        if change == 0 {
            value
        } else {
            (value as i64 + change).max(1) as u64
        }
    };
    let small = |v: u64| v.min(u32::MAX as u64) as u32;
    match start {
        FrameDuration::Ticks(t) => FrameDuration::Ticks(small(shift(t as u64, 0.06, 1))),
        FrameDuration::Millis(m) => FrameDuration::Millis(small(shift(m as u64, 1.0, 10))),
        FrameDuration::Holds(h) => {
            let per_ms = if frame_rate > 0 {
                frame_rate as f64 / 1000.0
            } else {
                0.01
            };
            FrameDuration::Holds(small(shift(h.max(1) as u64, per_ms, 1)))
        }
        FrameDuration::Seconds { nanos } => {
            let ms = shift(nanos.div_ceil(1_000_000), 1.0, 10);
            if ms == nanos.div_ceil(1_000_000) {
                start
            } else {
                FrameDuration::Seconds {
                    nanos: ms * 1_000_000,
                }
            }
        }
        FrameDuration::Forever => FrameDuration::Forever,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dragged_edge_changes_the_duration_in_the_frames_own_unit() {
        // Fixed cells: 8 points per step.
        assert_eq!(
            edge_duration(FrameDuration::Ticks(4), 24.0, None, 0),
            FrameDuration::Ticks(7)
        );
        assert_eq!(
            edge_duration(FrameDuration::Ticks(4), -80.0, None, 0),
            FrameDuration::Ticks(1)
        );
        assert_eq!(
            edge_duration(FrameDuration::Millis(100), 16.0, None, 0),
            FrameDuration::Millis(120)
        );
        // Proportional cells: 0.6 points per ms, so 60 points are 100 ms or 6 ticks.
        assert_eq!(
            edge_duration(FrameDuration::Ticks(4), 60.0, Some(0.6), 0),
            FrameDuration::Ticks(10)
        );
        assert_eq!(
            edge_duration(FrameDuration::Millis(100), 60.0, Some(0.6), 0),
            FrameDuration::Millis(200)
        );
        assert_eq!(
            edge_duration(FrameDuration::Holds(1), 100.0, Some(0.6), 12),
            FrameDuration::Holds(3)
        );
        assert_eq!(
            edge_duration(FrameDuration::Forever, 100.0, None, 0),
            FrameDuration::Forever
        );
        assert_eq!(
            edge_duration(FrameDuration::Ticks(0), 2.0, None, 0),
            FrameDuration::Ticks(0)
        );
    }
}
