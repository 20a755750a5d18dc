//! Godot's timing model: an animation has a `speed` in frames per second and each frame a
//! relative `duration`, shown for `duration / speed` seconds. The speed chosen is the one that
//! makes every frame's exact duration a whole number, when that is at most [`MAX_SPEED`].

use crate::model::{Frame, FrameDuration};

/// The highest speed Sprat writes (a finer one would mean sub-millisecond frames).
pub const MAX_SPEED: u64 = 1000;

/// A run's speed, each frame's relative duration, and for each frame that is not exact its
/// index and what happened.
pub struct GodotTiming {
    /// Frames per second.
    pub speed: u64,
    /// Relative durations, whole numbers.
    pub durations: Vec<u64>,
    /// Frames whose duration is not exact.
    pub inexact: Vec<(usize, String)>,
}

/// The timing of frames at the effective frame rate `rate` (for holds); `millis` are the
/// frames' millisecond durations, the fallback when no exact speed exists.
pub fn godot_timing(frames: &[&Frame], rate: u32, millis: &[u32]) -> GodotTiming {
    let exact: Vec<Option<(u128, u128)>> = frames
        .iter()
        .map(|f| {
            f.duration.exact(rate).map(|t| {
                let (n, d) = (t.numerator as u128, t.denominator.max(1) as u128);
                let g = gcd(n, d).max(1);
                (n / g, d / g)
            })
        })
        .collect();
    let mut lcm: u128 = 1;
    for (_, d) in exact.iter().flatten() {
        lcm = lcm / gcd(lcm, *d) * d;
        if lcm > MAX_SPEED as u128 {
            break;
        }
    }
    let mut inexact = Vec::new();
    for (i, (frame, t)) in frames.iter().zip(&exact).enumerate() {
        if t.is_none() {
            let what = match frame.duration {
                FrameDuration::Forever => "a frame shown forever".to_string(),
                d => format!("duration {d} with no frame rate"),
            };
            inexact.push((i, format!("{what} (written as one second)")));
        }
    }
    if lcm <= MAX_SPEED as u128 {
        let mut durations: Vec<u64> = exact
            .iter()
            .map(|t| match t {
                Some((n, d)) => (n * lcm / d) as u64,
                None => lcm as u64,
            })
            .collect();
        // Smaller numbers read better: divide speed and durations by what they share.
        let shared = durations
            .iter()
            .fold(lcm as u64, |g, &d| gcd(g as u128, d as u128) as u64)
            .max(1);
        durations.iter_mut().for_each(|d| *d /= shared);
        return GodotTiming {
            speed: lcm as u64 / shared,
            durations,
            inexact,
        };
    }
    for (i, frame) in frames.iter().enumerate() {
        // At 1000 fps, whole milliseconds stay exact.
        if exact[i].is_some_and(|(n, d)| (n * 1000) % d != 0) {
            inexact.push((
                i,
                format!(
                    "duration {} (no speed up to {MAX_SPEED} fps makes it exact; written as {} ms)",
                    frame.duration, millis[i]
                ),
            ));
        }
    }
    GodotTiming {
        speed: 1000,
        durations: millis.iter().map(|&m| m as u64).collect(),
        inexact,
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing_of(durations: &[FrameDuration], rate: u32) -> GodotTiming {
        let frames: Vec<Frame> = durations.iter().map(|d| Frame::new(*d)).collect();
        let refs: Vec<&Frame> = frames.iter().collect();
        godot_timing(&refs, rate, &vec![0; frames.len()])
    }

    #[test]
    fn equal_frames_give_a_plain_frame_rate() {
        let t = timing_of(&[FrameDuration::Millis(100); 3], 0);
        assert_eq!((t.speed, t.durations.clone()), (10, vec![1, 1, 1]));
        assert!(t.inexact.is_empty());
    }

    #[test]
    fn ticks_and_uneven_milliseconds_stay_exact() {
        let t = timing_of(&[FrameDuration::Ticks(4), FrameDuration::Ticks(6)], 0);
        assert_eq!((t.speed, t.durations.clone()), (30, vec![2, 3]));
        let t = timing_of(&[FrameDuration::Millis(70), FrameDuration::Millis(100)], 0);
        assert_eq!((t.speed, t.durations.clone()), (100, vec![7, 10]));
        assert!(t.inexact.is_empty());
    }

    #[test]
    fn a_duration_no_speed_makes_exact_is_reported() {
        let t = timing_of(
            &[
                FrameDuration::Seconds { nanos: 1_000_001 },
                FrameDuration::Millis(5),
            ],
            0,
        );
        assert_eq!(t.speed, 1000);
        assert_eq!(t.inexact.len(), 1);
    }
}
