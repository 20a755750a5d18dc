//! Align frames: feet on the origin in KFM, boxes moving with the body, blank frames skipped
//! by name, and the refusals.

use super::{common::sprat, copy_of, kfm_copy, load, out_folder, text};
use sprat::assets::ImageStore;
use sprat::edit::align::{
    AlignFrames, AlignLimits, OnePerDirection, align_for_format, plan_alignment,
};
use sprat::edit::scope::FrameScope;
use sprat::edit::{History, Selection};
use sprat::model::{AnimationSet, DefaultBoxRule, Shape, effective_boxes};
use sprat::tools::anchor::{Anchor, find_anchor};

/// (left, top) of each box frame `index` of action `name` shows, minus its graphic's position:
/// where the boxes sit on the body.
fn boxes_on_body(doc: &AnimationSet, name: &str, index: usize) -> Vec<(f64, f64)> {
    let sequence = doc.sequence_by_name(name).unwrap();
    let frames = doc.direction_frames(sequence, 0);
    let graphic = frames[index]
        .elements
        .iter()
        .find_map(|e| e.as_graphic())
        .unwrap()
        .position;
    effective_boxes(&frames, index, DefaultBoxRule::default())
        .iter()
        .map(|b| match &b.collision.shape {
            Shape::Rect { x, y, .. } => (
                x.to_f64() - graphic.x.to_f64(),
                y.to_f64() - graphic.y.to_f64(),
            ),
            Shape::Circle { center, .. } => (
                center.x.to_f64() - graphic.x.to_f64(),
                center.y.to_f64() - graphic.y.to_f64(),
            ),
        })
        .collect()
}

#[test]
fn kfm_feet_land_on_the_axis_and_the_boxes_move_with_the_body() {
    let (dir, def) = kfm_copy();
    // Read first: the output's .def names the same kfm.air, which the save rewrites beside it.
    let before = load(&def);
    let out = out_folder(&dir).join("aligned.def");
    // Action 200 (a punch) reaches forward, so its frames' feet are not where a box around
    // them would put them.
    let (code, stdout, stderr) = sprat(&[
        "align",
        text(&def),
        "--anchor",
        "feet",
        "-s",
        "0",
        "-s",
        "200",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("aligned"), "{stdout}");
    let after = load(&out);
    let pixels = ImageStore::new();
    for name in ["0", "200"] {
        let sequence = after.sequence_by_name(name).unwrap();
        for (index, frame) in after.direction_frames(sequence, 0).iter().enumerate() {
            let (x, y) = find_anchor(&after, frame, &Anchor::Feet, &pixels).unwrap();
            assert!(
                x.abs() <= 0.5 && y.abs() <= 0.5,
                "{name}/{index}: feet at {x}, {y}"
            );
            assert_eq!(
                boxes_on_body(&before, name, index),
                boxes_on_body(&after, name, index),
                "{name}/{index}"
            );
        }
    }
    // Other actions are untouched.
    let untouched = |doc: &AnimationSet| {
        let s = doc.sequence_by_name("5").unwrap();
        doc.direction_frames(s, 0)
            .into_iter()
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(untouched(&before), untouched(&after));
}

#[test]
fn blank_frames_are_skipped_by_name_and_all_blank_is_refused() {
    let (dir, def) = kfm_copy();
    let out = out_folder(&dir).join("aligned.def");
    let (code, stdout, stderr) = sprat(&[
        "align",
        text(&def),
        "--anchor",
        "centre",
        "-s",
        "192",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("warning: frame 2 of \"192\" (direction 0): it has no opaque pixels"),
        "{stderr}"
    );
    // Only blank frames: nothing to align on.
    let (_dir, def) = kfm_copy();
    let mut doc = load(&def);
    let id = doc.sequence_by_name("192").unwrap().id;
    let scope = FrameScope::Frames {
        sequence: id,
        direction: 0,
        positions: vec![2, 4],
    };
    let limits = AlignLimits {
        per_frame_origins: true,
        subpixel: false,
    };
    let pixels = ImageStore::new();
    let refused = plan_alignment(&doc, &scope, &Anchor::Feet, &pixels, limits).unwrap_err();
    assert!(refused.message.contains("frame 2 of \"192\""), "{refused}");
    assert!(refused.message.contains("no opaque pixels"), "{refused}");
    // An empty selection.
    let empty = FrameScope::Frames {
        sequence: id,
        direction: 0,
        positions: vec![],
    };
    let refused = plan_alignment(&doc, &empty, &Anchor::Feet, &pixels, limits).unwrap_err();
    assert!(
        refused.message.contains("no frame is selected"),
        "{refused}"
    );
    // Aligning a part is one undo step.
    let original = doc.clone();
    let part = FrameScope::Frames {
        sequence: id,
        direction: 0,
        positions: vec![0, 1, 2],
    };
    let plan = plan_alignment(&doc, &part, &Anchor::Centre, &pixels, limits).unwrap();
    assert_eq!(plan.skipped.len(), 1);
    let command = AlignFrames {
        plan,
        anchor: Anchor::Centre,
        rule: DefaultBoxRule::default(),
        default_boxes: true,
    };
    let mut history = History::new();
    history
        .apply(&mut doc, &Selection::none(), &command, None)
        .unwrap();
    assert_ne!(doc, original);
    history.undo(&mut doc);
    assert_eq!(doc, original);
}

#[test]
fn a_named_point_lines_up() {
    let mut doc = sprat::model::fixtures::long_sequence(6);
    let id = doc.sequence_by_name("long").unwrap().id;
    let pixels = ImageStore::new();
    let limits = AlignLimits {
        per_frame_origins: true,
        subpixel: true,
    };
    let scope = FrameScope::Sequences(vec![id]);
    let hand = Anchor::Point("hand".into());
    let plan = plan_alignment(&doc, &scope, &hand, &pixels, limits).unwrap();
    let command = AlignFrames {
        plan,
        anchor: hand.clone(),
        rule: DefaultBoxRule::default(),
        default_boxes: false,
    };
    History::new()
        .apply(&mut doc, &Selection::none(), &command, None)
        .unwrap();
    for frame in doc.frames.values() {
        assert_eq!(find_anchor(&doc, frame, &hand, &pixels), Ok((0.0, 0.0)));
    }
    let missing = Anchor::Point("foot".into());
    let refused = plan_alignment(&doc, &scope, &missing, &pixels, limits).unwrap_err();
    assert!(
        refused.message.contains("no point named \"foot\""),
        "{refused}"
    );
}

#[test]
fn a_format_with_one_origin_per_direction_is_refused() {
    let dir = copy_of("solarus/lua-1.x/zsdx/sprites/hero", &["tunic1.dat"]);
    let input = dir.path().join("tunic1.dat");
    let out = dir.path().join("aligned.dat");
    // Only the sprite is copied, not its sheets: the missing pictures are errors to allow,
    // so the refusal heard is the format's.
    let (code, stdout, stderr) = sprat(&[
        "align",
        text(&input),
        "--anchor",
        "feet",
        "--allow-errors",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stderr.contains("one origin"), "{stderr}");
    assert!(stderr.contains("nothing written"), "{stderr}");
    assert!(!out.exists());
    let (code, _, stderr) = sprat(&["align", text(&input), "--anchor", "knee", "-o", text(&out)]);
    assert_eq!(code, 1);
    assert!(stderr.contains("not an anchor"), "{stderr}");
    let (code, _, stderr) = sprat(&[
        "align",
        text(&input),
        "--anchor",
        "feet",
        "-s",
        "nope",
        "--allow-errors",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("no sequence named"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn a_layered_aseprite_character_is_refused_alike_by_the_window_and_the_command_line() {
    // The Aseprite writer keeps a file's cels where they were: aligning would move the slices
    // and leave the pictures behind, so both the editor's plan and `sprat align` refuse.
    let dir = tempfile::tempdir().unwrap();
    let input = super::common::layered_aseprite_with_slices(dir.path());
    let doc = load(&input);
    let pixels = ImageStore::new();
    let scope = FrameScope::Sequences(vec![doc.sequences()[0].id]);
    let limits = AlignLimits {
        per_frame_origins: true,
        subpixel: false,
    };
    let plan = plan_alignment(&doc, &scope, &Anchor::Feet, &pixels, limits).unwrap();
    assert!(plan.moved() > 0, "the frames would move: {plan:?}");
    let format = sprat::formats::registry().by_id("aseprite").unwrap();
    for one_per_direction in [OnePerDirection::Refuse, OnePerDirection::MeanMove] {
        let refused = align_for_format(
            &doc,
            &scope,
            &Anchor::Feet,
            &pixels,
            format,
            one_per_direction,
            DefaultBoxRule::default(),
        )
        .unwrap_err();
        assert!(
            refused.message.contains("files cannot hold these frames aligned: saving would lose frame 0: changes to its pictures")
                && refused.message.contains("changes to its pictures")
                && refused.message.ends_with("nothing changed"),
            "{refused}"
        );
    }
    let out = dir.path().join("aligned.aseprite");
    let (code, stdout, stderr) =
        sprat(&["align", text(&input), "--anchor", "feet", "-o", text(&out)]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("files cannot hold these frames aligned")
            && stderr.contains("nothing written"),
        "{stderr}"
    );
    assert!(!out.exists());
    // Where the format holds moved pictures, the same function plans the alignment.
    let (_kfm_dir, def) = kfm_copy();
    let kfm = load(&def);
    let stand = FrameScope::Sequences(vec![kfm.sequence_by_name("0").unwrap().id]);
    let mugen = sprat::formats::registry().by_id("mugen-def").unwrap();
    let aligned = align_for_format(
        &kfm,
        &stand,
        &Anchor::Feet,
        &pixels,
        mugen,
        OnePerDirection::Refuse,
        DefaultBoxRule::default(),
    )
    .unwrap();
    assert!(!aligned.plan.directions.is_empty());
}
