//! File > Export…: the window that writes frames, strips, animations and atlases.

pub mod dialog;

use crate::app::context::document::OpenDocument;
use crate::app::shell::dialogs::Dialogs;
use crate::app::shell::save_as::Said;
use crate::assets::ImageStore;
use dialog::{ExportAction, ExportState, RunningExport};
use std::sync::Arc;

/// The Export window of a document; an export it asks for starts on its own thread, from a
/// copy of the document, never replacing a file the document reads. Returns what the status
/// bar should say.
pub fn window(
    ctx: &egui::Context,
    state: &mut ExportState,
    doc: &OpenDocument,
    dialogs: &mut dyn Dialogs,
    pixels: &Arc<ImageStore>,
) -> Option<Said> {
    match dialog::show(ctx, state, doc, dialogs)? {
        ExportAction::Start(request) => {
            start(ctx, state, doc, pixels, request);
            None
        }
        ExportAction::Say(said) => Some(said),
    }
}

/// Starts `request` on its own thread, from a copy of the document, never replacing a file
/// the document reads; the window shows its progress.
pub fn start(
    ctx: &egui::Context,
    state: &mut ExportState,
    doc: &OpenDocument,
    pixels: &Arc<ImageStore>,
    request: crate::export::job::ExportRequest,
) {
    let document = doc.document().clone();
    let keep = crate::session::watch::watched_paths(doc.path(), &document);
    let ctx = ctx.clone();
    state.running = Some(RunningExport::start(
        document,
        pixels.clone(),
        request,
        keep,
        move || ctx.request_repaint(),
    ));
}
