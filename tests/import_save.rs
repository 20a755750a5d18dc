//! Where imported pixels go on save: frames imported from PNG files and from a sheet cut by a
//! grid (pixels held in memory) are written by each format that takes them — a Sprat project
//! to its `images/` folder, ISPRITE into its packed sheets, Solarus onto a grid sheet under
//! `sprites/`, a M.U.G.E.N character into its SFF — and read back, every frame renders the
//! same pixels.

use image::{Rgba, RgbaImage};
use sprat::assets::ImageStore;
use sprat::edit::import::{ImportFrames, ImportTarget, ImportedImage, OriginPlace};
use sprat::edit::{History, Selection};
use sprat::export::frame_image;
use sprat::formats::{ReadContext, WriteContext, registry};
use sprat::model::{AnimationSet, FrameDuration, MemoryImage, PixelRect};
use sprat::render::{CanvasBounds, RenderOptions, SpriteRect};
use std::path::Path;

/// A 12 × 16 figure whose colours tell `seed` apart, with a transparent corner.
fn figure(seed: u8) -> RgbaImage {
    RgbaImage::from_fn(12, 16, |x, y| {
        if x < 2 && y < 2 {
            Rgba([0, 0, 0, 0])
        } else {
            Rgba([seed.wrapping_mul(40), (x * 20) as u8, (y * 15) as u8, 255])
        }
    })
}

/// A document with "run" from three pictures and "slash" cut from a 3-cell sheet.
fn imported() -> AnimationSet {
    let mut document = AnimationSet::new();
    let mut history = History::new();
    let pictures = ImportFrames {
        images: (1..=3)
            .map(|i| ImportedImage {
                name: format!("run_{i}.png"),
                source: None,
                pixels: MemoryImage::new(figure(i)),
            })
            .collect(),
        cells: vec![(0, None), (1, None), (2, None)],
        origin: OriginPlace::BottomCentre,
        duration: FrameDuration::Millis(100),
        target: ImportTarget::NewSequence("run".into()),
    };
    history
        .apply(&mut document, &Selection::default(), &pictures, None)
        .unwrap();
    let mut sheet = RgbaImage::new(36, 16);
    for cell in 0..3u8 {
        image::imageops::replace(&mut sheet, &figure(cell + 5), cell as i64 * 12, 0);
    }
    let cells = (0..3)
        .map(|c| {
            (
                0,
                Some(PixelRect {
                    x: c * 12,
                    y: 0,
                    width: 12,
                    height: 16,
                }),
            )
        })
        .collect();
    let sheet_cut = ImportFrames {
        images: vec![ImportedImage {
            name: "slash.png".into(),
            source: None,
            pixels: MemoryImage::new(sheet),
        }],
        cells,
        origin: OriginPlace::BottomCentre,
        duration: FrameDuration::Millis(100),
        target: ImportTarget::NewSequence("slash".into()),
    };
    history
        .apply(&mut document, &Selection::default(), &sheet_cut, None)
        .unwrap();
    document
}

fn save(document: &AnimationSet, format: &str, path: &Path) {
    let store = ImageStore::new();
    let context = WriteContext {
        path: Some(path.to_path_buf()),
        pixels: Some(&store),
    };
    let written = registry()
        .by_id(format)
        .unwrap()
        .write(document, &context)
        .unwrap_or_else(|e| panic!("{format}: {e}"));
    assert!(
        written.losses.is_empty(),
        "{format} loses: {:?}",
        written.losses
    );
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    sprat::export::save_written(path, &written).unwrap();
}

/// Every frame of the sequences `names`, each drawn on the same canvas around the origin (a
/// padded frame is larger but draws the same pixels).
fn render_all(document: &AnimationSet, names: &[&str]) -> Vec<RgbaImage> {
    let store = ImageStore::new();
    let on_one_canvas = RenderOptions {
        bounds: CanvasBounds::Fixed(SpriteRect {
            x: -32,
            y: -48,
            width: 64,
            height: 64,
        }),
        ..RenderOptions::default()
    };
    let mut out = Vec::new();
    for name in names {
        let sequence = document.sequence_by_name(name).unwrap();
        for index in 0..sequence.directions[0].frames.len() {
            out.push(frame_image(document, sequence.id, 0, index, &store, &on_one_canvas).unwrap());
        }
    }
    out
}

#[test]
fn every_format_that_names_images_writes_the_imported_pixels_and_reads_them_back() {
    let document = imported();
    let expected = render_all(&document, &["run", "slash"]);
    assert_eq!(expected.len(), 6);
    let dir = tempfile::tempdir().unwrap();
    for (format, path) in [
        ("sprat", dir.path().join("hero.sprat")),
        ("isprite", dir.path().join("hero.isprite")),
        ("solarus-lua", dir.path().join("data/sprites/hero.dat")),
    ] {
        save(&document, format, &path);
        let (loaded, _) = registry()
            .open(&path, &ReadContext::default())
            .unwrap_or_else(|f| panic!("{format}: {:?}", f.diagnostics));
        assert_eq!(
            render_all(&loaded.document, &["run", "slash"]),
            expected,
            "{format} renders other pixels"
        );
    }
    // The project keeps one PNG per picture beside it.
    for name in ["run_1.png", "run_2.png", "run_3.png", "slash.png"] {
        assert!(dir.path().join("images").join(name).is_file(), "{name}");
    }
}

#[test]
fn a_mugen_character_takes_the_imported_pixels_into_its_sff() {
    let document = imported();
    let expected = render_all(&document, &["run", "slash"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hero.def");
    let store = ImageStore::new();
    let context = WriteContext {
        path: Some(path.clone()),
        pixels: Some(&store),
    };
    let written = registry()
        .by_id("mugen-def")
        .unwrap()
        .write(&document, &context)
        .unwrap();
    // Only the names go: AIR numbers its actions.
    assert!(
        written
            .losses
            .iter()
            .all(|l| l.what.starts_with("the name")),
        "{:?}",
        written.losses
    );
    sprat::export::save_written(&path, &written).unwrap();
    assert!(dir.path().join("hero.sff").is_file());
    let (loaded, _) = registry().open(&path, &ReadContext::default()).unwrap();
    assert_eq!(render_all(&loaded.document, &["0", "1"]), expected);
}

#[test]
fn frames_of_several_sizes_are_padded_to_one_solarus_cell_and_look_the_same() {
    let mut document = AnimationSet::new();
    let mut history = History::new();
    let sizes = [(12u32, 16u32), (20, 10), (8, 24)];
    let command = ImportFrames {
        images: sizes
            .iter()
            .enumerate()
            .map(|(i, (w, h))| ImportedImage {
                name: format!("hop_{i}.png"),
                source: None,
                pixels: MemoryImage::new(RgbaImage::from_fn(*w, *h, |x, y| {
                    Rgba([40 * i as u8 + 60, (x * 9) as u8, (y * 7) as u8, 255])
                })),
            })
            .collect(),
        cells: vec![(0, None), (1, None), (2, None)],
        origin: OriginPlace::BottomCentre,
        duration: FrameDuration::Millis(100),
        target: ImportTarget::NewSequence("hop".into()),
    };
    history
        .apply(&mut document, &Selection::default(), &command, None)
        .unwrap();
    let expected = render_all(&document, &["hop"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data/sprites/hop.dat");
    let store = ImageStore::new();
    let context = WriteContext {
        path: Some(path.clone()),
        pixels: Some(&store),
    };
    let written = registry()
        .by_id("solarus-lua")
        .unwrap()
        .write(&document, &context)
        .unwrap();
    assert_eq!(written.losses.len(), 1, "{:?}", written.losses);
    assert!(
        written.losses[0].what.contains("padded to 20x24"),
        "{}",
        written.losses[0]
    );
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    sprat::export::save_written(&path, &written).unwrap();
    let (loaded, _) = registry().open(&path, &ReadContext::default()).unwrap();
    // Compared one by one: a failure names the frame, not two pictures' worth of bytes.
    let actual = render_all(&loaded.document, &["hop"]);
    for (i, (a, b)) in actual.iter().zip(&expected).enumerate() {
        assert!(a == b, "frame {i} draws other pixels after padding");
    }
}

#[test]
fn an_imported_picture_redrawn_in_another_program_is_read_again_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("idle_1.png");
    RgbaImage::from_pixel(6, 6, Rgba([255, 0, 0, 255]))
        .save(&file)
        .unwrap();
    let mut session = sprat::session::Session::with_document(
        AnimationSet::new(),
        registry().by_id("sprat").unwrap(),
        None,
    );
    let import = ImportFrames {
        images: vec![ImportedImage {
            name: "idle_1.png".into(),
            source: Some(file.clone()),
            pixels: MemoryImage::new(image::open(&file).unwrap().to_rgba8()),
        }],
        cells: vec![(0, None)],
        origin: OriginPlace::BottomCentre,
        duration: FrameDuration::Millis(100),
        target: ImportTarget::NewSequence("idle".into()),
    };
    session.apply(&import, None).unwrap();
    assert!(
        session.watched_stamps().iter().any(|(p, _)| *p == file),
        "the file is watched"
    );
    RgbaImage::from_pixel(6, 6, Rgba([0, 0, 255, 255]))
        .save(&file)
        .unwrap();
    assert!(session.refresh_imported(&file));
    let sprat::model::ImageKind::Memory(pixels) = &session.document().images[0].kind else {
        panic!("held in memory");
    };
    assert_eq!(pixels.0.get_pixel(0, 0).0, [0, 0, 255, 255]);
    assert!(!session.refresh_imported(&dir.path().join("other.png")));
}
