//! PNG export: one frame, or every frame of a direction side by side.

use super::ExportError;
use super::timeline::frames_to_export;
use crate::model::{AnimationSet, SequenceId};
use crate::pixels::PixelSource;
use crate::render::{CanvasBounds, RenderOptions, Scene, SpriteRect, direction_bounds, render};
use image::codecs::png::PngEncoder;
use image::{ImageEncoder, RgbaImage};

/// A strip larger than this many pixels is refused (1 GiB of RGBA).
pub const MAX_STRIP_PIXELS: u64 = 256 * 1024 * 1024;
/// A strip wraps into rows rather than grow wider than this.
pub const MAX_STRIP_WIDTH: u64 = 16_384;

/// Frame `index` of `direction` of `sequence`, with the boxes in force on it.
pub fn frame_image(
    document: &AnimationSet,
    sequence: SequenceId,
    direction: usize,
    index: usize,
    pixels: &dyn PixelSource,
    options: &RenderOptions,
) -> Result<RgbaImage, ExportError> {
    let scene = scene_at(document, sequence, direction, index, options)?;
    Ok(render(document, &scene, pixels, options))
}

/// Every frame of `direction` of `sequence` in play order, left to right, each on the same
/// canvas (the union of all frames unless the options fix one) so they line up. With
/// `columns`, or when one row would be wider than [`MAX_STRIP_WIDTH`], frames wrap into rows.
pub fn strip_image(
    document: &AnimationSet,
    sequence: SequenceId,
    direction: usize,
    columns: Option<u32>,
    pixels: &dyn PixelSource,
    options: &RenderOptions,
) -> Result<RgbaImage, ExportError> {
    let count = frames_to_export(document, sequence, direction)?.len();
    let bounds = match options.bounds {
        CanvasBounds::Fixed(rect) => rect,
        fit => {
            let union = direction_bounds(document, sequence, direction, pixels, options).unwrap_or(
                SpriteRect {
                    x: 0,
                    y: 0,
                    width: 1,
                    height: 1,
                },
            );
            match fit {
                CanvasBounds::FitWithMargin(margin) => union.grown(margin),
                _ => union,
            }
        }
    };
    let options = RenderOptions {
        bounds: CanvasBounds::Fixed(bounds),
        ..*options
    };
    // The cells are drawn on every thread of the current pool, and kept in play order.
    use rayon::prelude::*;
    let cells = (0..count)
        .into_par_iter()
        .map(|index| frame_image(document, sequence, direction, index, pixels, &options))
        .collect::<Result<Vec<RgbaImage>, ExportError>>()?;
    // Every cell has the same size: the same fixed rectangle at the same (possibly capped) scale.
    let (cell_w, cell_h) = cells[0].dimensions();
    let fit = (MAX_STRIP_WIDTH / cell_w.max(1) as u64).max(1) as u32;
    let columns = columns.unwrap_or(u32::MAX).clamp(1, fit).min(count as u32);
    let rows = (count as u32).div_ceil(columns);
    let (width, height) = (cell_w as u64 * columns as u64, cell_h as u64 * rows as u64);
    if width * height > MAX_STRIP_PIXELS {
        return Err(ExportError::TooLarge { width, height });
    }
    let mut strip = RgbaImage::new(width as u32, height as u32);
    for (i, cell) in cells.iter().enumerate() {
        let (column, row) = (i as u32 % columns, i as u32 / columns);
        image::imageops::replace(
            &mut strip,
            cell,
            (column * cell_w) as i64,
            (row * cell_h) as i64,
        );
    }
    Ok(strip)
}

/// The PNG bytes of `image`.
pub fn encode_png(image: &RgbaImage) -> Result<Vec<u8>, ExportError> {
    let mut bytes = Vec::new();
    PngEncoder::new(&mut bytes)
        .write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| ExportError::Encode(e.to_string()))?;
    Ok(bytes)
}

fn scene_at<'a>(
    document: &'a AnimationSet,
    sequence: SequenceId,
    direction: usize,
    index: usize,
    options: &RenderOptions,
) -> Result<Scene<'a>, ExportError> {
    let count = frames_to_export(document, sequence, direction)?.len();
    if index >= count {
        return Err(ExportError::NoFrame(index));
    }
    Scene::at(document, sequence, direction, index, options.box_rule)
        .ok_or(ExportError::NoFrame(index))
}

/// Terrarum's assembled sheet for an ADL document: every animation on its row, frame n in
/// column n, each cell the game's `(w+32) × (h+16)` with the origin where the game puts it.
pub fn game_sheet_image(
    document: &AnimationSet,
    layout: &crate::formats::adl::SheetLayout,
    pixels: &dyn PixelSource,
    options: &RenderOptions,
) -> Result<RgbaImage, ExportError> {
    let (width, height) = layout.size();
    if width * height > MAX_STRIP_PIXELS || width > u32::MAX as u64 || height > u32::MAX as u64 {
        return Err(ExportError::TooLarge { width, height });
    }
    let mut sheet = RgbaImage::new(width as u32, height as u32);
    let options = RenderOptions {
        scale: 1,
        bounds: CanvasBounds::Fixed(SpriteRect {
            x: -layout.origin_in_cell.0,
            y: -layout.origin_in_cell.1,
            width: layout.cell_width,
            height: layout.cell_height,
        }),
        ..*options
    };
    for cell in &layout.cells {
        let Some(frame) = document.frame(cell.frame) else {
            continue;
        };
        let image = render(document, &Scene::of_frame(frame), pixels, &options);
        image::imageops::replace(
            &mut sheet,
            &image,
            i64::from(cell.column * layout.cell_width),
            i64::from(cell.row * layout.cell_height),
        );
    }
    Ok(sheet)
}
