//! The duration field, one for the inspector and the timeline: the same number for the same
//! frame in both, in the frame's own unit, with the unit's word singular for one ("1 tick").

use crate::{common, gui_support};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sprat::app::SpratApp;
use sprat::model::FrameDuration;

/// What the number field labelled `label` shows ("1 tick", "166.6667 ms").
fn field_text(harness: &Harness<'_, SpratApp>, label: &str) -> String {
    harness
        .get_by_role_and_label(Role::SpinButton, label)
        .value()
        .unwrap_or_default()
}

#[test]
fn a_mugen_frame_of_one_tick_says_1_tick_in_the_inspector_and_the_timeline() {
    let (_dir, mut harness) = gui_support::kfm_editor("duration-one-tick");
    // KFM's crouching action: one frame of 1 tick. Its row is named after its comment too.
    harness
        .get_all_by_role(Role::Button)
        .find(|n| {
            let label = n.accesskit_node().label().unwrap_or_default();
            label == "11" || label.starts_with("11 ·")
        })
        .expect("a row for action 11")
        .click();
    harness.run_steps(2);
    let doc = harness.state().active_document().unwrap();
    assert_eq!(doc.direction_frames()[0].duration, FrameDuration::Ticks(1));
    assert_eq!(field_text(&harness, "Duration"), "1 tick");
    harness.get_by_label("frame 0").click();
    harness.run_steps(2);
    assert_eq!(
        field_text(&harness, "Duration of 1 selected frame"),
        "1 tick"
    );

    // Two ticks are counted in the plural again.
    harness
        .get_by_role_and_label(Role::SpinButton, "Duration")
        .set_value_accesskit(2.0);
    harness.run_steps(3);
    let doc = harness.state().active_document().unwrap();
    assert_eq!(doc.direction_frames()[0].duration, FrameDuration::Ticks(2));
    assert_eq!(field_text(&harness, "Duration"), "2 ticks");
    assert_eq!(
        field_text(&harness, "Duration of 1 selected frame"),
        "2 ticks"
    );
}

#[test]
fn an_adl_delay_in_seconds_shows_the_same_number_in_the_inspector_and_the_timeline() {
    // Terrarum's taimu with a running delay that is no whole number of milliseconds.
    let dir = gui_support::TempDir::new("duration-adl-seconds");
    let source = common::corpus().join("adl/mods/basegame/sprites/taimu.properties");
    let text = std::fs::read_to_string(source).unwrap();
    assert!(text.contains("ANIM_RUN=DELAY 0.18;"));
    let path = dir.0.join("taimu.properties");
    std::fs::write(
        &path,
        text.replace("ANIM_RUN=DELAY 0.18;", "ANIM_RUN=DELAY 0.1666667;"),
    )
    .unwrap();
    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1280.0, 800.0));
    gui_support::click_row(&mut harness, "ANIM_RUN");
    let doc = harness.state().active_document().unwrap();
    assert_eq!(
        doc.direction_frames()[0].duration,
        FrameDuration::Seconds { nanos: 166_666_700 }
    );

    let inspector = field_text(&harness, "Delay");
    let timeline = field_text(&harness, "Frame delay of the animation");
    assert_eq!(inspector, "166.6667 ms");
    assert_eq!(timeline, inspector, "one field, one number");
}
