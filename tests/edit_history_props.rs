//! Property: any run of commands (valid or refused, with or without merged drags) undoes back
//! through exactly the documents it went through, and redoes forward the same way.

use proptest::prelude::*;
use sprat::edit::boxes::{AddBox, BoxTarget, FrameAt, InheritedBoxes, MoveBoxes};
use sprat::edit::canvas::MoveElements;
use sprat::edit::timeline::{
    DeleteFrames, DuplicateFrames, InsertBlankFrame, MoveFrames, SetDurations, SetLoopPoint,
};
use sprat::edit::tree::{AddSequence, Delete, DuplicateSequence, MoveNode, TreeNode};
use sprat::edit::{Command, Gesture, History, Selection};
use sprat::model::*;

fn sample() -> AnimationSet {
    let mut set = AnimationSet::new();
    for name in ["walk", "idle"] {
        let mut frames = Vec::new();
        for i in 0..3u32 {
            let mut frame = Frame::new(FrameDuration::Ticks(4 + i));
            let hurt = CollisionBox::rect_from_corners(
                BoxClass::Hurt,
                Point::from_ints(-5, -20),
                Point::from_ints(5, 0),
            );
            if i == 0 {
                frame.elements.push(Element {
                    id: ElementId(set.alloc_id()),
                    name: Name::default(),
                    kind: ElementKind::Box(hurt),
                });
                frame.box_declarations.push(BoxDeclaration {
                    class: BoxClass::Hurt,
                    scope: BoxScope::FromHereOn,
                });
            }
            frame.elements.push(Element {
                id: ElementId(set.alloc_id()),
                name: "hand".into(),
                kind: ElementKind::Point(AttachmentPoint::at(Point::from_ints(3, -8))),
            });
            let id = FrameId(set.alloc_id());
            set.frames.insert(id, frame);
            frames.push(id);
        }
        let mut sequence = Sequence::new(
            SequenceId(set.alloc_id()),
            name,
            DirectionId(set.alloc_id()),
        );
        sequence.directions[0].frames = frames;
        set.root.items.push(TreeItem::Sequence(sequence));
    }
    set
}

/// A command built from small numbers against the current document (indices wrap, so most
/// are valid and some are refused).
fn command(doc: &AnimationSet, kind: u8, a: u8, b: u8) -> Box<dyn Command> {
    let sequences = doc.sequences();
    let s = sequences[a as usize % sequences.len()];
    let len = s.directions[0].frames.len();
    let at = |n: u8| {
        if len == 0 {
            n as usize
        } else {
            n as usize % (len + 1)
        }
    };
    match kind % 11 {
        0 => Box::new(InsertBlankFrame {
            sequence: s.id,
            direction: 0,
            index: at(b),
        }),
        1 => Box::new(DuplicateFrames {
            sequence: s.id,
            direction: 0,
            positions: vec![at(b), at(a)],
        }),
        2 => Box::new(DeleteFrames {
            sequence: s.id,
            direction: 0,
            positions: vec![at(b)],
        }),
        3 => Box::new(MoveFrames {
            sequence: s.id,
            direction: 0,
            positions: vec![at(a), at(b)],
            to: at(b.wrapping_add(a)),
        }),
        4 => Box::new(SetDurations {
            sequence: s.id,
            direction: 0,
            positions: vec![at(b)],
            duration: FrameDuration::Ticks(b as u32),
        }),
        5 => Box::new(SetLoopPoint {
            sequence: s.id,
            loop_point: Some(b as usize % 5),
        }),
        6 => Box::new(AddSequence {
            parent: doc.root.id,
            index: Some(b as usize),
            name: format!("s{b}"),
        }),
        7 => Box::new(DuplicateSequence {
            sequence: s.id,
            name: None,
        }),
        8 => Box::new(MoveNode {
            node: TreeNode::Sequence(s.id),
            to_group: doc.root.id,
            index: b as usize,
        }),
        9 if sequences.len() > 1 => Box::new(Delete {
            node: TreeNode::Sequence(s.id),
        }),
        _ => {
            let target = BoxTarget::new(FrameAt {
                sequence: s.id,
                direction: 0,
                index: at(b),
            });
            let target = if a.is_multiple_of(2) {
                target.inherited(InheritedBoxes::ThisFrameOnly)
            } else {
                target.inherited(InheritedBoxes::DefaultFromHereOn)
            };
            let frame = s.directions[0]
                .frames
                .get(at(b))
                .and_then(|f| doc.frame(*f));
            let shown = frame.map(|_| {
                let frames = doc.direction_frames(s, 0);
                effective_boxes(&frames, at(b), DefaultBoxRule::ReturnToDefault)
                    .iter()
                    .map(|e| e.element.id)
                    .collect::<Vec<_>>()
            });
            match (kind % 3, shown) {
                (0, Some(ids)) if !ids.is_empty() => Box::new(MoveBoxes {
                    target,
                    elements: ids,
                    delta: Point::from_ints(1, 0),
                }),
                (1, _) => Box::new(MoveElements {
                    elements: frame
                        .map(|f| f.elements.iter().map(|e| e.id).collect())
                        .unwrap_or_default(),
                    delta: Point::from_ints(0, 1),
                }),
                _ => Box::new(AddBox {
                    target,
                    class: BoxClass::Hurt,
                    shape: Shape::Circle {
                        center: Point::ZERO,
                        radius: Fx::from_int(3),
                    },
                }),
            }
        }
    }
}

fn identical(a: &AnimationSet, b: &AnimationSet) -> bool {
    a == b && a.frames.keys().eq(b.frames.keys())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn undo_and_redo_retrace_every_state(
        steps in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>(), 0u8..4), 1..25)
    ) {
        let mut doc = sample();
        let mut history = History::new();
        let mut states = vec![doc.clone()];
        for (kind, a, b, gesture) in steps {
            let before = doc.clone();
            let command = command(&doc, kind, a, b);
            // Gestures 1..3 make consecutive commands with the same value merge into one step.
            let gesture = (gesture > 0).then_some(Gesture(gesture as u64));
            let count = history.done_count();
            match history.apply(&mut doc, &Selection::none(), command.as_ref(), gesture) {
                Err(_) => prop_assert!(identical(&doc, &before), "a refusal changed the document"),
                Ok(_) if history.done_count() > count => states.push(doc.clone()),
                Ok(_) if identical(&doc, &before) => {}
                Ok(_) => *states.last_mut().unwrap() = doc.clone(),
            }
        }
        prop_assert_eq!(history.done_count() + 1, states.len());
        for k in (0..states.len() - 1).rev() {
            history.undo(&mut doc);
            prop_assert!(identical(&doc, &states[k]), "undo to step {} differs", k);
        }
        for state in states.iter().skip(1) {
            history.redo(&mut doc);
            prop_assert!(identical(&doc, state), "redo differs");
        }
    }
}
