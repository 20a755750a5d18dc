//! Drawing on the source sheet through the real editor: a dragged rectangle becomes a frame, a
//! drag over grid cells becomes a whole Solarus direction (columns and frame count from the
//! drag), and the grid is found automatically. The corpus file is opened in place and never
//! saved.

use crate::{common, gui_support};

use gui_support::status;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sprat::app::SpratApp;
use sprat::model::{AnimationSet, FrameDuration, GraphicSource, Origin, PixelRect, Point};

/// The editor on zsdx's hero tunic, showing "walking" on the source-sheet tab.
fn sheet_editor() -> Harness<'static, SpratApp> {
    let path = common::corpus().join("solarus/lua-1.x/zsdx/sprites/hero/tunic1.dat");
    sheet_editor_on(&path, "walking")
}

/// The editor on `path`, showing `sequence` on the source-sheet tab.
fn sheet_editor_on(path: &std::path::Path, sequence: &str) -> Harness<'static, SpratApp> {
    let mut harness = gui_support::editor_opening(path, &[], egui::vec2(1400.0, 1000.0));
    gui_support::click_row(&mut harness, sequence);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Num4);
    harness.run_steps(3);
    assert!(
        harness
            .state()
            .active_tab()
            .unwrap()
            .sheet
            .image_rect
            .is_some(),
        "the sheet is shown"
    );
    harness
}

fn document<'a>(harness: &'a Harness<'_, SpratApp>) -> &'a AnimationSet {
    harness.state().active_document().unwrap().document()
}

fn click(harness: &mut Harness<'_, SpratApp>, label: &str) {
    harness.get_by_label(label).click();
    harness.run_steps(2);
}

/// Drags with the mouse from the centre of image pixel `from` to that of `to`.
fn drag_pixels(harness: &mut Harness<'_, SpratApp>, from: (i32, i32), to: (i32, i32)) {
    let (rect, scale) = harness
        .state()
        .active_tab()
        .unwrap()
        .sheet
        .image_rect
        .unwrap();
    let at = |x: f32, y: f32| rect.min + egui::vec2((x + 0.5) * scale, (y + 0.5) * scale);
    let start = at(from.0 as f32, from.1 as f32);
    let end = at(to.0 as f32, to.1 as f32);
    harness.hover_at(start);
    harness.event(egui::Event::PointerButton {
        pos: start,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    harness.run_steps(1);
    for step in 1..=5 {
        let t = step as f32 / 5.0;
        harness.event(egui::Event::PointerMoved(start + (end - start) * t));
        harness.run_steps(1);
    }
    harness.event(egui::Event::PointerButton {
        pos: end,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    harness.run_steps(2);
}

/// The slice rectangle and origin of a frame's graphic.
fn cut(document: &AnimationSet, frame: sprat::model::FrameId) -> (PixelRect, Point) {
    let frame = document.frame(frame).unwrap();
    let graphic = frame.elements[0].as_graphic().unwrap();
    let GraphicSource::Slice(slice) = graphic.source else {
        panic!("not a slice");
    };
    let Origin::At(origin) = graphic.origin else {
        panic!("no origin");
    };
    (document.slice(slice).unwrap().rect, origin)
}

/// Sets the grid's cell size through its number fields.
fn set_cell(harness: &mut Harness<'_, SpratApp>, width: u32, height: u32) {
    let grid = harness.state().active_tab().unwrap().sheet.draw.grid;
    harness
        .get_all_by_role(Role::SpinButton)
        .find(|n| n.value() == Some(format!("{} w", grid.cell_width)))
        .unwrap()
        .set_value_accesskit(width as f64);
    harness.run_steps(1);
    harness
        .get_all_by_role(Role::SpinButton)
        .find(|n| n.value() == Some(format!("{} h", grid.cell_height)))
        .unwrap()
        .set_value_accesskit(height as f64);
    harness.run_steps(2);
}

#[test]
fn a_dragged_rectangle_becomes_a_frame_after_the_current_one() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    let mut harness = sheet_editor_on(&demo, "walk");
    let walk = document(&harness).sequence_by_name("walk").unwrap().clone();
    let count = walk.directions[0].frames.len();
    let first = walk.directions[0].frames[0];
    let (_, origin) = cut(document(&harness), first);

    click(&mut harness, "draw a frame");
    click(&mut harness, "Snap to grid");
    assert!(!harness.state().active_tab().unwrap().sheet.draw.snap);
    drag_pixels(&mut harness, (32, 0), (63, 31));

    let after = document(&harness).sequence_by_name("walk").unwrap();
    let frames = &after.directions[0].frames;
    assert_eq!(frames.len(), count + 1, "{}", status(&harness));
    assert_eq!(frames[0], first);
    let (rect, new_origin) = cut(document(&harness), frames[1]);
    assert_eq!(
        rect,
        PixelRect {
            x: 32,
            y: 0,
            width: 32,
            height: 32
        }
    );
    assert_eq!(new_origin, origin, "the sequence's origin");
    assert_eq!(
        document(&harness).frame(frames[1]).unwrap().duration,
        document(&harness).frame(first).unwrap().duration
    );

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    let undone = document(&harness).sequence_by_name("walk").unwrap();
    assert_eq!(undone.directions[0].frames.len(), count);
}

#[test]
fn a_solarus_sheet_offers_whole_directions_not_frames_cut_anywhere() {
    let harness = sheet_editor();
    // A Solarus frame is the next cell of its direction's grid: a rectangle drawn anywhere
    // could not be written.
    assert!(
        harness
            .get_by_label("draw a frame")
            .accesskit_node()
            .is_disabled()
    );
    assert!(
        !harness
            .get_by_label("draw a direction")
            .accesskit_node()
            .is_disabled()
    );
}

#[test]
fn a_drag_over_grid_cells_becomes_a_whole_direction() {
    let mut harness = sheet_editor();
    set_cell(&mut harness, 24, 32);
    click(&mut harness, "draw a direction");
    // Two rows of four cells, dragged from inside the first cell to inside the last.
    drag_pixels(&mut harness, (3, 66), (4 * 24 - 5, 64 + 2 * 32 - 4));

    let walking = document(&harness).sequence_by_name("walking").unwrap();
    assert_eq!(walking.directions.len(), 5, "{}", status(&harness));
    let added = &walking.directions[4].frames;
    assert_eq!(added.len(), 8, "four columns, two rows");
    for (i, frame) in added.iter().enumerate() {
        let (rect, _) = cut(document(&harness), *frame);
        let expected = PixelRect {
            x: (i as i32 % 4) * 24,
            y: 64 + (i as i32 / 4) * 32,
            width: 24,
            height: 32,
        };
        assert_eq!(rect, expected, "frame {i}");
        assert_eq!(
            document(&harness).frame(*frame).unwrap().duration,
            FrameDuration::Millis(100)
        );
    }
}

#[test]
fn the_grid_is_detected_from_the_sheet() {
    let mut harness = sheet_editor();
    click(&mut harness, "Detect grid");
    let grid = harness.state().active_tab().unwrap().sheet.draw.grid;
    // The walking sheet holds 24 x 32 cells.
    assert_eq!(
        (grid.cell_width, grid.cell_height),
        (24, 32),
        "{}",
        status(&harness)
    );
    assert!(
        status(&harness).starts_with("Grid: 24 × 32"),
        "{}",
        status(&harness)
    );
    assert!(harness.state().active_tab().unwrap().sheet.draw.snap);
}

#[test]
fn the_grid_starts_at_the_current_frames_size_until_the_user_sets_it() {
    let mut harness = sheet_editor();
    // The hero's walking frames are 24 x 32: the grid starts there, not at a default.
    let grid = harness.state().active_tab().unwrap().sheet.draw.grid;
    assert_eq!((grid.cell_width, grid.cell_height), (24, 32));
    set_cell(&mut harness, 16, 16);
    gui_support::click_row(&mut harness, "stopped");
    let grid = harness.state().active_tab().unwrap().sheet.draw.grid;
    assert_eq!(
        (grid.cell_width, grid.cell_height),
        (16, 16),
        "a grid the user typed stays"
    );
}
