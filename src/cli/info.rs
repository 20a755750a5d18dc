//! `sprat info FILE|FOLDER...`: the hierarchy with counts, durations, boxes and points.

use super::batch::{self, FileOutput, Outcome};
use super::check::{printed, report_json};
use super::load::{counts, print_diagnostics, read};
use super::{BatchArgs, ReadArgs, json};
use crate::formats::Capabilities;
use crate::model::{
    AnimationSet, BoxClass, DefaultBoxRule, ElementKind, FrameDuration, Group, Sequence, TreeItem,
    effective_boxes,
};
use crate::text::{count, count_as};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Runs the command over `files`.
pub fn run(
    files: &[PathBuf],
    batch: &BatchArgs,
    read_args: &ReadArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    batch::run(
        "info",
        files,
        batch,
        |path| describe_one(path, batch, read_args),
        out,
        err,
    )
}

/// Describes one file; only a file that cannot be read fails.
fn describe_one(path: &Path, batch: &BatchArgs, read_args: &ReadArgs) -> FileOutput {
    let opened = read(path, read_args);
    let diagnostics = match &opened {
        Ok(opened) => &opened.loaded.diagnostics,
        Err(diagnostics) => diagnostics,
    };
    let (errors, warnings) = counts(diagnostics);
    let mut output = FileOutput {
        outcome: Some(match opened {
            Ok(_) => Outcome::of(errors, warnings),
            Err(_) => Outcome::Errors,
        }),
        failed: opened.is_err(),
        ..FileOutput::default()
    };
    if batch.json {
        let (format, document) = match &opened {
            Ok(o) => (Some(o.format), Some(json::document(&o.loaded.document))),
            Err(_) => (None, None),
        };
        output.out = report_json(path, format, diagnostics, document);
        return output;
    }
    let opened = match opened {
        Ok(opened) => opened,
        Err(diagnostics) => {
            output.err = printed(|w| print_diagnostics(path, &diagnostics, w));
            return output;
        }
    };
    output.out = printed(|w| {
        writeln!(
            w,
            "{}: {} ({})",
            path.display(),
            opened.format.name(),
            opened.format.id()
        )?;
        let capabilities = opened.format.capabilities();
        write!(w, "{}", describe(&opened.loaded.document, &capabilities))?;
        if errors + warnings > 0 {
            writeln!(
                w,
                "diagnostics: {}, {} (see `sprat check`)",
                count(errors, "error"),
                count(warnings, "warning")
            )?;
        }
        Ok(())
    });
    output
}

/// The whole description as text, in the words of a format with `capabilities` (an Aseprite
/// file's boxes are its slices).
pub fn describe(document: &AnimationSet, capabilities: &Capabilities) -> String {
    let mut text = String::new();
    let sequences = document.sequences();
    let mut counts = vec![
        count(sequences.len(), "sequence"),
        count(document.frames.len(), "frame"),
        count(document.images.len(), "image"),
    ];
    // Rectangles cut out of images (a sheet's cells), not the boxes some formats call
    // slices: said only when there are some.
    if !document.slices.is_empty() {
        counts.push(count_as(
            document.slices.len(),
            "image cut-out",
            "image cut-outs",
        ));
    }
    if let Some(noun) = capabilities.box_noun {
        counts.push(count(marked_boxes(document), noun));
    }
    text += &format!("{}\n", counts.join(", "));
    if !document.metadata.title.is_empty() {
        text += &format!("title: {}\n", document.metadata.title);
    }
    if let Some(rate) = document.frame_rate {
        text += &format!("frame rate: {rate} fps\n");
    }
    if let Some(first) = document.first_sequence() {
        text += &format!("default sequence: {}\n", first.name);
    }
    describe_group(document, &document.root, 0, &mut text);
    text
}

/// How many named boxes the document holds as a format that names them (Aseprite's slices):
/// for each name, the most boxes and points of that name on one frame.
fn marked_boxes(document: &AnimationSet) -> usize {
    let mut most: BTreeMap<&str, usize> = BTreeMap::new();
    for frame in document.frames.values() {
        let mut here: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for element in &frame.elements {
            match &element.kind {
                ElementKind::Box(_) => here.entry(&element.name).or_default().0 += 1,
                ElementKind::Point(_) => here.entry(&element.name).or_default().1 += 1,
                ElementKind::Graphic(_) => {}
            }
        }
        for (name, (boxes, points)) in here {
            let entry = most.entry(name).or_default();
            *entry = (*entry).max(boxes.max(points));
        }
    }
    most.values().sum()
}

fn describe_group(document: &AnimationSet, group: &Group, depth: usize, text: &mut String) {
    for item in &group.items {
        match item {
            TreeItem::Group(g) => {
                *text += &format!("{}group {}\n", "  ".repeat(depth), g.name);
                describe_group(document, g, depth + 1, text);
            }
            TreeItem::Sequence(s) => describe_sequence(document, s, depth, text),
        }
    }
}

fn describe_sequence(
    document: &AnimationSet,
    sequence: &Sequence,
    depth: usize,
    text: &mut String,
) {
    let indent = "  ".repeat(depth);
    let ending = match (&sequence.follow_up, sequence.loop_point) {
        (Some(next), _) if !next.is_empty() => format!("then \"{next}\""),
        (_, Some(lp)) => format!("loops at frame {lp}"),
        (_, None) => match sequence.on_end {
            crate::model::EndBehavior::HoldLastFrame => "stops on its last frame".to_string(),
            crate::model::EndBehavior::Disappear => "disappears after its last frame".to_string(),
        },
    };
    let default = if document.first_sequence().map(|s| s.id) == Some(sequence.id) {
        " (default)"
    } else {
        ""
    };
    let title = sequence
        .title
        .as_ref()
        .map(|t| format!(" \"{t}\""))
        .unwrap_or_default();
    *text += &format!(
        "{indent}{}{title}{default}: {}, {ending}\n",
        sequence.name,
        count(sequence.directions.len(), "direction")
    );
    let rate = sequence.frame_rate.or(document.frame_rate).unwrap_or(0);
    for (index, direction) in sequence.directions.iter().enumerate() {
        let frames = document.direction_frames(sequence, index);
        let mut boxes: BTreeMap<String, usize> = BTreeMap::new();
        let mut points: Vec<String> = Vec::new();
        let mut graphics = 0;
        for (position, frame) in frames.iter().enumerate() {
            // The boxes in force on the frame (AIR defaults included), as `--json` lists them.
            for shown in effective_boxes(&frames, position, DefaultBoxRule::default()) {
                let label = match &shown.collision.class {
                    BoxClass::Hit => "hit".to_string(),
                    BoxClass::Hurt => "hurt".to_string(),
                    BoxClass::Custom(name) => name.clone(),
                };
                *boxes.entry(label).or_default() += 1;
            }
            for element in &frame.elements {
                match &element.kind {
                    ElementKind::Graphic(_) => graphics += 1,
                    ElementKind::Box(_) => {}
                    ElementKind::Point(_) => {
                        if !points.iter().any(|p| *p == element.name) {
                            points.push(element.name.to_string());
                        }
                    }
                }
            }
        }
        let boxes = if boxes.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = boxes.iter().map(|(k, v)| format!("{v} {k}")).collect();
            format!(", boxes: {}", list.join(", "))
        };
        let points = if points.is_empty() {
            String::new()
        } else {
            format!(", points: {}", points.join(", "))
        };
        *text += &format!(
            "{indent}  [{}] {}, {}, {}{boxes}{points}\n",
            sequence.direction_label(index),
            count(direction.frames.len(), "frame"),
            total_duration(frames.iter().map(|f| f.duration), rate),
            count(graphics, "graphic"),
        );
    }
}

/// "1.5 s (90 ticks)" style total of a list of durations, exact in the native unit.
pub fn total_duration(durations: impl Iterator<Item = FrameDuration>, frame_rate: u32) -> String {
    let mut native: BTreeMap<&'static str, u128> = BTreeMap::new();
    let mut millis = 0.0;
    let mut forever = false;
    for d in durations {
        match d {
            FrameDuration::Millis(v) => *native.entry("ms").or_default() += v as u128,
            FrameDuration::Ticks(v) => *native.entry("ticks").or_default() += v as u128,
            FrameDuration::Holds(v) => *native.entry("holds").or_default() += v.max(1) as u128,
            FrameDuration::Seconds { nanos } => *native.entry("ns").or_default() += nanos as u128,
            FrameDuration::Forever => forever = true,
        }
        if let Some(t) = d.exact(frame_rate) {
            millis += t.as_millis_f64();
        }
    }
    let parts: Vec<String> = native
        .iter()
        .map(|(unit, v)| match *unit {
            // Counted units read "1 tick", "2 ticks"; the others are abbreviations.
            "ticks" | "holds" => format!(
                "{v} {}",
                crate::text::word(*v as usize, &unit[..unit.len() - 1])
            ),
            _ => format!("{v} {unit}"),
        })
        .collect();
    let mut text = format!("{} ms", format_millis(millis));
    // Say the native units unless the total is already plain milliseconds.
    let only_millis = parts.len() == 1 && native.contains_key("ms");
    if !parts.is_empty() && !only_millis {
        text += &format!(" ({})", parts.join(" + "));
    }
    if forever {
        text += " then holds forever";
    }
    text
}

fn format_millis(ms: f64) -> String {
    if (ms - ms.round()).abs() < 1e-9 {
        format!("{}", ms.round() as i64)
    } else {
        format!("{ms:.2}")
    }
}
