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
    /// [`PlaceBoxes::changed_frames`]) did, for the status bar: "Traced hurt boxes on frame
    /// 3: 2 boxes", "Traced hurt boxes on 8 frames, 2 boxes each", "… on 8 frames, up to 3
    /// boxes each".
    pub fn done_sentence(&self, changed: &[usize]) -> String {
        let counts: Vec<usize> = self
            .frames
            .iter()
            .filter(|(i, _)| changed.contains(i))
            .map(|(_, shapes)| shapes.len())
            .collect();
        let most = counts.iter().copied().max().unwrap_or(0);
        let least = counts.iter().copied().min().unwrap_or(0);
        let done = crate::text::past_tense(&self.label);
        match changed {
            [one] => format!("{done} on frame {one}: {}", crate::text::count(most, "box")),
            _ if least == most => format!(
                "{done} on {}, {} each",
                crate::text::count(changed.len(), "frame"),
                crate::text::count(most, "box")
            ),
            _ => format!(
                "{done} on {}, up to {} each",
                crate::text::count(changed.len(), "frame"),
                crate::text::count(most, "box")
            ),
        }
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
                        "every frame already has {}; choose to replace them",
                        crate::text::boxes_of(self.class.name())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DefaultBoxRule, Fx, SequenceId};

    fn placing(counts: &[usize]) -> PlaceBoxes {
        let square = Shape::Rect {
            x: Fx::from_int(0),
            y: Fx::from_int(0),
            width: Fx::from_int(4),
            height: Fx::from_int(4),
            rotation: 0.0,
        };
        PlaceBoxes {
            run: BoxRun {
                sequence: SequenceId(1),
                direction: 0,
                rule: DefaultBoxRule::default(),
                default_boxes: false,
            },
            class: BoxClass::Hurt,
            frames: counts
                .iter()
                .enumerate()
                .map(|(i, n)| (i, vec![square.clone(); *n]))
                .collect(),
            existing: ExistingBoxes::Replace,
            label: "Fit hurt boxes".to_string(),
        }
    }

    #[test]
    fn the_sentence_counts_frames_and_boxes_in_plain_words() {
        assert_eq!(
            placing(&[1]).done_sentence(&[0]),
            "Fitted hurt boxes on frame 0: 1 box"
        );
        assert_eq!(
            placing(&[0, 2]).done_sentence(&[1]),
            "Fitted hurt boxes on frame 1: 2 boxes"
        );
        assert_eq!(
            placing(&[1, 1]).done_sentence(&[0, 1]),
            "Fitted hurt boxes on 2 frames, 1 box each"
        );
        assert_eq!(
            placing(&[1, 3, 2]).done_sentence(&[0, 1, 2]),
            "Fitted hurt boxes on 3 frames, up to 3 boxes each"
        );
    }
}
