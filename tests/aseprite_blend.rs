//! Corpus files whose layers are flat RGBA ones, composited with `formats::aseprite::blend`
//! layer over layer and cel by cel, against the frames Aseprite exported from them.
//!
//! The files are read here by a reader of the few chunks such files hold (layers and
//! compressed cels, after Aseprite's `docs/ase-file-specs.md`), so that nothing but the blend
//! functions decides the pixels.

mod common;

use image::RgbaImage;
use sprat::formats::aseprite::blend::{BlendMode, blend, combined_opacity};
use std::io::Read;

/// A layer as the compositing needs it.
struct Layer {
    mode: BlendMode,
    opacity: u8,
    visible: bool,
}

/// A cel of RGBA pixels.
struct Cel {
    layer: usize,
    x: i32,
    y: i32,
    opacity: u8,
    width: usize,
    pixels: Vec<[u8; 4]>,
}

fn word(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn dword(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// The canvas size, the layers and each frame's cels of a 32-bit file with only image layers.
fn read_flat(bytes: &[u8]) -> ((u32, u32), Vec<Layer>, Vec<Vec<Cel>>) {
    assert_eq!(word(bytes, 4), 0xA5E0);
    assert_eq!(word(bytes, 12), 32, "an RGBA sprite");
    assert_eq!(dword(bytes, 14) & 1, 1, "layer opacities are valid");
    let size = (u32::from(word(bytes, 8)), u32::from(word(bytes, 10)));
    let (mut layers, mut frames) = (Vec::new(), Vec::new());
    let mut frame_at = 128;
    for _ in 0..word(bytes, 6) {
        let chunks = match dword(bytes, frame_at + 12) {
            0 => u32::from(word(bytes, frame_at + 6)),
            count => count,
        };
        let mut cels = Vec::new();
        let mut at = frame_at + 16;
        for _ in 0..chunks {
            let data = &bytes[at + 6..at + dword(bytes, at) as usize];
            match word(bytes, at + 4) {
                0x2004 => {
                    assert_eq!(word(data, 2), 0, "an image layer");
                    let background = word(data, 0) & 8 != 0;
                    layers.push(Layer {
                        mode: BlendMode::from_code(word(data, 10)).unwrap(),
                        opacity: if background { 255 } else { data[12] },
                        visible: word(data, 0) & 1 != 0,
                    });
                }
                0x2005 => {
                    assert_eq!(word(data, 7), 2, "a compressed cel");
                    let mut raw = Vec::new();
                    flate2::read::ZlibDecoder::new(&data[20..])
                        .read_to_end(&mut raw)
                        .unwrap();
                    cels.push(Cel {
                        layer: usize::from(word(data, 0)),
                        x: i32::from(word(data, 2) as i16),
                        y: i32::from(word(data, 4) as i16),
                        opacity: data[6],
                        width: usize::from(word(data, 16)),
                        pixels: raw.chunks(4).map(|p| p.try_into().unwrap()).collect(),
                    });
                }
                _ => {}
            }
            at += dword(bytes, at) as usize;
        }
        frames.push(cels);
        frame_at += dword(bytes, frame_at) as usize;
    }
    (size, layers, frames)
}

/// Frame `frame` of the corpus file `name` composited with our blend functions, and the picture
/// Aseprite exported of it, `png`.
fn composite_and_reference(name: &str, frame: usize, png: &str) -> (RgbaImage, RgbaImage) {
    let folder = common::corpus().join("aseprite");
    let bytes = std::fs::read(folder.join(format!("{name}.aseprite"))).unwrap();
    let ((width, height), layers, frames) = read_flat(&bytes);
    let mut canvas = RgbaImage::new(width, height);
    let mut cels: Vec<&Cel> = frames[frame].iter().collect();
    cels.sort_by_key(|cel| cel.layer);
    for cel in cels {
        let layer = &layers[cel.layer];
        if !layer.visible {
            continue;
        }
        let opacity = combined_opacity(cel.opacity, layer.opacity);
        for (index, source) in cel.pixels.iter().enumerate() {
            let x = cel.x + (index % cel.width) as i32;
            let y = cel.y + (index / cel.width) as i32;
            if let Some(pixel) = canvas.get_pixel_mut_checked(x as u32, y as u32) {
                pixel.0 = blend(layer.mode, pixel.0, *source, opacity);
            }
        }
    }
    let reference = image::open(folder.join(png)).unwrap().into_rgba8();
    (canvas, reference)
}

/// Where `actual` and `expected` differ in a pixel's alpha or, where it is visible, colour.
fn differences(actual: &RgbaImage, expected: &RgbaImage) -> Vec<(u32, u32)> {
    assert_eq!(actual.dimensions(), expected.dimensions());
    actual
        .enumerate_pixels()
        .filter(|(x, y, pixel)| {
            let reference = expected.get_pixel(*x, *y).0;
            let alpha_differs = pixel.0[3] != reference[3];
            alpha_differs || (reference[3] != 0 && pixel.0 != reference)
        })
        .map(|(x, y, _)| (x, y))
        .collect()
}

#[test]
fn multiply_over_a_gradient_is_what_aseprite_exported() {
    let (composite, reference) = composite_and_reference("blend_multiply", 0, "blend_multiply.png");
    assert_eq!(differences(&composite, &reference), []);
}

#[test]
fn normal_over_a_gradient_is_what_aseprite_exported() {
    let (composite, reference) = composite_and_reference("blend_normal", 0, "blend_normal.png");
    assert_eq!(differences(&composite, &reference), []);
}

#[test]
fn saturation_is_aseprites_since_the_fix_of_its_equal_channel_bug() {
    // Over three bands of blue, (102|104|106, 104, 207), a layer of saturation 115/255. The
    // reference was exported by an Aseprite older than 1.3.13, whose saturation kept the red
    // channel of the middle band, where red equals green: (104 + 71.48, 0 + 71.48, 115 +
    // 71.48) = [175, 71, 186], a stripe. Aseprite now gives that band its two lowest channels
    // at 0 and its blue at 115/255, then the luminosity 115.33/255 back: each channel
    // + 102.68/255 = [102, 102, 217], between its neighbours
    // [100, 102, 215] and [104, 102, 217], which both versions agree on.
    let (composite, reference) =
        composite_and_reference("blend_saturation_bug", 0, "blend_saturation_bug.png");
    let band = differences(&composite, &reference);
    assert_eq!(band.len(), 6 * 6, "the band under the layer: {band:?}");
    for (x, y) in band {
        assert_eq!(composite.get_pixel(x, y).0, [102, 102, 217, 255]);
        assert_eq!(reference.get_pixel(x, y).0, [175, 71, 186, 255]);
    }
}

#[test]
fn layer_and_cel_opacities_apply_as_in_aseprites_export() {
    // Three normal layers, one at opacity 124, with cels at opacities 128 and 187 (no cel is
    // partial on both counts, so the rounding of their product is left to the unit tests).
    for (frame, png) in [(0, "transparency_01.png"), (1, "transparency_02.png")] {
        let (composite, reference) = composite_and_reference("transparency", frame, png);
        assert_eq!(differences(&composite, &reference), [], "{png}");
    }
}
