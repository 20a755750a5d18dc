//! Editing frames in the timeline through the real editor: Shift/Ctrl multi-selection, drag to
//! reorder (one undo step), copy and paste across sequences and files, the duration of several
//! frames at once, the loop marker, cell edges in native units, and what Delete deletes.

use crate::gui_support;

use gui_support::{click_row, drag, open_next, undo, undo_steps};

use egui::accesskit::Role;
use egui::{Key, Modifiers, pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sprat::app::SpratApp;
use sprat::app::context::platform::ScriptedDialogs;
use sprat::app::context::settings::Settings;
use sprat::model::{AnimationSet, ElementKind, FrameDuration, FrameId};
use std::path::{Path, PathBuf};

/// The showcase set written as a Sprat project in a fresh folder.
fn showcase_file(name: &str) -> (gui_support::TempDir, PathBuf) {
    gui_support::showcase_file("gui-timeline", name)
}

/// The editor on `path` (opened through File > Open) showing the punch; `later` answers the
/// next file dialogs.
fn editor_on(path: &Path, later: &[PathBuf]) -> Harness<'static, SpratApp> {
    let mut harness = gui_support::editor_opening(path, later, egui::vec2(1280.0, 800.0));
    click_row(&mut harness, "punch");
    harness
}

fn cell(harness: &Harness<'_, SpratApp>, index: usize) -> egui::Rect {
    harness.get_by_label(&format!("frame {index}")).rect()
}

fn click_cell(harness: &mut Harness<'_, SpratApp>, index: usize, modifiers: Modifiers) {
    harness
        .get_by_label(&format!("frame {index}"))
        .click_modifiers(modifiers);
    harness.run_steps(2);
}

fn document(harness: &Harness<'_, SpratApp>) -> AnimationSet {
    harness
        .state()
        .active_document()
        .unwrap()
        .document()
        .clone()
}

fn frames_of(harness: &Harness<'_, SpratApp>, sequence: &str) -> Vec<FrameId> {
    document(harness)
        .sequence_by_name(sequence)
        .unwrap()
        .directions[0]
        .frames
        .clone()
}

fn durations_of(harness: &Harness<'_, SpratApp>, sequence: &str) -> Vec<FrameDuration> {
    let doc = document(harness);
    frames_of(harness, sequence)
        .iter()
        .map(|id| doc.frame(*id).unwrap().duration)
        .collect()
}

fn selected(harness: &Harness<'_, SpratApp>) -> Vec<usize> {
    harness
        .state()
        .active_document()
        .unwrap()
        .session
        .selection()
        .frames
        .clone()
}

fn shown_frame(harness: &Harness<'_, SpratApp>) -> usize {
    harness
        .state()
        .active_document()
        .unwrap()
        .player
        .frame_index()
}

#[test]
fn shift_selects_a_range_and_ctrl_toggles_cells() {
    let (_path_dir, path) = showcase_file("select");
    let mut harness = editor_on(&path, &[]);
    click_cell(&mut harness, 1, Modifiers::NONE);
    assert_eq!(selected(&harness), [1]);
    click_cell(&mut harness, 3, Modifiers::SHIFT);
    assert_eq!(selected(&harness), [1, 2, 3]);
    assert_eq!(
        shown_frame(&harness),
        3,
        "the playhead follows the clicked cell"
    );
    click_cell(&mut harness, 2, Modifiers::COMMAND);
    assert_eq!(selected(&harness), [1, 3]);
    click_cell(&mut harness, 4, Modifiers::COMMAND);
    assert_eq!(selected(&harness), [1, 3, 4]);
    assert_eq!(shown_frame(&harness), 4);
    // A plain click starts over; stepping the playhead selects the frame it lands on.
    click_cell(&mut harness, 0, Modifiers::NONE);
    assert_eq!(selected(&harness), [0]);
    harness.key_press(Key::Period);
    harness.run_steps(2);
    assert_eq!(selected(&harness), [1]);
    // Playback leaves the selection alone; where it stops becomes the selection.
    harness.get_by_label("Play").click();
    harness.run_steps(2);
    assert_eq!(selected(&harness), [1]);
    let doc = harness.state_mut().active_document_mut().unwrap();
    let document = doc.session.document().clone();
    doc.player.seek_frame(&document, 3);
    harness.run_steps(2);
    assert_eq!(selected(&harness), [3]);
}

#[test]
fn reorder_frames_by_drag_in_the_timeline() {
    let (_path_dir, path) = showcase_file("reorder");
    let mut harness = editor_on(&path, &[]);
    let original = frames_of(&harness, "punch");

    // Select cells 0 and 1 and drop them after cell 3.
    click_cell(&mut harness, 0, Modifiers::NONE);
    click_cell(&mut harness, 1, Modifiers::SHIFT);
    let from = cell(&harness, 1).center();
    let target = cell(&harness, 3);
    drag(
        &mut harness,
        from,
        pos2(target.right() - 3.0, target.center().y),
    );
    let moved = frames_of(&harness, "punch");
    assert_eq!(
        moved,
        [
            original[2],
            original[3],
            original[0],
            original[1],
            original[4]
        ]
    );
    assert_eq!(selected(&harness), [2, 3], "the moved cells stay selected");
    assert_eq!(undo_steps(&harness), 1);

    // One undo restores the order, and the selection from before the drag.
    undo(&mut harness);
    assert_eq!(frames_of(&harness, "punch"), original);
    assert_eq!(selected(&harness), [0, 1]);
}

#[test]
fn frames_are_copied_into_another_sequence_and_into_another_file() {
    let (_path_dir, path) = showcase_file("copy");
    let (_other_dir, other) = showcase_file("copy-other");
    let mut harness = editor_on(&path, std::slice::from_ref(&other));
    let punch = frames_of(&harness, "punch");
    click_cell(&mut harness, 0, Modifiers::NONE);
    click_cell(&mut harness, 1, Modifiers::SHIFT);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::C);
    harness.run_steps(2);

    // Into the guard, after its last frame.
    click_row(&mut harness, "guard");
    click_cell(&mut harness, 1, Modifiers::NONE);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::V);
    harness.run_steps(2);
    let doc = document(&harness);
    let guard = frames_of(&harness, "guard");
    assert_eq!(guard.len(), 4);
    for (pasted, copied) in guard[2..].iter().zip(&punch) {
        assert_ne!(pasted, copied, "pasted frames are new frames");
        let (pasted, copied) = (doc.frame(*pasted).unwrap(), doc.frame(*copied).unwrap());
        assert_eq!(pasted.duration, copied.duration);
        assert_eq!(
            pasted.elements.len(),
            copied.elements.len(),
            "elements kept"
        );
    }
    assert_eq!(selected(&harness), [2, 3], "the pasted cells are selected");

    // The clipboard belongs to the editor: it survives opening another file.
    open_next(&mut harness);
    assert_eq!(
        harness.state().active_document().unwrap().path(),
        Some(other.as_path())
    );
    assert_eq!(frames_of(&harness, "guard").len(), 2);
    click_row(&mut harness, "guard");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::V);
    harness.run_steps(2);
    let doc = document(&harness);
    let guard = frames_of(&harness, "guard");
    assert_eq!(guard.len(), 4, "pasted at the end with no cell selected");
    assert_eq!(
        doc.frame(guard[2]).unwrap().duration,
        FrameDuration::Ticks(4)
    );
    assert_eq!(
        doc.frame(guard[3]).unwrap().duration,
        FrameDuration::Ticks(3)
    );
    let hand = |id: FrameId| {
        doc.frame(id)
            .unwrap()
            .elements
            .iter()
            .any(|e| e.name == "hand" && matches!(e.kind, ElementKind::Point(_)))
    };
    assert!(hand(guard[2]) && hand(guard[3]));
    let status = harness.state().status.as_ref().unwrap().text.clone();
    assert!(
        status.starts_with("Pasted 2 frames from \"punch\""),
        "{status}"
    );
}

#[test]
fn three_selected_frames_get_one_duration_at_once() {
    let (_path_dir, path) = showcase_file("durations");
    let mut harness = editor_on(&path, &[]);
    click_cell(&mut harness, 0, Modifiers::NONE);
    click_cell(&mut harness, 1, Modifiers::COMMAND);
    click_cell(&mut harness, 3, Modifiers::COMMAND);
    harness
        .get_by_role_and_label(Role::SpinButton, "Duration of 3 selected frames")
        .set_value_accesskit(7.0);
    harness.run_steps(2);
    harness.get_by_label("Set duration").click();
    harness.run_steps(2);
    use FrameDuration::Ticks;
    assert_eq!(
        durations_of(&harness, "punch"),
        [Ticks(7), Ticks(7), Ticks(0), Ticks(7), Ticks(8)]
    );
    assert_eq!(undo_steps(&harness), 1, "one undo step");
    undo(&mut harness);
    assert_eq!(
        durations_of(&harness, "punch"),
        [Ticks(4), Ticks(3), Ticks(0), Ticks(6), Ticks(8)]
    );
    assert_eq!(selected(&harness), [0, 1, 3], "the selection survives undo");
}

#[test]
fn the_loop_marker_is_dragged_onto_another_cell() {
    let (_path_dir, path) = showcase_file("loop");
    let mut harness = editor_on(&path, &[]);
    let loop_point = |harness: &Harness<'_, SpratApp>| {
        document(harness)
            .sequence_by_name("punch")
            .unwrap()
            .loop_point
    };
    // The punch plays once; the context menu of a cell sets a loop point there.
    harness.get_by_label("frame 1").click_secondary();
    harness.run_steps(2);
    harness.get_by_label("Loop from this frame").click();
    harness.run_steps(2);
    assert_eq!(loop_point(&harness), Some(1));

    let from = harness.get_by_label("loop point").rect().center();
    let target = cell(&harness, 3);
    drag(&mut harness, from, pos2(target.center().x, from.y));
    assert_eq!(loop_point(&harness), Some(3));
    undo(&mut harness);
    assert_eq!(loop_point(&harness), Some(1));
}

#[test]
fn dragging_a_cell_edge_sets_the_duration_in_the_frames_own_unit() {
    let (_path_dir, path) = showcase_file("edge");
    let mut harness = editor_on(&path, &[]);
    // Fixed-width cells: 8 points per tick.
    let edge = harness.get_by_label("end of frame 0").rect().center();
    drag(&mut harness, edge, edge + vec2(24.0, 0.0));
    assert_eq!(durations_of(&harness, "punch")[0], FrameDuration::Ticks(7));
    assert_eq!(undo_steps(&harness), 1, "the whole drag is one undo step");
    // The status bar tells where the drag ended, not where it started.
    let said = gui_support::status(&harness);
    assert!(said.starts_with("Set duration to 7"), "{said}");
    undo(&mut harness);
    assert_eq!(durations_of(&harness, "punch")[0], FrameDuration::Ticks(4));

    // Esc during the drag puts the duration back.
    harness.hover_at(edge);
    harness.run_steps(1);
    harness.drag_at(edge);
    harness.run_steps(1);
    for step in 1..=4 {
        harness.hover_at(edge + vec2(4.0 * step as f32, 0.0));
        harness.run_steps(1);
    }
    assert_eq!(durations_of(&harness, "punch")[0], FrameDuration::Ticks(6));
    harness.key_press(Key::Escape);
    harness.run_steps(1);
    harness.drop_at(edge + vec2(40.0, 0.0));
    harness.run_steps(2);
    assert_eq!(durations_of(&harness, "punch")[0], FrameDuration::Ticks(4));

    // Cells as wide as their duration: the edge follows the time, here in milliseconds.
    harness.state_mut().settings.view.proportional_timeline = true;
    click_row(&mut harness, "idle");
    let edge = harness.get_by_label("end of frame 1").rect().center();
    // 0.6 points per millisecond: 60 points are 100 ms.
    drag(&mut harness, edge, edge + vec2(60.0, 0.0));
    assert_eq!(
        durations_of(&harness, "idle"),
        [
            FrameDuration::Millis(400),
            FrameDuration::Millis(220),
            FrameDuration::Millis(120)
        ]
    );
}

#[test]
fn delete_takes_canvas_elements_then_frames_then_the_tree_item() {
    let (_path_dir, path) = showcase_file("delete");
    let mut harness = editor_on(&path, &[]);
    let opened = document(&harness);
    click_cell(&mut harness, 0, Modifiers::NONE);
    // The canvas selects an element of the frame on show (as a click on it does).
    let first = frames_of(&harness, "punch")[0];
    let hand = opened
        .frame(first)
        .unwrap()
        .elements
        .iter()
        .find(|e| e.name == "hand")
        .unwrap()
        .id;
    harness
        .state_mut()
        .active_document_mut()
        .unwrap()
        .select_element(hand);
    harness.run_steps(1);

    harness.key_press(Key::Delete);
    harness.run_steps(2);
    let doc = document(&harness);
    assert_eq!(
        frames_of(&harness, "punch").len(),
        5,
        "only the element went"
    );
    assert!(
        doc.frame(first)
            .unwrap()
            .elements
            .iter()
            .all(|e| e.id != hand)
    );

    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert_eq!(
        frames_of(&harness, "punch").len(),
        4,
        "then the selected frame"
    );

    click_row(&mut harness, "punch");
    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert!(
        document(&harness).sequence_by_name("punch").is_none(),
        "then the tree item"
    );

    undo(&mut harness);
    undo(&mut harness);
    undo(&mut harness);
    assert_eq!(document(&harness), opened);

    // Elements the canvas keeps in the session's selection count too: a box goes through the
    // box command.
    click_cell(&mut harness, 0, Modifiers::NONE);
    let hurt = opened
        .frame(first)
        .unwrap()
        .elements
        .iter()
        .find(|e| matches!(e.kind, ElementKind::Box(_)))
        .unwrap()
        .id;
    let doc = harness.state_mut().active_document_mut().unwrap();
    let selection = doc.session.selection().clone().with_elements(vec![hurt]);
    doc.session.set_selection(selection);
    harness.run_steps(1);
    harness.key_press(Key::Delete);
    harness.run_steps(2);
    let doc = document(&harness);
    assert_eq!(frames_of(&harness, "punch").len(), 5);
    assert!(
        doc.frame(first)
            .unwrap()
            .elements
            .iter()
            .all(|e| e.id != hurt)
    );
}

#[test]
fn insert_duplicate_and_cut_frames_from_the_keyboard() {
    let (_path_dir, path) = showcase_file("keys");
    let mut harness = editor_on(&path, &[]);
    let original = frames_of(&harness, "punch");

    // Insert: a blank frame after the selected one, as long as it.
    click_cell(&mut harness, 1, Modifiers::NONE);
    harness.key_press(Key::Insert);
    harness.run_steps(2);
    let frames = frames_of(&harness, "punch");
    assert_eq!(frames.len(), 6);
    let doc = document(&harness);
    let blank = doc.frame(frames[2]).unwrap();
    assert_eq!(blank.duration, FrameDuration::Ticks(3));
    assert!(blank.elements.is_empty());
    assert_eq!(selected(&harness), [2]);
    assert_eq!(shown_frame(&harness), 2, "the canvas shows the new frame");
    undo(&mut harness);
    assert_eq!(frames_of(&harness, "punch"), original);

    // Ctrl+D with cells selected duplicates the cells, not the sequence.
    click_cell(&mut harness, 3, Modifiers::NONE);
    click_cell(&mut harness, 4, Modifiers::SHIFT);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::D);
    harness.run_steps(2);
    assert!(document(&harness).sequence_by_name("punch copy").is_none());
    assert_eq!(
        durations_of(&harness, "punch"),
        [4, 3, 0, 6, 8, 6, 8].map(FrameDuration::Ticks)
    );
    assert_eq!(selected(&harness), [5, 6]);
    undo(&mut harness);

    // Ctrl+X takes the frames out; Ctrl+V puts them back elsewhere.
    click_cell(&mut harness, 0, Modifiers::NONE);
    click_cell(&mut harness, 1, Modifiers::SHIFT);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::X);
    harness.run_steps(2);
    assert_eq!(
        durations_of(&harness, "punch"),
        [0, 6, 8].map(FrameDuration::Ticks)
    );
    click_cell(&mut harness, 2, Modifiers::NONE);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::V);
    harness.run_steps(2);
    assert_eq!(
        durations_of(&harness, "punch"),
        [0, 6, 8, 4, 3].map(FrameDuration::Ticks)
    );
    undo(&mut harness);
    undo(&mut harness);
    assert_eq!(frames_of(&harness, "punch"), original);
}

#[test]
fn a_frame_dragged_to_the_end_of_the_view_scrolls_the_timeline_and_lands_beyond_it() {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(|_| {
            let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
            let document = sprat::model::fixtures::long_sequence(200);
            let doc = sprat::app::context::document::OpenDocument::new(
                document,
                None,
                &sprat::formats::sprat::SpratFormat,
                vec![],
            );
            app.show_document(doc);
            app
        });
    harness.run_steps(3);
    let sequence = harness.state().active_document().unwrap().player.sequence();
    let frames = |harness: &Harness<'_, SpratApp>| {
        document(harness).sequence(sequence).unwrap().directions[0]
            .frames
            .clone()
    };
    let original = frames(&harness);
    click_cell(&mut harness, 0, Modifiers::NONE);
    let from = cell(&harness, 0).center();
    let timeline = harness.get_by_label("timeline").rect();
    let visible = harness
        .get_all_by_role(Role::Button)
        .filter(|n| n.rect().center().y == from.y)
        .count();
    // Hold the dragged cell at the right end of the view while the cells scroll by.
    let edge = pos2(timeline.right().min(1270.0) - 40.0, from.y);
    harness.hover_at(from);
    harness.run_steps(1);
    harness.drag_at(from);
    harness.run_steps(1);
    for step in 1..=6 {
        harness.hover_at(from + (edge - from) * (step as f32 / 6.0));
        harness.run_steps(1);
    }
    let hold = pos2(1275.0, from.y);
    for _ in 0..60 {
        harness.hover_at(hold);
        harness.run_steps(1);
    }
    harness.drop_at(hold);
    harness.run_steps(2);
    let moved = frames(&harness);
    let landed = moved.iter().position(|id| *id == original[0]).unwrap();
    assert!(
        landed > visible + 5,
        "the frame landed at {landed}, with {visible} cells visible at first"
    );
    assert_eq!(undo_steps(&harness), 1);
}

#[test]
fn cells_showing_the_same_frame_say_so_and_editing_one_names_the_others() {
    use sprat::formats::{Format, WriteContext};
    // "idle" plays its frames 0 1 2 1, as a ping-pong tag does: cells 1 and 3 are one frame.
    let dir = gui_support::TempDir::new("same-frame");
    let mut set = gui_support::showcase();
    for sequence in set.sequences_mut() {
        if sequence.name == "idle" {
            let middle = sequence.directions[0].frames[1];
            sequence.directions[0].frames.push(middle);
        }
    }
    let path = dir.0.join("pingpong.sprat");
    let format = sprat::formats::sprat::SpratFormat;
    let written = format.write(&set, &WriteContext::for_path(&path)).unwrap();
    std::fs::write(&path, written.bytes).unwrap();
    let mut harness = editor_on(&path, &[]);
    click_row(&mut harness, "idle");

    // Cell 3 shown: the inspector says it is cell 1's frame too.
    click_cell(&mut harness, 3, Modifiers::NONE);
    assert!(
        harness
            .query_by_label_contains("cell 1: edits here change it too")
            .is_some(),
        "the inspector names the other cell"
    );
    // The timeline's duration field says which other cell its value changes.
    assert!(
        harness
            .query_by_label_contains("also cell 1 (same frame)")
            .is_some()
    );
    harness
        .get_by_role_and_label(Role::SpinButton, "Duration of 1 selected frame")
        .set_value_accesskit(90.0);
    harness.run_steps(2);
    harness.get_by_label("Set duration").click();
    harness.run_steps(2);
    assert_eq!(
        durations_of(&harness, "idle"),
        [400, 90, 120, 90].map(FrameDuration::Millis)
    );
    assert_eq!(undo_steps(&harness), 1);

    // A cell of its own frame says nothing of the kind.
    click_cell(&mut harness, 2, Modifiers::NONE);
    assert!(
        harness
            .query_by_label_contains("edits here change it too")
            .is_none()
    );
}

#[test]
fn the_loop_markers_hint_goes_after_the_drop_and_comes_back_on_a_later_hover() {
    const HINT: &str = "Drag onto another frame to loop from there";
    let (_path_dir, path) = showcase_file("loop-hint");
    let mut harness = editor_on(&path, &[]);
    harness.get_by_label("frame 1").click_secondary();
    harness.run_steps(2);
    harness.get_by_label("Loop from this frame").click();
    harness.run_steps(2);

    let from = harness.get_by_label("loop point").rect().center();
    let target = cell(&harness, 3);
    let dropped = pos2(target.center().x, from.y);
    drag(&mut harness, from, dropped);
    // The pointer rests where the marker landed: no hint over the cells.
    harness.hover_at(dropped);
    harness.run_steps(90);
    let marker = harness.get_by_label("loop point").rect();
    assert!(
        marker.contains(dropped),
        "the marker lands under the pointer"
    );
    assert!(
        harness.query_by_label(HINT).is_none(),
        "the hint stayed after the drop"
    );

    // Away and back: the hint is for a resting pointer again.
    harness.hover_at(cell(&harness, 0).center());
    harness.run_steps(5);
    harness.hover_at(marker.center());
    harness.run_steps(90);
    assert!(harness.query_by_label(HINT).is_some());
    harness.hover_at(cell(&harness, 0).center());
    harness.run_steps(5);
    assert!(
        harness.query_by_label(HINT).is_none(),
        "the hint stays after the pointer left"
    );
}

#[test]
fn the_warnings_panel_a_check_opens_leaves_cells_rows_and_sprite_where_they_were() {
    let (_path_dir, path) = showcase_file("still");
    let mut harness = editor_on(&path, &[]);
    gui_support::wait_for_check(&mut harness);
    let diagnostics =
        |h: &Harness<'_, SpratApp>| h.state().active_document().unwrap().diagnostics().len();
    assert_eq!(diagnostics(&harness), 0, "the showcase checks clean");
    let cell_before = cell(&harness, 0);
    let row = |h: &Harness<'_, SpratApp>| {
        let node = h.get_by_role_and_label(Role::Button, "punch");
        (node.accesskit_node().id(), node.rect())
    };
    let row_before = row(&harness);
    let origin = |h: &Harness<'_, SpratApp>| {
        let canvas = &h.state().active_tab().unwrap().canvas;
        canvas.last_rect.unwrap().center() + canvas.pan
    };
    let origin_before = origin(&harness);
    // Cutting the first two frames of the punch leaves a frame with a hit box and no hurt box:
    // the background check warns, and its panel opens while the user goes on clicking.
    click_cell(&mut harness, 0, Modifiers::NONE);
    click_cell(&mut harness, 1, Modifiers::SHIFT);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::X);
    gui_support::wait_for_check(&mut harness);
    assert_eq!(diagnostics(&harness), 1);
    assert!(
        harness
            .query_by_label_contains("hit boxes but no hurt box")
            .is_some(),
        "the panel shows the warning"
    );
    let cell_after = cell(&harness, 0);
    assert_eq!(
        (cell_after.top(), cell_after.bottom()),
        (cell_before.top(), cell_before.bottom()),
        "the timeline stays put; the panel takes its room from the canvas"
    );
    assert_eq!(
        origin(&harness),
        origin_before,
        "the sprite stays put on the canvas"
    );
    // A press before the panel opened and a release after it are one click on the same row.
    assert_eq!(row(&harness), row_before, "the tree row is the same widget");
}
