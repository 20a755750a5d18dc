//! Edited AIR documents change only the lines of what was edited, in the file's own style.

mod common;

use sprat::edit::boxes::{BoxTarget, CopyBoxes, CopyBoxesTo, FrameAt};
use sprat::edit::{History, Selection};
use sprat::formats::mugen::{AirFormat, DefFormat};
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::{
    AnimationSet, BoxClass, BoxDeclaration, BoxScope, CollisionBox, DefaultBoxRule, DirectionId,
    Element, ElementId, ElementKind, Frame, FrameDuration, FrameId, Name, Point, Sequence,
    SequenceId, TreeItem, effective_boxes,
};

fn kfm_air() -> Vec<u8> {
    std::fs::read(common::corpus().join("mugen/kfm/kfm.air")).unwrap()
}

fn read(bytes: &[u8]) -> AnimationSet {
    AirFormat
        .read(bytes, &ReadContext::default())
        .unwrap()
        .document
}

fn save(set: &AnimationSet) -> Vec<u8> {
    AirFormat
        .write(set, &WriteContext::default())
        .unwrap()
        .bytes
}

/// The lines that differ: the changed block of `before` and of `after`, after removing the
/// common first and last lines.
fn changed(before: &[u8], after: &[u8]) -> (Vec<String>, Vec<String>) {
    let a: Vec<String> = before
        .split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect();
    let b: Vec<String> = after
        .split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (
        a[prefix..a.len() - suffix].to_vec(),
        b[prefix..b.len() - suffix].to_vec(),
    )
}

/// A frame with its element ids zeroed, to compare content.
fn without_ids(frame: &Frame) -> Frame {
    let mut frame = frame.clone();
    for element in &mut frame.elements {
        element.id = ElementId(0);
    }
    frame
}

fn strings(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|s| s.to_string()).collect()
}

fn frame_ids(set: &AnimationSet, action: &str) -> Vec<FrameId> {
    set.sequence_by_name(action).unwrap().directions[0]
        .frames
        .clone()
}

fn sequence_mut<'a>(set: &'a mut AnimationSet, action: &str) -> &'a mut Sequence {
    let id = set.sequence_by_name(action).unwrap().id;
    set.sequence_mut(id).unwrap()
}

fn graphic_mut(frame: &mut Frame) -> &mut sprat::model::Graphic {
    match &mut frame.elements[0].kind {
        ElementKind::Graphic(g) => g,
        _ => panic!("the first element is the sprite"),
    }
}

fn hurt_box(set: &mut AnimationSet, left: i32, top: i32, right: i32, bottom: i32) -> Element {
    Element {
        id: ElementId(set.alloc_id()),
        name: Name::default(),
        kind: ElementKind::Box(CollisionBox::rect_from_corners(
            BoxClass::Hurt,
            Point::from_ints(left, top),
            Point::from_ints(right, bottom),
        )),
    }
}

#[test]
fn a_duration_edit_changes_one_field_of_one_line() {
    let bytes = kfm_air();
    let mut set = read(&bytes);
    let id = frame_ids(&set, "0")[5];
    set.frame_mut(id).unwrap().duration = FrameDuration::Ticks(120);
    let out = save(&set);
    assert_eq!(
        changed(&bytes, &out),
        (strings(&["0,5, 0,0, 45"]), strings(&["0,5, 0,0, 120"]))
    );
}

#[test]
fn sprite_flip_blend_and_angle_edits_use_the_file_spelling() {
    let bytes = kfm_air();
    let mut set = read(&bytes);
    let id = frame_ids(&set, "5")[1];
    let g = graphic_mut(set.frame_mut(id).unwrap());
    g.flip_v = true;
    g.blend = sprat::model::BlendMode::Subtract;
    g.rotation = -90.0;
    let out = save(&set);
    assert_eq!(
        changed(&bytes, &out),
        (
            strings(&["5,0, 0,0, 4"]),
            strings(&["5,0, 0,0, 4, V, S, 1, 1, 90"])
        )
    );
    let back = read(&out);
    let frame = back.frame(frame_ids(&back, "5")[1]).unwrap();
    assert_eq!(without_ids(frame), without_ids(set.frame(id).unwrap()));
}

#[test]
fn editing_a_default_box_rewrites_only_that_box_line_keeping_its_alignment() {
    let bytes = kfm_air();
    let mut set = read(&bytes);
    let id = frame_ids(&set, "0")[0];
    let frame = set.frame_mut(id).unwrap();
    // Box 0 is ` Clsn2[0] = -13,  0, 16,-79`: move its feet edge 5 px lower (as the editor
    // does, by its shape: the box keeps the order its corners were written in).
    if let ElementKind::Box(b) = &mut frame.elements[1].kind {
        b.shape = CollisionBox::rect_from_corners(
            BoxClass::Hurt,
            Point::from_ints(-13, 5),
            Point::from_ints(16, -79),
        )
        .shape;
    }
    let out = save(&set);
    assert_eq!(
        changed(&bytes, &out),
        (
            strings(&[" Clsn2[0] = -13,  0, 16,-79"]),
            strings(&[" Clsn2[0] = -13,  5, 16,-79"])
        )
    );
}

#[test]
fn a_box_added_to_a_frame_that_inherits_a_default_says_this_frame_only() {
    let bytes = kfm_air();
    let mut set = read(&bytes);
    let ids = frame_ids(&set, "0");
    // Frame 2 inherits the two default boxes of frame 0; the editor copies them to the frame
    // with a third one, for this frame only.
    let mut boxes: Vec<Element> = set.frame(ids[0]).unwrap().elements[1..].to_vec();
    for b in &mut boxes {
        b.id = ElementId(set.alloc_id());
    }
    let extra = hurt_box(&mut set, 10, -20, 30, -10);
    let frame = set.frame_mut(ids[2]).unwrap();
    frame.elements.extend(boxes);
    frame.elements.push(extra);
    frame.box_declarations.push(BoxDeclaration {
        class: BoxClass::Hurt,
        scope: BoxScope::ThisFrame,
    });
    let out = save(&set);
    let (removed, added) = changed(&bytes, &out);
    assert!(removed.is_empty(), "{removed:?}");
    assert_eq!(
        added,
        strings(&[
            "Clsn2: 3",
            " Clsn2[0] = -13,  0, 16,-79",
            // Copied: the corner order of frame 0's line, `5,-79, -7,-93`.
            " Clsn2[1] =   5,-79, -7,-93",
            // A box made in Sprat: left, top first, as most of kfm.air's boxes are written.
            " Clsn2[2] =  10,-20, 30,-10",
        ])
    );
    let back = read(&out);
    let frames: Vec<&Frame> = back.direction_frames(back.sequence_by_name("0").unwrap(), 0);
    assert_eq!(
        effective_boxes(&frames, 2, DefaultBoxRule::ReturnToDefault).len(),
        3
    );
    // The MUGEN rule: frame 3 goes back to the default of frame 0.
    assert_eq!(
        effective_boxes(&frames, 3, DefaultBoxRule::ReturnToDefault).len(),
        2
    );
}

#[test]
fn a_box_added_as_a_new_default_from_here_on() {
    let bytes = kfm_air();
    let mut set = read(&bytes);
    let ids = frame_ids(&set, "0");
    let only = hurt_box(&mut set, -1, -1, 1, 1);
    let frame = set.frame_mut(ids[4]).unwrap();
    frame.elements.push(only);
    frame.box_declarations.push(BoxDeclaration {
        class: BoxClass::Hurt,
        scope: BoxScope::FromHereOn,
    });
    let out = save(&set);
    let (removed, added) = changed(&bytes, &out);
    assert!(removed.is_empty());
    assert_eq!(
        added,
        // A box made in Sprat: left, top first, as most of kfm.air's boxes are written.
        strings(&["Clsn2Default: 1", " Clsn2[0] =  -1, -1,  1,  1"])
    );
    let back = read(&out);
    let frames = back.direction_frames(back.sequence_by_name("0").unwrap(), 0);
    assert_eq!(
        effective_boxes(&frames, 6, DefaultBoxRule::ReturnToDefault).len(),
        1
    );
}

#[test]
fn changing_a_scope_and_clearing_boxes_rewrite_the_declaration() {
    let bytes = kfm_air();
    let mut set = read(&bytes);
    let ids = frame_ids(&set, "0");
    set.frame_mut(ids[0]).unwrap().box_declarations[0].scope = BoxScope::ThisFrame;
    let out = save(&set);
    assert_eq!(
        changed(&bytes, &out),
        (strings(&["Clsn2Default: 2"]), strings(&["Clsn2: 2"]))
    );
    // An explicit empty set.
    let frame = set.frame_mut(ids[0]).unwrap();
    frame.elements.truncate(1);
    let out = save(&set);
    assert_eq!(
        changed(&bytes, &out),
        (
            strings(&[
                "Clsn2Default: 2",
                " Clsn2[0] = -13,  0, 16,-79",
                " Clsn2[1] =   5,-79, -7,-93"
            ]),
            strings(&["Clsn2: 0"])
        )
    );
    // No declaration at all: the group goes.
    set.frame_mut(ids[0]).unwrap().box_declarations.clear();
    let (_, added) = changed(&bytes, &save(&set));
    assert!(added.is_empty(), "{added:?}");
}

#[test]
fn removing_inserting_and_reordering_frames_move_their_lines() {
    let bytes = kfm_air();
    let mut set = read(&bytes);
    let ids = frame_ids(&set, "10");
    // Swap the two frames of "Stand to crouch": each keeps its own Clsn2 group.
    sequence_mut(&mut set, "10").directions[0].frames = vec![ids[1], ids[0]];
    let out = save(&set);
    let back = read(&out);
    let swapped = frame_ids(&back, "10");
    assert_eq!(
        without_ids(back.frame(swapped[0]).unwrap()),
        without_ids(set.frame(ids[1]).unwrap())
    );
    assert_eq!(
        without_ids(back.frame(swapped[1]).unwrap()),
        without_ids(set.frame(ids[0]).unwrap())
    );
    // Remove the first frame of action 0 (and its default boxes with it).
    let mut set = read(&bytes);
    let ids = frame_ids(&set, "0");
    sequence_mut(&mut set, "0").directions[0].frames.remove(0);
    let (removed, added) = changed(&bytes, &save(&set));
    assert_eq!(
        removed,
        strings(&[
            "Clsn2Default: 2",
            " Clsn2[0] = -13,  0, 16,-79",
            " Clsn2[1] =   5,-79, -7,-93",
            "0,0, 0,0, 10"
        ])
    );
    assert!(added.is_empty());
    // A new frame after the last one copies the spacing of its neighbour.
    let mut set = read(&bytes);
    let mut frame = set.frame(ids[10]).unwrap().clone();
    frame.elements.truncate(1);
    frame.elements[0].id = ElementId(set.alloc_id());
    graphic_mut(&mut frame).source = sprat::model::GraphicSource::SffSprite {
        archive: set.images[0].id,
        group: 0,
        image: 6,
    };
    frame.duration = FrameDuration::Forever;
    let new_id = FrameId(set.alloc_id());
    set.frames.insert(new_id, frame);
    sequence_mut(&mut set, "0").directions[0]
        .frames
        .push(new_id);
    let (removed, added) = changed(&bytes, &save(&set));
    assert!(removed.is_empty());
    assert_eq!(added, strings(&["0,6, 0,0, -1"]));
}

#[test]
fn a_new_loop_point_inserts_loopstart_and_moving_it_moves_the_line() {
    let bytes = kfm_air();
    let mut set = read(&bytes);
    sequence_mut(&mut set, "0").loop_point = Some(3);
    let (removed, added) = changed(&bytes, &save(&set));
    assert!(removed.is_empty());
    assert_eq!(added, strings(&["Loopstart"]));
    let back = read(&save(&set));
    assert_eq!(back.sequence_by_name("0").unwrap().loop_point, Some(3));
    // Action 41 loops on its frame 7 (a `Loopstart` before a Clsn2Default); move it to 8.
    let mut set = read(&bytes);
    let looped = set
        .sequences()
        .into_iter()
        .find(|s| s.loop_point.is_some_and(|l| l > 1))
        .unwrap()
        .name
        .clone();
    let point = set.sequence_by_name(&looped).unwrap().loop_point.unwrap();
    sequence_mut(&mut set, &looped).loop_point = Some(point + 1);
    let back = read(&save(&set));
    assert_eq!(
        back.sequence_by_name(&looped).unwrap().loop_point,
        Some(point + 1)
    );
    let lines = |b: &[u8]| {
        b.split(|&c| c == b'\n')
            .filter(|l| l.eq_ignore_ascii_case(b"loopstart"))
            .count()
    };
    assert_eq!(lines(&save(&set)), lines(&bytes));
}

#[test]
fn a_frame_put_before_the_implicit_loop_frame_gets_a_loopstart() {
    // Action 0 has no Loopstart: it loops to its first frame. With a new first frame, the
    // loop must still go to the frame it went to, now the second.
    let bytes = kfm_air();
    let mut set = read(&bytes);
    let first = frame_ids(&set, "0")[0];
    let mut copy = set.frame(first).unwrap().clone();
    for element in &mut copy.elements {
        element.id = ElementId(set.alloc_id());
    }
    let id = FrameId(set.alloc_id());
    set.frames.insert(id, copy);
    let sequence = sequence_mut(&mut set, "0");
    sequence.directions[0].frames.insert(0, id);
    sequence.loop_point = Some(1);
    let saved = save(&set);
    let (removed, added) = changed(&bytes, &saved);
    assert!(removed.is_empty(), "{removed:?}");
    assert!(added.contains(&"Loopstart".to_string()), "{added:?}");
    let back = read(&saved);
    assert_eq!(back.sequence_by_name("0").unwrap().loop_point, Some(1));
    assert_eq!(frame_ids(&back, "0").len(), frame_ids(&set, "0").len());
}

#[test]
fn renaming_adding_and_removing_actions() {
    let bytes = kfm_air();
    let mut set = read(&bytes);
    sequence_mut(&mut set, "5").name = "0005".into();
    sequence_mut(&mut set, "6").name = "7".into();
    let out = save(&set);
    assert_eq!(
        changed(&bytes, &out),
        (
            strings(&["[Begin Action 6]"]),
            strings(&["[Begin Action 7]"])
        )
    );
    // Removing an action removes its block and the comment naming it, and keeps the comment
    // that introduces the next one.
    let mut set = read(&bytes);
    let id = set.sequence_by_name("5").unwrap().id;
    set.root
        .items
        .retain(|i| !matches!(i, TreeItem::Sequence(s) if s.id == id));
    let (removed, added) = changed(&bytes, &save(&set));
    assert!(added.is_empty());
    assert_eq!(removed.first().map(String::as_str), Some("; Turning"));
    assert_eq!(removed.get(1).map(String::as_str), Some("[Begin Action 5]"));
    assert_eq!(removed.last().map(String::as_str), Some("5,0, 0,0, 4"));
    assert_eq!(removed.len(), 7, "{removed:?}");
    // A new action goes after the last one, in the file's style.
    let mut set = read(&bytes);
    let frame_id = frame_ids(&set, "0")[0];
    let mut sequence = Sequence::new(
        SequenceId(set.alloc_id()),
        "9999",
        DirectionId(set.alloc_id()),
    );
    sequence.directions[0].frames = vec![frame_id];
    set.root.items.push(TreeItem::Sequence(sequence));
    let out = save(&set);
    assert!(out.starts_with(&bytes));
    let tail = String::from_utf8_lossy(&out[bytes.len()..]).into_owned();
    assert_eq!(
        tail,
        "\n[Begin Action 9999]\nClsn2Default: 2\n Clsn2[0] = -13,  0, 16,-79\n Clsn2[1] =   5,-79, -7,-93\n0,0, 0,0, 10\n"
    );
}

#[test]
fn crlf_latin1_and_shift_jis_comments_survive_edits() {
    let text: &[u8] = b"\xEF\xBB\xBF; caf\xE9 \x83\x41\x83\x6A\x83\x81\r\n[Begin Action 0] ; \xE9\r\nclsn2default: 1\r\n clsn2[0] = -1, -1, 1, 1 ;\x82\xA0\r\n0,0, 0,0, 5 ; \xE9\xE8\r\n0,1, 0,0, 5\r\n";
    let mut set = read(text);
    assert_eq!(save(&set), text);
    let ids = frame_ids(&set, "0");
    set.frame_mut(ids[0]).unwrap().duration = FrameDuration::Ticks(6);
    let mut extra = hurt_box(&mut set, 0, 0, 2, 2);
    extra.id = ElementId(set.alloc_id());
    set.frame_mut(ids[1]).unwrap().elements.push(extra);
    sequence_mut(&mut set, "0").loop_point = Some(1);
    let out = save(&set);
    let expected: &[u8] = b"\xEF\xBB\xBF; caf\xE9 \x83\x41\x83\x6A\x83\x81\r\n[Begin Action 0] ; \xE9\r\nclsn2default: 1\r\n clsn2[0] = -1, -1, 1, 1 ;\x82\xA0\r\n0,0, 0,0, 6 ; \xE9\xE8\r\nLoopstart\r\nclsn2: 1\r\n clsn2[0] = 0, 0, 2, 2\r\n0,1, 0,0, 5\r\n";
    assert_eq!(
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(expected)
    );
    assert_eq!(out, expected);
}

#[test]
fn lifebar_def_edits_leave_the_other_sections_alone() {
    let path = common::corpus().join("mugen/lifebar/fight.def");
    let bytes = std::fs::read(&path).unwrap();
    let mut set = DefFormat
        .read(&bytes, &ReadContext::for_path(&path))
        .unwrap()
        .document;
    let id = frame_ids(&set, "400")[0];
    graphic_mut(set.frame_mut(id).unwrap()).blend = sprat::model::BlendMode::Add {
        source: 64,
        destination: 128,
    };
    let written = DefFormat
        .write(&set, &WriteContext::for_path(&path))
        .unwrap();
    assert!(written.companions.is_empty());
    assert_eq!(
        changed(&bytes, &written.bytes),
        (
            strings(&["400,0, 0,0, -1, , AS80D128"]),
            strings(&["400,0, 0,0, -1, , AS64D128"])
        )
    );
}

#[test]
fn a_character_def_saves_unchanged_with_the_edited_air_beside_it() {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    let def = std::fs::read(&path).unwrap();
    let mut set = DefFormat
        .read(&def, &ReadContext::for_path(&path))
        .unwrap()
        .document;
    let id = frame_ids(&set, "0")[1];
    set.frame_mut(id).unwrap().duration = FrameDuration::Ticks(8);
    let written = DefFormat
        .write(&set, &WriteContext::for_path(&path))
        .unwrap();
    assert_eq!(written.bytes, def);
    assert_eq!(written.companions.len(), 1);
    assert_eq!(written.companions[0].relative_path, "kfm.air");
    assert_eq!(
        changed(&kfm_air(), &written.companions[0].bytes),
        (strings(&["0,1, 0,0, 7"]), strings(&["0,1, 0,0, 8"]))
    );
    // Saved as a plain .air, the same text comes out.
    let air = AirFormat.write(&set, &WriteContext::default()).unwrap();
    assert_eq!(air.bytes, written.companions[0].bytes);
}

// Action titles: the comment line right above `[Begin Action N]` names the action.

#[test]
fn the_comment_above_an_action_is_its_title() {
    let set = read(&kfm_air());
    let title = |action: &str| set.sequence_by_name(action).unwrap().title.clone();
    assert_eq!(title("0").as_deref(), Some("Standing Animation"));
    assert_eq!(title("6").as_deref(), Some("Crouch Turning"));
    let titled = set.sequences().iter().filter(|s| s.title.is_some()).count();
    // KFM names almost every action; a line of dashes names none.
    assert!(titled * 4 >= set.sequences().len() * 3, "{titled} titled");
    let dashes = set
        .sequences()
        .iter()
        .filter_map(|s| s.title.as_deref())
        .filter(|t| t.starts_with('-'))
        .count();
    assert_eq!(dashes, 0);
}

#[test]
fn renaming_a_title_rewrites_only_its_comment_line() {
    let before = kfm_air();
    let mut set = read(&before);
    sequence_mut(&mut set, "5").title = Some("Turn around".into());
    let after = save(&set);
    assert_eq!(
        changed(&before, &after),
        (strings(&["; Turning"]), strings(&["; Turn around"]))
    );
    assert_eq!(
        read(&after).sequence_by_name("5").unwrap().title.as_deref(),
        Some("Turn around")
    );
}

#[test]
fn a_title_is_added_above_the_header_and_cleared_with_its_line() {
    let text = b"[Begin Action 1]\n1,0, 0,0, 5\n\n; Walk\n[Begin Action 2]\n2,0, 0,0, 5\n";
    let mut set = read(text);
    sequence_mut(&mut set, "1").title = Some("Stand".into());
    sequence_mut(&mut set, "2").title = None;
    let after = save(&set);
    assert_eq!(
        String::from_utf8(after).unwrap(),
        "; Stand\n[Begin Action 1]\n1,0, 0,0, 5\n\n[Begin Action 2]\n2,0, 0,0, 5\n"
    );
}

#[test]
fn a_deleted_action_takes_its_title_line_along() {
    let text = b"; Stand\n[Begin Action 1]\n1,0, 0,0, 5\n\n; Walk\n[Begin Action 2]\n2,0, 0,0, 5\n";
    let mut set = read(text);
    let walk = set.sequence_by_name("2").unwrap().id;
    set.root
        .items
        .retain(|item| !matches!(item, TreeItem::Sequence(s) if s.id == walk));
    let after = String::from_utf8(save(&set)).unwrap();
    assert!(!after.contains("Walk"), "{after}");
    assert!(after.starts_with("; Stand\n[Begin Action 1]\n"), "{after}");
}

#[test]
fn new_actions_are_written_with_their_titles() {
    let mut set = read(b"[Begin Action 1]\n1,0, 0,0, 5\n");
    let frame = set.sequence_by_name("1").unwrap().directions[0].frames[0];
    let id = SequenceId(set.alloc_id());
    let mut sequence = Sequence::new(id, "7", DirectionId(set.alloc_id()));
    sequence.title = Some("Taunt".into());
    sequence.directions[0].frames.push(frame);
    set.root.items.push(TreeItem::Sequence(sequence));
    let after = String::from_utf8(save(&set)).unwrap();
    assert!(after.contains("\n; Taunt\n[Begin Action 7]\n"), "{after}");
    // Without a baseline (a conversion) the title comes first too.
    set.original = None;
    let fresh = String::from_utf8(save(&set)).unwrap();
    assert!(fresh.contains("; Taunt\n[Begin Action 7]"), "{fresh}");
    assert_eq!(
        read(fresh.as_bytes())
            .sequence_by_name("7")
            .unwrap()
            .title
            .as_deref(),
        Some("Taunt")
    );
}

#[test]
fn a_latin1_title_is_kept_byte_for_byte_until_edited() {
    let text = b"; Pr\xe9sentation\n[Begin Action 1]\n1,0, 0,0, 5\n";
    let mut set = read(text);
    assert_eq!(
        set.sequence_by_name("1").unwrap().title.as_deref(),
        Some("Pr\u{e9}sentation")
    );
    sequence_mut(&mut set, "1").loop_point = Some(0);
    assert_eq!(save(&set), text.to_vec());
}

#[test]
fn the_title_edit_command_trims_and_refuses_line_breaks() {
    use sprat::edit::History;
    use sprat::edit::inspector::{SequenceField, SetSequenceField};
    let mut set = read(&kfm_air());
    let id = set.sequence_by_name("0").unwrap().id;
    let mut history = History::new();
    let selection = sprat::edit::Selection::default();
    let set_title = |title: &str| SetSequenceField {
        sequence: id,
        field: SequenceField::Title(Some(title.to_string())),
    };
    history
        .apply(&mut set, &selection, &set_title("  Idle  "), None)
        .unwrap();
    assert_eq!(set.sequence(id).unwrap().title.as_deref(), Some("Idle"));
    assert!(
        history
            .apply(&mut set, &selection, &set_title("two\nlines"), None)
            .is_err()
    );
    history
        .apply(&mut set, &selection, &set_title("   "), None)
        .unwrap();
    assert_eq!(set.sequence(id).unwrap().title, None);
    history.undo(&mut set);
    assert_eq!(set.sequence(id).unwrap().title.as_deref(), Some("Idle"));
}

#[test]
fn titles_survive_the_sprat_project_and_are_named_as_lost_elsewhere() {
    use sprat::formats::registry;
    let set = read(&kfm_air());
    let sprat = registry().by_id("sprat").unwrap();
    let written = sprat.write(&set, &WriteContext::default()).unwrap();
    let back = sprat
        .read(&written.bytes, &ReadContext::default())
        .unwrap()
        .document;
    assert_eq!(
        back.sequence_by_name("0").unwrap().title.as_deref(),
        Some("Standing Animation")
    );
    let solarus = registry().by_id("solarus-lua").unwrap();
    // Solarus draws SFF frames onto sheets, so its writer reads their pixels.
    let pixels = sprat::assets::ImageStore::new();
    let context = WriteContext {
        pixels: Some(&pixels),
        ..WriteContext::default()
    };
    let losses = solarus.write(&set, &context).unwrap().losses;
    assert!(
        losses
            .iter()
            .any(|l| l.what == "the title \"Standing Animation\""),
        "{losses:?}"
    );
}

#[test]
fn a_moved_action_keeps_its_title() {
    let text = b"; Stand\n[Begin Action 1]\n1,0, 0,0, 5\n\n; Walk\n[Begin Action 2]\n2,0, 0,0, 5\n";
    let mut set = read(text);
    set.root.items.swap(0, 1);
    let after = save(&set);
    let back = read(&after);
    assert_eq!(
        back.sequence_by_name("1").unwrap().title.as_deref(),
        Some("Stand")
    );
    assert_eq!(
        back.sequence_by_name("2").unwrap().title.as_deref(),
        Some("Walk")
    );
    assert!(
        String::from_utf8(after)
            .unwrap()
            .starts_with("; Walk\n[Begin Action 2]")
    );
}

/// The four numbers of each `ClsnN[i] = a, b, c, d` line among `lines`.
fn box_numbers(lines: &[String]) -> Vec<[i32; 4]> {
    lines
        .iter()
        .filter_map(|line| {
            let (_, numbers) = line.split_once('=')?;
            let values: Vec<i32> = numbers
                .split(',')
                .map(|n| n.trim().parse().unwrap())
                .collect();
            values.try_into().ok()
        })
        .collect()
}

#[test]
fn boxes_copied_to_the_next_frame_keep_their_corner_order() {
    let bytes = kfm_air();
    let mut set = read(&bytes);
    // Stand Light Punch, frame 2: ` Clsn1[0] =  16,-80, 61,-71` and three Clsn2 boxes, one
    // of them written right edge first and bottom first (`19,  0,-10,-80`).
    let sequence = set.sequence_by_name("200").unwrap().id;
    let ids = frame_ids(&set, "200");
    let elements: Vec<ElementId> = set
        .frame(ids[2])
        .unwrap()
        .boxes()
        .map(|(e, _)| e.id)
        .collect();
    let at = FrameAt {
        sequence,
        direction: 0,
        index: 2,
    };
    let copy = CopyBoxes {
        target: BoxTarget::new(at),
        elements,
        to: CopyBoxesTo::Next,
    };
    History::new()
        .apply(&mut set, &Selection::none(), &copy, None)
        .unwrap();
    let out = save(&set);
    let (removed, added) = changed(&bytes, &out);
    assert!(removed.is_empty(), "{removed:?}");
    assert_eq!(
        box_numbers(&added),
        [
            [16, -80, 61, -71],
            [19, 0, -10, -80],
            [6, -94, 18, -78],
            [19, -80, 61, -71]
        ],
        "{added:?}"
    );
}

#[test]
fn new_boxes_take_the_corner_order_most_of_the_file_uses() {
    // Three boxes right edge first, one left edge first: a new box is written right first.
    let text = "[Begin Action 0]\nClsn2: 4\n Clsn2[0] = 10,-20, -10,0\n Clsn2[1] = 5,-5, 1,-1\n Clsn2[2] = 4,-4, -4,-1\n Clsn2[3] = -3,-9, 3,-1\n0,0, 0,0, 5\n0,1, 0,0, 5\n";
    let mut set = read(text.as_bytes());
    let ids = frame_ids(&set, "0");
    let extra = hurt_box(&mut set, 2, -8, 6, -3);
    set.frame_mut(ids[1]).unwrap().elements.push(extra);
    let out = save(&set);
    let (removed, added) = changed(text.as_bytes(), &out);
    assert!(removed.is_empty(), "{removed:?}");
    assert_eq!(box_numbers(&added), [[6, -8, 2, -3]], "{added:?}");
}
