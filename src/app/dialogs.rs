//! Native dialogs behind a trait, so tests never open one.

use std::path::PathBuf;

/// What a file dialog gave back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DialogOutcome {
    /// The user chose a file.
    Chosen(PathBuf),
    /// The user closed the dialog without choosing.
    Cancelled,
    /// No dialog could be shown (no desktop portal); the editor offers a path field instead.
    Unavailable,
}

/// Shows file dialogs.
pub trait Dialogs {
    /// Asks for a file to open; `extensions` lists the readable formats' extensions.
    fn pick_file_to_open(&mut self, extensions: &[&str]) -> DialogOutcome;
}

/// The desktop's own dialogs, through rfd (the XDG portal on Linux).
#[derive(Default)]
pub struct NativeDialogs;

impl Dialogs for NativeDialogs {
    fn pick_file_to_open(&mut self, extensions: &[&str]) -> DialogOutcome {
        let started = std::time::Instant::now();
        let chosen = rfd::FileDialog::new()
            .set_title("Open an animation")
            .add_filter("Animation files", extensions)
            .add_filter("All files", &["*"])
            .pick_file();
        match chosen {
            Some(path) => DialogOutcome::Chosen(path),
            // rfd says None both for "cancelled" and for "no portal to ask"; a person cannot
            // cancel a dialog in a few milliseconds, so an instant None means none was shown.
            None if started.elapsed() < std::time::Duration::from_millis(150) => {
                DialogOutcome::Unavailable
            }
            None => DialogOutcome::Cancelled,
        }
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
}

impl Dialogs for ScriptedDialogs {
    fn pick_file_to_open(&mut self, _extensions: &[&str]) -> DialogOutcome {
        self.asked += 1;
        self.answers
            .pop_front()
            .unwrap_or(DialogOutcome::Unavailable)
    }
}
