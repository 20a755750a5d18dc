//! `sprat check FILE|FOLDER...`: diagnostics of each file, every image it names included, and
//! warnings about its collision boxes; exit 1 when any file has errors.

use super::batch::{self, FileOutput, Outcome};
use super::load::{Limit, counts, print_diagnostics_up_to, read};
use super::{BatchArgs, ReadArgs, json};
use crate::assets::ImageStore;
use crate::assets::check::{DecodedFiles, image_problems, merge_image_problems};
use crate::boxes::MaskCache;
use crate::boxes::lint::{LintContext, lint_boxes_with};
use crate::formats::Diagnostic;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Runs the command over `files`; `box_lint` adds the warnings about collision boxes.
pub fn run(
    files: &[PathBuf],
    batch: &BatchArgs,
    read_args: &ReadArgs,
    box_lint: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    // A sheet shared by many documents is decoded once for the whole run: for its problems,
    // and for the pictures the box lint looks at; each distinct picture's mask is drawn once.
    let decoded = DecodedFiles::default();
    let lint = box_lint.then(RunLint::default);
    batch::run(
        "check",
        files,
        batch,
        |path| check_one(path, batch, read_args, &decoded, lint.as_ref()),
        out,
        err,
    )
}

/// Checks one file: what its reader says, then every image, sheet and sprite it names.
fn check_one(
    path: &Path,
    batch: &BatchArgs,
    read_args: &ReadArgs,
    decoded: &DecodedFiles,
    lint: Option<&RunLint>,
) -> FileOutput {
    let (format, diagnostics) = match read(path, read_args) {
        Ok(opened) => {
            let mut diagnostics = opened.loaded.diagnostics;
            let problems = image_problems(&opened.loaded.document, decoded);
            merge_image_problems(&mut diagnostics, problems);
            if let Some(lint) = lint {
                diagnostics.extend(box_warnings(&opened.loaded.document, opened.format, lint));
            }
            (Some(opened.format), diagnostics)
        }
        Err(diagnostics) => (None, diagnostics),
    };
    let (errors, warnings) = counts(&diagnostics);
    let mut output = FileOutput {
        outcome: Some(if format.is_none() {
            Outcome::Errors
        } else {
            Outcome::of(errors, warnings)
        }),
        failed: errors > 0 || format.is_none(),
        ..FileOutput::default()
    };
    if batch.json {
        output.out = report_json(path, format, &diagnostics, None);
        return output;
    }
    let limit = if batch.all { Limit::All } else { Limit::Capped };
    let Some(format) = format else {
        output.err = printed(|w| print_diagnostics_up_to(path, &diagnostics, limit, w));
        return output;
    };
    output.out = printed(|w| {
        print_diagnostics_up_to(path, &diagnostics, limit, w)?;
        writeln!(
            w,
            "{}: {} ({}): {errors} error(s), {warnings} warning(s)",
            path.display(),
            format.name(),
            format.id()
        )
    });
    output
}

/// What the box lint keeps over a run: the pictures it read and the masks it drew of them.
#[derive(Default)]
struct RunLint {
    pixels: ImageStore,
    masks: MaskCache,
}

/// The box lint of a document, its pictures and masks taken from the run's caches.
fn box_warnings(
    document: &crate::model::AnimationSet,
    format: &dyn crate::formats::Format,
    lint: &RunLint,
) -> Vec<Diagnostic> {
    if !format.capabilities().boxes {
        return Vec::new();
    }
    let context = LintContext {
        pixels: Some(&lint.pixels),
        rule: crate::model::DefaultBoxRule::default(),
        default_boxes: format.capabilities().default_boxes,
    };
    lint_boxes_with(document, &context, &lint.masks)
}

/// One file's JSON object.
pub fn report_json(
    path: &Path,
    format: Option<&dyn crate::formats::Format>,
    diagnostics: &[Diagnostic],
    document: Option<json::JsonDocument>,
) -> String {
    let (errors, warnings) = counts(diagnostics);
    let report = json::FileReport {
        path: path.display().to_string(),
        format: format.map(json::FormatName::of),
        errors,
        warnings,
        diagnostics: json::diagnostics(diagnostics),
        document,
    };
    serde_json::to_string(&report).unwrap_or_default()
}

/// What `write` writes, as text (writing to memory cannot fail).
pub fn printed(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    let mut bytes = Vec::new();
    let _ = write(&mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}
