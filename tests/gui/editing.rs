//! Editing through the real editor: inspector fields go through `edit` commands, are undone and
//! redone from the keyboard, refused values leave the document alone, and Ctrl+S writes the
//! file in its own format.

use crate::gui_support;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;
use sprat::formats::{ReadContext, registry};
use sprat::model::FrameDuration;
use std::path::{Path, PathBuf};

/// The showcase set written as a Sprat project in a fresh folder.
fn showcase_file(name: &str) -> (gui_support::TempDir, PathBuf) {
    gui_support::showcase_file("gui-editing", name)
}

/// The editor with `path` opened through File > Open.
fn editor_on(path: &Path) -> Harness<'static, SpratApp> {
    editor_with_answers(path, &[])
}

/// The same, with later answers for the file dialog.
fn editor_with_answers(path: &Path, later: &[PathBuf]) -> Harness<'static, SpratApp> {
    let mut harness = gui_support::editor_opening(path, later, egui::vec2(1280.0, 800.0));
    gui_support::click_row(&mut harness, "punch");
    harness
}

fn punch_loop(harness: &Harness<'_, SpratApp>) -> Option<usize> {
    let doc = harness.state().active_document().unwrap();
    doc.document().sequence_by_name("punch").unwrap().loop_point
}

fn title(harness: &Harness<'_, SpratApp>) -> String {
    harness.state().active_document().unwrap().title()
}

/// The number field whose value ends with `unit`.
fn spin_with_unit<'a>(harness: &'a Harness<'_, SpratApp>, unit: &str) -> egui_kittest::Node<'a> {
    harness
        .get_all_by_role(Role::SpinButton)
        .find(|n| n.value().is_some_and(|v| v.ends_with(unit)))
        .unwrap_or_else(|| panic!("no number field in {unit}"))
}

#[test]
fn the_loop_point_is_edited_refused_past_the_end_undone_and_redone() {
    let (_path_dir, path) = showcase_file("loop");
    let mut harness = editor_on(&path);
    assert_eq!(punch_loop(&harness), None);
    assert!(!title(&harness).contains('*'));

    harness.get_by_label("back to frame").click();
    harness.run_steps(2);
    assert_eq!(punch_loop(&harness), Some(0));
    assert!(title(&harness).contains(" *"), "{}", title(&harness));

    // The punch has 5 frames: looping to frame 9 is refused with a message, and not applied.
    let loop_field = harness
        .get_all_by_role(Role::SpinButton)
        .find(|n| n.value().is_some_and(|v| v == "0"))
        .expect("the loop frame field");
    loop_field.set_value_accesskit(9.0);
    harness.run_steps(2);
    assert_eq!(punch_loop(&harness), Some(0));
    let status = harness.state().status.as_ref().unwrap().text.clone();
    assert!(status.starts_with("Not changed:"), "{status}");

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(punch_loop(&harness), None);
    assert!(
        !title(&harness).contains('*'),
        "undone back to the saved state"
    );
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    harness.run_steps(2);
    assert_eq!(punch_loop(&harness), Some(0));
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    harness.run_steps(2);
    assert_eq!(punch_loop(&harness), Some(0));
}

#[test]
fn a_duration_edit_is_saved_with_ctrl_s_in_the_files_own_format() {
    let (_path_dir, path) = showcase_file("save");
    let mut harness = editor_on(&path);
    spin_with_unit(&harness, "ticks").set_value_accesskit(10.0);
    harness.run_steps(2);
    let first = |harness: &Harness<'_, SpratApp>| {
        let doc = harness.state().active_document().unwrap();
        let punch = doc.document().sequence_by_name("punch").unwrap();
        doc.document()
            .frame(punch.directions[0].frames[0])
            .unwrap()
            .duration
    };
    assert_eq!(first(&harness), FrameDuration::Ticks(10));
    assert!(title(&harness).contains(" *"));

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    assert!(!title(&harness).contains('*'), "saved: {}", title(&harness));
    let status = harness.state().status.as_ref().unwrap().text.clone();
    assert!(status.starts_with("Saved "), "{status}");

    let (loaded, format) = registry()
        .open(&path, &ReadContext::for_path(&path))
        .unwrap();
    assert_eq!(format.id(), "sprat");
    let punch = loaded.document.sequence_by_name("punch").unwrap();
    let frame = loaded
        .document
        .frame(punch.directions[0].frames[0])
        .unwrap();
    assert_eq!(frame.duration, FrameDuration::Ticks(10));
}

#[test]
fn opening_another_file_with_unsaved_changes_opens_a_tab_and_closing_the_changed_one_asks() {
    let (_path_dir, path) = showcase_file("ask");
    let (_other_dir, other) = showcase_file("ask-other");
    let mut harness = editor_with_answers(&path, std::slice::from_ref(&other));
    harness.get_by_label("back to frame").click();
    harness.run_steps(2);
    assert!(title(&harness).contains(" *"));

    // Opening asks nothing: the other file comes in a tab of its own, the edit waits in its.
    gui_support::open_next(&mut harness);
    assert!(harness.state().confirm_discard.is_none());
    assert_eq!(
        harness.state().active_document().unwrap().path(),
        Some(other.as_path())
    );
    let waiting: Vec<_> = harness
        .state()
        .documents
        .iter()
        .filter(|t| Some(t.id) != harness.state().active_tab_id())
        .collect();
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].doc.path(), Some(path.as_path()));
    assert!(waiting[0].doc.session.is_dirty());

    // Closing the changed tab asks; Cancel keeps it with its edit.
    harness.key_press_modifiers(Modifiers::CTRL | Modifiers::SHIFT, Key::Tab);
    harness.run_steps(2);
    assert_eq!(
        harness.state().active_document().unwrap().path(),
        Some(path.as_path())
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::W);
    harness.run_steps(2);
    harness.get_by_label_contains("has changes that are not saved");
    harness.get_by_label("Cancel").click();
    harness.run_steps(2);
    assert!(harness.state().confirm_discard.is_none());
    assert_eq!(punch_loop(&harness), Some(0), "the edit is still there");
    assert_eq!(
        harness.state().active_document().unwrap().path(),
        Some(path.as_path())
    );
}

#[test]
fn the_history_window_jumps_back_to_the_file_as_opened() {
    let (_path_dir, path) = showcase_file("history");
    let mut harness = editor_on(&path);
    harness.get_by_label("back to frame").click();
    harness.run_steps(2);
    spin_with_unit(&harness, "ticks").set_value_accesskit(9.0);
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::H);
    harness.run_steps(2);
    harness.get_by_label("(as opened)").click();
    harness.run_steps(2);
    assert_eq!(punch_loop(&harness), None);
    assert!(!title(&harness).contains('*'));
}

#[test]
fn a_failed_save_says_why_and_keeps_the_edits() {
    let (_path_dir, path) = showcase_file("fail");
    let mut harness = editor_on(&path);
    harness.get_by_label("back to frame").click();
    harness.run_steps(2);
    // The folder is replaced by a plain file under the editor: nothing can be written there.
    let folder = path.parent().unwrap();
    std::fs::remove_dir_all(folder).unwrap();
    std::fs::write(folder, b"not a folder").unwrap();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    let status = harness.state().status.as_ref().unwrap().text.clone();
    assert!(status.starts_with("Not saved:"), "{status}");
    assert!(title(&harness).contains(" *"), "still unsaved");
    assert_eq!(punch_loop(&harness), Some(0), "the edit is kept");
    assert_eq!(std::fs::read(folder).unwrap(), b"not a folder");
    let _ = std::fs::remove_file(folder);
}

#[test]
fn unsaved_work_left_by_a_crash_is_offered_back_at_start() {
    let (_path_dir, path) = showcase_file("recover");
    let recovery = path.parent().unwrap().join("recovery");
    // An earlier run edited the file and autosaved, then ended without saving.
    gui_support::leave_autosaved_edit(&path, &recovery, 2);
    let mut harness = gui_support::editor_after_crash(&recovery);
    harness.get_by_label_contains("closed without saving");
    harness.get_by_label("Recover").click();
    harness.run_steps(2);
    assert_eq!(punch_loop(&harness), Some(2));
    assert!(title(&harness).contains(" *"), "recovered work is unsaved");
}

#[test]
fn backspace_deletes_like_delete_but_not_while_typing() {
    let (_path_dir, path) = showcase_file("backspace");
    let mut harness = editor_on(&path);
    let punch_frames = |harness: &Harness<'_, SpratApp>| {
        let doc = harness.state().active_document().unwrap();
        let punch = doc.document().sequence_by_name("punch").unwrap();
        punch.directions[0].frames.len()
    };
    assert_eq!(punch_frames(&harness), 5);
    harness.get_by_label("frame 1").click();
    harness.run_steps(2);
    harness.key_press(Key::Backspace);
    harness.run_steps(2);
    assert_eq!(punch_frames(&harness), 4, "Backspace deleted the frame");

    // In a text field Backspace edits the text, nothing else.
    gui_support::type_into(&mut harness, "Label", "ab");
    harness.key_press(Key::Backspace);
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert_eq!(punch_frames(&harness), 4);
    let doc = harness.state().active_document().unwrap();
    let punch = doc.document().sequence_by_name("punch").unwrap();
    let label = &doc
        .document()
        .frame(punch.directions[0].frames[1])
        .unwrap()
        .label;
    assert_eq!(label, "a");
}

#[test]
fn ctrl_z_in_a_text_field_undoes_the_typing_not_the_document() {
    let (_path_dir, path) = showcase_file("text-undo");
    let mut harness = editor_on(&path);
    harness.get_by_label("back to frame").click();
    harness.run_steps(2);
    assert_eq!(punch_loop(&harness), Some(0));

    gui_support::type_into(&mut harness, "Name", "x");
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        punch_loop(&harness),
        Some(0),
        "the loop point edit is still there"
    );
    let name = harness.get_by_role_and_label(Role::TextInput, "Name");
    assert_eq!(
        name.value().as_deref(),
        Some("punch"),
        "the typing was undone"
    );

    // Out of the field, Ctrl+Z undoes the document again.
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(punch_loop(&harness), None);
}
