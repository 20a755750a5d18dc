//! PNG export of a frame and of a strip, through the real [`ImageStore`] reading a sheet from
//! disk: the whole path the command line takes.
//!
//! The strip is compared with `tests/golden/render/strip_*.png`; regenerate with
//! `UPDATE_GOLDEN=1 cargo test --no-default-features --test export_png` and look at the result.

mod common;

use image::{Rgba, RgbaImage};
use sprat::assets::ImageStore;
use sprat::export::{ExportError, encode_png, frame_image, strip_image};
use sprat::model::*;
use sprat::render::{Background, CanvasBounds, Overlay, RenderOptions};
use std::path::{Path, PathBuf};

/// A scratch folder (its path, and the guard that removes it when dropped).
struct Scratch(PathBuf, #[allow(dead_code)] tempfile::TempDir);

impl Scratch {
    fn new(_name: &str) -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        Scratch(dir.path().to_path_buf(), dir)
    }
}

/// A 12×4 sheet of three 4×4 cells: a red, a green and a blue figure, each a square with a
/// darker one-pixel foot row so the cells are easy to tell apart.
fn write_sheet(path: &Path) {
    RgbaImage::from_fn(12, 4, |x, y| {
        let cell = x / 4;
        let mut colour = [[220, 40, 40], [40, 200, 60], [50, 80, 230]][cell as usize];
        if y == 3 {
            colour = colour.map(|c| c / 2);
        }
        if x % 4 == 0 && y == 0 {
            Rgba([0, 0, 0, 0])
        } else {
            Rgba([colour[0], colour[1], colour[2], 255])
        }
    })
    .save(path)
    .unwrap();
}

/// A walk of three frames: the three cells, moving right one pixel per frame, each with a hurt
/// box; the last one with a hit box and a weapon point.
fn walk(sheet: PathBuf) -> (AnimationSet, SequenceId) {
    let mut set = AnimationSet::new();
    let image = ImageId(set.alloc_id());
    set.images.push(SourceImage {
        id: image,
        path: "sheet.png".into(),
        resolved: Some(sheet),
        kind: ImageKind::File,
        nearest_neighbour: true,
    });
    let mut frames = Vec::new();
    for i in 0..3 {
        let slice = SliceId(set.alloc_id());
        set.slices.push(Slice {
            id: slice,
            image,
            rect: PixelRect {
                x: 4 * i,
                y: 0,
                width: 4,
                height: 4,
            },
            rotated: false,
        });
        let mut frame = Frame::new(FrameDuration::Millis(100));
        let mut kinds = vec![
            ElementKind::Graphic(Graphic::new(
                GraphicSource::Slice(slice),
                Point::from_ints(i, 0),
                Origin::At(Point::from_ints(2, 4)),
            )),
            ElementKind::Box(CollisionBox::rect_from_corners(
                BoxClass::Hurt,
                Point::from_ints(i - 2, -4),
                Point::from_ints(i + 2, 0),
            )),
        ];
        if i == 2 {
            kinds.push(ElementKind::Box(CollisionBox::rect_from_corners(
                BoxClass::Hit,
                Point::from_ints(3, -3),
                Point::from_ints(6, -1),
            )));
            kinds.push(ElementKind::Point(AttachmentPoint::at(Point::from_ints(
                5, -2,
            ))));
        }
        for kind in kinds {
            let id = ElementId(set.alloc_id());
            frame.elements.push(Element {
                id,
                name: Name::default(),
                kind,
            });
        }
        let id = FrameId(set.alloc_id());
        set.frames.insert(id, frame);
        frames.push(id);
    }
    let id = SequenceId(set.alloc_id());
    let mut sequence = Sequence::new(id, "walk", DirectionId(set.alloc_id()));
    sequence.directions[0].frames = frames;
    set.root.items.push(TreeItem::Sequence(sequence));
    (set, id)
}

#[test]
fn one_frame_is_its_slice_at_its_place() {
    let scratch = Scratch::new("frame");
    let sheet = scratch.0.join("sheet.png");
    write_sheet(&sheet);
    let (set, id) = walk(sheet.clone());
    let store = ImageStore::new();
    let image = frame_image(&set, id, 0, 1, &store, &RenderOptions::default()).unwrap();
    let expected =
        image::imageops::crop_imm(&image::open(&sheet).unwrap().into_rgba8(), 4, 0, 4, 4)
            .to_image();
    assert_eq!(image, expected);
}

#[test]
fn the_png_bytes_decode_to_the_same_picture() {
    let scratch = Scratch::new("bytes");
    let sheet = scratch.0.join("sheet.png");
    write_sheet(&sheet);
    let (set, id) = walk(sheet);
    let options = RenderOptions {
        scale: 3,
        overlay: Overlay::ALL,
        ..RenderOptions::default()
    };
    let image = frame_image(&set, id, 0, 2, &ImageStore::new(), &options).unwrap();
    let bytes = encode_png(&image).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"));
    assert_eq!(image::load_from_memory(&bytes).unwrap().into_rgba8(), image);
}

#[test]
fn a_strip_puts_every_frame_on_the_same_canvas_side_by_side() {
    let scratch = Scratch::new("strip");
    let sheet = scratch.0.join("sheet.png");
    write_sheet(&sheet);
    let (set, id) = walk(sheet);
    let store = ImageStore::new();
    let plain = strip_image(&set, id, 0, None, &store, &RenderOptions::default()).unwrap();
    // The union of the frames: x from -2 to 4, y from -4 to 0; three cells of 6 × 4.
    assert_eq!(plain.dimensions(), (18, 4));
    // Each frame moved one pixel right within its cell.
    assert_eq!(plain.get_pixel(1, 1).0, [220, 40, 40, 255]);
    assert_eq!(plain.get_pixel(6 + 2, 1).0, [40, 200, 60, 255]);
    assert_eq!(plain.get_pixel(12 + 3, 1).0, [50, 80, 230, 255]);
    check_golden("strip_plain", &plain);
    let options = RenderOptions {
        scale: 4,
        background: Background::Colour([30, 30, 30, 255]),
        bounds: CanvasBounds::FitWithMargin(1),
        overlay: Overlay::ALL,
        ..RenderOptions::default()
    };
    let overlay = strip_image(&set, id, 0, None, &store, &options).unwrap();
    check_golden("strip_overlay", &overlay);
}

#[test]
fn a_strip_wraps_into_the_columns_asked_for() {
    let scratch = Scratch::new("columns");
    let sheet = scratch.0.join("sheet.png");
    write_sheet(&sheet);
    let (set, id) = walk(sheet);
    let store = ImageStore::new();
    let grid = strip_image(&set, id, 0, Some(2), &store, &RenderOptions::default()).unwrap();
    assert_eq!(grid.dimensions(), (12, 8));
    // The third frame starts the second row.
    assert_eq!(grid.get_pixel(3, 4 + 1).0, [50, 80, 230, 255]);
    // Zero columns count as one.
    let column = strip_image(&set, id, 0, Some(0), &store, &RenderOptions::default()).unwrap();
    assert_eq!(column.dimensions(), (6, 12));
}

#[test]
fn a_missing_sheet_still_exports_the_overlay() {
    let scratch = Scratch::new("missing");
    let (set, id) = walk(scratch.0.join("gone.png"));
    let options = RenderOptions {
        overlay: Overlay::ALL,
        ..RenderOptions::default()
    };
    let image = frame_image(&set, id, 0, 0, &ImageStore::new(), &options).unwrap();
    assert!(image.pixels().any(|p| p.0[3] == 255));
}

#[test]
fn bad_indices_are_errors() {
    let scratch = Scratch::new("errors");
    let (set, id) = walk(scratch.0.join("sheet.png"));
    let store = ImageStore::new();
    let options = RenderOptions::default();
    assert_eq!(
        frame_image(&set, id, 0, 3, &store, &options),
        Err(ExportError::NoFrame(3))
    );
    assert_eq!(
        frame_image(&set, id, 1, 0, &store, &options),
        Err(ExportError::NoDirection(1))
    );
    assert_eq!(
        strip_image(&set, SequenceId(999), 0, None, &store, &options),
        Err(ExportError::NoSequence(SequenceId(999)))
    );
}

/// Compares `actual` with its golden image (see `common::check_golden`).
fn check_golden(name: &str, actual: &RgbaImage) {
    common::check_golden("render", name, actual);
}

/// The export job (what the editor's Export window runs) over the walk with a second
/// direction and a second sequence.
mod job {
    use super::*;
    use sprat::export::job::{ExportKind, ExportRequest, plan, run};
    use sprat::formats::atlas::{AtlasOptions, ExportProgress};

    fn two_sequences(sheet: PathBuf) -> (AnimationSet, SequenceId) {
        let (mut set, walk) = walk(sheet);
        let frames = set.sequence(walk).unwrap().directions[0].frames.clone();
        let run = SequenceId(set.alloc_id());
        let mut sequence = Sequence::new(run, "run fast", DirectionId(set.alloc_id()));
        sequence.directions[0].frames = frames.clone();
        let mut left = sequence.directions[0].clone();
        left.id = DirectionId(set.alloc_id());
        left.name = Some("left".into());
        left.frames = frames[..2].to_vec();
        sequence.directions.push(left);
        set.root.items.push(TreeItem::Sequence(sequence));
        (set, run)
    }

    fn request(kind: ExportKind, only: Option<SequenceId>, target: PathBuf) -> ExportRequest {
        ExportRequest {
            kind,
            only,
            target,
            scale: 1,
            background: None,
            overlay: false,
            atlas: AtlasOptions::default(),
        }
    }

    fn names(files: &[PathBuf]) -> Vec<String> {
        files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn files_are_named_after_the_target_the_sequence_and_the_direction() {
        let scratch = Scratch::new("names");
        let (set, run_fast) = two_sequences(scratch.0.join("sheet.png"));
        let out = scratch.0.join("out.gif");
        let all = plan(&set, &request(ExportKind::Gif, None, out.clone())).unwrap();
        assert_eq!(
            names(&all),
            [
                "out_walk.gif",
                "out_run_fast_0.gif",
                "out_run_fast_left.gif"
            ]
        );
        let one = plan(&set, &request(ExportKind::Gif, Some(run_fast), out.clone())).unwrap();
        assert_eq!(names(&one), ["out_0.gif", "out_left.gif"]);
        let frames = plan(&set, &request(ExportKind::Frames, Some(run_fast), out)).unwrap();
        assert_eq!(
            names(&frames),
            [
                "out_0_0.gif",
                "out_0_1.gif",
                "out_0_2.gif",
                "out_left_0.gif",
                "out_left_1.gif"
            ]
            .map(|n| n.replace(".gif", ".png"))
        );
    }

    #[test]
    fn every_planned_file_is_written_and_counted() {
        let scratch = Scratch::new("written");
        let sheet = scratch.0.join("sheet.png");
        write_sheet(&sheet);
        let (set, _) = two_sequences(sheet.clone());
        let store = ImageStore::new();
        let wanted = request(ExportKind::Frames, None, scratch.0.join("f.png"));
        let progress = ExportProgress::default();
        let done = run(&set, &store, &wanted, &progress, &[sheet]).unwrap();
        assert_eq!(done.files, plan(&set, &wanted).unwrap());
        assert_eq!(done.files.len(), 3 + 3 + 2);
        assert_eq!(progress.done.load(std::sync::atomic::Ordering::Relaxed), 8);
        // The frames of one direction share one canvas, so they line up when played.
        let sizes: Vec<(u32, u32)> = done.files[..3]
            .iter()
            .map(|f| image::open(f).unwrap().to_rgba8().dimensions())
            .collect();
        assert!(sizes.windows(2).all(|w| w[0] == w[1]), "{sizes:?}");
    }

    #[test]
    fn a_cancelled_export_writes_nothing() {
        let scratch = Scratch::new("cancel");
        let sheet = scratch.0.join("sheet.png");
        write_sheet(&sheet);
        let (set, _) = two_sequences(sheet);
        let store = ImageStore::new();
        for kind in ExportKind::ALL {
            let progress = ExportProgress::default();
            progress
                .cancel
                .store(true, std::sync::atomic::Ordering::Relaxed);
            let target = scratch.0.join(format!("x.{}", kind.extension()));
            let failed = run(&set, &store, &request(kind, None, target), &progress, &[]);
            assert!(
                failed.is_err_and(|e| e.contains("cancelled")),
                "{kind:?} was not cancelled"
            );
        }
        let left: Vec<_> = std::fs::read_dir(&scratch.0).unwrap().collect();
        assert_eq!(left.len(), 1, "only the sheet: {left:?}");
    }

    #[test]
    fn an_export_never_replaces_a_file_the_document_reads() {
        let scratch = Scratch::new("keep");
        let sheet = scratch.0.join("sheet.png");
        write_sheet(&sheet);
        let before = std::fs::read(&sheet).unwrap();
        let (set, walk) = walk(sheet.clone());
        let store = ImageStore::new();
        let wanted = request(ExportKind::Strip, Some(walk), sheet.clone());
        let refused = run(
            &set,
            &store,
            &wanted,
            &ExportProgress::default(),
            std::slice::from_ref(&sheet),
        );
        assert!(refused.is_err_and(|e| e.contains("which the document reads")));
        assert_eq!(std::fs::read(&sheet).unwrap(), before);
    }
}
