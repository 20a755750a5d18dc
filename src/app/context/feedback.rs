//! What the status bar says: one sentence with its severity, from whichever panel, window or
//! command said it. A panel pushes it into its [`PanelCtx`](super::panel::PanelCtx); the shell
//! shows the last one said.

use crate::app::context::document::OpenDocument;
use crate::edit::HistoryPosition;
use crate::formats::Severity;
use std::path::Path;
use web_time::Instant;

/// How a message names a file: relative to the folder the editor was started in when the file
/// is in it or beside it (as the user would type it there), else in full.
pub fn shown_path(path: &Path) -> String {
    let full = path.display().to_string();
    let relative = std::env::current_dir()
        .ok()
        .filter(|_| path.is_absolute())
        .and_then(|here| crate::formats::paths::relative_to(&here, path));
    match relative {
        Some(relative) if relative.matches("../").count() <= 1 && relative.len() < full.len() => {
            relative
        }
        _ => full,
    }
}

/// A sentence for the status bar.
#[derive(Clone, Debug)]
pub struct Feedback {
    /// How serious.
    pub severity: Severity,
    /// The text.
    pub text: String,
    /// When it was said.
    pub at: Instant,
    /// For an edit that was refused: the document's history position then. The sentence
    /// goes once the document changes (a later edit succeeded), instead of staying to
    /// contradict it.
    pub refused_at: Option<HistoryPosition>,
}

impl Feedback {
    /// A plain sentence.
    pub fn new(severity: Severity, text: impl Into<String>) -> Feedback {
        Feedback {
            severity,
            text: text.into(),
            at: Instant::now(),
            refused_at: None,
        }
    }

    /// "Not changed: …" for an edit `doc` refused; shown until the document next changes.
    pub fn refusal(message: &str, doc: &OpenDocument) -> Feedback {
        Feedback {
            refused_at: Some(doc.session.history().position()),
            ..Feedback::new(Severity::Warning, format!("Not changed: {message}"))
        }
    }

    /// Whether the sentence still applies to `doc`, the document on show.
    pub fn applies(&self, doc: Option<&OpenDocument>) -> bool {
        match self.refused_at {
            None => true,
            Some(position) => doc.is_some_and(|d| d.session.history().position() == position),
        }
    }
}
