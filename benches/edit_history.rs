//! How long an edit, its undo and a drag step take on a large document, and how long finding a
//! sheet's grid takes on a large sheet. Budgets for 50,000-frame documents (500 sequences of
//! 100 frames, in 5 groups of 100 sequences; and a M.U.G.E.N character of 20,000 sprites and
//! as many frames): open under 1 s, deleting 10,000 frames (a group) as one undo step under
//! 100 ms, undoing it under 100 ms, saving under 1 s.

#[allow(dead_code)] // Only the generated archive and character are used here.
#[path = "common/generated_sff.rs"]
mod generated_sff;

use criterion::{Criterion, criterion_group, criterion_main};
use image::{Rgba, RgbaImage};
use sprat::edit::canvas::MoveElements;
use sprat::edit::sheet::detect_grid;
use sprat::edit::timeline::MoveFrames;
use sprat::edit::tree::{Delete, TreeNode};
use sprat::edit::{Gesture, History, Selection};
use sprat::formats::sprat::SpratFormat;
use sprat::formats::{Format, ReadContext, WriteContext, registry};
use sprat::model::*;
use std::hint::black_box;
use std::time::{Duration, Instant};

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
                    name: Name::default(),
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

/// 500 sequences of 100 frames in 5 groups of 100 sequences (50,000 frames), each frame with a
/// graphic and a hurt box, as a Sprat project would hold them.
fn fifty_thousand_frames() -> AnimationSet {
    sprat::model::fixtures::grouped_sequences(5, 100, 100)
}

/// Times `measured` alone on `state`, `iterations` times, `between` running untimed after each.
fn timed_alone<S>(
    iterations: u64,
    state: &mut S,
    mut measured: impl FnMut(&mut S),
    mut between: impl FnMut(&mut S),
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iterations {
        let started = Instant::now();
        measured(state);
        total += started.elapsed();
        between(state);
    }
    total
}

fn fifty_thousand_frame_document(c: &mut Criterion) {
    let mut doc = fifty_thousand_frames();
    let bytes = SpratFormat
        .write(&doc, &WriteContext::default())
        .unwrap()
        .bytes;
    let mut group = c.benchmark_group("50000 frames");
    group.sample_size(10);
    group.bench_function("open (read the Sprat project)", |b| {
        b.iter(|| {
            SpratFormat
                .read(black_box(&bytes), &ReadContext::default())
                .unwrap()
        })
    });
    let node = match &doc.root.items[2] {
        TreeItem::Group(g) => TreeNode::Group(g.id),
        TreeItem::Sequence(_) => unreachable!("the third item is a group"),
    };
    let delete = Delete { node };
    let selection = Selection::none();
    let mut history = History::new();
    group.bench_function("delete 10000 frames (a group) as one step", |b| {
        b.iter_custom(|iterations| {
            timed_alone(
                iterations,
                &mut (&mut history, &mut doc),
                |(history, doc)| {
                    history
                        .apply(doc, &selection, black_box(&delete), None)
                        .unwrap();
                },
                |(history, doc)| {
                    history.undo(doc);
                },
            )
        })
    });
    group.bench_function("undo deleting 10000 frames", |b| {
        b.iter_custom(|iterations| {
            history.apply(&mut doc, &selection, &delete, None).unwrap();
            let total = timed_alone(
                iterations,
                &mut (&mut history, &mut doc),
                |(history, doc)| {
                    history.undo(doc);
                },
                |(history, doc)| {
                    history.redo(doc);
                },
            );
            history.undo(&mut doc);
            total
        })
    });
    assert_eq!(doc.frames.len(), 50_000, "every undo put the frames back");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.sprat");
    // A changed document, so the writer really encodes instead of returning the original bytes.
    doc.metadata.title = "edited".into();
    group.bench_function("save (write the Sprat project)", |b| {
        b.iter(|| {
            let written = SpratFormat.write(black_box(&doc), &WriteContext::default());
            std::fs::write(&path, written.unwrap().bytes).unwrap();
        })
    });
    group.finish();
}

fn twenty_thousand_sprite_character(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let archive = generated_sff::generated_archive(20_000);
    let def = generated_sff::write_character(dir.path(), &archive, 200, 100, 4);
    let mut group = c.benchmark_group("20000-sprite SFF character");
    group.sample_size(10);
    group.bench_function("open (.def, .air and the archive's index)", |b| {
        b.iter(|| {
            registry()
                .open(black_box(&def), &ReadContext::default())
                .unwrap()
        })
    });
    let (mut loaded, format) = registry().open(&def, &ReadContext::default()).unwrap();
    loaded.document.metadata.title = "edited".into();
    let context = WriteContext::default();
    group.bench_function("save (the .air; the archive untouched)", |b| {
        b.iter(|| format.write(black_box(&loaded.document), &context).unwrap())
    });
    group.finish();
}

criterion_group!(
    benches,
    edits,
    grid,
    fifty_thousand_frame_document,
    twenty_thousand_sprite_character
);
criterion_main!(benches);
