//! Tags and slices are kept by their place in the file, not by their names: two slices of one
//! name (each with user data), tags sharing a name and a ping-pong tag that plays once are
//! written back as read, on an unedited save and on a save that changes something else. A
//! slice's name is its class, and no slice name makes a box warning unless the user said it
//! is a hit or hurt box. The files are made with Sprat's own writer, then given the tags and
//! slices under test.

mod aseprite_write_support;
mod common;

use aseprite_write_support::{
    Tag, new_file, read_bytes, save, slice_chunk, squares, tags_chunk, user_data_chunk, with_marks,
};
use sprat::boxes::roles::BoxRoles;
use sprat::check::{CheckOptions, Checker};
use sprat::formats::Severity;
use sprat::formats::aseprite::AsepriteFormat;
use sprat::formats::aseprite::file::FileView;
use sprat::formats::{Format, ReadContext};
use sprat::model::*;
use std::path::Path;

const TAGS: u16 = 0x2018;
const SLICE: u16 = 0x2022;

fn path() -> &'static Path {
    Path::new("marks.aseprite")
}

/// The units (chunk and its user data) of `kind` in `bytes`.
fn units(bytes: &[u8], kind: u16) -> Vec<Vec<u8>> {
    let view = FileView::of(bytes).unwrap();
    view.frames
        .iter()
        .flat_map(|f| f.units.iter())
        .filter(|u| u.kind == kind)
        .map(|u| bytes[u.whole.clone()].to_vec())
        .collect()
}

/// `bytes` with frame `index`'s duration set to `millis`.
fn retimed(bytes: &[u8], index: usize, millis: u16) -> Vec<u8> {
    let view = FileView::of(bytes).unwrap();
    let start = view.frames[index].range.start;
    let mut out = bytes.to_vec();
    out[start + 8..start + 10].copy_from_slice(&millis.to_le_bytes());
    out
}

/// Reads `file`, checks an unedited save gives it back, then retimes frame 1 and checks the
/// save differs from the file only in that frame's duration.
fn resaves_exactly(file: &[u8]) -> AnimationSet {
    let document = read_bytes(file, path());
    let unedited = save(&document, path());
    assert!(unedited.bytes == file, "an unedited save is the file");
    assert!(unedited.losses.is_empty(), "{:?}", unedited.losses);
    let mut edited = document.clone();
    edited.frames.get_index_mut(1).unwrap().1.duration = FrameDuration::Millis(250);
    let written = save(&edited, path());
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    assert_eq!(units(&written.bytes, TAGS), units(file, TAGS), "the tags");
    assert_eq!(
        units(&written.bytes, SLICE),
        units(file, SLICE),
        "the slices"
    );
    assert!(
        written.bytes == retimed(file, 1, 250),
        "only frame 1's duration changes"
    );
    document
}

fn two_hitboxes() -> Vec<u8> {
    let mut first = slice_chunk("Hitbox", &[(0, 1, 1, 3, 3)]);
    first.extend(user_data_chunk(Some("body"), None));
    let mut second = slice_chunk("Hitbox", &[(0, 4, 4, 2, 2), (2, 5, 5, 2, 2)]);
    second.extend(user_data_chunk(Some("fist"), Some([255, 0, 0, 255])));
    with_marks(&new_file(&squares(3)), &[tags_chunk(&[]), first, second])
}

#[test]
fn two_slices_of_one_name_with_user_data_resave_byte_for_byte() {
    let file = two_hitboxes();
    let document = resaves_exactly(&file);
    let names: Vec<&str> = document.frames[0]
        .boxes()
        .map(|(e, _)| e.name.as_str())
        .collect();
    assert_eq!(names, ["Hitbox", "Hitbox"]);
}

#[test]
fn moving_the_second_of_two_slices_of_one_name_rewrites_it_alone_under_its_name() {
    let file = two_hitboxes();
    let mut document = read_bytes(&file, path());
    // The second "Hitbox" of frame 2 (the second slice's key from frame 2 on) moves by one.
    let frame = document.frames.get_index_mut(2).unwrap().1;
    let (_, boxed) = frame
        .elements
        .iter_mut()
        .filter_map(|e| match &mut e.kind {
            ElementKind::Box(b) => Some((e.id, b)),
            _ => None,
        })
        .nth(1)
        .unwrap();
    boxed.shape = CollisionBox::rect_from_corners(
        boxed.class.clone(),
        Point::from_ints(6, 5),
        Point::from_ints(8, 7),
    )
    .shape;
    let written = save(&document, path());
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    let before = units(&file, SLICE);
    let after = units(&written.bytes, SLICE);
    assert_eq!(after.len(), 2, "still two slices");
    assert_eq!(after[0], before[0], "the first slice is untouched");
    assert_ne!(after[1], before[1], "the second slice has its new key");
    let user_data = user_data_chunk(Some("fist"), Some([255, 0, 0, 255]));
    assert!(after[1].ends_with(&user_data), "its user data stays");
    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let slices = file.slices();
    assert_eq!(slices.len(), 2);
    assert!(
        slices.iter().all(|s| s.name == "Hitbox"),
        "no slice renamed"
    );
    let key = slices[1].keys.iter().find(|k| k.from_frame == 2).unwrap();
    assert_eq!((key.origin, key.size), ((6, 5), (2, 2)));
}

fn shared_tag_names() -> Vec<u8> {
    let tags = [
        Tag(0, 5, 0, 0, "Idle"),
        Tag(0, 1, 0, 0, "Idle"),
        Tag(2, 3, 0, 0, "Walk"),
        Tag(2, 2, 0, 0, "Walk"),
        Tag(0, 0, 0, 0, "Tag"),
        Tag(1, 1, 0, 0, "Tag"),
        Tag(2, 2, 0, 0, "Tag"),
        Tag(3, 3, 0, 0, "Tag"),
        Tag(4, 5, 0, 0, "Tag"),
    ];
    with_marks(&new_file(&squares(6)), &[tags_chunk(&tags)])
}

#[test]
fn tags_sharing_a_name_resave_byte_for_byte_and_say_how_they_show() {
    let file = shared_tag_names();
    let document = resaves_exactly(&file);
    let names: Vec<&str> = document
        .sequences()
        .into_iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "Idle", "Idle (2)", "Walk", "Walk (2)", "Tag", "Tag (2)", "Tag (3)", "Tag (4)",
            "Tag (5)"
        ]
    );
    let loaded = AsepriteFormat
        .read(&file, &ReadContext::for_path(path()))
        .unwrap();
    assert!(
        loaded.diagnostics.iter().any(|d| d.message
            == "tag \"Idle\" shares its name with an earlier tag: it shows as \"Idle (2)\" and is saved as \"Idle\" unless renamed"),
        "{:?}",
        loaded.diagnostics
    );
}

#[test]
fn a_renamed_tag_among_tags_sharing_a_name_takes_its_new_name_alone() {
    let file = shared_tag_names();
    let mut document = read_bytes(&file, path());
    let id = document.sequence_by_name("Tag (3)").unwrap().id;
    document.sequence_mut(id).unwrap().name = "Hurt".into();
    let written = save(&document, path());
    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let names: Vec<&str> = (0..file.num_tags()).map(|i| file.tag(i).name()).collect();
    assert_eq!(
        names,
        [
            "Idle", "Idle", "Walk", "Walk", "Tag", "Tag", "Hurt", "Tag", "Tag"
        ]
    );
}

#[test]
fn a_ping_pong_tag_played_once_stays_ping_pong() {
    let tags = [
        Tag(0, 2, 2, 1, "Bounce"),
        Tag(3, 5, 3, 1, "Back"),
        Tag(0, 5, 2, 0, "Loop"),
    ];
    let file = with_marks(&new_file(&squares(6)), &[tags_chunk(&tags)]);
    let document = resaves_exactly(&file);
    let bounce = document.sequence_by_name("Bounce").unwrap();
    assert_eq!(bounce.loop_point, None, "it plays once");
}

/// An untouched real-style file: a slice "Hitbox" on frames 0 and 2 (the body box, as many
/// platformers name it), none on frame 1, and a "Door" slice.
fn platformer() -> Vec<u8> {
    let hitbox = slice_chunk(
        "Hitbox",
        &[(0, 2, 2, 4, 4), (1, 0, 0, 0, 0), (2, 2, 2, 4, 4)],
    );
    let door = slice_chunk("Door", &[(0, 40, 40, 8, 8)]);
    with_marks(
        &new_file(&squares(3)),
        &[tags_chunk(&[Tag(0, 2, 0, 0, "Run")]), hitbox, door],
    )
}

#[test]
fn sprat_check_gives_no_box_warnings_for_slice_names_nobody_said_are_hit_boxes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hero.aseprite");
    std::fs::write(&file, platformer()).unwrap();
    let name = file.display().to_string();
    let (code, out, err) = common::sprat(&["check", &name]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with(": 0 errors, 0 warnings\n"), "{out}");
    let document = read_bytes(&platformer(), &file);
    let classes: Vec<String> = document.frames[0]
        .boxes()
        .map(|(_, b)| format!("{:?}", b.class))
        .collect();
    assert_eq!(
        classes,
        ["Custom(\"Hitbox\")", "Custom(\"Door\")"],
        "shown as written"
    );

    // Once the user says "Hitbox" is a hit box, frames 0 and 2 have hit boxes and no hurt
    // box, and frame 1 none between them: the lint says so; "Door" stays unchecked (it is
    // far from the picture).
    let checker = Checker::new();
    let options = CheckOptions {
        roles: BoxRoles {
            hit: vec!["Hitbox".into()],
            hurt: Vec::new(),
        },
        ..CheckOptions::default()
    };
    let checked = checker.check_file(&file, &Default::default(), &options);
    let warnings: Vec<&str> = checked
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    let hit_only = warnings
        .iter()
        .filter(|w| w.contains("hit boxes but no hurt box"));
    assert_eq!(hit_only.count(), 2, "{warnings:?}");
    assert!(
        warnings[1].contains("frame 1: no boxes, though"),
        "{warnings:?}"
    );
}

#[test]
fn the_corpus_aseprite_files_get_no_box_warnings() {
    let folder = common::corpus().join("aseprite");
    let mut args = vec!["check".to_string(), "--all".to_string()];
    for path in common::files_with_extensions(&folder, &["aseprite", "ase"]) {
        args.push(path.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (_, out, err) = common::sprat(&args);
    for phrase in [
        "hit boxes but no hurt box",
        "hurt boxes cover only",
        "no boxes, though",
    ] {
        assert!(!out.contains(phrase), "{phrase}: {out}{err}");
    }
}

/// The names of `document`'s sequences, in order.
fn sequence_names(document: &AnimationSet) -> Vec<String> {
    document
        .sequences()
        .iter()
        .map(|s| s.name.clone())
        .collect()
}

#[test]
fn an_untagged_sequence_placed_before_a_tagged_one_is_written_as_a_tag_to_keep_its_place() {
    // Frames 0-1 are in no tag (read as "marks", after the tags); frame 2 is "Jump".
    let file = with_marks(
        &new_file(&squares(3)),
        &[tags_chunk(&[Tag(2, 2, 0, 0, "Jump")])],
    );
    let mut document = read_bytes(&file, path());
    assert_eq!(sequence_names(&document), ["Jump", "marks"]);
    let unedited = save(&document, path());
    assert!(unedited.bytes == file, "left last, it stays untagged");
    document.root.items.reverse();
    let written = save(&document, path());
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    let again = read_bytes(&written.bytes, path());
    assert_eq!(sequence_names(&again), ["marks", "Jump"]);
    let ase = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let tags: Vec<(String, u32, u32)> = (0..ase.num_tags())
        .map(|i| ase.tag(i))
        .map(|t| (t.name().to_string(), t.from_frame(), t.to_frame()))
        .collect();
    assert_eq!(tags, [("marks".into(), 0, 1), ("Jump".into(), 2, 2)]);
}

#[test]
fn a_box_added_beside_a_slice_of_its_name_is_written_as_another_slice_of_that_name() {
    let file = with_marks(
        &new_file(&squares(2)),
        &[tags_chunk(&[]), slice_chunk("Hitbox", &[(0, 1, 1, 3, 3)])],
    );
    let mut document = read_bytes(&file, path());
    let added = Element {
        id: ElementId(document.alloc_id()),
        name: "Hitbox".into(),
        kind: ElementKind::Box(CollisionBox::rect_from_corners(
            BoxClass::Custom("Hitbox".into()),
            Point::from_ints(4, 4),
            Point::from_ints(6, 6),
        )),
    };
    document
        .frames
        .get_index_mut(1)
        .unwrap()
        .1
        .elements
        .push(added);
    let written = save(&document, path());
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    let again = read_bytes(&written.bytes, path());
    let names: Vec<&str> = again.frames[1]
        .boxes()
        .map(|(e, _)| e.name.as_str())
        .collect();
    assert_eq!(names, ["Hitbox", "Hitbox"], "not renamed \"Hitbox 2\"");
    let first: Vec<&str> = again.frames[0]
        .boxes()
        .map(|(e, _)| e.name.as_str())
        .collect();
    assert_eq!(first, ["Hitbox"], "the new slice starts on frame 1");
}
