//! The multi-frame tools: cutting sheets into sprites (budget: a 4096 × 4096 sheet of 2,000
//! sprites in under 300 ms), aligning frames and retiming, on Kung Fu Man and on a document of
//! 50,000 frames (500 sequences × 100 frames).

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use image::{Rgba, RgbaImage};
use sprat::assets::ImageStore;
use sprat::assets::layout::{CutMethod, cut_frames};
use sprat::assets::sprites::{SpriteOptions, find_sprites};
use sprat::edit::align::{AlignFrames, AlignLimits, plan_alignment};
use sprat::edit::retime::Retime;
use sprat::edit::scope::FrameScope;
use sprat::edit::{History, Selection};
use sprat::formats::{ReadContext, registry};
use sprat::model::*;
use sprat::render::{CanvasBounds, Overlay, RenderOptions, Scene, content_bounds, render};
use sprat::tools::anchor::Anchor;
use sprat::tools::retime::{Ratio, RetimeChange};
use std::hint::black_box;
use std::path::Path;

fn kfm() -> AnimationSet {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mugen/kfm/kfm.def");
    let (loaded, _) = registry()
        .open(&path, &ReadContext::for_path(&path))
        .expect("KFM reads");
    loaded.document
}

/// A small deterministic random sequence.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % below as u64) as u32
    }
}

/// A `size` × `size` sheet of `count` sprites: blobs of random sizes (with a detached shadow
/// under some), each in its own cell of a jittered grid, so none touch.
fn blob_sheet(size: u32, count: u32, cell: u32) -> RgbaImage {
    let mut sheet = RgbaImage::new(size, size);
    let mut random = Lcg(7);
    let columns = size / cell;
    for i in 0..count {
        let (cx, cy) = ((i % columns) * cell, (i / columns) * cell);
        let w = cell / 3 + random.next(cell / 3);
        let h = cell / 3 + random.next(cell / 3);
        let x0 = cx + 2 + random.next((cell - w).saturating_sub(6).max(1));
        let y0 = cy + 2 + random.next((cell - h).saturating_sub(8).max(1));
        for y in 0..h {
            for x in 0..w {
                // An ellipse.
                let (dx, dy) = (2 * x as i64 - w as i64, 2 * y as i64 - h as i64);
                if dx * dx * (h * h) as i64 + dy * dy * (w * w) as i64 <= (w * w * h * h) as i64 {
                    sheet.put_pixel(x0 + x, y0 + y, Rgba([90, 140, 200, 255]));
                }
            }
        }
        if i % 3 == 0 {
            for x in w / 4..w - w / 4 {
                sheet.put_pixel(x0 + x, y0 + h + 1, Rgba([0, 0, 0, 128]));
            }
        }
    }
    sheet
}

/// Every KFM frame rendered and placed on one sheet, 4 pixels apart, rows 2048 wide.
fn kfm_sheet(doc: &AnimationSet) -> RgbaImage {
    let pixels = ImageStore::new();
    let mut pictures = Vec::new();
    for frame in doc.frames.values() {
        let scene = Scene::of_frame(frame);
        let Some(bounds) = content_bounds(doc, &scene, &pixels, Overlay::NONE) else {
            continue;
        };
        let options = RenderOptions {
            bounds: CanvasBounds::Fixed(bounds),
            ..RenderOptions::default()
        };
        pictures.push(render(doc, &scene, &pixels, &options));
    }
    let (mut x, mut y, mut row) = (0u32, 0u32, 0u32);
    let mut places = Vec::new();
    for p in &pictures {
        if x + p.width() > 2048 {
            (x, y, row) = (0, y + row + 4, 0);
        }
        places.push((x, y));
        x += p.width() + 4;
        row = row.max(p.height());
    }
    let mut sheet = RgbaImage::new(2048, y + row);
    for (p, (x, y)) in pictures.iter().zip(places) {
        image::imageops::replace(&mut sheet, p, x as i64, y as i64);
    }
    sheet
}

/// 500 sequences of 100 frames, each frame a 12 × 16 figure on a slice of one sheet held in
/// memory, with a hurt box and a point "hand"; durations of 1 to 7 ticks.
fn fifty_thousand_frames() -> AnimationSet {
    let mut set = AnimationSet::new();
    let mut sheet = RgbaImage::new(12, 16);
    for y in 2..16 {
        for x in 3..9 {
            sheet.put_pixel(x, y, Rgba([200, 100, 50, 255]));
        }
    }
    let image = ImageId(set.alloc_id());
    set.images.push(SourceImage {
        id: image,
        path: "figure.png".into(),
        resolved: None,
        kind: ImageKind::Memory(MemoryImage::new(sheet)),
        nearest_neighbour: true,
    });
    let slice = SliceId(set.alloc_id());
    set.slices.push(Slice {
        id: slice,
        image,
        rect: PixelRect {
            x: 0,
            y: 0,
            width: 12,
            height: 16,
        },
        rotated: false,
    });
    for s in 0..500 {
        let mut ids = Vec::with_capacity(100);
        for i in 0..100 {
            let mut frame = Frame::new(FrameDuration::Ticks(1 + (i % 7) as u32));
            let kinds = [
                (
                    "",
                    ElementKind::Graphic(Graphic::new(
                        GraphicSource::Slice(slice),
                        Point::from_ints(i % 5, -(i % 3)),
                        Origin::At(Point::from_ints(6, 16)),
                    )),
                ),
                (
                    "",
                    ElementKind::Box(CollisionBox::rect_from_corners(
                        BoxClass::Hurt,
                        Point::from_ints(-4, -14),
                        Point::from_ints(4, 0),
                    )),
                ),
                (
                    "hand",
                    ElementKind::Point(AttachmentPoint::at(Point::from_ints(3, -8 - i % 4))),
                ),
            ];
            for (name, kind) in kinds {
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
            format!("s{s}"),
            DirectionId(set.alloc_id()),
        );
        sequence.directions[0].frames = ids;
        set.root.items.push(TreeItem::Sequence(sequence));
    }
    set
}

fn cut(c: &mut Criterion) {
    let mut group = c.benchmark_group("cut");
    group.sample_size(10);
    let sheet = blob_sheet(4096, 2000, 90);
    assert!(find_sprites(&sheet, SpriteOptions::DEFAULT).len() >= 2000);
    group.bench_function("4096x4096, 2000 sprites", |b| {
        b.iter(|| find_sprites(black_box(&sheet), SpriteOptions::DEFAULT))
    });
    group.bench_function("4096x4096, 2000 sprites, layout read", |b| {
        b.iter(|| {
            cut_frames(
                black_box(&sheet),
                SpriteOptions::DEFAULT,
                CutMethod::Automatic,
            )
        })
    });
    let many = blob_sheet(4096, 50_000, 18);
    group.bench_function("4096x4096, 50000 sprites", |b| {
        b.iter(|| find_sprites(black_box(&many), SpriteOptions::DEFAULT))
    });
    let kfm_sheet = kfm_sheet(&kfm());
    group.bench_function("every KFM frame on one sheet", |b| {
        b.iter(|| find_sprites(black_box(&kfm_sheet), SpriteOptions::DEFAULT))
    });
    group.finish();
}

fn align(c: &mut Criterion) {
    let mut group = c.benchmark_group("align");
    group.sample_size(10);
    let limits = AlignLimits {
        per_frame_origins: true,
        subpixel: false,
    };
    for (name, doc) in [("KFM", kfm()), ("50000 frames", fifty_thousand_frames())] {
        let pixels = ImageStore::new();
        for anchor in [Anchor::Feet, Anchor::Point("hand".into())] {
            if name == "KFM" && anchor != Anchor::Feet {
                continue;
            }
            group.bench_function(format!("{name}, every sequence, {anchor}"), |b| {
                b.iter_batched(
                    || doc.clone(),
                    |mut copy| {
                        let plan = plan_alignment(
                            &copy,
                            &FrameScope::Everything,
                            &anchor,
                            &pixels,
                            limits,
                        )
                        .unwrap();
                        let command = AlignFrames {
                            plan,
                            anchor: anchor.clone(),
                            rule: DefaultBoxRule::default(),
                            default_boxes: name == "KFM",
                        };
                        History::new()
                            .apply(&mut copy, &Selection::none(), &command, None)
                            .unwrap();
                        copy
                    },
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

fn retime(c: &mut Criterion) {
    let mut group = c.benchmark_group("retime");
    group.sample_size(10);
    for (name, doc) in [("KFM", kfm()), ("50000 frames", fifty_thousand_frames())] {
        let command = Retime {
            scope: FrameScope::Everything,
            change: RetimeChange::Scale(Ratio::new(3, 2).unwrap()),
            per_frame_durations: true,
        };
        group.bench_function(format!("{name}, every sequence ×3/2"), |b| {
            b.iter_batched(
                || doc.clone(),
                |mut copy| {
                    History::new()
                        .apply(&mut copy, &Selection::none(), &command, None)
                        .unwrap();
                    copy
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, cut, align, retime);
criterion_main!(benches);
