//! A 500-frame, 5-layer, 64x64 Aseprite file: read into the model (target: under 200 ms),
//! saved back into itself after renaming one tag (target: under 50 ms and under half the
//! read), and read and saved as a Sprat project with its images (target: under 500 ms).
//!
//! The file is written here by a small writer of the format's plain subset (RGBA, normal
//! layers, compressed cels, two tags); every frame differs, so every frame is its own picture.

use criterion::{Criterion, criterion_group, criterion_main};
use flate2::Compression;
use flate2::write::ZlibEncoder;
use sprat::assets::ImageStore;
use sprat::formats::aseprite::AsepriteFormat;
use sprat::formats::sprat::SpratFormat;
use sprat::formats::{Format, ReadContext, WriteContext};
use std::hint::black_box;
use std::io::Write;

const FRAMES: u16 = 500;
const LAYERS: u16 = 5;
const SIDE: u16 = 64;

fn chunk(kind: u16, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 6);
    out.extend_from_slice(&(data.len() as u32 + 6).to_le_bytes());
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(data);
    out
}

fn layer_chunk(index: u16) -> Vec<u8> {
    let mut data = Vec::new();
    data.extend_from_slice(&3u16.to_le_bytes()); // visible, editable
    data.extend_from_slice(&0u16.to_le_bytes()); // normal layer
    data.extend_from_slice(&0u16.to_le_bytes()); // child level
    data.extend_from_slice(&[0; 4]); // default width, height
    data.extend_from_slice(&0u16.to_le_bytes()); // blend mode normal
    data.push(255); // opacity
    data.extend_from_slice(&[0; 3]);
    let name = format!("layer {index}");
    data.extend_from_slice(&(name.len() as u16).to_le_bytes());
    data.extend_from_slice(name.as_bytes());
    chunk(0x2004, &data)
}

/// A cel of `layer` in `frame`: a square of its own colour, shaded by the frame, that moves
/// with the frame.
fn cel_chunk(frame: u16, layer: u16) -> Vec<u8> {
    let size = 24u16;
    let mut pixels = Vec::with_capacity(usize::from(size) * usize::from(size) * 4);
    for y in 0..size {
        for x in 0..size {
            let edge = x == 0 || y == 0 || x == size - 1 || y == size - 1;
            let alpha = if edge { 128 } else { 255 };
            let shade = (frame % 256) as u8 ^ (y * 10) as u8;
            pixels.extend_from_slice(&[(layer * 50) as u8, (x * 10) as u8, shade, alpha]);
        }
    }
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(&pixels).unwrap();
    let compressed = encoder.finish().unwrap();
    let mut data = Vec::new();
    data.extend_from_slice(&layer.to_le_bytes());
    let x = ((frame * 3 + layer * 7) % (SIDE - size)) as i16;
    let y = ((frame + layer * 11) % (SIDE - size)) as i16;
    data.extend_from_slice(&x.to_le_bytes());
    data.extend_from_slice(&y.to_le_bytes());
    data.push(255); // opacity
    data.extend_from_slice(&2u16.to_le_bytes()); // compressed image
    data.extend_from_slice(&[0; 7]); // z-index, reserved
    data.extend_from_slice(&size.to_le_bytes());
    data.extend_from_slice(&size.to_le_bytes());
    data.extend_from_slice(&compressed);
    chunk(0x2005, &data)
}

fn tags_chunk() -> Vec<u8> {
    let mut data = Vec::new();
    data.extend_from_slice(&2u16.to_le_bytes());
    data.extend_from_slice(&[0; 8]);
    for (from, to, direction, name) in [(0u16, 249u16, 0u8, "walk"), (250, 499, 2, "idle")] {
        data.extend_from_slice(&from.to_le_bytes());
        data.extend_from_slice(&to.to_le_bytes());
        data.push(direction);
        data.extend_from_slice(&0u16.to_le_bytes()); // repeat forever
        data.extend_from_slice(&[0; 6]);
        data.extend_from_slice(&[255, 0, 0, 0]); // colour
        data.extend_from_slice(&(name.len() as u16).to_le_bytes());
        data.extend_from_slice(name.as_bytes());
    }
    chunk(0x2018, &data)
}

/// The whole file.
fn aseprite_file() -> Vec<u8> {
    let mut frames = Vec::new();
    for frame in 0..FRAMES {
        let mut chunks = Vec::new();
        if frame == 0 {
            chunks.extend((0..LAYERS).map(layer_chunk));
            chunks.push(tags_chunk());
        }
        chunks.extend((0..LAYERS).map(|layer| cel_chunk(frame, layer)));
        let body: Vec<u8> = chunks.concat();
        frames.extend_from_slice(&(body.len() as u32 + 16).to_le_bytes());
        frames.extend_from_slice(&0xF1FAu16.to_le_bytes());
        frames.extend_from_slice(&(chunks.len() as u16).to_le_bytes());
        frames.extend_from_slice(&100u16.to_le_bytes()); // 100 ms
        frames.extend_from_slice(&[0; 2]);
        frames.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
        frames.extend_from_slice(&body);
    }
    let mut header = vec![0u8; 128];
    header[0..4].copy_from_slice(&(frames.len() as u32 + 128).to_le_bytes());
    header[4..6].copy_from_slice(&0xA5E0u16.to_le_bytes());
    header[6..8].copy_from_slice(&FRAMES.to_le_bytes());
    header[8..10].copy_from_slice(&SIDE.to_le_bytes());
    header[10..12].copy_from_slice(&SIDE.to_le_bytes());
    header[12..14].copy_from_slice(&32u16.to_le_bytes());
    header[14..18].copy_from_slice(&1u32.to_le_bytes()); // layer opacity is valid
    header[18..20].copy_from_slice(&100u16.to_le_bytes());
    header[32..34].copy_from_slice(&256u16.to_le_bytes()); // colours
    header[34] = 1;
    header[35] = 1;
    header.extend_from_slice(&frames);
    header
}

fn bench(c: &mut Criterion) {
    let bytes = aseprite_file();
    let context = ReadContext::default();
    let document = AsepriteFormat.read(&bytes, &context).unwrap().document;
    assert_eq!(document.frames.len(), usize::from(FRAMES));
    assert_eq!(document.images.len(), usize::from(FRAMES));
    c.bench_function("aseprite: read a 500-frame, 5-layer, 64x64 file", |b| {
        b.iter(|| black_box(AsepriteFormat.read(black_box(&bytes), &context).unwrap()))
    });
    let mut edited = document.clone();
    let walk = edited.sequence_by_name("walk").unwrap().id;
    edited.sequence_mut(walk).unwrap().name = "stroll".to_string();
    let save_context = WriteContext::default();
    let saved = AsepriteFormat.write(&edited, &save_context).unwrap();
    assert_ne!(saved.bytes, bytes);
    assert_eq!(saved.bytes.len(), bytes.len() + 2);
    c.bench_function(
        "aseprite: save a 500-frame file after renaming a tag",
        |b| {
            b.iter(|| {
                black_box(
                    AsepriteFormat
                        .write(black_box(&edited), &save_context)
                        .unwrap(),
                )
            })
        },
    );
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("walk.sprat");
    c.bench_function(
        "aseprite: read and save as a Sprat project with its images",
        |b| {
            b.iter(|| {
                let document = AsepriteFormat.read(&bytes, &context).unwrap().document;
                let store = ImageStore::new();
                let write_context = WriteContext {
                    path: Some(project.clone()),
                    pixels: Some(&store),
                };
                let written = SpratFormat.write(&document, &write_context).unwrap();
                std::fs::create_dir_all(dir.path().join("images")).unwrap();
                for companion in &written.companions {
                    std::fs::write(dir.path().join(&companion.relative_path), &companion.bytes)
                        .unwrap();
                }
                std::fs::write(&project, &written.bytes).unwrap();
                black_box(written.companions.len())
            })
        },
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
