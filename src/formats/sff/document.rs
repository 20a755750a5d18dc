//! How a document holds sprite edits: an edited archive is kept, whole, as the bytes it is to
//! be written ([`crate::model::EditedFile`], by the archive's image id). Edit commands open the
//! archive with [`edit_archive`], change it through [`EditableSff`]'s functions, and put it
//! back with [`commit_archive`]; undo restores the previous bytes (shared, never copied), and
//! the `.def` / `.air` writers save them as the `.sff` beside the animations.
//!
//! Keeping bytes rather than a list of edits means every view, the renderer and the writer
//! read an edited archive exactly as they read a file, and an edited archive reopened for the
//! next edit keeps every stored sprite's bytes as they are.
//!
//! An archive with no edits is its file on disk, until a save writes over it: the document
//! then keeps the bytes it had before ([`as_read_before_saving`]), so an undo back to before
//! the edit shows, edits and saves the archive as read rather than the saved file. The
//! document's own file (an archive opened on its own) is held as read from the start.

use super::archive::SffArchive;
use super::edit::{EditError, EditableSff};
use super::format::SFF_ID;
use super::store::SffStore;
use super::write::write_sff;
use crate::model::{AnimationSet, EditedFile, ImageId, ImageKind, OriginalSource};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The format [`OriginalSource::format`] names for a `.act` palette's bytes (not a format
/// of the registry: a palette is never opened on its own).
pub const ACT_ID: &str = "act-palette";

/// The archive of image `image` ready to edit: as the document holds it (its unsaved
/// contents, or the bytes it was read as: see [`AnimationSet::held_file`]), else its file
/// (read through `store`).
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
    let archive = match document.edited_file(image) {
        Some(bytes) => Arc::new(
            SffArchive::parse_shared(Arc::clone(bytes))
                .map_err(|d| EditError { message: d.message })?,
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
    EditableSff::from_archive(archive)
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

/// What `document` must keep before a save writes the files at `written` (full paths): the
/// bytes on disk now of each edited archive and `.act` palette among them whose bytes as read
/// it does not hold yet. Kept in [`AnimationSet::companion_originals`], they are what the
/// document holds for that file once its edits are undone, and what the next save writes
/// back (without them, an undo after the save would mean "the file on disk", which then
/// holds the undone edit). A file that cannot be read now (new, or gone) is skipped.
pub fn as_read_before_saving(document: &AnimationSet, written: &[PathBuf]) -> Vec<OriginalSource> {
    let written: Vec<PathBuf> = written.iter().map(|p| same_file_key(p)).collect();
    let mut kept: Vec<OriginalSource> = Vec::new();
    for file in &document.edited_files {
        let Some(path) = document.source_file(file.image, file.palette) else {
            continue;
        };
        let known = document.as_read(path).is_some()
            || kept.iter().any(|k| k.path.as_deref() == Some(path));
        if known || !written.contains(&same_file_key(path)) {
            continue;
        }
        if let Ok(bytes) = crate::formats::read_file(path) {
            kept.push(OriginalSource {
                format: if file.palette.is_some() {
                    ACT_ID
                } else {
                    SFF_ID
                }
                .to_string(),
                bytes: Arc::new(bytes),
                path: Some(path.to_path_buf()),
            });
        }
    }
    kept
}

/// `path` as the file system resolves it (links, `..`), so two spellings of one file match.
fn same_file_key(path: &Path) -> PathBuf {
    crate::formats::input::canonicalize(path)
        .unwrap_or_else(|| crate::formats::paths::normalise(path))
}
