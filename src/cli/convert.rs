//! `sprat convert IN OUT [--to FORMAT]`: write a document in another format.

use super::ReadArgs;
use super::load::{open, print_diagnostics};
use crate::formats::{Format, WriteContext, has_errors, registry};
use std::io::Write;
use std::path::Path;

/// Flags of the command.
pub struct Options {
    pub to: Option<String>,
    pub force: bool,
    pub allow_loss: bool,
}

pub fn run(
    input: &Path,
    output: &Path,
    options: &Options,
    read: &ReadArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let target = match target_format(output, options.to.as_deref()) {
        Ok(format) => format,
        Err(message) => {
            writeln!(err, "sprat: {message}")?;
            return Ok(2);
        }
    };
    if output.exists() && !options.force {
        writeln!(
            err,
            "sprat: {} exists; add --force to overwrite it",
            output.display()
        )?;
        return Ok(2);
    }
    let Some(opened) = open(input, read, err)? else {
        return Ok(1);
    };
    if has_errors(&opened.loaded.diagnostics) {
        print_diagnostics(input, &opened.loaded.diagnostics, err)?;
        writeln!(
            err,
            "sprat: {} has errors; nothing written",
            input.display()
        )?;
        return Ok(1);
    }
    let context = WriteContext {
        path: Some(output.to_path_buf()),
        pixels: None,
    };
    let written = match target.write(&opened.loaded.document, &context) {
        Ok(w) => w,
        Err(e) => {
            writeln!(err, "sprat: cannot write {}: {e}", target.name())?;
            return Ok(1);
        }
    };
    for loss in &written.losses {
        writeln!(out, "lost: {loss}")?;
    }
    if !written.losses.is_empty() && !options.allow_loss {
        writeln!(
            err,
            "sprat: {} cannot hold {} thing(s) listed above; nothing written (add --allow-loss to write anyway)",
            target.name(),
            written.losses.len()
        )?;
        return Ok(3);
    }
    let dir = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    for companion in &written.companions {
        write_atomically(&dir.join(&companion.relative_path), &companion.bytes)?;
    }
    write_atomically(output, &written.bytes)?;
    writeln!(out, "wrote {} ({})", output.display(), target.name())?;
    Ok(0)
}

fn target_format(output: &Path, to: Option<&str>) -> Result<&'static dyn Format, String> {
    let registry = registry();
    let format = match to {
        Some(id) => registry.by_id(id).ok_or_else(|| {
            let ids: Vec<&str> = registry.formats().map(|f| f.id()).collect();
            format!("unknown format \"{id}\" (known: {})", ids.join(", "))
        })?,
        None => *registry
            .by_extension(output)
            .iter()
            .find(|f| f.capabilities().write)
            .ok_or_else(|| {
                format!(
                    "cannot tell the format of {} from its extension; use --to",
                    output.display()
                )
            })?,
    };
    if !format.capabilities().write {
        return Err(format!("{} can be read but not written", format.name()));
    }
    Ok(format)
}

/// Writes through a temporary file in the same folder and a rename, so an existing file is
/// never left half-written.
pub(super) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.sprat-tmp"));
    std::fs::write(&temp, bytes)?;
    std::fs::rename(&temp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}
