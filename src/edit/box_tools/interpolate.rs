//! Interpolating boxes and points between two keyframes of a direction.

use super::{BoxRun, set_class_boxes, shown_boxes};
use crate::boxes::interpolate::{Easing, interpolate_point, interpolate_shape};
use crate::boxes::matching::pair_boxes;
use crate::edit::command::Command;
use crate::edit::common_steps::direction_frames;
use crate::edit::error::{EditError, EditResult};
use crate::edit::selection::Selection;
use crate::edit::snapshot::Tx;
use crate::model::{
    AnimationSet, AttachmentPoint, BoxClass, CollisionBox, Element, ElementId, ElementKind, Frame,
    FrameId,
};
use std::collections::BTreeMap;

/// Fills the frames strictly between two keyframes with boxes and points moved and resized
/// over time. Boxes of a class are paired by how much they overlap and how alike their sizes
/// are (their order only breaking ties: [`pair_boxes`]); points by name, unnamed ones by
/// order. The results are ordinary boxes and points; on each in-between frame they replace
/// the boxes of the classes interpolated and the matching points. [`InterpolateBoxes::plan`]
/// tells what the frames will get before anything changes (the editor's preview).
#[derive(Clone, Debug)]
pub struct InterpolateBoxes {
    /// Where.
    pub run: BoxRun,
    /// The first keyframe's position.
    pub from: usize,
    /// The second keyframe's position (after `from`, with at least one frame between).
    pub to: usize,
    /// How the values move over time.
    pub easing: Easing,
}

/// What the frames between two keyframes get from [`InterpolateBoxes`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InterpolationPlan {
    /// For each class interpolated, the boxes each in-between frame (by position) will show.
    pub boxes: Vec<(BoxClass, BTreeMap<usize, Vec<CollisionBox>>)>,
    /// For each in-between frame (by position), its points: `(name, order among unnamed
    /// ones, value)`.
    pub points: BTreeMap<usize, Vec<(String, usize, AttachmentPoint)>>,
}

impl InterpolationPlan {
    /// The boxes frame `index` will show, of every class interpolated.
    pub fn boxes_of(&self, index: usize) -> Vec<&CollisionBox> {
        self.boxes
            .iter()
            .filter_map(|(_, frames)| frames.get(&index))
            .flatten()
            .collect()
    }

    /// Whether nothing would be interpolated.
    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty() && self.points.is_empty()
    }
}

impl InterpolateBoxes {
    /// What the in-between frames will get, without changing anything.
    pub fn plan(&self, doc: &AnimationSet) -> EditResult<InterpolationPlan> {
        let ids: Vec<FrameId> =
            direction_frames(doc, self.run.sequence, self.run.direction)?.to_vec();
        if self.to >= ids.len() || self.from + 1 >= self.to {
            return Err(EditError::new(
                "select two keyframes of one direction with at least one frame between them",
            ));
        }
        let shares = time_shares(doc, self.run, &ids, self.from, self.to);
        let mut plan = InterpolationPlan::default();
        for class in classes_of(doc, self.run, self.from, self.to)? {
            let a = shown_boxes(doc, self.run, self.from, &class)?;
            let b = shown_boxes(doc, self.run, self.to, &class)?;
            let pairs = pair_boxes(
                &a.iter().map(|x| x.shape.clone()).collect::<Vec<_>>(),
                &b.iter().map(|x| x.shape.clone()).collect::<Vec<_>>(),
            );
            let mut wanted: BTreeMap<usize, Vec<CollisionBox>> = BTreeMap::new();
            for (index, share) in (self.from + 1..self.to).zip(&shares) {
                let s = self.easing.apply(*share);
                let boxes: Vec<CollisionBox> = pairs
                    .iter()
                    .filter_map(|&(i, j)| {
                        let (p, q) = (&a[i], &b[j]);
                        interpolate_shape(&p.shape, &q.shape, s).map(|shape| CollisionBox {
                            shape,
                            // A new box: written in the order most of the file uses.
                            corners: None,
                            ..p.clone()
                        })
                    })
                    .collect();
                if !boxes.is_empty() {
                    wanted.insert(index, boxes);
                }
            }
            if !wanted.is_empty() {
                plan.boxes.push((class, wanted));
            }
        }
        let pairs = point_pairs(doc, ids[self.from], ids[self.to]);
        if !pairs.is_empty() {
            for (index, share) in (self.from + 1..self.to).zip(&shares) {
                let s = self.easing.apply(*share);
                let points = pairs
                    .iter()
                    .map(|(name, order, a, b)| (name.clone(), *order, interpolate_point(a, b, s)))
                    .collect();
                plan.points.insert(index, points);
            }
        }
        Ok(plan)
    }
}

impl Command for InterpolateBoxes {
    fn label(&self) -> String {
        format!(
            "Interpolate boxes over {}",
            crate::text::count(self.to.saturating_sub(self.from + 1), "frame")
        )
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let plan = self.plan(tx.doc())?;
        if plan.is_empty() {
            return Err(EditError::new(
                "the two keyframes have no boxes of the same class and no points of the same name to interpolate",
            ));
        }
        for (class, wanted) in &plan.boxes {
            set_class_boxes(tx, self.run, class, wanted)?;
        }
        let ids: Vec<FrameId> =
            direction_frames(tx.doc(), self.run.sequence, self.run.direction)?.to_vec();
        for (index, points) in plan.points {
            for (name, order, value) in points {
                put_point(tx, ids[index], &name, order, value)?;
            }
        }
        tx.select(Selection::frames(
            self.run.sequence,
            self.run.direction,
            (self.from..=self.to).collect(),
        ));
        Ok(())
    }
}

/// For each frame strictly between, the share of time from the first keyframe's start to the
/// second's; by position when a frame between lasts forever or the span takes no time.
fn time_shares(
    doc: &AnimationSet,
    run: BoxRun,
    ids: &[FrameId],
    from: usize,
    to: usize,
) -> Vec<f64> {
    let rate = doc
        .sequence(run.sequence)
        .and_then(|s| s.frame_rate)
        .or(doc.frame_rate)
        .unwrap_or(0);
    let seconds: Option<Vec<f64>> = ids[from..to]
        .iter()
        .map(|id| {
            doc.frame(*id)
                .and_then(|f| f.duration.exact(rate))
                .map(|t| t.numerator as f64 / t.denominator as f64)
        })
        .collect();
    let by_position = || {
        (from + 1..to)
            .map(|i| (i - from) as f64 / (to - from) as f64)
            .collect()
    };
    let Some(seconds) = seconds else {
        return by_position();
    };
    let total: f64 = seconds.iter().sum();
    if total <= 0.0 {
        return by_position();
    }
    let mut elapsed = 0.0;
    seconds[..seconds.len() - 1]
        .iter()
        .map(|d| {
            elapsed += d;
            elapsed / total
        })
        .collect()
}

/// The box classes both keyframes show, in the first keyframe's order.
fn classes_of(
    doc: &AnimationSet,
    run: BoxRun,
    from: usize,
    to: usize,
) -> EditResult<Vec<BoxClass>> {
    let mut classes = Vec::new();
    for class in [BoxClass::Hit, BoxClass::Hurt]
        .into_iter()
        .chain(custom_classes(doc, run, from))
    {
        if !classes.contains(&class)
            && !shown_boxes(doc, run, from, &class)?.is_empty()
            && !shown_boxes(doc, run, to, &class)?.is_empty()
        {
            classes.push(class);
        }
    }
    Ok(classes)
}

fn custom_classes(doc: &AnimationSet, run: BoxRun, index: usize) -> Vec<BoxClass> {
    let Some(sequence) = doc.sequence(run.sequence) else {
        return Vec::new();
    };
    let frames = doc.direction_frames(sequence, run.direction);
    crate::model::effective_boxes(&frames, index, run.rule)
        .into_iter()
        .map(|b| b.collision.class.clone())
        .filter(|c| matches!(c, BoxClass::Custom(_)))
        .collect()
}

/// Points of the two keyframes that go together: `(name, order among unnamed, a, b)`.
fn point_pairs(
    doc: &AnimationSet,
    from: FrameId,
    to: FrameId,
) -> Vec<(String, usize, AttachmentPoint, AttachmentPoint)> {
    let points = |id: FrameId| -> Vec<(String, AttachmentPoint)> {
        doc.frame(id)
            .map(|f| {
                f.elements
                    .iter()
                    .filter_map(|e| e.as_point().map(|p| (e.name.to_string(), p.clone())))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (a, b) = (points(from), points(to));
    let unnamed_b: Vec<&AttachmentPoint> = b
        .iter()
        .filter(|(n, _)| n.is_empty())
        .map(|(_, p)| p)
        .collect();
    let mut pairs = Vec::new();
    let mut order = 0;
    for (name, p) in &a {
        if name.is_empty() {
            if let Some(q) = unnamed_b.get(order) {
                pairs.push((String::new(), order, p.clone(), (*q).clone()));
            }
            order += 1;
        } else if let Some((_, q)) = b.iter().find(|(n, _)| n == name) {
            pairs.push((name.clone(), 0, p.clone(), q.clone()));
        }
    }
    pairs
}

/// Sets the point called `name` (or the `order`-th unnamed one) of a frame, adding it if the
/// frame has none.
fn put_point(
    tx: &mut Tx,
    frame_id: FrameId,
    name: &str,
    order: usize,
    value: AttachmentPoint,
) -> EditResult {
    let new_id = ElementId(tx.alloc_id());
    let frame: &mut Frame = tx.frame_mut(frame_id)?;
    let existing = frame
        .elements
        .iter_mut()
        .filter(|e| matches!(e.kind, ElementKind::Point(_)) && e.name == name)
        .nth(if name.is_empty() { order } else { 0 });
    match existing {
        Some(element) => element.kind = ElementKind::Point(value),
        None => frame.elements.push(Element {
            id: new_id,
            name: name.into(),
            kind: ElementKind::Point(value),
        }),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boxes::matching::overlap;
    use crate::boxes::test_shapes::hurt_box as hurt;
    use crate::edit::History;
    use crate::model::{DefaultBoxRule, SequenceId};

    /// Three frames: the first and last show `first` and `last` as their hurt boxes.
    fn keyframes(first: &[CollisionBox], last: &[CollisionBox]) -> (AnimationSet, BoxRun) {
        let (doc, id) = crate::model::fixtures::frames_with_boxes("walk", 5, &[first, &[], last]);
        let run = BoxRun {
            sequence: id,
            direction: 0,
            rule: DefaultBoxRule::default(),
            default_boxes: false,
        };
        (doc, run)
    }

    #[test]
    fn boxes_listed_in_another_order_are_paired_by_overlap_and_the_plan_is_what_is_applied() {
        // Traced boxes come largest first: the body leads on one keyframe, the legs (now
        // wider, the figure mid-stride) on the other.
        let (body, legs) = (hurt((-15, -80), (15, -30)), hurt((-8, -30), (8, 0)));
        let (body_later, legs_later) = (hurt((-13, -80), (17, -30)), hurt((-30, -34), (30, 0)));
        let (mut doc, run) = keyframes(
            &[body.clone(), legs.clone()],
            &[legs_later.clone(), body_later.clone()],
        );
        let command = InterpolateBoxes {
            run,
            from: 0,
            to: 2,
            easing: Easing::Linear,
        };
        let plan = command.plan(&doc).unwrap();
        let between = plan.boxes_of(1);
        assert_eq!(between.len(), 2, "{between:?}");
        // Each in-between box lies over the same part of the body on both keyframes.
        for (key, later) in [(&body, &body_later), (&legs, &legs_later)] {
            assert!(
                between.iter().any(|b| overlap(&b.shape, &key.shape) > 0.3
                    && overlap(&b.shape, &later.shape) > 0.3),
                "no in-between box over {key:?}: {between:?}"
            );
        }
        History::new()
            .apply(&mut doc, &Selection::none(), &command, None)
            .unwrap();
        let shown: Vec<CollisionBox> = shown_boxes(&doc, run, 1, &BoxClass::Hurt).unwrap();
        let planned: Vec<CollisionBox> = between.into_iter().cloned().collect();
        let shapes =
            |boxes: &[CollisionBox]| boxes.iter().map(|b| b.shape.clone()).collect::<Vec<_>>();
        assert_eq!(shapes(&shown), shapes(&planned));
    }

    #[test]
    fn the_label_counts_the_frames_between_in_plain_words() {
        let over = |from, to| {
            InterpolateBoxes {
                run: BoxRun {
                    sequence: SequenceId(1),
                    direction: 0,
                    rule: DefaultBoxRule::default(),
                    default_boxes: false,
                },
                from,
                to,
                easing: Easing::Linear,
            }
            .label()
        };
        assert_eq!(over(0, 2), "Interpolate boxes over 1 frame");
        assert_eq!(over(0, 4), "Interpolate boxes over 3 frames");
    }
}
