//! Measures how many of the frames of real sheets the cut finds: `cargo run --example
//! cut_recall -- FOLDER... [--one-frame TABLE]` (run by `tools/cut-recall/measure`).
//!
//! The truth is the data the sheets came with: every Aseprite or TexturePacker JSON, Solarus
//! `.dat` or `.sprat` under the folders is read, and the rectangles its slices cut from each
//! sheet are that sheet's frames (each rectangle once, from every file naming the sheet).
//! `--one-frame TABLE` adds pictures that are one frame each: the first column of a Markdown
//! table (`| picture.png | ... |`), relative to the table's folder.
//!
//! A frame counts when it **stands apart**: it has opaque pixels, none of them lies inside
//! another frame's rectangle, and none touches (diagonals included) an opaque pixel inside
//! another frame's rectangle. It is **found** when some frame of the cut at the default
//! options (`cut_frames`, automatic) has opaque bounds whose intersection over union with the
//! frame's opaque bounds is at least 0.9. A picture met twice with the same frames (quests
//! share sheets) counts once. Printed: each sheet whose frames are not all found (found of
//! counted, the layout read), then the totals, per repository folder and overall. With
//! `CUT_RECALL_SPRITES` set, the cut is `--sprites` instead, for comparison.

use image::RgbaImage;
use sprat::assets::layout::{CutMethod, Layout, cut_frames};
use sprat::assets::sheet_data::{DATA_EXTENSIONS, rects_on};
use sprat::assets::sprites::SpriteOptions;
use sprat::formats::{ReadContext, registry::registry};
use sprat::model::{ImageKind, PixelRect};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The least intersection over union for a frame to be found.
const MIN_IOU: f64 = 0.9;

fn main() {
    let mut folders = Vec::new();
    let mut tables = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--one-frame" {
            tables.push(PathBuf::from(args.next().expect("--one-frame TABLE")));
        } else {
            folders.push(PathBuf::from(arg));
        }
    }
    if folders.is_empty() && tables.is_empty() {
        eprintln!("usage: cut_recall FOLDER... [--one-frame TABLE]");
        std::process::exit(2);
    }
    // Sheet -> (its frames, the folder it was found under).
    let mut truth: BTreeMap<PathBuf, (Vec<PixelRect>, String)> = BTreeMap::new();
    for folder in &folders {
        for file in files_under(folder) {
            let is_data = file
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| DATA_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
            if !is_data {
                continue;
            }
            let Ok((loaded, _)) = registry().open(&file, &ReadContext::for_path(&file)) else {
                continue;
            };
            let document = loaded.document;
            for image in &document.images {
                let (ImageKind::File, Some(sheet)) = (&image.kind, &image.resolved) else {
                    continue;
                };
                let Some(sheet) = std::fs::canonicalize(sheet).ok() else {
                    continue;
                };
                let entry = truth
                    .entry(sheet.clone())
                    .or_insert_with(|| (Vec::new(), source_name(folder, &sheet)));
                for rect in rects_on(&document, &sheet) {
                    if !entry.0.contains(&rect) {
                        entry.0.push(rect);
                    }
                }
            }
        }
    }
    for table in &tables {
        let dir = table.parent().unwrap_or(Path::new("."));
        let text = std::fs::read_to_string(table).expect("the table");
        for line in text.lines() {
            let Some(first) = line
                .trim()
                .strip_prefix('|')
                .and_then(|l| l.split('|').next())
            else {
                continue;
            };
            let name = first.trim();
            if !name.ends_with(".png") {
                continue;
            }
            let path = dir.join(name);
            let Ok((width, height)) = image::image_dimensions(&path) else {
                continue;
            };
            let whole = PixelRect {
                x: 0,
                y: 0,
                width,
                height,
            };
            let key = std::fs::canonicalize(&path).unwrap_or(path);
            truth.insert(key, (vec![whole], source_name(dir, dir)));
        }
    }

    let mut totals: BTreeMap<String, Total> = BTreeMap::new();
    // Quests share sheets (a hero's sword in every game of a series): each picture with its
    // frames counts once, where it is met first.
    let mut seen = std::collections::HashSet::new();
    for (sheet_path, (frames, source)) in &truth {
        let Ok(bytes) = std::fs::read(sheet_path) else {
            continue;
        };
        let Ok(sheet) = image::load_from_memory(&bytes).map(|i| i.to_rgba8()) else {
            continue;
        };
        let mut sorted = frames.clone();
        sorted.sort_by_key(|r| (r.y, r.x, r.width, r.height));
        if !seen.insert((sheet.as_raw().clone(), sheet.dimensions(), sorted)) {
            continue;
        }
        let apart = standing_apart(&sheet, frames);
        if apart.is_empty() {
            continue;
        }
        let method = if std::env::var("CUT_RECALL_SPRITES").is_ok() {
            CutMethod::Sprites
        } else {
            CutMethod::Automatic
        };
        let cut = cut_frames(&sheet, SpriteOptions::DEFAULT, method);
        let found_bounds: Vec<PixelRect> = cut
            .rects
            .iter()
            .filter_map(|r| opaque_bounds(&sheet, *r))
            .collect();
        let mut misses = Misses::default();
        for frame in &apart {
            misses.add(Miss::of(*frame, &found_bounds));
        }
        let found = misses.found;
        let total = totals.entry(source.clone()).or_default();
        total.sheets += 1;
        total.counted += apart.len();
        total.misses.sum(&misses);
        if found < apart.len() {
            let layout = match &cut.layout {
                Layout::Lattice(lattice) => lattice.describe(),
                bands @ Layout::Bands { .. } => bands.describe_bands().unwrap_or_default(),
                Layout::Sprites => format!("{} separate sprites", cut.rects.len()),
            };
            println!(
                "{}: {found} of {}, missed {} ({layout})",
                sheet_path.display(),
                apart.len(),
                misses.describe()
            );
        }
    }
    let (mut sheets, mut found, mut counted) = (0, 0, 0);
    println!();
    for (source, total) in &totals {
        let f = total.misses.found;
        println!(
            "{source}: {f} of {} frames in {} sheets, missed {}",
            total.counted,
            total.sheets,
            total.misses.describe()
        );
        (sheets, found, counted) = (sheets + total.sheets, found + f, counted + total.counted);
    }
    println!(
        "recall: {found} of {counted} frames that stand apart ({:.1}%), {sheets} sheets from {} \
         sources",
        100.0 * found as f64 / counted.max(1) as f64,
        totals.len()
    );
}

/// What one source's sheets add up to.
#[derive(Default)]
struct Total {
    sheets: usize,
    counted: usize,
    misses: Misses,
}

/// How a frame of the truth fared in the cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Miss {
    /// A frame of the cut matches it (intersection over union 0.9 or more).
    Found,
    /// A frame of the cut holds it with more beside it: merged with a neighbour (or a
    /// lattice cell too large).
    Merged,
    /// Frames of the cut lie inside it, none covering it: split into parts.
    Split,
    /// Frames of the cut cross it, none holding it or held by it: cut across.
    CutAcross,
    /// No frame of the cut touches it.
    Missing,
}

impl Miss {
    /// How `frame` (opaque bounds) fared among `cut` (opaque bounds).
    fn of(frame: PixelRect, cut: &[PixelRect]) -> Miss {
        if cut.iter().any(|f| iou(frame, *f) >= MIN_IOU) {
            return Miss::Found;
        }
        let area = |r: PixelRect| r.width as i64 * r.height as i64;
        let overlapping: Vec<(PixelRect, i64)> = cut
            .iter()
            .map(|f| (*f, intersection(frame, *f)))
            .filter(|(_, i)| *i > 0)
            .collect();
        if overlapping.is_empty() {
            Miss::Missing
        } else if overlapping
            .iter()
            .any(|(_, i)| *i as f64 >= MIN_IOU * area(frame) as f64)
        {
            Miss::Merged
        } else if overlapping
            .iter()
            .all(|(f, i)| *i as f64 >= MIN_IOU * area(*f) as f64)
        {
            Miss::Split
        } else {
            Miss::CutAcross
        }
    }
}

/// Frames found and missed, by how.
#[derive(Default)]
struct Misses {
    found: usize,
    merged: usize,
    split: usize,
    cut_across: usize,
    missing: usize,
}

impl Misses {
    fn add(&mut self, miss: Miss) {
        *match miss {
            Miss::Found => &mut self.found,
            Miss::Merged => &mut self.merged,
            Miss::Split => &mut self.split,
            Miss::CutAcross => &mut self.cut_across,
            Miss::Missing => &mut self.missing,
        } += 1;
    }

    fn sum(&mut self, other: &Misses) {
        self.found += other.found;
        self.merged += other.merged;
        self.split += other.split;
        self.cut_across += other.cut_across;
        self.missing += other.missing;
    }

    /// "3 merged, 2 split" (the kinds that happened), or "none".
    fn describe(&self) -> String {
        let parts: Vec<String> = [
            (self.merged, "merged"),
            (self.split, "split"),
            (self.cut_across, "cut across"),
            (self.missing, "missing"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    }
}

/// The first folder of `path` under `root` (a repository's folder as `gather` lays them out),
/// else `root`'s own name.
fn source_name(root: &Path, path: &Path) -> String {
    let root_name = || {
        root.file_name().map_or_else(
            || root.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    match path.strip_prefix(&root).ok().and_then(|p| p.iter().next()) {
        Some(first) if path.parent() != Some(root.as_path()) => {
            first.to_string_lossy().into_owned()
        }
        _ => root_name(),
    }
}

/// Every file under `folder`, in name order.
fn files_under(folder: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The opaque bounds of the frames of `frames` that stand apart from every other frame.
fn standing_apart(sheet: &RgbaImage, frames: &[PixelRect]) -> Vec<PixelRect> {
    let (width, height) = sheet.dimensions();
    // Which frame's rectangle holds each pixel: 0 none, k + 1 frame k, MANY several.
    const MANY: u32 = u32::MAX;
    let mut owner = vec![0u32; width as usize * height as usize];
    let clipped = |r: &PixelRect| {
        let x0 = r.x.max(0) as u32;
        let y0 = r.y.max(0) as u32;
        let x1 = (r.x as i64 + r.width as i64).clamp(0, width as i64) as u32;
        let y1 = (r.y as i64 + r.height as i64).clamp(0, height as i64) as u32;
        (x0, y0, x1, y1)
    };
    for (k, frame) in frames.iter().enumerate() {
        let (x0, y0, x1, y1) = clipped(frame);
        for y in y0..y1 {
            for x in x0..x1 {
                let cell = &mut owner[(y * width + x) as usize];
                *cell = if *cell == 0 { k as u32 + 1 } else { MANY };
            }
        }
    }
    let opaque = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && x < width as i64
            && y < height as i64
            && sheet.get_pixel(x as u32, y as u32)[3] != 0
    };
    let mut out = Vec::new();
    'frames: for (k, frame) in frames.iter().enumerate() {
        let me = k as u32 + 1;
        let (x0, y0, x1, y1) = clipped(frame);
        for y in y0..y1 {
            for x in x0..x1 {
                if !opaque(x as i64, y as i64) {
                    continue;
                }
                if owner[(y * width + x) as usize] != me {
                    continue 'frames;
                }
                for (dx, dy) in [
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                    (-1, 0),
                    (1, 0),
                    (-1, 1),
                    (0, 1),
                    (1, 1),
                ] {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    if opaque(nx, ny) {
                        let other = owner[(ny as u32 * width + nx as u32) as usize];
                        if other != me && other != 0 {
                            continue 'frames;
                        }
                    }
                }
            }
        }
        if let Some(bounds) = opaque_bounds(sheet, *frame) {
            out.push(bounds);
        }
    }
    out
}

/// The bounds of the opaque pixels inside `rect`.
fn opaque_bounds(sheet: &RgbaImage, rect: PixelRect) -> Option<PixelRect> {
    let (width, height) = sheet.dimensions();
    let x0 = rect.x.max(0) as u32;
    let y0 = rect.y.max(0) as u32;
    let x1 = (rect.x as i64 + rect.width as i64).clamp(0, width as i64) as u32;
    let y1 = (rect.y as i64 + rect.height as i64).clamp(0, height as i64) as u32;
    let (mut left, mut top, mut right, mut bottom) = (u32::MAX, u32::MAX, 0, 0);
    for y in y0..y1 {
        for x in x0..x1 {
            if sheet.get_pixel(x, y)[3] != 0 {
                (left, top) = (left.min(x), top.min(y));
                (right, bottom) = (right.max(x), bottom.max(y));
            }
        }
    }
    (left != u32::MAX).then(|| PixelRect {
        x: left as i32,
        y: top as i32,
        width: right - left + 1,
        height: bottom - top + 1,
    })
}

/// The area two rectangles share.
fn intersection(a: PixelRect, b: PixelRect) -> i64 {
    let ix = (
        a.x.max(b.x) as i64,
        (a.x as i64 + a.width as i64).min(b.x as i64 + b.width as i64),
    );
    let iy = (
        a.y.max(b.y) as i64,
        (a.y as i64 + a.height as i64).min(b.y as i64 + b.height as i64),
    );
    (ix.1 - ix.0).max(0) * (iy.1 - iy.0).max(0)
}

/// Intersection over union of two rectangles.
fn iou(a: PixelRect, b: PixelRect) -> f64 {
    let inter = intersection(a, b);
    let union = a.width as i64 * a.height as i64 + b.width as i64 * b.height as i64 - inter;
    inter as f64 / union.max(1) as f64
}
