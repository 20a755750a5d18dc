//! An `.sff` opened on its own, for browsing: every sprite as a (group, image) list.
//!
//! Each sprite group becomes a sequence named "group N" whose frames are the group's images in
//! ascending image number, each a graphic of the sprite placed by its own axis. The sprites
//! have no timing of their own, so every frame lasts [`BROWSE_TICKS`] game ticks (a tenth of a
//! second, the pace of a typical M.U.G.E.N animation), and each group loops, so flipping
//! through a group previews it as the animation it usually is. When two sprites share a
//! (group, image) pair only the first is listed, as the engine only ever shows that one.
//!
//! The format is read-only: `write` explains that and writes nothing.

use super::archive::SffArchive;
use super::index::SIGNATURE;
use crate::formats::{
    Capabilities, Diagnostic, Format, Loaded, ReadContext, ReadFailure, Sniff, WriteContext,
    WriteError, Written,
};
use crate::model::{
    AnimationSet, DirectionId, Element, ElementId, ElementKind, Frame, FrameDuration, FrameId,
    Graphic, GraphicSource, ImageId, ImageKind, Origin, PaletteSource, Point, Sequence, SequenceId,
    SourceImage, TreeItem,
};
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

/// How long each sprite shows when a group is played: 6 ticks at 60 per second.
pub const BROWSE_TICKS: u32 = 6;

/// The `.sff` format (read only).
pub struct SffFormat;

impl Format for SffFormat {
    fn id(&self) -> &'static str {
        "mugen-sff"
    }

    fn name(&self) -> &'static str {
        "M.U.G.E.N sprite archive (SFF v1/v2, read only)"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["sff"]
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            read: true,
            ..Capabilities::default()
        }
    }

    fn sniff(&self, bytes: &[u8]) -> Sniff {
        if bytes.starts_with(SIGNATURE) {
            Sniff::Yes
        } else {
            Sniff::No
        }
    }

    fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
        let archive = SffArchive::parse(bytes.to_vec()).map_err(ReadFailure::single)?;
        let mut document = AnimationSet::new();
        let image = ImageId(document.alloc_id());
        document.images.push(SourceImage {
            id: image,
            path: context
                .path
                .as_deref()
                .and_then(|p| p.file_name())
                .map_or_else(
                    || "sprites.sff".to_string(),
                    |n| n.to_string_lossy().into_owned(),
                ),
            resolved: context.path.clone(),
            kind: ImageKind::Sff {
                palettes: (0..archive.palette_count() as u32)
                    .map(PaletteSource::Embedded)
                    .collect(),
                active_palette: None,
            },
            nearest_neighbour: true,
        });
        let mut diagnostics = archive.diagnostics().to_vec();

        // group -> image -> first sprite with that pair.
        let mut groups: BTreeMap<u16, BTreeMap<u16, usize>> = BTreeMap::new();
        for (i, sprite) in archive.sprites().iter().enumerate() {
            let images = groups.entry(sprite.group).or_default();
            if let Entry::Vacant(slot) = images.entry(sprite.image) {
                slot.insert(i);
            } else {
                diagnostics.push(Diagnostic::warning_at_byte(
                    sprite.header_offset,
                    format!(
                        "sprite {},{} appears again; only the first one is used",
                        sprite.group, sprite.image
                    ),
                ));
            }
        }
        for (group, images) in groups {
            let id = SequenceId(document.alloc_id());
            let direction = DirectionId(document.alloc_id());
            let mut sequence = Sequence::new(id, format!("group {group}"), direction);
            for number in images.keys() {
                let frame_id = FrameId(document.alloc_id());
                let mut frame = Frame::new(FrameDuration::Ticks(BROWSE_TICKS));
                frame.elements.push(Element {
                    id: ElementId(document.alloc_id()),
                    name: String::new(),
                    kind: ElementKind::Graphic(Graphic::new(
                        GraphicSource::SffSprite {
                            archive: image,
                            group: group as i32,
                            image: *number as i32,
                        },
                        Point::from_ints(0, 0),
                        Origin::SourceAxis,
                    )),
                });
                document.frames.insert(frame_id, frame);
                sequence.directions[0].frames.push(frame_id);
            }
            document.root.items.push(TreeItem::Sequence(sequence));
        }
        document.original = Some(context.original(self.id(), bytes));
        Ok(Loaded {
            document,
            diagnostics,
        })
    }

    fn write(
        &self,
        _document: &AnimationSet,
        _context: &WriteContext,
    ) -> Result<Written, WriteError> {
        Err(WriteError::new(
            "SFF archives are read-only in Sprat: save the animations in another format \
             (such as AIR); the sprites stay in the .sff",
        ))
    }
}
