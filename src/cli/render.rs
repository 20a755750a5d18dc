//! `sprat render FILE --sequence NAME [--direction N] (--frame N | --strip | --gif | --apng) -o OUT`.

use super::ReadArgs;
use super::convert::{WriteChoices, save_checked};
use super::load::{broken, open_checked, print_diagnostics, refuse_target, say_refused};
use crate::assets::ImageStore;
use crate::export::{encode_png, export_gif, frame_image, game_sheet_image, strip_image};
use crate::model::{AnimationSet, Frame, GraphicSource, Sequence};
use crate::render::RenderOptions;
use crate::session::atomic::FileToSave;
use crate::session::target::files_read_by;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// One frame as PNG.
    Frame(usize),
    /// Every frame of the direction side by side as PNG.
    Strip,
    /// An animated GIF with the exact timing.
    Gif,
    /// An animated PNG with full alpha and exact delays.
    Apng,
    /// Terrarum's assembled sheet of an ADL document.
    GameSheet,
}

/// The command's options.
pub struct Options {
    pub sequence: Option<String>,
    pub direction: String,
    pub output: Output,
    pub out_path: PathBuf,
    pub overlay: bool,
    pub scale: u32,
    pub background: Option<[u8; 4]>,
    pub columns: Option<u32>,
    /// Replace an existing output file (never one the document reads).
    pub force: bool,
    /// Render even when the input has errors, listing them.
    pub allow_errors: bool,
}

pub fn run(
    path: &Path,
    options: &Options,
    read: &ReadArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    if let Some(code) = refuse_target(&options.out_path, options.force, err)? {
        return Ok(code);
    }
    let Some(opened) = open_checked(path, options.allow_errors, read, err)? else {
        return Ok(1);
    };
    print_diagnostics(path, &opened.loaded.diagnostics, err)?;
    let document = &opened.loaded.document;
    let sequence = match pick_sequence(document, options.sequence.as_deref()) {
        Ok(s) => s,
        Err(message) => {
            writeln!(err, "sprat: {message}")?;
            return Ok(2);
        }
    };
    let Some(direction) = pick_direction(sequence, &options.direction) else {
        let labels: Vec<String> = (0..sequence.directions.len())
            .map(|i| format!("{i} ({})", sequence.direction_label(i)))
            .collect();
        writeln!(
            err,
            "sprat: \"{}\" has no direction {} (it has: {})",
            sequence.name,
            options.direction,
            labels.join(", ")
        )?;
        return Ok(2);
    };
    let pixels = ImageStore::new();
    let drawn: Vec<&Frame> = match options.output {
        Output::Frame(index) => document
            .direction_frames(sequence, direction)
            .into_iter()
            .skip(index)
            .take(1)
            .collect(),
        Output::Strip | Output::Gif | Output::Apng => {
            document.direction_frames(sequence, direction)
        }
        Output::GameSheet => document.frames.values().collect(),
    };
    // A picture with holes where the images should be is not what was asked for: say what
    // is missing and write nothing.
    let missing = say_missing_pixels(document, &drawn, &pixels, true, err, |n| {
        format!(
            "cannot render \"{}\": {} it draws cannot be loaded",
            sequence.name,
            crate::text::count(n, "image")
        )
    })?;
    if missing {
        return Ok(1);
    }
    let render_options =
        RenderOptions::picture(options.scale.max(1), options.background, options.overlay);
    let result = match options.output {
        Output::Frame(index) => frame_image(
            document,
            sequence.id,
            direction,
            index,
            &pixels,
            &render_options,
        )
        .and_then(|image| encode_png(&image)),
        Output::Strip => strip_image(
            document,
            sequence.id,
            direction,
            options.columns,
            &pixels,
            &render_options,
        )
        .and_then(|image| encode_png(&image)),
        Output::GameSheet => match crate::formats::adl::game_sheet_layout(document) {
            Some(layout) => game_sheet_image(document, &layout, &pixels, &render_options)
                .and_then(|image| encode_png(&image)),
            None => {
                writeln!(
                    err,
                    "sprat: --game-sheet needs an ADL file (it has the game's sheet layout)"
                )?;
                return Ok(2);
            }
        },
        Output::Gif => export_gif(
            document,
            sequence.id,
            direction,
            &pixels,
            &render_options,
            None,
        )
        .map(|gif| gif.bytes),
        Output::Apng => crate::export::export_apng(
            document,
            sequence.id,
            direction,
            &pixels,
            &render_options,
            None,
        )
        .map(|apng| apng.bytes),
    };
    let bytes = match result {
        Ok(bytes) => bytes,
        Err(e) => {
            writeln!(err, "sprat: cannot render \"{}\": {e}", sequence.name)?;
            return Ok(1);
        }
    };
    for error in broken(path, &opened.loaded.diagnostics) {
        writeln!(out, "broken: {error}")?;
    }
    // A picture is never written over a file the document reads: its archive, its sheets,
    // the document itself.
    let mut spared = files_read_by(document);
    spared.push(path.to_path_buf());
    let choices = WriteChoices {
        force: options.force,
        spared,
        ..WriteChoices::default()
    };
    let file = FileToSave {
        path: options.out_path.clone(),
        bytes: &bytes,
    };
    match save_checked(&[file], &choices, err)? {
        Ok(()) => {}
        Err(Some(refused)) => {
            say_refused(&refused, err)?;
            return Ok(2);
        }
        Err(None) => return Ok(1),
    }
    writeln!(out, "wrote {}", options.out_path.display())?;
    Ok(0)
}

/// The sequence named `name` (exactly, else ignoring ASCII case), or the default one.
pub(super) fn pick_sequence<'a>(
    document: &'a AnimationSet,
    name: Option<&str>,
) -> Result<&'a Sequence, String> {
    let sequences = document.sequences();
    match name {
        None => document
            .first_sequence()
            .ok_or_else(|| "the file has no sequences".to_string()),
        Some(name) => sequences
            .iter()
            .find(|s| s.name == name)
            .or_else(|| sequences.iter().find(|s| s.name.eq_ignore_ascii_case(name)))
            .copied()
            .ok_or_else(|| {
                let mut names: Vec<&str> = sequences.iter().map(|s| s.name.as_str()).collect();
                let more = names.len().saturating_sub(20);
                names.truncate(20);
                let tail = if more > 0 {
                    format!(", and {more} more")
                } else {
                    String::new()
                };
                format!(
                    "no sequence named \"{name}\" (there are: {}{tail})",
                    names.join(", ")
                )
            }),
    }
}

/// A direction given as a number or as its label ("left", "up-right").
fn pick_direction(sequence: &Sequence, given: &str) -> Option<usize> {
    if let Ok(index) = given.parse::<usize>() {
        return (index < sequence.directions.len()).then_some(index);
    }
    (0..sequence.directions.len())
        .find(|&i| sequence.direction_label(i).eq_ignore_ascii_case(given))
}

/// Says on `err` what cannot be drawn of `frames` ([`missing_pixels`]): the warnings when
/// `warn`, then each problem, and last `refusal` of how many there are. True when a picture
/// is missing, so the command writes nothing.
pub(super) fn say_missing_pixels(
    document: &AnimationSet,
    frames: &[&Frame],
    pixels: &ImageStore,
    warn: bool,
    err: &mut dyn Write,
    refusal: impl FnOnce(usize) -> String,
) -> std::io::Result<bool> {
    let (problems, warnings) = missing_pixels(document, frames, pixels);
    if warn {
        for warning in &warnings {
            writeln!(err, "sprat: warning: {warning}")?;
        }
    }
    if problems.is_empty() {
        return Ok(false);
    }
    for problem in &problems {
        writeln!(err, "sprat: {problem}")?;
    }
    writeln!(err, "sprat: {}", refusal(problems.len()))?;
    Ok(true)
}

/// What cannot be drawn of the `frames`: image files never found, files and archives that cannot be loaded
/// (errors: the picture would have holes), then sprites an archive lacks or cannot decode
/// (warnings: the engine draws nothing there either).
pub(super) fn missing_pixels(
    document: &AnimationSet,
    frames: &[&Frame],
    pixels: &ImageStore,
) -> (Vec<String>, Vec<String>) {
    let mut seen: HashSet<&GraphicSource> = HashSet::new();
    let (mut errors, mut warnings) = (Vec::new(), Vec::new());
    for frame in frames {
        for graphic in frame.elements.iter().filter_map(|e| e.as_graphic()) {
            if !seen.insert(&graphic.source) {
                continue;
            }
            // A file the reader never found has nothing for the store to find wrong with it.
            if let Some(image) = document.source_image(&graphic.source)
                && image.resolved.is_none()
                && !matches!(image.kind, crate::model::ImageKind::Memory(_))
                && !graphic.source.is_blank()
            {
                let text = format!("{}: the file cannot be found", image.path);
                if !errors.contains(&text) {
                    errors.push(text);
                }
                continue;
            }
            let Some(problem) = pixels.problem(document, &graphic.source) else {
                continue;
            };
            let archive_reads = matches!(graphic.source, GraphicSource::SffSprite { .. })
                && pixels.sff().archive(&problem.path).is_some();
            let list = if archive_reads {
                &mut warnings
            } else {
                &mut errors
            };
            let text = problem.to_string();
            if !list.contains(&text) {
                list.push(text);
            }
        }
    }
    (errors, warnings)
}

/// Parses `#rrggbb`, `#rrggbbaa` or `rrggbb`.
pub fn parse_colour(text: &str) -> Result<[u8; 4], String> {
    let hex = text.trim_start_matches('#');
    let byte = |i: usize| {
        u8::from_str_radix(&hex[i..i + 2], 16)
            .map_err(|_| format!("\"{text}\" is not a colour like #20242c"))
    };
    match hex.len() {
        6 => Ok([byte(0)?, byte(2)?, byte(4)?, 255]),
        8 => Ok([byte(0)?, byte(2)?, byte(4)?, byte(6)?]),
        _ => Err(format!("\"{text}\" is not a colour like #20242c")),
    }
}
