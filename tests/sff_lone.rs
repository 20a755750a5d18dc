//! An `.sff` on its own is a document that saves: back to itself byte for byte when unedited,
//! with every archive edit (axes, renumbering, adding and deleting sprites, palettes, v1 to v2)
//! and nothing of the view of its groups; and other documents convert to an archive, listing
//! what it cannot hold.

mod common;

use sprat::edit::sprites::ChangeSprites;
use sprat::edit::timeline::SetDurations;
use sprat::edit::{History, Selection};
use sprat::formats::sff::document::edit_archive;
use sprat::formats::sff::edit::EditableSff;
use sprat::formats::sff::encode::{Codec, SpritePixels};
use sprat::formats::sff::{SFF_ID, SffArchive, SffFormat, SffStore};
use sprat::formats::{Format, ReadContext, WriteContext, registry};
use sprat::model::{AnimationSet, FrameDuration, ImageId};
use std::path::Path;

fn open(path: &Path) -> AnimationSet {
    let (loaded, format) = registry().open(path, &ReadContext::default()).unwrap();
    assert_eq!(format.id(), SFF_ID);
    loaded.document
}

fn archive_id(document: &AnimationSet) -> ImageId {
    document.images[0].id
}

/// Applies `change` to the document's archive as the Sprites tab does (one command).
fn change_archive(
    document: &mut AnimationSet,
    history: &mut History,
    renumbered: Vec<((u16, u16), (u16, u16))>,
    change: impl FnOnce(&mut EditableSff),
) {
    let image = archive_id(document);
    let mut archive = edit_archive(document, image, &SffStore::new()).unwrap();
    change(&mut archive);
    let command = ChangeSprites {
        label: "change".into(),
        image,
        archive,
        renumbered,
        cleared: Vec::new(),
    };
    history
        .apply(document, &Selection::none(), &command, None)
        .unwrap();
}

fn save(document: &AnimationSet, path: &Path) -> sprat::formats::Written {
    SffFormat
        .write(document, &WriteContext::for_path(path))
        .unwrap()
}

#[test]
fn every_corpus_sff_resaves_byte_for_byte_through_convert() {
    let scratch = tempfile::tempdir().unwrap();
    let files = common::files_with_extensions(&common::corpus().join("mugen"), &["sff"]);
    assert!(files.len() >= 10);
    for (n, path) in files.iter().enumerate() {
        let out = scratch.path().join(format!("{n}.sff"));
        let (code, stdout, stderr) =
            common::sprat(&["convert", path.to_str().unwrap(), out.to_str().unwrap()]);
        assert_eq!(code, 0, "{}: {stdout}{stderr}", path.display());
        assert!(!stdout.contains("lost"), "{}: {stdout}", path.display());
        assert!(
            std::fs::read(&out).unwrap() == std::fs::read(path).unwrap(),
            "{} changed",
            path.display()
        );
    }
}

#[test]
fn an_axis_edit_changes_only_that_sprites_entry_and_the_view_is_not_written() {
    let path = common::corpus().join("mugen/fightfx/fightfx.sff");
    let original = std::fs::read(&path).unwrap();
    let mut document = open(&path);
    let mut history = History::new();
    let before = SffArchive::parse(original.clone()).unwrap();
    let at = before.find(0, 0).unwrap();
    let (axis, header) = (
        before.sprites()[at].axis,
        before.sprites()[at].header_offset,
    );
    change_archive(&mut document, &mut history, Vec::new(), |sff| {
        sff.set_axis(0, 0, (axis.0 as i16 + 3, axis.1 as i16 - 2))
            .unwrap();
    });
    let written = save(&document, &path);
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    assert_eq!(written.bytes.len(), original.len());
    // A sprite's entry: v1's 32-byte subheader, v2's 28-byte sprite node.
    let entry_len = if before.version().major() == 1 {
        32
    } else {
        28
    };
    let entry = header as usize..header as usize + entry_len;
    for (i, (a, b)) in written.bytes.iter().zip(&original).enumerate() {
        assert!(a == b || entry.contains(&i), "byte {i} changed");
    }
    let after = SffArchive::parse(written.bytes.clone()).unwrap();
    assert_eq!(after.sprites()[at].axis, (axis.0 + 3, axis.1 - 2));

    // A change to the view (a duration) is listed and leaves the archive as it is.
    let sequence = document.sequences()[0].id;
    let retime = SetDurations {
        sequence,
        direction: 0,
        positions: vec![0],
        duration: FrameDuration::Ticks(20),
    };
    history
        .apply(&mut document, &Selection::none(), &retime, None)
        .unwrap();
    let viewed = save(&document, &path);
    assert_eq!(viewed.bytes, written.bytes);
    assert_eq!(viewed.losses.len(), 1, "{:?}", viewed.losses);
    assert!(viewed.losses[0].to_string().contains("duration"));

    // Undone, the save is the file as read.
    history.undo(&mut document);
    history.undo(&mut document);
    let undone = save(&document, &path);
    assert!(undone.bytes == original && undone.losses.is_empty());
}

#[test]
fn renumbering_adding_deleting_and_palette_edits_reach_the_file_without_losses() {
    let path = common::corpus().join("mugen/fightfx/fightfx.sff");
    let mut document = open(&path);
    let mut history = History::new();
    let before = SffArchive::open(&path).unwrap();
    let first = before.sprites()[0].clone();
    let last = before.sprites().last().unwrap().clone();
    let pixels = SpritePixels::Indexed {
        width: 4,
        height: 2,
        indices: vec![1, 2, 3, 4, 5, 6, 7, 8],
    };
    change_archive(
        &mut document,
        &mut history,
        vec![((first.group, first.image), (9000, 1))],
        |sff| {
            sff.renumber(first.group, first.image, (9000, 1)).unwrap();
            sff.add_sprite(9001, 0, (2, 2), &pixels, 0, None).unwrap();
            sff.delete_sprite(last.group, last.image).unwrap();
            sff.set_colour(0, 7, [1, 2, 3, 255]).unwrap();
        },
    );
    let written = save(&document, &path);
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    let after = SffArchive::parse(written.bytes).unwrap();
    assert!(after.diagnostics().is_empty(), "{:?}", after.diagnostics());
    assert_eq!(after.sprites().len(), before.sprites().len());
    assert!(
        after.find(first.group.into(), first.image.into()).is_none() || first.group == last.group
    );
    let moved = after.find(9000, 1).unwrap();
    assert_eq!(
        after.decode_pixels(moved).unwrap().0,
        before.decode_pixels(0).unwrap().0
    );
    let added = after.find(9001, 0).unwrap();
    assert_eq!(after.decode_pixels(added).unwrap().0, pixels);
    assert!(after.find(last.group.into(), last.image.into()).is_none());
    assert_eq!(after.palette(0).unwrap().colour(7), [1, 2, 3, 255]);
}

#[test]
fn a_v1_archive_converted_to_v2_saves_as_v2() {
    let path = common::corpus().join("mugen/kfm/intro.sff");
    let before = SffArchive::open(&path).unwrap();
    assert_eq!(before.version().major(), 1);
    let mut document = open(&path);
    let mut history = History::new();
    change_archive(&mut document, &mut history, Vec::new(), |sff| {
        sff.convert_to_v2(Codec::Rle8).unwrap();
    });
    let after = SffArchive::parse(save(&document, &path).bytes).unwrap();
    assert_eq!(after.version().major(), 2);
    assert_eq!(after.sprites().len(), before.sprites().len());
    for i in [0, before.sprites().len() / 2] {
        assert_eq!(
            after.decode_pixels(i).unwrap().0,
            before.decode_pixels(i).unwrap().0
        );
    }
}

#[test]
fn view_edits_are_listed_by_place_and_refused_by_convert_without_allow_loss() {
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("fightfx.sff");
    common::copy_writable(&common::corpus().join("mugen/fightfx/fightfx.sff"), &input);
    let mut document = open(&input);
    let mut history = History::new();
    let sequence = document.sequences()[1].clone();
    let rename = sprat::edit::tree::Rename {
        node: sprat::edit::tree::TreeNode::Sequence(sequence.id),
        name: "sparks".into(),
    };
    history
        .apply(&mut document, &Selection::none(), &rename, None)
        .unwrap();
    let written = save(&document, &input);
    assert_eq!(written.bytes, std::fs::read(&input).unwrap());
    let text: Vec<String> = written.losses.iter().map(ToString::to_string).collect();
    assert_eq!(text.len(), 2, "{text:?}");
    assert!(text[0].contains("\"sparks\""), "{text:?}");
    assert!(
        text[1].contains(&format!("\"{}\"", sequence.name)),
        "{text:?}"
    );
}

#[test]
fn a_character_converts_to_its_archive_listing_the_animations_as_lost() {
    let scratch = tempfile::tempdir().unwrap();
    let def = common::corpus().join("mugen/kfm/kfm.def");
    let out = scratch.path().join("kfm.sff");
    let (code, stdout, stderr) =
        common::sprat(&["convert", def.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(code, 3, "{stdout}{stderr}");
    assert!(!out.exists());
    assert!(stdout.contains("lost: sequence \"0\""), "{stdout}");
    assert!(stdout.contains("collision box"), "{stdout}");
    let (code, _, stderr) = common::sprat(&[
        "convert",
        def.to_str().unwrap(),
        out.to_str().unwrap(),
        "--allow-loss",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        std::fs::read(&out).unwrap()
            == std::fs::read(common::corpus().join("mugen/kfm/kfm.sff")).unwrap()
    );
}

#[test]
fn the_demo_converts_to_an_archive_of_its_pictures_with_to_mugen_sff() {
    let scratch = tempfile::tempdir().unwrap();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    let out = scratch.path().join("demo.bin");
    let (code, stdout, stderr) = common::sprat(&[
        "convert",
        demo.to_str().unwrap(),
        out.to_str().unwrap(),
        "--to",
        SFF_ID,
        "--allow-loss",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("lost:"), "{stdout}");
    assert!(stdout.contains("durations"), "{stdout}");
    let archive = SffArchive::open(&out).unwrap();
    assert!(
        archive.diagnostics().is_empty(),
        "{:?}",
        archive.diagnostics()
    );
    let demo_doc = registry()
        .open(&demo, &ReadContext::default())
        .unwrap()
        .0
        .document;
    // Group = the sequence's place; its first picture is image 0.
    for group in 0..demo_doc.sequences().len() as i32 {
        assert!(archive.find(group, 0).is_some(), "group {group}");
    }
    // The archive reopens as a document of its own, saving back byte for byte.
    let reopened = open(&out);
    assert!(save(&reopened, &out).bytes == std::fs::read(&out).unwrap());
}

#[test]
fn a_document_with_nothing_drawn_is_an_empty_archive_and_pictures_need_their_pixels() {
    let mut empty = AnimationSet::new();
    let id = sprat::model::SequenceId(empty.alloc_id());
    let direction = sprat::model::DirectionId(empty.alloc_id());
    empty.root.items.push(sprat::model::TreeItem::Sequence(
        sprat::model::Sequence::new(id, "0", direction),
    ));
    let written = SffFormat
        .write(&empty, &WriteContext::for_path("new.sff"))
        .unwrap();
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    let archive = SffArchive::parse(written.bytes).unwrap();
    assert!(archive.sprites().is_empty() && archive.diagnostics().is_empty());

    // Without a pixel source the demo's pictures cannot become sprites: refused, not empty.
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    let document = registry()
        .open(&demo, &ReadContext::default())
        .unwrap()
        .0
        .document;
    let error = SffFormat
        .write(&document, &WriteContext::for_path("demo.sff"))
        .unwrap_err();
    assert!(error.message.contains("pixels"), "{error}");
}

#[test]
fn an_edit_after_saving_and_undoing_starts_from_the_archive_as_read_not_the_saved_file() {
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("fightfx.sff");
    common::copy_writable(&common::corpus().join("mugen/fightfx/fightfx.sff"), &path);
    let original = std::fs::read(&path).unwrap();
    let (loaded, _) = registry().open(&path, &ReadContext::default()).unwrap();
    let mut document = loaded.document;
    let mut history = History::new();
    let axis = SffArchive::parse(original.clone()).unwrap().sprites()[0].axis;
    change_archive(&mut document, &mut history, Vec::new(), |sff| {
        let first = sff.sprites[0].clone();
        sff.set_axis(first.group, first.image, (40, 40)).unwrap();
    });
    std::fs::write(&path, save(&document, &path).bytes).unwrap();
    history.undo(&mut document);
    // Another sprite's axis: the first one's undone move must not come back from the disk.
    change_archive(&mut document, &mut history, Vec::new(), |sff| {
        let second = sff.sprites[1].clone();
        sff.set_axis(second.group, second.image, (7, 7)).unwrap();
    });
    let after = SffArchive::parse(save(&document, &path).bytes).unwrap();
    assert_eq!(after.sprites()[0].axis, axis);
    assert_eq!(after.sprites()[1].axis, (7, 7));
}
