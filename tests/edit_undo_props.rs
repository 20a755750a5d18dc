//! Property: random edits never lose a byte. For every corpus file of every format Sprat writes
//! (and the bundled demos), a random run of the editor's own commands — the ones its executor
//! issues, valid or refused — then undoing all of them saves exactly what the unedited file
//! saves (the file itself, for the formats that save byte for byte), and redoing all of them
//! saves exactly what was saved before undoing.

mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRng, TestRunner};
use sprat::assets::ImageStore;
use sprat::edit::boxes::{AddBox, BoxTarget, FrameAt, InheritedBoxes};
use sprat::edit::canvas::{MoveElements, MoveOrigin, RotateElement, ScaleElement};
use sprat::edit::inspector::{
    DocumentField, ElementField, FrameField, SequenceField, SetDocumentField, SetElementField,
    SetFrameField, SetSequenceField,
};
use sprat::edit::points::AddPoint;
use sprat::edit::sprites::{ChangeSprites, InsertSpriteFrame};
use sprat::edit::timeline::{
    DeleteFrames, DuplicateFrames, InsertBlankFrame, MoveFrames, SetDurations, SetLoopPoint,
};
use sprat::edit::tree::{
    AddDirection, AddGroup, AddSequence, Delete, DeleteDirection, DuplicateDirection,
    DuplicateSequence, MoveDirection, MoveNode, Rename, SetDefaultSequence, TreeNode,
};
use sprat::edit::{Command, History, Selection};
use sprat::formats::sff::document::edit_archive;
use sprat::formats::{Format, ReadContext, WriteContext, registry};
use sprat::model::*;
use std::path::{Path, PathBuf};

/// What a save produced: the main file and its companions, or the writer's refusal.
type Saved = Result<(Vec<u8>, Vec<(String, Vec<u8>)>), String>;

fn save(format: &dyn Format, document: &AnimationSet, path: &Path, pixels: &ImageStore) -> Saved {
    let context = WriteContext {
        path: Some(path.to_path_buf()),
        pixels: Some(pixels),
    };
    format
        .write(document, &context)
        .map(|w| {
            let companions = w
                .companions
                .into_iter()
                .map(|c| (c.relative_path, c.bytes))
                .collect();
            (w.bytes, companions)
        })
        .map_err(|e| e.message)
}

/// Every writable corpus file, and the bundled demos.
fn files() -> Vec<PathBuf> {
    let extensions = [
        "air",
        "dat",
        "def",
        "properties",
        "sff",
        "zsd",
        "json",
        "isprite",
    ];
    let mut files = common::files_with_extensions(&common::corpus(), &extensions);
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    files.extend(common::files_with_extensions(
        &assets,
        &["sprat", "properties"],
    ));
    files
}

/// The archive the document draws from, if any.
fn archive(document: &AnimationSet) -> Option<ImageId> {
    document
        .images
        .iter()
        .find(|i| matches!(i.kind, ImageKind::Sff { .. }))
        .map(|i| i.id)
}

/// A command the editor issues, built from small numbers against the current document
/// (indices wrap, so most are valid and some are refused).
fn command(
    doc: &AnimationSet,
    pixels: &ImageStore,
    (kind, a, b): (u8, u8, u8),
) -> Option<Box<dyn Command>> {
    let sequences = doc.sequences();
    let Some(s) = sequences.get(a as usize % sequences.len().max(1)) else {
        return Some(Box::new(AddSequence {
            parent: doc.root.id,
            index: None,
            name: format!("{b}"),
        }));
    };
    let frames = &s.directions[0].frames;
    let at = |n: u8| n as usize % (frames.len() + 1);
    let frame = frames.get(b as usize % frames.len().max(1)).copied();
    let element = frame
        .and_then(|f| doc.frame(f))
        .and_then(|f| f.elements.get(a as usize % f.elements.len().max(1)))
        .map(|e| e.id);
    let frame_at = FrameAt {
        sequence: s.id,
        direction: 0,
        index: b as usize % frames.len().max(1),
    };
    let command: Box<dyn Command> = match kind % 29 {
        0 => Box::new(InsertBlankFrame {
            sequence: s.id,
            direction: 0,
            index: at(b),
        }),
        1 => Box::new(DuplicateFrames {
            sequence: s.id,
            direction: 0,
            positions: vec![at(b)],
        }),
        2 => Box::new(DeleteFrames {
            sequence: s.id,
            direction: 0,
            positions: vec![at(b)],
        }),
        3 => Box::new(MoveFrames {
            sequence: s.id,
            direction: 0,
            positions: vec![at(a)],
            to: at(b),
        }),
        4 => Box::new(SetDurations {
            sequence: s.id,
            direction: 0,
            positions: vec![at(b)],
            duration: FrameDuration::Ticks(u32::from(b % 9) + 1),
        }),
        5 => Box::new(SetLoopPoint {
            sequence: s.id,
            loop_point: Some(b as usize % 4),
        }),
        6 => Box::new(AddSequence {
            parent: doc.root.id,
            index: Some(b as usize),
            name: format!("{}", 700 + u32::from(b)),
        }),
        7 => Box::new(DuplicateSequence {
            sequence: s.id,
            name: None,
        }),
        8 => Box::new(MoveNode {
            node: TreeNode::Sequence(s.id),
            to_group: doc.root.id,
            index: b as usize,
        }),
        9 => Box::new(Delete {
            node: TreeNode::Sequence(s.id),
        }),
        10 => Box::new(Rename {
            node: TreeNode::Sequence(s.id),
            name: format!("{}", 900 + u32::from(b)),
        }),
        11 => Box::new(SetDefaultSequence {
            sequence: Some(s.id),
        }),
        12 => Box::new(AddDirection {
            sequence: s.id,
            index: None,
            name: None,
        }),
        13 => Box::new(AddBox {
            target: BoxTarget::new(frame_at).inherited(if a % 2 == 0 {
                InheritedBoxes::ThisFrameOnly
            } else {
                InheritedBoxes::DefaultFromHereOn
            }),
            class: if b % 2 == 0 {
                BoxClass::Hit
            } else {
                BoxClass::Hurt
            },
            shape: Shape::Rect {
                x: Fx::from_int(-3),
                y: Fx::from_int(-10),
                width: Fx::from_int(6),
                height: Fx::from_int(10),
                rotation: 0.0,
            },
        }),
        14 => Box::new(MoveElements {
            elements: element.into_iter().collect(),
            delta: Point::from_ints(i32::from(a % 5) - 2, i32::from(b % 3) - 1),
        }),
        15 => Box::new(AddPoint {
            frame: frame?,
            position: Point::from_ints(i32::from(a % 16), -i32::from(b % 16)),
            name: "hand".into(),
        }),
        16 => Box::new(SetFrameField {
            frame: frame?,
            field: FrameField::Duration(FrameDuration::Ticks(u32::from(a % 7) + 1)),
        }),
        17 => Box::new(SetSequenceField {
            sequence: s.id,
            field: SequenceField::Title(Some(format!("title {b}"))),
        }),
        18 => Box::new(SetElementField {
            element: element?,
            field: ElementField::FlipH(b % 2 == 0),
        }),
        19 => Box::new(AddGroup {
            parent: doc.root.id,
            index: Some(b as usize),
            name: format!("group {b}"),
        }),
        20 => Box::new(DuplicateDirection {
            sequence: s.id,
            direction: 0,
        }),
        21 => Box::new(DeleteDirection {
            sequence: s.id,
            direction: b as usize % s.directions.len(),
        }),
        22 => Box::new(MoveDirection {
            sequence: s.id,
            from: a as usize % s.directions.len(),
            to: b as usize % s.directions.len(),
        }),
        23 => Box::new(RotateElement {
            element: element?,
            rotation: f64::from(b % 4) * 90.0,
        }),
        24 => Box::new(ScaleElement {
            element: element?,
            scale_x: f64::from(a % 3 + 1),
            scale_y: 1.0,
        }),
        25 => Box::new(MoveOrigin {
            element: element?,
            origin: Point::from_ints(i32::from(a % 8), i32::from(b % 8)),
            keep_in_place: a % 2 == 0,
        }),
        26 => Box::new(SetDocumentField {
            field: DocumentField::FrameRate(Some(u32::from(b % 60) + 1)),
        }),
        27 => {
            // The Sprites tab: a sprite dragged onto the timeline.
            let image = archive(doc)?;
            let sff = edit_archive(doc, image, pixels.sff()).ok()?;
            let sprite = sff.sprites.get(b as usize % sff.sprites.len().max(1))?;
            Box::new(InsertSpriteFrame {
                sequence: s.id,
                direction: 0,
                index: at(a),
                archive: image,
                number: (sprite.group, sprite.image),
                duration: FrameDuration::Ticks(5),
            })
        }
        _ => {
            // The Sprites tab: move a sprite's axis.
            let image = archive(doc)?;
            let mut sff = edit_archive(doc, image, pixels.sff()).ok()?;
            let sprite = sff
                .sprites
                .get(b as usize % sff.sprites.len().max(1))?
                .clone();
            let axis = (
                sprite.axis.0.saturating_add(1),
                sprite.axis.1.saturating_sub(i16::from(a % 3)),
            );
            sff.set_axis(sprite.group, sprite.image, axis).ok()?;
            Box::new(ChangeSprites {
                label: "Move the axis".into(),
                image,
                archive: sff,
                renumbered: Vec::new(),
                cleared: Vec::new(),
            })
        }
    };
    Some(command)
}

#[test]
fn random_edits_undone_save_the_original_and_redone_save_the_edit() {
    let pixels = ImageStore::new();
    let files = files();
    assert!(files.len() > 50, "only {} files", files.len());
    let mut checked = 0;
    // Commands that changed a document: the property is about edits, so most must land.
    let applied = std::cell::Cell::new(0usize);
    for path in files {
        let Ok((loaded, format)) = registry().open(&path, &ReadContext::for_path(&path)) else {
            continue;
        };
        if !format.capabilities().write {
            continue;
        }
        let original = loaded.document;
        let unedited = save(format, &original, &path, &pixels);
        if let Ok((bytes, _)) = &unedited
            && format.id() != "aseprite-json"
        {
            assert!(
                *bytes == std::fs::read(&path).unwrap(),
                "{}: an unedited save changed the file",
                path.display()
            );
        }
        checked += 1;
        // A fixed seed per file: a failure names its file and replays the same way.
        let mut runner = TestRunner::new_with_rng(
            Config {
                cases: 6,
                failure_persistence: None,
                ..Config::default()
            },
            TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
        );
        let steps = prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 1..16);
        let result = runner.run(&steps, |steps| {
            let mut doc = original.clone();
            let mut history = History::new();
            for step in steps {
                if let Some(command) = command(&doc, &pixels, step) {
                    let done = history.done_count();
                    let _ = history.apply(&mut doc, &Selection::none(), command.as_ref(), None);
                    if history.done_count() > done {
                        applied.set(applied.get() + 1);
                    }
                }
            }
            let edited = save(format, &doc, &path, &pixels);
            while history.undo(&mut doc).is_some() {}
            prop_assert!(
                save(format, &doc, &path, &pixels) == unedited,
                "undoing every edit does not save the original"
            );
            while history.redo(&mut doc).is_some() {}
            prop_assert!(
                save(format, &doc, &path, &pixels) == edited,
                "redoing every edit does not save what was saved before undoing"
            );
            Ok(())
        });
        if let Err(e) = result {
            panic!("{}: {e}", path.display());
        }
    }
    assert!(checked > 50, "only {checked} files were writable");
    assert!(
        applied.get() > checked * 6 * 3,
        "only {} edits landed in {checked} files",
        applied.get()
    );
}
