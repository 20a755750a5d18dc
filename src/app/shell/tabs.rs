//! Several documents open at once, as tabs: the tab bar above the editing area, the tab
//! commands (show, next, previous, close) and the questions they ask.
//!
//! Each tab is a [`DocumentTab`]: the document and every panel's state about it. The editor
//! keeps them in tab-bar order with the id of the one on show; showing another tab changes
//! only that id (text still being typed in the inspector is first applied to the document it
//! was typed for, so nothing typed is lost).
//!
//! Every document keeps autosaving while it waits (see `SpratApp::tick_sessions` in
//! `recovery.rs`), and closing a tab with unsaved changes asks first.

use crate::app::context::command_sender::{CommandSender, SystemCommand};
use crate::app::context::document::OpenDocument;
use crate::app::shell::app::{AfterConfirm, SpratApp};
use crate::app::shell::document_tab::DocumentTab;
use crate::assets::files_drawn_from;
use std::path::{Path, PathBuf};

pub use crate::app::context::tab_id::TabId;

/// One tab as the tab bar and the Window menu show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TabEntry {
    /// The tab.
    pub tab: TabId,
    /// Its file name, with the folder when another open file has the same name.
    pub name: String,
    /// Where the file is, for the hover text ("not saved yet" for a new document).
    pub location: String,
    /// The document has unsaved changes.
    pub dirty: bool,
    /// The file changed on disk while the tab waited (the user is asked when it shows).
    pub changed_on_disk: bool,
    /// The tab is on show.
    pub active: bool,
}

impl TabEntry {
    /// The tab's text: the name, `*` when there are unsaved changes, and a mark when the file
    /// changed on disk while the tab waited.
    pub fn title(&self) -> String {
        let mut title = self.name.clone();
        if self.dirty {
            title.push_str(" *");
        }
        if self.changed_on_disk {
            title.push_str(" (changed on disk)");
        }
        title
    }
}

/// The tabs in tab-bar order, as the tab bar shows them.
pub fn entries(tabs: &[DocumentTab], active: Option<TabId>) -> Vec<TabEntry> {
    tabs.iter()
        .map(|tab| {
            let document = &tab.doc;
            let name = document.display_name();
            let shared = tabs
                .iter()
                .filter(|other| other.doc.display_name() == name)
                .count()
                > 1;
            let folder = document
                .path()
                .and_then(Path::parent)
                .and_then(Path::file_name)
                .map(|f| f.to_string_lossy().into_owned());
            let name = match folder {
                Some(folder) if shared => format!("{name} — {folder}"),
                _ => name,
            };
            let on_show = Some(tab.id) == active;
            TabEntry {
                tab: tab.id,
                name,
                location: document
                    .path()
                    .map_or_else(|| "not saved yet".to_string(), |p| p.display().to_string()),
                dirty: document.session.is_dirty(),
                // The tab on show asks at once; a waiting one is marked.
                changed_on_disk: tab.changed_on_disk && !on_show,
                active: on_show,
            }
        })
        .collect()
}

/// Paints the tab bar: a tab per document (click to show it, middle-click to close it), each
/// with a close button. What is asked for goes into `commands`.
pub fn tab_bar(ui: &mut egui::Ui, entries: &[TabEntry], commands: &mut CommandSender) {
    egui::ScrollArea::horizontal()
        .auto_shrink([false, true])
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                for entry in entries {
                    let tab = ui
                        .add(egui::Button::selectable(entry.active, entry.title()))
                        .on_hover_text(&entry.location);
                    if tab.clicked() {
                        commands.send_system(SystemCommand::ShowTab(entry.tab));
                    }
                    if tab.middle_clicked() {
                        commands.send_system(SystemCommand::CloseTab(entry.tab));
                    }
                    let close_label = format!("Close {}", entry.name);
                    let close = ui
                        .add(egui::Button::new("×").frame(false))
                        .on_hover_text(&close_label);
                    close.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Button, true, &close_label)
                    });
                    if close.clicked() {
                        commands.send_system(SystemCommand::CloseTab(entry.tab));
                    }
                    ui.separator();
                }
            });
        });
}

/// True when `a` and `b` name the same file (through links and `..` when both exist).
fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (
        crate::formats::input::canonicalize(a),
        crate::formats::input::canonicalize(b),
    ) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

impl SpratApp {
    /// The tab whose document was read from `path`, if one is open.
    pub fn tab_of_file(&self, path: &Path) -> Option<TabId> {
        self.documents
            .iter()
            .find(|t| t.doc.path().is_some_and(|p| same_file(p, path)))
            .map(|t| t.id)
    }

    /// True when any open document has unsaved changes.
    pub fn any_unsaved(&self) -> bool {
        self.documents.iter().any(|t| t.doc.session.is_dirty())
    }

    /// Removes the recovery files of every open document: the user chose to quit without
    /// saving, so the next start must not offer those changes back.
    pub(crate) fn discard_all_recovery(&mut self) {
        for tab in &mut self.documents {
            tab.doc.session.discard_recovery();
        }
    }

    /// The file names of every document with unsaved changes, in tab order.
    pub fn unsaved_names(&self) -> Vec<String> {
        entries(&self.documents, self.active)
            .into_iter()
            .filter(|e| e.dirty)
            .map(|e| e.name)
            .collect()
    }

    /// Shows `doc` in a new tab placed after the tab on show.
    pub(crate) fn add_tab(&mut self, doc: OpenDocument) {
        self.apply_inspector_draft();
        self.next_tab += 1;
        let tab = DocumentTab::new(TabId(self.next_tab), doc);
        let id = tab.id;
        match self.active_index() {
            Some(at) => self.documents.insert(at + 1, tab),
            None => self.documents.push(tab),
        }
        self.came_on_show(id);
    }

    /// Shows another tab; its document comes back as it was left (selection, frame, zoom).
    pub fn show_tab(&mut self, tab: TabId) {
        if self.active == Some(tab) || !self.documents.iter().any(|t| t.id == tab) {
            return;
        }
        // A close confirmation is about the tab on show: leaving it is an answer ("not now").
        if matches!(self.confirm_discard, Some(AfterConfirm::Close(_))) {
            self.confirm_discard = None;
        }
        self.apply_inspector_draft();
        self.bring_message_of(tab);
        self.came_on_show(tab);
    }

    /// The status bar speaks of the tab on show: the tab left keeps what was said about it,
    /// and `tab` says its own again (nothing if nothing was said about it).
    fn bring_message_of(&mut self, tab: TabId) {
        let said = self.status.take();
        if let Some(left) = self.active_tab_mut() {
            left.status = said;
        }
        self.status = self
            .documents
            .iter_mut()
            .find(|t| t.id == tab)
            .and_then(|t| t.status.take());
    }

    /// `tab` is now the one on show: what the editor caches for the document on show (rendered
    /// frames) is about another document, and keyboard focus is in another tab's widgets.
    fn came_on_show(&mut self, tab: TabId) {
        self.active = Some(tab);
        self.textures.clear();
        self.was_playing = false;
        self.leave_focus = true;
    }

    /// Shows the tab `step` places to the right (negative: left), wrapping around.
    pub fn step_tab(&mut self, step: isize) {
        let Some(at) = self.active_index() else {
            return;
        };
        let count = self.documents.len() as isize;
        let next = (at as isize + step).rem_euclid(count) as usize;
        let id = self.documents[next].id;
        self.show_tab(id);
    }

    /// Closes a tab; one with unsaved changes is shown and the user asked first. Text still
    /// being typed in the inspector counts as a change.
    pub fn request_close_tab(&mut self, tab: TabId) {
        if self.active == Some(tab) {
            self.apply_inspector_draft();
        }
        let Some(document) = self.documents.iter().find(|t| t.id == tab) else {
            return;
        };
        if document.doc.session.is_dirty() {
            self.show_tab(tab);
            self.confirm_discard = Some(AfterConfirm::Close(tab));
        } else {
            self.close_tab_now(tab);
        }
    }

    /// Closes a tab without asking (the user has answered): its recovery files go with it,
    /// and the tab to its right (else to its left) shows if it was the one on show.
    pub(crate) fn close_tab_now(&mut self, tab: TabId) {
        let Some(at) = self.documents.iter().position(|t| t.id == tab) else {
            return;
        };
        {
            let closed = self.documents.remove(at);
            // What only the closed document drew from is let go now: it would otherwise stay
            // in memory until other pictures pushed it out, however long the editor stays open.
            let still_drawn: Vec<PathBuf> = self
                .documents
                .iter()
                .flat_map(|t| files_drawn_from(t.doc.session.document()))
                .collect();
            self.pixels
                .release_files_of(closed.doc.session.document(), |path| {
                    still_drawn.iter().any(|kept| kept == path)
                });
            closed.doc.session.close();
        }
        self.return_memory = true;
        if self.active != Some(tab) {
            return;
        }
        self.active = None;
        let neighbour = self
            .documents
            .get(at)
            .or_else(|| self.documents.last())
            .map(|t| t.id);
        match neighbour {
            Some(neighbour) => {
                // What was said about the closed tab goes with it.
                self.bring_message_of(neighbour);
                self.came_on_show(neighbour);
            }
            // Nothing on show: its textures and composed pictures go, and the worker ends.
            None => self.textures.release(),
        }
    }

    /// Applies text still being typed in an inspector field to the document on show, as its
    /// own undo step: the user is leaving that document, and what they typed is kept.
    pub(crate) fn apply_inspector_draft(&mut self) {
        let Some(tab) = self.active_tab_mut() else {
            return;
        };
        let Some(draft) = tab.inspector.draft.take() else {
            return;
        };
        let doc = &mut tab.doc;
        let gesture = doc.new_gesture();
        if let Err(message) = doc.apply(draft.command.as_ref(), Some(gesture)) {
            self.say_refused(&message);
        }
    }

    /// Hands the hang-sequence picker of the tab on show the documents of the other tabs;
    /// `names` are this frame's [`entries`].
    pub(crate) fn offer_documents_to_hang(&mut self, names: &[TabEntry]) {
        let Some(at) = self.active_index() else {
            return;
        };
        let (before, rest) = self.documents.split_at_mut(at);
        let (active, after) = rest
            .split_first_mut()
            .expect("the active index is in range");
        let others = before.iter().chain(after.iter()).map(|t| {
            let name = names
                .iter()
                .find(|e| e.tab == t.id)
                .map_or_else(|| t.doc.display_name(), |e| e.name.clone());
            (t.id, name, t.doc.revision, t.doc.document())
        });
        active.canvas.tools.hang.offer_open_documents(others);
    }

    /// Saves every document with unsaved changes, the one on show first, each other one
    /// brought to the front to be saved. Stops at a document that is not saved (it needs Save
    /// As, a loss to confirm, or the save failed), which stays on show; true when all are saved.
    pub(crate) fn save_all(&mut self) -> bool {
        loop {
            if self.active_document().is_some_and(|o| o.session.is_dirty()) {
                self.save();
                if self.active_document().is_some_and(|o| o.session.is_dirty()) {
                    return false;
                }
            }
            let next = self
                .documents
                .iter()
                .find(|t| t.doc.session.is_dirty())
                .map(|t| t.id);
            match next {
                Some(tab) => self.show_tab(tab),
                None => return true,
            }
        }
    }
}
