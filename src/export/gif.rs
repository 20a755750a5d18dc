//! Animated GIF export with exact timing.
//!
//! GIF counts delays in 10 ms steps. Rounding each frame on its own lets the error pile up
//! (seven 1/60 s frames would take 7 × 20 ms = 140 ms instead of 116.7 ms). Instead the exact
//! time since the start is accumulated and every frame ends at that time rounded to the nearest
//! centisecond: each delay is the difference of two rounded cumulative times, so the error never
//! exceeds 5 ms at any frame and the total is the exact total rounded once.
//!
//! Two limits of the format remain. A GIF can only restart from its first frame, so a loop
//! point after frame 0 replays the frames before it (reported as [`Ending::Loops`]). And web
//! browsers show delays of 0 or 1 centisecond as 10: a 60 Hz animation whose frames round to
//! 1 cs is exact in the file but plays slower in a browser (desktop viewers honour it).

use super::ExportError;
use super::timeline::{Ending, Rational, Step, Timeline, timeline};
use crate::formats::atlas::ExportProgress;
use crate::model::{AnimationSet, ExactTime, SequenceId};
use crate::pixels::PixelSource;
use crate::render::{CanvasBounds, RenderOptions, Scene, SpriteRect, direction_bounds, render};
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, RgbaImage};
use std::sync::atomic::Ordering;

/// The longest delay one GIF frame can hold, in centiseconds; longer frames are repeated.
const MAX_GIF_DELAY: u32 = u16::MAX as u32;

/// Centisecond delays for frames of the given exact lengths, spread so every frame ends at its
/// exact cumulative time rounded to the nearest centisecond (halves up). A frame without a
/// length (it lasts forever) gets 0 and ends the count.
pub fn spread_delays(lengths: &[Option<ExactTime>]) -> Vec<u32> {
    let mut elapsed = Rational::ZERO;
    let mut previous_end = 0u128;
    let mut delays = Vec::with_capacity(lengths.len());
    for length in lengths {
        let Some(length) = length else {
            delays.push(0);
            continue;
        };
        elapsed = elapsed.plus(*length);
        let end = elapsed.round_to(100);
        delays.push(u32::try_from(end - previous_end).unwrap_or(u32::MAX));
        previous_end = end;
    }
    delays
}

/// A finished GIF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GifExport {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// GIF frames written (frames rounded to no time are left out; very long ones are split).
    pub frames: usize,
    /// Total time of one pass, in centiseconds.
    pub total_centiseconds: u64,
    /// True when the GIF repeats forever; false when it plays once.
    pub repeats: bool,
    /// How the engine's pass ended. `Ending::Loops { to }` with `to > 0`: a GIF can only
    /// restart from its first frame, so the frames before the loop point replay too.
    pub ending: Ending,
}

/// An animated GIF of one pass through `direction` of `sequence`, as the playback engine plays
/// it. Every frame is drawn on the same canvas (the union of the direction's frames, unless the
/// options fix one). The GIF repeats forever when the sequence loops (or follows up with
/// itself) and plays once otherwise; a sequence that disappears ends on an empty frame.
///
/// GIF has no partial transparency: pixels under half opacity become transparent, the others
/// opaque, so give a background colour for soft edges or translucent boxes.
///
/// With a `progress`, each drawn picture is counted in it, and the export stops with
/// [`ExportError::Cancelled`] when it is cancelled.
pub fn export_gif(
    document: &AnimationSet,
    sequence: SequenceId,
    direction: usize,
    pixels: &dyn PixelSource,
    options: &RenderOptions,
    progress: Option<&ExportProgress>,
) -> Result<GifExport, ExportError> {
    let pass = timeline(document, sequence, direction)?;
    let options = fixed_canvas(document, &pass, pixels, options);
    let delays = spread_delays(&pass.steps.iter().map(|s| s.length).collect::<Vec<_>>());
    let repeats = pass.ending.repeats(sequence);
    let shown = shown_steps(&pass.steps, &delays);
    let mut bytes = Vec::new();
    let mut frame_count = 0;
    {
        let mut encoder = GifEncoder::new_with_speed(&mut bytes, 10);
        if repeats {
            encoder.set_repeat(Repeat::Infinite).map_err(encode_error)?;
        }
        // Pictures are drawn a few at a time on every thread of the current pool and encoded
        // in order as soon as drawn: only one batch is held at a time, however many frames
        // the sequence has and however large they are.
        let batch = rayon::current_num_threads().max(1) * 2;
        for chunk in shown.chunks(batch) {
            use rayon::prelude::*;
            let pictures = chunk
                .par_iter()
                .map(|(step, _)| picture_of(document, step, pixels, &options, progress))
                .map(|picture| picture.map(gif_pixels))
                .collect::<Result<Vec<RgbaImage>, ExportError>>()?;
            for ((_, delay), picture) in chunk.iter().zip(pictures) {
                frame_count += encode_gif_frame(&mut encoder, picture, *delay)?;
            }
        }
    }
    Ok(GifExport {
        bytes,
        frames: frame_count,
        total_centiseconds: delays.iter().map(|&d| d as u64).sum(),
        repeats,
        ending: pass.ending,
    })
}

/// Encodes one step's picture shown for `delay` centiseconds; how many GIF frames that took.
/// A frame longer than one GIF delay can hold repeats; a final or forever frame shows once with
/// no delay (the viewer stays on it when a non-repeating GIF ends).
fn encode_gif_frame<W: std::io::Write>(
    encoder: &mut GifEncoder<W>,
    picture: RgbaImage,
    delay: u32,
) -> Result<usize, ExportError> {
    let parts = delay.div_ceil(MAX_GIF_DELAY).max(1);
    for part in 0..parts {
        let length = (delay - part * MAX_GIF_DELAY).min(MAX_GIF_DELAY);
        let delay = Delay::from_numer_denom_ms(length * 10, 1);
        encoder
            .encode_frame(image::Frame::from_parts(picture.clone(), 0, 0, delay))
            .map_err(encode_error)?;
    }
    Ok(parts as usize)
}

/// The steps worth a GIF frame, with their delays: steps rounded to no time are dropped (their
/// time is already counted in the next delay), except a step that lasts forever; at least one
/// step is always kept.
fn shown_steps<'a>(steps: &'a [Step], delays: &[u32]) -> Vec<(&'a Step, u32)> {
    let mut shown: Vec<(&Step, u32)> = steps
        .iter()
        .zip(delays.iter().copied())
        .filter(|(step, delay)| *delay > 0 || step.length.is_none())
        .collect();
    if shown.is_empty()
        && let Some(last) = steps.last()
    {
        shown.push((last, 0));
    }
    shown
}

/// `options` with the canvas fixed to the union of everything the pass shows, so the sprite
/// stays still from frame to frame.
pub(super) fn fixed_canvas(
    document: &AnimationSet,
    pass: &Timeline,
    pixels: &dyn PixelSource,
    options: &RenderOptions,
) -> RenderOptions {
    let margin = match options.bounds {
        CanvasBounds::Fixed(_) => return *options,
        CanvasBounds::Fit => 0,
        CanvasBounds::FitWithMargin(margin) => margin,
    };
    let mut seen: Vec<(SequenceId, usize)> = Vec::new();
    let mut union: Option<SpriteRect> = None;
    for step in &pass.steps {
        if !seen.contains(&(step.sequence, step.direction)) {
            seen.push((step.sequence, step.direction));
            let rect = direction_bounds(document, step.sequence, step.direction, pixels, options);
            union = SpriteRect::union_opt(union, rect);
        }
    }
    let rect = union.unwrap_or(SpriteRect {
        x: 0,
        y: 0,
        width: 1,
        height: 1,
    });
    RenderOptions {
        bounds: CanvasBounds::Fixed(rect.grown(margin)),
        ..*options
    }
}

/// The picture of one step.
pub(super) fn picture_of(
    document: &AnimationSet,
    step: &Step,
    pixels: &dyn PixelSource,
    options: &RenderOptions,
    progress: Option<&ExportProgress>,
) -> Result<RgbaImage, ExportError> {
    if progress.is_some_and(|p| p.cancel.load(Ordering::Relaxed)) {
        return Err(ExportError::Cancelled);
    }
    let scene = if step.visible {
        Scene::at(
            document,
            step.sequence,
            step.direction,
            step.index,
            options.box_rule,
        )
        .ok_or(ExportError::NoFrame(step.index))?
    } else {
        Scene::empty()
    };
    let picture = render(document, &scene, pixels, options);
    if let Some(progress) = progress {
        progress.done.fetch_add(1, Ordering::Relaxed);
    }
    Ok(picture)
}

/// GIF pixels are either transparent or opaque: alpha is cut at one half.
fn gif_pixels(mut image: RgbaImage) -> RgbaImage {
    for pixel in image.pixels_mut() {
        pixel.0 = if pixel.0[3] < 128 {
            [0, 0, 0, 0]
        } else {
            [pixel.0[0], pixel.0[1], pixel.0[2], 255]
        };
    }
    image
}

fn encode_error(error: image::ImageError) -> ExportError {
    ExportError::Encode(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FrameDuration;

    fn exact(duration: FrameDuration) -> Option<ExactTime> {
        duration.exact(0)
    }

    #[test]
    fn seven_ticks_spread_to_exactly_120_ms() {
        // 7/60 s = 116.67 ms: the nearest centisecond is 12, and no frame is off by 5 ms or more.
        let lengths = vec![exact(FrameDuration::Ticks(1)); 7];
        let delays = spread_delays(&lengths);
        assert_eq!(delays, vec![2, 1, 2, 2, 1, 2, 2]);
        assert_eq!(delays.iter().sum::<u32>(), 12);
    }

    #[test]
    fn a_whole_second_of_ticks_is_exactly_100_centiseconds() {
        let lengths = vec![exact(FrameDuration::Ticks(1)); 60];
        assert_eq!(spread_delays(&lengths).iter().sum::<u32>(), 100);
    }

    #[test]
    fn milliseconds_round_per_cumulative_time_not_per_frame() {
        // 15 ms each: ends at 15, 30, 45, 60 ms -> 2, 3, 5, 6 cs (halves round up).
        let lengths = vec![exact(FrameDuration::Millis(15)); 4];
        assert_eq!(spread_delays(&lengths), vec![2, 1, 2, 1]);
    }

    #[test]
    fn frames_shorter_than_half_a_centisecond_can_round_to_nothing() {
        let lengths = vec![exact(FrameDuration::Millis(4)); 3];
        // Ends at 4, 8, 12 ms -> 0, 1, 1 cs.
        assert_eq!(spread_delays(&lengths), vec![0, 1, 0]);
    }

    #[test]
    fn a_forever_frame_gets_no_delay() {
        let lengths = vec![exact(FrameDuration::Millis(100)), None];
        assert_eq!(spread_delays(&lengths), vec![10, 0]);
    }

    #[test]
    fn holds_and_seconds_are_exact_too() {
        // Three holds at 12 fps = 250 ms; 0.18 s ADL delays.
        let holds = vec![FrameDuration::Holds(1).exact(12); 3];
        assert_eq!(spread_delays(&holds), vec![8, 9, 8]);
        let seconds = vec![exact(FrameDuration::Seconds { nanos: 180_000_000 }); 2];
        assert_eq!(spread_delays(&seconds), vec![18, 18]);
    }
}
