//! What one editor frame costs, headless: the UI update plus tessellation, as a display would
//! pay for it. Budgets: under 2 ms with a character open, under 4 ms with a 3,000-frame action.

use criterion::{Criterion, criterion_group, criterion_main};
use eframe::App;
use sprat::app::SpratApp;
use sprat::app::dialogs::ScriptedDialogs;
use sprat::app::settings::Settings;
use sprat::app::workspace::OpenDocument;
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

fn app_with(open: OpenDocument) -> SpratApp {
    let mut app = SpratApp::new(Settings::default(), Box::new(ScriptedDialogs::default()));
    app.show_document(open);
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
                name: String::new(),
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
    if let Some(path) = corpus_file("mugen/kfm/kfm.def")
        && let Ok(file) = sprat::app::loader::load_now(&path)
    {
        let ctx = egui::Context::default();
        let open = OpenDocument::new(
            file.loaded.document,
            Some(path.clone()),
            file.format,
            file.loaded.diagnostics,
        );
        let mut app = app_with(open);
        frame(&ctx, &mut app, &mut eframe_frame);
        c.bench_function("ui frame, kfm.def", |b| {
            b.iter(|| black_box(frame(&ctx, &mut app, &mut eframe_frame)))
        });

        c.bench_function("open kfm.def to first painted frame", |b| {
            b.iter(|| {
                let ctx = egui::Context::default();
                let file = sprat::app::loader::load_now(&path).unwrap();
                let open = OpenDocument::new(
                    file.loaded.document,
                    Some(path.clone()),
                    file.format,
                    file.loaded.diagnostics,
                );
                let mut app = app_with(open);
                black_box(frame(&ctx, &mut app, &mut eframe_frame))
            })
        });
    }
}

criterion_group!(benches, ui_frames);
criterion_main!(benches);
