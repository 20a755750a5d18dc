//! The diagnostics panel: `sprat check`'s diagnostics of the document (what the reader said,
//! the images' problems, the box warnings), kept current by the shell; each line selects what
//! it names.

use crate::app::context::document::OpenDocument;
use crate::app::context::panel::PanelCtx;
use crate::formats::Severity;
use crate::formats::diagnostics::FIRST_DIAGNOSTICS_LISTED;
use egui::Color32;

/// The colour of a severity.
pub fn severity_colour(severity: Severity) -> Color32 {
    match severity {
        Severity::Error => Color32::from_rgb(235, 80, 80),
        Severity::Warning => Color32::from_rgb(230, 180, 60),
        Severity::Info => Color32::from_rgb(120, 170, 240),
    }
}

/// Paints the list; clicking a diagnostic that names a sequence or frame selects it. The first
/// [`FIRST_DIAGNOSTICS_LISTED`] are listed, under "… and N more" with a button for the rest;
/// only the rows in view are laid out, so even tens of thousands scroll smoothly.
pub fn show(ui: &mut egui::Ui, ctx: &mut PanelCtx) {
    let doc: &mut OpenDocument = ctx.doc;
    if doc.first_check_pending() {
        ui.weak("Checking the images and boxes…");
    }
    if doc.diagnostics().is_empty() {
        ui.weak("No errors or warnings.");
        return;
    }
    let name = doc.display_name();
    let total = doc.diagnostics().len();
    let listed = if doc.all_diagnostics_listed {
        total
    } else {
        total.min(FIRST_DIAGNOSTICS_LISTED)
    };
    let more = total - listed;
    let mut chosen = None;
    // Above the list, so it is seen without scrolling to the end.
    if more > 0 {
        ui.horizontal(|ui| {
            ui.weak(format!("The first {listed} of {total} are listed"));
            ui.label(format!("… and {more} more"));
            if ui.button(format!("Show all {total}")).clicked() {
                doc.all_diagnostics_listed = true;
            }
        });
    }
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show_rows(ui, row_height, listed, |ui, rows| {
            for i in rows {
                let Some(diagnostic) = doc.diagnostics().get(i) else {
                    continue;
                };
                ui.horizontal(|ui| {
                    ui.colored_label(
                        severity_colour(diagnostic.severity),
                        diagnostic.severity.to_string(),
                    );
                    // The severity is already the coloured word before it.
                    let text = format!("{}: {}", diagnostic.place_with(&name), diagnostic.message);
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
    if let Some(subject) = chosen.and_then(|i| doc.diagnostics()[i].subject) {
        doc.select_subject(subject);
    }
}
