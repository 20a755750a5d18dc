//! `sprat align FILE --anchor feet|centre|point:NAME [--sequence S]... -o OUT`: move each
//! frame so the anchor sits on the origin, written in the input's format.

use super::edit_file::{cannot_be_loaded, chosen_sequences, frames_of, open_to_edit};
use super::render::say_missing_pixels;
use super::{EditedCopyArgs, ReadArgs};
use crate::assets::ImageStore;
use crate::edit::align::{OnePerDirection, align_for_format};
use crate::edit::scope::FrameScope;
use crate::edit::{History, Selection};
use crate::model::DefaultBoxRule;
use crate::tools::anchor::Anchor;
use std::io::Write;
use std::path::Path;

/// The command's options.
pub struct Options {
    /// `--anchor`, as typed.
    pub anchor: String,
    /// The sequences to align; all when empty.
    pub sequences: Vec<String>,
    /// Where to write, overwriting or not, and whether an input with errors is written.
    pub copy: EditedCopyArgs,
}

pub fn run(
    input: &Path,
    options: &Options,
    read: &ReadArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let anchor = match Anchor::parse(&options.anchor) {
        Ok(anchor) => anchor,
        Err(message) => {
            writeln!(err, "sprat: --anchor: {message}; nothing written")?;
            return Ok(1);
        }
    };
    let mut edited = match open_to_edit(input, &options.copy, read, err)? {
        Ok(edited) => edited,
        Err(code) => return Ok(code),
    };
    let capabilities = edited.format.capabilities();
    let document = &mut edited.document;
    let sequences = match chosen_sequences(document, &options.sequences, err)? {
        Ok(ids) => ids,
        Err(code) => return Ok(code),
    };
    let pixels = ImageStore::new();
    // (A format that cannot hold the result is refused by the plan before any picture counts.)
    if anchor.needs_pixels() && !capabilities.one_origin_per_direction {
        let drawn = frames_of(document, &sequences);
        if say_missing_pixels(document, &drawn, &pixels, false, err, cannot_be_loaded)? {
            return Ok(1);
        }
    }
    let scope = FrameScope::Sequences(sequences);
    let command = match align_for_format(
        document,
        &scope,
        &anchor,
        &pixels,
        edited.target,
        OnePerDirection::Refuse,
        DefaultBoxRule::default(),
    ) {
        Ok(command) => command,
        Err(e) => {
            writeln!(
                err,
                "sprat: {}",
                e.message.replace("nothing changed", "nothing written")
            )?;
            return Ok(1);
        }
    };
    let plan = &command.plan;
    for line in plan.skipped_lines(document) {
        writeln!(err, "sprat: warning: {line}; left as it is")?;
    }
    let moved = plan.moved();
    let planned: usize = plan.directions.iter().map(|d| d.moves.len()).sum();
    if let Err(e) = History::new().apply(document, &Selection::none(), &command, None) {
        writeln!(err, "sprat: {}; nothing written", e.message)?;
        return Ok(1);
    }
    writeln!(
        out,
        "aligned {} on the {anchor}: {moved} moved, {} already in place",
        crate::text::count(planned, "frame"),
        planned - moved
    )?;
    edited.write(&options.copy.output, out, err)
}
