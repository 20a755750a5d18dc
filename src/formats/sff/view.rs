//! The sequences an `.sff` opened on its own shows: a view of its sprite groups, derived from
//! the archive and never written back.
//!
//! Each sprite group becomes a sequence named "group N" whose frames are the group's images in
//! ascending image number, each a graphic of the sprite placed by its own axis. The sprites
//! have no timing of their own, so every frame lasts [`BROWSE_TICKS`] game ticks (a tenth of a
//! second, the pace of a typical M.U.G.E.N animation), and each group loops, so flipping
//! through a group previews it as the animation it usually is. When two sprites share a
//! (group, image) pair only the first is listed, as the engine only ever shows that one.

use super::archive::SffArchive;
use crate::formats::Diagnostic;
use crate::model::{
    AnimationSet, DirectionId, Element, ElementId, ElementKind, Frame, FrameDuration, FrameId,
    Graphic, GraphicSource, ImageId, Name, Origin, Point, Sequence, SequenceId, TreeItem,
};
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

/// How long each sprite shows when a group is played: 6 ticks at 60 per second.
pub const BROWSE_TICKS: u32 = 6;

/// Adds one sequence per sprite group of `archive` (image `image` of `document`) to the
/// document's tree; the warnings about sprites that repeat a (group, image) pair.
pub fn add_group_sequences(
    document: &mut AnimationSet,
    archive: &SffArchive,
    image: ImageId,
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
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
    // Exactly the room needed: a large archive's frames grown by doubling left a third unused.
    document
        .frames
        .reserve_exact(groups.values().map(BTreeMap::len).sum());
    document.root.items.reserve_exact(groups.len());
    for (group, images) in groups {
        let id = SequenceId(document.alloc_id());
        let direction = DirectionId(document.alloc_id());
        let mut sequence = Sequence::new(id, format!("group {group}"), direction);
        sequence.directions[0].frames.reserve_exact(images.len());
        for number in images.keys() {
            let frame_id = FrameId(document.alloc_id());
            let mut frame = Frame::new(FrameDuration::Ticks(BROWSE_TICKS));
            // One element, held in a vector of one (a push would reserve four).
            frame.elements = vec![Element {
                id: ElementId(document.alloc_id()),
                name: Name::default(),
                kind: ElementKind::Graphic(sprite_graphic(image, group, *number)),
            }];
            document.frames.insert(frame_id, frame);
            sequence.directions[0].frames.push(frame_id);
        }
        document.root.items.push(TreeItem::Sequence(sequence));
    }
    diagnostics
}

/// Sprite (group, number) of archive `image`, drawn as the view draws it: at the frame's
/// origin, by its own axis, with no flip or transform.
fn sprite_graphic(image: ImageId, group: u16, number: u16) -> Graphic {
    Graphic::new(
        GraphicSource::SffSprite {
            archive: image,
            group: group.into(),
            image: number.into(),
        },
        Point::ZERO,
        Origin::SourceAxis,
    )
}

/// Whether `graphic` is drawn as the view draws a sprite (whatever sprite it names): nothing
/// about it but the sprite it shows would be lost in an archive.
pub fn is_plain_sprite(graphic: &Graphic) -> bool {
    *graphic == Graphic::new(graphic.source.clone(), Point::ZERO, Origin::SourceAxis)
        && matches!(graphic.source, GraphicSource::SffSprite { .. })
}
