//! An Aseprite file edited in the editor saves back into the `.aseprite` with Ctrl+S: the
//! retimed frame is in the file (as an independent reader sees it), and the file opens again
//! with the edit.

use crate::{common, gui_support};

use gui_support::status;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use sprat::formats::{ReadContext, registry};
use sprat::model::FrameDuration;

#[test]
fn ctrl_s_saves_a_retimed_frame_into_the_aseprite_file() {
    let dir = gui_support::TempDir::new("aseprite-save");
    let path = dir.0.join("layers_and_tags.aseprite");
    common::copy_writable(
        &common::corpus().join("aseprite/layers_and_tags.aseprite"),
        &path,
    );
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
