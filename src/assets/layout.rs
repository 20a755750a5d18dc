//! Reading a sheet's layout: whether its sprites sit on a lattice (a common column and row
//! pitch, as hand-made sheets and engine grids have), and then cutting it by that lattice, so
//! every piece inside a cell belongs to that cell's frame (an effect drawn in separate strokes
//! is one frame) and an empty cell is no frame. A sheet with no lattice is cut into separate
//! sprites ([`super::sprites`]). The cut also says where it doubts: a frame covering much of
//! the sheet, cells holding far more pieces than frames, sprites touching at the lattice's
//! lines.
//!
//! How, for each axis: the number of opaque pixels in each column (row) is counted once. A
//! pitch is a lattice when lines at that pitch, starting near the sheet's edge, cross only
//! transparent columns and at least two cells hold pixels; of those, the pitch the sheet is
//! most nearly a whole number of, then the one leaving the most room between frames, unless a
//! finer one fitting as well has pixels in most of its cells. Sprites that touch their neighbours leave
//! no transparent column: then a pitch dividing the sheet whose lines cross far fewer pixels
//! than the columns around them is taken. The frame in each cell is the box that holds every
//! cell's pixels at the same place, so the frames keep their registration, as a grid does.
//! A sheet with no lattice in common may still have one in each band of rows
//! ([`super::bands`]).

use super::sprites::{SpriteOptions, find_sprites};
use crate::model::PixelRect;
use image::RgbaImage;

/// Pitches smaller than this are not looked for (a lattice of 2-pixel cells is noise).
const MIN_PITCH: usize = 4;

/// A frame covering at least this share of the sheet (in percent) is doubted.
const LARGE_SHARE_PERCENT: u64 = 25;

/// One axis of a lattice: `count` cells `pitch` pixels apart, the frame in each `cell` pixels
/// long from `margin` (the first cell's) on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AxisLattice {
    /// Pixels from one cell's start to the next's.
    pub pitch: u32,
    /// Where the first cell's frame starts.
    pub margin: u32,
    /// The frame's length in each cell.
    pub cell: u32,
    /// How many cells, from the first to the last holding pixels.
    pub count: u32,
    /// Sprites touch across this axis's lines (no transparent line parts them).
    pub touching: bool,
}

impl AxisLattice {
    /// Pixels between one cell's frame and the next's.
    pub fn spacing(&self) -> u32 {
        self.pitch - self.cell
    }

    /// The frame's start in cell `k`.
    fn start(&self, k: u32) -> u32 {
        self.margin + k * self.pitch
    }
}

/// A lattice of columns and rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lattice {
    /// Along x.
    pub columns: AxisLattice,
    /// Along y.
    pub rows: AxisLattice,
}

impl Lattice {
    /// Every cell's frame rectangle, row by row.
    pub fn cells(&self) -> Vec<PixelRect> {
        let mut out = Vec::new();
        for row in 0..self.rows.count {
            for column in 0..self.columns.count {
                out.push(PixelRect {
                    x: self.columns.start(column) as i32,
                    y: self.rows.start(row) as i32,
                    width: self.columns.cell,
                    height: self.rows.cell,
                });
            }
        }
        out
    }

    /// The lattice in words, with the `sprat cut --grid` options that cut the same cells
    /// where one margin fits both axes.
    pub fn describe(&self) -> String {
        let (c, r) = (self.columns, self.rows);
        let mut text = format!(
            "a lattice of {} x {} cells, pitch {}x{}: frames of {}x{} from ({}, {}), {}x{} \
             pixels apart",
            c.count,
            r.count,
            c.pitch,
            r.pitch,
            c.cell,
            r.cell,
            c.margin,
            r.margin,
            c.spacing(),
            r.spacing()
        );
        if c.margin == r.margin && c.spacing() == r.spacing() {
            text += &format!(
                " (as --grid {}x{} --margin {} --spacing {})",
                c.cell,
                r.cell,
                c.margin,
                c.spacing()
            );
        }
        text
    }
}

/// How a sheet was cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// By a lattice found on it.
    Lattice(Lattice),
    /// Band by band: the sheet's bands of rows (parted by transparent rows) have no lattice
    /// in common that parts their frames, but `lattices` of the `bands` each have one of
    /// their own (a hero's rows of frames of several sizes); the other bands are cut into
    /// separate sprites.
    Bands {
        /// How many bands of rows the sheet holds.
        bands: usize,
        /// The lattices of the bands cut by one of their own, top to bottom (each spans its
        /// band's rows only).
        lattices: Vec<Lattice>,
    },
    /// Into separate sprites.
    Sprites,
}

impl Layout {
    /// The cut by bands in words; `None` for the other layouts, which say it otherwise.
    pub fn describe_bands(&self) -> Option<String> {
        let Layout::Bands { bands, lattices } = self else {
            return None;
        };
        let (bands, lattices) = (*bands, lattices.len());
        Some(format!(
            "{} of rows, {lattices} cut by a lattice of {}, the rest into separate sprites",
            crate::text::count(bands, "band"),
            if lattices == 1 {
                "its own"
            } else {
                "their own"
            }
        ))
    }
}

/// How to cut: read the layout, or separate sprites whatever it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutMethod {
    /// A lattice when there is one, else separate sprites.
    Automatic,
    /// Separate sprites (the lattice, if any, is still read to voice doubts).
    Sprites,
}

/// A sheet cut into frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetFrames {
    /// The frames' rectangles, row by row.
    pub rects: Vec<PixelRect>,
    /// How they were found.
    pub layout: Layout,
    /// The lattice read on the sheet, also when the cut was by sprites.
    pub lattice: Option<Lattice>,
    /// How many separate sprites the sheet holds at the options' gap.
    pub sprites: usize,
    /// What looks wrong, each with the likely fix; empty when nothing does.
    pub doubts: Vec<Doubt>,
}

/// Cuts `sheet` into frames by `method`, with `options` for the sprites (the gap joining
/// pieces, the minimum size; a lattice cell whose pixels are smaller than that is empty).
pub fn cut_frames(sheet: &RgbaImage, options: SpriteOptions, method: CutMethod) -> SheetFrames {
    let sprites = find_sprites(sheet, options);
    let counts = profiles(sheet);
    let read = read_lattice(sheet, &sprites, &counts);
    let lattice = read.as_ref().map(|read| read.lattice);
    let (rects, layout) = match (method, read) {
        (CutMethod::Automatic, Some(ReadLattice { lattice, drawings })) => {
            let frames = lattice_frames(sheet, &lattice, options.min_size);
            // Only where sprites stand abreast in the cells can the bands' frames (read
            // only then: a large sheet has many bands). The pieces of drawings stand
            // abreast as one frame's.
            let by_bands = (!drawings && holds_abreast(&lattice, &frames, &sprites))
                .then(|| super::bands::band_frames(sheet, &counts.1, &sprites, options))
                .flatten()
                .filter(|(by_bands, _)| holds_abreast(&lattice, &frames, by_bands));
            by_bands.unwrap_or((frames, Layout::Lattice(lattice)))
        }
        (CutMethod::Automatic, None) => {
            super::bands::band_frames(sheet, &counts.1, &sprites, options)
                .unwrap_or_else(|| (sprites.clone(), Layout::Sprites))
        }
        (CutMethod::Sprites, _) => (sprites.clone(), Layout::Sprites),
    };
    let doubts = doubts(
        sheet,
        &counts,
        &rects,
        &layout,
        lattice,
        sprites.len(),
        options,
    );
    SheetFrames {
        rects,
        layout,
        lattice,
        sprites: sprites.len(),
        doubts,
    }
}

/// True when more than half of `frames` (the cells of `lattice` holding pixels) each hold
/// two or more of `rects` side by side. Of the frames cut band by band: the bands' own
/// lattices are finer than the sheet's (a caption or a palette under rows of frames leaves
/// only a coarse pitch in common); frames of bands one above another in a cell are the
/// pieces of one frame parted by transparent rows.
fn holds_abreast(lattice: &Lattice, frames: &[PixelRect], rects: &[PixelRect]) -> bool {
    let (c, r) = (lattice.columns, lattice.rows);
    let cell_of =
        |x: i32, axis: AxisLattice| (x as i64 - axis.margin as i64).div_euclid(axis.pitch as i64);
    // The rectangles inside each cell's frame, by cell.
    let mut held: std::collections::HashMap<(i64, i64), Vec<PixelRect>> =
        std::collections::HashMap::new();
    for b in rects {
        let cell = (cell_of(b.x, c), cell_of(b.y, r));
        let (left, top) = (
            c.margin as i64 + cell.0 * c.pitch as i64,
            r.margin as i64 + cell.1 * r.pitch as i64,
        );
        let inside = b.x as i64 + b.width as i64 <= left + c.cell as i64
            && b.y as i64 + b.height as i64 <= top + r.cell as i64;
        if inside {
            held.entry(cell).or_default().push(*b);
        }
    }
    let abreast = held
        .values()
        .filter(|held| {
            held.iter().enumerate().any(|(i, a)| {
                held[i + 1..].iter().any(|b| {
                    let rows_shared = a.y < b.y + b.height as i32 && b.y < a.y + a.height as i32;
                    let columns_apart = a.x + a.width as i32 <= b.x || b.x + b.width as i32 <= a.x;
                    rows_shared && columns_apart
                })
            })
        })
        .count();
    2 * abreast > frames.len()
}

/// The cells of `lattice` with pixels in their frame whose opaque bounds reach `min_size` on
/// either axis, row by row.
pub(super) fn lattice_frames(
    sheet: &RgbaImage,
    lattice: &Lattice,
    min_size: u32,
) -> Vec<PixelRect> {
    lattice
        .cells()
        .into_iter()
        .filter(|cell| {
            opaque_bounds(sheet, *cell).is_some_and(|(w, h)| w >= min_size || h >= min_size)
        })
        .collect()
}

/// The width and height of the opaque pixels' bounds inside `rect` (`None`: none).
fn opaque_bounds(sheet: &RgbaImage, rect: PixelRect) -> Option<(u32, u32)> {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    let (left, top) = (rect.x.max(0) as u32, rect.y.max(0) as u32);
    let right = (left + rect.width).min(sheet.width());
    let bottom = (top + rect.height).min(sheet.height());
    for y in top..bottom {
        for x in left..right {
            if sheet.get_pixel(x, y)[3] != 0 {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    (x0 != u32::MAX).then(|| (x1 - x0 + 1, y1 - y0 + 1))
}

/// The number of opaque pixels in each column and in each row.
pub(super) fn profiles(sheet: &RgbaImage) -> (Vec<u32>, Vec<u32>) {
    let (width, height) = sheet.dimensions();
    let mut columns = vec![0u32; width as usize];
    let mut rows = vec![0u32; height as usize];
    for (y, row) in sheet.as_raw().chunks_exact(width as usize * 4).enumerate() {
        for (x, pixel) in row.chunks_exact(4).enumerate() {
            if pixel[3] != 0 {
                columns[x] += 1;
                rows[y] += 1;
            }
        }
    }
    (columns, rows)
}

/// The lattice the sheet's pixels sit on, if any: one that has two cells or more holding
/// pixels on at least one axis, whose frames are not long strips across it, and that does not
/// put two large sprites of `sprites` into one cell.
pub fn find_lattice(sheet: &RgbaImage, sprites: &[PixelRect]) -> Option<Lattice> {
    read_lattice(sheet, sprites, &profiles(sheet)).map(|read| read.lattice)
}

/// A lattice read on a sheet.
struct ReadLattice {
    lattice: Lattice,
    /// Its cells are a strip's taken whole because their pieces interlock ([`strip_of_drawings`]):
    /// the pieces side by side in a cell are one frame's strokes, and no band parts them.
    drawings: bool,
}

/// [`find_lattice`], saying whether the lattice is a strip of drawings in pieces; `counts`
/// are the sheet's [`profiles`].
fn read_lattice(
    sheet: &RgbaImage,
    sprites: &[PixelRect],
    (column_counts, row_counts): &(Vec<u32>, Vec<u32>),
) -> Option<ReadLattice> {
    if sheet.width() == 0 || sheet.height() == 0 {
        return None;
    }
    let Lattice { columns, rows } = lattice_of(column_counts, row_counts, usize::MAX)?;
    if columns.count < 2 && rows.count < 2 {
        return None;
    }
    // One cell on an axis: a row (column) of frames. A frame far longer across the row than
    // the pitch along it is a shelf of sprites, not a frame.
    if (columns.count == 1 && columns.cell > 4 * rows.pitch)
        || (rows.count == 1 && rows.cell > 4 * columns.pitch)
    {
        return None;
    }
    let lattice = Lattice { columns, rows };
    let keeps_large_apart = |lattice: &Lattice| {
        is_whole_strip(lattice, sheet.width(), sheet.height())
            || !joins_large_sprites(lattice, sprites)
    };
    if !keeps_large_apart(&lattice) {
        return None;
    }
    if !cells_hold_several_frames(&lattice, sprites) {
        return Some(ReadLattice {
            lattice,
            drawings: false,
        });
    }
    strip_of_drawings(&lattice, column_counts, row_counts)
        .filter(keeps_large_apart)
        .map(|lattice| ReadLattice {
            lattice,
            drawings: true,
        })
}

/// The strip of `lattice`'s columns (or rows) with one cell across the whole sheet, when
/// its cells tile the sheet exactly along the strip (three or more, free lines between
/// them), are no more than twice as long across as along it, and in every one of them the
/// pieces interlock: no transparent line along the strip's cells parts the pixels of any.
/// `lattice` had cells across the strip too, and pieces side by side in them: there, a
/// transparent line crossing every frame (an effect drawn in strokes, parted at half its
/// height) read as a second row of cells. Frames standing side by side in a cell have
/// transparent lines between them; strokes interlocked across the cell are one drawing.
/// `column_counts` and `row_counts` are the sheet's opaque pixels a column and a row.
fn strip_of_drawings(
    lattice: &Lattice,
    column_counts: &[u32],
    row_counts: &[u32],
) -> Option<Lattice> {
    let (columns, rows) = (lattice.columns, lattice.rows);
    if let Some(rows) = whole_across(columns, column_counts, rows, row_counts) {
        return Some(Lattice { columns, rows });
    }
    whole_across(rows, row_counts, columns, column_counts).map(|columns| Lattice { columns, rows })
}

/// The one cell across a strip whose cells run along `along` (`along_counts` its lines'
/// opaque pixels), replacing `across` (`across_counts`), as [`strip_of_drawings`] takes it.
fn whole_across(
    along: AxisLattice,
    along_counts: &[u32],
    across: AxisLattice,
    across_counts: &[u32],
) -> Option<AxisLattice> {
    let (length, breadth) = (along_counts.len() as u32, across_counts.len() as u32);
    let strip = along.count >= 3
        && !along.touching
        && along.pitch * along.count == length
        && across.count >= 2
        && !across.touching
        && breadth <= 2 * along.pitch;
    (strip && pieces_interlock(along_counts, &along))
        .then(|| whole_axis(across_counts))
        .flatten()
}

/// True when no transparent line of `counts` (opaque pixels a line) parts the pixels inside
/// any cell of `along`: each cell's pieces overlap one another along the axis.
fn pieces_interlock(counts: &[u32], along: &AxisLattice) -> bool {
    (0..along.count).all(|k| {
        let start = along.start(k) as usize;
        filled_runs(&counts[start..start + along.cell as usize]).len() <= 1
    })
}

/// The sheet's column lattice when frames of `rects` stand side by side in more than half of
/// its cells holding pixels and no transparent column parts the pixels of any of its cells:
/// pieces of frames drawn in strokes (a bolt forking into branches) that the transparent rows
/// crossing the sheet parted into bands, cut apart. `None` when it does not look so.
/// `counts` are the sheet's [`profiles`].
fn split_drawings(
    sheet: &RgbaImage,
    (column_counts, row_counts): &(Vec<u32>, Vec<u32>),
    rects: &[PixelRect],
    min_size: u32,
) -> Option<AxisLattice> {
    let (columns, _) = axis_lattice(column_counts, usize::MAX)?;
    if columns.count < 2 || columns.touching || !pieces_interlock(column_counts, &columns) {
        return None;
    }
    let strip = Lattice {
        columns,
        rows: whole_axis(row_counts)?,
    };
    holds_abreast(&strip, &lattice_frames(sheet, &strip, min_size), rects).then_some(columns)
}

/// True when `lattice` is one row (or column) of three cells or more tiling a `width` by
/// `height` sheet exactly, free lines between them, its cells no more than half as long
/// again across the strip as along it: a strip of frames, as engines lay out an effect
/// (Solarus's explosions, GameMaker's `_strip9`). No finer pitch parts its cells, so large
/// pieces in one cell are the parts of one frame (an explosion's flames), not two frames a
/// coarse lattice put together. Cells far longer across (a bomb over its shadow, 16 x 40)
/// may hold frames stacked across the strip, and are left to that rule.
fn is_whole_strip(lattice: &Lattice, width: u32, height: u32) -> bool {
    let strip = |along: AxisLattice, length: u32, across: AxisLattice, breadth: u32| {
        along.count >= 3
            && !along.touching
            && along.pitch * along.count == length
            && across.count == 1
            && across.pitch == breadth
            && 2 * breadth <= 3 * along.pitch
    };
    let (c, r) = (lattice.columns, lattice.rows);
    strip(c, width, r, height) || strip(r, height, c, width)
}

/// True when two sprites that each cover a quarter of a cell's frame or more fall in one
/// cell: those are two frames, and the lattice is not the sheet's.
pub(super) fn joins_large_sprites(lattice: &Lattice, sprites: &[PixelRect]) -> bool {
    let (c, r) = (lattice.columns, lattice.rows);
    let frame_area = c.cell as u64 * r.cell as u64;
    let mut large_in: std::collections::HashSet<(i64, i64)> = std::collections::HashSet::new();
    for sprite in sprites {
        if (sprite.width as u64 * sprite.height as u64) * 4 < frame_area {
            continue;
        }
        let cell = (
            (sprite.x as i64 - c.margin as i64).div_euclid(c.pitch as i64),
            (sprite.y as i64 - r.margin as i64).div_euclid(r.pitch as i64),
        );
        if !large_in.insert(cell) {
            return true;
        }
    }
    false
}

/// True when the cells look like they hold several frames each: in more than a quarter of the
/// cells, figures side by side. In a cell, that is two sprites or more, the widest spanning
/// less than half of what the cell holds across, three of them at least half as tall as the
/// cell's median sprite standing side by side (a row crosses them all; the median, since a
/// column of figures touching each other is one tall sprite beside them). The pieces of one frame drawn in
/// strokes (an effect: a bolt, a sword's trail) follow each other down the frame, span most of
/// it across, or stand two abreast; a lattice
/// coarser than the sheet's (a few large cells over rows of small figures, one column over
/// shelves of them) holds figures side by side.
pub(super) fn cells_hold_several_frames(lattice: &Lattice, sprites: &[PixelRect]) -> bool {
    let (c, r) = (lattice.columns, lattice.rows);
    let mut cells: std::collections::HashMap<(i64, i64), Vec<PixelRect>> =
        std::collections::HashMap::new();
    for sprite in sprites {
        let centre = (
            sprite.x as i64 + sprite.width as i64 / 2,
            sprite.y as i64 + sprite.height as i64 / 2,
        );
        let cell = (
            (centre.0 - c.margin as i64).div_euclid(c.pitch as i64),
            (centre.1 - r.margin as i64).div_euclid(r.pitch as i64),
        );
        cells.entry(cell).or_default().push(*sprite);
    }
    let several = cells
        .values()
        .filter(|held| held.len() >= 2)
        .filter(|held| {
            let Some(bounds) = super::sprites::union(held) else {
                return false;
            };
            let widest = held.iter().map(|s| s.width).max().unwrap_or(0);
            let tallest = held.iter().map(|s| s.height).max().unwrap_or(0);
            // Figures are compared with the cell's usual sprite, not its tallest: a column of
            // figures touching each other is one tall sprite beside them.
            let mut heights: Vec<u32> = held.iter().map(|s| s.height).collect();
            heights.sort_unstable();
            let usual = heights[heights.len() / 2];
            let mut widths: Vec<u32> = held.iter().map(|s| s.width).collect();
            widths.sort_unstable();
            let usual_width = widths[widths.len() / 2];
            let narrow = 2 * widest < bounds.width;
            let short = 2 * tallest < bounds.height;
            // Rows and columns of figures of the usual size in one cell (beside a wide
            // caption or a large sprite) are a grid of frames, however wide the widest.
            let grid = figures_side_by_side(held, usual, 3)
                && figures_stacked(held, usual_width, usual, 3);
            grid || (narrow && figures_side_by_side(held, usual, 3))
                || (short && figures_stacked(held, widest, tallest, 3))
                || (narrow
                    && short
                    && figures_side_by_side(held, usual, 2)
                    && figures_stacked(held, widest, tallest, 2))
        })
        .count();
    several > 0 && several * 4 > cells.len()
}

/// True when `count` of `held`, each at least half as tall as `usual` and not thin (at least a
/// third as wide as tall: a figure, not a stroke), share rows.
fn figures_side_by_side(held: &[PixelRect], usual: u32, count: usize) -> bool {
    let figures: Vec<&PixelRect> = held
        .iter()
        .filter(|s| 2 * s.height >= usual && 3 * s.width >= s.height)
        .collect();
    // A row through the middle of a figure, crossing the others.
    a_line_crosses(&figures, count, |r| (r.y, r.height))
}

/// True when `count` of `held`, each at least half as wide as `widest` and half as tall as
/// `tallest`, and not flat (at least half as tall as wide: a figure, not a stroke), stand one
/// above another (a column crosses them all).
fn figures_stacked(held: &[PixelRect], widest: u32, tallest: u32, count: usize) -> bool {
    let figures: Vec<&PixelRect> = held
        .iter()
        .filter(|s| 2 * s.width >= widest && 2 * s.height >= tallest && 2 * s.height >= s.width)
        .collect();
    a_line_crosses(&figures, count, |r| (r.x, r.width))
}

/// True when a line through the middle of one of `figures` crosses `count` of them (itself
/// included); `span` gives a figure's start and length across the line.
fn a_line_crosses(
    figures: &[&PixelRect],
    count: usize,
    span: impl Fn(&PixelRect) -> (i32, u32),
) -> bool {
    figures.iter().any(|a| {
        let (start, length) = span(a);
        let middle = start + length as i32 / 2;
        figures
            .iter()
            .filter(|b| {
                let (start, length) = span(b);
                start <= middle && middle < start + length as i32
            })
            .count()
            >= count
    })
}

/// One cell along the whole axis of `counts` (opaque pixels per column or row), holding all
/// its pixels; `None` when it has none.
fn whole_axis(counts: &[u32]) -> Option<AxisLattice> {
    let lo = counts.iter().position(|&c| c > 0)?;
    let hi = counts.iter().rposition(|&c| c > 0)?;
    Some(AxisLattice {
        pitch: counts.len() as u32,
        margin: lo as u32,
        cell: (hi - lo + 1) as u32,
        count: 1,
        touching: false,
    })
}

/// The lattice along one axis of `counts` (opaque pixels per column or row): cells with
/// transparent lines between them, else cells whose sprites touch; one cell holding all the
/// pixels when neither fits; pitches above `longest` are not tried. `None` when the axis has
/// no pixels. With it, when a finer pitch
/// was taken over the one leaving the most room, that one (see [`lattice_of`]).
fn axis_lattice(counts: &[u32], longest: usize) -> Option<(AxisLattice, Option<AxisLattice>)> {
    let one_cell = whole_axis(counts)?;
    // Of the pitches that fit, the one the sheet's length is the nearest whole number of
    // (grids are drawn on sheets of whole cells; a pitch a little off the true one also fits a
    // few cells with wide gutters, but not the sheet), then the one leaving the most room
    // between frames (a multiple of the pitch holds two frames a cell).
    let length = counts.len();
    let runs = filled_runs(counts);
    let mut scratch = Scratch::default();
    let fitting: Vec<AxisLattice> = (MIN_PITCH..=(length / 2).min(longest))
        .filter_map(|pitch| lattice_at(counts, &runs, pitch, &mut scratch))
        .collect();
    let off = |found: &AxisLattice| {
        let over = length % found.pitch as usize;
        over.min(found.pitch as usize - over)
    };
    let roomiest = fitting
        .iter()
        .min_by_key(|found| (off(found), std::cmp::Reverse(found.spacing()), found.pitch));
    let best = roomiest
        .map(|best| {
            // Frames placed higher in some rows of cells than in others leave more room
            // between pairs of rows than between rows, so the most room can hold two frames
            // a cell. A finer pitch that fits the sheet as well is the frames' own when its
            // cells holding pixels span more than half the length the coarse one's do (each
            // coarse cell splits into cells that all hold some); one that only fits between
            // the pieces of frames leaves most of its cells empty.
            let used = |found: &AxisLattice| used_cells(counts, found).len() as u64;
            fitting
                .iter()
                .filter(|finer| {
                    finer.pitch < best.pitch
                        && off(finer) == off(best)
                        && 2 * used(finer) * finer.pitch as u64 > used(best) * best.pitch as u64
                })
                .min_by_key(|finer| finer.pitch)
                .unwrap_or(best)
        })
        .copied();
    let coarser = roomiest
        .filter(|roomiest| Some(**roomiest) != best)
        .copied();
    Some((
        best.or_else(|| touching_lattice(counts))
            .unwrap_or(one_cell),
        coarser,
    ))
}

/// The lattice of a sheet (or a band of it) whose opaque pixels are `column_counts` a column
/// and `row_counts` a row, each axis's as [`axis_lattice`] reads it, the column pitch at most
/// `widest`. A finer pitch whose
/// cells are far thinner across than the frames are long the other way (under a third)
/// cuts between the strokes of effects, not between frames: the pitch leaving the most room
/// is kept then.
pub(super) fn lattice_of(
    column_counts: &[u32],
    row_counts: &[u32],
    widest: usize,
) -> Option<Lattice> {
    let (mut columns, coarser_columns) = axis_lattice(column_counts, widest)?;
    let (mut rows, coarser_rows) = axis_lattice(row_counts, usize::MAX)?;
    if let Some(coarser) = coarser_columns
        && 3 * columns.cell < rows.cell
    {
        columns = coarser;
    }
    if let Some(coarser) = coarser_rows
        && 3 * rows.cell < columns.cell
    {
        rows = coarser;
    }
    Some(Lattice { columns, rows })
}

/// The runs of lines holding pixels in `counts`, (first, last) inclusive, in order.
fn filled_runs(counts: &[u32]) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (at, _) in counts.iter().enumerate().filter(|(_, count)| **count > 0) {
        match runs.last_mut() {
            Some(run) if run.1 + 1 == at => run.1 = at,
            _ => runs.push((at, at)),
        }
    }
    runs
}

/// Whether some residue within `tolerance` of 0 modulo `pitch` holds no pixel of `runs`:
/// where a lattice's lines may lie. Most pitches have none, and this costs the runs and the
/// tolerance, not the pitch (`ends` is a buffer).
fn edge_has_free_line(
    runs: &[(usize, usize)],
    pitch: usize,
    tolerance: usize,
    ends: &mut Vec<i32>,
) -> bool {
    // The window of residues from -tolerance to +tolerance, shifted to start at 0.
    let span = 2 * tolerance + 1;
    if span >= pitch {
        return true;
    }
    ends.clear();
    ends.resize(span + 1, 0);
    let mut mark = |from: usize, to: usize| {
        // Residues `from..=to` (shifted, not wrapping) that fall in the window.
        if from < span {
            ends[from] += 1;
            ends[to.min(span - 1) + 1] -= 1;
        }
    };
    for &(start, end) in runs {
        if end - start + 1 >= pitch {
            return false;
        }
        let from = (start + tolerance) % pitch;
        let to = (end + tolerance) % pitch;
        if from <= to {
            mark(from, to);
        } else {
            mark(from, pitch - 1);
            mark(0, to);
        }
    }
    let mut depth = 0;
    ends[..span].iter().any(|&d| {
        depth += d;
        depth == 0
    })
}

/// Buffers [`lattice_at`] reuses from one pitch to the next.
#[derive(Default)]
struct Scratch {
    /// Where runs of residues holding pixels start (+1) and end (-1).
    ends: Vec<i32>,
    /// Whether each residue holds pixels.
    occupied: Vec<bool>,
}

/// The lattice at `pitch` when lines at that pitch, starting within an eighth of a pitch of
/// the sheet's edge, cross only transparent pixels and two cells or more hold pixels.
fn lattice_at(
    counts: &[u32],
    runs: &[(usize, usize)],
    pitch: usize,
    scratch: &mut Scratch,
) -> Option<AxisLattice> {
    let (lo, hi) = (runs.first()?.0, runs.last()?.1);
    let tolerance = (pitch / 8).max(2).min(pitch - 1);
    if !edge_has_free_line(runs, pitch, tolerance, &mut scratch.ends) {
        return None;
    }
    // Which residues modulo the pitch hold pixels, from the runs of lines holding some: a
    // run marks its residues by their ends (a difference array), so each pitch costs the
    // runs and the pitch, not the sheet's length (bands of a large sheet are many).
    let Scratch { ends, occupied } = scratch;
    ends.clear();
    ends.resize(pitch + 1, 0);
    for &(start, end) in runs {
        if end - start + 1 >= pitch {
            return None;
        }
        let (from, to) = (start % pitch, end % pitch);
        ends[from] += 1;
        ends[to + 1] -= 1;
        if from > to {
            ends[0] += 1;
            ends[pitch] -= 1;
        }
    }
    occupied.clear();
    let mut depth = 0;
    occupied.extend(ends[..pitch].iter().map(|&d| {
        depth += d;
        depth > 0
    }));
    let occupied = &*occupied;
    // The line nearest the sheet's edge (a margin or spacing of a few pixels moves it).
    let line = (0..=tolerance)
        .flat_map(|d| [d, (pitch - d) % pitch])
        .find(|&r| !occupied[r])?;
    // The first cell starts on a line at or before the first pixel.
    let origin = lo as i64 - (lo as i64 - line as i64).rem_euclid(pitch as i64);
    let relative = |residue: usize| (residue as i64 - origin).rem_euclid(pitch as i64);
    let first = (0..pitch).filter(|&r| occupied[r]).map(relative).min()?;
    let last = (0..pitch).filter(|&r| occupied[r]).map(relative).max()?;
    let margin = origin + first;
    let count = (hi as i64 - origin) / pitch as i64 + 1;
    let cell = last - first + 1;
    // A transparent line inside every cell's frame at least as wide as the room between the
    // frames is a gutter too: the true pitch is smaller (several frames a cell), or it does
    // not fit them all.
    let mut inside = vec![false; cell as usize];
    for r in (0..pitch).filter(|&r| occupied[r]) {
        inside[(relative(r) - first) as usize] = true;
    }
    let widest_inside = inside
        .split(|&used| used)
        .map(<[bool]>::len)
        .max()
        .unwrap_or(0);
    if widest_inside as i64 >= pitch as i64 - cell {
        return None;
    }
    if margin < 0 || margin + (count - 1) * pitch as i64 + cell > counts.len() as i64 {
        return None;
    }
    let lattice = AxisLattice {
        pitch: pitch as u32,
        margin: margin as u32,
        cell: cell as u32,
        count: count as u32,
        touching: false,
    };
    (used_cells(counts, &lattice).len() >= 2).then_some(lattice)
}

/// The indices of the cells of `lattice` holding pixels.
fn used_cells(counts: &[u32], lattice: &AxisLattice) -> Vec<u32> {
    (0..lattice.count)
        .filter(|&k| {
            let start = lattice.start(k) as usize;
            counts[start..start + lattice.cell as usize]
                .iter()
                .any(|&c| c > 0)
        })
        .collect()
}

/// Sprites touching their neighbours on a grid: the smallest pitch dividing the axis into two
/// cells or more whose every line (the columns on both sides of it) crosses at most a quarter
/// of the pixels of an average column holding any.
fn touching_lattice(counts: &[u32]) -> Option<AxisLattice> {
    let length = counts.len();
    let filled: Vec<u64> = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| c as u64)
        .collect();
    if filled.is_empty() {
        return None;
    }
    let average = filled.iter().sum::<u64>() / filled.len() as u64;
    (MIN_PITCH.max(8)..=length / 2)
        .filter(|pitch| length.is_multiple_of(*pitch))
        .find(|&pitch| {
            (1..length / pitch).all(|k| {
                let line = k * pitch;
                (counts[line - 1] as u64).min(counts[line] as u64) * 4 <= average
            })
        })
        .map(|pitch| AxisLattice {
            pitch: pitch as u32,
            margin: 0,
            cell: pitch as u32,
            count: (length / pitch) as u32,
            touching: true,
        })
}

/// Something that looks wrong about a cut, with its likely fix said for the command line and
/// for the Import window (whose controls have other names than the options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doubt {
    /// What looks wrong.
    pub what: String,
    /// The likely fix, in the command line's words (its options).
    pub fix: String,
    /// The same fix in the Import window's words (its choices and fields).
    pub fix_in_window: String,
}

impl Doubt {
    /// The doubt and its fix in the Import window's words, as a sentence.
    pub fn in_window(&self) -> String {
        format!(
            "{}: {}.",
            crate::text::capitalised(&self.what),
            self.fix_in_window
        )
    }
}

impl std::fmt::Display for Doubt {
    /// The doubt and its fix in the command line's words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}; {}", self.what, self.fix)
    }
}

/// What looks wrong about the cut, each with its likely fix (`counts`: the sheet's
/// [`profiles`]).
fn doubts(
    sheet: &RgbaImage,
    counts: &(Vec<u32>, Vec<u32>),
    rects: &[PixelRect],
    layout: &Layout,
    lattice: Option<Lattice>,
    sprites: usize,
    options: SpriteOptions,
) -> Vec<Doubt> {
    let mut out = Vec::new();
    let doubt = |what: String, fix: String, fix_in_window: String| Doubt {
        what,
        fix,
        fix_in_window,
    };
    let sheet_area = sheet.width() as u64 * sheet.height() as u64;
    // Sprites touching at lattice lines matter where the cut followed those lines: the sheet's
    // lattice, or the bands' own when it was cut band by band.
    let followed = match layout {
        Layout::Bands { lattices, .. } => lattices.clone(),
        Layout::Lattice(lattice) => vec![*lattice],
        Layout::Sprites => lattice.into_iter().collect(),
    };
    if let Some(touching) = followed
        .iter()
        .find(|l| l.columns.touching || l.rows.touching)
    {
        let (c, r) = (touching.columns, touching.rows);
        out.push(doubt(
            format!(
                "sprites touch their neighbours at the lattice's lines (every {} px \
                 across, {} px down): the cut follows those lines",
                c.pitch, r.pitch
            ),
            "if the frames are another size, give --grid WxH".to_string(),
            "if the frames are another size, cut the sheet into a grid of that cell size"
                .to_string(),
        ));
    }
    if let Some(lattice) = lattice {
        let (c, r) = (lattice.columns, lattice.rows);
        let cells = lattice_frames(sheet, &lattice, options.min_size).len();
        match layout {
            Layout::Lattice(_) if sprites >= 2 * cells.max(1) => out.push(doubt(
                format!("the {cells} frames hold {sprites} separate pieces, joined by the lattice"),
                "if the pieces are frames themselves, cut with --sprites".to_string(),
                "if the pieces are frames themselves, choose Separate sprites".to_string(),
            )),
            Layout::Sprites if rects.len() >= 2 * cells.max(1) || 2 * rects.len() <= cells => out
                .push(doubt(
                    format!(
                        "the sheet looks like a lattice of {cells} frames but {} sprites were \
                         found",
                        rects.len()
                    ),
                    format!(
                        "to cut by it, give --grid {}x{} or leave out --sprites",
                        c.cell, r.cell
                    ),
                    format!(
                        "to cut by it, choose Automatic, or a grid of {}x{} cells",
                        c.cell, r.cell
                    ),
                )),
            _ => {}
        }
    }
    if matches!(layout, Layout::Bands { .. })
        && let Some(columns) = split_drawings(sheet, counts, rects, options.min_size)
    {
        let width = columns.pitch;
        out.push(doubt(
            format!(
                "the {} frames cut band by band stand side by side in columns {width} px wide \
                 whose pieces no transparent column parts: frames drawn in pieces may have \
                 been split at transparent rows",
                rects.len()
            ),
            format!("if the frames are {width} px wide, give --grid {width}xH (H: their height)"),
            format!(
                "if the frames are {width} px wide, cut the sheet into a grid of cells that wide"
            ),
        ));
    }
    let suffix = |n: usize| if n == 1 { "" } else { "s" };
    let large = rects
        .iter()
        .filter(|r| r.width as u64 * r.height as u64 * 100 >= sheet_area * LARGE_SHARE_PERCENT)
        .count();
    // Among several sprites only: one sprite filling the sheet is a picture, and a lattice's
    // cells are as large as the sheet makes them.
    if matches!(layout, Layout::Sprites | Layout::Bands { .. }) && large > 0 && rects.len() > 1 {
        out.push(doubt(
            format!(
                "{large} frame{} cover{} a quarter of the sheet or more: sprites packed closely \
                 may have been joined",
                suffix(large),
                if large == 1 { "s" } else { "" }
            ),
            "lower the gap (--gap 0 joins only touching pixels) or give --grid WxH".to_string(),
            "lower the gap tolerance (0 joins only touching pixels) or cut the sheet into a grid"
                .to_string(),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_lines_at_a_pitch_fitting_the_sheet_are_a_lattice() {
        // Content 3 wide at 2..5 in cells of 10, in cells 0, 2 and 4 only, on a sheet of 60.
        let mut counts = vec![0u32; 60];
        for cell in [0, 2, 4] {
            for x in 2..5 {
                counts[cell * 10 + x] = 7;
            }
        }
        let (found, _) = axis_lattice(&counts, usize::MAX).unwrap();
        assert_eq!(found.pitch, 20);
        assert_eq!((found.margin, found.cell, found.count), (2, 3, 3));
        assert!(!found.touching);
    }

    #[test]
    fn touching_sprites_split_where_their_columns_thin_out() {
        // Three 16-wide blobs touching at one pixel on each line.
        let counts: Vec<u32> = (0..48)
            .map(|x| {
                let inside = x % 16;
                if inside == 0 || inside == 15 { 1 } else { 12 }
            })
            .collect();
        let (found, _) = axis_lattice(&counts, usize::MAX).unwrap();
        assert_eq!((found.pitch, found.count, found.touching), (16, 3, true));
    }
}
