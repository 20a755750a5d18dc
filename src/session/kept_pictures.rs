//! Formats that write the frames read from a file with the pictures the file gives them (an
//! Aseprite file's cels are written as they were, copied or linked): on such a file an edit
//! that moves, changes or removes a graphic of one of those frames could not be saved, so the
//! session refuses it before it changes anything, instead of showing it and then listing the
//! pictures as lost at the next save.

use crate::edit::{EditError, EditResult};
use crate::formats::Format;
use crate::model::{AnimationSet, ElementKind, Frame, FrameId};
use std::collections::HashSet;

/// The frames of `document` whose pictures `format` keeps as read: all of them when it keeps
/// pictures and the document was read from a file of it, else none.
pub fn frames_as_read(document: &AnimationSet, format: &dyn Format) -> HashSet<FrameId> {
    let read_from_it = document
        .original
        .as_ref()
        .is_some_and(|o| o.format == format.id());
    if format.capabilities().pictures_as_read && read_from_it {
        document.frames.keys().copied().collect()
    } else {
        HashSet::new()
    }
}

/// Refuses an edit when `tried` (the document as the edit leaves it) changes the graphics of
/// a frame in `kept` (one still there afterwards). Frames added since the file was read are
/// free: their pictures are written anew.
pub fn check(
    document: &AnimationSet,
    tried: &AnimationSet,
    format: &dyn Format,
    kept: &HashSet<FrameId>,
) -> EditResult {
    let changed = kept
        .iter()
        .any(|id| match (document.frame(*id), tried.frame(*id)) {
            (Some(before), Some(after)) => graphics(before) != graphics(after),
            _ => false,
        });
    if changed {
        return Err(EditError::new(format!(
            "{}; nothing changed",
            why_kept(format)
        )));
    }
    Ok(())
}

/// Why the graphics of a frame read from a `format` file cannot be edited (the editor greys
/// their fields out with it).
pub fn why_kept(format: &dyn Format) -> String {
    format!(
        "{} files keep the pictures of their frames as the file has them (Sprat writes the cels as they were), so a frame's graphics cannot be moved, changed or removed",
        format.name()
    )
}

/// A frame's graphics, without the element ids.
fn graphics(frame: &Frame) -> Vec<&ElementKind> {
    frame
        .elements
        .iter()
        .filter(|e| matches!(e.kind, ElementKind::Graphic(_)))
        .map(|e| &e.kind)
        .collect()
}
