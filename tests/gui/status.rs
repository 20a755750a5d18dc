//! The status bar tells what every edit did, with counts, until the next action: tools over
//! many frames, undo and redo, refusals.

use crate::gui_support;
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;
use sprat::edit::Selection;

/// What the status bar shows now (a refusal that no longer applies is not shown).
fn shown(harness: &Harness<'_, SpratApp>) -> String {
    let app = harness.state();
    app.status
        .as_ref()
        .filter(|s| s.applies(app.active_document()))
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

fn select_frames(harness: &mut Harness<'_, SpratApp>, frames: Vec<usize>) {
    let doc = harness.state_mut().active_document_mut().unwrap();
    let (sequence, direction) = (doc.player.sequence(), doc.player.direction());
    doc.select_frame(frames[0]);
    doc.session
        .set_selection(Selection::frames(sequence, direction, frames));
    harness.run_steps(2);
}

fn box_tool(harness: &mut Harness<'_, SpratApp>, action: &str) {
    harness.get_by_label("Box tools").click();
    harness.run_steps(2);
    harness.get_by_role_and_label(Role::Button, action).click();
    harness.run_steps(3);
}

#[test]
fn every_edit_says_what_it_did_and_undo_says_what_it_undid() {
    let (_dir, mut harness) = gui_support::kfm_editor("status");
    assert!(shown(&harness).starts_with("Opened"), "{}", shown(&harness));

    let frames = gui_support::frame_count(&harness);
    assert!(frames >= 4, "KFM's standing action has {frames} frames");
    select_frames(&mut harness, (0..frames).collect());
    box_tool(&mut harness, "Trace");
    let traced = shown(&harness);
    assert!(
        traced.starts_with("Traced hurt")
            && traced.contains(&format!("on {frames} frames,"))
            && traced.ends_with(" each")
            && !traced.contains("at most"),
        "{traced}"
    );

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    let undid = shown(&harness);
    assert!(undid.starts_with("Undid: Trace hurt"), "{undid}");
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    harness.run_steps(2);
    assert!(
        shown(&harness).starts_with("Redid: Trace hurt"),
        "{}",
        shown(&harness)
    );

    select_frames(&mut harness, vec![0, 1, 2, 3]);
    box_tool(&mut harness, "Mirror horizontally");
    let mirrored = shown(&harness);
    assert!(
        mirrored.starts_with("Mirrored ")
            && mirrored.ends_with(" of frame 0 horizontally onto 3 frames"),
        "{mirrored}"
    );
    assert_eq!(
        harness.state().active_document().unwrap().selected_frames(),
        vec![0, 1, 2, 3],
        "the frames chosen stay chosen"
    );

    // An edit from the timeline's keys: the generic sentence, from the step's label.
    select_frames(&mut harness, vec![1, 2]);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::D);
    harness.run_steps(2);
    assert_eq!(shown(&harness), "Duplicated 2 frames");
}

#[test]
fn a_refusal_goes_with_the_next_action() {
    let (_dir, mut harness) = gui_support::kfm_editor("status");
    // Nothing was copied: Paste is refused.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::V);
    harness.run_steps(2);
    let refused = shown(&harness);
    assert!(
        refused.starts_with("Not changed: the frame clipboard is empty"),
        "{refused}"
    );

    // The next action, an edit or not, takes it away.
    harness.key_press(Key::G);
    harness.run_steps(2);
    assert!(
        !shown(&harness).starts_with("Not changed"),
        "{}",
        shown(&harness)
    );

    harness.key_press_modifiers(Modifiers::COMMAND, Key::V);
    harness.run_steps(2);
    select_frames(&mut harness, vec![0]);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::D);
    harness.run_steps(2);
    assert_eq!(shown(&harness), "Duplicated frame");
}
