//! New pictures (frames whose pixels the file does not have) as cels in the file's colour
//! mode: RGBA as they are; grayscale with gray pixels exact and coloured ones by Aseprite's
//! own RGB to gray rule (luma: 0.2126 R + 0.7152 G + 0.0722 B, its default); indexed through
//! the file's palette ([`super::palette`]), fully transparent pixels as the transparent index
//! (the new layer is not a background, so that index shows nothing).

use super::palette::{Lookup, Palette};
use super::prelude::head_chunks;
use crate::formats::aseprite::file::{
    CHUNK_OLD_PALETTE, CHUNK_OLD_PALETTE_6BIT, CHUNK_PALETTE, FileView,
};
use image::RgbaImage;

/// How new pictures are written into this file.
pub(super) enum Encoding {
    /// 4 bytes a pixel, as drawn.
    Rgba,
    /// 2 bytes a pixel: value, alpha.
    Grayscale,
    /// 1 byte a pixel: a palette index.
    Indexed(Palette),
}

/// A picture's pixels in the file's colour mode, and how many of them could not be written
/// exactly.
pub(super) struct Encoded {
    /// The pixels, row by row.
    pub pixels: Vec<u8>,
    /// Visible pixels written with another colour (not gray; not in a full palette).
    pub changed: usize,
}

/// Aseprite's RGB to gray rule (`rgb_luma`).
pub(super) fn luma(r: u8, g: u8, b: u8) -> u8 {
    ((u32::from(r) * 2126 + u32::from(g) * 7152 + u32::from(b) * 722) / 10000) as u8
}

impl Encoding {
    /// The encoding of the file `bytes` by its colour depth; `Err` says why new pictures
    /// cannot be written into it.
    pub fn of(bytes: &[u8], view: &FileView) -> Result<Encoding, &'static str> {
        match crate::formats::aseprite::file::word(bytes, 12) {
            Some(32) => Ok(Encoding::Rgba),
            Some(16) => Ok(Encoding::Grayscale),
            Some(8) => {
                let changes_palette = view.frames.iter().skip(1).any(|frame| {
                    frame.units.iter().any(|u| {
                        matches!(
                            u.kind,
                            CHUNK_PALETTE | CHUNK_OLD_PALETTE | CHUNK_OLD_PALETTE_6BIT
                        )
                    })
                });
                if changes_palette {
                    return Err("the file changes its palette from frame to frame");
                }
                let head = head_chunks(bytes, view).ok_or("the file's first frame is damaged")?;
                Palette::of(bytes, &head)
                    .map(Encoding::Indexed)
                    .ok_or("the file's palette is damaged")
            }
            _ => Err("the file's colour depth is unknown"),
        }
    }

    /// `image`'s pixels in this encoding (an indexed file's palette takes the colours it
    /// lacks while it has room).
    pub fn encode(&mut self, image: &RgbaImage) -> Encoded {
        let mut changed = 0;
        let pixels = match self {
            Encoding::Rgba => image.as_raw().clone(),
            Encoding::Grayscale => {
                let mut out = Vec::with_capacity(image.as_raw().len() / 2);
                for pixel in image.pixels() {
                    let [r, g, b, a] = pixel.0;
                    let value = match a {
                        0 => 0,
                        _ if r == g && g == b => r,
                        _ => {
                            changed += 1;
                            luma(r, g, b)
                        }
                    };
                    out.extend_from_slice(&[value, a]);
                }
                out
            }
            Encoding::Indexed(palette) => image
                .pixels()
                .map(|pixel| {
                    if pixel.0[3] == 0 {
                        return palette.transparent();
                    }
                    match palette.index_of(pixel.0) {
                        Lookup::Exact(index) => index,
                        Lookup::Nearest(index) => {
                            changed += 1;
                            index
                        }
                    }
                })
                .collect(),
        };
        Encoded { pixels, changed }
    }

    /// What a changed pixel became, for the loss report.
    pub fn change(&self) -> &'static str {
        match self {
            Encoding::Rgba => "",
            Encoding::Grayscale => {
                "are not gray (written by Aseprite's luma rule, 0.2126 R + 0.7152 G + 0.0722 B)"
            }
            Encoding::Indexed(_) => {
                "take the nearest palette colour (the palette is full at 256 colours)"
            }
        }
    }

    /// The palette, when new pictures added colours to it.
    pub fn grown_palette(&self) -> Option<&Palette> {
        match self {
            Encoding::Indexed(palette) if palette.grew() => Some(palette),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gray_stays_exact_and_colours_follow_aseprites_luma() {
        let image =
            RgbaImage::from_raw(3, 1, vec![7, 7, 7, 255, 255, 0, 0, 128, 9, 80, 3, 0]).unwrap();
        let encoded = Encoding::Grayscale.encode(&image);
        assert_eq!(encoded.pixels, [7, 255, 54, 128, 0, 0]);
        assert_eq!(encoded.changed, 1);
        assert_eq!(luma(255, 255, 255), 255);
    }
}
