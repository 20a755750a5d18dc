//! Packing sprite pixels into PNG sheets: shelves of images sorted by height, at most
//! [`MAX_SHEET`] pixels a side and [`GAP`] pixel apart (the spec's recommendations).

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

/// Places rectangles of the given sizes on sheets; returns one placement per size (same order)
/// and each sheet's size. An image larger than a sheet gets a sheet of its own, its own size.
pub fn place(sizes: &[(u32, u32)]) -> (Vec<Placement>, Vec<(u32, u32)>) {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(sizes[i].1), std::cmp::Reverse(sizes[i].0), i));
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
        if w > MAX_SHEET || h > MAX_SHEET {
            sheets.push((w, h));
            placements[i] = Placement {
                sheet: sheets.len() - 1,
                x: 0,
                y: 0,
            };
            continue;
        }
        let fits = |(_, top, shelf, x): (usize, u32, u32, u32)| {
            if x + w <= MAX_SHEET && top + h.max(shelf) <= MAX_SHEET {
                Some((top, x))
            } else if top + shelf + GAP + h <= MAX_SHEET && w <= MAX_SHEET {
                Some((top + shelf + GAP, 0))
            } else {
                None
            }
        };
        let spot = open.and_then(|o| fits(o).map(|(top, x)| (o.0, top, x, o)));
        let (sheet, top, x) = match spot {
            Some((sheet, top, x, (_, old_top, shelf, _))) => {
                let shelf = if top == old_top { shelf.max(h) } else { h };
                open = Some((sheet, top, shelf, x + w + GAP));
                (sheet, top, x)
            }
            None => {
                sheets.push((0, 0));
                let sheet = sheets.len() - 1;
                open = Some((sheet, 0, h, w + GAP));
                (sheet, 0, 0)
            }
        };
        let size = &mut sheets[sheet];
        size.0 = size.0.max(x + w);
        size.1 = size.1.max(top + h);
        placements[i] = Placement { sheet, x, y: top };
    }
    (placements, sheets)
}

/// Draws the images onto sheets as placed.
pub fn draw(images: &[&RgbaImage], placements: &[Placement], sheets: &[(u32, u32)]) -> Vec<RgbaImage> {
    let mut out: Vec<RgbaImage> = sheets
        .iter()
        .map(|&(w, h)| RgbaImage::new(w.max(1), h.max(1)))
        .collect();
    for (image, p) in images.iter().zip(placements) {
        image::imageops::replace(&mut out[p.sheet], *image, p.x as i64, p.y as i64);
    }
    out
}

/// PNG bytes of a sheet.
pub fn png(sheet: &RgbaImage) -> Result<Vec<u8>, image::ImageError> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    sheet.write_to(&mut bytes, image::ImageFormat::Png)?;
    Ok(bytes.into_inner())
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
        let sizes: Vec<(u32, u32)> = (0..600).map(|i| (60 + i % 200, 40 + (i * 7) % 200)).collect();
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
        assert!(sheets.len() >= 2, "600 images of this size need more than one sheet");
    }

    #[test]
    fn an_oversized_image_gets_a_sheet_of_its_own() {
        let (placements, sheets) = place(&[(10, 10), (3000, 5)]);
        assert_eq!(sheets[placements[1].sheet], (3000, 5));
        assert_ne!(placements[0].sheet, placements[1].sheet);
    }
}
