//! The shared rule behind byte-exact saving: when a document still equals what its original
//! bytes read to, those bytes are the answer.

use super::{Format, ReadContext, WriteContext};
use crate::model::AnimationSet;

/// The original bytes of `document` if it was read by `format` and has not been changed since,
/// and the output goes to the same folder (so relative paths still hold).
///
/// Formats call this first in `write`; the per-edit preservation (only touched text changes)
/// is each format's own work.
pub fn unchanged_original(
    format: &dyn Format,
    document: &AnimationSet,
    context: &WriteContext,
) -> Option<Vec<u8>> {
    let original = document.original.as_ref()?;
    if original.format != format.id() {
        return None;
    }
    let same_folder = match (&original.path, &context.path) {
        (Some(a), Some(b)) => a.parent() == b.parent(),
        _ => true,
    };
    if !same_folder {
        return None;
    }
    let read_context = ReadContext {
        path: original.path.clone(),
        ..ReadContext::default()
    };
    let reread = format.read(&original.bytes, &read_context).ok()?;
    same_content(&reread.document, document).then(|| original.bytes.as_ref().clone())
}

/// True when two documents hold the same content, ignoring where images were found on disk
/// and user choices that are not part of the file (the Solarus tileset pick, the palette).
pub fn same_content(a: &AnimationSet, b: &AnimationSet) -> bool {
    let mut a = a.clone();
    let mut b = b.clone();
    for doc in [&mut a, &mut b] {
        doc.original = None;
        for image in &mut doc.images {
            image.resolved = None;
            match &mut image.kind {
                crate::model::ImageKind::SolarusTileset { chosen } => *chosen = None,
                crate::model::ImageKind::Sff {
                    active_palette,
                    palettes,
                } => {
                    *active_palette = None;
                    for palette in palettes {
                        if let crate::model::PaletteSource::ActFile { resolved, .. } = palette {
                            *resolved = None;
                        }
                    }
                }
                crate::model::ImageKind::File => {}
            }
        }
    }
    a == b
}
