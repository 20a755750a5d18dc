//! The document's diagnostics kept equal to `sprat check`'s: the library's [`Checker`] run in
//! the background (a worker thread on the desktop; on the web, the page's one thread after the
//! paint) when a document opens, after every edit, undo and reload, and after every save.
//!
//! After a save the saved file is read again, so what its reader says carries the line numbers
//! of the bytes written, and those diagnostics are moved onto the document on show
//! ([`crate::check::relocate`]). The tab keeps its checker, and with it the frames' opaque
//! masks, so checking again after an edit redraws only the pictures that changed. A result
//! for a document that has changed since it was started is dropped, and the check starts
//! again on the document as it is; egui is asked to repaint only when a result arrives.

use crate::app::context::platform::Platform;
use crate::assets::ImageStore;
use crate::check::{CheckOptions, Checker, relocate};
use crate::formats::{Diagnostic, Format, ReadOptions};
use crate::model::AnimationSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// What a check was of: the document at an edit, save and reader's word, checked with options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedState {
    /// The document's revision ([`crate::app::context::document::OpenDocument::revision`]).
    pub revision: u64,
    /// The session's save count.
    pub saves: u64,
    /// The version of what the reader said.
    pub reader: u64,
    /// What the check goes by.
    pub options: CheckOptions,
}

/// What a check needs besides the state it is of.
pub struct CheckInput<'a> {
    /// The document as it is now.
    pub document: &'a AnimationSet,
    /// Its format.
    pub format: &'static dyn Format,
    /// What the reader said of the file as last read or saved.
    pub reader: &'a [Diagnostic],
    /// The file to read again, when it was saved since the reader last spoke.
    pub saved: Option<PathBuf>,
    /// How the file was read (for reading it again).
    pub read: ReadOptions,
    /// Where pictures come from: the editor's store, shared with the canvas.
    pub pixels: &'a Arc<ImageStore>,
}

/// What a finished check hands back.
struct Outcome {
    state: CheckedState,
    diagnostics: Vec<Diagnostic>,
    /// What the reader said of the saved file read again (moved onto the document).
    saved_reader: Option<Vec<Diagnostic>>,
}

/// One document's checks: the diagnostics of the last check, and the one under way.
#[derive(Default)]
pub struct Checking {
    /// Made at the first check; kept for the tab's life (its decoded files and masks).
    checker: Option<Arc<Checker>>,
    /// The diagnostics of the last check kept, with what it was of.
    shown: Option<(CheckedState, Vec<Diagnostic>)>,
    /// The check under way.
    running: Option<(CheckedState, Receiver<Outcome>)>,
    /// The save count when the reader's diagnostics were last read from the file.
    reader_saves: u64,
    /// A check that stopped without a result (a bug in a checker panicked): not started
    /// again until the document changes.
    stopped: Option<CheckedState>,
}

impl Checking {
    /// The diagnostics of the last check; `None` before the first one ends.
    pub fn diagnostics(&self) -> Option<&[Diagnostic]> {
        self.shown.as_ref().map(|(_, list)| list.as_slice())
    }

    /// Whether a check is under way.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Whether the diagnostics kept are of `state`, or checking it stopped without a result.
    pub fn is_current(&self, state: &CheckedState) -> bool {
        self.shown.as_ref().is_some_and(|(of, _)| of == state)
            || self.stopped.as_ref() == Some(state)
    }

    /// Whether the saved file must be read again before the next check.
    pub fn needs_reread(&self, saves: u64) -> bool {
        saves != self.reader_saves
    }

    /// Takes the check under way if it has ended: its diagnostics are kept when `now` is
    /// still the state it was of (it is dropped otherwise), and for a saved file read again
    /// what that file's reader said is handed back, for the session to keep.
    pub fn take_finished(&mut self, now: &CheckedState) -> Option<Finished> {
        let (_, receiver) = self.running.as_ref()?;
        let outcome = match receiver.try_recv() {
            Ok(outcome) => outcome,
            Err(TryRecvError::Empty) => return None,
            // The worker stopped without a result (it panicked, and said so in the log): the
            // last diagnostics stay, and the next change of the document checks again.
            Err(TryRecvError::Disconnected) => {
                self.stopped = self.running.take().map(|(state, _)| state);
                return None;
            }
        };
        self.running = None;
        if &outcome.state != now {
            return None;
        }
        if outcome.saved_reader.is_some() {
            self.reader_saves = outcome.state.saves;
        }
        self.shown = Some((outcome.state, outcome.diagnostics));
        outcome.saved_reader.map(|reader| Finished { reader })
    }

    /// Records that the diagnostics kept are of `state` (after the saved file's reader's word
    /// was taken, which changed the reader's version and nothing else).
    pub fn restamp(&mut self, state: CheckedState) {
        if let Some((of, _)) = self.shown.as_mut() {
            *of = state;
        }
    }

    /// Starts checking `input` as of `state` on `platform`'s background; `wake` is called
    /// when the result is ready (the editor asks egui to repaint there).
    pub fn start(
        &mut self,
        platform: &dyn Platform,
        state: CheckedState,
        input: CheckInput,
        wake: impl FnOnce() + Send + 'static,
    ) {
        let checker = Arc::clone(
            self.checker
                .get_or_insert_with(|| Arc::new(Checker::with_pixels(Arc::clone(input.pixels)))),
        );
        // The worker checks a copy, so the document can change meanwhile.
        let document = input.document.clone();
        let (format, reader, saved, read) =
            (input.format, input.reader.to_vec(), input.saved, input.read);
        let options = state.options.clone();
        let worker_state = state.clone();
        let (sender, receiver) = channel();
        platform.run_in_background(Box::new(move || {
            // A saved file is read again and checked as `sprat check` would check it; what
            // it says is then moved onto the document on show.
            let read_again = saved.and_then(|path| {
                let mut checked = checker.check_file(&path, &read, &options);
                let read_again = checked.document.take()?;
                relocate(&mut checked.diagnostics, &read_again, &document);
                relocate(&mut checked.reader, &read_again, &document);
                Some((checked.diagnostics, checked.reader))
            });
            let outcome = match read_again {
                Some((diagnostics, reader)) => Outcome {
                    state: worker_state,
                    diagnostics,
                    saved_reader: Some(reader),
                },
                // Not saved since the reader spoke, or the saved file cannot be read back
                // (changed meanwhile): the document is checked with what the reader said.
                None => Outcome {
                    state: worker_state,
                    diagnostics: checker.check_document(&document, format, reader, &options),
                    saved_reader: None,
                },
            };
            // The tab may have been closed meanwhile; then nobody needs the result.
            let _ = sender.send(outcome);
            wake();
        }));
        self.running = Some((state, receiver));
    }
}

/// A finished check of a document saved since the reader last spoke.
pub struct Finished {
    /// What the reader says of the saved file, its subjects moved onto the document.
    pub reader: Vec<Diagnostic>,
}
