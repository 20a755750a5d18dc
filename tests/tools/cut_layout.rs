//! Cutting sheets drawn by the test for the cases the cut once got wrong: irregular sprites
//! packed so closely that their rectangles overlap, an effect drawn in separate strokes on a
//! lattice of cells, sprites touching their neighbours on a grid.

use super::{common::sprat, text};
use image::{Rgba, RgbaImage};
use sprat::assets::sprites::{SpriteOptions, find_sprites};
use sprat::model::PixelRect;
use std::collections::HashSet;

const INK: Rgba<u8> = Rgba([40, 120, 60, 255]);

fn fill(sheet: &mut RgbaImage, x: u32, y: u32, w: u32, h: u32) {
    for yy in y..y + h {
        for xx in x..x + w {
            sheet.put_pixel(xx, yy, INK);
        }
    }
}

fn rect(x: u32, y: u32, width: u32, height: u32) -> PixelRect {
    PixelRect {
        x: x as i32,
        y: y as i32,
        width,
        height,
    }
}

/// Pairs of L shapes packed into each other's empty corner, one transparent pixel apart
/// everywhere (as a packer with 1 px of padding leaves them), the pairs themselves one pixel
/// apart. Each L's rectangle overlaps its partner's. Returns the sheet and each L's rectangle.
fn interlocked_ls() -> (RgbaImage, Vec<PixelRect>) {
    let mut sheet = RgbaImage::new(256, 256);
    let mut truth = Vec::new();
    let (mut x, mut y, mut row) = (0u32, 0u32, 0u32);
    for i in 0..24u32 {
        // Sizes vary so the sheet is no grid.
        let (arm, bar) = (18 + i % 5 * 3, 4 + i % 3);
        if x + bar + arm + 3 > 256 {
            (x, y, row) = (0, y + row + 1, 0);
        }
        row = row.max(arm);
        // An L: a bar down the left, a foot along the bottom.
        fill(&mut sheet, x, y, bar, arm);
        fill(&mut sheet, x, y + arm - bar, arm, bar);
        truth.push(rect(x, y, arm, arm));
        // Its partner, turned half a turn: a bar along the top from one pixel right of the
        // first L's bar, down the right to one pixel above its foot.
        let (px, pw) = (x + bar + 1, arm + 1);
        fill(&mut sheet, px, y, pw, bar);
        fill(&mut sheet, px + pw - bar, y, bar, arm - bar - 1);
        truth.push(rect(px, y, pw, arm - bar - 1));
        x = px + pw + 1;
    }
    (sheet, truth)
}

#[test]
fn packed_l_shapes_whose_rectangles_overlap_are_cut_apart() {
    let (sheet, truth) = interlocked_ls();
    // The rectangles do overlap: the case the finder must not join on.
    assert!(
        truth
            .chunks(2)
            .all(|pair| pair[1].x < pair[0].x + pair[0].width as i32)
    );
    let found = find_sprites(
        &sheet,
        SpriteOptions {
            gap: 0,
            min_size: 3,
        },
    );
    let found: HashSet<PixelRect> = found.into_iter().collect();
    assert_eq!(found.len(), truth.len(), "{found:?}");
    for r in &truth {
        assert!(found.contains(r), "{r:?} not found");
    }
    // Two pixels apart, the default gap of 1 keeps them apart too.
    let mut wide = RgbaImage::new(64, 32);
    fill(&mut wide, 0, 0, 4, 20);
    fill(&mut wide, 0, 16, 20, 4);
    fill(&mut wide, 6, 0, 20, 4);
    fill(&mut wide, 22, 0, 4, 13);
    let found = find_sprites(&wide, SpriteOptions::DEFAULT);
    assert_eq!(found, vec![rect(0, 0, 20, 20), rect(6, 0, 20, 13)]);
}

#[test]
fn packed_l_shapes_are_cut_apart_on_the_command_line() {
    let (sheet, truth) = interlocked_ls();
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("packed.png");
    sheet.save(&png).unwrap();
    let out = dir.path().join("packed.sprat");
    let (code, stdout, stderr) = sprat(&[
        "cut",
        text(&png),
        "--sprites",
        "--gap",
        "0",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("cut {} frames", truth.len())),
        "{stdout}"
    );
}
