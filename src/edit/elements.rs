//! Deleting graphics and attachment points from a frame (boxes go through
//! [`super::boxes::DeleteBoxes`], which knows about AIR default boxes).

use super::boxes::FrameAt;
use super::command::Command;
use super::error::{EditError, EditResult};
use super::selection::Selection;
use super::snapshot::Tx;
use super::support::direction_frames;
use crate::model::{ElementId, ElementKind};

/// Removes graphics and attachment points from the frame at a timeline position. Boxes are
/// refused: deleting one may change what later AIR frames inherit, which `DeleteBoxes` handles.
#[derive(Clone, Debug)]
pub struct DeleteElements {
    /// The frame.
    pub at: FrameAt,
    /// The elements to remove.
    pub elements: Vec<ElementId>,
}

impl Command for DeleteElements {
    fn label(&self) -> String {
        match self.elements.len() {
            1 => "Delete element".to_string(),
            n => format!("Delete {n} elements"),
        }
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.elements.is_empty() {
            return Err(EditError::new("no element is selected"));
        }
        let frames = direction_frames(tx.doc(), self.at.sequence, self.at.direction)?;
        let frame_id = *frames.get(self.at.index).ok_or_else(|| {
            EditError::new(format!("the direction has no frame {}", self.at.index))
        })?;
        let frame = tx.frame_mut(frame_id)?;
        for id in &self.elements {
            let position = frame
                .elements
                .iter()
                .position(|e| e.id == *id)
                .ok_or_else(|| EditError::new(format!("element {id} is not on this frame")))?;
            if matches!(frame.elements[position].kind, ElementKind::Box(_)) {
                return Err(EditError::new(
                    "boxes are deleted with the box command (it keeps AIR defaults right)",
                ));
            }
            frame.elements.remove(position);
        }
        tx.select(Selection::frames(
            self.at.sequence,
            self.at.direction,
            vec![self.at.index],
        ));
        Ok(())
    }
}
