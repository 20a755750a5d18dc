//! What a document's sequences, boxes and points become in an Aseprite file: tags and slices.
//!
//! - A sequence whose frames are a tag's frames in Aseprite's play order (forward, reverse,
//!   ping-pong, ping-pong reverse, a repeat count or forever) is that tag.
//! - Boxes become slices named by their class (`hitbox`, `hurtbox`, a custom class's name),
//!   keyed per frame; a point is the pivot of the slice of its name, or a one-pixel slice of
//!   its own when no box has its name on that frame. Both read back as they were
//!   ([`super::mapping`]).

use super::file::{SliceKey, SliceRecord, UserData};
use super::mapping::{ORIGIN_SLICE, SPRITE_COLOR_KEY, class_of};
use super::play_order::play_order;
use super::scan::TagDirection;
use crate::formats::loss::frame_text_losses;
use crate::formats::{Loss, Place};
use crate::model::{
    AnimationSet, BoxClass, CollisionBox, Element, ElementId, ElementKind, EndBehavior, Frame, Fx,
    Shape,
};
use std::collections::HashMap;

/// A tag's range and playing rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagRule {
    /// First frame.
    pub from: usize,
    /// Last frame.
    pub to: usize,
    /// How it plays.
    pub direction: TagDirection,
    /// Times, 0 = forever.
    pub repeat: u16,
}

/// The tag that plays the file frames `positions` in this order, looping back to the first
/// when `loops`; `None` when no tag plays them so.
pub fn tag_for(positions: &[usize], loops: bool) -> Option<TagRule> {
    let (from, to, direction, repeat) = crate::model::play_order::play_rule(positions, loops)?;
    Some(TagRule {
        from,
        to,
        direction,
        repeat,
    })
}

/// The tag that plays `positions` as [`tag_for`] finds it, but with `previous`'s direction and
/// repeat count whenever they still play them: a ping-pong tag that repeats once plays as a
/// forward one, and stays ping-pong.
pub fn tag_keeping(positions: &[usize], loops: bool, previous: Option<TagRule>) -> Option<TagRule> {
    if let Some(previous) = previous {
        let from = *positions.iter().min()?;
        let to = *positions.iter().max()?;
        let order = play_order(from, to, previous.direction, previous.repeat);
        if order.frames == positions && order.loops == loops && !order.repeat_dropped {
            return Some(TagRule {
                from,
                to,
                ..previous
            });
        }
    }
    tag_for(positions, loops)
}

/// A slice's value on one frame: bounds and pivot.
type KeyValue = ((i32, i32, u32, u32), Option<(i32, i32)>);

/// The name of the slice a box of `class` is written as, unless its own name already says it.
fn slice_name(element_name: &str, class: &BoxClass, known: &[String]) -> String {
    let keeps = !element_name.is_empty()
        && (known.iter().any(|k| k == element_name) || class_of(element_name, "") == *class);
    if keeps {
        return element_name.to_string();
    }
    match class {
        BoxClass::Hit => "hitbox".to_string(),
        BoxClass::Hurt => "hurtbox".to_string(),
        BoxClass::Custom(name) => name.clone(),
    }
}

fn whole(value: Fx, what: &str, frame: usize, losses: &mut Vec<Loss>) -> i32 {
    value.to_int_exact().unwrap_or_else(|| {
        losses.push(Loss::new(
            Place::document(),
            format!("frame {frame}: the sub-pixel {what} {value} (rounded to a whole pixel)"),
        ));
        value.to_f64().round() as i32
    })
}

/// A slice to write: the file's slice it continues (by its place among the file's slices), if
/// any, and its name and keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WantedSlice {
    /// The index of the file's slice this one is, among the slices the file had.
    pub file_slice: Option<usize>,
    /// The slice as it is to be written.
    pub record: SliceRecord,
}

/// Where a box or point goes: a slice of the file (by place) or a new slice (by name, and
/// which of the new slices of that name: the second box of a name on a frame needs a second
/// slice of its own).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Slot {
    File(usize),
    New(String, usize),
}

/// The slices holding the boxes and points of `frames` (the file's frames in order), moved by
/// `shift` (sprite space to canvas).
///
/// `file_slices` are the names of the file's slices, in file order, and `owners` says which of
/// them each element was read from: such an element (still bearing its slice's name) goes back
/// into that slice, so two slices of one name stay two slices with their own names and keys.
/// Other elements go into the first slice of their name free on their frame, else a new
/// slice of that same name (another slice of one name when the frame already holds one: a
/// box keeps its name, as Aseprite lets several slices share one).
pub fn slices_of(
    frames: &[&Frame],
    shift: (i32, i32),
    file_slices: &[String],
    owners: &HashMap<ElementId, usize>,
    losses: &mut Vec<Loss>,
) -> Vec<WantedSlice> {
    let mut slots: Vec<Slot> = Vec::new();
    let mut values: Vec<Vec<Option<KeyValue>>> = Vec::new();
    let mut slot_index = |slot: Slot, values: &mut Vec<Vec<_>>| -> usize {
        match slots.iter().position(|s| *s == slot) {
            Some(i) => i,
            None => {
                slots.push(slot);
                values.push(vec![None; frames.len()]);
                slots.len() - 1
            }
        }
    };
    let owner_of = |element: &Element| {
        owners
            .get(&element.id)
            .copied()
            .filter(|&i| file_slices.get(i).is_some_and(|n| *n == element.name))
    };
    let mut cells: Vec<(Slot, usize, KeyValue)> = Vec::new();
    let mut points: Vec<(usize, Slot, String, (i32, i32))> = Vec::new();
    // Hit and hurt boxes given a slice name: a slice has a name only, so the kind is lost.
    let mut named_kinds: Vec<(BoxClass, String)> = Vec::new();
    for (index, frame) in frames.iter().enumerate() {
        // Elements read from a slice first: they hold their slice whatever comes before them.
        let boxes: Vec<(&Element, &CollisionBox)> = frame
            .elements
            .iter()
            .filter_map(|e| match &e.kind {
                ElementKind::Box(b) => Some((e, b)),
                _ => None,
            })
            .collect();
        let (owned, others): (Vec<_>, Vec<_>) =
            boxes.into_iter().partition(|(e, _)| owner_of(e).is_some());
        let mut taken: Vec<Slot> = Vec::new();
        for (element, boxed) in owned.into_iter().chain(others) {
            let Shape::Rect {
                x,
                y,
                width,
                height,
                rotation,
            } = boxed.shape
            else {
                losses.push(Loss::new(
                    Place::document(),
                    format!("frame {index}: a circular box (slices are rectangles)"),
                ));
                continue;
            };
            if rotation != 0.0 {
                losses.push(Loss::new(
                    Place::document(),
                    format!("frame {index}: the box's rotation of {rotation} degrees"),
                ));
            }
            let slot = match owner_of(element).map(Slot::File) {
                Some(slot) if !taken.contains(&slot) => slot,
                _ => {
                    let base = slice_name(&element.name, &boxed.class, file_slices);
                    if !matches!(boxed.class, BoxClass::Custom(_))
                        && !named_kinds.iter().any(|(class, _)| *class == boxed.class)
                    {
                        named_kinds.push((boxed.class.clone(), base.clone()));
                    }
                    free_slot(&base, file_slices, &taken)
                }
            };
            taken.push(slot.clone());
            let bounds = (
                whole(x, "box edge", index, losses).saturating_add(shift.0),
                whole(y, "box edge", index, losses).saturating_add(shift.1),
                whole(width, "box width", index, losses).max(1) as u32,
                whole(height, "box height", index, losses).max(1) as u32,
            );
            cells.push((slot, index, (bounds, None)));
        }
        for element in &frame.elements {
            let ElementKind::Point(point) = &element.kind else {
                continue;
            };
            let name = if element.name.is_empty() {
                "point".to_string()
            } else {
                element.name.to_string()
            };
            let slot = owner_of(element).map_or_else(
                || match file_slices.iter().position(|n| *n == name) {
                    Some(i) => Slot::File(i),
                    None => Slot::New(name.clone(), 0),
                },
                Slot::File,
            );
            let at = (
                whole(point.position.x, "point", index, losses).saturating_add(shift.0),
                whole(point.position.y, "point", index, losses).saturating_add(shift.1),
            );
            points.push((index, slot, name, at));
        }
    }
    for (slot, index, value) in cells {
        let i = slot_index(slot, &mut values);
        values[i][index] = Some(value);
    }
    for (index, slot, name, at) in points {
        let i = slot_index(slot, &mut values);
        match &mut values[i][index] {
            Some((bounds, pivot @ None)) => *pivot = Some((at.0 - bounds.0, at.1 - bounds.1)),
            Some(_) => losses.push(Loss::new(
                Place::document(),
                format!("frame {index}: a second point named \"{name}\""),
            )),
            empty @ None => *empty = Some(((at.0, at.1, 1, 1), Some((0, 0)))),
        }
    }
    for (class, name) in named_kinds {
        losses.push(Loss::new(
            Place::document(),
            format!(
                "which boxes are {} boxes: slices have names only, so they are written as slices named \"{name}\" and read back as boxes of that name",
                class.name()
            ),
        ));
    }
    slots
        .into_iter()
        .zip(values)
        .map(|(slot, per_frame)| {
            let (file_slice, name) = match slot {
                Slot::File(i) => (Some(i), file_slices[i].clone()),
                Slot::New(name, _) => (None, name),
            };
            WantedSlice {
                file_slice,
                record: SliceRecord {
                    name,
                    keys: keys_of(&per_frame),
                },
            }
        })
        .collect()
}

/// The slot of a box named `base` on a frame where `taken` are already used: the first file
/// slice of that name still free, else the first new slice of that name still free. Renaming
/// the box (`base 2`) would change what it reads back as.
fn free_slot(base: &str, file_slices: &[String], taken: &[Slot]) -> Slot {
    let file =
        (0..file_slices.len()).find(|&i| file_slices[i] == base && !taken.contains(&Slot::File(i)));
    if let Some(i) = file {
        return Slot::File(i);
    }
    let mut nth = 0;
    while taken.contains(&Slot::New(base.to_string(), nth)) {
        nth += 1;
    }
    Slot::New(base.to_string(), nth)
}

/// Keys where the value changes; a zero-size key where the slice stops showing.
fn keys_of(per_frame: &[Option<KeyValue>]) -> Vec<SliceKey> {
    let mut keys = Vec::new();
    let mut previous: Option<&Option<KeyValue>> = None;
    for (frame, value) in per_frame.iter().enumerate() {
        if previous == Some(value) || (previous.is_none() && value.is_none()) {
            previous = Some(value);
            continue;
        }
        let (bounds, pivot) = match value {
            Some((bounds, pivot)) => (*bounds, *pivot),
            None => ((0, 0, 0, 0), None),
        };
        keys.push(SliceKey {
            frame: frame as u32,
            bounds,
            pivot,
            center: None,
        });
        previous = Some(value);
    }
    keys
}

/// Each file frame's slice value as a slice's keys give it (the key in force, none when its
/// size is zero), the way [`super::mapping`] reads them.
pub fn per_frame(slice: &SliceRecord, frames: usize) -> Vec<Option<KeyValue>> {
    (0..frames)
        .map(|index| {
            let key = slice
                .keys
                .iter()
                .filter(|k| k.frame as usize <= index)
                .max_by_key(|k| k.frame)?;
            (key.bounds.2 > 0 && key.bounds.3 > 0).then_some((key.bounds, key.pivot))
        })
        .collect()
}

/// Gives the keys of `rewritten` (a slice of the file written anew, over `frames` frames) the
/// 9-patch centres of `old`, the file's slice of that name: each written frame takes the centre
/// of the old key in force on the file frame it shows (`file_frame_of` maps a written frame to
/// it, `None` for a new frame: the nearest earlier written frame is used), clamped into its
/// bounds; where that centre changes but the bounds do not, a key is added. Returns what
/// clamping changed, one sentence per key.
pub fn keep_centres(
    rewritten: &mut SliceRecord,
    old: &SliceRecord,
    frames: usize,
    file_frame_of: impl Fn(usize) -> Option<usize>,
) -> Vec<String> {
    let Some(first) = old.keys.iter().find_map(|k| k.center) else {
        return Vec::new();
    };
    let mut file_frame = None;
    let mut keys: Vec<SliceKey> = Vec::with_capacity(rewritten.keys.len());
    let mut centres: Vec<(i32, i32, u32, u32)> = Vec::with_capacity(rewritten.keys.len());
    for position in 0..frames {
        file_frame = file_frame_of(position).or(file_frame);
        let centre = file_frame
            .and_then(|frame| {
                old.keys
                    .iter()
                    .filter(|k| k.frame as usize <= frame)
                    .max_by_key(|k| k.frame)
                    .and_then(|k| k.center)
            })
            .unwrap_or(first);
        let own = rewritten.keys.iter().find(|k| k.frame as usize == position);
        let key = match (own, keys.last(), centres.last()) {
            (Some(own), _, _) => own.clone(),
            // The same bounds, another centre: a key of its own (a hidden slice needs none).
            (None, Some(last), Some(&shown))
                if shown != centre && last.bounds.2 > 0 && last.bounds.3 > 0 =>
            {
                SliceKey {
                    frame: position as u32,
                    ..last.clone()
                }
            }
            _ => continue,
        };
        keys.push(key);
        centres.push(centre);
    }
    // Keys past the last frame, if any, keep the last centre.
    for key in rewritten.keys.iter().filter(|k| k.frame as usize >= frames) {
        keys.push(key.clone());
        centres.push(centres.last().copied().unwrap_or(first));
    }
    let mut changes = Vec::new();
    for (key, centre) in keys.iter_mut().zip(centres) {
        let (_, _, width, height) = key.bounds;
        let clamped = clamp_centre(centre, (width, height));
        // A hidden key (zero size) shows no centre: clamping it changes nothing visible.
        if clamped != centre && width > 0 && height > 0 {
            let (x, y, w, h) = centre;
            let (cx, cy, cw, ch) = clamped;
            changes.push(format!(
                "frame {}: its 9-patch centre {w}x{h} at ({x}, {y}) is clamped to {cw}x{ch} at ({cx}, {cy}) inside the new {width}x{height} bounds",
                key.frame
            ));
        }
        key.center = Some(clamped);
    }
    rewritten.keys = keys;
    changes
}

/// A centre (x, y, width, height, relative to its slice) moved and cut to lie within a slice of
/// `size`.
fn clamp_centre(centre: (i32, i32, u32, u32), size: (u32, u32)) -> (i32, i32, u32, u32) {
    let axis = |at: i32, length: u32, room: u32| {
        let room = i64::from(room);
        let start = i64::from(at).clamp(0, room);
        let end = (i64::from(at) + i64::from(length)).clamp(start, room);
        (start as i32, (end - start) as u32)
    };
    let (x, width) = axis(centre.0, centre.2, size.0);
    let (y, height) = axis(centre.1, centre.3, size.1);
    (x, y, width, height)
}

/// The origin a slice marks (see [`super::mapping::ORIGIN_SLICE`]) on a canvas of `canvas`.
pub fn origin_of(slice: &SliceRecord, canvas: (u32, u32)) -> Option<(i32, i32)> {
    let [key] = slice.keys.as_slice() else {
        return None;
    };
    let covers = key.frame == 0 && key.bounds == (0, 0, canvas.0, canvas.1);
    (slice.name == ORIGIN_SLICE && covers)
        .then_some(key.pivot)
        .flatten()
}

/// The slice marking the origin at `origin` on a canvas of `canvas`.
pub fn origin_slice(origin: (i32, i32), canvas: (u32, u32)) -> SliceRecord {
    SliceRecord {
        name: ORIGIN_SLICE.to_string(),
        keys: vec![SliceKey {
            frame: 0,
            bounds: (0, 0, canvas.0, canvas.1),
            pivot: Some(origin),
            center: None,
        }],
    }
}

/// The timeline colour the document keeps for the tag `name` (`aseprite.tag.<name>.color`,
/// `#rrggbb`), if any.
pub fn tag_color(document: &AnimationSet, name: &str) -> Option<[u8; 3]> {
    let [r, g, b, _] = metadata_color(document, &format!("aseprite.tag.{name}.color"))?;
    Some([r, g, b])
}

/// The colour the metadata keeps under `key`, `#rrggbb` (opaque) or `#rrggbbaa`.
fn metadata_color(document: &AnimationSet, key: &str) -> Option<[u8; 4]> {
    let (_, value) = document.metadata.extra.iter().find(|(k, _)| k == key)?;
    let digits = value.strip_prefix('#')?;
    let channel = |i: usize| u8::from_str_radix(digits.get(i..i + 2)?, 16).ok();
    let alpha = match digits.len() {
        6 => 255,
        8 => channel(6)?,
        _ => return None,
    };
    Some([channel(0)?, channel(2)?, channel(4)?, alpha])
}

/// The sprite's user data as the document holds it: its comments as the text, the colour the
/// metadata keeps (see [`SPRITE_COLOR_KEY`]); no properties (the file's own are kept apart).
pub fn sprite_user_data(document: &AnimationSet) -> UserData {
    let comments = &document.metadata.comments;
    UserData {
        text: (!comments.is_empty()).then(|| comments.clone()),
        color: metadata_color(document, SPRITE_COLOR_KEY),
        properties: None,
    }
}

/// The document's information an Aseprite file has no place for: all but the comments (the
/// sprite's user data text), and the comments beyond what that text holds.
pub fn information_losses(document: &AnimationSet, losses: &mut Vec<Loss>) {
    let m = &document.metadata;
    let fields = [
        ("title", &m.title),
        ("author", &m.author),
        ("tags", &m.tags),
        ("project", &m.project),
        ("company", &m.company),
        ("contact", &m.contact),
        ("web address", &m.url),
        ("copyright", &m.copyright),
    ];
    let lost: Vec<&str> = fields
        .iter()
        .filter(|(_, value)| !value.is_empty())
        .map(|(name, _)| *name)
        .collect();
    if !lost.is_empty() {
        losses.push(Loss::new(
            Place::document(),
            format!(
                "the document's {} (an Aseprite file keeps only the comments, as the sprite's user data)",
                lost.join(", ")
            ),
        ));
    }
    let length = m.comments.len();
    if length > usize::from(u16::MAX) {
        losses.push(Loss::new(
            Place::document(),
            format!(
                "the comments' last {} bytes (Aseprite's sprite user data text holds 65535)",
                length - usize::from(u16::MAX)
            ),
        ));
    }
}

/// What an Aseprite file has no place for: several directions in one sequence, follow-ups,
/// disappearing at the end, frame text and interpolation (each frame once).
pub fn sequence_losses(document: &AnimationSet, losses: &mut Vec<Loss>) {
    let mut seen = std::collections::HashSet::new();
    for sequence in document.sequences() {
        let name = &sequence.name;
        if let Some(next) = &sequence.follow_up {
            losses.push(Loss::new(
                Place::sequence(name),
                format!("its follow-up \"{next}\""),
            ));
        }
        if sequence.directions.len() > 1 {
            let what =
                "its directions as one sequence (each is a tag of its own, <name>_<direction>)";
            losses.push(Loss::new(Place::sequence(name), what));
        }
        if sequence.on_end == EndBehavior::Disappear {
            let what = "disappearing after its last frame (an Aseprite tag holds its last frame)";
            losses.push(Loss::new(Place::sequence(name), what));
        }
        for (d, direction) in sequence.directions.iter().enumerate() {
            for (i, id) in direction.frames.iter().enumerate() {
                let Some(frame) = document.frame(*id).filter(|_| seen.insert(*id)) else {
                    continue;
                };
                let place = Place::frame(name, d, i);
                losses.extend(frame_text_losses(&place, frame));
                if !frame.interpolation.is_none() {
                    let what = "its interpolation from the previous frame";
                    losses.push(Loss::new(place.clone(), what));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TagDirection::*;

    #[test]
    fn play_lists_are_recognised_as_the_tags_that_play_them() {
        let rule = |from, to, direction, repeat| {
            Some(TagRule {
                from,
                to,
                direction,
                repeat,
            })
        };
        assert_eq!(tag_for(&[2, 3, 4], true), rule(2, 4, Forward, 0));
        assert_eq!(tag_for(&[4, 3, 2], true), rule(2, 4, Reverse, 0));
        assert_eq!(tag_for(&[0, 1, 2, 1], true), rule(0, 2, PingPong, 0));
        assert_eq!(
            tag_for(&[6, 7, 8, 7, 6, 7, 8], false),
            rule(6, 8, PingPong, 3)
        );
        assert_eq!(
            tag_for(&[12, 11, 10, 11, 12], false),
            rule(10, 12, PingPongReverse, 2)
        );
        assert_eq!(tag_for(&[1, 2], false), rule(1, 2, Forward, 1));
        assert_eq!(tag_for(&[1, 3], true), None);
        assert_eq!(tag_for(&[1, 2, 1, 3], true), None);
    }

    #[test]
    fn keys_change_only_where_the_slice_does() {
        let a = Some(((0, 0, 2, 2), None));
        let b = Some(((1, 0, 2, 2), Some((1, 1))));
        let keys = keys_of(&[None, a, a, b, None]);
        let frames: Vec<u32> = keys.iter().map(|k| k.frame).collect();
        assert_eq!(frames, [1, 3, 4]);
        assert_eq!(keys[2].bounds, (0, 0, 0, 0));
        let slice = SliceRecord {
            name: "s".into(),
            keys,
        };
        assert_eq!(per_frame(&slice, 5), [None, a, a, b, None]);
    }

    #[test]
    fn a_centre_that_changes_under_the_same_bounds_keeps_its_own_key() {
        let key = |frame, bounds, center| SliceKey {
            frame,
            bounds,
            pivot: None,
            center,
        };
        let old = SliceRecord {
            name: "panel".into(),
            keys: vec![
                key(0, (0, 0, 8, 8), Some((2, 2, 4, 4))),
                key(2, (0, 0, 8, 8), Some((1, 1, 6, 6))),
            ],
        };
        // Rewritten with one key (the bounds never change); frame 1 was deleted, so written
        // frame 1 shows file frame 2.
        let mut new = SliceRecord {
            name: "panel".into(),
            keys: vec![key(0, (0, 0, 8, 8), None)],
        };
        let shows = [Some(0), Some(2), None];
        let changes = keep_centres(&mut new, &old, 3, |p| shows[p]);
        assert!(changes.is_empty(), "{changes:?}");
        assert_eq!(
            new.keys,
            [
                key(0, (0, 0, 8, 8), Some((2, 2, 4, 4))),
                key(1, (0, 0, 8, 8), Some((1, 1, 6, 6))),
            ]
        );
    }

    #[test]
    fn centres_are_clamped_into_shrunk_bounds_only() {
        assert_eq!(clamp_centre((3, 3, 2, 2), (8, 8)), (3, 3, 2, 2));
        assert_eq!(clamp_centre((3, 3, 2, 2), (4, 4)), (3, 3, 1, 1));
        assert_eq!(clamp_centre((3, 3, 2, 2), (2, 9)), (2, 3, 0, 2));
        assert_eq!(clamp_centre((-1, 0, 4, 1), (8, 8)), (0, 0, 3, 1));
    }

    #[test]
    fn a_second_box_of_a_name_on_a_frame_is_a_second_slice_of_that_name() {
        let hitbox = |id, x| Element {
            id: ElementId(id),
            name: "Hitbox".into(),
            kind: ElementKind::Box(CollisionBox::rect_from_corners(
                BoxClass::Custom("Hitbox".into()),
                crate::model::Point::from_ints(x, 0),
                crate::model::Point::from_ints(x + 2, 2),
            )),
        };
        let mut first = Frame::new(crate::model::FrameDuration::Millis(100));
        first.elements = vec![hitbox(1, 0), hitbox(2, 4), hitbox(3, 8)];
        let mut second = Frame::new(crate::model::FrameDuration::Millis(100));
        second.elements = vec![hitbox(4, 0), hitbox(5, 4)];
        // Box 1 was read from the file's slice; the others were added since.
        let owners = HashMap::from([(ElementId(1), 0)]);
        let mut losses = Vec::new();
        let wanted = slices_of(
            &[&first, &second],
            (0, 0),
            &["Hitbox".to_string()],
            &owners,
            &mut losses,
        );
        assert!(losses.is_empty(), "{losses:?}");
        let written: Vec<(Option<usize>, &str, usize)> = wanted
            .iter()
            .map(|w| (w.file_slice, w.record.name.as_str(), w.record.keys.len()))
            .collect();
        // Frame 1's two boxes go into the file's slice and the first new one; frame 0's third
        // into a second new one, which stops showing on frame 1.
        assert_eq!(
            written,
            [
                (Some(0), "Hitbox", 1),
                (None, "Hitbox", 1),
                (None, "Hitbox", 2)
            ]
        );
    }

    #[test]
    fn tag_colours_come_from_the_metadata() {
        let mut document = AnimationSet::new();
        let extra = &mut document.metadata.extra;
        extra.push(("aseprite.tag.walk.color".into(), "#ff8000".into()));
        extra.push(("aseprite.tag.bad.color".into(), "#ff80".into()));
        extra.push((SPRITE_COLOR_KEY.into(), "#10203040".into()));
        assert_eq!(tag_color(&document, "walk"), Some([255, 128, 0]));
        assert_eq!(tag_color(&document, "bad"), None);
        assert_eq!(tag_color(&document, "run"), None);
        document.metadata.comments = "note".into();
        let user = sprite_user_data(&document);
        assert_eq!(user.color, Some([16, 32, 48, 64]));
        assert_eq!(user.text.as_deref(), Some("note"));
    }
}
