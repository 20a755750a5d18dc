//! An `.sff` opened on its own, as a new user tries it: open `fightfx.sff`, move sprite 0,0's
//! axis in the Sprites tab, press Ctrl+S. The archive itself is saved (no Save As window), and
//! only that sprite's entry in the file changes.

use crate::{common, gui_support};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use sprat::formats::sff::SffArchive;

#[test]
fn ctrl_s_saves_a_lone_archive_to_itself_changing_only_the_edited_sprite() {
    let dir = gui_support::TempDir::new("lone-sff");
    let path = dir.0.join("fightfx.sff");
    crate::common::copy_writable(&common::corpus().join("mugen/fightfx/fightfx.sff"), &path);
    let original = std::fs::read(&path).unwrap();
    let before = SffArchive::parse(original.clone()).unwrap();
    let entry = &before.sprites()[before.find(0, 0).unwrap()];
    let (axis, header) = (entry.axis, entry.header_offset as usize);

    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1280.0, 800.0));
    harness.get_by_label("Sprites").click();
    harness.run_steps(3);
    gui_support::type_into(&mut harness, "Find sprites", "0,0");
    harness.run_steps(3);
    harness.get_by_label_contains("0,0  ").click();
    harness.run_steps(3);
    harness
        .get_by_role_and_label(Role::SpinButton, "Axis x")
        .set_value_accesskit(f64::from(axis.0 + 5));
    harness.run_steps(3);
    assert!(
        harness
            .state()
            .active_document()
            .unwrap()
            .session
            .is_dirty()
    );

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    assert!(
        harness.query_by_label("Save As").is_none(),
        "Ctrl+S opened Save As instead of saving the archive"
    );
    assert!(
        !harness
            .state()
            .active_document()
            .unwrap()
            .session
            .is_dirty(),
        "{}",
        gui_support::status(&harness)
    );
    assert!(!gui_support::status(&harness).contains("read only"));

    let saved = std::fs::read(&path).unwrap();
    let after = SffArchive::parse(saved.clone()).unwrap();
    assert_eq!(
        after.sprites()[after.find(0, 0).unwrap()].axis,
        (axis.0 + 5, axis.1)
    );
    assert_eq!(saved.len(), original.len(), "the layout is kept");
    let changed: Vec<usize> = (0..saved.len())
        .filter(|&i| saved[i] != original[i])
        .collect();
    let entry_len = if before.version().major() == 1 {
        32
    } else {
        28
    };
    assert!(
        changed
            .iter()
            .all(|i| (header..header + entry_len).contains(i)),
        "bytes outside sprite 0,0's entry changed: {:?}",
        &changed[..changed.len().min(10)]
    );
    assert!(!changed.is_empty());
}

#[test]
fn ctrl_s_after_renaming_a_group_in_the_view_names_what_is_not_written_and_keeps_the_archive() {
    let dir = gui_support::TempDir::new("lone-sff-view");
    let path = dir.0.join("fightfx.sff");
    crate::common::copy_writable(&common::corpus().join("mugen/fightfx/fightfx.sff"), &path);
    let original = std::fs::read(&path).unwrap();
    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1280.0, 800.0));
    gui_support::click_row(&mut harness, "group 0");
    harness.key_press(Key::F2);
    harness.run_steps(2);
    harness.event(egui::Event::Text("sparks".into()));
    harness.run_steps(1);
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    let document = harness.state().active_document().unwrap().document();
    assert!(document.sequence_by_name("sparks").is_some());

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    let listed: Vec<String> = harness
        .get_all_by_role(Role::Label)
        .filter_map(|n| n.value())
        .filter(|l| l.starts_with("• "))
        .collect();
    assert!(
        listed.iter().any(|l| l.contains("\"sparks\""))
            && listed.iter().any(|l| l.contains("\"group 0\"")),
        "the view's change is named: {listed:#?}"
    );
    assert!(
        std::fs::read(&path).unwrap() == original,
        "nothing written yet"
    );
    harness
        .get_by_role_and_label(Role::Button, "Save anyway")
        .click();
    harness.run_steps(3);
    assert!(
        std::fs::read(&path).unwrap() == original,
        "the archive is as it was"
    );
    assert!(
        !harness
            .state()
            .active_document()
            .unwrap()
            .session
            .is_dirty()
    );
}
