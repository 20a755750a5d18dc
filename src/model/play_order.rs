//! A range of frames played forwards, backwards or bouncing, a number of times (an Aseprite
//! tag's direction and repeat count), spelled out frame by frame.
//!
//! The model plays a list of frames and loops back to one of them; Aseprite plays a range
//! forwards, backwards or bouncing, a number of times. Spelling the passes out gives the same
//! frames at the same times. The rules follow Aseprite's own playback tests
//! (`src/doc/playback_tests.cpp`): a ping-pong pass does not repeat the frame it turns on, each
//! pass of a ping-pong counts as one repeat, and a tag with repeat 0 loops forever.

/// How a range of frames plays (Aseprite's tag direction, `AniDir`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayDirection {
    /// First to last frame.
    Forward,
    /// Last to first frame.
    Reverse,
    /// First to last, then back.
    PingPong,
    /// Last to first, then back.
    PingPongReverse,
}

impl PlayDirection {
    /// Every direction, in Aseprite's order.
    pub const ALL: [PlayDirection; 4] = [
        PlayDirection::Forward,
        PlayDirection::Reverse,
        PlayDirection::PingPong,
        PlayDirection::PingPongReverse,
    ];

    /// Its name as Aseprite users know it ("ping-pong reverse").
    pub fn label(self) -> &'static str {
        match self {
            PlayDirection::Forward => "forward",
            PlayDirection::Reverse => "reverse",
            PlayDirection::PingPong => "ping-pong",
            PlayDirection::PingPongReverse => "ping-pong reverse",
        }
    }
}

/// Most repeats tried when matching a finite play list to a direction and repeat count.
const MAX_REPEAT: usize = 1000;

/// The direction and repeat count (0: forever) that play the frames `from..=to` as
/// `positions`, looping back to the first when `loops`; `None` when none plays them so.
/// Where several do (a ping-pong played once is also forward), the first of
/// [`PlayDirection::ALL`] is given.
pub fn play_rule(positions: &[usize], loops: bool) -> Option<(usize, usize, PlayDirection, u16)> {
    let from = *positions.iter().min()?;
    let to = *positions.iter().max()?;
    let span = to - from + 1;
    for direction in PlayDirection::ALL {
        let repeats: Vec<usize> = if loops {
            vec![0]
        } else {
            // A pass covers at least span - 1 frames (a bounce skips its turning frame).
            let most = positions.len() / span.saturating_sub(1).max(1) + 1;
            (1..=most.min(MAX_REPEAT)).collect()
        };
        for repeat in repeats {
            let order = play_order(from, to, direction, repeat as u16);
            if order.frames == positions && order.loops == loops && !order.repeat_dropped {
                return Some((from, to, direction, repeat as u16));
            }
        }
    }
    None
}

/// Longest spelled-out tag; a longer one (tens of thousands of repeats) plays one cycle looping.
pub const MAX_EXPANDED_FRAMES: usize = 100_000;

/// A tag's frames in play order, and whether the list loops (repeat 0) or stops at its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayOrder {
    /// Frame indices of the file, in play order.
    pub frames: Vec<usize>,
    /// True when playback goes back to the first entry after the last (forever).
    pub loops: bool,
    /// True when the repeat count was too large to spell out and the order loops instead.
    pub repeat_dropped: bool,
}

/// The play order of the frames `from..=to` (in either order) played `repeat` times.
pub fn play_order(from: usize, to: usize, direction: PlayDirection, repeat: u16) -> PlayOrder {
    let (low, high) = (from.min(to), from.max(to));
    let backwards_first = matches!(
        direction,
        PlayDirection::Reverse | PlayDirection::PingPongReverse
    );
    let bounces = matches!(
        direction,
        PlayDirection::PingPong | PlayDirection::PingPongReverse
    );
    let span = high - low + 1;
    if repeat == 0 || span.saturating_mul(usize::from(repeat)) > MAX_EXPANDED_FRAMES {
        let mut frames = pass(low, high, backwards_first, false);
        // Forever: the way back skips both turning frames, which start the next pass (so two
        // frames bounce as a plain loop: 0 1 0 1 ...).
        if bounces && span > 2 {
            frames.extend(pass(low + 1, high - 1, !backwards_first, false));
        }
        return PlayOrder {
            frames,
            loops: true,
            repeat_dropped: repeat != 0,
        };
    }
    let mut frames = Vec::new();
    for index in 0..usize::from(repeat) {
        let turn_back = bounces && index % 2 == 1;
        // After the first pass of a bounce, the frame it turns on is not shown twice.
        let skip_turn = bounces && index > 0;
        frames.extend(pass(low, high, backwards_first != turn_back, skip_turn));
    }
    PlayOrder {
        frames,
        loops: false,
        repeat_dropped: false,
    }
}

/// One pass over `low..=high`, backwards or not, leaving out its first frame when it starts
/// where the previous pass turned (a one-frame range keeps its frame).
fn pass(low: usize, high: usize, backwards: bool, skip_first: bool) -> Vec<usize> {
    let mut frames: Vec<usize> = if backwards {
        (low..=high).rev().collect()
    } else {
        (low..=high).collect()
    };
    if skip_first && frames.len() > 1 {
        frames.remove(0);
    }
    frames
}

#[cfg(test)]
mod tests {
    use super::*;
    use PlayDirection::*;

    fn order(from: usize, to: usize, direction: PlayDirection, repeat: u16) -> Vec<usize> {
        play_order(from, to, direction, repeat).frames
    }

    #[test]
    fn finite_tags_play_as_aseprite_plays_them() {
        // Aseprite's playback test "FourTags", tag by tag.
        assert_eq!(order(1, 2, Forward, 1), vec![1, 2]);
        assert_eq!(order(3, 5, Reverse, 2), vec![5, 4, 3, 5, 4, 3]);
        assert_eq!(order(6, 8, PingPong, 3), vec![6, 7, 8, 7, 6, 7, 8]);
        assert_eq!(order(10, 12, PingPongReverse, 2), vec![12, 11, 10, 11, 12]);
        // "SimplePingPong2", "SimplePingPong5": two frames, and one frame three times.
        assert_eq!(order(0, 1, PingPong, 2), vec![0, 1, 0]);
        assert_eq!(order(0, 0, PingPong, 3), vec![0, 0, 0]);
        assert!(!play_order(0, 1, Forward, 2).loops);
    }

    #[test]
    fn endless_tags_loop_one_cycle() {
        let bounce = play_order(0, 3, PingPong, 0);
        assert_eq!(bounce.frames, vec![0, 1, 2, 3, 2, 1]);
        assert!(bounce.loops);
        assert_eq!(order(0, 3, PingPongReverse, 0), vec![3, 2, 1, 0, 1, 2]);
        assert_eq!(order(0, 1, PingPong, 0), vec![0, 1]);
        assert_eq!(order(2, 4, Reverse, 0), vec![4, 3, 2]);
    }

    #[test]
    fn huge_repeat_counts_loop_instead_of_spelling_out() {
        let huge = play_order(0, 9, Forward, u16::MAX);
        assert_eq!(huge.frames.len(), 10);
        assert!(huge.loops && huge.repeat_dropped);
    }
}
