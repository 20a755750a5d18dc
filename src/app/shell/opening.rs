//! Opening files: the demo, a path (read on a worker thread, one file at a time, in a new
//! tab), files dropped on the window, the "Open path" field and the window that shows a read
//! under way.

use crate::app::context::document::OpenDocument;
use crate::app::context::feedback::shown_path;
use crate::app::context::loader::{self, LoadResult, PendingLoad};
use crate::app::shell::app::{SpratApp, active_tab_in};
use crate::app::shell::tabs;
use crate::formats::{Severity, registry};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Files handed over by later starts of sprat, kept in the context's memory until the next
/// frame opens them.
#[derive(Clone, Default)]
struct HandedFiles(Vec<PathBuf>);

/// The memory id of the [`HandedFiles`].
fn handed_files_id() -> egui::Id {
    egui::Id::unique("sprat handed files")
}

/// Opens every file a later start of sprat (`sprat FILE`, a file opened from the file
/// manager) hands to `listener` as a tab of this window: the listener's thread leaves the
/// paths in the context's memory, brings the window forward and wakes the editor, whose next
/// frame opens them.
/// (The desktop platforms have a single window; the web page is one tab of a browser.)
#[cfg(any(unix, windows))]
pub fn take_files_from(listener: &crate::single_instance::Listener, ctx: &egui::Context) {
    let ctx = ctx.clone();
    let served = listener.serve(move |paths| {
        ctx.data_mut(|d| {
            d.get_temp_mut_or_default::<HandedFiles>(handed_files_id())
                .0
                .extend(paths)
        });
        ctx.send_viewport_cmd(egui::ViewportCommand::Focus);
        ctx.request_repaint();
    });
    if let Err(e) = served {
        log::warn!("cannot take files from later starts of sprat: {e}");
    }
}

impl SpratApp {
    /// Opens the bundled demo (`assets/demo/demo.sprat`) on this thread, in a new tab unless
    /// it is open already: it is small.
    pub fn open_demo(&mut self) {
        let path = self.platform.demo_path();
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
                        shown_path(&path)
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

    pub(super) fn show_already_open(&mut self, tab: tabs::TabId, path: &Path) {
        self.show_tab(tab);
        self.say(
            Severity::Info,
            format!("{} is already open.", shown_path(path)),
        );
    }

    /// Starts reading a file on a worker thread; it opens in a new tab when it arrives. While
    /// another file is being read it waits its turn.
    pub(super) fn start_loading(&mut self, ctx: &egui::Context, path: PathBuf) {
        if let Some(pending) = &self.pending {
            if pending.path != path && !self.waiting.contains(&path) {
                self.waiting.push_back(path);
            }
            return;
        }
        let ctx = ctx.clone();
        self.say(Severity::Info, format!("Reading {}…", shown_path(&path)));
        let options = crate::formats::ReadOptions {
            aseprite_layers: self.settings.aseprite_layers,
            ..Default::default()
        };
        self.pending = Some(PendingLoad::start(
            self.platform.as_ref(),
            path,
            options,
            move || ctx.request_repaint(),
        ));
    }

    /// Takes a read started before the editor was made (the file named on the command line,
    /// read while the window starts): it opens in a new tab when it arrives. A read already
    /// under way keeps its place, and this one waits its turn.
    pub fn take_started_load(&mut self, reading: PendingLoad) {
        if self.pending.is_some() {
            self.waiting.push_back(reading.path);
            return;
        }
        self.say(
            Severity::Info,
            format!("Reading {}…", shown_path(&reading.path)),
        );
        self.pending = Some(reading);
    }

    /// True while a file is being read.
    pub fn is_loading(&self) -> bool {
        self.pending.is_some()
    }

    /// Shows a file read by [`loader::load_now`] in a new tab, as one read in the background
    /// is shown when it arrives (benchmarks, tests).
    pub fn show_file(&mut self, file: loader::OpenedFile) {
        self.adopt(Ok(file));
    }

    pub(super) fn adopt(&mut self, result: LoadResult) {
        match result {
            Ok(file) => {
                if file.path != self.platform.demo_path() {
                    self.settings.remember_recent(&file.path);
                }
                // Read meanwhile through another way in (the demo, a second drop): one tab.
                if let Some(tab) = self.tab_of_file(&file.path) {
                    self.show_already_open(tab, &file.path);
                    return;
                }
                let name = shown_path(&file.path);
                // Read with the document: the first sprite drawn reads no file.
                for archive in file.archives {
                    archive.keep_in(self.pixels.sff());
                }
                let mut doc = OpenDocument::new(
                    file.loaded.document,
                    Some(file.path),
                    file.format,
                    file.loaded.diagnostics,
                );
                doc.session.set_fingerprints(file.fingerprints);
                self.install(doc);
                // The counts are the status bar's, once the full check (images and boxes
                // too, as `sprat check` gives them) has ended.
                self.say(Severity::Info, format!("Opened {name}"));
                if let Some(notice) = self.start_notice.take() {
                    self.say(Severity::Warning, notice);
                }
            }
            Err(diagnostics) => {
                // Why the file could not be read says more than why its window is new.
                self.start_notice = None;
                let text = diagnostics
                    .iter()
                    .map(|d| d.display_with("file"))
                    .collect::<Vec<_>>()
                    .join("; ");
                self.say(Severity::Error, format!("Could not open the file: {text}"));
            }
        }
    }

    /// Takes a file read that has ended: its tab opens (or the status bar says why it could
    /// not), and the next file waiting is read.
    pub fn poll_pending(&mut self, ctx: &egui::Context) {
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

    pub(super) fn handle_dropped_files(&mut self, ctx: &egui::Context) {
        // Files handed over by later starts of sprat (see `take_files_from`): each in a tab.
        let handed = ctx.data_mut(|d| d.remove_temp::<HandedFiles>(handed_files_id()));
        for path in handed.map(|h| h.0).unwrap_or_default() {
            self.open_path(ctx, path);
        }
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        let paths: Vec<PathBuf> = dropped
            .iter()
            .map(|f| f.path().to_path_buf())
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        if self.import_if_pictures(ctx, &paths) {
            return;
        }
        // Dropped files without a path (from a browser) cannot be read back; they are ignored.
        // Each document among the others opens in a tab of its own; the files a document
        // names (a character's .air and .sff beside its .def) open with it.
        for path in registry().documents_among(&paths) {
            self.open_path(ctx, path.clone());
        }
    }

    /// Pictures dropped on a document are art to import into it, not files to open: true
    /// when `paths` are all pictures or folders of pictures (image sequences) and went to the
    /// Import window of the tab on show.
    pub(crate) fn import_if_pictures(&mut self, ctx: &egui::Context, paths: &[PathBuf]) -> bool {
        let art = |path: &PathBuf| {
            crate::assets::import::is_picture_file(path)
                || (crate::formats::input::is_dir(path)
                    && !crate::assets::groups::pictures_in_folder(path).is_empty())
        };
        if paths.is_empty() || !paths.iter().all(art) {
            return false;
        }
        let Some(tab) = active_tab_in(&mut self.documents, self.active) else {
            return false;
        };
        let ctx = ctx.clone();
        tab.import
            .add_files(paths.to_vec(), self.platform.as_ref(), move || {
                ctx.request_repaint()
            });
        true
    }

    pub(super) fn path_field_window(&mut self, ctx: &egui::Context) {
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

    /// The read under way: bytes read of the file's size, then the decoding, with Cancel.
    pub(super) fn loading_window(&mut self, ctx: &egui::Context) {
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

/// "512 bytes", "12.5 KiB", "3.2 MiB".
fn byte_size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} bytes"),
        1024..1_048_576 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}
