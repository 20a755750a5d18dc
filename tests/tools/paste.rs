//! Paste special: timing across units, boxes with M.U.G.E.N defaults, points; one undo step.

use super::{copy_of, durations, kfm_copy, load};
use sprat::edit::clipboard::FrameClipboard;
use sprat::edit::paste_special::{PastePart, PasteSpecial};
use sprat::edit::{History, Selection};
use sprat::model::{AnimationSet, DefaultBoxRule, FrameDuration, effective_boxes};

fn paste(
    clipboard: &FrameClipboard,
    doc: &AnimationSet,
    name: &str,
    positions: Vec<usize>,
    part: PastePart,
) -> PasteSpecial {
    PasteSpecial {
        clipboard: clipboard.clone(),
        part,
        sequence: doc.sequence_by_name(name).unwrap().id,
        direction: 0,
        positions,
        rule: DefaultBoxRule::default(),
        default_boxes: true,
    }
}

#[test]
fn timing_from_ticks_lands_in_whole_milliseconds_without_drift() {
    let (_kfm_dir, def) = kfm_copy();
    let kfm = load(&def);
    let standing = kfm.sequence_by_name("0").unwrap().id;
    // 10 and 7 ticks: 166.67 ms and 116.67 ms.
    let clipboard = FrameClipboard::copy(&kfm, standing, 0, &[0, 1]).unwrap();
    let dir = copy_of("aseprite", &["layers_and_tags.aseprite"]);
    let mut doc = load(&dir.path().join("layers_and_tags.aseprite"));
    let name = doc.sequences()[0].name.clone();
    assert!(durations(&doc, &name).len() >= 2);
    let original = doc.clone();
    let mut history = History::new();
    let command = paste(&clipboard, &doc, &name, vec![0, 1], PastePart::Timing);
    history
        .apply(&mut doc, &Selection::none(), &command, None)
        .unwrap();
    let after = durations(&doc, &name);
    assert_eq!(
        after[..2],
        [FrameDuration::Millis(167), FrameDuration::Millis(116)]
    );
    history.undo(&mut doc);
    assert_eq!(doc, original);
}

#[test]
fn boxes_are_what_the_copied_frame_showed_inherited_ones_included() {
    let (_dir, def) = kfm_copy();
    let mut doc = load(&def);
    let original = doc.clone();
    let standing = doc.sequence_by_name("0").unwrap().id;
    // Frame 1 of action 0 shows the action's Clsn2Default boxes without declaring any.
    let clipboard = FrameClipboard::copy(&doc, standing, 0, &[1]).unwrap();
    assert_eq!(clipboard.shown_boxes[0].len(), 2);
    let command = paste(&clipboard, &doc, "200", vec![0, 2], PastePart::Boxes);
    let mut history = History::new();
    history
        .apply(&mut doc, &Selection::none(), &command, None)
        .unwrap();
    let punch = doc.sequence_by_name("200").unwrap();
    let frames = doc.direction_frames(punch, 0);
    for index in [0, 2] {
        let shown: Vec<_> = effective_boxes(&frames, index, DefaultBoxRule::default())
            .into_iter()
            .map(|b| b.collision.shape.clone())
            .collect();
        let copied: Vec<_> = clipboard.shown_boxes[0]
            .iter()
            .map(|b| b.shape.clone())
            .collect();
        assert_eq!(shown, copied, "frame {index}");
    }
    // Frame 1 was not selected and shows what it showed.
    let before = original.sequence_by_name("200").unwrap();
    let before_frames = original.direction_frames(before, 0);
    let shapes = |frames: &[&sprat::model::Frame]| -> Vec<_> {
        effective_boxes(frames, 1, DefaultBoxRule::default())
            .into_iter()
            .map(|b| (b.collision.class.clone(), b.collision.shape.clone()))
            .collect()
    };
    assert_eq!(shapes(&frames), shapes(&before_frames));
    history.undo(&mut doc);
    assert_eq!(doc, original);
}

#[test]
fn points_replace_the_targets_points_and_bad_selections_are_refused() {
    let source = sprat::model::fixtures::long_sequence(3);
    let id = source.sequence_by_name("long").unwrap().id;
    let clipboard = FrameClipboard::copy(&source, id, 0, &[2]).unwrap();
    let mut doc = sprat::model::fixtures::long_sequence(4);
    // Move the target's points away first, so the paste is seen.
    for frame in doc.frames.values_mut() {
        for element in &mut frame.elements {
            if let sprat::model::ElementKind::Point(p) = &mut element.kind {
                p.position = sprat::model::Point::from_ints(50, 50);
            }
        }
    }
    let original = doc.clone();
    let mut history = History::new();
    let command = paste(&clipboard, &doc, "long", vec![], PastePart::Points);
    let refused = history
        .apply(&mut doc, &Selection::none(), &command, None)
        .unwrap_err();
    assert!(
        refused.message.contains("no frame is selected"),
        "{refused}"
    );
    let two = FrameClipboard::copy(&source, id, 0, &[0, 1]).unwrap();
    let command = paste(&two, &doc, "long", vec![0, 1, 2], PastePart::Points);
    let refused = history
        .apply(&mut doc, &Selection::none(), &command, None)
        .unwrap_err();
    assert!(
        refused
            .message
            .contains("2 frames were copied and 3 frames selected"),
        "{refused}"
    );
    assert_eq!(doc, original);
    let command = paste(&clipboard, &doc, "long", vec![1, 3], PastePart::Points);
    history
        .apply(&mut doc, &Selection::none(), &command, None)
        .unwrap();
    let long = doc.sequence_by_name("long").unwrap();
    let frames = doc.direction_frames(long, 0);
    let hand = |i: usize| {
        frames[i]
            .elements
            .iter()
            .filter_map(|e| e.as_point().map(|p| (e.name.to_string(), p.position)))
            .collect::<Vec<_>>()
    };
    let copied = ("hand".to_string(), sprat::model::Point::from_ints(2, -3));
    assert_eq!(hand(1), vec![copied.clone()]);
    assert_eq!(hand(3), vec![copied]);
    assert_eq!(hand(0)[0].1, sprat::model::Point::from_ints(50, 50));
    history.undo(&mut doc);
    assert_eq!(doc, original);
}
