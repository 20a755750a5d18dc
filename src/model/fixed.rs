//! Exact sub-pixel coordinates.
//!
//! ISPRITE stores positions as 1/256-pixel fixed point; every other format uses whole pixels.
//! [`Fx`] holds a value in 1/256 pixel units so every format's positions survive a round trip
//! without float drift.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{Add, Neg, Sub};

/// A coordinate in 1/256 pixel units (two's-complement Q24.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fx(pub i32);

impl Fx {
    /// Sub-pixel steps per pixel.
    pub const ONE: i32 = 256;
    /// Zero.
    pub const ZERO: Fx = Fx(0);

    /// A whole number of pixels.
    pub const fn from_int(pixels: i32) -> Fx {
        Fx(pixels.saturating_mul(Self::ONE))
    }

    /// The nearest 1/256 step to `value` (saturating at the i32 range).
    pub fn from_f64(value: f64) -> Fx {
        let scaled = (value * Self::ONE as f64).round();
        if scaled.is_nan() {
            Fx(0)
        } else {
            Fx(scaled.clamp(i32::MIN as f64, i32::MAX as f64) as i32)
        }
    }

    /// The exact value as a float (every Fx is exactly representable).
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / Self::ONE as f64
    }

    /// The value in pixels, rounded towards negative infinity.
    pub fn floor(self) -> i32 {
        self.0.div_euclid(Self::ONE)
    }

    /// The value in pixels if it is a whole number.
    pub fn to_int_exact(self) -> Option<i32> {
        (self.0.rem_euclid(Self::ONE) == 0).then(|| self.floor())
    }

    /// The whole part (floor) and the 1/256 fraction, as ISPRITE stores it.
    pub fn to_parts(self) -> (i32, u8) {
        (self.floor(), self.0.rem_euclid(Self::ONE) as u8)
    }

    /// The inverse of [`Fx::to_parts`].
    pub fn from_parts(whole: i32, fraction: u8) -> Fx {
        Fx(whole
            .saturating_mul(Self::ONE)
            .saturating_add(fraction as i32))
    }
}

impl Add for Fx {
    type Output = Fx;
    fn add(self, rhs: Fx) -> Fx {
        Fx(self.0.saturating_add(rhs.0))
    }
}

impl Sub for Fx {
    type Output = Fx;
    fn sub(self, rhs: Fx) -> Fx {
        Fx(self.0.saturating_sub(rhs.0))
    }
}

impl Neg for Fx {
    type Output = Fx;
    fn neg(self) -> Fx {
        Fx(self.0.saturating_neg())
    }
}

impl fmt::Display for Fx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_int_exact() {
            Some(whole) => write!(f, "{whole}"),
            None => write!(f, "{}", self.to_f64()),
        }
    }
}

// Written as a plain number of pixels so project files stay readable; every Fx is exactly a
// short decimal, so reading it back gives the same Fx.
impl Serialize for Fx {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.to_int_exact() {
            Some(whole) => serializer.serialize_i32(whole),
            None => serializer.serialize_f64(self.to_f64()),
        }
    }
}

impl<'de> Deserialize<'de> for Fx {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = f64::deserialize(deserializer)?;
        Ok(Fx::from_f64(value))
    }
}

/// A point in sprite space: x to the right, y down, (0, 0) at the sprite's origin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Point {
    /// Horizontal position.
    pub x: Fx,
    /// Vertical position (down is positive).
    pub y: Fx,
}

impl Point {
    /// The origin.
    pub const ZERO: Point = Point {
        x: Fx::ZERO,
        y: Fx::ZERO,
    };

    /// A point at whole pixels.
    pub const fn from_ints(x: i32, y: i32) -> Point {
        Point {
            x: Fx::from_int(x),
            y: Fx::from_int(y),
        }
    }
}

impl Add for Point {
    type Output = Point;
    fn add(self, rhs: Point) -> Point {
        Point {
            x: self.x + rhs.x,
            y: self.y + rhs.y,
        }
    }
}

impl Sub for Point {
    type Output = Point;
    fn sub(self, rhs: Point) -> Point {
        Point {
            x: self.x - rhs.x,
            y: self.y - rhs.y,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_fraction_uses_floor_convention() {
        // -12.5 is stored as whole -13 plus 128/256 (decision D7 of the ISPRITE vector).
        let v = Fx::from_f64(-12.5);
        assert_eq!(v.to_parts(), (-13, 0x80));
        assert_eq!(Fx::from_parts(-13, 0x80), v);
    }

    #[test]
    fn serde_round_trip_is_exact_for_every_fraction() {
        for raw in [-70_000, -1, 0, 1, 127, 128, 255, 256, 1_000_003] {
            let text = ron::to_string(&Fx(raw)).unwrap();
            let back: Fx = ron::from_str(&text).unwrap();
            assert_eq!(back, Fx(raw), "{text}");
        }
    }
}
