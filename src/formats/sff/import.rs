//! Pixels for new sprites: PNG files as an artist saves them (a paletted PNG keeps its
//! indices), and true colour quantised to an archive's palette when asked.

use super::MAX_SPRITE_PIXELS;
use super::encode::SpritePixels;
use super::palette::Palette;
use super::png::{decode_png_indices, decode_png_rgba};

/// The pixels of a PNG file: a paletted (or greyscale) PNG as its indices, anything else as
/// RGBA. `Err` says why the file does not decode.
pub fn pixels_from_png(bytes: &[u8]) -> Result<SpritePixels, String> {
    let paletted = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .map(|r| r.info().color_type == png::ColorType::Indexed)
        .map_err(|e| format!("the PNG does not decode: {e}"))?;
    if paletted {
        let p = decode_png_indices(bytes, MAX_SPRITE_PIXELS).map_err(|e| e.message)?;
        return Ok(SpritePixels::Indexed {
            width: p.width,
            height: p.height,
            indices: p.data,
        });
    }
    let p = decode_png_rgba(bytes, MAX_SPRITE_PIXELS).map_err(|e| e.message)?;
    Ok(SpritePixels::Rgba {
        width: p.width,
        height: p.height,
        rgba: p.data,
    })
}

/// True-colour pixels as indices of `palette`: a pixel under half opaque becomes index 0
/// (transparent), any other the nearest colour among indices 1..=255 (squared RGB distance,
/// the lowest index on a tie). Indexed pixels are returned as they are.
pub fn quantise(pixels: &SpritePixels, palette: &Palette) -> SpritePixels {
    let SpritePixels::Rgba {
        width,
        height,
        rgba,
    } = pixels
    else {
        return pixels.clone();
    };
    let colours: Vec<[u8; 4]> = (1..=255u8).map(|i| palette.colour(i)).collect();
    let mut memo: std::collections::HashMap<[u8; 3], u8> = Default::default();
    let indices = rgba
        .chunks_exact(4)
        .map(|p| {
            if p[3] < 128 {
                return 0;
            }
            *memo.entry([p[0], p[1], p[2]]).or_insert_with(|| {
                let distance = |c: &[u8; 4]| -> u32 {
                    (0..3)
                        .map(|k| (i32::from(c[k]) - i32::from(p[k])).pow(2) as u32)
                        .sum()
                };
                let best = (0..colours.len())
                    .min_by_key(|&i| distance(&colours[i]))
                    .unwrap_or(0);
                best as u8 + 1
            })
        })
        .collect();
    SpritePixels::Indexed {
        width: *width,
        height: *height,
        indices,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paletted_pngs_keep_their_indices_and_others_are_rgba() {
        let mut bytes = Vec::new();
        {
            let mut e = png::Encoder::new(&mut bytes, 2, 1);
            e.set_color(png::ColorType::Indexed);
            e.set_depth(png::BitDepth::Eight);
            e.set_palette(vec![0u8; 3 * 200]);
            e.write_header()
                .unwrap()
                .write_image_data(&[7, 199])
                .unwrap();
        }
        let p = pixels_from_png(&bytes).unwrap();
        assert_eq!(
            p,
            SpritePixels::Indexed {
                width: 2,
                height: 1,
                indices: vec![7, 199]
            }
        );
        let rgba = super::super::encode::png::encode_png_rgba(1, 1, &[1, 2, 3, 4], true).unwrap();
        assert!(matches!(
            pixels_from_png(&rgba).unwrap(),
            SpritePixels::Rgba { .. }
        ));
        assert!(pixels_from_png(&[1, 2, 3]).is_err());
    }

    #[test]
    fn true_colour_takes_the_nearest_palette_colour_and_clear_pixels_index_0() {
        let mut palette = Palette::default();
        palette.set_colour(1, [250, 0, 0, 255]);
        palette.set_colour(2, [0, 0, 250, 255]);
        let rgba = SpritePixels::Rgba {
            width: 3,
            height: 1,
            rgba: vec![10, 10, 200, 255, 200, 30, 30, 255, 200, 30, 30, 0],
        };
        let SpritePixels::Indexed { indices, .. } = quantise(&rgba, &palette) else {
            panic!("indexed")
        };
        assert_eq!(indices, vec![2, 1, 0]);
    }
}
