//! Every edit command: do, undo and redo give back exactly the documents before and after
//! (ids and frame-arena order included), and refusals change nothing.

use sprat::edit::boxes::{
    AddBox, BoxTarget, CopyBoxes, CopyBoxesTo, DeleteBoxes, FrameAt, InheritedBoxes, MoveBoxes,
    SetBoxShape,
};
use sprat::edit::canvas::{MoveElements, MoveOrigin, RotateElement, ScaleElement};
use sprat::edit::clipboard::{FrameClipboard, PasteFrames};
use sprat::edit::inspector::{
    DocumentField, ElementField, FrameField, SequenceField, SetDocumentField, SetElementField,
    SetFrameField, SetSequenceField,
};
use sprat::edit::points::AddPoint;
use sprat::edit::sheet::{AddImage, CreateDirectionFromGrid, CreateFrameFromRect, DirectionGrid};
use sprat::edit::timeline::{
    DeleteFrames, DuplicateFrames, InsertBlankFrame, InsertFrames, MoveFrames, SetDurations,
    SetFrameDuration, SetLoopPoint,
};
use sprat::edit::tree::{
    AddDirection, AddGroup, AddSequence, Delete, DeleteDirection, DuplicateDirection,
    DuplicateSequence, MoveDirection, MoveNode, Rename, RenameDirection, SetDefaultSequence,
    TreeNode,
};
use sprat::edit::{Command, Gesture, History, Selection, Transaction};
use sprat::model::*;

/// A small document: an image with two slices, a group "moves" holding "walk" (one direction,
/// three frames with a graphic, a point and a hurt box) and "idle" (one frame), and an AIR-like
/// "attack" whose first frame declares default hurt boxes the next two inherit.
fn sample() -> AnimationSet {
    let mut set = AnimationSet::new();
    let image = ImageId(set.alloc_id());
    set.images.push(SourceImage {
        id: image,
        path: "hero.png".into(),
        resolved: None,
        kind: ImageKind::File,
        nearest_neighbour: true,
    });
    let mut slices = Vec::new();
    for i in 0..2 {
        let id = SliceId(set.alloc_id());
        set.slices.push(Slice {
            id,
            image,
            rect: PixelRect {
                x: 32 * i,
                y: 0,
                width: 32,
                height: 32,
            },
            rotated: false,
        });
        slices.push(id);
    }
    let mut walk_frames = Vec::new();
    for i in 0..3 {
        let mut frame = Frame::new(FrameDuration::Millis(100 + i * 10));
        let graphic = Graphic::new(
            GraphicSource::Slice(slices[i as usize % 2]),
            Point::from_ints(0, 0),
            Origin::At(Point::from_ints(16, 30)),
        );
        push(&mut set, &mut frame, "", ElementKind::Graphic(graphic));
        let point = AttachmentPoint::at(Point::from_ints(4, -10));
        push(&mut set, &mut frame, "hand", ElementKind::Point(point));
        let hurt = CollisionBox::rect_from_corners(
            BoxClass::Hurt,
            Point::from_ints(-8, -28),
            Point::from_ints(8, 0),
        );
        push(&mut set, &mut frame, "", ElementKind::Box(hurt));
        let id = FrameId(set.alloc_id());
        set.frames.insert(id, frame);
        walk_frames.push(id);
    }
    let idle_frame = FrameId(set.alloc_id());
    set.frames
        .insert(idle_frame, Frame::new(FrameDuration::Millis(200)));
    let mut attack_frames = Vec::new();
    for i in 0..3 {
        let mut frame = Frame::new(FrameDuration::Millis(50));
        if i == 0 {
            let hurt = CollisionBox::rect_from_corners(
                BoxClass::Hurt,
                Point::from_ints(-10, -40),
                Point::from_ints(10, 0),
            );
            push(&mut set, &mut frame, "", ElementKind::Box(hurt));
            frame.box_declarations.push(BoxDeclaration {
                class: BoxClass::Hurt,
                scope: BoxScope::FromHereOn,
            });
        }
        let id = FrameId(set.alloc_id());
        set.frames.insert(id, frame);
        attack_frames.push(id);
    }
    let mut walk = Sequence::new(
        SequenceId(set.alloc_id()),
        "walk",
        DirectionId(set.alloc_id()),
    );
    walk.directions[0].frames = walk_frames;
    walk.loop_point = Some(1);
    let mut idle = Sequence::new(
        SequenceId(set.alloc_id()),
        "idle",
        DirectionId(set.alloc_id()),
    );
    idle.directions[0].frames = vec![idle_frame];
    let mut attack = Sequence::new(
        SequenceId(set.alloc_id()),
        "attack",
        DirectionId(set.alloc_id()),
    );
    attack.directions[0].frames = attack_frames;
    attack.loop_point = None;
    let group = Group {
        id: GroupId(set.alloc_id()),
        name: "moves".into(),
        items: vec![TreeItem::Sequence(walk), TreeItem::Sequence(idle)],
    };
    set.root.items.push(TreeItem::Group(group));
    set.root.items.push(TreeItem::Sequence(attack));
    set
}

fn push(set: &mut AnimationSet, frame: &mut Frame, name: &str, kind: ElementKind) {
    frame.elements.push(Element {
        id: ElementId(set.alloc_id()),
        name: name.into(),
        kind,
    });
}

fn seq(set: &AnimationSet, name: &str) -> SequenceId {
    set.sequence_by_name(name).expect("sequence exists").id
}

fn frames_of(set: &AnimationSet, name: &str) -> Vec<FrameId> {
    set.sequence_by_name(name).unwrap().directions[0]
        .frames
        .clone()
}

fn elements_of(set: &AnimationSet, frame: FrameId) -> Vec<ElementId> {
    set.frame(frame)
        .unwrap()
        .elements
        .iter()
        .map(|e| e.id)
        .collect()
}

fn group_id(set: &AnimationSet) -> GroupId {
    match &set.root.items[0] {
        TreeItem::Group(g) => g.id,
        TreeItem::Sequence(_) => panic!("the sample starts with a group"),
    }
}

/// Equal documents with the frame arena in the same order (IndexMap equality ignores order).
fn assert_identical(a: &AnimationSet, b: &AnimationSet, what: &str) {
    assert_eq!(a, b, "{what}");
    let ka: Vec<_> = a.frames.keys().collect();
    let kb: Vec<_> = b.frames.keys().collect();
    assert_eq!(ka, kb, "{what}: frame arena order");
    assert_eq!(
        ron::to_string(a).unwrap(),
        ron::to_string(b).unwrap(),
        "{what}"
    );
}

/// Applies `command`, checks it changed the document, and that undo, redo, undo give back
/// exactly the documents before and after. Returns the document after and the selection.
fn round_trip(doc: &AnimationSet, command: &dyn Command) -> (AnimationSet, Selection) {
    let mut work = doc.clone();
    let mut history = History::new();
    let before_selection = Selection::frames(SequenceId(999), 0, vec![0]);
    let selection = history
        .apply(&mut work, &before_selection, command, None)
        .unwrap_or_else(|e| panic!("{}: refused: {e}", command.label()));
    assert_ne!(&work, doc, "{}: changed nothing", command.label());
    let after = work.clone();
    assert_eq!(history.undo(&mut work), Some(before_selection.clone()));
    assert_identical(&work, doc, &format!("{}: undo", command.label()));
    assert_eq!(history.redo(&mut work), Some(selection.clone()));
    assert_identical(&work, &after, &format!("{}: redo", command.label()));
    history.undo(&mut work);
    assert_identical(&work, doc, &format!("{}: second undo", command.label()));
    (after, selection)
}

/// Applies `command` expecting a refusal that names `needle`, and no change at all.
fn refused(doc: &AnimationSet, command: &dyn Command, needle: &str) {
    let mut work = doc.clone();
    let mut history = History::new();
    let error = history
        .apply(&mut work, &Selection::none(), command, None)
        .expect_err("the command should be refused");
    assert!(
        error.message.contains(needle),
        "{}: message {:?} lacks {needle:?}",
        command.label(),
        error.message
    );
    assert_identical(&work, doc, "a refused command changes nothing");
    assert!(!history.can_undo(), "a refused command adds no step");
}

#[test]
fn tree_commands_round_trip() {
    let doc = sample();
    let group = group_id(&doc);
    let walk = seq(&doc, "walk");
    let root = doc.root.id;

    let (after, selection) = round_trip(
        &doc,
        &AddSequence {
            parent: group,
            index: Some(1),
            name: "run".into(),
        },
    );
    let run = seq(&after, "run");
    assert_eq!(selection.sequence, Some(run));
    assert_eq!(after.sequence(run).unwrap().directions.len(), 1);

    round_trip(
        &doc,
        &AddGroup {
            parent: root,
            index: None,
            name: "specials".into(),
        },
    );
    let (after, _) = round_trip(
        &doc,
        &Rename {
            node: TreeNode::Sequence(walk),
            name: "stroll".into(),
        },
    );
    assert_eq!(after.sequence(walk).unwrap().name, "stroll");
    round_trip(
        &doc,
        &Rename {
            node: TreeNode::Group(group),
            name: "basics".into(),
        },
    );

    let (after, selection) = round_trip(
        &doc,
        &DuplicateSequence {
            sequence: walk,
            name: None,
        },
    );
    let copy = after.sequence(selection.sequence.unwrap()).unwrap();
    assert_eq!(copy.name, "walk copy");
    let originals = frames_of(&doc, "walk");
    assert!(
        copy.directions[0]
            .frames
            .iter()
            .all(|f| !originals.contains(f))
    );
    assert_eq!(after.frames.len(), doc.frames.len() + 3);

    let (after, _) = round_trip(
        &doc,
        &Delete {
            node: TreeNode::Sequence(walk),
        },
    );
    assert!(after.sequence(walk).is_none());
    assert!(
        originals.iter().all(|f| after.frame(*f).is_none()),
        "frames only walk used go"
    );

    let (after, _) = round_trip(
        &doc,
        &Delete {
            node: TreeNode::Group(group),
        },
    );
    assert_eq!(after.sequences().len(), 1);

    let (after, _) = round_trip(
        &doc,
        &MoveNode {
            node: TreeNode::Sequence(walk),
            to_group: root,
            index: 0,
        },
    );
    assert!(matches!(&after.root.items[0], TreeItem::Sequence(s) if s.id == walk));
    let (after, _) = round_trip(
        &doc,
        &MoveNode {
            node: TreeNode::Sequence(walk),
            to_group: group,
            index: 5,
        },
    );
    assert_eq!(
        after.sequences()[1].id,
        walk,
        "moved after idle inside its group"
    );

    let (after, _) = round_trip(
        &doc,
        &SetDefaultSequence {
            sequence: Some(walk),
        },
    );
    assert_eq!(after.default_sequence, Some(walk));
}

#[test]
fn deleting_the_default_sequence_clears_the_default_and_undo_restores_it() {
    let mut doc = sample();
    let walk = seq(&doc, "walk");
    doc.default_sequence = Some(walk);
    let (after, _) = round_trip(
        &doc,
        &Delete {
            node: TreeNode::Sequence(walk),
        },
    );
    assert_eq!(after.default_sequence, None);
}

#[test]
fn tree_refusals() {
    let doc = sample();
    let group = group_id(&doc);
    let walk = seq(&doc, "walk");
    refused(
        &doc,
        &AddSequence {
            parent: group,
            index: None,
            name: "idle".into(),
        },
        "already named",
    );
    refused(
        &doc,
        &Rename {
            node: TreeNode::Sequence(walk),
            name: "  ".into(),
        },
        "needs a name",
    );
    refused(
        &doc,
        &MoveNode {
            node: TreeNode::Group(group),
            to_group: group,
            index: 0,
        },
        "into itself",
    );
    refused(
        &doc,
        &Delete {
            node: TreeNode::Group(doc.root.id),
        },
        "root",
    );
    refused(
        &doc,
        &DeleteDirection {
            sequence: walk,
            direction: 0,
        },
        "at least one direction",
    );
}

#[test]
fn direction_commands_round_trip() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    let (after, _) = round_trip(
        &doc,
        &AddDirection {
            sequence: walk,
            index: None,
            name: Some("up".into()),
        },
    );
    assert_eq!(after.sequence(walk).unwrap().directions.len(), 2);
    let (two, _) = round_trip(
        &doc,
        &DuplicateDirection {
            sequence: walk,
            direction: 0,
        },
    );
    let directions = &two.sequence(walk).unwrap().directions;
    assert_eq!(directions[1].frames.len(), 3);
    assert_ne!(directions[0].frames, directions[1].frames);
    round_trip(
        &two,
        &DeleteDirection {
            sequence: walk,
            direction: 0,
        },
    );
    round_trip(
        &two,
        &MoveDirection {
            sequence: walk,
            from: 1,
            to: 0,
        },
    );
    round_trip(
        &doc,
        &RenameDirection {
            sequence: walk,
            direction: 0,
            name: Some("east".into()),
        },
    );
}

#[test]
fn timeline_commands_round_trip() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    let frames = frames_of(&doc, "walk");

    let (after, selection) = round_trip(
        &doc,
        &InsertFrames {
            sequence: walk,
            direction: 0,
            index: 0,
            frames: vec![Frame::new(FrameDuration::Millis(40))],
        },
    );
    assert_eq!(selection.frames, vec![0]);
    assert_eq!(
        after.sequence(walk).unwrap().loop_point,
        Some(2),
        "loop stays on its frame"
    );

    let (after, _) = round_trip(
        &doc,
        &InsertBlankFrame {
            sequence: walk,
            direction: 0,
            index: 3,
        },
    );
    let new = frames_of(&after, "walk")[3];
    assert_eq!(
        after.frame(new).unwrap().duration,
        FrameDuration::Millis(120)
    );

    let (after, selection) = round_trip(
        &doc,
        &DuplicateFrames {
            sequence: walk,
            direction: 0,
            positions: vec![2, 0],
        },
    );
    assert_eq!(selection.frames, vec![3, 4]);
    let list = frames_of(&after, "walk");
    assert_eq!(list.len(), 5);
    assert_eq!(
        after.frame(list[3]).unwrap().duration,
        FrameDuration::Millis(100),
        "copies keep timeline order"
    );

    let (after, _) = round_trip(
        &doc,
        &DeleteFrames {
            sequence: walk,
            direction: 0,
            positions: vec![0],
        },
    );
    assert_eq!(frames_of(&after, "walk"), frames[1..].to_vec());
    assert_eq!(after.sequence(walk).unwrap().loop_point, Some(0));
    assert!(after.frame(frames[0]).is_none());

    let (after, selection) = round_trip(
        &doc,
        &MoveFrames {
            sequence: walk,
            direction: 0,
            positions: vec![0, 1],
            to: 3,
        },
    );
    assert_eq!(
        frames_of(&after, "walk"),
        vec![frames[2], frames[0], frames[1]]
    );
    assert_eq!(selection.frames, vec![1, 2]);

    let (after, _) = round_trip(
        &doc,
        &SetDurations {
            sequence: walk,
            direction: 0,
            positions: vec![0, 2],
            duration: FrameDuration::Millis(70),
        },
    );
    let durations: Vec<_> = frames
        .iter()
        .map(|f| after.frame(*f).unwrap().duration)
        .collect();
    assert_eq!(
        durations,
        vec![
            FrameDuration::Millis(70),
            FrameDuration::Millis(110),
            FrameDuration::Millis(70)
        ]
    );
    round_trip(
        &doc,
        &SetFrameDuration {
            frame: frames[1],
            duration: FrameDuration::Forever,
        },
    );
    let (after, _) = round_trip(
        &doc,
        &SetLoopPoint {
            sequence: walk,
            loop_point: Some(2),
        },
    );
    assert_eq!(after.sequence(walk).unwrap().loop_point, Some(2));
}

#[test]
fn timeline_refusals() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    refused(
        &doc,
        &SetLoopPoint {
            sequence: walk,
            loop_point: Some(3),
        },
        "past the end",
    );
    refused(
        &doc,
        &SetDurations {
            sequence: walk,
            direction: 0,
            positions: vec![0, 1],
            duration: FrameDuration::Ticks(4),
        },
        "counts frame durations in ms",
    );
    refused(
        &doc,
        &DeleteFrames {
            sequence: walk,
            direction: 0,
            positions: vec![1, 7],
        },
        "no frame 7",
    );
    refused(
        &doc,
        &MoveFrames {
            sequence: walk,
            direction: 0,
            positions: vec![],
            to: 0,
        },
        "no frame is selected",
    );
}

#[test]
fn a_refusal_halfway_through_a_transaction_undoes_the_first_half() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    let transaction = Transaction::new("Rename and loop")
        .with(Rename {
            node: TreeNode::Sequence(walk),
            name: "stroll".into(),
        })
        .with(SetLoopPoint {
            sequence: walk,
            loop_point: Some(10),
        });
    refused(&doc, &transaction, "past the end");
}

#[test]
fn a_transaction_is_one_undo_step() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    let transaction = Transaction::new("Rename and loop")
        .with(Rename {
            node: TreeNode::Sequence(walk),
            name: "stroll".into(),
        })
        .with(SetLoopPoint {
            sequence: walk,
            loop_point: Some(0),
        });
    let (after, _) = round_trip(&doc, &transaction);
    let s = after.sequence(walk).unwrap();
    assert_eq!((s.name.as_str(), s.loop_point), ("stroll", Some(0)));
}

#[test]
fn clipboard_pastes_within_and_across_documents() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    let idle = seq(&doc, "idle");
    let clipboard = FrameClipboard::copy(&doc, walk, 0, &[1, 0]).unwrap();
    assert_eq!(clipboard.frames.len(), 2);
    assert_eq!(clipboard.slices.len(), 2);
    assert_eq!(clipboard.images.len(), 1);

    // Within the document: same image and slices are reused, frames and elements get new ids.
    let (after, _) = round_trip(
        &doc,
        &PasteFrames {
            clipboard: clipboard.clone(),
            sequence: idle,
            direction: 0,
            index: 1,
        },
    );
    assert_eq!(after.images.len(), 1);
    assert_eq!(after.slices.len(), 2);
    let pasted = frames_of(&after, "idle");
    assert_eq!(pasted.len(), 3);
    let copy = after.frame(pasted[1]).unwrap();
    assert_eq!(copy.duration, FrameDuration::Millis(100));
    assert!(copy.elements.iter().all(|e| doc.element(e.id).is_none()));

    // Into another document that has no images: image and slices come along under new ids.
    let mut other = AnimationSet::new();
    other.next_id = 500;
    let target = SequenceId(other.alloc_id());
    let direction = DirectionId(other.alloc_id());
    other
        .root
        .items
        .push(TreeItem::Sequence(Sequence::new(target, "copy", direction)));
    let (after, _) = round_trip(
        &other,
        &PasteFrames {
            clipboard,
            sequence: target,
            direction: 0,
            index: 0,
        },
    );
    assert_eq!(after.images.len(), 1);
    assert_eq!(after.images[0].path, "hero.png");
    assert!(after.images[0].id.0 >= 500);
    assert_eq!(after.slices.len(), 2);
    let frame = after.frame(frames_of(&after, "copy")[1]).unwrap();
    let Some(Graphic {
        source: GraphicSource::Slice(slice),
        ..
    }) = frame.elements[0].as_graphic()
    else {
        panic!("the pasted frame shows a slice");
    };
    let slice = after.slice(*slice).expect("the slice was pasted too");
    assert_eq!(slice.image, after.images[0].id);
    assert_eq!(slice.rect.x, 32, "frame 1 shows the second slice");
}

#[test]
fn inspector_fields_round_trip_and_validate() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    let frame = frames_of(&doc, "walk")[0];
    let [graphic, point, hurt] = elements_of(&doc, frame)[..] else {
        panic!("three elements");
    };
    let sequence_fields = [
        SequenceField::Name("stroll".into()),
        SequenceField::LoopPoint(None),
        SequenceField::OnEnd(EndBehavior::Disappear),
        SequenceField::FollowUp(Some("idle".into())),
        SequenceField::FrameRate(Some(12)),
    ];
    for field in sequence_fields {
        round_trip(
            &doc,
            &SetSequenceField {
                sequence: walk,
                field,
            },
        );
    }
    let frame_fields = [
        FrameField::Duration(FrameDuration::Millis(33)),
        FrameField::Label("contact".into()),
        FrameField::Triggers("sound step".into()),
        FrameField::Notes("left foot".into()),
        FrameField::Interpolation(Interpolation {
            offset: true,
            ..Interpolation::default()
        }),
    ];
    for field in frame_fields {
        round_trip(&doc, &SetFrameField { frame, field });
    }
    let element_fields = [
        (graphic, ElementField::Name("body".into())),
        (graphic, ElementField::Position(Point::from_ints(3, 4))),
        (
            graphic,
            ElementField::Origin(Origin::At(Point::from_ints(1, 1))),
        ),
        (
            graphic,
            ElementField::Source(GraphicSource::Slice(doc.slices[1].id)),
        ),
        (graphic, ElementField::FlipH(true)),
        (graphic, ElementField::FlipV(true)),
        (graphic, ElementField::Rotation(45.0)),
        (graphic, ElementField::ScaleX(2.0)),
        (graphic, ElementField::ScaleY(0.5)),
        (graphic, ElementField::Opacity(128)),
        (
            graphic,
            ElementField::Blend(BlendMode::Add {
                source: 256,
                destination: 128,
            }),
        ),
        (point, ElementField::Position(Point::from_ints(9, 9))),
        (point, ElementField::Rotation(90.0)),
        (point, ElementField::PointId(7)),
        (point, ElementField::Name("weapon".into())),
        (hurt, ElementField::BoxClass(BoxClass::Hit)),
        (hurt, ElementField::Rotation(10.0)),
        (
            hurt,
            ElementField::Shape(Shape::Circle {
                center: Point::ZERO,
                radius: Fx::from_int(5),
            }),
        ),
        (hurt, ElementField::BoxId(3)),
    ];
    for (element, field) in element_fields {
        round_trip(&doc, &SetElementField { element, field });
    }

    refused(
        &doc,
        &SetSequenceField {
            sequence: walk,
            field: SequenceField::LoopPoint(Some(9)),
        },
        "loop point",
    );
    refused(
        &doc,
        &SetSequenceField {
            sequence: walk,
            field: SequenceField::Name("idle".into()),
        },
        "already named",
    );
    refused(
        &doc,
        &SetSequenceField {
            sequence: walk,
            field: SequenceField::FollowUp(Some("nowhere".into())),
        },
        "no sequence is named",
    );
    refused(
        &doc,
        &SetElementField {
            element: graphic,
            field: ElementField::ScaleX(0.0),
        },
        "scale of 0",
    );
    refused(
        &doc,
        &SetElementField {
            element: graphic,
            field: ElementField::Rotation(f64::NAN),
        },
        "must be a number",
    );
    refused(
        &doc,
        &SetElementField {
            element: hurt,
            field: ElementField::Opacity(3),
        },
        "no opacity",
    );
    refused(
        &doc,
        &SetElementField {
            element: hurt,
            field: ElementField::Shape(Shape::Rect {
                x: Fx::ZERO,
                y: Fx::ZERO,
                width: Fx::from_int(-1),
                height: Fx::from_int(1),
                rotation: 0.0,
            }),
        },
        "negative",
    );
    refused(
        &doc,
        &SetElementField {
            element: graphic,
            field: ElementField::Blend(BlendMode::Add {
                source: 300,
                destination: 0,
            }),
        },
        "0 to 256",
    );
}

#[test]
fn canvas_commands_round_trip() {
    let doc = sample();
    let frame = frames_of(&doc, "walk")[0];
    let [graphic, point, hurt] = elements_of(&doc, frame)[..] else {
        panic!("three elements");
    };
    let (after, _) = round_trip(
        &doc,
        &MoveElements {
            elements: vec![graphic, point, hurt],
            delta: Point::from_ints(1, -10),
        },
    );
    assert_eq!(
        after.element(point).unwrap().1.as_point().unwrap().position,
        Point::from_ints(5, -20)
    );
    match &after.element(hurt).unwrap().1.as_box().unwrap().shape {
        Shape::Rect { x, y, .. } => assert_eq!((*x, *y), (Fx::from_int(-7), Fx::from_int(-38))),
        other => panic!("{other:?}"),
    }
    round_trip(
        &doc,
        &ScaleElement {
            element: graphic,
            scale_x: -1.5,
            scale_y: 2.0,
        },
    );
    round_trip(
        &doc,
        &RotateElement {
            element: point,
            rotation: 30.0,
        },
    );
    round_trip(
        &doc,
        &RotateElement {
            element: hurt,
            rotation: 15.0,
        },
    );
    let (after, _) = round_trip(
        &doc,
        &MoveOrigin {
            element: graphic,
            origin: Point::from_ints(10, 20),
            keep_in_place: true,
        },
    );
    let g = after.element(graphic).unwrap().1.as_graphic().unwrap();
    assert_eq!(g.origin, Origin::At(Point::from_ints(10, 20)));
    assert_eq!(
        g.position,
        Point::from_ints(-6, -10),
        "the pixels stay in place"
    );
    refused(
        &doc,
        &ScaleElement {
            element: hurt,
            scale_x: 2.0,
            scale_y: 2.0,
        },
        "no scale",
    );
}

#[test]
fn a_drag_step_is_named_by_its_latest_command() {
    let doc = sample();
    let frame = frames_of(&doc, "walk")[0];
    let mut work = doc.clone();
    let mut history = History::new();
    // A cell's edge dragged from 7 to 9: the step says where the drag ended.
    for label in ["Set duration to 7 ms", "Set duration to 9 ms"] {
        let ms = if label.contains('7') { 7 } else { 9 };
        let step = Transaction::new(label).with(SetFrameDuration {
            frame,
            duration: FrameDuration::Millis(ms),
        });
        history
            .apply(&mut work, &Selection::default(), &step, Some(Gesture(4)))
            .unwrap();
    }
    assert_eq!(history.entries().len(), 1);
    assert_eq!(history.undo_label(), Some("Set duration to 9 ms"));
}

#[test]
fn a_drag_is_one_undo_step_and_a_new_drag_is_another() {
    let doc = sample();
    let frame = frames_of(&doc, "walk")[0];
    let point = elements_of(&doc, frame)[1];
    let mut work = doc.clone();
    let mut history = History::new();
    let selection = Selection::default().with_elements(vec![point]);
    for _ in 0..5 {
        let step = MoveElements {
            elements: vec![point],
            delta: Point::from_ints(1, 0),
        };
        history
            .apply(&mut work, &selection, &step, Some(Gesture(1)))
            .unwrap();
    }
    let after_first_drag = work.clone();
    history
        .apply(
            &mut work,
            &selection,
            &MoveElements {
                elements: vec![point],
                delta: Point::from_ints(0, 3),
            },
            Some(Gesture(2)),
        )
        .unwrap();
    assert_eq!(history.entries().len(), 2);
    assert_eq!(
        work.element(point).unwrap().1.as_point().unwrap().position,
        Point::from_ints(9, -7)
    );
    history.undo(&mut work);
    assert_identical(&work, &after_first_drag, "undo the second drag");
    history.undo(&mut work);
    assert_identical(&work, &doc, "one undo takes back the whole first drag");
    assert!(!history.can_undo());
    history.redo(&mut work);
    assert_identical(&work, &after_first_drag, "one redo brings it back");
}

#[test]
fn history_lists_steps_and_jumps_back_and_forth() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    let mut work = doc.clone();
    let mut history = History::new();
    let names = ["a", "b", "c"];
    let mut states = vec![work.clone()];
    for name in names {
        history
            .apply(
                &mut work,
                &Selection::none(),
                &Rename {
                    node: TreeNode::Sequence(walk),
                    name: name.into(),
                },
                None,
            )
            .unwrap();
        states.push(work.clone());
    }
    history.jump_to(&mut work, 1);
    assert_identical(&work, &states[1], "jump back to after the first step");
    let entries = history.entries();
    assert_eq!(entries.len(), 3);
    assert_eq!(
        entries.iter().map(|e| e.done).collect::<Vec<_>>(),
        vec![true, false, false]
    );
    assert_eq!(entries[2].label, "Rename to \"c\"");
    history.jump_to(&mut work, 3);
    assert_identical(&work, &states[3], "jump forward to the end");
    history.jump_to(&mut work, 0);
    assert_identical(&work, &states[0], "jump to the start");
}

#[test]
fn a_command_that_changes_nothing_adds_no_step() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    let mut work = doc.clone();
    let mut history = History::new();
    history
        .apply(
            &mut work,
            &Selection::none(),
            &SetLoopPoint {
                sequence: walk,
                loop_point: Some(1),
            },
            None,
        )
        .unwrap();
    assert!(!history.can_undo());
}

#[test]
fn selection_survives_undo_and_redo() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    let mut work = doc.clone();
    let mut history = History::new();
    let before = Selection::frames(walk, 0, vec![0, 1]);
    let after = history
        .apply(
            &mut work,
            &before,
            &MoveFrames {
                sequence: walk,
                direction: 0,
                positions: vec![0, 1],
                to: 3,
            },
            None,
        )
        .unwrap();
    assert_eq!(after.frames, vec![1, 2]);
    assert_eq!(history.undo(&mut work), Some(before));
    assert_eq!(history.redo(&mut work), Some(after));
}

fn attack_target(doc: &AnimationSet, index: usize) -> BoxTarget {
    BoxTarget::new(FrameAt {
        sequence: seq(doc, "attack"),
        direction: 0,
        index,
    })
}

fn effective_ids(doc: &AnimationSet, index: usize) -> Vec<(ElementId, BoxOrigin)> {
    let s = doc.sequence_by_name("attack").unwrap();
    let frames = doc.direction_frames(s, 0);
    effective_boxes(&frames, index, DefaultBoxRule::ReturnToDefault)
        .iter()
        .map(|b| (b.element.id, b.origin))
        .collect()
}

#[test]
fn box_commands_round_trip_on_own_boxes() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    let frame = frames_of(&doc, "walk")[1];
    let hurt = elements_of(&doc, frame)[2];
    let target = BoxTarget::new(FrameAt {
        sequence: walk,
        direction: 0,
        index: 1,
    });
    let (after, selection) = round_trip(
        &doc,
        &AddBox {
            target,
            class: BoxClass::Hit,
            shape: Shape::Circle {
                center: Point::from_ints(10, -20),
                radius: Fx::from_int(6),
            },
        },
    );
    let added = selection.elements[0];
    assert_eq!(after.element(added).unwrap().0, frame);
    let moved = Shape::Rect {
        x: Fx::from_int(1),
        y: Fx::from_int(2),
        width: Fx::from_int(3),
        height: Fx::from_int(4),
        rotation: 0.0,
    };
    let (after, _) = round_trip(
        &doc,
        &SetBoxShape {
            target,
            element: hurt,
            shape: moved.clone(),
        },
    );
    assert_eq!(
        after.element(hurt).unwrap().1.as_box().unwrap().shape,
        moved
    );
    round_trip(
        &doc,
        &MoveBoxes {
            target,
            elements: vec![hurt],
            delta: Point::from_ints(0, 1),
        },
    );
    let (after, _) = round_trip(
        &doc,
        &DeleteBoxes {
            target,
            elements: vec![hurt],
        },
    );
    assert!(after.element(hurt).is_none());
    assert!(after.frame(frame).unwrap().box_declarations.is_empty());

    for to in [CopyBoxesTo::Previous, CopyBoxesTo::Next, CopyBoxesTo::All] {
        let (after, _) = round_trip(
            &doc,
            &SetBoxShape {
                target,
                element: hurt,
                shape: moved.clone(),
            },
        );
        let (copied, _) = round_trip(
            &after,
            &CopyBoxes {
                target,
                elements: vec![hurt],
                to,
            },
        );
        let other = frames_of(&doc, "walk")[if to == CopyBoxesTo::Next { 2 } else { 0 }];
        let boxes: Vec<_> = copied
            .frame(other)
            .unwrap()
            .boxes()
            .map(|(_, b)| b.shape.clone())
            .collect();
        assert_eq!(
            boxes,
            vec![moved.clone()],
            "{to:?} replaces the target's hurt box"
        );
    }
    refused(
        &doc,
        &CopyBoxes {
            target: BoxTarget::new(FrameAt {
                sequence: walk,
                direction: 0,
                index: 0,
            }),
            elements: vec![elements_of(&doc, frames_of(&doc, "walk")[0])[2]],
            to: CopyBoxesTo::Previous,
        },
        "no previous frame",
    );
}

#[test]
fn editing_inherited_default_boxes_asks_this_frame_or_from_here_on() {
    let doc = sample();
    let attack = frames_of(&doc, "attack");
    let default_box = elements_of(&doc, attack[0])[0];
    assert_eq!(
        effective_ids(&doc, 1),
        vec![(default_box, BoxOrigin::DefaultFrom(0))]
    );
    let moved = Shape::Rect {
        x: Fx::from_int(-20),
        y: Fx::from_int(-40),
        width: Fx::from_int(40),
        height: Fx::from_int(40),
        rotation: 0.0,
    };

    // Without an answer the edit is refused.
    refused(
        &doc,
        &SetBoxShape {
            target: attack_target(&doc, 1),
            element: default_box,
            shape: moved.clone(),
        },
        "this frame only or the default from here on",
    );

    // This frame only: frame 1 gets a ClsnN: copy, frames 0 and 2 keep the old default.
    let (after, selection) = round_trip(
        &doc,
        &SetBoxShape {
            target: attack_target(&doc, 1).inherited(InheritedBoxes::ThisFrameOnly),
            element: default_box,
            shape: moved.clone(),
        },
    );
    let copy = selection.elements[0];
    assert_ne!(copy, default_box);
    let frame1 = after.frame(attack[1]).unwrap();
    assert_eq!(
        frame1.declared_scope(&BoxClass::Hurt),
        Some(BoxScope::ThisFrame)
    );
    assert!(
        frame1
            .box_declarations
            .iter()
            .any(|d| d.scope == BoxScope::ThisFrame)
    );
    assert_eq!(effective_ids(&after, 1), vec![(copy, BoxOrigin::ThisFrame)]);
    assert_eq!(
        effective_ids(&after, 2),
        vec![(default_box, BoxOrigin::DefaultFrom(0))]
    );
    assert_ne!(
        after
            .element(default_box)
            .unwrap()
            .1
            .as_box()
            .unwrap()
            .shape,
        moved,
        "the default itself is untouched"
    );

    // Default from here on: frame 1 declares a new default that frame 2 inherits.
    let (after, selection) = round_trip(
        &doc,
        &SetBoxShape {
            target: attack_target(&doc, 1).inherited(InheritedBoxes::DefaultFromHereOn),
            element: default_box,
            shape: moved.clone(),
        },
    );
    let copy = selection.elements[0];
    assert_eq!(
        after
            .frame(attack[1])
            .unwrap()
            .declared_scope(&BoxClass::Hurt),
        Some(BoxScope::FromHereOn)
    );
    assert_eq!(
        effective_ids(&after, 2),
        vec![(copy, BoxOrigin::DefaultFrom(1))]
    );

    // Adding a box on an inheriting frame keeps the inherited ones beside it.
    let (after, selection) = round_trip(
        &doc,
        &AddBox {
            target: attack_target(&doc, 2).inherited(InheritedBoxes::ThisFrameOnly),
            class: BoxClass::Hurt,
            shape: moved.clone(),
        },
    );
    let shown = effective_ids(&after, 2);
    assert_eq!(shown.len(), 2);
    assert!(shown.iter().any(|(id, _)| *id == selection.elements[0]));
    refused(
        &doc,
        &AddBox {
            target: attack_target(&doc, 2),
            class: BoxClass::Hurt,
            shape: moved,
        },
        "default hurt (Clsn2) boxes of frame 0",
    );

    // Deleting the inherited box for this frame only leaves frame 1 with an empty declaration.
    let (after, _) = round_trip(
        &doc,
        &DeleteBoxes {
            target: attack_target(&doc, 1).inherited(InheritedBoxes::ThisFrameOnly),
            elements: vec![default_box],
        },
    );
    assert!(effective_ids(&after, 1).is_empty());
    assert_eq!(
        effective_ids(&after, 2),
        vec![(default_box, BoxOrigin::DefaultFrom(0))]
    );
}

#[test]
fn a_drag_of_an_inherited_box_copies_it_once() {
    let doc = sample();
    let attack = frames_of(&doc, "attack");
    let default_box = elements_of(&doc, attack[0])[0];
    let target = attack_target(&doc, 1).inherited(InheritedBoxes::ThisFrameOnly);
    let mut work = doc.clone();
    let mut history = History::new();
    let mut selection = Selection::default().with_elements(vec![default_box]);
    for _ in 0..3 {
        let step = MoveBoxes {
            target,
            elements: selection.elements.clone(),
            delta: Point::from_ints(1, 0),
        };
        selection = history
            .apply(&mut work, &selection, &step, Some(Gesture(9)))
            .unwrap();
    }
    assert_eq!(work.frame(attack[1]).unwrap().boxes().count(), 1);
    match &work
        .element(selection.elements[0])
        .unwrap()
        .1
        .as_box()
        .unwrap()
        .shape
    {
        Shape::Rect { x, .. } => assert_eq!(*x, Fx::from_int(-7)),
        other => panic!("{other:?}"),
    }
    assert_eq!(history.entries().len(), 1);
    history.undo(&mut work);
    assert_identical(&work, &doc, "the whole drag undoes at once");
}

#[test]
fn point_commands_round_trip() {
    let doc = sample();
    let frame = frames_of(&doc, "walk")[1];
    let (after, selection) = round_trip(
        &doc,
        &AddPoint {
            frame,
            position: Point::from_ints(3, 3),
            name: "head".into(),
        },
    );
    let head = after.element(selection.elements[0]).unwrap().1;
    assert_eq!(head.name, "head");
    assert_eq!(
        head.as_point().unwrap().point_id,
        1,
        "a new name gets the next number"
    );
    let (after, selection) = round_trip(
        &doc,
        &AddPoint {
            frame: frames_of(&doc, "idle")[0],
            position: Point::ZERO,
            name: "hand".into(),
        },
    );
    assert_eq!(
        after
            .element(selection.elements[0])
            .unwrap()
            .1
            .as_point()
            .unwrap()
            .point_id,
        0,
        "a known name keeps its number"
    );
    refused(
        &doc,
        &AddPoint {
            frame,
            position: Point::ZERO,
            name: "hand".into(),
        },
        "already has a point",
    );
    let (with_head, selection) = round_trip(
        &doc,
        &AddPoint {
            frame,
            position: Point::ZERO,
            name: "head".into(),
        },
    );
    assert_eq!(
        selection.sequence,
        Some(SequenceId(999)),
        "the timeline selection stays"
    );
    let head = selection.elements[0];
    let hand = elements_of(&doc, frame)[1];
    round_trip(
        &with_head,
        &SetElementField {
            element: head,
            field: ElementField::Name("hat".into()),
        },
    );
    refused(
        &with_head,
        &SetElementField {
            element: head,
            field: ElementField::Name("hand".into()),
        },
        "already has a point named \"hand\"",
    );
    refused(
        &with_head,
        &SetElementField {
            element: hand,
            field: ElementField::Name(String::new()),
        },
        "needs a name",
    );
}

#[test]
fn sheet_commands_round_trip() {
    let doc = sample();
    let walk = seq(&doc, "walk");
    let image = doc.images[0].id;
    let (after, _) = round_trip(
        &doc,
        &CreateFrameFromRect {
            sequence: walk,
            direction: 0,
            index: 3,
            image,
            rect: PixelRect {
                x: 0,
                y: 0,
                width: 32,
                height: 32,
            },
            origin: Point::from_ints(16, 30),
            duration: FrameDuration::Millis(100),
        },
    );
    assert_eq!(after.slices.len(), 2, "the identical slice is reused");
    assert_eq!(frames_of(&after, "walk").len(), 4);

    let grid = DirectionGrid {
        x: 0,
        y: 32,
        width: 24,
        height: 32,
        origin: Point::from_ints(12, 29),
        count: 5,
        columns: 3,
    };
    let (after, selection) = round_trip(
        &doc,
        &CreateDirectionFromGrid {
            sequence: walk,
            index: None,
            image,
            grid,
            duration: FrameDuration::Millis(100),
        },
    );
    assert_eq!(selection.direction, 1);
    let direction = &after.sequence(walk).unwrap().directions[1];
    assert_eq!(direction.frames.len(), 5);
    let rects: Vec<PixelRect> = direction
        .frames
        .iter()
        .map(|f| {
            let graphic = after.frame(*f).unwrap().elements[0]
                .as_graphic()
                .unwrap()
                .clone();
            let GraphicSource::Slice(slice) = graphic.source else {
                panic!("a slice");
            };
            after.slice(slice).unwrap().rect
        })
        .collect();
    assert_eq!((rects[2].x, rects[2].y), (48, 32));
    assert_eq!((rects[3].x, rects[3].y), (0, 64), "wraps after 3 columns");

    // The next cell of that direction goes on its grid: the second row's third column, with
    // the last frame's origin and duration.
    let next = sprat::edit::sheet::next_grid_cell(&after, walk, 1).unwrap();
    assert_eq!((next.index, next.rect.x, next.rect.y), (5, 48, 64));
    assert_eq!(next.origin, Point::from_ints(12, 29));
    assert_eq!(next.duration, FrameDuration::Millis(100));
    // A direction on one row grows that row.
    let one_row = CreateDirectionFromGrid {
        sequence: walk,
        index: None,
        image,
        grid: DirectionGrid { columns: 5, ..grid },
        duration: FrameDuration::Millis(100),
    };
    let (in_a_row, _) = round_trip(&doc, &one_row);
    let next = sprat::edit::sheet::next_grid_cell(&in_a_row, walk, 1).unwrap();
    assert_eq!((next.rect.x, next.rect.y), (5 * 24, 32));
    refused(
        &doc,
        &CreateDirectionFromGrid {
            sequence: walk,
            index: None,
            image,
            grid: DirectionGrid { count: 0, ..grid },
            duration: FrameDuration::Millis(100),
        },
        "at least 1",
    );
}

#[test]
fn document_fields_and_new_images_round_trip() {
    let doc = sample();
    let (after, _) = round_trip(
        &doc,
        &SetDocumentField {
            field: DocumentField::FrameRate(Some(24)),
        },
    );
    assert_eq!(after.frame_rate, Some(24));
    let metadata = Metadata {
        title: "Hero".into(),
        author: "me".into(),
        ..Metadata::default()
    };
    let (after, _) = round_trip(
        &doc,
        &SetDocumentField {
            field: DocumentField::Metadata(Box::new(metadata.clone())),
        },
    );
    assert_eq!(after.metadata, metadata);

    let (after, _) = round_trip(
        &doc,
        &AddImage {
            path: "effects.png".into(),
            resolved: None,
        },
    );
    assert_eq!(after.images.len(), 2);
    assert!(after.images[1].id.0 >= doc.next_id);
    refused(
        &doc,
        &AddImage {
            path: "hero.png".into(),
            resolved: None,
        },
        "already one of",
    );
}
