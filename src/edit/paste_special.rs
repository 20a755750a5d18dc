//! Paste special: only the timing, only the boxes or only the points of copied frames, onto
//! the selected frames (of another sequence, another tab, another format), as one undo step.
//!
//! Copied frame `i` goes onto selected frame `i`; one copied frame goes onto every selected
//! frame; other counts are refused. **Timing** is converted into the unit the target frames
//! count in (milliseconds, ticks, holds at the target's rate, seconds), spreading the rounding
//! as Retime does, so a run of pasted lengths does not drift; frames shown forever stay so.
//! **Boxes**: each target frame shows exactly the boxes the copied frame showed (its own and
//! those it inherited), every class replaced; on formats with default boxes the box tools'
//! rule writes them. **Points**: each target frame's attachment points are replaced by the
//! copied frame's.

use super::box_tools::{BoxRun, set_class_boxes, shown_boxes};
use super::clipboard::FrameClipboard;
use super::command::Command;
use super::common_steps::{check_positions, direction_frames, sorted_unique};
use super::error::{EditError, EditResult};
use super::snapshot::Tx;
use crate::model::{
    AnimationSet, BoxClass, CollisionBox, DefaultBoxRule, Element, ElementId, ElementKind,
    FrameDuration, FrameId, SequenceId, TICKS_PER_SECOND,
};
use crate::tools::retime::spread;
use std::collections::BTreeMap;

/// What part of the copied frames to paste.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PastePart {
    /// Their durations.
    Timing,
    /// Their collision boxes.
    Boxes,
    /// Their attachment points.
    Points,
}

impl PastePart {
    /// The menu label.
    pub fn label(self) -> &'static str {
        match self {
            PastePart::Timing => "Paste timing",
            PastePart::Boxes => "Paste boxes",
            PastePart::Points => "Paste points",
        }
    }
}

/// Pastes one part of a clipboard's frames onto frames of a direction.
#[derive(Clone, Debug)]
pub struct PasteSpecial {
    /// What was copied.
    pub clipboard: FrameClipboard,
    /// What to paste of it.
    pub part: PastePart,
    /// The target sequence.
    pub sequence: SequenceId,
    /// The target direction index.
    pub direction: usize,
    /// The selected frames, by position.
    pub positions: Vec<usize>,
    /// The default-box rule the preview shows.
    pub rule: DefaultBoxRule,
    /// The target format has default boxes (ask [`crate::formats::Capabilities::default_boxes`]).
    pub default_boxes: bool,
}

impl PasteSpecial {
    /// `(target position, copied frame index)` pairs, or a refusal.
    fn pairs(&self, doc: &AnimationSet) -> EditResult<Vec<(usize, usize)>> {
        let ids = direction_frames(doc, self.sequence, self.direction)?;
        check_positions(&self.positions, ids.len())?;
        let targets = sorted_unique(&self.positions);
        let copied = self.clipboard.frames.len();
        match copied {
            0 => Err(EditError::new("the clipboard holds no frame")),
            1 => Ok(targets.into_iter().map(|t| (t, 0)).collect()),
            n if n == targets.len() => Ok(targets.into_iter().zip(0..n).collect()),
            n => Err(EditError::new(format!(
                "{n} frames were copied and {} selected: select {n} frames, or copy one frame to paste onto all",
                crate::text::count(targets.len(), "frame")
            ))),
        }
    }
}

impl Command for PasteSpecial {
    fn label(&self) -> String {
        self.part.label().to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let pairs = self.pairs(tx.doc())?;
        let ids = direction_frames(tx.doc(), self.sequence, self.direction)?.to_vec();
        match self.part {
            PastePart::Timing => paste_timing(tx, &self.clipboard, self.sequence, &ids, &pairs),
            PastePart::Points => paste_points(tx, &self.clipboard, &ids, &pairs),
            PastePart::Boxes => {
                let run = BoxRun {
                    sequence: self.sequence,
                    direction: self.direction,
                    rule: self.rule,
                    default_boxes: self.default_boxes,
                };
                paste_boxes(tx, &self.clipboard, run, &pairs)
            }
        }
    }
}

/// Units per second of `duration`'s unit, given the rate holds play at.
fn per_second(duration: FrameDuration, rate: u32) -> u64 {
    match duration {
        FrameDuration::Millis(_) | FrameDuration::Forever => 1000,
        FrameDuration::Ticks(_) => TICKS_PER_SECOND,
        FrameDuration::Holds(_) => rate as u64,
        FrameDuration::Seconds { .. } => 1_000_000_000,
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn paste_timing(
    tx: &mut Tx,
    clipboard: &FrameClipboard,
    sequence: SequenceId,
    ids: &[FrameId],
    pairs: &[(usize, usize)],
) -> EditResult {
    let doc = tx.doc();
    let rate = doc
        .sequence(sequence)
        .and_then(|s| s.frame_rate)
        .or(doc.frame_rate)
        .unwrap_or(0);
    // The unit the target counts in: its frames' own, else the document's, else milliseconds.
    let unit = pairs
        .iter()
        .filter_map(|(p, _)| doc.frame(ids[*p]).map(|f| f.duration))
        .chain(doc.frames.values().map(|f| f.duration))
        .find(|d| *d != FrameDuration::Forever)
        .unwrap_or(FrameDuration::Millis(1));
    let units = per_second(unit, rate) as u128;
    if units == 0 {
        return Err(EditError::new(
            "the target sequence has no frame rate, so its holds have no length in time; set a frame rate first",
        ));
    }
    // Each copied length in target units: seconds × units, over a common denominator.
    let mut exact = Vec::with_capacity(pairs.len());
    for (_, copied) in pairs {
        let duration = clipboard.frames[*copied].duration;
        match duration.exact(clipboard.frame_rate) {
            Some(t) => exact.push(Some((t.numerator as u128 * units, t.denominator as u128))),
            None if duration == FrameDuration::Forever => exact.push(None),
            None => {
                return Err(EditError::new(
                    "the copied frames count in holds with no frame rate, so they have no length in time",
                ));
            }
        }
    }
    let denominator = exact
        .iter()
        .flatten()
        .fold(1u128, |l, (_, d)| l / gcd(l, *d) * d);
    let numerators: Vec<u128> = exact
        .iter()
        .flatten()
        .map(|(n, d)| n * (denominator / d))
        .collect();
    let mut lengths = spread(&numerators, denominator).into_iter();
    for ((position, _), length) in pairs.iter().zip(&exact) {
        let duration = match length {
            None => FrameDuration::Forever,
            Some(_) => {
                let whole = lengths.next().expect("one length per timed frame");
                let narrow = || EditError::new("a pasted length is more than the format can hold");
                match unit {
                    FrameDuration::Ticks(_) => {
                        FrameDuration::Ticks(u32::try_from(whole).map_err(|_| narrow())?)
                    }
                    FrameDuration::Holds(_) => {
                        FrameDuration::Holds(u32::try_from(whole).map_err(|_| narrow())?)
                    }
                    FrameDuration::Seconds { .. } => FrameDuration::Seconds {
                        nanos: u64::try_from(whole).map_err(|_| narrow())?,
                    },
                    _ => FrameDuration::Millis(u32::try_from(whole).map_err(|_| narrow())?),
                }
            }
        };
        tx.frame_mut(ids[*position])?.duration = duration;
    }
    Ok(())
}

fn paste_points(
    tx: &mut Tx,
    clipboard: &FrameClipboard,
    ids: &[FrameId],
    pairs: &[(usize, usize)],
) -> EditResult {
    let mut done: Vec<FrameId> = Vec::new();
    for &(position, copied) in pairs {
        let id = ids[position];
        if done.contains(&id) {
            continue;
        }
        done.push(id);
        let mut points: Vec<Element> = clipboard.frames[copied]
            .elements
            .iter()
            .filter(|e| matches!(e.kind, ElementKind::Point(_)))
            .cloned()
            .collect();
        for point in &mut points {
            point.id = ElementId(tx.alloc_id());
        }
        let frame = tx.frame_mut(id)?;
        frame
            .elements
            .retain(|e| !matches!(e.kind, ElementKind::Point(_)));
        frame.elements.extend(points);
    }
    Ok(())
}

fn paste_boxes(
    tx: &mut Tx,
    clipboard: &FrameClipboard,
    run: BoxRun,
    pairs: &[(usize, usize)],
) -> EditResult {
    let mut classes: Vec<BoxClass> = Vec::new();
    for (_, copied) in pairs {
        for b in clipboard.shown_boxes.get(*copied).into_iter().flatten() {
            if !classes.contains(&b.class) {
                classes.push(b.class.clone());
            }
        }
    }
    for class in tx.doc().box_classes() {
        let shows = pairs
            .iter()
            .map(|(p, _)| shown_boxes(tx.doc(), run, *p, &class))
            .collect::<EditResult<Vec<_>>>()?;
        if shows.iter().any(|b| !b.is_empty()) && !classes.contains(&class) {
            classes.push(class);
        }
    }
    for class in &classes {
        let wanted: BTreeMap<usize, Vec<CollisionBox>> = pairs
            .iter()
            .map(|(position, copied)| {
                let boxes = clipboard
                    .shown_boxes
                    .get(*copied)
                    .into_iter()
                    .flatten()
                    .filter(|b| &b.class == class)
                    .cloned()
                    .collect();
                (*position, boxes)
            })
            .collect();
        set_class_boxes(tx, run, class, &wanted)?;
    }
    Ok(())
}
