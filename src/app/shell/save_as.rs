//! Save As: choose a writable format and a file, see exactly what that format cannot hold
//! (each loss with its place), and confirm before anything is written. Also the window that
//! reports a failed save: the file on disk and the edits in memory are both kept.
//!
//! Flow: [`SaveAsState::start`] opens the window; "Save" prepares the write in memory
//! (`Session::prepare_save_as`); a lossless write is committed at once, a lossy one waits for
//! "Save anyway" (`Session::commit_save_as`) or "Cancel" (nothing written).

use crate::app::context::centred_window::centred_window;
use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::{Feedback, PathWindow};
use crate::app::context::platform::{DialogOutcome, Platform};
use crate::formats::{Format, Severity, registry};
use crate::pixels::PixelSource;
use crate::session::target::RefusalReason;
use crate::session::{PendingSave, SaveError, SaveReport};
use std::path::{Path, PathBuf};

/// What the Save As window remembers between frames.
#[derive(Default)]
pub struct SaveAsState {
    /// The Save As window is shown.
    pub shown: bool,
    /// The chosen format's id.
    pub format: String,
    /// The file to write, as typed or chosen.
    pub path: String,
    /// A prepared lossy write waiting for confirmation.
    pub pending: Option<PendingSave>,
    /// Why the last save failed, shown until dismissed.
    pub failure: Option<String>,
    /// The failed save was refused because a file is read-only: its window offers Save As.
    pub offer_save_as: bool,
    /// The user chose Reload when a save found files changed by another program (the tab's
    /// own notice of that change is answered too).
    pub reloaded: bool,
    /// The confirmation is for a plain Save (Ctrl+S) in the file's own format, not Save As:
    /// cancelling it closes it and opens no other window.
    pub plain_save: bool,
}

impl SaveAsState {
    /// Opens the window for `doc`, offering its own format when that one can be written.
    pub fn start(&mut self, doc: &OpenDocument) {
        let own = doc.session.format();
        // A format Sprat only reads offers Sprat's own project, which holds everything.
        self.format = if own.capabilities().write {
            own.id().to_string()
        } else {
            crate::formats::sprat::SpratFormat.id().to_string()
        };
        self.path = doc
            .path()
            .map(|p| with_extension_of(p, format_of(&self.format)))
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        self.pending = None;
        self.plain_save = false;
        self.shown = true;
    }

    /// Asks before a save in the file's own format that would leave something out (an edit
    /// the format cannot hold): the same confirmation as Save As, nothing written until then.
    pub fn confirm_lossy_save(&mut self, pending: PendingSave) {
        self.format = pending.format().id().to_string();
        self.path = pending.path().display().to_string();
        self.pending = Some(pending);
        self.plain_save = true;
        self.shown = true;
    }

    /// Records a failed save so its window shows it; a file refused as read-only gets Save
    /// As offered there.
    pub fn failed(&mut self, error: &SaveError) {
        self.failure = Some(error.to_string());
        self.offer_save_as = error
            .refused
            .as_ref()
            .is_some_and(|r| r.reason == RefusalReason::ReadOnly);
    }

    /// Whether the user chose Reload in the save window since the last call.
    pub fn take_reloaded(&mut self) -> bool {
        std::mem::take(&mut self.reloaded)
    }
}

/// What the status bar says of a save that did not happen: "Not saved: " and why (once, when
/// the reason already begins so).
pub fn not_saved_text(error: &SaveError) -> String {
    let message = error.to_string();
    if message.starts_with("Not saved") {
        message
    } else {
        format!("Not saved: {message}")
    }
}

fn format_of(id: &str) -> &'static dyn Format {
    registry()
        .by_id(id)
        .unwrap_or(&crate::formats::sprat::SpratFormat)
}

/// `path` with the format's first extension, unless it already ends in one of its extensions.
fn with_extension_of(path: &Path, format: &dyn Format) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let fits = format
        .extensions()
        .iter()
        .any(|e| name.ends_with(&format!(".{}", e.to_lowercase())));
    match format.extensions().first() {
        Some(ext) if !fits => path.with_extension(ext),
        _ => path.to_path_buf(),
    }
}

/// Paints the Save As window and the save-failure window; returns what the status bar should
/// say about anything that happened.
pub fn show(
    ctx: &egui::Context,
    state: &mut SaveAsState,
    doc: Option<&mut OpenDocument>,
    platform: &mut dyn Platform,
    pixels: &dyn PixelSource,
) -> Option<Feedback> {
    let save_as_instead = failure_window(ctx, state);
    let doc = doc?;
    if save_as_instead {
        state.start(doc);
    }
    if !state.shown {
        return None;
    }
    if state.pending.is_some() {
        return confirm_window(ctx, state, doc, platform);
    }
    let mut save = false;
    let mut browse = false;
    let mut close = false;
    egui::Window::new("Save As")
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            egui::Grid::new("save as fields")
                .num_columns(2)
                .show(ui, |ui| {
                    let label = ui.label("Format");
                    let current = format_of(&state.format);
                    let before = state.format.clone();
                    egui::ComboBox::from_id_salt("save as format")
                        .selected_text(current.name())
                        .width(320.0)
                        .show_ui(ui, |ui| {
                            for format in registry().formats().filter(|f| f.capabilities().write) {
                                ui.selectable_value(
                                    &mut state.format,
                                    format.id().to_string(),
                                    format.name(),
                                );
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    if state.format != before && !state.path.is_empty() {
                        let path =
                            with_extension_of(Path::new(&state.path), format_of(&state.format));
                        state.path = path.display().to_string();
                    }
                    ui.end_row();
                    let label = ui.label("File");
                    ui.horizontal(|ui| {
                        ui.add(egui::TextEdit::singleline(&mut state.path).desired_width(320.0))
                            .labelled_by(label.id);
                        browse = ui
                            .button("Browse…")
                            .on_hover_text("Choose the file in the desktop's dialog")
                            .clicked();
                    });
                    ui.end_row();
                });
            ui.horizontal(|ui| {
                save = ui
                    .add_enabled(!state.path.trim().is_empty(), egui::Button::new("Save"))
                    .clicked();
                close = ui.button("Cancel").clicked();
            });
        });
    if close {
        state.shown = false;
        return None;
    }
    if browse {
        let format = format_of(&state.format);
        let suggested = PathBuf::from(state.path.trim());
        match platform
            .dialogs()
            .pick_file_to_save(format.name(), format.extensions(), &suggested)
        {
            DialogOutcome::Chosen(path) => {
                state.path = with_extension_of(&path, format).display().to_string();
            }
            DialogOutcome::Cancelled => {}
            DialogOutcome::Unavailable => {
                return Some(Feedback::no_file_dialog(PathWindow::SaveAs));
            }
        }
    }
    if save {
        let path = PathBuf::from(state.path.trim());
        return prepare(state, doc, &path, pixels, platform);
    }
    None
}

/// Writes the document in memory; commits at once when nothing is lost.
fn prepare(
    state: &mut SaveAsState,
    doc: &mut OpenDocument,
    path: &Path,
    pixels: &dyn PixelSource,
    platform: &mut dyn Platform,
) -> Option<Feedback> {
    let format = state.format.clone();
    // Replacing another file than the document's own is confirmed like a loss is.
    let replaces = path.exists() && doc.path() != Some(path);
    match doc.session.prepare_save_as(path, &format, Some(pixels)) {
        Ok(pending) if !pending.needs_confirmation() && !replaces => {
            commit(state, doc, pending, platform)
        }
        Ok(pending) => {
            state.pending = Some(pending);
            None
        }
        Err(error) => {
            state.failed(&error);
            Some(Feedback::new(Severity::Error, not_saved_text(&error)))
        }
    }
}

fn commit(
    state: &mut SaveAsState,
    doc: &mut OpenDocument,
    pending: PendingSave,
    platform: &mut dyn Platform,
) -> Option<Feedback> {
    match platform.deliver_save(&mut doc.session, pending) {
        Ok(report) => {
            state.shown = false;
            doc.revision += 1;
            Some(Feedback::new(Severity::Info, saved_text(&report)))
        }
        Err(error) => {
            state.failed(&error);
            Some(Feedback::new(Severity::Error, not_saved_text(&error)))
        }
    }
}

/// "Saved x (and y), losing N things", naming only the files written: "Saved …/kfm.air;
/// kfm.def unchanged" when the main file already held its bytes.
pub fn saved_text(report: &SaveReport) -> String {
    let files = std::iter::once(&report.path).chain(&report.companions);
    let (unchanged, written): (Vec<&PathBuf>, Vec<&PathBuf>) =
        files.partition(|path| report.unchanged.contains(path));
    let mut text = match written.split_first() {
        Some((first, others)) => {
            let mut text = format!("Saved {}", first.display());
            if !others.is_empty() {
                let names: Vec<String> = others.iter().map(|p| p.display().to_string()).collect();
                text.push_str(&format!(" (and {})", names.join(", ")));
            }
            if !unchanged.is_empty() {
                let names: Vec<String> = unchanged
                    .iter()
                    .map(|p| crate::text::file_name(p))
                    .collect();
                text.push_str(&format!("; {} unchanged", names.join(", ")));
            }
            text
        }
        None => format!(
            "Nothing written: {} already holds these bytes",
            report.path.display()
        ),
    };
    if !report.losses.is_empty() {
        text.push_str(&format!(
            ", losing {}",
            crate::text::count(report.losses.len(), "thing")
        ));
    }
    text
}

/// Lists what the target cannot hold (and the file it replaces) and waits for a decision.
fn confirm_window(
    ctx: &egui::Context,
    state: &mut SaveAsState,
    doc: &mut OpenDocument,
    platform: &mut dyn Platform,
) -> Option<Feedback> {
    let pending = state.pending.as_ref()?;
    let mut answer = None;
    let name = pending.format().name();
    let losses = pending.losses();
    let outside = pending.writes_outside();
    let changed = pending.changed_outside();
    let keeps_backups = doc.session.backup_store().is_some();
    let own_file = doc.path() == Some(pending.path());
    let title = if state.plain_save {
        "Confirm Save"
    } else {
        "Confirm Save As"
    };
    egui::Window::new(title)
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            if pending.path().exists() && !own_file {
                ui.label(format!(
                    "{} already exists; it will be replaced (its old version is kept in Sprat's backups).",
                    pending.path().display()
                ));
            }
            if !losses.is_empty() {
                ui.label(format!(
                    "{name} cannot hold {} of this document. Saving to {} leaves them out:",
                    crate::text::count(losses.len(), "thing"),
                    pending.path().display()
                ));
                egui::ScrollArea::vertical()
                    .max_height(260.0)
                    .show(ui, |ui| {
                        for loss in losses {
                            ui.label(format!("• {}: {}", loss.place, loss.what));
                        }
                    });
            }
            if !outside.is_empty() {
                ui.label(format!(
                    "The document names files outside the folder of {}; saving writes them there:",
                    pending.path().display()
                ));
                for path in outside {
                    ui.label(format!("• {}", path.display()));
                }
            }
            for path in changed {
                ui.label(format!(
                    "{} was changed by another program since Sprat read it.",
                    path.display()
                ));
            }
            if !changed.is_empty() {
                ui.label(if keeps_backups {
                    "Reload the document to take that change (your unsaved changes are lost), or save anyway: the other program's version is then kept in Sprat's backups (File > Restore backup…)."
                } else {
                    "Reload the document to take that change (your unsaved changes are lost), or save anyway: this editor keeps no backups, so the other program's version is lost."
                });
            }
            ui.label("Nothing is written until you choose \"Save anyway\".");
            ui.horizontal(|ui| {
                if !changed.is_empty() && ui.button("Reload").clicked() {
                    answer = Some(Answer::Reload);
                }
                if ui.button("Save anyway").clicked() {
                    answer = Some(Answer::Save);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(Answer::Cancel);
                }
            });
        });
    match answer? {
        Answer::Save => {
            // The user has seen the exact paths listed above.
            let mut pending = state.pending.take()?;
            pending.confirm_outside();
            pending.overwrite_changes_outside();
            commit(state, doc, pending, platform)
        }
        Answer::Reload => {
            state.pending = None;
            state.shown = false;
            state.plain_save = false;
            state.reloaded = true;
            Some(crate::app::context::reload::reload_from_disk(doc))
        }
        Answer::Cancel => {
            state.pending = None;
            if state.plain_save {
                // A plain Save asked only this: nothing else to show.
                state.shown = false;
                state.plain_save = false;
                return Some(Feedback::new(
                    Severity::Info,
                    "Not saved: cancelled, nothing was written.".to_string(),
                ));
            }
            Some(Feedback::new(
                Severity::Info,
                "Save As cancelled; nothing was written.".to_string(),
            ))
        }
    }
}

/// The choices of the confirmation window.
#[derive(Clone, Copy)]
enum Answer {
    Save,
    Reload,
    Cancel,
}

/// A visible report of a failed save, until the user dismisses it. The message says what
/// state the files and the edits are in (each save error does). Returns true when the user
/// chose Save As instead (offered when a file was refused as read-only).
fn failure_window(ctx: &egui::Context, state: &mut SaveAsState) -> bool {
    let Some(message) = &state.failure else {
        return false;
    };
    let mut dismissed = false;
    let mut save_as = false;
    centred_window("Not saved")
        .show(ctx, |ui| {
            ui.label(message);
            if state.offer_save_as {
                ui.label("Sprat does not replace a file without write permission. Save your edits to another file with Save As, or give the file write permission and save again.");
            }
            ui.horizontal(|ui| {
                if state.offer_save_as {
                    save_as = ui.button("Save As…").clicked();
                }
                dismissed = ui.button("OK").clicked();
            });
        });
    if dismissed || save_as {
        state.failure = None;
        state.offer_save_as = false;
    }
    save_as
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(unchanged: &[&str], losses: usize) -> SaveReport {
        SaveReport {
            path: PathBuf::from("/q/kfm.def"),
            companions: vec![PathBuf::from("/q/kfm.air")],
            unchanged: unchanged.iter().map(PathBuf::from).collect(),
            losses: (0..losses)
                .map(|i| {
                    crate::formats::Loss::new(crate::formats::Place::document(), format!("{i}"))
                })
                .collect(),
        }
    }

    #[test]
    fn the_sentence_names_only_the_files_written() {
        assert_eq!(
            saved_text(&report(&[], 0)),
            "Saved /q/kfm.def (and /q/kfm.air)"
        );
        assert_eq!(
            saved_text(&report(&["/q/kfm.def"], 0)),
            "Saved /q/kfm.air; kfm.def unchanged"
        );
        assert_eq!(
            saved_text(&report(&["/q/kfm.def", "/q/kfm.air"], 0)),
            "Nothing written: /q/kfm.def already holds these bytes"
        );
        assert_eq!(
            saved_text(&report(&[], 1)),
            "Saved /q/kfm.def (and /q/kfm.air), losing 1 thing"
        );
    }

    #[test]
    fn the_extension_follows_the_format() {
        let air = format_of("mugen-air");
        assert_eq!(
            with_extension_of(Path::new("/q/hero.dat"), air),
            Path::new("/q/hero.air")
        );
        assert_eq!(
            with_extension_of(Path::new("/q/kfm.air"), air),
            Path::new("/q/kfm.air")
        );
    }
}
