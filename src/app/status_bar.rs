//! The status bar: the last message, load progress, diagnostics count, cursor position, zoom.

use super::diagnostics::severity_colour;
use super::workspace::{OpenDocument, trim_float};
use crate::formats::Severity;
use std::time::Instant;

/// A message for the user.
#[derive(Clone, Debug)]
pub struct StatusMessage {
    /// How serious.
    pub severity: Severity,
    /// The text.
    pub text: String,
    /// When it was posted.
    pub at: Instant,
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
    open: Option<&OpenDocument>,
    hover: Option<(i32, i32)>,
    zoom: f32,
) -> StatusActions {
    let mut actions = StatusActions::default();
    ui.horizontal(|ui| {
        if let Some(message) = message {
            ui.colored_label(severity_colour(message.severity), &message.text);
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.monospace(format!("{}%", trim_float(zoom as f64 * 100.0, 1)));
            if let Some((x, y)) = hover {
                ui.monospace(format!("x {x}, y {y}"));
            }
            if let Some(open) = open {
                let errors = open
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .count();
                let warnings = open
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Warning)
                    .count();
                let text = format!("{errors} errors, {warnings} warnings");
                if ui.link(text).clicked() {
                    actions.toggle_diagnostics = true;
                }
                ui.label(format!("{} · {}", open.display_name(), open.format_name));
            }
        });
    });
    actions
}
