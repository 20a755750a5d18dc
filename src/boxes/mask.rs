//! A frame's opaque pixels as a bit mask in sprite space.
//!
//! The mask is built by the same renderer the canvas draws with, so flips, scale, rotation and
//! several layered graphics count exactly as the user sees them.

use crate::model::{AnimationSet, Frame, RectF64, Shape, ShapeF64};
use crate::pixels::PixelSource;
use crate::render::{
    CanvasBounds, Overlay, RenderOptions, Scene, SpriteRect, capped_view, content_bounds, render,
};

/// A rendered pixel counts as opaque from this alpha on (half-transparent edges of smoothed
/// pictures count; faint glows and shadows do not).
pub const OPAQUE_ALPHA: u8 = 128;

/// A rectangle of whole sprite pixels, `[x0, x1) × [y0, y1)`; what fitting and tracing produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PixelBox {
    /// Left edge.
    pub x0: i32,
    /// Top edge.
    pub y0: i32,
    /// Right edge (exclusive).
    pub x1: i32,
    /// Bottom edge (exclusive).
    pub y1: i32,
}

impl PixelBox {
    /// Its area in pixels.
    pub fn area(&self) -> u64 {
        (self.x1 - self.x0).max(0) as u64 * (self.y1 - self.y0).max(0) as u64
    }

    /// The box grown by `margin` pixels on every side.
    pub fn grown(&self, margin: i32) -> PixelBox {
        PixelBox {
            x0: self.x0.saturating_sub(margin),
            y0: self.y0.saturating_sub(margin),
            x1: self.x1.saturating_add(margin),
            y1: self.y1.saturating_add(margin),
        }
    }

    /// The box as a model shape (an axis-aligned rectangle).
    pub fn to_shape(&self) -> Shape {
        use crate::model::Fx;
        Shape::Rect {
            x: Fx::from_int(self.x0),
            y: Fx::from_int(self.y0),
            width: Fx::from_int(self.x1 - self.x0),
            height: Fx::from_int(self.y1 - self.y0),
            rotation: 0.0,
        }
    }
}

/// Which pixels of a rectangle of sprite space are opaque. Row `y` of the mask is sprite row
/// `top + y`; each row is a run of 64-bit words, bit `x % 64` of word `x / 64` for column `x`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpaqueMask {
    left: i32,
    top: i32,
    width: usize,
    height: usize,
    words_per_row: usize,
    bits: Vec<u64>,
}

impl OpaqueMask {
    /// An all-transparent mask of `width × height` pixels whose first pixel is sprite pixel
    /// `(left, top)`.
    pub fn new(left: i32, top: i32, width: usize, height: usize) -> OpaqueMask {
        let words_per_row = width.div_ceil(64);
        OpaqueMask {
            left,
            top,
            width,
            height,
            words_per_row,
            bits: vec![0; words_per_row * height],
        }
    }

    /// A mask from a predicate over mask pixels (for tests and benches).
    pub fn from_fn(
        left: i32,
        top: i32,
        width: usize,
        height: usize,
        opaque: impl Fn(usize, usize) -> bool,
    ) -> OpaqueMask {
        let mut mask = OpaqueMask::new(left, top, width, height);
        for y in 0..height {
            for x in 0..width {
                if opaque(x, y) {
                    mask.set(x, y);
                }
            }
        }
        mask
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The sprite-space column of mask column 0.
    pub fn left(&self) -> i32 {
        self.left
    }

    /// The sprite-space row of mask row 0.
    pub fn top(&self) -> i32 {
        self.top
    }

    /// Marks mask pixel `(x, y)` opaque.
    pub fn set(&mut self, x: usize, y: usize) {
        self.bits[y * self.words_per_row + x / 64] |= 1 << (x % 64);
    }

    /// True when mask pixel `(x, y)` is opaque.
    pub fn get(&self, x: usize, y: usize) -> bool {
        x < self.width
            && y < self.height
            && self.bits[y * self.words_per_row + x / 64] & (1 << (x % 64)) != 0
    }

    /// The words of row `y`.
    pub fn row(&self, y: usize) -> &[u64] {
        &self.bits[y * self.words_per_row..(y + 1) * self.words_per_row]
    }

    /// The bytes the mask holds (its bits and itself).
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<OpaqueMask>() + self.bits.len() * 8
    }

    /// How many pixels are opaque.
    pub fn count(&self) -> u64 {
        self.bits.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// Opaque pixels of row `y` in columns `[x0, x1)` (mask coordinates).
    pub fn count_in_row(&self, y: usize, x0: usize, x1: usize) -> u64 {
        if x0 >= x1 || y >= self.height {
            return 0;
        }
        let x1 = x1.min(self.width);
        if x0 >= x1 {
            return 0;
        }
        (x0 / 64..=(x1 - 1) / 64)
            .map(|w| self.word_within(y, w, x0, x1).count_ones() as u64)
            .sum()
    }

    /// Word `w` of row `y` with the bits outside columns `[x0, x1)` cleared.
    fn word_within(&self, y: usize, w: usize, x0: usize, x1: usize) -> u64 {
        let mut bits = self.row(y)[w];
        if w == x0 / 64 {
            bits &= u64::MAX << (x0 % 64);
        }
        if w == (x1 - 1) / 64 && !x1.is_multiple_of(64) {
            bits &= u64::MAX >> (64 - x1 % 64);
        }
        bits
    }

    /// The first and last opaque column of row `y` within `[x0, x1)`, if any.
    pub fn row_extent(&self, y: usize, x0: usize, x1: usize) -> Option<(usize, usize)> {
        let x1 = x1.min(self.width);
        if x0 >= x1 {
            return None;
        }
        let (first, last) = (x0 / 64, (x1 - 1) / 64);
        let masked = |w: usize| self.word_within(y, w, x0, x1);
        let low = (first..=last).find_map(|w| {
            let bits = masked(w);
            (bits != 0).then(|| w * 64 + bits.trailing_zeros() as usize)
        })?;
        let high = (first..=last).rev().find_map(|w| {
            let bits = masked(w);
            (bits != 0).then(|| w * 64 + 63 - bits.leading_zeros() as usize)
        })?;
        Some((low, high))
    }

    /// The smallest box holding every opaque pixel, in sprite coordinates.
    pub fn bounds(&self) -> Option<PixelBox> {
        let region = Region {
            x0: 0,
            y0: 0,
            x1: self.width,
            y1: self.height,
        };
        self.tight(region).map(|r| self.to_sprite(r))
    }

    /// The smallest region within `region` holding all its opaque pixels.
    pub(crate) fn tight(&self, region: Region) -> Option<Region> {
        let mut result: Option<Region> = None;
        for y in region.y0..region.y1 {
            if let Some((a, b)) = self.row_extent(y, region.x0, region.x1) {
                result = Some(match result {
                    None => Region {
                        x0: a,
                        y0: y,
                        x1: b + 1,
                        y1: y + 1,
                    },
                    Some(r) => Region {
                        x0: r.x0.min(a),
                        y0: r.y0,
                        x1: r.x1.max(b + 1),
                        y1: y + 1,
                    },
                });
            }
        }
        result
    }

    /// Opaque pixels inside `region`.
    pub(crate) fn count_in(&self, region: Region) -> u64 {
        (region.y0..region.y1)
            .map(|y| self.count_in_row(y, region.x0, region.x1))
            .sum()
    }

    /// A mask region in sprite coordinates.
    pub(crate) fn to_sprite(&self, r: Region) -> PixelBox {
        PixelBox {
            x0: self.left + r.x0 as i32,
            y0: self.top + r.y0 as i32,
            x1: self.left + r.x1 as i32,
            y1: self.top + r.y1 as i32,
        }
    }

    /// How many opaque pixels lie inside at least one of `shapes` (a pixel counts when its
    /// centre is inside, exactly as [`shape_contains`] says).
    ///
    /// Row by row, the pixels the shapes cover are marked in a row of bits and counted against
    /// the opaque ones a word at a time: an upright box marks its span of columns at once,
    /// other shapes test the row's opaque pixels one by one. Each shape's sine and cosine are
    /// worked out once, not per pixel (the box lint asks this of every boxed frame).
    pub fn covered_by(&self, shapes: &[Shape]) -> u64 {
        let tests: Vec<ShapeTest> = shapes.iter().map(ShapeTest::of).collect();
        let mut cover = vec![0u64; self.words_per_row];
        let mut covered = 0;
        for y in 0..self.height {
            let row = self.row(y);
            if row.iter().all(|w| *w == 0) {
                continue;
            }
            let cy = self.top as f64 + y as f64 + 0.5;
            cover.fill(0);
            for test in &tests {
                match test {
                    ShapeTest::Upright(rect) => {
                        if (0.0..rect.height).contains(&(cy - rect.y)) {
                            let (x0, x1) = self.columns_within(rect.x, rect.width);
                            set_bits(&mut cover, x0, x1);
                        }
                    }
                    other => {
                        for x in (0..self.width).filter(|&x| row[x / 64] & (1 << (x % 64)) != 0) {
                            let cx = self.left as f64 + x as f64 + 0.5;
                            if other.contains(cx, cy) {
                                cover[x / 64] |= 1 << (x % 64);
                            }
                        }
                    }
                }
            }
            covered += row
                .iter()
                .zip(&cover)
                .map(|(r, c)| (r & c).count_ones() as u64)
                .sum::<u64>();
        }
        covered
    }

    /// The mask columns `[x0, x1)` whose pixel centres `cx` have `0 <= cx - left < width`,
    /// found by the same float test a pixel gets (it only grows with `x`).
    fn columns_within(&self, left: f64, width: f64) -> (usize, usize) {
        let offset = |x: usize| (self.left as f64 + x as f64 + 0.5) - left;
        let first = |holds: &dyn Fn(usize) -> bool| {
            let (mut low, mut high) = (0, self.width);
            while low < high {
                let middle = (low + high) / 2;
                if holds(middle) {
                    high = middle;
                } else {
                    low = middle + 1;
                }
            }
            low
        };
        let x0 = first(&|x| offset(x) >= 0.0);
        let x1 = first(&|x| offset(x) >= width);
        (x0, x1.max(x0))
    }
}

/// Sets bits `[x0, x1)` of `words`.
fn set_bits(words: &mut [u64], x0: usize, x1: usize) {
    for x in x0..x1 {
        if x % 64 == 0 && x + 64 <= x1 {
            words[x / 64] = u64::MAX;
        } else {
            words[x / 64] |= 1 << (x % 64);
        }
    }
}

/// A shape ready to test many points: its rotation's sine and cosine worked out once.
enum ShapeTest {
    /// A box with no rotation.
    Upright(RectF64),
    /// A rotated box, with its rotation's sine and cosine.
    Rotated { rect: RectF64, sin: f64, cos: f64 },
    /// A circle.
    Circle { x: f64, y: f64, radius: f64 },
}

impl ShapeTest {
    fn of(shape: &Shape) -> ShapeTest {
        match shape.to_f64() {
            ShapeF64::Rect(rect) => {
                let (sin, cos) = crate::render::geometry::exact_sin_cos(rect.rotation);
                if (sin, cos) == (0.0, 1.0) {
                    ShapeTest::Upright(rect)
                } else {
                    ShapeTest::Rotated { rect, sin, cos }
                }
            }
            ShapeF64::Circle { x, y, radius } => ShapeTest::Circle { x, y, radius },
        }
    }

    /// As [`shape_contains`] says, with the same arithmetic.
    fn contains(&self, x: f64, y: f64) -> bool {
        match *self {
            ShapeTest::Upright(rect) => {
                (0.0..rect.width).contains(&(x - rect.x))
                    && (0.0..rect.height).contains(&(y - rect.y))
            }
            ShapeTest::Rotated { rect, sin, cos } => {
                let (dx, dy) = (x - rect.x, y - rect.y);
                let (u, v) = (dx * cos + dy * sin, -dx * sin + dy * cos);
                (0.0..rect.width).contains(&u) && (0.0..rect.height).contains(&v)
            }
            ShapeTest::Circle {
                x: cx,
                y: cy,
                radius,
            } => {
                let (dx, dy) = (x - cx, y - cy);
                dx * dx + dy * dy <= radius * radius
            }
        }
    }
}

/// True when the sprite-space point `(x, y)` is inside `shape`.
pub fn shape_contains(shape: &Shape, x: f64, y: f64) -> bool {
    ShapeTest::of(shape).contains(x, y)
}

/// A rectangle of mask pixels, `[x0, x1) × [y0, y1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Region {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

impl Region {
    pub fn area(&self) -> u64 {
        (self.x1 - self.x0) as u64 * (self.y1 - self.y0) as u64
    }
}

/// The opaque pixels of `frame` as drawn by the renderer (graphics only, no overlay); `None`
/// when the frame draws nothing. Content larger than the renderer's canvas limit is cropped
/// around the origin, as on the canvas.
pub fn frame_mask(
    document: &AnimationSet,
    frame: &Frame,
    pixels: &dyn PixelSource,
) -> Option<OpaqueMask> {
    let scene = Scene::of_frame(frame);
    let bounds: SpriteRect = content_bounds(document, &scene, pixels, Overlay::NONE)?;
    let rect = capped_view(bounds, 1).rect;
    let options = RenderOptions {
        bounds: CanvasBounds::Fixed(rect),
        ..RenderOptions::default()
    };
    let image = render(document, &scene, pixels, &options);
    let (width, height) = (image.width() as usize, image.height() as usize);
    let mut mask = OpaqueMask::new(rect.x, rect.y, width, height);
    for (x, y, pixel) in image.enumerate_pixels() {
        if pixel[3] >= OPAQUE_ALPHA {
            mask.set(x as usize, y as usize);
        }
    }
    Some(mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_extents_follow_the_bits_across_word_edges() {
        let mask = OpaqueMask::from_fn(-10, 5, 130, 3, |x, y| y == 1 && (60..=70).contains(&x));
        assert_eq!(mask.count(), 11);
        assert_eq!(mask.count_in_row(1, 63, 65), 2);
        assert_eq!(mask.row_extent(1, 0, 130), Some((60, 70)));
        assert_eq!(mask.row_extent(1, 65, 130), Some((65, 70)));
        assert_eq!(mask.row_extent(0, 0, 130), None);
        assert_eq!(
            mask.bounds(),
            Some(PixelBox {
                x0: 50,
                y0: 6,
                x1: 61,
                y1: 7
            })
        );
    }

    #[test]
    fn coverage_counts_pixel_centres_inside_shapes() {
        let mask = OpaqueMask::from_fn(0, 0, 4, 4, |_, _| true);
        let half = PixelBox {
            x0: 0,
            y0: 0,
            x1: 2,
            y1: 4,
        };
        assert_eq!(mask.covered_by(&[half.to_shape()]), 8);
        assert_eq!(mask.covered_by(&[]), 0);
    }

    /// The pixel-by-pixel count the row-at-a-time one must equal.
    fn covered_one_by_one(mask: &OpaqueMask, shapes: &[Shape]) -> u64 {
        let mut covered = 0;
        for y in 0..mask.height {
            for x in 0..mask.width {
                let (cx, cy) = (
                    mask.left as f64 + x as f64 + 0.5,
                    mask.top as f64 + y as f64 + 0.5,
                );
                if mask.get(x, y) && shapes.iter().any(|s| shape_contains(s, cx, cy)) {
                    covered += 1;
                }
            }
        }
        covered
    }

    #[test]
    fn coverage_row_at_a_time_equals_the_pixel_by_pixel_count() {
        use crate::model::{Fx, Point};
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |below: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as i64
        };
        for _ in 0..300 {
            let (left, top) = (next(40) as i32 - 20, next(40) as i32 - 20);
            let (width, height) = (1 + next(150) as usize, 1 + next(12) as usize);
            let density = next(100);
            let mask = OpaqueMask::from_fn(left, top, width, height, |x, y| {
                (x * 31 + y * 17 + x * y) as i64 % 100 < density
            });
            // Halves and thirds land on and beside pixel centres.
            let coordinate = |n: i64| Fx::from_f64((n - 200) as f64 / 6.0);
            let shapes: Vec<Shape> = (0..next(4))
                .map(|_| match next(4) {
                    0 => Shape::Circle {
                        center: Point {
                            x: coordinate(next(400)),
                            y: coordinate(next(400)),
                        },
                        radius: Fx::from_f64(next(60) as f64 / 4.0),
                    },
                    kind => Shape::Rect {
                        x: coordinate(next(400)),
                        y: coordinate(next(400)),
                        width: Fx::from_f64(next(400) as f64 / 6.0),
                        height: Fx::from_f64(next(120) as f64 / 6.0),
                        rotation: [0.0, 90.0, 33.0][kind as usize - 1],
                    },
                })
                .collect();
            assert_eq!(
                mask.covered_by(&shapes),
                covered_one_by_one(&mask, &shapes),
                "{shapes:?} over {width}x{height} at ({left}, {top})"
            );
        }
    }
}
