//! File > Import frames…: pictures and sheets brought into a document.

pub mod dialog;
pub mod groups;
pub mod sprites;

use crate::app::context::feedback::{Feedback, PathWindow};
use crate::app::context::platform::{DialogOutcome, Platform};
use dialog::ImportState;

/// Opens the Import window and asks for the files to import; where no file dialog can be
/// shown, the window's path field takes them. Returns what the status bar should say.
pub fn start(
    ctx: &egui::Context,
    state: &mut ImportState,
    platform: &mut dyn Platform,
) -> Option<Feedback> {
    state.start();
    if !state.files.is_empty() {
        return None;
    }
    match platform
        .dialogs()
        .pick_files_to_import(&crate::assets::import::PICTURE_EXTENSIONS)
    {
        DialogOutcome::Chosen(files) => {
            let ctx = ctx.clone();
            state.add_files(files, platform, move || ctx.request_repaint());
            None
        }
        DialogOutcome::Cancelled => {
            *state = Default::default();
            None
        }
        DialogOutcome::Unavailable => {
            // Typed letters go to the path field, not to the shortcuts.
            state.focus_path = true;
            Some(Feedback::no_file_dialog(PathWindow::Import))
        }
    }
}
