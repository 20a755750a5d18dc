//! Box tools over many frames: fit and trace results placed on frames, interpolation between
//! keyframes, mirroring. Each is one command, so one undo step however many frames it touches.
//!
//! They all come down to "these frames now show these boxes of this class"
//! ([`set_class_boxes`]). On formats with default boxes (M.U.G.E.N `ClsnNDefault`) that is
//! written the way the file's own style would: a run of frames showing the same boxes becomes
//! one default on its first frame, a frame that would inherit exactly its boxes declares
//! nothing, and a frame the tool did not touch keeps showing what it showed (if a new default
//! would reach it, it gets its old boxes back as its own default).

mod interpolate;
mod mirror;
mod place;

pub use interpolate::{InterpolateBoxes, InterpolationPlan};
pub use mirror::MirrorElements;
pub use place::{ExistingBoxes, PlaceBoxes};

use super::common_steps::direction_frames;
use super::error::{EditError, EditResult};
use super::snapshot::Tx;
use crate::model::{
    AnimationSet, BoxClass, BoxDeclaration, BoxScope, CollisionBox, DefaultBoxRule, Element,
    ElementId, ElementKind, Frame, FrameId, Name, SequenceId, Shape, effective_boxes,
};
use std::collections::BTreeMap;

/// Where the tools work and how boxes carry over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxRun {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// The default-box rule the preview shows.
    pub rule: DefaultBoxRule,
    /// The format has default boxes (ask [`crate::formats::Capabilities::default_boxes`]).
    pub default_boxes: bool,
}

/// The frames of the direction, in play order.
fn frames_in(doc: &AnimationSet, run: BoxRun) -> EditResult<Vec<&Frame>> {
    direction_frames(doc, run.sequence, run.direction)?
        .iter()
        .map(|id| {
            doc.frame(*id)
                .ok_or_else(|| EditError::new(format!("frame {id} does not exist")))
        })
        .collect()
}

/// The boxes of `class` frame `index` shows (own or inherited), in order.
pub(crate) fn shown_boxes(
    doc: &AnimationSet,
    run: BoxRun,
    index: usize,
    class: &BoxClass,
) -> EditResult<Vec<CollisionBox>> {
    let frames = frames_in(doc, run)?;
    Ok(effective_boxes(&frames, index, run.rule)
        .into_iter()
        .filter(|b| &b.collision.class == class)
        .map(|b| b.collision.clone())
        .collect())
}

fn shapes(boxes: &[CollisionBox]) -> Vec<&Shape> {
    boxes.iter().map(|b| &b.shape).collect()
}

/// Makes frame `index` of each entry show exactly the given boxes of `class`, and every other
/// frame of the direction show what it showed before.
pub(crate) fn set_class_boxes(
    tx: &mut Tx,
    run: BoxRun,
    class: &BoxClass,
    wanted: &BTreeMap<usize, Vec<CollisionBox>>,
) -> EditResult {
    let ids: Vec<FrameId> = direction_frames(tx.doc(), run.sequence, run.direction)?.to_vec();
    if let Some((index, _)) = wanted.iter().find(|(i, _)| **i >= ids.len()) {
        return Err(EditError::new(format!(
            "there is no frame {index} (the direction has {})",
            crate::text::count(ids.len(), "frame")
        )));
    }
    let before: Vec<Vec<CollisionBox>> = (0..ids.len())
        .map(|i| shown_boxes(tx.doc(), run, i, class))
        .collect::<EditResult<_>>()?;
    for (&index, boxes) in wanted {
        let next_same = wanted
            .get(&(index + 1))
            .is_some_and(|next| shapes(next) == shapes(boxes));
        let frame = ids[index];
        if run.default_boxes {
            // Would the frame show these boxes by declaring nothing?
            let undeclared = without_class(tx.doc(), frame, class)?;
            let inherited = shown_with(tx.doc(), run, index, frame, &undeclared, class)?;
            if shapes(&inherited) == shapes(boxes) {
                *tx.frame_mut(frame)? = undeclared;
                continue;
            }
        }
        let scope = if run.default_boxes && next_same && !boxes.is_empty() {
            BoxScope::FromHereOn
        } else {
            BoxScope::ThisFrame
        };
        give_own_boxes(tx, frame, class, boxes, scope, run.default_boxes)?;
    }
    if run.default_boxes {
        keep_untouched_frames(tx, run, class, wanted, &ids, &before)?;
    }
    Ok(())
}

/// A frame that no longer shows what it showed and was not asked to change gets its old boxes
/// back as its own default (so the frames after it that inherited them still do).
fn keep_untouched_frames(
    tx: &mut Tx,
    run: BoxRun,
    class: &BoxClass,
    wanted: &BTreeMap<usize, Vec<CollisionBox>>,
    ids: &[FrameId],
    before: &[Vec<CollisionBox>],
) -> EditResult {
    let touched: Vec<FrameId> = wanted.keys().map(|i| ids[*i]).collect();
    for (index, old) in before.iter().enumerate() {
        if touched.contains(&ids[index]) {
            continue;
        }
        let now = shown_boxes(tx.doc(), run, index, class)?;
        if shapes(&now) != shapes(old) {
            give_own_boxes(tx, ids[index], class, old, BoxScope::FromHereOn, true)?;
        }
    }
    Ok(())
}

/// `frame` without its own boxes and declaration of `class`.
fn without_class(doc: &AnimationSet, frame: FrameId, class: &BoxClass) -> EditResult<Frame> {
    let mut copy = doc
        .frame(frame)
        .ok_or_else(|| EditError::new(format!("frame {frame} does not exist")))?
        .clone();
    copy.elements
        .retain(|e| !matches!(&e.kind, ElementKind::Box(b) if &b.class == class));
    copy.box_declarations.retain(|d| &d.class != class);
    Ok(copy)
}

/// The boxes of `class` frame `index` would show if frame `id` were `replacement`.
fn shown_with(
    doc: &AnimationSet,
    run: BoxRun,
    index: usize,
    id: FrameId,
    replacement: &Frame,
    class: &BoxClass,
) -> EditResult<Vec<CollisionBox>> {
    let ids = direction_frames(doc, run.sequence, run.direction)?;
    let frames: Vec<&Frame> = ids
        .iter()
        .map(|f| {
            if *f == id {
                Ok(replacement)
            } else {
                doc.frame(*f)
                    .ok_or_else(|| EditError::new(format!("frame {f} does not exist")))
            }
        })
        .collect::<EditResult<_>>()?;
    Ok(effective_boxes(&frames, index, run.rule)
        .into_iter()
        .filter(|b| &b.collision.class == class)
        .map(|b| b.collision.clone())
        .collect())
}

/// Makes `boxes` the frame's own boxes of `class` with `scope`. Boxes the frame already holds
/// in that order stay as they are (same ids, same place); the rest are added after them.
fn give_own_boxes(
    tx: &mut Tx,
    frame_id: FrameId,
    class: &BoxClass,
    boxes: &[CollisionBox],
    scope: BoxScope,
    default_boxes: bool,
) -> EditResult {
    let frame = tx
        .doc()
        .frame(frame_id)
        .ok_or_else(|| EditError::new(format!("frame {frame_id} does not exist")))?;
    let own: Vec<&Shape> = frame
        .boxes()
        .filter(|(_, b)| &b.class == class)
        .map(|(_, b)| &b.shape)
        .collect();
    let declared = frame.box_declarations.iter().find(|d| &d.class == class);
    let scope_kept = match declared {
        Some(d) => d.scope == scope,
        None => scope == BoxScope::ThisFrame && !own.is_empty(),
    };
    let keep = scope_kept && own.len() <= boxes.len() && shapes(&boxes[..own.len()]) == own;
    let added = if keep { &boxes[own.len()..] } else { boxes };
    if keep && added.is_empty() {
        return Ok(());
    }
    let mut next_id = frame
        .boxes()
        .map(|(_, b)| b.box_id)
        .max()
        .map_or(0, |m| m.saturating_add(1));
    let mut elements = Vec::new();
    for b in added {
        elements.push(Element {
            id: ElementId(tx.alloc_id()),
            name: Name::default(),
            kind: ElementKind::Box(CollisionBox {
                box_id: next_id,
                ..b.clone()
            }),
        });
        next_id = next_id.saturating_add(1);
    }
    let frame = tx.frame_mut(frame_id)?;
    if !keep {
        frame
            .elements
            .retain(|e| !matches!(&e.kind, ElementKind::Box(b) if &b.class == class));
        frame.box_declarations.retain(|d| &d.class != class);
        // An empty own set, or a default, must be declared; plain own boxes need no line.
        if default_boxes && (scope == BoxScope::FromHereOn || boxes.is_empty()) {
            frame.box_declarations.push(BoxDeclaration {
                class: class.clone(),
                scope,
            });
        }
    }
    frame.elements.extend(elements);
    Ok(())
}
