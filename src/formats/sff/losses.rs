//! What an SFF archive cannot hold of a document, named place by place.
//!
//! An archive holds sprites (pixels, numbers, axes) and palettes, nothing else: no timing, no
//! boxes, no points, no placement of a sprite in a frame. Two cases:
//!
//! - an archive opened on its own ([`view_losses`]): its sequences are a view of its groups
//!   ([`super::view`]). Changes to the archive (sprites, axes, palettes) are written; every
//!   change made to the view (a duration, a box, a renamed or added sequence, a frame moved) is
//!   listed, so a save confirms it knowingly. Sprite edits that make frames follow (renumbering,
//!   deleting a sprite) are not view changes;
//! - another document converted to an archive ([`conversion_losses`]): its pictures become
//!   sprites, and everything else is listed.

use super::view::is_plain_sprite;
use crate::formats::loss::{frame_extra_losses, its_text};
use crate::formats::{Loss, Place};
use crate::model::{
    AnimationSet, Element, ElementKind, Frame, Graphic, GraphicSource, ImageId, Point, Sequence,
    TreeItem,
};
use std::collections::HashSet;

/// The changes `document` (read from a lone archive whose image is `archive`) has that the view
/// it was read as (`view`, read again from the same bytes, so ids match) does not: none of them
/// is written.
pub fn view_losses(document: &AnimationSet, view: &AnimationSet, archive: ImageId) -> Vec<Loss> {
    let mut losses = document_losses(document);
    let view_sequences = view.sequences();
    let mut matched = HashSet::new();
    for sequence in document.sequences() {
        let twin = view_sequences
            .iter()
            .find(|v| v.id == sequence.id && v.name == sequence.name);
        let Some(twin) = twin else {
            if sequence.directions.iter().any(|d| !d.frames.is_empty()) {
                losses.push(Loss::new(
                    Place::sequence(&sequence.name),
                    "a sequence that is not one of the archive's groups (an archive holds only sprites)",
                ));
            }
            continue;
        };
        matched.insert(twin.id);
        sequence_field_losses(sequence, twin, &mut losses);
        let ours = sequence.directions.first().map(|d| &d.frames[..]);
        let theirs = twin.directions.first().map(|d| &d.frames[..]);
        if ours != theirs {
            losses.push(Loss::new(
                Place::sequence(&sequence.name),
                "its frames as the view shows them (added, duplicated, deleted or moved frames are not written; the group's sprites stay as they are)",
            ));
        }
        for (index, id) in ours.unwrap_or_default().iter().enumerate() {
            let Some(frame) = document.frame(*id) else {
                continue;
            };
            let place = Place::frame(&sequence.name, 0, index);
            let Some(as_read) = view.frame(*id) else {
                continue;
            };
            if frame.duration != as_read.duration {
                losses.push(Loss::new(place.clone(), "its duration"));
            }
            frame_text_losses(frame, &place, &mut losses);
            let read_elements: HashSet<_> = as_read.elements.iter().map(|e| e.id).collect();
            for element in &frame.elements {
                let kept = read_elements.contains(&element.id)
                    && matches!(&element.kind, ElementKind::Graphic(g) if is_plain_sprite(g));
                if !kept {
                    losses.extend(element_loss(element, Some(archive)).map(|what| {
                        Loss::new(place.clone().element(element_label(element)), what)
                    }));
                }
            }
        }
    }
    for twin in view_sequences.iter().filter(|v| !matched.contains(&v.id)) {
        losses.push(Loss::new(
            Place::sequence(&twin.name),
            "renamed or taken out of the view: the group's sprites stay in the archive",
        ));
    }
    losses
}

/// Everything of `document` but its pictures, for a conversion into an archive whose sprites
/// are those of image `archive` (`None`: an archive with no sprites).
pub fn conversion_losses(document: &AnimationSet, archive: Option<ImageId>) -> Vec<Loss> {
    let mut losses = document_losses(document);
    for sequence in document.sequences() {
        let frames: usize = sequence.directions.iter().map(|d| d.frames.len()).sum();
        if frames > 0 {
            losses.push(Loss::new(
                Place::sequence(&sequence.name),
                format!(
                    "the sequence: its {}, their order and durations, its loop and settings (an archive holds only sprites)",
                    crate::text::count(frames, "frame")
                ),
            ));
        }
        for (d, direction) in sequence.directions.iter().enumerate() {
            for (index, id) in direction.frames.iter().enumerate() {
                let Some(frame) = document.frame(*id) else {
                    continue;
                };
                let place = Place::frame(&sequence.name, d, index);
                frame_text_losses(frame, &place, &mut losses);
                for element in &frame.elements {
                    losses.extend(element_loss(element, archive).map(|what| {
                        Loss::new(place.clone().element(element_label(element)), what)
                    }));
                }
            }
        }
    }
    losses
}

/// What the whole document has that no archive holds.
fn document_losses(document: &AnimationSet) -> Vec<Loss> {
    let mut losses = Vec::new();
    if document
        .root
        .items
        .iter()
        .any(|item| matches!(item, TreeItem::Group(_)))
    {
        losses.push(Loss::new(Place::document(), "groups of sequences"));
    }
    if document.default_sequence.is_some() {
        losses.push(Loss::new(Place::document(), "the default sequence"));
    }
    if let Some(rate) = document.frame_rate {
        losses.push(Loss::new(
            Place::document(),
            format!("the frame rate ({rate} per second)"),
        ));
    }
    losses
}

/// A sequence's own settings that differ from the view's.
fn sequence_field_losses(sequence: &Sequence, as_read: &Sequence, losses: &mut Vec<Loss>) {
    let changes = [
        ("its loop point", sequence.loop_point != as_read.loop_point),
        ("its end behaviour", sequence.on_end != as_read.on_end),
        ("its follow-up", sequence.follow_up != as_read.follow_up),
        ("its frame rate", sequence.frame_rate != as_read.frame_rate),
        ("its title", sequence.title != as_read.title),
        (
            "its directions besides the first",
            sequence.directions.len() != as_read.directions.len(),
        ),
    ];
    for (what, _) in changes.iter().filter(|(_, changed)| *changed) {
        losses.push(Loss::new(Place::sequence(&sequence.name), *what));
    }
}

/// A frame's text, interpolation and box declarations, which no archive holds.
fn frame_text_losses(frame: &Frame, place: &Place, losses: &mut Vec<Loss>) {
    losses.extend(frame_extra_losses(place, frame, its_text));
}

/// What is lost of an element in an archive of image `archive`'s sprites, if anything.
fn element_loss(element: &Element, archive: Option<ImageId>) -> Option<String> {
    match &element.kind {
        ElementKind::Box(b) => Some(format!("a {} collision box", b.class.label())),
        ElementKind::Point(_) => Some("an attachment point".to_string()),
        ElementKind::Graphic(g) => match g.source {
            GraphicSource::SffSprite { archive: a, .. } if Some(a) == archive => {
                (!is_plain_sprite(g)).then(|| format!("how its sprite is placed ({})", placement(g)))
            }
            _ => Some(
                "a picture that is not a sprite of the archive (add it in the Sprites tab to keep it)"
                    .to_string(),
            ),
        },
    }
}

/// How a graphic differs from a sprite drawn plainly at the frame's origin.
fn placement(graphic: &Graphic) -> String {
    let mut parts = Vec::new();
    if graphic.position != Point::ZERO {
        parts.push(format!(
            "offset {},{}",
            graphic.position.x, graphic.position.y
        ));
    }
    if graphic.origin != crate::model::Origin::SourceAxis {
        parts.push("an origin of its own".to_string());
    }
    for (set, what) in [
        (graphic.flip_h, "horizontal flip"),
        (graphic.flip_v, "vertical flip"),
        (graphic.rotation != 0.0, "rotation"),
        (graphic.scale_x != 1.0 || graphic.scale_y != 1.0, "scale"),
        (graphic.opacity != crate::model::OPAQUE, "opacity"),
        (
            graphic.blend != crate::model::BlendMode::Normal,
            "blend mode",
        ),
    ] {
        if set {
            parts.push(what.to_string());
        }
    }
    parts.join(", ")
}

/// An element as the loss list names it.
fn element_label(element: &Element) -> String {
    let kind = match element.kind {
        ElementKind::Graphic(_) => "graphic",
        ElementKind::Point(_) => "point",
        ElementKind::Box(_) => "box",
    };
    if element.name.is_empty() {
        kind.to_string()
    } else {
        format!("{kind} \"{}\"", element.name)
    }
}
