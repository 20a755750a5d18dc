//! The onion skin and the pinned reference as a user sets them from the View menu, checked
//! on the pixels of the editor rendered on the CPU (wgpu through Mesa).

use crate::gui_support;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;
use sprat::app::context::platform::{DialogOutcome, ScriptedDialogs};
use sprat::app::context::settings::{Background, OnionStyle, Settings};
use std::path::{Path, PathBuf};

/// The editor, rendered by wgpu, on a black canvas without grid, cross or overlay (so the
/// only flat colours are what the test draws), with `files` opened in turn; "walk" selected.
fn editor_on(files: &[PathBuf]) -> Harness<'static, SpratApp> {
    let mut dialogs = ScriptedDialogs::default();
    for file in files {
        dialogs
            .answers
            .push_back(DialogOutcome::Chosen(file.clone()));
    }
    let mut settings = Settings::default();
    settings.view.background = Background::Colour([0, 0, 0]);
    settings.view.pixel_grid = false;
    settings.view.axis_cross = false;
    settings.view.overlay = false;
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .wgpu()
        .build_eframe(move |_| SpratApp::new(settings, Box::new(dialogs)));
    gui_support::open_next(&mut harness);
    gui_support::click_row(&mut harness, "walk");
    harness
}

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat")
}

/// How many pixels of the rendered editor are `colour` at any brightness (the other two
/// channels 0): the onion skin's silhouettes over the black canvas.
fn pixels_of(harness: &mut Harness<'_, SpratApp>, colour: [bool; 3]) -> usize {
    let image = harness.render().expect("the editor renders on the CPU");
    image
        .pixels()
        .filter(|p| (0..3).all(|c| if colour[c] { p.0[c] >= 40 } else { p.0[c] == 0 }))
        .count()
}

/// Clicks `item` of the View menu (labels carry the shortcut after a space).
fn view_menu(harness: &mut Harness<'_, SpratApp>, item: &str) {
    harness.get_by_label("View").click();
    harness.run_steps(2);
    harness.get_by_label(item).click();
    harness.run_steps(2);
}

/// Opens View > Onion skin settings.
fn onion_settings(harness: &mut Harness<'_, SpratApp>) {
    harness.get_by_label("View").click();
    harness.run_steps(2);
    harness.get_by_label("Onion skin settings").click();
    harness.run_steps(2);
}

#[test]
fn the_onion_skin_draws_silhouettes_in_two_colours_below_or_above_the_frame() {
    let mut harness = editor_on(&[demo()]);
    harness.key_press(egui::Key::Period);
    harness.run_steps(2);
    {
        let view = &mut harness.state_mut().settings.view;
        view.onion_before_colour = [255, 0, 0];
        view.onion_after_colour = [0, 0, 255];
    }
    harness.run_steps(2);
    let (red, blue) = ([true, false, false], [false, false, true]);
    let red_before = pixels_of(&mut harness, red);
    let blue_before = pixels_of(&mut harness, blue);

    view_menu(&mut harness, "Onion skin O");
    assert!(harness.state().settings.view.onion_skin);
    onion_settings(&mut harness);
    harness
        .get_by_role_and_label(Role::RadioButton, "Silhouettes")
        .click();
    harness.run_steps(2);
    if harness.query_by_label("frames before and after").is_none() {
        // The click closed the menu.
        onion_settings(&mut harness);
    }
    harness
        .get_by_role_and_label(Role::Slider, "frames before and after")
        .set_value_accesskit(5.0);
    harness.run_steps(2);
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    let view = &harness.state().settings.view;
    assert_eq!(view.onion_style, OnionStyle::Silhouettes);
    assert_eq!(view.onion_frames, 5);
    assert!(!view.onion_above);

    // The frame before in red, the frames after in blue, flat, where the frame on show does
    // not cover them.
    let red_below = pixels_of(&mut harness, red);
    let blue_below = pixels_of(&mut harness, blue);
    assert!(red_below > red_before + 50, "{red_before} -> {red_below}");
    assert!(
        blue_below > blue_before + 50,
        "{blue_before} -> {blue_below}"
    );

    // Above the frame, they tint it too.
    let below = harness.render().unwrap();
    harness.state_mut().settings.view.onion_above = true;
    harness.run_steps(2);
    let above = harness.render().unwrap();
    let tinted = below
        .pixels()
        .zip(above.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(tinted > 200, "{tinted} pixels changed");
}

#[test]
fn a_frame_pinned_in_one_tab_shows_faintly_under_the_canvas_of_another_until_unpinned() {
    let (_dir, showcase) = gui_support::showcase_file("onion", "pin");
    let mut harness = editor_on(&[demo(), showcase]);
    assert!(harness.state().reference.is_none());
    view_menu(&mut harness, "Pin frame as reference ");
    let label = harness.state().reference.as_ref().unwrap().label.clone();
    assert!(label.starts_with("walk, frame 1 of "), "{label}");
    assert!(label.ends_with("(demo.sprat)"), "{label}");
    assert!(gui_support::status(&harness).contains("Pinned walk, frame 1"));

    gui_support::open_next(&mut harness);
    assert_eq!(harness.state().documents.len(), 2);
    let pinned = harness.render().unwrap();
    assert!(
        harness
            .query_by_label_contains("Reference: walk, frame 1")
            .is_none(),
        "painted, not a widget"
    );
    view_menu(&mut harness, "Unpin reference ");
    assert!(harness.state().reference.is_none());
    let unpinned = harness.render().unwrap();
    let differing = pinned
        .pixels()
        .zip(unpinned.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(differing > 200, "the reference showed: {differing} pixels");
}

#[test]
fn a_frames_context_menu_pins_that_frame() {
    let mut harness = editor_on(&[demo()]);
    harness.get_by_label("frame 2").click_secondary();
    harness.run_steps(2);
    harness.get_by_label("Pin as reference ").click();
    harness.run_steps(2);
    let label = harness.state().reference.as_ref().unwrap().label.clone();
    assert!(label.starts_with("walk, frame 3 of "), "{label}");
    // Nothing is pinned from a frame that draws nothing: a sentence says why.
    harness.state_mut().reference = None;
    harness.key_press(egui::Key::Insert);
    harness.run_steps(2);
    view_menu(&mut harness, "Pin frame as reference ");
    assert!(harness.state().reference.is_none());
    assert!(
        gui_support::status(&harness).contains("draws nothing"),
        "{}",
        gui_support::status(&harness)
    );
}
