//! File > Restore backup: a save keeps the version it replaces in Sprat's data folder; the
//! window lists it with when it was replaced and its size, and puts it back after a
//! confirmation, reading the document again.

use crate::{common, gui_support};
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui_support::{TempDir, open_next};
use sprat::app::SpratApp;
use sprat::app::context::commands::UICommand;
use sprat::app::context::platform::{DialogOutcome, ScriptedDialogs};
use sprat::app::context::settings::Settings;

fn sequence_count(harness: &Harness<'_, SpratApp>) -> usize {
    harness
        .state()
        .active_document()
        .unwrap()
        .document()
        .sequences()
        .len()
}

#[test]
fn a_saved_version_is_listed_and_restored_after_a_confirmation() {
    let dir = TempDir::new("restore-backup");
    for name in ["kfm.def", "kfm.air", "kfm.sff"] {
        crate::common::copy_writable(
            &common::corpus().join("mugen/kfm").join(name),
            &dir.0.join(name),
        );
    }
    let air = dir.0.join("kfm.air");
    let original = std::fs::read(&air).unwrap();
    let mut dialogs = ScriptedDialogs::default();
    dialogs
        .answers
        .push_back(DialogOutcome::Chosen(dir.0.join("kfm.def")));
    let data = dir.0.join("data");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| {
            let mut app = SpratApp::new(Settings::default(), Box::new(dialogs));
            // The editor's data folder: backups go beside its recovery folder.
            app.recovery_dir = Some(data.join("recovery"));
            app
        });
    open_next(&mut harness);
    let sequences = sequence_count(&harness);

    // Nothing saved yet: nothing to restore.
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label_contains("Restore backup…").click();
    harness.run_steps(3);
    assert!(harness.query_by_label_contains("No backup of").is_some());
    harness.key_press(Key::Escape);
    harness.run_steps(2);

    // An edit saved (Ctrl+D with no frame selected: the action is duplicated): kfm.air
    // changes, its old version is kept.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::D);
    harness.run_steps(2);
    // The copy of an AIR action takes the next free action number, which kfm.air can hold:
    // the save asks nothing.
    let doc = harness.state().active_document().unwrap().document();
    let last = doc
        .sequences()
        .iter()
        .filter_map(|s| s.name.parse::<i32>().ok())
        .max();
    assert!(
        doc.sequences()
            .iter()
            .all(|s| s.name.parse::<i32>().is_ok()),
        "every action is numbered, the copy ({last:?} the largest) too"
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(4);
    assert!(
        harness.query_by_label("Save anyway").is_none(),
        "no loss list for a duplicated action"
    );
    assert!(
        gui_support::status(&harness).starts_with("Saved"),
        "{}",
        gui_support::status(&harness)
    );
    assert_ne!(std::fs::read(&air).unwrap(), original);
    assert_eq!(sequence_count(&harness), sequences + 1);

    // Again (the menu entry was used above): the list is read when the window opens.
    let ctx = harness.ctx.clone();
    harness.state_mut().execute(&ctx, UICommand::RestoreBackup);
    harness.run_steps(3);
    assert!(harness.query_by_label("kfm.air").is_some());
    assert!(harness.query_by_label_contains("just now").is_some());
    harness
        .get_by_role_and_label(Role::Button, "Restore…")
        .click();
    harness.run_steps(2);
    // The confirmation says what happens; Back changes nothing.
    assert!(harness.query_by_label_contains("Put back").is_some());
    harness.get_by_role_and_label(Role::Button, "Back").click();
    harness.run_steps(2);
    assert_ne!(std::fs::read(&air).unwrap(), original);
    harness
        .get_by_role_and_label(Role::Button, "Restore…")
        .click();
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::Button, "Restore")
        .click();
    harness.run_steps(3);

    assert_eq!(
        std::fs::read(&air).unwrap(),
        original,
        "the old bytes are back"
    );
    assert_eq!(
        sequence_count(&harness),
        sequences,
        "the document was read again"
    );
    let status = gui_support::status(&harness);
    assert!(status.starts_with("Restored"), "{status}");
    // The version the restore replaced is a backup in turn.
    let doc = harness.state().active_document().unwrap();
    let kept = sprat::app::shell::restore_backup::backups_of(doc);
    assert_eq!(
        kept.iter().filter(|b| b.file.ends_with("kfm.air")).count(),
        2
    );
}
