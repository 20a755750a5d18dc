//! Sprite edits as undoable document edits: the archive after an axis change, a renumbering
//! or a deletion becomes the document's unsaved archive, the renderer draws from it at once,
//! frames follow renumbered sprites, and one undo gives everything back.

mod common;

use sprat::assets::ImageStore;
use sprat::edit::sprites::{ChangeSprites, frames_naming};
use sprat::edit::{History, Selection};
use sprat::formats::sff::document::edit_archive;
use sprat::formats::{ReadContext, registry};
use sprat::model::{AnimationSet, GraphicSource, ImageId, ImageKind};
use sprat::pixels::PixelSource;

fn kfm() -> (AnimationSet, ImageId) {
    let def = common::corpus().join("mugen/kfm/kfm.def");
    let (loaded, _) = registry().open(&def, &ReadContext::default()).unwrap();
    let archive = loaded
        .document
        .images
        .iter()
        .find(|i| matches!(i.kind, ImageKind::Sff { .. }))
        .unwrap()
        .id;
    (loaded.document, archive)
}

fn sprite(archive: ImageId, group: i32, image: i32) -> GraphicSource {
    GraphicSource::SffSprite {
        archive,
        group,
        image,
    }
}

#[test]
fn an_axis_change_is_drawn_at_once_and_undone_in_one_step() {
    let (mut document, archive) = kfm();
    let store = ImageStore::new();
    let before = store.pixels(&document, &sprite(archive, 0, 0)).unwrap();
    let mut sff = edit_archive(&document, archive, store.sff()).unwrap();
    let (x, y) = (before.axis.0 as i16, before.axis.1 as i16);
    sff.set_axis(0, 0, (x + 3, y - 2)).unwrap();
    let mut history = History::new();
    let command = ChangeSprites {
        label: "Move the axis of 0,0".into(),
        image: archive,
        archive: sff,
        renumbered: Vec::new(),
        cleared: Vec::new(),
    };
    history
        .apply(&mut document, &Selection::default(), &command, None)
        .unwrap();
    let after = store.pixels(&document, &sprite(archive, 0, 0)).unwrap();
    assert_eq!(after.axis, (before.axis.0 + 3, before.axis.1 - 2));
    assert_eq!(after.image, before.image, "the pixels stay");
    assert_eq!(document.edited_files.len(), 1);
    history.undo(&mut document);
    assert!(document.edited_files.is_empty());
    let undone = store.pixels(&document, &sprite(archive, 0, 0)).unwrap();
    assert_eq!(undone.axis, before.axis);
}

#[test]
fn frames_follow_a_renumbered_sprite_and_lose_a_deleted_one() {
    let (mut document, archive) = kfm();
    let store = ImageStore::new();
    let naming = |doc: &AnimationSet, number| {
        frames_naming(doc, archive)
            .into_iter()
            .filter(|(_, n)| *n == number)
            .count()
    };
    let users = naming(&document, (0, 0));
    assert!(users > 0, "KFM's standing frames show 0,0");
    let mut sff = edit_archive(&document, archive, store.sff()).unwrap();
    sff.renumber(0, 0, (4321, 7)).unwrap();
    let mut history = History::new();
    let renumber = ChangeSprites {
        label: "Renumber 0,0".into(),
        image: archive,
        archive: sff,
        renumbered: vec![((0, 0), (4321, 7))],
        cleared: Vec::new(),
    };
    history
        .apply(&mut document, &Selection::default(), &renumber, None)
        .unwrap();
    assert_eq!(naming(&document, (0, 0)), 0);
    assert_eq!(naming(&document, (4321, 7)), users);
    assert!(store.pixels(&document, &sprite(archive, 4321, 7)).is_some());

    let mut sff = edit_archive(&document, archive, store.sff()).unwrap();
    sff.delete_sprite(4321, 7).unwrap();
    let delete = ChangeSprites {
        label: "Delete 4321,7".into(),
        image: archive,
        archive: sff,
        renumbered: Vec::new(),
        cleared: vec![(4321, 7)],
    };
    history
        .apply(&mut document, &Selection::default(), &delete, None)
        .unwrap();
    assert_eq!(naming(&document, (4321, 7)), 0);
    history.undo(&mut document);
    history.undo(&mut document);
    assert_eq!(naming(&document, (0, 0)), users);
    assert!(document.edited_files.is_empty());
}
