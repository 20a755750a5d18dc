//! `sprat retime FILE [--sequence S]... (--scale K | --total MS | --fps F) -o OUT`: new frame
//! durations for whole sequences, in the file's own unit, written in its format.

use super::edit_file::{chosen_sequences, open_to_edit};
use super::{EditedCopyArgs, ReadArgs};
use crate::edit::retime::Retime;
use crate::edit::scope::FrameScope;
use crate::edit::{History, Selection};
use crate::tools::retime::{Ratio, RetimeChange};
use std::io::Write;
use std::path::Path;

/// The command's options, as typed (values are checked by [`run`], so a bad one is a plain
/// refusal with exit 1 like any other).
pub struct Options {
    /// The sequences to retime; all when empty.
    pub sequences: Vec<String>,
    /// `--scale K`.
    pub scale: Option<String>,
    /// `--total MS`.
    pub total: Option<String>,
    /// `--fps F`.
    pub fps: Option<String>,
    /// Where to write, overwriting or not, and whether an input with errors is written.
    pub copy: EditedCopyArgs,
}

/// The change asked for, or why the value is refused.
fn change(options: &Options) -> Result<RetimeChange, String> {
    let given = [
        options.scale.as_ref().map(|v| ("--scale", v)),
        options.total.as_ref().map(|v| ("--total", v)),
        options.fps.as_ref().map(|v| ("--fps", v)),
    ];
    let mut given = given.into_iter().flatten();
    let (Some((flag, value)), None) = (given.next(), given.next()) else {
        return Err("retime needs exactly one of --scale K, --total MS or --fps F".to_string());
    };
    let ratio = Ratio::parse_positive(value).map_err(|e| format!("{flag}: {e}"))?;
    Ok(match flag {
        "--scale" => RetimeChange::Scale(ratio),
        "--total" => RetimeChange::TotalMillis(ratio),
        _ => RetimeChange::FramesPerSecond(ratio),
    })
}

pub fn run(
    input: &Path,
    options: &Options,
    read: &ReadArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    // Checked before reading, so a bad value fails at once.
    let change = match change(options) {
        Ok(change) => change,
        Err(message) => {
            writeln!(err, "sprat: {message}; nothing written")?;
            return Ok(1);
        }
    };
    let mut edited = match open_to_edit(input, &options.copy, read, err)? {
        Ok(edited) => edited,
        Err(code) => return Ok(code),
    };
    let document = &mut edited.document;
    let sequences = match chosen_sequences(document, &options.sequences, err)? {
        Ok(ids) => ids,
        Err(code) => return Ok(code),
    };
    let retime = Retime {
        scope: FrameScope::Sequences(sequences),
        change,
        per_frame_durations: edited.format.capabilities().per_frame_durations,
    };
    let plan = match retime.plan(document) {
        Ok(plan) => plan,
        Err(e) => {
            writeln!(
                err,
                "sprat: {}; nothing written",
                e.message.trim_end_matches("; nothing changed")
            )?;
            return Ok(1);
        }
    };
    if let Err(e) = History::new().apply(document, &Selection::none(), &retime, None) {
        writeln!(err, "sprat: {}; nothing written", e.message)?;
        return Ok(1);
    }
    write!(
        out,
        "retimed {} ({}), {} of them changed",
        crate::text::count(plan.frames.len(), "frame"),
        change.describe(),
        plan.changed()
    )?;
    if let Some(worst) = plan.largest_error() {
        let name = document
            .sequence(worst.sequence)
            .map_or(String::new(), |s| s.name.clone());
        let unit = worst.after.unit_name();
        writeln!(
            out,
            "; largest per-frame rounding error {:.3} {unit} ({:.3} ms), in \"{name}\"",
            worst.error_units, worst.error_millis
        )?;
    } else {
        writeln!(out)?;
    }
    edited.write(&options.copy.output, out, err)
}
