//! Saving through the real editor: Save As to another format shows each loss with its place and
//! writes nothing until confirmed (cancel writes nothing), and a failed save keeps the file on
//! disk and the edits in memory and says what happened in a window.
//!
//! Failures must happen for root too (tests may run as root, where `chmod` does not stop
//! writes), so they use places no user can write: a path under `/proc` (the kernel refuses to
//! create files there, whoever asks) for Save As, and for Ctrl+S the document's folder moved
//! away with a plain file left in its place (a directory-shaped obstacle).

use crate::{common, gui_support};

use gui_support::status;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;
use sprat::formats::{ReadContext, registry};
use sprat::model::FrameDuration;
use std::path::{Path, PathBuf};

/// The editor on `path` (opened through File > Open) showing "walking"; `later` answers the
/// following file dialogs.
fn editor_on(path: &Path, later: &[PathBuf]) -> Harness<'static, SpratApp> {
    let mut harness = gui_support::editor_opening(path, later, egui::vec2(1400.0, 1000.0));
    gui_support::click_row(&mut harness, "walking");
    harness
}

fn title(harness: &Harness<'_, SpratApp>) -> String {
    harness.state().active_document().unwrap().title()
}

/// Sets walking's delay to 120 ms in the inspector (an unsaved edit).
fn edit_delay(harness: &mut Harness<'_, SpratApp>) {
    let field = harness.get_by_role_and_label(Role::SpinButton, "Delay");
    assert_eq!(field.value().as_deref(), Some("100 ms"));
    field.set_value_accesskit(120.0);
    harness.run_steps(2);
    assert!(title(harness).contains(" *"));
}

fn walking_delay(harness: &Harness<'_, SpratApp>) -> FrameDuration {
    let doc = harness.state().active_document().unwrap();
    let walking = doc.document().sequence_by_name("walking").unwrap();
    doc.document()
        .frame(walking.directions[0].frames[0])
        .unwrap()
        .duration
}

/// Clicks and lets a window that opens from it appear (a new egui window spends its first
/// frame measuring itself, invisibly).
fn click(harness: &mut Harness<'_, SpratApp>, label: &str) {
    harness.get_by_label(label).click();
    harness.run_steps(3);
}

/// Clicks the button labelled `label` (a window may carry the same title).
fn click_button(harness: &mut Harness<'_, SpratApp>, label: &str) {
    harness.get_by_role_and_label(Role::Button, label).click();
    harness.run_steps(3);
}

/// Opens Save As, picks `format` (by its name) and the file through Browse….
fn save_as_to(harness: &mut Harness<'_, SpratApp>, format: Option<&str>) {
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    harness.run_steps(2);
    if let Some(format) = format {
        harness
            .get_by_role_and_label(Role::ComboBox, "Format")
            .click();
        harness.run_steps(2);
        click(harness, format);
    }
    click(harness, "Browse…");
}

#[test]
fn save_as_air_lists_the_losses_and_writes_only_once_confirmed() {
    let (_dir, path) = gui_support::tunic_copy("save-air");
    let original = std::fs::read(&path).unwrap();
    let target = path.with_file_name("tunic1.air");
    let mut harness = editor_on(&path, std::slice::from_ref(&target));
    save_as_to(&mut harness, Some("M.U.G.E.N animation (AIR)"));
    click(&mut harness, "Save");

    // Each loss is listed with its place; nothing is on disk yet.
    let listed: Vec<String> = harness
        .get_all_by_role(Role::Label)
        .filter_map(|n| n.value())
        .filter(|l| l.starts_with("• "))
        .collect();
    assert!(!listed.is_empty(), "the losses are listed");
    assert!(
        listed
            .iter()
            .any(|l| l.contains("walking") && l.contains("direction")),
        "{listed:#?}"
    );
    assert!(!target.exists(), "nothing written before confirming");

    click(&mut harness, "Cancel");
    assert!(!target.exists(), "cancel writes nothing");
    assert!(status(&harness).contains("nothing was written"));

    click(&mut harness, "Save");
    click(&mut harness, "Save anyway");
    assert!(target.exists(), "{}", status(&harness));
    assert!(
        status(&harness).starts_with("Saved "),
        "{}",
        status(&harness)
    );
    let (loaded, format) = registry()
        .open(&target, &ReadContext::for_path(&target))
        .unwrap();
    assert_eq!(format.id(), "mugen-air");
    assert!(!loaded.document.sequences().is_empty());
    let doc = harness.state().active_document().unwrap();
    assert_eq!(doc.format_id(), "mugen-air");
    assert_eq!(doc.path(), Some(target.as_path()));
    assert!(!title(&harness).contains('*'));
    assert_eq!(
        std::fs::read(&path).unwrap(),
        original,
        "the Solarus file is untouched"
    );
}

#[test]
fn save_as_isprite_cancelled_writes_nothing() {
    let (_dir, path) = gui_support::tunic_copy("save-isprite");
    let target = path.with_file_name("tunic1.isprite");
    let mut harness = editor_on(&path, std::slice::from_ref(&target));
    save_as_to(&mut harness, Some("Vision Riders Integrated Sprite"));
    click(&mut harness, "Save");
    let losses = harness
        .get_all_by_role(Role::Label)
        .filter_map(|n| n.value())
        .filter(|l| l.starts_with("• "))
        .count();
    assert!(
        losses > 0,
        "Solarus directions do not fit ISPRITE sequences"
    );
    assert!(!target.exists());
    click(&mut harness, "Cancel");
    // Back in the Save As window: cancel that too.
    click(&mut harness, "Cancel");
    assert!(!target.exists());
    let files: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(files, vec![std::ffi::OsString::from("tunic1.dat")]);
    assert_eq!(
        harness.state().active_document().unwrap().format_id(),
        "solarus-lua"
    );
}

#[test]
fn a_save_as_where_nobody_may_write_keeps_the_file_and_the_edits_and_says_why() {
    let (_dir, path) = gui_support::tunic_copy("save-proc");
    let original = std::fs::read(&path).unwrap();
    let forbidden = PathBuf::from("/proc/sprat-cannot-write-here/tunic1.dat");
    let mut harness = editor_on(&path, std::slice::from_ref(&forbidden));
    edit_delay(&mut harness);
    save_as_to(&mut harness, None);
    click(&mut harness, "Save");

    assert!(
        status(&harness).starts_with("Not saved:"),
        "{}",
        status(&harness)
    );
    harness.get_by_label("Not saved");
    let why = harness
        .get_all_by_role(Role::Label)
        .filter_map(|n| n.value())
        .find(|l| l.starts_with("Could not save") && l.contains("sprat-cannot-write-here"))
        .expect("the window names the file");
    assert!(why.contains("edits are still open"), "{why}");
    assert!(!forbidden.exists());
    assert_eq!(walking_delay(&harness), FrameDuration::Millis(120));
    assert!(title(&harness).contains(" *"), "still unsaved");
    assert_eq!(
        harness.state().active_document().unwrap().path(),
        Some(path.as_path())
    );
    assert_eq!(std::fs::read(&path).unwrap(), original);

    click(&mut harness, "OK");
    assert!(harness.query_by_label("Not saved").is_none(), "dismissed");
}

#[test]
fn a_failed_ctrl_s_keeps_the_old_file_and_the_edits_and_says_why() {
    let (_dir, path) = gui_support::tunic_copy("save-ctrl-s");
    let original = std::fs::read(&path).unwrap();
    let mut harness = editor_on(&path, &[]);
    edit_delay(&mut harness);

    // The folder goes away under the editor and a plain file takes its name: nothing can be
    // created there, for root too. The old file itself is kept aside to compare.
    let folder = path.parent().unwrap();
    let kept = folder.with_file_name("hero-kept");
    std::fs::rename(folder, &kept).unwrap();
    std::fs::write(folder, b"not a folder").unwrap();

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    assert!(
        status(&harness).starts_with("Not saved:"),
        "{}",
        status(&harness)
    );
    harness.get_by_label("Not saved");
    assert!(
        harness
            .query_by_label("The file on disk is as it was, and your edits are still open.")
            .is_some()
    );
    assert_eq!(walking_delay(&harness), FrameDuration::Millis(120));
    assert!(title(&harness).contains(" *"));
    assert_eq!(std::fs::read(folder).unwrap(), b"not a folder");
    assert_eq!(std::fs::read(kept.join("tunic1.dat")).unwrap(), original);
    let leftovers: Vec<_> = std::fs::read_dir(&kept).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left behind");

    // With the folder back, the same edits save.
    std::fs::remove_file(folder).unwrap();
    std::fs::rename(&kept, folder).unwrap();
    click(&mut harness, "OK");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    assert!(
        status(&harness).starts_with("Saved "),
        "{}",
        status(&harness)
    );
    assert!(!title(&harness).contains('*'));
    assert_ne!(std::fs::read(&path).unwrap(), original);
}

#[test]
fn closing_the_window_with_unsaved_changes_asks_first() {
    let (_dir, path) = gui_support::tunic_copy("save-close");
    let mut harness = editor_on(&path, &[]);
    edit_delay(&mut harness);
    gui_support::request_quit(&mut harness);
    assert_eq!(
        harness.state().confirm_discard,
        Some(sprat::app::AfterConfirm::Quit)
    );
    harness.get_by_label("Unsaved changes");

    // Cancel keeps everything open; asking again and choosing Save writes the file.
    click(&mut harness, "Cancel");
    assert_eq!(harness.state().confirm_discard, None);
    assert_eq!(walking_delay(&harness), FrameDuration::Millis(120));
    gui_support::request_quit(&mut harness);
    click(&mut harness, "Save");
    assert!(
        status(&harness).starts_with("Saved "),
        "{}",
        status(&harness)
    );
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("frame_delay = 120,")
    );
}

#[test]
fn save_as_over_another_file_asks_before_replacing_it() {
    let (_dir, path) = gui_support::tunic_copy("save-replace");
    let original = std::fs::read(&path).unwrap();
    let other = path.with_file_name("other.dat");
    std::fs::write(&other, b"-- another sprite\n").unwrap();
    let mut harness = editor_on(&path, std::slice::from_ref(&other));
    save_as_to(&mut harness, None);
    click(&mut harness, "Save");
    harness.get_by_label_contains("already exists; it will be replaced");
    assert_eq!(std::fs::read(&other).unwrap(), b"-- another sprite\n");

    click(&mut harness, "Save anyway");
    assert!(
        status(&harness).starts_with("Saved "),
        "{}",
        status(&harness)
    );
    assert_eq!(
        std::fs::read(&other).unwrap(),
        original,
        "unedited: the same bytes"
    );
    assert!(
        !path.with_file_name("other.dat.bak").exists(),
        "no backup lands beside a game's files"
    );
}

/// Gives walking's second frame its own delay, which Solarus (one delay per animation)
/// cannot write.
fn edit_one_frame_delay(harness: &mut Harness<'_, SpratApp>) {
    let doc = harness.state_mut().active_document_mut().unwrap();
    let walking = doc.document().sequence_by_name("walking").unwrap();
    let frame = walking.directions[0].frames[1];
    let command = sprat::edit::timeline::SetFrameDuration {
        frame,
        duration: FrameDuration::Millis(250),
    };
    doc.apply(&command, None).unwrap();
    harness.run_steps(2);
}

#[test]
fn ctrl_s_of_an_edit_the_format_cannot_hold_asks_first() {
    let (_dir, path) = gui_support::tunic_copy("save-lossy-ctrl-s");
    let original = std::fs::read(&path).unwrap();
    let mut harness = editor_on(&path, &[]);
    edit_one_frame_delay(&mut harness);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);

    let listed: Vec<String> = harness
        .get_all_by_role(Role::Label)
        .filter_map(|n| n.value())
        .filter(|l| l.starts_with("• "))
        .collect();
    assert!(
        listed.iter().any(|l| l.contains("walking")),
        "the loss is named: {listed:#?}"
    );
    assert!(
        std::fs::read(&path).unwrap() == original,
        "nothing written yet"
    );
    click(&mut harness, "Cancel");
    assert!(
        std::fs::read(&path).unwrap() == original,
        "cancel writes nothing"
    );
    assert!(title(&harness).contains(" *"), "the edit is still there");

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    click(&mut harness, "Save anyway");
    // The one delay Solarus can hold is the animation's own, so the file written is the
    // original text: what was left out is exactly the edit the confirmation named.
    assert!(
        status(&harness).contains("losing 1 thing") && !status(&harness).contains("1 things"),
        "{}",
        status(&harness)
    );
    assert!(std::fs::read(&path).unwrap() == original);
    assert!(!title(&harness).contains('*'));
}

#[test]
fn save_while_closing_a_tab_goes_on_to_close_it_once_the_losses_are_confirmed() {
    let (_dir, path) = gui_support::tunic_copy("save-lossy-close");
    let mut harness = editor_on(&path, &[]);
    edit_one_frame_delay(&mut harness);

    // Save from the close question needs the loss confirmation first; cancelling the save
    // keeps the tab and its edit, and asks nothing more.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::W);
    harness.run_steps(3);
    click_button(&mut harness, "Save");
    assert!(harness.query_by_label("Save anyway").is_some());
    // Cancelling the loss list of a plain Save leaves no other window open.
    click(&mut harness, "Cancel");
    assert!(harness.query_by_label("Save anyway").is_none());
    assert!(!harness.state().active_tab().unwrap().save_as.shown);
    assert!(title(&harness).contains(" *"), "the edit is still there");
    assert!(harness.state().confirm_discard.is_none());
    assert!(harness.query_by_label("Unsaved changes").is_none());

    // Confirmed, the file is written and the tab closes without asking again.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::W);
    harness.run_steps(3);
    click_button(&mut harness, "Save");
    click(&mut harness, "Save anyway");
    assert!(
        harness.state().active_document().is_none(),
        "the tab closed"
    );
    assert!(harness.query_by_label("Unsaved changes").is_none());
}

#[test]
fn ctrl_s_of_a_character_naming_an_air_outside_its_folder_asks_with_that_path() {
    let dir = tempfile::tempdir().unwrap();
    let source = common::corpus().join("mugen/kfm");
    let (evil, outside) = (dir.path().join("evil"), dir.path().join("outside"));
    std::fs::create_dir_all(&evil).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    crate::common::copy_writable(&source.join("kfm.sff"), &evil.join("kfm.sff"));
    crate::common::copy_writable(&source.join("kfm.air"), &outside.join("kfm.air"));
    let def = std::fs::read_to_string(source.join("kfm.def"))
        .unwrap()
        .replace("anim    = kfm.air", "anim    = ../outside/kfm.air");
    let path = evil.join("char.def");
    std::fs::write(&path, def).unwrap();
    let air = outside.join("kfm.air");
    let before = std::fs::read(&air).unwrap();

    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1400.0, 1000.0));
    {
        let doc = harness.state_mut().active_document_mut().unwrap();
        let stand = doc.document().sequences()[0].directions[0].frames[0];
        let command = sprat::edit::timeline::SetFrameDuration {
            frame: stand,
            duration: FrameDuration::Ticks(9),
        };
        doc.apply(&command, None).unwrap();
    }
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    let listed: Vec<String> = harness
        .get_all_by_role(Role::Label)
        .filter_map(|n| n.value())
        .filter(|l| l.starts_with("• "))
        .collect();
    assert!(
        listed.iter().any(|l| l.contains("../outside/kfm.air")),
        "the exact path is shown: {listed:#?}"
    );
    assert!(
        std::fs::read(&air).unwrap() == before,
        "nothing written yet"
    );
    click(&mut harness, "Save anyway");
    assert!(
        std::fs::read(&air).unwrap() != before,
        "written once confirmed"
    );
    assert!(!title(&harness).contains('*'), "{}", title(&harness));
}
