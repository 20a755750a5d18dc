//! `sprat convert IN OUT [--to FORMAT]`: write a document in another format.

use super::ReadArgs;
use super::load::{Opened, broken, open_for_writing, say_refused};
use crate::assets::ImageStore;
use crate::formats::{Format, WriteContext, registry};
use crate::session::atomic::{FileToSave, save_files_with_rule};
use crate::session::target::{RefusalReason, WriteRule, files_read_by, same_file};
use crate::session::watch::{Stamp, stamp_of};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Flags of the command.
pub struct Options {
    pub to: Option<String>,
    pub force: bool,
    pub allow_loss: bool,
    /// Write even when the input has errors (`--allow-errors`), listing them.
    pub allow_errors: bool,
    /// The atlas frame name pattern (`--frame-names`), for the Aseprite JSON atlas.
    pub frame_names: Option<String>,
}

pub fn run(
    input: &Path,
    output: &Path,
    options: &Options,
    read: &ReadArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    // Checked before reading, so a mistyped format id fails at once.
    if let Err(message) = target_format(output, options.to.as_deref(), None) {
        writeln!(err, "sprat: {message}")?;
        return Ok(2);
    }
    let opened = match open_for_writing(
        input,
        output,
        options.force,
        options.allow_errors,
        read,
        err,
    )? {
        Ok(opened) => opened,
        Err(code) => return Ok(code),
    };
    let target = match target_format(output, options.to.as_deref(), Some(opened.format)) {
        Ok(format) => format,
        Err(message) => {
            writeln!(err, "sprat: {message}")?;
            return Ok(2);
        }
    };
    let choices = WriteChoices {
        force: options.force,
        allow_loss: options.allow_loss,
        frame_names: options.frame_names.as_deref(),
        ..WriteChoices::read_from(input, &opened, target)
    };
    write_as(&opened.loaded.document, target, output, &choices, out, err)
}

/// What the user allowed a write to do.
#[derive(Default)]
pub(super) struct WriteChoices<'a> {
    /// Replace existing files (`--force`).
    pub force: bool,
    /// Write though the target cannot hold everything (`--allow-loss`).
    pub allow_loss: bool,
    /// The atlas frame name pattern (`--frame-names`).
    pub frame_names: Option<&'a str>,
    /// The input's errors, written anyway (`--allow-errors`): listed with the losses.
    pub broken: Vec<String>,
    /// Files the write must leave alone: those the document reads that this write would
    /// replace with something else ([`spared_files`]).
    pub spared: Vec<PathBuf>,
    /// Files as they were when read: a write over one of them is refused when the disk no
    /// longer shows that (another program changed it in between).
    pub as_read: Vec<(PathBuf, Stamp)>,
}

impl WriteChoices<'_> {
    /// The choices a write of the document read from `input` into `target` starts from: its
    /// errors listed, the files it reads spared, the input compared with the disk before it
    /// is written over.
    pub(super) fn read_from(
        input: &Path,
        opened: &Opened,
        target: &dyn Format,
    ) -> WriteChoices<'static> {
        WriteChoices {
            broken: broken(input, &opened.loaded.diagnostics),
            spared: spared_files(input, opened, target),
            as_read: opened.as_read.clone(),
            ..WriteChoices::default()
        }
    }
}

/// The files a write of the document read from `input` into `target` must not replace: every
/// file the document reads when `target` is another format than the input's (a conversion);
/// in the input's own format, the files it reads besides itself and the files read with it
/// that its writer writes back (the `.air` of a `.def`): its archives, palettes and sheets.
pub(super) fn spared_files(input: &Path, opened: &Opened, target: &dyn Format) -> Vec<PathBuf> {
    let document = &opened.loaded.document;
    let mut read = files_read_by(document);
    read.push(input.to_path_buf());
    if target.id() != opened.format.id() {
        return read;
    }
    let written_back: Vec<&PathBuf> = document
        .original
        .iter()
        .chain(&document.companion_originals)
        .filter_map(|o| o.path.as_ref())
        .collect();
    read.retain(|path| {
        !same_file(path, input) && !written_back.iter().any(|back| same_file(path, back))
    });
    read
}

/// Writes `document` as `target` to `output` with its companion files, all or nothing: what
/// the target cannot hold is listed, and refused (exit 3) unless `allow_loss`; a companion
/// that would replace an existing file with other bytes is refused (exit 2) unless `force`.
pub(super) fn write_as(
    document: &crate::model::AnimationSet,
    target: &'static dyn Format,
    output: &Path,
    choices: &WriteChoices,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    // Writers that repack pixels (ISPRITE from SFF or body parts) read them through the store.
    let pixels = ImageStore::new();
    let context = WriteContext {
        path: Some(crate::formats::absolute(output.to_path_buf())),
        pixels: Some(&pixels),
    };
    let written = match write(target, document, &context, choices.frame_names) {
        Ok(w) => w,
        Err(e) => {
            writeln!(err, "sprat: cannot write {}: {e}", target.name())?;
            return Ok(1);
        }
    };
    for error in &choices.broken {
        writeln!(out, "broken: {error}")?;
    }
    for loss in &written.losses {
        writeln!(out, "lost: {loss}")?;
    }
    if !written.losses.is_empty() && !choices.allow_loss {
        writeln!(
            err,
            "sprat: {} cannot hold the {} listed above; nothing written (add --allow-loss to write anyway)",
            target.name(),
            crate::text::count(written.losses.len(), "thing")
        )?;
        return Ok(3);
    }
    let dir = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if let Some(outside) = written
        .companions
        .iter()
        .find(|c| crate::formats::escapes_folder(&c.relative_path))
    {
        writeln!(
            err,
            "sprat: the document names \"{}\", outside the folder of {}; a conversion writes only inside it, so nothing was written",
            dir.join(&outside.relative_path).display(),
            output.display()
        )?;
        return Ok(1);
    }
    let mut files: Vec<FileToSave> = written
        .companions
        .iter()
        .map(|c| FileToSave {
            path: dir.join(&c.relative_path),
            bytes: &c.bytes,
        })
        .collect();
    files.push(FileToSave {
        path: output.to_path_buf(),
        bytes: &written.bytes,
    });
    match save_checked(&files, choices, err)? {
        Ok(()) => {}
        // A companion keeps the name the document gives it, so an output written beside its
        // input (`-o other.def` next to `kfm.def`) would otherwise replace the input's own
        // `kfm.air`.
        Err(Some(refused))
            if refused.reason == RefusalReason::Exists && !same_file(&refused.path, output) =>
        {
            writeln!(
                err,
                "sprat: {} names {}, which exists with other content; nothing written (add --force to overwrite it, or write into another folder)",
                output.display(),
                refused.path.display()
            )?;
            return Ok(2);
        }
        Err(Some(refused)) => {
            say_refused(&refused, err)?;
            return Ok(2);
        }
        Err(None) => return Ok(1),
    }
    writeln!(out, "wrote {} ({})", output.display(), target.name())?;
    for file in &files[..files.len() - 1] {
        writeln!(out, "  with {}", file.path.display())?;
    }
    Ok(0)
}

/// Saves `files` all or nothing under the command line's write rule (`--force`, the spared
/// files), after making sure no file read for this write changed on disk since. `Err(None)`
/// when the save failed otherwise; each said on `err` but a refusal, which the caller words.
pub(super) fn save_checked(
    files: &[FileToSave],
    choices: &WriteChoices,
    err: &mut dyn Write,
) -> std::io::Result<Result<(), Option<crate::session::target::Refused>>> {
    for (path, stamp) in &choices.as_read {
        if files.iter().any(|f| same_file(&f.path, path)) && stamp_of(path) != *stamp {
            writeln!(
                err,
                "sprat: {} changed on disk after it was read; nothing written (run the command again)",
                path.display()
            )?;
            return Ok(Err(None));
        }
    }
    let rule = WriteRule::command_line(choices.force).sparing(choices.spared.clone());
    match save_files_with_rule(files, None, &rule) {
        Ok(_) => Ok(Ok(())),
        Err(e) => match e.refused {
            Some(refused) => Ok(Err(Some(refused))),
            None => {
                writeln!(err, "sprat: {e}")?;
                Ok(Err(None))
            }
        },
    }
}

/// Writes with the target's own writer; a frame name pattern goes to the atlas writer, the
/// one format whose frames have names.
fn write(
    target: &dyn Format,
    document: &crate::model::AnimationSet,
    context: &WriteContext,
    frame_names: Option<&str>,
) -> Result<crate::formats::Written, crate::formats::WriteError> {
    use crate::formats::atlas_json;
    let Some(pattern) = frame_names else {
        return target.write(document, context);
    };
    if target.id() != atlas_json::FORMAT_ID {
        return Err(crate::formats::WriteError::new(format!(
            "--frame-names names the frames of an atlas (--to {}); {} has no frame names",
            atlas_json::FORMAT_ID,
            target.name()
        )));
    }
    atlas_json::write_with_frame_names(document, context, pattern)
}

/// The format to write: `--to` when given; else the input's own format when the output's
/// extension fits it (a Solarus 0.9 `.dat` stays 0.9, not the Lua `.dat` of 1.x); else the
/// first writable format the extension names.
pub(super) fn target_format(
    output: &Path,
    to: Option<&str>,
    input: Option<&'static dyn Format>,
) -> Result<&'static dyn Format, String> {
    let registry = registry();
    let by_extension = registry.by_extension(output);
    let format = match to {
        Some(id) => registry.by_id(id).ok_or_else(|| {
            let ids: Vec<&str> = registry.formats().map(|f| f.id()).collect();
            format!("unknown format \"{id}\" (known: {})", ids.join(", "))
        })?,
        None => *input
            .filter(|input| input.capabilities().write)
            .and_then(|input| by_extension.iter().find(|f| f.id() == input.id()))
            .or_else(|| by_extension.iter().find(|f| f.capabilities().write))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::load;
    use std::fs;

    /// The demo project and its sheet copied into a fresh folder; the project's path, and the
    /// project read from there.
    fn demo_read(dir: &Path) -> (std::path::PathBuf, Opened) {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
        for name in ["demo.sprat", "demo.png"] {
            fs::copy(source.join(name), dir.join(name)).unwrap();
        }
        let path = dir.join("demo.sprat");
        let opened = load::read(&path, &ReadArgs::default()).unwrap();
        (path, opened)
    }

    fn write_in_place(path: &Path, opened: &Opened) -> (i32, String) {
        let choices = WriteChoices {
            force: true,
            ..WriteChoices::read_from(path, opened, opened.format)
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = write_as(
            &opened.loaded.document,
            opened.format,
            path,
            &choices,
            &mut out,
            &mut err,
        )
        .unwrap();
        (code, String::from_utf8_lossy(&err).into_owned())
    }

    /// Writes `opened` back to `path` after another program wrote `changed.1` into the file
    /// `changed.0`: the write is refused, saying `said`, and leaves that file as it is.
    fn refused_after_a_change(path: &Path, opened: &Opened, changed: (&Path, &str), said: &str) {
        let (file, text) = changed;
        fs::write(file, text).unwrap();
        let (code, err) = write_in_place(path, opened);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(said), "{err}");
        assert_eq!(fs::read_to_string(file).unwrap(), text);
    }

    #[test]
    fn a_write_over_an_input_changed_since_it_was_read_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (path, opened) = demo_read(dir.path());
        // Another program saves the file between the read and the write.
        let changed = (path.as_path(), "(changed by another program)");
        refused_after_a_change(&path, &opened, changed, "changed on disk after it was read");
    }

    #[test]
    fn a_write_over_a_file_read_with_the_input_changed_since_is_refused() {
        // KFM in place: the .def stays, its .air is written; another program edits the .air.
        let dir = tempfile::tempdir().unwrap();
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mugen/kfm");
        for name in ["kfm.def", "kfm.air", "kfm.sff"] {
            fs::write(dir.path().join(name), fs::read(source.join(name)).unwrap()).unwrap();
        }
        let def = dir.path().join("kfm.def");
        let air = dir.path().join("kfm.air");
        let opened = load::read(&def, &ReadArgs::default()).unwrap();
        // (The .air written is the one read, which now differs from the disk.)
        let changed = (air.as_path(), "; changed by another program");
        refused_after_a_change(&def, &opened, changed, "kfm.air changed on disk");
    }

    #[test]
    fn a_write_over_an_input_unchanged_since_it_was_read_goes_ahead() {
        let dir = tempfile::tempdir().unwrap();
        let (path, opened) = demo_read(dir.path());
        let (code, err) = write_in_place(&path, &opened);
        assert_eq!(code, 0, "{err}");
    }
}
