//! The store against real files in a scratch folder.

use super::*;
use crate::model::*;
use image::Rgba;

/// A scratch folder removed when dropped (by its `tempfile` guard).
struct Scratch(PathBuf, #[allow(dead_code)] tempfile::TempDir);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let guard = tempfile::Builder::new()
            .prefix(&format!("sprat-assets-{name}-"))
            .tempdir()
            .unwrap();
        Scratch(guard.path().to_path_buf(), guard)
    }
}

/// A 4×2 sheet: pixel (x, y) has red = x, green = y.
fn write_sheet(path: &Path, blue: u8) {
    RgbaImage::from_fn(4, 2, |x, y| Rgba([x as u8, y as u8, blue, 255]))
        .save(path)
        .unwrap();
}

fn document_with(kind: ImageKind, resolved: Option<PathBuf>) -> AnimationSet {
    let mut set = AnimationSet::new();
    set.images.push(SourceImage {
        id: ImageId(1),
        path: "sheet.png".into(),
        resolved,
        kind,
        nearest_neighbour: true,
    });
    set.slices.push(Slice {
        id: SliceId(2),
        image: ImageId(1),
        rect: PixelRect {
            x: 1,
            y: 0,
            width: 2,
            height: 2,
        },
        rotated: false,
    });
    set.slices.push(Slice {
        id: SliceId(3),
        image: ImageId(1),
        rect: PixelRect {
            x: 0,
            y: 0,
            width: 2,
            height: 4,
        },
        rotated: true,
    });
    set
}

#[test]
fn the_store_can_be_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<ImageStore>();
}

#[test]
fn slices_whole_images_and_rotated_slices_come_from_the_resolved_file() {
    let scratch = Scratch::new("slices");
    let path = scratch.0.join("sheet.png");
    write_sheet(&path, 0);
    let set = document_with(ImageKind::File, Some(path));
    let store = ImageStore::new();
    let slice = store
        .pixels(&set, &GraphicSource::Slice(SliceId(2)))
        .unwrap();
    assert_eq!(slice.image.dimensions(), (2, 2));
    assert_eq!(slice.image.get_pixel(0, 1).0, [1, 1, 0, 255]);
    assert_eq!(slice.axis, (0, 0));
    let whole = store
        .pixels(&set, &GraphicSource::Image(ImageId(1)))
        .unwrap();
    assert_eq!(whole.image.dimensions(), (4, 2));
    let rotated = store
        .pixels(&set, &GraphicSource::Slice(SliceId(3)))
        .unwrap();
    assert_eq!(rotated.image.dimensions(), (2, 4));
    // Displayed top-left is the stored top-right.
    assert_eq!(rotated.image.get_pixel(0, 0).0, [3, 0, 0, 255]);
}

#[test]
fn the_solarus_tileset_uses_the_chosen_image_and_nothing_without_one() {
    let scratch = Scratch::new("tileset");
    let path = scratch.0.join("tileset.entities.png");
    write_sheet(&path, 0);
    let store = ImageStore::new();
    let unchosen = document_with(ImageKind::SolarusTileset { chosen: None }, None);
    assert!(
        store
            .pixels(&unchosen, &GraphicSource::Slice(SliceId(2)))
            .is_none()
    );
    let chosen = document_with(ImageKind::SolarusTileset { chosen: Some(path) }, None);
    assert!(
        store
            .pixels(&chosen, &GraphicSource::Slice(SliceId(2)))
            .is_some()
    );
}

#[test]
fn a_missing_file_is_reported_and_nothing_is_drawn() {
    let scratch = Scratch::new("missing");
    let set = document_with(ImageKind::File, Some(scratch.0.join("nope.png")));
    let store = ImageStore::new();
    assert!(
        store
            .pixels(&set, &GraphicSource::Slice(SliceId(2)))
            .is_none()
    );
    let problem = store
        .problem(&set, &GraphicSource::Slice(SliceId(2)))
        .unwrap();
    assert!(problem.to_string().contains("nope.png"), "{problem}");
}

#[test]
fn invalidate_reloads_a_changed_file() {
    let scratch = Scratch::new("invalidate");
    let path = scratch.0.join("sheet.png");
    write_sheet(&path, 10);
    let set = document_with(ImageKind::File, Some(path.clone()));
    let store = ImageStore::new();
    let source = GraphicSource::Slice(SliceId(2));
    assert_eq!(
        store.pixels(&set, &source).unwrap().image.get_pixel(0, 0).0[2],
        10
    );
    write_sheet(&path, 20);
    // Cached until told.
    assert_eq!(
        store.pixels(&set, &source).unwrap().image.get_pixel(0, 0).0[2],
        10
    );
    let before = store.generation();
    store.invalidate(&path);
    assert_ne!(store.generation(), before);
    assert_eq!(
        store.pixels(&set, &source).unwrap().image.get_pixel(0, 0).0[2],
        20
    );
}

#[test]
fn unknown_ids_and_unresolved_paths_give_nothing() {
    let set = document_with(ImageKind::File, None);
    let store = ImageStore::new();
    assert!(
        store
            .pixels(&set, &GraphicSource::Slice(SliceId(99)))
            .is_none()
    );
    assert!(
        store
            .pixels(&set, &GraphicSource::Image(ImageId(1)))
            .is_none()
    );
}

#[test]
fn decoded_files_past_the_budget_are_forgotten_least_recently_used_first() {
    let scratch = Scratch::new("budget");
    // Each 4x2 sheet is 32 RGBA bytes; the budget holds two.
    let paths: Vec<PathBuf> = (0..4)
        .map(|i| {
            let path = scratch.0.join(format!("sheet{i}.png"));
            write_sheet(&path, i as u8);
            path
        })
        .collect();
    let store = ImageStore::with_budgets(Budgets {
        files: 64,
        cuts: 64,
        sprites: 64,
    });
    store.image(&paths[0]).unwrap();
    store.image(&paths[1]).unwrap();
    store.image(&paths[0]).unwrap(); // 0 is now more recent than 1
    store.image(&paths[2]).unwrap();
    assert_eq!(store.cached_bytes(), 64);
    let kept: Vec<bool> = paths
        .iter()
        .map(|p| {
            lock(&store.files)
                .peek(p.as_path())
                .is_some_and(|cell| cell.get().is_some())
        })
        .collect();
    assert_eq!(kept, [true, false, true, false]);
    // What was forgotten decodes again on demand.
    assert_eq!(store.image(&paths[1]).unwrap().get_pixel(0, 0).0[2], 1);
    assert_eq!(store.cached_bytes(), 64);
}

#[test]
fn an_unlimited_number_of_large_images_stays_within_the_default_budget() {
    let scratch = Scratch::new("large");
    let store = ImageStore::new();
    // 2048x2048 RGBA is 16 MiB; forty of them would be 640 MiB kept without a budget.
    let big = scratch.0.join("big.png");
    RgbaImage::new(2048, 2048).save(&big).unwrap();
    for i in 0..40 {
        let copy = scratch.0.join(format!("big{i}.png"));
        std::fs::copy(&big, &copy).unwrap();
        store.image(&copy).unwrap();
        assert!(store.cached_bytes() <= FILE_BUDGET_BYTES);
    }
}
