//! A sequence as an animated PNG: full alpha and exact delays. APNG delays are fractions
//! `numerator / denominator` seconds (16 bits each), so a frame keeps its native unit: 60 Hz
//! ticks as `n/60`, milliseconds as `n/1000`, holds as `n/rate`. A delay too long for 16 bits
//! is split over repeated frames (still exact); only a fraction whose denominator does not fit
//! is rounded to milliseconds. Frames are encoded as they are rendered, one at a time.

use super::ExportError;
use super::gif::{fixed_canvas, picture_of};
use super::timeline::{Step, timeline};
use crate::formats::atlas::ExportProgress;
use crate::model::{AnimationSet, SequenceId};
use crate::pixels::PixelSource;
use crate::render::RenderOptions;

/// A finished APNG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApngExport {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// APNG frames written.
    pub frames: usize,
    /// Repeats forever (the sequence loops); else plays once.
    pub repeats: bool,
    /// Steps whose delay had to be rounded to milliseconds.
    pub rounded: usize,
}

/// One APNG frame: the step it shows and its delay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Planned {
    step: usize,
    numerator: u16,
    denominator: u16,
}

/// An animated PNG of one pass through `direction` of `sequence`, as the playback engine plays
/// it, on one canvas for every frame (the union of the frames unless `options` fix one). It
/// repeats forever when the sequence loops (or follows up with itself) and plays once
/// otherwise.
///
/// With a `progress`, each drawn picture is counted in it, and the export stops with
/// [`ExportError::Cancelled`] when it is cancelled.
pub fn export_apng(
    document: &AnimationSet,
    sequence: SequenceId,
    direction: usize,
    pixels: &dyn PixelSource,
    options: &RenderOptions,
    progress: Option<&ExportProgress>,
) -> Result<ApngExport, ExportError> {
    let pass = timeline(document, sequence, direction)?;
    let options = fixed_canvas(document, &pass, pixels, options);
    let repeats = pass.ending.repeats(sequence);
    let (plan, rounded) = plan_delays(&pass.steps);
    let first = picture_of(
        document,
        &pass.steps[plan[0].step],
        pixels,
        &options,
        progress,
    )?;
    let (width, height) = first.dimensions();
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .set_animated(plan.len() as u32, if repeats { 0 } else { 1 })
        .map_err(encode_error)?;
    let mut writer = encoder.write_header().map_err(encode_error)?;
    let mut current = (plan[0].step, first);
    for planned in &plan {
        if planned.step != current.0 {
            let picture = picture_of(
                document,
                &pass.steps[planned.step],
                pixels,
                &options,
                progress,
            )?;
            if picture.dimensions() != (width, height) {
                return Err(ExportError::Encode(
                    "the frames of the pass are not all the same size".into(),
                ));
            }
            current = (planned.step, picture);
        }
        writer
            .set_frame_delay(planned.numerator, planned.denominator)
            .map_err(encode_error)?;
        writer
            .set_blend_op(png::BlendOp::Source)
            .map_err(encode_error)?;
        writer
            .write_image_data(current.1.as_raw())
            .map_err(encode_error)?;
    }
    writer.finish().map_err(encode_error)?;
    Ok(ApngExport {
        bytes,
        frames: plan.len(),
        repeats,
        rounded,
    })
}

/// The APNG frames for the steps: zero-length steps are left out (at least one step stays),
/// a step that lasts forever gets delay 0 (it is the last), long delays are split.
fn plan_delays(steps: &[Step]) -> (Vec<Planned>, usize) {
    let mut plan = Vec::new();
    let mut rounded = 0;
    for (i, step) in steps.iter().enumerate() {
        let Some(length) = step.length else {
            plan.push(Planned {
                step: i,
                numerator: 0,
                denominator: 1,
            });
            continue;
        };
        let g = gcd(length.numerator, length.denominator).max(1);
        let (mut n, mut d) = (length.numerator / g, length.denominator.max(1) / g);
        if n == 0 {
            continue;
        }
        if d > u16::MAX as u64 {
            n = ((n as u128 * 1000 + d as u128 / 2) / d as u128).min(u64::MAX as u128) as u64;
            d = 1000;
            rounded += 1;
            if n == 0 {
                continue;
            }
        }
        while n > 0 {
            let part = n.min(u16::MAX as u64);
            plan.push(Planned {
                step: i,
                numerator: part as u16,
                denominator: d as u16,
            });
            n -= part;
        }
    }
    if plan.is_empty() {
        plan.push(Planned {
            step: steps.len().saturating_sub(1),
            numerator: 0,
            denominator: 1,
        });
    }
    (plan, rounded)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn encode_error(e: png::EncodingError) -> ExportError {
    ExportError::Encode(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ExactTime, SequenceId};

    fn step(numerator: u64, denominator: u64) -> Step {
        Step {
            sequence: SequenceId(1),
            direction: 0,
            index: 0,
            visible: true,
            length: Some(ExactTime {
                numerator,
                denominator,
            }),
        }
    }

    #[test]
    fn delays_keep_their_native_unit() {
        let (plan, rounded) = plan_delays(&[step(7, 60), step(100, 1000), step(0, 60)]);
        let delays: Vec<(u16, u16)> = plan.iter().map(|p| (p.numerator, p.denominator)).collect();
        assert_eq!(delays, vec![(7, 60), (1, 10)]);
        assert_eq!(rounded, 0);
    }

    #[test]
    fn long_delays_split_exactly_and_odd_denominators_round_to_milliseconds() {
        let (plan, _) = plan_delays(&[step(70_001, 1000)]);
        let total: u64 = plan.iter().map(|p| p.numerator as u64).sum();
        assert_eq!((plan.len(), total, plan[0].denominator), (2, 70_001, 1000));
        let (plan, rounded) = plan_delays(&[step(1_500_001, 1_000_000_000)]);
        assert_eq!(
            (plan[0].numerator, plan[0].denominator, rounded),
            (2, 1000, 1)
        );
    }
}
