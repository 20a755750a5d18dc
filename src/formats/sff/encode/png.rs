//! PNG8, PNG24 and PNG32 sprites, written with the `png` crate.

use super::EncodeError;
use crate::formats::sff::palette::Palette;
use png::{BitDepth, ColorType, Encoder};

fn failed(e: png::EncodingError) -> EncodeError {
    EncodeError::new(format!("the PNG encoder failed: {e}"))
}

fn write(
    width: u32,
    height: u32,
    colour: ColorType,
    palette: Option<Vec<u8>>,
    data: &[u8],
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    let mut encoder = Encoder::new(&mut out, width, height);
    encoder.set_color(colour);
    encoder.set_depth(BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    if let Some(palette) = palette {
        encoder.set_palette(palette);
    }
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(data).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(out)
}

/// A paletted PNG of `indices` at 8 bits. Its PLTE holds `palette` (grey levels without one):
/// engines colour PNG8 sprites with the SFF palette and ignore it, but image editors show it.
pub fn encode_png8(
    width: u32,
    height: u32,
    indices: &[u8],
    palette: Option<&Palette>,
) -> Result<Vec<u8>, EncodeError> {
    let plte: Vec<u8> = (0..=255u8)
        .flat_map(|i| match palette {
            Some(p) => {
                let [r, g, b, _] = p.colour(i);
                [r, g, b]
            }
            None => [i, i, i],
        })
        .collect();
    write(width, height, ColorType::Indexed, Some(plte), indices)
}

/// An RGB (`alpha` false: the alpha bytes are dropped) or RGBA PNG of `rgba`.
pub fn encode_png_rgba(
    width: u32,
    height: u32,
    rgba: &[u8],
    alpha: bool,
) -> Result<Vec<u8>, EncodeError> {
    if alpha {
        write(width, height, ColorType::Rgba, None, rgba)
    } else {
        let rgb: Vec<u8> = rgba
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        write(width, height, ColorType::Rgb, None, &rgb)
    }
}
