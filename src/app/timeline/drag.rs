//! Dragging on the timeline: cells moved to a gap, the loop marker, a cell's right edge, and
//! the view scrolled when the pointer nears its edges.

use super::{LOOP_COLOUR, POINTS_PER_MS, TimelineOutput};
use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::Feedback;
use crate::app::timeline::edit::{self, TimelineDrag, TimelineState, edge_duration};
use egui::{Rect, Stroke, pos2, vec2};

/// During a drag, a pointer near the left or right end of the visible cells scrolls them, so
/// cells (or the loop marker) can be moved past what fits on screen.
pub(super) fn scroll_near_edges(ui: &mut egui::Ui, cells: Rect) {
    const ZONE: f32 = 32.0;
    const SPEED: f32 = 8.0;
    let Some(pointer) = ui.input(|i| i.pointer.interact_pos()) else {
        return;
    };
    let clip = ui.clip_rect();
    if !cells.y_range().contains(pointer.y) {
        return;
    }
    let delta = if pointer.x < clip.left() + ZONE {
        SPEED
    } else if pointer.x > clip.right() - ZONE {
        -SPEED
    } else {
        return;
    };
    ui.scroll_with_delta(vec2(delta, 0.0));
    ui.ctx().request_repaint();
}

/// Where the cells are on screen.
pub(super) struct Geometry<'a> {
    /// The top-left corner of the first cell.
    pub(super) origin: egui::Pos2,
    /// The cells' strip.
    pub(super) rect: Rect,
    /// Each cell's left edge, from the first cell's.
    pub(super) starts: &'a [f32],
    /// Each cell's width.
    pub(super) widths: &'a [f32],
}

impl Geometry<'_> {
    /// The cell under screen x.
    fn cell_at(&self, x: f32) -> Option<usize> {
        let x = x - self.origin.x;
        let index = self.starts.partition_point(|s| *s <= x).checked_sub(1)?;
        (index < self.widths.len()).then_some(index)
    }

    /// The gap nearest screen x: 0 = before the first cell, the count = after the last.
    fn gap_at(&self, x: f32) -> usize {
        let x = x - self.origin.x;
        self.widths
            .iter()
            .zip(self.starts)
            .filter(|(w, s)| **s + **w / 2.0 < x)
            .count()
    }

    /// Screen x of a gap.
    fn gap_x(&self, gap: usize) -> f32 {
        self.origin.x + self.starts[gap] - 1.0
    }
}

/// Follows the drag in progress: draws where it would land and applies it on release.
pub(super) fn continue_drag(
    ui: &mut egui::Ui,
    state: &mut TimelineState,
    doc: &mut OpenDocument,
    geometry: &Geometry,
    proportional: bool,
    frame_rate: u32,
    output: &mut TimelineOutput,
) {
    let Some(drag) = state.drag.clone() else {
        return;
    };
    let (pointer, origin, released, down, escape) = ui.input(|i| {
        (
            i.pointer.interact_pos(),
            i.pointer.press_origin(),
            i.pointer.any_released(),
            i.pointer.any_down(),
            i.key_pressed(egui::Key::Escape),
        )
    });
    let rect = geometry.rect;
    if escape {
        // Esc drops the drag without a change; a duration already changed by it goes back.
        if let TimelineDrag::Edge { index, start, .. } = drag
            && doc.direction_frames().get(index).map(|f| f.duration) != Some(start)
        {
            doc.undo();
        }
        state.drag = None;
        return;
    }
    // Moves and the loop marker land only while the pointer is over the timeline.
    let over = pointer.filter(|p| rect.expand2(vec2(0.0, 24.0)).y_range().contains(p.y));
    let painter = ui.painter().clone();
    let accent = ui.visuals().selection.stroke.color;
    let mut refused = None;
    match drag {
        TimelineDrag::Frames { positions, .. } => {
            let gap = over.map(|p| geometry.gap_at(p.x));
            if let Some(gap) = gap {
                let x = geometry.gap_x(gap);
                painter.line_segment(
                    [pos2(x, rect.top()), pos2(x, rect.bottom())],
                    Stroke::new(3.0, accent),
                );
            }
            if released {
                if let Some(gap) = gap
                    && !moves_nothing(&positions, gap)
                {
                    refused = edit::move_frames(doc, positions, gap).err();
                }
            } else {
                state.drag = Some(TimelineDrag::Frames { positions, gap });
            }
        }
        TimelineDrag::LoopMarker { .. } => {
            let target = over.and_then(|p| geometry.cell_at(p.x));
            if let Some(target) = target {
                let x = geometry.origin.x + geometry.starts[target];
                painter.line_segment(
                    [pos2(x, rect.top()), pos2(x, rect.bottom())],
                    Stroke::new(3.0, LOOP_COLOUR),
                );
            }
            if released {
                let current = doc.sequence().and_then(|s| s.loop_point);
                if let Some(target) = target
                    && current != Some(target)
                {
                    refused = edit::set_loop_point(doc, Some(target)).err();
                }
            } else {
                state.drag = Some(TimelineDrag::LoopMarker { target });
            }
        }
        TimelineDrag::Edge {
            index,
            start,
            gesture,
        } => {
            if let (Some(pointer), Some(origin)) = (pointer, origin) {
                let per_ms = proportional.then_some(POINTS_PER_MS);
                let duration = edge_duration(start, pointer.x - origin.x, per_ms, frame_rate);
                refused = edit::set_duration_in_drag(doc, index, duration, gesture).err();
            }
        }
    }
    if released || !down {
        state.drag = None;
    }
    if let Some(why) = refused {
        output.feedback = Some(Feedback::refusal(&why, doc));
        state.drag = None;
    }
}

/// True when dropping `positions` (sorted) at `gap` leaves the order as it is.
fn moves_nothing(positions: &[usize], gap: usize) -> bool {
    let (Some(first), Some(last)) = (positions.first(), positions.last()) else {
        return true;
    };
    let contiguous = last - first + 1 == positions.len();
    contiguous && gap >= *first && gap <= last + 1
}
