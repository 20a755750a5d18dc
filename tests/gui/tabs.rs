//! Several documents open at once, through the real editor: opening adds a tab (a file already
//! open just shows its tab), tabs switch by click and Ctrl+Tab, each document keeps its own undo
//! history, player and inspector text, closing or quitting with unsaved changes asks, frames
//! copy from one tab to another, sequences of another tab hang on points, and several
//! documents come back after a crash.

use crate::gui_support;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui_support::{TempDir, click_row, open_next, request_quit, status, undo};
use sprat::app::SpratApp;
use sprat::app::context::document::OpenDocument;
use sprat::app::shell::tabs::{self, TabEntry};
use sprat::formats::{ReadContext, registry};
use sprat::model::FrameDuration;
use std::path::{Path, PathBuf};

/// The editor with `first` opened, then each of `more` opened through File > Open in turn.
fn editor_with(first: &Path, more: &[PathBuf]) -> Harness<'static, SpratApp> {
    let mut harness = gui_support::editor_opening(first, more, egui::vec2(1280.0, 800.0));
    for _ in more {
        open_next(&mut harness);
    }
    harness
}

fn entries(harness: &Harness<'_, SpratApp>) -> Vec<TabEntry> {
    let app = harness.state();
    tabs::entries(&app.documents, app.active_tab_id())
}

/// The tabs' titles in tab-bar order.
fn titles(harness: &Harness<'_, SpratApp>) -> Vec<String> {
    entries(harness).iter().map(TabEntry::title).collect()
}

/// The title of the tab on show.
fn active_title(harness: &Harness<'_, SpratApp>) -> String {
    entries(harness)
        .iter()
        .find(|e| e.active)
        .map(TabEntry::title)
        .unwrap_or_default()
}

/// The document read from `path`, on show or waiting in its tab.
fn document_of<'a>(harness: &'a Harness<'_, SpratApp>, path: &Path) -> &'a OpenDocument {
    harness
        .state()
        .documents
        .iter()
        .map(|t| &t.doc)
        .find(|o| o.path() == Some(path))
        .unwrap_or_else(|| panic!("{} is not open", path.display()))
}

fn punch_loop(harness: &Harness<'_, SpratApp>, path: &Path) -> Option<usize> {
    document_of(harness, path)
        .document()
        .sequence_by_name("punch")
        .unwrap()
        .loop_point
}

/// Two showcase files, a.sprat and b.sprat, open in two tabs (b on show); the folder goes
/// when the returned guard drops.
fn two_tabs(name: &str) -> (TempDir, PathBuf, PathBuf, Harness<'static, SpratApp>) {
    let dir = TempDir::new(name);
    let (a, b) = (dir.showcase("a.sprat"), dir.showcase("b.sprat"));
    let harness = editor_with(&a, std::slice::from_ref(&b));
    (dir, a, b, harness)
}

/// An unsaved change in the tab on show: the punch loops back to its first frame.
fn loop_the_punch(harness: &mut Harness<'_, SpratApp>) {
    click_row(harness, "punch");
    click(harness, "back to frame");
}

fn click(harness: &mut Harness<'_, SpratApp>, label: &str) {
    harness.get_by_label(label).click();
    harness.run_steps(2);
}

#[test]
fn two_files_open_as_two_tabs_each_with_its_own_history_and_player() {
    let (_dir, a, b, mut harness) = two_tabs("two");
    assert_eq!(titles(&harness), ["a.sprat", "b.sprat"]);
    assert_eq!(active_title(&harness), "b.sprat", "the new tab shows");
    assert_eq!(harness.state().confirm_discard, None, "no question on open");

    // B: the punch loops back to its first frame.
    loop_the_punch(&mut harness);
    assert_eq!(punch_loop(&harness, &b), Some(0));

    // A, by a click on its tab: untouched, and showing what it showed (the default idle).
    click(&mut harness, "a.sprat");
    assert_eq!(active_title(&harness), "a.sprat");
    assert_eq!(titles(&harness), ["a.sprat", "b.sprat *"]);
    assert_eq!(punch_loop(&harness, &a), None);
    let doc = harness.state().active_document().unwrap();
    assert_eq!(doc.sequence().unwrap().name, "idle");
    click_row(&mut harness, "guard");
    click(&mut harness, "back to frame");
    let guard_loop = |h: &Harness<'_, SpratApp>, path: &Path| {
        document_of(h, path)
            .document()
            .sequence_by_name("guard")
            .unwrap()
            .loop_point
    };
    assert_eq!(guard_loop(&harness, &a), Some(0));

    // Back to B: its punch is still selected, and undo there undoes B's edit, not A's.
    click(&mut harness, "b.sprat *");
    let doc = harness.state().active_document().unwrap();
    assert_eq!(doc.path(), Some(b.as_path()));
    assert_eq!(doc.sequence().unwrap().name, "punch");
    undo(&mut harness);
    assert_eq!(punch_loop(&harness, &b), None);
    assert_eq!(guard_loop(&harness, &a), Some(0), "A's edit stays");
    assert_eq!(titles(&harness), ["a.sprat *", "b.sprat"]);
    undo(&mut harness);
    assert_eq!(status(&harness), "Nothing to undo.");
    assert_eq!(guard_loop(&harness, &a), Some(0));

    // Ctrl+Tab and Ctrl+Shift+Tab go round the tabs.
    harness.key_press_modifiers(Modifiers::CTRL, Key::Tab);
    harness.run_steps(2);
    assert_eq!(active_title(&harness), "a.sprat *");
    harness.key_press_modifiers(Modifiers::CTRL, Key::Tab);
    harness.run_steps(2);
    assert_eq!(active_title(&harness), "b.sprat");
    harness.key_press_modifiers(Modifiers::CTRL | Modifiers::SHIFT, Key::Tab);
    harness.run_steps(2);
    assert_eq!(active_title(&harness), "a.sprat *");
    undo(&mut harness);
    assert_eq!(guard_loop(&harness, &a), None, "A's own history");
}

#[test]
fn the_zoom_and_pan_belong_to_each_tab() {
    let (_dir, _a, _b, mut harness) = two_tabs("view");
    harness.state_mut().active_tab_mut().unwrap().canvas.zoom = 7.0;
    harness.state_mut().active_tab_mut().unwrap().canvas.pan = egui::vec2(30.0, -12.0);
    harness.run_steps(2);
    click(&mut harness, "a.sprat");
    harness.state_mut().active_tab_mut().unwrap().canvas.zoom = 3.0;
    harness.run_steps(2);
    click(&mut harness, "b.sprat");
    assert_eq!(harness.state().active_tab().unwrap().canvas.zoom, 7.0);
    assert_eq!(
        harness.state().active_tab().unwrap().canvas.pan,
        egui::vec2(30.0, -12.0)
    );
    click(&mut harness, "a.sprat");
    assert_eq!(harness.state().active_tab().unwrap().canvas.zoom, 3.0);
}

#[test]
fn opening_a_file_already_open_shows_its_tab() {
    let dir = TempDir::new("same");
    let (a, b) = (dir.showcase("a.sprat"), dir.showcase("b.sprat"));
    // The same file again, once by another spelling of its path.
    let again = dir.0.join(".").join("a.sprat");
    let mut harness = gui_support::editor_opening(
        &a,
        &[b.clone(), a.clone(), again],
        egui::vec2(1280.0, 800.0),
    );
    open_next(&mut harness);
    assert_eq!(titles(&harness), ["a.sprat", "b.sprat"]);
    for _ in 0..2 {
        click(&mut harness, "b.sprat");
        harness.key_press_modifiers(Modifiers::COMMAND, Key::O);
        harness.run_steps(3);
        assert!(!harness.state().is_loading(), "nothing is read again");
        assert_eq!(titles(&harness), ["a.sprat", "b.sprat"]);
        assert_eq!(active_title(&harness), "a.sprat");
        assert!(status(&harness).ends_with("is already open."));
    }
}

#[test]
fn closing_a_changed_tab_asks_and_cancel_keeps_it() {
    let dir = TempDir::new("close");
    let (a, b) = (dir.showcase("a.sprat"), dir.showcase("b.sprat"));
    let on_disk = std::fs::read(&b).unwrap();
    let mut harness = editor_with(&a, std::slice::from_ref(&b));
    loop_the_punch(&mut harness);

    harness.key_press_modifiers(Modifiers::COMMAND, Key::W);
    harness.run_steps(2);
    harness.get_by_label_contains("b.sprat has changes that are not saved");
    click(&mut harness, "Cancel");
    assert_eq!(harness.state().confirm_discard, None);
    assert_eq!(titles(&harness), ["a.sprat", "b.sprat *"]);
    assert_eq!(punch_loop(&harness, &b), Some(0), "the edit is still there");

    harness.key_press_modifiers(Modifiers::COMMAND, Key::W);
    harness.run_steps(2);
    click(&mut harness, "Discard changes");
    assert_eq!(titles(&harness), ["a.sprat"]);
    assert_eq!(active_title(&harness), "a.sprat", "the neighbour shows");
    assert_eq!(std::fs::read(&b).unwrap(), on_disk, "nothing written");

    // An unchanged tab closes at once, here from its close button.
    click(&mut harness, "Close a.sprat");
    assert_eq!(harness.state().confirm_discard, None);
    assert!(harness.state().active_document().is_none());
    assert!(titles(&harness).is_empty());
    harness.get_by_label_contains("Open an animation");
}

#[test]
fn closing_a_changed_tab_in_the_background_shows_it_and_saves_it() {
    let (_dir, a, _b, mut harness) = two_tabs("close-save");
    click(&mut harness, "a.sprat");
    loop_the_punch(&mut harness);
    click(&mut harness, "b.sprat");

    click(&mut harness, "Close a.sprat");
    assert_eq!(
        active_title(&harness),
        "a.sprat *",
        "shown to be asked about"
    );
    harness.get_by_label_contains("a.sprat has changes that are not saved");
    click(&mut harness, "Save");
    assert_eq!(titles(&harness), ["b.sprat"]);
    let (saved, _) = registry().open(&a, &ReadContext::for_path(&a)).unwrap();
    let punch = saved.document.sequence_by_name("punch").unwrap();
    assert_eq!(punch.loop_point, Some(0));
}

#[test]
fn frames_copied_in_one_tab_paste_into_another() {
    let (_dir, a, b, mut harness) = two_tabs("paste");
    click(&mut harness, "a.sprat");
    click_row(&mut harness, "punch");
    click(&mut harness, "frame 1");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::C);
    harness.run_steps(2);

    click(&mut harness, "b.sprat");
    click_row(&mut harness, "guard");
    click(&mut harness, "frame 1");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::V);
    harness.run_steps(2);
    let guard = |h: &Harness<'_, SpratApp>, path: &Path| {
        let document = document_of(h, path).document();
        let guard = document.sequence_by_name("guard").unwrap();
        guard.directions[0]
            .frames
            .iter()
            .map(|id| document.frame(*id).unwrap().duration)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        guard(&harness, &b),
        [
            FrameDuration::Ticks(5),
            FrameDuration::Forever,
            FrameDuration::Ticks(3)
        ],
        "the punch's second frame pasted after the guard's last"
    );
    assert_eq!(
        guard(&harness, &a).len(),
        2,
        "the copied-from tab is unchanged"
    );
    assert_eq!(titles(&harness), ["a.sprat", "b.sprat *"]);
}

#[test]
fn quitting_with_a_changed_tab_in_the_background_asks_once_naming_it() {
    let (_dir, a, b, mut harness) = two_tabs("quit");
    click(&mut harness, "a.sprat");
    loop_the_punch(&mut harness);
    click(&mut harness, "b.sprat");

    request_quit(&mut harness);
    assert_eq!(
        harness.state().confirm_discard,
        Some(sprat::app::AfterConfirm::Quit)
    );
    harness.get_by_label_contains("a.sprat has changes that are not saved");
    assert_eq!(harness.get_all_by_label("Unsaved changes").count(), 1);
    click(&mut harness, "Cancel");
    assert_eq!(titles(&harness), ["a.sprat *", "b.sprat"]);

    // With both changed, one question names both; Save saves both.
    loop_the_punch(&mut harness);
    request_quit(&mut harness);
    harness.get_by_label_contains("a.sprat and b.sprat have changes that are not saved");
    click(&mut harness, "Save");
    assert_eq!(titles(&harness), ["a.sprat", "b.sprat"]);
    for path in [&a, &b] {
        let (saved, _) = registry().open(path, &ReadContext::for_path(path)).unwrap();
        let punch = saved.document.sequence_by_name("punch").unwrap();
        assert_eq!(punch.loop_point, Some(0), "{}", path.display());
    }
}

#[test]
fn text_half_typed_in_the_inspector_goes_to_its_own_document_on_switching() {
    let (_dir, a, b, mut harness) = two_tabs("draft");
    // Both tabs show their punch, so the two Name fields edit sequences with the same id.
    click(&mut harness, "a.sprat");
    click_row(&mut harness, "punch");
    click(&mut harness, "b.sprat");
    click_row(&mut harness, "punch");

    let type_into_name = |harness: &mut Harness<'_, SpratApp>, text: &str| {
        harness
            .get_by_role_and_label(Role::TextInput, "Name")
            .focus();
        harness.run();
        harness
            .get_by_role_and_label(Role::TextInput, "Name")
            .type_text(text);
        harness.run();
    };
    let names = |harness: &Harness<'_, SpratApp>, path: &Path| {
        let document = document_of(harness, path).document();
        let mut names: Vec<String> = document
            .sequences()
            .iter()
            .map(|s| s.name.clone())
            .collect();
        names.sort();
        names
    };
    let showcase = ["guard", "idle", "punch", "walk"];

    // Typed in B, no Enter, then a click on A's tab.
    type_into_name(&mut harness, "_b");
    click(&mut harness, "a.sprat");
    harness.run_steps(3);
    assert_eq!(names(&harness, &b), ["guard", "idle", "punch_b", "walk"]);
    assert_eq!(
        names(&harness, &a),
        showcase,
        "nothing typed for B lands in A"
    );
    let field = harness.get_by_role_and_label(Role::TextInput, "Name");
    assert_eq!(field.value().as_deref(), Some("punch"));

    // Typed in A, then Ctrl+Tab.
    type_into_name(&mut harness, "_a");
    harness.key_press_modifiers(Modifiers::CTRL, Key::Tab);
    harness.run_steps(3);
    assert_eq!(active_title(&harness), "b.sprat *");
    assert_eq!(names(&harness, &a), ["guard", "idle", "punch_a", "walk"]);
    assert_eq!(names(&harness, &b), ["guard", "idle", "punch_b", "walk"]);
    // Each is one undo step in its own document.
    undo(&mut harness);
    assert_eq!(names(&harness, &b), showcase);
    assert_eq!(names(&harness, &a), ["guard", "idle", "punch_a", "walk"]);
}

#[test]
fn the_hang_picker_offers_the_other_open_tabs() {
    use sprat::app::canvas::tools::hang::Source;
    let (_dir, a, _b, mut harness) = two_tabs("hang");
    // A shows its idle, whose frames carry a "head" point; B waits in its tab.
    click(&mut harness, "a.sprat");
    harness
        .state_mut()
        .active_tab_mut()
        .unwrap()
        .canvas
        .tools
        .hang
        .open_picker("head".to_string());
    harness.run_steps(3);
    click(&mut harness, "b.sprat (open tab)");
    click(&mut harness, "Hang guard");
    let hanging = &gui_support::hanging(&harness);
    assert_eq!(hanging.hung.len(), 1);
    let Source::Open(tab) = hanging.hung[0].source else {
        panic!("hung from {:?}", hanging.hung[0].source);
    };
    let b_tab = entries(&harness)
        .iter()
        .find(|e| e.name == "b.sprat")
        .map(|e| e.tab);
    assert_eq!(Some(tab), b_tab);
    // It keeps hanging while the canvas paints: its document is found among the tabs.
    harness.run_steps(3);
    let hanging = &gui_support::hanging(&harness);
    assert_eq!(hanging.frame_of("head"), Some(0));
    assert_eq!(hanging.others.len(), 1, "only B is copied");
    assert!(!document_of(&harness, &a).session.is_dirty());

    // Each tab keeps its own hung sequences; closing B takes down what hung from it.
    click(&mut harness, "b.sprat");
    assert!(gui_support::hanging(&harness).hung.is_empty());
    click(&mut harness, "a.sprat");
    assert_eq!(gui_support::hanging(&harness).hung.len(), 1);
    click(&mut harness, "Close b.sprat");
    harness.run_steps(2);
    assert!(gui_support::hanging(&harness).hung.is_empty());
}

#[test]
fn several_documents_left_by_a_crash_come_back_as_tabs() {
    use sprat::session::RecoveryStore;

    let dir = TempDir::new("recover");
    let (a, b) = (dir.showcase("a.sprat"), dir.showcase("b.sprat"));
    let recovery = dir.0.join("recovery");
    // An earlier run edited both files and autosaved, then ended without saving.
    for (path, loop_point) in [(&a, 1), (&b, 2)] {
        gui_support::leave_autosaved_edit(path, &recovery, loop_point);
    }
    let mut harness = gui_support::editor_after_crash(&recovery);
    for _ in 0..2 {
        harness.get_all_by_label("Recover").next().unwrap().click();
        harness.run_steps(2);
    }
    let mut shown = titles(&harness);
    shown.sort();
    assert_eq!(shown, ["a.sprat *", "b.sprat *"], "both recovered, unsaved");
    assert_eq!(punch_loop(&harness, &a), Some(1));
    assert_eq!(punch_loop(&harness, &b), Some(2));
    assert_eq!(
        RecoveryStore::new(&recovery).list().len(),
        2,
        "kept until saved"
    );

    // Saving one removes its recovery and only its own.
    click(&mut harness, "a.sprat *");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    let left = RecoveryStore::new(&recovery).list();
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(left[0].source.as_deref(), Some(b.as_path()));

    // Quitting without saving b: its changes are not offered again at the next start.
    request_quit(&mut harness);
    click(&mut harness, "Discard changes");
    let left = RecoveryStore::new(&recovery).list();
    assert!(left.is_empty(), "{left:?}");
}

/// The editor, autosaving into `recovery` and offering what it already holds, with `path`
/// opened (as `sprat FILE` opens it).
fn editor_with_recovery(path: &Path, recovery: &Path) -> Harness<'static, SpratApp> {
    use sprat::app::context::platform::{DialogOutcome, ScriptedDialogs};
    use sprat::app::context::settings::Settings;
    let mut dialogs = ScriptedDialogs::default();
    dialogs
        .answers
        .push_back(DialogOutcome::Chosen(path.to_path_buf()));
    let recovery = recovery.to_path_buf();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| {
            let mut app = SpratApp::new(Settings::default(), Box::new(dialogs));
            app.recovery_dir = Some(recovery);
            app.look_for_recovery();
            app
        });
    open_next(&mut harness);
    harness
}

#[test]
fn a_stop_signal_keeps_the_last_edit_and_the_next_start_recovers_it_in_the_files_tab() {
    use sprat::session::RecoveryStore;

    let dir = TempDir::new("stop-signal");
    let a = dir.showcase("a.sprat");
    let on_disk = std::fs::read(&a).unwrap();
    let recovery = dir.0.join("recovery");
    let mut harness = editor_with_recovery(&a, &recovery);
    // An edit a moment before the signal: the 30 s autosave has not written it.
    loop_the_punch(&mut harness);
    assert_eq!(punch_loop(&harness, &a), Some(0));
    assert!(RecoveryStore::new(&recovery).list().is_empty());

    // SIGTERM raises this flag (see `stop_signals`): the next frame writes the work aside.
    harness.state().stop_request.request();
    harness.run_steps(2);
    let left = RecoveryStore::new(&recovery).list();
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(left[0].source.as_deref(), Some(a.as_path()));
    let recovered = RecoveryStore::new(&recovery).recover(&left[0]).unwrap();
    let punch = recovered.document().sequence_by_name("punch").unwrap();
    assert_eq!(
        punch.loop_point,
        Some(0),
        "the last edit is in the recovery"
    );
    assert_eq!(std::fs::read(&a).unwrap(), on_disk, "the file is untouched");
    // The window closes without asking about the unsaved changes.
    request_quit(&mut harness);
    assert!(harness.query_by_label("Discard changes").is_none());
    drop(harness);

    // The next start, on the same file, offers the work back in that file's one tab.
    let mut harness = editor_with_recovery(&a, &recovery);
    assert_eq!(titles(&harness), ["a.sprat"]);
    click(&mut harness, "Recover");
    assert_eq!(titles(&harness), ["a.sprat *"], "one tab, recovered");
    assert_eq!(punch_loop(&harness, &a), Some(0));
}

#[test]
fn a_recovery_of_a_file_open_with_changes_of_its_own_waits() {
    use sprat::session::RecoveryStore;

    let dir = TempDir::new("recover-open");
    let a = dir.showcase("a.sprat");
    let recovery = dir.0.join("recovery");
    gui_support::leave_autosaved_edit(&a, &recovery, 2);
    let mut harness = editor_with_recovery(&a, &recovery);
    loop_the_punch(&mut harness);
    click(&mut harness, "Recover");
    assert_eq!(titles(&harness), ["a.sprat *"], "still one tab");
    assert_eq!(
        punch_loop(&harness, &a),
        Some(0),
        "the tab's own change is kept"
    );
    assert!(
        status(&harness).contains("changes of its own"),
        "{}",
        status(&harness)
    );
    assert_eq!(
        RecoveryStore::new(&recovery).list().len(),
        1,
        "still offered"
    );
    assert!(harness.query_by_label("Recover").is_some());
}

#[test]
fn files_dropped_together_open_in_a_tab_each() {
    let dir = TempDir::new("drop");
    let (a, b, c) = (
        dir.showcase("a.sprat"),
        dir.showcase("b.sprat"),
        dir.showcase("c.sprat"),
    );
    let mut harness = editor_with(&a, &[]);
    let dropped: Vec<egui::DroppedFileHandle> = [&b, &c, &a, &b]
        .into_iter()
        .map(|p| gui_support::dropped(p))
        .collect();
    harness.input_mut().dropped_files = dropped;
    harness.step();
    for _ in 0..1000 {
        harness.step();
        if !harness.state().is_loading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    harness.run_steps(2);
    assert_eq!(titles(&harness), ["a.sprat", "b.sprat", "c.sprat"]);
}

#[test]
fn a_window_opened_because_another_did_not_answer_says_so_once_its_file_is_open() {
    use sprat::app::context::platform::{DialogOutcome, ScriptedDialogs};
    use sprat::app::context::settings::Settings;
    use sprat::single_instance::BUSY_NOTICE;

    let dir = TempDir::new("busy");
    let (a, b) = (dir.showcase("a.sprat"), dir.showcase("b.sprat"));
    let mut dialogs = ScriptedDialogs::default();
    for path in [&a, &b] {
        dialogs
            .answers
            .push_back(DialogOutcome::Chosen(path.to_path_buf()));
    }
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| {
            let mut app = SpratApp::new(Settings::default(), Box::new(dialogs));
            // What `sprat a.sprat` gets when the window already open did not answer.
            app.start_notice = Some(BUSY_NOTICE);
            app
        });
    open_next(&mut harness);
    assert_eq!(status(&harness), BUSY_NOTICE);
    // Said once: the next file opened says only that.
    open_next(&mut harness);
    assert!(
        status(&harness).starts_with("Opened"),
        "{}",
        status(&harness)
    );
}

#[test]
fn a_file_handed_over_by_a_second_start_opens_as_a_tab() {
    let dir = TempDir::new("handed");
    let (a, b) = (dir.showcase("a.sprat"), dir.showcase("b.sprat"));
    let mut harness = editor_with(&a, &[]);
    let socket = dir.0.join("sprat.sock");
    let listener = sprat::single_instance::Listener::bind(&socket)
        .unwrap()
        .expect("nobody listens yet");
    sprat::app::shell::opening::take_files_from(&listener, &harness.ctx);

    // `sprat b.sprat` while the editor runs: it hands the path over and is told it was taken.
    assert_eq!(
        sprat::single_instance::hand_over(&socket, std::slice::from_ref(&b)),
        sprat::single_instance::HandOver::Taken
    );
    harness.step();
    for _ in 0..1000 {
        harness.step();
        if !harness.state().is_loading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    harness.run_steps(2);
    assert_eq!(titles(&harness), ["a.sprat", "b.sprat"]);
    assert_eq!(active_title(&harness), "b.sprat");
}

#[test]
fn a_waiting_tab_whose_file_changed_on_disk_is_marked_and_asks_when_shown() {
    let (_dir, a, _b, mut harness) = two_tabs("disk");
    assert_eq!(titles(&harness), ["a.sprat", "b.sprat"]);

    // Another program rewrites a.sprat while b.sprat shows (the watch looks once a second).
    let mut text = std::fs::read(&a).unwrap();
    text.extend_from_slice(b"\n");
    std::fs::write(&a, text).unwrap();
    std::thread::sleep(sprat::session::WATCH_INTERVAL + std::time::Duration::from_millis(100));
    harness.run_steps(2);
    assert_eq!(titles(&harness), ["a.sprat (changed on disk)", "b.sprat"]);
    assert!(harness.query_by_label("File changed on disk").is_none());

    click(&mut harness, "a.sprat (changed on disk)");
    harness.get_by_label("File changed on disk");
    assert_eq!(titles(&harness), ["a.sprat", "b.sprat"]);
}

/// Plays the sequence on show for about a second of UI frames, then pauses it.
fn play_a_while(harness: &mut Harness<'_, SpratApp>) {
    harness.get_by_label("Play").click();
    for _ in 0..60 {
        harness.step();
        // Let the worker composing pictures ahead have its turn, as a display's refresh would.
        std::thread::sleep(std::time::Duration::from_millis(4));
    }
    harness.get_by_label("Pause").click();
    harness.run_steps(3);
}

/// The sprite-space rectangle of the picture the canvas is given for frame `index` of the
/// sequence on show, and that of the frame drawn afresh from the document.
fn picture_and_drawn(
    harness: &mut Harness<'_, SpratApp>,
    index: usize,
) -> (
    Option<sprat::render::SpriteRect>,
    Option<sprat::render::SpriteRect>,
) {
    use sprat::app::context::pictures::{FrameKey, render_image};
    use sprat::render::Scene;
    let ctx = harness.ctx.clone();
    let app = harness.state_mut();
    let doc = app.active_document().unwrap();
    let document = doc.session.document().clone();
    let key = FrameKey {
        sequence: doc.player.sequence(),
        direction: doc.player.direction(),
        index,
        progress: 0,
    };
    let rule = sprat::model::DefaultBoxRule::default();
    let scene = || Scene::at(&document, key.sequence, key.direction, index, rule);
    let given = app
        .textures
        .frame(&ctx, &document, key, scene, &app.pixels)
        .map(|p| p.rect);
    let drawn = scene().and_then(|s| render_image(&document, &s, &app.pixels).map(|(r, _)| r));
    (given, drawn)
}

#[test]
fn a_tab_shows_its_own_pictures_after_another_tab_played_a_sequence_of_the_same_id() {
    let dir = TempDir::new("tabs-pictures");
    let (first, second) = (dir.0.join("a"), dir.0.join("b"));
    std::fs::create_dir_all(&first).unwrap();
    std::fs::create_dir_all(&second).unwrap();
    // The first character stands in its get-hit pose: same actions, same frames, other pictures.
    let other = gui_support::kfm_copy(&first);
    let air = first.join("kfm.air");
    let text = std::fs::read_to_string(&air).unwrap();
    let standing = text.find("[Begin Action 0]").unwrap();
    let end = standing + text[standing..].find("; Turning").unwrap();
    let mut changed = text[..standing].to_string();
    for line in text[standing..end].lines() {
        match line.strip_prefix("0,").and_then(|l| l.split_once(", ")) {
            Some((_, rest)) => changed.push_str(&format!("5000,0, {rest}\n")),
            None => changed.push_str(&format!("{line}\n")),
        }
    }
    changed.push_str(&text[end..]);
    std::fs::write(&air, changed).unwrap();
    let kfm = gui_support::kfm_copy(&second);

    let mut harness = gui_support::editor_opening(&other, &[kfm], egui::vec2(1280.0, 800.0));
    let first_sequence = harness.state().active_document().unwrap().player.sequence();
    play_a_while(&mut harness);
    open_next(&mut harness);
    let doc = harness.state().active_document().unwrap();
    assert_eq!(
        doc.player.sequence(),
        first_sequence,
        "both characters' standing actions have one id, as any two documents may"
    );
    let frames = doc.direction_frames().len();
    play_a_while(&mut harness);
    harness
        .state_mut()
        .active_document_mut()
        .unwrap()
        .select_frame(2);
    harness.run_steps(3);
    for index in 0..frames {
        harness
            .state_mut()
            .active_document_mut()
            .unwrap()
            .select_frame(index);
        harness.run_steps(2);
        let (given, drawn) = picture_and_drawn(&mut harness, index);
        assert!(drawn.is_some(), "frame {index} draws a sprite");
        assert_eq!(
            given, drawn,
            "the picture of frame {index} is another tab's"
        );
    }
}
