//! Several documents open at once, as tabs: the tab bar above the editing area, the tab
//! commands (show, next, previous, close) and what each tab remembers while another one shows.
//!
//! The document on show stays in [`SpratApp::open`], the one every panel edits; the others wait
//! in [`Tabs`] as [`Parked`] documents, each with its own selection, undo history and player
//! (all in the [`OpenDocument`]) plus what the editor's panels remember about it
//! ([`TabMemory`]: zoom and pan, tree folding and filter, timeline anchor, the sequences hung on
//! its points, an unanswered change on disk). Showing another tab first applies text still
//! being typed in the inspector to the document it was typed for, then swaps the two.
//!
//! Every document keeps autosaving while it waits (see `SpratApp::tick_sessions` in
//! `mod.rs`), and closing a tab with unsaved changes asks first.

use super::timeline_edit::TimelineState;
use super::tools::hang::Hung;
use super::tree::TreeState;
use super::workspace::OpenDocument;
use super::{AfterConfirm, SpratApp};
use std::path::Path;

pub use super::tab_id::TabId;

/// What the editor remembers about a document while another tab shows.
#[derive(Default)]
pub struct TabMemory {
    /// Zoom and pan; `None` = never shown yet, so the frame is fitted when it first shows.
    view: Option<(f32, egui::Vec2)>,
    tree: TreeState,
    timeline: TimelineState,
    hung: Vec<Hung>,
    changed_on_disk: bool,
}

/// A document waiting in a tab that is not on show.
pub struct Parked {
    /// Its tab.
    pub tab: TabId,
    /// The document, its history, selection and player.
    pub open: OpenDocument,
    memory: TabMemory,
}

impl Parked {
    /// The file changed on disk while the tab waited; the user is asked when it shows.
    pub fn mark_changed_on_disk(&mut self) {
        self.memory.changed_on_disk = true;
    }
}

/// The open tabs: their order in the tab bar, the one on show, and the documents of the others.
#[derive(Default)]
pub struct Tabs {
    order: Vec<TabId>,
    active: Option<TabId>,
    parked: Vec<Parked>,
    next: u64,
}

impl Tabs {
    /// The tab on show (its document is [`SpratApp::open`]).
    pub fn active(&self) -> Option<TabId> {
        self.active
    }

    /// Every tab, in tab-bar order.
    pub fn order(&self) -> &[TabId] {
        &self.order
    }

    /// The documents of the tabs not on show (in no particular order).
    pub fn parked(&self) -> &[Parked] {
        &self.parked
    }

    /// The same, to tick their sessions.
    pub fn parked_mut(&mut self) -> &mut [Parked] {
        &mut self.parked
    }

    fn new_id(&mut self) -> TabId {
        self.next += 1;
        TabId(self.next)
    }

    fn parked_index(&self, tab: TabId) -> Option<usize> {
        self.parked.iter().position(|p| p.tab == tab)
    }
}

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

/// The tabs in tab-bar order; `open` is the document on show.
pub fn entries(tabs: &Tabs, open: Option<&OpenDocument>) -> Vec<TabEntry> {
    // The document on show answers a change on disk at once; a waiting one is marked.
    let documents: Vec<(TabId, &OpenDocument, bool)> = tabs
        .order
        .iter()
        .filter_map(|tab| {
            if Some(*tab) == tabs.active {
                open.map(|o| (*tab, o, false))
            } else {
                tabs.parked
                    .iter()
                    .find(|p| p.tab == *tab)
                    .map(|p| (*tab, &p.open, p.memory.changed_on_disk))
            }
        })
        .collect();
    documents
        .iter()
        .map(|&(tab, document, changed_on_disk)| {
            let name = document.display_name();
            let shared = documents
                .iter()
                .filter(|(_, other, _)| other.display_name() == name)
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
            TabEntry {
                tab,
                name,
                location: document
                    .path()
                    .map_or_else(|| "not saved yet".to_string(), |p| p.display().to_string()),
                dirty: document.session.is_dirty(),
                changed_on_disk,
                active: Some(tab) == tabs.active,
            }
        })
        .collect()
}

/// What the tab bar asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TabAction {
    /// Show this tab.
    Show(TabId),
    /// Close this tab (asking first if it has unsaved changes).
    Close(TabId),
}

/// Paints the tab bar: a tab per document (click to show it, middle-click to close it), each
/// with a close button.
pub fn tab_bar(ui: &mut egui::Ui, entries: &[TabEntry]) -> Option<TabAction> {
    let mut action = None;
    egui::ScrollArea::horizontal()
        .auto_shrink([false, true])
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                for entry in entries {
                    let tab = ui
                        .add(egui::Button::selectable(entry.active, entry.title()))
                        .on_hover_text(&entry.location);
                    if tab.clicked() {
                        action = Some(TabAction::Show(entry.tab));
                    }
                    if tab.middle_clicked() {
                        action = Some(TabAction::Close(entry.tab));
                    }
                    let close_label = format!("Close {}", entry.name);
                    let close = ui
                        .add(egui::Button::new("×").frame(false))
                        .on_hover_text(&close_label);
                    close.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Button, true, &close_label)
                    });
                    if close.clicked() {
                        action = Some(TabAction::Close(entry.tab));
                    }
                    ui.separator();
                }
            });
        });
    action
}

/// True when `a` and `b` name the same file (through links and `..` when both exist).
fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

impl SpratApp {
    /// The tab whose document was read from `path`, if one is open.
    pub fn tab_of_file(&self, path: &Path) -> Option<TabId> {
        let active = self
            .open
            .as_ref()
            .and_then(|o| o.path())
            .is_some_and(|p| same_file(p, path));
        if active {
            return self.tabs.active;
        }
        self.tabs
            .parked
            .iter()
            .find(|p| p.open.path().is_some_and(|p| same_file(p, path)))
            .map(|p| p.tab)
    }

    /// True when the document on show or any document waiting in a tab has unsaved changes.
    pub fn any_unsaved(&self) -> bool {
        self.open.as_ref().is_some_and(|o| o.session.is_dirty())
            || self.tabs.parked.iter().any(|p| p.open.session.is_dirty())
    }

    /// Removes the recovery files of every open document: the user chose to quit without
    /// saving, so the next start must not offer those changes back.
    pub(super) fn discard_all_recovery(&mut self) {
        if let Some(open) = self.open.as_mut() {
            open.session.discard_recovery();
        }
        for parked in &mut self.tabs.parked {
            parked.open.session.discard_recovery();
        }
    }

    /// The file names of every document with unsaved changes, in tab order.
    pub fn unsaved_names(&self) -> Vec<String> {
        entries(&self.tabs, self.open.as_ref())
            .into_iter()
            .filter(|e| e.dirty)
            .map(|e| e.name)
            .collect()
    }

    /// Shows `open` in a new tab placed after the tab on show.
    pub(super) fn add_tab(&mut self, open: OpenDocument) {
        let after = self
            .tabs
            .active
            .and_then(|active| self.tabs.order.iter().position(|t| *t == active));
        self.park_active();
        let tab = self.tabs.new_id();
        match after {
            Some(at) => self.tabs.order.insert(at + 1, tab),
            None => self.tabs.order.push(tab),
        }
        self.tabs.active = Some(tab);
        self.show_in_editor(open, TabMemory::default());
    }

    /// Shows another tab; its document comes back as it was left (selection, frame, zoom).
    pub fn show_tab(&mut self, tab: TabId) {
        if self.tabs.active == Some(tab) {
            return;
        }
        let Some(index) = self.tabs.parked_index(tab) else {
            return;
        };
        // A close confirmation is about the tab on show: leaving it is an answer ("not now").
        if matches!(self.confirm_discard, Some(AfterConfirm::Close(_))) {
            self.confirm_discard = None;
        }
        self.park_active();
        let parked = self.tabs.parked.remove(index);
        self.tabs.active = Some(tab);
        self.show_in_editor(parked.open, parked.memory);
    }

    /// Shows the tab `step` places to the right (negative: left), wrapping around.
    pub fn step_tab(&mut self, step: isize) {
        let order = &self.tabs.order;
        let Some(at) = self
            .tabs
            .active
            .and_then(|active| order.iter().position(|t| *t == active))
        else {
            return;
        };
        let next = (at as isize + step).rem_euclid(order.len() as isize) as usize;
        self.show_tab(order[next]);
    }

    /// Closes a tab; one with unsaved changes is shown and the user asked first. Text still
    /// being typed in the inspector counts as a change.
    pub fn request_close_tab(&mut self, tab: TabId) {
        if self.tabs.active == Some(tab) {
            self.apply_inspector_draft();
        }
        let dirty = match self.tabs.parked_index(tab) {
            Some(i) => self.tabs.parked[i].open.session.is_dirty(),
            None if self.tabs.active == Some(tab) => {
                self.open.as_ref().is_some_and(|o| o.session.is_dirty())
            }
            None => return,
        };
        if dirty {
            self.show_tab(tab);
            self.confirm_discard = Some(AfterConfirm::Close(tab));
        } else {
            self.close_tab_now(tab);
        }
    }

    /// Closes a tab without asking (the user has answered): its recovery files go with it,
    /// and the tab to its right (else to its left) shows if it was the one on show.
    pub(super) fn close_tab_now(&mut self, tab: TabId) {
        let Some(at) = self.tabs.order.iter().position(|t| *t == tab) else {
            return;
        };
        self.tabs.order.remove(at);
        if let Some(index) = self.tabs.parked_index(tab) {
            self.tabs.parked.remove(index).open.session.close();
            return;
        }
        // The tab on show: what was typed for it goes with it.
        self.inspector_draft = None;
        if let Some(open) = self.open.take() {
            open.session.close();
        }
        self.tabs.active = None;
        let neighbour = self
            .tabs
            .order
            .get(at)
            .or_else(|| self.tabs.order.last())
            .copied();
        match neighbour.and_then(|t| self.tabs.parked_index(t)) {
            Some(index) => {
                let parked = self.tabs.parked.remove(index);
                self.tabs.active = Some(parked.tab);
                self.show_in_editor(parked.open, parked.memory);
            }
            None => {
                let memory = TabMemory::default();
                self.tree = memory.tree;
                self.timeline = memory.timeline;
                self.forget_document_state();
            }
        }
    }

    /// Applies text still being typed in an inspector field to the document on show, as its
    /// own undo step: the user is leaving that document, and what they typed is kept.
    pub(super) fn apply_inspector_draft(&mut self) {
        let Some(draft) = self.inspector_draft.take() else {
            return;
        };
        self.forget_typing = true;
        let Some(open) = self.open.as_mut() else {
            return;
        };
        let gesture = open.new_gesture();
        if let Err(message) = open.apply(draft.command.as_ref(), Some(gesture)) {
            self.say_refused(&message);
        }
    }

    /// Moves the document on show, with what the editor remembers about it, into its tab.
    fn park_active(&mut self) {
        self.apply_inspector_draft();
        let (Some(open), Some(tab)) = (self.open.take(), self.tabs.active.take()) else {
            return;
        };
        let memory = TabMemory {
            view: Some((self.settings.view.zoom, self.canvas.pan)),
            tree: std::mem::take(&mut self.tree),
            timeline: std::mem::take(&mut self.timeline),
            hung: std::mem::take(&mut self.canvas.tools.hang.hung),
            changed_on_disk: std::mem::replace(&mut self.changed_on_disk, false),
        };
        self.tabs.parked.push(Parked { tab, open, memory });
    }

    /// Puts `open` in the editor with what was remembered about it.
    fn show_in_editor(&mut self, open: OpenDocument, memory: TabMemory) {
        self.open = Some(open);
        self.tree = memory.tree;
        self.timeline = memory.timeline;
        self.forget_document_state();
        match memory.view {
            Some((zoom, pan)) => {
                self.settings.view.zoom = zoom;
                self.canvas.pan = pan;
                self.canvas.fit_requested = false;
            }
            None => self.canvas.fit_requested = true,
        }
        self.canvas.tools.hang.hung = memory.hung;
        self.changed_on_disk = memory.changed_on_disk;
    }

    /// Forgets what belonged to the document that was on show: cached pictures, the drag in
    /// progress, the undo step the inspector was adding to, the Save As window (its write was
    /// prepared from that document), keyboard focus and typed text.
    fn forget_document_state(&mut self) {
        self.textures.clear();
        self.sheet.reset();
        self.canvas.tools.document_replaced();
        self.inspector_gesture = None;
        self.inspector_draft = None;
        self.save_as.shown = false;
        self.save_as.pending = None;
        self.changed_on_disk = false;
        self.was_playing = false;
        self.forget_typing = true;
    }

    /// Hands the hang-sequence picker the documents of the other tabs; `names` are this
    /// frame's [`entries`].
    pub(super) fn offer_documents_to_hang(&mut self, names: &[TabEntry]) {
        let others = self.tabs.parked.iter().map(|p| {
            let name = names
                .iter()
                .find(|e| e.tab == p.tab)
                .map_or_else(|| p.open.display_name(), |e| e.name.clone());
            (p.tab, name, p.open.revision, p.open.document())
        });
        self.canvas.tools.hang.offer_open_documents(others);
    }

    /// Saves every document with unsaved changes, the one on show first, each other one
    /// brought to the front to be saved. Stops at a document that is not saved (it needs Save
    /// As, a loss to confirm, or the save failed), which stays on show; true when all are saved.
    pub(super) fn save_all(&mut self) -> bool {
        loop {
            if self.open.as_ref().is_some_and(|o| o.session.is_dirty()) {
                self.save();
                if self.open.as_ref().is_some_and(|o| o.session.is_dirty()) {
                    return false;
                }
            }
            let next = self.tabs.order.iter().copied().find(|tab| {
                self.tabs
                    .parked
                    .iter()
                    .any(|p| p.tab == *tab && p.open.session.is_dirty())
            });
            match next {
                Some(tab) => self.show_tab(tab),
                None => return true,
            }
        }
    }
}
