//! A document's full diagnostics, exactly as `sprat check` gives them: what the reader said,
//! what is wrong with the images it names, and the box warnings ([`crate::boxes::lint`]).
//!
//! The command line and the editor both call this, so the editor's list equals the command
//! line's: after opening a file ([`Checker::check_document`] with the reader's diagnostics),
//! after every edit (the same, with the diagnostics of the file as last read or saved), and
//! after a save ([`Checker::check_file`] on the saved file: the reader's line numbers are then
//! those of the bytes written). Checking decodes every picture the frames draw (and reads the
//! file again for [`Checker::check_file`]): tens of milliseconds for a small sprite, a second
//! or more for a fighter with hundreds of frames, so the editor runs it off the UI thread
//! (a [`Checker`] is `Send` and `Sync`, and keeps decoded pictures between runs).

use crate::assets::ImageStore;
use crate::assets::check::{DecodedFiles, image_problems, merge_image_problems};
use crate::boxes::MaskCache;
use crate::boxes::lint::{BoxClasses, LintContext, lint_boxes_with};
use crate::boxes::roles::BoxRoles;
use crate::formats::{Diagnostic, Format, ReadContext, ReadOptions, registry};
use crate::model::{AnimationSet, DefaultBoxRule};
use std::path::Path;

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
    /// Every diagnostic, the reader's first.
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks documents, keeping the pictures it decoded for the next check (a folder of sprites
/// sharing one sheet decodes it once; the editor's next check after an edit is quicker).
#[derive(Default)]
pub struct Checker {
    decoded: DecodedFiles,
    pixels: ImageStore,
    /// Each distinct picture's opaque mask, drawn once over the checker's life.
    masks: MaskCache,
}

impl Checker {
    /// A checker with nothing decoded yet.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Reads the file at `path` and checks it: exactly what `sprat check` reports.
    pub fn check_file(&self, path: &Path, read: &ReadOptions, options: &CheckOptions) -> FileCheck {
        let context = ReadContext {
            path: Some(crate::formats::absolute(path.to_path_buf())),
            options: read.clone(),
        };
        match registry().open(path, &context) {
            Ok((loaded, format)) => {
                let diagnostics =
                    self.check_document(&loaded.document, format, loaded.diagnostics, options);
                FileCheck {
                    format: Some(format),
                    document: Some(loaded.document),
                    diagnostics,
                }
            }
            Err(failure) => FileCheck {
                format: None,
                document: None,
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

    /// The box warnings of `document` alone (the editor's "Check boxes").
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
            pixels: Some(&self.pixels),
            rule: options.rule,
            default_boxes: capabilities.default_boxes,
            classes: BoxClasses::of(document, &capabilities, &options.roles),
        };
        lint_boxes_with(document, &context, &self.masks)
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
}
