//! The corpus' two-layer blend files, composited with `formats::aseprite::blend` layer over
//! layer, against the frames Aseprite exported from them.
//!
//! Each layer's pixels come from the `asefile` crate, drawn alone on a transparent canvas (at
//! full opacity a layer alone is its own pixels, whatever its mode); the compositing is ours.

mod common;

use image::RgbaImage;
use sprat::formats::aseprite::blend::{BlendMode, blend};

/// Frame 0 of the corpus file `name`, composited from its layers, and the reference picture.
fn composite_and_reference(name: &str) -> (RgbaImage, RgbaImage) {
    let folder = common::corpus().join("aseprite");
    let file = asefile::AsepriteFile::read_file(&folder.join(format!("{name}.aseprite")))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let reference = image::open(folder.join(format!("{name}.png")))
        .unwrap()
        .into_rgba8();
    let mut canvas = RgbaImage::new(file.width() as u32, file.height() as u32);
    for index in 0..file.num_layers() {
        let layer = file.layer(index);
        assert!(layer.is_visible() && !layer.is_tilemap(), "{name}");
        assert_eq!(
            layer.opacity(),
            255,
            "{name}: the layer alone is its pixels"
        );
        let mode = BlendMode::from_code(layer.blend_mode() as u16).unwrap();
        let pixels = layer.frame(0).image();
        for (x, y, pixel) in canvas.enumerate_pixels_mut() {
            pixel.0 = blend(mode, pixel.0, pixels.get_pixel(x, y).0, 255);
        }
    }
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
    let (composite, reference) = composite_and_reference("blend_multiply");
    assert_eq!(differences(&composite, &reference), []);
}

#[test]
fn normal_over_a_gradient_is_what_aseprite_exported() {
    let (composite, reference) = composite_and_reference("blend_normal");
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
    let (composite, reference) = composite_and_reference("blend_saturation_bug");
    let band = differences(&composite, &reference);
    assert_eq!(band.len(), 6 * 6, "the band under the layer: {band:?}");
    for (x, y) in band {
        assert_eq!(composite.get_pixel(x, y).0, [102, 102, 217, 255]);
        assert_eq!(reference.get_pixel(x, y).0, [175, 71, 186, 255]);
    }
}
