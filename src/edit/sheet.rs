//! The sheet view: frames cut from rectangles of a source image, whole Solarus-style
//! directions from a grid, snapping to a grid, and finding the grid of a sprite sheet.

use super::command::Command;
use super::common_steps::direction_frames;
use super::error::{EditError, EditResult};
use super::selection::Selection;
use super::snapshot::Tx;
use super::timeline::{check_duration_unit, insert_ids};
use crate::model::{
    AnimationSet, Direction, DirectionId, Element, ElementId, ElementKind, Frame, FrameDuration,
    Graphic, GraphicSource, ImageId, ImageKind, Name, Origin, PixelRect, Point, SequenceId, Slice,
    SliceId, SourceImage,
};
use image::RgbaImage;
use std::path::PathBuf;

/// The slice for `rect` of `image`: an existing identical one, else a new one.
pub(crate) fn slice_for(tx: &mut Tx, image: ImageId, rect: PixelRect) -> SliceId {
    if let Some(existing) = tx
        .doc()
        .slices
        .iter()
        .find(|s| s.image == image && s.rect == rect && !s.rotated)
    {
        return existing.id;
    }
    let id = SliceId(tx.alloc_id());
    tx.slices_mut().push(Slice {
        id,
        image,
        rect,
        rotated: false,
    });
    id
}

/// A frame showing one slice with its origin at the sprite's origin.
pub(crate) fn slice_frame(
    tx: &mut Tx,
    slice: SliceId,
    origin: Point,
    duration: FrameDuration,
) -> Frame {
    let mut frame = Frame::new(duration);
    frame.elements.push(Element {
        id: ElementId(tx.alloc_id()),
        name: Name::default(),
        kind: ElementKind::Graphic(Graphic::new(
            GraphicSource::Slice(slice),
            Point::ZERO,
            Origin::At(origin),
        )),
    });
    frame
}

fn check_image(doc: &AnimationSet, image: ImageId) -> EditResult {
    doc.image(image)
        .map(|_| ())
        .ok_or_else(|| EditError::new(format!("image {image} is not in this document")))
}

fn check_rect(rect: PixelRect) -> EditResult {
    if rect.width == 0 || rect.height == 0 {
        return Err(EditError::new("the rectangle is empty; drag out an area"));
    }
    if rect.x < 0 || rect.y < 0 {
        return Err(EditError::new("the rectangle starts outside the image"));
    }
    Ok(())
}

/// Adds an image file to the document, to cut frames from in the sheet view.
#[derive(Clone, Debug)]
pub struct AddImage {
    /// The path as the file format will spell it (normally relative to the document's folder).
    pub path: String,
    /// Where the file is on disk.
    pub resolved: Option<PathBuf>,
}

impl Command for AddImage {
    fn label(&self) -> String {
        format!("Add image \"{}\"", self.path)
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.path.trim().is_empty() {
            return Err(EditError::new("the image needs a path"));
        }
        let exists = tx
            .doc()
            .images
            .iter()
            .any(|i| match (&i.resolved, &self.resolved) {
                (Some(a), Some(b)) => a == b,
                _ => i.path == self.path,
            });
        if exists {
            return Err(EditError::new(format!(
                "\"{}\" is already one of this document's images",
                self.path
            )));
        }
        let id = ImageId(tx.alloc_id());
        tx.images_mut().push(SourceImage {
            id,
            path: self.path.clone(),
            resolved: self.resolved.clone(),
            kind: ImageKind::File,
            nearest_neighbour: true,
        });
        Ok(())
    }
}

/// Creates a frame from a rectangle drawn on a source image and inserts it in a direction.
#[derive(Clone, Debug)]
pub struct CreateFrameFromRect {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// Where in the direction.
    pub index: usize,
    /// The source image.
    pub image: ImageId,
    /// The rectangle, in image pixels.
    pub rect: PixelRect,
    /// The origin, in the rectangle's pixels from its top-left corner.
    pub origin: Point,
    /// How long the frame shows.
    pub duration: FrameDuration,
}

impl Command for CreateFrameFromRect {
    fn label(&self) -> String {
        "Create frame from rectangle".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        check_image(tx.doc(), self.image)?;
        check_rect(self.rect)?;
        check_duration_unit(tx.doc(), None, self.duration)?;
        direction_frames(tx.doc(), self.sequence, self.direction)?;
        let slice = slice_for(tx, self.image, self.rect);
        let frame = slice_frame(tx, slice, self.origin, self.duration);
        let id = tx.add_frame(frame);
        insert_ids(tx, self.sequence, self.direction, self.index, &[id])
    }
}

/// The frame after a direction's last on a format whose frames are cells of one grid
/// (Solarus): the next cell of that grid, with the last frame's origin and duration, as one
/// more in a Solarus direction's frame count. The grid is read as the writer reads it: the
/// first frame's cell, and as many columns as frames on its row.
pub fn next_grid_cell(
    doc: &AnimationSet,
    sequence: SequenceId,
    direction: usize,
) -> Result<CreateFrameFromRect, String> {
    let frames = direction_frames(doc, sequence, direction).map_err(|e| e.message)?;
    let cell_of = |id: &crate::model::FrameId| {
        let frame = doc.frame(*id)?;
        let graphic = frame.elements.iter().find_map(|e| match &e.kind {
            ElementKind::Graphic(g) => Some(g),
            _ => None,
        })?;
        let GraphicSource::Slice(slice) = graphic.source else {
            return None;
        };
        let slice = doc.slice(slice)?;
        let origin = match graphic.origin {
            Origin::At(point) => point,
            Origin::SourceAxis => Point::ZERO,
        };
        Some((slice.image, slice.rect, origin, frame.duration))
    };
    let cells: Vec<_> = frames.iter().map(cell_of).collect();
    let (Some(Some(first)), Some(Some(last))) = (cells.first(), cells.last()) else {
        return Err(
            "a frame is added here as the next cell of the direction's picture, and this direction shows none yet: cut its frames from the picture in the source sheet (View > Source sheet)"
                .to_string(),
        );
    };
    let (image, rect, ..) = *first;
    let on_first_row = cells
        .iter()
        .enumerate()
        .take_while(|(i, cell)| {
            cell.is_some_and(|(_, r, ..)| {
                r.y == rect.y
                    && i64::from(r.x) == i64::from(rect.x) + *i as i64 * i64::from(rect.width)
            })
        })
        .count();
    let count = cells.len();
    let (_, _, origin, duration) = *last;
    // All on one row: the row goes on; else the grid wraps after the first row's cells.
    let columns = if on_first_row == count {
        count + 1
    } else {
        on_first_row.max(1)
    };
    let grid = DirectionGrid {
        x: rect.x,
        y: rect.y,
        width: rect.width,
        height: rect.height,
        origin,
        count: u32::try_from(count + 1).map_err(|_| "too many frames".to_string())?,
        columns: u32::try_from(columns).map_err(|_| "too many frames".to_string())?,
    };
    let next = *grid.cells().last().expect("the grid has count + 1 cells");
    Ok(CreateFrameFromRect {
        sequence,
        direction,
        index: count,
        image,
        rect: next,
        origin,
        duration,
    })
}

/// A Solarus-style direction on a sheet: `count` cells of `width` × `height` from (`x`, `y`),
/// left to right, wrapping after `columns` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirectionGrid {
    /// Left edge of the first cell.
    pub x: i32,
    /// Top edge of the first cell.
    pub y: i32,
    /// Cell width.
    pub width: u32,
    /// Cell height.
    pub height: u32,
    /// The origin inside each cell.
    pub origin: Point,
    /// How many frames.
    pub count: u32,
    /// Cells per row.
    pub columns: u32,
}

impl DirectionGrid {
    /// The cells, in frame order.
    pub fn cells(&self) -> Vec<PixelRect> {
        let columns = self.columns.max(1);
        (0..self.count)
            .map(|i| PixelRect {
                x: self.x + ((i % columns) * self.width) as i32,
                y: self.y + ((i / columns) * self.height) as i32,
                width: self.width,
                height: self.height,
            })
            .collect()
    }
}

/// Adds a direction to a sequence, one frame per grid cell.
#[derive(Clone, Debug)]
pub struct CreateDirectionFromGrid {
    /// The sequence.
    pub sequence: SequenceId,
    /// Where among its directions; `None` = at the end.
    pub index: Option<usize>,
    /// The source image.
    pub image: ImageId,
    /// The cells.
    pub grid: DirectionGrid,
    /// How long each frame shows.
    pub duration: FrameDuration,
}

/// More cells than any real sheet has; guards against a mistyped count.
const MAX_GRID_FRAMES: u32 = 4096;

impl Command for CreateDirectionFromGrid {
    fn label(&self) -> String {
        "Create direction from grid".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        check_image(tx.doc(), self.image)?;
        check_duration_unit(tx.doc(), None, self.duration)?;
        let grid = self.grid;
        if grid.count == 0 || grid.columns == 0 {
            return Err(EditError::new(
                "the frame count and columns must be at least 1",
            ));
        }
        if grid.count > MAX_GRID_FRAMES {
            return Err(EditError::new(format!(
                "{} frames is more than a direction can have here ({MAX_GRID_FRAMES})",
                grid.count
            )));
        }
        let cells = grid.cells();
        for cell in &cells {
            check_rect(*cell)?;
        }
        super::common_steps::sequence(tx.doc(), self.sequence)?;
        let mut ids = Vec::with_capacity(cells.len());
        for cell in cells {
            let slice = slice_for(tx, self.image, cell);
            let frame = slice_frame(tx, slice, grid.origin, self.duration);
            ids.push(tx.add_frame(frame));
        }
        let id = DirectionId(tx.alloc_id());
        let seq = tx.sequence_mut(self.sequence)?;
        let index = self
            .index
            .unwrap_or(seq.directions.len())
            .min(seq.directions.len());
        seq.directions.insert(
            index,
            Direction {
                id,
                name: None,
                frames: ids,
            },
        );
        tx.select(Selection::frames(self.sequence, index, Vec::new()));
        Ok(())
    }
}

/// A regular grid of cells on a sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetGrid {
    /// Left edge of the first column.
    pub offset_x: i32,
    /// Top edge of the first row.
    pub offset_y: i32,
    /// Cell width (>= 1).
    pub cell_width: u32,
    /// Cell height (>= 1).
    pub cell_height: u32,
}

/// `value` moved to the nearest grid line of a grid with this offset and pitch.
pub fn snap_value(value: i32, offset: i32, pitch: u32) -> i32 {
    let pitch = pitch.max(1) as i64;
    let relative = value as i64 - offset as i64;
    let snapped = (relative as f64 / pitch as f64).round() as i64 * pitch;
    (snapped + offset as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// A rectangle with its corners moved to the nearest grid lines (at least one cell).
pub fn snap_rect(rect: PixelRect, grid: SheetGrid) -> PixelRect {
    let x0 = snap_value(rect.x, grid.offset_x, grid.cell_width);
    let y0 = snap_value(rect.y, grid.offset_y, grid.cell_height);
    let x1 = snap_value(
        rect.x.saturating_add(rect.width as i32),
        grid.offset_x,
        grid.cell_width,
    )
    .max(x0.saturating_add(grid.cell_width.max(1) as i32));
    let y1 = snap_value(
        rect.y.saturating_add(rect.height as i32),
        grid.offset_y,
        grid.cell_height,
    )
    .max(y0.saturating_add(grid.cell_height.max(1) as i32));
    PixelRect {
        x: x0,
        y: y0,
        width: (x1 - x0) as u32,
        height: (y1 - y0) as u32,
    }
}

/// A grid found on a sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DetectedGrid {
    /// The grid.
    pub grid: SheetGrid,
    /// Columns of cells covering the sprites.
    pub columns: u32,
    /// Rows of cells covering the sprites.
    pub rows: u32,
}

/// Finds the sprite grid of a sheet from its transparent gutters: the smallest cell size whose
/// grid lines never cut through a sprite and whose cells each hold something. `None` when the
/// image is fully transparent.
pub fn detect_grid(image: &RgbaImage) -> Option<DetectedGrid> {
    let (width, height) = image.dimensions();
    let mut column_used = vec![false; width as usize];
    let mut row_used = vec![false; height as usize];
    for (x, y, pixel) in image.enumerate_pixels() {
        if pixel.0[3] != 0 {
            column_used[x as usize] = true;
            row_used[y as usize] = true;
        }
    }
    let (offset_x, cell_width, columns) = detect_axis(&column_used)?;
    let (offset_y, cell_height, rows) = detect_axis(&row_used)?;
    Some(DetectedGrid {
        grid: SheetGrid {
            offset_x: offset_x as i32,
            offset_y: offset_y as i32,
            cell_width: cell_width as u32,
            cell_height: cell_height as u32,
        },
        columns: columns as u32,
        rows: rows as u32,
    })
}

/// Offset, pitch and cell count along one axis, from which lines of pixels hold anything.
///
/// Sheets are normally a whole number of cells wide from their left edge, so grids that tile
/// the image exactly from 0 are tried first, then grids with a margin that still end at the
/// edge, then any grid; without that order a narrower cell whose lines happen to fall in the
/// gutters would win.
fn detect_axis(used: &[bool]) -> Option<(usize, usize, usize)> {
    let first = used.iter().position(|u| *u)?;
    let last = used.iter().rposition(|u| *u)?;
    let len = used.len();
    // A line at `x` (between pixels x-1 and x) cuts a sprite when both sides hold pixels.
    let cuts = |x: usize| x > 0 && x < len && used[x - 1] && used[x];
    // Prefix counts of used lines, so "does this cell hold anything" is one subtraction.
    let mut prefix = Vec::with_capacity(len + 1);
    prefix.push(0usize);
    for u in used {
        prefix.push(prefix.last().copied().unwrap_or(0) + usize::from(*u));
    }
    let fits = |offset: usize, pitch: usize| -> Option<usize> {
        let cells = (last + 1 - offset).div_ceil(pitch);
        if offset + cells * pitch > len {
            return None;
        }
        let lines_ok = (0..=cells).all(|k| !cuts(offset + k * pitch));
        let cells_filled =
            (0..cells).all(|k| prefix[offset + (k + 1) * pitch] > prefix[offset + k * pitch]);
        (lines_ok && cells_filled).then_some(cells)
    };
    type Preference = fn(usize, usize, usize) -> bool;
    let preferences: [Preference; 3] = [
        |len, offset, pitch| offset == 0 && len.is_multiple_of(pitch),
        |len, offset, pitch| (len - offset).is_multiple_of(pitch),
        |_, _, _| true,
    ];
    for preferred in preferences {
        for pitch in 1..=len {
            for offset in 0..pitch.min(first + 1) {
                if preferred(len, offset, pitch)
                    && let Some(cells) = fits(offset, pitch)
                {
                    return Some((offset, pitch, cells));
                }
            }
        }
    }
    None
}
