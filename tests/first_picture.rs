//! Opening a character in the editor: its archive is read once, with the document, and the
//! first picture is drawn from those bytes; the fingerprint a save compares the disk with is
//! taken from the same bytes, so a change made on disk meanwhile is still caught.
//!
//! No window and no wgpu: an `egui::Context` runs the UI frames.
#![cfg(feature = "gui")]

#[path = "common/mod.rs"]
mod common;

use eframe::App;
use sprat::app::SpratApp;
use sprat::app::context::loader;
use sprat::app::context::platform::ScriptedDialogs;
use sprat::app::context::settings::Settings;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A writable copy of the corpus's KFM (`kfm.def`, `kfm.air`, `kfm.sff`) in `dir`; its `.def`.
fn kfm_in(dir: &Path) -> PathBuf {
    let kfm = common::corpus().join("mugen/kfm");
    for name in ["kfm.def", "kfm.air", "kfm.sff"] {
        common::copy_writable(&kfm.join(name), &dir.join(name));
    }
    dir.join("kfm.def")
}

/// Runs one UI frame of `app` at 1280x800.
fn frame(ctx: &egui::Context, app: &mut SpratApp, eframe_frame: &mut eframe::Frame) {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        ..Default::default()
    };
    let mut output = ctx.run_ui(input, |ui| app.ui(ui, eframe_frame));
    // No GPU here: the texture uploads a painter would apply are dropped on purpose.
    output.textures_delta.clear();
}

/// Runs frames until `done(app)` holds (half a minute at most).
fn frames_until(
    ctx: &egui::Context,
    app: &mut SpratApp,
    done: impl Fn(&SpratApp) -> bool,
    what: &str,
) {
    let mut eframe_frame = eframe::Frame::_new_kittest();
    let started = Instant::now();
    while !done(app) {
        assert!(started.elapsed() < Duration::from_secs(30), "{what}");
        frame(ctx, app, &mut eframe_frame);
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn first_picture_drawn(app: &SpratApp) -> bool {
    app.documents.first().is_some_and(|tab| tab.doc.opened.1)
}

/// An editor showing `file`, run until its first picture is drawn.
fn shown_to_its_first_picture(file: loader::OpenedFile) -> SpratApp {
    let ctx = egui::Context::default();
    let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
    app.show_file(file);
    frames_until(
        &ctx,
        &mut app,
        first_picture_drawn,
        "the first picture is never drawn",
    );
    app
}

#[test]
fn the_first_picture_is_drawn_from_the_archive_read_with_the_character() {
    let dir = tempfile::tempdir().unwrap();
    let def = kfm_in(dir.path());
    let sff = dir.path().join("kfm.sff");
    let file = loader::load_now(&def).expect("KFM reads");
    assert_eq!(file.archives.len(), 1, "the archive is read with the .def");

    // Gone from the disk before the tab opens: what the canvas draws can only come from the
    // bytes read with the document.
    std::fs::remove_file(&sff).unwrap();
    let app = shown_to_its_first_picture(file);
    let problems = app.pixels.sff().problems(&sff);
    assert!(
        problems.iter().all(|p| !p.message.contains("cannot read")),
        "the archive was read again: {problems:?}"
    );
    assert!(app.pixels.sff().archive(&sff).is_some());
}

#[cfg(unix)]
#[test]
fn a_large_archive_read_with_the_character_is_drawn_from_its_file_kept_open() {
    let dir = tempfile::tempdir().unwrap();
    let def = kfm_in(dir.path());
    let sff = dir.path().join("kfm.sff");
    // Past the size from which an archive's sprites stay in its file (what follows the
    // archive's sprites is not read as one).
    let mut bytes = std::fs::read(&sff).unwrap();
    bytes.resize(sprat::formats::sff::KEPT_IN_FILE_FROM as usize + 1, 0);
    std::fs::write(&sff, &bytes).unwrap();
    let file = loader::load_now(&def).expect("KFM reads");
    assert!(file.archives[0].archive.is_kept_in_file());

    // Its name gone from the folder, the file kept open is still the file read.
    std::fs::remove_file(&sff).unwrap();
    let app = shown_to_its_first_picture(file);
    let store = app.pixels.sff();
    let archive = store
        .archive(&sff)
        .expect("the archive read with the character");
    assert!(archive.is_kept_in_file() && archive.bytes().is_none());
    let problems = store.problems(&sff);
    assert!(
        problems.iter().all(|p| !p.message.contains("cannot read")),
        "{problems:?}"
    );
}

#[test]
fn an_archive_opened_alone_is_drawn_from_the_archive_parsed_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let sff = dir.path().join("kfm.sff");
    common::copy_writable(&common::corpus().join("mugen/kfm/kfm.sff"), &sff);
    let file = loader::load_now(&sff).expect("the archive reads");
    let [read] = file.archives.as_slice() else {
        panic!("one archive is parsed with the document");
    };
    let parsed = std::sync::Arc::clone(&read.archive);
    let held = read
        .held
        .clone()
        .expect("drawn from the bytes the document holds");

    let app = shown_to_its_first_picture(file);
    let drawn = app.pixels.sff().edited_archive(Some(&sff), &held);
    assert!(
        drawn.is_some_and(|drawn| std::sync::Arc::ptr_eq(&drawn, &parsed)),
        "the archive was parsed again on the UI thread"
    );
}

#[test]
fn a_large_archive_changed_right_after_opening_is_caught_before_a_save_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let def = kfm_in(dir.path());
    let sff = dir.path().join("kfm.sff");
    // Over the size whose hash is taken on a thread of its own (what follows the archive's
    // sprites is not read as one).
    let mut bytes = std::fs::read(&sff).unwrap();
    bytes.resize(sprat::session::fingerprint::HASHED_APART_BYTES + 4096, 0);
    std::fs::write(&sff, &bytes).unwrap();

    let ctx = egui::Context::default();
    let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
    app.open_path(&ctx, def.clone());
    frames_until(
        &ctx,
        &mut app,
        |app| !app.documents.is_empty(),
        "the character never opens",
    );
    // Another program changes one byte at once, the size kept, while the hash may still be
    // being taken.
    let last = bytes.len() - 1;
    bytes[last] = 1;
    std::fs::write(&sff, &bytes).unwrap();
    let fingerprints = app.documents[0].doc.session.fingerprints();
    assert!(fingerprints.changed_outside(&sff));
    assert!(!fingerprints.changed_outside(&def));
    let targets = [(sff.as_path(), b"the archive as saved".as_slice())];
    assert_eq!(fingerprints.changed_before_writing(targets), [sff]);
}

#[test]
fn a_file_read_before_the_editor_is_made_opens_in_its_tab() {
    use sprat::app::shell::native_platform::NativePlatform;
    let dir = tempfile::tempdir().unwrap();
    let def = kfm_in(dir.path());
    // Started as the program starts, before the window (and the editor in it) exists.
    let platform = NativePlatform::new(Box::new(ScriptedDialogs::default()));
    let reading = loader::PendingLoad::start(&platform, def.clone(), Default::default(), || {});
    let ctx = egui::Context::default();
    let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
    app.take_started_load(reading);
    assert!(app.is_loading());
    frames_until(
        &ctx,
        &mut app,
        first_picture_drawn,
        "the character read before the editor is never shown",
    );
    assert_eq!(app.documents[0].doc.path(), Some(def.as_path()));
}
