//! Opening a file for a command, printing its diagnostics.

use super::ReadArgs;
use crate::formats::{Diagnostic, Format, Loaded, ReadContext, ReadOptions, has_errors, registry};
use std::io::Write;
use std::path::Path;

/// Diagnostics printed per file at most, unless `--all` is given.
pub const MAX_PRINTED_DIAGNOSTICS: usize = crate::formats::diagnostics::FIRST_DIAGNOSTICS_LISTED;

/// A file opened for a command.
pub struct Opened {
    /// What was read.
    pub loaded: Loaded,
    /// The format it was read with.
    pub format: &'static dyn Format,
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
    registry()
        .open(path, &context)
        .map(|(loaded, format)| Opened { loaded, format })
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

/// Opens `input` to write a new file at `output`: refused (exit 2) when `output` exists
/// without `force`, and (exit 1) when `input` cannot be read or has errors, each said on
/// `err`. `Err` holds the exit code.
pub fn open_for_writing(
    input: &Path,
    output: &Path,
    force: bool,
    args: &ReadArgs,
    err: &mut dyn Write,
) -> std::io::Result<Result<Opened, i32>> {
    if output.exists() && !force {
        writeln!(
            err,
            "sprat: {} exists; add --force to overwrite it",
            output.display()
        )?;
        return Ok(Err(2));
    }
    let Some(opened) = open(input, args, err)? else {
        return Ok(Err(1));
    };
    if has_errors(&opened.loaded.diagnostics) {
        print_diagnostics(input, &opened.loaded.diagnostics, err)?;
        writeln!(
            err,
            "sprat: {} has errors; nothing written",
            input.display()
        )?;
        return Ok(Err(1));
    }
    Ok(Ok(opened))
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
