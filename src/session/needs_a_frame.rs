//! Formats whose files hold at least one frame (an Aseprite file): an edit that would leave the
//! document without any frame (deleting its only sequence, or every frame) could not be saved,
//! so the session refuses it before it changes anything.

use crate::edit::{EditError, EditResult};
use crate::formats::Format;
use crate::model::AnimationSet;

/// Refuses an edit when `tried` (the document as the edit leaves it) has no frame left in any
/// sequence and `format`'s files need one.
pub fn check(tried: &AnimationSet, format: &dyn Format) -> EditResult {
    if !format.capabilities().needs_a_frame {
        return Ok(());
    }
    let any_frame = tried
        .sequences()
        .iter()
        .any(|s| s.directions.iter().any(|d| !d.frames.is_empty()));
    if any_frame {
        return Ok(());
    }
    Err(EditError::new(format!(
        "{} files hold at least one frame, so the last frames cannot be deleted; nothing changed",
        format.name()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::aseprite::AsepriteFormat;
    use crate::formats::sprat::SpratFormat;
    use crate::model::fixtures::long_sequence;

    #[test]
    fn a_document_left_without_frames_is_refused_where_the_format_needs_one() {
        let with_frames = long_sequence(2);
        assert!(check(&with_frames, &AsepriteFormat).is_ok());
        let mut emptied = with_frames.clone();
        emptied.root.items.clear();
        let refused = check(&emptied, &AsepriteFormat).unwrap_err();
        assert!(
            refused.message.contains("at least one frame"),
            "{}",
            refused.message
        );
        assert!(
            check(&emptied, &SpratFormat).is_ok(),
            "a .sprat file may be empty"
        );
    }
}
