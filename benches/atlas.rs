//! Atlas budgets: packing 10,000 frames of 64x64 onto sheets (under 1 s, sheets at least 85%
//! occupied; the bench prints the occupancy) and exporting KFM's 655 frames as atlas + JSON
//! (under 500 ms, rendering and PNG encoding included).

use criterion::{Criterion, criterion_group, criterion_main};
use image::RgbaImage;
use sprat::assets::ImageStore;
use sprat::formats::atlas::AtlasOptions;
use sprat::formats::atlas_json::write_atlas;
use sprat::formats::pack::{PackLimits, draw_extruded, place_within};
use sprat::formats::{ReadContext, registry};
use std::hint::black_box;
use std::path::Path;

const FRAMES: usize = 10_000;

fn pack_limits() -> PackLimits {
    let options = AtlasOptions::default();
    PackLimits {
        max_side: options.max_sheet,
        gap: options.padding,
        power_of_two: options.power_of_two,
    }
}

fn frames() -> Vec<RgbaImage> {
    (0..FRAMES)
        .map(|i| RgbaImage::from_pixel(64, 64, image::Rgba([i as u8, (i >> 8) as u8, 7, 255])))
        .collect()
}

fn pack(c: &mut Criterion) {
    let images = frames();
    let refs: Vec<&RgbaImage> = images.iter().collect();
    let sizes: Vec<(u32, u32)> = images.iter().map(|i| i.dimensions()).collect();
    let limits = pack_limits();
    let (_, sheets) = place_within(&sizes, limits);
    let used = FRAMES as f64 * 64.0 * 64.0;
    let area: f64 = sheets.iter().map(|&(w, h)| w as f64 * h as f64).sum();
    println!(
        "atlas: {FRAMES} frames of 64x64 on {} sheets of at most {}x{}: {:.1}% occupied",
        sheets.len(),
        limits.max_side,
        limits.max_side,
        100.0 * used / area
    );
    c.bench_function("pack 10,000 frames of 64x64 (place + draw)", |b| {
        b.iter(|| {
            let (placements, sheets) = place_within(black_box(&sizes), limits);
            black_box(draw_extruded(&refs, &placements, &sheets, 0))
        })
    });
}

fn export_kfm(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mugen/kfm/kfm.def");
    let document = registry()
        .open(&path, &ReadContext::for_path(&path))
        .expect("kfm opens")
        .0
        .document;
    let store = ImageStore::new();
    let options = AtlasOptions::default();
    let written =
        write_atlas(&document, &store, Path::new("kfm.json"), &options, None).expect("writes");
    println!(
        "atlas: kfm as atlas + JSON: {} bytes of JSON, {} companion files",
        written.bytes.len(),
        written.companions.len()
    );
    c.bench_function("export kfm as atlas + JSON", |b| {
        b.iter(|| {
            black_box(
                write_atlas(&document, &store, Path::new("kfm.json"), &options, None).unwrap(),
            )
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = pack, export_kfm
}
criterion_main!(benches);
