//! Which box of one frame goes with which box of another: the box that covers the same part of
//! the body, told by how much the two overlap and how alike their sizes are, their order in
//! the frame only breaking ties. Traced boxes come in no particular order (largest part first,
//! say), so pairing them by order would pair a leg with the body.

use crate::model::{Shape, ShapeF64};

/// The axis-aligned rectangle `[left, top, right, bottom]` a shape covers (a rotated box's
/// corners included).
pub fn bounds(shape: &Shape) -> [f64; 4] {
    match shape.to_f64() {
        ShapeF64::Rect(rect) => {
            let (x, y, w, h) = (rect.x, rect.y, rect.width, rect.height);
            if rect.rotation == 0.0 {
                return [x, y, x + w, y + h];
            }
            // Clockwise about (x, y), with y pointing down.
            let (sin, cos) = rect.rotation.to_radians().sin_cos();
            let corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
                .map(|(dx, dy)| (x + dx * cos - dy * sin, y + dx * sin + dy * cos));
            corners.iter().fold(
                [f64::MAX, f64::MAX, f64::MIN, f64::MIN],
                |[l, t, r, b], (cx, cy)| [l.min(*cx), t.min(*cy), r.max(*cx), b.max(*cy)],
            )
        }
        ShapeF64::Circle { x, y, radius: r } => [x - r, y - r, x + r, y + r],
    }
}

fn area([left, top, right, bottom]: [f64; 4]) -> f64 {
    (right - left).max(0.0) * (bottom - top).max(0.0)
}

/// How much two shapes overlap: the area they share over the area they cover together
/// (0 apart, 1 the same rectangle), measured on their bounding rectangles.
pub fn overlap(a: &Shape, b: &Shape) -> f64 {
    let (p, q) = (bounds(a), bounds(b));
    let shared = area([
        p[0].max(q[0]),
        p[1].max(q[1]),
        p[2].min(q[2]),
        p[3].min(q[3]),
    ]);
    let together = area(p) + area(q) - shared;
    if together <= 0.0 {
        0.0
    } else {
        shared / together
    }
}

/// How alike two shapes' sizes are: the smaller area over the larger (1 the same size).
fn likeness(a: &Shape, b: &Shape) -> f64 {
    let (p, q) = (area(bounds(a)), area(bounds(b)));
    if p.max(q) <= 0.0 {
        1.0
    } else {
        p.min(q) / p.max(q)
    }
}

/// Pairs boxes of `a` with boxes of `b`, each used once: the pair that overlaps most first,
/// then the next among those left, and so on; between pairs that overlap as much (not at
/// all, say), the one whose sizes are most alike, then the one closest in order. Gives
/// `(index in a, index in b)` in `a`'s order; boxes left over on the larger side are left out.
pub fn pair_boxes(a: &[Shape], b: &[Shape]) -> Vec<(usize, usize)> {
    let mut candidates: Vec<(f64, f64, usize, usize, usize)> = Vec::new();
    for (i, p) in a.iter().enumerate() {
        for (j, q) in b.iter().enumerate() {
            candidates.push((overlap(p, q), likeness(p, q), i.abs_diff(j), i, j));
        }
    }
    // Best first: most overlap, most alike, nearest in order, then first in `a`.
    candidates.sort_by(|x, y| {
        y.0.total_cmp(&x.0)
            .then(y.1.total_cmp(&x.1))
            .then(x.2.cmp(&y.2))
            .then(x.3.cmp(&y.3))
            .then(x.4.cmp(&y.4))
    });
    let (mut used_a, mut used_b) = (vec![false; a.len()], vec![false; b.len()]);
    let mut pairs = Vec::new();
    for (.., i, j) in candidates {
        if !used_a[i] && !used_b[j] {
            used_a[i] = true;
            used_b[j] = true;
            pairs.push((i, j));
        }
    }
    pairs.sort();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boxes::test_shapes::{rect, turned_rect};

    #[test]
    fn boxes_pair_by_overlap_whatever_their_order() {
        // A body and a leg, listed body first in one frame and leg first in the other.
        let body = rect(-15, -80, 30, 50);
        let leg = rect(-5, -30, 12, 30);
        let (body_moved, leg_moved) = (rect(-13, -78, 30, 50), rect(-2, -30, 12, 30));
        let pairs = pair_boxes(&[body, leg], &[leg_moved, body_moved]);
        assert_eq!(pairs, vec![(0, 1), (1, 0)]);
    }

    #[test]
    fn boxes_apart_pair_by_size_then_by_order() {
        let (big, small) = (rect(0, 0, 40, 40), rect(0, 50, 8, 8));
        let far_small = rect(200, 0, 9, 8);
        let far_big = rect(200, 100, 40, 38);
        assert_eq!(
            pair_boxes(&[big.clone(), small], &[far_small, far_big]),
            vec![(0, 1), (1, 0)]
        );
        // Alike in every way: by order.
        let twin = rect(100, 0, 40, 40);
        assert_eq!(
            pair_boxes(&[big.clone(), big], &[twin.clone(), twin]),
            vec![(0, 0), (1, 1)]
        );
    }

    #[test]
    fn a_rotated_box_covers_its_turned_corners() {
        let turned = turned_rect(0, 0, 10, 4, 90.0);
        let [left, top, right, bottom] = bounds(&turned);
        assert!(
            (left + 4.0).abs() < 1e-9 && top.abs() < 1e-9,
            "{left} {top}"
        );
        assert!(right.abs() < 1e-9 && (bottom - 10.0).abs() < 1e-9);
    }
}
