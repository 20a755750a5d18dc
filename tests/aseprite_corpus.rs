//! Every Aseprite file of the corpus opens; every frame EXPECTED.md lists renders exactly as its
//! reference image; and converting each file to a Sprat project, ISPRITE and Solarus gives
//! documents whose every frame renders the same pixels again.

mod common;

use image::RgbaImage;
use sprat::assets::ImageStore;
use sprat::formats::{ReadContext, WriteContext, registry};
use sprat::model::{AnimationSet, DefaultBoxRule};
use sprat::render::{CanvasBounds, RenderOptions, Scene, SpriteRect, render};
use std::path::{Path, PathBuf};

fn folder() -> PathBuf {
    common::corpus().join("aseprite")
}

fn open(path: &Path) -> AnimationSet {
    match registry().open(path, &ReadContext::default()) {
        Ok((loaded, format)) => {
            assert_eq!(format.id(), "aseprite", "{}", path.display());
            loaded.document
        }
        Err(failure) => panic!("{}: {:?}", path.display(), failure.diagnostics),
    }
}

/// Renders `scene` over exactly the canvas `width` x `height` at the sprite origin.
fn draw(document: &AnimationSet, scene: &Scene, store: &ImageStore, size: (u32, u32)) -> RgbaImage {
    let options = RenderOptions {
        bounds: CanvasBounds::Fixed(SpriteRect {
            x: 0,
            y: 0,
            width: size.0,
            height: size.1,
        }),
        ..RenderOptions::default()
    };
    render(document, scene, store, &options)
}

/// A fully transparent pixel has no colour: whatever RGB a file stores under alpha 0 is not
/// compared.
fn normalised(mut image: RgbaImage) -> RgbaImage {
    for pixel in image.pixels_mut() {
        if pixel.0[3] == 0 {
            pixel.0 = [0; 4];
        }
    }
    image
}

fn assert_same(expected: &RgbaImage, actual: &RgbaImage, what: &str) {
    assert_eq!(expected.dimensions(), actual.dimensions(), "{what}: size");
    let differing: Vec<_> = expected
        .enumerate_pixels()
        .filter(|(x, y, p)| actual.get_pixel(*x, *y) != *p)
        .take(5)
        .map(|(x, y, p)| {
            format!(
                "({x},{y}) expected {:?} got {:?}",
                p.0,
                actual.get_pixel(x, y).0
            )
        })
        .collect();
    assert!(differing.is_empty(), "{what}: pixels differ: {differing:?}");
}

/// The rows of EXPECTED.md: reference image, Aseprite file, frame index.
fn expected_frames() -> Vec<(String, String, usize)> {
    let text = std::fs::read_to_string(folder().join("EXPECTED.md")).unwrap();
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line
                .trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect();
            match cells.as_slice() {
                [png, file, frame] if png.ends_with(".png") => {
                    Some((png.to_string(), file.to_string(), frame.parse().ok()?))
                }
                _ => None,
            }
        })
        .collect()
}

fn canvas_size(document: &AnimationSet) -> (u32, u32) {
    let store = ImageStore::new();
    let (_, frame) = document.frames.get_index(0).unwrap();
    let graphic = frame.elements.iter().find_map(|e| e.as_graphic()).unwrap();
    let pixels = sprat::pixels::PixelSource::pixels(&store, document, &graphic.source).unwrap();
    pixels.image.dimensions()
}

#[test]
fn every_aseprite_file_opens() {
    let files = common::files_with_extensions(&folder(), &["aseprite", "ase"]);
    assert!(files.len() >= 30, "found only {} files", files.len());
    for path in files {
        let document = open(&path);
        assert!(!document.frames.is_empty(), "{}", path.display());
        assert!(!document.sequences().is_empty(), "{}", path.display());
    }
}

/// Reference images exported by Aseprite before 1.3.15, whose Saturation blend mode was wrong
/// where two channels of the backdrop are equal; we draw as Aseprite draws today. The test
/// `aseprite_compose` checks these frames pixel by pixel (the same everywhere but where the
/// fix applies).
const PREDATES_SATURATION_FIX: [&str; 1] = ["blend_saturation_bug.png"];

#[test]
fn listed_frames_render_as_their_reference_images() {
    let rows = expected_frames();
    assert_eq!(rows.len(), 22, "EXPECTED.md rows");
    for (png, file, index) in rows {
        if PREDATES_SATURATION_FIX.contains(&png.as_str()) {
            continue;
        }
        let document = open(&folder().join(&file));
        let (_, frame) = document
            .frames
            .get_index(index)
            .unwrap_or_else(|| panic!("{file} has no frame {index}"));
        let expected = normalised(image::open(folder().join(&png)).unwrap().into_rgba8());
        let store = ImageStore::new();
        let actual = draw(
            &document,
            &Scene::of_frame(frame),
            &store,
            expected.dimensions(),
        );
        assert_same(
            &expected,
            &normalised(actual),
            &format!("{file} frame {index} vs {png}"),
        );
    }
}

/// Writes `document` as `format` to `path` with its companion files, as `sprat convert` does.
fn convert(document: &AnimationSet, format: &str, path: &Path) {
    let store = ImageStore::new();
    let context = WriteContext {
        path: Some(path.to_path_buf()),
        pixels: Some(&store),
    };
    let format = registry().by_id(format).unwrap();
    let written = format
        .write(document, &context)
        .unwrap_or_else(|e| panic!("{} as {}: {e}", path.display(), format.id()));
    let dir = path.parent().unwrap();
    std::fs::create_dir_all(dir).unwrap();
    for companion in &written.companions {
        let target = dir.join(&companion.relative_path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, &companion.bytes).unwrap();
    }
    std::fs::write(path, &written.bytes).unwrap();
}

/// Every frame of every sequence of `original` renders the same in `converted`.
fn assert_renders_alike(original: &AnimationSet, converted: &AnimationSet, what: &str) {
    let size = canvas_size(original);
    let (a_store, b_store) = (ImageStore::new(), ImageStore::new());
    let rule = DefaultBoxRule::default();
    for sequence in original.sequences() {
        let twin = converted
            .sequences()
            .into_iter()
            .find(|s| s.name == sequence.name)
            .unwrap_or_else(|| panic!("{what}: sequence {} is missing", sequence.name));
        assert_eq!(
            twin.max_frames(),
            sequence.max_frames(),
            "{what}: {}",
            sequence.name
        );
        for index in 0..sequence.max_frames() {
            let a = Scene::at(original, sequence.id, 0, index, rule).unwrap();
            let b = Scene::at(converted, twin.id, 0, index, rule).unwrap();
            let expected = normalised(draw(original, &a, &a_store, size));
            let actual = normalised(draw(converted, &b, &b_store, size));
            assert_same(
                &expected,
                &actual,
                &format!("{what}: {} frame {index}", sequence.name),
            );
        }
    }
}

#[test]
fn conversions_render_the_same_pixels() {
    let files = common::files_with_extensions(&folder(), &["aseprite", "ase"]);
    for path in files {
        let original = open(&path);
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = tempfile::tempdir().unwrap();
        let targets = [
            ("sprat", dir.path().join(format!("{stem}.sprat"))),
            ("isprite", dir.path().join(format!("{stem}.isprite"))),
            (
                "solarus-lua",
                dir.path().join(format!("data/sprites/{stem}.dat")),
            ),
        ];
        for (format, target) in targets {
            convert(&original, format, &target);
            let (loaded, _) = registry()
                .open(&target, &ReadContext::default())
                .unwrap_or_else(|f| panic!("{}: {:?}", target.display(), f.diagnostics));
            let what = format!("{stem} as {format}");
            assert_renders_alike(&original, &loaded.document, &what);
        }
    }
}

/// The import choice "one graphic per layer": each visible layer's cel is a graphic named
/// after its layer, and where every layer blends normally the frames draw as Aseprite shows
/// them.
#[test]
fn one_graphic_per_layer_draws_the_same_frames() {
    let context = ReadContext {
        path: None,
        options: sprat::formats::ReadOptions {
            aseprite_layers: true,
            ..Default::default()
        },
    };
    let store = ImageStore::new();
    for (png, file, frame) in [
        ("layers_and_tags_01.png", "layers_and_tags.aseprite", 0),
        ("layers_and_tags_03.png", "layers_and_tags.aseprite", 2),
        ("linked_cels_02.png", "linked_cels.aseprite", 1),
        ("blend_normal.png", "blend_normal.aseprite", 0),
    ] {
        let bytes = std::fs::read(folder().join(file)).unwrap();
        let document = registry()
            .by_id("aseprite")
            .unwrap()
            .read(&bytes, &context)
            .unwrap()
            .document;
        let id = *document.frames.get_index(frame).unwrap().0;
        let shown = &document.frames[&id];
        assert!(
            shown.elements.iter().all(|e| !e.name.is_empty()),
            "{file}: each graphic is named after its layer"
        );
        let sequence = document
            .sequences()
            .into_iter()
            .find(|s| s.directions[0].frames.contains(&id))
            .unwrap();
        let index = sequence.directions[0]
            .frames
            .iter()
            .position(|f| *f == id)
            .unwrap();
        let scene = Scene::at(&document, sequence.id, 0, index, DefaultBoxRule::default()).unwrap();
        let expected = normalised(image::open(folder().join(png)).unwrap().to_rgba8());
        let actual = normalised(draw(&document, &scene, &store, expected.dimensions()));
        // Translucent layers are blended by Sprat's renderer, not Aseprite's: the two round
        // differently, by one step of a colour multiplied by its alpha, which is up to 255 /
        // alpha steps of the colour itself (opaque layers come out exact).
        assert_eq!(expected.dimensions(), actual.dimensions(), "{file}: size");
        let off: Vec<_> = expected
            .enumerate_pixels()
            .filter(|(x, y, p)| {
                let q = actual.get_pixel(*x, *y);
                let step = 1 + 255 / i32::from(p.0[3].max(1));
                (0..3).any(|c| (p.0[c] as i32 - q.0[c] as i32).abs() > step)
                    || (p.0[3] as i32 - q.0[3] as i32).abs() > 1
            })
            .take(5)
            .map(|(x, y, p)| format!("({x},{y}) {:?} vs {:?}", p.0, actual.get_pixel(x, y).0))
            .collect();
        assert!(off.is_empty(), "{file} frame {frame}, per layer: {off:?}");
    }
}
