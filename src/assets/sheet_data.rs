//! The data an atlas comes with: an Aseprite or TexturePacker JSON, a Solarus `.dat` or a
//! `.sprat` lying beside a sheet names each frame's rectangle on it, so the sheet is read for
//! those rectangles rather than cut by its pixels (the cut is for sheets with no data).
//!
//! How: the files beside the sheet with one of [`DATA_EXTENSIONS`] (those named like the sheet
//! first) are read with the format that claims them; the rectangles of the slices a file cuts
//! from the sheet itself (the same file on disk) are its frames, each rectangle once, in the
//! order the file gives them.

use crate::formats::{ReadContext, input, registry::registry};
use crate::model::{AnimationSet, ImageKind, PixelRect};
use std::path::{Path, PathBuf};

/// The extensions of the files that may name a sheet's frames.
pub const DATA_EXTENSIONS: [&str; 3] = ["json", "dat", "sprat"];

/// Data files larger than this are not read for a sheet's frames (atlas data is text of a
/// few kilobytes to a few megabytes; a larger file beside a sheet is something else).
const MAX_DATA_BYTES: u64 = 16 << 20;

/// At most this many files of a folder are looked into (a folder of thousands of JSON files
/// must not stall the import).
const MAX_CANDIDATES: usize = 256;

/// The frames a data file names on a sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetData {
    /// The data file.
    pub file: PathBuf,
    /// The frames' rectangles on the sheet, each once, in the file's order (a rotated frame's
    /// is its footprint on the sheet).
    pub rects: Vec<PixelRect>,
}

impl SheetData {
    /// What was read, as the command line and the Import window say it: "read 12 frames from
    /// hero.json".
    pub fn describe(&self) -> String {
        format!(
            "read {} from {}",
            crate::text::count(self.rects.len(), "frame"),
            self.file.file_name().map_or_else(
                || self.file.display().to_string(),
                |n| { n.to_string_lossy().into_owned() }
            )
        )
    }
}

/// The first data file beside `sheet` naming frames on it, those named like the sheet
/// first (`hero.json` for `hero.png`), but for `leave_out` (the file a cut is about to write
/// over: its old frames are not what is asked for). `None` when no file there does.
pub fn data_beside(sheet: &Path, leave_out: Option<&Path>) -> Option<SheetData> {
    let leave_out = leave_out.and_then(input::canonicalize);
    candidates(sheet)
        .into_iter()
        .filter(|file| leave_out.is_none() || input::canonicalize(file) != leave_out)
        .find_map(|file| read_data(&file, sheet))
}

/// Every data file beside `sheet` naming frames on it, in the order [`data_beside`] tries
/// them (a sheet shared by several sprites has a file for each).
pub fn all_data_beside(sheet: &Path) -> Vec<SheetData> {
    candidates(sheet)
        .into_iter()
        .filter_map(|file| read_data(&file, sheet))
        .collect()
}

/// The files beside `sheet` with a data extension: those with the sheet's stem first, then the
/// others by name.
fn candidates(sheet: &Path) -> Vec<PathBuf> {
    let Some(dir) = sheet.parent() else {
        return Vec::new();
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let stem = sheet.file_stem().map(|s| s.to_os_string());
    let mut files: Vec<PathBuf> = input::read_dir(dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|path| {
            path.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| DATA_EXTENSIONS.iter().any(|d| e.eq_ignore_ascii_case(d)))
        })
        .collect();
    files.sort_by_key(|path| {
        (
            path.file_stem().map(|s| s.to_os_string()) != stem,
            path.clone(),
        )
    });
    files.truncate(MAX_CANDIDATES);
    files
}

/// The frames `file` names on `sheet`, if it is a document Sprat reads that cuts any.
fn read_data(file: &Path, sheet: &Path) -> Option<SheetData> {
    let facts = input::metadata(file)?;
    if facts.len > MAX_DATA_BYTES || !input::is_file(file) {
        return None;
    }
    let (loaded, _) = registry().open(file, &ReadContext::for_path(file)).ok()?;
    let rects = rects_on(&loaded.document, sheet);
    (!rects.is_empty()).then(|| SheetData {
        file: file.to_path_buf(),
        rects,
    })
}

/// The rectangles of `document`'s slices cut from the image file `sheet`, each once, in the
/// document's order.
pub fn rects_on(document: &AnimationSet, sheet: &Path) -> Vec<PixelRect> {
    let Some(sheet) = input::canonicalize(sheet) else {
        return Vec::new();
    };
    let images: Vec<_> = document
        .images
        .iter()
        .filter(|image| {
            matches!(image.kind, ImageKind::File)
                && image
                    .resolved
                    .as_deref()
                    .and_then(input::canonicalize)
                    .is_some_and(|path| path == sheet)
        })
        .map(|image| image.id)
        .collect();
    let mut rects: Vec<PixelRect> = Vec::new();
    for slice in document.slices.iter().filter(|s| images.contains(&s.image)) {
        let rect = if slice.rotated {
            // Stored turned on the sheet: its footprint there is height × width.
            PixelRect {
                width: slice.rect.height,
                height: slice.rect.width,
                ..slice.rect
            }
        } else {
            slice.rect
        };
        if rect.width > 0 && rect.height > 0 && !rects.contains(&rect) {
            rects.push(rect);
        }
    }
    rects
}
