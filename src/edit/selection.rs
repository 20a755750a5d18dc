//! What the user has selected, by id, so it survives edits and undo.

use crate::model::{AnimationSet, ElementId, GroupId, SequenceId};

/// The editor's selection. Commands report the selection to show after they run; the history
/// gives back the selection from before a step when that step is undone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The selected group in the tree, when a group (not a sequence) is selected.
    pub group: Option<GroupId>,
    /// The sequence shown in the timeline.
    pub sequence: Option<SequenceId>,
    /// The direction shown in the timeline (index into the sequence's directions).
    pub direction: usize,
    /// Selected timeline cells, by position in the direction. Positions, not frame ids, because
    /// the same frame may appear twice in one direction.
    pub frames: Vec<usize>,
    /// Selected elements (graphics, points, boxes) on the canvas.
    pub elements: Vec<ElementId>,
}

impl Selection {
    /// Nothing selected.
    pub fn none() -> Selection {
        Selection::default()
    }

    /// A sequence (its first direction), nothing inside it.
    pub fn sequence(id: SequenceId) -> Selection {
        Selection {
            sequence: Some(id),
            ..Selection::default()
        }
    }

    /// Some cells of one direction of a sequence.
    pub fn frames(sequence: SequenceId, direction: usize, frames: Vec<usize>) -> Selection {
        Selection {
            sequence: Some(sequence),
            direction,
            frames,
            ..Selection::default()
        }
    }

    /// The same selection with these elements.
    pub fn with_elements(mut self, elements: Vec<ElementId>) -> Selection {
        self.elements = elements;
        self
    }

    /// The selection with everything that no longer exists in `document` dropped (used after a
    /// file is reloaded from disk, where ids may be gone).
    pub fn valid_in(&self, document: &AnimationSet) -> Selection {
        let mut out = self.clone();
        if let Some(group) = out.group
            && document.group(group).is_none()
        {
            out.group = None;
        }
        match out.sequence.and_then(|id| document.sequence(id)) {
            Some(sequence) => {
                if out.direction >= sequence.directions.len() {
                    out.direction = 0;
                }
                let len = sequence
                    .directions
                    .get(out.direction)
                    .map_or(0, |d| d.frames.len());
                out.frames.retain(|&i| i < len);
            }
            None => {
                out.sequence = None;
                out.direction = 0;
                out.frames.clear();
            }
        }
        out.elements.retain(|&id| document.element(id).is_some());
        out
    }
}
