//! What `sprat check` says about a `.def` or an `.air`, for the command line and the editor.

use super::format::{AirFormat, DefFormat};
use crate::formats::sff::SffArchive;
use crate::formats::{Diagnostic, Format, Location, ReadContext, Severity};
use crate::model::{AnimationSet, ImageKind};
use std::path::Path;

/// Every diagnostic about the file at `path` and the files it names (the `.air` of a
/// character `.def`, its `.sff` and `.act` files), sorted by file and position: errors that
/// stop the read, the warnings of a successful one, and what decoding every sprite of the SFF
/// archive finds (as `sprat check` does). A `.def` is read as a definition file, anything else
/// as AIR.
pub fn check_file(path: &Path) -> Vec<Diagnostic> {
    let bytes = match crate::formats::read_file(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            return vec![Diagnostic::new(
                Severity::Error,
                Location::File,
                format!("cannot read the file: {e}"),
            )];
        }
    };
    let is_def = path
        .extension()
        .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case("def"));
    let format: &dyn Format = if is_def { &DefFormat } else { &AirFormat };
    let mut diagnostics = match format.read(&bytes, &ReadContext::for_path(path)) {
        Ok(loaded) => {
            let mut diagnostics = loaded.diagnostics;
            diagnostics.extend(check_sff_archives(&loaded.document));
            diagnostics
        }
        Err(failure) => failure.diagnostics,
    };
    diagnostics.sort_by_key(|d| (d.file.clone(), position(&d.location)));
    diagnostics
}

/// Decodes every sprite of every SFF archive `document` uses; what that finds, each problem
/// naming its archive as the document names it.
pub fn check_sff_archives(document: &AnimationSet) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for image in &document.images {
        let (ImageKind::Sff { .. }, Some(sff)) = (&image.kind, &image.resolved) else {
            continue;
        };
        let problems = match SffArchive::open(sff) {
            Ok(archive) => archive.check(),
            Err(diagnostic) => vec![diagnostic],
        };
        found.extend(problems.into_iter().map(|d| d.in_file(image.path.clone())));
    }
    found
}

fn position(location: &Location) -> (u64, u64) {
    match *location {
        Location::File => (0, 0),
        Location::Text { line, column } => (u64::from(line), u64::from(column)),
        Location::Byte(offset) => (offset, 0),
    }
}
