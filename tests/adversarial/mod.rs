//! Files that are legal but repeat one large thing many times, built byte by byte for the
//! bounded-work tests and benches.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// LZ5 data (without the length prefix) for `pixels` pixels of colour 1: long runs of 263
/// pixels, two bytes each plus a control byte per eight runs (about 124 pixels a byte).
pub fn lz5_solid(pixels: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut left = pixels;
    while left > 0 {
        out.push(0); // eight run packets follow
        for _ in 0..8 {
            if left == 0 {
                break;
            }
            let length = left.clamp(8, 263);
            out.push(1); // colour 1, long run
            out.push((length - 8) as u8);
            left = left.saturating_sub(length);
        }
    }
    out
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// An SFF v2.01 archive: sprite 0,0 is a `width` x `height` LZ5 sprite, sprites 1,0 .. 1,links-1
/// all link to it (each with its own axis, the same palette).
pub fn sff_with_links(width: u16, height: u16, links: usize) -> Vec<u8> {
    let palette_table = 512;
    let sprite_count = links + 1;
    let sprite_table = palette_table + 16;
    let ldata_start = sprite_table + 28 * sprite_count;
    let mut ldata = Vec::new();
    let mut palette = Vec::new();
    put16(&mut palette, 1); // group 1, item 1: the main palette
    put16(&mut palette, 1);
    put16(&mut palette, 256);
    put16(&mut palette, 0);
    put32(&mut palette, 0);
    put32(&mut palette, 1024);
    for i in 0..256u32 {
        ldata.extend_from_slice(&[i as u8, (i * 2) as u8, (i * 3) as u8, 255]);
    }
    let pixels = width as usize * height as usize;
    let mut data = (pixels as u32).to_le_bytes().to_vec();
    data.extend(lz5_solid(pixels));
    let mut sprites = Vec::new();
    let entry =
        |out: &mut Vec<u8>, group: u16, item: u16, axis: u16, link: u16, len: u32, offset: u32| {
            put16(out, group);
            put16(out, item);
            put16(out, width);
            put16(out, height);
            put16(out, axis);
            put16(out, axis);
            put16(out, link);
            out.push(if len == 0 { 0 } else { 4 }); // LZ5
            out.push(8);
            put32(out, offset);
            put32(out, len);
            put16(out, 0); // palette 0
            put16(out, 0); // ldata
        };
    entry(
        &mut sprites,
        0,
        0,
        0,
        0,
        data.len() as u32,
        ldata.len() as u32,
    );
    ldata.extend_from_slice(&data);
    for i in 0..links {
        entry(&mut sprites, 1, i as u16, (i % 100) as u16, 0, 0, 0);
    }
    let mut out = b"ElecbyteSpr\0".to_vec();
    out.extend_from_slice(&[0, 1, 0, 2]);
    out.resize(24, 0);
    out.extend_from_slice(&[0, 1, 0, 2]);
    out.resize(36, 0);
    for v in [
        sprite_table,
        sprite_count,
        palette_table,
        1,
        ldata_start,
        ldata.len(),
        ldata_start + ldata.len(),
        0,
    ] {
        put32(&mut out, v as u32);
    }
    out.resize(512, 0);
    out.extend_from_slice(&palette);
    out.extend_from_slice(&sprites);
    out.extend_from_slice(&ldata);
    out
}

/// A PNG of `width` x `height` grey pixels, compressed to a few hundred kilobytes at most.
pub fn large_png(width: u32, height: u32) -> Vec<u8> {
    let mut png = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png, width, height);
        encoder.set_color(png::ColorType::Grayscale);
        let mut writer = encoder.write_header().unwrap();
        let mut stream = writer.stream_writer().unwrap();
        let row = vec![128u8; width as usize];
        for _ in 0..height {
            std::io::Write::write_all(&mut stream, &row).unwrap();
        }
        stream.finish().unwrap();
    }
    png
}

/// Writes a Sprat project `name` into `dir` whose one sequence has `frames` frames, each
/// drawing the whole of the image file `sheet` (a name in `dir`, `width` x `height`)
/// `elements` times.
pub fn sprat_project(
    dir: &Path,
    name: &str,
    sheet: &str,
    (width, height): (u32, u32),
    frames: usize,
    elements: usize,
) -> PathBuf {
    use sprat::formats::{Format, WriteContext};
    use sprat::model::{ElementId, ElementKind};
    let mut set = sprat::model::fixtures::long_sequence(frames);
    set.images[0].path = sheet.to_string();
    set.slices[0].rect.width = width;
    set.slices[0].rect.height = height;
    let ids: Vec<_> = set.frames.keys().copied().collect();
    for id in ids {
        let graphic = set.frames[&id]
            .elements
            .iter()
            .find(|e| matches!(e.kind, ElementKind::Graphic(_)))
            .unwrap()
            .clone();
        for _ in 1..elements {
            let mut copy = graphic.clone();
            copy.id = ElementId(set.alloc_id());
            set.frames.get_mut(&id).unwrap().elements.push(copy);
        }
    }
    let path = dir.join(name);
    let written = sprat::formats::sprat::SpratFormat
        .write(&set, &WriteContext::for_path(&path))
        .unwrap();
    std::fs::write(&path, written.bytes).unwrap();
    path
}
