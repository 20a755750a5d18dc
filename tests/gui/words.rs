//! Each format's own words in the editor: Clsn1/Clsn2 and AIR default boxes only where the
//! format has them, and the box names the user says are hit and hurt boxes (kept per file in
//! Sprat's settings) for the checks of a format that only names its boxes.

use crate::gui_support;
use egui::accesskit::Role;
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui_support::TempDir;
use sprat::app::SpratApp;
use sprat::app::context::document::OpenDocument;
use sprat::app::context::platform::ScriptedDialogs;
use sprat::app::context::settings::Settings;
use sprat::model::*;
use std::path::Path;

/// A small Aseprite-style document: two frames, the first with a slice "Attack", the second
/// with a slice "Body".
fn sliced() -> AnimationSet {
    let mut set = AnimationSet::new();
    let id = SequenceId(set.alloc_id());
    let direction = DirectionId(set.alloc_id());
    let mut sequence = Sequence::new(id, "idle", direction);
    for name in ["Attack", "Body"] {
        let mut frame = Frame::new(FrameDuration::Millis(100));
        let collision = CollisionBox::rect_from_corners(
            BoxClass::Custom(name.to_string()),
            Point::from_ints(-10, -40),
            Point::from_ints(10, 0),
        );
        frame.elements.push(Element {
            id: ElementId(set.alloc_id()),
            name: name.into(),
            kind: ElementKind::Box(collision),
        });
        let frame_id = FrameId(set.alloc_id());
        set.frames.insert(frame_id, frame);
        sequence.directions[0].frames.push(frame_id);
    }
    set.root.items.push(TreeItem::Sequence(sequence));
    set
}

/// The editor with `settings`, showing `document` as an Aseprite file read from `path`.
fn aseprite_editor(
    settings: Settings,
    document: AnimationSet,
    path: &Path,
) -> Harness<'static, SpratApp> {
    let path = path.to_path_buf();
    let mut harness = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_eframe(move |_cc| {
            let mut app = SpratApp::new(settings, Box::new(ScriptedDialogs::default()));
            let format = sprat::formats::registry().by_id("aseprite").unwrap();
            app.show_document(OpenDocument::new(document, Some(path), format, Vec::new()));
            app
        });
    harness.run_steps(3);
    harness
}

fn open_menu(harness: &mut Harness<'_, SpratApp>, name: &str) {
    harness.get_by_label(name).click();
    harness.run_steps(2);
}

/// Whether some widget's label or some label's text contains `part`.
fn shows_text_containing(harness: &Harness<'_, SpratApp>, part: &str) -> bool {
    harness
        .query_all_by(|node| {
            node.label().is_some_and(|l| l.contains(part))
                || node.value().is_some_and(|v| v.contains(part))
        })
        .next()
        .is_some()
}

const DEFAULT_RULE: &str = "AIR default boxes after a one-frame override";

#[test]
fn clsn_words_and_air_defaults_only_on_mugen_documents() {
    let (_dir, mut kfm) = gui_support::kfm_editor("words");
    open_menu(&mut kfm, "Overlay");
    assert!(kfm.query_by_label(DEFAULT_RULE).is_some());
    assert!(kfm.query_by_label("hurt (Clsn2)").is_some());

    let dir = TempDir::new("words-aseprite");
    let mut harness = aseprite_editor(Settings::default(), sliced(), &dir.0.join("hero.aseprite"));
    open_menu(&mut harness, "Overlay");
    assert!(harness.query_by_label(DEFAULT_RULE).is_none());
    assert!(harness.query_by_label("Attack").is_some());
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    // The class list of the Box tool and of the Box tools menu.
    harness.get_by_label("Box").click();
    harness.run_steps(2);
    open_menu(&mut harness, "Box tools");
    assert!(!shows_text_containing(&harness, "Clsn"));
}

#[test]
fn hit_and_hurt_box_names_are_kept_per_file_and_used_by_the_box_checks() {
    let dir = TempDir::new("words-roles");
    let path = dir.0.join("hero.aseprite");
    let mut harness = aseprite_editor(Settings::default(), sliced(), &path);
    let warned = |harness: &Harness<'_, SpratApp>| {
        harness
            .state()
            .active_document()
            .unwrap()
            .diagnostics()
            .iter()
            .any(|d| d.message.contains("hit boxes but no hurt box"))
    };
    gui_support::wait_for_check(&mut harness);
    assert!(!warned(&harness), "nobody said which slice is a hit box");

    open_menu(&mut harness, "Box tools");
    harness.get_by_label("Attack: neither").click();
    harness.run_steps(2);
    harness.get_by_label("hit box").click();
    harness.run_steps(3);
    gui_support::wait_for_check(&mut harness);
    assert!(warned(&harness), "frame 0 has a hit box and no hurt box");
    let status = gui_support::status(&harness);
    assert!(status.contains("“Attack” are hit boxes"), "{status}");
    let kept = harness.state().settings.box_roles_of(&path);
    assert_eq!(kept.hit, ["Attack"]);

    // Another run of the editor on the same file knows it.
    let settings = harness.state().settings.clone();
    drop(harness);
    let harness = aseprite_editor(settings, sliced(), &path);
    let doc = harness.state().active_document().unwrap();
    assert_eq!(doc.box_roles.hit, ["Attack"]);
}

/// A ping-pong tag as the Aseprite reader spells it out: the file's frames 0, 1, 2 played
/// 0 1 2 1, cells 1 and 3 showing the same frame of the file.
fn ping_pong() -> AnimationSet {
    let mut set = AnimationSet::new();
    let id = SequenceId(set.alloc_id());
    let direction = DirectionId(set.alloc_id());
    let mut sequence = Sequence::new(id, "bounce", direction);
    let mut ids = Vec::new();
    for _ in 0..3 {
        let frame_id = FrameId(set.alloc_id());
        set.frames
            .insert(frame_id, Frame::new(FrameDuration::Millis(100)));
        ids.push(frame_id);
    }
    sequence.directions[0].frames = vec![ids[0], ids[1], ids[2], ids[1]];
    sequence.loop_point = Some(0);
    set.root.items.push(TreeItem::Sequence(sequence));
    set
}

#[test]
fn cells_show_the_files_frame_numbers_and_an_edit_of_a_shared_frame_says_which_cells_changed() {
    use egui::{Key, Modifiers};
    let dir = TempDir::new("words-ping-pong");
    let mut harness = aseprite_editor(
        Settings::default(),
        ping_pong(),
        &dir.0.join("bounce.aseprite"),
    );
    let doc = harness.state().active_document().unwrap();
    assert_eq!(doc.file_frame_numbers(), Some(vec![0, 1, 2, 1]));

    // The cell's hint names its frame in the file and the other cell showing it.
    harness.hover_at(harness.get_by_label("frame 3").rect().center());
    harness.run_steps(60);
    assert!(shows_text_containing(&harness, "Frame #1 of the file"));
    assert!(shows_text_containing(&harness, "as cell 1"));

    harness.get_by_label("frame 3").click();
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::SpinButton, "Duration")
        .click();
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.event(egui::Event::Text("120".to_string()));
    harness.run_steps(2);
    harness.key_press(Key::Enter);
    harness.run_steps(3);
    let durations: Vec<FrameDuration> = harness
        .state()
        .active_document()
        .unwrap()
        .direction_frames()
        .iter()
        .map(|f| f.duration)
        .collect();
    assert_eq!(durations[1], FrameDuration::Millis(120));
    let status = gui_support::status(&harness);
    assert!(
        status.ends_with("cells 1 and 3 show that frame of the file, so both changed"),
        "{status}"
    );

    // Sprat's own format numbers no file frames: no numbers.
    let (_kfm_dir, kfm) = gui_support::kfm_editor("words");
    assert_eq!(
        kfm.state().active_document().unwrap().file_frame_numbers(),
        None
    );
}

#[test]
fn a_tags_direction_and_repeat_count_are_edited_in_the_inspector_with_undo() {
    use egui::{Key, Modifiers};
    let dir = TempDir::new("words-plays");
    let mut harness = aseprite_editor(
        Settings::default(),
        ping_pong(),
        &dir.0.join("bounce.aseprite"),
    );
    let cells = |harness: &Harness<'_, SpratApp>| -> (Vec<usize>, Option<usize>) {
        let doc = harness.state().active_document().unwrap();
        let sequence = doc.sequence().unwrap();
        (doc.file_frame_numbers().unwrap(), sequence.loop_point)
    };
    let before = cells(&harness);
    assert_eq!(before.0, [0, 1, 2, 1]);

    // The direction: ping-pong, as the cells play; reverse spells the cells out again.
    let plays = harness.get_by_role_and_label(Role::ComboBox, "Plays");
    assert!(
        format!("{plays:?}").contains("value: \"ping-pong\""),
        "{plays:?}"
    );
    plays.click();
    harness.run_steps(2);
    harness.get_by_label("reverse").click();
    harness.run_steps(3);
    let looped = before.1.is_some();
    let expected_loop = if looped { Some(0) } else { None };
    assert_eq!(cells(&harness), (vec![2, 1, 0], expected_loop));
    let status = gui_support::status(&harness);
    assert!(status.starts_with("Set to play reverse"), "{status}");

    // The repeat count, typed: one undo step on Enter.
    harness
        .get_by_role_and_label(Role::SpinButton, "Plays")
        .click();
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.event(egui::Event::Text("2".to_string()));
    harness.run_steps(2);
    harness.key_press(Key::Enter);
    harness.run_steps(3);
    assert_eq!(cells(&harness), (vec![2, 1, 0, 2, 1, 0], None));
    assert_eq!(gui_support::undo_steps(&harness), 2);

    gui_support::undo(&mut harness);
    gui_support::undo(&mut harness);
    assert_eq!(cells(&harness), before);
}

#[test]
fn the_box_tool_names_new_boxes_on_a_format_that_only_names_them() {
    let dir = TempDir::new("words-new-slice");
    let mut harness = aseprite_editor(Settings::default(), sliced(), &dir.0.join("hero.aseprite"));
    harness.get_by_label("Box").click();
    harness.run_steps(2);
    // New boxes get one of the file's names, not "hit" or "hurt", which a slice cannot keep.
    let tools = &harness.state().active_tab().unwrap().canvas.tools;
    let class = tools.class.clone();
    assert_eq!(class, BoxClass::Custom("Attack".to_string()));
    assert!(harness.query_by_label("hit").is_none());

    // A box drawn away from the slice is a named one.
    let canvas = &harness.state().active_tab().unwrap().canvas;
    let rect = canvas.last_rect.expect("the canvas was shown");
    let view = sprat::app::canvas::view::View::new(rect, canvas.zoom, 1.0, canvas.pan);
    let (from, to) = (view.to_screen(20.0, -30.0), view.to_screen(40.0, -10.0));
    gui_support::drag(&mut harness, from, to);
    let doc = harness.state().active_document().unwrap();
    let frame = doc.frame().unwrap();
    let classes: Vec<BoxClass> = frame.boxes().map(|(_, b)| b.class.clone()).collect();
    assert_eq!(classes.len(), 2, "{classes:?}");
    assert!(
        classes.iter().all(|c| matches!(c, BoxClass::Custom(_))),
        "{classes:?}"
    );
}

#[test]
fn a_box_of_a_class_named_hitbox_is_added_as_a_hitbox_not_a_hitbox_box() {
    let dir = TempDir::new("words-hitbox");
    let mut set = sliced();
    for frame in set.frames.values_mut() {
        for element in &mut frame.elements {
            if let ElementKind::Box(collision) = &mut element.kind {
                collision.class = BoxClass::Custom("hitbox".to_string());
                element.name = "hitbox".into();
            }
        }
    }
    let mut harness = aseprite_editor(Settings::default(), set, &dir.0.join("hero.aseprite"));
    harness.get_by_label("Box").click();
    harness.run_steps(2);
    let canvas = &harness.state().active_tab().unwrap().canvas;
    let rect = canvas.last_rect.expect("the canvas was shown");
    let view = sprat::app::canvas::view::View::new(rect, canvas.zoom, 1.0, canvas.pan);
    let (from, to) = (view.to_screen(20.0, -30.0), view.to_screen(40.0, -10.0));
    gui_support::drag(&mut harness, from, to);
    let history = harness.state().active_document().unwrap().session.history();
    assert_eq!(history.undo_label(), Some("Add hitbox"));
    assert_eq!(gui_support::status(&harness), "Added hitbox");
}

#[test]
fn the_picture_of_a_two_frame_solarus_direction_moves_on_both_frames_not_all_2() {
    let (_dir, path) = gui_support::tunic_copy("words-both-frames");
    let mut harness = gui_support::editor_opening(&path, &[], vec2(1280.0, 800.0));
    // "swimming_stopped": four directions of two frames, one origin each (its row is below
    // the tree's fold, so it is clicked as a screen reader clicks it).
    harness
        .get_by_role_and_label(Role::Button, "swimming_stopped")
        .click_accesskit();
    harness.run_steps(2);
    let doc = harness.state_mut().active_document_mut().unwrap();
    let name = doc.sequence().map(|s| s.name.clone());
    assert_eq!(doc.direction_frames().len(), 2, "{name:?}");
    let graphic = doc.frame().unwrap().elements[0].id;
    doc.select_element(graphic);
    harness.run_steps(2);
    let canvas = harness
        .state()
        .active_tab()
        .unwrap()
        .canvas
        .last_rect
        .unwrap();
    harness.hover_at(canvas.center());
    harness.key_press(egui::Key::ArrowRight);
    harness.run_steps(2);
    let history = harness.state().active_document().unwrap().session.history();
    assert_eq!(
        history.undo_label(),
        Some("Move the pictures of both frames of the direction")
    );
}
