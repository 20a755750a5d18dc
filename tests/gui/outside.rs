//! Changes made outside while a document is open: a change of a file read with the document
//! (the `.air` a `.def` names) shows a notice while the user edits; a save that would replace
//! another program's change stops and asks (Reload, Save anyway, Cancel), and "Save anyway"
//! keeps the other version in the backups; a save onto a read-only file refuses and offers
//! Save As. On copies of Kung Fu Man.

use crate::gui_support;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui_support::{TempDir, open_next, status};
use sprat::app::SpratApp;
use sprat::app::context::platform::{DialogOutcome, ScriptedDialogs};
use sprat::app::context::settings::Settings;
use sprat::model::FrameDuration;
use std::path::{Path, PathBuf};

/// The editor with `path` open, keeping its recovery files and backups in `data`.
fn editor_with_data(path: &Path, data: PathBuf) -> Harness<'static, SpratApp> {
    let mut dialogs = ScriptedDialogs::default();
    dialogs
        .answers
        .push_back(DialogOutcome::Chosen(path.to_path_buf()));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| {
            let mut app = SpratApp::new(Settings::default(), Box::new(dialogs));
            // The editor's data folder: backups go beside its recovery folder.
            app.recovery_dir = Some(data.join("recovery"));
            app
        });
    open_next(&mut harness);
    harness
}

/// Action `action`'s first frame lasts one tick longer (an unsaved edit).
fn lengthen(harness: &mut Harness<'_, SpratApp>, action: &str) {
    let doc = harness.state_mut().active_document_mut().unwrap();
    let sequence = doc.document().sequence_by_name(action).unwrap();
    let frame = sequence.directions[0].frames[0];
    let FrameDuration::Ticks(ticks) = doc.document().frame(frame).unwrap().duration else {
        panic!("an AIR frame lasts ticks");
    };
    let command = sprat::edit::timeline::SetFrameDuration {
        frame,
        duration: FrameDuration::Ticks(ticks + 1),
    };
    doc.apply(&command, None).unwrap();
    harness.run_steps(2);
}

/// The first frame duration of action `action` in the document on show.
fn first_ticks(harness: &Harness<'_, SpratApp>, action: &str) -> FrameDuration {
    let document = harness.state().active_document().unwrap().document();
    let sequence = document.sequence_by_name(action).unwrap();
    document
        .frame(sequence.directions[0].frames[0])
        .unwrap()
        .duration
}

/// `path` with an action appended by another program.
fn append_action(path: &Path) {
    let mut text = std::fs::read(path).unwrap();
    text.extend_from_slice(b"\r\n[Begin Action 9876]\r\n0,0, 0,0, 7\r\n");
    std::fs::write(path, text).unwrap();
}

/// Steps the editor until a label containing `text` shows (the watching thread looks at the
/// disk once a second).
fn wait_for_label(harness: &mut Harness<'_, SpratApp>, text: &str) {
    let started = std::time::Instant::now();
    while started.elapsed() < sprat::session::WATCH_INTERVAL * 6 {
        harness.step();
        if harness.query_by_label_contains(text).is_some() {
            harness.run_steps(2);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("no label with \"{text}\" showed");
}

fn ctrl_s(harness: &mut Harness<'_, SpratApp>) {
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
}

fn click_button(harness: &mut Harness<'_, SpratApp>, label: &str) {
    harness.get_by_role_and_label(Role::Button, label).click();
    harness.run_steps(3);
}

fn title(harness: &Harness<'_, SpratApp>) -> String {
    harness.state().active_document().unwrap().title()
}

#[test]
fn an_air_changed_outside_shows_a_notice_while_editing_the_def_and_a_save_then_asks() {
    let dir = TempDir::new("outside-companion");
    let def = gui_support::kfm_copy(&dir.0);
    let air = dir.0.join("kfm.air");
    let mut harness = gui_support::editor_opening(&def, &[], egui::vec2(1280.0, 800.0));
    lengthen(&mut harness, "0");

    // Another program appends an action to kfm.air: the notice comes before any save.
    append_action(&air);
    let outside = std::fs::read(&air).unwrap();
    wait_for_label(&mut harness, "kfm.air, read with kfm.def, was changed");
    harness.get_by_label("File changed on disk");
    click_button(&mut harness, "Keep mine");
    assert!(harness.query_by_label("File changed on disk").is_none());
    assert!(title(&harness).contains(" *"), "the edit is still open");

    // Ctrl+S asks before replacing the change; nothing is written.
    ctrl_s(&mut harness);
    harness.get_by_label_contains("kfm.air was changed by another program since Sprat read it");
    harness.get_by_role_and_label(Role::Button, "Save anyway");
    harness.get_by_role_and_label(Role::Button, "Cancel");
    assert!(
        status(&harness).contains("kfm.air changed on disk"),
        "{}",
        status(&harness)
    );
    assert_eq!(std::fs::read(&air).unwrap(), outside, "nothing written");

    // Reload takes the other program's action; the edit goes.
    click_button(&mut harness, "Reload");
    let doc = harness.state().active_document().unwrap();
    assert!(doc.document().sequence_by_name("9876").is_some());
    assert!(!title(&harness).contains('*'), "{}", title(&harness));
    assert!(harness.query_by_label("Save anyway").is_none());
    assert_eq!(std::fs::read(&air).unwrap(), outside);
}

#[test]
fn two_editors_on_one_file_the_later_save_asks_and_save_anyway_keeps_the_other_as_a_backup() {
    let dir = TempDir::new("outside-two");
    gui_support::kfm_copy(&dir.0);
    let air = dir.0.join("kfm.air");
    let mut a = editor_with_data(&air, dir.0.join("data-a"));
    let mut b = editor_with_data(&air, dir.0.join("data-b"));
    let a_zero = first_ticks(&a, "0");
    lengthen(&mut a, "0");
    lengthen(&mut b, "5");

    ctrl_s(&mut b);
    assert!(status(&b).starts_with("Saved "), "{}", status(&b));
    let by_b = std::fs::read(&air).unwrap();

    // A hears of B's save while still editing, before any save of its own.
    wait_for_label(&mut a, "kfm.air was changed by another program");
    a.get_by_label("File changed on disk");
    click_button(&mut a, "Keep mine");

    // A's save stops and asks; B's save stays on disk.
    ctrl_s(&mut a);
    a.get_by_label_contains("kfm.air was changed by another program since Sprat read it");
    a.get_by_label_contains("kept in Sprat's backups");
    assert_eq!(std::fs::read(&air).unwrap(), by_b);
    assert!(title(&a).contains(" *"));

    // Save anyway writes A's version and keeps B's as the newest backup.
    click_button(&mut a, "Save anyway");
    assert!(status(&a).starts_with("Saved "), "{}", status(&a));
    assert_ne!(std::fs::read(&air).unwrap(), by_b);
    let doc = a.state().active_document().unwrap();
    let kept = sprat::app::shell::restore_backup::backups_of(doc);
    assert_eq!(std::fs::read(&kept[0].path).unwrap(), by_b);
    let reread =
        sprat::session::Session::open(&air, &sprat::formats::ReadContext::for_path(&air)).unwrap();
    let zero = reread.document().sequence_by_name("0").unwrap();
    assert_ne!(
        reread
            .document()
            .frame(zero.directions[0].frames[0])
            .unwrap()
            .duration,
        a_zero,
        "A's edit is saved"
    );
}

#[test]
fn ctrl_s_onto_a_read_only_air_refuses_and_offers_save_as() {
    let (dir, mut harness) = gui_support::kfm_editor("outside-read-only");
    let air = dir.0.join("kfm.air");
    let before = std::fs::read(&air).unwrap();
    lengthen(&mut harness, "0");
    let mut permissions = std::fs::metadata(&air).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&air, permissions).unwrap();

    ctrl_s(&mut harness);
    let said = status(&harness);
    assert!(
        said.starts_with("Not saved: ") && said.contains("read-only"),
        "{said}"
    );
    assert!(!said.contains("Not saved: Not saved"), "{said}");
    harness.get_by_label("Not saved");
    harness.get_by_label_contains("does not replace a file without write permission");
    assert_eq!(std::fs::read(&air).unwrap(), before, "nothing written");
    assert!(title(&harness).contains(" *"), "the edit is still open");

    click_button(&mut harness, "Save As…");
    assert!(harness.query_by_label("Not saved").is_none());
    assert!(harness.state().active_tab().unwrap().save_as.shown);
    harness.get_by_label("Save As");
}
