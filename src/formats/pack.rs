//! Packing sprite pixels into PNG sheets, at most a given number of pixels a side and a gap
//! apart, with no rotation. One packer serves every writer that builds sheets: ISPRITE (with
//! the spec's recommendations, [`MAX_SHEET`] and [`GAP`]) and the texture atlases, Aseprite
//! JSON and Godot SpriteFrames (with the user's [`PackLimits`]).
//!
//! Reading order: [`place_within`] (where every rectangle goes), then `search` (which sheet
//! sizes, orders and placement rules are tried), [`maxrects`] (one sheet's free space), and
//! [`draw`] / [`draw_extruded`] / [`png`] (the pixels).
//!
//! The MaxRects bin, tried with several placement rules and sort orders on several sheet
//! shapes, keeping the smallest sheet, packs KFM's 243 trimmed frames onto a near-square
//! sheet (see the README's speed and sheet figures) where the shelf packer it replaced made a
//! 4092-pixel strip.

pub mod maxrects;
mod search;

use image::RgbaImage;

/// The largest sheet side (older graphics cards stop at 2048).
pub const MAX_SHEET: u32 = 2048;
/// Empty pixels between packed images, so filtering does not bleed.
pub const GAP: u32 = 1;

/// Where one image went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The sheet index.
    pub sheet: usize,
    /// Left edge on the sheet.
    pub x: u32,
    /// Top edge on the sheet.
    pub y: u32,
}

/// How large sheets may grow and how far apart images sit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackLimits {
    /// The largest sheet side in pixels.
    pub max_side: u32,
    /// Empty pixels between packed images.
    pub gap: u32,
    /// Grow every sheet to power-of-two sides (old GPUs, some engines' mipmaps).
    pub power_of_two: bool,
}

impl Default for PackLimits {
    /// The ISPRITE spec's recommendations.
    fn default() -> Self {
        PackLimits {
            max_side: MAX_SHEET,
            gap: GAP,
            power_of_two: false,
        }
    }
}

/// Places rectangles of the given sizes on sheets with the ISPRITE limits ([`MAX_SHEET`],
/// [`GAP`]); see [`place_within`].
pub fn place(sizes: &[(u32, u32)]) -> (Vec<Placement>, Vec<(u32, u32)>) {
    place_within(sizes, PackLimits::default())
}

/// Places rectangles of the given sizes on sheets; returns one placement per size (same order)
/// and each sheet's size. Everything goes on one sheet when it fits within the limits, on the
/// smallest near-square sheet the search finds (sides within 2:1 unless a rectangle forces
/// otherwise); else sheets of the largest size are filled in turn and the last one is packed
/// again as small as it goes. An image larger than a sheet gets a sheet of its own, its own size.
pub fn place_within(sizes: &[(u32, u32)], limits: PackLimits) -> (Vec<Placement>, Vec<(u32, u32)>) {
    let (max_side, gap) = (largest_side(limits), limits.gap);
    let (items, oversized) = split_oversized(sizes, max_side, gap);
    let mut placements = vec![
        Placement {
            sheet: 0,
            x: 0,
            y: 0
        };
        sizes.len()
    ];
    let mut sheets: Vec<(u32, u32)> = Vec::new();
    for index in oversized {
        placements[index] = Placement {
            sheet: sheets.len(),
            x: 0,
            y: 0,
        };
        sheets.push(sizes[index]);
    }
    let bin_side = max_side + gap;
    let layouts = match search::smallest_sheet(&items, bin_side, gap, limits.power_of_two) {
        Some(layout) => vec![layout],
        None => search::several_sheets(&items, bin_side, gap, limits.power_of_two),
    };
    for layout in layouts.into_iter().filter(|l| !l.spots.is_empty()) {
        let sheet = sheets.len();
        for &(index, x, y) in &layout.spots {
            placements[index] = Placement { sheet, x, y };
        }
        sheets.push(layout.size);
    }
    if limits.power_of_two {
        for size in &mut sheets {
            *size = (
                size.0.max(1).next_power_of_two(),
                size.1.max(1).next_power_of_two(),
            );
        }
    }
    (placements, sheets)
}

/// True when [`place_within`] puts every rectangle on one sheet; cheaper than asking it, for
/// callers that try many subsets (an atlas deciding which animations share a sheet).
pub fn fits_on_one_sheet(sizes: &[(u32, u32)], limits: PackLimits) -> bool {
    let (max_side, gap) = (largest_side(limits), limits.gap);
    let (items, oversized) = split_oversized(sizes, max_side, gap);
    match oversized.len() {
        0 => search::fits_one(&items, max_side + gap),
        1 => items.is_empty(),
        _ => false,
    }
}

/// The largest sheet side the limits allow (a power of two when sheets are rounded up to
/// one, so the rounded sheet stays within the maximum).
fn largest_side(limits: PackLimits) -> u32 {
    let max_side = limits.max_side.max(1);
    if limits.power_of_two {
        1 << (31 - max_side.leading_zeros())
    } else {
        max_side
    }
}

/// The rectangles to pack, each grown by the gap on its right and bottom (the bin is grown as
/// much, so no gap is left at the sheet's own edges), and the indices of those larger than a
/// sheet.
fn split_oversized(sizes: &[(u32, u32)], max_side: u32, gap: u32) -> (Vec<Item>, Vec<usize>) {
    let mut items = Vec::with_capacity(sizes.len());
    let mut oversized = Vec::new();
    for (index, &(w, h)) in sizes.iter().enumerate() {
        if w > max_side || h > max_side {
            oversized.push(index);
        } else {
            items.push(Item {
                index,
                w: w + gap,
                h: h + gap,
            });
        }
    }
    (items, oversized)
}

/// A rectangle to pack: its index among the sizes and its size with the gap.
#[derive(Clone, Copy, Debug)]
struct Item {
    index: usize,
    w: u32,
    h: u32,
}

/// Draws the images onto sheets as placed (row by row: placements never overlap, so every
/// row is a plain copy).
pub fn draw(
    images: &[&RgbaImage],
    placements: &[Placement],
    sheets: &[(u32, u32)],
) -> Vec<RgbaImage> {
    let mut out: Vec<RgbaImage> = sheets
        .iter()
        .map(|&(w, h)| RgbaImage::new(w.max(1), h.max(1)))
        .collect();
    for (image, p) in images.iter().zip(placements) {
        let sheet = &mut out[p.sheet];
        let sheet_row = sheet.width() as usize * 4;
        let row = image.width() as usize * 4;
        let left = p.x as usize * 4;
        let buffer: &mut [u8] = sheet;
        for (y, source) in image.as_raw().chunks_exact(row.max(1)).enumerate() {
            let start = (p.y as usize + y) * sheet_row + left;
            buffer[start..start + row].copy_from_slice(source);
        }
    }
    out
}

/// Draws the images like [`draw`], each `extrude` pixels in from its placement, and repeats
/// its edge pixels into that border so filtering at the edges samples the image's own colours.
/// Placements are of the images grown by `2 * extrude` on each axis.
pub fn draw_extruded(
    images: &[&RgbaImage],
    placements: &[Placement],
    sheets: &[(u32, u32)],
    extrude: u32,
) -> Vec<RgbaImage> {
    if extrude == 0 {
        return draw(images, placements, sheets);
    }
    let mut out: Vec<RgbaImage> = sheets
        .iter()
        .map(|&(w, h)| RgbaImage::new(w.max(1), h.max(1)))
        .collect();
    for (image, p) in images.iter().zip(placements) {
        let (w, h) = image.dimensions();
        if w == 0 || h == 0 {
            continue;
        }
        let sheet = &mut out[p.sheet];
        let (outer_w, outer_h) = (w + 2 * extrude, h + 2 * extrude);
        for oy in 0..outer_h {
            let sy = oy.saturating_sub(extrude).min(h - 1);
            for ox in 0..outer_w {
                let sx = ox.saturating_sub(extrude).min(w - 1);
                let (x, y) = (p.x + ox, p.y + oy);
                if x < sheet.width() && y < sheet.height() {
                    sheet.put_pixel(x, y, *image.get_pixel(sx, sy));
                }
            }
        }
    }
    out
}

/// PNG bytes of a sheet (fast compression: sheets are rewritten on every conversion).
pub fn png(sheet: &RgbaImage) -> Result<Vec<u8>, image::ImageError> {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let mut bytes = Vec::new();
    PngEncoder::new_with_quality(&mut bytes, CompressionType::Fast, FilterType::Adaptive)
        .write_image(
            sheet.as_raw(),
            sheet.width(),
            sheet.height(),
            image::ExtendedColorType::Rgba8,
        )?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlaps_with_gap(a: (Placement, (u32, u32)), b: (Placement, (u32, u32))) -> bool {
        let ((pa, (wa, ha)), (pb, (wb, hb))) = (a, b);
        pa.sheet == pb.sheet
            && pa.x < pb.x + wb + GAP
            && pb.x < pa.x + wa + GAP
            && pa.y < pb.y + hb + GAP
            && pb.y < pa.y + ha + GAP
    }

    #[test]
    fn images_stay_one_pixel_apart_and_within_sheets() {
        let sizes: Vec<(u32, u32)> = (0..600)
            .map(|i| (60 + i % 200, 40 + (i * 7) % 200))
            .collect();
        let (placements, sheets) = place(&sizes);
        for (i, p) in placements.iter().enumerate() {
            let (w, h) = sizes[i];
            assert!(p.x + w <= sheets[p.sheet].0 && p.y + h <= sheets[p.sheet].1);
            assert!(sheets[p.sheet].0 <= MAX_SHEET && sheets[p.sheet].1 <= MAX_SHEET);
            for (j, q) in placements.iter().enumerate().skip(i + 1) {
                assert!(
                    !overlaps_with_gap((*p, sizes[i]), (*q, sizes[j])),
                    "{i} and {j} touch"
                );
            }
        }
        assert!(
            sheets.len() >= 2,
            "600 images of this size need more than one sheet"
        );
    }

    #[test]
    fn drawn_sheets_hold_each_image_at_its_place() {
        let a = RgbaImage::from_fn(3, 2, |x, y| image::Rgba([x as u8, y as u8, 1, 255]));
        let b = RgbaImage::from_fn(2, 4, |x, y| image::Rgba([x as u8, y as u8, 2, 255]));
        let (placements, sheets) = place(&[(3, 2), (2, 4)]);
        let drawn = draw(&[&a, &b], &placements, &sheets);
        for (image, p) in [(&a, placements[0]), (&b, placements[1])] {
            for (x, y, pixel) in image.enumerate_pixels() {
                assert_eq!(drawn[p.sheet].get_pixel(p.x + x, p.y + y), pixel);
            }
        }
        let decoded = image::load_from_memory(&png(&drawn[0]).unwrap()).unwrap();
        assert_eq!(decoded.to_rgba8(), drawn[0]);
    }

    #[test]
    fn ten_thousand_squares_fill_their_sheets() {
        let sizes = vec![(64, 64); 10_000];
        let limits = PackLimits {
            max_side: 4096,
            gap: 1,
            power_of_two: false,
        };
        let (_, sheets) = place_within(&sizes, limits);
        let area: u64 = sheets.iter().map(|&(w, h)| w as u64 * h as u64).sum();
        let occupancy = 10_000.0 * 64.0 * 64.0 / area as f64;
        // 63 x 63 squares per full sheet, one pixel apart: (64/65)^2 of it at best.
        assert_eq!(sheets.len(), 3);
        assert!(occupancy > 0.95, "{occupancy}");
    }

    #[test]
    fn extruded_borders_repeat_the_edge_pixels() {
        let a = RgbaImage::from_fn(2, 2, |x, y| {
            image::Rgba([x as u8 * 100, y as u8 * 100, 7, 255])
        });
        let limits = PackLimits {
            max_side: 64,
            gap: 1,
            power_of_two: true,
        };
        let (placements, sheets) = place_within(&[(4, 4)], limits);
        assert_eq!(sheets, vec![(4, 4)]);
        let drawn = draw_extruded(&[&a], &placements, &sheets, 1);
        assert_eq!(drawn[0].get_pixel(0, 0), a.get_pixel(0, 0));
        assert_eq!(drawn[0].get_pixel(3, 0), a.get_pixel(1, 0));
        assert_eq!(drawn[0].get_pixel(3, 3), a.get_pixel(1, 1));
        assert_eq!(drawn[0].get_pixel(2, 1), a.get_pixel(1, 0));
    }

    #[test]
    fn power_of_two_sheets_round_up() {
        let limits = PackLimits {
            max_side: 1024,
            gap: 0,
            power_of_two: true,
        };
        let (_, sheets) = place_within(&[(33, 10), (20, 5)], limits);
        assert_eq!(sheets, vec![(64, 16)]);
    }

    #[test]
    fn an_oversized_image_gets_a_sheet_of_its_own() {
        let (placements, sheets) = place(&[(10, 10), (3000, 5)]);
        assert_eq!(sheets[placements[1].sheet], (3000, 5));
        assert_ne!(placements[0].sheet, placements[1].sheet);
    }
}
