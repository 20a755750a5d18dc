//! Saving Aseprite files: an unedited file is written back byte for byte; retiming a frame,
//! renaming a tag and adding a hitbox change only the frame header, the tags chunk and the
//! slice chunks; deleting, duplicating and reordering frames move whole frames (duplicates as
//! linked cels); any document converts to a file that draws the same frames. What we write is
//! read back by the `asefile` crate (an independent reader) and by Sprat.

mod aseprite_write_support;
mod common;

use aseprite_write_support::{
    assert_same, assert_sequences_draw_the_same, composited, folder, picture_frame, read, save,
};
use sprat::assets::ImageStore;
use sprat::formats::aseprite::AsepriteFormat;
use sprat::formats::aseprite::file::FileView;
use sprat::formats::{Format, ReadContext, registry};
use sprat::model::*;
use sprat::render::{CanvasBounds, RenderOptions, Scene, SpriteRect, render};
use std::path::Path;

const HEADER: usize = 128;
const CHUNK_TAGS: u16 = 0x2018;
const CHUNK_SLICE: u16 = 0x2022;

fn frame_mut(document: &mut AnimationSet, index: usize) -> &mut Frame {
    document.frames.get_index_mut(index).unwrap().1
}

#[test]
fn every_corpus_file_resaves_byte_for_byte() {
    for path in common::files_with_extensions(&folder(), &["aseprite", "ase"]) {
        let document = read(&path);
        let written = save(&document, &path);
        let original = std::fs::read(&path).unwrap();
        assert!(written.bytes == original, "{}", path.display());
        assert!(written.losses.is_empty(), "{}", path.display());
    }
}

/// Each frame's chunks, with the tags and slice chunks left out, and the frame headers apart.
fn chunks_but_tags_and_slices(bytes: &[u8]) -> Vec<Vec<u8>> {
    let view = FileView::of(bytes).expect("a file Sprat wrote parses");
    view.frames
        .iter()
        .flat_map(|f| f.units.iter())
        .filter(|u| u.kind != CHUNK_TAGS && u.kind != CHUNK_SLICE)
        .map(|u| bytes[u.whole.clone()].to_vec())
        .collect()
}

#[test]
fn retiming_renaming_a_tag_and_adding_a_hitbox_touch_only_their_chunks() {
    let path = folder().join("layers_and_tags.aseprite");
    let original = std::fs::read(&path).unwrap();
    let mut document = read(&path);
    frame_mut(&mut document, 1).duration = FrameDuration::Millis(250);
    let t3 = document.sequence_by_name("T3").unwrap().id;
    document.sequence_mut(t3).unwrap().name = "attack".to_string();
    let id = ElementId(document.alloc_id());
    frame_mut(&mut document, 2).elements.push(Element {
        id,
        name: Name::default(),
        // Named, as the editor's Box tool names a new slice: a slice keeps nothing else.
        kind: ElementKind::Box(CollisionBox::rect_from_corners(
            BoxClass::Custom("hitbox".to_string()),
            Point::from_ints(2, 3),
            Point::from_ints(7, 9),
        )),
    });
    let written = save(&document, &path);
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    let bytes = written.bytes;
    // The header changes only in the file's size.
    assert_eq!(
        bytes[4..HEADER],
        original[4..HEADER],
        "the header is unchanged"
    );
    assert_eq!(
        chunks_but_tags_and_slices(&bytes),
        chunks_but_tags_and_slices(&original),
        "every chunk but the tags and slices is unchanged"
    );

    // The independent reader sees the new values.
    let file = asefile::AsepriteFile::read(&bytes[..]).unwrap();
    assert_eq!(file.num_frames(), 4);
    assert_eq!(file.frame(1).duration(), 250);
    assert_eq!(file.frame(0).duration(), 100);
    let names: Vec<&str> = (0..file.num_tags()).map(|i| file.tag(i).name()).collect();
    assert_eq!(names, ["T1", "attack", "T2"]);
    assert_eq!((file.tag(1).from_frame(), file.tag(1).to_frame()), (1, 3));
    let slice = file.slices().iter().find(|s| s.name == "hitbox").unwrap();
    let key = &slice.keys[0];
    assert_eq!((key.from_frame, key.origin, key.size), (2, (2, 3), (5, 6)));
    let hidden = slice.keys.iter().find(|k| k.from_frame == 3).unwrap();
    assert_eq!(hidden.size, (0, 0));

    // Sprat reads the same document back, pictures included.
    let again = AsepriteFormat
        .read(&bytes, &ReadContext::for_path(&path))
        .unwrap()
        .document;
    assert_eq!(again.sequences()[1].name, "attack");
    let boxes: Vec<_> = again.frames[2].boxes().map(|(_, b)| b.clone()).collect();
    assert_eq!(boxes.len(), 1);
    // A slice's class is its name: the hit box is written as the slice "hitbox".
    assert_eq!(boxes[0].class, BoxClass::Custom("hitbox".into()));
    for index in 0..4 {
        let what = format!("frame {index}");
        assert_same(
            &composited(&again, index),
            &composited(&document, index),
            &what,
        );
    }
}

#[test]
fn points_are_pivots_and_slices_keep_their_keys() {
    let path = folder().join("slice.aseprite");
    let mut document = read(&path);
    let before: Vec<usize> = document.frames.values().map(|f| f.elements.len()).collect();
    // An attachment point alone on frame 0.
    let id = ElementId(document.alloc_id());
    frame_mut(&mut document, 0).elements.push(Element {
        id,
        name: "hand".into(),
        kind: ElementKind::Point(AttachmentPoint::at(Point::from_ints(5, 6))),
    });
    let bytes = save(&document, &path).bytes;
    let again = AsepriteFormat
        .read(&bytes, &ReadContext::default())
        .unwrap()
        .document;
    let after: Vec<usize> = again.frames.values().map(|f| f.elements.len()).collect();
    assert_eq!(after[0], before[0] + 1);
    assert_eq!(after[1..], before[1..]);
    let point = again.frames[0]
        .elements
        .iter()
        .find_map(|e| e.as_point().filter(|_| e.name == "hand"))
        .unwrap();
    assert_eq!(point.position, Point::from_ints(5, 6));
    assert_eq!(
        again.frames[0].boxes().count(),
        document.frames[0].boxes().count()
    );
}

#[test]
fn deleting_duplicating_and_reordering_frames_move_whole_frames() {
    let path = folder().join("linked_cels.aseprite");
    let document = read(&path);
    let pictures: Vec<_> = (0..document.frames.len())
        .map(|i| composited(&document, i))
        .collect();
    let sequence = document.sequences()[0].id;
    let frames = document.sequences()[0].directions[0].frames.clone();
    assert!(frames.len() >= 3, "linked_cels has three frames");

    // Delete frame 0 (whose cels others link to), move frame 2 before frame 1, duplicate 1.
    let mut edited = document.clone();
    let list = &mut edited.sequence_mut(sequence).unwrap().directions[0].frames;
    list.remove(0);
    list.swap(0, 1);
    edited.frames.shift_remove(&frames[0]);
    let copy = edited.frames[&frames[1]].clone();
    let copy_id = FrameId(edited.alloc_id());
    edited.frames.insert(copy_id, copy);
    let list = &mut edited.sequence_mut(sequence).unwrap().directions[0].frames;
    list.push(copy_id);
    let written = save(&edited, &path);
    assert!(written.losses.is_empty(), "{:?}", written.losses);

    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    assert_eq!(file.num_frames(), 3);
    let again = AsepriteFormat
        .read(&written.bytes, &ReadContext::default())
        .unwrap()
        .document;
    assert_same(&composited(&again, 0), &pictures[2], "frame 0");
    assert_same(&composited(&again, 1), &pictures[1], "frame 1");
    assert_same(&composited(&again, 2), &pictures[1], "frame 2");
    // The duplicate links to the frame it copies instead of repeating its pixels.
    assert!(written.bytes.len() < std::fs::read(&path).unwrap().len() + 64);
}

#[test]
fn the_demo_converts_to_a_file_that_draws_the_same_frames() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    let (loaded, _) = registry()
        .open(&demo, &ReadContext::for_path(&demo))
        .unwrap();
    let document = loaded.document;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("demo.aseprite");
    let written = save(&document, &target);
    // What the demo holds that Aseprite cannot: walk's loop back to its second frame,
    // attack's follow-up, which boxes are hit and which hurt boxes (slices are named), and
    // its title, author and copyright (the file keeps comments only).
    assert_eq!(written.losses.len(), 5, "{:?}", written.losses);
    assert!(
        written.losses.iter().any(|l| l
            .what
            .starts_with("the document's title, author, copyright")),
        "{:?}",
        written.losses
    );
    for (kind, slice) in [("hit", "hitbox"), ("hurt", "hurtbox")] {
        assert!(
            written
                .losses
                .iter()
                .any(|l| l.what.contains(&format!("are {kind} boxes"))
                    && l.what.contains(&format!("\"{slice}\""))),
            "{:?}",
            written.losses
        );
    }
    std::fs::write(&target, &written.bytes).unwrap();
    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let tags: Vec<&str> = (0..file.num_tags()).map(|i| file.tag(i).name()).collect();
    let sequences: Vec<&str> = document
        .sequences()
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert!(tags.len() >= sequences.len());
    for name in &sequences {
        assert!(tags.contains(name), "tag {name}");
    }
    let boxes: usize = document.frames.values().map(|f| f.boxes().count()).sum();
    assert!(boxes == 0 || !file.slices().is_empty());

    // The origin is kept (a slice marks it): every frame draws the same in sprite space, with
    // the same boxes and points.
    assert_sequences_draw_the_same(&document, &read(&target));
}

#[test]
fn an_edited_save_keeps_the_origin_a_slice_marks() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    let (loaded, _) = registry()
        .open(&demo, &ReadContext::for_path(&demo))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("demo.aseprite");
    std::fs::write(&target, save(&loaded.document, &target).bytes).unwrap();
    let mut document = read(&target);
    let boxes = |doc: &AnimationSet| -> Vec<String> {
        doc.frames
            .values()
            .flat_map(|f| f.boxes().map(|(_, b)| format!("{:?}", b.shape)))
            .collect()
    };
    let before = boxes(&document);
    frame_mut(&mut document, 0).duration = FrameDuration::Millis(90);
    let written = save(&document, &target);
    std::fs::write(&target, &written.bytes).unwrap();
    let again = read(&target);
    assert_eq!(boxes(&again), before);
    assert_eq!(again.frames[0].duration, FrameDuration::Millis(90));
}

#[test]
fn a_new_frame_with_a_picture_of_its_own_goes_on_a_layer_of_its_own() {
    let path = folder().join("layers_and_tags.aseprite");
    let mut document = read(&path);
    let picture = image::RgbaImage::from_fn(3, 2, |x, y| {
        image::Rgba([40 * x as u8, 90, 60 * y as u8, 255])
    });
    let id = picture_frame(&mut document, &picture, (5, 4), 80);
    let t2 = document.sequence_by_name("T2").unwrap().id;
    document.sequence_mut(t2).unwrap().directions[0]
        .frames
        .push(id);
    let written = save(&document, &path);
    assert!(written.losses.is_empty(), "{:?}", written.losses);

    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    assert_eq!(file.num_frames(), 5);
    let top = file.layer(file.num_layers() - 1);
    assert_eq!(top.name(), "Imported");
    assert_eq!(file.frame(4).duration(), 80);
    let t2 = (0..file.num_tags())
        .map(|i| file.tag(i))
        .find(|t| t.name() == "T2")
        .unwrap();
    assert_eq!((t2.from_frame(), t2.to_frame()), (3, 4));
    let drawn = file.frame(4).image();
    for (x, y, pixel) in picture.enumerate_pixels() {
        assert_eq!(drawn.get_pixel(x + 5, y + 4).0, pixel.0);
    }
}

/// The cel types of every cel chunk of `bytes`, in file order.
fn cel_types(bytes: &[u8]) -> Vec<u16> {
    let view = FileView::of(bytes).unwrap();
    view.frames
        .iter()
        .flat_map(|f| f.units.iter())
        .filter(|u| u.kind == 0x2005)
        .map(|u| u16::from_le_bytes([bytes[u.chunk.start + 13], bytes[u.chunk.start + 14]]))
        .collect()
}

#[test]
fn a_cel_linked_to_a_tilemap_cel_opens() {
    // A duplicated tilemap frame links its tilemap cel, as Aseprite writes it; the `asefile`
    // crate alone refuses such a link ("not a valid target for a linked cel").
    let path = folder().join("tilemap.aseprite");
    let mut document = read(&path);
    let sequence = document.sequences()[0].id;
    let head = document.sequences()[0].directions[0].frames[0];
    let copy = document.frames[&head].clone();
    let id = FrameId(document.alloc_id());
    document.frames.insert(id, copy);
    document.sequence_mut(sequence).unwrap().directions[0]
        .frames
        .push(id);
    let written = save(&document, &path);
    let types = cel_types(&written.bytes);
    assert!(types.contains(&3) && types.contains(&1), "{types:?}");
    assert!(asefile::AsepriteFile::read(&written.bytes[..]).is_err());

    let again = AsepriteFormat
        .read(&written.bytes, &ReadContext::default())
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
        .document;
    let last = again.frames.len() - 1;
    assert_same(
        &composited(&again, last),
        &composited(&again, 0),
        "the copy",
    );
}

#[test]
fn every_corpus_file_converted_afresh_draws_the_same_frames() {
    for path in common::files_with_extensions(&folder(), &["aseprite", "ase"]) {
        let mut document = read(&path);
        // Without its original bytes, the document is written as a new file.
        document.original = None;
        let written = save(&document, &path);
        let again = AsepriteFormat
            .read(&written.bytes, &ReadContext::default())
            .unwrap_or_else(|f| panic!("{}: {:?}", path.display(), f.diagnostics))
            .document;
        assert_eq!(
            again.frames.len(),
            document.frames.len(),
            "{}",
            path.display()
        );
        let store = ImageStore::new();
        for (index, (a, b)) in document
            .frames
            .values()
            .zip(again.frames.values())
            .enumerate()
        {
            let rect = sprat::render::content_bounds(
                &document,
                &Scene::of_frame(a),
                &store,
                Default::default(),
            );
            let Some(rect) = rect else { continue };
            let options = RenderOptions {
                bounds: CanvasBounds::Fixed(rect),
                ..RenderOptions::default()
            };
            let what = format!("{} frame {index}", path.display());
            assert_same(
                &render(&document, &Scene::of_frame(a), &store, &options),
                &render(&again, &Scene::of_frame(b), &store, &options),
                &what,
            );
        }
    }
}

#[test]
fn a_new_picture_reaching_off_the_canvas_is_listed_as_lost_on_its_frame() {
    let path = folder().join("layers_and_tags.aseprite");
    let mut document = read(&path);
    let picture = image::RgbaImage::from_pixel(3, 2, image::Rgba([200, 30, 30, 255]));
    // Two columns left of the canvas and one row above it: 5 of its 6 pixels are off it.
    let id = picture_frame(&mut document, &picture, (-2, -1), 80);
    let t2 = document.sequence_by_name("T2").unwrap().id;
    let frames = &mut document.sequence_mut(t2).unwrap().directions[0].frames;
    frames.push(id);
    let index = frames.len() - 1;
    let written = save(&document, &path);
    let lost: Vec<String> = written.losses.iter().map(ToString::to_string).collect();
    assert_eq!(written.losses.len(), 1, "{lost:?}");
    let loss = &written.losses[0];
    assert_eq!(loss.place.sequence.as_deref(), Some("T2"));
    assert_eq!(
        (loss.place.direction, loss.place.frame),
        (Some(0), Some(index))
    );
    assert!(
        loss.what.starts_with("5 pixels of its new picture"),
        "{lost:?}"
    );
    // The cel keeps every pixel: Aseprite shows the one on the canvas.
    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let drawn = file.frame(file.num_frames() - 1).image();
    assert_eq!(drawn.get_pixel(0, 0).0, [200, 30, 30, 255]);
}

#[test]
fn a_new_picture_in_a_file_marking_an_origin_is_placed_from_that_origin() {
    // Pictures up and left of (0, 0): the new file marks its origin inside the canvas.
    let mut source = AnimationSet::new();
    let square = image::RgbaImage::from_pixel(4, 4, image::Rgba([20, 200, 90, 255]));
    let first = picture_frame(&mut source, &square, (-4, -4), 100);
    let sequence = Sequence {
        id: SequenceId(source.alloc_id()),
        name: "all".into(),
        directions: vec![Direction {
            id: DirectionId(source.alloc_id()),
            name: None,
            frames: vec![first],
        }],
        loop_point: Some(0),
        on_end: EndBehavior::HoldLastFrame,
        follow_up: None,
        frame_rate: None,
        title: None,
    };
    source.root.items.push(TreeItem::Sequence(sequence));
    let path = Path::new("origin.aseprite");
    let bytes = save(&source, path).bytes;
    let file = asefile::AsepriteFile::read(&bytes[..]).unwrap();
    assert!(
        file.slices().iter().any(|s| s.name == "origin"),
        "the file marks its origin"
    );
    let mut document = aseprite_write_support::read_bytes(&bytes, path);
    let red = image::RgbaImage::from_pixel(4, 4, image::Rgba([200, 30, 30, 255]));
    let added = picture_frame(&mut document, &red, (-4, -4), 100);
    let sequence = document.sequences()[0].id;
    document.sequence_mut(sequence).unwrap().directions[0]
        .frames
        .push(added);
    let written = save(&document, path);
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    let again = aseprite_write_support::read_bytes(&written.bytes, path);
    // Drawn around the origin, where the picture lies.
    let drawn = |document: &AnimationSet| {
        let options = RenderOptions {
            bounds: CanvasBounds::Fixed(SpriteRect {
                x: -8,
                y: -8,
                width: 16,
                height: 16,
            }),
            ..RenderOptions::default()
        };
        let frame = document.frames.get_index(1).unwrap().1;
        render(
            document,
            &Scene::of_frame(frame),
            &ImageStore::new(),
            &options,
        )
    };
    let shown = drawn(&document);
    assert_eq!(
        shown.get_pixel(4, 4).0,
        [200, 30, 30, 255],
        "drawn at (-4, -4)"
    );
    assert_same(&drawn(&again), &shown, "the new frame, where it was shown");
}
