//! Fit: one box around every opaque pixel of a frame.

use super::mask::{OpaqueMask, PixelBox};

/// The smallest box holding every opaque pixel of `mask`, grown by `margin` pixels on each
/// side (a negative margin shrinks it, never below one pixel). `None` when nothing is opaque.
pub fn fit(mask: &OpaqueMask, margin: i32) -> Option<PixelBox> {
    mask.bounds().map(|b| grow_keeping_a_pixel(b, margin))
}

/// `b` grown by `margin`; a shrink stops at one pixel across so the box never vanishes.
pub fn grow_keeping_a_pixel(b: PixelBox, margin: i32) -> PixelBox {
    let grown = b.grown(margin);
    let (x0, x1) = if grown.x1 > grown.x0 {
        (grown.x0, grown.x1)
    } else {
        let mid = b.x0 + (b.x1 - b.x0 - 1) / 2;
        (mid, mid + 1)
    };
    let (y0, y1) = if grown.y1 > grown.y0 {
        (grown.y0, grown.y1)
    } else {
        let mid = b.y0 + (b.y1 - b.y0 - 1) / 2;
        (mid, mid + 1)
    };
    PixelBox { x0, y0, x1, y1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_holds_every_opaque_pixel_plus_the_margin() {
        let mask = OpaqueMask::from_fn(-20, -40, 40, 40, |x, y| {
            (5..15).contains(&x) && (10..30).contains(&y)
        });
        let expected = PixelBox {
            x0: -17,
            y0: -32,
            x1: -3,
            y1: -8,
        };
        assert_eq!(fit(&mask, 2), Some(expected));
        assert_eq!(fit(&OpaqueMask::new(0, 0, 8, 8), 2), None);
    }

    #[test]
    fn a_large_negative_margin_leaves_one_pixel() {
        let mask = OpaqueMask::from_fn(0, 0, 10, 10, |x, y| x < 4 && y < 6);
        let b = fit(&mask, -10).unwrap();
        assert_eq!((b.x1 - b.x0, b.y1 - b.y0), (1, 1));
    }
}
