//! How long an edit, its undo and a drag step take on a large document, and how long finding a
//! sheet's grid takes on a large sheet.

use criterion::{Criterion, criterion_group, criterion_main};
use image::{Rgba, RgbaImage};
use sprat::edit::canvas::MoveElements;
use sprat::edit::sheet::detect_grid;
use sprat::edit::timeline::MoveFrames;
use sprat::edit::{Gesture, History, Selection};
use sprat::model::*;
use std::hint::black_box;

/// 200 sequences of 25 frames, each frame with a graphic, a point and a box (5000 frames).
fn large_document() -> AnimationSet {
    let mut set = AnimationSet::new();
    for s in 0..200 {
        let mut frames = Vec::new();
        for _ in 0..25 {
            let mut frame = Frame::new(FrameDuration::Ticks(4));
            let kinds = [
                ElementKind::Graphic(Graphic::new(
                    GraphicSource::Image(ImageId(0)),
                    Point::ZERO,
                    Origin::SourceAxis,
                )),
                ElementKind::Point(AttachmentPoint::at(Point::from_ints(1, 2))),
                ElementKind::Box(CollisionBox::rect_from_corners(
                    BoxClass::Hurt,
                    Point::from_ints(-4, -4),
                    Point::from_ints(4, 4),
                )),
            ];
            for kind in kinds {
                frame.elements.push(Element {
                    id: ElementId(set.alloc_id()),
                    name: String::new(),
                    kind,
                });
            }
            let id = FrameId(set.alloc_id());
            set.frames.insert(id, frame);
            frames.push(id);
        }
        let mut sequence = Sequence::new(
            SequenceId(set.alloc_id()),
            s.to_string(),
            DirectionId(set.alloc_id()),
        );
        sequence.directions[0].frames = frames;
        set.root.items.push(TreeItem::Sequence(sequence));
    }
    set
}

fn edits(c: &mut Criterion) {
    let mut doc = large_document();
    let sequence = doc.sequences()[100].id;
    let element = doc.frames.values().nth(2500).unwrap().elements[1].id;
    let mut history = History::new();
    let selection = Selection::none();

    c.bench_function("reorder frames then undo (5000-frame document)", |b| {
        let command = MoveFrames {
            sequence,
            direction: 0,
            positions: vec![0, 3, 7],
            to: 20,
        };
        b.iter(|| {
            history
                .apply(&mut doc, &selection, black_box(&command), None)
                .unwrap();
            history.undo(&mut doc);
        })
    });

    c.bench_function("one mouse move of a drag (merged step)", |b| {
        let command = MoveElements {
            elements: vec![element],
            delta: Point::from_ints(1, 0),
        };
        b.iter(|| {
            history
                .apply(&mut doc, &selection, black_box(&command), Some(Gesture(7)))
                .unwrap();
        })
    });
}

fn grid(c: &mut Criterion) {
    // A 1024 × 1024 sheet of 64 × 64 cells, each with a 40 × 50 sprite.
    let mut sheet = RgbaImage::new(1024, 1024);
    for cy in 0..16 {
        for cx in 0..16 {
            for y in 0..50 {
                for x in 0..40 {
                    sheet.put_pixel(cx * 64 + 10 + x, cy * 64 + 6 + y, Rgba([9, 9, 9, 255]));
                }
            }
        }
    }
    c.bench_function("detect the grid of a 1024x1024 sheet", |b| {
        b.iter(|| detect_grid(black_box(&sheet)).unwrap())
    });
}

criterion_group!(benches, edits, grid);
criterion_main!(benches);
