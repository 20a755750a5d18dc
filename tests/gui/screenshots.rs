//! Pictures of the real editor, rendered on the CPU through wgpu (Mesa) by egui_kittest.
//!
//! Regenerate `screenshots/*.png` with:
//!
//! ```text
//! SPRAT_SCREENSHOTS=1 cargo test --test gui screenshots
//! ```
//!
//! Without the variable the same pictures are rendered and checked (the overlay colours must
//! be on screen) but nothing is written.

use crate::common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;
use sprat::app::context::platform::ScriptedDialogs;
use sprat::app::context::settings::Settings;
use std::path::Path;

fn editor(
    setup: impl FnOnce(&mut SpratApp, &egui::Context) + 'static,
) -> Harness<'static, SpratApp> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .wgpu()
        .build_eframe(move |cc| {
            let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
            setup(&mut app, &cc.egui_ctx);
            app
        });
    for _ in 0..400 {
        harness.step();
        if !harness.state().is_loading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // The status bar's counts and the diagnostics panel are `sprat check`'s once the
    // background check has ended.
    if harness.state().active_document().is_some() {
        crate::gui_support::wait_for_check(&mut harness);
    }
    harness.run_steps(4);
    harness
}

/// Renders the editor, checks some colour is on screen, and writes the picture when asked.
fn picture(harness: &mut Harness<'_, SpratApp>, name: &str, must_show: [u8; 3]) {
    // The timeline's thumbnails are made on a worker: the picture shows them all.
    for _ in 0..1000 {
        if !harness.state().textures.thumbnails_pending() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
        harness.step();
    }
    harness.step();
    let image = harness.render().expect("the editor renders on the CPU");
    let close =
        |p: &image::Rgba<u8>| (0..3).all(|c| (p.0[c] as i32 - must_show[c] as i32).abs() <= 24);
    assert!(
        image.pixels().any(close),
        "{name}: no pixel near {must_show:?} on screen"
    );
    if std::env::var_os("SPRAT_SCREENSHOTS").is_some() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        image.save(dir.join(format!("{name}.png"))).unwrap();
    }
}

#[test]
fn kfm_with_its_collision_boxes() {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    // The demo waits in a second tab, so the picture shows the tab bar.
    let mut harness = editor(move |app, ctx| {
        app.open_demo();
        app.open_path(ctx, path);
    });
    assert_eq!(
        harness.state().active_document().unwrap().format_id(),
        "mugen-def"
    );
    // Action 200, a punch: a hit box (red) on its third frame.
    // The inspector has text fields too: Ctrl+F puts the cursor in the tree's filter.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F);
    harness.run_steps(2);
    harness
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.is_focused())
        .expect("the focused filter")
        .type_text("200");
    harness.run_steps(2);
    harness.get_by_label("200 · Stand Light Punch").click();
    harness.run_steps(2);
    {
        let doc = harness.state_mut().active_document_mut().unwrap();
        doc.select_frame(2);
    }
    harness
        .state_mut()
        .active_tab_mut()
        .unwrap()
        .canvas
        .fit_requested = true;
    harness.run_steps(3);
    picture(
        &mut harness,
        "kfm-boxes",
        sprat::render::overlay::HIT_COLOUR,
    );
}

#[test]
fn a_solarus_sprite_of_our_own_with_its_source_sheet() {
    // Our demo converted to a Solarus 1.x sprite by the command line, its sheet beside it
    // (Solarus names images from the quest's sprites/ folder): art we may publish.
    // A folder of a fixed name under the build's own, so the status bar names the file the
    // same way on every machine ("target/tmp/quest/sprites/demo.dat").
    let quest = Path::new(env!("CARGO_TARGET_TMPDIR")).join("quest");
    let _ = std::fs::remove_dir_all(&quest);
    std::fs::create_dir_all(&quest).unwrap();
    let sprites = quest.join("sprites");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    let converted = std::process::Command::new(env!("CARGO_BIN_EXE_sprat"))
        .arg("convert")
        .arg(demo.join("demo.sprat"))
        .arg(sprites.join("demo.dat"))
        .args(["--to", "solarus-lua", "--allow-loss"])
        .output()
        .unwrap();
    assert!(
        converted.status.success(),
        "{}",
        String::from_utf8_lossy(&converted.stderr)
    );
    if !sprites.join("demo.png").exists() {
        std::fs::copy(demo.join("demo.png"), sprites.join("demo.png")).unwrap();
    }
    let path = sprites.join("demo.dat");
    let mut harness = editor(move |app, ctx| {
        app.settings.layout.sheet = true;
        app.centre = sprat::app::CentreTab::Sheet;
        app.open_path(ctx, path);
    });
    assert_eq!(
        harness.state().active_document().unwrap().format_id(),
        "solarus-lua"
    );
    harness.get_by_label("walk").click();
    harness.run_steps(3);
    // Slices the current frame uses are outlined in yellow on the sheet.
    // The sheet outlines the slices the sequence uses in yellow.
    picture(&mut harness, "solarus-demo-sheet", [255, 210, 40]);
}

#[test]
fn the_demo_with_attachment_points() {
    let mut harness = editor(|app, _| app.open_demo());
    harness.get_by_label("attack").click();
    harness.run_steps(2);
    harness
        .state_mut()
        .active_document_mut()
        .unwrap()
        .select_frame(1);
    harness
        .state_mut()
        .active_tab_mut()
        .unwrap()
        .canvas
        .fit_requested = true;
    harness.run_steps(3);
    // Attachment points are drawn in yellow with their names.
    picture(
        &mut harness,
        "demo-points",
        sprat::render::overlay::POINT_COLOUR,
    );
}

#[test]
fn importing_the_demo_sheet_cut_by_its_grid() {
    // The demo's own sheet: the window finds its grid and outlines the cells in yellow.
    let sheet = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.png");
    let mut harness = editor(move |app, _| {
        app.open_demo();
        let id = app.active_tab_id();
        let platform = app.platform.as_ref();
        if let Some(tab) = app.documents.iter_mut().find(|t| Some(t.id) == id) {
            tab.import.add_files([sheet], platform, || {});
        }
    });
    for _ in 0..400 {
        harness.step();
        if !harness.state().active_tab().unwrap().import.is_reading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    harness.run_steps(4);
    harness
        .get_by_role_and_label(
            egui::accesskit::Role::RadioButton,
            "Cut the sheet into a grid",
        )
        .click();
    harness.run_steps(4);
    picture(&mut harness, "import-sheet", [255, 200, 0]);
}

#[test]
fn exporting_every_sequence_as_an_atlas() {
    let mut harness = editor(|app, _| app.open_demo());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
    harness.run_steps(2);
    harness.get_by_label("Format").click();
    harness.run_steps(2);
    harness
        .get_by_role_and_label(
            egui::accesskit::Role::Button,
            "Atlas + JSON (Aseprite layout)",
        )
        .click();
    harness.run_steps(2);
    harness
        .get_by_role_and_label(egui::accesskit::Role::RadioButton, "All sequences")
        .click();
    harness.run_steps(3);
    // The demo's blue fish knight is on the canvas behind the window.
    picture(&mut harness, "export-atlas", [66, 135, 245]);
}

#[test]
fn kfm_sprites_with_a_ghost_to_align_the_axis() {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    let mut harness = editor(move |app, ctx| {
        app.centre = sprat::app::CentreTab::Sprites;
        app.open_path(ctx, path);
    });
    harness.run_steps(2);
    let tab = harness.state_mut().active_tab_mut().unwrap();
    tab.sprites.filter = "20".to_string();
    tab.sprites.selected = vec![(20, 3)];
    tab.sprites.ghost = Some((20, 0));
    harness.run_steps(4);
    assert!(harness.query_by_label("Sprite 20,3").is_some());
    // The axis cross is magenta.
    picture(&mut harness, "kfm-sprites", [255, 80, 200]);
}

#[test]
fn retiming_the_demo_walk_by_a_factor() {
    let mut harness = editor(|app, _| app.open_demo());
    harness.get_by_label("walk").click();
    harness.run_steps(2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::T);
    harness.run_steps(2);
    {
        let retime = &mut harness.state_mut().active_tab_mut().unwrap().retime;
        retime.scope = sprat::app::context::frames_window::WindowScope::ThisSequence;
        retime.mode = sprat::app::retime::RetimeMode::Scale;
        retime.factor = "2/3".to_string();
    }
    // The pointer away from the window's text.
    harness.hover_at(egui::pos2(1200.0, 760.0));
    harness.run_steps(3);
    assert!(
        harness
            .query_by_label_contains("Largest rounding error")
            .is_some()
    );
    // The demo's blue fish knight is on the canvas beside the window.
    picture(&mut harness, "retime-window", [66, 135, 245]);
}

#[test]
fn aligning_the_demo_attack_with_its_ghost() {
    let mut harness = editor(|app, _| app.open_demo());
    harness.get_by_label("attack").click();
    harness.run_steps(2);
    harness
        .state_mut()
        .active_document_mut()
        .unwrap()
        .select_frame(2);
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::A,
    );
    harness.run_steps(2);
    {
        let tab = harness.state_mut().active_tab_mut().unwrap();
        tab.align.scope = sprat::app::context::frames_window::WindowScope::ThisSequence;
        tab.align.anchor = sprat::tools::anchor::Anchor::Centre;
        // Zoomed out enough to see the frames where they go, below where they are.
        tab.canvas.fit_requested = false;
        tab.canvas.zoom = 7.0;
        tab.canvas.pan = egui::vec2(0.0, 40.0);
    }
    harness.hover_at(egui::pos2(1200.0, 760.0));
    harness.run_steps(4);
    assert!(harness.state().active_tab().unwrap().canvas.ghost.is_some());
    // The ghost's outline of the frame on show is light blue.
    picture(&mut harness, "align-window", [120, 200, 255]);
}

#[test]
fn separating_the_sprites_of_a_sheet_that_is_no_grid() {
    // The demo's fish, found on its sheet and packed again at uneven places, as tools and
    // hands lay sheets out: the window finds each, numbers it, and two are selected to merge.
    let art = crate::gui_support::TempDir::new("screenshot-sprites");
    let demo = image::open(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.png"))
        .unwrap()
        .to_rgba8();
    let found = sprat::assets::sprites::find_sprites(&demo, Default::default());
    let mut sheet = image::RgbaImage::new(260, 120);
    let (mut x, mut y, mut row_height) = (3u32, 4u32, 0u32);
    for (n, rect) in found.iter().enumerate() {
        if x + rect.width + 3 > sheet.width() {
            (x, y) = (3 + (n as u32 % 3) * 4, y + row_height + 5);
            row_height = 0;
        }
        let part =
            image::imageops::crop_imm(&demo, rect.x as u32, rect.y as u32, rect.width, rect.height)
                .to_image();
        let dy = (n as u32 * 7) % 5;
        image::imageops::overlay(&mut sheet, &part, x as i64, (y + dy) as i64);
        row_height = row_height.max(rect.height + dy);
        x += rect.width + 3 + (n as u32 * 5) % 7;
    }
    let used = y + row_height + 4;
    let sheet = image::imageops::crop_imm(&sheet, 0, 0, sheet.width(), used).to_image();
    let path = art.0.join("fish_knight_packed.png");
    sheet.save(&path).unwrap();
    let mut harness = editor(move |app, _| {
        app.open_demo();
        let id = app.active_tab_id();
        let platform = app.platform.as_ref();
        if let Some(tab) = app.documents.iter_mut().find(|t| Some(t.id) == id) {
            tab.import.add_files([path], platform, || {});
        }
    });
    for _ in 0..400 {
        harness.step();
        if !harness.state().active_tab().unwrap().import.is_reading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    harness.run_steps(2);
    harness
        .get_by_role_and_label(egui::accesskit::Role::RadioButton, "Separate sprites")
        .click();
    harness.run_steps(2);
    let sprites = &mut harness.state_mut().active_tab_mut().unwrap().import.sprites;
    assert!(sprites.found.rects.len() >= 10, "the fish are found");
    sprites.selected = vec![3, 4];
    harness.run_steps(4);
    assert!(harness.query_by_label("2 sprites selected").is_some());
    // The selected sprites are outlined in cyan.
    picture(&mut harness, "import-separate-sprites", [0, 200, 255]);
}

#[test]
fn the_onion_skin_with_a_pinned_reference() {
    let mut harness = editor(|app, _| {
        app.settings.view.onion_skin = true;
        app.settings.view.onion_frames = 2;
        app.settings.view.onion_style = sprat::app::context::settings::OnionStyle::Silhouettes;
        app.settings.view.overlay = false;
        app.open_demo();
    });
    // The third frame of "attack" (the sword out) pinned, then the third of "walk" on show
    // with two frames of onion skin each side as silhouettes: before in red, after in green.
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, "attack")
        .click();
    harness.run_steps(2);
    harness.key_press(egui::Key::Period);
    harness.key_press(egui::Key::Period);
    harness.run_steps(2);
    harness.get_by_label("View").click();
    harness.run_steps(2);
    harness.get_by_label("Pin frame as reference ").click();
    harness.run_steps(2);
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, "walk")
        .click();
    harness.run_steps(2);
    harness.key_press(egui::Key::Period);
    harness.key_press(egui::Key::Period);
    harness.run_steps(4);
    assert!(harness.state().reference.is_some());
    picture(&mut harness, "onion-skin", [255, 90, 90]);
}

#[test]
fn importing_a_folder_of_image_sequences_one_sequence_each() {
    // The demo sheet's rows as a folder of numbered pictures, as an artist's exporter leaves
    // them: float_0.png … swim_5.png … bite_4.png.
    let guard = crate::gui_support::TempDir::new("shot-groups");
    let folder = guard.0.clone();
    let sheet = image::open(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.png"))
        .unwrap()
        .to_rgba8();
    for (row, name) in ["float", "swim", "bite"].iter().enumerate() {
        for column in 0..6 {
            let cell =
                image::imageops::crop_imm(&sheet, column * 32, row as u32 * 32, 32, 32).to_image();
            if cell.pixels().any(|p| p.0[3] > 0) {
                cell.save(folder.join(format!("{name}_{column}.png")))
                    .unwrap();
            }
        }
    }
    let chosen = folder.clone();
    let mut harness = editor(move |app, _| {
        app.open_demo();
        let id = app.active_tab_id();
        let platform = app.platform.as_ref();
        if let Some(tab) = app.documents.iter_mut().find(|t| Some(t.id) == id) {
            tab.import.add_files([chosen], platform, || {});
        }
    });
    for _ in 0..400 {
        harness.step();
        if !harness.state().active_tab().unwrap().import.is_reading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    harness.hover_at(egui::pos2(1200.0, 760.0));
    harness.run_steps(4);
    assert!(
        harness
            .query_by_label("3 groups, one new sequence each:")
            .is_some()
    );
    // The demo's blue fish knight is on the canvas beside the window.
    picture(&mut harness, "import-groups", [66, 135, 245]);
}

#[test]
fn pasting_only_the_timing_of_frames_copied_from_another_sequence() {
    let mut harness = editor(|app, _| app.open_demo());
    harness.get_by_label("walk").click();
    harness.run_steps(2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.run_steps(1);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::C);
    harness.run_steps(2);
    harness.get_by_label("attack").click();
    harness.run_steps(2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.run_steps(2);
    harness.get_by_label("Edit").click();
    harness.run_steps(2);
    harness.get_by_label_contains("Paste special").hover();
    harness.run_steps(3);
    harness.get_by_label_contains("Paste timing only").hover();
    harness.run_steps(3);
    picture(&mut harness, "paste-special", [66, 135, 245]);
}
