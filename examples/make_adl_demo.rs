//! Generates the body-part images of Sprat's ADL demo character "Pip" (CC0), so the files in
//! `assets/adl/mods/sprat/sprites/pip/` can be reproduced exactly:
//!
//! ```text
//! cargo run --no-default-features --example make_adl_demo
//! ```
//!
//! Each part is a small pixel-art TGA (uncompressed, 32-bit RGBA) drawn from rectangles, with
//! a dark outline. The anchors in `pip.properties` (BODYPARTS) refer to these shapes: legs and
//! arms hang from the middle of their top row, the torso and the head sit on the middle of
//! their bottom row.

use image::codecs::tga::TgaEncoder;
use image::{ExtendedColorType, Rgba, RgbaImage};
use std::path::Path;

const OUTLINE: Rgba<u8> = Rgba([34, 32, 52, 255]);
const SKIN: Rgba<u8> = Rgba([238, 195, 154, 255]);
const HAIR: Rgba<u8> = Rgba([143, 86, 59, 255]);
const SHIRT: Rgba<u8> = Rgba([91, 110, 225, 255]);
const SHIRT_SHADE: Rgba<u8> = Rgba([63, 63, 116, 255]);
const TROUSERS: Rgba<u8> = Rgba([69, 40, 60, 255]);
const TROUSERS_SHADE: Rgba<u8> = Rgba([50, 28, 44, 255]);
const BOOT: Rgba<u8> = Rgba([102, 57, 49, 255]);
const EYE: Rgba<u8> = Rgba([255, 255, 255, 255]);

/// Fills the rectangle `[x, x+w) x [y, y+h)`.
fn fill(image: &mut RgbaImage, x: u32, y: u32, w: u32, h: u32, colour: Rgba<u8>) {
    for py in y..(y + h).min(image.height()) {
        for px in x..(x + w).min(image.width()) {
            image.put_pixel(px, py, colour);
        }
    }
}

/// A rectangle of `colour` with a one-pixel outline.
fn outlined(w: u32, h: u32, colour: Rgba<u8>) -> RgbaImage {
    let mut image = RgbaImage::from_pixel(w, h, OUTLINE);
    fill(&mut image, 1, 1, w - 2, h - 2, colour);
    image
}

fn head() -> RgbaImage {
    let mut image = outlined(10, 9, SKIN);
    fill(&mut image, 1, 1, 8, 2, HAIR);
    fill(&mut image, 1, 3, 2, 2, HAIR);
    fill(&mut image, 6, 4, 1, 2, EYE);
    fill(&mut image, 6, 5, 1, 1, OUTLINE);
    image
}

fn torso() -> RgbaImage {
    let mut image = outlined(8, 10, SHIRT);
    fill(&mut image, 1, 7, 6, 2, SHIRT_SHADE);
    image
}

fn arm(front: bool) -> RgbaImage {
    let sleeve = if front { SHIRT } else { SHIRT_SHADE };
    let mut image = outlined(3, 8, sleeve);
    fill(&mut image, 1, 5, 1, 2, SKIN);
    image
}

fn leg(front: bool) -> RgbaImage {
    let cloth = if front { TROUSERS } else { TROUSERS_SHADE };
    let mut image = outlined(3, 9, cloth);
    fill(&mut image, 1, 6, 1, 2, BOOT);
    image
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/adl/mods/sprat/sprites/pip");
    std::fs::create_dir_all(&dir)?;
    let parts = [
        ("head", head()),
        ("torso", torso()),
        ("arm_front", arm(true)),
        ("arm_back", arm(false)),
        ("leg_front", leg(true)),
        ("leg_back", leg(false)),
    ];
    for (name, image) in parts {
        let path = dir.join(format!("pip_{name}.tga"));
        let mut bytes = Vec::new();
        TgaEncoder::new(&mut bytes).disable_rle().encode(
            image.as_raw(),
            image.width(),
            image.height(),
            ExtendedColorType::Rgba8,
        )?;
        std::fs::write(&path, bytes)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
