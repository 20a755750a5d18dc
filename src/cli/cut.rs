//! `sprat cut SHEET.png [--grid WxH [--margin M] [--spacing S] | --sprites | --auto] [--gap PX]
//! [--min PX] [--explain] [--sequence NAME] [--fps F] -o OUT`: a new document of one sequence
//! whose frames are the cells of a sheet, in any writable format (by OUT's extension). By
//! default a data file beside the sheet that names its frames (an Aseprite or TexturePacker
//! JSON, a Solarus `.dat`, a `.sprat`: [`crate::assets::sheet_data`]) is read for them; where
//! there is none, or with `--auto`, the layout is read: a lattice when the sprites sit on one, else separate sprites
//! ([`crate::assets::layout`]); doubts about the cut are warnings. The document names the
//! sheet itself with each frame's rectangle; no picture is copied out (a format that holds its
//! pictures inside, such as Aseprite, takes them from the sheet).

use super::convert::{WriteChoices, target_format, write_as};
use crate::assets::decode::decode_file;
use crate::assets::import::SheetCut;
use crate::assets::layout::{CutMethod, Layout, SheetFrames, cut_frames};
use crate::assets::sheet_data::data_beside;
use crate::assets::sprites::SpriteOptions;
use crate::edit::import::{ImportFrames, ImportTarget, ImportedImage, OriginPlace};
use crate::edit::retime::Retime;
use crate::edit::scope::FrameScope;
use crate::edit::{History, Selection};
use crate::model::{AnimationSet, ImageKind, MemoryImage, PixelRect, TimeUnit};
use crate::tools::retime::{Ratio, RetimeChange};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How the sheet is cut.
pub enum Method {
    /// A grid: `--grid WxH` as typed, margin and spacing in pixels.
    Grid {
        /// `WxH`.
        size: String,
        /// Pixels before the first row and column.
        margin: u32,
        /// Pixels between cells.
        spacing: u32,
    },
    /// Separate sprites, even on a lattice.
    Sprites(SpriteOptions),
    /// The layout read: a lattice when there is one, else separate sprites.
    Automatic(SpriteOptions),
}

/// The command's options.
pub struct Options {
    /// How to cut.
    pub method: Method,
    /// Read the frames from a data file beside the sheet when there is one
    /// ([`crate::assets::sheet_data`]), cutting only where there is none.
    pub read_data: bool,
    /// Say which layout was found.
    pub explain: bool,
    /// The sequence's name (default: the sheet's file name without extension).
    pub sequence: Option<String>,
    /// `--fps`, as typed (default 10).
    pub fps: Option<String>,
    /// Where to write.
    pub output: PathBuf,
    /// Overwrite an existing output file.
    pub force: bool,
}

/// Frames per second when `--fps` is not given.
pub const DEFAULT_FPS: u64 = 10;

/// Parses `WxH` (both at least 1).
fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--grid: \"{text}\" is not a cell size such as 32x48");
    let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if w == 0 || h == 0 {
        return Err(format!("--grid: a cell of {w}x{h} has no pixels"));
    }
    Ok((w, h))
}

/// The cells of `sheet`, without cells that are wholly transparent (for a grid); with how
/// they were found unless they come from a grid.
fn cells(
    sheet: &image::RgbaImage,
    method: &Method,
) -> Result<(Vec<PixelRect>, Option<SheetFrames>), String> {
    let found = |options: &SpriteOptions, how| {
        let frames = cut_frames(sheet, *options, how);
        (frames.rects.clone(), Some(frames))
    };
    match method {
        Method::Sprites(options) => Ok(found(options, CutMethod::Sprites)),
        Method::Automatic(options) => Ok(found(options, CutMethod::Automatic)),
        Method::Grid {
            size,
            margin,
            spacing,
        } => {
            let (w, h) = parse_size(size)?;
            let cut = SheetCut {
                cell_width: w,
                cell_height: h,
                margin_x: *margin,
                margin_y: *margin,
                spacing_x: *spacing,
                spacing_y: *spacing,
                count: None,
                column_major: false,
            };
            let (width, height) = sheet.dimensions();
            let rects = cut
                .cells(width, height)
                .into_iter()
                .filter(|c| {
                    (0..c.height).any(|y| {
                        (0..c.width)
                            .any(|x| sheet.get_pixel(c.x as u32 + x, c.y as u32 + y)[3] != 0)
                    })
                })
                .collect();
            Ok((rects, None))
        }
    }
}

pub fn run(
    sheet_path: &Path,
    options: &Options,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let output = options.output.as_path();
    let fps = match &options.fps {
        Some(text) => match Ratio::parse_positive(text) {
            Ok(fps) => fps,
            Err(message) => {
                writeln!(err, "sprat: --fps: {message}; nothing written")?;
                return Ok(1);
            }
        },
        None => Ratio::whole(DEFAULT_FPS),
    };
    if let Method::Grid { size, .. } = &options.method
        && let Err(message) = parse_size(size)
    {
        writeln!(err, "sprat: {message}; nothing written")?;
        return Ok(1);
    }
    let target = match target_format(output, None, None) {
        Ok(format) => format,
        Err(message) => {
            writeln!(err, "sprat: {message}; nothing written")?;
            return Ok(1);
        }
    };
    if let Some(code) = super::load::refuse_target(output, options.force, err)? {
        return Ok(code);
    }
    let sheet = match decode_file(sheet_path) {
        Ok(sheet) => sheet,
        Err(why) => {
            writeln!(
                err,
                "sprat: {}: {why}; nothing written",
                sheet_path.display()
            )?;
            return Ok(1);
        }
    };
    let data = options
        .read_data
        .then(|| data_beside(sheet_path, Some(output)))
        .flatten();
    let (rects, found) = match &data {
        Some(data) => (data.rects.clone(), None),
        None => match cells(&sheet, &options.method) {
            Ok(cut) => cut,
            Err(message) => {
                writeln!(err, "sprat: {message}; nothing written")?;
                return Ok(1);
            }
        },
    };
    if let Some(data) = &data
        && options.explain
    {
        writeln!(
            out,
            "layout: the rectangles {} names (give --auto to cut by the pixels instead)",
            data.file.display()
        )?;
    }
    if let Some(found) = &found {
        if options.explain {
            let layout = match &found.layout {
                Layout::Lattice(lattice) => lattice.describe(),
                bands @ Layout::Bands { .. } => bands.describe_bands().unwrap_or_default(),
                Layout::Sprites => match found.lattice {
                    Some(lattice) => {
                        format!("separate sprites (--sprites; {})", lattice.describe())
                    }
                    None => "separate sprites (no common column and row pitch)".to_string(),
                },
            };
            writeln!(
                out,
                "layout: {layout}; {} at gap {}",
                crate::text::count(found.sprites, "separate sprite"),
                match &options.method {
                    Method::Sprites(o) | Method::Automatic(o) => o.gap,
                    Method::Grid { .. } => 0,
                }
            )?;
        }
        for doubt in &found.doubts {
            writeln!(err, "sprat: warning: {}: {doubt}", sheet_path.display())?;
        }
    }
    if rects.is_empty() {
        writeln!(
            err,
            "sprat: {} shows no opaque pixels to cut; nothing written",
            sheet_path.display()
        )?;
        return Ok(1);
    }
    let capabilities = target.capabilities();
    // A format that names sequences by number (M.U.G.E.N actions) starts at 0.
    let name = options.sequence.clone().unwrap_or_else(|| {
        if capabilities.numbered_sequences {
            "0".to_string()
        } else {
            crate::formats::paths::stem_or(Some(sheet_path), "sheet")
        }
    });
    let document = match cut_document(
        sheet,
        sheet_path,
        output,
        &rects,
        &name,
        fps,
        capabilities.time_unit,
        capabilities.per_frame_durations,
    ) {
        Ok(document) => document,
        Err(message) => {
            writeln!(err, "sprat: {message}; nothing written")?;
            return Ok(1);
        }
    };
    match &data {
        Some(data) => writeln!(out, "{} into \"{name}\"", data.describe())?,
        None => writeln!(
            out,
            "cut {} from {} into \"{name}\"",
            crate::text::count(rects.len(), "frame"),
            sheet_path.display()
        )?,
    }
    let choices = WriteChoices {
        force: options.force,
        // The new document names the sheet: writing over it would lose its pictures.
        spared: vec![sheet_path.to_path_buf()],
        ..WriteChoices::default()
    };
    write_as(&document, target, output, &choices, out, err)
}

/// A document of one sequence `name` showing `rects` of the sheet at `fps`, timed in `unit`;
/// the sheet is named by its path (relative to the output's folder where it can be).
#[allow(clippy::too_many_arguments)]
pub fn cut_document(
    sheet: image::RgbaImage,
    sheet_path: &Path,
    output: &Path,
    rects: &[PixelRect],
    name: &str,
    fps: Ratio,
    unit: TimeUnit,
    per_frame_durations: bool,
) -> Result<AnimationSet, String> {
    let sheet_path = crate::formats::absolute(sheet_path.to_path_buf());
    let mut document = AnimationSet::new();
    if unit == TimeUnit::Holds {
        // Holds count at the set's rate: one hold a frame at the nearest whole rate.
        let rate = ((fps.numerator + fps.denominator / 2) / fps.denominator).clamp(1, 255);
        document.frame_rate = Some(rate as u32);
    }
    let import = ImportFrames {
        images: vec![ImportedImage {
            name: sheet_path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            source: Some(sheet_path.clone()),
            pixels: MemoryImage::new(sheet),
        }],
        cells: rects.iter().map(|r| (0, Some(*r))).collect(),
        origin: OriginPlace::BottomCentre,
        duration: unit.one(),
        target: ImportTarget::NewSequence(name.to_string()),
    };
    let mut history = History::new();
    history
        .apply(&mut document, &Selection::none(), &import, None)
        .map_err(|e| e.message)?;
    let change = if unit == TimeUnit::Holds {
        RetimeChange::UnitsPerFrame(1)
    } else {
        RetimeChange::FramesPerSecond(fps)
    };
    let retime = Retime {
        scope: FrameScope::Everything,
        change,
        per_frame_durations,
    };
    history
        .apply(&mut document, &Selection::none(), &retime, None)
        .map_err(|e| e.message)?;
    // The sheet is named, not held: writers that reference files write its path.
    let dir = crate::formats::absolute(output.to_path_buf());
    let relative = dir
        .parent()
        .and_then(|d| crate::formats::paths::relative_to(d, &sheet_path));
    for image in &mut document.images {
        image.kind = ImageKind::File;
        image.path = relative
            .clone()
            .unwrap_or_else(|| sheet_path.display().to_string());
        image.resolved = Some(sheet_path.clone());
    }
    document.default_sequence = document.first_sequence().map(|s| s.id);
    Ok(document)
}
