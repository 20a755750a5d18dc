//! Reading an open document again from disk, as the "changed on disk" notice and the save's
//! "changed outside" question offer.

use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::Feedback;
use crate::formats::{ReadContext, Severity};
use std::path::Path;

/// Reads `doc` again from disk, its unsaved changes dropped; what the status bar says.
pub fn reload_from_disk(doc: &mut OpenDocument) -> Feedback {
    let context = ReadContext::for_path(doc.path().map(Path::to_path_buf).unwrap_or_default());
    match doc.session.reload(&context) {
        Ok(()) => {
            doc.after_reload();
            Feedback::new(Severity::Info, "Reloaded from disk.")
        }
        Err(failure) => {
            let why = failure.first_message();
            Feedback::new(Severity::Error, format!("Could not reload: {why}"))
        }
    }
}
