//! The diagnostics panel and the status bar's counts equal `sprat check`'s: as soon as a file
//! has opened (the full check runs in the background), after an edit, and after a save, with
//! the saved file's line numbers.

use crate::{aseprite_write_support as ase, common, gui_support};
use egui::{Key, Modifiers, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;
use sprat::check::{CheckOptions, Checker};
use sprat::edit::Selection;
use sprat::formats::{Diagnostic, Location, Severity};
use std::path::Path;

/// What `sprat check` gives for `path`, through the library.
fn sprat_check(path: &Path) -> Vec<Diagnostic> {
    Checker::new()
        .check_file(path, &Default::default(), &CheckOptions::default())
        .diagnostics
}

/// Severity, place and sentence: what a diagnostic says, without what it selects.
fn said(diagnostics: &[Diagnostic]) -> Vec<(Severity, Location, String)> {
    diagnostics
        .iter()
        .map(|d| (d.severity, d.location, d.message.clone()))
        .collect()
}

fn shown(harness: &Harness<'_, SpratApp>) -> Vec<Diagnostic> {
    harness
        .state()
        .active_document()
        .unwrap()
        .diagnostics()
        .to_vec()
}

fn counts_text(diagnostics: &[Diagnostic]) -> String {
    let (errors, warnings) = sprat::formats::error_and_warning_counts(diagnostics);
    format!(
        "{}, {}",
        sprat::text::count(errors, "error"),
        sprat::text::count(warnings, "warning")
    )
}

#[test]
fn kfm_opened_shows_what_sprat_check_gives_in_the_panel_and_the_status_bar() {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    let expected = sprat_check(&path);
    let reader = sprat::formats::registry()
        .open(&path, &sprat::formats::ReadContext::for_path(&path))
        .unwrap()
        .0
        .diagnostics;
    assert!(
        expected.len() > reader.len(),
        "the box warnings come on top of what the reader says"
    );
    let mut harness = gui_support::editor_opening(&path, &[], vec2(1280.0, 800.0));
    gui_support::wait_for_check(&mut harness);
    let shown = shown(&harness);
    assert_eq!(shown.len(), expected.len());
    assert_eq!(said(&shown), said(&expected));
    assert!(
        shown
            .iter()
            .filter(|d| sprat::boxes::lint::is_box_warning(d))
            .all(|d| d.subject.is_some()),
        "each box warning selects its frame"
    );
    // The status bar counts the same, without "Check boxes" being pressed.
    harness.get_by_label(&counts_text(&expected));
}

#[test]
fn after_an_edit_and_a_save_the_diagnostics_carry_the_saved_file_line_numbers() {
    let (dir, mut harness) = gui_support::kfm_editor("diagnostics");
    gui_support::wait_for_check(&mut harness);
    let before = shown(&harness);
    // A frame of the standing action (the first in kfm.air) duplicated: every later line of
    // the file moves down by one.
    {
        let doc = harness.state_mut().active_document_mut().unwrap();
        let (sequence, direction) = (doc.player.sequence(), doc.player.direction());
        doc.session
            .set_selection(Selection::frames(sequence, direction, vec![0]));
    }
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::D);
    harness.run_steps(2);
    assert_eq!(gui_support::undo_steps(&harness), 1);
    gui_support::wait_for_check(&mut harness);
    // Until the file is saved the reader's word is the one of the file as read.
    let edited = shown(&harness);
    let lines = |list: &[Diagnostic]| -> Vec<u32> {
        list.iter()
            .filter_map(|d| match d.location {
                Location::Text { line, .. } => Some(line),
                _ => None,
            })
            .collect()
    };
    assert!(!lines(&before).is_empty(), "KFM's reader warns with lines");
    assert_eq!(lines(&edited), lines(&before));

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    assert!(
        gui_support::status(&harness).starts_with("Saved "),
        "{}",
        gui_support::status(&harness)
    );
    gui_support::wait_for_check(&mut harness);
    let saved = shown(&harness);
    let expected = sprat_check(&dir.0.join("kfm.def"));
    assert_eq!(said(&saved), said(&expected));
    assert_ne!(
        lines(&saved),
        lines(&before),
        "the lines moved with the save"
    );
    harness.get_by_label(&counts_text(&expected));
    // What the reader said still selects what it names in the document on show.
    let doc = harness.state().active_document().unwrap();
    for diagnostic in &saved {
        if let Some(sprat::formats::Subject::Frame {
            sequence,
            direction,
            index,
            frame,
        }) = diagnostic.subject
        {
            let sequence = doc.document().sequence(sequence).expect("its sequence");
            assert_eq!(sequence.directions[direction].frames[index], frame);
        }
    }
}

#[test]
fn an_untouched_aseprite_file_with_a_slice_named_hitbox_has_no_box_warnings() {
    let dir = gui_support::TempDir::new("diagnostics-aseprite");
    let path = dir.0.join("hero.aseprite");
    // Frames 0 and 2 have the body box "Hitbox" as many platformers name it, frame 1 none:
    // were "Hitbox" taken for a hit box, each frame would be warned about.
    let hitbox = ase::slice_chunk(
        "Hitbox",
        &[(0, 2, 2, 4, 4), (1, 0, 0, 0, 0), (2, 2, 2, 4, 4)],
    );
    let file = ase::with_marks(
        &ase::new_file(&ase::squares(3)),
        &[ase::tags_chunk(&[ase::Tag(0, 2, 0, 0, "Run")]), hitbox],
    );
    std::fs::write(&path, file).unwrap();
    let mut harness = gui_support::editor_opening(&path, &[], vec2(1280.0, 800.0));
    gui_support::wait_for_check(&mut harness);
    let shown = shown(&harness);
    assert_eq!(said(&shown), said(&sprat_check(&path)));
    assert!(
        !shown.iter().any(sprat::boxes::lint::is_box_warning),
        "{shown:?}"
    );
    harness.get_by_label("0 errors, 0 warnings");
}
