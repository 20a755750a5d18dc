//! Frame durations in whole milliseconds, the unit atlases count in. Rounding is spread over
//! a run (each frame ends at its exact end time rounded), so a run's total stays exact to the
//! millisecond and a 60 Hz action does not drift against the engine.

use crate::model::{Frame, FrameDuration};

/// What a frame shown forever (or with no automatic playback) is written as.
pub const FOREVER_MILLIS: u32 = 1000;

/// The milliseconds of each frame of a run at `rate` (for holds), and for each frame whose
/// duration is not a whole number of milliseconds, its index and what happened to it.
pub fn run_millis(frames: &[&Frame], rate: u32) -> (Vec<u32>, Vec<(usize, String)>) {
    let mut millis = Vec::with_capacity(frames.len());
    let mut notes = Vec::new();
    // Elapsed exact time as numerator / denominator seconds.
    let (mut num, mut den): (u128, u128) = (0, 1);
    let mut previous_end: u128 = 0;
    for (i, frame) in frames.iter().enumerate() {
        let Some(exact) = frame.duration.exact(rate) else {
            millis.push(FOREVER_MILLIS);
            let what = match frame.duration {
                FrameDuration::Forever => "a frame shown forever".to_string(),
                d => format!("duration {d} with no frame rate"),
            };
            notes.push((
                i,
                format!(
                    "{what} (written as {FOREVER_MILLIS} ms; atlas durations are milliseconds)"
                ),
            ));
            continue;
        };
        let (n, d) = (exact.numerator as u128, exact.denominator.max(1) as u128);
        num = num * d + n * den;
        den *= d;
        let g = gcd(num, den).max(1);
        num /= g;
        den /= g;
        let end = (num * 1000 + den / 2) / den;
        let ms = u32::try_from(end.saturating_sub(previous_end)).unwrap_or(u32::MAX);
        previous_end = end;
        if (n * 1000) % d != 0 {
            notes.push((
                i,
                format!(
                    "duration {} (written as {ms} ms; the sequence's total stays exact to the millisecond)",
                    frame.duration
                ),
            ));
        }
        millis.push(ms);
    }
    (millis, notes)
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_spread_their_rounding_and_keep_the_total() {
        let frames: Vec<Frame> = (0..3)
            .map(|_| Frame::new(FrameDuration::Ticks(1)))
            .collect();
        let refs: Vec<&Frame> = frames.iter().collect();
        let (ms, notes) = run_millis(&refs, 0);
        assert_eq!(ms, vec![17, 16, 17]);
        assert_eq!(ms.iter().sum::<u32>(), 50);
        assert_eq!(notes.len(), 3);
    }

    #[test]
    fn whole_milliseconds_and_holds_are_exact() {
        let frames = [
            Frame::new(FrameDuration::Millis(70)),
            Frame::new(FrameDuration::Holds(3)),
        ];
        let refs: Vec<&Frame> = frames.iter().collect();
        let (ms, notes) = run_millis(&refs, 10);
        assert_eq!(ms, vec![70, 300]);
        assert!(notes.is_empty());
    }
}
