//! Trace: a few boxes that together cover a frame's opaque pixels closely.
//!
//! The algorithm, deterministic and a few passes over the mask:
//! 1. With a thin-part threshold `t`, drop the pixels that lie in no fully opaque `t × t`
//!    square (a blade, a strand of hair, a one-pixel outline spur): a morphological opening.
//! 2. Start from the one box around everything; split greedily: among every box and every
//!    horizontal or vertical cut, take the cut whose two halves, each shrunk to its own
//!    pixels, save the most area. Stop at the box budget or when no cut saves anything.
//! 3. Trim: peel off the sparsest edge row or column of any box while that edge is mostly
//!    empty and the pixels peeled stay within [`TRIM_BUDGET`] of the opaque pixels.
//!
//! Boxes never overlap, so coverage is the sum of the opaque pixels inside each.

use super::fit::grow_keeping_a_pixel;
use super::mask::{OpaqueMask, PixelBox, Region};

/// The share of opaque pixels the trim may leave out (the rest, at least 97%, stays covered).
pub const TRIM_BUDGET: f64 = 0.03;

/// An edge row or column is peeled only when fewer than this share of its pixels are opaque.
const TRIM_DENSITY: f64 = 0.3;

/// The most boxes a trace gives.
pub const MAX_TRACE_BOXES: usize = 16;

/// How to trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceOptions {
    /// Boxes at most (1 to [`MAX_TRACE_BOXES`]).
    pub max_boxes: usize,
    /// Parts thinner than this many pixels are left out (0 or 1 keeps everything).
    pub thin: u32,
    /// Pixels added around each box (negative shrinks).
    pub margin: i32,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            max_boxes: 3,
            thin: 0,
            margin: 0,
        }
    }
}

/// The boxes covering `mask`, top to bottom then left to right; empty when nothing is opaque.
pub fn trace(mask: &OpaqueMask, options: &TraceOptions) -> Vec<PixelBox> {
    let opened;
    let mut work = mask;
    if options.thin > 1 {
        opened = without_thin_parts(mask, options.thin as usize);
        // A picture made only of thin parts keeps them: some box beats none.
        if opened.count() > 0 {
            work = &opened;
        }
    }
    let mut regions = split(work, options.max_boxes.clamp(1, MAX_TRACE_BOXES));
    trim(work, &mut regions);
    let mut boxes: Vec<PixelBox> = regions
        .into_iter()
        .map(|r| grow_keeping_a_pixel(work.to_sprite(r), options.margin))
        .collect();
    boxes.sort_by_key(|b| (b.y0, b.x0, b.y1, b.x1));
    boxes
}

/// Greedy guillotine splitting into at most `budget` tight regions.
fn split(mask: &OpaqueMask, budget: usize) -> Vec<Region> {
    let whole = Region {
        x0: 0,
        y0: 0,
        x1: mask.width(),
        y1: mask.height(),
    };
    let Some(first) = mask.tight(whole) else {
        return Vec::new();
    };
    let mut regions = vec![first];
    while regions.len() < budget {
        let best = regions
            .iter()
            .enumerate()
            .filter_map(|(i, r)| best_cut(mask, *r).map(|(gain, a, b)| (gain, i, a, b)))
            // The first of equal gains wins, so the result never depends on anything else.
            .fold(
                None,
                |best: Option<(u64, usize, Region, Region)>, c| match best {
                    Some(b) if b.0 >= c.0 => Some(b),
                    _ => Some(c),
                },
            );
        let Some((gain, i, a, b)) = best else { break };
        if gain == 0 {
            break;
        }
        regions[i] = a;
        regions.insert(i + 1, b);
    }
    regions
}

/// The cut of `r` saving the most area: `(saving, first half, second half)`, halves tight.
fn best_cut(mask: &OpaqueMask, r: Region) -> Option<(u64, Region, Region)> {
    let (w, h) = (r.x1 - r.x0, r.y1 - r.y0);
    if w < 2 && h < 2 {
        return None;
    }
    // Per row and per column of r: the opaque extent across it.
    let mut rows: Vec<Option<(usize, usize)>> = Vec::with_capacity(h);
    let mut cols: Vec<Option<(usize, usize)>> = vec![None; w];
    for y in r.y0..r.y1 {
        let extent = mask.row_extent(y, r.x0, r.x1);
        rows.push(extent.map(|(a, b)| (a - r.x0, b - r.x0)));
        if extent.is_some() {
            for (x, col) in cols.iter_mut().enumerate() {
                if mask.get(r.x0 + x, y) {
                    let yy = y - r.y0;
                    *col = Some(col.map_or((yy, yy), |(a, _)| (a, yy)));
                }
            }
        }
    }
    let area = r.area();
    let mut best: Option<(u64, Region, Region)> = None;
    let mut consider = |a: Region, b: Region| {
        let saving = area.saturating_sub(a.area() + b.area());
        if best.as_ref().is_none_or(|(s, _, _)| saving > *s) {
            best = Some((saving, a, b));
        }
    };
    for (lines, lines_are_rows) in [(&rows, true), (&cols, false)] {
        for (cut, first, second) in cuts(lines) {
            // The second half starts at the cut at the earliest.
            let second = (second.0, second.1, cut.max(second.2), second.3);
            consider(
                side_region(r, lines_are_rows, first),
                side_region(r, lines_are_rows, second),
            );
        }
    }
    best
}

/// The region of `r` one side of a cut covers, tight: its extent across the lines and its
/// first and last line, relative to `r`, on lines that are rows or columns of `r`.
fn side_region(r: Region, lines_are_rows: bool, (low, high, first, last): Side) -> Region {
    let (x, y) = if lines_are_rows {
        ((low, high), (first, last))
    } else {
        ((first, last), (low, high))
    };
    Region {
        x0: r.x0 + x.0,
        y0: r.y0 + y.0,
        x1: r.x0 + x.1 + 1,
        y1: r.y0 + y.1 + 1,
    }
}

/// Every cut of a line of extents into `[0, cut)` and `[cut, len)` with pixels on both sides:
/// `(cut, first, second)`, each side as (extent low, extent high, first line, last line).
type Side = (usize, usize, usize, usize);
fn cuts(lines: &[Option<(usize, usize)>]) -> Vec<(usize, Side, Side)> {
    let n = lines.len();
    let mut suffix: Vec<Option<Side>> = vec![None; n + 1];
    for i in (0..n).rev() {
        suffix[i] = match (lines[i], suffix[i + 1]) {
            (None, s) => s,
            (Some((a, b)), None) => Some((a, b, i, i)),
            (Some((a, b)), Some((lo, hi, _, last))) => Some((a.min(lo), b.max(hi), i, last)),
        };
    }
    let mut out = Vec::new();
    let mut prefix: Option<Side> = None;
    for cut in 1..n {
        prefix = match (prefix, lines[cut - 1]) {
            (p, None) => p,
            (None, Some((a, b))) => Some((a, b, cut - 1, cut - 1)),
            (Some((lo, hi, first, _)), Some((a, b))) => {
                Some((lo.min(a), hi.max(b), first, cut - 1))
            }
        };
        // Cutting inside a gap gives the same halves as cutting at its start.
        if lines[cut - 1].is_none() {
            continue;
        }
        if let (Some(p), Some(s)) = (prefix, suffix[cut]) {
            out.push((cut, p, s));
        }
    }
    out
}

/// Peels sparse edges off the regions within the trim budget.
fn trim(mask: &OpaqueMask, regions: &mut [Region]) {
    let mut budget = (mask.count() as f64 * TRIM_BUDGET).floor() as u64;
    loop {
        // (density, pixels, region index, edge) of the sparsest edge.
        let mut best: Option<(f64, u64, usize, Edge)> = None;
        for (i, r) in regions.iter().enumerate() {
            for edge in [Edge::Top, Edge::Bottom, Edge::Left, Edge::Right] {
                let Some(line) = edge.line(*r) else { continue };
                let pixels = mask.count_in(line);
                let density = pixels as f64 / line.area() as f64;
                if density < TRIM_DENSITY
                    && pixels <= budget
                    && best.as_ref().is_none_or(|b| density < b.0)
                {
                    best = Some((density, pixels, i, edge));
                }
            }
        }
        let Some((_, pixels, i, edge)) = best else {
            return;
        };
        budget -= pixels;
        let peeled = edge.peel(regions[i]);
        match mask.tight(peeled) {
            Some(tight) => regions[i] = tight,
            None => return,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edge {
    Top,
    Bottom,
    Left,
    Right,
}

impl Edge {
    /// The one-pixel line of `r` on this edge, if `r` is more than one pixel across there.
    fn line(self, r: Region) -> Option<Region> {
        match self {
            Edge::Top | Edge::Bottom if r.y1 - r.y0 < 2 => None,
            Edge::Left | Edge::Right if r.x1 - r.x0 < 2 => None,
            Edge::Top => Some(Region { y1: r.y0 + 1, ..r }),
            Edge::Bottom => Some(Region { y0: r.y1 - 1, ..r }),
            Edge::Left => Some(Region { x1: r.x0 + 1, ..r }),
            Edge::Right => Some(Region { x0: r.x1 - 1, ..r }),
        }
    }

    /// `r` without that line.
    fn peel(self, r: Region) -> Region {
        match self {
            Edge::Top => Region { y0: r.y0 + 1, ..r },
            Edge::Bottom => Region { y1: r.y1 - 1, ..r },
            Edge::Left => Region { x0: r.x0 + 1, ..r },
            Edge::Right => Region { x1: r.x1 - 1, ..r },
        }
    }
}

/// `mask` without the pixels that lie in no fully opaque `t × t` square.
fn without_thin_parts(mask: &OpaqueMask, t: usize) -> OpaqueMask {
    let (w, h) = (mask.width(), mask.height());
    let mut kept = OpaqueMask::new(mask.left(), mask.top(), w, h);
    if t > w || t > h {
        return kept;
    }
    let sums = integral(w, h, |x, y| mask.get(x, y));
    let full = (t * t) as u32;
    let (cw, ch) = (w - t + 1, h - t + 1);
    let corner = |x: usize, y: usize| window(&sums, w, x, y, t) == full;
    let corners = integral(cw, ch, corner);
    for y in 0..h {
        for x in 0..w {
            if !mask.get(x, y) {
                continue;
            }
            // Corners (top-left of a full square) that reach this pixel.
            let (cx0, cy0) = (x.saturating_sub(t - 1), y.saturating_sub(t - 1));
            let (cx1, cy1) = ((x + 1).min(cw), (y + 1).min(ch));
            if cx0 < cx1 && cy0 < cy1 && rect_sum(&corners, cw, cx0, cy0, cx1, cy1) > 0 {
                kept.set(x, y);
            }
        }
    }
    kept
}

/// A summed-area table of `(w + 1) × (h + 1)` entries.
fn integral(w: usize, h: usize, value: impl Fn(usize, usize) -> bool) -> Vec<u32> {
    let stride = w + 1;
    let mut sums = vec![0u32; stride * (h + 1)];
    for y in 0..h {
        let mut row = 0;
        for x in 0..w {
            row += value(x, y) as u32;
            sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row;
        }
    }
    sums
}

fn rect_sum(sums: &[u32], w: usize, x0: usize, y0: usize, x1: usize, y1: usize) -> u32 {
    let stride = w + 1;
    sums[y1 * stride + x1] + sums[y0 * stride + x0]
        - sums[y0 * stride + x1]
        - sums[y1 * stride + x0]
}

fn window(sums: &[u32], w: usize, x: usize, y: usize, t: usize) -> u32 {
    rect_sum(sums, w, x, y, x + t, y + t)
}

/// What share of `mask`'s opaque pixels `boxes` cover, and their total area over the opaque
/// area (the two figures a trace is judged by).
pub fn coverage_and_area(mask: &OpaqueMask, boxes: &[PixelBox]) -> (f64, f64) {
    let opaque = mask.count();
    if opaque == 0 {
        return (1.0, 0.0);
    }
    let shapes: Vec<_> = boxes.iter().map(|b| b.to_shape()).collect();
    let covered = mask.covered_by(&shapes);
    let area: u64 = boxes.iter().map(|b| b.area()).sum();
    (covered as f64 / opaque as f64, area as f64 / opaque as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(max_boxes: usize, thin: u32) -> TraceOptions {
        TraceOptions {
            max_boxes,
            thin,
            margin: 0,
        }
    }

    /// A head on a body on two legs with a gap between them.
    fn figure() -> OpaqueMask {
        OpaqueMask::from_fn(-30, -100, 60, 100, |x, y| {
            let head = (24..36).contains(&x) && (4..16).contains(&y);
            let body = (14..46).contains(&x) && (16..60).contains(&y);
            let legs = ((16..26).contains(&x) || (34..44).contains(&x)) && (60..100).contains(&y);
            head || body || legs
        })
    }

    #[test]
    fn three_boxes_cover_a_figure_tightly() {
        let mask = figure();
        let boxes = trace(&mask, &options(3, 0));
        assert_eq!(boxes.len(), 3);
        let (coverage, area) = coverage_and_area(&mask, &boxes);
        assert!(coverage >= 0.95, "{coverage}");
        assert!(area <= 1.2, "{area}");
    }

    #[test]
    fn one_box_is_the_fit() {
        let mask = figure();
        assert_eq!(
            trace(&mask, &options(1, 0)),
            vec![super::super::fit::fit(&mask, 0).unwrap()]
        );
    }

    #[test]
    fn the_same_pixels_give_the_same_boxes() {
        let mask = figure();
        assert_eq!(
            trace(&mask, &options(4, 3)),
            trace(&mask.clone(), &options(4, 3))
        );
    }

    #[test]
    fn a_thin_blade_is_left_out_above_the_threshold() {
        // A 20 x 20 body with a 2-pixel blade 30 pixels long to its right.
        let mask = OpaqueMask::from_fn(0, 0, 60, 20, |x, y| x < 20 || (y == 9 || y == 10));
        let kept = trace(&mask, &options(2, 4));
        assert_eq!(kept.len(), 1);
        assert_eq!((kept[0].x1, kept[0].y1), (20, 20));
        let all = trace(&mask, &options(2, 0));
        assert!(all.iter().any(|b| b.x1 == 60));
    }

    #[test]
    fn nothing_opaque_gives_no_box() {
        assert!(trace(&OpaqueMask::new(0, 0, 10, 10), &options(3, 2)).is_empty());
    }
}
