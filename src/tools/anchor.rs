//! Where a frame's anchor is, in sprite space: the bottom centre of its opaque pixels (its
//! feet), their centre of mass, or a named attachment point. Align frames moves each frame so
//! its anchor lands on the origin ([`crate::edit::align`]).

use crate::boxes::mask::{OpaqueMask, frame_mask};
use crate::model::{AnimationSet, Frame};
use crate::pixels::PixelSource;
use std::fmt;

/// What lines up across the frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The bottom centre of the opaque pixels: the middle of the lowest band of rows (an
    /// eighth of the picture's height, at least one row), at the bottom edge.
    Feet,
    /// The centre of mass of the opaque pixels.
    Centre,
    /// The frame's attachment point of this name.
    Point(String),
}

impl Anchor {
    /// Parses `feet`, `centre` (or `center`) or `point:NAME`.
    pub fn parse(text: &str) -> Result<Anchor, String> {
        let text = text.trim();
        match text {
            "feet" => Ok(Anchor::Feet),
            "centre" | "center" => Ok(Anchor::Centre),
            _ => match text.strip_prefix("point:") {
                Some(name) if !name.trim().is_empty() => Ok(Anchor::Point(name.trim().to_string())),
                Some(_) => Err("point: needs the point's name (point:NAME)".to_string()),
                None => Err(format!(
                    "\"{text}\" is not an anchor (feet, centre or point:NAME)"
                )),
            },
        }
    }

    /// True when the anchor is found in the pictures (so pixels must be loaded).
    pub fn needs_pixels(&self) -> bool {
        !matches!(self, Anchor::Point(_))
    }
}

impl fmt::Display for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Anchor::Feet => f.write_str("feet"),
            Anchor::Centre => f.write_str("centre"),
            Anchor::Point(name) => write!(f, "point \"{name}\""),
        }
    }
}

/// Why a frame has no anchor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoAnchor {
    /// It draws no opaque pixel.
    NoOpaquePixels,
    /// It has no attachment point of that name.
    NoPoint(String),
}

impl fmt::Display for NoAnchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoAnchor::NoOpaquePixels => f.write_str("it has no opaque pixels"),
            NoAnchor::NoPoint(name) => write!(f, "it has no point named \"{name}\""),
        }
    }
}

/// The anchor of `frame` in sprite space (x right, y down, pixel edges at whole numbers).
pub fn find_anchor(
    document: &AnimationSet,
    frame: &Frame,
    anchor: &Anchor,
    pixels: &dyn PixelSource,
) -> Result<(f64, f64), NoAnchor> {
    match anchor {
        Anchor::Point(name) => frame
            .elements
            .iter()
            .filter(|e| &e.name == name)
            .find_map(|e| e.as_point())
            .map(|p| (p.position.x.to_f64(), p.position.y.to_f64()))
            .ok_or_else(|| NoAnchor::NoPoint(name.clone())),
        Anchor::Feet | Anchor::Centre => {
            let mask = frame_mask(document, frame, pixels).ok_or(NoAnchor::NoOpaquePixels)?;
            let found = match anchor {
                Anchor::Feet => feet(&mask),
                _ => centre_of_mass(&mask),
            };
            found.ok_or(NoAnchor::NoOpaquePixels)
        }
    }
}

/// The middle of the opaque pixels of the lowest eighth of the picture (at least one row),
/// at its bottom edge: where a standing character's feet are, whatever its arms or weapon do
/// higher up.
pub fn feet(mask: &OpaqueMask) -> Option<(f64, f64)> {
    let bounds = mask.bounds()?;
    let height = (bounds.y1 - bounds.y0) as usize;
    let band = (height / 8).max(1);
    let bottom = (bounds.y1 - mask.top()) as usize;
    let (mut left, mut right) = (usize::MAX, 0usize);
    for y in bottom - band..bottom {
        if let Some((a, b)) = mask.row_extent(y, 0, mask.width()) {
            left = left.min(a);
            right = right.max(b);
        }
    }
    let middle = (left + right + 1) as f64 / 2.0;
    Some((mask.left() as f64 + middle, bounds.y1 as f64))
}

/// The mean of the centres of the opaque pixels.
pub fn centre_of_mass(mask: &OpaqueMask) -> Option<(f64, f64)> {
    let (mut sum_x, mut sum_y, mut count) = (0f64, 0f64, 0u64);
    for y in 0..mask.height() {
        let row = mask.row(y);
        for (w, &word) in row.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let x = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                sum_x += x as f64 + 0.5;
                sum_y += y as f64 + 0.5;
                count += 1;
            }
        }
    }
    (count > 0).then(|| {
        (
            mask.left() as f64 + sum_x / count as f64,
            mask.top() as f64 + sum_y / count as f64,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feet_are_the_middle_of_the_bottom_band() {
        // A body 8 wide and 16 tall at x 0..8, with an arm reaching right at the top, and
        // two feet at x 0..2 and 6..8 on the last two rows (the band is 16 / 8 = 2 rows).
        let mask = OpaqueMask::from_fn(-4, -16, 20, 16, |x, y| {
            (y < 14 && x < 8) || (y < 3 && x < 20) || (y >= 14 && (x < 2 || (6..8).contains(&x)))
        });
        assert_eq!(feet(&mask), Some((0.0, 0.0)));
        let empty = OpaqueMask::new(0, 0, 4, 4);
        assert_eq!(feet(&empty), None);
        assert_eq!(centre_of_mass(&empty), None);
    }

    #[test]
    fn the_centre_of_mass_weighs_every_pixel() {
        let mask = OpaqueMask::from_fn(10, 0, 4, 2, |x, _| x == 0 || x == 3);
        assert_eq!(centre_of_mass(&mask), Some((12.0, 1.0)));
    }

    #[test]
    fn anchors_parse_and_refuse() {
        assert_eq!(Anchor::parse("feet"), Ok(Anchor::Feet));
        assert_eq!(Anchor::parse("center"), Ok(Anchor::Centre));
        assert_eq!(
            Anchor::parse("point:hand"),
            Ok(Anchor::Point("hand".into()))
        );
        assert!(Anchor::parse("point:").is_err());
        assert!(Anchor::parse("head").is_err());
    }
}
