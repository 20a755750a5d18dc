//! The Box tools menu over the canvas: fit, trace, interpolate and mirror on the frames
//! selected in the timeline, each one undo step.

use crate::gui_support;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui_support::undo_steps;
use sprat::app::SpratApp;
use sprat::boxes::mirror::{MirrorAxis, mirror_shape};
use sprat::edit::Selection;
use sprat::model::{AnimationSet, BoxClass, DefaultBoxRule, Shape, effective_boxes};

fn document<'a>(harness: &'a Harness<'_, SpratApp>) -> &'a AnimationSet {
    harness.state().active_document().unwrap().document()
}

/// Selects cells of the direction on show, as a Shift+click in the timeline does.
fn select_frames(harness: &mut Harness<'_, SpratApp>, frames: Vec<usize>) {
    let doc = harness.state_mut().active_document_mut().unwrap();
    let sequence = doc.player.sequence();
    let direction = doc.player.direction();
    if let Some(&first) = frames.first() {
        doc.select_frame(first);
    }
    doc.session
        .set_selection(Selection::frames(sequence, direction, frames));
    harness.run_steps(2);
}

/// The hurt boxes frame `index` of the sequence on show shows.
fn hurt_on(harness: &Harness<'_, SpratApp>, index: usize) -> Vec<Shape> {
    let doc = harness.state().active_document().unwrap();
    let frames = doc.direction_frames();
    effective_boxes(&frames, index, DefaultBoxRule::default())
        .into_iter()
        .filter(|b| b.collision.class == BoxClass::Hurt)
        .map(|b| b.collision.shape.clone())
        .collect()
}

fn menu_action(harness: &mut Harness<'_, SpratApp>, action: &str) {
    harness.get_by_label("Box tools").click();
    harness.run_steps(2);
    harness.get_by_role_and_label(Role::Button, action).click();
    harness.run_steps(3);
}

fn left_edge(shape: &Shape) -> i32 {
    match shape {
        Shape::Rect { x, .. } => x.floor(),
        Shape::Circle { center, .. } => center.x.floor(),
    }
}

#[test]
fn fit_and_trace_act_on_the_selected_frames_in_one_undo_step_each() {
    let (_dir, mut harness) = gui_support::kfm_editor("box-tools");
    let before = document(&harness).clone();
    let untouched = hurt_on(&harness, 5);
    select_frames(&mut harness, vec![1, 2, 3]);
    menu_action(&mut harness, "Trace");
    assert_eq!(undo_steps(&harness), 1, "{}", gui_support::status(&harness));
    for index in 1..=3 {
        let hurt = hurt_on(&harness, index);
        assert!((1..=3).contains(&hurt.len()), "frame {index}: {hurt:?}");
    }
    assert_eq!(hurt_on(&harness, 5), untouched, "frame 5 was not selected");
    gui_support::undo(&mut harness);
    assert_eq!(document(&harness), &before);

    menu_action(&mut harness, "Fit");
    assert_eq!(undo_steps(&harness), 1);
    for index in 1..=3 {
        assert_eq!(hurt_on(&harness, index).len(), 1, "frame {index}");
    }
    gui_support::undo(&mut harness);
    assert_eq!(document(&harness), &before);
}

#[test]
fn interpolate_fills_the_frames_between_two_keyframes_in_one_step() {
    let (_dir, mut harness) = gui_support::kfm_editor("box-tools");
    select_frames(&mut harness, vec![0, 4]);
    menu_action(&mut harness, "Fit");
    let (a, b) = (hurt_on(&harness, 0), hurt_on(&harness, 4));
    assert_eq!((a.len(), b.len()), (1, 1));
    let fitted = document(&harness).clone();
    let steps = undo_steps(&harness);
    // Interpolate… first shows what the frames between would get, changing nothing.
    menu_action(&mut harness, "Interpolate…");
    assert_eq!(
        undo_steps(&harness),
        steps,
        "nothing is applied before Apply"
    );
    assert_eq!(document(&harness), &fitted);
    for index in 1..4 {
        let line = format!("Frame {index}: hurt (Clsn2) ");
        assert!(
            harness.query_by_label_contains(&line).is_some(),
            "the preview lists frame {index}'s box"
        );
    }
    harness.get_by_role_and_label(Role::Button, "Apply").click();
    harness.run_steps(3);
    assert_eq!(
        undo_steps(&harness),
        steps + 1,
        "{}",
        gui_support::status(&harness)
    );
    let (low, high) = {
        let (x, y) = (left_edge(&a[0]), left_edge(&b[0]));
        (x.min(y), x.max(y))
    };
    for index in 1..4 {
        let hurt = hurt_on(&harness, index);
        assert_eq!(hurt.len(), 1, "frame {index}");
        let x = left_edge(&hurt[0]);
        assert!(
            (low..=high).contains(&x),
            "frame {index}: {x} not in {low}..={high}"
        );
    }
    gui_support::undo(&mut harness);
    assert_eq!(document(&harness), &fitted);
}

#[test]
fn mirror_flips_the_boxes_of_the_frame_in_place_in_one_step() {
    let (_dir, mut harness) = gui_support::kfm_editor("box-tools");
    let before = document(&harness).clone();
    let original = hurt_on(&harness, 0);
    assert!(!original.is_empty());
    select_frames(&mut harness, vec![0]);
    menu_action(&mut harness, "Mirror horizontally");
    assert_eq!(undo_steps(&harness), 1, "{}", gui_support::status(&harness));
    let mut expected: Vec<Shape> = original
        .iter()
        .map(|s| mirror_shape(s, MirrorAxis::Horizontal))
        .collect();
    let mut now = hurt_on(&harness, 0);
    let key = |s: &Shape| format!("{s:?}");
    expected.sort_by_key(key);
    now.sort_by_key(key);
    assert_eq!(now, expected);
    gui_support::undo(&mut harness);
    assert_eq!(document(&harness), &before);
}

#[test]
fn box_warnings_are_listed_once_without_asking_and_select_their_frame() {
    let (_dir, mut harness) = gui_support::kfm_editor("box-tools");
    gui_support::wait_for_check(&mut harness);
    let box_warnings = |harness: &Harness<'_, SpratApp>| -> Vec<_> {
        harness
            .state()
            .active_document()
            .unwrap()
            .diagnostics()
            .iter()
            .filter(|d| sprat::boxes::lint::is_box_warning(d))
            .cloned()
            .collect()
    };
    let warnings = box_warnings(&harness);
    assert!(!warnings.is_empty());
    assert!(warnings.iter().all(|d| d.subject.is_some()));
    // An edit and its undo are checked again: the same warnings, not added twice.
    select_frames(&mut harness, vec![0]);
    menu_action(&mut harness, "Mirror horizontally");
    gui_support::wait_for_check(&mut harness);
    gui_support::undo(&mut harness);
    gui_support::wait_for_check(&mut harness);
    assert_eq!(box_warnings(&harness), warnings);
}

/// The hit boxes frame `index` of the sequence on show shows.
fn hit_on(harness: &Harness<'_, SpratApp>, index: usize) -> Vec<Shape> {
    let doc = harness.state().active_document().unwrap();
    let frames = doc.direction_frames();
    effective_boxes(&frames, index, DefaultBoxRule::default())
        .into_iter()
        .filter(|b| b.collision.class == BoxClass::Hit)
        .map(|b| b.collision.shape.clone())
        .collect()
}

/// Opens the Box tools list (a submenu) whose button says `label`.
fn open_list(harness: &mut Harness<'_, SpratApp>, label: &str) {
    harness.get_by_label(label).click();
    harness.run_steps(2);
}

#[test]
fn the_class_and_easing_lists_open_inside_the_box_tools_menu_and_keep_it_open() {
    let (_dir, mut harness) = gui_support::kfm_editor("box-tools-lists");
    select_frames(&mut harness, vec![1]);
    assert!(
        hit_on(&harness, 1).is_empty(),
        "KFM stands without hit boxes"
    );
    harness.get_by_label("Box tools").click();
    harness.run_steps(2);
    // The Class list: open it, pick "hit"; the menu stays open with the choice shown.
    open_list(&mut harness, "Class: hurt (Clsn2)");
    harness.get_by_label("hit (Clsn1)").click();
    harness.run_steps(2);
    assert!(
        harness.query_by_label("Fit").is_some(),
        "picking a class closed the Box tools menu"
    );
    assert!(harness.query_by_label("Class: hit (Clsn1)").is_some());
    // The Easing list likewise.
    open_list(&mut harness, "Easing: linear");
    harness.get_by_label("ease in").click();
    harness.run_steps(2);
    assert!(
        harness.query_by_label("Fit").is_some(),
        "picking an easing closed the Box tools menu"
    );
    assert!(harness.query_by_label("Easing: ease in").is_some());
    // Fit now places a hit box.
    harness.get_by_role_and_label(Role::Button, "Fit").click();
    harness.run_steps(3);
    assert_eq!(
        hit_on(&harness, 1).len(),
        1,
        "{}",
        gui_support::status(&harness)
    );
}
