//! Retime: new durations for selected frames, a sequence or every sequence, in the document's
//! own unit, as one undo step. The arithmetic (and the rounding rule) is in
//! [`crate::tools::retime`]; this file picks the frames, finds their unit and applies the plan.
//!
//! Frames shown forever and zero-length frames (skipped by playback) keep their length: they
//! have no time to scale. A frame listed in several places (a frame two Aseprite tags share)
//! is retimed once, where it first appears. Where the format holds one duration per sequence
//! (ask [`crate::formats::Capabilities::per_frame_durations`]; a Solarus animation has one
//! `frame_delay`), every frame of the sequence gets the one whole duration nearest to the mean
//! of the exact ones, and the error report says how far each frame is from its exact length.

use super::command::Command;
use super::common_steps::sequence;
use super::error::{EditError, EditResult};
use super::scope::FrameScope;
use super::snapshot::Tx;
use crate::model::{AnimationSet, FrameDuration, FrameId, SequenceId};
use crate::tools::retime::{RetimeChange, error_units, spread};
use std::collections::HashSet;

/// One frame's new length.
#[derive(Clone, Debug, PartialEq)]
pub struct RetimedFrame {
    /// The frame.
    pub frame: FrameId,
    /// The sequence it was retimed with (for reports).
    pub sequence: SequenceId,
    /// Its length now.
    pub before: FrameDuration,
    /// Its new length.
    pub after: FrameDuration,
    /// The exact new length in units, which `after` rounds.
    pub exact_units: f64,
    /// `|after - exact|` in units.
    pub error_units: f64,
    /// The same error in milliseconds.
    pub error_millis: f64,
}

/// What a retime would do, for the window to show before applying.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RetimePlan {
    /// Every frame retimed, in order.
    pub frames: Vec<RetimedFrame>,
}

impl RetimePlan {
    /// The frame furthest from its exact new length, if any frame is retimed.
    pub fn largest_error(&self) -> Option<&RetimedFrame> {
        self.frames
            .iter()
            .max_by(|a, b| a.error_millis.total_cmp(&b.error_millis))
    }

    /// How many frames get a different length.
    pub fn changed(&self) -> usize {
        self.frames.iter().filter(|f| f.before != f.after).count()
    }
}

/// The command: retime `scope` by `change`.
#[derive(Clone, Debug, PartialEq)]
pub struct Retime {
    /// The frames.
    pub scope: FrameScope,
    /// The new timing.
    pub change: RetimeChange,
    /// The format holds a duration per frame (else one per sequence); from
    /// [`crate::formats::Capabilities::per_frame_durations`].
    pub per_frame_durations: bool,
}

/// A run of frames retimed together: one direction (or the picked cells of one).
struct Run {
    sequence: SequenceId,
    frames: Vec<FrameId>,
}

impl Retime {
    /// What the retime would do, or why it cannot be done. Nothing is changed.
    pub fn plan(&self, doc: &AnimationSet) -> EditResult<RetimePlan> {
        let groups = self.groups(doc)?;
        let mut plan = RetimePlan::default();
        let mut seen: HashSet<FrameId> = HashSet::new();
        for runs in groups {
            if self.per_frame_durations {
                for run in runs {
                    self.plan_run(doc, &run, &mut seen, &mut plan)?;
                }
            } else {
                self.plan_one_delay(doc, &runs, &mut seen, &mut plan)?;
            }
        }
        if plan.frames.is_empty() {
            return Err(EditError::new(
                "none of these frames has a length to retime (they are empty, shown forever or of no length)",
            ));
        }
        Ok(plan)
    }

    /// The runs, grouped by sequence.
    fn groups(&self, doc: &AnimationSet) -> EditResult<Vec<Vec<Run>>> {
        let groups = self.scope.cells(doc)?;
        let mut out = Vec::with_capacity(groups.len());
        for group in groups {
            let mut runs = Vec::with_capacity(group.len());
            for cells in group {
                let s = sequence(doc, cells.sequence)?;
                if !self.per_frame_durations && !cells.whole {
                    return Err(EditError::new(format!(
                        "this format holds one frame duration for the whole sequence \"{}\": retime the whole sequence",
                        s.name
                    )));
                }
                let listed = &s.directions[cells.direction].frames;
                runs.push(Run {
                    sequence: cells.sequence,
                    frames: cells.positions.iter().map(|&p| listed[p]).collect(),
                });
            }
            out.push(runs);
        }
        Ok(out)
    }

    /// Frames of `run` that have a length and were not retimed already, with their old
    /// lengths in units, the unit and how many units make a second.
    fn timed(
        &self,
        doc: &AnimationSet,
        run: &Run,
        seen: &mut HashSet<FrameId>,
    ) -> EditResult<Option<Timed>> {
        let name = &sequence(doc, run.sequence)?.name;
        let rate = effective_rate(doc, run.sequence);
        let mut timed = Timed {
            frames: Vec::new(),
            old: Vec::new(),
            unit: None,
        };
        for &id in &run.frames {
            let frame = doc
                .frame(id)
                .ok_or_else(|| EditError::new(format!("frame {id} does not exist")))?;
            let Some(units) = Unit::of(frame.duration, rate) else {
                continue;
            };
            if !seen.insert(id) {
                continue;
            }
            match timed.unit {
                None => timed.unit = Some(units.0),
                Some(unit) if unit != units.0 => {
                    return Err(EditError::new(format!(
                        "sequence \"{name}\" mixes units ({} and {}); retime its frames apart",
                        unit.name(),
                        units.0.name()
                    )));
                }
                Some(_) => {}
            }
            timed.frames.push(id);
            timed.old.push(units.1);
        }
        if let Some(Unit::Holds(0)) = timed.unit {
            return Err(EditError::new(format!(
                "sequence \"{name}\" has no frame rate, so its holds have no length in time; set a frame rate first"
            )));
        }
        Ok(timed.unit.is_some().then_some(timed))
    }

    /// Exact targets of a timed run, checked: none under one unit.
    fn targets(
        &self,
        doc: &AnimationSet,
        run: &Run,
        timed: &Timed,
    ) -> EditResult<(Vec<u128>, u128)> {
        let unit = timed.unit.expect("a timed run has a unit");
        let name = &sequence(doc, run.sequence)?.name;
        let too_large = || EditError::new("the numbers are too large to retime exactly");
        let (numerators, denominator) = self
            .change
            .targets(&timed.old, unit.per_second())
            .ok_or_else(too_large)?;
        if let Some(i) = numerators.iter().position(|&n| n < denominator) {
            let position = run
                .frames
                .iter()
                .position(|id| *id == timed.frames[i])
                .unwrap_or(i);
            let exact = numerators[i] as f64 / denominator as f64;
            let why = match self.change {
                RetimeChange::TotalMillis(ms) => format!(
                    "{ms} ms is too short for {} of \"{name}\": frame {position} would last {exact:.3} {}, less than one",
                    crate::text::count(timed.old.len(), "frame"),
                    unit.name()
                ),
                _ => format!(
                    "frame {position} of \"{name}\" would last {exact:.3} {}, less than one",
                    unit.name()
                ),
            };
            return Err(EditError::new(format!("{why}; nothing changed")));
        }
        Ok((numerators, denominator))
    }

    fn plan_run(
        &self,
        doc: &AnimationSet,
        run: &Run,
        seen: &mut HashSet<FrameId>,
        plan: &mut RetimePlan,
    ) -> EditResult {
        let Some(timed) = self.timed(doc, run, seen)? else {
            return Ok(());
        };
        let (numerators, denominator) = self.targets(doc, run, &timed)?;
        let lengths = spread(&numerators, denominator);
        plan.frames
            .extend(timed.retimed(doc, run.sequence, &lengths, &numerators, denominator)?);
        Ok(())
    }

    /// One whole duration for every frame of the sequence: the nearest to the mean exact one.
    fn plan_one_delay(
        &self,
        doc: &AnimationSet,
        runs: &[Run],
        seen: &mut HashSet<FrameId>,
        plan: &mut RetimePlan,
    ) -> EditResult {
        let Some(first) = runs.first() else {
            return Ok(());
        };
        let all = Run {
            sequence: first.sequence,
            frames: runs.iter().flat_map(|r| r.frames.iter().copied()).collect(),
        };
        let Some(timed) = self.timed(doc, &all, seen)? else {
            return Ok(());
        };
        let (numerators, denominator) = self.targets(doc, &all, &timed)?;
        let count = numerators.len() as u128;
        let sum: u128 = numerators.iter().sum();
        let mean = spread(&[sum], denominator * count)[0].max(1);
        let lengths = vec![mean; numerators.len()];
        plan.frames
            .extend(timed.retimed(doc, all.sequence, &lengths, &numerators, denominator)?);
        Ok(())
    }
}

impl Command for Retime {
    fn label(&self) -> String {
        format!("Retime ({})", self.change.describe())
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let plan = self.plan(tx.doc())?;
        for frame in plan.frames {
            tx.frame_mut(frame.frame)?.duration = frame.after;
        }
        Ok(())
    }
}

/// The timed frames of a run.
struct Timed {
    frames: Vec<FrameId>,
    old: Vec<u64>,
    unit: Option<Unit>,
}

impl Timed {
    /// Each frame with its new whole length from `lengths`, beside its exact one (the
    /// numerators over one denominator), as the plan lists it.
    fn retimed(
        &self,
        doc: &AnimationSet,
        sequence: SequenceId,
        lengths: &[u128],
        numerators: &[u128],
        denominator: u128,
    ) -> EditResult<Vec<RetimedFrame>> {
        let unit = self.unit.expect("timed");
        let frames = self.frames.iter().zip(lengths).zip(numerators);
        frames
            .map(|((&frame, &length), &numerator)| {
                retimed(doc, sequence, frame, unit, length, numerator, denominator)
            })
            .collect()
    }
}

/// A duration's unit, with the frame rate for holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Millis,
    Ticks,
    Holds(u32),
    Nanos,
}

impl Unit {
    /// The unit and length of a duration that has one (not forever, not zero).
    fn of(duration: FrameDuration, rate: u32) -> Option<(Unit, u64)> {
        match duration {
            FrameDuration::Millis(ms) if ms > 0 => Some((Unit::Millis, ms as u64)),
            FrameDuration::Ticks(t) if t > 0 => Some((Unit::Ticks, t as u64)),
            // A stored 0 plays as 1.
            FrameDuration::Holds(h) => Some((Unit::Holds(rate), h.max(1) as u64)),
            FrameDuration::Seconds { nanos } if nanos > 0 => Some((Unit::Nanos, nanos)),
            _ => None,
        }
    }

    fn per_second(self) -> u64 {
        match self {
            Unit::Millis => 1000,
            Unit::Ticks => crate::model::TICKS_PER_SECOND,
            Unit::Holds(rate) => rate as u64,
            Unit::Nanos => 1_000_000_000,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Unit::Millis => "ms",
            Unit::Ticks => "ticks",
            Unit::Holds(_) => "holds",
            Unit::Nanos => "ns",
        }
    }

    fn duration(self, length: u128) -> Option<FrameDuration> {
        match self {
            Unit::Millis => u32::try_from(length).ok().map(FrameDuration::Millis),
            Unit::Ticks => u32::try_from(length).ok().map(FrameDuration::Ticks),
            Unit::Holds(_) => u32::try_from(length).ok().map(FrameDuration::Holds),
            Unit::Nanos => u64::try_from(length)
                .ok()
                .map(|nanos| FrameDuration::Seconds { nanos }),
        }
    }
}

/// The frame rate holds play at in a sequence: its own, else the set's.
fn effective_rate(doc: &AnimationSet, id: SequenceId) -> u32 {
    doc.sequence(id)
        .and_then(|s| s.frame_rate)
        .or(doc.frame_rate)
        .unwrap_or(0)
}

fn retimed(
    doc: &AnimationSet,
    sequence: SequenceId,
    frame: FrameId,
    unit: Unit,
    length: u128,
    numerator: u128,
    denominator: u128,
) -> EditResult<RetimedFrame> {
    let before = doc
        .frame(frame)
        .map(|f| f.duration)
        .ok_or_else(|| EditError::new(format!("frame {frame} does not exist")))?;
    let after = unit.duration(length).ok_or_else(|| {
        EditError::new(format!(
            "a frame would last {length} {}, more than the format can hold",
            unit.name()
        ))
    })?;
    let error = error_units(length, numerator, denominator);
    Ok(RetimedFrame {
        frame,
        sequence,
        before,
        after,
        exact_units: numerator as f64 / denominator as f64,
        error_units: error,
        error_millis: error * 1000.0 / unit.per_second() as f64,
    })
}
