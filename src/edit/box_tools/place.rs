//! Placing computed boxes (fit, trace) on many frames at once.

use super::{BoxRun, set_class_boxes, shown_boxes};
use crate::edit::command::Command;
use crate::edit::error::{EditError, EditResult};
use crate::edit::selection::Selection;
use crate::edit::snapshot::Tx;
use crate::model::{BoxClass, CollisionBox, Shape};
use std::collections::BTreeMap;

/// What happens on a frame that already shows boxes of the class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExistingBoxes {
    /// The frame is left as it is (a first pass never undoes hand work).
    #[default]
    Keep,
    /// The new boxes replace them.
    Replace,
}

/// Gives frames of one direction boxes of one class, worked out beforehand (see
/// [`crate::boxes::plan`]): one undo step for all of them.
#[derive(Clone, Debug)]
pub struct PlaceBoxes {
    /// Where.
    pub run: BoxRun,
    /// The class of the new boxes.
    pub class: BoxClass,
    /// Frame position → its new boxes. A frame with no shapes is left alone.
    pub frames: Vec<(usize, Vec<Shape>)>,
    /// What happens to boxes of the class a frame already shows.
    pub existing: ExistingBoxes,
    /// The history label ("Fit hurt boxes", "Trace hurt boxes").
    pub label: String,
}

impl PlaceBoxes {
    /// The positions that would change: those with shapes, less those [`ExistingBoxes::Keep`]
    /// leaves alone.
    pub fn changed_frames(&self, doc: &crate::model::AnimationSet) -> EditResult<Vec<usize>> {
        let mut out = Vec::new();
        for (index, shapes) in &self.frames {
            if shapes.is_empty() {
                continue;
            }
            if self.existing == ExistingBoxes::Keep
                && !shown_boxes(doc, self.run, *index, &self.class)?.is_empty()
            {
                continue;
            }
            out.push(*index);
        }
        Ok(out)
    }

    /// What placing these boxes on the frames at `changed` (from
    /// [`PlaceBoxes::changed_frames`]) did, for the status bar: "Traced hurt boxes on 8
    /// frames, 3 at most each".
    pub fn done_sentence(&self, changed: &[usize]) -> String {
        let most = self
            .frames
            .iter()
            .filter(|(i, _)| changed.contains(i))
            .map(|(_, shapes)| shapes.len())
            .max()
            .unwrap_or(0);
        format!(
            "{} on {}, {most} at most each",
            crate::text::past_tense(&self.label),
            crate::text::count(changed.len(), "frame")
        )
    }
}

impl Command for PlaceBoxes {
    fn label(&self) -> String {
        self.label.clone()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if let BoxClass::Custom(name) = &self.class
            && name.trim().is_empty()
        {
            return Err(EditError::new("a custom box class needs a name"));
        }
        let changed = self.changed_frames(tx.doc())?;
        if changed.is_empty() {
            return Err(EditError::new(
                if self.frames.iter().all(|(_, s)| s.is_empty()) {
                    "the frames have no opaque pixels, so no box was added".to_string()
                } else {
                    format!(
                        "every frame already has {} boxes; choose to replace them",
                        self.class.name()
                    )
                },
            ));
        }
        let wanted: BTreeMap<usize, Vec<CollisionBox>> = self
            .frames
            .iter()
            .filter(|(i, _)| changed.contains(i))
            .map(|(i, shapes)| {
                let boxes = shapes
                    .iter()
                    .map(|shape| CollisionBox {
                        class: self.class.clone(),
                        shape: shape.clone(),
                        box_id: 0,
                        corners: None,
                    })
                    .collect();
                (*i, boxes)
            })
            .collect();
        set_class_boxes(tx, self.run, &self.class, &wanted)?;
        // The frames worked on stay selected, changed or not (a frame kept as it was is still
        // one the user chose).
        tx.select(Selection::frames(
            self.run.sequence,
            self.run.direction,
            self.frames.iter().map(|(index, _)| *index).collect(),
        ));
        Ok(())
    }
}
