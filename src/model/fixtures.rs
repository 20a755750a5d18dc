//! Documents built in code for tests and benchmarks.

use super::*;

/// A set with one sequence of `n` frames; each frame has a graphic on a slice of one image,
/// a hurt box and an attachment point "hand". Durations cycle through 1..=7 ticks.
pub fn long_sequence(n: usize) -> AnimationSet {
    let mut set = AnimationSet::new();
    let slice = sheet_slice(&mut set, 8, 8);
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let frame = Frame::new(FrameDuration::Ticks(1 + (i % 7) as u32));
        let position = Point {
            x: Fx(i as i32),
            y: Fx(-(i as i32) / 3),
        };
        let graphic = Graphic::new(
            GraphicSource::Slice(slice),
            position,
            Origin::At(Point::from_ints(4, 8)),
        );
        let hurt = CollisionBox::rect_from_corners(
            BoxClass::Hurt,
            Point::from_ints(-4, -8),
            Point::from_ints(4, 0),
        );
        let hand = AttachmentPoint::at(Point::from_ints(2, -3));
        let elements = [
            ("", ElementKind::Graphic(graphic)),
            ("", ElementKind::Box(hurt)),
            ("hand", ElementKind::Point(hand)),
        ];
        ids.push(add_frame(&mut set, frame, elements));
    }
    let sequence = sequence_of(&mut set, "long", ids);
    set.root.items.push(TreeItem::Sequence(sequence));
    set
}

/// `groups` groups of `sequences` sequences of `frames` frames each (5, 100, 100: the 50,000
/// frames the speed budgets speak of), each frame with a graphic and a hurt box, as a Sprat
/// project would hold them. Sequences are named "group-sequence" ("0-0", "0-1", ...), groups
/// "group 0" ...
pub fn grouped_sequences(groups: usize, sequences: usize, frames: usize) -> AnimationSet {
    let mut set = AnimationSet::new();
    let image = sheet_image(&mut set);
    for g in 0..groups {
        let mut group = Group {
            id: GroupId(set.alloc_id()),
            name: format!("group {g}"),
            items: Vec::new(),
        };
        for s in 0..sequences {
            let mut ids = Vec::with_capacity(frames);
            for f in 0..frames {
                let frame = Frame::new(FrameDuration::Millis(100));
                let kinds = [
                    ElementKind::Graphic(Graphic::new(
                        GraphicSource::Image(image),
                        Point::from_ints(f as i32, -(s as i32)),
                        Origin::At(Point::ZERO),
                    )),
                    ElementKind::Box(CollisionBox::rect_from_corners(
                        BoxClass::Hurt,
                        Point::from_ints(-4, -4),
                        Point::from_ints(4, f as i32),
                    )),
                ];
                ids.push(add_frame(&mut set, frame, kinds.map(|kind| ("", kind))));
            }
            let sequence = sequence_of(&mut set, format!("{g}-{s}"), ids);
            group.items.push(TreeItem::Sequence(sequence));
        }
        set.root.items.push(TreeItem::Group(group));
    }
    set
}

/// One sequence named `name` with a frame of `ticks` ticks for each list of `boxes`, showing
/// those boxes as its own; the set and the sequence's id.
pub fn frames_with_boxes(
    name: &str,
    ticks: u32,
    boxes: &[&[CollisionBox]],
) -> (AnimationSet, SequenceId) {
    let mut doc = AnimationSet::new();
    let id = SequenceId(doc.alloc_id());
    let mut sequence = Sequence::new(id, name, DirectionId(doc.alloc_id()));
    for frame_boxes in boxes {
        let frame = Frame::new(FrameDuration::Ticks(ticks));
        let boxes = frame_boxes
            .iter()
            .map(|b| ("", ElementKind::Box(b.clone())));
        let frame_id = add_frame(&mut doc, frame, boxes);
        sequence.directions[0].frames.push(frame_id);
    }
    doc.root.items.push(TreeItem::Sequence(sequence));
    (doc, id)
}

/// Adds the picture the fixtures' graphics show, "sheet.png", to `set`; its id.
pub fn sheet_image(set: &mut AnimationSet) -> ImageId {
    let image = ImageId(set.alloc_id());
    set.images.push(SourceImage {
        id: image,
        path: "sheet.png".into(),
        resolved: None,
        kind: ImageKind::File,
        nearest_neighbour: true,
    });
    image
}

/// Adds "sheet.png" ([`sheet_image`]) and a slice of its top-left `width` by `height` pixels to
/// `set`.
pub fn sheet_slice(set: &mut AnimationSet, width: u32, height: u32) -> SliceId {
    let image = sheet_image(set);
    let slice = SliceId(set.alloc_id());
    set.slices.push(Slice {
        id: slice,
        image,
        rect: PixelRect {
            x: 0,
            y: 0,
            width,
            height,
        },
        rotated: false,
    });
    slice
}

/// A sequence named `name` showing `frames` in its one direction, given the next two ids.
fn sequence_of(set: &mut AnimationSet, name: impl Into<String>, frames: Vec<FrameId>) -> Sequence {
    let mut sequence = Sequence::new(
        SequenceId(set.alloc_id()),
        name,
        DirectionId(set.alloc_id()),
    );
    sequence.directions[0].frames = frames;
    sequence
}

/// Adds `frame` to `set` with the named `elements` after its own, each given the next id, then
/// the frame; the frame's id.
fn add_frame<'a>(
    set: &mut AnimationSet,
    mut frame: Frame,
    elements: impl IntoIterator<Item = (&'a str, ElementKind)>,
) -> FrameId {
    for (name, kind) in elements {
        frame.elements.push(Element {
            id: ElementId(set.alloc_id()),
            name: name.into(),
            kind,
        });
    }
    let id = FrameId(set.alloc_id());
    set.frames.insert(id, frame);
    id
}
