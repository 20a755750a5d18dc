//! Frame durations in each format's own unit.
//!
//! Durations are never converted to floating-point seconds inside the model: a MUGEN frame stays
//! a count of 60 Hz ticks, a Solarus frame a number of milliseconds, an ISPRITE frame a number of
//! holds at the effective frame rate. The playback engine turns them into exact rational times.

use serde::{Deserialize, Serialize};
use std::fmt;

/// MUGEN's fixed game speed.
pub const TICKS_PER_SECOND: u64 = 60;

/// How long a frame stays on screen, in the unit its format counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FrameDuration {
    /// Milliseconds (Solarus `frame_delay`).
    Millis(u32),
    /// 60 Hz game ticks (M.U.G.E.N AIR). Zero-length frames are skipped during playback.
    Ticks(u32),
    /// Frames at the effective frame rate: the sequence's override, else the set's master rate
    /// (ISPRITE hold time; a stored 0 plays as 1).
    Holds(u32),
    /// Seconds, exact to the nanosecond (ADL `DELAY`).
    Seconds {
        /// The duration in nanoseconds.
        nanos: u64,
    },
    /// Shown until something else happens (AIR `-1`, Solarus `frame_delay = 0`).
    Forever,
}

/// The unit a format counts frame durations in: which [`FrameDuration`] its frames hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// [`FrameDuration::Millis`].
    #[default]
    Millis,
    /// [`FrameDuration::Ticks`].
    Ticks,
    /// [`FrameDuration::Holds`] at the set's frame rate.
    Holds,
    /// [`FrameDuration::Seconds`].
    Seconds,
}

impl TimeUnit {
    /// A duration of one unit (a second for [`TimeUnit::Seconds`]), to be retimed.
    pub fn one(self) -> FrameDuration {
        match self {
            TimeUnit::Millis => FrameDuration::Millis(1),
            TimeUnit::Ticks => FrameDuration::Ticks(1),
            TimeUnit::Holds => FrameDuration::Holds(1),
            TimeUnit::Seconds => FrameDuration::Seconds {
                nanos: 1_000_000_000,
            },
        }
    }
}

/// An exact rational time: `numerator / denominator` seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactTime {
    /// Numerator in units of `1/denominator` seconds.
    pub numerator: u64,
    /// Units per second; never zero.
    pub denominator: u64,
}

impl ExactTime {
    /// The time in (possibly rounded) milliseconds, for display.
    pub fn as_millis_f64(self) -> f64 {
        self.numerator as f64 * 1000.0 / self.denominator as f64
    }
}

impl FrameDuration {
    /// The exact length of the frame, or `None` for [`FrameDuration::Forever`].
    ///
    /// `frame_rate` is the effective frame rate for [`FrameDuration::Holds`]; a rate of 0 means
    /// no automatic playback, which is reported as `None` (the frame never ends by itself).
    pub fn exact(self, frame_rate: u32) -> Option<ExactTime> {
        match self {
            FrameDuration::Millis(ms) => Some(ExactTime {
                numerator: ms as u64,
                denominator: 1000,
            }),
            FrameDuration::Ticks(t) => Some(ExactTime {
                numerator: t as u64,
                denominator: TICKS_PER_SECOND,
            }),
            FrameDuration::Holds(h) => (frame_rate > 0).then(|| ExactTime {
                numerator: h.max(1) as u64,
                denominator: frame_rate as u64,
            }),
            FrameDuration::Seconds { nanos } => Some(ExactTime {
                numerator: nanos,
                denominator: 1_000_000_000,
            }),
            FrameDuration::Forever => None,
        }
    }

    /// True for a frame that takes no time and is skipped by playback.
    pub fn is_zero(self) -> bool {
        matches!(
            self,
            FrameDuration::Millis(0)
                | FrameDuration::Ticks(0)
                | FrameDuration::Seconds { nanos: 0 }
        )
    }

    /// The name of the unit, for the user interface.
    pub fn unit_name(self) -> &'static str {
        match self {
            FrameDuration::Millis(_) => "ms",
            FrameDuration::Ticks(_) => "ticks",
            FrameDuration::Holds(_) => "holds",
            FrameDuration::Seconds { .. } => "s",
            FrameDuration::Forever => "forever",
        }
    }
}

impl fmt::Display for FrameDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameDuration::Millis(ms) => write!(f, "{ms} ms"),
            FrameDuration::Ticks(1) => write!(f, "1 tick"),
            FrameDuration::Ticks(t) => write!(f, "{t} ticks"),
            FrameDuration::Holds(1) => write!(f, "1 hold"),
            FrameDuration::Holds(h) => write!(f, "{h} holds"),
            FrameDuration::Seconds { nanos } => {
                let whole = nanos / 1_000_000_000;
                let frac = nanos % 1_000_000_000;
                if frac == 0 {
                    write!(f, "{whole} s")
                } else {
                    let digits = format!("{frac:09}");
                    write!(f, "{whole}.{} s", digits.trim_end_matches('0'))
                }
            }
            FrameDuration::Forever => write!(f, "forever"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_use_the_effective_rate_and_zero_plays_as_one() {
        assert_eq!(
            FrameDuration::Holds(0).exact(12),
            Some(ExactTime {
                numerator: 1,
                denominator: 12
            })
        );
        assert_eq!(FrameDuration::Holds(3).exact(0), None);
    }

    #[test]
    fn seconds_display_without_trailing_zeros() {
        assert_eq!(
            FrameDuration::Seconds { nanos: 180_000_000 }.to_string(),
            "0.18 s"
        );
        assert_eq!(
            FrameDuration::Seconds {
                nanos: 2_000_000_000
            }
            .to_string(),
            "2 s"
        );
    }
}
