//! The compositor on hand-made 4x4 files: what is drawn, in which order, at which opacity.

use super::super::parse::parse;
use super::super::sprite::layer_flags::{BACKGROUND, REFERENCE, VISIBLE};
use super::super::test_files::*;
use super::{frame, mul_un8};

const RED: [u8; 4] = [255, 0, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

/// A layer chunk of kind image at the top level, normal, of `opacity`.
fn image_layer(flags: u16, opacity: u8) -> Vec<u8> {
    layer(flags, 0, 0, 0, opacity, &[])
}

/// One pixel of `color`, as a 1x1 cel of `layer` at (`x`, `y`).
fn dot(layer: u16, (x, y): (i16, i16), color: [u8; 4], opacity: u8, z: i16) -> Vec<u8> {
    placed_cel(layer, (x, y), opacity, z, (1, 1), &color)
}

/// Frame `index` of `bytes` drawn, as rows of RGBA pixels.
fn drawn(bytes: &[u8], index: usize) -> Vec<[u8; 4]> {
    let sprite = parse(bytes).unwrap();
    frame(&sprite, index).pixels().map(|p| p.0).collect()
}

fn at(pixels: &[[u8; 4]], x: usize, y: usize) -> [u8; 4] {
    pixels[y * 4 + x]
}

#[test]
fn opacities_multiply_with_aseprites_rounding() {
    assert_eq!(mul_un8(255, 255), 255);
    assert_eq!(mul_un8(128, 128), 64);
    assert_eq!(mul_un8(200, 100), 78);
    assert_eq!(mul_un8(0, 255), 0);
    // Layer 128 x cel 200 = 100: red at alpha 100 on a transparent frame.
    let frames = [vec![image_layer(VISIBLE, 128), dot(0, (0, 0), RED, 200, 0)]];
    assert_eq!(at(&drawn(&file(32, 1, &frames), 0), 0, 0), [255, 0, 0, 100]);
    // Without the header's opacity flag the layer's opacity is not valid: 255.
    assert_eq!(at(&drawn(&file(32, 0, &frames), 0), 0, 0), [255, 0, 0, 200]);
}

#[test]
fn hidden_and_reference_layers_and_layers_of_hidden_groups_are_not_drawn() {
    let frames = [vec![
        image_layer(0, 255),
        image_layer(VISIBLE | REFERENCE, 255),
        layer(0, 1, 0, 0, 255, &[]),
        layer(VISIBLE, 0, 1, 0, 255, &[]),
        image_layer(VISIBLE, 255),
        dot(0, (0, 0), RED, 255, 0),
        dot(1, (1, 0), RED, 255, 0),
        dot(3, (2, 0), RED, 255, 0),
        dot(4, (3, 0), BLUE, 255, 0),
    ]];
    let pixels = drawn(&file(32, 1, &frames), 0);
    assert_eq!(at(&pixels, 0, 0), [0; 4], "hidden");
    assert_eq!(at(&pixels, 1, 0), [0; 4], "reference");
    assert_eq!(at(&pixels, 2, 0), [0; 4], "in a hidden group");
    assert_eq!(at(&pixels, 3, 0), BLUE);
}

#[test]
fn layers_draw_bottom_up_reordered_by_z_index() {
    let draw = |z: i16| {
        let frames = [vec![
            image_layer(VISIBLE, 255),
            image_layer(VISIBLE, 255),
            dot(0, (0, 0), RED, 255, z),
            dot(1, (0, 0), BLUE, 255, 0),
        ]];
        at(&drawn(&file(32, 1, &frames), 0), 0, 0)
    };
    assert_eq!(draw(0), BLUE, "the upper layer covers the lower");
    assert_eq!(
        draw(1),
        RED,
        "z-index +1 shows the lower layer's cel one layer later"
    );
}

#[test]
fn cels_are_clipped_to_the_canvas() {
    let pixels: Vec<u8> = [RED, BLUE, BLUE, BLUE].concat();
    let frames = [vec![
        image_layer(VISIBLE, 255),
        placed_cel(0, (-1, -1), 255, 0, (2, 2), &pixels),
        placed_cel(0, (3, 3), 255, 0, (2, 2), &pixels),
    ]];
    let drawn = drawn(&file(32, 1, &frames), 0);
    assert_eq!(at(&drawn, 0, 0), BLUE, "the cel's last pixel");
    assert_eq!(drawn.iter().filter(|p| p[3] > 0).count(), 1);
}

#[test]
fn a_linked_cel_shows_its_target_at_its_own_place_and_opacity() {
    let mut link = cel_fields(0, 2, 2, 128, 1, 0);
    link.word(0);
    let frames = [
        vec![image_layer(VISIBLE, 255), dot(0, (0, 0), RED, 255, 0)],
        vec![super::super::file::chunk(CEL, &link.0)],
    ];
    let pixels = drawn(&file(32, 1, &frames), 1);
    assert_eq!(at(&pixels, 2, 2), [255, 0, 0, 128]);
    assert_eq!(at(&pixels, 0, 0), [0; 4]);
}

#[test]
fn tiles_draw_with_their_flips_and_tile_zero_is_empty() {
    // Tile 1 of 2x2: red, blue / blue, blue.
    let tiles: Vec<u8> = [[0; 4], [0; 4], [0; 4], [0; 4], RED, BLUE, BLUE, BLUE].concat();
    let draw = |tile: u32| {
        let frames = [vec![
            sized_tileset_chunk(0, 2, (2, 2), &tiles),
            layer(VISIBLE, 2, 0, 0, 255, &0u32.to_le_bytes()),
            tilemap_cel(0, 2, &[tile, 0]),
        ]];
        let pixels = drawn(&file(32, 1, &frames), 0);
        let red = (0..4)
            .flat_map(|y| (0..4).map(move |x| (x, y)))
            .filter(|&(x, y)| at(&pixels, x, y) == RED)
            .collect::<Vec<_>>();
        let empty = (2..4).all(|x| at(&pixels, x, 0)[3] == 0 && at(&pixels, x, 1)[3] == 0);
        assert!(empty, "tile 0 draws nothing");
        red
    };
    assert_eq!(draw(1), [(0, 0)]);
    assert_eq!(draw(1 | 0x2000_0000), [(1, 0)], "x flip");
    assert_eq!(draw(1 | 0x4000_0000), [(0, 1)], "y flip");
    assert_eq!(draw(1 | 0x6000_0000), [(1, 1)], "both flips");
    // Diagonal: the axes swap after the flips. With an x flip, (dx, dy) shows the source
    // pixel (dy, 1 - dx): the red (0, 0) at (1, 0); with a y flip, (1 - dy, dx): at (0, 1).
    assert_eq!(draw(1 | 0x8000_0000), [(0, 0)]);
    assert_eq!(draw(1 | 0xA000_0000), [(1, 0)], "x flip then diagonal");
    assert_eq!(draw(1 | 0xC000_0000), [(0, 1)], "y flip then diagonal");
}

#[test]
fn indexed_pixels_show_through_the_palette() {
    let palette = palette_chunk(&[[9, 9, 9, 255], [255, 0, 0, 255], [0, 0, 255, 255]]);
    let indices = [0u8, 1, 2, 0];
    // The transparent index 0 is transparent on a normal layer...
    let frames = [vec![
        palette.clone(),
        image_layer(VISIBLE, 255),
        placed_cel(0, (0, 0), 255, 0, (4, 1), &indices),
    ]];
    let pixels = drawn(&file(8, 1, &frames), 0);
    assert_eq!(&pixels[..4], &[[0; 4], RED, BLUE, [0; 4]]);
    // ...and the palette's colour on the background layer, as under every undrawn pixel.
    let frames = [vec![
        palette,
        image_layer(VISIBLE | BACKGROUND, 255),
        placed_cel(0, (0, 0), 255, 0, (4, 1), &indices),
    ]];
    let pixels = drawn(&file(8, 1, &frames), 0);
    assert_eq!(&pixels[..4], &[[9, 9, 9, 255], RED, BLUE, [9, 9, 9, 255]]);
    assert_eq!(at(&pixels, 0, 3), [9, 9, 9, 255]);
}

#[test]
fn indexed_layers_copy_indices_whatever_their_opacity() {
    let palette = palette_chunk(&[[0; 4], [255, 0, 0, 255], [0, 0, 255, 255]]);
    let frames = [vec![
        palette,
        image_layer(VISIBLE, 255),
        image_layer(VISIBLE, 10),
        placed_cel(0, (0, 0), 255, 0, (1, 1), &[1]),
        placed_cel(1, (0, 0), 255, 0, (1, 1), &[2]),
    ]];
    let bytes = file_with_transparent(8, 1, 5, &frames);
    assert_eq!(at(&drawn(&bytes, 0), 0, 0), BLUE);
}

#[test]
fn gray_pixels_show_as_value_value_value_alpha() {
    let frames = [vec![
        image_layer(VISIBLE, 255),
        placed_cel(0, (0, 0), 255, 0, (1, 1), &[100, 200]),
    ]];
    assert_eq!(
        at(&drawn(&file(16, 1, &frames), 0), 0, 0),
        [100, 100, 100, 200]
    );
}

#[test]
fn a_group_blends_apart_with_its_opacity_only_when_the_header_says_so() {
    let frames = [vec![
        layer(VISIBLE, 1, 0, 0, 128, &[]),
        layer(VISIBLE, 0, 1, 0, 255, &[]),
        dot(1, (0, 0), RED, 255, 0),
    ]];
    assert_eq!(
        at(&drawn(&file(32, 1 | 2, &frames), 0), 0, 0),
        [255, 0, 0, 128]
    );
    assert_eq!(at(&drawn(&file(32, 1, &frames), 0), 0, 0), RED);
}

/// A parsed 4x4 file of `cels` one-pixel cels on as many layers, then given a canvas of
/// `side` pixels and cels as large (their pixels are never read by the check).
fn large(cels: u16, side: u16) -> super::super::sprite::Sprite {
    let mut chunks: Vec<Vec<u8>> = (0..cels).map(|_| image_layer(VISIBLE, 255)).collect();
    chunks.extend((0..cels).map(|layer| dot(layer, (0, 0), RED, 255, 0)));
    let mut sprite = parse(&file(32, 1, &[chunks])).unwrap();
    (sprite.header.width, sprite.header.height) = (side, side);
    for cel in &mut sprite.cels {
        cel.content = super::super::sprite::CelContent::Image(super::super::sprite::Pixels {
            width: side,
            height: side,
            data: Vec::new(),
        });
    }
    sprite
}

#[test]
fn drawing_more_than_the_blend_budget_is_refused_at_its_frame() {
    use super::check_work;
    assert!(check_work(&large(1, 65535), false).is_ok());
    let refused = check_work(&large(2, 65535), false).unwrap_err();
    assert_eq!(refused.offset, 128);
    assert!(
        refused.message.contains("more than the 4294967296"),
        "{}",
        refused.message
    );
    // One 4096x4096 picture per cel: 8 fit in 512 MiB, 9 do not.
    assert!(check_work(&large(8, 4096), true).is_ok());
    let refused = check_work(&large(9, 4096), true).unwrap_err();
    assert!(refused.message.contains("576 MiB"), "{}", refused.message);
    assert!(check_work(&large(9, 4096), false).is_ok());
}
