//! Sprite edits held by a document and saved with a character: an edited archive is written
//! as the `.sff` companion of the `.def` (or `.air`), an unedited one is not written at all.

mod common;

use sprat::formats::mugen::{AirFormat, DefFormat};
use sprat::formats::sff::document::{commit_archive, edit_archive};
use sprat::formats::sff::encode::SpritePixels;
use sprat::formats::sff::{SffArchive, SffStore};
use sprat::formats::{Format, ReadContext, WriteContext, registry};
use sprat::model::ImageKind;
use std::path::Path;

fn copy_kfm(to: &Path) {
    let from = common::corpus().join("mugen/kfm");
    for entry in std::fs::read_dir(&from).unwrap().flatten() {
        if entry.path().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

#[test]
fn an_edited_archive_is_saved_with_the_character_and_an_unedited_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    copy_kfm(dir.path());
    let def = dir.path().join("kfm.def");
    let (loaded, _) = registry().open(&def, &ReadContext::default()).unwrap();
    let mut document = loaded.document;
    let context = WriteContext::for_path(&def);

    let unedited = DefFormat.write(&document, &context).unwrap();
    assert!(
        unedited
            .companions
            .iter()
            .all(|c| !c.relative_path.ends_with(".sff")),
        "an unedited archive is left alone"
    );

    let archive_id = document
        .images
        .iter()
        .find(|i| matches!(i.kind, ImageKind::Sff { .. }))
        .unwrap()
        .id;
    let store = SffStore::new();
    let mut sff = edit_archive(&document, archive_id, &store).unwrap();
    sff.set_axis(0, 0, (10, 20)).unwrap();
    let dot = SpritePixels::Indexed {
        width: 2,
        height: 2,
        indices: vec![1, 2, 3, 4],
    };
    sff.add_sprite(9999, 0, (1, 1), &dot, 0, None).unwrap();
    commit_archive(&mut document, archive_id, &sff).unwrap();
    // A second edit starts from the first one's result.
    let mut again = edit_archive(&document, archive_id, &store).unwrap();
    again.renumber(9999, 0, (9999, 1)).unwrap();
    commit_archive(&mut document, archive_id, &again).unwrap();

    let written = DefFormat.write(&document, &context).unwrap();
    let sff_file = written
        .companions
        .iter()
        .find(|c| c.relative_path == "kfm.sff")
        .expect("the edited archive is a companion");
    let archive = SffArchive::parse(sff_file.bytes.clone()).unwrap();
    assert!(archive.check().is_empty(), "{:?}", archive.check());
    let original = SffArchive::open(&dir.path().join("kfm.sff")).unwrap();
    assert_eq!(archive.sprites().len(), original.sprites().len() + 1);
    assert_eq!(
        archive.sprites()[archive.find(0, 0).unwrap()].axis,
        (10, 20)
    );
    assert_eq!(
        archive
            .decode_pixels(archive.find(9999, 1).unwrap())
            .unwrap()
            .0,
        dot
    );
    assert!(archive.find(9999, 0).is_none());
    // Every other sprite keeps its stored bytes.
    let i = original.find(200, 0).unwrap();
    let j = archive.find(200, 0).unwrap();
    assert_eq!(archive.stored_bytes(j), original.stored_bytes(i));

    // The .air opened alone saves the archive it found beside it.
    let air = dir.path().join("kfm.air");
    let (loaded, _) = registry().open(&air, &ReadContext::default()).unwrap();
    let mut document = loaded.document;
    let id = document.images[0].id;
    let mut sff = edit_archive(&document, id, &store).unwrap();
    sff.set_axis(0, 0, (1, 2)).unwrap();
    commit_archive(&mut document, id, &sff).unwrap();
    let written = AirFormat
        .write(&document, &WriteContext::for_path(&air))
        .unwrap();
    let names: Vec<&str> = written
        .companions
        .iter()
        .map(|c| c.relative_path.as_str())
        .collect();
    assert_eq!(names, ["kfm.sff"]);
}
