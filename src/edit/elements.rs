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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::History;
    use crate::model::{
        AnimationSet, AttachmentPoint, BoxClass, CollisionBox, DirectionId, Element, Frame,
        FrameDuration, FrameId, Point, Sequence, SequenceId, TreeItem,
    };

    /// One sequence with one frame holding a point and a box.
    fn set_with_point_and_box() -> (AnimationSet, SequenceId, ElementId, ElementId) {
        let mut doc = AnimationSet::new();
        let id = SequenceId(doc.alloc_id());
        let mut sequence = Sequence::new(id, "idle", DirectionId(doc.alloc_id()));
        let mut frame = Frame::new(FrameDuration::Ticks(3));
        let point = ElementId(doc.alloc_id());
        frame.elements.push(Element {
            id: point,
            name: "hand".to_string(),
            kind: ElementKind::Point(AttachmentPoint::at(Point::from_ints(1, 2))),
        });
        let hurt = ElementId(doc.alloc_id());
        frame.elements.push(Element {
            id: hurt,
            name: String::new(),
            kind: ElementKind::Box(CollisionBox::rect_from_corners(
                BoxClass::Hurt,
                Point::from_ints(0, 0),
                Point::from_ints(4, 4),
            )),
        });
        let frame_id = FrameId(doc.alloc_id());
        doc.frames.insert(frame_id, frame);
        sequence.directions[0].frames.push(frame_id);
        doc.root.items.push(TreeItem::Sequence(sequence));
        (doc, id, point, hurt)
    }

    #[test]
    fn a_point_is_deleted_and_undone_and_a_box_is_left_to_the_box_command() {
        let (mut doc, sequence, point, hurt) = set_with_point_and_box();
        let before = doc.clone();
        let at = FrameAt {
            sequence,
            direction: 0,
            index: 0,
        };
        let mut history = History::new();
        let selection = history
            .apply(
                &mut doc,
                &Selection::none(),
                &DeleteElements {
                    at,
                    elements: vec![point],
                },
                None,
            )
            .unwrap();
        assert_eq!(selection.frames, vec![0]);
        let frame = doc.frames.values().next().unwrap();
        assert_eq!(frame.elements.len(), 1);
        assert_eq!(frame.elements[0].id, hurt);

        let refused = DeleteElements {
            at,
            elements: vec![hurt],
        };
        let error = history
            .apply(&mut doc, &selection, &refused, None)
            .unwrap_err();
        assert!(error.message.contains("box"), "{}", error.message);

        history.undo(&mut doc);
        assert_eq!(doc, before);
    }
}
