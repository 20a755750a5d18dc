//! Native dialogs behind a trait, so tests never open one.

use std::path::{Path, PathBuf};

/// What a file dialog gave back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DialogOutcome<Chosen = PathBuf> {
    /// The user chose a file (or several).
    Chosen(Chosen),
    /// The user closed the dialog without choosing.
    Cancelled,
    /// No dialog could be shown (no desktop portal); the editor offers a path field instead.
    Unavailable,
}

/// Shows file dialogs.
pub trait Dialogs {
    /// Asks for a file to open; `extensions` lists the readable formats' extensions.
    fn pick_file_to_open(&mut self, extensions: &[&str]) -> DialogOutcome;
    /// Asks where to save a file of the format named `format_name`, whose files end in one of
    /// `extensions`, starting from `suggested` (folder and file name).
    fn pick_file_to_save(
        &mut self,
        format_name: &str,
        extensions: &[&str],
        suggested: &Path,
    ) -> DialogOutcome;
    /// Asks for picture files to import (several at once); `extensions` lists the image
    /// types Sprat decodes.
    fn pick_files_to_import(&mut self, extensions: &[&str]) -> DialogOutcome<Vec<PathBuf>>;
}

/// The desktop's own dialogs, through rfd (the XDG portal on Linux).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Default)]
pub struct NativeDialogs;

#[cfg(not(target_arch = "wasm32"))]
impl Dialogs for NativeDialogs {
    fn pick_file_to_open(&mut self, extensions: &[&str]) -> DialogOutcome {
        let started = std::time::Instant::now();
        let chosen = rfd::FileDialog::new()
            .set_title("Open an animation")
            .add_filter("Animation files", extensions)
            .add_filter("All files", &["*"])
            .pick_file();
        outcome(chosen, started)
    }

    fn pick_file_to_save(
        &mut self,
        format_name: &str,
        extensions: &[&str],
        suggested: &Path,
    ) -> DialogOutcome {
        let started = std::time::Instant::now();
        let mut dialog = rfd::FileDialog::new()
            .set_title(format!("Save as {format_name}"))
            .add_filter(format_name, extensions);
        if let Some(dir) = suggested.parent().filter(|d| !d.as_os_str().is_empty()) {
            dialog = dialog.set_directory(dir);
        }
        if let Some(name) = suggested.file_name() {
            dialog = dialog.set_file_name(name.to_string_lossy());
        }
        outcome(dialog.save_file(), started)
    }

    fn pick_files_to_import(&mut self, extensions: &[&str]) -> DialogOutcome<Vec<PathBuf>> {
        let started = std::time::Instant::now();
        let chosen = rfd::FileDialog::new()
            .set_title("Import frames")
            .add_filter("Images", extensions)
            .pick_files();
        outcome(chosen, started)
    }
}

/// rfd says `None` both for "cancelled" and for "no portal to ask"; a person cannot cancel a
/// dialog in a few milliseconds, so an instant `None` means none was shown.
#[cfg(not(target_arch = "wasm32"))]
fn outcome<T>(chosen: Option<T>, started: std::time::Instant) -> DialogOutcome<T> {
    match chosen {
        Some(path) => DialogOutcome::Chosen(path),
        None if started.elapsed() < std::time::Duration::from_millis(150) => {
            DialogOutcome::Unavailable
        }
        None => DialogOutcome::Cancelled,
    }
}

/// Dialogs that answer from a script (for tests): each call takes the next answer, and
/// answers [`DialogOutcome::Unavailable`] when the script is empty.
#[derive(Default)]
pub struct ScriptedDialogs {
    /// The answers still to give, first first.
    pub answers: std::collections::VecDeque<DialogOutcome>,
    /// How many dialogs were asked for.
    pub asked: usize,
    /// The answers to give to [`Dialogs::pick_files_to_import`], first first (unavailable
    /// when empty).
    pub file_lists: std::collections::VecDeque<Vec<PathBuf>>,
}

impl Dialogs for ScriptedDialogs {
    fn pick_file_to_open(&mut self, _extensions: &[&str]) -> DialogOutcome {
        self.next_answer()
    }

    fn pick_file_to_save(
        &mut self,
        _format_name: &str,
        _extensions: &[&str],
        _suggested: &Path,
    ) -> DialogOutcome {
        self.next_answer()
    }

    fn pick_files_to_import(&mut self, _extensions: &[&str]) -> DialogOutcome<Vec<PathBuf>> {
        self.asked += 1;
        match self.file_lists.pop_front() {
            Some(files) => DialogOutcome::Chosen(files),
            None => DialogOutcome::Unavailable,
        }
    }
}

impl ScriptedDialogs {
    fn next_answer(&mut self) -> DialogOutcome {
        self.asked += 1;
        self.answers
            .pop_front()
            .unwrap_or(DialogOutcome::Unavailable)
    }
}
