//! The game's assembled sprite sheet layout, for `sprat render --strip` to reproduce it.
//!
//! The game assembles every frame into one sheet: a cell per frame of `(w + 32) x (h + 16)`
//! pixels in the current form (SIZE plus fixed headroom on the right and at the top; the legacy
//! assembler used SIZE as it is), one row per animation at its one-based ROW, frame `n` in
//! column `n`. Within a cell the sprite's origin is `(ORIGINX, cell height - 1)`.

use super::mapping::{animation_order, build};
use super::semantics::{Dialect, parse};
use crate::formats::ReadContext;
use crate::model::{AnimationSet, FrameId, SequenceId};

/// Extra width the current assembler adds to every cell.
pub const HEADROOM_X: u32 = 32;
/// Extra height the current assembler adds to every cell.
pub const HEADROOM_Y: u32 = 16;

/// Where one frame goes in the sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetCell {
    /// The sequence (animation).
    pub sequence: SequenceId,
    /// The frame's index in the sequence (zero-based; the file's frame number minus one).
    pub frame_index: usize,
    /// The frame.
    pub frame: FrameId,
    /// Zero-based column (frame number - 1).
    pub column: u32,
    /// Zero-based row (ROW - 1).
    pub row: u32,
}

/// The sheet the game assembles from an ADL document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetLayout {
    /// Width of a cell in pixels.
    pub cell_width: u32,
    /// Height of a cell in pixels.
    pub cell_height: u32,
    /// Number of columns (the most frames of any animation).
    pub columns: u32,
    /// Number of rows (the largest ROW).
    pub rows: u32,
    /// Where sprite-space (0, 0) lies in a cell, in pixels from the cell's top-left: a sprite
    /// point `p` is drawn at cell pixel `origin_in_cell + p`.
    pub origin_in_cell: (i32, i32),
    /// Every placed frame. Animations with a ROW below 1 or none are not placed (the game's
    /// sheet has no room for them).
    pub cells: Vec<SheetCell>,
}

impl SheetLayout {
    /// Size of the whole sheet in pixels.
    pub fn size(&self) -> (u64, u64) {
        (
            u64::from(self.cell_width) * u64::from(self.columns),
            u64::from(self.cell_height) * u64::from(self.rows),
        )
    }
}

/// The game's sheet layout for a document read from ADL; `None` for documents from other
/// formats or ADL files without a usable `CONFIG SIZE`.
pub fn game_sheet_layout(document: &AnimationSet) -> Option<SheetLayout> {
    let original = document.original.as_ref().filter(|o| o.format == "adl")?;
    let file = parse(&original.bytes);
    let (w, h) = file.size?;
    let (w, h) = (u32::try_from(w).ok()?, u32::try_from(h).ok()?);
    let (cell_width, cell_height) = match file.dialect {
        Dialect::Current => (w.saturating_add(HEADROOM_X), h.saturating_add(HEADROOM_Y)),
        Dialect::Legacy => (w, h),
    };
    let (read, _) = build(&file, original.bytes.len(), &ReadContext::default());
    let order = animation_order(&file);
    let mut cells = Vec::new();
    let mut rows = 0;
    let mut columns = 0;
    for (position, old) in read.sequences().into_iter().enumerate() {
        let Some(&anim_index) = order.get(position) else {
            continue;
        };
        let Some(row) = file.animations[anim_index].row.filter(|r| *r >= 1) else {
            continue;
        };
        let Some(sequence) = document.sequence(old.id) else {
            continue;
        };
        let row = row as u32;
        rows = rows.max(row);
        let frames = sequence
            .directions
            .first()
            .map_or(&[][..], |d| &d.frames[..]);
        columns = columns.max(frames.len() as u32);
        for (index, frame) in frames.iter().enumerate() {
            cells.push(SheetCell {
                sequence: sequence.id,
                frame_index: index,
                frame: *frame,
                column: index as u32,
                row: row - 1,
            });
        }
    }
    Some(SheetLayout {
        cell_width,
        cell_height,
        columns,
        rows,
        origin_in_cell: (
            file.origin_x.unwrap_or(0),
            i32::try_from(cell_height).unwrap_or(i32::MAX) - 1,
        ),
        cells,
    })
}
