//! Edits of a M.U.G.E.N character's sprites (its SFF archive): the archive after the change,
//! prepared by the caller with [`crate::formats::sff::edit::EditableSff`] (which refuses a
//! sprite that cannot be stored, with the reason), becomes the document's unsaved contents of
//! that archive; frames that name a renumbered sprite follow it, and frames that show a
//! deleted sprite lose that graphic. One undo step, which gives the previous archive back.

use super::Command;
use super::common_steps::direction_frames;
use super::error::{EditError, EditResult};
use super::snapshot::Tx;
use super::timeline::insert_ids;
use crate::formats::sff::edit::EditableSff;
use crate::formats::sff::write::write_sff;
use crate::model::{
    AnimationSet, EditedFile, Element, ElementId, ElementKind, Frame, FrameDuration, FrameId,
    Graphic, GraphicSource, ImageId, Name, Origin, Point, SequenceId,
};
use std::sync::Arc;

/// A sprite's numbers: group and image.
pub type SpriteNumber = (u16, u16);

/// Replaces an archive's contents with an edited archive, carrying the frames along.
#[derive(Clone, Debug)]
pub struct ChangeSprites {
    /// What the history calls it ("Move the axis of 0,0").
    pub label: String,
    /// The archive (an image of kind SFF).
    pub image: ImageId,
    /// The archive after the change.
    pub archive: EditableSff,
    /// Sprites given new numbers: every frame naming the old number names the new one.
    pub renumbered: Vec<(SpriteNumber, SpriteNumber)>,
    /// Sprites deleted while frames showed them: those frames lose that graphic.
    pub cleared: Vec<SpriteNumber>,
}

impl Command for ChangeSprites {
    fn label(&self) -> String {
        self.label.clone()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if tx.doc().image(self.image).is_none() {
            return Err(EditError::new(format!(
                "image {} is not in this document",
                self.image.0
            )));
        }
        if !self.archive.changed {
            return Ok(());
        }
        let bytes = Arc::new(write_sff(&self.archive).map_err(|e| EditError::new(e.message))?);
        EditedFile::put(tx.edited_files_mut(), self.image, None, bytes);
        for (id, number) in frames_naming(tx.doc(), self.image) {
            let renumbered = self
                .renumbered
                .iter()
                .find(|(from, _)| *from == number)
                .map(|(_, to)| *to);
            let cleared = self.cleared.contains(&number);
            if renumbered.is_none() && !cleared {
                continue;
            }
            let frame = tx.frame_mut(id)?;
            frame.elements.retain_mut(|element| {
                let Some(graphic) = element.as_graphic_mut() else {
                    return true;
                };
                let GraphicSource::SffSprite {
                    archive,
                    group,
                    image,
                } = &mut graphic.source
                else {
                    return true;
                };
                if *archive != self.image || (*group, *image) != (number.0 as i32, number.1 as i32)
                {
                    return true;
                }
                if let Some((g, i)) = renumbered {
                    (*group, *image) = (g as i32, i as i32);
                    return true;
                }
                false
            });
        }
        Ok(())
    }
}

/// Inserts a frame showing one sprite at its own axis (a sprite dragged onto the timeline).
#[derive(Clone, Debug)]
pub struct InsertSpriteFrame {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// Where: 0 = before the first frame, the frame count = at the end.
    pub index: usize,
    /// The archive.
    pub archive: ImageId,
    /// The sprite.
    pub number: SpriteNumber,
    /// How long the frame shows.
    pub duration: FrameDuration,
}

impl Command for InsertSpriteFrame {
    fn label(&self) -> String {
        format!("Add a frame of sprite {},{}", self.number.0, self.number.1)
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        direction_frames(tx.doc(), self.sequence, self.direction)?;
        let mut frame = Frame::new(self.duration);
        frame.elements.push(Element {
            id: ElementId(tx.alloc_id()),
            name: Name::default(),
            kind: ElementKind::Graphic(Graphic::new(
                GraphicSource::SffSprite {
                    archive: self.archive,
                    group: self.number.0 as i32,
                    image: self.number.1 as i32,
                },
                Point::ZERO,
                Origin::SourceAxis,
            )),
        });
        let id = tx.add_frame(frame);
        insert_ids(tx, self.sequence, self.direction, self.index, &[id])
    }
}

/// Chooses the palette a character's sprites are shown with: a `.def`'s `pal1`..`pal12`, or
/// one of the archive's own palettes (added to the choices when it was not one); `None` =
/// each sprite's own colours.
#[derive(Clone, Debug)]
pub struct SetPreviewPalette {
    /// The archive.
    pub image: ImageId,
    /// The palette.
    pub palette: Option<crate::model::PaletteSource>,
}

impl Command for SetPreviewPalette {
    fn label(&self) -> String {
        "Choose the preview palette".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let id = self.image;
        if !matches!(
            tx.doc().image(id).map(|i| &i.kind),
            Some(crate::model::ImageKind::Sff { .. })
        ) {
            return Err(EditError::new(format!(
                "image {} is not a sprite archive",
                id.0
            )));
        }
        for image in tx.images_mut().iter_mut().filter(|i| i.id == id) {
            if let crate::model::ImageKind::Sff {
                palettes,
                active_palette,
            } = &mut image.kind
            {
                *active_palette = self.palette.as_ref().map(|wanted| {
                    palettes
                        .iter()
                        .position(|p| p == wanted)
                        .unwrap_or_else(|| {
                            palettes.push(wanted.clone());
                            palettes.len() - 1
                        })
                });
            }
        }
        Ok(())
    }
}

/// New colours for a `.act` palette a character names (its `palN`): held as the file's unsaved
/// contents and written beside the character when it is saved.
#[derive(Clone, Debug)]
pub struct SetActPalette {
    /// The archive whose palette sources name the `.act`.
    pub image: ImageId,
    /// The palette source (index into the image's palettes), an `.act` file.
    pub palette: usize,
    /// The `.act` file's new bytes (768: colours in reverse index order).
    pub bytes: Arc<Vec<u8>>,
}

impl Command for SetActPalette {
    fn label(&self) -> String {
        "Change a palette colour".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let is_act = matches!(
            tx.doc().image(self.image).map(|i| &i.kind),
            Some(crate::model::ImageKind::Sff { palettes, .. })
                if matches!(palettes.get(self.palette), Some(crate::model::PaletteSource::ActFile { .. }))
        );
        if !is_act {
            return Err(EditError::new(format!(
                "palette {} of image {} is not a .act file",
                self.palette, self.image.0
            )));
        }
        crate::formats::sff::Palette::from_act(&self.bytes).map_err(EditError::new)?;
        EditedFile::put(
            tx.edited_files_mut(),
            self.image,
            Some(self.palette),
            Arc::clone(&self.bytes),
        );
        Ok(())
    }
}

/// Every (frame, sprite number) where a frame shows a sprite of archive `image`.
pub fn frames_naming(document: &AnimationSet, image: ImageId) -> Vec<(FrameId, SpriteNumber)> {
    let mut out = Vec::new();
    for (id, frame) in &document.frames {
        for graphic in frame.elements.iter().filter_map(|e| e.as_graphic()) {
            if let GraphicSource::SffSprite {
                archive,
                group,
                image: number,
            } = graphic.source
                && archive == image
                && let (Ok(g), Ok(i)) = (u16::try_from(group), u16::try_from(number))
                && !out.contains(&(*id, (g, i)))
            {
                out.push((*id, (g, i)));
            }
        }
    }
    out
}
