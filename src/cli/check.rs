//! `sprat check FILE|FOLDER...`: diagnostics of each file, every image it names included, and
//! warnings about its collision boxes; exit 1 when any file has errors.

use super::batch::{self, FileOutput, Outcome};
use super::load::{Limit, counts, print_diagnostics_up_to};
use super::{BatchArgs, ReadArgs, json};
use crate::check::{CheckOptions, Checker};
use crate::formats::{Diagnostic, ReadOptions};
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
    // and for the pictures the box lint looks at.
    let checker = Checker::new();
    let options = CheckOptions {
        box_lint,
        ..CheckOptions::default()
    };
    batch::run(
        "check",
        files,
        batch,
        |path| check_one(path, batch, read_args, &checker, &options),
        out,
        err,
    )
}

/// Checks one file: what its reader says, then every image, sheet and sprite it names, then
/// its boxes ([`Checker::check_file`], as the editor does).
fn check_one(
    path: &Path,
    batch: &BatchArgs,
    read_args: &ReadArgs,
    checker: &Checker,
    options: &CheckOptions,
) -> FileOutput {
    let read = ReadOptions {
        tileset: read_args.tileset.clone(),
        aseprite_layers: read_args.aseprite_layers,
    };
    let checked = checker.check_file(path, &read, options);
    let (format, diagnostics) = (checked.format, checked.diagnostics);
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
            "{}: {} ({}): {}, {}",
            path.display(),
            format.name(),
            format.id(),
            crate::text::count(errors, "error"),
            crate::text::count(warnings, "warning")
        )
    });
    output
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
