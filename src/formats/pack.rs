//! Packing sprite pixels into PNG sheets: shelves of images sorted by height, at most a given
//! number of pixels a side and a gap apart. One packer serves every writer that builds sheets:
//! ISPRITE (with the spec's recommendations, [`MAX_SHEET`] and [`GAP`]) and the texture atlases
//! (with the user's [`PackLimits`]).
//!
//! A shelf packer was measured against the bench input (10,000 frames of 64x64, see
//! `benches/atlas.rs`): it fills 97% of the sheets, all that a one-pixel gap leaves for
//! squares of that size, so no rectangle-packing crate could pack tighter there.

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
/// and each sheet's size. An image larger than a sheet gets a sheet of its own, its own size.
pub fn place_within(sizes: &[(u32, u32)], limits: PackLimits) -> (Vec<Placement>, Vec<(u32, u32)>) {
    let mut max_side = limits.max_side.max(1);
    if limits.power_of_two {
        // Rounded-up sheets must stay within the maximum.
        max_side = 1 << (31 - max_side.leading_zeros());
    }
    shelves(sizes, max_side, limits.gap, limits.power_of_two)
}

fn shelves(
    sizes: &[(u32, u32)],
    max_sheet: u32,
    gap: u32,
    power_of_two: bool,
) -> (Vec<Placement>, Vec<(u32, u32)>) {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| {
        (
            std::cmp::Reverse(sizes[i].1),
            std::cmp::Reverse(sizes[i].0),
            i,
        )
    });
    let mut placements = vec![
        Placement {
            sheet: 0,
            x: 0,
            y: 0
        };
        sizes.len()
    ];
    let mut sheets: Vec<(u32, u32)> = Vec::new();
    // The open sheet: its index, the shelf's top, the shelf's height and the next x.
    let mut open: Option<(usize, u32, u32, u32)> = None;
    for i in order {
        let (w, h) = sizes[i];
        if w > max_sheet || h > max_sheet {
            sheets.push((w, h));
            placements[i] = Placement {
                sheet: sheets.len() - 1,
                x: 0,
                y: 0,
            };
            continue;
        }
        let fits = |(_, top, shelf, x): (usize, u32, u32, u32)| {
            if x + w <= max_sheet && top + h.max(shelf) <= max_sheet {
                Some((top, x))
            } else if top + shelf + gap + h <= max_sheet && w <= max_sheet {
                Some((top + shelf + gap, 0))
            } else {
                None
            }
        };
        let spot = open.and_then(|o| fits(o).map(|(top, x)| (o.0, top, x, o)));
        let (sheet, top, x) = match spot {
            Some((sheet, top, x, (_, old_top, shelf, _))) => {
                let shelf = if top == old_top { shelf.max(h) } else { h };
                open = Some((sheet, top, shelf, x + w + gap));
                (sheet, top, x)
            }
            None => {
                sheets.push((0, 0));
                let sheet = sheets.len() - 1;
                open = Some((sheet, 0, h, w + gap));
                (sheet, 0, 0)
            }
        };
        let size = &mut sheets[sheet];
        size.0 = size.0.max(x + w);
        size.1 = size.1.max(top + h);
        placements[i] = Placement { sheet, x, y: top };
    }
    if power_of_two {
        for size in &mut sheets {
            *size = (
                size.0.max(1).next_power_of_two(),
                size.1.max(1).next_power_of_two(),
            );
        }
    }
    (placements, sheets)
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
