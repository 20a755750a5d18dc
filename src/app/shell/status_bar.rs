//! The status bar: the last message, load progress, diagnostics count, cursor position, zoom.

use crate::app::context::document::{OpenDocument, trim_float};
use crate::app::diagnostics::severity_colour;
use crate::edit::HistoryPosition;
use crate::formats::{Severity, error_and_warning_counts};
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

/// A message for the user.
#[derive(Clone, Debug)]
pub struct StatusMessage {
    /// How serious.
    pub severity: Severity,
    /// The text.
    pub text: String,
    /// When it was posted.
    pub at: Instant,
    /// For an edit that was refused: the document's history position then. The message
    /// goes once the document changes (a later edit succeeded), instead of staying to
    /// contradict it.
    pub refused_at: Option<HistoryPosition>,
}

impl StatusMessage {
    /// A plain message.
    pub fn new(severity: Severity, text: impl Into<String>) -> StatusMessage {
        StatusMessage {
            severity,
            text: text.into(),
            at: Instant::now(),
            refused_at: None,
        }
    }

    /// "Not changed: …" for an edit `doc` refused; shown until the document next changes.
    pub fn refusal(message: &str, doc: &OpenDocument) -> StatusMessage {
        StatusMessage {
            refused_at: Some(doc.session.history().position()),
            ..StatusMessage::new(Severity::Warning, format!("Not changed: {message}"))
        }
    }

    /// Whether the message still applies to `doc`, the document on show.
    pub fn applies(&self, doc: Option<&OpenDocument>) -> bool {
        match self.refused_at {
            None => true,
            Some(position) => doc.is_some_and(|o| o.session.history().position() == position),
        }
    }
}

/// What the status bar asked for.
#[derive(Default)]
pub struct StatusActions {
    /// The user clicked the diagnostics count.
    pub toggle_diagnostics: bool,
}

/// Paints the status bar.
pub fn show(
    ui: &mut egui::Ui,
    message: Option<&StatusMessage>,
    doc: Option<&OpenDocument>,
    hover: Option<(i32, i32)>,
    zoom: f32,
) -> StatusActions {
    let mut actions = StatusActions::default();
    ui.horizontal(|ui| {
        if let Some(message) = message.filter(|m| m.applies(doc)) {
            ui.colored_label(severity_colour(message.severity), &message.text);
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.monospace(format!("{}%", trim_float(zoom as f64 * 100.0, 1)));
            if let Some((x, y)) = hover {
                ui.monospace(format!("x {x}, y {y}"));
            }
            if let Some(doc) = doc {
                let (errors, warnings) = error_and_warning_counts(doc.diagnostics());
                let text = format!(
                    "{}, {}",
                    crate::app::plural::counted(errors, "error"),
                    crate::app::plural::counted(warnings, "warning")
                );
                if ui.link(text).clicked() {
                    actions.toggle_diagnostics = true;
                }
                ui.label(format!("{} · {}", doc.display_name(), doc.format_name()));
            }
        });
    });
    actions
}
