//! An Aseprite file (as [`super::parse`] reads it) turned into an animation set.
//!
//! - Every frame is composited as Aseprite shows it (visible layers, their opacity and blend
//!   modes, cel opacity, linked cels, tilemaps, indexed and grayscale colour) by
//!   [`super::compose`], into one in-memory image per distinct picture: frames that look the
//!   same (linked cels, held poses) share one image.
//! - Tags become sequences in the order Aseprite plays them ([`super::play_order`]); a file
//!   without tags is one sequence of all its frames. Durations stay in milliseconds.
//! - Slices become collision boxes whose class is the slice's name as written (nothing in the
//!   file says which is a hit box) and, when they have a pivot, attachment points; both per
//!   frame as the slice's keys say.
//! - The sprite's user data and the tags' colours and user data go into the metadata.

use super::blend;
use super::compose;
use super::play_order::play_order;
use super::scan::TagDirection;
use super::sprite::{LayerKind, Slice, Sprite, layer_flags};
use crate::formats::diagnostics::{Diagnostic, Location, Severity};
use crate::model::{
    AnimationSet, AttachmentPoint, BlendMode, BoxClass, CollisionBox, Direction, DirectionId,
    Element, ElementId, ElementKind, EndBehavior, Frame, FrameDuration, FrameId, Fx, Graphic,
    GraphicSource, ImageId, ImageKind, MemoryImage, OPAQUE, Origin, Point, Sequence, SequenceId,
    SourceImage, TreeItem,
};
use image::RgbaImage;
use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// The file's frames composited, each distinct picture once.
pub struct Composited {
    /// Distinct pictures, in order of first use.
    pub pictures: Vec<RgbaImage>,
    /// For each frame of the file, its picture.
    pub picture_of_frame: Vec<usize>,
}

/// Composites every frame of `sprite`, exactly as Aseprite draws it.
pub fn composite(sprite: &Sprite) -> Composited {
    let mut pictures: Vec<RgbaImage> = Vec::new();
    let mut by_hash: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut picture_of_frame = Vec::with_capacity(sprite.frames.len());
    for index in 0..sprite.frames.len() {
        let image = compose::frame(sprite, index);
        let mut hasher = DefaultHasher::new();
        image.as_raw().hash(&mut hasher);
        let same = by_hash.entry(hasher.finish()).or_default();
        let found = same.iter().copied().find(|&p| pictures[p] == image);
        let picture = match found {
            Some(p) => p,
            None => {
                pictures.push(image);
                same.push(pictures.len() - 1);
                pictures.len() - 1
            }
        };
        picture_of_frame.push(picture);
    }
    Composited {
        pictures,
        picture_of_frame,
    }
}

/// How an Aseprite file's layers become graphics.
pub enum Pictures {
    /// Each frame composited into one picture, as Aseprite shows it.
    Composited(Composited),
    /// Each visible layer's cel a graphic of its own, bottom layer first (the import choice
    /// "one graphic per layer").
    PerLayer,
}

/// Builds the set. `stem` names the sequence of an untagged file and the images' file names.
pub fn build(sprite: &Sprite, pictures: Pictures, stem: &str) -> (AnimationSet, Vec<Diagnostic>) {
    let mut set = AnimationSet::new();
    let mut diagnostics = Vec::new();
    let frame_ids = match pictures {
        Pictures::Composited(composited) => {
            composited_frames(&mut set, sprite, composited, stem, &mut diagnostics)
        }
        Pictures::PerLayer => layered_frames(&mut set, sprite, stem, &mut diagnostics),
    };
    let origin = canvas_origin(sprite);
    if let Some((x, y)) = origin {
        let pivot = Origin::At(Point::from_ints(x, y));
        for element in set.frames.values_mut().flat_map(|f| f.elements.iter_mut()) {
            if let ElementKind::Graphic(graphic) = &mut element.kind {
                graphic.origin = pivot;
            }
        }
    }
    add_slices(&mut set, sprite, &frame_ids, origin.unwrap_or((0, 0)));
    add_sequences(&mut set, sprite, &frame_ids, stem, &mut diagnostics);
    add_metadata(&mut set, sprite);
    (set, diagnostics)
}

/// An in-memory image named after the frame it first shows in.
fn memory_image(set: &mut AnimationSet, name: String, pixels: RgbaImage) -> ImageId {
    let id = ImageId(set.alloc_id());
    set.images.push(SourceImage {
        id,
        path: name,
        resolved: None,
        kind: ImageKind::Memory(MemoryImage::new(pixels)),
        nearest_neighbour: true,
    });
    id
}

/// A graphic of a whole image at the canvas' top-left corner.
fn whole_image(set: &mut AnimationSet, image: ImageId, name: &str) -> Element {
    Element {
        id: ElementId(set.alloc_id()),
        name: name.into(),
        kind: ElementKind::Graphic(Graphic::new(
            GraphicSource::Image(image),
            Point::ZERO,
            Origin::At(Point::ZERO),
        )),
    }
}

/// One frame per file frame, showing its composited picture.
fn composited_frames(
    set: &mut AnimationSet,
    sprite: &Sprite,
    composited: Composited,
    stem: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<FrameId> {
    let Composited {
        pictures,
        picture_of_frame,
    } = composited;
    let mut first_frame_of_picture = vec![usize::MAX; pictures.len()];
    for (frame, &picture) in picture_of_frame.iter().enumerate() {
        first_frame_of_picture[picture] = first_frame_of_picture[picture].min(frame);
    }
    let image_ids: Vec<ImageId> = pictures
        .into_iter()
        .enumerate()
        .map(|(picture, pixels)| {
            let name = format!("images/{stem}_{}.png", first_frame_of_picture[picture]);
            memory_image(set, name, pixels)
        })
        .collect();
    let mut frame_ids = Vec::with_capacity(picture_of_frame.len());
    for (index, &picture) in picture_of_frame.iter().enumerate() {
        let duration = sprite.frames[index].duration;
        let mut frame = Frame::new(FrameDuration::Millis(u32::from(duration)));
        frame
            .elements
            .push(whole_image(set, image_ids[picture], ""));
        let id = FrameId(set.alloc_id());
        set.frames.insert(id, frame);
        frame_ids.push(id);
    }
    let layers = sprite
        .layers
        .iter()
        .filter(|l| l.has(layer_flags::VISIBLE) && l.kind != LayerKind::Group)
        .count();
    if layers > 1 {
        diagnostics.push(Diagnostic::new(
            Severity::Info,
            Location::File,
            format!(
                "{layers} visible layers are composited into one picture per frame ({} distinct pictures for {} frames)",
                image_ids.len(),
                frame_ids.len()
            ),
        ));
    }
    frame_ids
}

/// One frame per file frame with one graphic per visible layer that has a cel there, bottom
/// layer first, each with the layer's name and opacity (the picture carries the cel's own
/// opacity). Identical cel pictures share an image. Reference layers are left out. Blend
/// modes other than normal, addition and subtraction have no graphic equivalent: those layers
/// are drawn normally, with a warning.
fn layered_frames(
    set: &mut AnimationSet,
    sprite: &Sprite,
    stem: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<FrameId> {
    let layers: Vec<usize> = (0..sprite.layers.len())
        .filter(|&i| {
            let layer = &sprite.layers[i];
            layer.kind != LayerKind::Group && !layer.has(layer_flags::REFERENCE) && sprite.shown(i)
        })
        .collect();
    let mut blends = Vec::with_capacity(layers.len());
    for &index in &layers {
        let layer = &sprite.layers[index];
        let blend = match layer.effective_blend {
            0 => BlendMode::Normal,
            16 => BlendMode::Add {
                source: 256,
                destination: 256,
            },
            17 => BlendMode::Subtract,
            other => {
                let mode = blend::BlendMode::from_code(other).map_or_else(
                    || format!("unknown blend mode {other}"),
                    |m| format!("{m:?}"),
                );
                diagnostics.push(Diagnostic::new(
                    Severity::Warning,
                    Location::File,
                    format!(
                        "layer \"{}\" blends with {mode}, which a graphic cannot: it is drawn normally (open the file with layers composited to see it as Aseprite does)",
                        layer.name
                    ),
                ));
                BlendMode::Normal
            }
        };
        blends.push(blend);
    }
    let mut by_hash: HashMap<u64, Vec<(ImageId, usize)>> = HashMap::new();
    let mut stored: Vec<RgbaImage> = Vec::new();
    let mut frame_ids = Vec::with_capacity(sprite.frames.len());
    for (index, header) in sprite.frames.iter().enumerate() {
        let mut frame = Frame::new(FrameDuration::Millis(u32::from(header.duration)));
        for (&layer_index, blend) in layers.iter().zip(&blends) {
            let Some(pixels) = compose::cel_picture(sprite, index, layer_index) else {
                continue;
            };
            let layer = &sprite.layers[layer_index];
            let mut hasher = DefaultHasher::new();
            pixels.as_raw().hash(&mut hasher);
            let same = by_hash.entry(hasher.finish()).or_default();
            let image = match same.iter().find(|(_, s)| stored[*s] == pixels) {
                Some((image, _)) => *image,
                None => {
                    let name = format!("images/{stem}_{}_{index}.png", layer.name);
                    let image = memory_image(set, name, pixels.clone());
                    stored.push(pixels);
                    same.push((image, stored.len() - 1));
                    image
                }
            };
            let mut element = whole_image(set, image, &layer.name);
            if let ElementKind::Graphic(graphic) = &mut element.kind {
                graphic.opacity = (u32::from(layer.opacity) * u32::from(OPAQUE) / 255) as u16;
                graphic.blend = *blend;
            }
            frame.elements.push(element);
        }
        let id = FrameId(set.alloc_id());
        set.frames.insert(id, frame);
        frame_ids.push(id);
    }
    frame_ids
}

/// One sequence per tag, or one for the whole file.
fn add_sequences(
    set: &mut AnimationSet,
    sprite: &Sprite,
    frame_ids: &[FrameId],
    stem: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let last = frame_ids.len().saturating_sub(1);
    let mut plays: Vec<(String, Vec<usize>, bool)> = Vec::new();
    for tag in &sprite.tags {
        let (from, to) = (usize::from(tag.from), usize::from(tag.to));
        if from.max(to) > last {
            diagnostics.push(Diagnostic::new(
                Severity::Warning,
                Location::File,
                format!(
                    "tag \"{}\" covers frames {from}..{to} but the file has {} frames; it is left out",
                    tag.name,
                    frame_ids.len()
                ),
            ));
            continue;
        }
        let order = play_order(from, to, tag.direction, tag.repeat);
        if order.repeat_dropped {
            diagnostics.push(Diagnostic::new(
                Severity::Warning,
                Location::File,
                format!(
                    "tag \"{}\" repeats {} times, too many to spell out; it loops forever instead",
                    tag.name, tag.repeat
                ),
            ));
        }
        let spelled_out = tag.direction != TagDirection::Forward || tag.repeat > 1;
        if spelled_out && !order.repeat_dropped {
            let how = match tag.direction {
                TagDirection::Forward => "forward",
                TagDirection::Reverse => "in reverse",
                TagDirection::PingPong => "ping-pong",
                TagDirection::PingPongReverse => "ping-pong reverse",
            };
            let times = match tag.repeat {
                0 => "forever".to_string(),
                1 => "once".to_string(),
                n => format!("{n} times"),
            };
            diagnostics.push(Diagnostic::new(
                Severity::Info,
                Location::File,
                format!(
                    "tag \"{}\" plays {how}, {times}: its sequence lists the {} frames in the order Aseprite shows them",
                    tag.name,
                    order.frames.len()
                ),
            ));
        }
        plays.push((tag.name.clone(), order.frames, order.loops));
    }
    let mut in_a_tag = vec![false; frame_ids.len()];
    for (_, frames, _) in &plays {
        frames.iter().for_each(|&f| in_a_tag[f] = true);
    }
    let runs = untagged_runs(&in_a_tag);
    let tagged = plays.len();
    for run in &runs {
        let name = if runs.len() == 1 {
            stem.to_string()
        } else {
            run_name(stem, run)
        };
        plays.push((name, run.clone().collect(), true));
    }
    let mut used_names: Vec<String> = Vec::new();
    let mut run_sequences = Vec::new();
    for (index, (name, frames, loops)) in plays.into_iter().enumerate() {
        let shown = unique_name(&name, &used_names);
        if index < tagged && shown != name {
            diagnostics.push(Diagnostic::new(
                Severity::Info,
                Location::File,
                format!(
                    "tag \"{name}\" shares its name with an earlier tag: it shows as \"{shown}\" and is saved as \"{name}\" unless renamed"
                ),
            ));
        }
        let name = shown;
        used_names.push(name.clone());
        if index >= tagged {
            let run = &runs[index - tagged];
            diagnostics.push(Diagnostic::new(
                Severity::Info,
                Location::File,
                format!(
                    "{} {} {} to no tag: {} as sequence \"{name}\"",
                    crate::text::word(run.len(), "frame"),
                    frame_span(run),
                    if run.len() == 1 { "belongs" } else { "belong" },
                    if run.len() == 1 {
                        "it plays"
                    } else {
                        "they play"
                    }
                ),
            ));
            run_sequences.push(name.clone());
        }
        let sequence = Sequence {
            id: SequenceId(set.alloc_id()),
            name,
            directions: vec![Direction {
                id: DirectionId(set.alloc_id()),
                name: None,
                frames: frames.iter().map(|&f| frame_ids[f]).collect(),
            }],
            loop_point: loops.then_some(0),
            on_end: EndBehavior::HoldLastFrame,
            follow_up: None,
            frame_rate: None,
            title: None,
        };
        set.root.items.push(TreeItem::Sequence(sequence));
    }
    for name in run_sequences {
        set.metadata
            .extra
            .push((format!("{UNTAGGED_KEY}{name}"), String::new()));
    }
}

/// The metadata key (followed by a sequence's name) that marks a sequence made of frames no
/// tag covers: saving writes no tag for it while it still plays those frames forward.
pub const UNTAGGED_KEY: &str = "aseprite.untagged.";

/// The runs of consecutive frames that no tag covers.
fn untagged_runs(in_a_tag: &[bool]) -> Vec<std::ops::Range<usize>> {
    let mut runs = Vec::new();
    let mut start = None;
    for (frame, &tagged) in in_a_tag.iter().chain([&true]).enumerate() {
        match (tagged, start) {
            (false, None) => start = Some(frame),
            (true, Some(first)) => {
                runs.push(first..frame);
                start = None;
            }
            _ => {}
        }
    }
    runs
}

/// `7` or `7-9`: the file's frame numbers of a run.
fn frame_span(run: &std::ops::Range<usize>) -> String {
    if run.len() == 1 {
        run.start.to_string()
    } else {
        format!("{}-{}", run.start, run.end - 1)
    }
}

/// The sequence name of one run of untagged frames among several: the file's name and the
/// run's frame numbers.
fn run_name(stem: &str, run: &std::ops::Range<usize>) -> String {
    format!("{stem} {}", frame_span(run))
}

/// `name`, or `name (2)`, `name (3)`, ... when a tag of that name came before.
fn unique_name(name: &str, used: &[String]) -> String {
    let name = if name.is_empty() { "tag" } else { name };
    let mut candidate = name.to_string();
    let mut number = 2;
    while used.contains(&candidate) {
        candidate = format!("{name} ({number})");
        number += 1;
    }
    candidate
}

/// What a slice stands for: its name, as written. Nothing in an Aseprite file says a slice is
/// a hit or hurt box ("Hitbox" may be a body box); the user says which names are
/// ([`crate::boxes::roles`]).
fn slice_class(slice: &Slice) -> BoxClass {
    BoxClass::Custom(slice.name.clone())
}

/// The box class a name (or a user data text) seems to say: `hit…` and `hurt…` boxes, any
/// other name a class of its own. Reading never uses it (a slice's class is its name); writing
/// does, to keep a box's own name as its slice's where the name already says its class.
pub fn class_of(name: &str, user_text: &str) -> BoxClass {
    let says = |text: &str, word: &str| text.trim().to_lowercase().starts_with(word);
    // "hurt" is checked first: it does not start with "hit", but user data may say both.
    if says(name, "hurt") || says(user_text, "hurt") {
        BoxClass::Hurt
    } else if says(name, "hit") || says(user_text, "hit") {
        BoxClass::Hit
    } else {
        BoxClass::Custom(name.to_string())
    }
}

/// A key of one pixel with its pivot on it marks an attachment point alone (how Sprat writes
/// a point that no box of its name holds): it makes no box.
pub fn is_point_only(size: (u32, u32), pivot: Option<(i32, i32)>) -> bool {
    size == (1, 1) && pivot == Some((0, 0))
}

/// The metadata key of the sprite's colour (its user data's, `#rrggbbaa`).
pub const SPRITE_COLOR_KEY: &str = "aseprite.sprite.color";

/// The name of the slice that marks the sprite's origin: covering the whole canvas, in force
/// from the first frame on, its pivot on the origin (Sprat writes one when the origin is not
/// the canvas' top-left corner, as in its atlases).
pub const ORIGIN_SLICE: &str = "origin";

/// The sprite's origin on the canvas, when a slice marks it.
fn canvas_origin(sprite: &Sprite) -> Option<(i32, i32)> {
    let canvas = (
        u32::from(sprite.header.width),
        u32::from(sprite.header.height),
    );
    sprite.slices.iter().find_map(|slice| {
        let [key] = slice.keys.as_slice() else {
            return None;
        };
        let covers = key.frame == 0 && key.origin == (0, 0) && key.size == canvas;
        (slice.name == ORIGIN_SLICE && covers)
            .then_some(key.pivot)
            .flatten()
    })
}

/// Each slice's key in force on each frame becomes a box, and a point when it has a pivot;
/// positions are taken from the sprite's origin at `origin` on the canvas.
fn add_slices(set: &mut AnimationSet, sprite: &Sprite, frame_ids: &[FrameId], origin: (i32, i32)) {
    let marks_origin = canvas_origin(sprite).is_some();
    for slice in &sprite.slices {
        if marks_origin && slice.name == ORIGIN_SLICE {
            continue;
        }
        let class = slice_class(slice);
        for (index, frame_id) in frame_ids.iter().enumerate() {
            let key = slice
                .keys
                .iter()
                .filter(|k| k.frame as usize <= index)
                .max_by_key(|k| k.frame);
            // A key of size 0 removes the slice from its frames on.
            let Some(key) = key.filter(|k| k.size.0 > 0 && k.size.1 > 0) else {
                continue;
            };
            let (x, y) = (
                key.origin.0.saturating_sub(origin.0),
                key.origin.1.saturating_sub(origin.1),
            );
            let (width, height) = (clamp(key.size.0), clamp(key.size.1));
            let boxed = CollisionBox::rect_from_corners(
                class.clone(),
                Point::from_ints(x, y),
                Point::from_ints(x.saturating_add(width), y.saturating_add(height)),
            );
            let mut elements = Vec::new();
            if !is_point_only(key.size, key.pivot) {
                elements.push(Element {
                    id: ElementId(set.alloc_id()),
                    name: slice.name.as_str().into(),
                    kind: ElementKind::Box(boxed),
                });
            }
            if let Some((px, py)) = key.pivot {
                let at = Point {
                    x: Fx::from_int(x.saturating_add(px)),
                    y: Fx::from_int(y.saturating_add(py)),
                };
                elements.push(Element {
                    id: ElementId(set.alloc_id()),
                    name: slice.name.as_str().into(),
                    kind: ElementKind::Point(AttachmentPoint::at(at)),
                });
            }
            if let Some(frame) = set.frames.get_mut(frame_id) {
                frame.elements.extend(elements);
            }
        }
    }
}

fn clamp(size: u32) -> i32 {
    i32::try_from(size).unwrap_or(i32::MAX)
}

/// The sprite's user data and each tag's colour and user data, as metadata.
fn add_metadata(set: &mut AnimationSet, sprite: &Sprite) {
    if let Some(user) = &sprite.user_data {
        if let Some(text) = &user.text {
            set.metadata.comments = text.clone();
        }
        if let Some(color) = user.color {
            set.metadata
                .extra
                .push((SPRITE_COLOR_KEY.into(), hex(&color)));
        }
    }
    for tag in &sprite.tags {
        let user = tag.user_data.as_ref();
        // Newer files keep the tag colour in its user data; the older field stays for readers
        // that predate it.
        let color = match user.and_then(|u| u.color) {
            Some(color) => hex(&color),
            None => hex(&tag.color),
        };
        let key = format!("aseprite.tag.{}.color", tag.name);
        set.metadata.extra.push((key, color));
        if let Some(text) = user.and_then(|u| u.text.clone()) {
            let key = format!("aseprite.tag.{}.user_data", tag.name);
            set.metadata.extra.push((key, text));
        }
    }
}

fn hex(channels: &[u8]) -> String {
    let digits: String = channels.iter().map(|c| format!("{c:02x}")).collect();
    format!("#{digits}")
}
