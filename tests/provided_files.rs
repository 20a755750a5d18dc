//! Files given without a disk (dropped on the web page) open exactly as the same files on
//! disk: the readers find a `.def`'s `.air`, `.sff` and palettes, a Solarus sprite's sheets
//! and its quest's tilesets, an atlas's PNG, a project's images and an ADL character's body
//! parts among the provided files. Each case provides a real folder under a path that does
//! not exist on disk and compares the document, its diagnostics and every rendered frame with
//! the ones read from disk. And what is too large or too many is refused with a sentence.

mod common;

use image::RgbaImage;
use sprat::assets::ImageStore;
use sprat::formats::input::{
    MAX_PROVIDED_FILES, ProvidedFiles, clear_provided_files, provide_files, refusal_before_reading,
};
use sprat::formats::{ReadContext, WriteContext, registry};
use sprat::model::{AnimationSet, ImageKind, PaletteSource};
use sprat::render::{Overlay, RenderOptions, Scene, render};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// Where the tests provide files: no such folder exists on disk.
const DROPPED: &str = "/nonexistent-dropped";

/// The store of provided files is one for the process: the tests take turns.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    let turn = TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    clear_provided_files();
    turn
}

/// Every file below `folder`, read into memory, provided under `as_folder` at the same
/// relative paths.
fn provide_folder(folder: &Path, as_folder: &Path) -> ProvidedFiles {
    let mut files = Vec::new();
    let mut folders = vec![folder.to_path_buf()];
    while let Some(at) = folders.pop() {
        for entry in std::fs::read_dir(&at).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let relative = path.strip_prefix(folder).unwrap();
                files.push((as_folder.join(relative), std::fs::read(&path).unwrap()));
            }
        }
    }
    let count = files.len();
    let outcome = provide_files(files);
    assert_eq!(outcome.accepted.len(), count, "{:?}", outcome.refused);
    outcome
}

/// The document and diagnostics of the file at `path`, opened through the registry, with
/// every path below `root` written relative to it so the same files in two places compare.
fn open(path: &Path, root: &Path) -> (AnimationSet, String) {
    let (loaded, _) = registry()
        .open(path, &ReadContext::for_path(path))
        .unwrap_or_else(|e| panic!("{}: {:?}", path.display(), e.diagnostics));
    let diagnostics =
        format!("{:?}", loaded.diagnostics).replace(&root.display().to_string(), "<root>");
    (relative_paths(loaded.document, root), diagnostics)
}

fn relative(path: &mut Option<PathBuf>, root: &Path) {
    if let Some(p) = path {
        let inside = p.strip_prefix(root).unwrap_or_else(|_| {
            panic!("{} is not below {}", p.display(), root.display());
        });
        *p = inside.to_path_buf();
    }
}

fn relative_paths(mut document: AnimationSet, root: &Path) -> AnimationSet {
    for image in &mut document.images {
        relative(&mut image.resolved, root);
        match &mut image.kind {
            ImageKind::Sff { palettes, .. } => {
                for palette in palettes {
                    if let PaletteSource::ActFile { resolved, .. } = palette {
                        relative(resolved, root);
                    }
                }
            }
            ImageKind::SolarusTileset { chosen } => relative(chosen, root),
            ImageKind::File | ImageKind::Memory(_) => {}
        }
    }
    for original in document
        .original
        .iter_mut()
        .chain(&mut document.companion_originals)
    {
        relative(&mut original.path, root);
    }
    document
}

/// Every frame of every direction of every sequence, with the overlay, as the renderer draws
/// it from a fresh store.
fn every_frame(document: &AnimationSet) -> Vec<RgbaImage> {
    let store = ImageStore::new();
    let options = RenderOptions {
        overlay: Overlay::ALL,
        ..RenderOptions::default()
    };
    let mut frames = Vec::new();
    for sequence in document.sequences() {
        for (d, direction) in sequence.directions.iter().enumerate() {
            for index in 0..direction.frames.len() {
                let scene = Scene::at(document, sequence.id, d, index, options.box_rule).unwrap();
                frames.push(render(document, &scene, &store, &options));
            }
        }
    }
    frames
}

/// Provides `folder` under [`DROPPED`], opens `file` (relative to it) from there and from
/// disk, and checks both are the same document with the same diagnostics and pixels, every
/// image found. Returns the document.
fn opens_as_on_disk(folder: &Path, file: &str) -> AnimationSet {
    let disk_root = std::fs::canonicalize(folder).unwrap();
    let name = disk_root.file_name().unwrap();
    let dropped_root = Path::new(DROPPED).join(name);
    provide_folder(&disk_root, &dropped_root);
    let (from_disk, disk_diagnostics) = open(&disk_root.join(file), &disk_root);
    let (dropped, dropped_diagnostics) = open(&dropped_root.join(file), &dropped_root);
    assert_eq!(dropped_diagnostics, disk_diagnostics, "{file}");
    assert!(dropped == from_disk, "{file}: the documents differ");
    assert!(
        every_image_found(&dropped),
        "{file}: an image was not found"
    );
    let (disk_frames, dropped_frames) = (every_frame(&from_disk), every_frame(&dropped));
    assert!(!disk_frames.is_empty(), "{file}");
    assert_eq!(dropped_frames.len(), disk_frames.len());
    for (n, (a, b)) in dropped_frames.iter().zip(&disk_frames).enumerate() {
        assert!(a == b, "{file}: frame {n} renders differently");
    }
    from_disk
}

/// Whether every image the document draws from was found (none is left unresolved).
fn every_image_found(document: &AnimationSet) -> bool {
    document.images.iter().all(|i| {
        i.resolved.is_some()
            || matches!(
                i.kind,
                ImageKind::Memory(_) | ImageKind::SolarusTileset { .. }
            )
    })
}

#[test]
fn a_dropped_mugen_character_opens_as_from_its_folder() {
    let _turn = one_at_a_time();
    let kfm = common::corpus().join("mugen/kfm");
    let document = opens_as_on_disk(&kfm, "kfm.def");
    assert!(document.sequences().len() > 50);
    // An `.air` alone finds the `.def` naming it by listing its folder.
    opens_as_on_disk(&kfm, "kfm.air");
}

#[test]
fn a_dropped_solarus_quest_finds_sheets_and_tilesets() {
    let _turn = one_at_a_time();
    let quest = common::corpus().join("solarus/lua-1.x/zsdx");
    opens_as_on_disk(&quest, "sprites/hero/tunic1.dat");
    opens_as_on_disk(&quest, "sprites/entities/door_normal.dat");
    let dropped = Path::new(DROPPED).join("zsdx");
    let candidates = sprat::formats::solarus::tileset_candidates(
        &dropped.join("sprites/entities/door_normal.dat"),
    );
    let on_disk = sprat::formats::solarus::tileset_candidates(
        &std::fs::canonicalize(&quest)
            .unwrap()
            .join("sprites/entities/door_normal.dat"),
    );
    assert!(!candidates.is_empty());
    let names = |paths: &[PathBuf]| -> Vec<String> {
        let names = paths
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned());
        names.collect()
    };
    assert_eq!(names(&candidates), names(&on_disk));
    assert!(candidates.iter().all(|c| c.starts_with(&dropped)));
}

#[test]
fn a_dropped_aseprite_file_opens_as_from_disk() {
    let _turn = one_at_a_time();
    let folder = tempfile::tempdir().unwrap();
    let file = "layers_and_tags.aseprite";
    std::fs::copy(
        common::corpus().join("aseprite").join(file),
        folder.path().join(file),
    )
    .unwrap();
    opens_as_on_disk(folder.path(), file);
}

#[test]
fn a_dropped_project_finds_its_images() {
    let _turn = one_at_a_time();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    opens_as_on_disk(&demo, "demo.sprat");
}

#[test]
fn a_dropped_atlas_finds_its_sheet() {
    let _turn = one_at_a_time();
    // An atlas as Sprat (and Aseprite) writes it: the demo as JSON beside its PNG sheet.
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    let (loaded, _) = registry()
        .open(&demo, &ReadContext::for_path(&demo))
        .unwrap();
    let folder = tempfile::tempdir().unwrap();
    let json = folder.path().join("demo.json");
    let store = ImageStore::new();
    let context = WriteContext {
        path: Some(json.clone()),
        pixels: Some(&store),
    };
    let written = registry()
        .by_id("aseprite-json")
        .unwrap()
        .write(&loaded.document, &context)
        .unwrap();
    std::fs::write(&json, &written.bytes).unwrap();
    assert!(!written.companions.is_empty());
    for companion in &written.companions {
        std::fs::write(
            folder.path().join(&companion.relative_path),
            &companion.bytes,
        )
        .unwrap();
    }
    opens_as_on_disk(folder.path(), "demo.json");
}

#[test]
fn a_dropped_adl_character_finds_its_body_parts() {
    let _turn = one_at_a_time();
    let adl = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/adl");
    opens_as_on_disk(&adl, "mods/sprat/sprites/pip.properties");
}

#[test]
fn a_missing_companion_is_reported_as_on_disk() {
    let _turn = one_at_a_time();
    // Only the .def and .air are dropped: the .sff is missing, as it would be on disk.
    let kfm = common::corpus().join("mugen/kfm");
    let dropped = Path::new(DROPPED).join("lone");
    let files = ["kfm.def", "kfm.air"]
        .map(|name| (dropped.join(name), std::fs::read(kfm.join(name)).unwrap()));
    assert_eq!(provide_files(files.to_vec()).accepted.len(), 2);
    let (loaded, _) = registry()
        .open(&dropped.join("kfm.def"), &ReadContext::default())
        .unwrap();
    assert!(
        loaded
            .diagnostics
            .iter()
            .any(|d| d.message.contains("kfm.sff was not found")),
        "{:?}",
        loaded.diagnostics
    );
    // Forgotten files are gone.
    clear_provided_files();
    assert!(
        registry()
            .open(&dropped.join("kfm.def"), &ReadContext::default())
            .is_err()
    );
}

#[test]
fn a_two_gigabyte_file_is_refused_by_its_declared_size() {
    let _turn = one_at_a_time();
    let path = Path::new(DROPPED).join("huge/kfm.sff");
    let reason = refusal_before_reading(&path, 2_000_000_000).expect("refused");
    assert!(reason.contains("MiB"), "{reason}");
    assert!(refusal_before_reading(&path, 40_000_000).is_none());
}

#[test]
fn thousands_of_tiny_files_are_taken_up_to_the_limit_and_the_rest_named() {
    let _turn = one_at_a_time();
    let folder = Path::new(DROPPED).join("many");
    let files: Vec<(PathBuf, Vec<u8>)> = (0..MAX_PROVIDED_FILES + 5)
        .map(|n| (folder.join(format!("{n:05}.txt")), vec![b'x'; 3]))
        .collect();
    let outcome = provide_files(files);
    assert_eq!(outcome.accepted.len(), MAX_PROVIDED_FILES);
    assert_eq!(outcome.refused.len(), 5);
    assert_eq!(
        outcome.refused[0].0,
        folder.join(format!("{MAX_PROVIDED_FILES:05}.txt"))
    );
    assert!(
        outcome.refused[0]
            .1
            .contains(&format!("{MAX_PROVIDED_FILES}")),
        "{}",
        outcome.refused[0].1
    );
    assert_eq!(
        sprat::formats::read_file(&folder.join("00007.txt")).unwrap(),
        b"xxx"
    );
    let listed = sprat::formats::input::read_dir(&folder).unwrap();
    assert_eq!(listed.len(), MAX_PROVIDED_FILES);
    // A provided folder is not a file to read.
    let error = sprat::formats::read_file(&folder).unwrap_err();
    assert!(error.message.contains("folder"), "{error}");
    clear_provided_files();
}
