//! Cutting sheets drawn by the test for the cases the cut once got wrong: irregular sprites
//! packed so closely that their rectangles overlap, an effect drawn in separate strokes on a
//! lattice of cells, sprites touching their neighbours on a grid.

use super::{common::sprat, text};
use image::{Rgba, RgbaImage};
use sprat::assets::layout::{CutMethod, Lattice, Layout, SheetFrames, cut_frames};
use sprat::assets::sprites::{SpriteOptions, find_sprites};
use sprat::model::PixelRect;
use std::collections::HashSet;

const INK: Rgba<u8> = Rgba([40, 120, 60, 255]);

fn fill(sheet: &mut RgbaImage, x: u32, y: u32, w: u32, h: u32) {
    for yy in y..y + h {
        for xx in x..x + w {
            sheet.put_pixel(xx, yy, INK);
        }
    }
}

fn rect(x: u32, y: u32, width: u32, height: u32) -> PixelRect {
    PixelRect {
        x: x as i32,
        y: y as i32,
        width,
        height,
    }
}

/// Pairs of L shapes packed into each other's empty corner, one transparent pixel apart
/// everywhere (as a packer with 1 px of padding leaves them), the pairs themselves one pixel
/// apart. Each L's rectangle overlaps its partner's. Returns the sheet and each L's rectangle.
fn interlocked_ls() -> (RgbaImage, Vec<PixelRect>) {
    let mut sheet = RgbaImage::new(256, 256);
    let mut truth = Vec::new();
    let (mut x, mut y, mut row) = (0u32, 0u32, 0u32);
    for i in 0..24u32 {
        // Sizes vary so the sheet is no grid.
        let (arm, bar) = (18 + i % 5 * 3, 4 + i % 3);
        if x + bar + arm + 3 > 256 {
            (x, y, row) = (0, y + row + 1, 0);
        }
        row = row.max(arm);
        // An L: a bar down the left, a foot along the bottom.
        fill(&mut sheet, x, y, bar, arm);
        fill(&mut sheet, x, y + arm - bar, arm, bar);
        truth.push(rect(x, y, arm, arm));
        // Its partner, turned half a turn: a bar along the top from one pixel right of the
        // first L's bar, down the right to one pixel above its foot.
        let (px, pw) = (x + bar + 1, arm + 1);
        fill(&mut sheet, px, y, pw, bar);
        fill(&mut sheet, px + pw - bar, y, bar, arm - bar - 1);
        truth.push(rect(px, y, pw, arm - bar - 1));
        x = px + pw + 1;
    }
    (sheet, truth)
}

#[test]
fn packed_l_shapes_whose_rectangles_overlap_are_cut_apart() {
    let (sheet, truth) = interlocked_ls();
    // The rectangles do overlap: the case the finder must not join on.
    assert!(
        truth
            .chunks(2)
            .all(|pair| pair[1].x < pair[0].x + pair[0].width as i32)
    );
    let found = find_sprites(
        &sheet,
        SpriteOptions {
            gap: 0,
            min_size: 3,
        },
    );
    let found: HashSet<PixelRect> = found.into_iter().collect();
    assert_eq!(found.len(), truth.len(), "{found:?}");
    for r in &truth {
        assert!(found.contains(r), "{r:?} not found");
    }
    // Two pixels apart, the default gap of 1 keeps them apart too.
    let mut wide = RgbaImage::new(64, 32);
    fill(&mut wide, 0, 0, 4, 20);
    fill(&mut wide, 0, 16, 20, 4);
    fill(&mut wide, 6, 0, 20, 4);
    fill(&mut wide, 22, 0, 4, 13);
    let found = find_sprites(&wide, SpriteOptions::DEFAULT);
    assert_eq!(found, vec![rect(0, 0, 20, 20), rect(6, 0, 20, 13)]);
}

#[test]
fn packed_l_shapes_are_cut_apart_on_the_command_line() {
    let (sheet, truth) = interlocked_ls();
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("packed.png");
    sheet.save(&png).unwrap();
    let out = dir.path().join("packed.sprat");
    let (code, stdout, stderr) = sprat(&[
        "cut",
        text(&png),
        "--sprites",
        "--gap",
        "0",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("cut {} frames", truth.len())),
        "{stdout}"
    );
}

/// A small deterministic random sequence (the sheets must be the same every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % below as u64) as u32
    }
}

/// A stroke from (`x0`, `y0`) down to (`x1`, `y1`), every row joined to the next.
fn stroke(sheet: &mut RgbaImage, (x0, y0): (u32, u32), (x1, y1): (u32, u32)) {
    let rows = y1 - y0;
    let at = |r: u32| (x0 as i64 + (x1 as i64 - x0 as i64) * r as i64 / rows.max(1) as i64) as u32;
    for r in 0..=rows {
        let (a, b) = (at(r), at((r + 1).min(rows)));
        for x in a.min(b)..=a.max(b) {
            sheet.put_pixel(x, y0 + r, INK);
        }
    }
}

/// Lightning in a row of five 40 x 48 cells: each frame a bolt zigzagging down its cell,
/// broken into separate strokes (two or more transparent rows between them, so the default
/// gap keeps them apart) at different heights in each frame. Returns the sheet and how many
/// strokes it holds.
fn lightning() -> (RgbaImage, usize) {
    let mut sheet = RgbaImage::new(200, 48);
    let mut random = Lcg(5);
    let mut strokes = 0;
    for cell in 0..5u32 {
        let mut y = 3 + random.next(3);
        let mut x = 6 + random.next(28);
        while y < 40 {
            let height = 3 + random.next(5);
            let to = 5 + random.next(30);
            stroke(
                &mut sheet,
                (cell * 40 + x, y),
                (cell * 40 + to, (y + height).min(44)),
            );
            strokes += 1;
            x = 5 + random.next(30);
            y += height + 3 + random.next(2);
        }
    }
    (sheet, strokes)
}

#[test]
fn an_effect_in_pieces_on_a_lattice_is_one_frame_a_cell() {
    let (sheet, strokes) = lightning();
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("lightning.png");
    sheet.save(&png).unwrap();
    // Separate sprites: every stroke is a frame.
    let pieces = find_sprites(&sheet, SpriteOptions::DEFAULT);
    assert_eq!(pieces.len(), strokes);
    assert!(strokes >= 20, "{strokes} strokes");
    // The default reads the lattice: one frame a cell, all at the same place in their cells.
    let out = dir.path().join("lightning.sprat");
    let (code, stdout, stderr) = sprat(&["cut", text(&png), "--explain", "-o", text(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("cut 5 frames"), "{stdout}");
    assert!(
        stdout.contains("layout: a lattice of 5 x 1 cells, pitch 40x"),
        "{stdout}"
    );
    // The slices, made in frame order.
    let rects: Vec<PixelRect> = super::load(&out).slices.iter().map(|s| s.rect).collect();
    for (k, r) in rects.iter().enumerate() {
        assert_eq!(r.x, rects[0].x + 40 * k as i32, "{rects:?}");
        assert_eq!(
            (r.y, r.width, r.height),
            (rects[0].y, rects[0].width, rects[0].height)
        );
    }
    // Every stroke lies inside the frame of its cell.
    for piece in &pieces {
        let cell = (piece.x / 40) as usize;
        let frame = rects[cell];
        assert!(
            piece.x >= frame.x
                && piece.y >= frame.y
                && piece.x + piece.width as i32 <= frame.x + frame.width as i32
                && piece.y + piece.height as i32 <= frame.y + frame.height as i32,
            "{piece:?} outside {frame:?}"
        );
    }
    // Forced to separate sprites, the cut says the sheet looks like a lattice.
    let forced = dir.path().join("strokes.sprat");
    let (code, stdout, stderr) = sprat(&["cut", text(&png), "--sprites", "-o", text(&forced)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("cut {strokes} frames")),
        "{stdout}"
    );
    assert!(
        stderr.contains("warning") && stderr.contains("looks like a lattice of 5 frames"),
        "{stderr}"
    );
}

/// Eight diamonds in two rows of four 24 x 24 cells, each as wide as its cell so that it
/// touches its neighbours at its middle rows; a transparent row above and below each.
fn touching_diamonds() -> RgbaImage {
    let mut sheet = RgbaImage::new(96, 48);
    for row in 0..2u32 {
        for column in 0..4u32 {
            // Each frame a little different, as an animation's are.
            let notch = column + row;
            for y in 1..23u32 {
                let reach = 12 - (2 * y as i64 - 23).unsigned_abs() as u32 / 2;
                for x in 12 - reach..12 + reach {
                    if !(x == 12 && y < 4 + notch) {
                        sheet.put_pixel(column * 24 + x, row * 24 + y, INK);
                    }
                }
            }
        }
    }
    sheet
}

#[test]
fn sprites_touching_on_a_grid_are_cut_at_its_lines_with_a_warning() {
    let sheet = touching_diamonds();
    // Touching, they are one sprite a row.
    assert_eq!(find_sprites(&sheet, SpriteOptions::DEFAULT).len(), 2);
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("diamonds.png");
    sheet.save(&png).unwrap();
    let out = dir.path().join("diamonds.sprat");
    let (code, stdout, stderr) = sprat(&["cut", text(&png), "-o", text(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("cut 8 frames"), "{stdout}");
    assert!(
        stderr.contains("warning") && stderr.contains("touch their neighbours"),
        "{stderr}"
    );
    // The slices, made in frame order.
    let rects: Vec<PixelRect> = super::load(&out).slices.iter().map(|s| s.rect).collect();
    let expected: Vec<PixelRect> = (0..8u32)
        .map(|i| rect(i % 4 * 24, 1 + i / 4 * 24, 24, 22))
        .collect();
    assert_eq!(rects, expected);
    // Forced to separate sprites: two frames, each a large share of the sheet, doubted.
    let forced = dir.path().join("rows.sprat");
    let (code, stdout, stderr) = sprat(&["cut", text(&png), "--sprites", "-o", text(&forced)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("cut 2 frames"), "{stdout}");
    assert!(stderr.contains("a quarter of the sheet"), "{stderr}");
    assert!(stderr.contains("--grid 24x22"), "{stderr}");
}

#[test]
fn a_packed_sheet_of_like_sprites_a_pixel_apart_is_cut_apart_at_the_default_gap() {
    let (sheet, truth) = interlocked_ls();
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("packed.png");
    sheet.save(&png).unwrap();
    let out = dir.path().join("packed.sprat");
    // One transparent pixel apart, within the default gap: but each L is as large as its
    // neighbour, not a part of it, so they stay apart, and nothing is doubted.
    for gap in [None, Some("0")] {
        let mut argv = vec!["cut", text(&png), "--explain", "--force", "-o", text(&out)];
        if let Some(gap) = gap {
            argv.extend(["--gap", gap]);
        }
        let (code, stdout, stderr) = sprat(&argv);
        assert_eq!(code, 0, "{stdout}{stderr}");
        assert!(stdout.contains("layout: separate sprites"), "{stdout}");
        assert!(
            stdout.contains(&format!("cut {} frames", truth.len())),
            "{gap:?}: {stdout}"
        );
        assert!(!stderr.contains("warning"), "{stderr}");
    }
}

#[test]
fn a_real_engine_grid_is_read_at_its_cell_size() {
    // Solarus's hero walking sheet: its project cuts 24 x 32 cells from it, one direction a
    // row of cells; the lattice read must be that grid, each frame inside one of its cells.
    let path = super::common::corpus().join("solarus/zsd/sprites/hero/walking.tunic.png");
    let sheet = sprat::assets::decode::decode_file(&path).unwrap();
    let cut = cut_frames(&sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
    let Layout::Lattice(lattice) = cut.layout else {
        panic!("no lattice: {:?}", cut.doubts);
    };
    assert_eq!((lattice.columns.pitch, lattice.rows.pitch), (24, 32));
    for (x, y) in [(0, 160), (0, 192), (0, 256), (0, 288)] {
        assert!(
            cut.rects.iter().any(|r| r.x >= x
                && r.y >= y
                && r.x + r.width as i32 <= x + 24
                && r.y + r.height as i32 <= y + 32),
            "no frame in the cell at ({x}, {y}): {:?}",
            lattice
        );
    }
    assert!(cut.doubts.is_empty(), "{:?}", cut.doubts);
}

/// Three blocks of figures, 98 pixels apart, as quests lay out one animation a block: in each
/// block eight figures of different widths in two rows, a few pixels apart, the rows at other
/// heights in each block (so only the blocks share a pitch). Returns the sheet and each
/// figure's rectangle.
fn blocks_of_figures() -> (RgbaImage, Vec<PixelRect>) {
    let mut sheet = RgbaImage::new(294, 90);
    let mut truth = Vec::new();
    for block in 0..3u32 {
        for row in 0..2u32 {
            let y = 2 + block * 5 + row * 40;
            let mut x = block * 98 + 2;
            for figure in 0..4u32 {
                let width = 14 + (figure * 5 + block * 3) % 9;
                fill(&mut sheet, x, y, width, 30);
                truth.push(rect(x, y, width, 30));
                x += width + 3;
            }
        }
    }
    (sheet, truth)
}

#[test]
fn blocks_of_figures_on_a_coarse_pitch_are_cut_into_their_figures() {
    let (sheet, truth) = blocks_of_figures();
    // The blocks alone share a pitch: read as a lattice, each block would be one frame.
    let cut = cut_frames(&sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
    assert_eq!(cut.layout, Layout::Sprites, "{:?}", cut.lattice);
    let found: HashSet<PixelRect> = cut.rects.iter().copied().collect();
    assert_eq!(found, truth.iter().copied().collect::<HashSet<_>>());
}

/// A row-packed sheet as Aseprite's "rows" export lays them out: shelves of small figures
/// side by side 2 pixels apart, each shelf 64 pixels below the last, one short of the
/// sheet's width. Returns the sheet and each figure's rectangle.
fn shelves_of_figures() -> (RgbaImage, Vec<PixelRect>) {
    let mut sheet = RgbaImage::new(256, 256);
    let mut truth = Vec::new();
    for shelf in 0..4u32 {
        let mut x = 0;
        let mut figure = 0;
        while x + 16 < 250 {
            let (width, height) = (8 + (figure + shelf) % 3 * 4, 8 + figure % 4 * 4);
            fill(&mut sheet, x, shelf * 64, width, height);
            truth.push(rect(x, shelf * 64, width, height));
            x += width + 2;
            figure += 1;
        }
    }
    (sheet, truth)
}

#[test]
fn shelves_of_figures_are_not_one_frame_a_shelf() {
    let (sheet, truth) = shelves_of_figures();
    let cut = cut_frames(&sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
    assert_eq!(cut.layout, Layout::Sprites, "{:?}", cut.lattice);
    let found: HashSet<PixelRect> = cut.rects.iter().copied().collect();
    assert_eq!(found, truth.iter().copied().collect::<HashSet<_>>());
}

/// Columns of figures 24 pixels apart, five figures stacked in each band of 160 rows, each
/// column's figures a little higher or lower than its neighbours' (so only the bands share a
/// row pitch), as quests lay out one direction's frames a column. Returns the sheet and each
/// figure's rectangle.
fn stacked_figures() -> (RgbaImage, Vec<PixelRect>) {
    let mut sheet = RgbaImage::new(144, 320);
    let mut truth = Vec::new();
    for band in 0..2u32 {
        for column in 0..6u32 {
            for k in 0..5u32 {
                let (x, y) = (column * 24 + 3, band * 160 + column % 3 + k * 31);
                fill(&mut sheet, x, y, 18, 28);
                truth.push(rect(x, y, 18, 28));
            }
        }
    }
    (sheet, truth)
}

#[test]
fn figures_stacked_in_bands_on_a_coarse_row_pitch_are_cut_into_their_figures() {
    let (sheet, truth) = stacked_figures();
    let cut = cut_frames(&sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
    // Each band has its own row pitch (its figures a cell each); the sheet has none.
    assert!(
        !matches!(cut.layout, Layout::Lattice(_)),
        "{:?}",
        cut.lattice
    );
    assert_eq!(
        opaque_found(&sheet, &cut.rects),
        truth.iter().copied().collect()
    );
}

/// The opaque bounds of what each of `rects` holds on `sheet` (a lattice's frame is its
/// cell's box, a sprite's its own bounds: both hold one figure when the cut is right).
fn opaque_found(sheet: &RgbaImage, rects: &[PixelRect]) -> HashSet<PixelRect> {
    rects
        .iter()
        .filter_map(|r| {
            let opaque: Vec<PixelRect> = (r.y..r.y + r.height as i32)
                .flat_map(|y| (r.x..r.x + r.width as i32).map(move |x| (x as u32, y as u32)))
                .filter(|&(x, y)| sheet.get_pixel(x, y)[3] != 0)
                .map(|(x, y)| rect(x, y, 1, 1))
                .collect();
            sprat::assets::sprites::union(&opaque)
        })
        .collect()
}

/// A hero's sheet as Solarus quests lay one out: each direction of an animation a row of
/// cells, rows of 40 x 24 cells above rows of 24 x 40 ones (so no column pitch is common to
/// the whole sheet), a few transparent rows between the rows of cells. Each frame is a
/// figure with its sword three pixels away (further than the gap: two separate sprites), the
/// sword beside the figure in the wide cells, below it in the tall ones. Returns the sheet
/// and each frame's rectangle (figure and sword).
fn rows_of_cells_of_two_sizes() -> (RgbaImage, Vec<PixelRect>) {
    let mut sheet = RgbaImage::new(280, 136);
    let mut truth = Vec::new();
    for pair in 0..2u32 {
        let top = pair * 68;
        for k in 0..7u32 {
            // Wide cells: the figure, then the sword to its right, a little higher each frame.
            let (x, y) = (k * 40 + 4, top + 4);
            fill(&mut sheet, x, y, 10, 16);
            fill(&mut sheet, x + 13, y + k % 3, 12, 3);
            truth.push(rect(x, y, 25, 16));
        }
        for k in 0..7u32 {
            // Tall cells: the figure, then the sword below it (the figures of several
            // heights, so no transparent row parts every figure from its sword).
            let (x, y, height) = (k * 24 + 4, top + 28, 16 + k % 3 * 2);
            fill(&mut sheet, x, y, 12, height);
            fill(&mut sheet, x + k % 3 * 2, y + height + 3, 3, 12);
            truth.push(rect(x, y, 12, height + 15));
        }
    }
    (sheet, truth)
}

#[test]
fn rows_of_cells_of_two_sizes_are_cut_row_by_row_each_frame_whole() {
    let (sheet, truth) = rows_of_cells_of_two_sizes();
    let cut = cut_frames(&sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
    assert!(
        matches!(&cut.layout, Layout::Bands { lattices, .. } if lattices.len() == 4),
        "{:?}",
        cut.layout
    );
    assert_eq!(
        opaque_found(&sheet, &cut.rects),
        truth.iter().copied().collect()
    );
    let text = cut.layout.describe_bands().unwrap();
    assert!(text.contains("4 bands"), "{text}");
    // Each band's own lattice is kept for the window to draw: wide cells over tall ones.
    let Layout::Bands { lattices, .. } = &cut.layout else {
        unreachable!()
    };
    let pitches: Vec<u32> = lattices.iter().map(|l| l.columns.pitch).collect();
    let wide_over_tall = pitches.len() == 4
        && pitches.iter().step_by(2).all(|&p| p == 40)
        && pitches
            .iter()
            .skip(1)
            .step_by(2)
            .all(|&p| p.abs_diff(24) <= 1);
    assert!(wide_over_tall, "{pitches:?}");
    assert!(cut.doubts.is_empty(), "{:?}", cut.doubts);
    // Separate sprites alone split each frame into figure and sword.
    assert_eq!(
        find_sprites(&sheet, SpriteOptions::DEFAULT).len(),
        2 * truth.len()
    );
}

/// A sword's swing as Solarus draws it beside the hero: twelve columns of 72 x 72 cells, four
/// rows, each frame a thin stroke, lower in the cells of the even rows than in the odd ones.
/// Lines every 144 rows cross only transparent pixels too, and leave more room between
/// frames; but each such cell holds two frames. Returns the sheet and each frame's rectangle.
fn strokes_on_rows_at_two_heights() -> (RgbaImage, Vec<PixelRect>) {
    let mut sheet = RgbaImage::new(864, 288);
    let mut truth = Vec::new();
    for row in 0..4u32 {
        let (top, reach) = if row % 2 == 0 { (22, 30) } else { (10, 26) };
        for column in 0..12u32 {
            let (x, y) = (column * 72 + 30 + column % 3 * 2, row * 72 + top);
            fill(&mut sheet, x, y, 3, reach);
            truth.push(rect(x, y, 3, reach));
        }
    }
    (sheet, truth)
}

#[test]
fn of_two_fitting_row_pitches_the_finer_is_taken() {
    let (sheet, truth) = strokes_on_rows_at_two_heights();
    let cut = cut_frames(&sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
    let Layout::Lattice(lattice) = cut.layout else {
        panic!("no lattice: {:?}", cut.layout);
    };
    assert_eq!((lattice.columns.pitch, lattice.rows.pitch), (72, 72));
    assert_eq!(
        opaque_found(&sheet, &cut.rects),
        truth.iter().copied().collect()
    );
}

/// Blocks of figures 98 pixels apart as in `blocks_of_figures`, four columns of four figures
/// each, the second column's figures touching one another (one tall sprite), the others a
/// pixel apart. Returns the sheet and the sprites it holds: each separate figure, and each
/// touching column whole.
fn blocks_with_a_touching_column() -> (RgbaImage, Vec<PixelRect>) {
    let mut sheet = RgbaImage::new(294, 110);
    let mut sprites = Vec::new();
    for block in 0..3u32 {
        let top = 2 + block * 4;
        for column in 0..4u32 {
            let x = block * 98 + 2 + column * 19;
            if column == 1 {
                fill(&mut sheet, x, top, 16, 92);
                sprites.push(rect(x, top, 16, 92));
                continue;
            }
            for row in 0..4u32 {
                let y = top + row * 24;
                fill(&mut sheet, x, y, 16, 23);
                sprites.push(rect(x, y, 16, 23));
            }
        }
    }
    (sheet, sprites)
}

#[test]
fn blocks_of_figures_with_a_touching_column_are_cut_into_their_sprites() {
    let (sheet, sprites) = blocks_with_a_touching_column();
    let cut = cut_frames(&sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
    assert_eq!(cut.layout, Layout::Sprites, "{:?}", cut.lattice);
    let found: HashSet<PixelRect> = cut.rects.iter().copied().collect();
    assert_eq!(found, sprites.iter().copied().collect::<HashSet<_>>());
}

/// Rows of figures on cells 48 pixels wide, with their author's caption under them as
/// quests' sheets carry one: the caption spans almost two cells, so the only column pitch
/// the whole sheet has in common is 96, two figures a cell. Returns the sheet and each
/// figure's rectangle.
fn rows_of_figures_over_a_caption() -> (RgbaImage, Vec<PixelRect>) {
    let mut sheet = RgbaImage::new(480, 233);
    let mut truth = Vec::new();
    for row in 0..4u32 {
        for column in 0..10u32 {
            let (x, y) = (column * 48 + 6 + column % 3, 9 + row * 48);
            let width = 14 + (column + row) % 4;
            fill(&mut sheet, x, y, width, 23);
            truth.push(rect(x, y, width, 23));
        }
    }
    fill(&mut sheet, 2, 202, 88, 24);
    (sheet, truth)
}

#[test]
fn rows_of_figures_over_a_caption_are_cut_by_their_rows_own_pitch() {
    let (sheet, truth) = rows_of_figures_over_a_caption();
    let cut = cut_frames(&sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
    // The sheet reads as a lattice of 96 pixels; each row of figures, as one of 48 (and the
    // caption as its own band).
    assert_eq!(cut.lattice.map(|l| l.columns.pitch), Some(96));
    assert!(
        matches!(cut.layout, Layout::Bands { bands: 5, .. }),
        "{:?}",
        cut.layout
    );
    let found = opaque_found(&sheet, &cut.rects);
    for figure in &truth {
        assert!(found.contains(figure), "{figure:?} not found: {found:?}");
    }
    assert_eq!(found.len(), truth.len() + 1, "the figures and the caption");
}

/// An explosion as engines lay one out: a strip of six 40 x 40 cells tiling the sheet, each
/// frame two large flames three pixels apart (each more than a quarter of the frame), the
/// flames reaching within a pixel or two of their cell's sides. Returns the sheet and each
/// frame's rectangle (both flames).
fn explosion_strip() -> (RgbaImage, Vec<PixelRect>) {
    let mut sheet = RgbaImage::new(240, 40);
    let mut truth = Vec::new();
    for cell in 0..6u32 {
        // The flames' widths differ from cell to cell, as drawn flames do: no finer pitch
        // fits between them.
        let (x, y) = (cell * 40 + 1 + cell % 2, 2 + cell % 3);
        let (height, left) = (30 + cell % 4, 14 + cell * 5 % 7);
        fill(&mut sheet, x, y, left, height);
        fill(&mut sheet, x + left + 3, y + 2, 34 - left, height - 4);
        truth.push(rect(x, y, 37, height));
    }
    (sheet, truth)
}

#[test]
fn an_explosion_strip_of_flames_is_one_frame_a_cell() {
    let (sheet, truth) = explosion_strip();
    // Separate sprites: every flame is a frame.
    assert_eq!(find_sprites(&sheet, SpriteOptions::DEFAULT).len(), 12);
    let cut = cut_frames(&sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
    assert!(
        matches!(&cut.layout, Layout::Lattice(l) if l.columns.count == 6 && l.columns.pitch == 40),
        "{:?}",
        cut.layout
    );
    assert_eq!(
        opaque_found(&sheet, &cut.rects),
        truth.iter().copied().collect()
    );
}

/// Lightning forking as it falls, in a strip of five 40 x 72 cells, drawn in strokes as
/// Solarus's `agahnim_lightning` is: in each frame a trunk zigzagging down the upper half
/// (strokes two or three rows apart, at other heights in each frame) and three branches side
/// by side in the lower half, two strokes each. The rows between the halves (34 to 37) are
/// transparent across every frame, so lines every 36 rows part the sheet into two rows of
/// cells, whose lower cells hold the branches side by side. `room` transparent columns
/// follow the strip. Returns the sheet and how many strokes it holds.
fn forked_lightning(room: u32) -> (RgbaImage, usize) {
    let mut sheet = RgbaImage::new(200 + room, 72);
    let mut random = Lcg(11);
    let mut strokes = 0;
    for cell in 0..5u32 {
        let left = cell * 40;
        // The trunk, from side to side of the cell and back.
        let mut y = 2 + random.next(3);
        let mut from_left = cell % 2 == 0;
        while y + 4 <= 33 {
            let height = (3 + random.next(4)).min(33 - y);
            let (a, b) = (6 + random.next(3), 31 + random.next(3));
            let (x0, x1) = if from_left { (a, b) } else { (b, a) };
            stroke(&mut sheet, (left + x0, y), (left + x1, y + height));
            strokes += 1;
            from_left = !from_left;
            y += height + 3 + random.next(2);
        }
        // The branches, 10 wide, two transparent columns apart, each two strokes one below
        // the other.
        let split = 52 + random.next(3);
        for branch in 0..3u32 {
            let x = left + 3 + branch * 12;
            stroke(&mut sheet, (x, 38), (x + 9, split - 2));
            stroke(&mut sheet, (x + 9, split + 1), (x, 69));
            strokes += 2;
        }
    }
    (sheet, strokes)
}

/// The cut of `sheet` at the default options, which must be by a lattice cutting one frame
/// from each of `cells`, holding every stroke in it; with that lattice.
fn cut_one_frame_a_cell(sheet: &RgbaImage, cells: &[PixelRect]) -> (Lattice, SheetFrames) {
    let cut = cut_frames(sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
    let Layout::Lattice(lattice) = cut.layout else {
        panic!("no lattice: {:?} ({} frames)", cut.layout, cut.rects.len());
    };
    assert_eq!(cut.rects.len(), cells.len(), "{:?}", cut.rects);
    assert_eq!(opaque_found(sheet, &cut.rects), opaque_found(sheet, cells));
    (lattice, cut)
}

#[test]
fn an_effect_in_strokes_parted_at_half_height_is_one_frame_a_cell() {
    let (sheet, strokes) = forked_lightning(0);
    // Separate sprites: every stroke is a frame.
    assert_eq!(find_sprites(&sheet, SpriteOptions::DEFAULT).len(), strokes);
    assert!(strokes >= 40, "{strokes} strokes");
    let cells: Vec<PixelRect> = (0..5).map(|k| rect(k * 40, 0, 40, 72)).collect();
    let (lattice, cut) = cut_one_frame_a_cell(&sheet, &cells);
    let (c, r) = (lattice.columns, lattice.rows);
    assert_eq!((c.pitch, c.count, r.count), (40, 5, 1));
    // Cut into its frames, the strokes joined: said, with the way back to the strokes.
    assert!(
        cut.doubts
            .iter()
            .any(|d| d.what.contains(&format!("hold {strokes} separate pieces"))),
        "{:?}",
        cut.doubts
    );
}

#[test]
fn strokes_the_bands_split_apart_are_doubted_with_the_grid_that_joins_them() {
    // An empty cell after the strip: its frames no longer tile the sheet, so the cut goes
    // band by band and splits the frames into their strokes.
    let (sheet, strokes) = forked_lightning(40);
    let cut = cut_frames(&sheet, SpriteOptions::DEFAULT, CutMethod::Automatic);
    assert!(
        matches!(cut.layout, Layout::Bands { .. }),
        "{:?}",
        cut.layout
    );
    assert!(
        cut.rects.len() > 5 && cut.rects.len() <= strokes,
        "{:?}",
        cut.rects
    );
    let split = |doubts: &[sprat::assets::layout::Doubt]| {
        doubts
            .iter()
            .any(|d| d.what.contains("split at transparent rows") && d.fix.contains("--grid 40xH"))
    };
    assert!(split(&cut.doubts), "{:?}", cut.doubts);
    // Said on the command line; and cut by that grid, the frames come out whole, undoubted.
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("bolts.png");
    sheet.save(&png).unwrap();
    let out = dir.path().join("bolts.sprat");
    let (code, stdout, stderr) = sprat(&["cut", text(&png), "-o", text(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("warning") && stderr.contains("give --grid 40xH"),
        "{stderr}"
    );
    let (code, stdout, stderr) = sprat(&[
        "cut",
        text(&png),
        "--grid",
        "40x72",
        "--force",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("cut 5 frames"), "{stdout}");
}

#[test]
fn an_effect_in_strokes_down_a_column_of_cells_is_one_frame_a_cell() {
    // The forked lightning turned on its side: a column of five 72 x 40 cells, a transparent
    // column crossing every frame at half its width.
    let (across, strokes) = forked_lightning(0);
    let sheet = image::imageops::flip_horizontal(&image::imageops::rotate90(&across));
    assert_eq!(sheet.dimensions(), (72, 200));
    assert_eq!(find_sprites(&sheet, SpriteOptions::DEFAULT).len(), strokes);
    let cells: Vec<PixelRect> = (0..5).map(|k| rect(0, k * 40, 72, 40)).collect();
    let (lattice, _) = cut_one_frame_a_cell(&sheet, &cells);
    let (c, r) = (lattice.columns, lattice.rows);
    assert_eq!((r.pitch, r.count, c.count), (40, 5, 1));
}
