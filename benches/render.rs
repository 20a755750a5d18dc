//! How long the software renderer takes for a typical frame: a 48×64 character made of a body
//! and two rotated or scaled parts, three boxes and a point, as the preview draws it; and for a
//! high-definition frame, one 1280x720 sprite placed as it is (what the editor composes for
//! each picture of an HD character while it plays).

use criterion::{Criterion, criterion_group, criterion_main};
use image::{Rgba, RgbaImage};
use sprat::assets::ImageStore;
use sprat::model::*;
use sprat::pixels::{PixelSource, SourcePixels};
use sprat::render::{Background, Overlay, RenderOptions, Scene, plain_picture, render};
use std::hint::black_box;
use std::sync::Arc;

/// A 48×64 opaque figure with a transparent margin, and a 16×24 weapon.
struct Pixels {
    body: Arc<RgbaImage>,
    weapon: Arc<RgbaImage>,
    hd: Arc<RgbaImage>,
}

impl Pixels {
    fn new() -> Pixels {
        let body = RgbaImage::from_fn(48, 64, |x, y| {
            let inside = (6..42).contains(&x) && (4..64).contains(&y);
            Rgba([
                (x * 5) as u8,
                (y * 4) as u8,
                120,
                if inside { 255 } else { 0 },
            ])
        });
        let weapon = RgbaImage::from_fn(16, 24, |x, y| {
            Rgba([200, (x * 10) as u8, (y * 8) as u8, 255])
        });
        // A figure filling about a third of a 1280x720 sprite, the rest transparent.
        let hd = RgbaImage::from_fn(1280, 720, |x, y| {
            let (dx, dy) = (x as f32 - 640.0, y as f32 - 380.0);
            let inside = (dx / 260.0).powi(2) + (dy / 330.0).powi(2) < 1.0;
            Rgba([
                (x / 5) as u8,
                (y / 3) as u8,
                90,
                if inside { 255 } else { 0 },
            ])
        });
        Pixels {
            body: Arc::new(body),
            weapon: Arc::new(weapon),
            hd: Arc::new(hd),
        }
    }
}

impl PixelSource for Pixels {
    fn pixels(&self, _: &AnimationSet, source: &GraphicSource) -> Option<SourcePixels> {
        let image = match source {
            GraphicSource::Image(ImageId(1)) => self.body.clone(),
            GraphicSource::Image(ImageId(3)) => self.hd.clone(),
            _ => self.weapon.clone(),
        };
        Some(SourcePixels {
            image,
            axis: (0, 0),
        })
    }
}

fn typical_frame() -> Frame {
    let mut frame = Frame::new(FrameDuration::Ticks(4));
    let body = Graphic::new(
        GraphicSource::Image(ImageId(1)),
        Point::from_ints(0, 0),
        Origin::At(Point::from_ints(24, 64)),
    );
    let mut weapon = Graphic::new(
        GraphicSource::Image(ImageId(2)),
        Point::from_ints(14, -30),
        Origin::At(Point::from_ints(8, 20)),
    );
    weapon.rotation = 35.0;
    let mut shadow = Graphic::new(
        GraphicSource::Image(ImageId(2)),
        Point::from_ints(-10, -8),
        Origin::At(Point::from_ints(8, 12)),
    );
    shadow.scale_x = 1.5;
    shadow.scale_y = 0.5;
    shadow.opacity = 0x8000;
    shadow.blend = BlendMode::Add {
        source: 256,
        destination: 128,
    };
    let kinds = vec![
        ElementKind::Graphic(shadow),
        ElementKind::Graphic(body),
        ElementKind::Graphic(weapon),
        ElementKind::Box(CollisionBox::rect_from_corners(
            BoxClass::Hurt,
            Point::from_ints(-16, -60),
            Point::from_ints(16, 0),
        )),
        ElementKind::Box(CollisionBox::rect_from_corners(
            BoxClass::Hurt,
            Point::from_ints(-8, -70),
            Point::from_ints(8, -58),
        )),
        ElementKind::Box(CollisionBox::rect_from_corners(
            BoxClass::Hit,
            Point::from_ints(10, -50),
            Point::from_ints(34, -30),
        )),
        ElementKind::Point(AttachmentPoint::at(Point::from_ints(14, -30))),
    ];
    for (i, kind) in kinds.into_iter().enumerate() {
        frame.elements.push(Element {
            id: ElementId(i as u64 + 1),
            name: Name::default(),
            kind,
        });
    }
    frame
}

fn document() -> AnimationSet {
    let mut set = AnimationSet::new();
    for id in [1, 2, 3] {
        set.images.push(SourceImage {
            id: ImageId(id),
            path: format!("{id}.png"),
            resolved: None,
            kind: ImageKind::File,
            nearest_neighbour: true,
        });
    }
    set
}

fn bench_render(c: &mut Criterion) {
    let set = document();
    let frame = typical_frame();
    let scene = Scene::of_frame(&frame);
    let pixels = Pixels::new();
    c.bench_function("render typical frame, scale 1", |b| {
        b.iter(|| render(&set, black_box(&scene), &pixels, &RenderOptions::default()))
    });
    let preview = RenderOptions {
        scale: 4,
        background: Background::Colour([40, 40, 40, 255]),
        overlay: Overlay::ALL,
        ..RenderOptions::default()
    };
    c.bench_function("render typical frame, scale 4 with overlay", |b| {
        b.iter(|| render(&set, black_box(&scene), &pixels, &preview))
    });
}

fn bench_store(c: &mut Criterion) {
    // A warm ImageStore: what every repaint pays to find a slice already cut.
    let guard = tempfile::tempdir().unwrap();
    let dir = guard.path();
    let path = dir.join("sheet.png");
    RgbaImage::from_pixel(256, 256, Rgba([1, 2, 3, 255]))
        .save(&path)
        .unwrap();
    let mut set = AnimationSet::new();
    set.images.push(SourceImage {
        id: ImageId(1),
        path: "sheet.png".into(),
        resolved: Some(path),
        kind: ImageKind::File,
        nearest_neighbour: true,
    });
    set.slices.push(Slice {
        id: SliceId(2),
        image: ImageId(1),
        rect: PixelRect {
            x: 32,
            y: 32,
            width: 48,
            height: 64,
        },
        rotated: false,
    });
    let store = ImageStore::new();
    let source = GraphicSource::Slice(SliceId(2));
    assert!(store.pixels(&set, &source).is_some());
    c.bench_function("ImageStore cached slice lookup", |b| {
        b.iter(|| store.pixels(&set, black_box(&source)))
    });
}

fn bench_hd(c: &mut Criterion) {
    let set = document();
    let mut frame = Frame::new(FrameDuration::Ticks(2));
    frame.elements.push(Element {
        id: ElementId(1),
        name: Name::default(),
        kind: ElementKind::Graphic(Graphic::new(
            GraphicSource::Image(ImageId(3)),
            Point::from_ints(0, 0),
            Origin::At(Point::from_ints(640, 719)),
        )),
    });
    let scene = Scene::of_frame(&frame);
    let pixels = Pixels::new();
    c.bench_function("render a 1280x720 sprite frame, scale 1", |b| {
        b.iter(|| render(&set, black_box(&scene), &pixels, &RenderOptions::default()))
    });
    // What the editor does with such a frame while it plays: the sprite read in place.
    c.bench_function("a 1280x720 sprite frame read in place", |b| {
        b.iter(|| {
            plain_picture(&set, black_box(&scene), &pixels)
                .expect("one sprite placed as it is")
                .map_pixels(|p| p)
        })
    });
}

criterion_group!(benches, bench_render, bench_hd, bench_store);
criterion_main!(benches);
