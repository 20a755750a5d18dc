//! Cutting a sheet band by band when it has no lattice in common: a Solarus hero's sheet
//! lays each animation's directions out as rows of cells, and rows of 40 × 24 frames sit
//! above rows of 24 × 40 ones, so no one column pitch fits the whole sheet, yet each row
//! has its own. The sheet is parted into bands of rows at its transparent rows, each band's
//! lattice is read as the whole sheet's is ([`super::layout`]), and a band with one is cut by
//! it (the pieces of a frame drawn in strokes join, as on a lattice); a band without one is
//! cut into its separate sprites.

use super::layout::{
    AxisLattice, Lattice, Layout, cells_hold_several_frames, joins_large_sprites, lattice_frames,
    lattice_of,
};
use super::sprites::{SpriteOptions, sort_rows};
use crate::model::PixelRect;
use image::RgbaImage;

/// A band's cells are at most this many times as wide as the band is tall (a row of frames
/// wider than that is no row of frames): the column pitches looked for stop there, which keeps
/// reading the many bands of a large sheet quick.
const WIDEST_CELL_PER_HEIGHT: usize = 8;

/// A band of rows: from `top` to `bottom` inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Band {
    top: u32,
    bottom: u32,
}

/// The frames of `sheet` cut band by band, with the layout saying so, when at least one band
/// has a lattice of its own (`None` when none has: the sheet is separate sprites). `sprites`
/// are the sheet's separate sprites at `options`, `row_counts` its opaque pixels a row
/// ([`super::layout::profiles`]).
pub(super) fn band_frames(
    sheet: &RgbaImage,
    row_counts: &[u32],
    sprites: &[PixelRect],
    options: SpriteOptions,
) -> Option<(Vec<PixelRect>, Layout)> {
    let bands = bands(row_counts, options.gap);
    if bands.len() < 2 {
        return None;
    }
    // Each sprite in the band holding its top row (it lies wholly inside: bands are parted
    // by more transparent rows than the gap joins across).
    let mut inside: Vec<Vec<PixelRect>> = vec![Vec::new(); bands.len()];
    for sprite in sprites {
        let band = bands.partition_point(|band| band.bottom < sprite.y as u32);
        if let Some(held) = inside.get_mut(band) {
            held.push(*sprite);
        }
    }
    let mut rects = Vec::new();
    let mut lattices = Vec::new();
    for (band, inside) in bands.iter().zip(inside) {
        match band_lattice(sheet, *band, row_counts, &inside) {
            Some(lattice) => {
                rects.extend(lattice_frames(sheet, &lattice, options.min_size));
                lattices.push(lattice);
            }
            None => rects.extend(inside),
        }
    }
    if lattices.is_empty() {
        return None;
    }
    sort_rows(&mut rects);
    Some((
        rects,
        Layout::Bands {
            bands: bands.len(),
            lattices,
        },
    ))
}

/// The bands of rows holding pixels, parted by more than `gap` transparent rows (a sprite's
/// parts `gap` rows apart are one sprite, and stay in one band).
fn bands(row_counts: &[u32], gap: u32) -> Vec<Band> {
    let mut out: Vec<Band> = Vec::new();
    let mut last_filled: Option<usize> = None;
    for (y, &count) in row_counts.iter().enumerate() {
        if count == 0 {
            continue;
        }
        match (last_filled, out.last_mut()) {
            (Some(last), Some(band)) if y - last <= gap as usize + 1 => band.bottom = y as u32,
            _ => out.push(Band {
                top: y as u32,
                bottom: y as u32,
            }),
        }
        last_filled = Some(y);
    }
    out
}

/// The lattice of `band`, read from its own columns and rows, when it has two columns of
/// cells or more and its cells hold one frame each (`sprites`: the band's).
fn band_lattice(
    sheet: &RgbaImage,
    band: Band,
    row_counts: &[u32],
    sprites: &[PixelRect],
) -> Option<Lattice> {
    let width = sheet.width() as usize;
    let mut column_counts = vec![0u32; width];
    for y in band.top..=band.bottom {
        let row = &sheet.as_raw()[y as usize * width * 4..(y as usize + 1) * width * 4];
        for (x, pixel) in row.chunks_exact(4).enumerate() {
            if pixel[3] != 0 {
                column_counts[x] += 1;
            }
        }
    }
    let height = (band.bottom - band.top + 1) as usize;
    let Lattice { columns, rows } = lattice_of(
        &column_counts,
        &row_counts[band.top as usize..=band.bottom as usize],
        WIDEST_CELL_PER_HEIGHT * height,
    )?;
    if columns.count < 2 {
        return None;
    }
    let lattice = Lattice {
        columns,
        rows: AxisLattice {
            margin: rows.margin + band.top,
            ..rows
        },
    };
    (!joins_large_sprites(&lattice, sprites) && !cells_hold_several_frames(&lattice, sprites))
        .then_some(lattice)
}
