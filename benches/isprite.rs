//! Reading and writing a 10,000-frame ISPRITE file (target: under 10 ms each).

use criterion::{Criterion, criterion_group, criterion_main};
use sprat::formats::isprite::IspriteFormat;
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::*;
use std::hint::black_box;

const FRAMES: usize = 10_000;

/// 100 sequences of 100 frames; each frame has a graphic, an attachment point and a hit box.
fn document() -> AnimationSet {
    let mut doc = AnimationSet::new();
    doc.frame_rate = Some(60);
    let image = ImageId(doc.alloc_id());
    doc.images.push(SourceImage {
        id: image,
        path: "sheet".into(),
        resolved: None,
        kind: ImageKind::File,
        nearest_neighbour: true,
    });
    let slices: Vec<SliceId> = (0..64)
        .map(|i| {
            let id = SliceId(doc.alloc_id());
            doc.slices.push(Slice {
                id,
                image,
                rect: PixelRect {
                    x: (i % 8) * 33,
                    y: (i / 8) * 49,
                    width: 32,
                    height: 48,
                },
                rotated: false,
            });
            id
        })
        .collect();
    let mut frame_ids = Vec::with_capacity(FRAMES);
    for i in 0..FRAMES {
        let mut frame = Frame::new(FrameDuration::Holds(1 + (i % 4) as u32));
        frame.label = format!("f{i}");
        let mut g = Graphic::new(
            GraphicSource::Slice(slices[i % slices.len()]),
            Point::from_ints(0, -24),
            Origin::At(Point::from_ints(16, 40)),
        );
        g.rotation = (i % 360) as f64;
        frame.elements.push(Element {
            id: ElementId(doc.alloc_id()),
            name: "body".into(),
            kind: ElementKind::Graphic(g),
        });
        frame.elements.push(Element {
            id: ElementId(doc.alloc_id()),
            name: "hand".into(),
            kind: ElementKind::Point(AttachmentPoint::at(Point::from_ints(7, -20))),
        });
        frame.elements.push(Element {
            id: ElementId(doc.alloc_id()),
            name: "hit".into(),
            kind: ElementKind::Box(CollisionBox::rect_from_corners(
                BoxClass::Hit,
                Point::from_ints(-8, -40),
                Point::from_ints(8, 0),
            )),
        });
        let id = FrameId(doc.alloc_id());
        doc.frames.insert(id, frame);
        frame_ids.push(id);
    }
    for (n, chunk) in frame_ids.chunks(100).enumerate() {
        let mut s = Sequence::new(
            SequenceId(doc.alloc_id()),
            format!("s{n}"),
            DirectionId(doc.alloc_id()),
        );
        s.directions[0].frames = chunk.to_vec();
        doc.root.items.push(TreeItem::Sequence(s));
    }
    doc
}

fn bench(c: &mut Criterion) {
    let doc = document();
    let bytes = IspriteFormat
        .write(&doc, &WriteContext::default())
        .unwrap()
        .bytes;
    let read = || {
        IspriteFormat
            .read(black_box(&bytes), &ReadContext::default())
            .unwrap()
    };
    c.bench_function("isprite read 10k frames", |b| b.iter(read));
    c.bench_function("isprite write 10k frames", |b| {
        b.iter(|| {
            IspriteFormat
                .write(black_box(&doc), &WriteContext::default())
                .unwrap()
        })
    });
    // Saving after one edit: the writer re-reads the original to keep what the model lacks.
    let mut edited = read().document;
    edited.frames[0].label = "edited".into();
    c.bench_function("isprite save edited 10k frames", |b| {
        b.iter(|| {
            IspriteFormat
                .write(black_box(&edited), &WriteContext::default())
                .unwrap()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
