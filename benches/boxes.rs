//! Box tool budgets: trace one 256x256 frame under 1 ms; trace every frame of kfm.def (about
//! 650) under 300 ms on one core, and the same with each frame's mask rendered first.

use criterion::{Criterion, criterion_group, criterion_main};
use sprat::assets::ImageStore;
use sprat::boxes::{OpaqueMask, TraceOptions, frame_mask, trace};
use sprat::formats::{ReadContext, registry};
use std::hint::black_box;
use std::path::Path;

/// A 256x256 figure: a head, a body with an arm out, two legs apart.
fn figure() -> OpaqueMask {
    OpaqueMask::from_fn(-128, -256, 256, 256, |x, y| {
        let (dx, dy) = (x as i32 - 128, y as i32 - 40);
        let head = dx * dx + dy * dy < 24 * 24;
        let body = (88..168).contains(&x) && (64..160).contains(&y);
        let arm = (168..240).contains(&x) && (80..100).contains(&y);
        let legs = ((92..120).contains(&x) || (136..164).contains(&x)) && (160..256).contains(&y);
        head || body || arm || legs
    })
}

fn one_frame(c: &mut Criterion) {
    let mask = figure();
    let options = TraceOptions::default();
    c.bench_function("trace_256x256_frame", |b| {
        b.iter(|| black_box(trace(black_box(&mask), &options)))
    });
}

fn kfm(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mugen/kfm/kfm.def");
    let context = ReadContext {
        path: Some(path.clone()),
        ..ReadContext::default()
    };
    let Ok((loaded, _)) = registry().open(&path, &context) else {
        panic!("{} cannot be read", path.display());
    };
    let document = loaded.document;
    let pixels = ImageStore::new();
    let masks: Vec<OpaqueMask> = document
        .frames
        .values()
        .filter_map(|frame| frame_mask(&document, frame, &pixels))
        .collect();
    assert!(masks.len() > 500, "{} frames draw", masks.len());
    let options = TraceOptions::default();
    let mut group = c.benchmark_group("kfm");
    group.sample_size(10);
    group.bench_function("trace_every_frame", |b| {
        b.iter(|| {
            for mask in &masks {
                black_box(trace(mask, &options));
            }
        })
    });
    group.bench_function("render_and_trace_every_frame", |b| {
        b.iter(|| {
            for frame in document.frames.values() {
                if let Some(mask) = frame_mask(&document, frame, &pixels) {
                    black_box(trace(&mask, &options));
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, one_frame, kfm);
criterion_main!(benches);
