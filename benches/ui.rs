//! What one editor frame costs, headless: the UI update plus tessellation, as a display would
//! pay for it. Budgets: under 2 ms with a character open, under 4 ms with a 3,000-frame action;
//! under 4 ms while playing a 50,000-frame document (500 sequences of 100 frames) with the
//! tree and timeline showing, measured beside KFM in the same run;
//! a generated character of 5,000 sprites (our own art): open to the first painted frame under
//! 300 ms, one frame with the sprite browser open under 4 ms, resident memory under 300 MB
//! (printed).

#[allow(dead_code)] // The 1280x720 figure is the big_sprites and cli_check benches'.
#[path = "common/generated_sff.rs"]
mod generated_sff;
#[path = "common/opened.rs"]
mod opened;

use criterion::{Criterion, criterion_group, criterion_main};
use eframe::App;
use sprat::app::SpratApp;
use sprat::app::context::document::OpenDocument;
use sprat::app::context::platform::ScriptedDialogs;
use sprat::app::context::settings::Settings;
use sprat::model::*;
use std::hint::black_box;
use std::path::Path;

/// Runs one UI frame of `app` at 1280×800 and tessellates it.
fn frame(ctx: &egui::Context, app: &mut SpratApp, frame: &mut eframe::Frame) -> usize {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        predicted_dt: 1.0 / 60.0,
        ..Default::default()
    };
    let mut output = ctx.run_ui(input, |ui| app.ui(ui, frame));
    // No GPU here: the texture uploads a painter would apply are dropped on purpose.
    output.textures_delta.clear();
    let primitives = ctx.tessellate(output.shapes, output.pixels_per_point);
    primitives.len()
}

fn app_with(doc: OpenDocument) -> SpratApp {
    let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
    app.show_document(doc);
    app
}

/// The app with the file at `path` read and shown as the editor opens one (its archives read
/// with it and handed to the sprite store).
fn app_opening(path: &Path) -> SpratApp {
    let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
    app.show_file(sprat::app::context::loader::load_now(path).expect("the file reads"));
    app
}

/// Runs frames until the full check of every open document (started in the background when
/// it opened) has ended, so it does not share the cores with what is measured.
fn settle(ctx: &egui::Context, app: &mut SpratApp, eframe_frame: &mut eframe::Frame) {
    let options = sprat::check::CheckOptions::default();
    while app.documents.iter().any(|t| t.doc.is_checking(&options)) {
        frame(ctx, app, eframe_frame);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    frame(ctx, app, eframe_frame);
}

/// The app on `doc`, settled, playing its first sequence with tree and timeline showing.
fn playing(ctx: &egui::Context, doc: OpenDocument, eframe_frame: &mut eframe::Frame) -> SpratApp {
    let mut app = app_with(doc);
    settle(ctx, &mut app, eframe_frame);
    assert!(app.settings.layout.tree && app.settings.layout.timeline);
    let doc = app.active_document_mut().expect("a document is open");
    doc.player.play(doc.session.document());
    frame(ctx, &mut app, eframe_frame);
    app
}

/// A set with one action of `count` frames, each with two boxes and a point.
fn long_action(count: usize) -> AnimationSet {
    let mut set = AnimationSet::new();
    let id = SequenceId(set.alloc_id());
    let direction = DirectionId(set.alloc_id());
    let mut sequence = Sequence::new(id, "3000", direction);
    for i in 0..count {
        let mut frame = Frame::new(FrameDuration::Ticks(1 + (i % 5) as u32));
        for class in [BoxClass::Hit, BoxClass::Hurt] {
            let shape = CollisionBox::rect_from_corners(
                class,
                Point::from_ints(-10, -60),
                Point::from_ints(12, 0),
            );
            frame.elements.push(Element {
                id: ElementId(set.alloc_id()),
                name: Name::default(),
                kind: ElementKind::Box(shape),
            });
        }
        let point = AttachmentPoint::at(Point::from_ints(4, -40));
        frame.elements.push(Element {
            id: ElementId(set.alloc_id()),
            name: "hand".into(),
            kind: ElementKind::Point(point),
        });
        let fid = FrameId(set.alloc_id());
        set.frames.insert(fid, frame);
        sequence.directions[0].frames.push(fid);
    }
    set.root.items.push(TreeItem::Sequence(sequence));
    set
}

fn corpus_file(relative: &str) -> Option<std::path::PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(relative);
    path.is_file().then_some(path)
}

fn ui_frames(c: &mut Criterion) {
    let mut eframe_frame = eframe::Frame::_new_kittest();

    let ctx = egui::Context::default();
    let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
    app.open_demo();
    frame(&ctx, &mut app, &mut eframe_frame);
    c.bench_function("ui frame, demo", |b| {
        b.iter(|| black_box(frame(&ctx, &mut app, &mut eframe_frame)))
    });

    let ctx = egui::Context::default();
    let mut app = app_with(OpenDocument::new(
        long_action(3000),
        None,
        &sprat::formats::sprat::SpratFormat,
        Vec::new(),
    ));
    frame(&ctx, &mut app, &mut eframe_frame);
    c.bench_function("ui frame, 3000-frame action", |b| {
        b.iter(|| black_box(frame(&ctx, &mut app, &mut eframe_frame)))
    });

    // A real character, once its format is registered.
    if let Some(path) = corpus_file("mugen/kfm/kfm.def") {
        let ctx = egui::Context::default();
        let mut app = app_with(opened::opened(&path));
        settle(&ctx, &mut app, &mut eframe_frame);
        c.bench_function("ui frame, kfm.def", |b| {
            b.iter(|| black_box(frame(&ctx, &mut app, &mut eframe_frame)))
        });

        c.bench_function("open kfm.def to first painted frame", |b| {
            b.iter_custom(|iterations| {
                let mut total = std::time::Duration::ZERO;
                for _ in 0..iterations {
                    let started = std::time::Instant::now();
                    let ctx = egui::Context::default();
                    let mut app = app_opening(&path);
                    black_box(frame(&ctx, &mut app, &mut eframe_frame));
                    total += started.elapsed();
                    // The check it started ends before the next opening, untimed.
                    settle(&ctx, &mut app, &mut eframe_frame);
                }
                total
            })
        });
    }
}

/// One UI frame while playing, tree and timeline showing: a 50,000-frame document (500
/// sequences of 100 frames in 5 groups) against KFM, in one run.
fn fifty_thousand_frames(c: &mut Criterion) {
    let mut eframe_frame = eframe::Frame::_new_kittest();
    let mut group = c.benchmark_group("ui frame while playing");
    let big = OpenDocument::new(
        sprat::model::fixtures::grouped_sequences(5, 100, 100),
        None,
        &sprat::formats::sprat::SpratFormat,
        Vec::new(),
    );
    let ctx = egui::Context::default();
    let mut app = playing(&ctx, big, &mut eframe_frame);
    group.bench_function("50,000-frame document", |b| {
        b.iter(|| black_box(frame(&ctx, &mut app, &mut eframe_frame)))
    });
    if let Some(path) = corpus_file("mugen/kfm/kfm.def") {
        let ctx = egui::Context::default();
        let mut app = playing(&ctx, opened::opened(&path), &mut eframe_frame);
        group.bench_function("kfm.def", |b| {
            b.iter(|| black_box(frame(&ctx, &mut app, &mut eframe_frame)))
        });
    }
    group.finish();
}

/// Resident memory of this process, in MiB (Linux; 0 elsewhere).
fn resident_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

/// A character of 5,000 generated sprites in `dir`: `gen.def`, `gen.air` (an action per group
/// of 100 sprites, showing each) and `gen.sff`.
fn generated_character(dir: &Path) -> std::path::PathBuf {
    let archive = generated_sff::generated_archive(5_000);
    generated_sff::write_character(dir, &archive, 50, 100, 4)
}

/// The app on `def` with the sprite browser on show, a sprite selected.
fn browsing(def: &Path) -> SpratApp {
    let mut app = app_with(opened::opened(def));
    app.centre = sprat::app::CentreTab::Sprites;
    if let Some(tab) = app.active_tab_mut() {
        tab.sprites.selected = vec![(0, 0)];
    }
    app
}

fn sprite_browser(c: &mut Criterion) {
    let mut eframe_frame = eframe::Frame::_new_kittest();
    let dir = tempfile::tempdir().unwrap();
    let def = generated_character(dir.path());
    let before = resident_mib();
    let ctx = egui::Context::default();
    let mut app = browsing(&def);
    settle(&ctx, &mut app, &mut eframe_frame);
    for _ in 0..3 {
        frame(&ctx, &mut app, &mut eframe_frame);
    }
    assert_eq!(
        app.centre,
        sprat::app::CentreTab::Sprites,
        "the browser is on show"
    );
    println!(
        "5,000-sprite character open with the sprite browser: resident memory {:.0} MiB ({:.0} MiB before opening; budget < 300 MB)",
        resident_mib(),
        before
    );
    c.bench_function("ui frame, sprite browser on 5,000 sprites", |b| {
        b.iter(|| black_box(frame(&ctx, &mut app, &mut eframe_frame)))
    });
    c.bench_function(
        "open a 5,000-sprite character to first painted frame",
        |b| {
            b.iter_custom(|iterations| {
                let mut total = std::time::Duration::ZERO;
                for _ in 0..iterations {
                    let started = std::time::Instant::now();
                    let ctx = egui::Context::default();
                    let mut app = app_opening(&def);
                    black_box(frame(&ctx, &mut app, &mut eframe_frame));
                    total += started.elapsed();
                    settle(&ctx, &mut app, &mut eframe_frame);
                }
                total
            })
        },
    );
}

criterion_group!(benches, ui_frames, fifty_thousand_frames, sprite_browser);
criterion_main!(benches);
