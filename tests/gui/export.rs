//! File > Export driven as a user drives it: every format from the window, this sequence or
//! all of them, the question before replacing files, and the choices the tab remembers.

use crate::gui_support;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;
use sprat::formats::{ReadContext, registry};
use std::path::{Path, PathBuf};

/// The demo project copied into a fresh folder, opened in the editor with "walk" selected.
fn editor_on_demo_copy(name: &str) -> (gui_support::TempDir, PathBuf, Harness<'static, SpratApp>) {
    let dir = gui_support::TempDir::new(&format!("export-{name}"));
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    for file in ["demo.sprat", "demo.png"] {
        std::fs::copy(demo.join(file), dir.0.join(file)).unwrap();
    }
    let path = dir.0.join("demo.sprat");
    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1280.0, 800.0));
    gui_support::click_row(&mut harness, "walk");
    (dir, path, harness)
}

/// Ctrl+E, then the format named `label` from the Format list.
fn choose_format(harness: &mut Harness<'_, SpratApp>, label: &str) {
    if !harness.state().active_tab().unwrap().export.shown {
        harness.key_press_modifiers(Modifiers::COMMAND, Key::E);
        harness.run_steps(2);
    }
    harness.get_by_label("Format").click();
    harness.run_steps(2);
    harness.get_by_role_and_label(Role::Button, label).click();
    harness.run_steps(2);
}

/// Replaces the text of the window's File field with `path`, as typed.
fn name_the_file(harness: &mut Harness<'_, SpratApp>, path: &str) {
    harness
        .get_by_role_and_label(Role::TextInput, "File")
        .focus();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness
        .get_by_role_and_label(Role::TextInput, "File")
        .type_text(path);
    harness.run_steps(2);
}

/// Clicks Export and waits for the export's thread to end.
fn export(harness: &mut Harness<'_, SpratApp>) {
    harness
        .get_by_role_and_label(Role::Button, "Export")
        .click();
    wait_for_export(harness);
}

fn wait_for_export(harness: &mut Harness<'_, SpratApp>) {
    harness.run_steps(2);
    for _ in 0..1000 {
        if harness
            .state()
            .active_tab()
            .unwrap()
            .export
            .running
            .is_none()
        {
            harness.run_steps(2);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        harness.step();
    }
    panic!("the export did not end");
}

fn frame_count(harness: &Harness<'_, SpratApp>, sequence: &str) -> usize {
    let doc = harness.state().active_document().unwrap();
    let document = doc.document();
    let sequence = document.sequence_by_name(sequence).unwrap();
    sequence.directions.iter().map(|d| d.frames.len()).sum()
}

#[test]
fn each_format_is_exported_from_the_window_and_the_files_read_back() {
    let (dir, _path, mut harness) = editor_on_demo_copy("formats");
    let walk_frames = frame_count(&harness, "walk");
    let demo_png = std::fs::read(dir.0.join("demo.png")).unwrap();

    // PNG frames of the sequence on show: one file per frame, numbered.
    choose_format(&mut harness, "PNG frames");
    export(&mut harness);
    assert!(
        gui_support::status(&harness).starts_with(&format!("Exported {walk_frames} files")),
        "{}",
        gui_support::status(&harness)
    );
    for i in 0..walk_frames {
        let frame = image::open(dir.0.join(format!("walk_{i}.png"))).unwrap();
        assert!(frame.width() > 1 && frame.height() > 1);
    }
    assert!(
        !harness.state().active_tab().unwrap().export.shown,
        "success closes the window"
    );

    // A strip, a GIF and an APNG of the same sequence.
    choose_format(&mut harness, "PNG strip");
    export(&mut harness);
    let strip = image::open(dir.0.join("walk.png")).unwrap();
    let one = image::open(dir.0.join("walk_0.png")).unwrap();
    assert_eq!(strip.width(), one.width() * walk_frames as u32);

    choose_format(&mut harness, "Animated GIF");
    export(&mut harness);
    let gif = std::fs::read(dir.0.join("walk.gif")).unwrap();
    assert!(gif.starts_with(b"GIF89a"));

    choose_format(&mut harness, "Animated PNG (APNG)");
    harness
        .get_by_role_and_label(Role::Button, "Export")
        .click();
    harness.run_steps(2);
    // walk.png is the strip written above: the window asks before replacing it.
    assert!(harness.query_by_label("Replace them?").is_some());
    harness
        .get_by_role_and_label(Role::Button, "Replace")
        .click();
    wait_for_export(&mut harness);
    let apng = std::fs::read(dir.0.join("walk.png")).unwrap();
    assert!(apng.windows(4).any(|w| w == b"acTL"), "an animated PNG");

    // The atlas with its JSON reads back with every sequence.
    choose_format(&mut harness, "Atlas + JSON (Aseprite layout)");
    harness
        .get_by_role_and_label(Role::RadioButton, "All sequences")
        .click();
    harness.run_steps(2);
    export(&mut harness);
    // The file takes the document's name for every sequence.
    let json = dir.0.join("demo.json");
    let (loaded, _) = registry()
        .open(&json, &ReadContext::default())
        .expect("the atlas reads back");
    let names = |set: &sprat::model::AnimationSet| -> Vec<String> {
        set.sequences().iter().map(|s| s.name.clone()).collect()
    };
    let document = harness
        .state()
        .active_document()
        .unwrap()
        .document()
        .clone();
    assert_eq!(names(&loaded.document), names(&document));
    assert_eq!(
        std::fs::read(dir.0.join("demo.png")).unwrap(),
        demo_png,
        "the document's image is never replaced"
    );

    choose_format(&mut harness, "Godot 4 SpriteFrames");
    export(&mut harness);
    let tres = std::fs::read_to_string(dir.0.join("demo.tres")).unwrap();
    assert!(
        tres.starts_with("[gd_resource type=\"SpriteFrames\""),
        "{tres}"
    );
    for name in names(&document) {
        assert!(tres.contains(&format!("&\"{name}\"")), "{name} in {tres}");
    }
}

#[test]
fn the_window_remembers_the_last_choices_of_each_tab() {
    let (_dir, _path, mut harness) = editor_on_demo_copy("remembers");
    choose_format(&mut harness, "Animated GIF");
    harness
        .get_by_role_and_label(Role::RadioButton, "All sequences")
        .click();
    harness.run_steps(2);
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    assert!(!harness.state().active_tab().unwrap().export.shown);

    harness.key_press_modifiers(Modifiers::COMMAND, Key::E);
    harness.run_steps(2);
    let choices = harness
        .state()
        .active_tab()
        .unwrap()
        .export
        .choices
        .clone()
        .unwrap();
    assert_eq!(choices.kind, sprat::export::job::ExportKind::Gif);
    assert!(choices.all_sequences);
    assert!(choices.path.ends_with("demo.gif"), "{}", choices.path);
    assert!(harness.state().active_tab().unwrap().export.shown);
    harness.key_press(Key::Escape);
    harness.run_steps(2);

    // Another tab starts from the defaults; the first keeps its own.
    let kind_of_tab = |h: &mut Harness<'_, SpratApp>| {
        h.key_press_modifiers(Modifiers::COMMAND, Key::E);
        h.run_steps(2);
        let kind = h
            .state()
            .active_tab()
            .unwrap()
            .export
            .choices
            .clone()
            .unwrap()
            .kind;
        h.key_press(Key::Escape);
        h.run_steps(2);
        kind
    };
    harness.state_mut().open_demo();
    harness.run_steps(2);
    assert_eq!(harness.state().documents.len(), 2);
    assert_eq!(
        kind_of_tab(&mut harness),
        sprat::export::job::ExportKind::Frames
    );
    harness.key_press_modifiers(Modifiers::CTRL, Key::Tab);
    harness.run_steps(2);
    assert_eq!(
        kind_of_tab(&mut harness),
        sprat::export::job::ExportKind::Gif
    );
}

#[test]
fn an_export_into_a_missing_folder_says_so_and_writes_nothing() {
    let (dir, _path, mut harness) = editor_on_demo_copy("missing-folder");
    choose_format(&mut harness, "PNG strip");
    name_the_file(
        &mut harness,
        &dir.0.join("nowhere/strip.png").display().to_string(),
    );
    export(&mut harness);
    let state = &harness.state().active_tab().unwrap().export;
    assert!(state.shown, "the window stays");
    let failure = state.failure.clone().unwrap_or_default();
    assert!(failure.contains("does not exist"), "{failure}");
    assert!(!dir.0.join("nowhere").exists());
}

#[test]
fn a_name_the_document_reads_is_refused_before_anything_is_drawn() {
    let (dir, _path, mut harness) = editor_on_demo_copy("own-image");
    let before = std::fs::read(dir.0.join("demo.png")).unwrap();
    choose_format(&mut harness, "PNG strip");
    name_the_file(&mut harness, &dir.0.join("demo.png").display().to_string());
    harness
        .get_by_role_and_label(Role::Button, "Export")
        .click();
    harness.run_steps(2);
    let state = &harness.state().active_tab().unwrap().export;
    assert!(state.running.is_none() && state.confirm_replace.is_none());
    let failure = state.failure.clone().unwrap_or_default();
    assert!(failure.contains("a file this document reads"), "{failure}");
    assert_eq!(std::fs::read(dir.0.join("demo.png")).unwrap(), before);
}

#[test]
fn cancel_stops_a_long_export_and_leaves_no_file() {
    let dir = gui_support::TempDir::new("export-cancel");
    for name in ["kfm.def", "kfm.air", "kfm.sff"] {
        crate::common::copy_writable(
            &crate::common::corpus().join("mugen/kfm").join(name),
            &dir.0.join(name),
        );
    }
    let mut harness =
        gui_support::editor_opening(&dir.0.join("kfm.def"), &[], egui::vec2(1280.0, 800.0));
    // Every action of KFM, 16 times larger, as animated PNGs: seconds of work.
    choose_format(&mut harness, "Animated PNG (APNG)");
    harness
        .get_by_role_and_label(Role::RadioButton, "All sequences")
        .click();
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::SpinButton, "Scale")
        .set_value_accesskit(16.0);
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::Button, "Export")
        .click();
    harness.run_steps(2);
    assert!(
        harness
            .state()
            .active_tab()
            .unwrap()
            .export
            .running
            .is_some()
    );
    // The progress window shows from its second frame (egui sizes a new window first).
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::Button, "Cancel")
        .click();
    wait_for_export(&mut harness);
    let export = &harness.state().active_tab().unwrap().export;
    assert!(
        export
            .failure
            .as_deref()
            .unwrap_or_default()
            .contains("cancelled"),
        "{:?}",
        export.failure
    );
    let written: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".png"))
        .collect();
    assert!(written.is_empty(), "{written:?}");
}

#[test]
fn the_frame_names_typed_in_the_window_name_the_atlas_frames() {
    let (dir, _path, mut harness) = editor_on_demo_copy("frame-names");
    choose_format(&mut harness, "Atlas + JSON (Aseprite layout)");
    harness
        .get_by_role_and_label(Role::TextInput, "Frame names")
        .focus();
    harness.run();
    harness
        .get_by_role_and_label(Role::TextInput, "Frame names")
        .type_text("{tag}-{tagframe00}");
    harness.run_steps(2);
    export(&mut harness);
    let json = std::fs::read(dir.0.join("walk.json")).unwrap();
    let sheet = sprat::formats::atlas_json::schema::parse(&json).unwrap();
    let names: Vec<String> = sheet.frames.list.into_iter().map(|f| f.filename).collect();
    let walk_frames = frame_count(&harness, "walk");
    let expected: Vec<String> = (0..walk_frames).map(|i| format!("walk-{i:02}")).collect();
    assert_eq!(names, expected);
}
