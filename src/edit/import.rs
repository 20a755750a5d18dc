//! Importing drawn frames: pictures (PNG files, or the cells of one sprite sheet) become frames
//! of a sequence, appended to one or in a new sequence, as one undo step.
//!
//! The pixels are held in memory ([`ImageKind::Memory`]) with the file they came from as their
//! `resolved` path, so the editor watches that file, and each format decides on save where
//! they go (a Sprat project writes them to its `images/` folder; see
//! [`crate::formats::sprat::images`]).

use super::Command;
use super::common_steps::{check_sequence_name, direction_frames};
use super::error::{EditError, EditResult};
use super::selection::Selection;
use super::sheet::{slice_for, slice_frame};
use super::snapshot::Tx;
use super::timeline::insert_ids;
use crate::model::{
    AnimationSet, DirectionId, FrameDuration, GraphicSource, ImageId, ImageKind, MemoryImage,
    Origin, PixelRect, Point, Sequence, SequenceId, SourceImage, TreeItem,
};
use std::path::PathBuf;

/// One picture to import: its pixels and where they came from.
#[derive(Clone, Debug)]
pub struct ImportedImage {
    /// The name the document will know it by (the file's name, `run_2.png`).
    pub name: String,
    /// The file it was read from, watched for changes.
    pub source: Option<PathBuf>,
    /// The decoded pixels.
    pub pixels: MemoryImage,
}

/// Where a frame's origin sits in its picture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OriginPlace {
    /// At the middle of the bottom edge: where a standing character's feet are.
    #[default]
    BottomCentre,
    /// At the centre.
    Centre,
    /// At the top-left corner.
    TopLeft,
}

impl OriginPlace {
    /// Every place, in the order the import window lists them.
    pub const ALL: [OriginPlace; 3] = [
        OriginPlace::BottomCentre,
        OriginPlace::Centre,
        OriginPlace::TopLeft,
    ];

    /// The name the import window shows.
    pub fn label(self) -> &'static str {
        match self {
            OriginPlace::BottomCentre => "Bottom centre",
            OriginPlace::Centre => "Centre",
            OriginPlace::TopLeft => "Top-left corner",
        }
    }

    /// The place where `document`'s own frames have their origin, so imported frames line up
    /// with them: the first graphic whose picture size the document knows (a slice's
    /// rectangle, pixels held in memory) and whose origin is one of the places decides. An
    /// Aseprite file's frames have it at the canvas' top-left corner, so pictures imported
    /// there land on the canvas; the bottom centre where nothing decides.
    pub fn matching(document: &AnimationSet) -> OriginPlace {
        let graphics = document
            .frames
            .values()
            .flat_map(|frame| frame.elements.iter())
            .filter_map(|element| element.as_graphic());
        for graphic in graphics {
            let Origin::At(origin) = graphic.origin else {
                continue;
            };
            let size = match graphic.source {
                GraphicSource::Slice(id) => {
                    document.slice(id).map(|s| (s.rect.width, s.rect.height))
                }
                GraphicSource::Image(id) => match document.image(id).map(|i| &i.kind) {
                    Some(ImageKind::Memory(pixels)) => Some(pixels.0.dimensions()),
                    _ => None,
                },
                GraphicSource::SffSprite { .. } => None,
            };
            let Some((width, height)) = size else {
                continue;
            };
            if let Some(place) = OriginPlace::ALL
                .into_iter()
                .find(|place| place.in_picture(width, height) == origin)
            {
                return place;
            }
        }
        OriginPlace::default()
    }

    /// The origin in a `width` × `height` picture, from its top-left corner (whole pixels).
    pub fn in_picture(self, width: u32, height: u32) -> Point {
        let (w, h) = (width as i32, height as i32);
        match self {
            OriginPlace::BottomCentre => Point::from_ints(w / 2, h),
            OriginPlace::Centre => Point::from_ints(w / 2, h / 2),
            OriginPlace::TopLeft => Point::from_ints(0, 0),
        }
    }
}

/// Where the imported frames go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportTarget {
    /// After the last frame of a direction of a sequence.
    Append {
        /// The sequence.
        sequence: SequenceId,
        /// The direction index.
        direction: usize,
    },
    /// A new sequence with this name, at the end of the tree's top level.
    NewSequence(String),
}

/// Adds pictures to the document and one frame per cell, in order.
#[derive(Clone, Debug)]
pub struct ImportFrames {
    /// The pictures.
    pub images: Vec<ImportedImage>,
    /// The frames: a picture (index into `images`) and the rectangle of it each shows
    /// (`None` = the whole picture).
    pub cells: Vec<(usize, Option<PixelRect>)>,
    /// Where each frame's origin is.
    pub origin: OriginPlace,
    /// How long each frame shows.
    pub duration: FrameDuration,
    /// Where the frames go.
    pub target: ImportTarget,
}

impl Command for ImportFrames {
    fn label(&self) -> String {
        format!("Import {}", crate::text::count(self.cells.len(), "frame"))
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.cells.is_empty() {
            return Err(EditError::new("there is nothing to import"));
        }
        let (sequence, direction) = match &self.target {
            ImportTarget::Append {
                sequence,
                direction,
            } => {
                direction_frames(tx.doc(), *sequence, *direction)?;
                (*sequence, *direction)
            }
            ImportTarget::NewSequence(name) => (new_sequence(tx, name)?, 0),
        };
        let mut ids = Vec::with_capacity(self.images.len());
        for image in &self.images {
            let id = ImageId(tx.alloc_id());
            tx.images_mut().push(SourceImage {
                id,
                path: image.name.clone(),
                resolved: image.source.clone(),
                kind: ImageKind::Memory(image.pixels.clone()),
                nearest_neighbour: true,
            });
            ids.push((id, image.pixels.0.dimensions()));
        }
        let mut frames = Vec::with_capacity(self.cells.len());
        for &(picture, rect) in &self.cells {
            let &(image, (width, height)) = ids.get(picture).ok_or_else(|| {
                EditError::new(format!("picture {picture} is not among those imported"))
            })?;
            let rect = rect.unwrap_or(PixelRect {
                x: 0,
                y: 0,
                width,
                height,
            });
            let inside = rect.x >= 0
                && rect.y >= 0
                && rect.width > 0
                && rect.height > 0
                && rect.x as u64 + rect.width as u64 <= width as u64
                && rect.y as u64 + rect.height as u64 <= height as u64;
            if !inside {
                return Err(EditError::new(format!(
                    "the cell {}x{} at ({}, {}) is not inside the {width}x{height} picture",
                    rect.width, rect.height, rect.x, rect.y
                )));
            }
            let slice = slice_for(tx, image, rect);
            let origin = self.origin.in_picture(rect.width, rect.height);
            let frame = slice_frame(tx, slice, origin, self.duration);
            frames.push(tx.add_frame(frame));
        }
        let at = direction_frames(tx.doc(), sequence, direction)?.len();
        insert_ids(tx, sequence, direction, at, &frames)?;
        tx.select(Selection::frames(
            sequence,
            direction,
            (at..at + frames.len()).collect(),
        ));
        Ok(())
    }
}

/// Several new sequences at once (a folder of image sequences), each the frames of one
/// [`ImportFrames`], as one undo step; the frames of the last are selected.
#[derive(Clone, Debug)]
pub struct ImportSequences {
    /// One import per sequence, in the order the sequences are added.
    pub sequences: Vec<ImportFrames>,
}

impl Command for ImportSequences {
    fn label(&self) -> String {
        format!(
            "Import {}",
            crate::text::count(self.sequences.len(), "sequence")
        )
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.sequences.is_empty() {
            return Err(EditError::new("there is nothing to import"));
        }
        for sequence in &self.sequences {
            sequence.apply(tx)?;
        }
        Ok(())
    }
}

/// Adds an empty sequence named `name` at the end of the top level.
fn new_sequence(tx: &mut Tx, name: &str) -> EditResult<SequenceId> {
    check_sequence_name(tx.doc(), name, None)?;
    let id = SequenceId(tx.alloc_id());
    let direction = DirectionId(tx.alloc_id());
    tx.root_mut()
        .items
        .push(TreeItem::Sequence(Sequence::new(id, name, direction)));
    Ok(id)
}

/// `millis` in the unit of `example` (a frame of the document), so imported frames count
/// time as the document's other frames do; milliseconds when the document has none.
pub fn duration_like(
    example: Option<FrameDuration>,
    millis: u32,
    frame_rate: u32,
) -> FrameDuration {
    let scaled = |per_second: u64| {
        let units = (millis as u64 * per_second + 500) / 1000;
        units.clamp(1, u32::MAX as u64) as u32
    };
    match example {
        Some(FrameDuration::Ticks(_)) => FrameDuration::Ticks(scaled(60)),
        Some(FrameDuration::Holds(_)) => FrameDuration::Holds(scaled(frame_rate.max(1) as u64)),
        Some(FrameDuration::Seconds { .. }) => FrameDuration::Seconds {
            nanos: millis as u64 * 1_000_000,
        },
        _ => FrameDuration::Millis(millis.max(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::History;
    use crate::model::{AnimationSet, GraphicSource};

    fn picture(name: &str, width: u32, height: u32) -> ImportedImage {
        ImportedImage {
            name: name.into(),
            source: Some(PathBuf::from(format!("/art/{name}"))),
            pixels: MemoryImage::new(image::RgbaImage::new(width, height)),
        }
    }

    /// Importing the `cells` of `images` as a new sequence `name`, frames of 80 ms.
    fn new_sequence(
        name: &str,
        images: Vec<ImportedImage>,
        cells: Vec<(usize, Option<PixelRect>)>,
        origin: OriginPlace,
    ) -> ImportFrames {
        ImportFrames {
            images,
            cells,
            origin,
            duration: FrameDuration::Millis(80),
            target: ImportTarget::NewSequence(name.into()),
        }
    }

    #[test]
    fn the_place_matching_a_document_is_where_its_frames_have_their_origin() {
        assert_eq!(
            OriginPlace::matching(&AnimationSet::new()),
            OriginPlace::BottomCentre,
            "nothing decides"
        );
        for place in OriginPlace::ALL {
            let mut doc = AnimationSet::new();
            let command = new_sequence("a", vec![picture("a.png", 9, 7)], vec![(0, None)], place);
            History::new()
                .apply(&mut doc, &Selection::default(), &command, None)
                .unwrap();
            assert_eq!(OriginPlace::matching(&doc), place);
        }
    }

    #[test]
    fn pictures_become_a_new_sequence_in_one_undo_step() {
        let mut doc = AnimationSet::new();
        let mut history = History::new();
        let images = vec![picture("run_1.png", 8, 10), picture("run_2.png", 8, 10)];
        let cells = vec![(0, None), (1, None)];
        let command = new_sequence("run", images, cells, OriginPlace::BottomCentre);
        history
            .apply(&mut doc, &Selection::default(), &command, None)
            .unwrap();
        let run = doc.sequence_by_name("run").unwrap();
        assert_eq!(run.directions[0].frames.len(), 2);
        assert_eq!(doc.images.len(), 2);
        let frame = doc.frame(run.directions[0].frames[1]).unwrap();
        assert_eq!(frame.duration, FrameDuration::Millis(80));
        let graphic = frame.elements[0].as_graphic().unwrap();
        let GraphicSource::Slice(slice) = graphic.source else {
            panic!("a slice");
        };
        assert_eq!(doc.slice(slice).unwrap().rect.height, 10);
        assert_eq!(
            graphic.origin,
            crate::model::Origin::At(Point::from_ints(4, 10)),
            "bottom centre"
        );
        assert_eq!(history.done_count(), 1);
        history.undo(&mut doc);
        assert!(doc.images.is_empty() && doc.frames.is_empty());
        assert!(doc.sequence_by_name("run").is_none());
    }

    #[test]
    fn several_sequences_land_in_one_undo_step_or_none_does() {
        let mut doc = AnimationSet::new();
        let mut history = History::new();
        let selection = Selection::default();
        let group = |name: &str, count: usize| {
            let images = (0..count)
                .map(|i| picture(&format!("{name}_{i}.png"), 4, 6))
                .collect();
            let cells = (0..count).map(|i| (i, None)).collect();
            new_sequence(name, images, cells, OriginPlace::BottomCentre)
        };
        let command = ImportSequences {
            sequences: vec![group("run", 8), group("jump", 6)],
        };
        history.apply(&mut doc, &selection, &command, None).unwrap();
        assert_eq!(history.done_count(), 1);
        for (name, count) in [("run", 8), ("jump", 6)] {
            let sequence = doc.sequence_by_name(name).unwrap();
            assert_eq!(sequence.directions[0].frames.len(), count);
        }
        history.undo(&mut doc);
        assert!(doc.sequences().is_empty() && doc.images.is_empty());
        // A name taken twice refuses the whole import.
        let twice = ImportSequences {
            sequences: vec![group("run", 2), group("run", 3)],
        };
        assert!(history.apply(&mut doc, &selection, &twice, None).is_err());
        assert!(doc.sequences().is_empty() && doc.images.is_empty());
    }

    #[test]
    fn a_cell_outside_its_picture_is_refused_and_nothing_lands() {
        let mut doc = AnimationSet::new();
        let outside = PixelRect {
            x: 8,
            y: 8,
            width: 16,
            height: 8,
        };
        let images = vec![picture("sheet.png", 16, 16)];
        let cells = vec![(0, None), (0, Some(outside))];
        let command = new_sequence("sheet", images, cells, OriginPlace::TopLeft);
        let refused = History::new().apply(&mut doc, &Selection::default(), &command, None);
        assert!(refused.is_err());
        assert!(doc.images.is_empty() && doc.sequences().is_empty());
    }

    #[test]
    fn durations_follow_the_documents_unit() {
        assert_eq!(
            duration_like(Some(FrameDuration::Ticks(4)), 100, 0),
            FrameDuration::Ticks(6)
        );
        assert_eq!(
            duration_like(Some(FrameDuration::Holds(1)), 100, 30),
            FrameDuration::Holds(3)
        );
        assert_eq!(duration_like(None, 100, 0), FrameDuration::Millis(100));
        assert_eq!(
            duration_like(Some(FrameDuration::Seconds { nanos: 1 }), 25, 0),
            FrameDuration::Seconds { nanos: 25_000_000 }
        );
    }
}
