//! Aseprite `.ase` / `.aseprite` files, read and written.
//!
//! Reading: the `asefile` crate reads the file and composites its frames; this module checks
//! the file's declared sizes first ([`scan`]) and maps what the crate gives into the model
//! ([`mapping`], [`play_order`]). The composited frames live in memory
//! ([`crate::model::ImageKind::Memory`]); writers that reference image files write them out.
//!
//! Writing: an unedited document gives back its bytes; an edited one is spliced into the file
//! it came from chunk by chunk ([`splice`] over [`file`]); any other document becomes a new
//! file ([`convert`]). Tags and slices come from [`marks`].

pub mod blend;
pub mod convert;
pub mod file;
pub mod mapping;
pub mod marks;
pub mod play_order;
mod reads;
pub mod scan;
pub mod splice;

use super::diagnostics::{Diagnostic, Location, Severity};
use super::fidelity::unchanged_original;
use super::loss::title_losses;
use super::{
    Capabilities, Format, Loaded, ReadContext, ReadFailure, Sniff, WriteContext, WriteError,
    Written,
};
use crate::model::AnimationSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The Aseprite format.
pub struct AsepriteFormat;

impl Format for AsepriteFormat {
    fn id(&self) -> &'static str {
        "aseprite"
    }

    fn name(&self) -> &'static str {
        "Aseprite sprite"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["aseprite", "ase"]
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            read: true,
            write: true,
            per_frame_durations: true,
            boxes: true,
            points: true,
            custom_box_classes: true,
            ..Capabilities::default()
        }
    }

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
        let scan = scan::scan(bytes).map_err(|e| failure(e.offset, e.message))?;
        let unlinked = file::tilemap_links_copied(&scan.bytes);
        let file = match parse(unlinked.as_deref().unwrap_or(&scan.bytes)) {
            Some(Ok(file)) => file,
            Some(Err(message)) => {
                let at = failing_frame(&scan.bytes, &scan.frame_offsets);
                return Err(failure(at, message));
            }
            None => {
                let at = failing_frame(&scan.bytes, &scan.frame_offsets);
                return Err(failure(at, "the file is damaged here (the reader gave up)"));
            }
        };
        let stem = context.file_stem("sprite");
        // The crate draws the pictures; a damaged file can make it panic there.
        let built = catch_unwind(AssertUnwindSafe(|| {
            let pictures = if context.options.aseprite_layers {
                mapping::Pictures::PerLayer
            } else {
                mapping::Pictures::Composited(mapping::composite(&file))
            };
            mapping::build(&file, &scan, pictures, &stem)
        }));
        let Ok((mut document, mut diagnostics)) = built else {
            return Err(failure(
                0,
                "the frames cannot be drawn: the file is damaged",
            ));
        };
        for (offset, note) in &scan.notes {
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

    fn write(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        if let Some(bytes) = unchanged_original(self, document, context) {
            return Ok(Written {
                bytes,
                ..Written::default()
            });
        }
        let mut written = match document.original.as_ref().filter(|o| o.format == self.id()) {
            Some(original) => splice::splice(original, document, context.pixels)?,
            None => convert::write_new(document, context)?,
        };
        written.losses.extend(title_losses(document));
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

/// The crate's reading of `bytes`: `None` when it panicked (its validation has gaps that
/// [`scan`] cannot all close; the crate that draws tilemaps has no panic-free rival).
fn parse(bytes: &[u8]) -> Option<Result<asefile::AsepriteFile, String>> {
    catch_unwind(|| asefile::AsepriteFile::read(bytes).map_err(|e| e.to_string())).ok()
}

/// Where a file the crate refused goes wrong: the start of the first frame whose inclusion
/// makes it fail, found by reading ever longer prefixes (a binary search, only on failure).
fn failing_frame(bytes: &[u8], frame_offsets: &[usize]) -> usize {
    let reads = |frames: usize| {
        let end = frame_offsets.get(frames).copied().unwrap_or(bytes.len());
        let mut prefix = bytes[..end].to_vec();
        prefix[6..8].copy_from_slice(&(frames as u16).to_le_bytes());
        matches!(parse(&prefix), Some(Ok(_)))
    };
    // The prefix of `low` frames reads; the one of `high` frames does not.
    let (mut low, mut high) = (0, frame_offsets.len());
    if !reads(0) {
        return 0;
    }
    while high - low > 1 {
        let middle = (low + high) / 2;
        if reads(middle) {
            low = middle;
        } else {
            high = middle;
        }
    }
    frame_offsets.get(low).copied().unwrap_or(0)
}
