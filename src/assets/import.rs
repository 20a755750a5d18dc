//! Reading drawn art for an import: picture files in natural name order (`run_2.png` before
//! `run_10.png`), the sequence name they share, and the cells of a sprite sheet cut by a grid.
//! The edit that puts them in a document is [`crate::edit::import::ImportFrames`].

use super::decode::decode_file;
use crate::edit::import::ImportedImage;
use crate::model::{MemoryImage, PixelRect};
use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering as AtomicOrdering};

/// Orders file names as people count: runs of digits by their value, the rest ignoring case.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.chars().peekable(), b.chars().peekable());
    loop {
        match (a.peek().copied(), b.peek().copied()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let number = |chars: &mut std::iter::Peekable<std::str::Chars>| {
                    let mut digits = String::new();
                    while let Some(c) = chars.next_if(|c| c.is_ascii_digit()) {
                        digits.push(c);
                    }
                    digits
                };
                let (x, y) = (number(&mut a), number(&mut b));
                let (xt, yt) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
                // Longer without leading zeros is larger; same length compares digit by digit;
                // equal values put fewer leading zeros first.
                let order = xt
                    .len()
                    .cmp(&yt.len())
                    .then_with(|| xt.cmp(yt))
                    .then_with(|| x.len().cmp(&y.len()));
                if order != Ordering::Equal {
                    return order;
                }
            }
            (Some(x), Some(y)) => {
                let order = x.to_lowercase().cmp(y.to_lowercase()).then(x.cmp(&y));
                if order != Ordering::Equal {
                    return order;
                }
                a.next();
                b.next();
            }
        }
    }
}

/// Sorts paths by file name in natural order.
pub fn natural_sort(paths: &mut [PathBuf]) {
    let name = |p: &PathBuf| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    paths.sort_by(|a, b| natural_cmp(&name(a), &name(b)));
}

/// The name a new sequence of these files takes: the start their names share, without the
/// trailing numbers and separators (`run` for `run_01.png`, `run_02.png`, `wave` for a lone
/// `wave_1.png`); `imported` when they share nothing.
pub fn common_name(paths: &[PathBuf]) -> String {
    let stems: Vec<String> = paths
        .iter()
        .filter_map(|p| p.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let Some(first) = stems.first() else {
        return "imported".to_string();
    };
    let mut shared = first.clone();
    for stem in &stems[1..] {
        let length = shared
            .chars()
            .zip(stem.chars())
            .take_while(|(a, b)| a == b)
            .map(|(a, _)| a.len_utf8())
            .sum();
        shared.truncate(length);
    }
    let trimmed = shared.trim_end_matches(|c: char| c.is_ascii_digit() || " _-.".contains(c));
    match (trimmed.is_empty(), stems.len()) {
        (false, _) => trimmed.to_string(),
        // A single file named only by a number keeps its name.
        (true, 1) => first.clone(),
        (true, _) => "imported".to_string(),
    }
}

/// What a read for an import reports while it runs, and how it is stopped.
#[derive(Debug, Default)]
pub struct ImportProgress {
    /// Files read so far.
    pub done: AtomicUsize,
    /// Set to stop before the next file.
    pub cancel: AtomicBool,
}

/// The pictures read, in the order given, and the files that could not be.
#[derive(Debug, Default)]
pub struct ReadPictures {
    /// Decoded pictures.
    pub pictures: Vec<ImportedImage>,
    /// "run_3.png: not a PNG file", one per file skipped.
    pub skipped: Vec<String>,
    /// The read was cancelled: nothing is to be imported.
    pub cancelled: bool,
}

/// Reads and decodes `paths` in order (regular files only, within the size and pixel limits
/// of every image Sprat reads); a file that cannot be read is named and skipped, the others
/// still come.
pub fn read_pictures(paths: &[PathBuf], progress: &ImportProgress) -> ReadPictures {
    let mut read = ReadPictures::default();
    for path in paths {
        if progress.cancel.load(AtomicOrdering::Relaxed) {
            read.cancelled = true;
            return read;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        match decode_file(path) {
            Ok(pixels) => read.pictures.push(ImportedImage {
                name,
                source: Some(crate::formats::absolute(path.to_path_buf())),
                pixels: MemoryImage::new(pixels),
            }),
            Err(why) => read.skipped.push(format!("{name}: {why}")),
        }
        progress.done.fetch_add(1, AtomicOrdering::Relaxed);
    }
    read
}

/// The extensions of the pictures an import takes, for file dialogs (a `.tga.gz` is a `.gz`
/// to them).
pub const PICTURE_EXTENSIONS: [&str; 3] = ["png", "tga", "gif"];

/// True for the files an import takes (by extension): the images Sprat decodes.
pub fn is_picture_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    [".png", ".tga", ".gif", ".tga.gz"]
        .iter()
        .any(|e| name.ends_with(e))
}

/// A grid laid over a sprite sheet: cells of one size from a margin, with spacing between
/// them, read row by row or column by column, up to a frame count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetCut {
    /// Cell width in pixels (>= 1).
    pub cell_width: u32,
    /// Cell height in pixels (>= 1).
    pub cell_height: u32,
    /// Pixels left of the first column.
    pub margin_x: u32,
    /// Pixels above the first row.
    pub margin_y: u32,
    /// Pixels between columns.
    pub spacing_x: u32,
    /// Pixels between rows.
    pub spacing_y: u32,
    /// At most this many frames (`None`: every cell).
    pub count: Option<u32>,
    /// Down each column first, else along each row first.
    pub column_major: bool,
}

impl Default for SheetCut {
    /// One 16 × 16 cell from the top-left corner, until a picture gives the real size.
    fn default() -> SheetCut {
        SheetCut::whole(16, 16)
    }
}

/// More cells than any sheet is cut into; a one-pixel grid over a huge image stops here.
pub const MAX_CELLS: usize = 4096;

impl SheetCut {
    /// The whole image as one cell.
    pub fn whole(width: u32, height: u32) -> SheetCut {
        SheetCut {
            cell_width: width.max(1),
            cell_height: height.max(1),
            margin_x: 0,
            margin_y: 0,
            spacing_x: 0,
            spacing_y: 0,
            count: None,
            column_major: false,
        }
    }

    /// The grid found from the sheet's transparent gutters (as the sheet view finds it), or
    /// the whole image when it shows none.
    pub fn detected(image: &image::RgbaImage) -> SheetCut {
        let (width, height) = image.dimensions();
        match crate::edit::sheet::detect_grid(image) {
            Some(found) => SheetCut {
                cell_width: found.grid.cell_width,
                cell_height: found.grid.cell_height,
                margin_x: found.grid.offset_x.max(0) as u32,
                margin_y: found.grid.offset_y.max(0) as u32,
                ..SheetCut::whole(width, height)
            },
            None => SheetCut::whole(width, height),
        }
    }

    /// How many columns and rows of whole cells fit in a `width` × `height` image.
    pub fn columns_rows(&self, width: u32, height: u32) -> (u32, u32) {
        let fit = |size: u32, margin: u32, cell: u32, spacing: u32| {
            let room = size.saturating_sub(margin) as u64;
            let (cell, spacing) = (cell.max(1) as u64, spacing as u64);
            if room < cell {
                0
            } else {
                ((room - cell) / (cell + spacing) + 1) as u32
            }
        };
        (
            fit(width, self.margin_x, self.cell_width, self.spacing_x),
            fit(height, self.margin_y, self.cell_height, self.spacing_y),
        )
    }

    /// Sets the cell size so that `columns` × `rows` cells fill the image (after margins and
    /// spacing).
    pub fn set_columns_rows(&mut self, width: u32, height: u32, columns: u32, rows: u32) {
        let size = |total: u32, margin: u32, spacing: u32, n: u32| {
            let n = n.max(1);
            let room = total
                .saturating_sub(margin)
                .saturating_sub(spacing * (n - 1));
            (room / n).max(1)
        };
        self.cell_width = size(width, self.margin_x, self.spacing_x, columns);
        self.cell_height = size(height, self.margin_y, self.spacing_y, rows);
    }

    /// The cells in frame order, at most [`MAX_CELLS`].
    pub fn cells(&self, width: u32, height: u32) -> Vec<PixelRect> {
        let (columns, rows) = self.columns_rows(width, height);
        let limit = self
            .count
            .map_or(MAX_CELLS, |c| (c as usize).min(MAX_CELLS));
        let total = (columns as usize * rows as usize).min(limit);
        (0..total)
            .map(|i| {
                let (column, row) = if self.column_major {
                    (i as u32 / rows.max(1), i as u32 % rows.max(1))
                } else {
                    (i as u32 % columns.max(1), i as u32 / columns.max(1))
                };
                PixelRect {
                    x: (self.margin_x + column * (self.cell_width + self.spacing_x)) as i32,
                    y: (self.margin_y + row * (self.cell_height + self.spacing_y)) as i32,
                    width: self.cell_width,
                    height: self.cell_height,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_sort_by_value() {
        let mut paths: Vec<PathBuf> = ["run_10.png", "run_2.png", "Run_1.png", "run_02b.png"]
            .iter()
            .map(PathBuf::from)
            .collect();
        natural_sort(&mut paths);
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        assert_eq!(
            names,
            ["Run_1.png", "run_2.png", "run_02b.png", "run_10.png"]
        );
        assert_eq!(natural_cmp("a2", "a02"), Ordering::Less);
        assert_eq!(natural_cmp("frame", "frame1"), Ordering::Less);
    }

    #[test]
    fn the_shared_start_names_the_sequence() {
        let paths = |names: &[&str]| names.iter().map(PathBuf::from).collect::<Vec<_>>();
        assert_eq!(common_name(&paths(&["run_01.png", "run_02.png"])), "run");
        assert_eq!(
            common_name(&paths(&["hero walk 1.png", "hero walk 12.png"])),
            "hero walk"
        );
        assert_eq!(common_name(&paths(&["idle.png"])), "idle");
        assert_eq!(common_name(&paths(&["wave_1.png"])), "wave");
        assert_eq!(common_name(&paths(&["07.png"])), "07");
        assert_eq!(common_name(&paths(&["a.png", "b.png"])), "imported");
        assert_eq!(common_name(&paths(&["10.png", "11.png"])), "imported");
    }

    #[test]
    fn a_grid_with_margin_and_spacing_is_cut_in_either_order() {
        let cut = SheetCut {
            cell_width: 10,
            cell_height: 8,
            margin_x: 2,
            margin_y: 1,
            spacing_x: 1,
            spacing_y: 2,
            count: None,
            column_major: false,
        };
        // 2 + 10 + 1 + 10 + 1 + 10 = 34 wide: 3 columns; 1 + 8 + 2 + 8 = 19 high: 2 rows.
        assert_eq!(cut.columns_rows(34, 19), (3, 2));
        let cells = cut.cells(34, 19);
        assert_eq!(cells.len(), 6);
        assert_eq!((cells[1].x, cells[1].y), (13, 1));
        assert_eq!((cells[3].x, cells[3].y), (2, 11));
        let down = SheetCut {
            column_major: true,
            count: Some(3),
            ..cut
        };
        let cells = down.cells(34, 19);
        assert_eq!(
            cells.iter().map(|c| (c.x, c.y)).collect::<Vec<_>>(),
            [(2, 1), (2, 11), (13, 1)]
        );
    }

    #[test]
    fn rows_and_columns_set_the_cell_size() {
        let mut cut = SheetCut::whole(64, 32);
        cut.set_columns_rows(64, 32, 4, 2);
        assert_eq!((cut.cell_width, cut.cell_height), (16, 16));
        assert_eq!(cut.cells(64, 32).len(), 8);
        // A cell larger than the image gives no cell, not a panic.
        let huge = SheetCut::whole(1000, 1000);
        assert!(huge.cells(10, 10).is_empty());
    }

    #[test]
    fn a_sheet_with_gutters_is_cut_where_they_are() {
        let mut sheet = image::RgbaImage::new(40, 20);
        for cell in 0..4u32 {
            for y in 2..18 {
                for x in 1..9 {
                    sheet.put_pixel(cell * 10 + x, y, image::Rgba([200, 10, 10, 255]));
                }
            }
        }
        let cut = SheetCut::detected(&sheet);
        assert_eq!((cut.cell_width, cut.cell_height), (10, 20));
        assert_eq!(cut.cells(40, 20).len(), 4);
    }
}
