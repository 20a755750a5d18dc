//! Helpers shared by the tests of the Aseprite writer: reading, saving, a frame showing a
//! picture of its own, and comparing pictures.
#![allow(dead_code)]

use sprat::assets::ImageStore;
use sprat::formats::aseprite::AsepriteFormat;
use sprat::formats::{Format, ReadContext, WriteContext, Written};
use sprat::model::*;
use sprat::render::{CanvasBounds, RenderOptions, Scene, SpriteRect, render};
use std::path::{Path, PathBuf};

/// The corpus' Aseprite files.
pub fn folder() -> PathBuf {
    crate::common::corpus().join("aseprite")
}

/// The document of the Aseprite file at `path`.
pub fn read(path: &Path) -> AnimationSet {
    let bytes = std::fs::read(path).unwrap();
    read_bytes(&bytes, path)
}

/// The document of Aseprite `bytes` read as the file at `path`.
pub fn read_bytes(bytes: &[u8], path: &Path) -> AnimationSet {
    AsepriteFormat
        .read(bytes, &ReadContext::for_path(path))
        .unwrap_or_else(|f| panic!("{}: {:?}", path.display(), f.diagnostics))
        .document
}

/// `document` written as the Aseprite file at `path` (into its original when it has one).
pub fn save(document: &AnimationSet, path: &Path) -> Written {
    let store = ImageStore::new();
    let context = WriteContext {
        path: Some(path.to_path_buf()),
        pixels: Some(&store),
    };
    AsepriteFormat
        .write(document, &context)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A new frame of `duration` ms showing `picture` with its top-left corner at `place`, added
/// to the document (in no sequence yet).
pub fn picture_frame(
    document: &mut AnimationSet,
    picture: &image::RgbaImage,
    place: (i32, i32),
    duration: u32,
) -> FrameId {
    let image = ImageId(document.alloc_id());
    document.images.push(SourceImage {
        id: image,
        path: "imported.png".into(),
        resolved: None,
        kind: ImageKind::Memory(MemoryImage::new(picture.clone())),
        nearest_neighbour: true,
    });
    let mut frame = Frame::new(FrameDuration::Millis(duration));
    frame.elements.push(Element {
        id: ElementId(document.alloc_id()),
        name: String::new(),
        kind: ElementKind::Graphic(Graphic::new(
            GraphicSource::Image(image),
            Point::from_ints(place.0, place.1),
            Origin::At(Point::ZERO),
        )),
    });
    let id = FrameId(document.alloc_id());
    document.frames.insert(id, frame);
    id
}

/// Sprat's drawing of frame `index` of `document` on a 64x64 canvas at the sprite's origin.
pub fn composited(document: &AnimationSet, index: usize) -> image::RgbaImage {
    let store = ImageStore::new();
    let frame = document.frames.get_index(index).unwrap().1;
    let options = RenderOptions {
        bounds: CanvasBounds::Fixed(SpriteRect {
            x: 0,
            y: 0,
            width: 64,
            height: 64,
        }),
        ..RenderOptions::default()
    };
    render(document, &Scene::of_frame(frame), &store, &options)
}

/// Two pictures are the same (told by the first pixel that differs, not a dump of both).
pub fn assert_same(a: &image::RgbaImage, b: &image::RgbaImage, what: &str) {
    assert_eq!(a.dimensions(), b.dimensions(), "{what}");
    let differs = a
        .enumerate_pixels()
        .find(|(x, y, p)| b.get_pixel(*x, *y) != *p)
        .map(|(x, y, p)| (x, y, *p, *b.get_pixel(x, y)));
    assert_eq!(differs, None, "{what}: first differing pixel");
}

/// Every frame of every sequence of `document` and of `again` (the same sequences, read back)
/// draws the same pixels on the canvas covering all of `document`'s frames, with the same
/// boxes and as many points.
pub fn assert_sequences_draw_the_same(document: &AnimationSet, again: &AnimationSet) {
    let (a_store, b_store) = (ImageStore::new(), ImageStore::new());
    let rect = document
        .frames
        .values()
        .filter_map(|f| {
            let scene = Scene::of_frame(f);
            sprat::render::content_bounds(document, &scene, &a_store, Default::default())
        })
        .reduce(|a, b| a.union(&b))
        .unwrap();
    let options = RenderOptions {
        bounds: CanvasBounds::Fixed(rect),
        ..RenderOptions::default()
    };
    let rule = DefaultBoxRule::default();
    let shapes = |scene: &Scene| {
        let mut shapes: Vec<String> = scene
            .boxes
            .iter()
            .map(|b| format!("{:?} {:?}", b.class, b.shape))
            .collect();
        shapes.sort();
        shapes
    };
    for sequence in document.sequences() {
        let twin = again.sequence_by_name(&sequence.name).unwrap();
        assert_eq!(
            twin.max_frames(),
            sequence.max_frames(),
            "{}",
            sequence.name
        );
        for index in 0..sequence.max_frames() {
            let what = format!("{} frame {index}", sequence.name);
            let a = Scene::at(document, sequence.id, 0, index, rule).unwrap();
            let b = Scene::at(again, twin.id, 0, index, rule).unwrap();
            assert_same(
                &render(document, &a, &a_store, &options),
                &render(again, &b, &b_store, &options),
                &what,
            );
            assert_eq!(shapes(&a), shapes(&b), "{what}");
            assert_eq!(a.points().len(), b.points().len(), "{what}");
        }
    }
}
