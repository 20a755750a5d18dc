//! Reading image files into RGBA: PNG, TGA (any origin the header names) and gzip-compressed
//! TGA (`.tga.gz`, as an early ADL note describes).

use crate::formats::input::read_file_within;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits, RgbaImage};
use std::io::{Cursor, Read};
use std::path::Path;

/// Files larger than this are refused rather than read into memory.
const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;
/// The widest or tallest image Sprat decodes.
const MAX_IMAGE_SIDE: u32 = 16384;
/// The most pixels one decoded image may have (8192 x 8192: 256 MiB as RGBA), far above any
/// sprite sheet, so a small file claiming a huge canvas cannot exhaust memory.
pub const MAX_IMAGE_PIXELS: u64 = 8192 * 8192;
/// What the decoder may allocate for one image (its own buffer plus the RGBA copy).
const MAX_DECODE_ALLOC_BYTES: u64 = 2 * 4 * MAX_IMAGE_PIXELS;
/// A gzip stream may not inflate to more than this.
const MAX_INFLATED_BYTES: u64 = 512 * 1024 * 1024;
/// The two bytes every gzip stream starts with.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Decodes the image file at `path`; the error is a plain sentence.
pub fn decode_file(path: &Path) -> Result<RgbaImage, String> {
    let bytes = read_file_within(path, MAX_FILE_BYTES).map_err(|e| e.to_string())?;
    decode_bytes(&bytes, path)
}

/// Decodes `bytes` read from a file called `name` (the name only guides formats that carry no
/// signature, such as TGA).
pub fn decode_bytes(bytes: &[u8], name: &Path) -> Result<RgbaImage, String> {
    if bytes.starts_with(&GZIP_MAGIC) {
        let inflated = gunzip(bytes)?;
        // `hero.tga.gz` names its contents `hero.tga`.
        let inner = name.file_stem().map(Path::new).unwrap_or(name);
        return decode_plain(&inflated, inner);
    }
    decode_plain(bytes, name)
}

fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .take(MAX_INFLATED_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("cannot decompress: {e}"))?;
    if out.len() as u64 > MAX_INFLATED_BYTES {
        return Err("the compressed image inflates to more than 512 MiB".to_string());
    }
    Ok(out)
}

fn decode_plain(bytes: &[u8], name: &Path) -> Result<RgbaImage, String> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    if reader.format().is_none() {
        let by_name = ImageFormat::from_path(name).ok();
        reader.set_format(by_name.unwrap_or(ImageFormat::Tga));
    }
    reader.limits(decoder_limits());
    let decoder = reader.into_decoder().map_err(|e| e.to_string())?;
    // The header's size is known before any pixel buffer is allocated.
    let (width, height) = decoder.dimensions();
    if width as u64 * height as u64 > MAX_IMAGE_PIXELS {
        return Err(too_many_pixels(width, height));
    }
    let image = DynamicImage::from_decoder(decoder).map_err(|e| e.to_string())?;
    Ok(image.into_rgba8())
}

/// The limits every image decode runs under: a header asking for more is an error before
/// anything is allocated, never a failed allocation inside the decoder.
fn decoder_limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_DECODE_ALLOC_BYTES);
    limits
}

fn too_many_pixels(width: u32, height: u32) -> String {
    format!(
        "the image is {width}x{height}, larger than Sprat decodes ({} million pixels)",
        MAX_IMAGE_PIXELS >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A 2×2 uncompressed 32-bit TGA stored bottom-up (descriptor 0x08), like the ADL engine's.
    fn bottom_up_tga() -> Vec<u8> {
        let mut bytes = vec![0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 32, 0x08];
        // Bottom row first, BGRA: blue, white; then top row: red, green.
        for bgra in [
            [255, 0, 0, 255],
            [255, 255, 255, 255],
            [0, 0, 255, 255],
            [0, 255, 0, 255],
        ] {
            bytes.extend_from_slice(&bgra);
        }
        bytes
    }

    #[test]
    fn tga_with_bottom_left_origin_reads_top_row_first() {
        let image = decode_bytes(&bottom_up_tga(), Path::new("part.tga")).unwrap();
        assert_eq!(image.get_pixel(0, 0).0, [255, 0, 0, 255]);
        assert_eq!(image.get_pixel(1, 0).0, [0, 255, 0, 255]);
        assert_eq!(image.get_pixel(0, 1).0, [0, 0, 255, 255]);
    }

    #[test]
    fn gzipped_tga_decodes_like_the_plain_file() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&bottom_up_tga()).unwrap();
        let bytes = gz.finish().unwrap();
        let plain = decode_bytes(&bottom_up_tga(), Path::new("part.tga")).unwrap();
        assert_eq!(
            decode_bytes(&bytes, Path::new("part.tga.gz")).unwrap(),
            plain
        );
    }

    #[test]
    fn an_image_past_the_pixel_limit_is_an_error_before_it_is_decoded() {
        // 11000x11000 compresses to a small PNG but would take 484 MB decoded.
        let mut png = Vec::new();
        {
            let mut encoder = ::png::Encoder::new(&mut png, 11000, 11000);
            encoder.set_color(::png::ColorType::Grayscale);
            let mut writer = encoder.write_header().unwrap();
            let mut stream = writer.stream_writer().unwrap();
            let row = vec![0u8; 11000];
            for _ in 0..11000 {
                stream.write_all(&row).unwrap();
            }
            stream.finish().unwrap();
        }
        assert!(png.len() < 1 << 20, "{} bytes", png.len());
        let error = decode_bytes(&png, Path::new("big.png")).unwrap_err();
        assert!(error.contains("11000x11000"), "{error}");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(decode_bytes(b"\x89PNG\r\n\x1a\nnot really", Path::new("a.png")).is_err());
        assert!(decode_bytes(&[0x1f, 0x8b, 1, 2, 3], Path::new("a.tga.gz")).is_err());
        assert!(decode_bytes(&[0xff; 40], Path::new("a.tga")).is_err());
    }
}
