//! Sheet helpers: snapping to a grid and finding a sheet's grid from its transparent gutters.

use image::{Rgba, RgbaImage};
use sprat::edit::sheet::{DetectedGrid, SheetGrid, detect_grid, snap_rect, snap_value};
use sprat::model::PixelRect;

/// A transparent sheet with an opaque `w` × `h` blob at (x, y) of each listed cell.
fn sheet(width: u32, height: u32, blobs: &[(u32, u32, u32, u32)]) -> RgbaImage {
    let mut image = RgbaImage::new(width, height);
    for &(x, y, w, h) in blobs {
        for py in y..y + h {
            for px in x..x + w {
                image.put_pixel(px, py, Rgba([200, 100, 50, 255]));
            }
        }
    }
    image
}

#[test]
fn finds_a_regular_grid_with_sprites_of_different_widths() {
    // 4 columns × 2 rows of 32 × 48 cells; sprites narrower than the cells, placed unevenly.
    let mut blobs = Vec::new();
    for row in 0..2 {
        for col in 0..4 {
            let width = 10 + col * 4;
            blobs.push((col * 32 + 3 + row, row * 48 + 5, width, 30 + row * 5));
        }
    }
    let image = sheet(128, 96, &blobs);
    assert_eq!(
        detect_grid(&image),
        Some(DetectedGrid {
            grid: SheetGrid {
                offset_x: 0,
                offset_y: 0,
                cell_width: 32,
                cell_height: 48,
            },
            columns: 4,
            rows: 2,
        })
    );
}

#[test]
fn two_sprites_far_apart_give_the_cell_size_that_tiles_the_sheet() {
    // A narrower pitch (21) would also avoid cutting the sprites; the tiling one wins.
    let image = sheet(64, 16, &[(0, 2, 10, 10), (32, 2, 10, 10)]);
    let found = detect_grid(&image).unwrap();
    assert_eq!((found.grid.cell_width, found.columns), (32, 2));
    assert_eq!((found.grid.cell_height, found.rows), (16, 1));
}

#[test]
fn a_fully_transparent_sheet_has_no_grid() {
    assert_eq!(detect_grid(&RgbaImage::new(40, 40)), None);
    assert_eq!(detect_grid(&RgbaImage::new(0, 0)), None);
}

#[test]
fn one_sprite_is_one_cell() {
    let image = sheet(20, 20, &[(2, 2, 15, 15)]);
    let found = detect_grid(&image).unwrap();
    assert_eq!((found.columns, found.rows), (1, 1));
    assert_eq!((found.grid.cell_width, found.grid.cell_height), (20, 20));
}

#[test]
fn snapping_moves_corners_to_the_nearest_lines_and_keeps_one_cell() {
    let grid = SheetGrid {
        offset_x: 4,
        offset_y: 0,
        cell_width: 16,
        cell_height: 16,
    };
    assert_eq!(snap_value(11, 4, 16), 4);
    assert_eq!(snap_value(13, 4, 16), 20);
    assert_eq!(snap_value(-5, 4, 16), -12);
    assert_eq!(
        snap_rect(
            PixelRect {
                x: 22,
                y: 3,
                width: 30,
                height: 2,
            },
            grid
        ),
        PixelRect {
            x: 20,
            y: 0,
            width: 32,
            height: 16,
        }
    );
}
