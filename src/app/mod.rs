//! The desktop editor: a thin eframe shell over the library, one file per panel.
//!
//! Reading order: [`SpratApp`] (this file: the frame loop and the command dispatcher), then
//! [`commands`] (every command and its shortcut), [`workspace`] (the open document), [`tabs`]
//! (several documents open at once; [`SpratApp::open`] is the one on show), and the panels:
//! [`menus`], [`tree`], [`canvas`] with [`overlay`] and [`view`], [`timeline`], [`transport`],
//! [`inspector`], [`diagnostics`], [`status_bar`].

pub mod canvas;
pub mod clipboard;
pub mod diagnostics;
pub mod document_tab;
pub mod export;
pub mod frame_textures;
pub mod import;
pub mod inspector;
pub mod sheet;
pub mod shell;
pub mod sprites;
pub mod timeline;
pub mod tree;

use crate::assets::ImageStore;
use crate::formats::{Severity, registry};
use crate::model::AnimationSet;
use canvas::tools::{self, Tool};
use document_tab::DocumentTab;
use shell::commands::UICommand;
use shell::dialogs::{DialogOutcome, Dialogs, NativeDialogs};
use shell::loader::{self, LoadResult, PendingLoad};
use shell::settings::{self, Settings};
use shell::status_bar::{self, StatusMessage};
use shell::tab_id::TabId;
use shell::workspace::OpenDocument;
use shell::{demo, disk_waker, menus, new_document, save_as, tabs};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The editor's log file, beside its settings (`None` where the system has no such folder).
pub fn log_file() -> Option<PathBuf> {
    eframe::storage_dir("Sprat").map(|dir| crate::logging::log_file_in(&dir))
}

/// Opens the editor window on `path`, or on the bundled demo when `None`.
pub fn run(path: Option<PathBuf>) -> eframe::Result<()> {
    // The window's size is ours to keep (in unscaled points: see `settings::Appearance`);
    // eframe's own would store it divided by the UI scale.
    let window_size = settings::load_stored("Sprat")
        .appearance
        .initial_window_size();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Sprat")
            .with_inner_size(window_size)
            .with_min_inner_size([640.0, 400.0])
            .with_drag_and_drop(true),
        persist_window: false,
        ..Default::default()
    };
    eframe::run_native(
        "Sprat",
        options,
        Box::new(move |cc| {
            let settings = cc
                .storage
                .and_then(|s| eframe::get_value::<Settings>(s, settings::STORAGE_KEY))
                .unwrap_or_default();
            let mut app = SpratApp::new(settings, Box::new(NativeDialogs));
            app.recovery_dir = eframe::storage_dir("Sprat").map(|d| d.join("recovery"));
            app.look_for_recovery();
            match path {
                Some(path) => app.open_path(&cc.egui_ctx, path),
                None => app.open_demo(),
            }
            Ok(Box::new(app))
        }),
    )
}

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
    Close(tabs::TabId),
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
    active: Option<TabId>,
    /// The last tab id handed out (ids are never reused).
    next_tab: u64,
    /// A file being read on a worker thread.
    pub pending: Option<PendingLoad>,
    /// Files asked for while another was being read (several dropped at once): read in turn.
    waiting: std::collections::VecDeque<PathBuf>,
    /// File dialogs (native, or scripted in tests).
    pub dialogs: Box<dyn Dialogs>,
    /// The last message for the status bar.
    pub status: Option<StatusMessage>,
    /// Frames copied, kept across documents.
    pub frame_clipboard: clipboard::AppClipboard,
    /// Image files and SFF sprites, decoded once.
    pub pixels: std::sync::Arc<ImageStore>,
    /// Rendered frames on the GPU.
    pub textures: frame_textures::FrameTextures,
    /// The "Open path" field's text while it is shown.
    pub path_field: Option<String>,
    /// The New window, while it is shown.
    pub new_document: Option<new_document::NewDocumentDialog>,
    /// The shortcuts window is open.
    pub show_shortcuts: bool,
    /// The history window is open.
    pub show_history: bool,
    /// What waits until the user says what to do with unsaved changes.
    pub confirm_discard: Option<AfterConfirm>,
    /// The user agreed to quit without saving; the next close request goes through.
    quit_confirmed: bool,
    /// What the user asked for with "Save" in the unsaved-changes question, waiting while the
    /// Save As window (or a lossy save's confirmation) is answered.
    after_save: Option<AfterConfirm>,
    /// Where unsaved work is written aside every 30 s; `None` = no autosave (tests).
    pub recovery_dir: Option<PathBuf>,
    /// Unsaved work found from an earlier run that ended without saving.
    pub recoverable: Vec<crate::session::RecoveryEntry>,
    /// Another tab came on show: keyboard focus, which is in the other tab's widgets, is let go
    /// at the start of the next frame.
    leave_focus: bool,
    /// The centre tab.
    pub centre: CentreTab,
    /// Playback was running at the previous frame (the first playing frame adds no time).
    was_playing: bool,
    /// The input clock at the previous frame, in nanoseconds: playback advances by the
    /// difference, so time between frames is counted exactly however rarely they come.
    last_frame_nanos: u128,
    /// Notices changed files from a thread of its own; started on the first frame.
    disk_waker: Option<disk_waker::DiskWaker>,
    /// The title last sent to the window.
    title: String,
}

impl SpratApp {
    /// An editor with no document.
    pub fn new(settings: Settings, dialogs: Box<dyn Dialogs>) -> SpratApp {
        SpratApp {
            settings,
            documents: Vec::new(),
            active: None,
            next_tab: 0,
            pending: None,
            waiting: std::collections::VecDeque::new(),
            dialogs,
            status: None,
            frame_clipboard: clipboard::AppClipboard::default(),
            pixels: std::sync::Arc::new(ImageStore::new()),
            textures: frame_textures::FrameTextures::default(),
            path_field: None,
            new_document: None,
            show_shortcuts: false,
            leave_focus: false,
            recovery_dir: None,
            recoverable: Vec::new(),
            show_history: false,
            confirm_discard: None,
            quit_confirmed: false,
            after_save: None,
            centre: CentreTab::Canvas,
            was_playing: false,
            last_frame_nanos: 0,
            disk_waker: None,
            title: String::new(),
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
    fn active_index(&self) -> Option<usize> {
        let active = self.active?;
        self.documents.iter().position(|t| t.id == active)
    }

    /// The tab on show's id.
    pub fn active_tab_id(&self) -> Option<TabId> {
        self.active
    }

    /// The document on show, if any.
    pub fn open(&self) -> Option<&OpenDocument> {
        self.active_tab().map(|t| &t.open)
    }

    /// The document on show, to change.
    pub fn open_mut(&mut self) -> Option<&mut OpenDocument> {
        self.active_tab_mut().map(|t| &mut t.open)
    }

    /// Posts a message to the status bar.
    pub fn say(&mut self, severity: Severity, text: impl Into<String>) {
        self.status = Some(StatusMessage::new(severity, text));
    }

    /// Says that an edit of the document on show was refused, and why; the message goes
    /// when the document next changes.
    pub fn say_refused(&mut self, message: &str) {
        self.status = match self.open() {
            Some(open) => Some(StatusMessage::refusal(message, open)),
            None => Some(StatusMessage::new(
                Severity::Warning,
                format!("Not changed: {message}"),
            )),
        };
    }

    /// Opens the bundled demo (`assets/demo/demo.sprat`) on this thread, in a new tab unless
    /// it is open already: it is small.
    pub fn open_demo(&mut self) {
        let path = demo::demo_path();
        if let Some(tab) = self.tab_of_file(&path) {
            self.show_already_open(tab, &path);
            return;
        }
        match loader::load_now(&path) {
            Ok(file) => self.adopt(Ok(file)),
            Err(diagnostics) => {
                let why = diagnostics
                    .first()
                    .map(|d| d.message.clone())
                    .unwrap_or_default();
                self.say(
                    Severity::Error,
                    format!(
                        "The bundled demo could not be read from {}: {why}",
                        path.display()
                    ),
                );
            }
        }
    }

    /// Opens a file in a new tab; a file already open just shows its tab.
    pub fn open_path(&mut self, ctx: &egui::Context, path: PathBuf) {
        match self.tab_of_file(&path) {
            Some(tab) => self.show_already_open(tab, &path),
            None => self.start_loading(ctx, path),
        }
    }

    fn show_already_open(&mut self, tab: tabs::TabId, path: &Path) {
        self.show_tab(tab);
        self.say(
            Severity::Info,
            format!("{} is already open.", path.display()),
        );
    }

    /// Starts reading a file on a worker thread; it opens in a new tab when it arrives. While
    /// another file is being read it waits its turn.
    fn start_loading(&mut self, ctx: &egui::Context, path: PathBuf) {
        if let Some(pending) = &self.pending {
            if pending.path != path && !self.waiting.contains(&path) {
                self.waiting.push_back(path);
            }
            return;
        }
        let ctx = ctx.clone();
        self.say(Severity::Info, format!("Reading {}…", path.display()));
        let options = crate::formats::ReadOptions {
            aseprite_layers: self.settings.aseprite_layers,
            ..Default::default()
        };
        self.pending = Some(PendingLoad::start(path, options, move || {
            ctx.request_repaint()
        }));
    }

    /// True while a file is being read.
    pub fn is_loading(&self) -> bool {
        self.pending.is_some()
    }

    fn adopt(&mut self, result: LoadResult) {
        match result {
            Ok(file) => {
                if file.path != demo::demo_path() {
                    self.settings.remember_recent(&file.path);
                }
                // Read meanwhile through another way in (the demo, a second drop): one tab.
                if let Some(tab) = self.tab_of_file(&file.path) {
                    self.show_already_open(tab, &file.path);
                    return;
                }
                let (errors, warnings) =
                    crate::formats::error_and_warning_counts(&file.loaded.diagnostics);
                let name = file.path.display().to_string();
                let open = OpenDocument::new(
                    file.loaded.document,
                    Some(file.path),
                    file.format,
                    file.loaded.diagnostics,
                );
                self.install(open);
                let severity = if errors > 0 {
                    Severity::Warning
                } else {
                    Severity::Info
                };
                self.say(
                    severity,
                    format!("Opened {name} ({errors} errors, {warnings} warnings)"),
                );
            }
            Err(diagnostics) => {
                let text = diagnostics
                    .iter()
                    .map(|d| d.display_with("file"))
                    .collect::<Vec<_>>()
                    .join("; ");
                self.say(Severity::Error, format!("Could not open the file: {text}"));
            }
        }
    }

    /// Shows a document already in memory in a new tab (tests, benchmarks, the demo).
    pub fn show_document(&mut self, open: OpenDocument) {
        self.install(open);
    }

    /// Lists unsaved work left by an earlier run, to offer it back.
    pub fn look_for_recovery(&mut self) {
        if let Some(dir) = &self.recovery_dir {
            self.recoverable = crate::session::RecoveryStore::new(dir).list();
        }
    }

    /// Shows a document in a new tab, autosaving it. A recovered document keeps writing to
    /// its own recovery folder, so that folder goes once the document is saved or closed.
    fn install(&mut self, mut open: OpenDocument) {
        if let Some(dir) = &self.recovery_dir
            && open.session.recovery_folder().is_none()
        {
            open.session
                .enable_autosave(crate::session::RecoveryStore::new(dir));
        }
        // The editor's frames must not wait for the disk.
        open.session.autosave_in_background();
        self.add_tab(open);
    }

    /// Saves the document in its own format, to its own file; a failure leaves the file and
    /// the edits as they were and says why, in the status bar and in a window. A document with
    /// no file, or in a format Sprat cannot write, goes to Save As instead.
    pub fn save(&mut self) {
        let pixels: &ImageStore = &self.pixels;
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        let (open, save_as) = (&mut tab.open, &mut tab.save_as);
        let writable = open.session.format().capabilities().write;
        if open.path().is_none() || !writable {
            save_as.start(open);
            return;
        }
        // Prepared first, so a save that would leave out an edit the format cannot hold is
        // confirmed before anything is written, exactly like Save As.
        let saved = open
            .path()
            .map(Path::to_path_buf)
            .ok_or_else(|| crate::session::SaveError::new("This document has no file."))
            .and_then(|path| {
                let format = open.format_id().to_string();
                open.session.prepare_save_as(&path, &format, Some(pixels))
            })
            .and_then(|pending| {
                if !pending.needs_confirmation() {
                    open.session.commit_save_as(pending).map(Some)
                } else {
                    save_as.confirm_lossy_save(pending);
                    Ok(None)
                }
            });
        if let Err(error) = &saved {
            save_as.failed(error.to_string());
        }
        match saved {
            Ok(Some(report)) => {
                open.revision += 1;
                self.say(Severity::Info, save_as::saved_text(&report));
            }
            Ok(None) => self.say(
                Severity::Warning,
                "Not saved yet: confirm or cancel what the save window lists.",
            ),
            Err(error) => self.say(Severity::Error, format!("Not saved: {error}")),
        }
    }

    /// Carries out a command.
    pub fn execute(&mut self, ctx: &egui::Context, command: UICommand) {
        let layout = &mut self.settings.layout;
        let view = &mut self.settings.view;
        match command {
            UICommand::NewDocument => {
                self.new_document.get_or_insert_with(Default::default);
            }
            UICommand::Open => {
                let extensions: Vec<&str> = registry()
                    .formats()
                    .filter(|f| f.capabilities().read)
                    .flat_map(|f| f.extensions().iter().copied())
                    .collect();
                match self.dialogs.pick_file_to_open(&extensions) {
                    DialogOutcome::Chosen(path) => self.open_path(ctx, path),
                    DialogOutcome::Cancelled => {}
                    DialogOutcome::Unavailable => {
                        self.say(
                            Severity::Warning,
                            "No file dialog can be shown on this desktop; type the path instead.",
                        );
                        self.path_field.get_or_insert_with(String::new);
                    }
                }
            }
            UICommand::OpenPath => {
                self.path_field.get_or_insert_with(String::new);
            }
            UICommand::OpenDemo => self.open_demo(),
            UICommand::Save => self.save(),
            UICommand::SaveAs => {
                if let Some(tab) = self.active_tab_mut() {
                    tab.save_as.start(&tab.open);
                }
            }
            UICommand::Export => {
                if let Some(tab) = self.active_tab_mut() {
                    tab.export.start(&tab.open);
                }
            }
            UICommand::Import => self.import_files(ctx),
            UICommand::Undo => {
                if let Some(open) = self.open_mut()
                    && !open.undo()
                {
                    self.say(Severity::Info, "Nothing to undo.");
                }
            }
            UICommand::Redo => {
                if let Some(open) = self.open_mut()
                    && !open.redo()
                {
                    self.say(Severity::Info, "Nothing to redo.");
                }
            }
            UICommand::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            UICommand::CloseTab => {
                if let Some(tab) = self.active {
                    self.request_close_tab(tab);
                }
            }
            UICommand::NextTab => self.step_tab(1),
            UICommand::PreviousTab => self.step_tab(-1),
            UICommand::ToggleTree => layout.tree = !layout.tree,
            UICommand::ToggleInspector => layout.inspector = !layout.inspector,
            UICommand::ToggleTimeline => layout.timeline = !layout.timeline,
            UICommand::ToggleSheet => {
                layout.sheet = !layout.sheet;
                self.centre = if layout.sheet {
                    CentreTab::Sheet
                } else {
                    CentreTab::Canvas
                };
            }
            UICommand::ToggleDiagnostics => layout.diagnostics = !layout.diagnostics,
            UICommand::ToggleGrid => view.pixel_grid = !view.pixel_grid,
            UICommand::ToggleOnionSkin => view.onion_skin = !view.onion_skin,
            UICommand::ToggleOverlay => view.overlay = !view.overlay,
            UICommand::ToggleProportionalTimeline => {
                view.proportional_timeline = !view.proportional_timeline
            }
            UICommand::ZoomIn => self.on_canvas(|canvas| canvas.zoom_step(true)),
            UICommand::ZoomOut => self.on_canvas(|canvas| canvas.zoom_step(false)),
            UICommand::ZoomFit => self.on_canvas(|canvas| canvas.fit_requested = true),
            UICommand::ZoomActualSize => self.on_canvas(|canvas| canvas.actual_size()),
            UICommand::ShowShortcuts => self.show_shortcuts = !self.show_shortcuts,
            UICommand::ShowHistory => self.show_history = !self.show_history,
            UICommand::FocusFilter => {
                self.settings.layout.tree = true;
                if let Some(tab) = self.active_tab_mut() {
                    tab.tree.focus_filter = true;
                }
            }
            UICommand::SelectTool => {
                self.on_canvas(|canvas| canvas.tools.choose(Tool::Select, false))
            }
            UICommand::BoxTool => self.on_canvas(|canvas| canvas.tools.choose(Tool::Box, false)),
            UICommand::CircleTool => self.on_canvas(|canvas| canvas.tools.choose(Tool::Box, true)),
            UICommand::PointTool => {
                self.on_canvas(|canvas| canvas.tools.choose(Tool::Point, false))
            }
            UICommand::PlayPause => self.on_player(|player, document| player.toggle(document)),
            UICommand::StepBack => self.on_player(|player, document| player.step_back(document)),
            UICommand::StepForward => {
                self.on_player(|player, document| player.step_forward(document))
            }
            UICommand::FirstFrame => {
                self.on_player(|player, document| player.seek_frame(document, 0))
            }
            UICommand::LastFrame => {
                self.on_player(|player, document| player.seek_frame(document, usize::MAX))
            }
            UICommand::ToggleLoop => self.on_player(|player, _| {
                player.set_looping(!player.looping());
            }),
            UICommand::FasterSpeed => self.on_player(|player, _| {
                player.set_speed_milli(timeline::transport::next_speed(player.speed_milli(), true));
            }),
            UICommand::SlowerSpeed => self.on_player(|player, _| {
                player
                    .set_speed_milli(timeline::transport::next_speed(player.speed_milli(), false));
            }),
            UICommand::ResetSpeed => self.on_player(|player, _| player.set_speed_milli(1000)),
            UICommand::PreviousSequence => self.neighbour_sequence(-1),
            UICommand::NextSequence => self.neighbour_sequence(1),
            UICommand::PreviousDirection => {
                if let Some(open) = self.open_mut() {
                    open.select_neighbour_direction(-1);
                }
            }
            UICommand::NextDirection => {
                if let Some(open) = self.open_mut() {
                    open.select_neighbour_direction(1);
                }
            }
            UICommand::Rename => tree::edit::execute(self, tree::edit::rename_current),
            UICommand::DeleteSelection => tree::edit::execute(self, tree::edit::delete_selection),
            UICommand::Duplicate => tree::edit::execute(self, tree::edit::duplicate_selection),
            UICommand::CopyFrames => {
                tree::edit::execute(self, |s| s.clipboard.copy(s.open).map(Some))
            }
            UICommand::CutFrames => {
                tree::edit::execute(self, |s| s.clipboard.cut(s.open).map(Some))
            }
            UICommand::PasteFrames => {
                tree::edit::execute(self, |s| s.clipboard.paste(s.open).map(Some))
            }
            UICommand::InsertFrame => {
                tree::edit::execute(self, |s| timeline::edit::insert_frame(s.open).map(|_| None))
            }
            UICommand::AddSequence => tree::edit::execute(self, |s| {
                tree::edit::add_sequence(s.open, s.tree).map(|_| None)
            }),
            UICommand::AddGroup => tree::edit::execute(self, |s| {
                tree::edit::add_group(s.open, s.tree).map(|_| None)
            }),
            UICommand::AddDirection => tree::edit::execute(self, |s| {
                tree::edit::add_direction(s.open, s.tree).map(|_| None)
            }),
            UICommand::SetDefaultSequence => {
                tree::edit::execute(self, tree::edit::set_default_sequence)
            }
            UICommand::SelectAllElements => tree::edit::execute(self, |s| {
                canvas::select_all_elements(s.open, s.settings);
                Ok(None)
            }),
            UICommand::ClearElementSelection => tree::edit::execute(self, |s| {
                s.open.clear_elements();
                Ok(None)
            }),
        }
    }

    /// Runs `change` on the player of the document on show, if any.
    fn on_player(&mut self, change: impl FnOnce(&mut crate::playback::Player, &AnimationSet)) {
        if let Some(open) = self.open_mut() {
            change(&mut open.player, open.session.document());
        }
    }

    /// Runs `change` on the canvas of the tab on show, if any.
    fn on_canvas(&mut self, change: impl FnOnce(&mut canvas::CanvasState)) {
        if let Some(tab) = self.active_tab_mut() {
            change(&mut tab.canvas);
        }
    }

    /// Shows the sequence `step` rows away among those the tree's filter lets through.
    fn neighbour_sequence(&mut self, step: isize) {
        if let Some(tab) = self.active_tab_mut() {
            let filter = tab.tree.filter.clone();
            tab.open.select_neighbour_sequence(&filter, step);
        }
    }

    /// Shows what the canvas tools refused and asks for a file to hang when they want one.
    fn after_canvas(&mut self, ctx: &egui::Context, outcome: tools::CanvasOutcome) {
        if let Some(message) = outcome.refused {
            self.say_refused(&message);
        }
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        let hang = &mut tab.canvas.tools.hang;
        if outcome.pick_hang_file {
            let ctx = ctx.clone();
            let wake = move || ctx.request_repaint();
            if let Err(message) = hang.pick_file(self.dialogs.as_mut(), wake) {
                self.say(Severity::Error, message);
                return;
            }
        }
        if let Some(Err(message)) = hang.take_read_file() {
            self.say(Severity::Error, message);
        }
    }

    /// Space plays and pauses on release, unless it was held to pan with a drag.
    fn handle_space(&mut self, ctx: &egui::Context) -> bool {
        if ctx.egui_wants_keyboard_input() {
            return false;
        }
        let mut toggle = false;
        let Some(canvas) = self.active_tab_mut().map(|t| &mut t.canvas) else {
            return false;
        };
        ctx.input(|i| {
            for event in &i.events {
                if let egui::Event::Key {
                    key: egui::Key::Space,
                    pressed,
                    repeat: false,
                    modifiers,
                    ..
                } = event
                    && modifiers.is_none()
                {
                    if *pressed {
                        canvas.space_held = true;
                        canvas.space_dragged = false;
                    } else if canvas.space_held {
                        canvas.space_held = false;
                        toggle = !canvas.space_dragged;
                    }
                }
            }
        });
        toggle
    }

    fn poll_pending(&mut self, ctx: &egui::Context) {
        if let Some(pending) = &self.pending
            && let Some(result) = pending.poll()
        {
            self.pending = None;
            self.adopt(result);
            if let Some(next) = self.waiting.pop_front() {
                self.open_path(ctx, next);
            }
        }
    }

    /// Opens the Import window of the tab on show and asks for the files to import; where no
    /// file dialog can be shown, the window's path field takes them.
    fn import_files(&mut self, ctx: &egui::Context) {
        let dialogs = self.dialogs.as_mut();
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        tab.import.start();
        if !tab.import.files.is_empty() {
            return;
        }
        match dialogs.pick_files_to_import(&import::dialog::PICTURE_EXTENSIONS) {
            DialogOutcome::Chosen(files) => {
                let ctx = ctx.clone();
                tab.import.add_files(files, move || ctx.request_repaint());
            }
            DialogOutcome::Cancelled => tab.import = Default::default(),
            DialogOutcome::Unavailable => {
                // Typed letters go to the path field, not to the shortcuts.
                tab.import.focus_path = true;
                self.say(
                    Severity::Warning,
                    "No file dialog can be shown on this desktop; type the path instead.",
                );
            }
        }
    }

    /// The Import window of the tab on show.
    fn import_window(&mut self, ctx: &egui::Context) {
        let dialogs = self.dialogs.as_mut();
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        if let Some((severity, text)) =
            import::dialog::show(ctx, &mut tab.import, &mut tab.open, dialogs)
        {
            self.say(severity, text);
        }
    }

    fn handle_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        let paths: Vec<PathBuf> = dropped
            .iter()
            .map(|f| f.path().to_path_buf())
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        // Pictures dropped on a document are art to import into it, not files to open.
        if !paths.is_empty()
            && paths
                .iter()
                .all(|p| crate::assets::import::is_picture_file(p))
            && let Some(tab) = self.active_tab_mut()
        {
            let ctx = ctx.clone();
            tab.import.add_files(paths, move || ctx.request_repaint());
            return;
        }
        // Dropped files without a path (from a browser) cannot be read back; they are ignored.
        // Each of the others opens in a tab of its own.
        for path in paths {
            self.open_path(ctx, path);
        }
    }

    /// Moves playback on by the time since the last frame, and asks for the next repaint when
    /// the shown frame will change (continuously only while a frame is interpolated): paused,
    /// nothing asks for a repaint at all.
    fn advance_playback(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| (i.time.max(0.0) * 1e9).round() as u128);
        let elapsed = Duration::from_nanos(
            now.saturating_sub(self.last_frame_nanos)
                .min(u64::MAX as u128) as u64,
        );
        self.last_frame_nanos = now;
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        let open = &mut tab.open;
        let document = open.session.document();
        let hang = &mut tab.canvas.tools.hang;
        if open.player.is_playing() {
            if self.was_playing {
                open.player.advance(document, elapsed);
                hang.advance(document, elapsed);
            }
            open.player.take_events();
        }
        self.was_playing = open.player.is_playing();
        if crate::playback::is_interpolating(&open.player, document) {
            ctx.request_repaint();
            return;
        }
        let next = open
            .player
            .until_next_frame(document)
            .into_iter()
            .chain(
                hang.until_next_frame(document)
                    .filter(|_| open.player.is_playing()),
            )
            .min();
        if let Some(next) = next {
            ctx.request_repaint_after(next);
        }
    }

    fn update_title(&mut self, ctx: &egui::Context) {
        let title = match self.open() {
            Some(open) => open.title(),
            None => "Sprat".to_string(),
        };
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    fn path_field_window(&mut self, ctx: &egui::Context) {
        let Some(text) = self.path_field.as_mut() else {
            return;
        };
        let mut open_it = false;
        let mut close = false;
        egui::Window::new("Open a file by path")
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(
                    "No file dialog is available; type or paste the path of an animation file.",
                );
                let response = ui.add(
                    egui::TextEdit::singleline(text)
                        .hint_text("/path/to/kfm.def")
                        .desired_width(420.0),
                );
                // Read before focus is taken back below: taking it makes egui forget that
                // Enter just left the field.
                open_it = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                // The field takes the keyboard as soon as it shows (and back whenever
                // nothing else holds it), so typed letters never run shortcuts.
                if !open_it && !response.has_focus() && ui.memory(|m| m.focused().is_none()) {
                    response.request_focus();
                }
                ui.horizontal(|ui| {
                    open_it |= ui.button("Open").clicked();
                    close |= ui.button("Cancel").clicked();
                });
            });
        if open_it && !text.trim().is_empty() {
            let path = PathBuf::from(text.trim());
            self.path_field = None;
            self.open_path(ctx, path);
        } else if close {
            self.path_field = None;
        }
    }

    /// Whether the tab on show has its Save As window open.
    fn save_as_shown(&self) -> bool {
        self.active_tab().is_some_and(|t| t.save_as.shown)
    }

    /// Asks what to do with unsaved changes before a tab closes or the editor quits: Save
    /// (every unsaved document, when quitting), Discard changes, or Cancel.
    fn confirm_discard_window(&mut self, ctx: &egui::Context) {
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
                let name = self.open().map(|o| o.display_name()).unwrap_or_default();
                (vec![name], "Save them before closing it?")
            }
            AfterConfirm::Quit => (self.unsaved_names(), "Save them before quitting?"),
        };
        let has = if names.len() > 1 { "have" } else { "has" };
        let mut choice = None;
        egui::Window::new("Unsaved changes")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ctx, |ui| {
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
                        self.open().is_some_and(|o| !o.session.is_dirty())
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
    fn go_on_after_save(&mut self, ctx: &egui::Context) {
        if self.save_as_shown() {
            return;
        }
        let Some(after) = self.after_save.take() else {
            return;
        };
        let saved = self.open().is_some_and(|o| !o.session.is_dirty());
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
    fn quit_now(&mut self, ctx: &egui::Context) {
        self.discard_all_recovery();
        self.quit_confirmed = true;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }

    /// Holds a window close while any tab has unsaved changes, and asks.
    fn guard_close(&mut self, ctx: &egui::Context) {
        let closing = ctx.input(|i| i.viewport().close_requested());
        if closing && self.any_unsaved() && !self.quit_confirmed {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.confirm_discard = Some(AfterConfirm::Quit);
        }
    }

    /// Autosaves every document with unsaved changes, the ones waiting in tabs too, and
    /// reloads pixels whose files changed. A document file changed on disk is asked about when
    /// its tab is on show.
    fn tick_sessions(&mut self, ctx: &egui::Context) {
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
            let open = &mut tab.open;
            // The disk is looked at by the waker's thread; the session checks only when told.
            let mut report = open.session.tick_autosave(now);
            if files_changed {
                report.changes.extend(open.session.check_files());
            }
            for change in &report.changes {
                match change {
                    crate::session::FileChange::Source { path, .. } => {
                        self.pixels.invalidate(path);
                        open.session.refresh_imported(path);
                        open.revision += 1;
                    }
                    crate::session::FileChange::Document { .. } => tab.changed_on_disk = true,
                }
            }
            errors.extend(report.autosave_error);
            let due = open.session.autosave_due_in(now);
            next_autosave = next_autosave.into_iter().chain(due).min();
            watched.extend(open.session.watched_stamps());
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

    fn recovery_window(&mut self, ctx: &egui::Context) {
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
            let entry = self.recoverable.remove(i);
            match store.recover(&entry) {
                Ok(session) => {
                    let open = OpenDocument::from_session(session);
                    self.install(open);
                    self.say(
                        Severity::Info,
                        "Recovered unsaved work; save it to keep it.",
                    );
                }
                Err(e) => self.say(Severity::Error, format!("Could not recover: {e}")),
            }
        }
    }

    fn changed_on_disk_window(&mut self, ctx: &egui::Context) {
        if !self.active_tab().is_some_and(|t| t.changed_on_disk) {
            return;
        }
        let mut answer = None;
        let name = self.open().map(|o| o.display_name()).unwrap_or_default();
        egui::Window::new("File changed on disk").collapsible(false).show(ctx, |ui| {
            ui.label(format!("{name} was changed by another program. Reload it (your unsaved changes are lost) or keep your version?"));
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
        let open = &mut tab.open;
        if reload {
            let context = crate::formats::ReadContext::for_path(
                open.path().map(|p| p.to_path_buf()).unwrap_or_default(),
            );
            match open.session.reload(&context) {
                Ok(()) => {
                    open.after_reload();
                    self.say(Severity::Info, "Reloaded from disk.");
                }
                Err(failure) => {
                    let why = failure
                        .diagnostics
                        .first()
                        .map(|d| d.message.clone())
                        .unwrap_or_default();
                    self.say(Severity::Error, format!("Could not reload: {why}"));
                }
            }
        } else {
            open.session.keep_mine();
        }
    }

    fn history_window(&mut self, ctx: &egui::Context) {
        let show = &mut self.show_history;
        let Some(open) = active_tab_in(&mut self.documents, self.active).map(|t| &mut t.open)
        else {
            return;
        };
        if let Some(done) = menus::history_window(ctx, show, open.session.history()) {
            open.jump_to(done);
        }
    }

    /// The read under way: bytes read of the file's size, then the decoding, with Cancel.
    fn loading_window(&mut self, ctx: &egui::Context) {
        let Some(pending) = &self.pending else {
            return;
        };
        let name = pending
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (read, size) = (pending.bytes_read(), pending.size.max(1));
        let mut cancel = false;
        egui::Window::new("Opening")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ctx, |ui| {
                let seconds = pending.started.elapsed().as_secs_f32();
                let bar = if read < size {
                    ui.label(format!("Reading {name}…"));
                    egui::ProgressBar::new(read as f32 / size as f32).text(format!(
                        "{} of {} · {seconds:.1} s",
                        byte_size(read),
                        byte_size(size)
                    ))
                } else {
                    ui.label(format!("Decoding {name} ({})…", byte_size(size)));
                    egui::ProgressBar::new(1.0)
                        .animate(true)
                        .text(format!("{seconds:.1} s"))
                };
                ui.add(bar.desired_width(260.0));
                cancel = ui.button("Cancel").clicked();
            });
        if cancel {
            pending.cancel();
            self.pending = None;
            self.waiting.clear();
            self.say(Severity::Info, format!("Opening {name} was cancelled."));
            return;
        }
        // The worker wakes the UI when done; repaint meanwhile only to move the bar.
        ctx.request_repaint_after(Duration::from_millis(100));
    }
}

impl SpratApp {
    /// The Export window of the tab on show; an export it asks for starts on its own thread,
    /// from a copy of the document, never replacing a file the document reads.
    fn export_window(&mut self, ctx: &egui::Context) {
        let dialogs = self.dialogs.as_mut();
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return;
        };
        match export::dialog::show(ctx, &mut tab.export, &tab.open, dialogs) {
            Some(export::dialog::ExportAction::Start(request)) => {
                let document = tab.open.document().clone();
                let keep = crate::session::watch::watched_paths(tab.open.path(), &document);
                let ctx = ctx.clone();
                tab.export.running = Some(export::dialog::RunningExport::start(
                    document,
                    self.pixels.clone(),
                    request,
                    keep,
                    move || ctx.request_repaint(),
                ));
            }
            Some(export::dialog::ExportAction::Say((severity, text))) => self.say(severity, text),
            None => {}
        }
    }
}

/// "512 bytes", "12.5 KiB", "3.2 MiB".
fn byte_size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} bytes"),
        1024..1_048_576 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}

impl SpratApp {
    /// The panels of the document in tab `id`: diagnostics, timeline, tree, inspector and the
    /// canvas or sheet, all inside the tab's own widget id scope.
    fn document_panels(&mut self, ui: &mut egui::Ui, id: TabId, commands: &mut Vec<UICommand>) {
        let dialogs = self.dialogs.as_mut();
        let Some(tab) = self.documents.iter_mut().find(|t| t.id == id) else {
            return;
        };
        let scope = tab.widget_scope();
        let DocumentTab {
            open,
            tree,
            timeline,
            canvas,
            sheet,
            sprites,
            inspector_gesture,
            inspector_draft,
            ..
        } = tab;
        // Panels start at sizes that leave the canvas room in a small window or at a large UI
        // scale (a 1280x800 window at scale 2 is 640x400 points), and cannot be dragged wider
        // than a share of it.
        let room = ui.available_size();
        timeline::edit::sync_with_player(open, timeline);
        self.textures.begin_frame(open.revision, &self.pixels);
        let mut pictures = canvas::Pictures {
            textures: &mut self.textures,
            pixels: &self.pixels,
        };
        let settings = &mut self.settings;
        if settings.layout.diagnostics && !open.diagnostics().is_empty() {
            egui::Panel::bottom("diagnostics")
                .resizable(true)
                .default_size(110.0f32.min(room.y * 0.15))
                .max_size(room.y * 0.4)
                .show(ui, |ui| ui.push_id(scope, |ui| diagnostics::show(ui, open)));
        }
        let mut refused = None;
        if settings.layout.timeline {
            let shown = egui::Panel::bottom("timeline")
                .resizable(true)
                .default_size(150.0f32.min(room.y * 0.3))
                .max_size(room.y * 0.5)
                .show(ui, |ui| {
                    ui.push_id(scope, |ui| {
                        let commands = timeline::transport::show(ui, open);
                        ui.separator();
                        let output = timeline::show(ui, settings, timeline, open, &mut pictures);
                        (commands, output)
                    })
                    .inner
                });
            // A sprite dragged from the browser and let go over the timeline becomes a frame.
            if let Some(drag) = shown
                .response
                .dnd_release_payload::<sprites::state::SpriteDrag>()
            {
                refused = refused.or(timeline::edit::insert_sprite_frame(open, *drag).err());
            }
            let (transport_commands, output) = shown.inner;
            commands.extend(transport_commands);
            commands.extend(output.commands);
            refused = refused.or(output.refused);
        }
        if settings.layout.tree {
            let output = egui::Panel::left("tree")
                .resizable(true)
                .default_size(240.0f32.min(room.x * 0.22))
                .max_size(room.x * 0.35)
                .show(ui, |ui| {
                    ui.push_id(scope, |ui| tree::show(ui, tree, open)).inner
                })
                .inner;
            commands.extend(output.commands);
            refused = refused.or(output.refused);
        }
        if settings.layout.inspector {
            let inspector_refused = egui::Panel::right("inspector")
                .resizable(true)
                .default_size(360.0f32.min(room.x * 0.3))
                .max_size(room.x * 0.4)
                .show(ui, |ui| {
                    ui.push_id(scope, |ui| {
                        inspector::show(ui, open, inspector_gesture, inspector_draft)
                    })
                    .inner
                })
                .inner;
            refused = refused.or(inspector_refused);
        }
        if let Some(message) = refused {
            self.status = Some(StatusMessage::refusal(&message, open));
        }
        let centre = &mut self.centre;
        let centre_outcome = egui::CentralPanel::no_frame().show(ui, |ui| {
            ui.push_id(scope, |ui| {
                let fill = ui.visuals().panel_fill;
                ui.painter().rect_filled(ui.max_rect(), 0.0, fill);
                // The views this document has: the preview always, the source sheet when
                // asked for, the sprites when it has an archive of them.
                let has_sprites = !sprites::browser::archives(open).is_empty();
                if (*centre == CentreTab::Sheet && !settings.layout.sheet)
                    || (*centre == CentreTab::Sprites && !has_sprites)
                {
                    *centre = CentreTab::Canvas;
                }
                if settings.layout.sheet || has_sprites {
                    ui.horizontal(|ui| {
                        ui.selectable_value(centre, CentreTab::Canvas, "Preview");
                        if settings.layout.sheet {
                            ui.selectable_value(centre, CentreTab::Sheet, "Source sheet");
                        }
                        if has_sprites {
                            ui.selectable_value(centre, CentreTab::Sprites, "Sprites");
                        }
                    });
                }
                match centre {
                    CentreTab::Canvas => (
                        canvas::show(ui, canvas, settings, open, &mut pictures),
                        None,
                    ),
                    CentreTab::Sheet => (
                        tools::CanvasOutcome::default(),
                        sheet::show(ui, sheet, open, pictures.pixels),
                    ),
                    CentreTab::Sprites => (
                        tools::CanvasOutcome::default(),
                        sprites::browser::show(ui, sprites, open, pictures.pixels, dialogs),
                    ),
                }
            })
            .inner
        });
        let (canvas_outcome, sheet_said) = centre_outcome.inner;
        if let Some(said) = sheet_said {
            self.status = Some(said);
        }
        self.after_canvas(&ui.ctx().clone(), canvas_outcome);
    }
}

impl eframe::App for SpratApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.settings.appearance.apply(&ctx);
        if std::mem::take(&mut self.leave_focus) {
            // Focus is in the widgets of a tab no longer on show (each tab has its own ids).
            ctx.memory_mut(|m| m.stop_text_input());
        }
        self.poll_pending(&ctx);
        self.guard_close(&ctx);
        self.handle_dropped_files(&ctx);

        let mut commands = UICommand::pressed(&ctx);
        if self.handle_space(&ctx) {
            commands.push(UICommand::PlayPause);
        }

        let playing = self.open().is_some_and(|o| o.player.is_playing());
        let tab_entries = tabs::entries(&self.documents, self.active);
        let active = self.active;
        let menu = egui::Panel::top("menu bar")
            .show(ui, |ui| {
                let open = active
                    .and_then(|id| self.documents.iter().find(|t| t.id == id))
                    .map(|t| &t.open);
                menus::show(ui, &mut self.settings, open, &tab_entries, playing)
            })
            .inner;
        commands.extend(menu.commands);
        if let Some(path) = menu.open_recent {
            self.open_path(&ctx, path);
        }
        // Tabs change after every panel has painted, so the inspector has said what is being
        // typed for the document on show before it leaves.
        let mut tab_action = menu.show_tab.map(tabs::TabAction::Show);
        if !tab_entries.is_empty() {
            let clicked = egui::Panel::top("tabs")
                .show(ui, |ui| tabs::tab_bar(ui, &tab_entries))
                .inner;
            tab_action = tab_action.or(clicked);
        }
        self.offer_documents_to_hang(&tab_entries);

        let status = egui::Panel::bottom("status bar")
            .show(ui, |ui| {
                let tab = self.active_tab();
                status_bar::show(
                    ui,
                    self.status.as_ref(),
                    tab.map(|t| &t.open),
                    tab.and_then(|t| t.canvas.hover_pixel),
                    tab.map_or(1.0, |t| t.canvas.zoom),
                )
            })
            .inner;
        if status.toggle_diagnostics {
            commands.push(UICommand::ToggleDiagnostics);
        }

        match self.active {
            Some(id) => self.document_panels(ui, id, &mut commands),
            None => {
                egui::CentralPanel::default().show(ui, |ui| {
                    ui.centered_and_justified(|ui| {
                        ui.heading("Open an animation with File > Open, or drop a file here.");
                    });
                });
            }
        }

        for command in commands {
            self.execute(&ctx, command);
        }
        match tab_action {
            Some(tabs::TabAction::Show(tab)) => self.show_tab(tab),
            Some(tabs::TabAction::Close(tab)) => self.request_close_tab(tab),
            None => {}
        }
        self.advance_playback(&ctx);
        self.path_field_window(&ctx);
        if let Some(format) = new_document::show(&ctx, &mut self.new_document) {
            self.install(new_document::empty_document(format));
            self.say(
                Severity::Info,
                format!(
                    "A new {} document; saving asks where to put it.",
                    format.name()
                ),
            );
        }
        self.loading_window(&ctx);
        let pixels: &ImageStore = &self.pixels;
        let dialogs = self.dialogs.as_mut();
        let said = active_tab_in(&mut self.documents, self.active).and_then(|tab| {
            save_as::show(&ctx, &mut tab.save_as, Some(&mut tab.open), dialogs, pixels)
        });
        if let Some((severity, text)) = said {
            self.say(severity, text);
        }
        self.export_window(&ctx);
        self.import_window(&ctx);
        self.go_on_after_save(&ctx);
        self.confirm_discard_window(&ctx);
        self.tick_sessions(&ctx);
        self.recovery_window(&ctx);
        self.changed_on_disk_window(&ctx);
        self.history_window(&ctx);
        menus::shortcuts_window(&ctx, &mut self.show_shortcuts);
        self.update_title(&ctx);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, settings::STORAGE_KEY, &self.settings);
    }
}

/// The tab `active` of `documents`, to change. A function of the two fields rather than a
/// method, so the caller can borrow the app's other fields (dialogs, pixels) beside it.
fn active_tab_in(documents: &mut [DocumentTab], active: Option<TabId>) -> Option<&mut DocumentTab> {
    let active = active?;
    documents.iter_mut().find(|t| t.id == active)
}

/// "a.air", "a.air and b.def", "a.air, b.def and c.sff".
fn list_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [only] => only.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
