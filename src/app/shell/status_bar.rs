//! The status bar: the last thing said ([`Feedback`]), load progress, diagnostics count, cursor position, zoom.

use crate::app::context::document::OpenDocument;
use crate::app::context::duration_text::trim_float;
use crate::app::context::feedback::Feedback;
use crate::app::diagnostics::severity_colour;
use crate::formats::error_and_warning_counts;

/// What the status bar asked for.
#[derive(Default)]
pub struct StatusActions {
    /// The user clicked the diagnostics count.
    pub toggle_diagnostics: bool,
}

/// Paints the status bar.
pub fn show(
    ui: &mut egui::Ui,
    message: Option<&Feedback>,
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
                let notes = doc.diagnostics().len() - errors - warnings;
                // Until the first check ends the counts would be the reader's alone.
                let text = if doc.first_check_pending() {
                    "Checking…".to_string()
                } else {
                    let mut text = format!(
                        "{}, {}",
                        crate::text::count(errors, "error"),
                        crate::text::count(warnings, "warning")
                    );
                    // Notes are not counted as problems, but said, since they no longer
                    // open the panel by themselves.
                    if notes > 0 {
                        text.push_str(&format!(", {}", crate::text::count(notes, "note")));
                    }
                    text
                };
                if ui.link(text).clicked() {
                    actions.toggle_diagnostics = true;
                }
                ui.label(format!("{} · {}", doc.display_name(), doc.format_name()));
            }
        });
    });
    actions
}
