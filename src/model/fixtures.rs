//! Documents built in code for tests and benchmarks.

use super::*;

/// A set with one sequence of `n` frames; each frame has a graphic on a slice of one image,
/// a hurt box and an attachment point "hand". Durations cycle through 1..=7 ticks.
pub fn long_sequence(n: usize) -> AnimationSet {
    let mut set = AnimationSet::new();
    let image = ImageId(set.alloc_id());
    set.images.push(SourceImage {
        id: image,
        path: "sheet.png".into(),
        resolved: None,
        kind: ImageKind::File,
        nearest_neighbour: true,
    });
    let slice = SliceId(set.alloc_id());
    set.slices.push(Slice {
        id: slice,
        image,
        rect: PixelRect {
            x: 0,
            y: 0,
            width: 8,
            height: 8,
        },
        rotated: false,
    });
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let mut frame = Frame::new(FrameDuration::Ticks(1 + (i % 7) as u32));
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
        for (name, kind) in [
            ("", ElementKind::Graphic(graphic)),
            ("", ElementKind::Box(hurt)),
            ("hand", ElementKind::Point(hand)),
        ] {
            let id = ElementId(set.alloc_id());
            frame.elements.push(Element {
                id,
                name: name.into(),
                kind,
            });
        }
        let id = FrameId(set.alloc_id());
        set.frames.insert(id, frame);
        ids.push(id);
    }
    let mut sequence = Sequence::new(
        SequenceId(set.alloc_id()),
        "long",
        DirectionId(set.alloc_id()),
    );
    sequence.directions[0].frames = ids;
    set.root.items.push(TreeItem::Sequence(sequence));
    set
}
