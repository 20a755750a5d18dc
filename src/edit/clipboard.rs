//! Copying frames between sequences and between open documents.
//!
//! A [`FrameClipboard`] is a self-contained value: the frames plus the images and slices their
//! graphics draw from. Pasting maps those onto the target document (reusing an image that is
//! the same file, a slice that is the same rectangle) and gives everything new ids.

use super::command::Command;
use super::common_steps::{check_positions, direction_frames, sorted_unique};
use super::error::{EditError, EditResult};
use super::snapshot::Tx;
use super::timeline::{check_duration_unit, insert_ids};
use crate::model::{
    AnimationSet, CollisionBox, DefaultBoxRule, ElementId, ElementKind, Frame, FrameId,
    GraphicSource, ImageId, SequenceId, Slice, SliceId, SourceImage, effective_boxes,
};
use std::collections::HashMap;

/// Frames copied from a document, with what they need to be pasted anywhere.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameClipboard {
    /// The frames, in timeline order (ids inside refer to `images` and `slices`).
    pub frames: Vec<Frame>,
    /// The images the frames draw from, with their ids in the source document.
    pub images: Vec<SourceImage>,
    /// The slices the frames draw from, with their ids in the source document.
    pub slices: Vec<Slice>,
    /// The collision boxes each frame showed, its own and those it inherited (M.U.G.E.N
    /// defaults), in frame order: what Paste special pastes as boxes.
    pub shown_boxes: Vec<Vec<CollisionBox>>,
    /// The frame rate the frames' holds played at (ISPRITE), 0 when none: what Paste special
    /// needs to turn them into time.
    pub frame_rate: u32,
}

impl FrameClipboard {
    /// Copies the frames at `positions` (timeline order) of a direction.
    pub fn copy(
        document: &AnimationSet,
        sequence: SequenceId,
        direction: usize,
        positions: &[usize],
    ) -> EditResult<FrameClipboard> {
        let ids = direction_frames(document, sequence, direction)?;
        check_positions(positions, ids.len())?;
        let source = document.sequence(sequence).expect("checked above");
        let played = document.direction_frames(source, direction);
        let mut clipboard = FrameClipboard {
            frames: Vec::new(),
            images: Vec::new(),
            slices: Vec::new(),
            shown_boxes: Vec::new(),
            frame_rate: source.frame_rate.or(document.frame_rate).unwrap_or(0),
        };
        for p in sorted_unique(positions) {
            let frame = document
                .frame(ids[p])
                .ok_or_else(|| EditError::new(format!("frame {} does not exist", ids[p])))?;
            clipboard.add_sources_of(document, frame);
            clipboard.frames.push(frame.clone());
            let shown = if played.len() == ids.len() {
                effective_boxes(&played, p, DefaultBoxRule::default())
                    .into_iter()
                    .map(|b| b.collision.clone())
                    .collect()
            } else {
                frame.boxes().map(|(_, b)| b.clone()).collect()
            };
            clipboard.shown_boxes.push(shown);
        }
        Ok(clipboard)
    }

    fn add_sources_of(&mut self, document: &AnimationSet, frame: &Frame) {
        for element in &frame.elements {
            let ElementKind::Graphic(graphic) = &element.kind else {
                continue;
            };
            let image = match &graphic.source {
                GraphicSource::Slice(id) => match document.slice(*id) {
                    Some(slice) => {
                        if !self.slices.iter().any(|s| s.id == slice.id) {
                            self.slices.push(slice.clone());
                        }
                        slice.image
                    }
                    None => continue,
                },
                GraphicSource::Image(id) => *id,
                GraphicSource::SffSprite { archive, .. } => *archive,
            };
            if let Some(image) = document.image(image)
                && !self.images.iter().any(|i| i.id == image.id)
            {
                self.images.push(image.clone());
            }
        }
    }
}

/// Pastes a clipboard's frames at a position of a direction.
#[derive(Clone, Debug)]
pub struct PasteFrames {
    /// What to paste.
    pub clipboard: FrameClipboard,
    /// The target sequence.
    pub sequence: SequenceId,
    /// The target direction index.
    pub direction: usize,
    /// Where: 0 = before the first frame, the frame count = at the end.
    pub index: usize,
}

impl Command for PasteFrames {
    fn label(&self) -> String {
        crate::text::acting_on("Paste", self.clipboard.frames.len(), "frame")
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.clipboard.frames.is_empty() {
            return Err(EditError::new("the clipboard holds no frame"));
        }
        for frame in &self.clipboard.frames {
            check_duration_unit(tx.doc(), None, frame.duration)?;
        }
        direction_frames(tx.doc(), self.sequence, self.direction)?;
        let images = map_images(tx, &self.clipboard.images);
        let slices = map_slices(tx, &self.clipboard.slices, &images);
        let mut ids: Vec<FrameId> = Vec::new();
        for frame in &self.clipboard.frames {
            let mut copy = frame.clone();
            for element in &mut copy.elements {
                element.id = ElementId(tx.alloc_id());
                if let ElementKind::Graphic(graphic) = &mut element.kind {
                    remap_source(&mut graphic.source, &images, &slices);
                }
            }
            ids.push(tx.add_frame(copy));
        }
        insert_ids(tx, self.sequence, self.direction, self.index, &ids)
    }
}

/// The target image for each clipboard image: the same file if the target has it, else a new one.
fn map_images(tx: &mut Tx, images: &[SourceImage]) -> HashMap<ImageId, ImageId> {
    let mut map = HashMap::new();
    for image in images {
        let existing = tx
            .doc()
            .images
            .iter()
            .find(|target| same_image(target, image));
        let id = match existing {
            Some(target) => target.id,
            None => {
                let id = ImageId(tx.alloc_id());
                let mut copy = image.clone();
                copy.id = id;
                tx.images_mut().push(copy);
                id
            }
        };
        map.insert(image.id, id);
    }
    map
}

fn same_image(a: &SourceImage, b: &SourceImage) -> bool {
    match (&a.resolved, &b.resolved) {
        (Some(x), Some(y)) => x == y,
        _ => a.path == b.path && a.kind == b.kind,
    }
}

/// The target slice for each clipboard slice: the same rectangle of the same image, else a new one.
fn map_slices(
    tx: &mut Tx,
    slices: &[Slice],
    images: &HashMap<ImageId, ImageId>,
) -> HashMap<SliceId, SliceId> {
    let mut map = HashMap::new();
    for slice in slices {
        let image = images.get(&slice.image).copied().unwrap_or(slice.image);
        let existing = tx
            .doc()
            .slices
            .iter()
            .find(|s| s.image == image && s.rect == slice.rect && s.rotated == slice.rotated);
        let id = match existing {
            Some(target) => target.id,
            None => {
                let id = SliceId(tx.alloc_id());
                tx.slices_mut().push(Slice {
                    id,
                    image,
                    rect: slice.rect,
                    rotated: slice.rotated,
                });
                id
            }
        };
        map.insert(slice.id, id);
    }
    map
}

fn remap_source(
    source: &mut GraphicSource,
    images: &HashMap<ImageId, ImageId>,
    slices: &HashMap<SliceId, SliceId>,
) {
    match source {
        GraphicSource::Slice(id) => {
            if let Some(new) = slices.get(id) {
                *id = *new;
            }
        }
        GraphicSource::Image(id) | GraphicSource::SffSprite { archive: id, .. } => {
            if let Some(new) = images.get(id) {
                *id = *new;
            }
        }
    }
}
