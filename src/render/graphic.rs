//! Drawing one graphic element: inverse-map every covered canvas pixel to the source and sample.

use super::canvas::{Canvas, FULL, Premul, fade, premultiply};
use super::geometry::{Placement, SpriteRect};
use crate::model::Graphic;
use image::RgbaImage;

/// How canvas pixels map to sprite space: canvas pixel `(i, j)` covers
/// `[x + i/scale, x + (i+1)/scale)` horizontally, and likewise vertically.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// The sprite-space rectangle the canvas shows.
    pub rect: SpriteRect,
    /// Canvas pixels per sprite pixel.
    pub scale: u32,
}

impl View {
    /// The sprite-space point at the centre of canvas pixel `(i, j)`.
    pub fn pixel_centre(&self, i: i64, j: i64) -> (f64, f64) {
        let k = self.scale as f64;
        (
            self.rect.x as f64 + (i as f64 + 0.5) / k,
            self.rect.y as f64 + (j as f64 + 0.5) / k,
        )
    }

    /// Canvas coordinates of a sprite-space point.
    pub fn to_canvas(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let k = self.scale as f64;
        ((x - self.rect.x as f64) * k, (y - self.rect.y as f64) * k)
    }

    /// The canvas pixels `[i0, i1) × [j0, j1)` that may touch the sprite-space box `r`, grown by
    /// `margin` pixels and clipped to the canvas.
    pub fn pixels_touching(
        &self,
        r: &SpriteRect,
        margin: i64,
        canvas: &Canvas,
    ) -> (i64, i64, i64, i64) {
        let k = self.scale as i64;
        let clip = |v: i64, max: u32| v.clamp(0, max as i64);
        (
            clip(
                (r.x as i64 - self.rect.x as i64) * k - margin,
                canvas.width(),
            ),
            clip(
                (r.y as i64 - self.rect.y as i64) * k - margin,
                canvas.height(),
            ),
            clip(
                (r.right() - self.rect.x as i64) * k + margin,
                canvas.width(),
            ),
            clip(
                (r.bottom() - self.rect.y as i64) * k + margin,
                canvas.height(),
            ),
        )
    }
}

/// Draws `graphic`, whose pixels are `image` with axis `axis`, onto `canvas`.
///
/// `nearest` picks nearest-neighbour sampling (pixel art); otherwise bilinear.
pub fn draw_graphic(
    canvas: &mut Canvas,
    view: &View,
    graphic: &Graphic,
    image: &RgbaImage,
    axis: (i32, i32),
    nearest: bool,
) {
    let opacity = graphic.opacity as u32;
    if opacity == 0 || image.width() == 0 || image.height() == 0 {
        return;
    }
    let Some(placement) = Placement::of(graphic, axis) else {
        return;
    };
    let (Some(inverse), Some(bounds)) = (
        placement.inverse(),
        placement.bounds(image.width(), image.height()),
    ) else {
        return;
    };
    // Bilinear sampling bleeds half a source pixel outwards, which can reach one more canvas
    // pixel at any scale.
    let margin = if nearest { 0 } else { 1 };
    let (i0, j0, i1, j1) = view.pixels_touching(&bounds, margin, canvas);
    let sampler = Sampler { image, opacity };
    for j in j0..j1 {
        for i in i0..i1 {
            let (u, v) = inverse.to_source(view.pixel_centre(i, j));
            let pixel = if nearest {
                sampler.nearest(u, v)
            } else {
                sampler.bilinear(u, v)
            };
            if let Some(pixel) = pixel.filter(|p| p[3] > 0) {
                canvas.blend(i, j, pixel, graphic.blend);
            }
        }
    }
}

struct Sampler<'a> {
    image: &'a RgbaImage,
    opacity: u32,
}

impl Sampler<'_> {
    /// The source pixel `(x, y)` premultiplied at full opacity, or `None` outside the image.
    fn texel(&self, x: i64, y: i64) -> Option<Premul> {
        if x < 0 || y < 0 || x >= self.image.width() as i64 || y >= self.image.height() as i64 {
            return None;
        }
        Some(premultiply(
            self.image.get_pixel(x as u32, y as u32).0,
            FULL,
        ))
    }

    /// The pixel whose square holds `(u, v)`.
    fn nearest(&self, u: f64, v: f64) -> Option<Premul> {
        if !(u.is_finite() && v.is_finite()) {
            return None;
        }
        let p = self.texel(u.floor() as i64, v.floor() as i64)?;
        Some(fade(p, self.opacity))
    }

    /// The four pixels around `(u, v)` weighted by distance, in premultiplied alpha so
    /// transparent neighbours do not darken the edge; outside the image counts as transparent.
    fn bilinear(&self, u: f64, v: f64) -> Option<Premul> {
        if !(u.is_finite() && v.is_finite()) {
            return None;
        }
        let (x, y) = (u - 0.5, v - 0.5);
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let (x0, y0) = (x0 as i64, y0 as i64);
        let taps = [
            (x0, y0, (1.0 - fx) * (1.0 - fy)),
            (x0 + 1, y0, fx * (1.0 - fy)),
            (x0, y0 + 1, (1.0 - fx) * fy),
            (x0 + 1, y0 + 1, fx * fy),
        ];
        let mut sum = [0.0f64; 4];
        let mut any = false;
        for (tx, ty, weight) in taps {
            if let Some(p) = self.texel(tx, ty) {
                any = true;
                for c in 0..4 {
                    sum[c] += p[c] as f64 * weight;
                }
            }
        }
        if !any {
            return None;
        }
        let alpha = sum[3].round().clamp(0.0, FULL as f64) as u32;
        let p = sum.map(|c| (c.round().max(0.0) as u32).min(alpha));
        Some(fade([p[0], p[1], p[2], alpha], self.opacity))
    }
}
