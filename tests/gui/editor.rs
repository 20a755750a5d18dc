//! The editor driven through its real user interface with egui_kittest: widgets are found by
//! their labels, and the assertions look at the editor's state.

use crate::gui_support;
use crate::painting::{Painting, frames_painted_in};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;
use sprat::app::context::document::OpenDocument;
use sprat::app::context::platform::{DialogOutcome, ScriptedDialogs};
use sprat::app::context::settings::Settings;
use sprat::formats::{Diagnostic, Format, Subject, WriteContext};
use std::path::PathBuf;
use std::time::Duration;

/// One 60 Hz tick, the step of every simulated frame.
const TICK: f32 = 1.0 / 60.0;

/// What the editor starts with.
#[derive(Clone, Copy, PartialEq)]
enum Start {
    /// Nothing open.
    Empty,
    /// The fixture set of `gui_support` (groups, four-way walk, ticks, forever, zero-length).
    Showcase,
    /// The bundled demo, as at a start without a file.
    Demo,
}

fn harness_with(dialogs: ScriptedDialogs, start: Start) -> Harness<'static, SpratApp> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_step_dt(TICK)
        .build_eframe(move |_cc| {
            let mut app = SpratApp::new(Settings::default(), Box::new(dialogs));
            match start {
                Start::Empty => {}
                Start::Showcase => app.show_document(OpenDocument::new(
                    gui_support::showcase(),
                    None,
                    &sprat::formats::sprat::SpratFormat,
                    Vec::new(),
                )),
                Start::Demo => app.open_demo(),
            }
            app
        });
    harness.run_steps(2);
    harness
}

fn demo_harness() -> Harness<'static, SpratApp> {
    harness_with(ScriptedDialogs::default(), Start::Showcase)
}

fn frame_index(harness: &Harness<'_, SpratApp>) -> usize {
    harness
        .state()
        .active_document()
        .unwrap()
        .player
        .frame_index()
}

/// Types into the focused text field, or into the one text field on screen when none has focus.
fn type_into(harness: &mut Harness<'_, SpratApp>, text: &str) {
    let focused = |harness: &Harness<'_, SpratApp>| {
        harness
            .get_all_by_role(egui::accesskit::Role::TextInput)
            .any(|n| n.is_focused())
    };
    if !focused(harness) {
        harness
            .get_by_role(egui::accesskit::Role::TextInput)
            .focus();
        harness.run_steps(1);
    }
    harness
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.is_focused())
        .expect("a focused text field")
        .type_text(text);
    harness.run_steps(1);
}

fn wait_for_load(harness: &mut Harness<'_, SpratApp>) {
    for _ in 0..500 {
        harness.step();
        if !harness.state().is_loading() {
            harness.run_steps(2);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the file did not finish loading");
}

#[test]
fn the_bundled_demo_opens_with_its_sprite_drawn_and_its_points_listed() {
    let mut harness = harness_with(ScriptedDialogs::default(), Start::Demo);
    harness.run_steps(2);
    let doc = harness.state().active_document().expect("the demo opened");
    assert_eq!(doc.format_id(), "sprat");
    assert!(doc.title().starts_with("demo.sprat — "), "{}", doc.title());
    assert!(
        harness.state().textures.renders > 0,
        "the frame was rendered for the canvas"
    );
    // The demo's frames carry a "weapon" attachment point, listed in the inspector.
    harness.get_by_label_contains("point “weapon”");
    assert!(
        harness.state().settings.recent_files.is_empty(),
        "the demo is not a recent file"
    );
}

#[test]
fn the_tree_marks_the_default_sequence_and_shows_groups() {
    let harness = demo_harness();
    assert_eq!(gui_support::sequence_name(&harness), "idle");
    harness.get_by_role_and_label(Role::Button, "idle");
    harness.get_by_label_contains("default ·");
    harness.get_by_label("combat");
    let title = harness.state().active_document().unwrap().title();
    assert!(title.starts_with("untitled (Sprat project)"), "{title}");
}

#[test]
fn a_paused_editor_renders_nothing_again() {
    let mut harness = harness_with(ScriptedDialogs::default(), Start::Demo);
    harness.run_steps(4);
    let renders = harness.state().textures.renders;
    harness.run_steps(10);
    assert_eq!(
        harness.state().textures.renders,
        renders,
        "paused frames reuse the texture"
    );
}

#[test]
fn the_filter_narrows_the_tree_and_a_click_selects_a_sequence() {
    let mut harness = demo_harness();
    // The inspector has text fields too: Ctrl+F puts the cursor in the filter.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F);
    harness.run_steps(2);
    type_into(&mut harness, "pun");
    assert_eq!(harness.state().active_tab().unwrap().tree.filter, "pun");
    assert!(
        harness
            .query_by_role_and_label(Role::Button, "idle")
            .is_none(),
        "idle should be filtered out"
    );
    harness.get_by_label("punch").click();
    harness.run_steps(2);
    assert_eq!(gui_support::sequence_name(&harness), "punch");
}

#[test]
fn keyboard_navigation_moves_through_sequences_and_directions() {
    let mut harness = demo_harness();
    harness.key_press_modifiers(Modifiers::ALT, Key::ArrowDown);
    harness.run_steps(2);
    assert_eq!(gui_support::sequence_name(&harness), "walk");
    // The four-way walk lists its directions by name, in the tree and in the transport bar.
    assert_eq!(harness.get_all_by_label("up").count(), 2);
    harness.key_press_modifiers(Modifiers::ALT, Key::ArrowRight);
    harness.run_steps(2);
    assert_eq!(
        harness
            .state()
            .active_document()
            .unwrap()
            .player
            .direction(),
        1
    );
    harness.get_all_by_label("left").next().unwrap().click();
    harness.run_steps(2);
    assert_eq!(
        harness
            .state()
            .active_document()
            .unwrap()
            .player
            .direction(),
        2
    );
}

/// The punch lasts 4, 3, 0, 6 and 8 ticks; the zero-length frame 2 is skipped.
fn select_punch(harness: &mut Harness<'_, SpratApp>) {
    harness.get_by_label("punch").click();
    harness.run_steps(2);
    assert_eq!(gui_support::sequence_name(harness), "punch");
}

#[test]
fn playback_runs_at_true_speed_and_at_a_multiplier() {
    let mut harness = demo_harness();
    select_punch(&mut harness);
    harness.get_by_label("Play").click();
    // The click frame starts playback; then ten ticks pass: 4 + 3 + 0 puts tick 10 in frame 3.
    harness.step();
    for _ in 0..10 {
        harness.step();
    }
    assert_eq!(frame_index(&harness), 3);
    assert!(
        harness
            .state()
            .active_document()
            .unwrap()
            .player
            .is_playing()
    );
    harness.get_by_label("Pause").click();
    harness.step();
    assert!(
        !harness
            .state()
            .active_document()
            .unwrap()
            .player
            .is_playing()
    );

    // At 2x, six simulated ticks are twelve: frame 3 again (ticks 7 to 13).
    harness.key_press(Key::Home);
    harness.step();
    harness
        .state_mut()
        .active_document_mut()
        .unwrap()
        .player
        .set_speed_milli(1000);
    harness.key_press(Key::CloseBracket); // 1.5x
    harness.key_press(Key::CloseBracket); // 2x
    harness.step();
    assert_eq!(
        harness
            .state()
            .active_document()
            .unwrap()
            .player
            .speed_milli(),
        2000
    );
    harness.key_press(Key::Space);
    harness.step();
    for _ in 0..6 {
        harness.step();
    }
    assert_eq!(frame_index(&harness), 3);
    // Ten more real ticks (20 at 2x) pass the end: the punch does not loop and holds its last frame.
    for _ in 0..10 {
        harness.step();
    }
    assert_eq!(frame_index(&harness), 4);
    assert!(
        !harness
            .state()
            .active_document()
            .unwrap()
            .player
            .is_playing()
    );
}

#[test]
fn stepping_and_first_last_move_the_selected_frame() {
    let mut harness = demo_harness();
    select_punch(&mut harness);
    harness.key_press(Key::Period);
    harness.step();
    assert_eq!(frame_index(&harness), 1);
    harness.key_press(Key::Comma);
    harness.key_press(Key::Comma);
    harness.step();
    assert_eq!(
        frame_index(&harness),
        4,
        "stepping back wraps to the last frame"
    );
    harness.key_press(Key::Home);
    harness.step();
    assert_eq!(frame_index(&harness), 0);
    harness.key_press(Key::End);
    harness.step();
    assert_eq!(frame_index(&harness), 4);
}

fn click_at(harness: &Harness<'_, SpratApp>, pos: egui::Pos2) {
    harness.hover_at(pos);
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
}

#[test]
fn clicking_a_timeline_cell_shows_that_frame() {
    let mut harness = demo_harness();
    select_punch(&mut harness);
    // Cells are 48 points wide (the zero-length frame 2 only 14) with 2 between, below a
    // 12-point band for the loop marker: frame 3 spans 116 to 164.
    let timeline = harness.get_by_label("timeline").rect();
    click_at(&harness, timeline.min + egui::vec2(140.0, 40.0));
    harness.run_steps(2);
    assert_eq!(frame_index(&harness), 3);
    harness.get_by_label("frame 4 / 5");
}

#[test]
fn zoom_keys_and_fit_change_the_view() {
    let mut harness = demo_harness();
    let before = harness.state().active_tab().unwrap().canvas.zoom;
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Equals);
    harness.run_steps(2);
    let zoomed = harness.state().active_tab().unwrap().canvas.zoom;
    assert!(zoomed > before, "{zoomed} > {before}");
    harness.key_press(Key::Num1);
    harness.run_steps(2);
    assert_eq!(harness.state().active_tab().unwrap().canvas.zoom, 1.0);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Minus);
    harness.run_steps(2);
    assert_eq!(harness.state().active_tab().unwrap().canvas.zoom, 0.75);
    harness.key_press(Key::F);
    harness.run_steps(2);
    assert!(
        harness.state().active_tab().unwrap().canvas.zoom > 1.0,
        "the small demo frame fits at a large zoom"
    );
}

#[test]
fn box_classes_can_be_hidden_from_the_overlay_menu() {
    let mut harness = demo_harness();
    harness.get_by_label("Overlay").click();
    harness.run_steps(2);
    harness.get_by_label("hit").click();
    harness.run_steps(2);
    assert!(!harness.state().settings.box_class_visible("hit (Clsn1)"));
    assert!(harness.state().settings.box_class_visible("hurt (Clsn2)"));
}

#[test]
fn a_diagnostic_click_selects_the_frame_it_names() {
    let mut harness = demo_harness();
    {
        let doc = harness.state_mut().active_document_mut().unwrap();
        let punch = doc.session.document().sequence_by_name("punch").unwrap();
        let (sequence, frame) = (punch.id, punch.directions[0].frames[3]);
        let mut diagnostics = doc.diagnostics().to_vec();
        diagnostics.push(
            Diagnostic::warning_at(12, 3, "a box is outside the sprite").about(Subject::Frame {
                sequence,
                direction: 0,
                index: 3,
                frame,
            }),
        );
        doc.session.set_diagnostics(diagnostics);
    }
    // What the reader says changed: the document is checked again with it.
    gui_support::wait_for_check(&mut harness);
    harness
        .get_by_label_contains("a box is outside the sprite")
        .click();
    harness.run_steps(2);
    assert_eq!(gui_support::sequence_name(&harness), "punch");
    assert_eq!(frame_index(&harness), 3);
}

fn demo_file() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo.sprat");
    let document = gui_support::showcase();
    let written = sprat::formats::sprat::SpratFormat
        .write(&document, &WriteContext::for_path(&path))
        .unwrap();
    std::fs::write(&path, written.bytes).unwrap();
    (dir, path)
}

#[test]
fn file_open_reads_the_chosen_file_off_the_ui_thread() {
    let (_dir, path) = demo_file();
    let mut dialogs = ScriptedDialogs::default();
    dialogs
        .answers
        .push_back(DialogOutcome::Chosen(path.clone()));
    let mut harness = harness_with(dialogs, Start::Empty);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::O);
    harness.step();
    wait_for_load(&mut harness);
    let doc = harness.state().active_document().expect("the file opened");
    assert_eq!(doc.path(), Some(path.as_path()));
    assert_eq!(doc.format_id(), "sprat");
    assert_eq!(harness.state().settings.recent_files.first(), Some(&path));
    assert!(doc.title().starts_with("demo.sprat — "), "{}", doc.title());
}

#[test]
fn without_a_dialog_the_editor_offers_a_path_field() {
    let (_dir, path) = demo_file();
    let mut harness = harness_with(ScriptedDialogs::default(), Start::Empty);
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label_contains("Open…").click();
    harness.run_steps(2);
    assert!(harness.state().path_field.is_some());
    harness.get_by_label_contains("No file dialog is available");
    type_into(&mut harness, &path.display().to_string());
    harness.run_steps(1);
    harness.get_by_label("Open").click();
    harness.step();
    wait_for_load(&mut harness);
    assert_eq!(
        harness.state().active_document().unwrap().path(),
        Some(path.as_path())
    );
}

#[test]
fn the_path_field_takes_the_keyboard_as_soon_as_it_shows() {
    let mut harness = harness_with(ScriptedDialogs::default(), Start::Demo);
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label_contains("Open…").click();
    harness.run_steps(2);
    // No click into the field first: the letters must land in it, not run shortcuts
    // ("g" shows the grid, "f" fits the zoom, "l" toggles the loop).
    let view = harness.state().settings.view.clone();
    for (key, text) in [(Key::G, "g"), (Key::F, "f"), (Key::L, "l")] {
        harness.key_press(key);
        harness.event(egui::Event::Text(text.to_string()));
        harness.run_steps(1);
    }
    assert_eq!(harness.state().path_field.as_deref(), Some("gfl"));
    assert_eq!(harness.state().settings.view, view);
}

#[test]
fn an_unreadable_file_says_why_and_keeps_the_current_document() {
    let mut dialogs = ScriptedDialogs::default();
    dialogs
        .answers
        .push_back(DialogOutcome::Chosen(PathBuf::from("/nonexistent/kfm.def")));
    let mut harness = harness_with(dialogs, Start::Showcase);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::O);
    harness.step();
    wait_for_load(&mut harness);
    assert_eq!(gui_support::sequence_name(&harness), "idle");
    let status = harness.state().status.as_ref().unwrap();
    assert!(
        status.text.starts_with("Could not open the file"),
        "{}",
        status.text
    );
}

/// Clicks through a menu path by labels ("View", "Appearance", "200 %").
fn click_menu(harness: &mut Harness<'_, SpratApp>, path: &[&str]) {
    for label in path {
        harness.get_by_label(label).click();
        harness.run_steps(2);
    }
}

#[test]
fn the_effective_rate_is_shown_beside_the_speed() {
    let mut harness = demo_harness();
    harness.get_by_label("punch").click();
    harness.run_steps(2);
    harness.get_by_label("60 ticks/s · 16.7 ms/tick");
    harness.key_press(Key::CloseBracket);
    harness.run_steps(2);
    harness.get_by_label("90 ticks/s · 11.1 ms/tick");
}

#[test]
fn appearance_sets_the_theme_and_the_ui_scale() {
    let mut harness = demo_harness();
    click_menu(&mut harness, &["View", "Appearance", "Light"]);
    assert_eq!(harness.ctx.theme(), egui::Theme::Light);
    click_menu(&mut harness, &["View", "Appearance", "200 %"]);
    assert_eq!(harness.state().settings.appearance.ui_scale, 2.0);
    // A new zoom takes effect at the start of the next frame.
    harness.run_steps(1);
    assert_eq!(harness.ctx.zoom_factor(), 2.0);
}

#[test]
fn the_shortcut_list_stays_on_screen_at_ui_scale_2() {
    let mut harness = demo_harness();
    harness.state_mut().settings.appearance.ui_scale = 2.0;
    harness.run_steps(3);
    harness.key_press(Key::F1);
    harness.run_steps(3);
    let screen = harness.ctx.content_rect();
    let title = harness.get_by_role_and_label(Role::Label, "Keyboard shortcuts");
    assert!(title.rect().top() >= screen.top());
    // The window ends inside the screen; the rows it cannot show scroll.
    let bottom = harness
        .get_by_label("Resize window bottom-right corner")
        .rect()
        .bottom();
    assert!(
        bottom <= screen.bottom() + 1.0,
        "{bottom} > {}",
        screen.bottom()
    );
}

#[test]
fn notes_alone_open_no_panel_until_asked_for() {
    use sprat::formats::{Location, Severity};
    let mut harness = harness_with(ScriptedDialogs::default(), Start::Empty);
    let note = Diagnostic::new(Severity::Info, Location::File, "layers composited");
    harness.state_mut().show_document(OpenDocument::new(
        gui_support::showcase(),
        None,
        &sprat::formats::sprat::SpratFormat,
        vec![note],
    ));
    gui_support::wait_for_check(&mut harness);
    let listed =
        |h: &Harness<'_, SpratApp>| h.query_by_label_contains("layers composited").is_some();
    assert!(
        !listed(&harness),
        "a note alone takes no room from the canvas"
    );

    // The counts say it; a click on them lists it, another puts it away.
    harness.get_by_label("0 errors, 0 warnings, 1 note").click();
    harness.run_steps(2);
    assert!(listed(&harness));
    harness.get_by_label("0 errors, 0 warnings, 1 note").click();
    harness.run_steps(2);
    assert!(!listed(&harness));
}

#[test]
fn counts_agree_and_a_refusal_message_goes_after_the_next_edit() {
    use sprat::formats::{Location, Severity};
    let mut harness = harness_with(ScriptedDialogs::default(), Start::Empty);
    // An info is neither an error nor a warning, wherever the counts are shown.
    let diagnostics = vec![
        Diagnostic::new(Severity::Info, Location::File, "a note"),
        Diagnostic::new(Severity::Warning, Location::File, "odd"),
    ];
    harness.state_mut().show_document(OpenDocument::new(
        gui_support::showcase(),
        None,
        &sprat::formats::sprat::SpratFormat,
        diagnostics,
    ));
    gui_support::wait_for_check(&mut harness);
    // The note is said after the problems, not counted among them.
    harness.get_by_label("0 errors, 1 warning, 1 note");

    harness.state_mut().say_refused("that name is taken");
    harness.run_steps(2);
    harness.get_by_label_contains("Not changed: that name is taken");
    harness.get_by_label("punch").click();
    harness.run_steps(2);
    harness.key_press(Key::Insert);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("Not changed: that name is taken")
            .is_none(),
        "the refusal went once the document changed"
    );
}

#[test]
fn two_files_of_one_name_have_titles_that_name_their_folders() {
    let (_first_dir, first) = demo_file();
    let (_second_dir, second) = demo_file();
    let mut harness = harness_with(ScriptedDialogs::default(), Start::Empty);
    let mut titles = Vec::new();
    for path in [&first, &second] {
        let ctx = harness.ctx.clone();
        harness.state_mut().open_path(&ctx, path.clone());
        wait_for_load(&mut harness);
        titles.push(harness.state().active_document().unwrap().title());
    }
    assert_ne!(titles[0], titles[1]);
    for (title, path) in titles.iter().zip([&first, &second]) {
        let folder = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy();
        assert!(title.contains(folder.as_ref()), "{title}");
    }
}

#[test]
fn a_tool_the_next_tabs_format_cannot_use_gives_way_to_select() {
    use sprat::app::canvas::tools::Tool;
    let mut harness = demo_harness();
    harness.key_press(Key::P);
    harness.run_steps(2);
    assert_eq!(
        harness.state().active_tab().unwrap().canvas.tools.tool,
        Tool::Point
    );
    // M.U.G.E.N AIR has no attachment points.
    let kfm =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mugen/kfm/kfm.def");
    let ctx = harness.ctx.clone();
    harness.state_mut().open_path(&ctx, kfm);
    wait_for_load(&mut harness);
    harness.run_steps(2);
    assert_eq!(
        harness.state().active_tab().unwrap().canvas.tools.tool,
        Tool::Select
    );
}

#[test]
fn the_inspectors_duration_and_interpolation_fit_a_1280_wide_window() {
    let mut harness = demo_harness();
    harness.get_by_label("punch").click();
    harness.run_steps(2);
    let screen = harness.ctx.content_rect();
    // Frame 0 lasts 4 ticks: the field shows them, the text beside it the milliseconds.
    for label in ["= 66.7 ms", "angle"] {
        let node = harness.get_by_label(label);
        assert!(
            node.rect().right() <= screen.right(),
            "{label} is cut at {:?}",
            node.rect()
        );
    }
}

#[test]
fn paused_the_editor_sleeps_and_playing_it_paints_once_per_shown_frame() {
    let mut harness = demo_harness();
    harness.get_by_label("walk").click();
    harness.run();
    // The background check's answer is a change to paint: let it come before counting.
    gui_support::wait_for_check(&mut harness);
    assert_eq!(gui_support::sequence_name(&harness), "walk");
    // Paused and untouched: not one frame in ten seconds.
    assert_eq!(frames_painted_in(&mut harness, 10.0), Painting::default());

    // Playing, each painted frame shows another frame of the walk, and there are as many as
    // the playback engine counts in the same 2 s (stepped a millisecond at a time).
    harness.get_by_label("Play").click();
    harness.step();
    harness.step();
    let doc = harness.state().active_document().unwrap();
    let mut reference = doc.player.clone();
    let document = doc.session.document().clone();
    let mut expected = 0;
    for _ in 0..2000 {
        let before = reference.frame_index();
        reference.advance(&document, Duration::from_millis(1));
        expected += usize::from(reference.frame_index() != before);
    }
    let painting = frames_painted_in(&mut harness, 2.0);
    assert!(expected >= 12, "the walk changes frame often ({expected})");
    assert!(
        painting.changes.abs_diff(expected) <= 1,
        "{painting:?}: the engine counts {expected} frame changes in 2 s"
    );
    assert_eq!(
        painting.wakeups, painting.changes,
        "the editor woke up only to show the next frame: {painting:?}"
    );
    // egui may ask for one more paint to settle the click on Play (input, not playback).
    assert!(
        painting.painted <= painting.changes + 1,
        "one paint per frame change, no layout pass after it: {painting:?}"
    );

    harness.get_by_label("Pause").click();
    harness.run();
    assert_eq!(frames_painted_in(&mut harness, 10.0), Painting::default());
}

#[test]
fn a_long_diagnostics_list_shows_the_first_two_hundred_and_then_all_on_request() {
    let mut harness = demo_harness();
    {
        let doc = harness.state_mut().active_document_mut().unwrap();
        let many = (1..=1000)
            .map(|n| Diagnostic::warning_at(n, 1, format!("odd line number {n}.")))
            .collect();
        doc.session.set_diagnostics(many);
    }
    gui_support::wait_for_check(&mut harness);
    harness.get_by_label_contains("odd line number 1.");
    harness.get_by_label("… and 800 more");
    harness.get_by_label("Show all 1000").click();
    harness.run();
    assert!(
        harness
            .state()
            .active_document()
            .unwrap()
            .all_diagnostics_listed
    );
    assert!(harness.query_by_label("… and 800 more").is_none());
    // Only the rows in view are laid out, however many there are.
    assert!(
        harness
            .query_by_label_contains("odd line number 1000.")
            .is_none()
    );
}

#[test]
fn a_path_typed_in_the_path_field_opens_on_enter() {
    let (_dir, path) = demo_file();
    let mut harness = harness_with(ScriptedDialogs::default(), Start::Showcase);
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::O);
    harness.run_steps(2);
    harness.event(egui::Event::Text(path.display().to_string()));
    harness.run_steps(1);
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    wait_for_load(&mut harness);
    assert!(harness.state().path_field.is_none(), "the field closes");
    assert_eq!(
        harness.state().active_document().unwrap().path(),
        Some(path.as_path())
    );
}

#[test]
fn file_new_makes_an_empty_document_in_the_chosen_format_that_asks_where_to_save() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("hero.air");
    let mut harness = harness_with(ScriptedDialogs::default(), Start::Demo);
    // Esc closes the window without making anything.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::N);
    harness.run_steps(2);
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    assert!(harness.state().new_document.is_none());
    assert_eq!(harness.state().documents.len(), 1);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::N);
    harness.run_steps(2);
    harness.get_by_label("Format").click();
    harness.run_steps(2);
    harness.get_by_label("M.U.G.E.N animation (AIR)").click();
    harness.run_steps(2);
    harness.get_by_label("Create").click();
    harness.run_steps(3);
    let doc = harness.state().active_document().unwrap();
    assert_eq!(doc.format_id(), "mugen-air");
    assert_eq!(doc.path(), None);
    assert_eq!(
        gui_support::sequence_name(&harness),
        "0",
        "an AIR action is a number"
    );
    assert_eq!(harness.state().documents.len(), 2, "a tab of its own");
    assert!(harness.state().new_document.is_none(), "the window closes");

    // The first save asks where to put it.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    assert!(harness.state().active_tab().unwrap().save_as.shown);
    assert!(!target.exists());
}
