//! A new Aseprite file from any document: each frame drawn by Sprat's renderer (so it shows
//! exactly as Sprat shows it) into RGBA layers, its normal graphics flattened and a graphic
//! that adds or subtracts on a layer of that blend mode ([`layers`]), a frame shown again
//! linking its cels to the first showing; sequences as tags, boxes and points as slices, the
//! comments and colour as the sprite's user data.
//!
//! Frames are laid out sequence by sequence: a sequence whose play list a tag can play keeps
//! its frames once; one that no tag plays (a frame order of its own, frames shared with an
//! earlier sequence in another order) gets its frames spelled out, linked to the pictures
//! already written. The canvas covers every frame's pictures and the sprite's origin; an
//! origin elsewhere than the canvas' top-left corner is marked by a slice (the pivot of a
//! slice named `origin` covering the canvas), which the reader takes back.

use super::file::{self, CHUNK_OLD_PALETTE, CHUNK_PALETTE, Out, SliceRecord, TagRecord};
use super::marks::{
    TagRule, information_losses, origin_slice, slices_of, sprite_user_data, tag_color, tag_for,
};
use super::scan::{HEADER_SIZE, TagDirection};
use crate::formats::atlas::frames::{Placed, render_frame};
use crate::formats::atlas::timing::run_millis;
use crate::formats::{Loss, Place, WriteContext, WriteError, Written};
use crate::model::{AnimationSet, BlendMode, ElementKind, Frame, FrameId, OPAQUE};
use crate::render::{Overlay, Scene, content_bounds};
use std::collections::HashMap;

mod layers;

/// The file for `document`.
pub fn write_new(document: &AnimationSet, context: &WriteContext) -> Result<Written, WriteError> {
    let Some(pixels) = context.pixels else {
        return Err(WriteError::new(
            "writing an Aseprite file draws every frame and needs the document's pixels",
        ));
    };
    let mut losses = Vec::new();
    let (layout, tags) = lay_out(document, &mut losses);
    if layout.is_empty() {
        return Err(WriteError::new("the document has no frame to write"));
    }
    if layout.len() > usize::from(u16::MAX) {
        return Err(WriteError::new(
            "an Aseprite file holds at most 65535 frames",
        ));
    }
    // Each distinct frame drawn once, run by run (see [`layers`]).
    let mut drawn: HashMap<FrameId, Vec<(layers::LayerKind, Placed)>> = HashMap::new();
    let mut stacks: Vec<Vec<layers::LayerKind>> = Vec::new();
    let mut stack_of: HashMap<FrameId, usize> = HashMap::new();
    let mut flattened = false;
    for (position, id) in layout.iter().enumerate() {
        if drawn.contains_key(id) {
            continue;
        }
        let frame = &document.frames[id];
        let mut pictures = Vec::new();
        for run in layers::runs(frame, position, &mut losses) {
            flattened |= run.elements.len() > 1;
            if let Some(placed) = render_frame(document, &run_frame(frame, &run), pixels, 1)? {
                pictures.push(((run.blend, run.opacity), placed));
            }
        }
        stack_of.insert(*id, stacks.len());
        stacks.push(pictures.iter().map(|(kind, _)| *kind).collect());
        drawn.insert(*id, pictures);
    }
    let (mut layer_kinds, placed) = layers::merge(&stacks);
    if layer_kinds.is_empty() {
        // Frames that show nothing still sit on a layer, as Aseprite always has one.
        layer_kinds.push((layers::NORMAL, 255));
    }
    // The canvas holds each frame's whole pictures (their transparent margins too, as the
    // pictures Aseprite exported had them) and the sprite's origin.
    let (mut left, mut top, mut right, mut bottom) = (0i64, 0i64, 1i64, 1i64);
    for id in drawn.keys() {
        let scene = Scene::of_frame(&document.frames[id]);
        if let Some(rect) = content_bounds(document, &scene, pixels, Overlay::NONE) {
            left = left.min(i64::from(rect.x));
            top = top.min(i64::from(rect.y));
            right = right.max(rect.right());
            bottom = bottom.max(rect.bottom());
        }
    }
    for (_, (image, (x, y))) in drawn.values().flatten() {
        left = left.min(i64::from(*x));
        top = top.min(i64::from(*y));
        right = right.max(i64::from(*x) + i64::from(image.width()));
        bottom = bottom.max(i64::from(*y) + i64::from(image.height()));
    }
    let (width, height) = (right - left, bottom - top);
    if width > 8192 || height > 8192 {
        return Err(WriteError::new(format!(
            "the frames cover {width}x{height} pixels, more than the 8192x8192 Sprat writes"
        )));
    }
    let frames: Vec<&Frame> = layout.iter().map(|id| &document.frames[id]).collect();
    if flattened {
        losses.push(Loss::new(
            Place::document(),
            "separate graphics: the graphics a frame draws normally are one picture on one layer (drawn exactly as Sprat shows it)",
        ));
    }
    let (millis, notes) = run_millis(&frames, document.frame_rate.unwrap_or(0));
    for (index, note) in notes {
        losses.push(Loss::new(
            Place::document(),
            format!("frame {index}: {note}"),
        ));
    }
    information_losses(document, &mut losses);
    let shift = (-left as i32, -top as i32);
    let mut slices: Vec<SliceRecord> = slices_of(&frames, shift, &[], &HashMap::new(), &mut losses)
        .into_iter()
        .map(|w| w.record)
        .collect();
    if shift != (0, 0) {
        slices.insert(0, origin_slice(shift, (width as u32, height as u32)));
    }
    let mut first_position: HashMap<FrameId, usize> = HashMap::new();
    let mut out = header(layout.len() as u16, width as u16, height as u16);
    for (position, id) in layout.iter().enumerate() {
        let mut chunks = Vec::new();
        if position == 0 {
            chunks.extend(palette());
            // The sprite's user data follows the palette (where Aseprite 1.3 writes it).
            let user = sprite_user_data(document);
            if !user.is_empty() {
                chunks.push(file::user_data_chunk(&user));
            }
            for (name, (blend, opacity)) in layers::names(&layer_kinds).iter().zip(&layer_kinds) {
                chunks.push(file::layer_chunk(name, *blend, *opacity));
            }
        }
        // A frame shown again links each of its cels to the first showing, layer by layer.
        let earlier = first_position.get(id).copied();
        let on_layers = &placed[stack_of[id]];
        let mut cels: Vec<(usize, &Placed)> = on_layers
            .iter()
            .zip(&drawn[id])
            .map(|(&layer, (_, picture))| (layer, picture))
            .collect();
        cels.sort_by_key(|(layer, _)| *layer);
        for (layer, (image, (x, y))) in cels {
            let (layer, x, y) = (layer as u16, x + shift.0, y + shift.1);
            chunks.push(match earlier {
                Some(earlier) => file::linked_cel(&file::cel_head(layer, x, y), earlier as u16),
                None => file::compressed_cel(layer, x, y, image)?,
            });
        }
        first_position.entry(*id).or_insert(position);
        if position == 0 {
            if !tags.is_empty() {
                chunks.push(file::tags_chunk(&tags));
                chunks.extend(tags.iter().map(|t| file::color_user_data(t.color)));
            }
            chunks.extend(slices.iter().map(file::slice_chunk));
        }
        let duration = u16::try_from(millis[position]).unwrap_or(u16::MAX);
        out.extend_from_slice(&file::frame(duration, &chunks));
    }
    let size = out.len() as u32;
    out[0..4].copy_from_slice(&size.to_le_bytes());
    Ok(Written {
        bytes: out,
        losses,
        companions: Vec::new(),
    })
}

/// The file's frames (document frames, some more than once) and the tags over them.
fn lay_out(document: &AnimationSet, losses: &mut Vec<Loss>) -> (Vec<FrameId>, Vec<TagRecord>) {
    let mut layout: Vec<FrameId> = Vec::new();
    let mut tags = Vec::new();
    for sequence in document.sequences() {
        for (d, direction) in sequence.directions.iter().enumerate() {
            if direction.frames.is_empty() {
                continue;
            }
            let loops = sequence.loop_point.is_some();
            if sequence.loop_point.is_some_and(|l| l > 0) {
                losses.push(Loss::new(
                    Place::sequence(&sequence.name),
                    "its loop back to a frame other than the first (the tag loops whole)",
                ));
            }
            let mut distinct: Vec<FrameId> = Vec::new();
            for id in &direction.frames {
                if !distinct.contains(id) {
                    distinct.push(*id);
                }
            }
            // The frames not laid out yet go at the end, in play order or reversed; the tag
            // may then span frames earlier sequences laid out (overlapping tags).
            let start = layout.len();
            let unplaced: Vec<FrameId> = distinct
                .iter()
                .filter(|id| !layout.contains(id))
                .copied()
                .collect();
            let reversed: Vec<FrameId> = unplaced.iter().rev().copied().collect();
            let fits = [unplaced, reversed].into_iter().find_map(|extra| {
                let positions: Option<Vec<usize>> = direction
                    .frames
                    .iter()
                    .map(|id| layout.iter().chain(&extra).position(|f| f == id))
                    .collect();
                Some((tag_for(&positions?, loops)?, extra))
            });
            let rule = match fits {
                Some((rule, list)) => {
                    layout.extend(list);
                    rule
                }
                None => {
                    layout.extend(direction.frames.iter().copied());
                    TagRule {
                        from: start,
                        to: layout.len() - 1,
                        direction: TagDirection::Forward,
                        repeat: u16::from(!loops),
                    }
                }
            };
            let name = if d == 0 {
                sequence.name.clone()
            } else {
                format!("{}_{}", sequence.name, sequence.direction_label(d))
            };
            tags.push(TagRecord {
                from: rule.from as u16,
                to: rule.to as u16,
                direction: rule.direction,
                repeat: rule.repeat,
                color: tag_color(document, &name).unwrap_or([0, 0, 0]),
                name,
            });
        }
    }
    for id in document.frames.keys() {
        if !layout.contains(id) {
            layout.push(*id);
        }
    }
    (layout, tags)
}

/// `frame` with only the graphics of `run`; those of a run that blends by its layer's mode are
/// drawn normally and opaque (the layer does the blending, at the graphic's opacity).
fn run_frame(frame: &Frame, run: &layers::Run) -> Frame {
    let mut only = frame.clone();
    only.elements = run
        .elements
        .iter()
        .map(|&at| {
            let mut element = frame.elements[at].clone();
            if let (ElementKind::Graphic(graphic), true) =
                (&mut element.kind, run.blend != layers::NORMAL)
            {
                graphic.blend = BlendMode::Normal;
                graphic.opacity = OPAQUE;
            }
            element
        })
        .collect();
    only
}

/// The 128-byte header of a 32-bit RGBA sprite.
fn header(frames: u16, width: u16, height: u16) -> Vec<u8> {
    let mut out = Out::default();
    out.dword(0);
    out.word(0xA5E0);
    out.word(frames);
    out.word(width);
    out.word(height);
    out.word(32);
    out.dword(1); // layer opacity is valid
    out.word(100);
    out.dword(0);
    out.dword(0);
    out.byte(0);
    out.zeros(3);
    out.word(1);
    out.byte(1);
    out.byte(1);
    out.word(0);
    out.word(0);
    out.word(16);
    out.word(16);
    out.zeros(HEADER_SIZE - out.0.len());
    out.0
}

/// A one-colour palette (an RGBA sprite needs none, but readers expect one), in the new
/// palette chunk and the old one after it, as Aseprite 1.1 to 1.3.4 write them (readers that
/// take the sprite's user data only after an old palette chunk then find it).
fn palette() -> [Vec<u8>; 2] {
    let mut new = Out::default();
    new.dword(1);
    new.dword(0);
    new.dword(0);
    new.zeros(8);
    new.word(0);
    new.0.extend_from_slice(&[0, 0, 0, 255]);
    let mut old = Out::default();
    old.word(1);
    old.byte(0);
    old.byte(1);
    old.0.extend_from_slice(&[0, 0, 0]);
    [
        file::chunk(CHUNK_PALETTE, &new.0),
        file::chunk(CHUNK_OLD_PALETTE, &old.0),
    ]
}
