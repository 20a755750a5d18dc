//! File > Export…: the window that writes frames, strips, animations and atlases.

pub mod dialog;

use crate::app::context::document::OpenDocument;
use crate::app::context::panel::PanelCtx;
use crate::app::context::platform::Platform;
use crate::assets::ImageStore;
use dialog::{ExportAction, ExportState, RunningExport};
use std::sync::Arc;

/// The Export window of a document; an export it asks for starts in the background, from a
/// copy of the document, never replacing a file the document reads. What the status bar
/// should say goes into `panel`.
pub fn window(ctx: &egui::Context, state: &mut ExportState, panel: &mut PanelCtx) {
    match dialog::show(ctx, state, panel.doc, panel.platform.dialogs()) {
        Some(ExportAction::Start(request)) => {
            let pixels = panel.pictures.pixels;
            start(ctx, state, panel.doc, pixels, &*panel.platform, request);
        }
        Some(ExportAction::Say(said)) => panel.out.tell(Some(said)),
        None => {}
    }
}

/// Starts `request` in the background of `platform`, from a copy of the document, never
/// replacing a file the document reads; the window shows its progress.
pub fn start(
    ctx: &egui::Context,
    state: &mut ExportState,
    doc: &OpenDocument,
    pixels: &Arc<ImageStore>,
    platform: &dyn Platform,
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
        platform,
        move || ctx.request_repaint(),
    ));
}
