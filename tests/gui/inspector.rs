//! The inspector through the real editor: a Solarus delay edited and saved changes only its own
//! text, one field of each kind is edited and undone, a refused loop point leaves the document
//! alone with a message, and fields the format cannot hold are disabled.

use crate::{common, gui_support};

use gui_support::{status, undo};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sprat::app::SpratApp;
use sprat::model::{AnimationSet, ElementKind, EndBehavior, FrameDuration, Graphic, GraphicSource};
use std::path::{Path, PathBuf};

/// The showcase set as a Sprat project in a fresh folder.
fn showcase_file(name: &str) -> (gui_support::TempDir, PathBuf) {
    gui_support::showcase_file("gui-inspector", name)
}

/// The editor with `path` opened through File > Open, showing `sequence`.
fn editor_on(path: &Path, sequence: &str) -> Harness<'static, SpratApp> {
    let mut harness = gui_support::editor_opening(path, &[], egui::vec2(1400.0, 1000.0));
    gui_support::click_row(&mut harness, sequence);
    harness
}

fn document<'a>(harness: &'a Harness<'_, SpratApp>) -> &'a AnimationSet {
    harness.state().active_document().unwrap().document()
}

#[test]
fn a_solarus_delay_edited_in_the_inspector_changes_only_its_own_text_on_save() {
    let (_dir, path) = gui_support::tunic_copy("inspector-delay");
    let before = std::fs::read_to_string(&path).unwrap();
    let mut harness = editor_on(&path, "walking");

    // The inspector's field (the timeline's, "Frame delay of the animation", shows 100 ms too).
    let field = harness.get_by_role_and_label(Role::SpinButton, "Delay");
    assert_eq!(field.value().as_deref(), Some("100 ms"));
    field.set_value_accesskit(120.0);
    harness.run_steps(2);
    let walking = document(&harness).sequence_by_name("walking").unwrap();
    for direction in &walking.directions {
        for frame in &direction.frames {
            let frame = document(&harness).frame(*frame).unwrap();
            assert_eq!(frame.duration, FrameDuration::Millis(120));
        }
    }
    assert_eq!(
        harness
            .state()
            .active_document()
            .unwrap()
            .session
            .history()
            .undo_label(),
        Some("Set delay to 120 ms"),
        "one undo step for the whole sequence"
    );

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    assert!(
        status(&harness).starts_with("Saved "),
        "{}",
        status(&harness)
    );

    // Exactly the walking animation's `frame_delay = 100` became 120; every other byte stays.
    let start = before.find("name = \"walking\",").unwrap();
    let at = start + before[start..].find("frame_delay = 100,").unwrap();
    let expected = format!(
        "{}frame_delay = 120,{}",
        &before[..at],
        &before[at + "frame_delay = 100,".len()..]
    );
    let after = std::fs::read_to_string(&path).unwrap();
    assert_eq!(after, expected);
}

#[test]
fn a_loop_point_past_the_frames_is_refused_with_a_message_and_nothing_changes() {
    let (_dir, path) = gui_support::tunic_copy("inspector-loop");
    let mut harness = editor_on(&path, "walking");
    let before = document(&harness).clone();
    let revision = harness.state().active_document().unwrap().revision;

    // Walking loops on frame 0 of 8: frame 12 does not exist.
    let loop_field = harness
        .get_all_by_role(Role::SpinButton)
        .find(|n| n.value().is_some_and(|v| v == "0"))
        .expect("the loop frame field");
    loop_field.set_value_accesskit(12.0);
    harness.run_steps(2);
    assert_eq!(document(&harness), &before);
    assert_eq!(
        harness.state().active_document().unwrap().revision,
        revision
    );
    assert!(
        !harness
            .state()
            .active_document()
            .unwrap()
            .session
            .is_dirty()
    );
    let said = status(&harness);
    assert!(said.starts_with("Not changed:"), "{said}");
    assert!(said.contains("past the end"), "{said}");
}

#[test]
fn fields_solarus_cannot_hold_are_disabled_and_say_why() {
    let (_dir, path) = gui_support::tunic_copy("inspector-disabled");
    let harness = editor_on(&path, "walking");
    let field = harness.get_by_role_and_label(Role::TextInput, "Label");
    assert!(
        field.accesskit_node().is_disabled(),
        "Solarus frames have no labels"
    );
    let follow_up = harness.get_by_role_and_label(Role::ComboBox, "Follow-up");
    assert!(
        follow_up.accesskit_node().is_disabled(),
        "Solarus has no follow-ups"
    );
    let name = harness.get_by_role_and_label(Role::TextInput, "Name");
    assert_eq!(name.value().as_deref(), Some("walking"));
    assert!(!name.accesskit_node().is_disabled());
    let support = sprat::app::context::field_support::Support::of_format(
        &sprat::formats::solarus::SolarusLuaFormat,
    );
    let why = support
        .why_not(sprat::app::context::field_support::Field::FrameText)
        .unwrap();
    assert!(why.starts_with("Solarus 1.x sprite (Lua)"), "{why}");
}

#[test]
fn one_field_of_each_kind_is_edited_and_undone() {
    let (_path_dir, path) = showcase_file("kinds");
    let mut harness = editor_on(&path, "punch");
    let original = document(&harness).clone();
    let punch = |h: &Harness<'_, SpratApp>| document(h).sequence_by_name("punch").unwrap().clone();
    let first_frame = |h: &Harness<'_, SpratApp>| {
        let id = punch(h).directions[0].frames[0];
        document(h).frame(id).unwrap().clone()
    };

    // Text: the sequence name, applied on Enter.
    harness
        .get_by_role_and_label(Role::TextInput, "Name")
        .focus();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness
        .get_by_role_and_label(Role::TextInput, "Name")
        .type_text("jab");
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert!(
        document(&harness).sequence_by_name("jab").is_some(),
        "renamed"
    );
    undo(&mut harness);
    assert_eq!(punch(&harness).name, "punch");

    // Frame text: the label.
    gui_support::type_into(&mut harness, "Label", "wind-up");
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert_eq!(first_frame(&harness).label, "wind-up");
    undo(&mut harness);
    assert_eq!(first_frame(&harness).label, "");

    // A choice: disappear at the end.
    harness
        .get_by_role_and_label(Role::ComboBox, "At the end")
        .click();
    harness.run_steps(2);
    harness.get_by_label("disappear").click();
    harness.run_steps(2);
    assert_eq!(punch(&harness).on_end, EndBehavior::Disappear);
    undo(&mut harness);
    assert_eq!(punch(&harness).on_end, EndBehavior::HoldLastFrame);

    // A flag: interpolate the offset.
    harness.get_by_label("offset").click();
    harness.run_steps(2);
    assert!(first_frame(&harness).interpolation.offset);
    undo(&mut harness);
    assert!(!first_frame(&harness).interpolation.offset);

    // An element number: the hand point's id, after choosing the point in the element list.
    harness.get_by_label("point “hand”").click();
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::SpinButton, "Point id")
        .set_value_accesskit(7.0);
    harness.run_steps(2);
    let hand = punch_hand_id;
    assert_eq!(hand(&harness), 7);
    undo(&mut harness);
    assert_eq!(hand(&harness), 0);

    assert_eq!(document(&harness), &original, "everything undone");
    assert!(
        !harness
            .state()
            .active_document()
            .unwrap()
            .session
            .is_dirty()
    );
}

/// The graphic chosen in the element list.
fn chosen_graphic(harness: &Harness<'_, SpratApp>) -> Graphic {
    let doc = harness.state().active_document().unwrap();
    let chosen = doc.selected_elements()[0];
    doc.session
        .document()
        .frames
        .values()
        .flat_map(|frame| &frame.elements)
        .find_map(|e| match &e.kind {
            ElementKind::Graphic(g) if e.id == chosen => Some(g.clone()),
            _ => None,
        })
        .expect("a graphic is chosen")
}

/// Types `value` into the `index`th of the number fields labelled `label`.
fn set_nth_number(harness: &mut Harness<'static, SpratApp>, label: &str, index: usize, value: f64) {
    harness
        .get_all_by_role(Role::SpinButton)
        .filter(|n| n.accesskit_node().label().as_deref() == Some(label))
        .nth(index)
        .expect("the field is shown")
        .set_value_accesskit(value);
    harness.run_steps(2);
}

#[test]
fn each_number_of_a_sprite_is_edited_on_its_own_in_one_undo_step() {
    let dir = gui_support::TempDir::new("gui-inspector-pair-rows");
    let def = gui_support::kfm_copy(&dir.0);
    let mut harness = gui_support::editor_opening(&def, &[], egui::vec2(1400.0, 1000.0));
    harness.run_steps(2);
    let graphic = harness
        .get_all_by_role(Role::Button)
        .find_map(|n| {
            let label = n.accesskit_node().label()?;
            label.starts_with("graphic").then_some(label)
        })
        .expect("the frame has a graphic");
    harness.get_by_label(&graphic).click();
    harness.run_steps(4);
    let GraphicSource::SffSprite {
        archive,
        group,
        image,
    } = chosen_graphic(&harness).source
    else {
        panic!("KFM draws SFF sprites");
    };

    // The sprite's image number changes and its group stays, then the other way round.
    set_nth_number(&mut harness, "Sprite", 1, f64::from(image + 1));
    let next_image = GraphicSource::SffSprite {
        archive,
        group,
        image: image + 1,
    };
    assert_eq!(chosen_graphic(&harness).source, next_image);
    set_nth_number(&mut harness, "Sprite", 0, f64::from(group + 1));
    let next_group = GraphicSource::SffSprite {
        archive,
        group: group + 1,
        image: image + 1,
    };
    assert_eq!(chosen_graphic(&harness).source, next_group);

    // One undo step each.
    undo(&mut harness);
    assert_eq!(chosen_graphic(&harness).source, next_image);
    undo(&mut harness);
    let first = GraphicSource::SffSprite {
        archive,
        group,
        image,
    };
    assert_eq!(chosen_graphic(&harness).source, first);
}

/// The id of the "hand" point on the showcase's first "punch" frame.
fn punch_hand_id(harness: &Harness<'_, SpratApp>) -> u16 {
    let punch = document(harness).sequence_by_name("punch").unwrap();
    let frame = document(harness)
        .frame(punch.directions[0].frames[0])
        .unwrap();
    frame
        .elements
        .iter()
        .find_map(|e| match &e.kind {
            ElementKind::Point(p) if e.name == "hand" => Some(p.point_id),
            _ => None,
        })
        .unwrap()
}

#[test]
fn a_number_typed_for_an_element_is_kept_when_another_element_is_chosen_in_the_list() {
    let (_path_dir, path) = showcase_file("element-left");
    let mut harness = editor_on(&path, "punch");
    let hand = punch_hand_id;
    harness.get_by_label("point “hand”").click();
    harness.run_steps(2);
    type_number(&mut harness, "Point id", "7");
    assert_eq!(hand(&harness), 0, "not applied while typing");

    // The list is above the element's fields: the click on another element waits until the
    // field has given the point its value.
    let hurt_box = harness
        .get_all_by_role(Role::Button)
        .find_map(|n| {
            let label = n.accesskit_node().label()?;
            label.starts_with("box hurt").then_some(label)
        })
        .expect("the frame has a hurt box");
    harness.get_by_label(&hurt_box).click();
    harness.run_steps(4);
    assert_eq!(hand(&harness), 7);
    let selected = harness
        .state()
        .active_document()
        .unwrap()
        .selected_elements()
        .to_vec();
    assert_eq!(selected.len(), 1, "the click still chose the box");
    undo(&mut harness);
    assert_eq!(hand(&harness), 0, "one undo step");
}

#[test]
fn text_typed_in_a_field_is_kept_when_another_frame_is_selected_before_enter() {
    let (_path_dir, path) = showcase_file("draft");
    let mut harness = editor_on(&path, "punch");
    let label_of = |h: &Harness<'_, SpratApp>, index: usize| {
        let punch = document(h).sequence_by_name("punch").unwrap();
        let id = punch.directions[0].frames[index];
        document(h).frame(id).unwrap().label.clone()
    };
    gui_support::type_into(&mut harness, "Label", "guard up");
    harness.run_steps(2);
    assert_eq!(label_of(&harness, 0), "", "not applied while typing");

    // Another frame is chosen without Enter: the typed text lands on the frame it was typed for.
    harness.get_by_label("frame 1").click();
    harness.run_steps(3);
    assert_eq!(label_of(&harness, 0), "guard up");
    assert_eq!(
        label_of(&harness, 1),
        "",
        "nothing leaks into the new frame"
    );
    undo(&mut harness);
    assert_eq!(label_of(&harness, 0), "", "one undo step");
}

/// The frame on show's duration in the "idle" sequence (milliseconds in the showcase).
fn idle_duration(harness: &Harness<'_, SpratApp>, index: usize) -> FrameDuration {
    let idle = document(harness).sequence_by_name("idle").unwrap();
    document(harness)
        .frame(idle.directions[0].frames[index])
        .unwrap()
        .duration
}

/// Clicks the number field labelled `label`, selects its text and types `text` without Enter.
fn type_number(harness: &mut Harness<'_, SpratApp>, label: &str, text: &str) {
    harness
        .get_by_role_and_label(Role::SpinButton, label)
        .click();
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.event(egui::Event::Text(text.to_string()));
    harness.run_steps(2);
}

#[test]
fn a_number_typed_without_enter_goes_to_its_frame_when_another_cell_or_sequence_is_clicked() {
    let (_path_dir, path) = showcase_file("number-left");
    let mut harness = editor_on(&path, "idle");
    let before: Vec<FrameDuration> = (0..2).map(|i| idle_duration(&harness, i)).collect();
    assert_ne!(before[0], FrameDuration::Millis(150));

    // The timeline is painted before the inspector: the click on the cell must not hand the
    // typed value to the frame it selects.
    type_number(&mut harness, "Duration", "150");
    harness.get_by_label("frame 1").click();
    harness.run_steps(4);
    assert_eq!(idle_duration(&harness, 0), FrameDuration::Millis(150));
    assert_eq!(
        idle_duration(&harness, 1),
        before[1],
        "nothing leaks into the new frame"
    );
    let doc = harness.state().active_document().unwrap();
    assert_eq!(
        doc.selected_frames(),
        vec![1],
        "the click still selects its cell"
    );
    assert_eq!(doc.session.history().done_count(), 1);

    // The same for a tree row: the value stays with the frame it was typed for.
    type_number(&mut harness, "Duration", "90");
    gui_support::click_row(&mut harness, "punch");
    harness.run_steps(4);
    assert_eq!(idle_duration(&harness, 1), FrameDuration::Millis(90));
    assert_eq!(gui_support::sequence_name(&harness), "punch");
    undo(&mut harness);
    undo(&mut harness);
    let after: Vec<FrameDuration> = (0..2).map(|i| idle_duration(&harness, i)).collect();
    assert_eq!(after, before, "one undo step each");
}

#[test]
fn a_number_typed_into_a_field_is_one_undo_step_applied_on_enter() {
    let (_path_dir, path) = showcase_file("typed-number");
    let mut harness = editor_on(&path, "idle");
    assert_eq!(idle_duration(&harness, 0), FrameDuration::Millis(400));

    // Click into the field, select all, type 1, 5, 0 a key at a time: nothing applies yet.
    harness
        .get_by_role_and_label(Role::SpinButton, "Duration")
        .click();
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    for digit in ["1", "5", "0"] {
        harness.event(egui::Event::Text(digit.to_string()));
        harness.run_steps(2);
        assert_eq!(
            idle_duration(&harness, 0),
            FrameDuration::Millis(400),
            "nothing applies while typing"
        );
    }
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert_eq!(idle_duration(&harness, 0), FrameDuration::Millis(150));
    let history = harness.state().active_document().unwrap().session.history();
    assert_eq!(history.done_count(), 1, "one undo step for the typed value");
    assert!(
        history.undo_label().is_some_and(|l| l.contains("duration")),
        "{:?}",
        history.undo_label()
    );
    undo(&mut harness);
    assert_eq!(
        idle_duration(&harness, 0),
        FrameDuration::Millis(400),
        "one Ctrl+Z brings back the value before the edit"
    );

    // Esc gives the field its value back and changes nothing.
    type_number(&mut harness, "Duration", "999");
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    assert_eq!(idle_duration(&harness, 0), FrameDuration::Millis(400));
    assert_eq!(
        harness
            .state()
            .active_document()
            .unwrap()
            .session
            .history()
            .done_count(),
        0
    );
}

#[test]
fn the_solarus_delay_field_shows_the_delay_of_the_animation_on_show() {
    let (_dir, path) = gui_support::tunic_copy("inspector-timeline-delay-shown");
    let mut harness = editor_on(&path, "stopped");
    let shown = |harness: &Harness<'_, SpratApp>| {
        harness
            .get_by_role_and_label(Role::SpinButton, "Frame delay of the animation")
            .value()
    };
    assert_eq!(
        shown(&harness).as_deref(),
        Some("0 ms"),
        "stopped stays on its frame"
    );
    // Another animation, with nothing edited in between: its own delay, not the last one's.
    gui_support::click_row(&mut harness, "walking");
    harness.run_steps(2);
    assert_eq!(shown(&harness).as_deref(), Some("100 ms"));
}

#[test]
fn a_solarus_timeline_sets_the_animation_delay_and_a_cancelled_save_opens_nothing_else() {
    let (_dir, path) = gui_support::tunic_copy("inspector-timeline-delay");
    let before = std::fs::read(&path).unwrap();
    let mut harness = editor_on(&path, "walking");
    harness.get_by_label("frame 1").click();
    harness.run_steps(2);

    // No per-frame duration: neither the field nor a cell edge to drag.
    assert!(
        harness.query_by_label_contains("selected frame").is_none(),
        "no per-frame duration field"
    );
    assert!(
        harness.query_by_label("end of frame 0").is_none(),
        "no cell edge to drag"
    );

    // The animation's delay, typed: every frame of every direction, one undo step.
    harness
        .get_by_role_and_label(Role::SpinButton, "Frame delay of the animation")
        .click();
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.event(egui::Event::Text("120".to_string()));
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    let walking = document(&harness)
        .sequence_by_name("walking")
        .unwrap()
        .clone();
    for direction in &walking.directions {
        for frame in &direction.frames {
            let frame = document(&harness).frame(*frame).unwrap();
            assert_eq!(frame.duration, FrameDuration::Millis(120));
        }
    }
    let history = harness.state().active_document().unwrap().session.history();
    assert_eq!(history.done_count(), 1);
    assert_eq!(history.undo_label(), Some("Set delay to 120 ms"));

    // One frame given a duration of its own elsewhere (a script, the library): Ctrl+S lists
    // it as a loss; Cancel closes the list, opens no other window and says nothing was saved.
    let frame = walking.directions[0].frames[1];
    let own = sprat::edit::timeline::SetFrameDuration {
        frame,
        duration: FrameDuration::Millis(50),
    };
    harness
        .state_mut()
        .active_document_mut()
        .unwrap()
        .apply(&own, None)
        .unwrap();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    assert!(
        harness.query_by_label("Save anyway").is_some(),
        "the losses are listed"
    );
    harness
        .get_by_role_and_label(Role::Button, "Cancel")
        .click();
    harness.run_steps(2);
    assert!(harness.query_by_label("Save anyway").is_none());
    assert!(
        !harness.state().active_tab().unwrap().save_as.shown,
        "no Save As window after a plain Save"
    );
    let said = status(&harness);
    assert!(said.starts_with("Not saved"), "{said}");
    assert_eq!(std::fs::read(&path).unwrap(), before, "nothing was written");
}

/// Ctrl+S with no loss list expected; the lines of the file at `path` that differ from
/// `original`, as (before, after).
fn saved_changes(
    harness: &mut Harness<'_, SpratApp>,
    path: &Path,
    original: &str,
) -> Vec<(String, String)> {
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    assert!(
        harness.query_by_label("Save anyway").is_none(),
        "nothing lost"
    );
    let saved = std::fs::read_to_string(path).unwrap();
    original
        .lines()
        .zip(saved.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn a_solarus_direction_adds_its_next_cell_and_refuses_moves_copies_and_middle_deletes() {
    let (_dir, path) = gui_support::tunic_copy("inspector-grid-cells");
    let mut harness = editor_on(&path, "walking");
    let walking = |h: &Harness<'_, SpratApp>| {
        document(h).sequence_by_name("walking").unwrap().directions[0]
            .frames
            .clone()
    };
    let before = walking(&harness);
    assert_eq!(before.len(), 8);

    // A frame in the middle: neither duplicated nor deleted, each button saying why.
    harness.get_by_label("frame 3").click();
    harness.run_steps(2);
    for button in ["Duplicate frames", "Delete frames"] {
        assert!(
            harness
                .get_by_role_and_label(Role::Button, button)
                .accesskit_node()
                .is_disabled(),
            "{button}"
        );
    }
    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert_eq!(walking(&harness), before, "Delete refused");
    let said = status(&harness);
    assert!(said.contains("consecutive cells"), "{said}");

    // Dragging a cell onto another place moves nothing.
    let from = harness.get_by_label("frame 1").rect().center();
    let to = harness.get_by_label("frame 5").rect().center();
    gui_support::drag(&mut harness, from, to);
    assert_eq!(walking(&harness), before, "no move");

    // Insert adds the next cell of the direction's row; the last frame can go again.
    harness
        .get_by_role_and_label(Role::Button, "Insert frame")
        .click();
    harness.run_steps(2);
    let after = walking(&harness);
    assert_eq!(after.len(), 9);
    assert_eq!(&after[..8], &before[..]);
    harness.get_by_label("frame 8").click();
    harness.run_steps(2);
    assert!(
        !harness
            .get_by_role_and_label(Role::Button, "Delete frames")
            .accesskit_node()
            .is_disabled()
    );

    // Saved with no loss list: the file says 9 frames and nothing else changed.
    let original = std::fs::read_to_string(&path).unwrap();
    let changed = saved_changes(&mut harness, &path, &original);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].1.contains("num_frames = 9"), "{changed:?}");
}

#[test]
fn a_solarus_graphic_dragged_on_the_canvas_moves_the_directions_origin_for_every_frame() {
    let (_dir, path) = gui_support::tunic_copy("inspector-one-origin");
    // The picture too: the canvas picks a graphic by its opaque pixels.
    let sheet = "solarus/lua-1.x/zsdx/sprites/hero/walking.tunic.png";
    crate::common::copy_writable(
        &common::corpus().join(sheet),
        &path.with_file_name("walking.tunic.png"),
    );
    let original = std::fs::read_to_string(&path).unwrap();
    let mut harness = editor_on(&path, "walking");
    let positions = |h: &Harness<'_, SpratApp>| -> Vec<(f64, f64)> {
        let doc = document(h);
        let direction = &doc.sequence_by_name("walking").unwrap().directions[0];
        direction
            .frames
            .iter()
            .map(|id| {
                let frame = doc.frame(*id).unwrap();
                let ElementKind::Graphic(g) = &frame.elements[0].kind else {
                    panic!("a Solarus frame draws a graphic first");
                };
                (g.position.x.to_f64(), g.position.y.to_f64())
            })
            .collect()
    };
    let before = positions(&harness);
    let screen = |h: &Harness<'_, SpratApp>, x: f64, y: f64| {
        let canvas = &h.state().active_tab().unwrap().canvas;
        let rect = canvas.last_rect.expect("the canvas was shown");
        sprat::app::canvas::view::View::new(rect, canvas.zoom, 1.0, canvas.pan).to_screen(x, y)
    };
    // The picture clicked, then dragged 2 px right by its middle.
    let from = screen(&harness, 0.0, -12.0);
    let to = screen(&harness, 2.0, -12.0);
    gui_support::canvas_click(&mut harness, from);
    assert_eq!(
        harness
            .state()
            .active_document()
            .unwrap()
            .selected_elements()
            .len(),
        1,
        "the click picks the picture"
    );
    gui_support::canvas_drag(&mut harness, from, to);
    let after = positions(&harness);
    assert_eq!(after.len(), 8);
    for ((bx, by), (ax, ay)) in before.iter().zip(&after) {
        assert_eq!(
            (*ax, *ay),
            (bx + 2.0, *by),
            "every frame of the direction moved"
        );
    }
    let history = harness.state().active_document().unwrap().session.history();
    assert_eq!(history.done_count(), 1, "one undo step");

    // Its graphic can be neither deleted nor given another place in the inspector.
    assert!(
        harness
            .get_by_role_and_label(Role::Button, "Delete graphic")
            .accesskit_node()
            .is_disabled()
    );
    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert_eq!(positions(&harness).len(), 8);
    assert!(
        status(&harness).contains("cannot be deleted"),
        "{}",
        status(&harness)
    );

    // Saved with no loss list: only the direction's origin changed.
    let changed = saved_changes(&mut harness, &path, &original);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].1.contains("origin_x = 10"), "{changed:?}");
}
