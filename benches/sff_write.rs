//! SFF writing. Budget: saving kfm.sff after editing one sprite takes under 2x the time to open
//! it and decode every sprite (both measured here and the ratio printed). Also a generated
//! archive of 5,000 sprites of our own art (built by this bench): writing it, and opening it
//! and decoding its first sprite (no budget yet: the editor-side numbers come later).

#[allow(dead_code)] // The character writer is for the editor's benches.
#[path = "common/generated_sff.rs"]
mod generated_sff;

use criterion::Criterion;
use generated_sff::generated_archive;
use sprat::formats::sff::edit::EditableSff;
use sprat::formats::sff::encode::SpritePixels;
use sprat::formats::sff::write::write_sff;
use sprat::formats::sff::{PaletteChoice, SffArchive};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn open_and_decode_all(bytes: &[u8]) -> usize {
    let archive = SffArchive::parse(bytes.to_vec()).expect("an SFF");
    archive
        .decode_all(PaletteChoice::Own)
        .into_iter()
        .map(|r| r.expect("decodes").image.len())
        .sum()
}

/// Opens kfm.sff, replaces the pixels of sprite 0,0 (with its own, mirrored) and writes it.
fn edit_one_and_write(bytes: &[u8], mirrored: &SpritePixels) -> usize {
    let archive = Arc::new(SffArchive::parse(bytes.to_vec()).expect("an SFF"));
    let mut sff = EditableSff::from_archive(archive).expect("held in memory");
    sff.replace_image(0, 0, mirrored, None).expect("replaced");
    write_sff(&sff).expect("written").len()
}

fn mirror(pixels: SpritePixels) -> SpritePixels {
    match pixels {
        SpritePixels::Indexed {
            width,
            height,
            indices,
        } => SpritePixels::Indexed {
            width,
            height,
            indices: indices
                .chunks_exact(width as usize)
                .flat_map(|row| row.iter().rev().copied())
                .collect(),
        },
        other => other,
    }
}

fn median_time(rounds: usize, mut work: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[rounds / 2]
}

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let bytes = std::fs::read(corpus.join("mugen/kfm/kfm.sff")).expect("kfm.sff");
    let archive = SffArchive::parse(bytes.clone()).unwrap();
    let mirrored = mirror(
        archive
            .decode_pixels(archive.find(0, 0).unwrap())
            .unwrap()
            .0,
    );

    let read = median_time(31, || {
        black_box(open_and_decode_all(black_box(&bytes)));
    });
    let write = median_time(31, || {
        black_box(edit_one_and_write(black_box(&bytes), &mirrored));
    });
    println!(
        "kfm.sff: edit one sprite and write {write:?}, open and decode every sprite {read:?}: ratio {:.2} (budget < 2)",
        write.as_secs_f64() / read.as_secs_f64()
    );

    let generated = generated_archive(5_000);
    println!(
        "generated archive: 5,000 sprites, {} bytes",
        generated.len()
    );

    let mut c = Criterion::default().configure_from_args();
    c.bench_function("sff_write/kfm edit one sprite and write", |b| {
        b.iter(|| edit_one_and_write(black_box(&bytes), &mirrored))
    });
    c.bench_function("sff_write/kfm open and decode every sprite", |b| {
        b.iter(|| open_and_decode_all(black_box(&bytes)))
    });
    c.bench_function("sff_write/5000 sprites open and decode the first", |b| {
        b.iter(|| {
            let archive = SffArchive::parse(black_box(&generated).clone()).unwrap();
            archive.decode(0, PaletteChoice::Own).unwrap().image.len()
        })
    });
    c.bench_function("sff_write/5000 sprites build and write", |b| {
        b.iter(|| generated_archive(5_000).len())
    });
    c.final_summary();
}
