//! One pass through a sequence as the playback engine plays it: which frame shows, for exactly
//! how long, and how the pass ends. Exports are driven by this so their timing rules (loop
//! point, zero-length frames, "forever" frames, follow-ups, Solarus "disappear") are the
//! engine's, not a second copy of them.

use super::ExportError;
use crate::model::{AnimationSet, ExactTime, FrameId, SequenceId};
use crate::playback::{PlaybackEvent, Player};
use std::time::Duration;

/// A pass stops after this many frames even if the engine keeps going.
pub const MAX_STEPS: usize = 10_000;

/// One frame of the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The sequence playing.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// The frame index within the direction.
    pub index: usize,
    /// False for the empty picture left after a Solarus sequence disappears.
    pub visible: bool,
    /// How long it shows; `None` = until something else happens (a "forever" frame, the end).
    pub length: Option<ExactTime>,
}

/// How a pass ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Playback went back to the loop point: the pass repeats.
    Loops {
        /// The frame index playback returns to.
        to: usize,
    },
    /// The sequence stopped on its last frame, which stays on screen.
    HoldsLastFrame,
    /// The sequence stopped and the sprite disappeared (the pass ends on an empty step).
    Disappears,
    /// A frame that never ends was reached.
    Forever,
    /// Another sequence took over (follow-up).
    FollowUp(SequenceId),
    /// The pass was cut at [`MAX_STEPS`] frames.
    Truncated,
}

/// One pass through a direction of a sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    /// The frames in play order.
    pub steps: Vec<Step>,
    /// What happens after the last step.
    pub ending: Ending,
}

impl Ending {
    /// Whether an animation of the pass through `sequence` repeats forever (it loops, or
    /// follows up with itself) rather than plays once.
    pub fn repeats(self, sequence: SequenceId) -> bool {
        match self {
            Ending::Loops { .. } => true,
            Ending::FollowUp(next) => next == sequence,
            _ => false,
        }
    }
}

/// The frames `direction` of `sequence` shows, refused when there are none to export (no such
/// sequence or direction, or an empty direction).
pub(super) fn frames_to_export(
    document: &AnimationSet,
    sequence: SequenceId,
    direction: usize,
) -> Result<&[FrameId], ExportError> {
    let seq = document
        .sequence(sequence)
        .ok_or(ExportError::NoSequence(sequence))?;
    let frames = &seq
        .directions
        .get(direction)
        .ok_or(ExportError::NoDirection(direction))?
        .frames;
    if frames.is_empty() {
        return Err(ExportError::NoFrames);
    }
    Ok(frames)
}

/// Plays `direction` of `sequence` once through with the engine, from its first frame until it
/// loops, stops, reaches a frame that lasts forever or hands over to a follow-up.
pub fn timeline(
    document: &AnimationSet,
    sequence: SequenceId,
    direction: usize,
) -> Result<Timeline, ExportError> {
    frames_to_export(document, sequence, direction)?;
    let mut player = Player::new(document, sequence, direction);
    player.play(document);
    // Exact elapsed time, and the whole nanoseconds handed to the engine so far (always the
    // exact time rounded up, so the engine is past each frame's end by under a nanosecond and
    // never drifts).
    let mut exact = Rational::ZERO;
    let mut fed_nanos: u128 = 0;
    let mut steps = Vec::new();
    let ending = loop {
        if steps.len() >= MAX_STEPS {
            break Ending::Truncated;
        }
        let length = current_length(document, &player);
        steps.push(Step {
            sequence: player.sequence(),
            direction: player.direction(),
            index: player.frame_index(),
            visible: true,
            length,
        });
        let Some(length) = length else {
            break Ending::Forever;
        };
        exact = exact.plus(length);
        let target = exact.ceil_nanos();
        let step = u64::try_from(target - fed_nanos).unwrap_or(u64::MAX);
        fed_nanos = target;
        player.advance(document, Duration::from_nanos(step));
        let ended = player
            .take_events()
            .into_iter()
            .find_map(|event| match event {
                PlaybackEvent::Looped { .. } => Some(Ending::Loops {
                    to: player.frame_index(),
                }),
                PlaybackEvent::SequenceChanged { to, .. } => Some(Ending::FollowUp(to)),
                PlaybackEvent::Finished { visible: true, .. } => Some(Ending::HoldsLastFrame),
                PlaybackEvent::Finished { visible: false, .. } => Some(Ending::Disappears),
                PlaybackEvent::Triggers { .. } => None,
            });
        if let Some(ending) = ended {
            if ending == Ending::Disappears {
                steps.push(Step {
                    visible: false,
                    length: None,
                    ..steps[steps.len() - 1]
                });
            }
            break ending;
        }
    };
    Ok(Timeline { steps, ending })
}

/// The exact length of the frame the player shows, at the sequence's effective frame rate.
fn current_length(document: &AnimationSet, player: &Player) -> Option<ExactTime> {
    let sequence = document.sequence(player.sequence())?;
    let rate = sequence.frame_rate.or(document.frame_rate).unwrap_or(0);
    let frame = document.frame(player.frame_id(document)?)?;
    frame.duration.exact(rate)
}

/// A non-negative exact fraction of a second, kept reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rational {
    numerator: u128,
    denominator: u128,
}

impl Rational {
    /// Zero seconds.
    pub const ZERO: Rational = Rational {
        numerator: 0,
        denominator: 1,
    };

    /// `self + time`, exact (saturating far beyond any real animation's length).
    pub fn plus(self, time: ExactTime) -> Rational {
        let (n, d) = (time.numerator as u128, time.denominator.max(1) as u128);
        let common = gcd(self.denominator, d);
        let denominator = self.denominator / common * d;
        let numerator = self
            .numerator
            .saturating_mul(d / common)
            .saturating_add(n.saturating_mul(self.denominator / common));
        let g = gcd(numerator, denominator).max(1);
        Rational {
            numerator: numerator / g,
            denominator: denominator / g,
        }
    }

    /// The time in `1/units` of a second, rounded to nearest (halves up).
    pub fn round_to(self, units: u128) -> u128 {
        let scaled = self.numerator.saturating_mul(units).saturating_mul(2);
        (scaled.saturating_add(self.denominator)) / (2 * self.denominator)
    }

    /// The time in nanoseconds, rounded up.
    pub fn ceil_nanos(self) -> u128 {
        self.numerator
            .saturating_mul(1_000_000_000)
            .div_ceil(self.denominator)
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
