//! The editor itself: [`SpratApp`], which holds the open documents (one [`DocumentTab`] each)
//! with the tab on show, the settings, the pictures and the windows on show; its accessors
//! and status-bar messages. What it does is in the files beside this one, by job.

use crate::app::context::clipboard;
use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::{Feedback, PathWindow};
use crate::app::context::loader::PendingLoad;
use crate::app::context::pictures;
use crate::app::context::platform::{Dialogs, Platform};
use crate::app::context::settings::Settings;
use crate::app::context::tab_id::TabId;
use crate::app::shell::document_tab::DocumentTab;
use crate::app::shell::native_platform::NativePlatform;
use crate::app::shell::{disk_waker, new_document};
use crate::assets::ImageStore;
use crate::formats::Severity;
use std::path::PathBuf;

/// Which view fills the centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CentreTab {
    /// The frame preview.
    Canvas,
    /// The source sheet with its slices.
    Sheet,
    /// The sprites of the document's SFF archive.
    Sprites,
}

/// What to do once the user has answered about unsaved changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AfterConfirm {
    /// Close this tab (the one on show).
    Close(TabId),
    /// Close the editor.
    Quit,
}

/// The editor.
pub struct SpratApp {
    /// What persists between runs.
    pub settings: Settings,
    /// The open documents with their panels' state, in tab-bar order.
    pub documents: Vec<DocumentTab>,
    /// The tab on show; every panel shows and edits its document.
    pub(super) active: Option<TabId>,
    /// The last tab id handed out (ids are never reused).
    pub(super) next_tab: u64,
    /// A file being read on a worker thread.
    pub pending: Option<PendingLoad>,
    /// Files asked for while another was being read (several dropped at once): read in turn.
    pub(super) waiting: std::collections::VecDeque<PathBuf>,
    /// File dialogs, background work, where saves and exports go (the desktop, with its
    /// own dialogs or scripted ones in tests; or the web page).
    pub platform: Box<dyn Platform>,
    /// The last message for the status bar, about the tab on show (each tab keeps its own
    /// while another is on show) or about no tab.
    pub status: Option<Feedback>,
    /// Frames copied, kept across documents.
    pub frame_clipboard: clipboard::AppClipboard,
    /// Image files and SFF sprites, decoded once.
    pub pixels: std::sync::Arc<ImageStore>,
    /// Rendered frames on the GPU.
    pub textures: pictures::FrameTextures,
    /// The "Open path" field's text while it is shown.
    pub path_field: Option<String>,
    /// The New window, while it is shown.
    pub new_document: Option<new_document::NewDocumentDialog>,
    /// The shortcuts window is shown.
    pub show_shortcuts: bool,
    /// The history window is shown.
    pub show_history: bool,
    /// What waits until the user says what to do with unsaved changes.
    pub confirm_discard: Option<AfterConfirm>,
    /// The user agreed to quit without saving; the next close request goes through.
    pub(super) quit_confirmed: bool,
    /// What the user asked for with "Save" in the unsaved-changes question, waiting while the
    /// Save As window (or a lossy save's confirmation) is answered.
    pub(super) after_save: Option<AfterConfirm>,
    /// Where unsaved work is written aside every 30 s; `None` = no autosave (tests).
    pub recovery_dir: Option<PathBuf>,
    /// Unsaved work found from an earlier run that ended without saving.
    pub recoverable: Vec<crate::session::RecoveryEntry>,
    /// Raised when the editor is told to stop (SIGTERM, SIGHUP: see `stop_signals`): the next
    /// frame writes every unsaved document aside and closes.
    pub stop_request: crate::stop_signals::StopRequest,
    /// Said in the status bar once the next file has opened: why the editor started on it has
    /// a window of its own (another editor window did not answer).
    pub start_notice: Option<&'static str>,
    /// Another tab came on show: keyboard focus, which is in the other tab's widgets, is let go
    /// at the start of the next frame.
    pub(super) leave_focus: bool,
    /// The centre tab.
    pub centre: CentreTab,
    /// Playback was running at the previous frame (the first playing frame adds no time).
    pub(super) was_playing: bool,
    /// The input clock at the previous frame, in nanoseconds: playback advances by the
    /// difference, so time between frames is counted exactly however rarely they come.
    pub(super) last_frame_nanos: u128,
    /// Notices changed files from a thread of its own; started on the first frame.
    pub(super) disk_waker: Option<disk_waker::DiskWaker>,
    /// The title last sent to the window.
    pub(super) title: String,
    /// A document was closed: the memory freed with it (its pictures' textures included,
    /// freed once a paint has let go of them) is handed back to the system at the next frame.
    pub(super) return_memory: bool,
    /// The frame pinned as a reference, drawn faintly under the canvas of every tab.
    pub reference: Option<crate::app::context::reference::PinnedReference>,
    /// What the backend cleared the window to: the panels paint no fill over that colour.
    pub(super) backdrop: super::backdrop::Backdrop,
}

impl SpratApp {
    /// An editor with no document, on the desktop, asking through `dialogs`.
    pub fn new(settings: Settings, dialogs: Box<dyn Dialogs>) -> SpratApp {
        SpratApp::on_platform(settings, Box::new(NativePlatform::new(dialogs)))
    }

    /// An editor with no document, on `platform`.
    pub fn on_platform(settings: Settings, platform: Box<dyn Platform>) -> SpratApp {
        SpratApp {
            settings,
            documents: Vec::new(),
            active: None,
            next_tab: 0,
            pending: None,
            waiting: std::collections::VecDeque::new(),
            platform,
            status: None,
            frame_clipboard: clipboard::AppClipboard::default(),
            pixels: std::sync::Arc::new(ImageStore::new()),
            textures: pictures::FrameTextures::default(),
            path_field: None,
            new_document: None,
            show_shortcuts: false,
            leave_focus: false,
            recovery_dir: None,
            recoverable: Vec::new(),
            stop_request: crate::stop_signals::StopRequest::new(),
            start_notice: None,
            show_history: false,
            confirm_discard: None,
            quit_confirmed: false,
            after_save: None,
            centre: CentreTab::Canvas,
            was_playing: false,
            last_frame_nanos: 0,
            disk_waker: None,
            title: String::new(),
            return_memory: false,
            reference: None,
            backdrop: Default::default(),
        }
    }

    /// The tab on show.
    pub fn active_tab(&self) -> Option<&DocumentTab> {
        let active = self.active?;
        self.documents.iter().find(|t| t.id == active)
    }

    /// The tab on show, to change.
    pub fn active_tab_mut(&mut self) -> Option<&mut DocumentTab> {
        active_tab_in(&mut self.documents, self.active)
    }

    /// Where the tab on show is in tab-bar order.
    pub(super) fn active_index(&self) -> Option<usize> {
        let active = self.active?;
        self.documents.iter().position(|t| t.id == active)
    }

    /// The tab on show's id.
    pub fn active_tab_id(&self) -> Option<TabId> {
        self.active
    }

    /// The document on show, if any.
    pub fn active_document(&self) -> Option<&OpenDocument> {
        self.active_tab().map(|t| &t.doc)
    }

    /// The document on show, to change.
    pub fn active_document_mut(&mut self) -> Option<&mut OpenDocument> {
        self.active_tab_mut().map(|t| &mut t.doc)
    }

    /// Posts a message to the status bar.
    pub fn say(&mut self, severity: Severity, text: impl Into<String>) {
        self.status = Some(Feedback::new(severity, text));
    }

    /// Lets the status bar's sentence about a window (see [`Feedback::while_open`]) go once
    /// that window has closed: the action it spoke of was cancelled or done.
    pub(super) fn forget_message_of_closed_window(&mut self) {
        let Some(window) = self.status.as_ref().and_then(|s| s.while_open) else {
            return;
        };
        let tab = self.active_tab();
        let open = match window {
            PathWindow::Open => self.path_field.is_some(),
            PathWindow::Import => tab.is_some_and(|t| t.import.shown),
            PathWindow::Export => tab.is_some_and(|t| t.export.shown),
            PathWindow::SaveAs => tab.is_some_and(|t| t.save_as.shown),
            PathWindow::Sprites => tab.is_some_and(|t| t.sprites.typed_path.is_some()),
        };
        if !open {
            self.status = None;
        }
    }

    /// Says that an edit of the document on show was refused, and why; the message goes
    /// when the document next changes.
    pub fn say_refused(&mut self, message: &str) {
        self.status = match self.active_document() {
            Some(doc) => Some(Feedback::refusal(message, doc)),
            None => Some(Feedback::new(
                Severity::Warning,
                format!("Not changed: {message}"),
            )),
        };
    }

    /// Shows a document already in memory in a new tab (tests, benchmarks, the demo).
    pub fn show_document(&mut self, doc: OpenDocument) {
        self.install(doc);
    }

    /// Shows a document in a new tab, autosaving it. A recovered document keeps writing to
    /// its own recovery folder, so that folder goes once the document is saved or closed.
    pub(super) fn install(&mut self, mut doc: OpenDocument) {
        if let Some(dir) = &self.recovery_dir
            && doc.session.recovery_folder().is_none()
        {
            doc.session
                .enable_autosave(crate::session::RecoveryStore::new(dir));
        }
        if let Some(dir) = &self.recovery_dir {
            let backups = crate::session::BackupStore::new(dir.with_file_name("backups"));
            doc.session.enable_backups(backups);
        }
        if let Some(path) = doc.path() {
            doc.box_roles = self.settings.box_roles_of(path);
        }
        // The editor's frames must not wait for the disk.
        doc.session.autosave_in_background();
        self.add_tab(doc);
    }
}

/// The tab `active` of `documents`, to change. A function of the two fields rather than a
/// method, so the caller can borrow the app's other fields (platform, pixels) beside it.
pub(super) fn active_tab_in(
    documents: &mut [DocumentTab],
    active: Option<TabId>,
) -> Option<&mut DocumentTab> {
    let active = active?;
    documents.iter_mut().find(|t| t.id == active)
}
