//! The real ADL files of the shared corpus: structure as read, and byte-identical unedited saves.

mod common;

use sprat::formats::adl::{AdlFormat, Dialect, parse};
use sprat::formats::{Format, ReadContext, Severity, WriteContext};
use sprat::model::{AnimationSet, ElementKind, FrameDuration, Origin, Point, Sequence};
use std::path::PathBuf;

fn sprites() -> PathBuf {
    common::corpus().join("adl/mods/basegame/sprites")
}

fn read(name: &str) -> (AnimationSet, Vec<sprat::formats::Diagnostic>) {
    let path = sprites().join(name);
    let bytes = std::fs::read(&path).unwrap();
    let loaded = AdlFormat
        .read(&bytes, &ReadContext::for_path(&path))
        .unwrap_or_else(|f| panic!("{name}: {:?}", f.diagnostics));
    (loaded.document, loaded.diagnostics)
}

fn sequence<'a>(doc: &'a AnimationSet, name: &str) -> &'a Sequence {
    doc.sequence_by_name(name).unwrap()
}

/// (name, position, anchor) of each graphic of a frame, in draw order.
fn graphics(doc: &AnimationSet, seq: &str, index: usize) -> Vec<(String, Point, Point)> {
    let s = sequence(doc, seq);
    let frame = doc.frame(s.directions[0].frames[index]).unwrap();
    frame
        .elements
        .iter()
        .filter_map(|e| match &e.kind {
            ElementKind::Graphic(g) => match g.origin {
                Origin::At(a) => Some((e.name.to_string(), g.position, a)),
                Origin::SourceAxis => None,
            },
            _ => None,
        })
        .collect()
}

fn point(doc: &AnimationSet, seq: &str, index: usize, name: &str) -> Point {
    let s = sequence(doc, seq);
    let frame = doc.frame(s.directions[0].frames[index]).unwrap();
    frame
        .elements
        .iter()
        .find_map(|e| match &e.kind {
            ElementKind::Point(p) if e.name == name => Some(p.position),
            _ => None,
        })
        .unwrap()
}

fn graphic(doc: &AnimationSet, seq: &str, index: usize, name: &str) -> (Point, Point) {
    graphics(doc, seq, index)
        .into_iter()
        .find(|(n, _, _)| n == name)
        .map(|(_, p, a)| (p, a))
        .unwrap()
}

#[test]
fn every_corpus_file_reads_and_saves_byte_for_byte() {
    let files = common::files_with_extensions(&common::corpus().join("adl"), &["properties"]);
    assert_eq!(files.len(), 8);
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let loaded = AdlFormat
            .read(&bytes, &ReadContext::for_path(&path))
            .unwrap();
        assert!(
            loaded
                .diagnostics
                .iter()
                .all(|d| d.severity != Severity::Error),
            "{}: {:?}",
            path.display(),
            loaded.diagnostics
        );
        let written = AdlFormat
            .write(&loaded.document, &WriteContext::for_path(&path))
            .unwrap();
        assert_eq!(written.bytes, bytes, "{}", path.display());
        assert!(written.losses.is_empty());
        // An unedited save through the edit path (the comparison with the original is bypassed by
        // writing elsewhere) gives the same bytes too.
        let elsewhere = AdlFormat
            .write(
                &loaded.document,
                &WriteContext::for_path("/elsewhere/x.properties"),
            )
            .unwrap();
        assert_eq!(elsewhere.bytes, bytes, "{}", path.display());
        assert!(elsewhere.losses.is_empty(), "{:?}", elsewhere.losses);
    }
}

#[test]
fn test_sprite_structure() {
    let (doc, diagnostics) = read("test_sprite.properties");
    let names: Vec<&str> = doc.sequences().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["ANIM_IDLE", "ANIM_RUN"], "sorted by ROW");
    let run = sequence(&doc, "ANIM_RUN");
    assert_eq!(run.loop_point, Some(0));
    assert_eq!(run.directions[0].frames.len(), 4);
    for id in &run.directions[0].frames {
        assert_eq!(
            doc.frame(*id).unwrap().duration,
            FrameDuration::Seconds { nanos: 150_000_000 }
        );
    }
    let idle = sequence(&doc, "ANIM_IDLE");
    assert_eq!(idle.directions[0].frames.len(), 2);
    assert_eq!(
        doc.frame(idle.directions[0].frames[1]).unwrap().duration,
        FrameDuration::Seconds {
            nanos: 2_000_000_000
        }
    );
    // 13 body parts, named SPRITESHEET + lowercase(part) + EXTENSION.
    assert_eq!(doc.images.len(), 13);
    assert_eq!(
        doc.images[0].path,
        "mods/basegame/sprites/sprite_assembler_test_assets/test_arm_rest_right.tga"
    );
    // Draw order: the skeleton reversed; joints without a body part draw nothing.
    let order: Vec<String> = graphics(&doc, "ANIM_RUN", 0)
        .into_iter()
        .map(|(n, _, _)| n)
        .collect();
    assert_eq!(
        order,
        [
            "HAND_REST_LEFT",
            "ARM_REST_LEFT",
            "LEG_REST_LEFT",
            "FOOT_LEFT",
            "LEG_REST_RIGHT",
            "FOOT_RIGHT",
            "LOWER_TORSO",
            "UPPER_TORSO",
            "HEAD",
            "HAIR",
            "HAND_REST_RIGHT",
            "ARM_REST_RIGHT",
            "HAIR_FORE"
        ]
    );
    // ANIM_RUN_1: LEG_REST_RIGHT 1,1 on joint -2,7 -> lands at (-1, -8), anchor 3,7.
    assert_eq!(
        graphic(&doc, "ANIM_RUN", 0, "LEG_REST_RIGHT"),
        (Point::from_ints(-1, -8), Point::from_ints(3, 7))
    );
    // ANIM_RUN_2: ALL 0,1 then LEG_REST_RIGHT 0,-1: back on the joint; HEAD rises by one.
    assert_eq!(
        graphic(&doc, "ANIM_RUN", 1, "LEG_REST_RIGHT").0,
        Point::from_ints(-2, -7)
    );
    assert_eq!(
        graphic(&doc, "ANIM_RUN", 1, "HEAD"),
        (Point::from_ints(0, -33), Point::from_ints(8, 7))
    );
    // Every joint is an attachment point, even those that draw nothing.
    let frame = doc.frame(run.directions[0].frames[0]).unwrap();
    let points = frame
        .elements
        .iter()
        .filter(|e| e.as_point().is_some())
        .count();
    assert_eq!(points, 16);
    assert_eq!(
        point(&doc, "ANIM_RUN", 0, "TAIL0"),
        Point::from_ints(0, -13)
    );
    assert_eq!(
        point(&doc, "ANIM_RUN", 1, "HELD_ITEM"),
        Point::from_ints(-6, -12)
    );
    // ANIM_IDLE_2 lowers the upper body by one pixel; ANIM_IDLE_1 is empty.
    assert_eq!(
        graphic(&doc, "ANIM_IDLE", 0, "HEAD").0,
        Point::from_ints(0, -32)
    );
    assert_eq!(
        graphic(&doc, "ANIM_IDLE", 1, "HEAD").0,
        Point::from_ints(0, -31)
    );
    assert_eq!(
        graphic(&doc, "ANIM_IDLE", 1, "LOWER_TORSO").0,
        Point::from_ints(0, -15)
    );
    // The images are not in the corpus: each missing file is named, and the form is stated.
    let missing: Vec<&str> = diagnostics
        .iter()
        .filter(|d| d.message.contains("is missing"))
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(missing.len(), 13);
    assert!(missing.iter().any(|m| m
        .contains("mods/basegame/sprites/sprite_assembler_test_assets/test_head.tga")));
    assert!(
        diagnostics
            .iter()
            .any(|d| d.message.contains("current ADL form"))
    );
    assert!(
        !diagnostics
            .iter()
            .any(|d| d.message.contains("assets folder was not found"))
    );
}

#[test]
fn fofu_continuations_and_held_item() {
    let (doc, _) = read("fofu.properties");
    let order: Vec<String> = graphics(&doc, "ANIM_IDLE", 1)
        .into_iter()
        .map(|(n, _, _)| n)
        .collect();
    assert_eq!(
        order,
        [
            "TAIL_0",
            "ARM_REST_LEFT",
            "LEG_REST_LEFT",
            "LEG_REST_RIGHT",
            "TORSO",
            "HEAD",
            "HELD_ITEM",
            "ARM_REST_RIGHT",
            "HEADGEAR"
        ]
    );
    // ANIM_IDLE_2 continues over three lines; HEADGEAR 0,-1 is on the last one.
    assert_eq!(
        graphic(&doc, "ANIM_IDLE", 1, "HEADGEAR").0,
        Point::from_ints(0, -31)
    );
    assert_eq!(
        graphic(&doc, "ANIM_IDLE", 1, "TORSO"),
        (Point::from_ints(0, -21), Point::from_ints(10, 4))
    );
    assert_eq!(
        graphic(&doc, "ANIM_IDLE", 1, "TAIL_0").0,
        Point::from_ints(0, -13)
    );
    assert_eq!(doc.images.len(), 9);
}

#[test]
fn taimu_hides_parts_with_minus_999() {
    let (doc, _) = read("taimu.properties");
    let run = sequence(&doc, "ANIM_RUN");
    assert_eq!(
        doc.frame(run.directions[0].frames[0]).unwrap().duration,
        FrameDuration::Seconds { nanos: 180_000_000 }
    );
    // TORSO_1 0,-999 puts the part 999 pixels below its joint (0,54).
    assert_eq!(
        graphic(&doc, "ANIM_RUN", 0, "TORSO_1").0,
        Point::from_ints(0, 945)
    );
    assert_eq!(
        graphic(&doc, "ANIM_RUN", 1, "TORSO_0").0,
        Point::from_ints(0, -56)
    );
    assert_eq!(
        graphic(&doc, "ANIM_IDLE", 1, "ARM_REST_LEFT"),
        (Point::from_ints(8, -67), Point::from_ints(6, 3))
    );
}

#[test]
fn glow_variants_differ_only_in_their_images() {
    let (plain, _) = read("taimu.properties");
    let (glow, diagnostics) = read("taimu_glow.properties");
    assert_eq!(plain.frames.len(), glow.frames.len());
    assert!(glow.images[0].path.contains("taimuglow_"));
    assert!(
        diagnostics
            .iter()
            .any(|d| d.message.contains("taimuglow_headgear.tga"))
    );
}

#[test]
fn the_adl_layer_reports_the_form_and_config() {
    let bytes = std::fs::read(sprites().join("fofu.properties")).unwrap();
    let file = parse(&bytes);
    assert_eq!(file.dialect, Dialect::Current);
    assert_eq!(file.size, Some((48, 56)));
    assert_eq!(file.origin_x, Some(29));
    assert_eq!(file.skeletons.len(), 1);
    assert_eq!(file.skeletons[0].joints.len(), 11);
}

#[test]
fn the_registry_picks_adl_for_adl_files_and_adl_claims_no_other_corpus_file() {
    let registry = sprat::formats::registry();
    let all = common::files_with_extensions(
        &common::corpus(),
        &[
            "properties",
            "dat",
            "lua",
            "air",
            "def",
            "sff",
            "isprite",
            "txt",
            "cns",
        ],
    );
    let adl_dir = common::corpus().join("adl");
    for path in all {
        let bytes = std::fs::read(&path).unwrap();
        if path.starts_with(&adl_dir) {
            let format = registry.detect(&bytes, Some(&path)).unwrap();
            assert_eq!(format.id(), "adl", "{}", path.display());
        } else {
            assert_eq!(
                AdlFormat.sniff(&bytes),
                sprat::formats::Sniff::No,
                "{}",
                path.display()
            );
        }
    }
}
