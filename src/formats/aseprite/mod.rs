//! Aseprite `.ase` / `.aseprite` files, read and written.
//!
//! Reading: [`parse`] reads every chunk of the file into a [`sprite::Sprite`] (bounded by the
//! file's bytes, errors at a byte offset, no panic), [`compose`] draws its frames exactly as
//! Aseprite does (blend modes from [`blend`]), and [`mapping`] and [`play_order`] turn it into
//! the model. The composited frames live in memory ([`crate::model::ImageKind::Memory`]);
//! writers that reference image files write them out.
//!
//! Writing: an unedited document gives back its bytes; an edited one is spliced into the file
//! it came from chunk by chunk ([`splice`] over [`file`]); any other document becomes a new
//! file ([`convert`]). Tags and slices come from [`marks`].

pub mod blend;
mod chunks;
pub mod compose;
pub mod convert;
pub mod cursor;
pub mod file;
pub mod mapping;
pub mod marks;
pub mod parse;
mod pixels;
pub use crate::model::play_order;
mod reads;
pub mod scan;
pub mod splice;
pub mod sprite;
#[cfg(test)]
mod test_files;
mod user_data;

use super::diagnostics::{Diagnostic, Location, Severity};
use super::loss::{title_losses, unused_picture_losses};
use super::{
    Baseline, Capabilities, Format, FormatInfo, Loaded, ReadContext, ReadFailure, Sniff, Stated,
    WriteContext, WriteError, Written,
};
use crate::model::AnimationSet;

/// The Aseprite format.
pub struct AsepriteFormat;

impl Stated for AsepriteFormat {
    /// What the Aseprite format is. An unedited file is saved by the shared rule; an edited one
    /// is spliced into the file read ([`splice`]).
    const INFO: FormatInfo = FormatInfo {
        id: "aseprite",
        name: "Aseprite sprite",
        extensions: &["aseprite", "ase"],
        capabilities: Capabilities {
            read: true,
            write: true,
            per_frame_durations: true,
            boxes: true,
            points: true,
            custom_box_classes: true,
            // A slice is a name: nothing in the file says what it is for.
            box_classes_known: false,
            box_noun: Some("slice"),
            numbered_file_frames: true,
            pictures_as_read: true,
            // The pixels are placed from the canvas's corner; an origin slice marks an origin.
            origin_at_canvas_corner: true,
            needs_a_frame: true,
            ..Capabilities::NONE
        },
        baseline: Baseline::Shared,
    };
}

impl Format for AsepriteFormat {
    fn sniff(&self, bytes: &[u8]) -> Sniff {
        if !scan::has_magic(bytes) {
            return Sniff::No;
        }
        // The first frame's magic number right after the header makes it certain.
        let frame_magic = bytes.get(scan::HEADER_SIZE + 4..scan::HEADER_SIZE + 6);
        if frame_magic == Some(&[0xFA, 0xF1][..]) {
            Sniff::Yes
        } else {
            Sniff::Maybe
        }
    }

    fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
        if let Some(loaded) = reads::remembered(bytes, context) {
            return Ok(loaded);
        }
        let sprite = parse::parse(bytes).map_err(|e| failure(e.offset, e.message))?;
        compose::check_work(&sprite, context.options.aseprite_layers)
            .map_err(|e| failure(e.offset, e.message))?;
        let stem = context.file_stem("sprite");
        let pictures = if context.options.aseprite_layers {
            mapping::Pictures::PerLayer
        } else {
            mapping::Pictures::Composited(mapping::composite(&sprite))
        };
        let (mut document, mut diagnostics) = mapping::build(&sprite, pictures, &stem);
        for (offset, note) in &sprite.notes {
            diagnostics.push(Diagnostic::warning_at_byte(*offset as u64, note.clone()));
        }
        document.original = Some(context.original(self.id(), bytes));
        let loaded = Loaded {
            document,
            diagnostics,
        };
        reads::remember(&loaded, context);
        Ok(loaded)
    }

    fn write_document(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        let mut written = match self.own_original(document) {
            Some(original) => splice::splice(original, document, context.pixels)?,
            None => convert::write_new(document, context)?,
        };
        written.losses.extend(title_losses(document));
        written.losses.extend(unused_picture_losses(document));
        marks::sequence_losses(document, &mut written.losses);
        Ok(written)
    }
}

fn failure(offset: usize, message: impl Into<String>) -> ReadFailure {
    ReadFailure::single(Diagnostic::new(
        Severity::Error,
        Location::Byte(offset as u64),
        message,
    ))
}
