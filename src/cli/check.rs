//! `sprat check FILE`: diagnostics, exit 1 on errors.

use super::ReadArgs;
use super::load::{counts, open, print_diagnostics};
use crate::formats::mugen::check_sff_archives;
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
    diagnostics.extend(check_sff_archives(&opened.loaded.document));
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
