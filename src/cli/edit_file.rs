//! What the commands that edit a file share (`sprat boxes`, `retime`, `align`): open the input
//! to write a new file (refusing to overwrite without `--force`), pick the format to write
//! (the input's own, as the output's extension allows), pick the sequences named on the
//! command line, and write the result all or nothing.

use super::convert::{WriteChoices, target_format, write_as};
use super::load::open_for_writing;
use super::render::pick_sequence;
use super::{EditedCopyArgs, ReadArgs};
use crate::formats::Format;
use crate::model::{AnimationSet, Frame, SequenceId};
use std::io::Write;
use std::path::Path;

/// An input opened for editing, with the format the output will be written in.
pub struct EditedFile {
    /// The document read, to be edited.
    pub document: AnimationSet,
    /// The format it was read with.
    pub format: &'static dyn Format,
    /// The format to write.
    pub target: &'static dyn Format,
    /// What the write of the edited document goes by: the input's errors (with
    /// `--allow-errors`), the files it reads, the input as read.
    pub choices: WriteChoices<'static>,
}

/// Opens `input` to write an edited copy at `copy.output`. `Err` holds the exit code, the
/// reason already said on `err` (an output the write rule refuses, an unreadable input, an
/// input with errors without `allow_errors`, an output extension no writable format has).
pub fn open_to_edit(
    input: &Path,
    copy: &EditedCopyArgs,
    read: &ReadArgs,
    err: &mut dyn Write,
) -> std::io::Result<Result<EditedFile, i32>> {
    let (output, force) = (copy.output.as_path(), copy.force);
    let opened = match open_for_writing(input, output, force, copy.allow_errors, read, err)? {
        Ok(opened) => opened,
        Err(code) => return Ok(Err(code)),
    };
    match target_format(output, None, Some(opened.format)) {
        Ok(target) => {
            let choices = WriteChoices {
                force,
                ..WriteChoices::read_from(input, &opened, target)
            };
            Ok(Ok(EditedFile {
                document: opened.loaded.document,
                format: opened.format,
                target,
                choices,
            }))
        }
        Err(message) => {
            writeln!(err, "sprat: {message}; nothing written")?;
            Ok(Err(1))
        }
    }
}

/// The sequences named by `--sequence` (every sequence when none is named). `Err` holds the
/// exit code after an unknown name was said on `err`.
pub fn chosen_sequences(
    document: &AnimationSet,
    names: &[String],
    err: &mut dyn Write,
) -> std::io::Result<Result<Vec<SequenceId>, i32>> {
    if names.is_empty() {
        return Ok(Ok(document.sequences().iter().map(|s| s.id).collect()));
    }
    let mut ids = Vec::new();
    for name in names {
        match pick_sequence(document, Some(name)) {
            Ok(s) if !ids.contains(&s.id) => ids.push(s.id),
            Ok(_) => {}
            Err(message) => {
                writeln!(err, "sprat: {message}; nothing written")?;
                return Ok(Err(1));
            }
        }
    }
    Ok(Ok(ids))
}

/// Every frame the `sequences` show, in every direction (a frame shown twice is listed twice).
pub fn frames_of<'a>(document: &'a AnimationSet, sequences: &[SequenceId]) -> Vec<&'a Frame> {
    sequences
        .iter()
        .filter_map(|id| document.sequence(*id))
        .flat_map(|s| (0..s.directions.len()).flat_map(|d| document.direction_frames(s, d)))
        .collect()
}

/// The last line of an edit refused for pictures that cannot be loaded.
pub fn cannot_be_loaded(pictures: usize) -> String {
    format!(
        "{} the frames draw cannot be loaded; nothing written",
        crate::text::count(pictures, "picture")
    )
}

impl EditedFile {
    /// Writes the edited document to `output` in the target format, all or nothing; refused
    /// (exit 3) when the format cannot hold everything, (exit 2) when a file it names exists
    /// with other bytes unless `force`, or is one the document reads (its sheets and
    /// archives), and (exit 1) when the input written over changed on disk since it was read.
    pub fn write(
        &self,
        output: &Path,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> std::io::Result<i32> {
        write_as(&self.document, self.target, output, &self.choices, out, err)
    }
}
