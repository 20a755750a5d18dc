//! PNG-coded SFF v2 sprites: PNG8 keeps the palette indices (the PNG's own palette is ignored;
//! the SFF palette colours them), PNG24 and PNG32 are true colour.

use super::indexed::CodecError;
use png::{BitDepth, ColorType, Decoder, Limits, Transformations};
use std::io::Cursor;

/// A decoded PNG.
#[derive(Debug)]
pub struct PngPixels {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// One index per pixel (PNG8) or four RGBA bytes per pixel (PNG24/32).
    pub data: Vec<u8>,
}

fn decode_error(e: png::DecodingError) -> CodecError {
    CodecError::new(0, format!("PNG data does not decode: {e}"))
}

/// Deflate's best ratio: no PNG unpacks to more than this many bytes per stored byte.
const DEFLATE_MAX_RATIO: usize = 1032;

/// A PNG reader past its header, and a zeroed buffer for its pixels.
type Started<'a> = (png::Reader<Cursor<&'a [u8]>>, Vec<u8>);

/// Reads the header and allocates the pixel buffer, refusing images of more than `max_pixels`
/// and images whose raw rows could not come out of `data` (a lying header on a small file),
/// so memory stays bounded by the input.
fn start(
    data: &[u8],
    transformations: Transformations,
    max_pixels: usize,
) -> Result<Started<'_>, CodecError> {
    let producible = data.len().saturating_mul(DEFLATE_MAX_RATIO);
    let mut decoder = Decoder::new_with_limits(
        Cursor::new(data),
        Limits {
            bytes: producible
                .saturating_mul(8)
                .min(max_pixels.saturating_mul(8)),
        },
    );
    decoder.set_transformations(transformations);
    let reader = decoder.read_info().map_err(decode_error)?;
    let info = reader.info();
    let (width, height) = (info.width, info.height);
    if width as usize * height as usize > max_pixels {
        return Err(CodecError::new(
            16,
            format!("the PNG is {width}x{height}, larger than Sprat decodes"),
        ));
    }
    let raw = info.raw_bytes();
    if raw > producible {
        return Err(CodecError::new(
            16,
            format!(
                "the PNG claims {width}x{height}, but its {} bytes cannot unpack to the {raw} that needs",
                data.len()
            ),
        ));
    }
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| CodecError::new(16, "the PNG is too large to decode"))?;
    Ok((reader, vec![0; size]))
}

/// Palette indices of a PNG8 sprite. Bit depths below 8 are unpacked; a greyscale PNG's grey
/// levels are taken as indices (some tools save index images that way).
pub fn decode_png_indices(data: &[u8], max_pixels: usize) -> Result<PngPixels, CodecError> {
    let (mut reader, mut buf) = start(data, Transformations::IDENTITY, max_pixels)?;
    let frame = reader.next_frame(&mut buf).map_err(decode_error)?;
    let (width, height) = (frame.width, frame.height);
    if !matches!(frame.color_type, ColorType::Indexed | ColorType::Grayscale) {
        return Err(CodecError::new(
            0,
            format!(
                "a PNG8 sprite must be a paletted PNG; this one is {:?}",
                frame.color_type
            ),
        ));
    }
    let bits = match frame.bit_depth {
        BitDepth::One => 1,
        BitDepth::Two => 2,
        BitDepth::Four => 4,
        BitDepth::Eight => 8,
        BitDepth::Sixteen => {
            return Err(CodecError::new(
                0,
                "a PNG8 sprite cannot have 16-bit samples",
            ));
        }
    };
    let data = if bits == 8 && frame.line_size == width as usize {
        buf.truncate(width as usize * height as usize);
        buf
    } else {
        unpack_rows(&buf, frame.line_size, width as usize, height as usize, bits)
    };
    Ok(PngPixels {
        width,
        height,
        data,
    })
}

fn unpack_rows(buf: &[u8], line_size: usize, width: usize, height: usize, bits: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(width * height);
    let per_byte = 8 / bits;
    let mask = ((1u16 << bits) - 1) as u8;
    for row in buf.chunks(line_size.max(1)).take(height) {
        for x in 0..width {
            let byte = row.get(x / per_byte).copied().unwrap_or(0);
            let shift = 8 - bits * (x % per_byte + 1);
            out.push((byte >> shift) & mask);
        }
    }
    out
}

/// RGBA pixels of a PNG24 or PNG32 sprite (any PNG colour type is converted).
pub fn decode_png_rgba(data: &[u8], max_pixels: usize) -> Result<PngPixels, CodecError> {
    let (mut reader, mut buf) = start(
        data,
        Transformations::EXPAND | Transformations::STRIP_16,
        max_pixels,
    )?;
    let frame = reader.next_frame(&mut buf).map_err(decode_error)?;
    let (width, height) = (frame.width as usize, frame.height as usize);
    let pixels = width * height;
    let rows = buf.chunks(frame.line_size.max(1)).take(height);
    let mut rgba = Vec::with_capacity(pixels * 4);
    match frame.color_type {
        ColorType::Rgba => {
            for row in rows {
                rgba.extend_from_slice(&row[..width * 4]);
            }
        }
        ColorType::Rgb => {
            for row in rows {
                for p in row[..width * 3].chunks_exact(3) {
                    rgba.extend_from_slice(&[p[0], p[1], p[2], 255]);
                }
            }
        }
        ColorType::GrayscaleAlpha => {
            for row in rows {
                for p in row[..width * 2].chunks_exact(2) {
                    rgba.extend_from_slice(&[p[0], p[0], p[0], p[1]]);
                }
            }
        }
        ColorType::Grayscale => {
            for row in rows {
                for &g in &row[..width] {
                    rgba.extend_from_slice(&[g, g, g, 255]);
                }
            }
        }
        ColorType::Indexed => {
            return Err(CodecError::new(0, "PNG palette was not expanded"));
        }
    }
    Ok(PngPixels {
        width: frame.width,
        height: frame.height,
        data: rgba,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(width: u32, height: u32, colour: ColorType, depth: BitDepth, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut out, width, height);
            encoder.set_color(colour);
            encoder.set_depth(depth);
            if colour == ColorType::Indexed {
                encoder.set_palette(vec![0u8; 3 * 16]);
            }
            let mut writer = encoder.write_header().unwrap();
            writer.write_image_data(data).unwrap();
        }
        out
    }

    /// The PNG chunk checksum (CRC-32, reflected, polynomial 0xEDB88320).
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= b as u32;
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn indices_come_out_unpacked() {
        // 3x2 at 4 bits: rows are 2 bytes each.
        let png = encode(
            3,
            2,
            ColorType::Indexed,
            BitDepth::Four,
            &[0x12, 0x30, 0x45, 0x60],
        );
        let p = decode_png_indices(&png, 1 << 20).unwrap();
        assert_eq!((p.width, p.height), (3, 2));
        assert_eq!(p.data, vec![1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn rgb_gets_opaque_alpha() {
        let png = encode(1, 1, ColorType::Rgb, BitDepth::Eight, &[1, 2, 3]);
        assert_eq!(
            decode_png_rgba(&png, 1 << 20).unwrap().data,
            vec![1, 2, 3, 255]
        );
    }

    #[test]
    fn oversized_pngs_are_refused_before_allocating() {
        let png = encode(64, 64, ColorType::Rgba, BitDepth::Eight, &[0; 64 * 64 * 4]);
        assert!(decode_png_rgba(&png, 1000).is_err());
        assert!(decode_png_rgba(&png, 64 * 64).is_ok());
        assert!(decode_png_rgba(&[1, 2, 3], 1000).is_err());
        // A tiny PNG whose header claims far more than its data can hold.
        let mut liar = encode(1, 1, ColorType::Rgba, BitDepth::Eight, &[0; 4]);
        liar[16..24].copy_from_slice(&[0, 0, 0x10, 0, 0, 0, 0x10, 0]);
        let crc = crc32(&liar[12..29]);
        liar[29..33].copy_from_slice(&crc.to_be_bytes());
        let e = decode_png_rgba(&liar, usize::MAX).unwrap_err();
        assert!(e.message.contains("cannot unpack"), "{}", e.message);
    }
}
