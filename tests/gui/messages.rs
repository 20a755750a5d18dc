//! The status bar's sentence belongs to the tab and the action that caused it: another tab
//! shows its own sentence (or none), the tab shown again says its own again, and a sentence
//! about a window that asked for a path goes when that window closes.

use crate::gui_support;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui_support::{TempDir, open_next, status};
use sprat::app::SpratApp;

const NO_DIALOG: &str = "No file dialog can be shown on this desktop; type the path instead.";

/// a.sprat, b.sprat and c.sprat open in three tabs (c on show).
fn three_tabs(name: &str) -> (TempDir, Harness<'static, SpratApp>) {
    let dir = TempDir::new(name);
    let (a, b, c) = (
        dir.showcase("a.sprat"),
        dir.showcase("b.sprat"),
        dir.showcase("c.sprat"),
    );
    let mut harness = gui_support::editor_opening(&a, &[b, c], egui::vec2(1280.0, 800.0));
    open_next(&mut harness);
    open_next(&mut harness);
    assert_eq!(harness.state().documents.len(), 3);
    (dir, harness)
}

fn click(harness: &mut Harness<'_, SpratApp>, label: &str) {
    harness.get_by_label(label).click();
    harness.run_steps(2);
}

/// Shows the tab titled `title` (through its button's accessibility action: the Import
/// window may lie over the tab bar in the test's window).
fn show_tab(harness: &mut Harness<'_, SpratApp>, title: &str) {
    harness.get_by_label(title).click_accesskit();
    harness.run_steps(2);
    let shown = harness.state().active_document().unwrap().title();
    assert!(shown.contains(title), "{shown} is on show, not {title}");
}

/// File > Import frames… where no file dialog can be shown (the test's dialogs have no list
/// of files to give): the Import window asks for a path.
fn import_without_dialog(harness: &mut Harness<'_, SpratApp>) {
    click(harness, "File");
    // Menu items are labelled with their shortcut too.
    harness.get_by_label_contains("Import frames…").click();
    harness.run_steps(3);
}

#[test]
fn a_sentence_about_a_cancelled_import_goes_with_its_window_and_stays_in_its_tab() {
    let (_dir, mut harness) = three_tabs("messages-import");
    show_tab(&mut harness, "a.sprat");
    import_without_dialog(&mut harness);
    assert_eq!(status(&harness), NO_DIALOG);
    assert!(harness.state().active_tab().unwrap().import.shown);

    // While the window is open the sentence belongs to a.sprat: the other tabs do not say it,
    // and a.sprat says it again when shown again.
    show_tab(&mut harness, "b.sprat");
    assert_eq!(status(&harness), "", "b.sprat was told nothing");
    show_tab(&mut harness, "c.sprat");
    let opened = status(&harness);
    assert!(
        opened.starts_with("Opened") && opened.ends_with("c.sprat"),
        "c.sprat says its own: {opened}"
    );
    show_tab(&mut harness, "a.sprat");
    assert_eq!(status(&harness), NO_DIALOG);

    // Cancelled, the import is done with, and so is the sentence.
    click(&mut harness, "Cancel");
    assert!(!harness.state().active_tab().unwrap().import.shown);
    assert_eq!(status(&harness), "");
    show_tab(&mut harness, "b.sprat");
    assert_eq!(status(&harness), "");
    show_tab(&mut harness, "c.sprat");
    assert_eq!(status(&harness), opened);
    show_tab(&mut harness, "a.sprat");
    assert_eq!(
        status(&harness),
        "",
        "the cancelled import's sentence is gone"
    );
}

#[test]
fn each_tab_says_its_own_last_sentence_when_shown_again() {
    let (_dir, mut harness) = three_tabs("messages-tabs");
    // c.sprat was opened last, and says so.
    assert!(
        status(&harness).starts_with("Opened"),
        "{}",
        status(&harness)
    );
    gui_support::click_row(&mut harness, "punch");
    click(&mut harness, "back to frame");
    let edited = status(&harness);
    assert!(edited.starts_with("Set"), "{edited}");

    show_tab(&mut harness, "a.sprat");
    assert_eq!(status(&harness), "", "a.sprat was told nothing since");
    show_tab(&mut harness, "c.sprat *");
    assert_eq!(status(&harness), edited);
}

#[test]
fn the_no_file_dialog_sentence_goes_when_the_import_window_is_cancelled() {
    let dir = TempDir::new("messages-cancel");
    let a = dir.showcase("a.sprat");
    let mut harness = gui_support::editor_opening(&a, &[], egui::vec2(1280.0, 800.0));
    import_without_dialog(&mut harness);
    assert_eq!(status(&harness), NO_DIALOG);
    click(&mut harness, "Cancel");
    assert_eq!(status(&harness), "");
}
