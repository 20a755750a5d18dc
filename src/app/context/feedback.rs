//! What the status bar says: one sentence with its severity, from whichever panel, window or
//! command said it. A panel pushes it into its [`PanelCtx`](super::panel::PanelCtx); the shell
//! shows the last one said in the tab on show (each tab keeps its own), and lets a sentence
//! about a window go when that window closes.

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

/// A window that asks for a path typed in where no file dialog could be shown: the sentence
/// saying so is about that window, and goes when it closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathWindow {
    /// "Open a file by path".
    Open,
    /// The Import window.
    Import,
    /// The Export window.
    Export,
    /// The Save As window.
    SaveAs,
    /// The sprite browser's path field (add sprites, replace an image, import a palette).
    Sprites,
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
    /// The window the sentence is about: it goes when that window closes (the action was
    /// cancelled or done), instead of staying to speak of a window no longer there.
    pub while_open: Option<PathWindow>,
}

impl Feedback {
    /// A plain sentence.
    pub fn new(severity: Severity, text: impl Into<String>) -> Feedback {
        Feedback {
            severity,
            text: text.into(),
            at: Instant::now(),
            refused_at: None,
            while_open: None,
        }
    }

    /// "No file dialog can be shown…", said when `window` asks for the path instead; it goes
    /// when `window` closes.
    pub fn no_file_dialog(window: PathWindow) -> Feedback {
        Feedback {
            while_open: Some(window),
            ..Feedback::new(
                Severity::Warning,
                "No file dialog can be shown on this desktop; type the path instead.",
            )
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
