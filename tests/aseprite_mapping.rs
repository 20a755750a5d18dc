//! What an Aseprite file becomes: tags as sequences (in Aseprite's play order, repeats kept),
//! slices as boxes and points per frame, user data and tag colours as metadata; and where the
//! composited pictures go when the document is saved as a Sprat project or a Solarus sprite.

mod common;

use image::{Rgba, RgbaImage};
use sprat::assets::ImageStore;
use sprat::formats::aseprite::AsepriteFormat;
use sprat::formats::{Format, ReadContext, WriteContext, registry};
use sprat::model::*;
use std::path::Path;

fn corpus_bytes(name: &str) -> Vec<u8> {
    std::fs::read(common::corpus().join("aseprite").join(name)).unwrap()
}

fn read(bytes: &[u8]) -> AnimationSet {
    AsepriteFormat
        .read(bytes, &ReadContext::default())
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
        .document
}

/// The file's frame indices a sequence plays, in order.
fn played(document: &AnimationSet, name: &str) -> Vec<usize> {
    let sequence = document
        .sequences()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no sequence {name}"));
    sequence.directions[0]
        .frames
        .iter()
        .map(|id| document.frames.get_index_of(id).unwrap())
        .collect()
}

/// Replaces the first occurrence of `from` with `to` (same length).
fn patch(bytes: &mut [u8], from: &[u8], to: &[u8]) -> usize {
    let at = bytes
        .windows(from.len())
        .position(|w| w == from)
        .unwrap_or_else(|| panic!("{:?} not found", String::from_utf8_lossy(from)));
    bytes[at..at + to.len()].copy_from_slice(to);
    at
}

#[test]
fn tags_become_sequences_with_millisecond_frames() {
    let document = read(&corpus_bytes("layers_and_tags.aseprite"));
    let names: Vec<&str> = document
        .sequences()
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["T1", "T3", "T2"]);
    assert_eq!(played(&document, "T1"), [0, 1]);
    assert_eq!(played(&document, "T3"), [1, 2, 3]);
    assert_eq!(played(&document, "T2"), [3]);
    for sequence in document.sequences() {
        assert_eq!(
            sequence.loop_point,
            Some(0),
            "{}: repeat 0 loops",
            sequence.name
        );
    }
    for frame in document.frames.values() {
        assert_eq!(frame.duration, FrameDuration::Millis(100));
    }
}

#[test]
fn ping_pong_reverse_with_repeats_plays_as_aseprite_does() {
    let mut bytes = corpus_bytes("layers_and_tags.aseprite");
    // Tag T3 (frames 1..3): its record starts 19 bytes before its name; the direction is at
    // +4 and the repeat count at +5.
    let name = patch(&mut bytes, b"\x02\x00T3", b"\x02\x00T3") + 2;
    let record = name - 19;
    bytes[record + 4] = 3; // ping-pong reverse
    bytes[record + 5..record + 7].copy_from_slice(&3u16.to_le_bytes());
    let loaded = AsepriteFormat
        .read(&bytes, &ReadContext::default())
        .unwrap();
    assert!(
        loaded.diagnostics.iter().any(|d| d
            .message
            .contains("\"T3\" plays ping-pong reverse, 3 times")),
        "the user is told how the tag was spelled out: {:?}",
        loaded.diagnostics
    );
    let document = loaded.document;
    // Three passes: back, forth (not repeating the turning frame), back.
    assert_eq!(played(&document, "T3"), [3, 2, 1, 2, 3, 2, 1]);
    let t3 = document
        .sequences()
        .into_iter()
        .find(|s| s.name == "T3")
        .unwrap();
    assert_eq!(t3.loop_point, None, "a finite repeat stops at its end");
    assert_eq!(t3.on_end, EndBehavior::HoldLastFrame);
}

#[test]
fn slices_become_boxes_and_pivots_points_frame_by_frame() {
    let bytes = corpus_bytes("slice_advanced.aseprite");
    let document = read(&bytes);
    let file = asefile::AsepriteFile::read(&bytes[..]).unwrap();
    for (index, frame) in document.frames.values().enumerate() {
        for slice in file.slices() {
            let key = slice
                .keys
                .iter()
                .filter(|k| k.from_frame as usize <= index)
                .max_by_key(|k| k.from_frame)
                .unwrap();
            let (x, y) = key.origin;
            let boxed = frame
                .boxes()
                .find(|(e, _)| e.name == slice.name)
                .map(|(_, b)| b.clone())
                .unwrap_or_else(|| panic!("frame {index}: no box {}", slice.name));
            assert_eq!(boxed.class, BoxClass::Custom(slice.name.clone()));
            assert_eq!(
                boxed.shape,
                Shape::Rect {
                    x: Fx::from_int(x),
                    y: Fx::from_int(y),
                    width: Fx::from_int(key.size.0 as i32),
                    height: Fx::from_int(key.size.1 as i32),
                    rotation: 0.0,
                }
            );
            let point = frame
                .elements
                .iter()
                .find(|e| e.name == slice.name && e.as_point().is_some());
            match key.pivot {
                Some((px, py)) => assert_eq!(
                    point.unwrap().as_point().unwrap().position,
                    Point::from_ints(x + px, y + py),
                    "frame {index}: {}",
                    slice.name
                ),
                None => assert!(
                    point.is_none(),
                    "frame {index}: {} has no pivot",
                    slice.name
                ),
            }
        }
    }
}

/// A slice's name is its class, as written: nothing in the file says "Hit_Box" is a hit box
/// (the user says which names are, see `sprat::boxes::roles`).
#[test]
fn slices_keep_their_names_as_their_class() {
    let mut bytes = corpus_bytes("slice_advanced.aseprite");
    patch(&mut bytes, b"Slice 1", b"hurtbox");
    patch(&mut bytes, b"Slice 2", b"Hit_Box");
    let document = read(&bytes);
    let frame = document.frames.get_index(0).unwrap().1;
    let class_of = |name: &str| {
        frame
            .boxes()
            .find(|(e, _)| e.name == name)
            .map(|(_, b)| b.class.clone())
            .unwrap()
    };
    assert_eq!(class_of("hurtbox"), BoxClass::Custom("hurtbox".into()));
    assert_eq!(class_of("Hit_Box"), BoxClass::Custom("Hit_Box".into()));
}

#[test]
fn user_data_and_tag_colours_are_kept_in_the_metadata() {
    let document = read(&corpus_bytes("user_data.aseprite"));
    assert_eq!(document.metadata.comments, "test_user_data_sprite");
    let extra = |key: &str| {
        document
            .metadata
            .extra
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(extra("aseprite.sprite.color"), Some("#00ff00ff"));
    assert_eq!(extra("aseprite.tag.Tag 0.color"), Some("#00ff00ff"));
    assert_eq!(
        extra("aseprite.tag.Tag 0.user_data"),
        Some("test_user_data_tag_0")
    );
    assert_eq!(extra("aseprite.tag.Tag 2.color"), Some("#ff0000ff"));
}

#[test]
fn identical_frames_share_one_picture() {
    // All eight frames of user_data.aseprite look the same.
    let document = read(&corpus_bytes("user_data.aseprite"));
    assert_eq!(document.frames.len(), 8);
    assert_eq!(document.images.len(), 1);
}

fn write_sprat(document: &AnimationSet, path: &Path) -> Result<sprat::formats::Written, String> {
    let store = ImageStore::new();
    let context = WriteContext {
        path: Some(path.to_path_buf()),
        pixels: Some(&store),
    };
    registry()
        .by_id("sprat")
        .unwrap()
        .write(document, &context)
        .map_err(|e| e.message)
}

#[test]
fn a_project_writes_each_picture_once_and_never_replaces_a_foreign_image() {
    let document = read(&corpus_bytes("layers_and_tags.aseprite"));
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("walk.sprat");
    let written = write_sprat(&document, &project).unwrap();
    let names: Vec<&str> = written
        .companions
        .iter()
        .map(|c| c.relative_path.as_str())
        .collect();
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("images/") && n.ends_with(".png"))
    );
    let text = String::from_utf8(written.bytes).unwrap();
    assert!(
        text.contains(&format!("\"{}\"", names[0])),
        "relative paths: {text}"
    );
    // Saving again over the files it wrote is fine: they hold the same bytes.
    for companion in &written.companions {
        let path = dir.path().join(&companion.relative_path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &companion.bytes).unwrap();
    }
    write_sprat(&document, &project).unwrap();
    // A file the document did not write is never replaced.
    std::fs::write(dir.path().join(names[1]), b"someone else's picture").unwrap();
    let refused = write_sprat(&document, &project).unwrap_err();
    assert!(refused.contains("did not write it"), "{refused}");
}

#[test]
fn solarus_pads_a_direction_whose_frames_differ_in_size() {
    let mut document = AnimationSet::new();
    let mut frames = Vec::new();
    for (index, side) in [8u32, 8, 12].into_iter().enumerate() {
        let image = ImageId(document.alloc_id());
        document.images.push(SourceImage {
            id: image,
            path: format!("images/f{index}.png"),
            resolved: None,
            kind: ImageKind::Memory(MemoryImage::new(RgbaImage::from_pixel(
                side,
                side,
                Rgba([200, 10, 10, 255]),
            ))),
            nearest_neighbour: true,
        });
        let mut frame = Frame::new(FrameDuration::Millis(100));
        frame.elements.push(Element {
            id: ElementId(document.alloc_id()),
            name: Name::default(),
            kind: ElementKind::Graphic(Graphic::new(
                GraphicSource::Image(image),
                Point::ZERO,
                Origin::At(Point::ZERO),
            )),
        });
        let id = FrameId(document.alloc_id());
        document.frames.insert(id, frame);
        frames.push(id);
    }
    let mut sequence = Sequence::new(
        SequenceId(document.alloc_id()),
        "grow",
        DirectionId(document.alloc_id()),
    );
    sequence.directions[0].frames = frames;
    document.root.items.push(TreeItem::Sequence(sequence));
    let dir = tempfile::tempdir().unwrap();
    let store = ImageStore::new();
    let context = WriteContext {
        path: Some(dir.path().join("data/sprites/grow.dat")),
        pixels: Some(&store),
    };
    let written = registry()
        .by_id("solarus-lua")
        .unwrap()
        .write(&document, &context)
        .unwrap();
    // Padded to one cell (origins at the top-left corner, so 12x12), and the user is told.
    assert_eq!(written.companions.len(), 1, "the sheet is drawn");
    assert!(
        written
            .losses
            .iter()
            .any(|l| l.to_string().contains("padded to 12x12 cells")),
        "{:?}",
        written.losses
    );
}

/// The offsets of the flags of every layer chunk (type 0x2004) in `bytes`.
fn layer_flags(bytes: &[u8]) -> Vec<usize> {
    (128..bytes.len() - 8)
        .filter(|&at| bytes[at + 4..at + 6] == [0x04, 0x20] && bytes[at + 2..at + 4] == [0, 0])
        .map(|at| at + 6)
        .collect()
}

fn pictures(document: &AnimationSet) -> Vec<Vec<u8>> {
    let store = ImageStore::new();
    document
        .frames
        .values()
        .map(|frame| {
            let graphic = frame.elements.iter().find_map(|e| e.as_graphic()).unwrap();
            let pixels = sprat::pixels::PixelSource::pixels(&store, document, &graphic.source);
            pixels.unwrap().image.as_raw().clone()
        })
        .collect()
}

#[test]
fn reference_layers_are_not_drawn() {
    let bytes = corpus_bytes("layers_and_tags.aseprite");
    // The first layer the eye icon shows.
    let flags: Vec<usize> = layer_flags(&bytes)
        .into_iter()
        .filter(|&at| bytes[at] & 1 == 1)
        .collect();
    assert!(!flags.is_empty());
    let all = pictures(&read(&bytes));
    let mut hidden = bytes.clone();
    hidden[flags[0]] &= !1;
    let mut reference = bytes.clone();
    reference[flags[0]] |= 0x40;
    let without = pictures(&read(&hidden));
    assert_ne!(all, without, "the first layer draws something");
    let loaded = AsepriteFormat
        .read(&reference, &ReadContext::default())
        .unwrap();
    assert_eq!(pictures(&loaded.document), without);
    assert!(
        loaded
            .diagnostics
            .iter()
            .any(|d| d.message.contains("reference layer")),
        "{:?}",
        loaded.diagnostics
    );
}

#[test]
fn in_memory_pictures_survive_the_recovery_file() {
    // Crash recovery writes the document as RON: the pictures go along as PNG bytes.
    let document = read(&corpus_bytes("layers_and_tags.aseprite"));
    let text = ron::to_string(&document).unwrap();
    let back: AnimationSet = ron::from_str(&text).unwrap();
    assert_eq!(back.images, document.images);
    assert!(matches!(back.images[0].kind, ImageKind::Memory(_)));
}

#[test]
fn frames_outside_every_tag_play_as_sequences_of_their_own() {
    let mut bytes = corpus_bytes("layers_and_tags.aseprite");
    // T3 (frames 1..3) and T2 (frame 3) both shrink to frame 1: frames 2 and 3 leave every tag.
    for name in [&b"\x02\x00T3"[..], &b"\x02\x00T2"[..]] {
        let at = patch(&mut bytes, name, name);
        bytes[at - 17..at - 13].copy_from_slice(&[1, 0, 1, 0]);
    }
    let document = read(&bytes);
    let names: Vec<&str> = document
        .sequences()
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["T1", "T3", "T2", "sprite"]);
    assert_eq!(played(&document, "sprite"), [2, 3]);
    assert_eq!(
        document.sequence_by_name("sprite").unwrap().loop_point,
        Some(0)
    );

    // Two runs apart are named by their frame numbers.
    let at = patch(&mut bytes, b"\x02\x00T1", b"\x02\x00T1");
    bytes[at - 19..at - 15].copy_from_slice(&[1, 0, 1, 0]);
    let at = patch(&mut bytes, b"\x02\x00T2", b"\x02\x00T2");
    bytes[at - 19..at - 15].copy_from_slice(&[2, 0, 2, 0]);
    let document = read(&bytes);
    assert_eq!(played(&document, "sprite 0"), [0]);
    assert_eq!(played(&document, "sprite 3"), [3]);
}

/// With one graphic per layer, a layer's opacity is applied once: by the graphic, not also
/// baked into its picture (which carries only the cel's own opacity).
#[test]
fn a_layers_opacity_is_its_graphics_not_its_pictures() {
    let bytes = corpus_bytes("transparency.aseprite");
    let context = ReadContext {
        path: None,
        options: sprat::formats::ReadOptions {
            aseprite_layers: true,
            ..Default::default()
        },
    };
    let document = AsepriteFormat.read(&bytes, &context).unwrap().document;
    // Layer 3 (opacity 124) has a cel of opacity 255 at (0, 1) on frame 1.
    let sprite = sprat::formats::aseprite::parse::parse(&bytes).unwrap();
    let layer = sprite
        .layers
        .iter()
        .position(|l| l.name == "Layer 3")
        .unwrap();
    assert_eq!(sprite.layers[layer].opacity, 124);
    let cel = sprite
        .cels
        .iter()
        .find(|c| c.frame == 1 && usize::from(c.layer) == layer)
        .unwrap();
    assert_eq!(cel.opacity, 255);
    let sprat::formats::aseprite::sprite::CelContent::Image(cel_pixels) = &cel.content else {
        panic!("an image cel")
    };
    let (_, frame) = document.frames.get_index(1).unwrap();
    let element = frame.elements.iter().find(|e| e.name == "Layer 3").unwrap();
    let graphic = element.as_graphic().unwrap();
    assert_eq!(graphic.opacity, (124 * u32::from(OPAQUE) / 255) as u16);
    let store = ImageStore::new();
    let picture = sprat::pixels::PixelSource::pixels(&store, &document, &graphic.source)
        .unwrap()
        .image;
    let width = usize::from(cel_pixels.width);
    for (i, pixel) in cel_pixels.data.chunks_exact(4).enumerate() {
        let (x, y) = (
            (i % width) as i64 + i64::from(cel.x),
            (i / width) as i64 + i64::from(cel.y),
        );
        if x < 0 || y < 0 || x >= 16 || y >= 16 {
            continue;
        }
        let shown = picture.get_pixel(x as u32, y as u32).0;
        assert_eq!(shown[3], pixel[3], "alpha at ({x}, {y})");
    }
}
