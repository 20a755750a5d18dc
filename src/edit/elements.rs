//! Commands on several canvas elements at once: deleting graphics and attachment points
//! ([`DeleteElements`]), and moving or deleting a whole canvas selection of graphics, points
//! and boxes in one undo step ([`MoveSelection`], [`DeleteSelection`]). Boxes always go through
//! the box commands of [`super::boxes`], which know about AIR default boxes.

use super::boxes::{BoxTarget, DeleteBoxes, FrameAt, MoveBoxes};
use super::canvas::MoveElements;
use super::command::Command;
use super::common_steps::direction_frames;
use super::error::{EditError, EditResult};
use super::selection::Selection;
use super::snapshot::Tx;
use crate::model::{AnimationSet, ElementId, ElementKind, Point};
use std::collections::HashMap;

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
        crate::text::acting_on("Delete", self.elements.len(), "element")
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

/// Moves a canvas selection of graphics, points and boxes (own or inherited from an AIR
/// default) by one offset, as one step: a drag of several elements sends one per mouse move
/// with a gesture, an arrow key one per press.
///
/// Boxes the frame inherits are edited as the target's answer for inherited boxes says (this
/// frame only, or the default from here on); the selection reported afterwards names the
/// frame's copies in their place, in the same order, so the next step of a drag moves them.
#[derive(Clone, Debug)]
pub struct MoveSelection {
    /// The frame shown, and the answer for inherited boxes.
    pub target: BoxTarget,
    /// The selected elements, in selection order.
    pub elements: Vec<ElementId>,
    /// The offset, in sprite pixels.
    pub delta: Point,
}

impl Command for MoveSelection {
    fn label(&self) -> String {
        crate::text::acting_on("Move", self.elements.len(), "element")
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let elements = without_repeats(&self.elements);
        if elements.is_empty() {
            return Err(EditError::new("nothing is selected to move"));
        }
        let (others, boxes) = split_boxes(tx.doc(), self.target.at, &elements)?;
        if !others.is_empty() {
            MoveElements {
                elements: others,
                delta: self.delta,
            }
            .apply(tx)?;
        }
        let mut renamed = HashMap::new();
        if !boxes.is_empty() {
            MoveBoxes {
                target: self.target,
                elements: boxes.clone(),
                delta: self.delta,
            }
            .apply(tx)?;
            // `MoveBoxes` selects the boxes it moved in the order it was given them, with
            // inherited ones replaced by this frame's copies.
            let moved = &tx.selection().elements;
            if moved.len() != boxes.len() {
                return Err(EditError::new("the moved boxes could not be told apart"));
            }
            renamed.extend(boxes.iter().copied().zip(moved.iter().copied()));
        }
        let selected = elements
            .iter()
            .map(|id| *renamed.get(id).unwrap_or(id))
            .collect();
        select_frame(tx, self.target.at, selected);
        Ok(())
    }
}

/// Deletes a canvas selection of graphics, points and boxes (own or inherited from an AIR
/// default) as one step. Deleting inherited boxes follows the target's answer for them, as
/// [`DeleteBoxes`] does.
#[derive(Clone, Debug)]
pub struct DeleteSelection {
    /// The frame shown, and the answer for inherited boxes.
    pub target: BoxTarget,
    /// The selected elements.
    pub elements: Vec<ElementId>,
}

impl Command for DeleteSelection {
    fn label(&self) -> String {
        crate::text::acting_on("Delete", self.elements.len(), "element")
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let elements = without_repeats(&self.elements);
        if elements.is_empty() {
            return Err(EditError::new("no element is selected"));
        }
        let at = self.target.at;
        let (others, boxes) = split_boxes(tx.doc(), at, &elements)?;
        if !others.is_empty() {
            DeleteElements {
                at,
                elements: others,
            }
            .apply(tx)?;
        }
        if !boxes.is_empty() {
            DeleteBoxes {
                target: self.target,
                elements: boxes,
            }
            .apply(tx)?;
        }
        select_frame(tx, at, Vec::new());
        Ok(())
    }
}

/// The ids in their first order, each once.
fn without_repeats(ids: &[ElementId]) -> Vec<ElementId> {
    let mut out: Vec<ElementId> = Vec::with_capacity(ids.len());
    for id in ids {
        if !out.contains(id) {
            out.push(*id);
        }
    }
    out
}

/// Splits a selection into the graphics and points of the frame at `at` and the boxes. An id
/// the frame does not hold is taken for a box it inherits (the box commands refuse it with a
/// message if the frame does not show it either).
fn split_boxes(
    doc: &AnimationSet,
    at: FrameAt,
    elements: &[ElementId],
) -> EditResult<(Vec<ElementId>, Vec<ElementId>)> {
    let frame_id = *direction_frames(doc, at.sequence, at.direction)?
        .get(at.index)
        .ok_or_else(|| EditError::new(format!("the direction has no frame {}", at.index)))?;
    let frame = doc
        .frame(frame_id)
        .ok_or_else(|| EditError::new(format!("frame {frame_id} does not exist")))?;
    let (mut others, mut boxes) = (Vec::new(), Vec::new());
    for id in elements {
        match frame.elements.iter().find(|e| e.id == *id) {
            Some(e) if !matches!(e.kind, ElementKind::Box(_)) => others.push(*id),
            _ => boxes.push(*id),
        }
    }
    Ok((others, boxes))
}

fn select_frame(tx: &mut Tx, at: FrameAt, elements: Vec<ElementId>) {
    tx.select(Selection::frames(at.sequence, at.direction, vec![at.index]).with_elements(elements));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::boxes::InheritedBoxes;
    use crate::edit::{Gesture, History};
    use crate::model::{
        AttachmentPoint, BoxClass, BoxDeclaration, BoxScope, CollisionBox, DefaultBoxRule,
        DirectionId, Element, Frame, FrameDuration, FrameId, Name, Sequence, SequenceId, Shape,
        TreeItem, effective_boxes,
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
            name: "hand".into(),
            kind: ElementKind::Point(AttachmentPoint::at(Point::from_ints(1, 2))),
        });
        let hurt = ElementId(doc.alloc_id());
        frame.elements.push(Element {
            id: hurt,
            name: Name::default(),
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

    fn at_frame(sequence: SequenceId, index: usize) -> FrameAt {
        FrameAt {
            sequence,
            direction: 0,
            index,
        }
    }

    fn box_shapes(doc: &AnimationSet, sequence: SequenceId, index: usize) -> Vec<Shape> {
        let frames: Vec<&Frame> = doc.sequence(sequence).unwrap().directions[0]
            .frames
            .iter()
            .map(|id| doc.frame(*id).unwrap())
            .collect();
        effective_boxes(&frames, index, DefaultBoxRule::default())
            .into_iter()
            .map(|b| b.collision.shape.clone())
            .collect()
    }

    fn square(x: i32, y: i32) -> Shape {
        CollisionBox::rect_from_corners(
            BoxClass::Hurt,
            Point::from_ints(x, y),
            Point::from_ints(x + 4, y + 4),
        )
        .shape
    }

    #[test]
    fn a_point_and_a_box_move_together_in_one_step_and_stay_selected_in_order() {
        let (mut doc, sequence, point, hurt) = set_with_point_and_box();
        let before = doc.clone();
        let mut history = History::new();
        let command = MoveSelection {
            target: BoxTarget::new(at_frame(sequence, 0)),
            elements: vec![hurt, point, hurt],
            delta: Point::from_ints(3, -2),
        };
        assert_eq!(command.label(), "Move 3 elements");
        let selection = history
            .apply(&mut doc, &Selection::none(), &command, None)
            .unwrap();
        assert_eq!(selection.elements, vec![hurt, point]);
        let moved_point = doc.element(point).unwrap().1.as_point().unwrap().position;
        assert_eq!(moved_point, Point::from_ints(4, 0));
        assert_eq!(box_shapes(&doc, sequence, 0), vec![square(3, -2)]);
        assert_eq!(history.entries().len(), 1);

        history.undo(&mut doc);
        assert_eq!(doc, before);
    }

    /// Three frames: the first declares two hurt boxes as the default, the second holds a
    /// point and shows the default boxes, the third shows them too.
    fn set_with_default_boxes() -> (AnimationSet, SequenceId, [ElementId; 3]) {
        let mut doc = AnimationSet::new();
        let id = SequenceId(doc.alloc_id());
        let mut sequence = Sequence::new(id, "0", DirectionId(doc.alloc_id()));
        let mut ids = Vec::new();
        for index in 0..3 {
            let mut frame = Frame::new(FrameDuration::Ticks(4));
            if index == 0 {
                for x in [0, 10] {
                    let element = ElementId(doc.alloc_id());
                    ids.push(element);
                    frame.elements.push(Element {
                        id: element,
                        name: Name::default(),
                        kind: ElementKind::Box(CollisionBox::rect_from_corners(
                            BoxClass::Hurt,
                            Point::from_ints(x, 0),
                            Point::from_ints(x + 4, 4),
                        )),
                    });
                }
                frame.box_declarations.push(BoxDeclaration {
                    class: BoxClass::Hurt,
                    scope: BoxScope::FromHereOn,
                });
            }
            if index == 1 {
                let point = ElementId(doc.alloc_id());
                ids.push(point);
                frame.elements.push(Element {
                    id: point,
                    name: "hand".into(),
                    kind: ElementKind::Point(AttachmentPoint::at(Point::from_ints(1, 2))),
                });
            }
            let frame_id = FrameId(doc.alloc_id());
            doc.frames.insert(frame_id, frame);
            sequence.directions[0].frames.push(frame_id);
        }
        doc.root.items.push(TreeItem::Sequence(sequence));
        (doc, id, [ids[0], ids[1], ids[2]])
    }

    #[test]
    fn inherited_boxes_moved_for_this_frame_only_leave_the_default_and_later_frames() {
        let (mut doc, sequence, [left, right, point]) = set_with_default_boxes();
        let before = doc.clone();
        let mut history = History::new();
        let target = BoxTarget::new(at_frame(sequence, 1)).inherited(InheritedBoxes::ThisFrameOnly);
        let selection = history
            .apply(
                &mut doc,
                &Selection::none(),
                &MoveSelection {
                    target,
                    elements: vec![right, point, left],
                    delta: Point::from_ints(1, 1),
                },
                Some(Gesture(1)),
            )
            .unwrap();
        let defaults = vec![square(0, 0), square(10, 0)];
        assert_eq!(box_shapes(&doc, sequence, 0), defaults);
        assert_eq!(box_shapes(&doc, sequence, 2), defaults);
        let mut moved = box_shapes(&doc, sequence, 1);
        moved.sort_by_key(|s| format!("{s:?}"));
        assert_eq!(moved, vec![square(1, 1), square(11, 1)]);
        let moved_point = doc.element(point).unwrap().1.as_point().unwrap().position;
        assert_eq!(moved_point, Point::from_ints(2, 3));

        // The selection names the frame's own copies, in the order given.
        let [new_right, same_point, new_left] = selection.elements[..] else {
            panic!("three elements stay selected: {:?}", selection.elements);
        };
        assert_eq!(same_point, point);
        assert!(![left, right].contains(&new_right) && ![left, right].contains(&new_left));
        let shape_of = |doc: &AnimationSet, id| match &doc.element(id).unwrap().1.kind {
            ElementKind::Box(b) => b.shape.clone(),
            _ => panic!("a box"),
        };
        assert_eq!(shape_of(&doc, new_right), square(11, 1));
        assert_eq!(shape_of(&doc, new_left), square(1, 1));

        // A drag's next step moves the copies, in the same undo step.
        let next = MoveSelection {
            target,
            elements: selection.elements.clone(),
            delta: Point::from_ints(1, 0),
        };
        history
            .apply(&mut doc, &selection, &next, Some(Gesture(1)))
            .unwrap();
        assert_eq!(shape_of(&doc, new_left), square(2, 1));
        assert_eq!(box_shapes(&doc, sequence, 2), defaults);
        assert_eq!(history.entries().len(), 1);

        history.undo(&mut doc);
        assert_eq!(doc, before);
    }

    #[test]
    fn inherited_boxes_moved_as_the_default_from_here_on_move_on_later_frames_too() {
        let (mut doc, sequence, [left, right, _]) = set_with_default_boxes();
        let target =
            BoxTarget::new(at_frame(sequence, 1)).inherited(InheritedBoxes::DefaultFromHereOn);
        History::new()
            .apply(
                &mut doc,
                &Selection::none(),
                &MoveSelection {
                    target,
                    elements: vec![left, right],
                    delta: Point::from_ints(0, -5),
                },
                None,
            )
            .unwrap();
        assert_eq!(
            box_shapes(&doc, sequence, 0),
            vec![square(0, 0), square(10, 0)]
        );
        assert_eq!(
            box_shapes(&doc, sequence, 2),
            vec![square(0, -5), square(10, -5)]
        );
    }

    #[test]
    fn inherited_boxes_without_an_answer_are_refused_and_nothing_moves() {
        let (mut doc, sequence, [left, _, point]) = set_with_default_boxes();
        let before = doc.clone();
        let error = History::new()
            .apply(
                &mut doc,
                &Selection::none(),
                &MoveSelection {
                    target: BoxTarget::new(at_frame(sequence, 1)),
                    elements: vec![point, left],
                    delta: Point::from_ints(1, 0),
                },
                None,
            )
            .unwrap_err();
        assert!(
            error.message.contains("this frame only"),
            "{}",
            error.message
        );
        assert_eq!(doc, before, "the point did not move either");
    }

    #[test]
    fn a_point_and_inherited_boxes_are_deleted_in_one_step() {
        let (mut doc, sequence, [left, right, point]) = set_with_default_boxes();
        let before = doc.clone();
        let mut history = History::new();
        let target = BoxTarget::new(at_frame(sequence, 1)).inherited(InheritedBoxes::ThisFrameOnly);
        let command = DeleteSelection {
            target,
            elements: vec![point, left, right],
        };
        assert_eq!(command.label(), "Delete 3 elements");
        let selection = history
            .apply(&mut doc, &Selection::none(), &command, None)
            .unwrap();
        assert!(selection.elements.is_empty());
        assert!(doc.element(point).is_none());
        assert!(box_shapes(&doc, sequence, 1).is_empty());
        assert_eq!(
            box_shapes(&doc, sequence, 2),
            vec![square(0, 0), square(10, 0)]
        );
        assert_eq!(history.entries().len(), 1);
        history.undo(&mut doc);
        assert_eq!(doc, before);
    }

    #[test]
    fn an_empty_selection_is_refused() {
        let (mut doc, sequence, _) = set_with_default_boxes();
        let target = BoxTarget::new(at_frame(sequence, 1));
        let mut history = History::new();
        let moved = MoveSelection {
            target,
            elements: Vec::new(),
            delta: Point::from_ints(1, 0),
        };
        assert!(
            history
                .apply(&mut doc, &Selection::none(), &moved, None)
                .is_err()
        );
        let deleted = DeleteSelection {
            target,
            elements: Vec::new(),
        };
        assert!(
            history
                .apply(&mut doc, &Selection::none(), &deleted, None)
                .is_err()
        );
    }
}
