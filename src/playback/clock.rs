//! Exact time keeping for playback.
//!
//! Every duration a format can express is a rational number of seconds whose denominator
//! divides `lcm(3·10⁹, fps)`: milliseconds (1000), 60 Hz ticks (60), nanoseconds (10⁹) and holds
//! at the frame rate. Elapsed wall time arrives in nanoseconds and the speed in per-mille, so
//! counting in units of `1 / (lcm · 1000)` seconds keeps every step an integer: no rounding, no
//! drift, however long the preview runs and whatever the speed.

use crate::model::ExactTime;

/// The smallest common base of ms, ticks and ns.
const BASE_UNITS_PER_SECOND: u128 = 3_000_000_000;
const NANOS_PER_SECOND: u128 = 1_000_000_000;
/// Speed is counted in thousandths.
pub const SPEED_SCALE: u128 = 1000;

/// Converts times to the integer units a player counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    units_per_second: u128,
    /// `units_per_second / 10⁹`, exact (the base is a multiple of 10⁹), kept so that the
    /// per-call step of playback needs no 128-bit division.
    units_per_nano: u128,
}

impl Clock {
    /// A clock fine enough for ms, ticks, ns and holds at `frame_rate` frames per second.
    pub fn for_frame_rate(frame_rate: u32) -> Clock {
        let fps = frame_rate.max(1) as u128;
        let units_per_second = lcm(BASE_UNITS_PER_SECOND, fps);
        Clock {
            units_per_second,
            units_per_nano: units_per_second / NANOS_PER_SECOND,
        }
    }

    /// Units (already multiplied by the speed scale) for `nanos` of wall time at `speed_milli`.
    pub fn elapsed_units(self, nanos: u128, speed_milli: u32) -> u128 {
        nanos * self.units_per_nano * speed_milli as u128
    }

    /// The length of a duration in scaled units (exact: the denominator divides the clock).
    pub fn duration_units(self, time: ExactTime) -> u128 {
        // lcm(3·10⁹, any u32 rate) < 2⁶⁴: a 64-bit division, several times cheaper than 128.
        let units_per_second = self.units_per_second as u64;
        let per = u128::from(units_per_second / time.denominator.max(1));
        if per * time.denominator as u128 == self.units_per_second {
            time.numerator as u128 * per * SPEED_SCALE
        } else {
            // A denominator the clock does not divide (cannot come from the model's units);
            // round rather than fail.
            time.numerator as u128 * self.units_per_second * SPEED_SCALE / time.denominator as u128
        }
    }

    /// The wall time after which `units` (scaled) have passed at `speed_milli`, rounded up to
    /// the next nanosecond, so that waiting that long always reaches them.
    pub fn wall_time(self, units: u128, speed_milli: u32) -> std::time::Duration {
        let per_nano = self.units_per_nano * speed_milli.max(1) as u128;
        let nanos = units.div_ceil(per_nano);
        std::time::Duration::from_nanos(nanos.min(u64::MAX as u128) as u64)
    }

    /// Scaled units as seconds (for display only).
    pub fn seconds(self, units: u128) -> f64 {
        units as f64 / (self.units_per_second * SPEED_SCALE) as f64
    }

    /// Re-expresses scaled units of `self` in `other`, rounding down (used once per switch to a
    /// sequence with another frame rate).
    pub fn convert(self, units: u128, other: Clock) -> u128 {
        if self == other {
            units
        } else {
            units * other.units_per_second / self.units_per_second
        }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn lcm(a: u128, b: u128) -> u128 {
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_native_unit_is_a_whole_number_of_clock_units() {
        let clock = Clock::for_frame_rate(12);
        for denominator in [1000, 60, 1_000_000_000, 12] {
            let t = ExactTime {
                numerator: 1,
                denominator,
            };
            let units = clock.duration_units(t);
            assert_eq!(
                units * denominator as u128,
                clock.units_per_second * SPEED_SCALE
            );
        }
    }

    #[test]
    fn the_largest_frame_rate_still_divides_in_64_bits() {
        let clock = Clock::for_frame_rate(u32::MAX);
        assert!(u64::try_from(clock.units_per_second).is_ok());
        let hold = ExactTime {
            numerator: 3,
            denominator: u64::from(u32::MAX),
        };
        assert_eq!(
            clock.duration_units(hold) * u128::from(u32::MAX),
            3 * clock.units_per_second * SPEED_SCALE
        );
    }

    #[test]
    fn speed_scales_elapsed_time_exactly() {
        let clock = Clock::for_frame_rate(60);
        let tick = clock.duration_units(ExactTime {
            numerator: 1,
            denominator: 60,
        });
        // At 0.1x a tick takes 10/60 s of wall time.
        assert!(clock.elapsed_units(166_666_666, 100) < tick);
        assert_eq!(clock.elapsed_units(1_000_000_000, 100), 6 * tick);
    }
}
