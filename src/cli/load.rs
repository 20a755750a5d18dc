//! Opening a file for a command, printing its diagnostics.

use super::ReadArgs;
use crate::formats::{Diagnostic, Format, Loaded, ReadContext, ReadOptions, Severity, registry};
use std::io::Write;
use std::path::Path;

/// A file opened for a command.
pub struct Opened {
    /// What was read.
    pub loaded: Loaded,
    /// The format it was read with.
    pub format: &'static dyn Format,
}

/// Reads `path` with whichever format it is in. On failure the errors are printed to `err` and
/// `None` is returned.
pub fn open(path: &Path, read: &ReadArgs, err: &mut dyn Write) -> std::io::Result<Option<Opened>> {
    let context = ReadContext {
        path: Some(path.to_path_buf()),
        options: ReadOptions {
            tileset: read.tileset.clone(),
        },
    };
    match registry().open(path, &context) {
        Ok((loaded, format)) => Ok(Some(Opened { loaded, format })),
        Err(failure) => {
            print_diagnostics(path, &failure.diagnostics, err)?;
            Ok(None)
        }
    }
}

/// Prints diagnostics as `file:line:column: severity: message`, errors first.
pub fn print_diagnostics(
    path: &Path,
    diagnostics: &[Diagnostic],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let name = path.display().to_string();
    let mut sorted: Vec<&Diagnostic> = diagnostics.iter().collect();
    sorted.sort_by_key(|d| d.severity);
    for d in sorted {
        writeln!(out, "{}", d.display_with(&name))?;
    }
    Ok(())
}

/// Counts of each severity, for summaries.
pub fn counts(diagnostics: &[Diagnostic]) -> (usize, usize) {
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    (errors, warnings)
}
