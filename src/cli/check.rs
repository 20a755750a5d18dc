//! `sprat check FILE`: diagnostics, exit 1 on errors.

use super::ReadArgs;
use super::load::{counts, open, print_diagnostics};
use crate::formats::sff::SffArchive;
use crate::model::{AnimationSet, ImageKind};
use std::io::Write;
use std::path::Path;

pub fn run(
    path: &Path,
    read: &ReadArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let Some(opened) = open(path, read, err)? else {
        return Ok(1);
    };
    let mut diagnostics = opened.loaded.diagnostics;
    diagnostics.extend(check_archives(&opened.loaded.document));
    print_diagnostics(path, &diagnostics, out)?;
    let (errors, warnings) = counts(&diagnostics);
    writeln!(
        out,
        "{}: {} ({}): {errors} error(s), {warnings} warning(s)",
        path.display(),
        opened.format.name(),
        opened.format.id()
    )?;
    Ok(if errors > 0 { 1 } else { 0 })
}

/// Decodes every sprite of every SFF archive the document uses; the problems found, each
/// naming its archive.
fn check_archives(document: &AnimationSet) -> Vec<crate::formats::Diagnostic> {
    let mut out = Vec::new();
    for image in &document.images {
        let (ImageKind::Sff { .. }, Some(path)) = (&image.kind, &image.resolved) else {
            continue;
        };
        let file = path.display().to_string();
        match SffArchive::open(path) {
            Ok(archive) => out.extend(archive.check().into_iter().map(|d| d.in_file(file.clone()))),
            Err(d) => out.push(d.in_file(file)),
        }
    }
    out
}
