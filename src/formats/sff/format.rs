//! The `.sff` format: an archive opened on its own, and any document saved as one.
//!
//! Read: the archive becomes the document's one image, and its sprite groups a view of
//! sequences ([`super::view`]). Written, for an archive opened on its own: the archive itself —
//! its bytes as read when nothing changed, else the edited archive the document holds
//! ([`super::document`]), which keeps the stored bytes of every sprite nobody touched. The
//! view is never written; what was changed in it is listed as lost ([`super::losses`]).
//!
//! Written, for a document from another format: the archive it draws from (a character's
//! `.sff`), or a new v2.01 archive of its pictures ([`super::build`]: group = the sequence's
//! place, image = the picture's place in it, axis = the graphic's origin); everything else
//! (timing, boxes, points) is listed as lost.

use super::archive::SffArchive;
use super::build::build_archive;
use super::edited::EditableSff;
use super::index::SIGNATURE;
use super::losses::{conversion_losses, view_losses};
use super::palette::Palette;
use super::view::add_group_sequences;
use super::write::write_sff;
use crate::formats::{
    Baseline, Capabilities, Format, FormatInfo, Loaded, ReadContext, ReadFailure, Sniff, Stated,
    WriteContext, WriteError, Written, read_file,
};
use crate::model::{
    AnimationSet, ElementKind, ImageId, ImageKind, OriginalSource, PaletteSource, SourceImage,
};

/// The id of [`SffFormat`] (also `--to mugen-sff`).
pub const SFF_ID: &str = "mugen-sff";

/// The `.sff` format.
pub struct SffFormat;

impl Stated for SffFormat {
    /// What the `.sff` format is: the archive keeps its own baseline (its edited bytes, else the
    /// bytes read). An archive holds sprites and palettes only: none of the animation features, so the
    /// editor offers none of them for its view.
    const INFO: FormatInfo = FormatInfo {
        id: SFF_ID,
        name: "M.U.G.E.N sprite archive (SFF v1/v2)",
        extensions: &["sff"],
        capabilities: Capabilities {
            read: true,
            write: true,
            sequences_are_a_view: true,
            ..Capabilities::NONE
        },
        baseline: Baseline::Own,
    };
}

impl Format for SffFormat {
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
        diagnostics.extend(add_group_sequences(&mut document, &archive, image));
        // The archive holds a copy of the file: gone before the document takes its own.
        drop(archive);
        document.original = Some(context.original(self.id(), bytes));
        Ok(Loaded {
            document,
            diagnostics,
        })
    }

    fn write_document(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        match self.own_original(document) {
            Some(original) => write_lone(document, original),
            None => write_converted(document, context),
        }
    }
}

/// The first SFF archive a document draws from.
fn archive_image(document: &AnimationSet) -> Option<&SourceImage> {
    document
        .images
        .iter()
        .find(|i| matches!(i.kind, ImageKind::Sff { .. }))
}

/// An archive opened on its own, saved: its edited bytes or the bytes it was read from, and
/// the view's changes as losses.
fn write_lone(document: &AnimationSet, original: &OriginalSource) -> Result<Written, WriteError> {
    let image = archive_image(document)
        .ok_or_else(|| WriteError::new("the document no longer holds its sprite archive"))?;
    let bytes = document
        .edited_file(image.id)
        .map_or_else(|| original.bytes.to_vec(), |edited| edited.to_vec());
    // Read again from the same bytes, the view has the same ids as the document had when read.
    let view = SffFormat
        .read(&original.bytes, &ReadContext::default())
        .map_err(|f| {
            let reason = f.diagnostics.first().map_or("", |d| d.message.as_str());
            WriteError::new(format!(
                "the archive as read cannot be read again: {reason}"
            ))
        })?
        .document;
    Ok(Written {
        losses: view_losses(document, &view, image.id),
        bytes,
        companions: Vec::new(),
    })
}

/// Another document saved as an archive: the archive it draws from, else a new one of its
/// pictures; everything else is listed as lost.
fn write_converted(document: &AnimationSet, context: &WriteContext) -> Result<Written, WriteError> {
    if let Some(image) = archive_image(document) {
        let bytes = match (document.edited_file(image.id), image.resolved.as_deref()) {
            (Some(edited), _) => edited.to_vec(),
            (None, Some(path)) => read_file(path).map_err(|e| WriteError::new(e.to_string()))?,
            (None, None) => {
                return Err(WriteError::new(format!(
                    "the sprite file {} was not found",
                    image.path
                )));
            }
        };
        return Ok(Written {
            bytes,
            losses: conversion_losses(document, Some(image.id)),
            companions: Vec::new(),
        });
    }
    let file_name = context.file_stem("sprites") + ".sff";
    if let Some(built) = build_archive(document, context, &file_name)? {
        let image = archive_image(&built.document).map(|i| i.id);
        return Ok(Written {
            bytes: built.archive.bytes,
            losses: conversion_losses(&built.document, image),
            companions: Vec::new(),
        });
    }
    let draws = document.frames.values().any(|frame| {
        frame
            .elements
            .iter()
            .any(|e| matches!(e.kind, ElementKind::Graphic(_)))
    });
    if draws {
        return Err(WriteError::new(
            "the pixels of the document's pictures are not at hand, so no sprite can be made",
        ));
    }
    // Nothing drawn: an archive with no sprites, and the sequences listed as lost.
    let empty =
        write_sff(&EditableSff::new(Palette::default())).map_err(|e| WriteError::new(e.message))?;
    Ok(Written {
        bytes: empty,
        losses: conversion_losses(document, None),
        companions: Vec::new(),
    })
}
