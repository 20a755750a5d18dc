//! An Aseprite file edited in the editor saves back into the `.aseprite` with Ctrl+S: the
//! retimed frame is in the file (as an independent reader sees it), and the file opens again
//! with the edit.

use crate::gui_support;

use gui_support::status;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use sprat::formats::{ReadContext, registry};
use sprat::model::FrameDuration;

#[test]
fn ctrl_s_saves_a_retimed_frame_into_the_aseprite_file() {
    let (_dir, path) =
        gui_support::corpus_copy("aseprite-save", "aseprite/layers_and_tags.aseprite");
    let original = std::fs::read(&path).unwrap();
    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1400.0, 1000.0));
    gui_support::click_row(&mut harness, "T1");
    harness
        .get_all_by_role(Role::SpinButton)
        .find(|n| n.value().is_some_and(|v| v == "100 ms"))
        .expect("the frame delay field")
        .set_value_accesskit(250.0);
    harness.run_steps(2);
    assert!(
        harness
            .state()
            .active_document()
            .unwrap()
            .title()
            .contains(" *")
    );

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    assert!(
        status(&harness).starts_with("Saved "),
        "{}",
        status(&harness)
    );
    let saved = std::fs::read(&path).unwrap();
    assert_eq!(saved.len(), original.len(), "only a frame header changed");

    let file = asefile::AsepriteFile::read(&saved[..]).unwrap();
    let durations: Vec<u32> = (0..file.num_frames())
        .map(|i| file.frame(i).duration())
        .collect();
    assert_eq!(durations, [250, 100, 100, 100]);

    let (loaded, format) = registry()
        .open(&path, &ReadContext::for_path(&path))
        .unwrap();
    assert_eq!(format.id(), "aseprite");
    let document = loaded.document;
    let t1 = document.sequence_by_name("T1").unwrap();
    let first = document.frame(t1.directions[0].frames[0]).unwrap();
    assert_eq!(first.duration, FrameDuration::Millis(250));
}

#[test]
fn the_graphic_fields_of_a_frame_read_from_an_aseprite_file_are_disabled_saying_why() {
    let (_dir, path) =
        gui_support::corpus_copy("aseprite-kept-graphic", "aseprite/layers_and_tags.aseprite");
    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1400.0, 1000.0));
    gui_support::click_row(&mut harness, "T1");
    let doc = harness.state_mut().active_document_mut().unwrap();
    let frame = doc.player.frame_id(doc.session.document()).unwrap();
    let graphic = doc
        .frame()
        .unwrap()
        .elements
        .iter()
        .find(|e| e.as_graphic().is_some())
        .unwrap()
        .id;
    doc.select_element(graphic);
    let why = doc
        .session
        .why_pictures_kept(frame)
        .expect("a frame read from the file");
    assert!(why.contains("cannot be moved, changed or removed"), "{why}");
    harness.run_steps(2);
    let position: Vec<_> = harness
        .get_all_by_role_and_label(Role::SpinButton, "Position")
        .collect();
    assert_eq!(position.len(), 2, "x and y");
    assert!(
        position.iter().all(|n| n.accesskit_node().is_disabled()),
        "an Aseprite frame's picture stays where the file has it"
    );
    assert!(
        harness
            .get_all_by_role_and_label(Role::TextInput, "Name")
            .all(|n| !n.accesskit_node().is_disabled()),
        "the graphic's name (and the sequence's) can still be edited"
    );
    assert!(
        harness
            .get_by_role_and_label(Role::Button, "Delete graphic")
            .accesskit_node()
            .is_disabled()
    );
}

#[test]
fn the_only_sequence_of_an_aseprite_file_cannot_be_deleted_and_the_menu_says_why() {
    let (_dir, path) =
        gui_support::corpus_copy("aseprite-last-sequence", "aseprite/linked_cels.aseprite");
    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1400.0, 1000.0));
    let sequences = |h: &egui_kittest::Harness<'_, sprat::app::SpratApp>| {
        let doc = h.state().active_document().unwrap().session.document();
        doc.sequences().len()
    };
    assert_eq!(sequences(&harness), 1, "a file without tags: one sequence");
    harness
        .get_by_role_and_label(Role::Button, "linked_cels")
        .click_secondary();
    harness.run_steps(2);
    let delete = harness.get_by_label("Delete sequence Delete / Backspace");
    assert!(delete.accesskit_node().is_disabled(), "greyed out");
    // The key is refused too, saying why, and nothing changes.
    harness.key_press(Key::Escape);
    gui_support::click_row(&mut harness, "linked_cels");
    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert_eq!(sequences(&harness), 1);
    assert!(
        status(&harness).contains("at least one frame"),
        "{}",
        status(&harness)
    );
}
