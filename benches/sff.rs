//! Opening kfm.def's SFF and decoding every sprite, against the `image` crate decoding the
//! same sprites stored as PNG files. Both are measured in this one run and the ratio printed;
//! the budget is at most half the PNG time.

use criterion::Criterion;
use image::{ImageFormat, RgbaImage};
use sprat::formats::sff::{PaletteChoice, SffArchive};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The SFF file a `.def` names with `sprite = ...` (comments after `;` dropped).
fn def_sprite_file(def: &Path) -> PathBuf {
    let text = std::fs::read_to_string(def).expect("read the .def");
    let name = text
        .lines()
        .map(|line| line.split(';').next().unwrap_or("").trim())
        .find_map(|line| {
            let (key, value) = line.split_once('=')?;
            key.trim()
                .eq_ignore_ascii_case("sprite")
                .then(|| value.trim().to_string())
        })
        .expect("the .def names its sprites");
    def.parent().unwrap().join(name)
}

/// Opens the archive and decodes every sprite, as `sprat check` does.
fn decode_sff(bytes: &[u8]) -> usize {
    let archive = SffArchive::parse(bytes.to_vec()).expect("an SFF");
    let mut pixels = 0;
    for result in archive.decode_all(PaletteChoice::Own) {
        pixels += result.expect("decodes").image.len();
    }
    pixels
}

/// Decodes every PNG with the `image` crate to the same RGBA form.
fn decode_pngs(pngs: &[Vec<u8>]) -> usize {
    let mut pixels = 0;
    for png in pngs {
        let image = image::load_from_memory_with_format(png, ImageFormat::Png).expect("a PNG");
        pixels += image.to_rgba8().len();
    }
    pixels
}

/// The sprites as PNG files, as an artist exporting them would have them.
fn as_pngs(bytes: &[u8]) -> Vec<Vec<u8>> {
    let archive = SffArchive::parse(bytes.to_vec()).unwrap();
    archive
        .decode_all(PaletteChoice::Own)
        .into_iter()
        .map(|sprite| {
            let image: RgbaImage = sprite.unwrap().image;
            let mut png = Vec::new();
            image
                .write_to(&mut std::io::Cursor::new(&mut png), ImageFormat::Png)
                .unwrap();
            png
        })
        .collect()
}

/// The median of `rounds` timings of `work`.
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
    let sff = def_sprite_file(&corpus.join("mugen/kfm/kfm.def"));
    let bytes = std::fs::read(&sff).expect("kfm.sff beside kfm.def");
    let pngs = as_pngs(&bytes);
    assert_eq!(
        decode_sff(&bytes),
        decode_pngs(&pngs),
        "both decode the same pixels"
    );

    let mut criterion = Criterion::default().configure_from_args();
    let mut group = criterion.benchmark_group("kfm_every_sprite");
    group.bench_function("sff_open_and_decode", |b| {
        b.iter(|| decode_sff(black_box(&bytes)))
    });
    group.bench_function("image_crate_png_decode", |b| {
        b.iter(|| decode_pngs(black_box(&pngs)))
    });
    group.finish();

    // The ratio from interleaved rounds, so both see the same machine load.
    let mut sff_times = Vec::new();
    let mut png_times = Vec::new();
    for _ in 0..5 {
        sff_times.push(median_time(11, || {
            black_box(decode_sff(black_box(&bytes)));
        }));
        png_times.push(median_time(11, || {
            black_box(decode_pngs(black_box(&pngs)));
        }));
    }
    sff_times.sort();
    png_times.sort();
    let (sff_time, png_time) = (sff_times[2], png_times[2]);
    let ratio = sff_time.as_secs_f64() / png_time.as_secs_f64();
    println!(
        "kfm.sff, {} sprites: SFF open + decode {:?}, image crate PNG decode {:?}; ratio {ratio:.3} (budget 0.5: {})",
        pngs.len(),
        sff_time,
        png_time,
        if ratio <= 0.5 { "within" } else { "OVER" }
    );
    criterion.final_summary();
}
