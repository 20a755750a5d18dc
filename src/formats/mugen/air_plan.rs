//! What a model frame and sequence amount to in AIR: the frame-line values, the Clsn groups,
//! the Interpolate flags and the action number, plus every [`Loss`] on the way.
//!
//! The writer compares plans, not model frames: two frames that write the same AIR text are the
//! same to it, whatever their element ids.

use super::air_model::values_from_graphic;
use super::air_syntax::FrameValues;
use crate::formats::{Loss, Place};
use crate::model::{
    AnimationSet, BoxClass, BoxScope, CornerOrder, ElementKind, Frame, FrameDuration, Fx,
    GraphicSource, Interpolation, OPAQUE, Origin, Sequence, Shape, TICKS_PER_SECOND,
};

/// An axis-aligned box as the model holds it: left, top, width, height.
pub type Rect = [Fx; 4];

/// A box to write: where it is, and the order its corners were written in (`None` for a box
/// made in Sprat: the file's usual order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannedBox {
    /// Left, top, width, height.
    pub rect: Rect,
    /// The corner order it was read with, kept when it is moved or copied.
    pub corners: Option<CornerOrder>,
}

/// The boxes of one class a frame declares, with their scope.
pub type BoxPlan = Option<(BoxScope, Vec<PlannedBox>)>;

/// A frame as AIR text will say it.
#[derive(Clone, Debug, PartialEq)]
pub struct FramePlan {
    /// The frame line.
    pub values: FrameValues,
    /// The Interpolate lines.
    pub interpolation: Interpolation,
    /// Clsn1 then Clsn2.
    pub boxes: [BoxPlan; 2],
}

/// Where a frame sits, for naming losses.
pub struct FramePlace<'a> {
    /// The set (for the frame rate).
    pub set: &'a AnimationSet,
    /// The sequence.
    pub sequence: &'a Sequence,
    /// The frame index.
    pub index: usize,
}

impl FramePlace<'_> {
    fn place(&self) -> Place {
        Place::frame(&self.sequence.name, 0, self.index)
    }
}

/// The AIR plan of a frame; what AIR cannot hold goes to `losses`.
pub fn plan_frame(frame: &Frame, at: &FramePlace, losses: &mut Vec<Loss>) -> FramePlan {
    let ticks = ticks_of(frame.duration, at, losses);
    let mut graphic = None;
    let mut boxes: [BoxPlan; 2] = [None, None];
    for (class_index, class) in [BoxClass::Hit, BoxClass::Hurt].iter().enumerate() {
        if let Some(scope) = frame.declared_scope(class) {
            boxes[class_index] = Some((scope, Vec::new()));
        }
    }
    for (position, element) in frame.elements.iter().enumerate() {
        let name = if element.name.is_empty() {
            format!("element {position}")
        } else {
            format!("element \"{}\"", element.name)
        };
        match &element.kind {
            ElementKind::Graphic(g) => {
                if graphic.is_some() {
                    losses.push(loss(
                        at,
                        &name,
                        "a second graphic (AIR shows one sprite per frame)",
                    ));
                    continue;
                }
                match g.source {
                    GraphicSource::SffSprite { .. } => {}
                    _ => {
                        losses.push(loss(
                            at,
                            &name,
                            "an image that is not a sprite of an SFF archive",
                        ));
                        continue;
                    }
                }
                if matches!(g.origin, Origin::At(_)) {
                    losses.push(loss(at, &name, "a pivot other than the sprite's own axis"));
                }
                if g.opacity != OPAQUE {
                    losses.push(loss(at, &name, "opacity (AIR only has blend modes)"));
                }
                graphic = Some(g);
            }
            ElementKind::Point(_) => {
                losses.push(loss(at, &name, "an attachment point"));
            }
            ElementKind::Box(b) => {
                let class_index = match &b.class {
                    BoxClass::Hit => 0,
                    BoxClass::Hurt => 1,
                    BoxClass::Custom(custom) => {
                        let what = format!("a \"{custom}\" box (AIR has only Clsn1 and Clsn2)");
                        losses.push(loss(at, &name, &what));
                        continue;
                    }
                };
                match b.shape {
                    Shape::Rect {
                        x,
                        y,
                        width,
                        height,
                        rotation,
                    } => {
                        if rotation != 0.0 {
                            losses.push(loss(at, &name, "a rotated box"));
                            continue;
                        }
                        let plan =
                            boxes[class_index].get_or_insert((BoxScope::ThisFrame, Vec::new()));
                        plan.1.push(PlannedBox {
                            rect: [x, y, width, height],
                            corners: b.corners,
                        });
                    }
                    Shape::Circle { .. } => losses.push(loss(at, &name, "a circular box")),
                }
            }
        }
    }
    if !frame.label.is_empty() {
        losses.push(loss(at, "frame", &format!("the label \"{}\"", frame.label)));
    }
    if !frame.triggers.is_empty() {
        losses.push(loss(
            at,
            "frame",
            &format!("the triggers \"{}\"", frame.triggers),
        ));
    }
    if !frame.notes.is_empty() {
        losses.push(loss(at, "frame", "the notes"));
    }
    FramePlan {
        values: values_from_graphic(graphic, ticks),
        interpolation: frame.interpolation,
        boxes,
    }
}

fn loss(at: &FramePlace, element: &str, what: &str) -> Loss {
    Loss::new(at.place().element(element), what)
}

/// A duration in ticks (`-1` = forever), exact when the model's unit allows it.
fn ticks_of(duration: FrameDuration, at: &FramePlace, losses: &mut Vec<Loss>) -> i64 {
    let rate = at.sequence.frame_rate.or(at.set.frame_rate).unwrap_or(0);
    let Some(exact) = duration.exact(rate) else {
        if !matches!(duration, FrameDuration::Forever) {
            losses.push(Loss::new(
                at.place(),
                format!("the duration {duration} has no frame rate to count it in ticks; it is written as -1 (forever)"),
            ));
        }
        return -1;
    };
    let scaled = u128::from(exact.numerator) * u128::from(TICKS_PER_SECOND);
    let denominator = u128::from(exact.denominator);
    let ticks = (scaled + denominator / 2) / denominator;
    if ticks * denominator != scaled {
        losses.push(Loss::new(
            at.place(),
            format!("the duration {duration} is not a whole number of 1/60 s ticks; it is rounded to {ticks}"),
        ));
    }
    i64::try_from(ticks)
        .unwrap_or(i64::MAX)
        .min(i64::from(i32::MAX))
}

/// The action number of every sequence in tree order: its name when that is a whole number,
/// else a new number above all others (with a loss).
pub fn action_numbers(set: &AnimationSet, losses: &mut Vec<Loss>) -> Vec<i32> {
    let sequences = set.sequences();
    let parsed: Vec<Option<i32>> = sequences
        .iter()
        .map(|s| super::lexis::parse_i32(s.name.trim().as_bytes()))
        .collect();
    let mut next = parsed
        .iter()
        .flatten()
        .max()
        .map_or(0, |m| m.saturating_add(1));
    sequences
        .iter()
        .zip(parsed)
        .map(|(sequence, number)| {
            number.unwrap_or_else(|| {
                let assigned = next;
                next = next.saturating_add(1);
                losses.push(Loss::new(
                    Place::sequence(&sequence.name),
                    format!("the name (AIR names actions by number; written as action {assigned})"),
                ));
                assigned
            })
        })
        .collect()
}

/// Losses of a sequence as a whole: directions beyond the first, follow-ups, frame rates,
/// disappearing at the end.
pub fn sequence_losses(sequence: &Sequence, losses: &mut Vec<Loss>) {
    let place = || Place::sequence(&sequence.name);
    for index in 1..sequence.directions.len() {
        losses.push(Loss::new(
            Place {
                direction: Some(index),
                ..place()
            },
            format!(
                "direction {} (AIR actions have one)",
                sequence.direction_label(index)
            ),
        ));
    }
    if let Some(follow_up) = &sequence.follow_up {
        losses.push(Loss::new(
            place(),
            format!("the follow-up sequence \"{follow_up}\""),
        ));
    }
    if sequence.loop_point.is_none() && sequence.on_end == crate::model::EndBehavior::Disappear {
        losses.push(Loss::new(
            place(),
            "disappearing after the last frame (AIR holds the last frame with -1)",
        ));
    }
}

/// Losses of the set as a whole: groups (AIR has a flat list of actions), metadata.
pub fn set_losses(set: &AnimationSet, losses: &mut Vec<Loss>) {
    let mut groups = vec![&set.root];
    while let Some(group) = groups.pop() {
        for item in &group.items {
            if let crate::model::TreeItem::Group(g) = item {
                losses.push(Loss::new(
                    Place::document(),
                    format!("the group \"{}\" (AIR has a flat list of actions)", g.name),
                ));
                groups.push(g);
            }
        }
    }
    if !set.metadata.is_empty() {
        losses.push(Loss::new(
            Place::document(),
            "the metadata (title, author, ...)",
        ));
    }
}
