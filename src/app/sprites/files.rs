//! The files the sprite browser's buttons ask for (PNGs to add or to replace a sprite with, a
//! `.act` to import or to write): chosen in the desktop's dialog, or — where no dialog can be
//! shown — typed in a path field that takes the keyboard at once, so typed letters never run
//! shortcuts. Either way the same action follows.

use crate::app::context::feedback::{Feedback, PathWindow};
use crate::app::context::platform::{DialogOutcome, Dialogs};
use crate::app::sprites::actions;
use crate::app::sprites::palettes;
use crate::app::sprites::state::{FileUse, ShownArchive, SpriteBrowser, TypedPath};
use std::path::PathBuf;

/// Asks for the file a button wanted this frame, if any, and does what it is for; where no
/// dialog can be shown, offers the path field instead.
pub fn ask(
    state: &mut SpriteBrowser,
    shown: &mut ShownArchive,
    dialogs: &mut dyn Dialogs,
) -> Option<Feedback> {
    let purpose = state.asked.take()?;
    let outcome = match purpose {
        FileUse::ExportAct => {
            let suggested = shown
                .doc
                .path()
                .map(|p| p.with_extension("act"))
                .unwrap_or_else(|| "palette.act".into());
            match dialogs.pick_file_to_save("Palette (.act)", &["act"], &suggested) {
                DialogOutcome::Chosen(path) => DialogOutcome::Chosen(vec![path]),
                DialogOutcome::Cancelled => DialogOutcome::Cancelled,
                DialogOutcome::Unavailable => DialogOutcome::Unavailable,
            }
        }
        FileUse::ImportAct => dialogs.pick_files_to_import(&["act"]),
        FileUse::AddSprites | FileUse::Replace(_) => dialogs.pick_files_to_import(&["png"]),
    };
    match outcome {
        DialogOutcome::Chosen(files) => use_files(purpose, &files, state, shown),
        DialogOutcome::Cancelled => None,
        DialogOutcome::Unavailable => {
            state.typed_path = Some(TypedPath {
                purpose,
                text: String::new(),
                focus: true,
            });
            Some(Feedback::no_file_dialog(PathWindow::Sprites))
        }
    }
}

/// The path field, while one is asked for; does what the file is for on Enter or OK.
pub fn typed_path_row(
    ui: &mut egui::Ui,
    state: &mut SpriteBrowser,
    shown: &mut ShownArchive,
) -> Option<Feedback> {
    let typed = state.typed_path.as_mut()?;
    let (mut done, mut cancel) = (false, false);
    ui.horizontal(|ui| {
        let label = ui.label(typed.purpose.prompt());
        let field = ui
            .add(egui::TextEdit::singleline(&mut typed.text).desired_width(300.0))
            .labelled_by(label.id);
        if std::mem::take(&mut typed.focus) {
            field.request_focus();
        }
        done = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        done |= ui.button("OK").clicked();
        cancel = ui.button("Cancel").clicked();
    });
    if cancel {
        state.typed_path = None;
        return None;
    }
    let text = typed.text.trim().to_string();
    if !done || text.is_empty() {
        return None;
    }
    let purpose = typed.purpose;
    state.typed_path = None;
    let files = [PathBuf::from(text)];
    use_files(purpose, &files, state, shown)
}

/// Does what the files were asked for.
fn use_files(
    purpose: FileUse,
    files: &[PathBuf],
    state: &mut SpriteBrowser,
    shown: &mut ShownArchive,
) -> Option<Feedback> {
    let first = files.first()?;
    match purpose {
        FileUse::AddSprites => actions::add_files(state, shown, files),
        FileUse::Replace(number) => actions::replace_with(shown, number, first),
        FileUse::ImportAct => palettes::import_act_file(shown, first),
        FileUse::ExportAct => palettes::export_act_to(shown, first),
    }
}
