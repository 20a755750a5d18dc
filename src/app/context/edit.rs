//! What an editing command works on and what it reports, whichever panel, menu or key gave
//! it.

use crate::app::context::clipboard::AppClipboard;
use crate::app::context::document::OpenDocument;
use crate::app::context::settings::Settings;

/// What an editing command works on: the document on show, the settings and the frame
/// clipboard.
pub struct EditScope<'a> {
    /// The document on show.
    pub doc: &'a mut OpenDocument,
    /// The editor's settings (the default-box rule, visible classes).
    pub settings: &'a Settings,
    /// Frames copied, kept across documents.
    pub clipboard: &'a mut AppClipboard,
}

/// What an editing command reports: a message for the status bar, or why it was refused.
pub type EditOutcome = Result<Option<String>, String>;
