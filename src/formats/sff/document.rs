//! How a document holds sprite edits: an edited archive is kept, whole, as the bytes it is to
//! be written ([`crate::model::EditedFile`], by the archive's image id). Edit commands open the
//! archive with [`edit_archive`], change it through [`EditableSff`]'s functions, and put it
//! back with [`commit_archive`]; undo restores the previous bytes (shared, never copied), and
//! the `.def` / `.air` writers save them as the `.sff` beside the animations.
//!
//! Keeping bytes rather than a list of edits means every view, the renderer and the writer
//! read an edited archive exactly as they read a file, and an edited archive reopened for the
//! next edit keeps every stored sprite's bytes as they are.

use super::archive::SffArchive;
use super::edit::{EditError, EditableSff};
use super::format::SFF_ID;
use super::store::SffStore;
use super::write::write_sff;
use crate::model::{AnimationSet, EditedFile, ImageId, ImageKind};
use std::sync::Arc;

/// The archive of image `image` ready to edit: its unsaved contents when it was edited
/// before; for an archive opened on its own, the bytes it was read from (after a save and an
/// undo, the file on disk holds the undone edit, which the next edit must not bring back);
/// else its file (read through `store`).
pub fn edit_archive(
    document: &AnimationSet,
    image: ImageId,
    store: &SffStore,
) -> Result<EditableSff, EditError> {
    let source = document
        .image(image)
        .filter(|i| matches!(i.kind, ImageKind::Sff { .. }))
        .ok_or_else(|| EditError {
            message: format!("image {} is not an SFF archive of this document", image.0),
        })?;
    let as_read = document
        .original
        .as_ref()
        .filter(|o| o.format == SFF_ID && o.path.is_some() && o.path == source.resolved)
        .map(|o| &o.bytes);
    let archive = match document.edited_file(image).or(as_read) {
        Some(bytes) => Arc::new(
            SffArchive::parse(bytes.to_vec()).map_err(|d| EditError { message: d.message })?,
        ),
        None => {
            let path = source.resolved.as_deref().ok_or_else(|| EditError {
                message: format!("the sprite file {} was not found", source.path),
            })?;
            store.archive(path).ok_or_else(|| EditError {
                message: format!("the sprite file {} cannot be read", source.path),
            })?
        }
    };
    Ok(EditableSff::from_archive(archive))
}

/// Puts an edited archive into `document` as image `image`'s unsaved contents. Refused, with
/// nothing changed, when it cannot be written. An archive with no change leaves the document
/// as it is.
pub fn commit_archive(
    document: &mut AnimationSet,
    image: ImageId,
    sff: &EditableSff,
) -> Result<(), EditError> {
    if !sff.changed {
        return Ok(());
    }
    let bytes = Arc::new(write_sff(sff)?);
    EditedFile::put(&mut document.edited_files, image, None, bytes);
    Ok(())
}
