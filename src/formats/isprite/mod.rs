//! Vision Riders Integrated Sprite (`.isprite`, `.sprite`), version 1.x.
//!
//! Reading goes bytes -> [`raw`] records (every byte kept) -> model ([`read`]); writing goes
//! model -> raw records -> bytes ([`write`]), taking from the original file's records whatever
//! the model does not hold, so an edit changes only what it touches. Documents from other
//! formats are first reshaped for ISPRITE by [`convert`] (durations to holds, directions to
//! sequences, AIR default boxes onto each frame, sprites packed into PNG sheets by [`crate::formats::pack`]).
//! The spec's contradictions are settled as in `../shared/spec/isprite-minimal.hex.md`
//! (D1-D13); where this module differs, `docs/isprite.md` says why.

pub mod bytes;
pub mod convert;
pub mod elements;
pub mod frames;
pub mod meta;
pub mod raw;
pub mod read;
pub mod textures;
pub mod tier;
pub mod write;

use super::{
    Baseline, Capabilities, Format, FormatInfo, Loaded, ReadContext, ReadFailure, Sniff, Stated,
    WriteContext, WriteError, Written,
};
use crate::model::AnimationSet;

/// The format's id.
pub const ID: &str = "isprite";

/// The ISPRITE format.
pub struct IspriteFormat;

impl Stated for IspriteFormat {
    /// What the ISPRITE format is.
    const INFO: FormatInfo = FormatInfo {
        id: ID,
        name: "Vision Riders Integrated Sprite",
        extensions: &["isprite", "sprite"],
        capabilities: Capabilities {
            time_unit: crate::model::TimeUnit::Holds,
            read: true,
            write: true,
            per_frame_durations: true,
            boxes: true,
            circles: true,
            rotated_boxes: true,
            points: true,
            layered_graphics: true,
            transforms: true,
            frame_text: true,
            groups: true,
            subpixel: true,
            follow_ups: true,
            sequence_frame_rate: true,
            disappear_at_end: true,
            custom_box_classes: true,
            box_classes_known: true,
            ..Capabilities::NONE
        },
        baseline: Baseline::Shared,
    };
}

impl Format for IspriteFormat {
    fn sniff(&self, bytes: &[u8]) -> Sniff {
        if bytes.starts_with(raw::MAGIC) {
            Sniff::Yes
        } else {
            Sniff::No
        }
    }

    fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
        let reading =
            read::read(bytes, context.dir()).map_err(|diagnostics| ReadFailure { diagnostics })?;
        let mut document = reading.document;
        document.original = Some(context.original(ID, bytes));
        Ok(Loaded {
            document,
            diagnostics: reading.diagnostics,
        })
    }

    fn write_document(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        let original = document
            .original
            .as_ref()
            .filter(|o| o.format == ID)
            .and_then(|o| read::read(&o.bytes, None).ok());
        let prepared = convert::prepare(document, context, original.is_some())?;
        let mut losses = prepared.losses;
        losses.extend(crate::formats::loss::title_losses(document));
        let bytes = write::encode(&prepared.document, original.as_ref(), &mut losses)?;
        Ok(Written {
            bytes,
            losses,
            companions: prepared.companions,
        })
    }
}
