//! Drawing one graphic element: inverse-map every covered canvas pixel to the source and sample,
//! or, when the graphic is only moved and flipped by whole pixels, copy its rows.

use super::canvas::{Canvas, FULL, Premul, fade, premultiply};
use super::geometry::{InverseMap, Placement, SpriteRect};
use crate::model::{BlendMode, Graphic};
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
    let pixels = view.pixels_touching(&bounds, margin, canvas);
    let sampler = Sampler { image, opacity };
    match PixelShift::of(&inverse, view) {
        Some(shift) => draw_shifted(canvas, pixels, &shift, &sampler, graphic.blend),
        None => draw_sampled(
            canvas,
            view,
            pixels,
            &inverse,
            &sampler,
            nearest,
            graphic.blend,
        ),
    }
}

/// Canvas pixels `[i0, i1) × [j0, j1)` read straight from the source, a row at a time: every
/// pixel centre falls on a source pixel centre, where both samplings give that pixel.
fn draw_shifted(
    canvas: &mut Canvas,
    (i0, j0, i1, j1): (i64, i64, i64, i64),
    shift: &PixelShift,
    sampler: &Sampler,
    blend: BlendMode,
) {
    for j in j0..j1 {
        let v = shift.y.0 + shift.y.1 * j;
        if v < 0 || v >= sampler.image.height() as i64 {
            continue;
        }
        for i in i0..i1 {
            if let Some(pixel) = sampler.texel_faded(shift.x.0 + shift.x.1 * i, v) {
                canvas.blend(i, j, pixel, blend);
            }
        }
    }
}

/// Canvas pixels `[i0, i1) × [j0, j1)`, each centre mapped back to the source and sampled.
fn draw_sampled(
    canvas: &mut Canvas,
    view: &View,
    (i0, j0, i1, j1): (i64, i64, i64, i64),
    inverse: &InverseMap,
    sampler: &Sampler,
    nearest: bool,
    blend: BlendMode,
) {
    for j in j0..j1 {
        for i in i0..i1 {
            let (u, v) = inverse.to_source(view.pixel_centre(i, j));
            let pixel = if nearest {
                sampler.nearest(u, v)
            } else {
                sampler.bilinear(u, v)
            };
            if let Some(pixel) = pixel.filter(|p| p[3] > 0) {
                canvas.blend(i, j, pixel, blend);
            }
        }
    }
}

/// A placement that only moves and flips whole pixels at one canvas pixel per sprite pixel:
/// canvas pixel `(i, j)` shows source pixel `(x.0 + x.1·i, y.0 + y.1·j)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelShift {
    /// The source column under canvas column 0, and the step (1, or -1 flipped).
    pub x: (i64, i64),
    /// The source row under canvas row 0, and the step.
    pub y: (i64, i64),
}

impl PixelShift {
    /// How `graphic` (its source has `axis`) lands on `view`'s pixels; `None` unless it only
    /// moves and flips whole pixels at scale 1.
    pub fn of_graphic(graphic: &Graphic, axis: (i32, i32), view: &View) -> Option<PixelShift> {
        PixelShift::of(&Placement::of(graphic, axis)?.inverse()?, view)
    }

    fn of(inverse: &InverseMap, view: &View) -> Option<PixelShift> {
        if view.scale != 1 {
            return None;
        }
        let [a, b, c, d] = inverse.matrix();
        let unit = |s: f64| s == 1.0 || s == -1.0;
        if b != 0.0 || c != 0.0 || !unit(a) || !unit(d) {
            return None;
        }
        // The source point under canvas pixel 0's centre; it must be a source pixel's centre.
        let (u, v) = inverse.to_source(view.pixel_centre(0, 0));
        let whole = |t: f64| {
            let t = t - 0.5;
            (t.is_finite() && t == t.round() && t.abs() < 1e15).then_some(t as i64)
        };
        Some(PixelShift {
            x: (whole(u)?, a as i64),
            y: (whole(v)?, d as i64),
        })
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

    /// Source pixel `(x, y)` with the graphic's opacity; `None` outside the image or where
    /// it is transparent (read before any arithmetic: most of a big sprite is).
    #[inline]
    fn texel_faded(&self, x: i64, y: i64) -> Option<Premul> {
        if x < 0 || y < 0 || x >= self.image.width() as i64 || y >= self.image.height() as i64 {
            return None;
        }
        let pixel = self.image.get_pixel(x as u32, y as u32).0;
        (pixel[3] > 0)
            .then(|| fade(premultiply(pixel, FULL), self.opacity))
            .filter(|p| p[3] > 0)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Fx, GraphicSource, ImageId, Origin, Point};

    /// A 5x4 source with a transparent pixel and a translucent one.
    fn source() -> RgbaImage {
        RgbaImage::from_fn(5, 4, |x, y| match (x, y) {
            (1, 1) => image::Rgba([0, 0, 0, 0]),
            (3, 2) => image::Rgba([200, 10, 90, 100]),
            _ => image::Rgba([(x * 50) as u8, (y * 60) as u8, 7, 255]),
        })
    }

    /// A 16x12 canvas about the origin.
    fn view() -> View {
        View {
            rect: SpriteRect {
                x: -8,
                y: -6,
                width: 16,
                height: 12,
            },
            scale: 1,
        }
    }

    /// The canvas after drawing `graphic`: as `draw_graphic` does, or (`sampled`) with every
    /// pixel mapped back and sampled whatever the placement.
    fn canvas_after(graphic: &Graphic, sampled: bool, nearest: bool) -> Vec<u8> {
        let mut canvas = Canvas::new(16, 12, [30, 40, 50, 255]);
        let image = source();
        if sampled {
            let placement = Placement::of(graphic, (2, 3)).unwrap();
            let inverse = placement.inverse().unwrap();
            let bounds = placement.bounds(5, 4).unwrap();
            let pixels = view().pixels_touching(&bounds, 1, &canvas);
            let sampler = Sampler {
                image: &image,
                opacity: graphic.opacity as u32,
            };
            draw_sampled(
                &mut canvas,
                &view(),
                pixels,
                &inverse,
                &sampler,
                nearest,
                graphic.blend,
            );
        } else {
            draw_graphic(&mut canvas, &view(), graphic, &image, (2, 3), nearest);
        }
        canvas.into_image().into_raw()
    }

    #[test]
    fn whole_pixel_moves_and_flips_draw_what_sampling_draws() {
        let mut shifted = 0;
        for (flip_h, flip_v) in [(false, false), (true, false), (false, true), (true, true)] {
            for (x, y) in [(0.0, 0.0), (3.0, -2.0), (0.5, 0.0), (-1.0, 1.5)] {
                for opacity in [u16::MAX, 30_000] {
                    for blend in [
                        BlendMode::Normal,
                        BlendMode::Add {
                            source: 256,
                            destination: 128,
                        },
                    ] {
                        let position = Point {
                            x: Fx::from_f64(x),
                            y: Fx::from_f64(y),
                        };
                        let graphic = Graphic {
                            flip_h,
                            flip_v,
                            opacity,
                            blend,
                            ..Graphic::new(
                                GraphicSource::Image(ImageId(0)),
                                position,
                                Origin::SourceAxis,
                            )
                        };
                        shifted += usize::from(
                            PixelShift::of_graphic(&graphic, (2, 3), &view()).is_some(),
                        );
                        for nearest in [true, false] {
                            assert_eq!(
                                canvas_after(&graphic, false, nearest),
                                canvas_after(&graphic, true, nearest),
                                "{graphic:?} nearest {nearest}"
                            );
                        }
                    }
                }
            }
        }
        assert_eq!(
            shifted,
            4 * 2 * 2 * 2,
            "the whole-pixel moves take the straight path"
        );
    }
}
