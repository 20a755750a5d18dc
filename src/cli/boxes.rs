//! `sprat boxes FILE (--fit CLASS | --trace CLASS) [--sequence S]... -o OUT`: first-pass
//! collision boxes for whole files, from the pictures.

use super::edit_file::{cannot_be_loaded, chosen_sequences, frames_of, open_to_edit};
use super::render::say_missing_pixels;
use super::{EditedCopyArgs, ReadArgs};
use crate::assets::ImageStore;
use crate::boxes::{BoxMethod, plan_boxes};
use crate::edit::box_tools::{BoxRun, ExistingBoxes, PlaceBoxes};
use crate::edit::{History, Selection};
use crate::formats::Place;
use crate::model::{BoxClass, DefaultBoxRule, SequenceId};
use crate::text::count;
use std::io::Write;
use std::path::Path;

/// The command's options.
pub struct Options {
    /// The class of the new boxes, and how they are made.
    pub class: BoxClass,
    /// Fit (one box) or trace (several).
    pub method: BoxMethod,
    /// The sequences to work on; all when empty.
    pub sequences: Vec<String>,
    /// Replace boxes of the class frames already show.
    pub replace: bool,
    /// Where to write, overwriting or not, and whether an input with errors is written.
    pub copy: EditedCopyArgs,
}

/// Parses a box class: `hit`, `hurt`, or a custom class name.
pub fn parse_class(text: &str) -> Result<BoxClass, String> {
    match text.trim() {
        "" => Err("a box class needs a name (hit, hurt or a custom name)".to_string()),
        t if t.eq_ignore_ascii_case("hit") || t.eq_ignore_ascii_case("clsn1") => Ok(BoxClass::Hit),
        t if t.eq_ignore_ascii_case("hurt") || t.eq_ignore_ascii_case("clsn2") => {
            Ok(BoxClass::Hurt)
        }
        t => Ok(BoxClass::Custom(t.to_string())),
    }
}

pub fn run(
    input: &Path,
    options: &Options,
    read: &ReadArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let mut edited = match open_to_edit(input, &options.copy, read, err)? {
        Ok(edited) => edited,
        Err(code) => return Ok(code),
    };
    let capabilities = edited.format.capabilities();
    if !capabilities.boxes {
        writeln!(
            err,
            "sprat: {} files cannot hold collision boxes; nothing written",
            edited.format.name()
        )?;
        return Ok(1);
    }
    if matches!(options.class, BoxClass::Custom(_)) && !capabilities.custom_box_classes {
        writeln!(
            err,
            "sprat: {} files hold only hit and hurt boxes, not \"{}\"; nothing written",
            edited.format.name(),
            options.class.label()
        )?;
        return Ok(1);
    }
    let document = &mut edited.document;
    let chosen: Vec<SequenceId> = match chosen_sequences(document, &options.sequences, err)? {
        Ok(ids) => ids,
        Err(code) => return Ok(code),
    };
    let pixels = ImageStore::new();
    let drawn = frames_of(document, &chosen);
    if say_missing_pixels(document, &drawn, &pixels, true, err, cannot_be_loaded)? {
        return Ok(1);
    }
    let mut history = History::new();
    let (mut changed, mut kept) = (0usize, 0usize);
    for id in chosen {
        let Some(sequence) = document.sequence(id).cloned() else {
            continue;
        };
        for direction in 0..sequence.directions.len() {
            let count = sequence.directions[direction].frames.len();
            let indices: Vec<usize> = (0..count).collect();
            let frames = plan_boxes(
                document,
                &sequence,
                direction,
                &indices,
                options.method,
                &pixels,
            );
            for (index, shapes) in &frames {
                if shapes.is_empty() {
                    writeln!(
                        out,
                        "{}: no opaque pixels; no box added",
                        Place::frame(&sequence.name, direction, *index)
                    )?;
                }
            }
            let place = PlaceBoxes {
                run: BoxRun {
                    sequence: id,
                    direction,
                    rule: DefaultBoxRule::default(),
                    default_boxes: capabilities.default_boxes,
                },
                class: options.class.clone(),
                frames,
                existing: if options.replace {
                    ExistingBoxes::Replace
                } else {
                    ExistingBoxes::Keep
                },
                label: format!("{} {} boxes", options.method.verb(), options.class.label()),
            };
            let will_change = place.changed_frames(document).unwrap_or_default();
            let with_shapes = place.frames.iter().filter(|(_, s)| !s.is_empty()).count();
            kept += with_shapes - will_change.len();
            if will_change.is_empty() {
                continue;
            }
            if let Err(e) = history.apply(document, &Selection::none(), &place, None) {
                writeln!(
                    err,
                    "sprat: {}: {}; nothing written",
                    Place::frame(&sequence.name, direction, 0),
                    e.message
                )?;
                return Ok(1);
            }
            changed += will_change.len();
        }
    }
    writeln!(
        out,
        "{} got {} boxes{}",
        count(changed, "frame"),
        options.class.label(),
        if kept > 0 {
            format!(
                "; {} already had some and {} left alone (--replace replaces them)",
                count(kept, "frame"),
                if kept == 1 { "was" } else { "were" }
            )
        } else {
            String::new()
        }
    )?;
    edited.write(&options.copy.output, out, err)
}
