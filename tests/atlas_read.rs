//! Sheets in the layout Aseprite 1.3 (and TexturePacker) writes open with the right frames,
//! durations, tags, slices and pixels: hash and array forms, trimmed and untrimmed, with and
//! without tags and slices, and rotated frames. The files are our own, written in the exact
//! layout those programs use.

use image::{Rgba, RgbaImage};
use sprat::assets::ImageStore;
use sprat::formats::{ReadContext, registry};
use sprat::model::{AnimationSet, BoxClass, ElementKind, FrameDuration, GraphicSource, Shape};
use sprat::pixels::PixelSource;
use sprat::render::{CanvasBounds, RenderOptions, Scene, SpriteRect, render};
use std::path::Path;

/// A 4x4 sprite frame whose pixels tell frame `n` apart: a coloured 2x3 block at (1, 1).
fn sprite_frame(n: u8) -> RgbaImage {
    RgbaImage::from_fn(4, 4, |x, y| {
        if (1..3).contains(&x) && (1..4).contains(&y) {
            Rgba([40 * n, 200 - 10 * x as u8, 10 * y as u8, 255])
        } else {
            Rgba([0, 0, 0, 0])
        }
    })
}

fn open(dir: &Path, json: &str, sheet: &RgbaImage) -> AnimationSet {
    let path = dir.join("hero.json");
    std::fs::write(&path, json).unwrap();
    sheet.save(dir.join("hero.png")).unwrap();
    let (loaded, format) = registry()
        .open(&path, &ReadContext::for_path(&path))
        .unwrap_or_else(|e| panic!("{:?}", e.diagnostics));
    assert_eq!(format.id(), "aseprite-json");
    loaded.document
}

/// Frame `index` of the sequence named `name` rendered on the 4x4 canvas (origin top-left).
fn frame_pixels(document: &AnimationSet, name: &str, index: usize) -> RgbaImage {
    let store = ImageStore::new();
    let sequence = document.sequence_by_name(name).expect("sequence");
    let scene = Scene::at(document, sequence.id, 0, index, Default::default()).unwrap();
    let options = RenderOptions {
        bounds: CanvasBounds::Fixed(SpriteRect {
            x: 0,
            y: 0,
            width: 4,
            height: 4,
        }),
        ..RenderOptions::default()
    };
    render(document, &scene, &store, &options)
}

fn durations(document: &AnimationSet, name: &str) -> Vec<FrameDuration> {
    let sequence = document.sequence_by_name(name).unwrap();
    document
        .direction_frames(sequence, 0)
        .iter()
        .map(|f| f.duration)
        .collect()
}

/// An untrimmed horizontal strip of three 4x4 frames.
fn strip() -> RgbaImage {
    let mut sheet = RgbaImage::new(12, 4);
    for n in 0..3u8 {
        image::imageops::overlay(&mut sheet, &sprite_frame(n), n as i64 * 4, 0);
    }
    sheet
}

const HASH_TAGS_SLICES: &str = r##"{ "frames": {
   "hero 0.aseprite": {
    "frame": { "x": 0, "y": 0, "w": 4, "h": 4 },
    "rotated": false,
    "trimmed": false,
    "spriteSourceSize": { "x": 0, "y": 0, "w": 4, "h": 4 },
    "sourceSize": { "w": 4, "h": 4 },
    "duration": 100
   },
   "hero 1.aseprite": {
    "frame": { "x": 4, "y": 0, "w": 4, "h": 4 },
    "rotated": false,
    "trimmed": false,
    "spriteSourceSize": { "x": 0, "y": 0, "w": 4, "h": 4 },
    "sourceSize": { "w": 4, "h": 4 },
    "duration": 150
   },
   "hero 2.aseprite": {
    "frame": { "x": 8, "y": 0, "w": 4, "h": 4 },
    "rotated": false,
    "trimmed": false,
    "spriteSourceSize": { "x": 0, "y": 0, "w": 4, "h": 4 },
    "sourceSize": { "w": 4, "h": 4 },
    "duration": 70
   }
 },
 "meta": {
  "app": "https://www.aseprite.org/",
  "version": "1.3.7-x64",
  "image": "hero.png",
  "format": "RGBA8888",
  "size": { "w": 12, "h": 4 },
  "scale": "1",
  "frameTags": [
   { "name": "idle", "from": 0, "to": 1, "direction": "forward", "color": "#000000ff" },
   { "name": "punch", "from": 1, "to": 2, "direction": "forward", "repeat": "1", "color": "#000000ff", "data": "swing" },
   { "name": "back", "from": 0, "to": 2, "direction": "reverse", "color": "#000000ff" },
   { "name": "bob", "from": 0, "to": 2, "direction": "pingpong", "color": "#000000ff" }
  ],
  "layers": [
   { "name": "Layer 1", "opacity": 255, "blendMode": "normal" }
  ],
  "slices": [
   { "name": "hurtbox", "color": "#0000ffff", "keys": [{ "frame": 0, "bounds": {"x": 1, "y": 1, "w": 2, "h": 3 } }, { "frame": 2, "bounds": {"x": 0, "y": 1, "w": 3, "h": 3 } }] },
   { "name": "hitbox", "color": "#ff0000ff", "keys": [{ "frame": 1, "bounds": {"x": 2, "y": 0, "w": 2, "h": 2 } }, { "frame": 2, "bounds": {"x": 0, "y": 0, "w": 0, "h": 0 } }] },
   { "name": "hand", "color": "#0000ffff", "keys": [{ "frame": 0, "bounds": {"x": 0, "y": 0, "w": 4, "h": 4 }, "pivot": {"x": 3, "y": 2 } }] }
  ]
 }
}
"##;

#[test]
fn a_hash_sheet_with_tags_and_slices_opens() {
    let dir = tempfile::tempdir().unwrap();
    let doc = open(dir.path(), HASH_TAGS_SLICES, &strip());
    let names: Vec<&str> = doc.sequences().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["idle", "punch", "back", "bob"]);
    assert_eq!(
        durations(&doc, "idle"),
        [FrameDuration::Millis(100), FrameDuration::Millis(150)]
    );
    assert_eq!(doc.sequence_by_name("idle").unwrap().loop_point, Some(0));
    assert_eq!(doc.sequence_by_name("punch").unwrap().loop_point, None);
    // Reverse plays 2, 1, 0; ping-pong 0, 1, 2, 1 and loops.
    assert_eq!(
        durations(&doc, "back"),
        [70, 150, 100].map(FrameDuration::Millis)
    );
    assert_eq!(
        durations(&doc, "bob"),
        [100, 150, 70, 150].map(FrameDuration::Millis)
    );
    for n in 0..3 {
        assert_eq!(frame_pixels(&doc, "back", 2 - n), sprite_frame(n as u8));
    }
    // Slices: a hurt box on every frame (changing at 2), a hit box on frame 1 only, and the
    // point from its pivot.
    let sequence = doc.sequence_by_name("back").unwrap();
    let frames = doc.direction_frames(sequence, 0);
    let (f2, f1, f0) = (frames[0], frames[1], frames[2]);
    let boxes = |f: &sprat::model::Frame| -> Vec<(BoxClass, Shape)> {
        f.boxes()
            .map(|(_, b)| (b.class.clone(), b.shape.clone()))
            .collect()
    };
    assert_eq!(boxes(f0).len(), 1);
    assert_eq!(boxes(f1).len(), 2);
    assert_eq!(boxes(f2).len(), 1);
    assert_eq!(boxes(f1)[1].0, BoxClass::Hit);
    assert_eq!(boxes(f2)[0].0, BoxClass::Hurt);
    let point = f0
        .elements
        .iter()
        .find_map(|e| match &e.kind {
            ElementKind::Point(p) => Some((e.name.clone(), p.position)),
            _ => None,
        })
        .unwrap();
    assert_eq!(point.0, "hand");
    assert_eq!(point.1, sprat::model::Point::from_ints(3, 2));
}

#[test]
fn a_sheet_named_by_another_machines_path_is_found_beside_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let json = HASH_TAGS_SLICES.replace(
        "\"image\": \"hero.png\"",
        "\"image\": \"C:\\\\art\\\\hero.png\"",
    );
    assert_ne!(json, HASH_TAGS_SLICES);
    let doc = open(dir.path(), &json, &strip());
    assert_eq!(frame_pixels(&doc, "idle", 1), sprite_frame(1));
}

#[test]
fn an_array_sheet_without_tags_is_one_sequence() {
    let json = r##"{ "frames": [
   {
    "filename": "hero 0.aseprite",
    "frame": { "x": 0, "y": 0, "w": 4, "h": 4 },
    "rotated": false,
    "trimmed": false,
    "spriteSourceSize": { "x": 0, "y": 0, "w": 4, "h": 4 },
    "sourceSize": { "w": 4, "h": 4 },
    "duration": 100
   },
   {
    "filename": "hero 1.aseprite",
    "frame": { "x": 4, "y": 0, "w": 4, "h": 4 },
    "rotated": false,
    "trimmed": false,
    "spriteSourceSize": { "x": 0, "y": 0, "w": 4, "h": 4 },
    "sourceSize": { "w": 4, "h": 4 },
    "duration": 200
   }
 ],
 "meta": {
  "app": "https://www.aseprite.org/",
  "version": "1.3.7-x64",
  "image": "hero.png",
  "format": "RGBA8888",
  "size": { "w": 12, "h": 4 },
  "scale": "1",
  "frameTags": [
  ],
  "layers": [
   { "name": "Layer 1", "opacity": 255, "blendMode": "normal" }
  ],
  "slices": [
  ]
 }
}
"##;
    let dir = tempfile::tempdir().unwrap();
    let doc = open(dir.path(), json, &strip());
    assert_eq!(doc.sequences().len(), 1);
    assert_eq!(doc.sequences()[0].name, "hero");
    assert_eq!(
        durations(&doc, "hero"),
        [100, 200].map(FrameDuration::Millis)
    );
    assert_eq!(frame_pixels(&doc, "hero", 1), sprite_frame(1));
}

#[test]
fn trimmed_and_rotated_frames_land_where_they_were() {
    // Frame 0 trimmed to its 2x3 block at (1, 1); frame 1 trimmed and stored turned 90°
    // clockwise (TexturePacker), so its 2x3 block takes 3x2 sheet pixels.
    let block0 = image::imageops::crop_imm(&sprite_frame(0), 1, 1, 2, 3).to_image();
    let block1 = image::imageops::crop_imm(&sprite_frame(1), 1, 1, 2, 3).to_image();
    let turned = image::imageops::rotate90(&block1);
    let mut sheet = RgbaImage::new(6, 3);
    image::imageops::overlay(&mut sheet, &block0, 0, 0);
    image::imageops::overlay(&mut sheet, &turned, 3, 0);
    let json = r##"{ "frames": {
   "hero 0.aseprite": {
    "frame": { "x": 0, "y": 0, "w": 2, "h": 3 },
    "rotated": false,
    "trimmed": true,
    "spriteSourceSize": { "x": 1, "y": 1, "w": 2, "h": 3 },
    "sourceSize": { "w": 4, "h": 4 },
    "duration": 100
   },
   "hero 1.aseprite": {
    "frame": { "x": 3, "y": 0, "w": 2, "h": 3 },
    "rotated": true,
    "trimmed": true,
    "spriteSourceSize": { "x": 1, "y": 1, "w": 2, "h": 3 },
    "sourceSize": { "w": 4, "h": 4 },
    "duration": 100
   }
 },
 "meta": {
  "app": "https://www.aseprite.org/",
  "version": "1.3.7-x64",
  "image": "hero.png",
  "format": "RGBA8888",
  "size": { "w": 6, "h": 3 },
  "scale": "1",
  "frameTags": [
   { "name": "walk", "from": 0, "to": 1, "direction": "forward", "color": "#000000ff" }
  ],
  "layers": [
   { "name": "Layer 1", "opacity": 255, "blendMode": "normal" }
  ],
  "slices": [
  ]
 }
}
"##;
    let dir = tempfile::tempdir().unwrap();
    let doc = open(dir.path(), json, &sheet);
    assert_eq!(frame_pixels(&doc, "walk", 0), sprite_frame(0));
    assert_eq!(frame_pixels(&doc, "walk", 1), sprite_frame(1));
    let store = ImageStore::new();
    let slice = doc.slices[1].id;
    let pixels = store.pixels(&doc, &GraphicSource::Slice(slice)).unwrap();
    assert_eq!(pixels.image.dimensions(), (2, 3));
}

fn error_of(dir: &Path, json: &str, sheet: Option<&RgbaImage>) -> String {
    let path = dir.join("bad.json");
    std::fs::write(&path, json).unwrap();
    if let Some(sheet) = sheet {
        sheet.save(dir.join("hero.png")).unwrap();
    }
    let format = registry().by_id("aseprite-json").unwrap();
    let failure = format
        .read(json.as_bytes(), &ReadContext::for_path(&path))
        .expect_err("refused");
    failure.diagnostics[0].display_with("bad.json")
}

#[test]
fn bad_input_says_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    // A missing image.
    let message = error_of(dir.path(), HASH_TAGS_SLICES, None);
    assert!(message.starts_with("bad.json:30:3:"), "{message}");
    assert!(message.contains("hero.png"), "{message}");
    // A region outside the sheet: frame 2 moved off the 12x4 sheet.
    let outside = HASH_TAGS_SLICES.replace("\"x\": 8, \"y\": 0", "\"x\": 10, \"y\": 0");
    let message = error_of(dir.path(), &outside, Some(&strip()));
    assert!(message.starts_with("bad.json:19:5:"), "{message}");
    assert!(message.contains("outside the 12x4 sheet"), "{message}");
    // Malformed JSON: a missing comma.
    let broken = HASH_TAGS_SLICES.replace(
        "\"rotated\": false,\n    \"trimmed\"",
        "\"rotated\": false\n    \"trimmed\"",
    );
    let message = error_of(dir.path(), &broken, Some(&strip()));
    assert!(message.starts_with("bad.json:5:5:"), "{message}");
    // A wrong type.
    let typed = HASH_TAGS_SLICES.replacen("\"duration\": 100", "\"duration\": \"slow\"", 1);
    let message = error_of(dir.path(), &typed, Some(&strip()));
    assert!(message.starts_with("bad.json:8:"), "{message}");
}

#[test]
fn arbitrary_bytes_never_panic() {
    let format = registry().by_id("aseprite-json").unwrap();
    let context = ReadContext::default();
    let base = HASH_TAGS_SLICES.as_bytes();
    for cut in (0..base.len()).step_by(7) {
        let _ = format.read(&base[..cut], &context);
        let mut flipped = base.to_vec();
        flipped[cut] ^= 0x5a;
        let _ = format.read(&flipped, &context);
    }
    // Tags past the frames and huge repeats are refused with a warning, not a panic.
    let odd = HASH_TAGS_SLICES
        .replace("\"from\": 1, \"to\": 2", "\"from\": 1, \"to\": 99")
        .replace("\"repeat\": \"1\"", "\"repeat\": \"99999999999\"");
    let loaded = format.read(odd.as_bytes(), &context).unwrap();
    assert!(!loaded.diagnostics.is_empty());
    // A one-frame ping-pong repeated for ever-so-long, and coordinates at the ends of the
    // integer range, neither hang nor overflow.
    let extreme = HASH_TAGS_SLICES
        .replace(
            "{ \"name\": \"bob\", \"from\": 0, \"to\": 2, \"direction\": \"pingpong\"",
            "{ \"name\": \"bob\", \"from\": 1, \"to\": 1, \"repeat\": \"18446744073709551615\", \"direction\": \"pingpong\"",
        )
        .replace("\"x\": 2, \"y\": 0, \"w\": 2, \"h\": 2", "\"x\": 2147483647, \"y\": -2147483648, \"w\": 4294967295, \"h\": 2")
        .replace("\"pivot\": {\"x\": 3, \"y\": 2 }", "\"pivot\": {\"x\": 2147483647, \"y\": -2147483648 }");
    assert_ne!(extreme, HASH_TAGS_SLICES);
    let loaded = format.read(extreme.as_bytes(), &context).unwrap();
    assert!(
        loaded
            .diagnostics
            .iter()
            .any(|d| d.message.contains("repeats"))
    );
}
