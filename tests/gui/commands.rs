//! Commands that know when they apply: a command that does not apply is greyed out in the
//! menus, and its shortcut changes nothing but says why; commands that carry data (a recent
//! file, a tab) still take effect when picked from a menu.

use crate::gui_support;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use gui_support::{TempDir, status};
use sprat::app::SpratApp;
use sprat::app::canvas::tools::Tool;
use sprat::app::context::commands::UICommand;
use sprat::app::context::platform::ScriptedDialogs;
use sprat::app::context::settings::Settings;
use std::path::Path;

/// The editor with no document open, at 1280x800, with `settings`.
fn empty_editor(settings: Settings) -> Harness<'static, SpratApp> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| SpratApp::new(settings, Box::new(ScriptedDialogs::default())));
    harness.run_steps(2);
    harness
}

/// Whether the menu item of `command` (its label, then its shortcut) is greyed out.
fn is_greyed(harness: &Harness<'_, SpratApp>, command: UICommand) -> bool {
    let shortcut = command.shortcut_text(&harness.ctx);
    let label = match shortcut.is_empty() {
        true => command.label().to_string(),
        false => format!("{} {shortcut}", command.label()),
    };
    harness.get_by_label(&label).accesskit_node().is_disabled()
}

fn tool(harness: &Harness<'_, SpratApp>) -> Tool {
    harness.state().active_tab().unwrap().canvas.tools.tool
}

#[test]
fn a_tool_the_format_cannot_hold_is_greyed_and_its_key_says_why() {
    let (_dir, path) = gui_support::tunic_copy("commands-greyed");
    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1280.0, 800.0));
    harness.run_steps(2);
    harness.get_by_label("Tools").click();
    harness.run_steps(2);
    assert!(
        is_greyed(&harness, UICommand::BoxTool),
        "Solarus has no boxes"
    );
    assert!(
        is_greyed(&harness, UICommand::PointTool),
        "Solarus has no points"
    );
    assert!(!is_greyed(&harness, UICommand::SelectTool));
    harness.key_press(Key::Escape);
    harness.run_steps(2);

    let before = harness.state().active_document().unwrap().revision;
    for (key, what) in [(Key::R, "boxes"), (Key::P, "attachment points")] {
        harness.key_press(key);
        harness.run_steps(2);
        assert_eq!(tool(&harness), Tool::Select, "{key:?} changed the tool");
        let said = status(&harness);
        assert!(
            said.starts_with("Not changed: ") && said.ends_with(&format!("cannot hold {what}")),
            "{key:?}: {said}"
        );
    }
    let doc = harness.state().active_document().unwrap();
    assert_eq!(doc.revision, before, "the document is as it was");
}

#[test]
fn without_a_document_the_document_commands_are_greyed_and_their_keys_say_so() {
    let mut harness = empty_editor(Settings::default());
    harness.get_by_label("File").click();
    harness.run_steps(2);
    assert!(is_greyed(&harness, UICommand::Save));
    assert!(is_greyed(&harness, UICommand::CloseTab));
    assert!(!is_greyed(&harness, UICommand::Open));
    harness.key_press(Key::Escape);
    harness.run_steps(2);

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    assert_eq!(status(&harness), "No document is open.");
    // A command that needs no document still applies.
    let tree = harness.state().settings.layout.tree;
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num1);
    harness.run_steps(2);
    assert_eq!(harness.state().settings.layout.tree, !tree);
}

/// Waits until the document at `path` is the one on show, loaded.
fn wait_until_shown(harness: &mut Harness<'_, SpratApp>, path: &Path) {
    for _ in 0..1000 {
        harness.step();
        let shown = harness
            .state()
            .active_document()
            .is_some_and(|doc| doc.path() == Some(path));
        if shown && !harness.state().is_loading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    harness.run_steps(2);
}

#[test]
fn a_recent_file_and_a_tab_picked_from_the_menus_are_shown() {
    let dir = TempDir::new("commands-queued");
    let (a, b) = (dir.showcase("a.sprat"), dir.showcase("b.sprat"));
    let settings = Settings {
        recent_files: vec![a.clone()],
        ..Settings::default()
    };
    let mut harness = empty_editor(settings);
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label("Open Recent").click();
    harness.run_steps(2);
    harness.get_by_label(&a.display().to_string()).click();
    wait_until_shown(&mut harness, &a);
    let shown = |h: &Harness<'_, SpratApp>| {
        h.state()
            .active_document()
            .and_then(|doc| doc.path().map(Path::to_path_buf))
    };
    assert_eq!(shown(&harness), Some(a.clone()));

    // A second tab, then the first one again from the Window menu.
    let ctx = harness.ctx.clone();
    harness.state_mut().open_path(&ctx, b.clone());
    wait_until_shown(&mut harness, &b);
    assert_eq!(harness.state().documents.len(), 2);
    harness.get_by_label("Window").click();
    harness.run_steps(2);
    // The tab bar shows the title too; the menu's item is the one painted last.
    let items: Vec<_> = harness.get_all_by_label("a.sprat").collect();
    assert_eq!(items.len(), 2, "the tab and the Window menu's item");
    items.last().unwrap().click();
    harness.run_steps(2);
    assert_eq!(shown(&harness), Some(a));
}

/// Opens each menu of the menu bar in turn and checks that every command item found there is
/// greyed out exactly when the command does not apply; returns how many items were checked.
fn menu_items_follow_availability(harness: &mut Harness<'_, SpratApp>) -> usize {
    let mut checked = 0;
    for menu in [
        "File", "Edit", "View", "Overlay", "Tools", "Playback", "Window", "Help",
    ] {
        harness.get_by_label(menu).click();
        harness.run_steps(2);
        for command in UICommand::ALL {
            let view = harness.state().command_view();
            let applies = command.availability(&view).is_ok();
            let shortcut = command.shortcut_text(&harness.ctx);
            let label = match shortcut.is_empty() {
                true => command.label().to_string(),
                false => format!("{} {shortcut}", command.label()),
            };
            for item in harness.query_all_by_label(&label) {
                assert_eq!(
                    item.accesskit_node().is_disabled(),
                    !applies,
                    "{menu} > {label}"
                );
                checked += 1;
            }
        }
        harness.key_press(Key::Escape);
        harness.run_steps(2);
    }
    checked
}

#[test]
fn every_menu_item_is_greyed_exactly_when_its_command_does_not_apply() {
    let mut harness = empty_editor(Settings::default());
    let without_document = menu_items_follow_availability(&mut harness);
    let (_dir, path) = gui_support::tunic_copy("commands-menus");
    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1280.0, 800.0));
    harness.run_steps(2);
    let on_solarus = menu_items_follow_availability(&mut harness);
    // Most commands are in a menu (the paste special ones are in a submenu).
    assert!(without_document > 40, "{without_document} items checked");
    assert!(on_solarus > 40, "{on_solarus} items checked");
}

#[test]
fn delete_on_the_sequence_holding_an_aseprite_files_last_frames_is_refused_by_key_and_menu_alike() {
    let (_dir, path) =
        gui_support::corpus_copy("commands-last-frames", "aseprite/linked_cels.aseprite");
    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1280.0, 800.0));
    gui_support::click_row(&mut harness, "linked_cels");
    let before = harness
        .state()
        .active_document()
        .unwrap()
        .session
        .document()
        .clone();
    let reason = "Aseprite sprite files hold at least one frame: this sequence has the last ones";
    let why = UICommand::DeleteSelection
        .availability(&harness.state().command_view())
        .expect_err("the sequence holding the last frames is kept");
    assert_eq!(why.text(), reason);

    // The Edit menu greys Delete out, saying why when hovered.
    harness.get_by_label("Edit").click();
    harness.run_steps(2);
    assert!(is_greyed(&harness, UICommand::DeleteSelection));
    let shortcut = UICommand::DeleteSelection.shortcut_text(&harness.ctx);
    harness.get_by_label(&format!("Delete {shortcut}")).hover();
    // Tooltips wait for the pointer to rest.
    harness.run_steps(60);
    assert!(harness.query_by_label(reason).is_some(), "the hover text");
    harness.key_press(Key::Escape);
    harness.run_steps(2);

    // The key says the same sentence, and nothing changes.
    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert_eq!(status(&harness), format!("Not changed: {reason}"));
    let doc = harness.state().active_document().unwrap();
    assert_eq!(doc.session.document(), &before);
    assert!(!doc.session.history().can_undo(), "no step was taken");
}

#[test]
fn delete_of_every_frame_an_aseprite_file_has_left_is_refused_by_key_menu_and_timeline_alike() {
    let (_dir, path) =
        gui_support::corpus_copy("commands-last-cells", "aseprite/linked_cels.aseprite");
    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1280.0, 800.0));
    gui_support::click_row(&mut harness, "linked_cels");
    let document = |harness: &Harness<'_, SpratApp>| {
        let doc = harness.state().active_document().unwrap();
        doc.session.document().clone()
    };
    let before = document(&harness);
    let frames = gui_support::frame_count(&harness);
    assert!(frames > 1, "the file has several frames to select");
    // Every cell selected as a user does: the first clicked, the last shift-clicked.
    harness.get_by_label("frame 0").click();
    harness.run_steps(2);
    let last = format!("frame {}", frames - 1);
    harness
        .get_by_label(&last)
        .click_modifiers(Modifiers::SHIFT);
    harness.run_steps(2);
    let selected = harness.state().active_document().unwrap().selected_frames();
    assert_eq!(selected, (0..frames).collect::<Vec<_>>());

    let reason = "Aseprite sprite files hold at least one frame: these are the last ones";
    let why = UICommand::DeleteSelection
        .availability(&harness.state().command_view())
        .expect_err("the last frames are kept");
    assert_eq!(why.text(), reason);
    // The timeline's own button is greyed out as the menu item is.
    let button = harness.get_by_label("Delete frames");
    assert!(button.accesskit_node().is_disabled(), "Delete frames");
    harness.get_by_label("Edit").click();
    harness.run_steps(2);
    assert!(is_greyed(&harness, UICommand::DeleteSelection));
    harness.key_press(Key::Escape);
    harness.run_steps(2);

    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert_eq!(status(&harness), format!("Not changed: {reason}"));
    assert_eq!(document(&harness), before);
    let doc = harness.state().active_document().unwrap();
    assert!(!doc.session.history().can_undo(), "no step was taken");

    // One frame fewer may go.
    harness
        .get_by_label(&last)
        .click_modifiers(Modifiers::COMMAND);
    harness.run_steps(2);
    let view = harness.state().command_view();
    assert_eq!(UICommand::DeleteSelection.availability(&view), Ok(()));
}
