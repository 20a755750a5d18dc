//! Opening a file for a command, printing its diagnostics.

use super::ReadArgs;
use crate::check::{CheckOptions, Checker};
use crate::formats::{
    Diagnostic, Format, Loaded, ReadContext, ReadOptions, Severity, has_errors, registry,
};
use crate::session::target::{RefusalReason, Refused, WriteRule, check_target};
use crate::session::watch::{Stamp, stamp_of};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Diagnostics printed per file at most, unless `--all` is given.
pub const MAX_PRINTED_DIAGNOSTICS: usize = crate::formats::diagnostics::FIRST_DIAGNOSTICS_LISTED;

/// A file opened for a command.
pub struct Opened {
    /// What was read.
    pub loaded: Loaded,
    /// The format it was read with.
    pub format: &'static dyn Format,
    /// The size and modification time of the file just before it was read, and of the files
    /// read with it (the `.air` of a `.def`) just after: a command that writes over one of
    /// them refuses when the disk no longer shows this.
    pub as_read: Vec<(PathBuf, Stamp)>,
}

/// Reads `path` with whichever format it is in; the errors that stopped the read otherwise.
pub fn read(path: &Path, read: &ReadArgs) -> Result<Opened, Vec<Diagnostic>> {
    let context = ReadContext {
        path: Some(crate::formats::absolute(path.to_path_buf())),
        options: ReadOptions {
            tileset: read.tileset.clone(),
            aseprite_layers: read.aseprite_layers,
        },
    };
    let stamp = stamp_of(path);
    registry()
        .open(path, &context)
        .map(|(loaded, format)| {
            let mut as_read = vec![(path.to_path_buf(), stamp)];
            as_read.extend(
                loaded
                    .document
                    .companion_originals
                    .iter()
                    .filter_map(|o| o.path.clone())
                    .map(|companion| {
                        let stamp = stamp_of(&companion);
                        (companion, stamp)
                    }),
            );
            Opened {
                loaded,
                format,
                as_read,
            }
        })
        .map_err(|failure| failure.diagnostics)
}

/// Reads `path` with whichever format it is in. On failure the errors are printed to `err` and
/// `None` is returned.
pub fn open(path: &Path, args: &ReadArgs, err: &mut dyn Write) -> std::io::Result<Option<Opened>> {
    match read(path, args) {
        Ok(opened) => Ok(Some(opened)),
        Err(diagnostics) => {
            print_diagnostics(path, &diagnostics, err)?;
            Ok(None)
        }
    }
}

/// How many diagnostics to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The first [`MAX_PRINTED_DIAGNOSTICS`], then how many more there are.
    Capped,
    /// Every one.
    All,
}

/// Opens `input` to write a new file at `output`: refused (exit 2) when the write rule refuses
/// `output` ([`refuse_target`]), and (exit 1) when `input` cannot be read or has errors, each
/// said on `err`. Errors are what `sprat check` finds without the box warnings: every picture
/// the document names is decoded (an archive's damaged sprites show only then). With
/// `allow_errors` a file with errors is opened all the same; its diagnostics then list them
/// ([`broken`]). `Err` holds the exit code.
pub fn open_for_writing(
    input: &Path,
    output: &Path,
    force: bool,
    allow_errors: bool,
    args: &ReadArgs,
    err: &mut dyn Write,
) -> std::io::Result<Result<Opened, i32>> {
    if let Some(code) = refuse_target(output, force, err)? {
        return Ok(Err(code));
    }
    let Some(opened) = open_checked(input, allow_errors, args, err)? else {
        return Ok(Err(1));
    };
    Ok(Ok(opened))
}

/// Opens `input` and checks it in full (every picture decoded, no box warnings): `None` after
/// the reason was said on `err` when it cannot be read, or has errors and `allow_errors` is
/// not given.
pub fn open_checked(
    input: &Path,
    allow_errors: bool,
    args: &ReadArgs,
    err: &mut dyn Write,
) -> std::io::Result<Option<Opened>> {
    let Some(mut opened) = open(input, args, err)? else {
        return Ok(None);
    };
    let options = CheckOptions {
        box_lint: false,
        ..CheckOptions::default()
    };
    let reader = std::mem::take(&mut opened.loaded.diagnostics);
    opened.loaded.diagnostics =
        Checker::new().check_document(&opened.loaded.document, opened.format, reader, &options);
    if has_errors(&opened.loaded.diagnostics) && !allow_errors {
        print_diagnostics(input, &opened.loaded.diagnostics, err)?;
        writeln!(
            err,
            "sprat: {} has errors; nothing written (add --allow-errors to write anyway)",
            input.display()
        )?;
        return Ok(None);
    }
    Ok(Some(opened))
}

/// The errors among `diagnostics` of `path`, one line each, for the list a write made with
/// `--allow-errors` prints beside what it lost.
pub fn broken(path: &Path, diagnostics: &[Diagnostic]) -> Vec<String> {
    let name = path.display().to_string();
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.display_with(&name))
        .collect()
}

/// Says on `err` why the write rule refuses `output` before anything is read (an existing file
/// without `force`; a folder, device or pipe in any case): `Some(2)`, the exit code, then.
pub fn refuse_target(
    output: &Path,
    force: bool,
    err: &mut dyn Write,
) -> std::io::Result<Option<i32>> {
    match check_target(output, &WriteRule::command_line(force)) {
        Ok(()) => Ok(None),
        Err(refused) => {
            say_refused(&refused, err)?;
            Ok(Some(2))
        }
    }
}

/// One sentence on `err` for a write the rule refused, with what the user can do.
pub fn say_refused(refused: &Refused, err: &mut dyn Write) -> std::io::Result<()> {
    match refused.reason {
        RefusalReason::Exists => writeln!(
            err,
            "sprat: {} exists; add --force to overwrite it",
            refused.path.display()
        ),
        RefusalReason::ReadOnly => writeln!(
            err,
            "sprat: {refused}; nothing written (add --force to replace it anyway)"
        ),
        RefusalReason::ReadByDocument | RefusalReason::NotRegularFile(_) => {
            writeln!(err, "sprat: {refused}; nothing written")
        }
    }
}

/// Prints diagnostics as `file:line:column: severity: message`, errors first: at most
/// [`MAX_PRINTED_DIAGNOSTICS`], then how many more there are.
pub fn print_diagnostics(
    path: &Path,
    diagnostics: &[Diagnostic],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    print_diagnostics_up_to(path, diagnostics, Limit::Capped, out)
}

/// Prints diagnostics as `file:line:column: severity: message`, errors first; past the limit,
/// one line says how many more there are.
pub fn print_diagnostics_up_to(
    path: &Path,
    diagnostics: &[Diagnostic],
    limit: Limit,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let name = path.display().to_string();
    let mut sorted: Vec<&Diagnostic> = diagnostics.iter().collect();
    // Stable: within a severity the reader's order (by position) stays.
    sorted.sort_by_key(|d| d.severity);
    let shown = match limit {
        Limit::Capped => MAX_PRINTED_DIAGNOSTICS,
        Limit::All => usize::MAX,
    };
    for d in sorted.iter().take(shown) {
        writeln!(out, "{}", d.display_with(&name))?;
    }
    if sorted.len() > shown {
        let (errors, warnings) = counts(sorted[shown..].iter().copied());
        writeln!(
            out,
            "{name}: … and {} more ({}, {}; --all prints every one)",
            sorted.len() - shown,
            crate::text::count(errors, "error"),
            crate::text::count(warnings, "warning")
        )?;
    }
    Ok(())
}

/// Counts of errors and warnings, for summaries.
pub use crate::formats::error_and_warning_counts as counts;
