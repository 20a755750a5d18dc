//! Saving edited ADL documents: only the edited text changes.

mod common;

use sprat::formats::adl::{AdlFormat, move_part, move_skeleton_joint};
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::{AnimationSet, ElementKind, FrameDuration, FrameId, Point};
use std::path::PathBuf;

fn corpus_file(name: &str) -> PathBuf {
    common::corpus()
        .join("adl/mods/basegame/sprites")
        .join(name)
}

fn open(name: &str) -> (AnimationSet, String, PathBuf) {
    let path = corpus_file(name);
    let bytes = std::fs::read(&path).unwrap();
    let doc = AdlFormat
        .read(&bytes, &ReadContext::for_path(&path))
        .unwrap()
        .document;
    (doc, String::from_utf8(bytes).unwrap(), path)
}

fn save(doc: &AnimationSet, path: &PathBuf) -> (String, Vec<String>) {
    let written = AdlFormat.write(doc, &WriteContext::for_path(path)).unwrap();
    (
        String::from_utf8(written.bytes).unwrap(),
        written.losses.iter().map(|l| l.to_string()).collect(),
    )
}

fn frame(doc: &AnimationSet, sequence: &str, index: usize) -> FrameId {
    doc.sequence_by_name(sequence).unwrap().directions[0].frames[index]
}

/// The lines that differ, as (before, after); both texts must have the same line count.
fn changed_lines(before: &str, after: &str) -> Vec<(String, String)> {
    assert_eq!(before.lines().count(), after.lines().count(), "{after}");
    before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// Every graphic and point position of every frame, by element id.
fn positions(doc: &AnimationSet) -> Vec<(u64, Point)> {
    let mut out = Vec::new();
    for sequence in doc.sequences() {
        for id in &sequence.directions[0].frames {
            for e in &doc.frame(*id).unwrap().elements {
                let p = match &e.kind {
                    ElementKind::Graphic(g) => g.position,
                    ElementKind::Point(p) => p.position,
                    ElementKind::Box(_) => continue,
                };
                out.push((e.id.0, p));
            }
        }
    }
    out
}

fn reread(text: &str, path: &PathBuf) -> AnimationSet {
    AdlFormat
        .read(text.as_bytes(), &ReadContext::for_path(path))
        .unwrap()
        .document
}

#[test]
fn moving_a_part_writes_that_frames_transform_only() {
    let (mut doc, before, path) = open("test_sprite.properties");
    // Down one pixel on screen = -1 in ADL's y-up: the existing LEG_REST_LEFT 0,1 becomes 0,0.
    let id = frame(&doc, "ANIM_RUN", 1);
    assert!(move_part(
        &mut doc,
        id,
        "LEG_REST_LEFT",
        Point::from_ints(0, 1)
    ));
    let (after, losses) = save(&doc, &path);
    assert!(losses.is_empty(), "{losses:?}");
    assert_eq!(
        changed_lines(&before, &after),
        [(
            "ANIM_RUN_2=ALL 0,1;LEG_REST_RIGHT 0,-1;FOOT_RIGHT 0,-1;LEG_REST_LEFT 0,1;FOOT_LEFT 0,1".to_string(),
            "ANIM_RUN_2=ALL 0,1;LEG_REST_RIGHT 0,-1;FOOT_RIGHT 0,-1;LEG_REST_LEFT 0,0;FOOT_LEFT 0,1".to_string()
        )]
    );
    assert_eq!(positions(&reread(&after, &path)), positions(&doc));
}

#[test]
fn a_part_without_a_transform_gets_one_appended() {
    let (mut doc, before, path) = open("test_sprite.properties");
    let id = frame(&doc, "ANIM_RUN", 0);
    move_part(&mut doc, id, "HEAD", Point::from_ints(1, 0));
    let id = frame(&doc, "ANIM_IDLE", 0);
    move_part(&mut doc, id, "LEG_REST_LEFT", Point::from_ints(0, -1));
    let (after, losses) = save(&doc, &path);
    assert!(losses.is_empty(), "{losses:?}");
    assert_eq!(
        changed_lines(&before, &after),
        [
            (
                "ANIM_RUN_1=LEG_REST_RIGHT 1,1;FOOT_RIGHT 1,1;LEG_REST_LEFT -1,0;FOOT_LEFT -1,0".to_string(),
                "ANIM_RUN_1=LEG_REST_RIGHT 1,1;FOOT_RIGHT 1,1;LEG_REST_LEFT -1,0;FOOT_LEFT -1,0;HEAD 1,0".to_string()
            ),
            ("ANIM_IDLE_1=".to_string(), "ANIM_IDLE_1=LEG_REST_LEFT 0,1".to_string()),
        ]
    );
    assert_eq!(positions(&reread(&after, &path)), positions(&doc));
}

#[test]
fn moving_a_joint_in_the_skeleton_writes_the_skeleton_only() {
    let (mut doc, before, path) = open("test_sprite.properties");
    let run = doc.sequence_by_name("ANIM_RUN").unwrap().id;
    let moved = move_skeleton_joint(&mut doc, run, "HEAD", Point::from_ints(2, -1));
    assert_eq!(moved.len(), 2, "ANIM_IDLE shares SKELETON_STAND");
    let (after, losses) = save(&doc, &path);
    assert!(losses.is_empty(), "{losses:?}");
    assert_eq!(
        changed_lines(&before, &after),
        [(
            "               HAIR 0,32;HEAD 0,32;\\".to_string(),
            "               HAIR 0,32;HEAD 2,33;\\".to_string()
        )]
    );
    assert_eq!(positions(&reread(&after, &path)), positions(&doc));
}

#[test]
fn a_joint_moved_in_one_animation_of_a_shared_skeleton_keeps_the_other_as_it_was() {
    let (mut doc, before, path) = open("fofu.properties");
    // Move only the attachment points (joints) of TAIL_0 on every ANIM_RUN frame, and the part
    // with them, as a skeleton view would for one animation.
    let frames = doc.sequence_by_name("ANIM_RUN").unwrap().directions[0]
        .frames
        .clone();
    for id in frames {
        move_part(&mut doc, id, "TAIL_0", Point::from_ints(-1, 0));
    }
    let (after, losses) = save(&doc, &path);
    assert!(losses.is_empty(), "{losses:?}");
    let changed = changed_lines(&before, &after);
    assert_eq!(changed[0].1, "               TAIL_0 -1,13");
    // ANIM_IDLE, which shares the skeleton, is compensated so it looks as before.
    assert_eq!(changed[1].1, "ANIM_IDLE_1=TAIL_0 1,0");
    assert_eq!(changed.len(), 3);
    assert_eq!(positions(&reread(&after, &path)), positions(&doc));
}

#[test]
fn a_new_delay_for_every_frame_rewrites_delay() {
    let (mut doc, before, path) = open("taimu.properties");
    let frames = doc.sequence_by_name("ANIM_RUN").unwrap().directions[0]
        .frames
        .clone();
    for id in frames {
        doc.frame_mut(id).unwrap().duration = FrameDuration::Millis(200);
    }
    let (after, losses) = save(&doc, &path);
    assert!(losses.is_empty(), "{losses:?}");
    assert_eq!(
        changed_lines(&before, &after),
        [(
            "ANIM_RUN=DELAY 0.18;ROW 2;SKELETON SKELETON_STAND".to_string(),
            "ANIM_RUN=DELAY 0.2;ROW 2;SKELETON SKELETON_STAND".to_string()
        )]
    );
}

#[test]
fn what_adl_cannot_hold_is_named() {
    let (mut doc, _, path) = open("taimu.properties");
    let first = frame(&doc, "ANIM_IDLE", 0);
    doc.frame_mut(first).unwrap().duration = FrameDuration::Seconds {
        nanos: 1_000_000_000,
    };
    let id = frame(&doc, "ANIM_RUN", 2);
    let f = doc.frame_mut(id).unwrap();
    for e in &mut f.elements {
        if let ElementKind::Graphic(g) = &mut e.kind
            && e.name == "HEAD"
        {
            g.rotation = 90.0;
            g.opacity = 100;
        }
    }
    let seq = doc
        .sequences_mut()
        .into_iter()
        .find(|s| s.name == "ANIM_RUN")
        .unwrap();
    seq.loop_point = None;
    let (_, losses) = save(&doc, &path);
    let has = |s: &str| losses.iter().any(|l| l.contains(s));
    assert!(
        has("sequence \"ANIM_IDLE\", direction 0, frame 1: per-frame duration 2 s"),
        "{losses:?}"
    );
    assert!(has("frame 2, graphic HEAD: rotation 90°"), "{losses:?}");
    assert!(has("opacity 100"));
    assert!(has("always loop"));
}

#[test]
fn renaming_an_animation_renames_its_keys() {
    let (mut doc, before, path) = open("fofu.properties");
    for s in doc.sequences_mut() {
        if s.name == "ANIM_RUN" {
            s.name = "ANIM_WALK".into();
        }
    }
    let (after, losses) = save(&doc, &path);
    assert!(losses.is_empty(), "{losses:?}");
    let changed = changed_lines(&before, &after);
    assert_eq!(changed.len(), 5);
    assert!(
        changed
            .iter()
            .all(|(a, b)| a.replacen("ANIM_RUN", "ANIM_WALK", 1) == *b)
    );
}

#[test]
fn a_sub_pixel_move_is_rounded_and_reported() {
    let (mut doc, _, path) = open("fofu.properties");
    let half = Point {
        x: sprat::model::Fx(128),
        y: sprat::model::Fx(0),
    };
    let id = frame(&doc, "ANIM_RUN", 0);
    move_part(&mut doc, id, "HEAD", half);
    let (_, losses) = save(&doc, &path);
    assert!(
        losses.iter().any(|l| l.contains("not a whole pixel")),
        "{losses:?}"
    );
}

fn read_text(text: &str) -> AnimationSet {
    AdlFormat
        .read(text.as_bytes(), &ReadContext::default())
        .unwrap()
        .document
}

fn write_text(doc: &AnimationSet) -> String {
    let written = AdlFormat.write(doc, &WriteContext::default()).unwrap();
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    String::from_utf8(written.bytes).unwrap()
}

const SMALL: &str = "SPRITESHEET=p_\nEXTENSION=.tga\nCONFIG=SIZE 8,8;ORIGINX 4\nBODYPARTS=HEAD 1,1\n\
SKELETON_S=HEAD 0,4\nANIM_A=DELAY 1;ROW 1;SKELETON SKELETON_S\n";

#[test]
fn an_escaped_token_rewrites_only_its_own_value() {
    let text = format!("{SMALL}ANIM_A_1=HEAD 0\\,1 # keep\nANIM_A_2=\n");
    let mut doc = read_text(&text);
    let id = frame(&doc, "ANIM_A", 0);
    move_part(&mut doc, id, "HEAD", Point::from_ints(1, 0));
    let after = write_text(&doc);
    assert_eq!(
        after,
        format!("{SMALL}ANIM_A_1=HEAD 1,1 # keep\nANIM_A_2=\n")
    );
}

#[test]
fn a_missing_frame_line_is_inserted_after_the_one_before() {
    // ANIM_A_2 is missing (the game would crash); moving a part in it writes the line.
    let text = format!("{SMALL}ANIM_A_1=\r\nANIM_A_3=\r\n");
    let mut doc = read_text(&text);
    let id = frame(&doc, "ANIM_A", 1);
    move_part(&mut doc, id, "HEAD", Point::from_ints(0, -2));
    let after = write_text(&doc);
    assert_eq!(
        after,
        format!("{SMALL}ANIM_A_1=\r\nANIM_A_2=HEAD 0,2\r\nANIM_A_3=\r\n")
    );
}

#[test]
fn moving_the_part_of_a_one_frame_animation_is_still_a_frame_transform() {
    let text = format!("{SMALL}ANIM_A_1=\n");
    let mut doc = read_text(&text);
    let id = frame(&doc, "ANIM_A", 0);
    move_part(&mut doc, id, "HEAD", Point::from_ints(-1, 0));
    assert_eq!(write_text(&doc), format!("{SMALL}ANIM_A_1=HEAD -1,0\n"));
}

#[test]
fn dragging_only_the_joints_of_every_frame_writes_the_skeleton_and_names_the_part_that_follows() {
    let text = format!("{SMALL}ANIM_A_1=\n");
    let mut doc = read_text(&text);
    let id = frame(&doc, "ANIM_A", 0);
    for e in &mut doc.frame_mut(id).unwrap().elements {
        if let ElementKind::Point(p) = &mut e.kind {
            p.position = p.position + Point::from_ints(0, -1);
        }
    }
    let written = AdlFormat.write(&doc, &WriteContext::default()).unwrap();
    let after = String::from_utf8(written.bytes).unwrap();
    assert_eq!(
        after,
        format!("{SMALL}ANIM_A_1=\n").replace("HEAD 0,4", "HEAD 0,5")
    );
    assert_eq!(written.losses.len(), 1, "{:?}", written.losses);
    assert!(
        written.losses[0]
            .to_string()
            .contains("a part moves with its joint")
    );
}

/// (sequence, frame index, element name, position) of every graphic, for comparing documents
/// whose ids differ.
fn placed(doc: &AnimationSet) -> Vec<(String, usize, String, Point)> {
    let mut out = Vec::new();
    for sequence in doc.sequences() {
        for (i, id) in sequence.directions[0].frames.iter().enumerate() {
            for e in &doc.frame(*id).unwrap().elements {
                if let ElementKind::Graphic(g) = &e.kind {
                    out.push((sequence.name.clone(), i, e.name.to_string(), g.position));
                }
            }
        }
    }
    out.sort_by(|a, b| (&a.0, a.1, &a.2).cmp(&(&b.0, b.1, &b.2)));
    out
}

fn sequence_mut<'a>(doc: &'a mut AnimationSet, name: &str) -> &'a mut sprat::model::Sequence {
    doc.sequences_mut()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap()
}

/// A copy of a frame with fresh ids, as an editor's "duplicate frame" makes.
fn duplicate(doc: &mut AnimationSet, id: FrameId) -> FrameId {
    let mut copy = doc.frame(id).unwrap().clone();
    for e in &mut copy.elements {
        e.id = sprat::model::ElementId(doc.alloc_id());
    }
    let new_id = FrameId(doc.alloc_id());
    doc.frames.insert(new_id, copy);
    new_id
}

#[test]
fn removing_the_last_frame_removes_its_line() {
    let (mut doc, before, path) = open("fofu.properties");
    sequence_mut(&mut doc, "ANIM_RUN").directions[0]
        .frames
        .pop();
    let (after, losses) = save(&doc, &path);
    assert!(losses.is_empty(), "{losses:?}");
    assert_eq!(
        after,
        before.replace(
            "ANIM_RUN_4=ALL 0,1;LEG_REST_RIGHT 0,1;LEG_REST_LEFT 0,-1\n",
            ""
        )
    );
    assert_eq!(placed(&reread(&after, &path)), placed(&doc));
}

#[test]
fn reordered_frames_swap_their_values_in_place() {
    let (mut doc, before, path) = open("fofu.properties");
    sequence_mut(&mut doc, "ANIM_RUN").directions[0]
        .frames
        .swap(0, 1);
    let (after, losses) = save(&doc, &path);
    assert!(losses.is_empty(), "{losses:?}");
    assert_eq!(
        changed_lines(&before, &after),
        [
            (
                "ANIM_RUN_1=LEG_REST_RIGHT 1,1;LEG_REST_LEFT -1,0".to_string(),
                "ANIM_RUN_1=ALL 0,1;LEG_REST_RIGHT 0,-1;LEG_REST_LEFT 0,1".to_string()
            ),
            (
                "ANIM_RUN_2=ALL 0,1;LEG_REST_RIGHT 0,-1;LEG_REST_LEFT 0,1".to_string(),
                "ANIM_RUN_2=LEG_REST_RIGHT 1,1;LEG_REST_LEFT -1,0".to_string()
            ),
        ]
    );
    assert_eq!(placed(&reread(&after, &path)), placed(&doc));
}

#[test]
fn a_duplicated_frame_gets_a_new_line_after_the_last() {
    let (mut doc, before, path) = open("test_sprite.properties");
    let second = frame(&doc, "ANIM_IDLE", 1);
    let copy = duplicate(&mut doc, second);
    sequence_mut(&mut doc, "ANIM_IDLE").directions[0]
        .frames
        .push(copy);
    let (after, losses) = save(&doc, &path);
    assert!(losses.is_empty(), "{losses:?}");
    assert!(after.starts_with(&before), "only added at the end");
    let added = &after[before.len()..];
    assert!(added.starts_with("ANIM_IDLE_3="), "{added}");
    assert_eq!(placed(&reread(&after, &path)), placed(&doc));
}

#[test]
fn removing_and_adding_animations() {
    let (mut doc, before, path) = open("fofu.properties");
    // Remove ANIM_IDLE, add a copy of ANIM_RUN called ANIM_DASH.
    let run = doc.sequence_by_name("ANIM_RUN").unwrap().clone();
    let mut dash = run.clone();
    dash.id = sprat::model::SequenceId(doc.alloc_id());
    dash.name = "ANIM_DASH".into();
    let frames: Vec<FrameId> = run.directions[0].frames.clone();
    dash.directions[0].frames = frames.iter().map(|f| duplicate(&mut doc, *f)).collect();
    doc.root.items.retain(|item| match item {
        sprat::model::TreeItem::Sequence(s) => s.name != "ANIM_IDLE",
        _ => true,
    });
    doc.root.items.push(sprat::model::TreeItem::Sequence(dash));
    let (after, losses) = save(&doc, &path);
    assert!(losses.is_empty(), "{losses:?}");
    assert!(!after.contains("ANIM_IDLE"));
    assert!(
        after.contains("\nANIM_DASH=DELAY 0.15;ROW 3;SKELETON SKELETON_STAND\nANIM_DASH_1="),
        "{after}"
    );
    assert!(after.starts_with(&before[..before.find("ANIM_IDLE").unwrap()]));
    assert_eq!(placed(&reread(&after, &path)), placed(&doc));
}

#[test]
fn a_delay_below_the_games_minimum_is_written_and_named() {
    let text = format!("{SMALL}ANIM_A_1=\n");
    let mut doc = read_text(&text);
    let id = frame(&doc, "ANIM_A", 0);
    doc.frame_mut(id).unwrap().duration = FrameDuration::Millis(20);
    let written = AdlFormat.write(&doc, &WriteContext::default()).unwrap();
    let after = String::from_utf8(written.bytes).unwrap();
    assert_eq!(after, text.replace("DELAY 1;", "DELAY 0.02;"));
    assert!(written.losses[0].to_string().contains("at least 0.0625 s"));
}

/// The losses of `losses` that mention `words`.
fn naming<'a>(losses: &'a [String], words: &str) -> Vec<&'a String> {
    losses.iter().filter(|l| l.contains(words)).collect()
}

#[test]
fn a_part_moved_without_its_joint_names_the_joint_that_follows() {
    let (mut doc, _, path) = open("test_sprite.properties");
    let id = frame(&doc, "ANIM_IDLE", 1);
    let part = doc
        .frame_mut(id)
        .unwrap()
        .elements
        .iter_mut()
        .find(|e| e.name == "LEG_REST_LEFT" && matches!(e.kind, ElementKind::Graphic(_)));
    let ElementKind::Graphic(graphic) = &mut part.unwrap().kind else {
        unreachable!()
    };
    graphic.position = graphic.position + Point::from_ints(3, 2);
    let (text, losses) = save(&doc, &path);
    let named = naming(&losses, "in ADL a part moves with its joint");
    assert_eq!(named.len(), 1, "{losses:?}");
    assert!(
        named[0].starts_with(
            "sequence \"ANIM_IDLE\", direction 0, frame 1, point LEG_REST_LEFT: staying put"
        ),
        "{losses:?}"
    );
    // Read back, the joint has moved with its part.
    let back = reread(&text, &path);
    let joint = back
        .frame(frame(&back, "ANIM_IDLE", 1))
        .unwrap()
        .elements
        .iter()
        .find_map(|e| (e.name == "LEG_REST_LEFT").then(|| e.as_point()).flatten());
    assert_eq!(joint.unwrap().position, Point::from_ints(2 + 3, -7 + 2));
}

#[test]
fn a_renamed_joint_keeps_its_skeleton_name_and_says_so() {
    let (mut doc, before, path) = open("test_sprite.properties");
    let id = frame(&doc, "ANIM_IDLE", 1);
    let point = doc
        .frame_mut(id)
        .unwrap()
        .elements
        .iter_mut()
        .find(|e| e.name == "HEADGEAR" && matches!(e.kind, ElementKind::Point(_)));
    point.unwrap().name = "HAT".into();
    let (text, losses) = save(&doc, &path);
    assert_eq!(text, before, "nothing written");
    let named = naming(&losses, "the name \"HAT\"");
    assert_eq!(named.len(), 1, "{losses:?}");
    assert!(named[0].contains("it stays \"HEADGEAR\""), "{losses:?}");
}

#[test]
fn a_blank_frame_names_the_skeleton_it_comes_back_with() {
    let (mut doc, _, path) = open("test_sprite.properties");
    let blank = FrameId(doc.alloc_id());
    doc.frames.insert(
        blank,
        sprat::model::Frame::new(FrameDuration::Seconds {
            nanos: 2_000_000_000,
        }),
    );
    let idle = doc.sequence_by_name("ANIM_IDLE").unwrap().id;
    doc.sequence_mut(idle).unwrap().directions[0]
        .frames
        .insert(1, blank);
    let (text, losses) = save(&doc, &path);
    assert!(text.contains("ANIM_IDLE_2=\n"), "{text}");
    let named = naming(&losses, "joints of SKELETON_STAND it does not show");
    assert_eq!(named.len(), 1, "{losses:?}");
    assert!(
        named[0].starts_with("sequence \"ANIM_IDLE\", direction 0, frame 1: 16 of the 16"),
        "{losses:?}"
    );
}

#[test]
fn reordered_animations_name_the_order_rows_keep() {
    let (mut doc, before, path) = open("test_sprite.properties");
    let (_, losses) = save(&doc, &path);
    assert!(naming(&losses, "the order of the animations").is_empty());
    doc.root.items.reverse();
    let (text, losses) = save(&doc, &path);
    assert_eq!(text, before, "the rows stay");
    assert_eq!(
        naming(
            &losses,
            "the order of the animations: ADL orders them by ROW"
        )
        .len(),
        1,
        "{losses:?}"
    );
}
