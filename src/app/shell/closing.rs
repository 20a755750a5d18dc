//! Saving and closing: Save to the document's own file, the unsaved-changes question before
//! a tab closes or the editor quits, and going on once the save it asked for is written.

use crate::app::context::centred_window::centred_window;
use crate::app::shell::app::{AfterConfirm, SpratApp, active_tab_in};
use crate::app::shell::save_as;
use crate::assets::ImageStore;
use crate::formats::Severity;
use std::path::Path;

impl SpratApp {
    /// Saves the document in its own format, to its own file; a failure leaves the file and
    /// the edits as they were and says why, in the status bar and in a window. A document with
    /// no file, or in a format Sprat cannot write, goes to Save As instead.
    pub fn save(&mut self) {
        let pixels: &ImageStore = &self.pixels;
        let platform = self.platform.as_mut();
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        let (doc, save_as) = (&mut tab.doc, &mut tab.save_as);
        let writable = doc.session.format().capabilities().write;
        if doc.path().is_none() || !writable {
            save_as.start(doc);
            return;
        }
        // Prepared first, so a save that would leave out an edit the format cannot hold is
        // confirmed before anything is written, exactly like Save As.
        let saved = doc
            .path()
            .map(Path::to_path_buf)
            .ok_or_else(|| crate::session::SaveError::new("This document has no file."))
            .and_then(|path| {
                let format = doc.format_id().to_string();
                doc.session.prepare_save_as(&path, &format, Some(pixels))
            })
            .and_then(|pending| {
                if !pending.needs_confirmation() {
                    platform.deliver_save(&mut doc.session, pending).map(Some)
                } else {
                    save_as.confirm_lossy_save(pending);
                    Ok(None)
                }
            });
        if let Err(error) = &saved {
            save_as.failed(error);
        }
        let changed_outside: Vec<String> = save_as
            .pending
            .as_ref()
            .map(|p| {
                p.changed_outside()
                    .iter()
                    .map(|p| crate::text::file_name(p))
                    .collect()
            })
            .unwrap_or_default();
        match saved {
            Ok(Some(report)) => {
                doc.revision += 1;
                self.say(Severity::Info, save_as::saved_text(&report));
            }
            Ok(None) if !changed_outside.is_empty() => self.say(
                Severity::Warning,
                format!(
                    "Not saved yet: {} changed on disk; choose Reload, Save anyway or Cancel.",
                    list_names(&changed_outside)
                ),
            ),
            Ok(None) => self.say(
                Severity::Warning,
                "Not saved yet: confirm or cancel what the save window lists.",
            ),
            Err(error) => self.say(Severity::Error, save_as::not_saved_text(&error)),
        }
    }

    /// Whether the tab on show has its Save As window open.
    pub(super) fn save_as_shown(&self) -> bool {
        self.active_tab().is_some_and(|t| t.save_as.shown)
    }

    /// Asks what to do with unsaved changes before a tab closes or the editor quits: Save
    /// (every unsaved document, when quitting), Discard changes, or Cancel.
    pub(super) fn confirm_discard_window(&mut self, ctx: &egui::Context) {
        let Some(after) = self.confirm_discard.clone() else {
            return;
        };
        let (names, question) = match &after {
            AfterConfirm::Close(tab) => {
                if self.active != Some(*tab) {
                    // The tab was closed or left meanwhile: nothing to ask any more.
                    self.confirm_discard = None;
                    return;
                }
                let name = self
                    .active_document()
                    .map(|o| o.display_name())
                    .unwrap_or_default();
                (vec![name], "Save them before closing it?")
            }
            AfterConfirm::Quit => (self.unsaved_names(), "Save them before quitting?"),
        };
        let has = if names.len() > 1 { "have" } else { "has" };
        let mut choice = None;
        centred_window("Unsaved changes").show(ctx, |ui| {
            ui.label(format!(
                "{} {has} changes that are not saved. {question}",
                list_names(&names)
            ));
            ui.horizontal(|ui| {
                for (label, answer) in [("Save", 0), ("Discard changes", 1), ("Cancel", 2)] {
                    if ui.button(label).clicked() {
                        choice = Some(answer);
                    }
                }
            });
        });
        let proceed = match choice {
            // Go on only if the saves worked: a failed save keeps the edits on screen.
            Some(0) => {
                let saved = match after {
                    AfterConfirm::Close(_) => {
                        self.save();
                        self.active_document()
                            .is_some_and(|o| !o.session.is_dirty())
                    }
                    AfterConfirm::Quit => self.save_all(),
                };
                if !saved && self.save_as_shown() {
                    // A file name or a loss confirmation is needed first: go on once written.
                    self.after_save = Some(after.clone());
                    self.confirm_discard = None;
                }
                saved
            }
            Some(1) => true,
            Some(_) => {
                self.confirm_discard = None;
                false
            }
            None => false,
        };
        if proceed {
            self.confirm_discard = None;
            match after {
                AfterConfirm::Close(tab) => self.close_tab_now(tab),
                AfterConfirm::Quit => self.quit_now(ctx),
            }
        }
    }

    /// Closes the tab or quits once the Save As window that "Save" opened has written the
    /// file; a cancelled or failed save leaves everything open.
    pub(super) fn go_on_after_save(&mut self, ctx: &egui::Context) {
        if self.save_as_shown() {
            return;
        }
        let Some(after) = self.after_save.take() else {
            return;
        };
        let saved = self
            .active_document()
            .is_some_and(|o| !o.session.is_dirty());
        match after {
            AfterConfirm::Close(tab) if saved && self.active == Some(tab) => {
                self.close_tab_now(tab);
            }
            // Other documents may still have changes: the question comes back for them.
            AfterConfirm::Quit if saved => self.confirm_discard = Some(AfterConfirm::Quit),
            _ => {}
        }
        if self.confirm_discard == Some(AfterConfirm::Quit) && !self.any_unsaved() {
            self.confirm_discard = None;
            self.quit_now(ctx);
        }
    }

    /// Closes the editor, the user having answered for every unsaved change (recovery files
    /// of changes they chose to drop go too).
    pub(super) fn quit_now(&mut self, ctx: &egui::Context) {
        self.discard_all_recovery();
        self.quit_confirmed = true;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }

    /// Told to stop (SIGTERM, SIGHUP; see `stop_signals`): writes every unsaved document to
    /// its recovery folder now, with its last edit, where the next start offers it back, and
    /// closes without asking (nobody is there to answer during a logout or a shutdown).
    pub(super) fn stop_if_asked(&mut self, ctx: &egui::Context) {
        if !self.stop_request.is_requested() || self.quit_confirmed {
            return;
        }
        for tab in &mut self.documents {
            let report = tab.doc.session.autosave_now();
            if let Some(error) = report.autosave_error {
                log::error!("{}: {error}", tab.doc.display_name());
            }
        }
        self.quit_confirmed = true;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }

    /// Holds a window close while any tab has unsaved changes, and asks.
    pub(super) fn guard_close(&mut self, ctx: &egui::Context) {
        let closing = ctx.input(|i| i.viewport().close_requested());
        if closing && self.any_unsaved() && !self.quit_confirmed {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.confirm_discard = Some(AfterConfirm::Quit);
        }
    }
}

/// "a.air", "a.air and b.def", "a.air, b.def and c.sff".
pub(super) fn list_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [only] => only.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
