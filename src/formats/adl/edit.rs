//! Saving an edited ADL document back into its own file, changing only what was edited.
//!
//! The original bytes are read again; the edited document is compared with what they give,
//! element by element (ids are stable), and each difference becomes a small text edit:
//! - a part (graphic) moved in one frame changes that frame's transform for its joint
//!   (`ANIM_RUN_2=...;LEG_LEFT 0,-1`), never the skeleton;
//! - a joint (attachment point) moved the same way on every frame of an animation changes the
//!   skeleton; other animations sharing that skeleton keep their look through compensating
//!   frame transforms (use [`move_skeleton_joint`] to move the joint in all of them, which
//!   changes only the skeleton line);
//! - a new frame duration shared by every frame of an animation changes its DELAY;
//! - a renamed sequence renames its header and frame keys;
//! - frames added, removed or reordered rewrite that animation's frame lines in place, a removed
//!   sequence removes its lines, and a new sequence is appended on a skeleton that has a joint
//!   for each of its elements (see `restructure.rs`).
//!
//! Everything else in the file (comments, key order, spacing, continuations) stays byte for
//! byte. What ADL cannot hold is reported as a [`Loss`].

use super::mapping::{animation_order, build};
use super::plan::{MissingFrame, Plan, escape_value, line_ending};
use super::restructure;
use super::semantics::{AdlFile, Animation, Target, parse};
use super::values::nanos_decimal;
use crate::formats::loss::{Loss, Place, frame_extra_losses};
use crate::formats::{ReadContext, Written};
use crate::model::{
    AnimationSet, Element, ElementId, ElementKind, FrameDuration, FrameId, Fx, Point, SequenceId,
};
use std::collections::HashMap;
use std::ops::Range;

/// Where one joint is in one frame of the original document.
#[derive(Clone, Copy)]
struct JointElements {
    graphic: Option<ElementId>,
    point: ElementId,
}

/// The displacement of one joint in one frame, in sprite space (y down), whole pixels.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Delta {
    x: i32,
    y: i32,
    /// The attachment point was moved (a joint edit), not only the part.
    by_joint: bool,
    /// The part moved too (as [`move_part`] and [`move_skeleton_joint`] move both).
    with_part: bool,
}

/// Writes `document` over the bytes it was read from.
pub fn write_edited(document: &AnimationSet, original: &crate::model::OriginalSource) -> Written {
    let bytes = original.bytes.as_slice();
    let file = parse(bytes);
    let context = ReadContext {
        path: original.path.clone(),
        ..ReadContext::default()
    };
    let (before, _) = build(&file, bytes.len(), &context);
    let mut plan = Plan::default();
    let mut losses = Vec::new();
    document_losses(document, &before, &mut losses);
    let order = animation_order(&file);
    let before_sequences = before.sequences();
    // (animation index, frame index) -> joint deltas.
    let mut deltas: HashMap<(usize, usize), Vec<Delta>> = HashMap::new();
    // Animations whose frame list changed (rewritten whole) or that were removed.
    let mut restructured: Vec<(usize, SequenceId)> = Vec::new();
    let mut removed: Vec<usize> = Vec::new();
    for (position, &anim_index) in order.iter().enumerate() {
        let animation = &file.animations[anim_index];
        let Some(old) = before_sequences.get(position) else {
            continue;
        };
        let Some(new) = document.sequence(old.id) else {
            removed.push(anim_index);
            continue;
        };
        let place = Place::sequence(&new.name);
        if new.name != old.name {
            rename(animation, &new.name, &mut plan, &mut losses);
        }
        sequence_losses(new, &place, &mut losses);
        let old_frames = &old.directions[0].frames;
        let new_frames: &[FrameId] = new.directions.first().map_or(&[], |d| &d.frames);
        delay(document, new, animation, &mut plan, &mut losses);
        if new_frames != old_frames.as_slice() {
            restructured.push((anim_index, new.id));
            for (index, id) in new_frames.iter().enumerate() {
                if let Some(frame) = document.frame(*id) {
                    let place = Place::frame(&new.name, 0, index);
                    frame_text_losses(frame, &place, &mut losses);
                }
            }
            continue;
        }
        let joints = animation
            .skeleton
            .map_or(0, |s| file.skeletons[s].joints.len());
        for (frame_index, frame_id) in old_frames.iter().enumerate() {
            let (Some(old_frame), Some(new_frame)) =
                (before.frame(*frame_id), document.frame(*frame_id))
            else {
                continue;
            };
            let place = Place::frame(&new.name, 0, frame_index);
            frame_text_losses(new_frame, &place, &mut losses);
            let layout = joint_elements(old_frame, joints);
            let new_elements: HashMap<ElementId, &Element> =
                new_frame.elements.iter().map(|e| (e.id, e)).collect();
            let old_elements: HashMap<ElementId, &Element> =
                old_frame.elements.iter().map(|e| (e.id, e)).collect();
            for element in &new_frame.elements {
                if !old_elements.contains_key(&element.id) {
                    losses.push(Loss::new(
                        place.clone().element(element_label(element)),
                        "ADL frames hold only the skeleton's parts and joints; this added element is not written",
                    ));
                }
            }
            let frame_deltas = layout
                .iter()
                .map(|j| joint_delta(j, &old_elements, &new_elements, &place, &mut losses))
                .collect();
            deltas.insert((anim_index, frame_index), frame_deltas);
        }
    }
    let skipped: Vec<usize> = restructured
        .iter()
        .map(|(a, _)| *a)
        .chain(removed.iter().copied())
        .collect();
    let moves = skeleton_and_transforms(&file, &deltas, &skipped, &mut plan);
    for (anim_index, id) in restructured {
        let position = order.iter().position(|&a| a == anim_index).unwrap_or(0);
        let (Some(sequence), Some(old)) = (document.sequence(id), before_sequences.get(position))
        else {
            continue;
        };
        restructure::rewrite_frames(
            bytes,
            &file,
            &file.animations[anim_index],
            sequence,
            &old.directions[0].frames,
            &before,
            document,
            &moves,
            &mut plan,
            &mut losses,
        );
    }
    for anim_index in removed {
        restructure::remove_animation(bytes, &file, &file.animations[anim_index], &mut plan);
    }
    let mut taken: Vec<String> = file.table.keys().cloned().collect();
    let mut row = file
        .animations
        .iter()
        .filter_map(|a| a.row)
        .max()
        .unwrap_or(0);
    for sequence in document.sequences() {
        if before_sequences.iter().any(|s| s.id == sequence.id) {
            continue;
        }
        let place = Place::sequence(&sequence.name);
        sequence_losses(sequence, &place, &mut losses);
        let delay = shared_delay(document, sequence, &mut losses)
            .unwrap_or(super::semantics::MIN_DELAY_NANOS);
        row = row.saturating_add(1);
        restructure::append_animation(
            bytes,
            &file,
            document,
            sequence,
            row,
            &mut taken,
            &nanos_decimal(delay),
            &moves,
            &mut plan,
            &mut losses,
        );
    }
    order_losses(document, &before_sequences, &mut losses);
    let bytes = apply(bytes, &file, plan);
    Written {
        bytes,
        losses,
        companions: Vec::new(),
    }
}

/// Losses for document-level changes ADL cannot hold.
fn document_losses(document: &AnimationSet, before: &AnimationSet, losses: &mut Vec<Loss>) {
    if !document.metadata.is_empty() {
        losses.push(Loss::new(
            Place::document(),
            "metadata (title, authors, dates...)",
        ));
    }
    let paths =
        |d: &AnimationSet| -> Vec<String> { d.images.iter().map(|i| i.path.clone()).collect() };
    if paths(document) != paths(before) || !document.slices.is_empty() {
        losses.push(Loss::new(
            Place::document(),
            "changed images: ADL names each part's image SPRITESHEET + part + EXTENSION, so image edits are not written",
        ));
    }
    if document
        .root
        .items
        .iter()
        .any(|i| matches!(i, crate::model::TreeItem::Group(_)))
    {
        losses.push(Loss::new(
            Place::document(),
            "groups: ADL animations are flat",
        ));
    }
}

/// The animations read back in ROW order (then file order), new ones after them: a document
/// that orders its sequences otherwise loses that order.
fn order_losses(
    document: &AnimationSet,
    before: &[&crate::model::Sequence],
    losses: &mut Vec<Loss>,
) {
    let shown: Vec<SequenceId> = document.sequences().iter().map(|s| s.id).collect();
    let kept = before.iter().map(|s| s.id).filter(|id| shown.contains(id));
    let added = shown
        .iter()
        .copied()
        .filter(|id| !before.iter().any(|s| s.id == *id));
    let written: Vec<SequenceId> = kept.chain(added).collect();
    if written != shown {
        losses.push(Loss::new(
            Place::document(),
            "the order of the animations: ADL orders them by ROW (the row of the game's sheet), which stays as it was",
        ));
    }
}

/// Losses for sequence settings ADL cannot hold.
pub(super) fn sequence_losses(
    sequence: &crate::model::Sequence,
    place: &Place,
    losses: &mut Vec<Loss>,
) {
    if sequence.directions.len() > 1 {
        losses.push(Loss::new(
            place.clone(),
            format!(
                "{} directions: ADL animations have one, only the first is written",
                sequence.directions.len()
            ),
        ));
    }
    if sequence.loop_point != Some(0) {
        losses.push(Loss::new(
            place.clone(),
            "ADL animations always loop from their first frame; the loop setting is lost",
        ));
    }
    if let Some(next) = &sequence.follow_up {
        losses.push(Loss::new(
            place.clone(),
            format!("follow-up sequence \"{next}\""),
        ));
    }
    if let Some(title) = &sequence.title {
        losses.push(Loss::new(place.clone(), format!("the title \"{title}\"")));
    }
}

/// Losses for frame text, interpolation and box declarations.
pub(super) fn frame_text_losses(
    frame: &crate::model::Frame,
    place: &Place,
    losses: &mut Vec<Loss>,
) {
    losses.extend(frame_extra_losses(place, frame, |what, text| {
        format!("frame {what} \"{text}\"")
    }));
}

fn element_label(element: &Element) -> String {
    let kind = match element.kind {
        ElementKind::Graphic(_) => "graphic",
        ElementKind::Point(_) => "point",
        ElementKind::Box(_) => "collision box",
    };
    if element.name.is_empty() {
        format!("{kind} {}", element.id)
    } else {
        format!("{kind} {}", element.name)
    }
}

/// The element ids of each joint in a frame as [`build`] lays them out: graphics of drawn joints
/// in reverse skeleton order, then one point per joint in skeleton order.
fn joint_elements(frame: &crate::model::Frame, joints: usize) -> Vec<JointElements> {
    let count = frame.elements.len();
    let points = &frame.elements[count.saturating_sub(joints)..];
    let graphics = &frame.elements[..count.saturating_sub(joints)];
    points
        .iter()
        .map(|point| JointElements {
            graphic: graphics.iter().find(|g| g.name == point.name).map(|g| g.id),
            point: point.id,
        })
        .collect()
}

fn whole(value: Fx, what: &str, place: &Place, losses: &mut Vec<Loss>) -> i32 {
    value.to_int_exact().unwrap_or_else(|| {
        losses.push(Loss::new(
            place.clone(),
            format!("{what} {value} is not a whole pixel; rounded"),
        ));
        value.to_f64().round() as i32
    })
}

fn joint_delta(
    joint: &JointElements,
    old: &HashMap<ElementId, &Element>,
    new: &HashMap<ElementId, &Element>,
    place: &Place,
    losses: &mut Vec<Loss>,
) -> Delta {
    let moved = |id: ElementId, losses: &mut Vec<Loss>| -> Option<Point> {
        let (before, after) = (old.get(&id)?, new.get(&id));
        let Some(after) = after else {
            losses.push(Loss::new(
                place.clone().element(element_label(before)),
                "removed, but ADL draws every part and joint of the skeleton in every frame (hide a part with a 0,-999 transform)",
            ));
            return None;
        };
        let place = place.clone().element(element_label(after));
        if after.name != before.name {
            losses.push(Loss::new(
                place.clone(),
                format!(
                    "the name \"{}\": parts and joints are named by the skeleton, for every frame, so it stays \"{}\"",
                    after.name, before.name
                ),
            ));
        }
        let (p0, p1) = match (&before.kind, &after.kind) {
            (ElementKind::Graphic(a), ElementKind::Graphic(b)) => {
                if a.source != b.source || a.origin != b.origin {
                    losses.push(Loss::new(
                        place.clone(),
                        "a different image or anchor for one frame",
                    ));
                }
                if b.flip_h || b.flip_v {
                    losses.push(Loss::new(place.clone(), "flip"));
                }
                if b.rotation != 0.0 {
                    losses.push(Loss::new(
                        place.clone(),
                        format!("rotation {}°", b.rotation),
                    ));
                }
                if b.scale_x != 1.0 || b.scale_y != 1.0 {
                    losses.push(Loss::new(
                        place.clone(),
                        format!("scale {}×{}", b.scale_x, b.scale_y),
                    ));
                }
                if b.opacity != a.opacity {
                    losses.push(Loss::new(place.clone(), format!("opacity {}", b.opacity)));
                }
                if b.blend != a.blend {
                    losses.push(Loss::new(place.clone(), "blend mode"));
                }
                (a.position, b.position)
            }
            (ElementKind::Point(a), ElementKind::Point(b)) => {
                if b.rotation != a.rotation
                    || b.scale_x != a.scale_x
                    || b.scale_y != a.scale_y
                    || b.flip_h != a.flip_h
                    || b.flip_v != a.flip_v
                    || b.opacity != a.opacity
                {
                    losses.push(Loss::new(
                        place.clone(),
                        "rotation, scale, flip or opacity of a joint",
                    ));
                }
                (a.position, b.position)
            }
            _ => {
                losses.push(Loss::new(
                    place.clone(),
                    "changed into another kind of element",
                ));
                return None;
            }
        };
        let d = p1 - p0;
        Some(Point::from_ints(
            whole(d.x, "horizontal move", &place, losses),
            whole(d.y, "vertical move", &place, losses),
        ))
    };
    let part = joint.graphic.and_then(|g| moved(g, losses));
    let point = moved(joint.point, losses);
    let as_ints = |p: Point| (p.x.floor(), p.y.floor());
    match (part.map(as_ints), point.map(as_ints)) {
        (part, Some(p)) if p != (0, 0) => {
            if let Some(g) = part
                && g != p
            {
                let name = new
                    .get(&joint.point)
                    .map_or(String::new(), |e| e.name.to_string());
                losses.push(Loss::new(
                    place.clone().element(format!("graphic {name}")),
                    format!(
                        "in ADL a part moves with its joint: it lands {},{} from where it was, not {},{}",
                        p.0, p.1, g.0, g.1
                    ),
                ));
            }
            Delta {
                x: p.0,
                y: p.1,
                by_joint: true,
                with_part: part == Some(p),
            }
        }
        (Some(g), _) => {
            if g != (0, 0) {
                let name = old
                    .get(&joint.point)
                    .map_or(String::new(), |e| e.name.to_string());
                losses.push(Loss::new(
                    place.clone().element(format!("point {name}")),
                    format!(
                        "staying put while its part moves: in ADL a part moves with its joint, so the joint moves {},{} too",
                        g.0, g.1
                    ),
                ));
            }
            Delta {
                x: g.0,
                y: g.1,
                by_joint: false,
                with_part: true,
            }
        }
        _ => Delta::default(),
    }
}

fn to_nanos(
    duration: FrameDuration,
    rate: Option<u32>,
    place: &Place,
    losses: &mut Vec<Loss>,
) -> Option<u64> {
    let exact = |numerator: u64, denominator: u64, losses: &mut Vec<Loss>| {
        let scaled = u128::from(numerator) * 1_000_000_000;
        let nanos = scaled / u128::from(denominator.max(1));
        if scaled % u128::from(denominator.max(1)) != 0 {
            losses.push(Loss::new(
                place.clone(),
                format!("duration {duration} is not a whole number of nanoseconds; rounded down"),
            ));
        }
        u64::try_from(nanos).unwrap_or(u64::MAX)
    };
    match duration {
        FrameDuration::Seconds { nanos } => Some(nanos),
        FrameDuration::Millis(ms) => Some(u64::from(ms) * 1_000_000),
        FrameDuration::Ticks(t) => Some(exact(u64::from(t), 60, losses)),
        FrameDuration::Holds(h) => match rate.filter(|r| *r > 0) {
            Some(rate) => Some(exact(u64::from(h.max(1)), u64::from(rate), losses)),
            None => {
                losses.push(Loss::new(
                    place.clone(),
                    "a duration in holds with no frame rate",
                ));
                None
            }
        },
        FrameDuration::Forever => {
            losses.push(Loss::new(
                place.clone(),
                "a frame shown forever: ADL frames all last DELAY seconds",
            ));
            None
        }
    }
}

/// The one duration an animation's frames share, reporting the frames that differ.
pub(super) fn shared_delay(
    document: &AnimationSet,
    sequence: &crate::model::Sequence,
    losses: &mut Vec<Loss>,
) -> Option<u64> {
    let rate = sequence.frame_rate.or(document.frame_rate);
    let frames = sequence
        .directions
        .first()
        .map_or(&[][..], |d| &d.frames[..]);
    let mut chosen: Option<u64> = None;
    for (index, id) in frames.iter().enumerate() {
        let Some(frame) = document.frame(*id) else {
            continue;
        };
        let place = Place::frame(&sequence.name, 0, index);
        let Some(nanos) = to_nanos(frame.duration, rate, &place, losses) else {
            continue;
        };
        if nanos < super::semantics::MIN_DELAY_NANOS {
            losses.push(Loss::new(
                place.clone(),
                format!(
                    "duration {} s: the game plays a frame for at least 0.0625 s",
                    nanos_decimal(nanos)
                ),
            ));
        }
        match chosen {
            None => chosen = Some(nanos),
            Some(c) if c != nanos => losses.push(Loss::new(
                place,
                format!(
                    "per-frame duration {} s (the animation keeps DELAY {} s)",
                    nanos_decimal(nanos),
                    nanos_decimal(c)
                ),
            )),
            Some(_) => {}
        }
    }
    chosen
}

fn delay(
    document: &AnimationSet,
    sequence: &crate::model::Sequence,
    animation: &Animation,
    plan: &mut Plan,
    losses: &mut Vec<Loss>,
) {
    let Some(nanos) = shared_delay(document, sequence, losses) else {
        return;
    };
    if nanos == animation.delay_nanos {
        return;
    }
    let text = nanos_decimal(nanos);
    let edit = plan.values.entry(animation.property).or_default();
    match animation.delay_at.as_ref().and_then(|at| at.input.clone()) {
        Some(input) => edit.replacements.push((input, text)),
        None => edit.appended.push(format!("DELAY {text}")),
    }
}

fn rename(animation: &Animation, name: &str, plan: &mut Plan, losses: &mut Vec<Loss>) {
    if !super::semantics::is_game_animation_name(name) {
        losses.push(Loss::new(
            Place::sequence(name),
            "the game finds frames only for names like ANIM_NAME (uppercase letters after ANIM_); written anyway",
        ));
    }
    plan.keys.insert(animation.property, name.to_string());
    for frame in &animation.frames {
        if let Some(property) = frame.property {
            plan.keys
                .insert(property, format!("{name}_{}", frame.number));
        }
    }
}

/// Decides skeleton changes and frame transform changes from the joint deltas.
fn skeleton_and_transforms(
    file: &AdlFile,
    deltas: &HashMap<(usize, usize), Vec<Delta>>,
    skipped: &[usize],
    plan: &mut Plan,
) -> restructure::SkeletonMoves {
    let mut decided = restructure::SkeletonMoves::new();
    for (skeleton_index, skeleton) in file.skeletons.iter().enumerate() {
        let users: Vec<usize> = (0..file.animations.len())
            .filter(|&a| file.animations[a].skeleton == Some(skeleton_index))
            .collect();
        for (joint_index, joint) in skeleton.joints.iter().enumerate() {
            // The skeleton moves by the uniform joint move of the longest animation that made one.
            let mut skeleton_move = (0, 0);
            let mut best_frames = 0;
            for &a in &users {
                let frames = file.animations[a].frames.len();
                let moves: Vec<Delta> = (0..frames)
                    .filter_map(|f| {
                        deltas
                            .get(&(a, f))
                            .and_then(|d| d.get(joint_index))
                            .copied()
                    })
                    .collect();
                // A part moved with its joint in the only frame of an animation is a part move
                // (a frame transform), not a skeleton edit.
                let needed = if moves.iter().any(|m| m.with_part) {
                    2
                } else {
                    1
                };
                let uniform = moves.len() == frames
                    && frames >= needed
                    && moves
                        .iter()
                        .all(|m| m.by_joint && (m.x, m.y) == (moves[0].x, moves[0].y));
                if uniform && frames > best_frames && (moves[0].x, moves[0].y) != (0, 0) {
                    skeleton_move = (moves[0].x, moves[0].y);
                    best_frames = frames;
                }
            }
            if skeleton_move != (0, 0) {
                decided.insert((skeleton_index, joint_index), skeleton_move);
            }
            if skeleton_move != (0, 0)
                && let Some(input) = joint.at.input.clone()
            {
                let (x, y) = joint.position;
                let text = format!(
                    "{},{}",
                    x.saturating_add(skeleton_move.0),
                    y.saturating_sub(skeleton_move.1)
                );
                plan.values
                    .entry(skeleton.property)
                    .or_default()
                    .replacements
                    .push((input, text));
            }
            for &a in users.iter().filter(|a| !skipped.contains(a)) {
                let animation = &file.animations[a];
                for (f, frame) in animation.frames.iter().enumerate() {
                    let d = deltas
                        .get(&(a, f))
                        .and_then(|d| d.get(joint_index))
                        .copied()
                        .unwrap_or_default();
                    let t = (d.x - skeleton_move.0, -(d.y - skeleton_move.1));
                    if t != (0, 0) {
                        transform(file, animation, frame, joint_index, &joint.name, t, plan);
                    }
                }
            }
        }
    }
    decided
}

/// Adds `t` (y up) to a frame's transform of one joint.
fn transform(
    file: &AdlFile,
    animation: &Animation,
    frame: &super::semantics::AnimFrame,
    joint_index: usize,
    joint: &str,
    t: (i32, i32),
    plan: &mut Plan,
) {
    let Some(property) = frame.property else {
        let previous = animation
            .frames
            .iter()
            .filter(|f| f.number < frame.number)
            .filter_map(|f| f.property)
            .next_back()
            .unwrap_or(animation.property);
        let at = file.property(previous).span.end;
        let name = plan
            .keys
            .get(&animation.property)
            .cloned()
            .unwrap_or_else(|| animation.key.clone());
        plan.missing
            .entry((animation.property, frame.number))
            .or_insert_with(|| MissingFrame {
                at,
                key: format!("{name}_{}", frame.number),
                items: Vec::new(),
            })
            .items
            .push(format!("{joint} {},{}", t.0, t.1));
        return;
    };
    let existing = frame
        .transforms
        .iter()
        .rev()
        .find(|tr| tr.target == Target::Joint(joint_index));
    let edit = plan.values.entry(property).or_default();
    match existing.and_then(|tr| tr.at.input.clone().map(|i| (i, tr.offset))) {
        Some((input, (x, y))) => {
            let text = format!("{},{}", x.saturating_add(t.0), y.saturating_add(t.1));
            edit.replacements.push((input, text));
        }
        None => edit.appended.push(format!("{joint} {},{}", t.0, t.1)),
    }
}

/// Turns the plan into raw byte edits and applies them.
fn apply(bytes: &[u8], file: &AdlFile, plan: Plan) -> Vec<u8> {
    let mut raw: Vec<(Range<usize>, String)> = Vec::new();
    for (index, key) in plan.keys {
        raw.push((file.property(index).key_span.clone(), key));
    }
    for (index, edit) in plan.values {
        let property = file.property(index);
        if let Some(whole) = edit.whole {
            raw.push((property.value_span.clone(), escape_value(&whole)));
            continue;
        }
        let clean: Option<Vec<(Range<usize>, String)>> = edit
            .replacements
            .iter()
            .map(|(range, text)| {
                property
                    .clean_raw_range(bytes, range.clone())
                    .map(|r| (r, text.clone()))
            })
            .collect();
        let joined = edit.appended.join(";");
        match clean {
            Some(replacements) => {
                raw.extend(replacements);
                if !joined.is_empty() {
                    let separator = if property.value.is_empty() { "" } else { ";" };
                    let end = property.value_span.end;
                    raw.push((end..end, format!("{separator}{joined}")));
                }
            }
            None => {
                let mut value = property.value.clone();
                let mut replacements = edit.replacements;
                replacements.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
                for (range, text) in replacements {
                    value.replace_range(range, &text);
                }
                if !joined.is_empty() {
                    if !value.is_empty() {
                        value.push(';');
                    }
                    value.push_str(&joined);
                }
                raw.push((property.value_span.clone(), escape_value(&value)));
            }
        }
    }
    let newline = line_ending(bytes);
    for missing in plan.missing.into_values() {
        let line = format!("{}={}", missing.key, missing.items.join(";"));
        raw.push((missing.at..missing.at, format!("{newline}{line}")));
    }
    for (at, line) in plan.new_lines {
        raw.push((at..at, format!("{newline}{line}")));
    }
    for range in plan.deletions {
        raw.push((range, String::new()));
    }
    if !plan.tail.is_empty() {
        raw.push((bytes.len()..bytes.len(), plan.tail));
    }
    // At one position: insertions first (in plan order), then the widest range, so edits inside a
    // deleted line are dropped with it.
    raw.sort_by_key(|(r, _)| (r.start, r.start != r.end, std::cmp::Reverse(r.end)));
    let mut out = Vec::with_capacity(bytes.len() + 64);
    let mut pos = 0;
    for (range, text) in raw {
        if range.start < pos {
            continue;
        }
        out.extend_from_slice(&bytes[pos..range.start]);
        out.extend_from_slice(text.as_bytes());
        pos = range.end;
    }
    out.extend_from_slice(&bytes[pos..]);
    out
}

/// Moves the part drawn at `joint` (and the joint's attachment point) by `delta` in one frame;
/// saved as that frame's transform. Returns false when the frame has no such joint.
pub fn move_part(document: &mut AnimationSet, frame: FrameId, joint: &str, delta: Point) -> bool {
    let Some(frame) = document.frame_mut(frame) else {
        return false;
    };
    let mut found = false;
    for element in frame.elements.iter_mut().filter(|e| e.name == joint) {
        match &mut element.kind {
            ElementKind::Graphic(g) => g.position = g.position + delta,
            ElementKind::Point(p) => p.position = p.position + delta,
            ElementKind::Box(_) => continue,
        }
        found = true;
    }
    found
}

/// Moves `joint` by `delta` in the skeleton that `sequence` uses: its part and point move on
/// every frame of every sequence using the same skeleton, which saves as one change of the
/// skeleton line. Returns the sequences changed.
pub fn move_skeleton_joint(
    document: &mut AnimationSet,
    sequence: SequenceId,
    joint: &str,
    delta: Point,
) -> Vec<SequenceId> {
    let mut sharing = vec![sequence];
    if let Some(original) = &document.original {
        let file = parse(&original.bytes);
        let name_of = |id: SequenceId| document.sequence(id).map(|s| s.name.clone());
        if let Some(name) = name_of(sequence)
            && let Some(skeleton) = file
                .animations
                .iter()
                .find(|a| a.key == name)
                .and_then(|a| a.skeleton)
        {
            let sharing_names: Vec<&String> = file
                .animations
                .iter()
                .filter(|a| a.skeleton == Some(skeleton))
                .map(|a| &a.key)
                .collect();
            sharing = document
                .sequences()
                .iter()
                .filter(|s| sharing_names.contains(&&s.name) || s.id == sequence)
                .map(|s| s.id)
                .collect();
        }
    }
    let frames: Vec<FrameId> = sharing
        .iter()
        .filter_map(|id| document.sequence(*id))
        .flat_map(|s| s.directions.iter().flat_map(|d| d.frames.clone()))
        .collect();
    let mut seen = std::collections::HashSet::new();
    for frame in frames {
        if seen.insert(frame) {
            move_part(document, frame, joint, delta);
        }
    }
    sharing
}
