//! The canvas tools through the real editor: boxes drawn, moved, resized and copied, points
//! dragged, nudged and named, sequences hung on points; every edit undone and redone from the
//! keyboard and saved with Ctrl+S, then read back with the format's own reader.

use crate::gui_support;

use gui_support::{
    TempDir, canvas_click as click, canvas_drag as drag, primary as button, showcase_as, undo_steps,
};

use egui::accesskit::Role;
use egui::{Key, Modifiers, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sprat::app::SpratApp;
use sprat::app::canvas::tools::Tool;
use sprat::app::canvas::view::View;
use sprat::formats::{ReadContext, registry};
use sprat::model::{
    AnimationSet, AttachmentPoint, BoxClass, BoxScope, ElementId, Frame, Fx, Point, Sequence, Shape,
};
use std::path::{Path, PathBuf};

/// The editor with `path` opened through File > Open; `later` answers later file dialogs.
fn editor_on(path: &Path, later: &[PathBuf]) -> Harness<'static, SpratApp> {
    gui_support::editor_opening(path, later, vec2(1280.0, 800.0))
}

/// Shows the sequence named `name` through the tree.
fn show_sequence(harness: &mut Harness<'_, SpratApp>, name: &str) {
    harness.get_by_role_and_label(Role::Button, name).click();
    harness.run_steps(2);
    assert_eq!(sequence(harness).name, name);
}

/// Sets the zoom to a whole factor (one screen point per `zoom` sprite pixels exactly).
fn zoom_to(harness: &mut Harness<'_, SpratApp>, zoom: f32) {
    harness.state_mut().active_tab_mut().unwrap().canvas.zoom = zoom;
    harness.run_steps(2);
}

fn document<'a>(harness: &'a Harness<'_, SpratApp>) -> &'a AnimationSet {
    harness.state().active_document().unwrap().document()
}

fn sequence<'a>(harness: &'a Harness<'_, SpratApp>) -> &'a Sequence {
    harness
        .state()
        .active_document()
        .unwrap()
        .sequence()
        .unwrap()
}

fn frame_at<'a>(harness: &'a Harness<'_, SpratApp>, index: usize) -> &'a Frame {
    let doc = document(harness);
    doc.frame(sequence(harness).directions[0].frames[index])
        .unwrap()
}

/// The attachment point called `name` on `frame`, with its element id.
fn point_named<'a>(frame: &'a Frame, name: &str) -> (ElementId, &'a AttachmentPoint) {
    frame
        .elements
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| Some((e.id, e.as_point()?)))
        .unwrap_or_else(|| panic!("no point {name}"))
}

fn selected(harness: &Harness<'_, SpratApp>) -> Option<ElementId> {
    harness.state().active_document().unwrap().single_element()
}

/// Where sprite point `(x, y)` is on screen.
fn screen(harness: &Harness<'_, SpratApp>, x: f64, y: f64) -> Pos2 {
    let canvas = &harness.state().active_tab().unwrap().canvas;
    let rect = canvas.last_rect.expect("the canvas was shown");
    View::new(rect, canvas.zoom, 1.0, canvas.pan).to_screen(x, y)
}

fn rect(x: i32, y: i32, width: i32, height: i32) -> Shape {
    Shape::Rect {
        x: Fx::from_int(x),
        y: Fx::from_int(y),
        width: Fx::from_int(width),
        height: Fx::from_int(height),
        rotation: 0.0,
    }
}

fn boxes_of(frame: &Frame, class: &BoxClass) -> Vec<Shape> {
    frame
        .boxes()
        .filter(|(_, b)| &b.class == class)
        .map(|(_, b)| b.shape.clone())
        .collect()
}

/// The lines of `new` that `old` does not have, when `new` is `old` with lines inserted.
fn inserted_lines(old: &str, new: &str) -> Vec<String> {
    let old: Vec<&str> = old.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    for line in new.lines() {
        if i < old.len() && old[i] == line {
            i += 1;
        } else {
            out.push(line.to_string());
        }
    }
    assert_eq!(i, old.len(), "every original line is still there, in order");
    out
}

/// Draws a Clsn1 box on frame 1 of KFM's standing action with the box tool, undoes and redoes
/// it, saves, and finds it in the .air where the AIR rules put it for the scope chosen.
fn draw_a_kfm_box(scope_label: &str) -> (Vec<String>, AnimationSet) {
    let dir = TempDir::new(&format!("kfm-{}", scope_label.replace(' ', "-")));
    let def = gui_support::kfm_copy(&dir.0);
    let original_air = std::fs::read_to_string(dir.0.join("kfm.air")).unwrap();
    let mut harness = editor_on(&def, &[]);
    assert_eq!(sequence(&harness).name, "0");
    harness.key_press(Key::Period);
    harness.run_steps(2);
    zoom_to(&mut harness, 2.0);

    harness.key_press(Key::R);
    harness.run_steps(2);
    harness.get_by_label(scope_label).click();
    harness.run_steps(2);
    // The drag starts inside the inherited body box: Ctrl draws a new box there rather than
    // moving that one.
    let (from, to) = (screen(&harness, 10.0, -60.0), screen(&harness, 40.0, -40.0));
    drag_with(&mut harness, from, to, Modifiers::COMMAND);
    let drawn = boxes_of(frame_at(&harness, 1), &BoxClass::Hit);
    assert_eq!(
        drawn,
        vec![rect(10, -60, 30, 20)],
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(undo_steps(&harness), 1, "the drag is one undo step");

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert!(boxes_of(frame_at(&harness, 1), &BoxClass::Hit).is_empty());
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        boxes_of(frame_at(&harness, 1), &BoxClass::Hit),
        vec![rect(10, -60, 30, 20)]
    );
    assert!(selected(&harness).is_some(), "the redone box is selected");

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    assert!(
        gui_support::status(&harness).starts_with("Saved"),
        "{}",
        gui_support::status(&harness)
    );
    let air = dir.0.join("kfm.air");
    let saved = std::fs::read_to_string(&air).unwrap();
    let (loaded, _) = registry().open(&air, &ReadContext::for_path(&air)).unwrap();
    (inserted_lines(&original_air, &saved), loaded.document)
}

fn standing_frame(document: &AnimationSet, index: usize) -> &Frame {
    let standing = document.sequence_by_name("0").unwrap();
    document
        .frame(standing.directions[0].frames[index])
        .unwrap()
}

#[test]
fn a_clsn1_box_drawn_for_this_frame_only_is_written_before_that_frame() {
    // The new box is written top corner first, as most of kfm.air's boxes are (563 of 973).
    let (inserted, document) = draw_a_kfm_box("This frame only");
    assert_eq!(
        inserted,
        vec!["Clsn1: 1", " Clsn1[0] =  10,-60, 40,-40"],
        "only the new box's lines are added"
    );
    let frame = standing_frame(&document, 1);
    assert_eq!(boxes_of(frame, &BoxClass::Hit), vec![rect(10, -60, 30, 20)]);
    assert_eq!(
        frame.declared_scope(&BoxClass::Hit),
        Some(BoxScope::ThisFrame)
    );
    assert!(boxes_of(standing_frame(&document, 2), &BoxClass::Hit).is_empty());
}

#[test]
fn a_clsn1_box_drawn_as_the_default_from_here_on_is_written_as_clsn1default() {
    let (inserted, document) = draw_a_kfm_box("From here on");
    assert_eq!(
        inserted,
        vec!["Clsn1Default: 1", " Clsn1[0] =  10,-60, 40,-40"]
    );
    let frame = standing_frame(&document, 1);
    assert_eq!(
        frame.declared_scope(&BoxClass::Hit),
        Some(BoxScope::FromHereOn)
    );
    assert_eq!(boxes_of(frame, &BoxClass::Hit), vec![rect(10, -60, 30, 20)]);
}

#[test]
fn an_isprite_point_dragged_lands_exactly_on_the_256th_pixel_saved() {
    let dir = TempDir::new("isprite-point");
    let path = showcase_as(
        &dir.0,
        &sprat::formats::isprite::IspriteFormat,
        "showcase.isprite",
    );
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "idle");
    zoom_to(&mut harness, 4.0);
    let head = |h: &Harness<'_, SpratApp>| point_named(frame_at(h, 0), "head").1.position;
    assert_eq!(head(&harness), Point::from_ints(0, -56));

    // At 400% one screen point is a quarter pixel: 41 points right, 6 up = 10.25, -1.5 px.
    // Alt held: positions keep fractions of a pixel (ISPRITE stores 1/256 px).
    let from = screen(&harness, 0.0, -56.0);
    harness.event(egui::Event::ModifiersChanged(Modifiers::ALT));
    drag(&mut harness, from, from + vec2(41.0, -6.0));
    harness.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    let moved = Point {
        x: Fx(10 * 256 + 64),
        y: Fx(-57 * 256 - 128),
    };
    assert_eq!(head(&harness), moved, "{}", gui_support::status(&harness));
    assert_eq!(undo_steps(&harness), 1, "the drag is one undo step");

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    assert!(
        gui_support::status(&harness).starts_with("Saved"),
        "{}",
        gui_support::status(&harness)
    );
    let (loaded, format) = registry()
        .open(&path, &ReadContext::for_path(&path))
        .unwrap();
    assert_eq!(format.id(), "isprite");
    let idle = loaded.document.sequence_by_name("idle").unwrap();
    let frame = loaded.document.frame(idle.directions[0].frames[0]).unwrap();
    assert_eq!(point_named(frame, "head").1.position, moved);
}

#[test]
fn arrows_nudge_the_selected_box_over_the_canvas_and_each_nudge_undoes() {
    let dir = TempDir::new("nudge");
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "nudge.sprat");
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "idle");
    zoom_to(&mut harness, 2.0);
    // Inside the hurt box, away from the head point.
    let at = screen(&harness, -6.0, -20.0);
    click(&mut harness, at);
    assert!(selected(&harness).is_some(), "the box is selected");

    harness.hover_at(screen(&harness, -6.0, -20.0));
    harness.key_press(Key::ArrowRight);
    harness.step();
    harness.key_press_modifiers(Modifiers::SHIFT, Key::ArrowDown);
    harness.run_steps(2);
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hurt),
        vec![rect(-11, -46, 24, 56)],
        "{} / {:?}",
        gui_support::status(&harness),
        harness.state().active_tab().unwrap().canvas.hover_pixel
    );
    assert_eq!(undo_steps(&harness), 2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hurt),
        vec![rect(-11, -56, 24, 56)]
    );
    assert!(
        selected(&harness).is_some(),
        "the selection survives the undo"
    );

    // Away from the canvas the arrows are not the canvas's.
    let elsewhere = Pos2::new(5.0, 400.0);
    harness.hover_at(elsewhere);
    harness.step();
    harness.event(button(elsewhere, true));
    harness.event(button(elsewhere, false));
    harness.step();
    harness.key_press(Key::ArrowLeft);
    harness.run_steps(2);
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hurt),
        vec![rect(-11, -56, 24, 56)]
    );
}

#[test]
fn a_corner_handle_resizes_the_box_in_one_undo_step() {
    let dir = TempDir::new("resize");
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "resize.sprat");
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "idle");
    zoom_to(&mut harness, 2.0);
    let at = screen(&harness, -6.0, -20.0);
    click(&mut harness, at);
    // The hurt box is (-12, -56) to (12, 0): its bottom-right handle goes to (20, 4).
    let (from, to) = (screen(&harness, 12.0, 0.0), screen(&harness, 20.0, 4.0));
    drag(&mut harness, from, to);
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hurt),
        vec![rect(-12, -56, 32, 60)],
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(undo_steps(&harness), 1);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hurt),
        vec![rect(-12, -56, 24, 56)]
    );
}

#[test]
fn boxes_are_copied_to_all_frames_of_the_sequence() {
    let dir = TempDir::new("copy");
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "copy.sprat");
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "punch");
    zoom_to(&mut harness, 2.0);
    for _ in 0..3 {
        harness.key_press(Key::Period);
        harness.step();
    }
    harness.run_steps(2);
    assert_eq!(
        harness
            .state()
            .active_document()
            .unwrap()
            .player
            .frame_index(),
        3
    );
    // The punch's hit box on frame 3 spans (10, -48) to (34, -38).
    let at = screen(&harness, 30.0, -40.0);
    click(&mut harness, at);
    harness.get_by_label("Copy boxes to all").click();
    harness.run_steps(2);
    for index in 0..5 {
        assert_eq!(
            boxes_of(frame_at(&harness, index), &BoxClass::Hit),
            vec![rect(10, -48, 24, 10)],
            "frame {index}: {}",
            gui_support::status(&harness)
        );
    }
    assert_eq!(undo_steps(&harness), 1);
}

#[test]
fn a_sequence_hung_on_a_point_plays_along_and_can_come_from_another_file() {
    let dir = TempDir::new("hang");
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "hang.sprat");
    let other = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "other.sprat");
    let mut harness = editor_on(&path, std::slice::from_ref(&other));
    show_sequence(&mut harness, "idle");
    zoom_to(&mut harness, 2.0);
    let mut point_tool_click = screen(&harness, 0.0, -56.0);
    click(&mut harness, point_tool_click);
    harness.get_by_label("Hang sequence…").click();
    harness.run_steps(2);
    harness.get_by_label("Hang punch").click();
    harness.run_steps(2);
    let hung = |h: &Harness<'_, SpratApp>| {
        h.state()
            .active_tab()
            .unwrap()
            .canvas
            .tools
            .hang
            .frame_of("head")
    };
    assert_eq!(hung(&harness), Some(0));

    // Playing: the hung punch keeps time with the main player (both start together and the
    // idle's first frame lasts 400 ms, so neither has looped yet).
    harness.get_by_label("Play").click();
    harness.step();
    harness.step();
    let seconds = |h: &Harness<'_, SpratApp>| {
        let doc = h.state().active_document().unwrap();
        let hung = &h.state().active_tab().unwrap().canvas.tools.hang.hung[0].player;
        (
            doc.player.seconds_from_start(doc.document()),
            hung.seconds_from_start(doc.document()),
        )
    };
    let (main, hung_time) = seconds(&harness);
    assert!(main > 0.0 && main < 0.4, "{main}");
    assert_eq!(hung_time, main);
    assert!(hung(&harness).unwrap() > 0, "the hung sequence moved on");
    harness.get_by_label("Pause").click();
    harness.step();
    // Paused at the first frame again, the hung sequence shows its first frame too.
    harness.key_press(Key::Home);
    harness.run_steps(2);
    assert_eq!(hung(&harness), Some(0));

    // A sequence of another file, read through the open dialog.
    point_tool_click = screen(&harness, 0.0, -56.0);
    click(&mut harness, point_tool_click);
    harness.get_by_label("Hang sequence…").click();
    harness.run_steps(2);
    harness.get_by_label("Other file…").click();
    harness.run_steps(2);
    // The file is read on a worker thread; the picker lists it once read.
    for _ in 0..500 {
        harness.step();
        let hang = &gui_support::hanging(&harness);
        if !hang.is_reading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    harness.run_steps(2);
    harness.get_by_label("other.sprat").click();
    harness.run_steps(2);
    harness.get_by_label("Hang guard").click();
    harness.run_steps(2);
    let hanging = &gui_support::hanging(&harness);
    assert_eq!(hanging.files.len(), 1);
    assert_eq!(hanging.hung.len(), 1, "one sequence per point name");
    assert_eq!(
        hanging.hung[0].source,
        sprat::app::canvas::tools::hang::Source::File(0)
    );
    assert!(
        !harness
            .state()
            .active_document()
            .unwrap()
            .session
            .is_dirty()
    );
}

#[test]
fn a_hung_four_way_sequence_turns_with_the_direction_on_show() {
    let dir = TempDir::new("hang-direction");
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "turn.sprat");
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "walk");
    zoom_to(&mut harness, 2.0);
    let weapon = point_named(frame_at(&harness, 0), "weapon").1.position;
    let at = screen(&harness, weapon.x.to_f64(), weapon.y.to_f64());
    click(&mut harness, at);
    harness.get_by_label("Hang sequence…").click();
    harness.run_steps(2);
    harness.get_by_label("Hang walk").click();
    harness.run_steps(2);
    let directions = |h: &Harness<'_, SpratApp>| {
        let doc = h.state().active_document().unwrap();
        let hung = &h.state().active_tab().unwrap().canvas.tools.hang.hung[0].player;
        (doc.player.direction(), hung.direction())
    };
    assert_eq!(directions(&harness), (0, 0));
    for expected in [1, 2] {
        harness.key_press_modifiers(Modifiers::ALT, Key::ArrowRight);
        harness.run_steps(2);
        assert_eq!(directions(&harness), (expected, expected));
    }
    // A one-way sequence hung there stays on its only direction.
    let at = screen(&harness, weapon.x.to_f64(), weapon.y.to_f64());
    click(&mut harness, at);
    harness.get_by_label("Hang sequence…").click();
    harness.run_steps(2);
    harness.get_by_label("Hang punch").click();
    harness.run_steps(2);
    assert_eq!(directions(&harness), (2, 0));
}

#[test]
fn the_point_tool_places_a_named_point_and_the_name_field_renames_it() {
    let dir = TempDir::new("point");
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "point.sprat");
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "guard");
    zoom_to(&mut harness, 2.0);
    harness.key_press(Key::P);
    harness.run_steps(2);
    // A click between pixels places the point on the nearest whole pixel, as the status bar
    // shows it, even though the Sprat format could keep the fraction (Alt does that).
    let at = screen(&harness, -30.0, -10.0) + vec2(0.6, 0.6);
    click(&mut harness, at);
    let point = |h: &Harness<'_, SpratApp>| {
        frame_at(h, 0)
            .elements
            .iter()
            .find(|e| e.as_point().is_some())
            .map(|e| (e.name.to_string(), e.as_point().unwrap().position))
    };
    assert_eq!(
        point(&harness),
        Some(("point 1".to_string(), Point::from_ints(-30, -10)))
    );
    let field = harness
        .get_all_by_role(Role::TextInput)
        .find(|n| n.value().is_some_and(|v| v == "point 1"))
        .expect("the name field");
    field.focus();
    harness.run_steps(1);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.event(egui::Event::Text("shield hand".to_string()));
    harness.step();
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert_eq!(point(&harness).unwrap().0, "shield hand");
    assert_eq!(undo_steps(&harness), 2, "placing and naming are two steps");
}

#[test]
fn moving_an_inherited_clsn2_box_for_this_frame_only_gives_that_frame_its_own_boxes() {
    let dir = TempDir::new("kfm-inherited");
    let def = gui_support::kfm_copy(&dir.0);
    let original_air = std::fs::read_to_string(dir.0.join("kfm.air")).unwrap();
    let mut harness = editor_on(&def, &[]);
    harness.key_press(Key::Period);
    harness.run_steps(2);
    zoom_to(&mut harness, 2.0);
    harness.get_by_label("This frame only").click();
    harness.run_steps(2);
    // Frame 1 shows frame 0's Clsn2Default boxes; the body box is dragged 4 px right.
    let from = screen(&harness, 0.0, -40.0);
    drag(&mut harness, from, from + vec2(8.0, 0.0));
    let body = rect(-9, -79, 29, 79);
    let head = rect(-7, -93, 12, 14);
    let mut expected = vec![body, head];
    expected.sort_by_key(|s| format!("{s:?}"));
    let mut own = boxes_of(frame_at(&harness, 1), &BoxClass::Hurt);
    own.sort_by_key(|s| format!("{s:?}"));
    assert_eq!(own, expected.clone(), "{}", gui_support::status(&harness));
    assert_eq!(undo_steps(&harness), 1);
    assert!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hurt).contains(&rect(-13, -79, 29, 79)),
        "the default itself is unchanged"
    );

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(2);
    let air = dir.0.join("kfm.air");
    let saved = std::fs::read_to_string(&air).unwrap();
    let inserted = inserted_lines(&original_air, &saved);
    assert_eq!(inserted.len(), 3, "{inserted:?}");
    assert_eq!(inserted[0], "Clsn2: 2");
    let (loaded, _) = registry().open(&air, &ReadContext::for_path(&air)).unwrap();
    let frame = standing_frame(&loaded.document, 1);
    assert_eq!(
        frame.declared_scope(&BoxClass::Hurt),
        Some(BoxScope::ThisFrame)
    );
    let mut read = boxes_of(frame, &BoxClass::Hurt);
    read.sort_by_key(|s| format!("{s:?}"));
    assert_eq!(read, expected);
}

#[test]
fn the_rotation_knob_turns_a_box_where_the_format_can_hold_rotation() {
    let dir = TempDir::new("rotate");
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "rotate.sprat");
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "walk");
    zoom_to(&mut harness, 4.0);
    // The feet box of the first frame: (-8, -6), 16 x 6, not turned; its centre is (0, -3).
    let at = screen(&harness, 4.0, -3.0);
    click(&mut harness, at);
    // The knob sits 22 points (5.5 px at 400%) above the middle of the top edge.
    let knob = screen(&harness, 0.0, -11.5);
    let to = screen(&harness, 20.0, -3.0);
    drag(&mut harness, knob, to);
    let feet = BoxClass::Custom("feet".to_string());
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &feet),
        vec![Shape::Rect {
            x: Fx::from_int(3),
            y: Fx::from_int(-11),
            width: Fx::from_int(16),
            height: Fx::from_int(6),
            rotation: 90.0,
        }],
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(undo_steps(&harness), 1);
}

#[test]
fn a_graphic_turns_by_its_knob_and_scales_by_its_corner() {
    let dir = TempDir::new("graphic");
    let mut harness = demo_editor(&dir);
    let (id, pivot) = frame_at(&harness, 0)
        .elements
        .iter()
        .find_map(|e| {
            let g = e.as_graphic()?;
            Some((e.id, (g.position.x.to_f64(), g.position.y.to_f64())))
        })
        .expect("the demo's first frame has a graphic");
    harness
        .state_mut()
        .active_document_mut()
        .unwrap()
        .select_element(id);
    harness.run_steps(2);
    let graphic = |h: &Harness<'_, SpratApp>| {
        document(h)
            .element(id)
            .unwrap()
            .1
            .as_graphic()
            .unwrap()
            .clone()
    };
    // The knob sits 22 points (5.5 px at 400%) straight above the pivot.
    let knob = screen(&harness, pivot.0, pivot.1 - 5.5);
    let to = screen(&harness, pivot.0 + 20.0, pivot.1);
    drag(&mut harness, knob, to);
    assert_eq!(
        graphic(&harness).rotation,
        90.0,
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(undo_steps(&harness), 1);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(graphic(&harness).rotation, 0.0);
    assert_eq!(selected(&harness), Some(id), "the selection survives undo");

    // The turned graphic drew a warning; the check of the undone one takes it away, and the
    // canvas gets back the room of the warnings panel (the corner is in view only then).
    gui_support::wait_for_check(&mut harness);
    // The corner handle is the source's bottom-right corner: dragging it twice as far from
    // the pivot doubles the scale.
    let before = graphic(&harness);
    let origin = match before.origin {
        sprat::model::Origin::At(p) => (p.x.to_f64(), p.y.to_f64()),
        other => panic!("the demo's graphics have their own origin: {other:?}"),
    };
    let corner = (pivot.0 + 32.0 - origin.0, pivot.1 + 32.0 - origin.1);
    let doubled = (
        pivot.0 + 2.0 * (corner.0 - pivot.0),
        pivot.1 + 2.0 * (corner.1 - pivot.1),
    );
    let from = screen(&harness, corner.0, corner.1);
    let to = screen(&harness, doubled.0, doubled.1);
    drag(&mut harness, from, to);
    let after = graphic(&harness);
    assert_eq!(
        (after.scale_x, after.scale_y),
        (2.0, 2.0),
        "{}",
        gui_support::status(&harness)
    );
}

#[test]
fn air_offers_no_circles_and_no_rotation_knob_since_it_cannot_save_them() {
    let dir = TempDir::new("kfm-capabilities");
    let def = gui_support::kfm_copy(&dir.0);
    let mut harness = editor_on(&def, &[]);
    zoom_to(&mut harness, 2.0);
    // The circle tool's key is refused, saying why; the rectangle tool is taken up.
    harness.key_press_modifiers(Modifiers::SHIFT, Key::R);
    harness.run_steps(2);
    let tool = |h: &Harness<'_, SpratApp>| h.state().active_tab().unwrap().canvas.tools.tool;
    assert_eq!(tool(&harness), Tool::Select);
    assert!(
        gui_support::status(&harness).contains("cannot hold circles"),
        "{}",
        gui_support::status(&harness)
    );
    harness.get_by_label("Tools").click();
    harness.run_steps(2);
    assert!(
        harness
            .get_by_label_contains("Box tool (circles)")
            .accesskit_node()
            .is_disabled(),
        "Tools > Box tool (circles) is greyed out"
    );
    harness.key_press(Key::Escape);
    harness.key_press(Key::R);
    harness.run_steps(2);
    assert_eq!(tool(&harness), Tool::Box);
    assert!(harness.query_by_label("Circle").is_none());
    assert!(
        harness.query_by_label("Use class").is_none(),
        "AIR has Clsn1 and Clsn2 only"
    );
    let (from, to) = (
        screen(&harness, -40.0, -30.0),
        screen(&harness, -30.0, -20.0),
    );
    drag(&mut harness, from, to);
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hit),
        vec![rect(-40, -30, 10, 10)],
        "a rectangle, not a circle"
    );

    // The drawn box is selected; where a rotation knob would be, a drag draws instead.
    harness.key_press(Key::V);
    harness.run_steps(2);
    let knob = screen(&harness, -35.0, -30.0 - 11.0);
    let to = screen(&harness, -20.0, -25.0);
    drag(&mut harness, knob, to);
    for shape in boxes_of(frame_at(&harness, 0), &BoxClass::Hit) {
        assert!(matches!(shape, Shape::Rect { rotation, .. } if rotation == 0.0));
    }
}

#[test]
fn escape_during_a_drag_takes_it_back_and_shift_draws_a_square() {
    let dir = TempDir::new("escape");
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "escape.sprat");
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "guard");
    zoom_to(&mut harness, 2.0);
    harness.key_press(Key::R);
    harness.run_steps(2);
    let before = document(&harness).clone();

    // Half a drag, then Escape: nothing is left and nothing is in the history.
    let from = screen(&harness, -40.0, -40.0);
    harness.hover_at(from);
    harness.step();
    harness.event(button(from, true));
    harness.step();
    for step in 1..=3 {
        harness.event(egui::Event::PointerMoved(
            from + vec2(8.0, 6.0) * step as f32,
        ));
        harness.step();
    }
    assert_eq!(undo_steps(&harness), 1, "the drag drew a box");
    harness.key_press(Key::Escape);
    harness.step();
    harness.event(button(from + vec2(24.0, 18.0), false));
    harness.run_steps(2);
    assert_eq!(document(&harness), &before);
    assert_eq!(undo_steps(&harness), 0);

    // Shift makes the rectangle a square on the pointer's side.
    let to = screen(&harness, -30.0, -36.0);
    harness.hover_at(from);
    harness.step();
    harness.event(button(from, true));
    harness.step();
    harness.event(egui::Event::ModifiersChanged(Modifiers::SHIFT));
    harness.event(egui::Event::PointerMoved(to));
    harness.step();
    harness.event(button(to, false));
    harness.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    harness.run_steps(2);
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hit),
        vec![rect(-40, -40, 10, 10)],
        "{}",
        gui_support::status(&harness)
    );
}

/// The demo copied into `dir` and opened, at 400%.
fn demo_editor(dir: &TempDir) -> Harness<'static, SpratApp> {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    for name in ["demo.sprat", "demo.png"] {
        std::fs::copy(demo.join(name), dir.0.join(name)).unwrap();
    }
    let mut harness = editor_on(&dir.0.join("demo.sprat"), &[]);
    zoom_to(&mut harness, 4.0);
    harness
}

#[test]
fn a_graphic_origin_drag_moves_the_pivot_and_leaves_the_pixels_in_place() {
    let dir = TempDir::new("origin");
    let mut harness = demo_editor(&dir);
    let (id, graphic) = frame_at(&harness, 0)
        .elements
        .iter()
        .find_map(|e| Some((e.id, e.as_graphic()?.clone())))
        .unwrap();
    let sprat::model::Origin::At(origin) = graphic.origin else {
        panic!("the demo's graphics have their own origin")
    };
    harness
        .state_mut()
        .active_document_mut()
        .unwrap()
        .select_element(id);
    harness.run_steps(2);
    let (px, py) = (graphic.position.x.to_f64(), graphic.position.y.to_f64());
    let from = screen(&harness, px, py);
    let to = screen(&harness, px + 3.0, py - 2.0);
    drag(&mut harness, from, to);
    let moved = document(&harness)
        .element(id)
        .unwrap()
        .1
        .as_graphic()
        .unwrap()
        .clone();
    assert_eq!(
        moved.origin,
        sprat::model::Origin::At(origin + Point::from_ints(3, -2)),
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(moved.position, graphic.position + Point::from_ints(3, -2));
    assert_eq!(undo_steps(&harness), 1);
}

#[test]
fn a_point_turns_by_its_angle_knob_and_a_box_is_deleted_from_the_strip() {
    let dir = TempDir::new("angle");
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "angle.sprat");
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "idle");
    zoom_to(&mut harness, 4.0);
    let at = screen(&harness, 0.0, -56.0);
    click(&mut harness, at);
    // The head point has no angle: its knob is 18 points (4.5 px) to its right.
    let knob = screen(&harness, 4.5, -56.0);
    let to = screen(&harness, 0.0, -40.0);
    drag(&mut harness, knob, to);
    let head = point_named(frame_at(&harness, 0), "head").1.clone();
    assert_eq!(head.rotation, 90.0, "{}", gui_support::status(&harness));
    assert_eq!(
        head.position,
        Point::from_ints(0, -56),
        "turning does not move it"
    );

    let inside = screen(&harness, -6.0, -20.0);
    click(&mut harness, inside);
    harness.get_by_label("Delete box").click();
    harness.run_steps(2);
    assert!(boxes_of(frame_at(&harness, 0), &BoxClass::Hurt).is_empty());
    assert_eq!(undo_steps(&harness), 2);
}

#[test]
fn a_hung_sequence_with_pictures_is_drawn_at_the_point() {
    let dir = TempDir::new("hang-demo");
    let mut harness = demo_editor(&dir);
    let weapon = point_named(frame_at(&harness, 0), "weapon").1.position;
    let at = screen(&harness, weapon.x.to_f64(), weapon.y.to_f64());
    click(&mut harness, at);
    harness.get_by_label("Hang sequence…").click();
    harness.run_steps(2);
    assert_eq!(gui_support::hanging(&harness).pictures_drawn(), 0);
    harness.get_by_label("Hang idle").click();
    harness.run_steps(2);
    assert_eq!(gui_support::hanging(&harness).pictures_drawn(), 1);
    assert!(
        !harness
            .state()
            .active_document()
            .unwrap()
            .session
            .is_dirty()
    );
}

/// A click with modifier keys held (Shift or Ctrl add to the selection).
fn click_with(harness: &mut Harness<'_, SpratApp>, at: Pos2, modifiers: Modifiers) {
    harness.hover_at(at);
    harness.event(egui::Event::ModifiersChanged(modifiers));
    harness.step();
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers,
        });
    }
    harness.step();
    harness.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    harness.run_steps(2);
}

/// A drag with modifier keys held from the press to the release.
fn drag_with(harness: &mut Harness<'_, SpratApp>, from: Pos2, to: Pos2, modifiers: Modifiers) {
    harness.event(egui::Event::ModifiersChanged(modifiers));
    drag(harness, from, to);
    harness.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    harness.run_steps(1);
}

fn selection(harness: &Harness<'_, SpratApp>) -> Vec<ElementId> {
    harness
        .state()
        .active_document()
        .unwrap()
        .selected_elements()
        .to_vec()
}

/// The guard's first frame: its hurt box (-14, -58) to (10, 0) and its shield circle at
/// (16, -36), radius 12, with their ids.
fn guard_editor(name: &str) -> (TempDir, Harness<'static, SpratApp>, ElementId, ElementId) {
    let dir = TempDir::new(name);
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "guard.sprat");
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "guard");
    zoom_to(&mut harness, 2.0);
    let id_of = |h: &Harness<'_, SpratApp>, class: &BoxClass| {
        frame_at(h, 0)
            .elements
            .iter()
            .find(|e| matches!(&e.kind, sprat::model::ElementKind::Box(b) if &b.class == class))
            .unwrap()
            .id
    };
    let hurt = id_of(&harness, &BoxClass::Hurt);
    let shield = id_of(&harness, &shield_class());
    (dir, harness, hurt, shield)
}

fn shield_class() -> BoxClass {
    BoxClass::Custom("shield".to_string())
}

fn circle(x: i32, y: i32, radius: i32) -> Shape {
    Shape::Circle {
        center: Point::from_ints(x, y),
        radius: Fx::from_int(radius),
    }
}

/// The guard's first frame's hurt box and shield, as they are now.
fn guard_boxes(harness: &Harness<'_, SpratApp>) -> (Vec<Shape>, Vec<Shape>) {
    let frame = frame_at(harness, 0);
    (
        boxes_of(frame, &BoxClass::Hurt),
        boxes_of(frame, &shield_class()),
    )
}

#[test]
fn shift_click_selects_two_boxes_and_dragging_one_moves_both_in_one_undo_step() {
    let (_dir, mut harness, hurt, shield) = guard_editor("multi-drag");
    let before = guard_boxes(&harness);
    assert_eq!(
        before,
        (vec![rect(-14, -58, 24, 58)], vec![circle(16, -36, 12)])
    );
    let in_hurt = screen(&harness, -6.0, -20.0);
    let in_shield = screen(&harness, 24.0, -36.0);
    click(&mut harness, in_hurt);
    click_with(&mut harness, in_shield, Modifiers::SHIFT);
    assert_eq!(selection(&harness), vec![hurt, shield]);
    assert!(
        harness.query_by_label("2 elements selected").is_some(),
        "the inspector says how many are selected"
    );

    // Dragging the shield 4 px right and 2 px down takes the hurt box along.
    drag(&mut harness, in_shield, in_shield + vec2(8.0, 4.0));
    assert_eq!(
        guard_boxes(&harness),
        (vec![rect(-10, -56, 24, 58)], vec![circle(20, -34, 12)]),
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(undo_steps(&harness), 1, "the drag is one undo step");
    assert_eq!(selection(&harness), vec![hurt, shield]);

    gui_support::undo(&mut harness);
    assert_eq!(guard_boxes(&harness), before);
    assert_eq!(
        selection(&harness),
        vec![hurt, shield],
        "undo gives the selection back"
    );

    // Ctrl+click takes one out again; a plain click on the other selects it alone.
    click_with(&mut harness, in_hurt, Modifiers::COMMAND);
    assert_eq!(selection(&harness), vec![shield]);
    click(&mut harness, in_hurt);
    assert_eq!(selection(&harness), vec![hurt]);
}

#[test]
fn a_rubber_band_selects_exactly_the_boxes_it_touches_and_shift_adds() {
    let (_dir, mut harness, hurt, shield) = guard_editor("band");
    // From empty canvas over the hurt box's top-left corner only.
    let (from, to) = (
        screen(&harness, -40.0, -70.0),
        screen(&harness, -12.0, -50.0),
    );
    drag(&mut harness, from, to);
    assert_eq!(selection(&harness), vec![hurt]);
    assert_eq!(undo_steps(&harness), 0, "selecting is not an edit");

    // Near the shield's edge but inside its circle, right of the hurt box: Shift adds it.
    let (from, to) = (screen(&harness, 40.0, -70.0), screen(&harness, 21.0, -45.0));
    drag_with(&mut harness, from, to, Modifiers::SHIFT);
    assert_eq!(selection(&harness), vec![hurt, shield]);

    // A band past the circle's bounding corner, outside the circle, touches nothing: without
    // Shift it leaves nothing selected.
    let (from, to) = (screen(&harness, 50.0, -70.0), screen(&harness, 26.0, -47.0));
    drag(&mut harness, from, to);
    assert_eq!(selection(&harness), Vec::<ElementId>::new());

    // Escape during a band gives back the selection it started from.
    let in_shield = screen(&harness, 24.0, -36.0);
    click(&mut harness, in_shield);
    assert_eq!(selection(&harness), vec![shield]);
    let (from, to) = (
        screen(&harness, -40.0, -70.0),
        screen(&harness, -12.0, -50.0),
    );
    harness.hover_at(from);
    harness.step();
    harness.event(button(from, true));
    harness.step();
    for i in 1..=4 {
        harness.event(egui::Event::PointerMoved(
            from + (to - from) * (i as f32 / 4.0),
        ));
        harness.step();
    }
    assert_eq!(
        selection(&harness),
        vec![hurt],
        "the band selects as it goes"
    );
    harness.key_press(Key::Escape);
    harness.step();
    harness.event(button(to, false));
    harness.run_steps(2);
    assert_eq!(selection(&harness), vec![shield]);
}

#[test]
fn arrows_nudge_every_selected_box_one_undo_step_per_press() {
    let (_dir, mut harness, hurt, shield) = guard_editor("multi-nudge");
    let before = guard_boxes(&harness);
    let in_hurt = screen(&harness, -6.0, -20.0);
    click(&mut harness, in_hurt);
    let in_shield = screen(&harness, 24.0, -36.0);
    click_with(&mut harness, in_shield, Modifiers::SHIFT);
    assert_eq!(selection(&harness), vec![hurt, shield]);

    harness.hover_at(in_hurt);
    harness.key_press(Key::ArrowLeft);
    harness.step();
    harness.key_press_modifiers(Modifiers::SHIFT, Key::ArrowUp);
    harness.run_steps(2);
    assert_eq!(
        guard_boxes(&harness),
        (vec![rect(-15, -68, 24, 58)], vec![circle(15, -46, 12)]),
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(undo_steps(&harness), 2, "one step per key press");
    gui_support::undo(&mut harness);
    assert_eq!(
        guard_boxes(&harness),
        (vec![rect(-15, -58, 24, 58)], vec![circle(15, -36, 12)])
    );
    gui_support::undo(&mut harness);
    assert_eq!(guard_boxes(&harness), before);
}

#[test]
fn ctrl_a_selects_every_element_and_delete_removes_them_in_one_undo_step() {
    let (_dir, mut harness, hurt, shield) = guard_editor("multi-delete");
    let before = document(&harness).clone();
    harness.hover_at(screen(&harness, -40.0, -70.0));
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.run_steps(2);
    assert_eq!(selection(&harness), vec![hurt, shield]);
    assert!(harness.query_by_label("Delete 2 elements").is_some());

    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert_eq!(
        guard_boxes(&harness),
        (Vec::new(), Vec::new()),
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(
        sequence(&harness).directions[0].frames.len(),
        2,
        "only the elements went, not the frame"
    );
    assert_eq!(undo_steps(&harness), 1);
    gui_support::undo(&mut harness);
    assert_eq!(document(&harness), &before);
    assert_eq!(selection(&harness), vec![hurt, shield]);

    // Escape over the canvas selects nothing; the strip's button then offers no delete.
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    assert_eq!(selection(&harness), Vec::<ElementId>::new());
    assert!(harness.query_by_label("Delete 2 elements").is_none());
}

#[test]
fn inherited_air_boxes_moved_together_for_this_frame_only_change_that_frame_alone() {
    let dir = TempDir::new("kfm-multi");
    let def = gui_support::kfm_copy(&dir.0);
    let mut harness = editor_on(&def, &[]);
    harness.key_press(Key::Period);
    harness.run_steps(2);
    zoom_to(&mut harness, 2.0);
    harness.get_by_label("This frame only").click();
    harness.run_steps(2);
    let hurt_on = |h: &Harness<'_, SpratApp>, index| {
        let mut shapes = boxes_of(frame_at(h, index), &BoxClass::Hurt);
        shapes.sort_by_key(|s| format!("{s:?}"));
        shapes
    };
    let defaults = hurt_on(&harness, 0);
    let (body, head) = (rect(-13, -79, 29, 79), rect(-7, -93, 12, 14));
    assert!(defaults.contains(&body) && defaults.contains(&head));
    assert!(hurt_on(&harness, 1).is_empty(), "frame 1 inherits them");
    let later = hurt_on(&harness, 2);

    // Frame 1 shows frame 0's Clsn2Default boxes: select the body and the head, drag the body
    // 4 px right and 3 px up.
    let in_body = screen(&harness, 0.0, -40.0);
    click(&mut harness, in_body);
    let in_head = screen(&harness, -1.0, -88.0);
    click_with(&mut harness, in_head, Modifiers::SHIFT);
    assert_eq!(selection(&harness).len(), 2);
    drag(&mut harness, in_body, in_body + vec2(8.0, -6.0));
    let mut expected = vec![rect(-9, -82, 29, 79), rect(-3, -96, 12, 14)];
    expected.sort_by_key(|s| format!("{s:?}"));
    assert_eq!(
        hurt_on(&harness, 1),
        expected,
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(
        frame_at(&harness, 1).declared_scope(&BoxClass::Hurt),
        Some(BoxScope::ThisFrame)
    );
    assert_eq!(hurt_on(&harness, 0), defaults, "the default is unchanged");
    assert_eq!(hurt_on(&harness, 2), later, "later frames are unchanged");
    assert_eq!(undo_steps(&harness), 1);

    // The frame's own copies stay selected: an arrow moves them, still on this frame only.
    harness.hover_at(in_body);
    harness.key_press(Key::ArrowDown);
    harness.run_steps(2);
    let mut nudged = vec![rect(-9, -81, 29, 79), rect(-3, -95, 12, 14)];
    nudged.sort_by_key(|s| format!("{s:?}"));
    assert_eq!(hurt_on(&harness, 1), nudged);
    assert_eq!(hurt_on(&harness, 0), defaults);

    gui_support::undo(&mut harness);
    gui_support::undo(&mut harness);
    assert!(
        hurt_on(&harness, 1).is_empty(),
        "undo gives the frame back its defaults"
    );
    assert_eq!(frame_at(&harness, 1).declared_scope(&BoxClass::Hurt), None);
}

#[test]
fn a_band_over_a_point_and_a_box_selects_both_and_one_drag_moves_both() {
    let dir = TempDir::new("band-point");
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "idle.sprat");
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "idle");
    zoom_to(&mut harness, 2.0);
    let head = |h: &Harness<'_, SpratApp>| {
        let (id, point) = point_named(frame_at(h, 0), "head");
        (id, point.position)
    };
    let (head_id, at) = head(&harness);
    assert_eq!(at, Point::from_ints(0, -56));

    // The band reaches the hurt box's top-left part and, within the grab radius, the head.
    let (from, to) = (
        screen(&harness, -30.0, -70.0),
        screen(&harness, -2.0, -50.0),
    );
    drag(&mut harness, from, to);
    let selected = selection(&harness);
    assert_eq!(selected.len(), 2, "{selected:?}");
    assert_eq!(selected[0], head_id, "points first, then boxes");

    let in_hurt = screen(&harness, -6.0, -20.0);
    drag(&mut harness, in_hurt, in_hurt + vec2(8.0, 4.0));
    assert_eq!(head(&harness).1, Point::from_ints(4, -54));
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hurt),
        vec![rect(-8, -54, 24, 56)],
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(undo_steps(&harness), 1);
    gui_support::undo(&mut harness);
    assert_eq!(head(&harness).1, Point::from_ints(0, -56));
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hurt),
        vec![rect(-12, -56, 24, 56)]
    );
}

#[test]
fn ctrl_click_in_the_inspectors_element_list_adds_and_removes_elements() {
    let (_dir, mut harness, hurt, shield) = guard_editor("inspector-list");
    harness.get_by_label("box hurt").click();
    harness.run_steps(2);
    assert_eq!(selection(&harness), vec![hurt]);
    harness
        .get_by_label("box shield “shield”")
        .click_modifiers(Modifiers::COMMAND);
    harness.run_steps(2);
    assert_eq!(selection(&harness), vec![hurt, shield]);
    assert!(harness.query_by_label("2 elements selected").is_some());
    harness
        .get_by_label("box hurt")
        .click_modifiers(Modifiers::SHIFT);
    harness.run_steps(2);
    assert_eq!(selection(&harness), vec![shield]);
    assert!(harness.query_by_label("2 elements selected").is_none());
}

#[test]
fn the_box_tool_moves_a_box_dragged_from_inside_and_resizes_it_by_its_edges() {
    let (_dir, mut harness, hurt, _shield) = guard_editor("box-tool-move");
    harness.key_press(Key::R);
    harness.run_steps(2);
    let (_, shields) = guard_boxes(&harness);

    // From inside the hurt box (-14, -58) to (10, 0), 4 px right and 2 px down: it moves,
    // keeping its size, in one undo step, and no box is drawn.
    let inside = screen(&harness, -6.0, -20.0);
    drag(&mut harness, inside, inside + vec2(8.0, 4.0));
    assert_eq!(
        guard_boxes(&harness),
        (vec![rect(-10, -56, 24, 58)], shields.clone()),
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(undo_steps(&harness), 1, "the move is one undo step");
    assert_eq!(selection(&harness), vec![hurt], "the moved box is selected");
    assert_eq!(gui_support::status(&harness), "Moved box");
    gui_support::undo(&mut harness);
    assert_eq!(guard_boxes(&harness).0, vec![rect(-14, -58, 24, 58)]);

    // Gripped a pixel left of its left edge and dragged 6 px left: that edge follows.
    harness
        .state_mut()
        .active_document_mut()
        .unwrap()
        .clear_elements();
    let edge = screen(&harness, -15.0, -20.0);
    drag(&mut harness, edge, edge + vec2(-12.0, 0.0));
    assert_eq!(
        guard_boxes(&harness).0,
        vec![rect(-20, -58, 30, 58)],
        "{}",
        gui_support::status(&harness)
    );
    // Its bottom-right corner, 4 px right and 6 px down: both edges follow.
    let corner = screen(&harness, 10.0, 0.0);
    drag(&mut harness, corner, corner + vec2(8.0, 12.0));
    assert_eq!(guard_boxes(&harness).0, vec![rect(-20, -58, 34, 64)]);
    assert_eq!(undo_steps(&harness), 2, "one undo step per resize");
    assert_eq!(gui_support::status(&harness), "Resized box");

    // Outside every box the tool draws; with Ctrl it draws over a box too.
    let (from, to) = (
        screen(&harness, -60.0, -40.0),
        screen(&harness, -40.0, -30.0),
    );
    drag(&mut harness, from, to);
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hit),
        vec![rect(-60, -40, 20, 10)]
    );
    let (from, to) = (screen(&harness, -4.0, -40.0), screen(&harness, 4.0, -30.0));
    drag_with(&mut harness, from, to, Modifiers::COMMAND);
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hit),
        vec![rect(-60, -40, 20, 10), rect(-4, -40, 8, 10)]
    );
    assert_eq!(guard_boxes(&harness).0, vec![rect(-20, -58, 34, 64)]);
}

#[test]
fn arrows_step_frames_while_nothing_is_selected_and_nudge_what_is() {
    let dir = TempDir::new("arrows-step");
    let path = showcase_as(&dir.0, &sprat::formats::sprat::SpratFormat, "arrows.sprat");
    let mut harness = editor_on(&path, &[]);
    show_sequence(&mut harness, "idle");
    zoom_to(&mut harness, 2.0);
    let shown =
        |h: &Harness<'_, SpratApp>| h.state().active_document().unwrap().player.frame_index();
    let press = |h: &mut Harness<'_, SpratApp>, key: Key| {
        h.key_press(key);
        h.run_steps(2);
    };
    assert_eq!(shown(&harness), 0);
    press(&mut harness, Key::ArrowRight);
    press(&mut harness, Key::ArrowRight);
    assert_eq!(shown(&harness), 2, "Right steps forward");
    press(&mut harness, Key::ArrowLeft);
    assert_eq!(shown(&harness), 1, "Left steps back");
    press(&mut harness, Key::ArrowLeft);
    assert_eq!(shown(&harness), 0);
    assert_eq!(undo_steps(&harness), 0, "stepping is not an edit");

    // With the hurt box selected, Right nudges it and the frame stays.
    let inside = screen(&harness, -6.0, -20.0);
    click(&mut harness, inside);
    assert!(selected(&harness).is_some());
    press(&mut harness, Key::ArrowRight);
    assert_eq!(shown(&harness), 0);
    assert_eq!(
        boxes_of(frame_at(&harness, 0), &BoxClass::Hurt),
        vec![rect(-11, -56, 24, 56)]
    );
    assert_eq!(undo_steps(&harness), 1);

    // Escape selects nothing: the arrows step again.
    press(&mut harness, Key::Escape);
    assert!(selected(&harness).is_none());
    press(&mut harness, Key::ArrowRight);
    assert_eq!(shown(&harness), 1);
}

#[test]
fn facing_left_mirrors_the_canvas_about_the_origin_and_leaves_the_document_alone() {
    let (_dir, mut harness, _hurt, shield) = guard_editor("facing-left");
    let before = document(&harness).clone();
    harness.key_press_modifiers(Modifiers::SHIFT, Key::F);
    harness.run_steps(2);
    assert!(harness.state().settings.view.facing_left);
    assert!(
        harness.query_by_label_contains("Facing left").is_some(),
        "the canvas says it is mirrored"
    );
    assert_eq!(document(&harness), &before, "a view setting, not an edit");
    assert!(
        !harness
            .state()
            .active_document()
            .unwrap()
            .session
            .is_dirty()
    );

    // The shield (centre (16, -36)) is drawn left of the origin now: a click there selects it,
    // and dragging it 8 points right on screen moves it 4 px left in the file.
    let mirrored = |h: &Harness<'_, SpratApp>, x: f64, y: f64| {
        let canvas = &h.state().active_tab().unwrap().canvas;
        let rect = canvas.last_rect.unwrap();
        View::new(rect, canvas.zoom, 1.0, canvas.pan)
            .facing_left(true, 0.0)
            .to_screen(x, y)
    };
    let at = mirrored(&harness, 24.0, -36.0);
    assert!(at.x < mirrored(&harness, 0.0, 0.0).x);
    click(&mut harness, at);
    assert_eq!(selection(&harness), vec![shield]);
    drag(&mut harness, at, at + vec2(8.0, 0.0));
    assert_eq!(guard_boxes(&harness).1, vec![circle(12, -36, 12)]);

    // View > Facing left turns it back.
    harness.get_by_label("View").click();
    harness.run_steps(2);
    harness
        .get_all_by_role(Role::Button)
        .find(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with("Facing left"))
        })
        .expect("View > Facing left")
        .click();
    harness.run_steps(2);
    assert!(!harness.state().settings.view.facing_left);
}

/// The hurt boxes frame `index` of the sequence on show shows (own or inherited), sorted.
fn hurt_shown(harness: &Harness<'_, SpratApp>, index: usize) -> Vec<Shape> {
    let doc = harness.state().active_document().unwrap();
    let frames = doc.direction_frames();
    let shapes: Vec<Shape> =
        sprat::model::effective_boxes(&frames, index, sprat::model::DefaultBoxRule::default())
            .into_iter()
            .filter(|b| b.collision.class == BoxClass::Hurt)
            .map(|b| b.collision.shape.clone())
            .collect();
    sorted(shapes)
}

fn sorted(mut shapes: Vec<Shape>) -> Vec<Shape> {
    shapes.sort_by_key(|s| format!("{s:?}"));
    shapes
}

#[test]
fn copying_the_selected_box_to_the_next_frame_keeps_that_frames_other_boxes() {
    let (_dir, mut harness) = gui_support::kfm_editor("copy-one-box");
    // Stand Light Punch: frame 2 has boxes of its own, frame 3 inherits the body and head.
    let doc = harness.state_mut().active_document_mut().unwrap();
    let punch = doc.document().sequence_by_name("200").unwrap().id;
    let document = doc.session.document().clone();
    doc.player.set_sequence(&document, punch);
    doc.select_frame(2);
    harness.run_steps(2);
    zoom_to(&mut harness, 2.0);
    let head = rect(0, -94, 12, 14);
    assert_eq!(
        hurt_shown(&harness, 3),
        sorted(vec![head.clone(), rect(-10, -80, 29, 80)])
    );
    // The body box, nudged a pixel to the right; it stays selected.
    let at = screen(&harness, 0.0, -40.0);
    click(&mut harness, at);
    assert!(selected(&harness).is_some(), "the body box is selected");
    harness.hover_at(at);
    harness.key_press(Key::ArrowRight);
    harness.run_steps(2);
    harness.get_by_label("Copy boxes to next").click();
    harness.run_steps(2);
    assert_eq!(
        hurt_shown(&harness, 3),
        sorted(vec![head, rect(-9, -80, 29, 80)]),
        "frame 3 keeps its head box; the body box is the copy: {}",
        gui_support::status(&harness)
    );
    assert_eq!(
        gui_support::status(&harness),
        "Copied the selected box to frame 3, replacing the box it overlaps there"
    );
}

#[test]
fn facing_left_turns_an_aseprite_sprite_about_the_middle_of_its_canvas_and_keeps_it_in_view() {
    // Aseprite has no origin: its pixels are placed from the canvas's top-left corner.
    let path = crate::common::corpus().join("aseprite/layers_and_tags.aseprite");
    let mut harness = editor_on(&path, &[]);
    harness.run_steps(2);
    // The frame's picture on screen (the canvas fits it in view when it opens).
    let picture_on_screen = |h: &Harness<'_, SpratApp>| {
        let doc = h.state().active_document().unwrap();
        let document = doc.session.document();
        let scene = sprat::render::Scene::at(
            document,
            doc.player.sequence(),
            doc.player.direction(),
            doc.player.frame_index(),
            sprat::model::DefaultBoxRule::default(),
        )
        .unwrap();
        let (r, _) =
            sprat::app::context::pictures::render_image(document, &scene, &h.state().pixels)
                .expect("the frame draws");
        let view = h.state().active_tab().unwrap().canvas.last_view.unwrap();
        let a = view.to_screen(r.x as f64, r.y as f64);
        let b = view.to_screen(r.x as f64 + r.width as f64, r.y as f64 + r.height as f64);
        egui::Rect::from_two_pos(a, b)
    };
    let facing_right = picture_on_screen(&harness);
    let canvas = harness
        .state()
        .active_tab()
        .unwrap()
        .canvas
        .last_rect
        .unwrap();
    assert!(
        canvas.contains_rect(facing_right),
        "{facing_right:?} in {canvas:?}"
    );

    harness.key_press_modifiers(Modifiers::SHIFT, Key::F);
    harness.run_steps(2);
    assert!(harness.state().settings.view.facing_left);
    let facing_left = picture_on_screen(&harness);
    assert!(
        (facing_left.min - facing_right.min).length() < 0.01
            && (facing_left.max - facing_right.max).length() < 0.01,
        "the sprite moved from {facing_right:?} to {facing_left:?} when turned"
    );
    // Turned: the canvas's left edge is drawn on the right.
    let view = harness
        .state()
        .active_tab()
        .unwrap()
        .canvas
        .last_view
        .unwrap();
    assert!(view.to_screen(0.0, 0.0).x > view.to_screen(1.0, 0.0).x);
}
