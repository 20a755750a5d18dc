//! Pictures stay within the memory setting however many actions play: decoded sprites,
//! pictures composed ahead and the textures of frames and thumbnails are let go least recently
//! shown first.

#[path = "../../benches/common/generated_sff.rs"]
#[allow(dead_code)] // The benches' 48x64 figure is not used here.
mod generated_sff;
#[path = "../../benches/common/opened.rs"]
mod opened;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use sprat::app::SpratApp;
use sprat::app::context::pictures::playing::FRAMES_AHEAD;
use sprat::app::context::pictures::{PictureMemory, placeholder_rect, render_image};
use sprat::app::context::platform::ScriptedDialogs;
use sprat::app::context::settings::Settings;
use sprat::formats::sff::encode::SpritePixels;
use sprat::render::Scene;

const ACTIONS: u32 = 4;
const FRAMES: u32 = 20;

/// A 320x240 sprite (300 KiB decoded): a block that moves with `n`, so each one differs.
fn block(n: u32) -> SpritePixels {
    let (width, height) = (320u32, 240u32);
    let mut indices = vec![0u8; (width * height) as usize];
    let left = (n % FRAMES) * 12;
    for y in 40..200 {
        for x in left..left + 60 {
            indices[(y * width + x) as usize] = 1 + (n % 30) as u8;
        }
    }
    SpritePixels::Indexed {
        width,
        height,
        indices,
    }
}

#[test]
fn playing_action_after_action_keeps_pictures_within_the_memory_setting() {
    let dir = tempfile::tempdir().unwrap();
    let archive = generated_sff::archive_of(ACTIONS * 100, (160, 239), |n| block(n % 100));
    let def = generated_sff::write_character(dir.path(), &archive, ACTIONS, FRAMES, 2);
    let doc = opened::opened(&def);
    // The least memory the setting takes: 16 MiB, of which 8 for decoded pictures; the
    // character's 80 sprites decode to 24 MiB.
    let memory = PictureMemory { megabytes: 16 };
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| {
            let settings = Settings {
                picture_memory: memory,
                ..Settings::default()
            };
            let mut app = SpratApp::new(settings, Box::new(ScriptedDialogs::default()));
            app.show_document(doc);
            app
        });
    harness.run_steps(2);
    harness.get_by_label("Play").click();
    harness.run_steps(1);
    let decoded_budget = memory.decoded().total();
    let mut decoded_most = 0;
    let mut textures_most = 0;
    let mut composed_most = 0;
    let mut pictures_shown = 0;
    for action in 0..ACTIONS {
        harness
            .get_by_role_and_label(Role::Button, &format!("{action} · Move {action}"))
            .click();
        let mut shown = None;
        // Two passes over the action (2 ticks a frame, 60 ticks and UI frames a second).
        for _ in 0..FRAMES * 4 {
            harness.step();
            let app = harness.state();
            let decoded = app.pixels.cached_bytes();
            assert!(
                decoded <= decoded_budget,
                "decoded pictures hold {decoded} bytes, over {decoded_budget}"
            );
            decoded_most = decoded_most.max(decoded);
            let (textures, texture_budget) = app.textures.texture_bytes();
            assert!(
                textures <= texture_budget,
                "textures hold {textures} bytes, over {texture_budget}"
            );
            assert_eq!(texture_budget, memory.frames() + memory.thumbnails());
            textures_most = textures_most.max(textures);
            let (composed, composed_budget) = app.textures.composed_bytes();
            assert!(
                composed <= composed_budget,
                "composed pictures hold {composed} bytes, over {composed_budget}"
            );
            assert_eq!(composed_budget, memory.composed());
            composed_most = composed_most.max(composed);
            let now = app.textures.shown_key();
            if now.is_some() && now != shown {
                pictures_shown += 1;
                shown = now;
            }
            // Let the decode-ahead worker have its turn, as a display's refresh would.
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let playing = harness.state().active_document().and_then(|o| o.sequence());
        let playing = playing.map(|s| &s.name);
        assert_eq!(playing, Some(&action.to_string()), "action {action} plays");
    }
    // Both budgets were put to use, so the test tested them.
    let sprites_budget = memory.decoded().sprites;
    assert!(
        decoded_most > sprites_budget / 2,
        "decoded sprites held at most {decoded_most} bytes of {sprites_budget}"
    );
    // Playing shows every picture through one texture; the worker composes the coming
    // frames' pictures ahead (320x240, 300 KiB each).
    let picture = 320 * 240 * 4;
    assert!(
        textures_most >= picture,
        "textures held at most {textures_most} bytes"
    );
    assert!(
        composed_most >= picture * FRAMES_AHEAD,
        "composed pictures held at most {composed_most} bytes"
    );
    assert!(
        pictures_shown >= (ACTIONS * FRAMES) as usize,
        "every action showed its frames: {pictures_shown} pictures"
    );
}

/// Steps the editor until the thumbnails asked for are made and shown (at most ten seconds).
fn wait_for_thumbnails(harness: &mut Harness<'_, SpratApp>) {
    let started = std::time::Instant::now();
    while harness.state().textures.thumbnails_pending() {
        assert!(
            started.elapsed().as_secs() < 10,
            "the thumbnails were not made"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
        harness.step();
    }
    harness.step();
}

#[test]
fn a_chosen_actions_thumbnails_are_made_on_the_worker_with_placeholders_of_their_size() {
    let dir = tempfile::tempdir().unwrap();
    let archive = generated_sff::archive_of(ACTIONS * 100, (160, 239), |n| block(n % 100));
    let def = generated_sff::write_character(dir.path(), &archive, ACTIONS, FRAMES, 2);
    let doc = opened::opened(&def);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |_| {
            let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
            app.show_document(doc);
            app
        });
    harness.run_steps(2);
    wait_for_thumbnails(&mut harness);
    let renders = harness.state().textures.renders;
    let made = harness.state().textures.thumbnails_made_on_worker();
    assert!(
        made > 0,
        "the first action's thumbnails came from the worker"
    );

    harness
        .get_by_role_and_label(Role::Button, "1 · Move 1")
        .click();
    // The first UI frame takes the click (the timeline, above the tree, still shows the
    // action before) and draws the chosen action's canvas picture (paused); the second shows
    // its cells. Neither draws a thumbnail: each cell has a placeholder of the picture's size
    // while the worker makes them.
    harness.step();
    harness.step();
    assert!(harness.state().textures.thumbnails_pending());
    assert_eq!(
        harness.state().textures.renders,
        renders + 1,
        "only the canvas picture is drawn on the UI thread"
    );
    let app = harness.state();
    let doc = app.active_document().expect("a document is open");
    let document = doc.session.document();
    let sequence = doc.player.sequence();
    for index in 0..FRAMES as usize {
        let scene = Scene::at(document, sequence, 0, index, Default::default()).unwrap();
        let placeholder = placeholder_rect(document, &scene, &app.pixels);
        let drawn = render_image(document, &scene, &app.pixels).map(|(rect, _)| rect);
        assert!(placeholder.is_some(), "frame {index} has a placeholder");
        assert_eq!(
            placeholder, drawn,
            "frame {index}'s placeholder has its size"
        );
    }

    wait_for_thumbnails(&mut harness);
    let textures = &harness.state().textures;
    assert!(
        textures.thumbnails_made_on_worker() >= made + 10,
        "the chosen action's thumbnails in view came from the worker: {} made",
        textures.thumbnails_made_on_worker() - made
    );
    assert_eq!(
        textures.renders,
        renders + 1,
        "none was made on the UI thread"
    );
}
