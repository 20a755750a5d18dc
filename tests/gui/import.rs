//! File > Import driven as a user drives it: PNG files become frames in natural name order in
//! a new sequence named after them, a sprite sheet is cut by its grid into the sequence on
//! show, dropped pictures open the same window, each import is one undo step, and saving a
//! Sprat project writes the imported pixels to its `images/` folder.

use crate::gui_support;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use image::{Rgba, RgbaImage};
use sprat::app::SpratApp;
use sprat::app::context::platform::{DialogOutcome, ScriptedDialogs};
use sprat::app::context::settings::Settings;
use sprat::formats::Format;
use sprat::model::{GraphicSource, ImageKind};
use std::path::{Path, PathBuf};

/// The demo project copied into a fresh folder and opened, "walk" selected; `file_lists`
/// answers the import dialogs in turn.
fn editor_on_demo_copy(
    name: &str,
    file_lists: Vec<Vec<PathBuf>>,
) -> (gui_support::TempDir, Harness<'static, SpratApp>) {
    let dir = gui_support::TempDir::new(&format!("import-{name}"));
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    for file in ["demo.sprat", "demo.png"] {
        std::fs::copy(demo.join(file), dir.0.join(file)).unwrap();
    }
    let mut harness = gui_support::editor_opening_with(
        &dir.0.join("demo.sprat"),
        &[],
        file_lists,
        egui::vec2(1280.0, 800.0),
    );
    gui_support::click_row(&mut harness, "walk");
    (dir, harness)
}

/// A `width` × `height` picture of one colour.
fn picture(path: &Path, width: u32, height: u32, colour: [u8; 3]) -> PathBuf {
    RgbaImage::from_pixel(width, height, Rgba([colour[0], colour[1], colour[2], 255]))
        .save(path)
        .unwrap();
    path.to_path_buf()
}

/// Waits until the Import window has read its files.
pub(crate) fn wait_for_read(harness: &mut Harness<'_, SpratApp>) {
    for _ in 0..500 {
        harness.step();
        if !harness.state().active_tab().unwrap().import.is_reading() {
            harness.run_steps(3);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the files were not read");
}

/// The image names the frames of `sequence` show, in order.
fn frame_images(harness: &Harness<'_, SpratApp>, sequence: &str) -> Vec<String> {
    let document = harness.state().active_document().unwrap().document();
    let sequence = document.sequence_by_name(sequence).unwrap();
    document
        .direction_frames(sequence, 0)
        .iter()
        .map(|frame| {
            let graphic = frame.elements[0].as_graphic().unwrap();
            let GraphicSource::Slice(slice) = graphic.source else {
                return String::new();
            };
            let image = document.slice(slice).unwrap().image;
            document.image(image).unwrap().path.clone()
        })
        .collect()
}

#[test]
fn png_files_become_a_new_sequence_in_natural_order_and_save_to_images() {
    let art = gui_support::TempDir::new("import-art");
    let files = vec![
        picture(&art.0.join("run_10.png"), 6, 8, [200, 0, 0]),
        picture(&art.0.join("run_2.png"), 6, 8, [0, 200, 0]),
        picture(&art.0.join("run_1.png"), 6, 8, [0, 0, 200]),
        art.0.join("run_3.png"),
    ];
    std::fs::write(&files[3], b"not a picture").unwrap();
    let (dir, mut harness) = editor_on_demo_copy("pngs", vec![files]);
    // From "idle", whose frames show 160 ms each.
    gui_support::click_row(&mut harness, "idle");
    let steps = gui_support::undo_steps(&harness);

    harness.key_press_modifiers(Modifiers::COMMAND, Key::I);
    wait_for_read(&mut harness);
    assert!(
        harness
            .query_by_label("4 files: run_1.png … run_10.png")
            .is_some()
    );
    assert!(
        harness.query_by_label_contains("run_3.png: ").is_some(),
        "named and skipped"
    );
    assert_eq!(harness.state().active_tab().unwrap().import.name, "run");
    harness
        .get_by_role_and_label(Role::Button, "Import")
        .click();
    harness.run_steps(3);

    assert_eq!(
        frame_images(&harness, "run"),
        ["run_1.png", "run_2.png", "run_10.png"]
    );
    // Timed as the frames of the sequence on show when the window opened.
    let document = harness.state().active_document().unwrap().document();
    let run = document.sequence_by_name("run").unwrap();
    for id in &run.directions[0].frames {
        assert_eq!(
            document.frame(*id).unwrap().duration,
            sprat::model::FrameDuration::Millis(160)
        );
    }
    assert!(gui_support::status(&harness).contains("Imported 3 frames into \"run\""));
    assert!(gui_support::status(&harness).contains("run_3.png"));
    assert_eq!(
        gui_support::undo_steps(&harness),
        steps + 1,
        "one undo step"
    );
    let document = harness.state().active_document().unwrap().document();
    let first = document
        .images
        .iter()
        .find(|i| i.path == "run_1.png")
        .unwrap();
    assert!(matches!(first.kind, ImageKind::Memory(_)));
    assert_eq!(
        first.resolved.as_deref(),
        Some(art.0.join("run_1.png").as_path()),
        "watched"
    );

    // Saving the project writes the pixels beside it and refers to them relatively.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    let saved = std::fs::read_to_string(dir.0.join("demo.sprat")).unwrap();
    assert!(saved.contains("images/run_1.png"), "{saved}");
    let written = image::open(dir.0.join("images/run_2.png"))
        .unwrap()
        .to_rgba8();
    assert_eq!(written.get_pixel(0, 0).0, [0, 200, 0, 255]);

    gui_support::undo(&mut harness);
    assert!(
        harness
            .state()
            .active_document()
            .unwrap()
            .document()
            .sequence_by_name("run")
            .is_none()
    );
}

#[test]
fn a_sheet_is_cut_by_its_grid_into_the_end_of_the_sequence_on_show() {
    let art = gui_support::TempDir::new("import-sheet");
    // Four 10x20 cells, each a figure with a transparent gutter around it.
    let mut sheet = RgbaImage::new(40, 20);
    for cell in 0..4u32 {
        for y in 2..18 {
            for x in 1..9 {
                sheet.put_pixel(cell * 10 + x, y, Rgba([40 * cell as u8, 100, 100, 255]));
            }
        }
    }
    let path = art.0.join("sheet.png");
    sheet.save(&path).unwrap();
    let (_dir, mut harness) = editor_on_demo_copy("sheet", vec![vec![path]]);
    let walk_before = frame_images(&harness, "walk").len();

    harness.key_press_modifiers(Modifiers::COMMAND, Key::I);
    wait_for_read(&mut harness);
    harness
        .get_by_role_and_label(Role::RadioButton, "Cut the sheet into a grid")
        .click();
    harness.run_steps(2);
    assert!(
        harness.query_by_label("4 frames").is_some(),
        "the grid is found"
    );
    harness
        .get_by_role_and_label(Role::SpinButton, "Frame count")
        .set_value_accesskit(3.0);
    harness.run_steps(2);
    assert!(harness.query_by_label("3 frames").is_some());
    harness
        .get_by_role_and_label(Role::RadioButton, "The end of \"walk\"")
        .click();
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::Button, "Import")
        .click();
    harness.run_steps(3);

    let document = harness.state().active_document().unwrap().document();
    let walk = document.sequence_by_name("walk").unwrap();
    let frames = document.direction_frames(walk, 0);
    assert_eq!(frames.len(), walk_before + 3);
    let last = frames.last().unwrap().elements[0].as_graphic().unwrap();
    let GraphicSource::Slice(slice) = last.source else {
        panic!("a slice of the sheet");
    };
    let rect = document.slice(slice).unwrap().rect;
    assert_eq!((rect.x, rect.y, rect.width, rect.height), (20, 0, 10, 20));
    assert!(
        !harness.state().active_tab().unwrap().import.shown,
        "the window closes"
    );
}

#[test]
fn pictures_dropped_on_a_document_open_the_import_window() {
    let art = gui_support::TempDir::new("import-drop");
    let one = picture(&art.0.join("jump_1.png"), 4, 4, [1, 2, 3]);
    let two = picture(&art.0.join("jump_2.png"), 4, 4, [3, 2, 1]);
    let (_dir, mut harness) = editor_on_demo_copy("drop", Vec::new());
    let tabs = harness.state().documents.len();
    for path in [one, two] {
        harness
            .input_mut()
            .dropped_files
            .push(gui_support::dropped(&path));
    }
    wait_for_read(&mut harness);
    let import = &harness.state().active_tab().unwrap().import;
    assert!(import.shown);
    assert_eq!(import.name, "jump");
    assert_eq!(
        harness.state().documents.len(),
        tabs,
        "not opened as documents"
    );
    harness
        .get_by_role_and_label(Role::Button, "Import")
        .click();
    harness.run_steps(3);
    assert_eq!(frame_images(&harness, "jump"), ["jump_1.png", "jump_2.png"]);
}

#[test]
fn an_aseprite_file_opens_with_its_tags_and_saves_as_a_project_with_its_frames() {
    let dir = gui_support::TempDir::new("import-aseprite");
    let source = crate::common::corpus().join("aseprite/layers_and_tags.aseprite");
    let path = dir.0.join("layers_and_tags.aseprite");
    crate::common::copy_writable(&source, &path);
    let mut harness = gui_support::editor_opening(&path, &[], egui::vec2(1280.0, 800.0));
    let document = harness
        .state()
        .active_document()
        .unwrap()
        .document()
        .clone();
    assert!(document.sequences().len() > 1, "tags become sequences");
    for sequence in document.sequences() {
        assert!(harness.query_by_label_contains(&sequence.name).is_some());
    }
    // Ctrl+S saves an Aseprite file in place (unedited: the same bytes); Save As a Sprat
    // project writes its frames beside the project.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&source).unwrap()
    );
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    harness.run_steps(3);
    assert!(harness.state().active_tab().unwrap().save_as.shown);
    harness
        .get_by_role_and_label(Role::ComboBox, "Format")
        .click();
    harness.run_steps(2);
    harness
        .get_by_label(sprat::formats::sprat::SpratFormat.name())
        .click();
    harness.run_steps(3);
    harness.get_by_role_and_label(Role::Button, "Save").click();
    harness.run_steps(3);
    let project = dir.0.join("layers_and_tags.sprat");
    assert!(project.is_file(), "{}", gui_support::status(&harness));
    let pictures = std::fs::read_dir(dir.0.join("images")).unwrap().count();
    assert!(pictures > 0, "the frames are written beside the project");
    let (loaded, _) = sprat::formats::registry()
        .open(&project, &sprat::formats::ReadContext::default())
        .unwrap();
    assert_eq!(
        loaded.document.sequences().len(),
        document.sequences().len()
    );
}

#[test]
fn an_aseprite_file_opens_with_a_graphic_per_layer_when_chosen_in_the_file_menu() {
    let path = crate::common::corpus().join("aseprite/layers_and_tags.aseprite");
    let mut dialogs = ScriptedDialogs::default();
    dialogs.answers.push_back(DialogOutcome::Chosen(path));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| SpratApp::new(Settings::default(), Box::new(dialogs)));
    harness.run_steps(2);
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness
        .get_by_label("Open Aseprite files with a graphic per layer")
        .click();
    harness.run_steps(2);
    assert!(harness.state().settings.aseprite_layers);
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    gui_support::open_next(&mut harness);
    let document = harness.state().active_document().unwrap().document();
    let most = document
        .frames
        .values()
        .map(|f| {
            f.elements
                .iter()
                .filter(|e| e.as_graphic().is_some())
                .count()
        })
        .max()
        .unwrap();
    assert!(most > 1, "frames show one graphic per layer");
    assert!(
        document
            .frames
            .values()
            .flat_map(|f| &f.elements)
            .all(|e| e.as_graphic().is_none() || !e.name.is_empty()),
        "each graphic is named after its layer"
    );
}

#[test]
fn without_a_file_dialog_the_typed_path_goes_to_the_import_field() {
    let art = gui_support::TempDir::new("import-typed");
    let file = picture(&art.0.join("wave_1.png"), 5, 7, [9, 99, 199]);
    let (_dir, mut harness) = editor_on_demo_copy("typed", Vec::new());
    let frame_before = harness
        .state()
        .active_document()
        .unwrap()
        .player
        .frame_index();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::I);
    harness.run_steps(3);
    // Letters that are also shortcuts (",", "." step frames) land in the field.
    harness.event(egui::Event::Text(file.display().to_string()));
    harness.run_steps(1);
    harness.key_press(Key::Enter);
    wait_for_read(&mut harness);
    assert_eq!(
        harness
            .state()
            .active_document()
            .unwrap()
            .player
            .frame_index(),
        frame_before
    );
    assert!(harness.query_by_label("1 file: wave_1.png").is_some());
    harness
        .get_by_role_and_label(Role::Button, "Import")
        .click();
    harness.run_steps(3);
    assert_eq!(frame_images(&harness, "wave"), ["wave_1.png"]);
}

/// The sheet's preview point over sheet pixel (`x`, `y`) (the middle of that pixel).
fn on_preview(harness: &Harness<'_, SpratApp>, sheet_width: u32, x: u32, y: u32) -> egui::Pos2 {
    let preview = harness.get_by_label("sprites").rect();
    let scale = preview.width() / sheet_width as f32;
    preview.min + egui::vec2((x as f32 + 0.5) * scale, (y as f32 + 0.5) * scale)
}

/// Clicks at `pos`, holding `modifiers`.
fn click_at(harness: &mut Harness<'_, SpratApp>, pos: egui::Pos2, modifiers: Modifiers) {
    harness.hover_at(pos);
    harness.event(egui::Event::ModifiersChanged(modifiers));
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers,
        });
    }
    harness.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    harness.run_steps(2);
}

/// The rectangles the frames of `sequence` show.
/// Presses the window's Import button and lets the import land.
fn click_import(harness: &mut Harness<'_, SpratApp>) {
    harness
        .get_by_role_and_label(Role::Button, "Import")
        .click();
    harness.run_steps(3);
}

/// Imports into the new sequence "zap" and checks its frames are `library`'s, as `sprat cut`
/// cuts them.
fn import_into_zap_gives(
    harness: &mut Harness<'_, SpratApp>,
    library: &sprat::assets::layout::SheetFrames,
) {
    click_import(harness);
    let expected: Vec<_> = library
        .rects
        .iter()
        .map(|r| (r.x, r.y, r.width, r.height))
        .collect();
    assert_eq!(frame_rects(harness, "zap"), expected);
}

fn frame_rects(harness: &Harness<'_, SpratApp>, sequence: &str) -> Vec<(i32, i32, u32, u32)> {
    let document = harness.state().active_document().unwrap().document();
    let sequence = document.sequence_by_name(sequence).unwrap();
    document
        .direction_frames(sequence, 0)
        .iter()
        .map(|frame| {
            let graphic = frame.elements[0].as_graphic().unwrap();
            let GraphicSource::Slice(slice) = graphic.source else {
                panic!("a slice of the sheet");
            };
            let r = document.slice(slice).unwrap().rect;
            (r.x, r.y, r.width, r.height)
        })
        .collect()
}

#[test]
fn separate_sprites_are_found_merged_on_the_preview_and_imported_as_one_sequence() {
    let art = gui_support::TempDir::new("import-sprites");
    // Five figures of different sizes, apart and not on a grid.
    let figures = [
        (2, 3, 10, 14),
        (20, 1, 7, 18),
        (33, 6, 12, 9),
        (60, 2, 5, 16),
        (75, 10, 9, 8),
    ];
    let mut sheet = RgbaImage::new(90, 24);
    for (n, &(x, y, w, h)) in figures.iter().enumerate() {
        for yy in y..y + h {
            for xx in x..x + w {
                sheet.put_pixel(xx, yy, Rgba([30 * n as u8, 90, 160, 255]));
            }
        }
    }
    let path = art.0.join("hero.png");
    sheet.save(&path).unwrap();
    let (_dir, mut harness) = editor_on_demo_copy("sprites", vec![vec![path]]);
    let steps = gui_support::undo_steps(&harness);

    harness.key_press_modifiers(Modifiers::COMMAND, Key::I);
    wait_for_read(&mut harness);
    harness
        .get_by_role_and_label(Role::RadioButton, "Separate sprites")
        .click();
    harness.run_steps(2);
    assert!(harness.query_by_label("5 frames").is_some(), "five found");

    // The second and third sprites (1 and 2) selected on the preview (Shift adds), merged.
    let second = on_preview(&harness, 90, 22, 5);
    click_at(&mut harness, second, Modifiers::NONE);
    assert!(harness.query_by_label("Sprite 1 selected").is_some());
    let third = on_preview(&harness, 90, 36, 8);
    click_at(&mut harness, third, Modifiers::SHIFT);
    assert!(harness.query_by_label("2 sprites selected").is_some());
    harness.get_by_role_and_label(Role::Button, "Merge").click();
    harness.run_steps(2);
    assert!(harness.query_by_label("4 frames").is_some());

    harness
        .get_by_role_and_label(Role::Button, "Import")
        .click();
    harness.run_steps(3);
    assert_eq!(
        frame_rects(&harness, "hero"),
        [
            (2, 3, 10, 14),
            (20, 1, 25, 18),
            (60, 2, 5, 16),
            (75, 10, 9, 8)
        ]
    );
    assert!(gui_support::status(&harness).contains("Imported 4 frames into \"hero\""));
    assert_eq!(
        gui_support::undo_steps(&harness),
        steps + 1,
        "one undo step"
    );
}

#[test]
fn separate_sprites_are_reordered_by_dragging_split_and_dropped_on_the_preview() {
    let art = gui_support::TempDir::new("import-reorder");
    // Three figures; the first has a shadow two pixels below it, joined at a gap of 2.
    let mut sheet = RgbaImage::new(60, 30);
    let mut fill = |x0: u32, y0: u32, w: u32, h: u32| {
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                sheet.put_pixel(x, y, Rgba([200, 50, 50, 255]));
            }
        }
    };
    fill(2, 2, 8, 12);
    fill(2, 16, 8, 2);
    fill(20, 4, 6, 10);
    fill(40, 3, 9, 11);
    let path = art.0.join("fish.png");
    sheet.save(&path).unwrap();
    let (_dir, mut harness) = editor_on_demo_copy("reorder", vec![vec![path]]);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::I);
    wait_for_read(&mut harness);
    harness
        .get_by_role_and_label(Role::RadioButton, "Separate sprites")
        .click();
    harness.run_steps(2);
    assert!(harness.query_by_label("4 frames").is_some(), "gap 1: apart");
    harness
        .get_by_role_and_label(Role::SpinButton, "Gap tolerance")
        .set_value_accesskit(2.0);
    harness.run_steps(2);
    assert!(
        harness.query_by_label("3 frames").is_some(),
        "gap 2: joined"
    );

    // The third dragged onto the first takes its place.
    let third = on_preview(&harness, 60, 44, 8);
    let first = on_preview(&harness, 60, 5, 5);
    gui_support::drag(&mut harness, third, first);
    assert!(harness.query_by_label("Sprite 0 selected").is_some());
    // The figure with its shadow, now second, split in two; the shadow dropped.
    let second = on_preview(&harness, 60, 5, 5);
    click_at(&mut harness, second, Modifiers::NONE);
    harness.get_by_role_and_label(Role::Button, "Split").click();
    harness.run_steps(2);
    assert!(harness.query_by_label("4 frames").is_some());
    let shadow = on_preview(&harness, 60, 4, 16);
    click_at(&mut harness, shadow, Modifiers::NONE);
    harness.get_by_role_and_label(Role::Button, "Drop").click();
    harness.run_steps(2);
    // The last moved one place earlier.
    let last = on_preview(&harness, 60, 22, 8);
    click_at(&mut harness, last, Modifiers::NONE);
    harness
        .get_by_role_and_label(Role::Button, "Move earlier")
        .click();
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::Button, "Import")
        .click();
    harness.run_steps(3);
    assert_eq!(
        frame_rects(&harness, "fish"),
        [(40, 3, 9, 11), (20, 4, 6, 10), (2, 2, 8, 12)]
    );
}

#[test]
fn a_sheet_with_nothing_opaque_says_so_and_cannot_be_imported() {
    let art = gui_support::TempDir::new("import-clear");
    let path = art.0.join("clear.png");
    RgbaImage::new(40, 30).save(&path).unwrap();
    let (_dir, mut harness) = editor_on_demo_copy("clear", vec![vec![path]]);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::I);
    wait_for_read(&mut harness);
    harness
        .get_by_role_and_label(Role::RadioButton, "Separate sprites")
        .click();
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("No sprite found: the sheet has no opaque pixels")
            .is_some()
    );
    assert!(harness.query_by_label("0 frames").is_some());
    assert!(
        harness
            .get_by_role_and_label(Role::Button, "Import")
            .accesskit_node()
            .is_disabled()
    );
}

#[test]
fn a_dropped_folder_of_sequences_becomes_one_sequence_per_name_in_one_undo_step() {
    let art = gui_support::TempDir::new("import-folder");
    let folder = art.0.join("hero");
    std::fs::create_dir_all(&folder).unwrap();
    for i in 0..8 {
        picture(&folder.join(format!("run_{i}.png")), 6, 9, [200, 20 * i, 0]);
    }
    for i in 0..6 {
        picture(
            &folder.join(format!("jump_{i}.png")),
            7,
            11,
            [0, 20 * i, 200],
        );
    }
    let (_dir, mut harness) = editor_on_demo_copy("folder", Vec::new());
    let steps = gui_support::undo_steps(&harness);
    harness
        .input_mut()
        .dropped_files
        .push(gui_support::dropped(&folder));
    wait_for_read(&mut harness);

    // The groups are listed first, each with its frame count.
    assert!(
        harness
            .query_by_label("2 groups, one new sequence each:")
            .is_some()
    );
    assert!(harness.query_by_label("6 frames").is_some());
    assert!(harness.query_by_label("8 frames").is_some());
    harness
        .get_by_role_and_label(Role::Button, "Import")
        .click();
    harness.run_steps(3);

    assert_eq!(frame_images(&harness, "jump").len(), 6);
    assert_eq!(
        frame_images(&harness, "run"),
        (0..8).map(|i| format!("run_{i}.png")).collect::<Vec<_>>()
    );
    assert!(
        gui_support::status(&harness).contains("Imported 14 frames into 2 new sequences"),
        "{}",
        gui_support::status(&harness)
    );
    assert_eq!(
        gui_support::undo_steps(&harness),
        steps + 1,
        "one undo step"
    );
    gui_support::undo(&mut harness);
    let document = harness.state().active_document().unwrap().document();
    assert!(document.sequence_by_name("run").is_none());
    assert!(document.sequence_by_name("jump").is_none());
}

#[test]
fn a_folder_of_sub_folders_chosen_in_the_window_names_each_sequence_after_its_folder() {
    let art = gui_support::TempDir::new("import-subfolders");
    for (name, count) in [("rest", 2u8), ("lunge", 3)] {
        let folder = art.0.join("knight").join(name);
        std::fs::create_dir_all(&folder).unwrap();
        for i in 0..count {
            picture(&folder.join(format!("{i:02}.png")), 5, 5, [i, 0, 0]);
        }
    }
    let dir = gui_support::TempDir::new("import-subfolders-doc");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    for file in ["demo.sprat", "demo.png"] {
        std::fs::copy(demo.join(file), dir.0.join(file)).unwrap();
    }
    let mut harness = gui_support::editor_opening_with(
        &dir.0.join("demo.sprat"),
        &[art.0.join("knight")],
        vec![Vec::new()],
        egui::vec2(1280.0, 800.0),
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::I);
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::Button, "Add folder…")
        .click();
    wait_for_read(&mut harness);
    assert!(harness.query_by_label("3 frames").is_some());
    harness
        .get_by_role_and_label(Role::Button, "Import")
        .click();
    harness.run_steps(3);
    assert_eq!(
        frame_images(&harness, "lunge"),
        ["00.png", "01.png", "02.png"]
    );
    assert_eq!(frame_images(&harness, "rest").len(), 2);
}

/// A row of five cells of 40 x 48, each frame of a lightning effect drawn in three strokes
/// apart from each other (as effects are), some cells' strokes placed differently.
fn effect_sheet() -> RgbaImage {
    let mut sheet = RgbaImage::new(200, 48);
    for cell in 0..5u32 {
        for stroke in 0..3u32 {
            let (x0, y0) = (cell * 40 + 4 + stroke * 11, 4 + (cell + stroke) % 3 * 6);
            for step in 0..(20 + cell * 3) {
                let x = x0 + (step / 4) % 2;
                sheet.put_pixel(x, y0 + step, Rgba([255, 240, 120, 255]));
            }
        }
    }
    sheet
}

#[test]
fn a_sheet_opens_cut_automatically_as_sprat_cut_cuts_it_with_its_lattice_shown() {
    let art = gui_support::TempDir::new("import-automatic");
    let sheet = effect_sheet();
    let path = art.0.join("zap.png");
    sheet.save(&path).unwrap();
    let library = sprat::assets::layout::cut_frames(
        &sheet,
        sprat::assets::sprites::SpriteOptions::DEFAULT,
        sprat::assets::layout::CutMethod::Automatic,
    );
    assert_eq!(library.rects.len(), 5, "one frame a cell");
    let (_dir, mut harness) = editor_on_demo_copy("automatic", vec![vec![path]]);

    harness.key_press_modifiers(Modifiers::COMMAND, Key::I);
    wait_for_read(&mut harness);
    // Automatic is chosen, and says the lattice in words.
    assert_eq!(
        harness.state().active_tab().unwrap().import.frames_from,
        sprat::app::import::dialog::FramesFrom::Automatic
    );
    assert!(harness.query_by_label("5 frames").is_some());
    assert!(
        harness
            .query_by_label_contains("Layout: A lattice of 5 x 1 cells, pitch 40x48")
            .is_some()
    );
    // The pieces are many more than the frames: the window says so, and what to do.
    assert!(
        harness
            .query_by_label_contains("if the pieces are frames themselves, choose Separate sprites")
            .is_some()
    );
    import_into_zap_gives(&mut harness, &library);
}

#[test]
fn separate_sprites_in_the_window_are_those_of_sprat_cut_sprites_with_its_doubt() {
    let art = gui_support::TempDir::new("import-doubt");
    let sheet = effect_sheet();
    let path = art.0.join("zap.png");
    sheet.save(&path).unwrap();
    let library = sprat::assets::layout::cut_frames(
        &sheet,
        sprat::assets::sprites::SpriteOptions::DEFAULT,
        sprat::assets::layout::CutMethod::Sprites,
    );
    let (_dir, mut harness) = editor_on_demo_copy("doubt", vec![vec![path]]);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::I);
    wait_for_read(&mut harness);
    harness
        .get_by_role_and_label(Role::RadioButton, "Separate sprites")
        .click();
    harness.run_steps(2);
    let count = library.rects.len();
    assert!(count >= 10, "the strokes apart: {count}");
    assert!(harness.query_by_label(&format!("{count} frames")).is_some());
    // Separate sprites on a sheet that reads as a lattice: doubted, with the window's fix.
    assert!(
        harness
            .query_by_label_contains("to cut by it, choose Automatic, or a grid of")
            .is_some()
    );
    import_into_zap_gives(&mut harness, &library);
}

#[test]
fn a_sheet_with_its_atlas_json_is_imported_with_the_frames_it_names() {
    let art = gui_support::TempDir::new("import-atlas-data");
    let sheet = effect_sheet();
    let path = art.0.join("zap.png");
    sheet.save(&path).unwrap();
    // Two frames, each two cells wide, named in the atlas's JSON.
    let json = r#"{ "frames": [
        { "filename": "zap 0", "frame": { "x": 0, "y": 0, "w": 80, "h": 48 }, "duration": 100 },
        { "filename": "zap 1", "frame": { "x": 80, "y": 0, "w": 80, "h": 48 }, "duration": 100 }
      ], "meta": { "app": "https://www.aseprite.org/", "image": "zap.png",
        "size": { "w": 200, "h": 48 }, "scale": "1" } }"#;
    std::fs::write(art.0.join("zap.json"), json).unwrap();
    let (_dir, mut harness) = editor_on_demo_copy("atlas-data", vec![vec![path]]);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::I);
    wait_for_read(&mut harness);
    assert!(
        harness
            .query_by_label_contains("Read 2 frames from zap.json")
            .is_some()
    );
    assert!(harness.query_by_label("2 frames").is_some());
    click_import(&mut harness);
    assert_eq!(
        frame_rects(&harness, "zap"),
        [(0, 0, 80, 48), (80, 0, 80, 48)]
    );
}
