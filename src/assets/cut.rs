//! Cutting slices out of a sheet.

use crate::model::PixelRect;
use image::{Rgba, RgbaImage};

/// Slices larger than this many pixels are refused (a corrupt rectangle must not allocate
/// gigabytes).
pub const MAX_SLICE_PIXELS: u64 = 64 * 1024 * 1024;

/// The pixels of `rect` on `sheet` as displayed. `rect`'s width and height are the displayed
/// size; a `rotated` slice is stored turned 90° clockwise (footprint height × width) and is
/// turned back here. Parts of the rectangle off the sheet are transparent. `None` for an empty
/// or oversized rectangle.
pub fn cut_slice(sheet: &RgbaImage, rect: PixelRect, rotated: bool) -> Option<RgbaImage> {
    let (w, h) = (rect.width, rect.height);
    if w == 0 || h == 0 || w as u64 * h as u64 > MAX_SLICE_PIXELS {
        return None;
    }
    let texel = |x: i64, y: i64| {
        let (sx, sy) = (rect.x as i64 + x, rect.y as i64 + y);
        if sx < 0 || sy < 0 || sx >= sheet.width() as i64 || sy >= sheet.height() as i64 {
            Rgba([0, 0, 0, 0])
        } else {
            *sheet.get_pixel(sx as u32, sy as u32)
        }
    };
    Some(RgbaImage::from_fn(w, h, |x, y| {
        if rotated {
            // Turning the displayed image clockwise moved (x, y) to (h-1-y, x).
            texel(h as i64 - 1 - y as i64, x as i64)
        } else {
            texel(x as i64, y as i64)
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3×2 sheet numbered 0..6 in the red channel, row by row.
    fn sheet() -> RgbaImage {
        RgbaImage::from_fn(3, 2, |x, y| Rgba([(y * 3 + x) as u8, 0, 0, 255]))
    }

    fn reds(image: &RgbaImage) -> Vec<u8> {
        image.pixels().map(|p| p.0[0]).collect()
    }

    #[test]
    fn a_plain_slice_is_the_rectangle() {
        let rect = PixelRect {
            x: 1,
            y: 0,
            width: 2,
            height: 2,
        };
        assert_eq!(
            reds(&cut_slice(&sheet(), rect, false).unwrap()),
            [1, 2, 4, 5]
        );
    }

    #[test]
    fn a_rotated_slice_is_turned_back_counter_clockwise() {
        // Displayed 2 wide, 3 tall; stored as the 3×2 sheet, i.e. turned clockwise.
        let rect = PixelRect {
            x: 0,
            y: 0,
            width: 2,
            height: 3,
        };
        let cut = cut_slice(&sheet(), rect, true).unwrap();
        assert_eq!(cut.dimensions(), (2, 3));
        // Turning the result clockwise again must give the sheet back.
        assert_eq!(image::imageops::rotate90(&cut), sheet());
    }

    #[test]
    fn off_sheet_pixels_are_transparent_and_empty_rects_are_none() {
        let rect = PixelRect {
            x: 2,
            y: -1,
            width: 2,
            height: 2,
        };
        let cut = cut_slice(&sheet(), rect, false).unwrap();
        assert_eq!(cut.get_pixel(0, 1).0, [2, 0, 0, 255]);
        assert_eq!(cut.get_pixel(1, 1).0[3], 0);
        assert_eq!(cut.get_pixel(0, 0).0[3], 0);
        let empty = PixelRect { width: 0, ..rect };
        assert!(cut_slice(&sheet(), empty, false).is_none());
        let huge = PixelRect {
            width: u32::MAX,
            height: u32::MAX,
            ..rect
        };
        assert!(cut_slice(&sheet(), huge, false).is_none());
    }
}
