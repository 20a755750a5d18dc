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
        name: Name::default(),
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
/// draws the same pixels on the canvas covering all of `document`'s frames, with boxes of the
/// same shapes and as many points. (Classes are not compared: a slice's class is its name,
/// so a hurt box comes back as the class "hurtbox".)
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
            .map(|b| format!("{:?}", b.shape))
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

/// A document of `count` frames of 100 ms, each a 4x4 square of its own colour at (2, 2), in
/// one looping sequence `all`: a file of it written by Sprat is the base the tests below give
/// tags and slices of their own ([`with_marks`]).
pub fn squares(count: usize) -> AnimationSet {
    let mut document = AnimationSet::new();
    let mut ids = Vec::new();
    for index in 0..count {
        let colour = image::Rgba([40 * index as u8, 200, 90, 255]);
        let picture = image::RgbaImage::from_pixel(4, 4, colour);
        ids.push(picture_frame(&mut document, &picture, (2, 2), 100));
    }
    let sequence = Sequence {
        id: SequenceId(document.alloc_id()),
        name: "all".into(),
        directions: vec![Direction {
            id: DirectionId(document.alloc_id()),
            name: None,
            frames: ids,
        }],
        loop_point: Some(0),
        on_end: EndBehavior::HoldLastFrame,
        follow_up: None,
        frame_rate: None,
        title: None,
    };
    document.root.items.push(TreeItem::Sequence(sequence));
    document
}

/// A new Aseprite file of `document`, written by Sprat's writer.
pub fn new_file(document: &AnimationSet) -> Vec<u8> {
    let written = save(document, Path::new("new.aseprite"));
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    written.bytes
}

/// A chunk of `kind` holding `data`.
pub fn chunk(kind: u16, data: &[u8]) -> Vec<u8> {
    let mut out = ((data.len() + 6) as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(data);
    out
}

fn string(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(&(text.len() as u16).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
}

/// A tag as the tags chunk holds it: first and last frame, direction (0 forward, 1 reverse,
/// 2 ping-pong, 3 ping-pong reverse), repeat count (0 = forever), name.
pub struct Tag<'a>(pub u16, pub u16, pub u8, pub u16, pub &'a str);

/// A tags chunk (0x2018) holding `tags`, each followed by a user data chunk with its colour.
pub fn tags_chunk(tags: &[Tag]) -> Vec<u8> {
    let mut data = (tags.len() as u16).to_le_bytes().to_vec();
    data.extend_from_slice(&[0; 8]);
    for Tag(from, to, direction, repeat, name) in tags {
        data.extend_from_slice(&from.to_le_bytes());
        data.extend_from_slice(&to.to_le_bytes());
        data.push(*direction);
        data.extend_from_slice(&repeat.to_le_bytes());
        data.extend_from_slice(&[0; 6]);
        data.extend_from_slice(&[0, 0, 0, 0]);
        string(&mut data, name);
    }
    let mut out = chunk(0x2018, &data);
    for _ in tags {
        out.extend(user_data_chunk(None, Some([0x10, 0x80, 0xf0, 0xff])));
    }
    out
}

/// A slice chunk (0x2022) named `name` with keys (frame, x, y, width, height), no pivot nor
/// 9-patch.
pub fn slice_chunk(name: &str, keys: &[(u32, i32, i32, u32, u32)]) -> Vec<u8> {
    let mut data = (keys.len() as u32).to_le_bytes().to_vec();
    data.extend_from_slice(&[0; 8]);
    string(&mut data, name);
    for (frame, x, y, width, height) in keys {
        data.extend_from_slice(&frame.to_le_bytes());
        data.extend_from_slice(&x.to_le_bytes());
        data.extend_from_slice(&y.to_le_bytes());
        data.extend_from_slice(&width.to_le_bytes());
        data.extend_from_slice(&height.to_le_bytes());
    }
    chunk(0x2022, &data)
}

/// A user data chunk (0x2020) with `text` and `colour` where given.
pub fn user_data_chunk(text: Option<&str>, colour: Option<[u8; 4]>) -> Vec<u8> {
    let flags = u32::from(text.is_some()) | if colour.is_some() { 2 } else { 0 };
    let mut data = flags.to_le_bytes().to_vec();
    if let Some(text) = text {
        string(&mut data, text);
    }
    if let Some(colour) = colour {
        data.extend_from_slice(&colour);
    }
    chunk(0x2020, &data)
}

/// `file` (an Aseprite file) with the tags and slices of its first frame replaced by `marks`
/// (chunks in order, each with the chunks that describe it), written before the cels.
pub fn with_marks(file: &[u8], marks: &[Vec<u8>]) -> Vec<u8> {
    use sprat::formats::aseprite::file::FileView;
    let view = FileView::of(file).expect("a file Sprat wrote");
    let first = &view.frames[0];
    let kept: Vec<_> = first
        .units
        .iter()
        .filter(|u| u.kind != 0x2018 && u.kind != 0x2022)
        .collect();
    // Before the cels, where Aseprite writes them.
    let cels = kept
        .iter()
        .position(|u| u.kind == 0x2005)
        .unwrap_or(kept.len());
    let mut units: Vec<Vec<u8>> = kept
        .iter()
        .map(|u| file[u.whole.clone()].to_vec())
        .collect();
    units.splice(cels..cels, marks.iter().cloned());
    let count: usize = units
        .iter()
        .map(|unit| {
            // Chunks in a unit follow one another, each starting with its size.
            let mut at = 0;
            let mut chunks = 0;
            while at < unit.len() {
                at += u32::from_le_bytes(unit[at..at + 4].try_into().unwrap()) as usize;
                chunks += 1;
            }
            chunks
        })
        .sum();
    let body: Vec<u8> = units.concat();
    let mut out = file[..128].to_vec();
    let mut header = file[first.range.start..first.range.start + 16].to_vec();
    header[0..4].copy_from_slice(&((16 + body.len()) as u32).to_le_bytes());
    header[6..8].copy_from_slice(&(count.min(0xFFFF) as u16).to_le_bytes());
    header[12..16].copy_from_slice(&(count as u32).to_le_bytes());
    out.extend(header);
    out.extend(body);
    out.extend_from_slice(&file[first.range.end..]);
    let size = out.len() as u32;
    out[0..4].copy_from_slice(&size.to_le_bytes());
    out
}
