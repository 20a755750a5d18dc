//! Building texture atlases from a document, shared by the atlas writers (`aseprite-json`,
//! `godot-spriteframes`): every frame of every sequence direction is rendered flat, trimmed of
//! transparent borders, stored once when its pixels repeat, and packed onto sheets by the one
//! packer ([`crate::formats::pack`]) with padding, edge extrusion, a maximum sheet side and
//! optional power-of-two sides.
//!
//! Reading order: [`AtlasOptions`] and [`ExportProgress`] (what the caller chooses and watches),
//! [`build`] (the whole job), then [`frames`] (rendering and trimming), [`timing`]
//! (milliseconds), [`marks`] (boxes and points in canvas pixels) and [`losses`].

pub mod frames;
pub mod losses;
pub mod marks;
pub mod timing;

use crate::formats::pack::{self, PackLimits, Placement};
use crate::formats::{Loss, WriteContext, WriteError};
use crate::model::{AnimationSet, SequenceId};
use crate::pixels::PixelSource;
use crate::render::SpriteRect;
use frames::Picture;
use image::RgbaImage;
use marks::Mark;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The JSON shape of an Aseprite-style atlas.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum JsonForm {
    /// `"frames": { "name": {...}, ... }` (Aseprite's default).
    #[default]
    Hash,
    /// `"frames": [ { "filename": "name", ... }, ... ]`.
    Array,
}

/// How an atlas is built. The command line uses the defaults (and `--frame-names`); the
/// editor's export dialog fills the fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtlasOptions {
    /// Hash or array JSON (Aseprite JSON only).
    pub form: JsonForm,
    /// The frame name pattern with Aseprite's tokens (Aseprite JSON only, see
    /// [`crate::formats::atlas_json::names`]); empty for the document's default.
    pub frame_names: String,
    /// Cut transparent borders off each frame (the JSON says where the rest sits).
    pub trim: bool,
    /// Empty pixels between frames on a sheet.
    pub padding: u32,
    /// Pixels of each frame's edge repeated around it, so filtering does not bleed.
    pub extrude: u32,
    /// The largest sheet side; a set that does not fit on one sheet is split over several.
    pub max_sheet: u32,
    /// Grow sheets to power-of-two sides.
    pub power_of_two: bool,
    /// Sheet pixels per sprite pixel (1..=16).
    pub scale: u32,
    /// Only this sequence (the export dialog's "this sequence"); every sequence when `None`.
    pub only: Option<SequenceId>,
}

impl Default for AtlasOptions {
    fn default() -> Self {
        AtlasOptions {
            form: JsonForm::Hash,
            frame_names: String::new(),
            trim: true,
            padding: 1,
            extrude: 0,
            max_sheet: 4096,
            power_of_two: false,
            scale: 1,
            only: None,
        }
    }
}

/// The largest [`AtlasOptions::scale`].
pub const MAX_SCALE: u32 = 16;

/// What a long export reports and how it is stopped: `total` frames to render, `done` so far;
/// setting `cancel` makes the build return an error at the next frame.
#[derive(Debug, Default)]
pub struct ExportProgress {
    /// Frames rendered so far.
    pub done: AtomicUsize,
    /// Frames to render.
    pub total: AtomicUsize,
    /// Set by the caller to stop.
    pub cancel: AtomicBool,
}

impl ExportProgress {
    fn cancelled(progress: Option<&ExportProgress>) -> bool {
        progress.is_some_and(|p| p.cancel.load(Ordering::Relaxed))
    }
}

/// One place a frame is shown: a frame index of a direction of a sequence.
#[derive(Clone, Debug)]
pub struct Occurrence {
    /// The index of the picture it shows in [`Atlas::pictures`].
    pub picture: usize,
    /// Where the picture's top-left corner is on the canvas.
    pub at: (i32, i32),
    /// How long it shows, in whole milliseconds.
    pub millis: u32,
    /// Its collision boxes and attachment points in canvas pixels.
    pub marks: Vec<Mark>,
}

/// One sequence direction: the unit an animation (tag) is made of.
#[derive(Clone, Debug)]
pub struct Run {
    /// The sequence.
    pub sequence: SequenceId,
    /// Its name.
    pub sequence_name: String,
    /// The direction index.
    pub direction: usize,
    /// The direction's label when the sequence has several, else `None`.
    pub direction_label: Option<String>,
    /// Loops back to its first frame (else plays once and holds the last frame).
    pub loops: bool,
    /// Its frames in play order.
    pub frames: Vec<Occurrence>,
}

impl Run {
    /// The animation's name: the sequence's, with `_direction` when it has several.
    pub fn name(&self) -> String {
        match &self.direction_label {
            Some(label) => format!("{}_{label}", self.sequence_name),
            None => self.sequence_name.clone(),
        }
    }
}

/// One sheet and the runs whose frames it holds.
#[derive(Clone, Debug)]
pub struct Page {
    /// Indices into [`Atlas::runs`], in order.
    pub runs: Vec<usize>,
    /// The sheet's pixels.
    pub sheet: RgbaImage,
    /// Where each picture it holds sits on the sheet (inside any extrusion), by picture index.
    pub regions: Vec<Option<(u32, u32)>>,
}

/// A built atlas: the canvas every frame shares, the distinct pictures, the runs and the
/// sheets.
#[derive(Clone, Debug)]
pub struct Atlas {
    /// The canvas in scaled sprite space (it always holds the origin pixel).
    pub canvas: SpriteRect,
    /// Distinct pictures (trimmed unless trimming is off).
    pub pictures: Vec<Picture>,
    /// Every sequence direction with at least one frame, in tree order.
    pub runs: Vec<Run>,
    /// The sheets; most atlases have one.
    pub pages: Vec<Page>,
    /// What any atlas cannot hold (groups, loop points, frame text, flattened graphics, ...).
    pub losses: Vec<Loss>,
    /// Durations that are not whole milliseconds (for atlases that count in milliseconds).
    pub millis_losses: Vec<Loss>,
    /// Boxes and points that slices cannot hold exactly (for atlases that keep them).
    pub mark_losses: Vec<Loss>,
    /// The options it was built with.
    pub options: AtlasOptions,
}

impl Atlas {
    /// The origin's position on the canvas.
    pub fn origin(&self) -> (i32, i32) {
        (-self.canvas.x, -self.canvas.y)
    }

    /// The canvas size.
    pub fn canvas_size(&self) -> (u32, u32) {
        (self.canvas.width, self.canvas.height)
    }

    /// Frame pixels over sheet pixels, over all sheets (0..=1).
    pub fn occupancy(&self) -> f64 {
        let sheet: u64 = self
            .pages
            .iter()
            .map(|p| p.sheet.width() as u64 * p.sheet.height() as u64)
            .sum();
        let used: u64 = self
            .pages
            .iter()
            .flat_map(|p| p.regions.iter().enumerate().filter(|(_, r)| r.is_some()))
            .map(|(i, _)| {
                let (w, h) = self.pictures[i].image.dimensions();
                w as u64 * h as u64
            })
            .sum();
        if sheet == 0 {
            0.0
        } else {
            used as f64 / sheet as f64
        }
    }
}

/// The stem for sheet files beside an output named `stem` in `dir`: `stem` itself, unless
/// `stem.png` (or a further page `stem-N.png`) is an image the document draws from, which a
/// write must never overwrite (an atlas read from `hero.json` + `hero.png` and saved or
/// exported as `hero` again); then `stem-sheet`, `stem-sheet2`, ...
pub fn sheet_stem(document: &AnimationSet, dir: Option<&Path>, stem: &str) -> String {
    let Some(dir) = dir else {
        return stem.to_string();
    };
    let dir = crate::formats::paths::normalise(dir);
    let read: Vec<String> = document
        .images
        .iter()
        .filter_map(|i| i.resolved.as_deref())
        .map(crate::formats::paths::normalise)
        .filter(|p| p.parent() == Some(dir.as_path()))
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().to_lowercase()))
        .collect();
    let taken = |candidate: &str| {
        let candidate = candidate.to_lowercase();
        read.iter().any(|name| {
            let Some(rest) = name.strip_prefix(&candidate) else {
                return false;
            };
            let Some(middle) = rest.strip_suffix(".png") else {
                return false;
            };
            middle.is_empty()
                || middle
                    .strip_prefix('-')
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    if !taken(stem) {
        return stem.to_string();
    }
    (1..)
        .map(|n| {
            if n == 1 {
                format!("{stem}-sheet")
            } else {
                format!("{stem}-sheet{n}")
            }
        })
        .find(|candidate| !taken(candidate))
        .unwrap_or_else(|| format!("{stem}-sheet"))
}

/// The file stem of an output path (`hero` for `out/hero.json`), `fallback` when it has none.
pub fn file_stem(path: &Path, fallback: &str) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| fallback.to_string())
}

/// The stem of page `k` of a set of pages named after `base`: `base` for the first, then
/// `base-1`, `base-2`, ...
pub fn page_stem(base: &str, k: usize) -> String {
    if k == 0 {
        base.to_string()
    } else {
        format!("{base}-{k}")
    }
}

/// A page's sheet as the PNG file `name`.
pub fn sheet_png(page: &Page, name: &str) -> Result<Vec<u8>, WriteError> {
    pack::png(&page.sheet)
        .map_err(|e| WriteError::new(format!("cannot encode the sheet {name}: {e}")))
}

/// What a writer of sheets takes from its write context: the document's pixels (refused,
/// naming `what` it writes, when they are not at hand) and the main file's path
/// (`fallback` when the output has none).
pub fn sheet_target<'a>(
    context: &WriteContext<'a>,
    what: &str,
    fallback: &str,
) -> Result<(&'a dyn PixelSource, PathBuf), WriteError> {
    let Some(pixels) = context.pixels else {
        return Err(WriteError::new(format!(
            "writing {what} renders every frame and needs the document's pixels"
        )));
    };
    let path = context.path.clone().unwrap_or_else(|| fallback.into());
    Ok((pixels, path))
}

/// Renders, trims, deduplicates and packs every frame of `document`.
pub fn build(
    document: &AnimationSet,
    pixels: &dyn PixelSource,
    options: &AtlasOptions,
    progress: Option<&ExportProgress>,
) -> Result<Atlas, WriteError> {
    let mut options = options.clone();
    options.scale = options.scale.clamp(1, MAX_SCALE);
    options.max_sheet = options.max_sheet.clamp(16, 1 << 15);
    let rendered = frames::render_all(document, pixels, &options, progress)?;
    let mut atlas = Atlas {
        canvas: rendered.canvas,
        pictures: rendered.pictures,
        runs: rendered.runs,
        pages: Vec::new(),
        losses: losses::document_losses(document),
        millis_losses: rendered.millis_losses,
        mark_losses: rendered.mark_losses,
        options: options.clone(),
    };
    let limits = PackLimits {
        max_side: options.max_sheet,
        gap: options.padding,
        power_of_two: options.power_of_two,
    };
    let grow = 2 * options.extrude;
    let sizes: Vec<(u32, u32)> = atlas
        .pictures
        .iter()
        .map(|p| (p.image.width() + grow, p.image.height() + grow))
        .collect();
    if let Some((w, h)) = sizes
        .iter()
        .find(|(w, h)| *w > options.max_sheet || *h > options.max_sheet)
    {
        return Err(WriteError::new(format!(
            "a frame is {w}x{h} pixels, larger than the largest sheet ({0}x{0}); raise the maximum sheet size",
            options.max_sheet
        )));
    }
    for pages in split_runs(&atlas, &sizes, limits)? {
        let page = draw_page(&atlas, &sizes, pages, limits)?;
        atlas.pages.push(page);
    }
    Ok(atlas)
}

/// Runs grouped so that each group's pictures fit on one sheet; every run stays whole (an
/// animation's frames are on one sheet, so each sheet's JSON is complete on its own).
fn split_runs(
    atlas: &Atlas,
    sizes: &[(u32, u32)],
    limits: PackLimits,
) -> Result<Vec<Vec<usize>>, WriteError> {
    if pack::fits_on_one_sheet(sizes, limits) {
        return Ok(vec![(0..atlas.runs.len()).collect()]);
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    let mut held: HashSet<usize> = HashSet::new();
    for (r, run) in atlas.runs.iter().enumerate() {
        let mut trial = held.clone();
        trial.extend(run.frames.iter().map(|f| f.picture));
        let trial_sizes: Vec<(u32, u32)> = trial.iter().map(|&i| sizes[i]).collect();
        if pack::fits_on_one_sheet(&trial_sizes, limits) {
            current.push(r);
            held = trial;
            continue;
        }
        let alone: HashSet<usize> = run.frames.iter().map(|f| f.picture).collect();
        let alone_sizes: Vec<(u32, u32)> = alone.iter().map(|&i| sizes[i]).collect();
        if !pack::fits_on_one_sheet(&alone_sizes, limits) {
            return Err(WriteError::new(format!(
                "the frames of \"{}\" do not fit on one {1}x{1} sheet; raise the maximum sheet size",
                run.name(),
                limits.max_side
            )));
        }
        if !current.is_empty() {
            groups.push(std::mem::take(&mut current));
        }
        current.push(r);
        held = alone;
    }
    if !current.is_empty() {
        groups.push(current);
    }
    Ok(groups)
}

/// Packs and draws the pictures of some runs onto one sheet.
fn draw_page(
    atlas: &Atlas,
    sizes: &[(u32, u32)],
    runs: Vec<usize>,
    limits: PackLimits,
) -> Result<Page, WriteError> {
    let mut held: Vec<usize> = Vec::new();
    let mut seen = vec![false; atlas.pictures.len()];
    for &r in &runs {
        for f in &atlas.runs[r].frames {
            if !std::mem::replace(&mut seen[f.picture], true) {
                held.push(f.picture);
            }
        }
    }
    let held_sizes: Vec<(u32, u32)> = held.iter().map(|&i| sizes[i]).collect();
    let (placements, sheets): (Vec<Placement>, Vec<(u32, u32)>) =
        pack::place_within(&held_sizes, limits);
    if sheets.len() > 1 {
        return Err(WriteError::new("the packer split a page that fit before"));
    }
    let images: Vec<&RgbaImage> = held.iter().map(|&i| &atlas.pictures[i].image).collect();
    let sheet = pack::draw_extruded(&images, &placements, &sheets, atlas.options.extrude)
        .into_iter()
        .next()
        .unwrap_or_else(|| RgbaImage::new(1, 1));
    let mut regions = vec![None; atlas.pictures.len()];
    let e = atlas.options.extrude;
    for (&i, p) in held.iter().zip(&placements) {
        regions[i] = Some((p.x + e, p.y + e));
    }
    Ok(Page {
        runs,
        sheet,
        regions,
    })
}
