//! Animation descriptions -> the document model: animation -> sequence, directions ->
//! directions, each frame of the grid -> a frame with one graphic on its own slice, origin per
//! direction, `frame_delay` in milliseconds (0 = shown forever), the first animation the default.

use super::data::{AnimationData, Entry, MAX_FRAMES_PER_FILE, TILESET_KEYWORD};
use super::problems::Problems;
use super::quest::sprites_folder;
use crate::formats::{ReadContext, Subject};
use crate::model::{
    AnimationSet, Direction, DirectionId, Element, ElementId, ElementKind, EndBehavior, Frame,
    FrameDuration, FrameId, Graphic, GraphicSource, ImageId, ImageKind, Name, Origin, PixelRect,
    Point, Sequence, SequenceId, Slice, SliceId, SourceImage, TreeItem,
};
use std::collections::HashMap;
use std::path::PathBuf;

/// Builds the document from the usable entries; returns it with the sequence made from each
/// entry (`None` for entries left out).
pub fn build_document(
    entries: &[Entry],
    context: &ReadContext,
    problems: &mut Problems,
) -> (AnimationSet, Vec<Option<SequenceId>>) {
    let mut document = AnimationSet::new();
    let mut builder = ImageTable {
        sprites: context.path.as_deref().and_then(sprites_folder),
        tileset: context.options.tileset.clone(),
        sizes: HashMap::new(),
    };
    let mut names: HashMap<&str, usize> = HashMap::new();
    let mut total_frames = 0usize;
    let mut made = Vec::with_capacity(entries.len());
    // One frame and one slice per grid cell: reserved once instead of grown cell by cell.
    let cells: usize = entries
        .iter()
        .filter(|e| e.usable)
        .flat_map(|e| &e.data.directions)
        .map(|d| d.num_frames as usize)
        .fold(0, usize::saturating_add)
        .min(MAX_FRAMES_PER_FILE);
    document.frames.reserve(cells);
    document.slices.reserve(cells);
    for entry in entries {
        if !entry.usable {
            made.push(None);
            continue;
        }
        let data = &entry.data;
        if let Some(first) = names.get(data.name.as_str()) {
            problems.error(
                entry.name_at,
                format!(
                    "duplicate animation name '{}' (already used by animation {}); this one is left out",
                    data.name,
                    first + 1
                ),
            );
            made.push(None);
            continue;
        }
        let frames: usize = data.directions.iter().map(|d| d.num_frames as usize).sum();
        if total_frames.saturating_add(frames) > MAX_FRAMES_PER_FILE {
            if total_frames <= MAX_FRAMES_PER_FILE {
                // Said once; every later animation is left out too.
                total_frames = usize::MAX;
                problems.error(
                entry.name_at,
                format!(
                    "the file has more than {MAX_FRAMES_PER_FILE} frames in all; animation '{}' and the ones after it are left out",
                    data.name
                ),
            );
            }
            made.push(None);
            continue;
        }
        total_frames += frames;
        names.insert(&data.name, made.len());
        check_loop(entry, problems);
        let id = add_sequence(&mut document, &mut builder, entry, problems);
        made.push(Some(id));
    }
    document.default_sequence = made.iter().flatten().next().copied();
    (document, made)
}

/// The engine refuses a loop frame past the end of any direction.
fn check_loop(entry: &Entry, problems: &mut Problems) {
    let data = &entry.data;
    if data.loop_on_frame < 0 {
        return;
    }
    for (index, direction) in data.directions.iter().enumerate() {
        if data.loop_on_frame as u32 >= direction.num_frames {
            problems.error(
                entry.loop_at,
                format!(
                    "loop frame {} is out of range: direction {index} of '{}' has {} \
                     (frames count from 0); the engine refuses this",
                    data.loop_on_frame,
                    data.name,
                    crate::text::count(direction.num_frames as usize, "frame")
                ),
            );
            return;
        }
    }
}

/// The images of the document by the path the file spells, and their sizes for edge checks.
struct ImageTable {
    sprites: Option<PathBuf>,
    tileset: Option<PathBuf>,
    sizes: HashMap<ImageId, Option<(u32, u32)>>,
}

impl ImageTable {
    /// The image for `src_image`, added on first use.
    fn image(
        &mut self,
        document: &mut AnimationSet,
        src_image: &str,
        at: usize,
        problems: &mut Problems,
    ) -> ImageId {
        if let Some(image) = document.images.iter().find(|i| i.path == src_image) {
            return image.id;
        }
        let id = ImageId(document.alloc_id());
        let (kind, resolved) = if src_image == TILESET_KEYWORD {
            let chosen = self.tileset.clone();
            (
                ImageKind::SolarusTileset {
                    chosen: chosen.clone(),
                },
                chosen,
            )
        } else {
            (
                ImageKind::File,
                self.sprites.as_ref().map(|s| s.join(src_image)),
            )
        };
        let size = resolved.as_deref().and_then(|path| {
            let size = super::quest::image_size(path);
            if size.is_none() && src_image != TILESET_KEYWORD {
                problems.warning_about(
                    at,
                    format!(
                        "image '{src_image}' cannot be read at {}; its frames show empty",
                        path.display()
                    ),
                    Subject::Image(id),
                );
            }
            size
        });
        self.sizes.insert(id, size);
        document.images.push(SourceImage {
            id,
            path: src_image.to_string(),
            resolved,
            kind,
            nearest_neighbour: true,
        });
        id
    }
}

fn add_sequence(
    document: &mut AnimationSet,
    images: &mut ImageTable,
    entry: &Entry,
    problems: &mut Problems,
) -> SequenceId {
    let data: &AnimationData = &entry.data;
    let image = images.image(document, &data.src_image, entry.name_at, problems);
    let id = SequenceId(document.alloc_id());
    let duration = match data.frame_delay {
        0 => FrameDuration::Forever,
        ms => FrameDuration::Millis(ms),
    };
    let mut directions = Vec::with_capacity(data.directions.len());
    for (index, direction) in data.directions.iter().enumerate() {
        let direction_id = DirectionId(document.alloc_id());
        let mut frames = Vec::with_capacity(direction.num_frames as usize);
        let mut past_edge = Vec::new();
        for frame_index in 0..direction.num_frames {
            let (x, y, width, height) = direction.frame_rect(frame_index);
            if let Some(Some((image_width, image_height))) = images.sizes.get(&image)
                && (x < 0
                    || y < 0
                    || x + width as i64 > *image_width as i64
                    || y + height as i64 > *image_height as i64)
            {
                past_edge.push(frame_index);
            }
            let slice = SliceId(document.alloc_id());
            document.slices.push(Slice {
                id: slice,
                image,
                rect: PixelRect {
                    x: x.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
                    y: y.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
                    width,
                    height,
                },
                rotated: false,
            });
            let frame_id = FrameId(document.alloc_id());
            let element = ElementId(document.alloc_id());
            let mut frame = Frame::new(duration);
            // One element, held in a vector of one (a push would reserve four).
            frame.elements = vec![Element {
                id: element,
                name: Name::default(),
                kind: ElementKind::Graphic(Graphic::new(
                    GraphicSource::Slice(slice),
                    Point::ZERO,
                    Origin::At(Point::from_ints(direction.origin_x, direction.origin_y)),
                )),
            }];
            document.frames.insert(frame_id, frame);
            frames.push(frame_id);
        }
        if !past_edge.is_empty()
            && let Some(Some((w, h))) = images.sizes.get(&image)
        {
            let list: Vec<String> = past_edge.iter().map(u32::to_string).collect();
            problems.warning_about(
                entry
                    .direction_at
                    .get(index)
                    .copied()
                    .unwrap_or(entry.name_at),
                format!(
                    "direction {index} of '{}': {} {} {} past the edge of '{}' ({w}×{h}); \
                     {} kept and shown as far as the image goes",
                    data.name,
                    crate::text::word(list.len(), "frame"),
                    list.join(", "),
                    if list.len() == 1 { "runs" } else { "run" },
                    data.src_image,
                    if list.len() == 1 { "it is" } else { "they are" },
                ),
                Subject::Sequence(id),
            );
        }
        directions.push(Direction {
            id: direction_id,
            name: None,
            frames,
        });
    }
    let sequence = Sequence {
        id,
        name: data.name.clone(),
        directions,
        loop_point: usize::try_from(data.loop_on_frame).ok(),
        on_end: if data.loop_on_frame < 0 && data.frame_delay != 0 {
            EndBehavior::Disappear
        } else {
            EndBehavior::HoldLastFrame
        },
        follow_up: None,
        frame_rate: None,
        title: None,
    };
    document.root.items.push(TreeItem::Sequence(sequence));
    id
}
