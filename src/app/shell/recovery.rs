//! Work kept safe: autosave ticks for every tab, pictures reloaded when their files change,
//! unsaved work from an earlier run offered back, and the question when a document's own file
//! changed on disk.

use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::shown_path;
use crate::app::shell::app::SpratApp;
use crate::app::shell::disk_waker;
use crate::app::shell::document_tab::DocumentTab;
use crate::app::shell::tabs::TabId;
use crate::formats::Severity;
use std::time::{Duration, Instant};

impl SpratApp {
    /// Lists unsaved work left by an earlier run, to offer it back.
    pub fn look_for_recovery(&mut self) {
        if let Some(dir) = &self.recovery_dir {
            self.recoverable = crate::session::RecoveryStore::new(dir).list();
        }
    }

    /// Autosaves every document with unsaved changes, the ones waiting in tabs too, and
    /// reloads pixels whose files changed. A document file changed on disk is asked about when
    /// its tab is on show.
    pub(super) fn tick_sessions(&mut self, ctx: &egui::Context) {
        // Without a disk (a web page) there is nothing to write aside and no file to watch.
        if !self.platform.has_disk() {
            return;
        }
        let now = Instant::now();
        let waker = self.disk_waker.get_or_insert_with(|| {
            let ctx = ctx.clone();
            disk_waker::DiskWaker::start(move || ctx.request_repaint())
        });
        let files_changed = waker.take_changed();
        let mut watched = Vec::new();
        let mut errors = Vec::new();
        let mut next_autosave: Option<Duration> = None;
        // One loop over every tab: documents waiting in tabs autosave and notice changes too.
        for tab in &mut self.documents {
            let doc = &mut tab.doc;
            // The disk is looked at by the waker's thread; the session checks only when told.
            let mut report = doc.session.tick_autosave(now);
            if files_changed {
                report.changes.extend(doc.session.check_files());
            }
            for change in &report.changes {
                match change {
                    crate::session::FileChange::Source { path, .. } => {
                        self.pixels.invalidate(path);
                        doc.session.refresh_imported(path);
                        doc.revision += 1;
                    }
                    crate::session::FileChange::Document { path, .. }
                    | crate::session::FileChange::Companion { path, .. } => {
                        tab.changed_on_disk = true;
                        if !tab.changed_files.contains(path) {
                            tab.changed_files.push(path.clone());
                        }
                    }
                }
            }
            errors.extend(report.autosave_error);
            let due = doc.session.autosave_due_in(now);
            next_autosave = next_autosave.into_iter().chain(due).min();
            watched.extend(doc.session.watched_stamps());
        }
        waker.watch(watched);
        if let Some(error) = errors.pop() {
            self.say(Severity::Warning, error);
        }
        // Wake up for a waiting autosave; file changes wake the editor through the waker, so
        // an idle editor with nothing to write sleeps.
        if let Some(due) = next_autosave {
            ctx.request_repaint_after(due);
        }
    }

    pub(super) fn recovery_window(&mut self, ctx: &egui::Context) {
        if self.recoverable.is_empty() {
            return;
        }
        let mut recover = None;
        let mut discard = None;
        egui::Window::new("Recover unsaved work")
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label("Sprat closed without saving these documents. Recover them?");
                for (i, entry) in self.recoverable.iter().enumerate() {
                    ui.horizontal(|ui| {
                        let name = entry
                            .source
                            .as_ref()
                            .map_or("a new document".to_string(), |p| p.display().to_string());
                        ui.label(name);
                        if ui.button("Recover").clicked() {
                            recover = Some(i);
                        }
                        if ui.button("Discard").clicked() {
                            discard = Some(i);
                        }
                    });
                }
            });
        let Some(dir) = self.recovery_dir.clone() else {
            return;
        };
        let store = crate::session::RecoveryStore::new(dir);
        if let Some(i) = discard {
            let entry = self.recoverable.remove(i);
            if let Err(e) = store.discard(&entry) {
                self.say(
                    Severity::Warning,
                    format!("Could not remove the recovery file: {e}"),
                );
            }
        }
        if let Some(i) = recover {
            self.recover(&store, i);
        }
    }

    /// Opens recovery `i` of the ones offered: in a tab of its own, or in place of the tab
    /// of the same file (opened from the command line, say) while that tab has no changes of
    /// its own, so a file is never open in two tabs. A tab with changes of its own is shown
    /// and the recovery stays offered until that tab is saved or closed.
    fn recover(&mut self, store: &crate::session::RecoveryStore, i: usize) {
        let source = self.recoverable[i].source.clone();
        let open_tab = source.as_deref().and_then(|path| self.tab_of_file(path));
        let changed = |tab: &DocumentTab| Some(tab.id) == open_tab && tab.doc.session.is_dirty();
        if let (Some(tab), Some(path)) = (open_tab, &source)
            && self.documents.iter().any(changed)
        {
            self.show_tab(tab);
            self.say(
                Severity::Warning,
                format!(
                    "{} is open with changes of its own: save or close its tab, then recover.",
                    shown_path(path)
                ),
            );
            return;
        }
        let entry = self.recoverable.remove(i);
        match store.recover(&entry) {
            Ok(session) => {
                let doc = OpenDocument::from_session(session);
                match open_tab {
                    Some(tab) => self.replace_tab(tab, doc),
                    None => self.install(doc),
                }
                self.say(
                    Severity::Info,
                    "Recovered unsaved work; save it to keep it.",
                );
            }
            Err(e) => self.say(Severity::Error, format!("Could not recover: {e}")),
        }
    }

    /// Closes `tab` and shows `doc` in a new tab where it was.
    fn replace_tab(&mut self, tab: TabId, doc: OpenDocument) {
        let at = self.documents.iter().position(|t| t.id == tab);
        self.close_tab_now(tab);
        self.install(doc);
        if let (Some(at), Some(now)) = (at, self.active_index()) {
            let moved = self.documents.remove(now);
            self.documents.insert(at.min(self.documents.len()), moved);
        }
    }

    pub(super) fn changed_on_disk_window(&mut self, ctx: &egui::Context) {
        let Some(tab) = self.active_tab().filter(|t| t.changed_on_disk) else {
            return;
        };
        let mut answer = None;
        let name = tab.doc.display_name();
        let own = tab.doc.path();
        // Files read with the document (the `.air` of a `.def`) are named; the document's own
        // file is the document.
        let companions: Vec<String> = tab
            .changed_files
            .iter()
            .filter(|p| Some(p.as_path()) != own)
            .map(|p| crate::text::file_name(p))
            .collect();
        let own_changed = tab.changed_files.iter().any(|p| Some(p.as_path()) == own);
        let question = if companions.is_empty() || own_changed {
            format!(
                "{name} was changed by another program. Reload it (your unsaved changes are lost) or keep your version?"
            )
        } else {
            let names = super::closing::list_names(&companions);
            let were = if companions.len() > 1 { "were" } else { "was" };
            format!(
                "{names}, read with {name}, {were} changed by another program. Reload the document (your unsaved changes are lost), or keep your version: a save will ask before replacing the change."
            )
        };
        egui::Window::new("File changed on disk")
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label(question);
                ui.horizontal(|ui| {
                    if ui.button("Reload").clicked() {
                        answer = Some(true);
                    }
                    if ui.button("Keep mine").clicked() {
                        answer = Some(false);
                    }
                });
            });
        let Some(reload) = answer else {
            return;
        };
        let Some(tab) = self.active_tab_mut() else {
            return;
        };
        tab.changed_on_disk = false;
        tab.changed_files.clear();
        let doc = &mut tab.doc;
        if reload {
            let said = crate::app::context::reload::reload_from_disk(doc);
            self.status = Some(said);
        } else {
            doc.session.keep_mine();
        }
    }
}
