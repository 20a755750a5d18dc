//! The document model -> Solarus animation descriptions, naming exactly what a Solarus sprite
//! cannot hold: per-frame durations, frames off the direction's grid, boxes, points, extra
//! graphics, transforms, frame text, groups.

use super::data::{AnimationData, DirectionData, TILESET_KEYWORD};
use super::quest::sprites_folder;
use crate::formats::loss::frame_text_losses_worded;
use crate::formats::paths::relative_to;
use crate::formats::{Loss, Place, WriteContext, WriteError};
use crate::model::{
    AnimationSet, ElementKind, EndBehavior, FrameDuration, Group, ImageKind, Origin, Sequence,
    SequenceId, TreeItem,
};

/// What the writers write: each animation with the sequence it comes from, in file order
/// (the default animation first, as the engine's writer does), and what is lost.
pub struct Described {
    /// The animations.
    pub animations: Vec<(SequenceId, AnimationData)>,
    /// What could not be written.
    pub losses: Vec<Loss>,
}

/// How the loss of an animation that is not written at all begins.
pub const NOT_WRITTEN: &str = "the whole animation is not written: ";

/// Describes every sequence of `document` as a Solarus animation.
pub fn describe(
    document: &AnimationSet,
    context: &WriteContext,
    solarus_source: bool,
) -> Result<Described, WriteError> {
    let mut losses = Vec::new();
    document_losses(document, &mut losses);
    let mut sequences = document.sequences();
    if let Some(default) = document.default_sequence
        && let Some(position) = sequences.iter().position(|s| s.id == default)
    {
        let first = sequences.remove(position);
        sequences.insert(0, first);
    }
    let mut animations: Vec<(SequenceId, AnimationData)> = Vec::new();
    for sequence in sequences {
        if sequence.name.is_empty() {
            return Err(WriteError::new(
                "an animation has no name; Solarus needs one for each",
            ));
        }
        if animations.iter().any(|(_, a)| a.name == sequence.name) {
            return Err(WriteError::new(format!(
                "two animations are named '{}'; Solarus needs unique names",
                sequence.name
            )));
        }
        if let Some(data) =
            describe_sequence(document, sequence, context, solarus_source, &mut losses)
        {
            animations.push((sequence.id, data));
        }
    }
    Ok(Described { animations, losses })
}

fn document_losses(document: &AnimationSet, losses: &mut Vec<Loss>) {
    losses.extend(crate::formats::loss::title_losses(document));
    losses.extend(crate::formats::loss::unused_picture_losses(document));
    if !document.metadata.is_empty() {
        losses.push(Loss::new(
            Place::document(),
            "metadata (title, author, ...): a Solarus sprite file has none",
        ));
    }
    fn groups(group: &Group, losses: &mut Vec<Loss>) {
        for item in &group.items {
            if let TreeItem::Group(child) = item {
                losses.push(Loss::new(
                    Place::document(),
                    format!(
                        "group '{}': Solarus has no groups, its animations are written at the top level",
                        child.name
                    ),
                ));
                groups(child, losses);
            }
        }
    }
    groups(&document.root, losses);
}

/// The milliseconds of a duration, and whether that is exact.
fn millis(duration: FrameDuration, frame_rate: Option<u32>) -> (u32, bool) {
    match duration {
        FrameDuration::Millis(ms) => (ms, true),
        FrameDuration::Forever => (0, true),
        other => match other.exact(frame_rate.unwrap_or(0)) {
            Some(time) => {
                let scaled = time.numerator as u128 * 1000;
                let denominator = time.denominator as u128;
                let rounded = (scaled + denominator / 2) / denominator;
                (
                    rounded.min(u32::MAX as u128) as u32,
                    scaled.is_multiple_of(denominator),
                )
            }
            None => (0, false),
        },
    }
}

fn describe_sequence(
    document: &AnimationSet,
    sequence: &Sequence,
    context: &WriteContext,
    solarus_source: bool,
    losses: &mut Vec<Loss>,
) -> Option<AnimationData> {
    let name = &sequence.name;
    let skip = |losses: &mut Vec<Loss>, why: String| {
        losses.push(Loss::new(
            Place::sequence(name),
            format!("{NOT_WRITTEN}{why}"),
        ));
        None
    };
    if sequence.directions.is_empty() {
        return skip(losses, "it has no direction".into());
    }
    let frame_rate = sequence.frame_rate.or(document.frame_rate);
    let mut image = None;
    let mut frame_delay = None;
    let mut directions = Vec::with_capacity(sequence.directions.len());
    for (d, direction) in sequence.directions.iter().enumerate() {
        if let Some(label) = &direction.name {
            losses.push(Loss::new(
                Place {
                    direction: Some(d),
                    ..Place::sequence(name)
                },
                format!(
                    "direction name '{label}': Solarus numbers directions (0 = right, counter-clockwise)"
                ),
            ));
        }
        if direction.frames.is_empty() {
            return skip(losses, format!("direction {d} has no frame"));
        }
        let mut rects = Vec::with_capacity(direction.frames.len());
        let mut origins = Vec::with_capacity(direction.frames.len());
        for (f, frame_id) in direction.frames.iter().enumerate() {
            let place = Place::frame(name, d, f);
            let Some(frame) = document.frame(*frame_id) else {
                return skip(losses, format!("direction {d} frame {f} is missing"));
            };
            let (ms, exact) = millis(frame.duration, frame_rate);
            match frame_delay {
                None => {
                    frame_delay = Some(ms);
                    if !exact {
                        losses.push(Loss::new(
                            place.clone(),
                            format!("duration {} (written as {ms} ms)", frame.duration),
                        ));
                    }
                }
                Some(delay) if delay != ms || !exact => losses.push(Loss::new(
                    place.clone(),
                    format!(
                        "per-frame duration {} (the animation keeps one delay: {delay} ms)",
                        frame.duration
                    ),
                )),
                Some(_) => {}
            }
            frame_text_losses(frame, &place, losses);
            let mut graphic = None;
            for (e, element) in frame.elements.iter().enumerate() {
                let label = if element.name.is_empty() {
                    format!("element {e}")
                } else {
                    format!("element '{}'", element.name)
                };
                match &element.kind {
                    ElementKind::Graphic(g) if graphic.is_none() => graphic = Some(g),
                    ElementKind::Graphic(_) => losses.push(Loss::new(
                        place.clone().element(label),
                        "extra graphic: a Solarus frame shows one rectangle",
                    )),
                    ElementKind::Point(_) => losses.push(Loss::new(
                        place.clone().element(label),
                        "attachment point: Solarus sprites have none",
                    )),
                    ElementKind::Box(b) => losses.push(Loss::new(
                        place.clone().element(label),
                        format!(
                            "collision box ({}): Solarus sprites have none",
                            b.class.label()
                        ),
                    )),
                }
            }
            let Some(graphic) = graphic else {
                return skip(losses, format!("direction {d} frame {f} shows no graphic"));
            };
            let crate::model::GraphicSource::Slice(slice_id) = &graphic.source else {
                return skip(
                    losses,
                    format!("direction {d} frame {f} does not show a rectangle of an image file"),
                );
            };
            let Some(slice) = document.slice(*slice_id) else {
                return skip(
                    losses,
                    format!("direction {d} frame {f} names a missing slice"),
                );
            };
            match image {
                None => image = Some(slice.image),
                Some(first) if first != slice.image => losses.push(Loss::new(
                    place.clone(),
                    "a different image than the animation's first frame (one image per animation)",
                )),
                Some(_) => {}
            }
            if slice.rotated {
                losses.push(Loss::new(
                    place.clone(),
                    "rotated storage of the frame on its sheet",
                ));
            }
            if !graphic.is_plain() || graphic.flip_h || graphic.flip_v {
                losses.push(Loss::new(
                    place.clone(),
                    "transform (flip, rotation, scale, opacity or blending): Solarus draws frames as they are",
                ));
            }
            let origin = match graphic.origin {
                Origin::At(p) => p,
                Origin::SourceAxis => crate::model::Point::ZERO,
            };
            let solarus_origin = (origin.x - graphic.position.x, origin.y - graphic.position.y);
            let whole = (
                solarus_origin.0.to_int_exact(),
                solarus_origin.1.to_int_exact(),
            );
            let origin_px = match whole {
                (Some(x), Some(y)) => (x, y),
                _ => {
                    losses.push(Loss::new(
                        place.clone(),
                        "sub-pixel position (rounded down to whole pixels)",
                    ));
                    (solarus_origin.0.floor(), solarus_origin.1.floor())
                }
            };
            rects.push(slice.rect);
            origins.push(origin_px);
        }
        directions.push(grid_of(name, d, &rects, &origins, losses));
    }
    let frame_delay = frame_delay.unwrap_or(0);
    let shortest = directions.iter().map(|d| d.num_frames).min().unwrap_or(0);
    let loop_on_frame = match sequence.loop_point {
        Some(point) if (point as u64) < shortest as u64 => point as i32,
        Some(point) => {
            losses.push(Loss::new(
                Place::sequence(name),
                format!(
                    "loop point {point} is past the last frame of a direction; written as no loop"
                ),
            ));
            -1
        }
        None => -1,
    };
    if loop_on_frame < 0 {
        match sequence.on_end {
            EndBehavior::HoldLastFrame if frame_delay != 0 => losses.push(Loss::new(
                Place::sequence(name),
                "holding the last frame at the end: a Solarus animation without a loop disappears",
            )),
            EndBehavior::Disappear if frame_delay == 0 => losses.push(Loss::new(
                Place::sequence(name),
                "disappearing at the end: a Solarus animation with frame_delay 0 keeps its frame",
            )),
            _ => {}
        }
    }
    if let Some(follow_up) = &sequence.follow_up {
        losses.push(Loss::new(
            Place::sequence(name),
            format!("follow-up animation '{follow_up}': Solarus has none"),
        ));
    }
    let Some(image) = image.and_then(|id| document.image(id)) else {
        return skip(losses, "its image is missing".into());
    };
    let src_image = match &image.kind {
        ImageKind::SolarusTileset { .. } => TILESET_KEYWORD.to_string(),
        ImageKind::Sff { .. } => {
            return skip(losses, "its frames come from an SFF archive".into());
        }
        ImageKind::Memory(_) => {
            return skip(
                losses,
                "its frames are cut from pixels that are in no image file".into(),
            );
        }
        ImageKind::File => image_path(image, context, solarus_source),
    };
    Some(AnimationData {
        name: name.clone(),
        src_image,
        frame_delay,
        loop_on_frame,
        directions,
    })
}

/// The image path relative to the output quest's `sprites/` folder. Paths read from a Solarus
/// file are already relative to `sprites/` and stay as spelled.
fn image_path(
    image: &crate::model::SourceImage,
    context: &WriteContext,
    solarus_source: bool,
) -> String {
    if solarus_source {
        return image.path.clone();
    }
    let sprites = context.path.as_deref().and_then(sprites_folder);
    match (&image.resolved, sprites) {
        (Some(resolved), Some(sprites)) => {
            relative_to(&sprites, resolved).unwrap_or_else(|| image.path.clone())
        }
        _ => image.path.clone(),
    }
}

fn frame_text_losses(frame: &crate::model::Frame, place: &Place, losses: &mut Vec<Loss>) {
    losses.extend(frame_text_losses_worded(place, frame, |what, text| {
        format!("frame {what} '{text}'")
    }));
    if !frame.interpolation.is_none() {
        losses.push(Loss::new(
            place.clone(),
            "interpolation from the previous frame",
        ));
    }
    for declaration in &frame.box_declarations {
        if !frame.boxes().any(|(_, b)| b.class == declaration.class) {
            losses.push(Loss::new(
                place.clone(),
                format!(
                    "empty collision box declaration ({})",
                    declaration.class.label()
                ),
            ));
        }
    }
}

/// The grid of one direction: the first frame's rectangle, as many columns as frames on the
/// first row, one origin. Frames off that grid are reported and written at their grid place.
fn grid_of(
    name: &str,
    d: usize,
    rects: &[crate::model::PixelRect],
    origins: &[(i32, i32)],
    losses: &mut Vec<Loss>,
) -> DirectionData {
    let first = rects[0];
    let columns = rects
        .iter()
        .enumerate()
        .take_while(|(i, r)| {
            r.y == first.y && r.x as i64 == first.x as i64 + *i as i64 * first.width as i64
        })
        .count()
        .max(1);
    let direction = DirectionData {
        x: first.x,
        y: first.y,
        frame_width: first.width,
        frame_height: first.height,
        origin_x: origins[0].0,
        origin_y: origins[0].1,
        num_frames: rects.len() as u32,
        num_columns: columns as u32,
    };
    for (f, (rect, origin)) in rects.iter().zip(origins).enumerate() {
        let (x, y, w, h) = direction.frame_rect(f as u32);
        if (rect.x as i64, rect.y as i64, rect.width, rect.height) != (x, y, w, h) {
            losses.push(Loss::new(
                Place::frame(name, d, f),
                format!(
                    "frame rectangle {}×{} at ({}, {}) is not on the direction's grid; written as {w}×{h} at ({x}, {y})",
                    rect.width, rect.height, rect.x, rect.y
                ),
            ));
        }
        if *origin != origins[0] {
            losses.push(Loss::new(
                Place::frame(name, d, f),
                format!(
                    "origin ({}, {}) differs from the direction's ({}, {})",
                    origin.0, origin.1, origins[0].0, origins[0].1
                ),
            ));
        }
    }
    direction
}
