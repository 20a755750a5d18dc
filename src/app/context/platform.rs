//! What differs between the desktop and the web page, behind one trait: file dialogs,
//! background work, where a save and an export go, whether there is a disk, where the demo
//! comes from. The desktop's is the shell's native platform, the page's is in `web/`; panels
//! and the shell ask the trait and never which one it is.

use crate::session::{PendingSave, SaveError, SaveReport, Session};
use std::path::{Path, PathBuf};

/// What a file dialog gave back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DialogOutcome<Chosen = PathBuf> {
    /// The user chose a file (or several).
    Chosen(Chosen),
    /// The user closed the dialog without choosing (or the answer comes later, as the web
    /// page's files do).
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
    /// Asks for a folder of pictures to import (image sequences in it and its sub-folders);
    /// unavailable where no folder can be chosen.
    fn pick_folder_to_import(&mut self) -> DialogOutcome {
        DialogOutcome::Unavailable
    }
}

impl<T> DialogOutcome<T> {
    /// The chosen value changed by `f`; the other outcomes as they are.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> DialogOutcome<U> {
        match self {
            DialogOutcome::Chosen(chosen) => DialogOutcome::Chosen(f(chosen)),
            DialogOutcome::Cancelled => DialogOutcome::Cancelled,
            DialogOutcome::Unavailable => DialogOutcome::Unavailable,
        }
    }
}

/// Hands the files an export drew to the user where there is no disk to write them to:
/// `files` with the paths the desktop would write them to, `target` the path asked for.
/// Returns the paths, as the desktop's export does.
pub type HandOver = fn(files: &[(PathBuf, Vec<u8>)], target: &Path) -> Result<Vec<PathBuf>, String>;

/// Where an export's files go.
#[derive(Clone, Copy, Debug)]
pub enum ExportDelivery {
    /// Written to disk together, never replacing a file the document reads.
    Disk,
    /// Drawn, then handed over (a download).
    HandedOver(HandOver),
}

/// The platform the editor runs on.
pub trait Platform {
    /// The file dialogs.
    fn dialogs(&mut self) -> &mut dyn Dialogs;

    /// Runs `job` away from the frame that starts it (reading a file, exporting, decoding
    /// pictures to import); `job` says when it is done (it wakes the editor, which polls for
    /// its result).
    fn run_in_background(&self, job: Box<dyn FnOnce() + Send>);

    /// Delivers a prepared save: written to disk, or handed to the user.
    fn deliver_save(
        &mut self,
        session: &mut Session,
        pending: PendingSave,
    ) -> Result<SaveReport, SaveError>;

    /// Where an export's files go.
    fn export_delivery(&self) -> ExportDelivery;

    /// Whether there is a disk: unsaved work is written aside for recovery and files are
    /// watched for changes only where there is.
    fn has_disk(&self) -> bool;

    /// Where the bundled demo is read from.
    fn demo_path(&self) -> PathBuf;
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

    /// The folder is the next of [`ScriptedDialogs::answers`].
    fn pick_folder_to_import(&mut self) -> DialogOutcome {
        self.next_answer()
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
