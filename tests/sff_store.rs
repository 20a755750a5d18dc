//! The sprite cache the renderer draws through: palettes, blanks, missing files, invalidation.

mod common;

use sprat::formats::sff::{PaletteChoice, SffArchive, SffStore};
use sprat::model::{AnimationSet, GraphicSource, ImageId, ImageKind, PaletteSource, SourceImage};
use sprat::pixels::PixelSource;
use std::path::{Path, PathBuf};

fn kfm_sff() -> PathBuf {
    common::corpus().join("mugen/kfm/kfm.sff")
}

fn sff_image(path: &Path, palettes: Vec<PaletteSource>, active: Option<usize>) -> SourceImage {
    SourceImage {
        id: ImageId(1),
        path: path.file_name().unwrap().to_string_lossy().into_owned(),
        resolved: Some(path.to_path_buf()),
        kind: ImageKind::Sff {
            palettes,
            active_palette: active,
        },
        nearest_neighbour: true,
    }
}

/// A fresh folder for one test, and the guard that removes it when the test ends.
fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
    let guard = tempfile::Builder::new()
        .prefix(&format!("sprat-sff-{name}-"))
        .tempdir()
        .unwrap();
    let dir = guard.path().to_path_buf();
    (guard, dir)
}

#[test]
fn sprites_come_with_their_axis_and_match_the_archive() {
    let store = SffStore::new();
    let image = sff_image(&kfm_sff(), vec![], None);
    let pixels = store.sprite(&image, 0, 0).expect("KFM standing sprite");
    assert_eq!(pixels.axis, (18, 105));
    assert_eq!((pixels.image.width(), pixels.image.height()), (47, 106));
    let archive = SffArchive::open(&kfm_sff()).unwrap();
    let direct = archive
        .decode(archive.find(0, 0).unwrap(), PaletteChoice::Own)
        .unwrap();
    assert_eq!(*pixels.image, direct.image);
    // The second ask is served from the cache: the very same pixels.
    let again = store.sprite(&image, 0, 0).unwrap();
    assert!(std::sync::Arc::ptr_eq(&pixels.image, &again.image));
}

#[test]
fn blank_missing_and_unreadable_sprites_give_nothing() {
    let store = SffStore::new();
    let image = sff_image(&kfm_sff(), vec![], None);
    assert!(store.sprite(&image, -1, 0).is_none(), "AIR's blank sprite");
    assert!(store.sprite(&image, 4242, 7).is_none(), "no such sprite");
    assert!(
        store
            .problems(&kfm_sff())
            .iter()
            .any(|p| p.message.contains("no sprite 4242,7"))
    );
    let (_guard, folder) = scratch("missing");
    let missing = folder.join("nothing.sff");
    let gone = sff_image(&missing, vec![], None);
    assert!(store.sprite(&gone, 0, 0).is_none());
    let problems = store.problems(&missing);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].message.contains("cannot read"));
    let mut unresolved = image.clone();
    unresolved.resolved = None;
    assert!(store.sprite(&unresolved, 0, 0).is_none());
}

#[test]
fn the_active_palette_recolours_main_palette_sprites() {
    let store = SffStore::new();
    let palettes = vec![PaletteSource::Embedded(0), PaletteSource::Embedded(3)];
    let own = store
        .sprite(&sff_image(&kfm_sff(), palettes.clone(), None), 0, 0)
        .unwrap();
    let first = store
        .sprite(&sff_image(&kfm_sff(), palettes.clone(), Some(0)), 0, 0)
        .unwrap();
    let fourth = store
        .sprite(&sff_image(&kfm_sff(), palettes.clone(), Some(1)), 0, 0)
        .unwrap();
    assert_eq!(own.image, first.image, "palette 1,1 is KFM's own");
    assert_ne!(own.image, fourth.image, "palette 1,4 recolours him");
    // Same shape: only colours change, and index 0 stays transparent.
    for (a, b) in own.image.pixels().zip(fourth.image.pixels()) {
        assert_eq!(a[3] == 0, b[3] == 0);
    }
    // The portrait has its own palette (9000,1) and is not recoloured.
    let portrait_own = store.sprite(&sff_image(&kfm_sff(), palettes.clone(), None), 9000, 1);
    let portrait_alt = store.sprite(&sff_image(&kfm_sff(), palettes, Some(1)), 9000, 1);
    assert_eq!(portrait_own.unwrap().image, portrait_alt.unwrap().image);
}

#[test]
fn act_files_replace_the_main_palette_in_reverse_order() {
    let (_guard, dir) = scratch("act");
    let archive = SffArchive::open(&kfm_sff()).unwrap();
    // Write palette 1,4 as a .act file: colour 255 first.
    let colours = archive.palette(3).unwrap();
    let mut act = Vec::new();
    for i in (0..=255u8).rev() {
        act.extend_from_slice(&colours.colour(i)[..3]);
    }
    let act_path = dir.join("kfm4.act");
    std::fs::write(&act_path, &act).unwrap();
    let store = SffStore::new();
    let palettes = vec![PaletteSource::ActFile {
        path: "kfm4.act".into(),
        resolved: Some(act_path.clone()),
    }];
    let with_act = store
        .sprite(&sff_image(&kfm_sff(), palettes.clone(), Some(0)), 0, 0)
        .unwrap();
    let embedded = store
        .sprite(
            &sff_image(&kfm_sff(), vec![PaletteSource::Embedded(3)], Some(0)),
            0,
            0,
        )
        .unwrap();
    assert_eq!(with_act.image, embedded.image);

    // A broken .act falls back to the archive's colours and says so.
    std::fs::write(&act_path, [1, 2, 3]).unwrap();
    store.invalidate(&act_path);
    let fallback = store
        .sprite(&sff_image(&kfm_sff(), palettes, Some(0)), 0, 0)
        .unwrap();
    let own = store
        .sprite(&sff_image(&kfm_sff(), vec![], None), 0, 0)
        .unwrap();
    assert_eq!(fallback.image, own.image);
    assert!(
        store
            .problems(&kfm_sff())
            .iter()
            .any(|p| p.message.contains("kfm4.act"))
    );
}

#[test]
fn invalidate_rereads_a_changed_file() {
    let (_guard, dir) = scratch("invalidate");
    let path = dir.join("art.sff");
    std::fs::copy(kfm_sff(), &path).unwrap();
    let store = SffStore::new();
    let image = sff_image(&path, vec![], None);
    let before = store.sprite(&image, 0, 0).unwrap();
    // Replace the file with another archive whose 0,0 differs.
    std::fs::copy(common::corpus().join("mugen/kfm/intro.sff"), &path).unwrap();
    assert!(
        std::sync::Arc::ptr_eq(&before.image, &store.sprite(&image, 0, 0).unwrap().image),
        "still cached until told"
    );
    store.invalidate(&path);
    let after = store.sprite(&image, 0, 0).unwrap();
    assert_eq!((after.image.width(), after.image.height()), (240, 120));
    assert_eq!(after.axis, (120, 0));
}

#[test]
fn the_store_is_a_pixel_source_shared_across_threads() {
    fn shareable<T: Send + Sync>(_: &T) {}
    let store = SffStore::new();
    shareable(&store);
    let mut document = AnimationSet::new();
    document.images.push(sff_image(&kfm_sff(), vec![], None));
    let source = GraphicSource::SffSprite {
        archive: ImageId(1),
        group: 200,
        image: 1,
    };
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                let p = store.pixels(&document, &source).unwrap();
                assert_eq!(p.axis, (14, 105));
            });
        }
    });
    assert!(
        store
            .pixels(&document, &GraphicSource::Image(ImageId(1)))
            .is_none()
    );
}
