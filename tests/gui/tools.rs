//! The tools over many frames driven through the real editor: the Retime window (Ctrl+T), the
//! Align frames window (Ctrl+Shift+A) with its ghost on the canvas, and Edit > Paste special.
//! Each applies as one undo step; each refusal (an empty selection, a frame with no opaque
//! pixels, 0 fps, a total too short) says why in a sentence and changes nothing.

use crate::gui_support;

use gui_support::{click_row, open_next, undo, undo_steps};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sprat::app::SpratApp;
use sprat::model::{AnimationSet, BoxClass, ElementKind, FrameDuration, Point};
use sprat::tools::anchor::{Anchor, find_anchor};
use std::path::{Path, PathBuf};

/// The showcase set as a Sprat project in a fresh folder.
fn showcase_file(name: &str) -> (gui_support::TempDir, PathBuf) {
    gui_support::showcase_file("gui-tools", name)
}

/// The editor on `path` showing `sequence`; `later` answers the next file dialogs.
fn editor_on(path: &Path, later: &[PathBuf], sequence: &str) -> Harness<'static, SpratApp> {
    let mut harness = gui_support::editor_opening(path, later, egui::vec2(1400.0, 900.0));
    click_row(&mut harness, sequence);
    harness
}

fn document(harness: &Harness<'_, SpratApp>) -> AnimationSet {
    harness
        .state()
        .active_document()
        .unwrap()
        .document()
        .clone()
}

fn durations_of(harness: &Harness<'_, SpratApp>, sequence: &str) -> Vec<FrameDuration> {
    let doc = document(harness);
    doc.sequence_by_name(sequence).unwrap().directions[0]
        .frames
        .iter()
        .map(|id| doc.frame(*id).unwrap().duration)
        .collect()
}

fn click_cell(harness: &mut Harness<'_, SpratApp>, index: usize, modifiers: Modifiers) {
    harness
        .get_by_label(&format!("frame {index}"))
        .click_modifiers(modifiers);
    harness.run_steps(2);
}

/// Clicks the widget labelled `label` (a radio button, a button).
fn click(harness: &mut Harness<'_, SpratApp>, label: &str) {
    harness.get_by_label(label).click();
    harness.run_steps(2);
}

/// Replaces the text of the field labelled `label` with `text`, as typed.
fn retype(harness: &mut Harness<'_, SpratApp>, label: &str, text: &str) {
    harness
        .get_by_role_and_label(Role::TextInput, label)
        .focus();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness
        .get_by_role_and_label(Role::TextInput, label)
        .type_text(text);
    harness.run_steps(2);
}

fn apply_is_enabled(harness: &Harness<'_, SpratApp>) -> bool {
    !harness
        .get_by_role_and_label(Role::Button, "Apply")
        .accesskit_node()
        .is_disabled()
}

/// Asserts the window says `words` in red, Apply is greyed out, and clicking it changes
/// nothing.
fn refused(harness: &mut Harness<'_, SpratApp>, words: &str) {
    assert!(
        harness.query_by_label_contains(words).is_some(),
        "the window says \"{words}\""
    );
    assert!(!apply_is_enabled(harness), "Apply is greyed out ({words})");
    let before = document(harness);
    let steps = undo_steps(harness);
    harness.get_by_role_and_label(Role::Button, "Apply").click();
    harness.run_steps(2);
    assert_eq!(document(harness), before, "nothing changed ({words})");
    assert_eq!(undo_steps(harness), steps);
}

/// Opens a menu of the menu bar and clicks `path` in it, through submenus.
fn menu(harness: &mut Harness<'_, SpratApp>, path: &[&str]) {
    harness.get_by_label(path[0]).click();
    harness.run_steps(2);
    for (i, label) in path[1..].iter().enumerate() {
        // Menu items are labelled with their shortcut too.
        let node = harness.get_by_label_contains(label);
        if i + 2 < path.len() {
            node.hover();
        } else {
            node.click();
        }
        harness.run_steps(2);
    }
    harness.run_steps(2);
}

#[test]
fn retime_scales_a_sequence_by_a_factor_showing_the_rounding_first() {
    let (_dir, path) = showcase_file("retime-scale");
    let mut harness = editor_on(&path, &[], "punch");
    assert_eq!(
        durations_of(&harness, "punch"),
        [4, 3, 0, 6, 8].map(FrameDuration::Ticks)
    );
    menu(&mut harness, &["Edit", "Retime…"]);
    click(&mut harness, "This sequence (punch)");
    click(&mut harness, "Scale by a factor");
    retype(&mut harness, "Factor", "1.5");
    // 6, 4.5, 9, 12 ticks: the half goes where the running total rounds, nothing drifts.
    assert!(
        harness
            .query_by_label_contains(
                "Largest rounding error: 0.5 ticks (8.333 ms), frame 1 of \"punch\""
            )
            .is_some()
    );
    assert!(
        harness
            .query_by_label_contains("Total: 350 ms (21 ticks), then 533.3 ms (32 ticks)")
            .is_some()
    );
    assert_eq!(
        durations_of(&harness, "punch"),
        [4, 3, 0, 6, 8].map(FrameDuration::Ticks),
        "nothing changes before Apply"
    );
    let steps = undo_steps(&harness);
    click(&mut harness, "Apply");
    assert_eq!(
        durations_of(&harness, "punch"),
        [6, 5, 0, 9, 12].map(FrameDuration::Ticks),
        "the zero-length frame keeps its length"
    );
    assert_eq!(undo_steps(&harness), steps + 1, "one undo step");
    assert_eq!(
        gui_support::status(&harness),
        "Retimed 4 frames of \"punch\" (×1.5) from 350 ms to 533.3 ms"
    );
    assert!(
        harness.query_by_label("Factor").is_none(),
        "the window closes"
    );
    undo(&mut harness);
    assert_eq!(
        durations_of(&harness, "punch"),
        [4, 3, 0, 6, 8].map(FrameDuration::Ticks)
    );

    // Fitted to 30 ticks, typed in ticks (the frames count in them): 21 ticks shared out
    // again in proportion, the total exact.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::T);
    harness.run_steps(2);
    click(&mut harness, "Fit to a total time");
    click(&mut harness, "ticks");
    retype(&mut harness, "Total time", "30");
    click(&mut harness, "Apply");
    assert_eq!(
        durations_of(&harness, "punch"),
        [6, 4, 0, 9, 11].map(FrameDuration::Ticks)
    );
    assert_eq!(
        gui_support::status(&harness),
        "Retimed 4 frames of \"punch\" from 350 ms to 500 ms",
        "the old total and the new"
    );
}

#[test]
fn retime_sets_a_rate_on_the_selected_frames_then_on_every_sequence() {
    let (_dir, path) = showcase_file("retime-rate");
    let mut harness = editor_on(&path, &[], "punch");
    click_cell(&mut harness, 0, Modifiers::NONE);
    click_cell(&mut harness, 1, Modifiers::SHIFT);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::T);
    harness.run_steps(2);
    click(&mut harness, "Selected frames (2)");
    click(&mut harness, "Set a rate");
    // 12 fps at 60 ticks a second: 5 ticks a frame, on the two selected frames only.
    retype(&mut harness, "Rate", "12");
    click(&mut harness, "frames per second");
    click(&mut harness, "Apply");
    assert_eq!(
        durations_of(&harness, "punch"),
        [5, 5, 0, 6, 8].map(FrameDuration::Ticks)
    );

    // In the unit the frames count in: 7 ticks a frame.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::T);
    harness.run_steps(2);
    click(&mut harness, "This sequence (punch)");
    click(&mut harness, "Set a rate");
    click(&mut harness, "ticks per frame");
    retype(&mut harness, "Rate", "7");
    click(&mut harness, "Apply");
    assert_eq!(
        durations_of(&harness, "punch"),
        [7, 7, 0, 7, 7].map(FrameDuration::Ticks)
    );

    // Every sequence at 10 fps, each in its own unit: the frame shown forever stays so.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::T);
    harness.run_steps(2);
    click(&mut harness, "Every sequence");
    click(&mut harness, "Set a rate");
    assert!(
        harness.query_by_label("ticks per frame").is_none(),
        "the sequences count in ticks, holds and milliseconds: a rate in frames per second only"
    );
    retype(&mut harness, "Rate", "10");
    click(&mut harness, "Apply");
    assert_eq!(
        durations_of(&harness, "punch"),
        [6, 6, 0, 6, 6].map(FrameDuration::Ticks)
    );
    assert_eq!(
        durations_of(&harness, "guard"),
        [FrameDuration::Ticks(6), FrameDuration::Forever]
    );
    assert!(
        gui_support::status(&harness).starts_with("Retimed "),
        "{}",
        gui_support::status(&harness)
    );
}

#[test]
fn retime_refuses_zero_negative_a_total_too_short_and_an_empty_selection() {
    let (_dir, path) = showcase_file("retime-refusals");
    let mut harness = editor_on(&path, &[], "punch");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::T);
    harness.run_steps(2);
    click(&mut harness, "This sequence (punch)");
    click(&mut harness, "Scale by a factor");
    retype(&mut harness, "Factor", "0");
    refused(
        &mut harness,
        "Factor: \"0\" is zero; it must be more than 0",
    );
    retype(&mut harness, "Factor", "-2");
    refused(&mut harness, "is negative");
    retype(&mut harness, "Factor", "fast");
    refused(&mut harness, "is not a number");

    click(&mut harness, "Set a rate");
    click(&mut harness, "frames per second");
    retype(&mut harness, "Rate", "0");
    refused(&mut harness, "Frames per second: \"0\" is zero");
    // 1000 fps is under one tick a frame.
    retype(&mut harness, "Rate", "1000");
    refused(&mut harness, "less than one");

    click(&mut harness, "Fit to a total time");
    retype(&mut harness, "Total time", "1");
    refused(&mut harness, "1 ms is too short for 4 frames of \"punch\"");

    // No cell selected: the selection's scope has nothing to retime.
    let selected = harness.state().active_document().unwrap().selected_frames();
    for cell in selected {
        click_cell(&mut harness, cell, Modifiers::COMMAND);
    }
    assert!(
        harness
            .state()
            .active_document()
            .unwrap()
            .selected_frames()
            .is_empty()
    );
    retype(&mut harness, "Total time", "500");
    click(&mut harness, "Selected frames (0)");
    refused(&mut harness, "No frame is selected");
}

/// The demo project copied into a fresh folder, its walk's first frame drawn 5 pixels right
/// and 3 up of where the others stand.
fn demo_copy_with_a_shifted_frame(name: &str) -> (gui_support::TempDir, PathBuf) {
    let dir = gui_support::TempDir::new(&format!("tools-{name}"));
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    std::fs::copy(demo.join("demo.png"), dir.0.join("demo.png")).unwrap();
    let text = std::fs::read_to_string(demo.join("demo.sprat")).unwrap();
    let shifted = text.replace(
        "source: Slice(28), position: (x: 0, y: 0)",
        "source: Slice(28), position: (x: 5, y: -3)",
    );
    assert_ne!(shifted, text, "the walk's first frame is Slice(28)");
    let path = dir.0.join("demo.sprat");
    std::fs::write(&path, shifted).unwrap();
    (dir, path)
}

/// Where each frame of `sequence`'s first direction has `anchor`.
fn anchors(harness: &Harness<'_, SpratApp>, sequence: &str, anchor: &Anchor) -> Vec<(f64, f64)> {
    let doc = document(harness);
    let pixels = harness.state().pixels.clone();
    doc.sequence_by_name(sequence).unwrap().directions[0]
        .frames
        .iter()
        .map(|id| find_anchor(&doc, doc.frame(*id).unwrap(), anchor, pixels.as_ref()).unwrap())
        .collect()
}

#[test]
fn align_puts_the_feet_on_the_origin_after_a_ghost_shows_where_frames_go() {
    let (_dir, path) = demo_copy_with_a_shifted_frame("align-feet");
    let mut harness = editor_on(&path, &[], "walk");
    let before = anchors(&harness, "walk", &Anchor::Feet);
    assert!(
        before.iter().any(|(x, y)| x.abs() > 0.5 || y.abs() > 0.5),
        "{before:?}"
    );
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::A);
    harness.run_steps(3);
    click(&mut harness, "This sequence (walk)");
    click(&mut harness, "Feet");
    // The canvas shows where the frames go before anything is applied.
    let ghost = harness
        .state()
        .active_tab()
        .unwrap()
        .canvas
        .ghost
        .clone()
        .expect("a ghost on the canvas");
    assert_eq!(ghost.moves.len(), 6, "every frame of the walk");
    assert_eq!(
        anchors(&harness, "walk", &Anchor::Feet),
        before,
        "nothing moves before Apply"
    );
    assert!(harness.query_by_label_contains("6 frames:").is_some());
    let steps = undo_steps(&harness);
    click(&mut harness, "Apply");
    assert_eq!(undo_steps(&harness), steps + 1, "one undo step");
    for (x, y) in anchors(&harness, "walk", &Anchor::Feet) {
        assert!(x.abs() <= 0.5 && y.abs() <= 0.5, "feet at ({x}, {y})");
    }
    assert!(
        gui_support::status(&harness).starts_with("Aligned 6 frames on the feet:"),
        "{}",
        gui_support::status(&harness)
    );
    assert!(
        harness.state().active_tab().unwrap().canvas.ghost.is_none(),
        "the ghost goes with the window"
    );
    undo(&mut harness);
    assert_eq!(anchors(&harness, "walk", &Anchor::Feet), before);
}

fn points_named(doc: &AnimationSet, sequence: &str, name: &str) -> Vec<Point> {
    doc.sequence_by_name(sequence).unwrap().directions[0]
        .frames
        .iter()
        .flat_map(|id| &doc.frame(*id).unwrap().elements)
        .filter(|e| e.name == name)
        .filter_map(|e| e.as_point().map(|p| p.position))
        .collect()
}

#[test]
fn align_on_a_named_point_and_refused_on_frames_with_no_opaque_pixels() {
    let (_dir, path) = showcase_file("align-point");
    let mut harness = editor_on(&path, &[], "punch");
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::A);
    harness.run_steps(3);
    click(&mut harness, "This sequence (punch)");
    // The showcase draws no pictures: no frame has feet or a centre of mass.
    click(&mut harness, "Feet");
    refused(&mut harness, "No frame has the feet to align on");
    assert!(
        harness
            .query_by_label_contains("it has no opaque pixels")
            .is_some()
    );
    click(&mut harness, "Centre of mass");
    refused(&mut harness, "No frame has the centre to align on");

    // No cell selected: the selection's scope has nothing to align.
    let selected = harness.state().active_document().unwrap().selected_frames();
    for cell in selected {
        click_cell(&mut harness, cell, Modifiers::COMMAND);
    }
    click(&mut harness, "Selected frames (0)");
    refused(&mut harness, "No frame is selected");
    click(&mut harness, "This sequence (punch)");

    // Its punch has a "hand" point on every frame: the window lists it.
    click(&mut harness, "Point \"hand\"");
    assert!(apply_is_enabled(&harness));
    let hit_before = {
        let doc = document(&harness);
        let id = doc.sequence_by_name("punch").unwrap().directions[0].frames[3];
        let frame = doc.frame(id).unwrap();
        frame
            .boxes()
            .find(|(_, b)| b.class == BoxClass::Hit)
            .map(|(_, b)| b.shape.clone())
            .unwrap()
    };
    click(&mut harness, "Apply");
    let doc = document(&harness);
    assert_eq!(
        points_named(&doc, "punch", "hand"),
        vec![Point::ZERO; 5],
        "every hand on the origin"
    );
    // Frame 3's hand was at (26, -44): its hit box moved with it.
    let id = doc.sequence_by_name("punch").unwrap().directions[0].frames[3];
    let moved = doc
        .frame(id)
        .unwrap()
        .boxes()
        .find(|(_, b)| b.class == BoxClass::Hit)
        .map(|(_, b)| b.shape.clone())
        .unwrap();
    assert_eq!(moved, hit_before.translated(Point::from_ints(-26, 44)));
}

#[test]
fn align_on_a_solarus_sprite_says_why_and_moves_whole_directions() {
    // The demo as a Solarus sprite (one origin per direction), its first walk frame shifted.
    let (dir, sprat_path) = demo_copy_with_a_shifted_frame("align-solarus");
    let sprites = dir.0.join("sprites");
    std::fs::create_dir_all(&sprites).unwrap();
    std::fs::copy(dir.0.join("demo.png"), sprites.join("demo.png")).unwrap();
    // Solarus cannot hold that one frame's own origin; only the others are compared below.
    let converted = std::process::Command::new(env!("CARGO_BIN_EXE_sprat"))
        .arg("convert")
        .arg(&sprat_path)
        .arg(sprites.join("demo.dat"))
        .args(["--to", "solarus-lua", "--allow-loss"])
        .output()
        .unwrap();
    assert!(
        converted.status.success(),
        "{}",
        String::from_utf8_lossy(&converted.stderr)
    );
    let mut harness = editor_on(&sprites.join("demo.dat"), &[], "walk");
    let before = anchors(&harness, "walk", &Anchor::Feet);
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::A);
    harness.run_steps(3);
    click(&mut harness, "This sequence (walk)");
    click(&mut harness, "Feet");
    assert!(
        harness
            .query_by_label_contains("hold one origin for all the frames of a direction")
            .is_some()
    );
    let ghost = harness
        .state()
        .active_tab()
        .unwrap()
        .canvas
        .ghost
        .clone()
        .expect("a ghost on the canvas");
    let by = ghost.moves[0].1;
    assert!(
        ghost.moves.iter().all(|(_, m)| *m == by),
        "one move for the whole direction"
    );
    click(&mut harness, "Apply");
    let after = anchors(&harness, "walk", &Anchor::Feet);
    for ((x0, y0), (x1, y1)) in before.iter().zip(&after) {
        assert_eq!(
            (x1 - x0, y1 - y0),
            (by.x.to_f64(), by.y.to_f64()),
            "every frame moved by the same amount"
        );
    }
    assert!(
        gui_support::status(&harness).starts_with("Aligned 6 frames on the feet"),
        "{}",
        gui_support::status(&harness)
    );
}

#[test]
fn paste_special_pastes_timing_boxes_and_points_into_another_tab() {
    // Copied from the showcase (ticks, boxes with AIR defaults, hands), pasted onto the demo
    // (milliseconds, weapon points) in another tab.
    let dir = gui_support::TempDir::new("tools-paste-special");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    for file in ["demo.sprat", "demo.png"] {
        std::fs::copy(demo.join(file), dir.0.join(file)).unwrap();
    }
    let (_showcase_dir, showcase) = showcase_file("paste-special");
    let mut harness = editor_on(&showcase, &[dir.0.join("demo.sprat")], "punch");
    // The punch's frames 3 and 4: 6 and 8 ticks, a hit box on the first, a hand on each.
    click_cell(&mut harness, 3, Modifiers::NONE);
    click_cell(&mut harness, 4, Modifiers::SHIFT);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::C);
    harness.run_steps(2);

    open_next(&mut harness);
    click_row(&mut harness, "walk");
    click_cell(&mut harness, 0, Modifiers::NONE);
    click_cell(&mut harness, 1, Modifiers::SHIFT);
    let walk = |h: &Harness<'_, SpratApp>| {
        let doc = document(h);
        let ids = doc.sequence_by_name("walk").unwrap().directions[0]
            .frames
            .clone();
        (doc, ids)
    };
    let (before, ids) = walk(&harness);
    let steps = undo_steps(&harness);

    // 6 and 8 ticks are 100 and 133.3 ms: 100 and 133, rounded where the total is exact.
    menu(
        &mut harness,
        &["Edit", "Paste special", "Paste timing only"],
    );
    assert_eq!(
        durations_of(&harness, "walk")[..3],
        [
            FrameDuration::Millis(100),
            FrameDuration::Millis(133),
            FrameDuration::Millis(100)
        ]
    );
    assert_eq!(undo_steps(&harness), steps + 1, "one undo step");
    assert!(
        gui_support::status(&harness).starts_with("Pasted the timing of 2 frames from \"punch\""),
        "{}",
        gui_support::status(&harness)
    );

    // The points: the demo's weapon points give way to the punch's hands.
    menu(
        &mut harness,
        &["Edit", "Paste special", "Paste points only"],
    );
    let (doc, _) = walk(&harness);
    for (position, x) in [(0, 26), (1, 32)] {
        let frame = doc.frame(ids[position]).unwrap();
        let points: Vec<(String, Point)> = frame
            .elements
            .iter()
            .filter_map(|e| e.as_point().map(|p| (e.name.to_string(), p.position)))
            .collect();
        assert_eq!(points, vec![("hand".to_string(), Point::from_ints(x, -44))]);
    }
    let pictures = |doc: &AnimationSet, i: usize| {
        doc.frame(ids[i])
            .unwrap()
            .elements
            .iter()
            .filter(|e| matches!(e.kind, ElementKind::Graphic(_)))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(
        pictures(&doc, 0),
        pictures(&before, 0),
        "pictures untouched"
    );

    // The boxes: frame 3 showed the inherited hurt box and its own hit box.
    menu(&mut harness, &["Edit", "Paste special", "Paste boxes only"]);
    let (doc, _) = walk(&harness);
    let classes = |i: usize| {
        let mut classes: Vec<BoxClass> = doc
            .frame(ids[i])
            .unwrap()
            .boxes()
            .map(|(_, b)| b.class.clone())
            .collect();
        classes.sort_by_key(|c| c.label().to_string());
        classes
    };
    assert_eq!(classes(0), [BoxClass::Hit, BoxClass::Hurt]);
    assert_eq!(classes(1), [BoxClass::Hurt]);
    assert_eq!(undo_steps(&harness), steps + 3, "one undo step each");
    for _ in 0..3 {
        undo(&mut harness);
    }
    assert_eq!(walk(&harness).0, before);
}

#[test]
fn paste_special_refuses_an_empty_clipboard_and_an_empty_selection() {
    let (_dir, path) = showcase_file("paste-special-refusals");
    let mut harness = editor_on(&path, &[], "punch");
    click_cell(&mut harness, 0, Modifiers::NONE);
    let before = document(&harness);
    menu(
        &mut harness,
        &["Edit", "Paste special", "Paste timing only"],
    );
    assert_eq!(
        gui_support::status(&harness),
        "Not changed: the frame clipboard is empty; copy frames first"
    );
    assert_eq!(document(&harness), before);

    harness.key_press_modifiers(Modifiers::COMMAND, Key::C);
    harness.run_steps(2);
    click_cell(&mut harness, 0, Modifiers::COMMAND);
    assert!(
        harness
            .state()
            .active_document()
            .unwrap()
            .selected_frames()
            .is_empty()
    );
    menu(&mut harness, &["Edit", "Paste special", "Paste boxes only"]);
    assert_eq!(
        gui_support::status(&harness),
        "Not changed: select the frames to paste the boxes onto in the timeline first"
    );
    assert_eq!(document(&harness), before);

    // Two frames copied onto three selected: which goes where is not clear.
    click_cell(&mut harness, 0, Modifiers::NONE);
    click_cell(&mut harness, 1, Modifiers::SHIFT);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::C);
    harness.run_steps(2);
    click_cell(&mut harness, 2, Modifiers::SHIFT);
    menu(
        &mut harness,
        &["Edit", "Paste special", "Paste timing only"],
    );
    assert!(
        gui_support::status(&harness).contains("2 frames were copied and 3 frames selected"),
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(document(&harness), before);
}

#[test]
fn retime_on_solarus_gives_each_sequence_one_delay_and_refuses_some_of_its_frames() {
    // zsdx's hero tunic: one frame_delay per animation (100 ms for "walking").
    let source = crate::common::corpus().join("solarus/lua-1.x/zsdx/sprites/hero/tunic1.dat");
    let root = gui_support::TempDir::new("tools-retime-solarus");
    let dir = root.0.join("sprites/hero");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tunic1.dat");
    crate::common::copy_writable(&source, &path);
    let mut harness = editor_on(&path, &[], "walking");
    let delays = |h: &Harness<'_, SpratApp>| {
        let doc = document(h);
        let walking = doc.sequence_by_name("walking").unwrap();
        walking
            .directions
            .iter()
            .flat_map(|d| &d.frames)
            .map(|id| doc.frame(*id).unwrap().duration)
            .collect::<Vec<_>>()
    };
    let before = delays(&harness);
    assert!(before.iter().all(|d| *d == FrameDuration::Millis(100)));

    click_cell(&mut harness, 0, Modifiers::NONE);
    click_cell(&mut harness, 1, Modifiers::SHIFT);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::T);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("hold one duration per sequence")
            .is_some()
    );
    click(&mut harness, "Selected frames (2)");
    click(&mut harness, "Scale by a factor");
    retype(&mut harness, "Factor", "1.5");
    refused(&mut harness, "retime the whole sequence");

    click(&mut harness, "This sequence (walking)");
    click(&mut harness, "Apply");
    let after = delays(&harness);
    assert_eq!(after.len(), before.len());
    assert!(
        after.iter().all(|d| *d == FrameDuration::Millis(150)),
        "{after:?}"
    );

    // Paste special cannot give Solarus frames boxes, points or durations of their own.
    harness.get_by_label("Edit").click();
    harness.run_steps(2);
    harness.get_by_label("Paste special").hover();
    harness.run_steps(2);
    for item in ["Paste timing only", "Paste boxes only", "Paste points only"] {
        assert!(
            harness
                .get_by_label_contains(item)
                .accesskit_node()
                .is_disabled(),
            "{item} is greyed out"
        );
    }
}

#[test]
fn paste_special_from_a_mugen_character_onto_the_demo() {
    // KFM's light punch (AIR, ticks, Clsn boxes) pasted onto the demo (milliseconds).
    let dir = gui_support::TempDir::new("tools-paste-mugen");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    for file in ["demo.sprat", "demo.png"] {
        std::fs::copy(demo.join(file), dir.0.join(file)).unwrap();
    }
    let kfm = crate::common::corpus().join("mugen/kfm/kfm.def");
    let mut harness =
        gui_support::editor_opening(&kfm, &[dir.0.join("demo.sprat")], egui::vec2(1400.0, 900.0));
    harness.key_press_modifiers(Modifiers::COMMAND, Key::F);
    harness.run_steps(2);
    harness
        .get_all_by_role(Role::TextInput)
        .find(|n| n.is_focused())
        .expect("the focused filter")
        .type_text("200");
    harness.run_steps(2);
    harness.get_by_label("200 · Stand Light Punch").click();
    harness.run_steps(2);
    // Its frames 1 and 2: 1 and 4 ticks; the second has a Clsn1 hit box and three Clsn2.
    click_cell(&mut harness, 1, Modifiers::NONE);
    click_cell(&mut harness, 2, Modifiers::SHIFT);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::C);
    harness.run_steps(2);

    open_next(&mut harness);
    click_row(&mut harness, "walk");
    click_cell(&mut harness, 0, Modifiers::NONE);
    click_cell(&mut harness, 1, Modifiers::SHIFT);
    // 16.67 and 66.67 ms: 17 and 66, the two together exactly 83 ms as 5 ticks are.
    menu(
        &mut harness,
        &["Edit", "Paste special", "Paste timing only"],
    );
    assert_eq!(
        durations_of(&harness, "walk")[..2],
        [FrameDuration::Millis(17), FrameDuration::Millis(66)]
    );
    menu(&mut harness, &["Edit", "Paste special", "Paste boxes only"]);
    let doc = document(&harness);
    let ids = doc.sequence_by_name("walk").unwrap().directions[0]
        .frames
        .clone();
    let count = |i: usize, class: BoxClass| {
        doc.frame(ids[i])
            .unwrap()
            .boxes()
            .filter(|(_, b)| b.class == class)
            .count()
    };
    assert_eq!((count(0, BoxClass::Hit), count(0, BoxClass::Hurt)), (0, 2));
    assert_eq!((count(1, BoxClass::Hit), count(1, BoxClass::Hurt)), (1, 3));
    // KFM has no attachment points: pasting them leaves the frames none.
    menu(
        &mut harness,
        &["Edit", "Paste special", "Paste points only"],
    );
    let doc = document(&harness);
    for id in &ids[..2] {
        assert!(
            doc.frame(*id)
                .unwrap()
                .elements
                .iter()
                .all(|e| e.as_point().is_none())
        );
    }
    assert!(
        gui_support::status(&harness).starts_with("Pasted the points of 2 frames from \"200\""),
        "{}",
        gui_support::status(&harness)
    );
}

#[test]
fn align_on_a_layered_aseprite_character_is_refused_before_anything_moves() {
    // Layers, linked cels and slices: the Aseprite writer keeps the cels where they were, so
    // aligned slices would part from the pictures at the next save. The window refuses, as
    // `sprat align` does, instead of applying and listing the pictures as lost at Ctrl+S.
    let dir = tempfile::tempdir().unwrap();
    let path = crate::common::layered_aseprite_with_slices(dir.path());
    let mut harness = editor_on(&path, &[], "character");
    let before = document(&harness);
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::A);
    harness.run_steps(3);
    click(&mut harness, "This sequence (character)");
    click(&mut harness, "Feet");
    refused(
        &mut harness,
        "Aseprite sprite files cannot hold these frames aligned: saving would lose frame 0: changes to its pictures",
    );
    assert!(
        harness.state().active_tab().unwrap().canvas.ghost.is_none(),
        "no ghost of moves that will not be made"
    );
    assert_eq!(document(&harness), before);
    assert!(
        !harness
            .state()
            .active_document()
            .unwrap()
            .session
            .is_dirty()
    );
}
