//! A document's full diagnostics, exactly as `sprat check` gives them: what the reader said,
//! what is wrong with the images it names, and the box warnings ([`crate::boxes::lint`]).
//!
//! The command line and the editor both call this, so the editor's list equals the command
//! line's: after opening a file ([`Checker::check_document`] with the reader's diagnostics),
//! after every edit (the same, with the diagnostics of the file as last read or saved), and
//! after a save ([`Checker::check_file`] on the saved file: the reader's line numbers are then
//! those of the bytes written, and [`relocate`] moves what they name onto the document on
//! show). Checking decodes every picture the frames draw (and reads the
//! file again for [`Checker::check_file`]): tens of milliseconds for a small sprite, a second
//! or more for a fighter with hundreds of frames, so the editor runs it off the UI thread
//! (a [`Checker`] is `Send` and `Sync`, and keeps decoded pictures and masks between runs;
//! the editor's shares its picture store, [`Checker::with_pixels`]).

use crate::assets::ImageStore;
use crate::assets::check::{DecodedFiles, image_problems, merge_image_problems};
use crate::boxes::MaskCache;
use crate::boxes::lint::{BoxClasses, LintContext, lint_boxes_with};
use crate::boxes::roles::BoxRoles;
use crate::formats::{Diagnostic, Format, ReadContext, ReadOptions, Subject, registry};
use crate::model::{AnimationSet, DefaultBoxRule, Sequence};
use std::path::Path;
use std::sync::Arc;

/// What a check goes by besides the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// Whether the box warnings are given (`sprat check --no-box-lint` leaves them out).
    pub box_lint: bool,
    /// Which boxes a frame shows (AIR defaults); `sprat check` uses the default rule.
    pub rule: DefaultBoxRule,
    /// The names the user said are hit and hurt boxes, for formats that only name their
    /// boxes (from Sprat's settings for this document; the document's own are added).
    pub roles: BoxRoles,
}

impl Default for CheckOptions {
    /// Everything `sprat check` gives by default, the box warnings included.
    fn default() -> CheckOptions {
        CheckOptions {
            box_lint: true,
            rule: DefaultBoxRule::default(),
            roles: BoxRoles::default(),
        }
    }
}

/// The outcome of checking a file.
pub struct FileCheck {
    /// The format it was read as; `None` when it could not be read.
    pub format: Option<&'static dyn Format>,
    /// The document read; `None` when it could not be read.
    pub document: Option<AnimationSet>,
    /// What the reader alone said (the start of `diagnostics`, before the images' problems
    /// were merged in): the editor keeps it as what the saved file's reader says.
    pub reader: Vec<Diagnostic>,
    /// Every diagnostic, the reader's first.
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks documents, keeping the pictures it decoded for the next check (a folder of sprites
/// sharing one sheet decodes it once; the editor's next check after an edit is quicker).
#[derive(Default)]
pub struct Checker {
    decoded: DecodedFiles,
    pixels: Arc<ImageStore>,
    /// Each distinct picture's opaque mask, drawn once over the checker's life.
    masks: MaskCache,
}

impl Checker {
    /// A checker with nothing decoded yet.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// A checker drawing pictures from `pixels` (the editor's own store: one picture budget
    /// for the canvas and the checks, and a picture changed on disk is forgotten for both).
    pub fn with_pixels(pixels: Arc<ImageStore>) -> Checker {
        Checker {
            pixels,
            ..Checker::default()
        }
    }

    /// Reads the file at `path` and checks it: exactly what `sprat check` reports.
    pub fn check_file(&self, path: &Path, read: &ReadOptions, options: &CheckOptions) -> FileCheck {
        let context = ReadContext {
            path: Some(crate::formats::absolute(path.to_path_buf())),
            options: read.clone(),
        };
        match registry().open(path, &context) {
            Ok((loaded, format)) => {
                let reader = loaded.diagnostics.clone();
                let diagnostics =
                    self.check_document(&loaded.document, format, loaded.diagnostics, options);
                FileCheck {
                    format: Some(format),
                    document: Some(loaded.document),
                    reader,
                    diagnostics,
                }
            }
            Err(failure) => FileCheck {
                format: None,
                document: None,
                reader: failure.diagnostics.clone(),
                diagnostics: failure.diagnostics,
            },
        }
    }

    /// The diagnostics of `document` in `format`: `reader` (what reading its file said), the
    /// problems of the images it names (merged with what the reader said of them), then the
    /// box warnings.
    pub fn check_document(
        &self,
        document: &AnimationSet,
        format: &dyn Format,
        reader: Vec<Diagnostic>,
        options: &CheckOptions,
    ) -> Vec<Diagnostic> {
        let mut diagnostics = reader;
        let problems = image_problems(document, &self.decoded);
        merge_image_problems(&mut diagnostics, problems);
        diagnostics.extend(self.box_warnings(document, format, options));
        diagnostics
    }

    /// The box warnings of `document` alone.
    pub fn box_warnings(
        &self,
        document: &AnimationSet,
        format: &dyn Format,
        options: &CheckOptions,
    ) -> Vec<Diagnostic> {
        let capabilities = format.capabilities();
        if !options.box_lint || !capabilities.boxes {
            return Vec::new();
        }
        let context = LintContext {
            pixels: Some(self.pixels.as_ref()),
            rule: options.rule,
            default_boxes: capabilities.default_boxes,
            classes: BoxClasses::of(document, &capabilities, &options.roles),
        };
        lint_boxes_with(document, &context, &self.masks)
    }
}

/// Moves `diagnostics` about `from` (a document read again from the file `to` was just saved
/// to) onto `to`, so each still selects what it names: sequences by their place in tree order
/// (by name where another sequence has that place now), frames by their place in their
/// direction, images by their place in the list (by path otherwise). A subject `to` no longer
/// has is dropped; the message and its line and column stay those of the file.
pub fn relocate(diagnostics: &mut [Diagnostic], from: &AnimationSet, to: &AnimationSet) {
    let (old, new) = (from.sequences(), to.sequences());
    let sequence_for = |id| -> Option<&Sequence> {
        let at = old.iter().position(|s| s.id == id)?;
        let name = &old[at].name;
        new.get(at)
            .filter(|s| &s.name == name)
            .or_else(|| new.iter().find(|s| &s.name == name))
            .copied()
    };
    for diagnostic in diagnostics {
        diagnostic.subject = match diagnostic.subject {
            None => None,
            Some(Subject::Sequence(id)) => sequence_for(id).map(|s| Subject::Sequence(s.id)),
            Some(Subject::Frame {
                sequence,
                direction,
                index,
                ..
            }) => sequence_for(sequence).and_then(|s| {
                let frame = *s.directions.get(direction)?.frames.get(index)?;
                Some(Subject::Frame {
                    sequence: s.id,
                    direction,
                    index,
                    frame,
                })
            }),
            Some(Subject::Image(id)) => {
                let at = from.images.iter().position(|i| i.id == id);
                let path = at.map(|at| &from.images[at].path);
                at.and_then(|at| to.images.get(at))
                    .filter(|i| Some(&i.path) == path)
                    .or_else(|| to.images.iter().find(|i| Some(&i.path) == path))
                    .map(|i| Subject::Image(i.id))
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_send_and_sync<T: Send + Sync>() {}

    #[test]
    fn a_checker_can_run_off_the_ui_thread() {
        is_send_and_sync::<Checker>();
    }

    #[test]
    fn relocated_diagnostics_name_the_same_places_in_the_document_saved() {
        use crate::formats::{Location, Severity};
        use crate::model::SequenceId;
        let read_again = crate::model::fixtures::grouped_sequences(1, 3, 2);
        // The document on show: the same sequences under other ids, the last one renamed
        // since the save.
        let mut shown = read_again.clone();
        for sequence in shown.sequences_mut() {
            sequence.id = SequenceId(sequence.id.0 + 1000);
        }
        shown.sequences_mut()[2].name = "renamed".into();
        let old = read_again.sequences();
        let about = |subject| {
            Diagnostic::new(
                Severity::Warning,
                Location::Text { line: 9, column: 1 },
                "x",
            )
            .about(subject)
        };
        let mut diagnostics = vec![
            about(Subject::Frame {
                sequence: old[1].id,
                direction: 0,
                index: 1,
                frame: old[1].directions[0].frames[1],
            }),
            about(Subject::Sequence(old[2].id)),
            about(Subject::Image(read_again.images[0].id)),
        ];
        relocate(&mut diagnostics, &read_again, &shown);
        let new = shown.sequences();
        assert_eq!(
            diagnostics[0].subject,
            Some(Subject::Frame {
                sequence: new[1].id,
                direction: 0,
                index: 1,
                frame: new[1].directions[0].frames[1],
            })
        );
        assert_eq!(
            diagnostics[1].subject, None,
            "no sequence has that name now"
        );
        assert_eq!(
            diagnostics[2].subject,
            Some(Subject::Image(shown.images[0].id))
        );
        assert_eq!(
            diagnostics[0].location,
            Location::Text { line: 9, column: 1 }
        );
    }
}
