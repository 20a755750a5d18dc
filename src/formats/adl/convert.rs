//! Writing an ADL file from a document of another format, naming everything ADL cannot hold.
//!
//! - Every graphic source (with its anchor) becomes a body part, written as a TGA image
//!   `<stem>/<stem>_<part>.tga` beside the file when pixels are available; the output's folder
//!   is taken as the game's assets root.
//! - Each sequence becomes an animation `ANIM_<LETTERS>` with its own skeleton: one joint per
//!   part (the skeleton is drawn in reverse, so the parts are listed top-most first) and one per
//!   named attachment point, placed where they first appear. Each frame moves joints from
//!   there; a part missing from a frame is hidden with the game's `0,-999` idiom.
//! - ADL cannot hold: per-frame durations, frames shown forever, loop points other than the
//!   first frame, follow-ups, several directions, collision boxes, flips, rotation, scale,
//!   opacity, blending, sub-pixel positions, a draw order that changes between frames, frame
//!   text, interpolation, groups and metadata. Each is a [`Loss`] at its place.

use super::edit::shared_delay;
use super::semantics::animation_key;
use super::values::nanos_decimal;
use crate::formats::loss::{Loss, Place};
use crate::formats::{CompanionFile, WriteContext, WriteError, Written};
use crate::model::{AnimationSet, ElementKind, GraphicSource, Origin, Point, Sequence, TreeItem};
use indexmap::IndexMap;
use std::fmt::Write as _;

/// A body part: one graphic source drawn with one anchor.
struct Part {
    name: String,
    source: GraphicSource,
    anchor: (i32, i32),
    size: Option<(u32, u32)>,
}

/// Uppercase letters, digits and `_` of `text`.
fn part_name(text: &str) -> String {
    text.chars()
        .filter_map(|c| {
            let c = c.to_ascii_uppercase();
            (c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_').then_some(c)
        })
        .collect()
}

fn unique(base: String, taken: &[String]) -> String {
    if !taken.contains(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base}_{n}"))
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or(base)
}

fn whole_point(p: Point, what: &str, place: &Place, losses: &mut Vec<Loss>) -> (i32, i32) {
    match (p.x.to_int_exact(), p.y.to_int_exact()) {
        (Some(x), Some(y)) => (x, y),
        _ => {
            losses.push(Loss::new(
                place.clone(),
                format!(
                    "{what} ({}, {}) is not on whole pixels; rounded down",
                    p.x, p.y
                ),
            ));
            (p.x.floor(), p.y.floor())
        }
    }
}

fn has_groups(document: &AnimationSet) -> bool {
    document
        .root
        .items
        .iter()
        .any(|i| matches!(i, TreeItem::Group(_)))
}

/// Writes `document` (from any format) as a new ADL file.
pub fn write_new(document: &AnimationSet, context: &WriteContext) -> Result<Written, WriteError> {
    let mut losses = Vec::new();
    if !document.metadata.is_empty() {
        losses.push(Loss::new(
            Place::document(),
            "metadata (title, authors, dates...)",
        ));
    }
    if has_groups(document) {
        losses.push(Loss::new(
            Place::document(),
            "groups: the animations are written flat",
        ));
    }
    let stem = context
        .path
        .as_deref()
        .and_then(|p| p.file_stem())
        .map(|s| s.to_string_lossy().to_lowercase())
        .map(|s| {
            s.chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "sprite".to_string());
    let sequences = document.sequences();
    let mut parts: Vec<Part> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    let mut body = String::new();
    let mut bounds: Option<(i32, i32, i32, i32)> = None;
    for (index, sequence) in sequences.iter().enumerate() {
        if sequence.max_frames() == 0 {
            losses.push(Loss::new(
                Place::sequence(&sequence.name),
                "it has no frames, and the game cannot load an animation without frames: not written",
            ));
            continue;
        }
        let key = animation_key(&sequence.name, index, &keys);
        if key != sequence.name {
            losses.push(Loss::new(
                Place::sequence(&sequence.name),
                format!("renamed {key}: the game needs ANIM_ and uppercase letters"),
            ));
        }
        keys.push(key.clone());
        write_animation(
            document,
            sequence,
            &key,
            keys.len() - 1,
            context,
            &mut parts,
            &mut bounds,
            &mut body,
            &mut losses,
        );
    }
    let (left, top, right, bottom) = bounds.unwrap_or((0, 0, 1, 1));
    let origin_x = (-left).max(0);
    let width = right.max(1) + origin_x;
    let height = 1 - top.min(0);
    if bottom > 1 {
        losses.push(Loss::new(
            Place::document(),
            format!(
                "{} pixel rows below the origin are cut off in the game's sheet",
                bottom - 1
            ),
        ));
    }
    let mut companions = Vec::new();
    for part in &parts {
        let relative_path = format!("{stem}/{stem}_{}.tga", part.name.to_lowercase());
        let pixels = context
            .pixels
            .and_then(|p| p.pixels(document, &part.source));
        match pixels {
            Some(pixels) => {
                let mut bytes = Vec::new();
                image::codecs::tga::TgaEncoder::new(&mut bytes)
                    .disable_rle()
                    .encode(
                        pixels.image.as_raw(),
                        pixels.image.width(),
                        pixels.image.height(),
                        image::ExtendedColorType::Rgba8,
                    )
                    .map_err(|e| WriteError::new(format!("cannot encode {relative_path}: {e}")))?;
                companions.push(CompanionFile {
                    relative_path,
                    bytes,
                });
            }
            None => losses.push(Loss::new(
                Place::document().element(format!("part {}", part.name)),
                format!("its pixels are not available, so {relative_path} is not written"),
            )),
        }
    }
    let mut text = String::new();
    text.push_str(
        "# Written by Sprat. Paths are relative to the game's assets folder: this file's folder.\n",
    );
    let _ = writeln!(text, "SPRITESHEET={stem}/{stem}_");
    text.push_str("EXTENSION=.tga\n");
    let _ = writeln!(text, "CONFIG=SIZE {width},{height};ORIGINX {origin_x}");
    let entries: Vec<String> = parts
        .iter()
        .map(|p| format!("{} {},{}", p.name, p.anchor.0, p.anchor.1))
        .collect();
    if entries.is_empty() {
        losses.push(Loss::new(
            Place::document(),
            "no graphics: the game refuses an ADL file without body parts",
        ));
    }
    let _ = writeln!(text, "BODYPARTS={}", entries.join(";\\\n          "));
    text.push_str(&body);
    Ok(Written {
        bytes: text.into_bytes(),
        losses,
        companions,
    })
}

#[allow(clippy::too_many_arguments)]
fn write_animation(
    document: &AnimationSet,
    sequence: &Sequence,
    key: &str,
    index: usize,
    context: &WriteContext,
    parts: &mut Vec<Part>,
    bounds: &mut Option<(i32, i32, i32, i32)>,
    body: &mut String,
    losses: &mut Vec<Loss>,
) {
    let place = Place::sequence(&sequence.name);
    super::edit::sequence_losses(sequence, &place, losses);
    let delay =
        shared_delay(document, sequence, losses).unwrap_or(super::semantics::MIN_DELAY_NANOS);
    let frame_ids = sequence
        .directions
        .first()
        .map_or(&[][..], |d| &d.frames[..]);
    // Per frame: joint name -> landing (sprite space), and the draw order of its parts.
    let mut frames: Vec<IndexMap<String, (i32, i32)>> = Vec::new();
    let mut draw_order: Vec<String> = Vec::new();
    let mut points: Vec<String> = Vec::new();
    let mut first_position: IndexMap<String, (i32, i32)> = IndexMap::new();
    for (frame_index, id) in frame_ids.iter().enumerate() {
        let mut landed = IndexMap::new();
        let Some(frame) = document.frame(*id) else {
            frames.push(landed);
            continue;
        };
        let place = Place::frame(&sequence.name, 0, frame_index);
        super::edit::frame_text_losses(frame, &place, losses);
        let mut order_here: Vec<String> = Vec::new();
        for element in &frame.elements {
            let at = place.clone().element(if element.name.is_empty() {
                format!("element {}", element.id)
            } else {
                element.name.to_string()
            });
            match &element.kind {
                ElementKind::Box(_) => losses.push(Loss::new(at, "collision box")),
                ElementKind::Point(p) => {
                    let name = unique(
                        format!("POINT_{}", part_name(&element.name)),
                        &landed.keys().cloned().collect::<Vec<_>>(),
                    );
                    if p.rotation != 0.0
                        || p.scale_x != 1.0
                        || p.scale_y != 1.0
                        || p.flip_h
                        || p.flip_v
                    {
                        losses.push(Loss::new(
                            at.clone(),
                            "rotation, scale or flip of an attachment point",
                        ));
                    }
                    let pos = whole_point(p.position, "attachment point", &at, losses);
                    if !points.contains(&name) {
                        points.push(name.clone());
                    }
                    first_position.entry(name.clone()).or_insert(pos);
                    landed.insert(name, pos);
                }
                ElementKind::Graphic(g) => {
                    for (lost, what) in [
                        (g.flip_h || g.flip_v, "flip".to_string()),
                        (g.rotation != 0.0, format!("rotation {}°", g.rotation)),
                        (
                            g.scale_x != 1.0 || g.scale_y != 1.0,
                            format!("scale {}×{}", g.scale_x, g.scale_y),
                        ),
                        (
                            g.opacity != crate::model::OPAQUE,
                            format!("opacity {}", g.opacity),
                        ),
                        (
                            g.blend != crate::model::BlendMode::Normal,
                            "blend mode".to_string(),
                        ),
                    ] {
                        if lost {
                            losses.push(Loss::new(at.clone(), what));
                        }
                    }
                    if g.source.is_blank() {
                        continue;
                    }
                    let pixels = context.pixels.and_then(|p| p.pixels(document, &g.source));
                    let anchor = match g.origin {
                        Origin::At(p) => whole_point(p, "anchor", &at, losses),
                        Origin::SourceAxis => pixels.as_ref().map_or((0, 0), |p| p.axis),
                    };
                    let occurrence = order_here
                        .iter()
                        .filter(|n| {
                            parts.iter().any(|p| {
                                &p.name == *n && p.source == g.source && p.anchor == anchor
                            })
                        })
                        .count();
                    let matching: Vec<usize> = (0..parts.len())
                        .filter(|&i| parts[i].source == g.source && parts[i].anchor == anchor)
                        .collect();
                    let part_index = match matching.get(occurrence) {
                        Some(&i) => i,
                        None => {
                            let taken: Vec<String> = parts.iter().map(|p| p.name.clone()).collect();
                            // `ALL` would read as the transform of every joint.
                            let base = match part_name(&element.name) {
                                n if n.is_empty() => format!("PART_{}", parts.len() + 1),
                                n if n == "ALL" => "PART_ALL".to_string(),
                                n => n,
                            };
                            parts.push(Part {
                                name: unique(base, &taken),
                                source: g.source.clone(),
                                anchor,
                                size: pixels.as_ref().map(|p| (p.image.width(), p.image.height())),
                            });
                            parts.len() - 1
                        }
                    };
                    let part = &parts[part_index];
                    let pos = whole_point(g.position, "position", &at, losses);
                    if let Some((w, h)) = part.size {
                        let left = pos.0 - anchor.0;
                        let top = pos.1 - anchor.1;
                        let (w, h) = (w as i32, h as i32);
                        let b = bounds.get_or_insert((left, top, left + w, top + h));
                        *b = (
                            b.0.min(left),
                            b.1.min(top),
                            b.2.max(left + w),
                            b.3.max(top + h),
                        );
                    }
                    first_position.entry(part.name.clone()).or_insert(pos);
                    order_here.push(part.name.clone());
                    landed.insert(part.name.clone(), pos);
                }
            }
        }
        // Parts keep the order they are first drawn in; a frame drawing them otherwise cannot be held.
        let known: Vec<&String> = draw_order
            .iter()
            .filter(|n| order_here.contains(n))
            .collect();
        let here_known: Vec<&String> = order_here
            .iter()
            .filter(|n| draw_order.contains(n))
            .collect();
        if known != here_known {
            losses.push(Loss::new(
                place.clone(),
                "a draw order of parts that differs from earlier frames",
            ));
        }
        for name in order_here {
            if !draw_order.contains(&name) {
                draw_order.push(name);
            }
        }
        frames.push(landed);
    }
    let skeleton_key = format!("SKELETON_{}", key.trim_start_matches("ANIM_"));
    // Drawn last = listed first.
    let joints: Vec<&String> = draw_order.iter().rev().chain(points.iter()).collect();
    let mut skeleton_items: Vec<String> = joints
        .iter()
        .map(|j| {
            let (x, y) = first_position[*j];
            format!("{j} {x},{}", -y)
        })
        .collect();
    if skeleton_items.is_empty() {
        // A skeleton needs a joint; one without a body part draws nothing, as the frames do.
        skeleton_items.push("ORIGIN 0,0".to_string());
    }
    let _ = writeln!(body, "\n{skeleton_key}={}", skeleton_items.join(";"));
    let _ = writeln!(
        body,
        "{key}=DELAY {};ROW {};SKELETON {skeleton_key}",
        nanos_decimal(delay),
        index + 1
    );
    for (number, landed) in frames.iter().enumerate() {
        let mut items = Vec::new();
        for joint in &joints {
            let (x0, y0) = first_position[*joint];
            match landed.get(*joint) {
                Some(&(x, y)) if (x, y) != (x0, y0) => items.push(format!("{joint} {},{}", x - x0, y0 - y)),
                Some(_) => {}
                None if draw_order.contains(joint) => items.push(format!("{joint} 0,-999")),
                None => losses.push(Loss::new(
                    Place::frame(&sequence.name, 0, number),
                    format!("attachment point {joint} is absent here, but ADL joints exist in every frame"),
                )),
            }
        }
        let _ = writeln!(body, "{key}_{}={}", number + 1, items.join(";"));
    }
}
