//! The diagnostics panel: what the reader said, each line selecting what it names.

use super::workspace::OpenDocument;
use crate::formats::Severity;
use egui::Color32;

/// The colour of a severity.
pub fn severity_colour(severity: Severity) -> Color32 {
    match severity {
        Severity::Error => Color32::from_rgb(235, 80, 80),
        Severity::Warning => Color32::from_rgb(230, 180, 60),
        Severity::Info => Color32::from_rgb(120, 170, 240),
    }
}

/// Paints the list; clicking a diagnostic that names a sequence or frame selects it.
pub fn show(ui: &mut egui::Ui, open: &mut OpenDocument) {
    if open.diagnostics.is_empty() {
        ui.weak("The file was read without warnings.");
        return;
    }
    let name = open.display_name();
    let mut chosen = None;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (i, diagnostic) in open.diagnostics.iter().enumerate() {
                ui.horizontal(|ui| {
                    ui.colored_label(
                        severity_colour(diagnostic.severity),
                        diagnostic.severity.to_string(),
                    );
                    let text = diagnostic.display_with(&name);
                    if diagnostic.subject.is_some() {
                        if ui
                            .link(text)
                            .on_hover_text("Select what this is about")
                            .clicked()
                        {
                            chosen = Some(i);
                        }
                    } else {
                        ui.label(text);
                    }
                });
            }
        });
    if let Some(subject) = chosen.and_then(|i| open.diagnostics[i].subject) {
        open.select_subject(subject);
    }
}
