//! Structural edits of an ADL file: an animation whose frames were added, removed or
//! reordered, a removed animation, and a new animation.
//!
//! Frame `k` of a rewritten animation goes on the line of the file's `k`-th frame, so comments
//! and the lines around keep their places; a frame that is unchanged keeps its original text,
//! others are written as `JOINT dx,dy` items from where their parts and joints land. Extra lines
//! are removed; more frames get new lines after the last one.

use super::plan::{Plan, escape_value, line_ending};
use super::semantics::{AdlFile, Animation, Skeleton};
use crate::formats::loss::{Loss, Place};
use crate::model::{AnimationSet, ElementKind, Frame, FrameId, Sequence};
use std::collections::HashMap;
use std::ops::Range;

/// Skeleton moves decided for this save: (skeleton, joint) -> sprite-space move.
pub(super) type SkeletonMoves = HashMap<(usize, usize), (i32, i32)>;

/// The whole line holding `span`, from its start to after its terminator.
fn whole_line(bytes: &[u8], span: &Range<usize>) -> Range<usize> {
    let start = bytes[..span.start]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |p| p + 1);
    let end = match bytes.get(span.end) {
        Some(b'\r') if bytes.get(span.end + 1) == Some(&b'\n') => span.end + 2,
        Some(b'\r') | Some(b'\n') => span.end + 1,
        _ => span.end,
    };
    start..end
}

/// Joint positions (y up) after the skeleton moves.
fn moved_joints(
    skeleton_index: usize,
    skeleton: &Skeleton,
    moves: &SkeletonMoves,
) -> Vec<(i32, i32)> {
    skeleton
        .joints
        .iter()
        .enumerate()
        .map(|(j, joint)| {
            let (dx, dy) = moves.get(&(skeleton_index, j)).copied().unwrap_or((0, 0));
            (
                joint.position.0.saturating_add(dx),
                joint.position.1.saturating_sub(dy),
            )
        })
        .collect()
}

/// A frame's value written from where its elements land, relative to the skeleton.
fn generated_value(
    frame: &Frame,
    skeleton: &Skeleton,
    joints: &[(i32, i32)],
    place: &Place,
    losses: &mut Vec<Loss>,
) -> String {
    let mut items = Vec::new();
    let mut not_shown = 0;
    for (joint, &(jx, jy)) in skeleton.joints.iter().zip(joints) {
        let graphic = frame
            .elements
            .iter()
            .find_map(|e| (e.name == joint.name).then(|| e.as_graphic()).flatten());
        let point = frame
            .elements
            .iter()
            .find_map(|e| (e.name == joint.name).then(|| e.as_point()).flatten());
        let Some(at) = graphic.map(|g| g.position).or(point.map(|p| p.position)) else {
            not_shown += 1;
            continue;
        };
        if let (Some(g), Some(p)) = (graphic, point)
            && g.position != p.position
        {
            losses.push(Loss::new(
                place.clone().element(format!("point {}", joint.name)),
                "apart from its part: in ADL a part is drawn on its joint, so the joint comes back where the part is",
            ));
        }
        let (Some(x), Some(y)) = (at.x.to_int_exact(), at.y.to_int_exact()) else {
            losses.push(Loss::new(
                place.clone().element(joint.name.clone()),
                "a position off the whole pixels; rounded down",
            ));
            continue;
        };
        let (dx, dy) = (x.saturating_sub(jx), (-y).saturating_sub(jy));
        if (dx, dy) != (0, 0) {
            items.push(format!("{} {dx},{dy}", joint.name));
        }
    }
    if not_shown > 0 {
        losses.push(Loss::new(
            place.clone(),
            format!(
                "{not_shown} of the {} joints of {} it does not show: every ADL frame draws its skeleton's parts and joints, so they come back where the skeleton puts them",
                skeleton.joints.len(),
                skeleton.key
            ),
        ));
    }
    for element in &frame.elements {
        let known = skeleton.joints.iter().any(|j| j.name == element.name);
        if !known || matches!(element.kind, ElementKind::Box(_)) {
            losses.push(Loss::new(
                place.clone().element(element.name.clone()),
                format!("not a part or joint of {}: not written", skeleton.key),
            ));
        }
    }
    items.join(";")
}

/// Rewrites the frame lines of an animation whose frame list changed.
#[allow(clippy::too_many_arguments)]
pub(super) fn rewrite_frames(
    bytes: &[u8],
    file: &AdlFile,
    animation: &Animation,
    sequence: &Sequence,
    original_frames: &[FrameId],
    before: &AnimationSet,
    document: &AnimationSet,
    moves: &SkeletonMoves,
    plan: &mut Plan,
    losses: &mut Vec<Loss>,
) {
    let Some(skeleton_index) = animation.skeleton else {
        losses.push(Loss::new(
            Place::sequence(&sequence.name),
            "its skeleton is missing, so its frames cannot be rewritten",
        ));
        return;
    };
    let skeleton = &file.skeletons[skeleton_index];
    let joints = moved_joints(skeleton_index, skeleton, moves);
    let unmoved = (0..skeleton.joints.len()).all(|j| !moves.contains_key(&(skeleton_index, j)));
    let lines: Vec<usize> = animation.frames.iter().filter_map(|f| f.property).collect();
    let new_frames = sequence
        .directions
        .first()
        .map_or(&[][..], |d| &d.frames[..]);
    let name = sequence.name.clone();
    let mut last_line_end = lines
        .last()
        .map_or(file.property(animation.property).span.end, |&p| {
            file.property(p).span.end
        });
    for (k, id) in new_frames.iter().enumerate() {
        let place = Place::frame(&name, 0, k);
        let Some(frame) = document.frame(*id) else {
            continue;
        };
        let original = original_frames
            .iter()
            .position(|f| f == id)
            .filter(|_| unmoved && before.frame(*id) == Some(frame))
            .map(|j| {
                animation.frames[j]
                    .property
                    .map_or(String::new(), |p| file.property(p).value.clone())
            });
        let value =
            original.unwrap_or_else(|| generated_value(frame, skeleton, &joints, &place, losses));
        let key = format!("{name}_{}", k + 1);
        match lines.get(k) {
            Some(&line) => {
                let property = file.property(line);
                if property.key != key {
                    plan.keys.insert(line, key);
                }
                if property.value != value {
                    plan.values.entry(line).or_default().whole = Some(value);
                }
                last_line_end = property.span.end;
            }
            None => plan
                .new_lines
                .push((last_line_end, format!("{key}={value}"))),
        }
    }
    for &line in lines.iter().skip(new_frames.len()) {
        plan.keys.remove(&line);
        plan.deletions
            .push(whole_line(bytes, &file.property(line).span));
    }
}

/// Removes an animation's header and frame lines.
pub(super) fn remove_animation(
    bytes: &[u8],
    file: &AdlFile,
    animation: &Animation,
    plan: &mut Plan,
) {
    let lines = std::iter::once(animation.property)
        .chain(animation.frames.iter().filter_map(|f| f.property));
    for line in lines {
        plan.keys.remove(&line);
        plan.deletions
            .push(whole_line(bytes, &file.property(line).span));
    }
}

/// Appends a sequence that is not in the file as a new animation on a skeleton whose joints
/// name every element of it.
#[allow(clippy::too_many_arguments)]
pub(super) fn append_animation(
    bytes: &[u8],
    file: &AdlFile,
    document: &AnimationSet,
    sequence: &Sequence,
    row: i32,
    taken: &mut Vec<String>,
    delay: &str,
    moves: &SkeletonMoves,
    plan: &mut Plan,
    losses: &mut Vec<Loss>,
) {
    let frames: Vec<&Frame> = sequence.directions.first().map_or(Vec::new(), |d| {
        d.frames.iter().filter_map(|f| document.frame(*f)).collect()
    });
    let fits = |s: &Skeleton| {
        frames.iter().all(|f| {
            f.elements
                .iter()
                .all(|e| s.joints.iter().any(|j| j.name == e.name))
        })
    };
    let Some(skeleton_index) = file.skeletons.iter().position(fits) else {
        losses.push(Loss::new(
            Place::sequence(&sequence.name),
            "no skeleton of the file has a joint for each of its elements, so it is not written",
        ));
        return;
    };
    let skeleton = &file.skeletons[skeleton_index];
    let joints = moved_joints(skeleton_index, skeleton, moves);
    let key = if super::semantics::is_game_animation_name(&sequence.name)
        && !taken.contains(&sequence.name)
    {
        sequence.name.clone()
    } else {
        let key = super::semantics::animation_key(&sequence.name, taken.len(), taken);
        losses.push(Loss::new(
            Place::sequence(&sequence.name),
            format!("written as {key}: the game needs a new name of ANIM_ and uppercase letters"),
        ));
        key
    };
    taken.push(key.clone());
    let newline = line_ending(bytes);
    let ends_open = !bytes.is_empty() && !bytes.ends_with(b"\n") && !bytes.ends_with(b"\r");
    if ends_open && plan.tail.is_empty() {
        plan.tail.push_str(newline);
    }
    let skeleton_key = &file.property(skeleton.property).key;
    plan.tail.push_str(&format!(
        "{newline}{key}=DELAY {delay};ROW {row};SKELETON {skeleton_key}{newline}"
    ));
    for (k, frame) in frames.iter().enumerate() {
        let place = Place::frame(&sequence.name, 0, k);
        let value = generated_value(frame, skeleton, &joints, &place, losses);
        plan.tail.push_str(&format!(
            "{key}_{}={}{newline}",
            k + 1,
            escape_value(&value)
        ));
    }
}
