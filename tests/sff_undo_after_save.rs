//! A character's sprite and palette edits saved, then undone: the document holds the archive
//! and the `.act` palette as they were read (not the saved files, which still hold the undone
//! edits), draws them so, edits from them, and the next save writes them back.

mod common;

use sprat::assets::ImageStore;
use sprat::edit::sprites::{ChangeSprites, SetActPalette};
use sprat::formats::ReadContext;
use sprat::formats::sff::SffArchive;
use sprat::formats::sff::document::edit_archive;
use sprat::model::{GraphicSource, ImageId, ImageKind};
use sprat::pixels::PixelSource;
use sprat::session::{AUTOSAVE_INTERVAL, RecoveryStore, Session};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// KFM copied into a scratch folder, with a `.act` palette named as `pal1`.
fn character(dir: &Path) -> PathBuf {
    let source = common::corpus().join("mugen/kfm");
    for name in ["kfm.air", "kfm.sff"] {
        common::copy_writable(&source.join(name), &dir.join(name));
    }
    let def = fs::read_to_string(source.join("kfm.def"))
        .unwrap()
        .replacen(
            "anim    = kfm.air",
            "anim    = kfm.air\npal1    = mine.act",
            1,
        );
    assert!(def.contains("pal1    = mine.act"), "kfm.def names its .air");
    fs::write(dir.join("kfm.def"), def).unwrap();
    fs::write(dir.join("mine.act"), act_of(3)).unwrap();
    dir.join("kfm.def")
}

/// A `.act` palette: every byte `value`.
fn act_of(value: u8) -> Vec<u8> {
    vec![value; 768]
}

fn archive_id(open: &Session) -> ImageId {
    open.document()
        .images
        .iter()
        .find(|i| matches!(i.kind, ImageKind::Sff { .. }))
        .unwrap()
        .id
}

/// Moves sprite (group, image)'s axis, as the Sprites tab does.
fn move_axis(open: &mut Session, pixels: &ImageStore, sprite: (u16, u16), axis: (i16, i16)) {
    let image = archive_id(open);
    let mut sff = edit_archive(open.document(), image, pixels.sff()).unwrap();
    sff.set_axis(sprite.0, sprite.1, axis).unwrap();
    open.apply(
        &ChangeSprites {
            label: "Move the axis".into(),
            image,
            archive: sff,
            renumbered: Vec::new(),
            cleared: Vec::new(),
        },
        None,
    )
    .unwrap();
}

fn axis_of(bytes: &[u8], sprite: (u16, u16)) -> (i16, i16) {
    let archive = SffArchive::parse(bytes.to_vec()).unwrap();
    let index = archive.find(sprite.0 as i32, sprite.1 as i32).unwrap();
    let (x, y) = archive.sprites()[index].axis;
    (x as i16, y as i16)
}

#[test]
fn an_axis_edit_saved_and_undone_is_drawn_edited_and_saved_as_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = character(dir.path());
    let sff_path = dir.path().join("kfm.sff");
    let original = fs::read(&sff_path).unwrap();
    let old_axis = axis_of(&original, (0, 0));
    let mut open = Session::open(&path, &ReadContext::default()).unwrap();
    let pixels = ImageStore::new();

    move_axis(&mut open, &pixels, (0, 0), (old_axis.0 + 5, old_axis.1 - 3));
    open.save(None).unwrap();
    assert_eq!(
        axis_of(&fs::read(&sff_path).unwrap(), (0, 0)),
        (old_axis.0 + 5, old_axis.1 - 3)
    );
    assert!(open.undo());
    assert!(
        open.is_dirty(),
        "the undo is a change the file does not have"
    );

    // What the canvas and the Sprites tab draw: the archive as the document holds it.
    let held = open
        .document()
        .edited_file(archive_id(&open))
        .expect("the archive as read");
    assert_eq!(**held, original);
    let sprite = GraphicSource::SffSprite {
        archive: archive_id(&open),
        group: 0,
        image: 0,
    };
    let drawn = pixels.sff().pixels(open.document(), &sprite).unwrap();
    assert_eq!(drawn.axis, (old_axis.0 as i32, old_axis.1 as i32));

    // The next edit starts from the archive as read, not from the saved file.
    move_axis(&mut open, &pixels, (0, 1), (7, 7));
    let edited = open.document().edited_file(archive_id(&open)).unwrap();
    assert_eq!(axis_of(edited, (0, 0)), old_axis);
    assert!(open.undo());

    open.save(None).unwrap();
    assert!(!open.is_dirty());
    assert!(fs::read(&sff_path).unwrap() == original, "kfm.sff as read");
}

#[test]
fn a_redo_after_saving_the_undo_saves_the_edit_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = character(dir.path());
    let sff_path = dir.path().join("kfm.sff");
    let original = fs::read(&sff_path).unwrap();
    let mut open = Session::open(&path, &ReadContext::default()).unwrap();
    let pixels = ImageStore::new();
    move_axis(&mut open, &pixels, (0, 0), (40, 40));
    open.save(None).unwrap();
    let saved = fs::read(&sff_path).unwrap();
    assert!(open.undo());
    open.save(None).unwrap();
    assert!(fs::read(&sff_path).unwrap() == original);
    assert!(open.redo());
    open.save(None).unwrap();
    assert!(fs::read(&sff_path).unwrap() == saved);
}

#[test]
fn an_act_palette_edit_saved_and_undone_is_shown_and_saved_as_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = character(dir.path());
    let act_path = dir.path().join("mine.act");
    let mut open = Session::open(&path, &ReadContext::default()).unwrap();
    let image = archive_id(&open);
    open.apply(
        &SetActPalette {
            image,
            palette: 0,
            bytes: Arc::new(act_of(9)),
        },
        None,
    )
    .unwrap();
    open.save(None).unwrap();
    assert_eq!(fs::read(&act_path).unwrap(), act_of(9));
    assert!(open.undo());
    assert!(open.is_dirty());
    let held = open.document().edited_palette(image, 0).expect("as read");
    assert_eq!(**held, act_of(3));
    open.save(None).unwrap();
    assert_eq!(fs::read(&act_path).unwrap(), act_of(3));
}

#[test]
fn an_archive_never_saved_over_stays_the_file_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = character(dir.path());
    let mut open = Session::open(&path, &ReadContext::default()).unwrap();
    let pixels = ImageStore::new();
    move_axis(&mut open, &pixels, (0, 0), (40, 40));
    assert!(open.undo());
    let image = archive_id(&open);
    assert!(open.document().edited_file(image).is_none());
    let pending = open.prepare_save_as(&path, "mugen-def", None).unwrap();
    assert!(
        pending
            .written()
            .companions
            .iter()
            .all(|c| !c.relative_path.ends_with(".sff")),
        "an archive whose edits were undone before any save is not written"
    );
}

#[test]
fn a_recovered_document_keeps_the_archive_a_save_wrote_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = character(dir.path());
    let sff_path = dir.path().join("kfm.sff");
    let original = fs::read(&sff_path).unwrap();
    let store = RecoveryStore::new(dir.path().join("recovery"));
    let mut open = Session::open(&path, &ReadContext::default()).unwrap();
    open.enable_autosave(store.clone());
    let pixels = ImageStore::new();
    move_axis(&mut open, &pixels, (0, 0), (40, 40));
    open.save(None).unwrap();
    assert!(open.undo());
    let start = Instant::now();
    open.tick(start);
    assert!(open.tick(start + AUTOSAVE_INTERVAL).autosaved.is_some());
    let mut recovered = store.recover(&store.list()[0]).unwrap();
    recovered.save(None).unwrap();
    assert!(fs::read(&sff_path).unwrap() == original, "kfm.sff as read");
}
