//! Where the source sheet is where a format's frames come from (a Solarus direction is cells
//! of a grid on its sheet), the Source sheet tab is there from the start; elsewhere it shows
//! when View > Source sheet asks for it.

use crate::{common, gui_support};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::{CentreTab, SpratApp};

fn centre(harness: &Harness<'_, SpratApp>) -> CentreTab {
    harness.state().centre
}

#[test]
fn a_solarus_sprite_opens_with_its_source_sheet_tab() {
    let tunic = common::corpus().join("solarus/lua-1.x/zsdx/sprites/hero/tunic1.dat");
    let mut harness = gui_support::editor_opening(&tunic, &[], egui::vec2(1280.0, 800.0));
    assert!(!harness.state().settings.layout.sheet, "not asked for");
    assert!(harness.query_by_label("Source sheet").is_some());
    assert_eq!(centre(&harness), CentreTab::Canvas, "the preview first");

    harness.get_by_label("Source sheet").click();
    harness.run_steps(3);
    assert_eq!(centre(&harness), CentreTab::Sheet);
    assert!(
        harness
            .state()
            .active_tab()
            .unwrap()
            .sheet
            .image_rect
            .is_some()
    );

    // Ctrl+4 goes back to the preview and leaves the tab there.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num4);
    harness.run_steps(2);
    assert_eq!(centre(&harness), CentreTab::Canvas);
    assert!(harness.query_by_label("Source sheet").is_some());
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num4);
    harness.run_steps(2);
    assert_eq!(centre(&harness), CentreTab::Sheet);
}

#[test]
fn kfm_shows_the_source_sheet_tab_only_when_asked() {
    let kfm = common::corpus().join("mugen/kfm/kfm.def");
    let mut harness = gui_support::editor_opening(&kfm, &[], egui::vec2(1280.0, 800.0));
    assert!(harness.query_by_label("Source sheet").is_none());
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num4);
    harness.run_steps(2);
    assert!(harness.query_by_label("Source sheet").is_some());
    assert_eq!(centre(&harness), CentreTab::Sheet);
}
