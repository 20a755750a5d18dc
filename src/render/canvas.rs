//! The drawing surface: premultiplied 16-bit RGBA, so repeated blending of translucent
//! 8-bit pixels loses no precision, and every blend is exact integer arithmetic.

use crate::model::BlendMode;
use image::{Rgba, RgbaImage};

/// Full intensity of a 16-bit channel.
pub const FULL: u32 = 65_535;

/// A premultiplied pixel: `[r, g, b, a]` with each colour `<= a <= FULL`.
pub type Premul = [u32; 4];

/// `n / d` rounded to nearest (halves up).
fn div_round(n: u64, d: u64) -> u64 {
    (n + d / 2) / d
}

/// A straight-alpha 8-bit pixel with an extra opacity (0..=[`FULL`]) as a premultiplied pixel.
#[inline]
pub fn premultiply(pixel: [u8; 4], opacity: u32) -> Premul {
    if pixel[3] == 255 && opacity == FULL {
        // What the arithmetic below gives an opaque pixel, without its divisions.
        return [
            pixel[0] as u32 * 257,
            pixel[1] as u32 * 257,
            pixel[2] as u32 * 257,
            FULL,
        ];
    }
    let alpha = div_round(pixel[3] as u64 * 257 * opacity as u64, FULL as u64);
    let colour = |c: u8| div_round(c as u64 * alpha, 255) as u32;
    [
        colour(pixel[0]),
        colour(pixel[1]),
        colour(pixel[2]),
        alpha as u32,
    ]
}

/// A premultiplied pixel scaled by an opacity (0..=[`FULL`]).
#[inline]
pub fn fade(pixel: Premul, opacity: u32) -> Premul {
    if opacity == FULL {
        return pixel;
    }
    pixel.map(|c| div_round(c as u64 * opacity as u64, FULL as u64) as u32)
}

/// The drawing surface.
pub struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<[u16; 4]>,
}

impl Canvas {
    /// A canvas filled with one straight-alpha colour.
    pub fn new(width: u32, height: u32, fill: [u8; 4]) -> Canvas {
        let p = premultiply(fill, FULL).map(|c| c as u16);
        Canvas {
            width,
            height,
            pixels: vec![p; width as usize * height as usize],
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Combines `source` into pixel `(x, y)` with `mode`; pixels outside are ignored.
    #[inline]
    pub fn blend(&mut self, x: i64, y: i64, source: Premul, mode: BlendMode) {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return;
        }
        let index = y as usize * self.width as usize + x as usize;
        let dst = self.pixels[index].map(u32::from);
        self.pixels[index] = blend_pixel(dst, source, mode).map(|c| c as u16);
    }

    /// The pixels, premultiplied, row by row.
    pub fn pixels(&self) -> &[[u16; 4]] {
        &self.pixels
    }

    /// The finished picture in straight 8-bit RGBA.
    pub fn into_image(self) -> RgbaImage {
        let mut image = RgbaImage::new(self.width, self.height);
        for (out, p) in image.pixels_mut().zip(&self.pixels) {
            *out = Rgba(unpremultiply(p.map(u32::from)));
        }
        image
    }
}

/// Straight 8-bit RGBA of a premultiplied pixel; fully transparent pixels are `[0, 0, 0, 0]`.
#[inline]
pub fn unpremultiply(p: Premul) -> [u8; 4] {
    let alpha = p[3] as u64;
    if alpha == 0 {
        return [0; 4];
    }
    let colour = |c: u32| {
        // Opaque, the most common case, divides by a constant (a multiplication).
        let divided = if alpha == FULL as u64 {
            div_round(c as u64 * 255, FULL as u64)
        } else {
            div_round(c as u64 * 255, alpha)
        };
        divided.min(255) as u8
    };
    [
        colour(p[0]),
        colour(p[1]),
        colour(p[2]),
        div_round(alpha, 257) as u8,
    ]
}

/// One pixel of `source` combined onto `dst`.
///
/// The source's alpha is its coverage: where it is 0 the destination is untouched, where it is
/// partial the result lies between "untouched" and the full blend. So an additive sprite's
/// transparent border never darkens what is under it, whatever the destination factor.
/// Alpha always combines as "over"; a transparent destination counts as black, so an additive
/// or subtractive graphic on a transparent background looks as it does over black.
#[inline]
pub fn blend_pixel(dst: Premul, src: Premul, mode: BlendMode) -> Premul {
    if mode == BlendMode::Normal && (src[3] == FULL || dst == [0; 4]) {
        // An opaque source, or one over nothing, is what the arithmetic below gives.
        return src;
    }
    let coverage = src[3] as u64;
    let keep = FULL as u64 - coverage;
    let alpha = src[3] as u64 + div_round(dst[3] as u64 * keep, FULL as u64);
    let mut out = [0u32; 4];
    out[3] = alpha as u32;
    for c in 0..3 {
        let (d, s) = (dst[c] as u64, src[c] as u64);
        let value = match mode {
            BlendMode::Normal => s + div_round(d * keep, FULL as u64),
            BlendMode::Add {
                source,
                destination,
            } => {
                let (fs, fd) = (source.min(256) as u64, destination.min(256) as u64);
                // dst · (1 − coverage + coverage · fd/256) + src · fs/256
                let scale = FULL as u64 * 256;
                let dst_part = div_round(d * (scale - coverage * (256 - fd)), scale);
                dst_part + div_round(s * fs, 256)
            }
            BlendMode::Subtract => d.saturating_sub(s),
        };
        out[c] = value.min(alpha) as u32;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPAQUE_WHITE: [u8; 4] = [255, 255, 255, 255];

    fn over(dst: [u8; 4], src: [u8; 4], mode: BlendMode) -> [u8; 4] {
        unpremultiply(blend_pixel(
            premultiply(dst, FULL),
            premultiply(src, FULL),
            mode,
        ))
    }

    #[test]
    fn premultiply_round_trips_every_opaque_colour() {
        for c in 0..=255u8 {
            assert_eq!(
                unpremultiply(premultiply([c, 0, 255 - c, 255], FULL)),
                [c, 0, 255 - c, 255]
            );
        }
    }

    #[test]
    fn premultiply_round_trips_every_colour_at_every_alpha_but_zero() {
        for a in 1..=255u8 {
            for c in 0..=255u8 {
                let pixel = [c, 255 - c, c / 3, a];
                assert_eq!(unpremultiply(premultiply(pixel, FULL)), pixel);
            }
        }
    }

    #[test]
    fn normal_half_alpha_over_white_is_the_midpoint() {
        assert_eq!(
            over(OPAQUE_WHITE, [0, 0, 0, 128], BlendMode::Normal),
            [127, 127, 127, 255]
        );
    }

    #[test]
    fn additive_clamps_and_applies_both_factors() {
        let add = |s, d| BlendMode::Add {
            source: s,
            destination: d,
        };
        assert_eq!(
            over([200, 100, 0, 255], [100, 100, 100, 255], add(256, 256)),
            [255, 200, 100, 255]
        );
        // A1: source plus half the destination.
        assert_eq!(
            over([200, 100, 0, 255], [10, 10, 10, 255], add(256, 128)),
            [110, 60, 10, 255]
        );
    }

    #[test]
    fn transparent_additive_pixels_leave_the_destination_alone() {
        let mode = BlendMode::Add {
            source: 256,
            destination: 0,
        };
        assert_eq!(
            over([90, 80, 70, 255], [255, 255, 255, 0], mode),
            [90, 80, 70, 255]
        );
    }

    #[test]
    fn subtract_takes_the_source_away_and_stops_at_black() {
        assert_eq!(
            over(
                [200, 50, 10, 255],
                [100, 100, 100, 255],
                BlendMode::Subtract
            ),
            [100, 0, 0, 255]
        );
    }

    #[test]
    fn the_shortcuts_give_what_the_arithmetic_gives() {
        // The general formulas, written out again without the shortcuts.
        let premultiplied = |p: [u8; 4]| {
            let alpha = div_round(p[3] as u64 * 257 * FULL as u64, FULL as u64);
            let c = |c: u8| div_round(c as u64 * alpha, 255) as u32;
            [c(p[0]), c(p[1]), c(p[2]), alpha as u32]
        };
        let unpremultiplied = |p: Premul| {
            let a = p[3] as u64;
            let c = |c: u32| div_round(c as u64 * 255, a).min(255) as u8;
            [c(p[0]), c(p[1]), c(p[2]), div_round(a, 257) as u8]
        };
        for c in [0u8, 1, 2, 127, 128, 200, 254, 255] {
            let opaque = [c, 255 - c, c / 2, 255];
            assert_eq!(premultiply(opaque, FULL), premultiplied(opaque));
            assert_eq!(fade(premultiplied(opaque), FULL), premultiplied(opaque));
            for v in [0u32, 1, 256, 257, 30_000, 65_534, 65_535] {
                assert_eq!(
                    unpremultiply([v, 0, 65_535 - v, FULL]),
                    unpremultiplied([v, 0, 65_535 - v, FULL])
                );
            }
            for dst in [[0; 4], [1000, 2000, 3000, 40_000], [FULL; 4]] {
                let src = premultiplied(opaque);
                let keep = 0u64;
                let alpha = src[3] as u64 + div_round(dst[3] as u64 * keep, FULL as u64);
                let general: Premul = std::array::from_fn(|i| {
                    if i == 3 {
                        alpha as u32
                    } else {
                        ((src[i] as u64 + div_round(dst[i] as u64 * keep, FULL as u64)).min(alpha))
                            as u32
                    }
                });
                assert_eq!(blend_pixel(dst, src, BlendMode::Normal), general);
            }
            // A translucent source over nothing.
            let src = premultiplied([c, 10, 20, 100]);
            let nothing = [0u64; 4];
            let keep = FULL as u64 - src[3] as u64;
            let alpha = src[3] as u64 + div_round(nothing[3] * keep, FULL as u64);
            let general: Premul = std::array::from_fn(|i| {
                if i == 3 {
                    alpha as u32
                } else {
                    ((src[i] as u64 + div_round(nothing[i] * keep, FULL as u64)).min(alpha)) as u32
                }
            });
            assert_eq!(blend_pixel([0; 4], src, BlendMode::Normal), general);
        }
    }

    #[test]
    fn opacity_scales_coverage() {
        let half = premultiply([255, 0, 0, 255], FULL / 2 + 1);
        assert_eq!(unpremultiply(half)[3], 128);
    }
}
