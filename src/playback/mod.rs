//! The playback engine: one player shared by the preview canvas, the command line and the tests.
//!
//! A [`Player`] knows which sequence, direction and frame is showing and how far into that frame
//! playback is. It holds no reference to the document (edits happen between calls), so every
//! method that needs the frames takes the [`AnimationSet`]. Time is counted with integers (see
//! [`clock`]), so the preview never drifts from the file's own timing.

pub mod clock;
pub mod interpolate;
mod lookup;

pub use interpolate::{displayed_frame, is_interpolating};
pub use lookup::find_sequence_by_name;

use crate::model::{AnimationSet, EndBehavior, FrameId, Sequence, SequenceId};
use clock::Clock;
use std::time::Duration;

/// The slowest and fastest playback speeds, in thousandths.
pub const SPEED_RANGE_MILLI: (u32, u32) = (100, 8000);

/// Speeds offered as presets, in thousandths.
pub const SPEED_PRESETS_MILLI: [u32; 9] = [100, 250, 500, 1000, 1500, 2000, 3000, 4000, 8000];

/// At most this many events wait to be taken before the oldest are dropped.
const EVENT_CAPACITY: usize = 4096;

/// Whether the player is moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayState {
    /// Time advances.
    Playing,
    /// Time stands still.
    Paused,
    /// The sequence reached its end and does not loop.
    Finished,
}

/// Something that happened during playback, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaybackEvent {
    /// A frame with triggers started; `triggers` is the frame's trigger text.
    Triggers {
        /// The sequence playing.
        sequence: SequenceId,
        /// Frame index within the direction.
        index: usize,
        /// The frame's triggers.
        triggers: String,
    },
    /// Playback went back to the loop point.
    Looped {
        /// The sequence.
        sequence: SequenceId,
    },
    /// A follow-up sequence took over.
    SequenceChanged {
        /// The sequence that ended.
        from: SequenceId,
        /// The one that started.
        to: SequenceId,
    },
    /// The sequence ended without a loop.
    Finished {
        /// The sequence.
        sequence: SequenceId,
        /// Whether the sprite is still shown (last frame held) or disappeared.
        visible: bool,
    },
}

/// Plays one sequence of a document.
#[derive(Clone, Debug)]
pub struct Player {
    sequence: SequenceId,
    direction: usize,
    index: usize,
    state: PlayState,
    visible: bool,
    looping: bool,
    speed_milli: u32,
    clock: Clock,
    /// Scaled clock units spent in the current frame.
    in_frame: u128,
    events: Vec<PlaybackEvent>,
    dropped_events: usize,
}

impl Player {
    /// A paused player at the first frame of `sequence`, direction `direction`.
    pub fn new(document: &AnimationSet, sequence: SequenceId, direction: usize) -> Player {
        let mut player = Player {
            sequence,
            direction,
            index: 0,
            state: PlayState::Paused,
            visible: true,
            looping: true,
            speed_milli: 1000,
            clock: Clock::for_frame_rate(1),
            in_frame: 0,
            events: Vec::new(),
            dropped_events: 0,
        };
        player.clock = player.clock_for(document);
        player.skip_zero_length(document);
        player
    }

    /// The sequence playing.
    pub fn sequence(&self) -> SequenceId {
        self.sequence
    }

    /// The direction index.
    pub fn direction(&self) -> usize {
        self.direction
    }

    /// The frame index within the direction.
    pub fn frame_index(&self) -> usize {
        self.index
    }

    /// The frame showing, if the sequence and direction have one.
    pub fn frame_id(&self, document: &AnimationSet) -> Option<FrameId> {
        let sequence = document.sequence(self.sequence)?;
        sequence
            .directions
            .get(self.direction)?
            .frames
            .get(self.index)
            .copied()
    }

    /// Playing, paused or finished.
    pub fn state(&self) -> PlayState {
        self.state
    }

    /// True while the sprite is drawn (false after a Solarus animation without loop ends).
    pub fn visible(&self) -> bool {
        self.visible
    }

    /// True if playback is moving.
    pub fn is_playing(&self) -> bool {
        self.state == PlayState::Playing
    }

    /// The speed in thousandths (1000 = true speed).
    pub fn speed_milli(&self) -> u32 {
        self.speed_milli
    }

    /// Sets the speed, clamped to 0.1x..8x.
    pub fn set_speed_milli(&mut self, speed_milli: u32) {
        self.speed_milli = speed_milli.clamp(SPEED_RANGE_MILLI.0, SPEED_RANGE_MILLI.1);
    }

    /// Whether the loop point and follow-ups are honoured (off: play once and hold).
    pub fn looping(&self) -> bool {
        self.looping
    }

    /// Turns looping on or off.
    pub fn set_looping(&mut self, looping: bool) {
        self.looping = looping;
    }

    /// Starts or resumes playback; a finished sequence starts again from its first frame.
    pub fn play(&mut self, document: &AnimationSet) {
        if self.state == PlayState::Finished {
            self.restart(document);
        }
        self.state = PlayState::Playing;
    }

    /// Stops time.
    pub fn pause(&mut self) {
        if self.state == PlayState::Playing {
            self.state = PlayState::Paused;
        }
    }

    /// Play if paused, pause if playing.
    pub fn toggle(&mut self, document: &AnimationSet) {
        if self.is_playing() {
            self.pause()
        } else {
            self.play(document)
        }
    }

    /// Back to the first frame, keeping the play state (a finished player plays again).
    pub fn restart(&mut self, document: &AnimationSet) {
        self.index = 0;
        self.in_frame = 0;
        self.visible = true;
        if self.state == PlayState::Finished {
            self.state = PlayState::Playing;
        }
        self.skip_zero_length(document);
        self.frame_started(document);
    }

    /// Shows another direction, keeping the frame index where it exists.
    pub fn set_direction(&mut self, document: &AnimationSet, direction: usize) {
        self.direction = direction;
        let count = self.frame_count(document);
        if self.index >= count {
            self.index = count.saturating_sub(1);
            self.in_frame = 0;
        }
    }

    /// Switches to another sequence at its first frame, keeping the direction where it exists.
    pub fn set_sequence(&mut self, document: &AnimationSet, sequence: SequenceId) {
        self.sequence = sequence;
        if let Some(s) = document.sequence(sequence)
            && self.direction >= s.directions.len()
        {
            self.direction = 0;
        }
        self.clock = self.clock_for(document);
        self.restart(document);
    }

    /// ISPRITE's set-animation-by-name: case-insensitive, searched in the active group, then
    /// its parents up to the root, else the default sequence. Asking for the sequence already
    /// playing does nothing (use [`Player::restart`] to restart it). Returns the sequence now
    /// playing.
    pub fn set_sequence_by_name(&mut self, document: &AnimationSet, name: &str) -> SequenceId {
        let target = find_sequence_by_name(document, self.sequence, name)
            .or_else(|| document.first_sequence().map(|s| s.id));
        if let Some(target) = target
            && target != self.sequence
        {
            self.set_sequence(document, target);
        }
        self.sequence
    }

    /// Shows frame `index` (clamped), from its start; pauses.
    pub fn seek_frame(&mut self, document: &AnimationSet, index: usize) {
        let count = self.frame_count(document);
        self.index = index.min(count.saturating_sub(1));
        self.in_frame = 0;
        self.visible = true;
        self.state = PlayState::Paused;
    }

    /// The next frame in the direction (wrapping), paused.
    pub fn step_forward(&mut self, document: &AnimationSet) {
        let count = self.frame_count(document);
        if count > 0 {
            let next = (self.index + 1) % count;
            self.seek_frame(document, next);
        }
    }

    /// The previous frame in the direction (wrapping), paused.
    pub fn step_back(&mut self, document: &AnimationSet) {
        let count = self.frame_count(document);
        if count > 0 {
            let previous = (self.index + count - 1) % count;
            self.seek_frame(document, previous);
        }
    }

    /// Shows the frame playing `time` after the sequence starts, following loops; keeps the
    /// play state and fires no events.
    pub fn seek_time(&mut self, document: &AnimationSet, time: Duration) {
        let state = self.state;
        let speed = self.speed_milli;
        self.speed_milli = 1000;
        self.index = 0;
        self.in_frame = 0;
        self.visible = true;
        self.state = PlayState::Playing;
        self.skip_zero_length(document);
        self.advance(document, time);
        self.events.clear();
        self.speed_milli = speed;
        if self.state == PlayState::Playing {
            self.state = if state == PlayState::Finished {
                PlayState::Paused
            } else {
                state
            };
        }
    }

    /// Moves time forward by `elapsed` wall-clock time at the current speed.
    pub fn advance(&mut self, document: &AnimationSet, elapsed: Duration) {
        if self.state != PlayState::Playing {
            return;
        }
        self.in_frame += self
            .clock
            .elapsed_units(elapsed.as_nanos(), self.speed_milli);
        // A pass over a whole direction that finds no frame with a length ends the loop below.
        let mut zero_steps = 0usize;
        while self.state == PlayState::Playing {
            let Some(length) = self.current_length(document) else {
                return; // forever, or nothing to show
            };
            if length == 0 {
                zero_steps += 1;
                if zero_steps > self.frame_count(document) + 1 {
                    self.in_frame = 0;
                    return;
                }
            }
            if self.in_frame < length {
                return;
            }
            self.in_frame -= length;
            self.next_frame(document);
        }
    }

    /// The wall time until the shown frame changes at the current speed; `None` when nothing
    /// will change by itself (paused, finished, a frame that lasts forever, a sequence whose
    /// frames all last no time). The editor sleeps that long instead of repainting.
    pub fn until_next_frame(&self, document: &AnimationSet) -> Option<Duration> {
        if self.state != PlayState::Playing {
            return None;
        }
        let length = self.current_length(document).filter(|&l| l > 0)?;
        let remaining = length.saturating_sub(self.in_frame);
        Some(self.clock.wall_time(remaining, self.speed_milli))
    }

    /// How far into the current frame playback is, 0.0..1.0 (0 for frames that never end).
    pub fn frame_progress(&self, document: &AnimationSet) -> f64 {
        match self.current_length(document) {
            Some(length) if length > 0 => self.in_frame as f64 / length as f64,
            _ => 0.0,
        }
    }

    /// Seconds spent in the current frame (display only).
    pub fn seconds_in_frame(&self) -> f64 {
        self.clock.seconds(self.in_frame)
    }

    /// Seconds from the start of the direction to now, counting each frame before the current
    /// one once (display only).
    pub fn seconds_from_start(&self, document: &AnimationSet) -> f64 {
        let before: u128 = (0..self.index)
            .filter_map(|i| self.length_of(document, i))
            .sum();
        self.clock.seconds(before + self.in_frame)
    }

    /// Takes the events that happened since the last call.
    pub fn take_events(&mut self) -> Vec<PlaybackEvent> {
        std::mem::take(&mut self.events)
    }

    /// Events dropped because nobody took them in time.
    pub fn dropped_events(&self) -> usize {
        self.dropped_events
    }

    // ---- internals ----

    fn current_sequence<'a>(&self, document: &'a AnimationSet) -> Option<&'a Sequence> {
        document.sequence(self.sequence)
    }

    fn frame_count(&self, document: &AnimationSet) -> usize {
        self.current_sequence(document)
            .and_then(|s| s.directions.get(self.direction))
            .map_or(0, |d| d.frames.len())
    }

    fn clock_for(&self, document: &AnimationSet) -> Clock {
        Clock::for_frame_rate(self.frame_rate(document))
    }

    fn frame_rate(&self, document: &AnimationSet) -> u32 {
        rate_of(self.current_sequence(document), document)
    }

    /// The length of frame `index` in clock units; `None` = never ends. Called on every
    /// `advance`, so the sequence is looked up once here.
    fn length_of(&self, document: &AnimationSet, index: usize) -> Option<u128> {
        let sequence = self.current_sequence(document)?;
        let id = sequence.directions.get(self.direction)?.frames.get(index)?;
        let frame = document.frame(*id)?;
        let time = frame.duration.exact(rate_of(Some(sequence), document))?;
        Some(self.clock.duration_units(time))
    }

    fn current_length(&self, document: &AnimationSet) -> Option<u128> {
        self.length_of(document, self.index)
    }

    /// Moves past zero-length frames from the current index (without wrapping).
    fn skip_zero_length(&mut self, document: &AnimationSet) {
        let count = self.frame_count(document);
        while self.index + 1 < count && self.length_of(document, self.index) == Some(0) {
            self.index += 1;
        }
    }

    fn next_frame(&mut self, document: &AnimationSet) {
        let count = self.frame_count(document);
        if self.index + 1 < count {
            self.index += 1;
            self.frame_started(document);
            return;
        }
        let Some(sequence) = self.current_sequence(document) else {
            self.state = PlayState::Finished;
            return;
        };
        let follow_up = sequence.follow_up.clone().filter(|name| !name.is_empty());
        let loop_point = sequence.loop_point.filter(|&lp| lp < count);
        let on_end = sequence.on_end;
        if self.looping {
            if let Some(name) = follow_up {
                let from = self.sequence;
                let to = find_sequence_by_name(document, from, &name)
                    .or_else(|| document.first_sequence().map(|s| s.id))
                    .unwrap_or(from);
                // The time already past the end carries into the follow-up.
                let (carried, old_clock) = (self.in_frame, self.clock);
                self.set_sequence(document, to);
                self.in_frame = old_clock.convert(carried, self.clock);
                self.push(PlaybackEvent::SequenceChanged { from, to });
                return;
            }
            if let Some(lp) = loop_point {
                self.index = lp;
                self.push(PlaybackEvent::Looped {
                    sequence: self.sequence,
                });
                self.frame_started(document);
                return;
            }
        }
        self.state = PlayState::Finished;
        self.in_frame = 0;
        self.visible = on_end != EndBehavior::Disappear;
        let sequence = self.sequence;
        let visible = self.visible;
        self.push(PlaybackEvent::Finished { sequence, visible });
    }

    fn frame_started(&mut self, document: &AnimationSet) {
        let Some(id) = self.frame_id(document) else {
            return;
        };
        let Some(frame) = document.frame(id) else {
            return;
        };
        if !frame.triggers.is_empty() {
            let event = PlaybackEvent::Triggers {
                sequence: self.sequence,
                index: self.index,
                triggers: frame.triggers.clone(),
            };
            self.push(event);
        }
    }

    fn push(&mut self, event: PlaybackEvent) {
        if self.events.len() >= EVENT_CAPACITY {
            self.events.remove(0);
            self.dropped_events += 1;
        }
        self.events.push(event);
    }
}

/// The frame rate holds count in: the sequence's own, else the document's (0: none).
fn rate_of(sequence: Option<&Sequence>, document: &AnimationSet) -> u32 {
    sequence
        .and_then(|s| s.frame_rate)
        .or(document.frame_rate)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests;
