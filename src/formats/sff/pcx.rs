//! The PCX images inside SFF v1: 8-bit, one plane, RLE, with an optional 256-colour palette at
//! the end.

use super::bytes::u16_at;
use super::indexed::{CodecError, CodecRun, IndexedOut};
use super::palette::{Palette, RGB_PALETTE_LEN};

/// Size of the PCX header.
pub const PCX_HEADER_LEN: usize = 128;

/// Most pixels one input byte can make: a two-byte run of 63.
pub const PCX_MAX_RATIO: usize = 32;

/// What the 128-byte header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PcxHeader {
    /// 1 = RLE, 0 = stored.
    pub encoding: u8,
    /// Bits per pixel per plane.
    pub bits_per_pixel: u8,
    /// Colour planes.
    pub planes: u8,
    /// Width in pixels (`xmax - xmin + 1`).
    pub width: u32,
    /// Height in pixels (`ymax - ymin + 1`).
    pub height: u32,
    /// Bytes per scanline; may exceed the width (padding).
    pub bytes_per_line: u32,
}

impl PcxHeader {
    /// Reads the header; `Err` when the data is shorter than a header or the bounds are
    /// reversed.
    pub fn parse(pcx: &[u8]) -> Result<PcxHeader, CodecError> {
        if pcx.len() < PCX_HEADER_LEN {
            return Err(CodecError::new(
                0,
                format!(
                    "PCX data is {} bytes, shorter than its {PCX_HEADER_LEN}-byte header",
                    pcx.len()
                ),
            ));
        }
        let word = |at| u16_at(pcx, at).unwrap_or(0) as u32;
        let (xmin, ymin, xmax, ymax) = (word(4), word(6), word(8), word(10));
        if xmax < xmin || ymax < ymin {
            return Err(CodecError::new(
                4,
                format!("PCX bounds are reversed ({xmin},{ymin})-({xmax},{ymax})"),
            ));
        }
        Ok(PcxHeader {
            encoding: pcx[2],
            bits_per_pixel: pcx[3],
            planes: pcx[65],
            width: xmax - xmin + 1,
            height: ymax - ymin + 1,
            bytes_per_line: word(66),
        })
    }

    /// `Err` unless this is the 8-bit, single-plane kind SFF uses.
    pub fn check_supported(&self) -> Result<(), CodecError> {
        if self.bits_per_pixel != 8 || self.planes != 1 {
            return Err(CodecError::new(
                3,
                format!(
                    "PCX with {} bits per pixel and {} planes is not the 8-bit paletted kind SFF uses",
                    self.bits_per_pixel, self.planes
                ),
            ));
        }
        if self.encoding > 1 {
            return Err(CodecError::new(
                2,
                format!("unknown PCX encoding {}", self.encoding),
            ));
        }
        Ok(())
    }
}

/// The palette at the end of the PCX data (a 0x0C marker, then 768 RGB bytes), if it is there.
pub fn trailing_palette(pcx: &[u8]) -> Option<Palette> {
    let marker = pcx.len().checked_sub(RGB_PALETTE_LEN + 1)?;
    if marker < PCX_HEADER_LEN || pcx[marker] != 0x0C {
        return None;
    }
    Some(Palette::from_rgb(&pcx[marker + 1..]))
}

/// Decodes the pixels of `pcx` into `pixels` (`width * height` indices, zeroed).
/// `has_palette` says whether the last 769 bytes are a palette rather than pixel data.
///
/// RLE: a byte >= 0xC0 repeats the next byte `byte & 0x3F` times, any other byte is a literal.
/// Each scanline has `bytes_per_line` columns; columns past the width are padding, and a run
/// that goes past the end of a scanline is cut there.
pub fn decode_pcx(
    pcx: &[u8],
    header: &PcxHeader,
    has_palette: bool,
    pixels: &mut [u8],
) -> Result<CodecRun, CodecError> {
    header.check_supported()?;
    let mut end = pcx.len();
    if has_palette {
        end = end.saturating_sub(RGB_PALETTE_LEN + 1).max(PCX_HEADER_LEN);
    }
    let data = &pcx[PCX_HEADER_LEN.min(end)..end];
    let width = header.width as usize;
    let line_len = (header.bytes_per_line as usize).max(width);
    let mut out = IndexedOut::new(pixels);
    let mut at = 0;
    for _ in 0..header.height {
        let mut column = 0;
        while column < line_len {
            let Some(&b) = data.get(at) else {
                return Ok(out.finish());
            };
            at += 1;
            let (colour, count) = if header.encoding == 1 && b >= 0xC0 {
                let Some(&colour) = data.get(at) else {
                    return Ok(out.finish());
                };
                at += 1;
                (colour, (b & 0x3F) as usize)
            } else {
                (b, 1)
            };
            let count = count.min(line_len - column);
            let visible = count.min(width.saturating_sub(column));
            out.run(colour, visible);
            column += count;
        }
    }
    Ok(out.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(width: u16, height: u16, bytes_per_line: u16) -> Vec<u8> {
        let mut h = vec![0u8; PCX_HEADER_LEN];
        h[0] = 10;
        h[1] = 5;
        h[2] = 1;
        h[3] = 8;
        h[8..10].copy_from_slice(&(width - 1).to_le_bytes());
        h[10..12].copy_from_slice(&(height - 1).to_le_bytes());
        h[65] = 1;
        h[66..68].copy_from_slice(&bytes_per_line.to_le_bytes());
        h
    }

    #[test]
    fn runs_are_cut_at_the_end_of_each_scanline_and_padding_dropped() {
        // 3 wide, 4 bytes per line. Line 1: a run of 6 (cut to 4: 3 pixels + 1 padding).
        // Line 2: literals 1 2 3 and a padding byte.
        let mut pcx = header(3, 2, 4);
        pcx.extend_from_slice(&[0xC6, 7, 1, 2, 3, 9]);
        let h = PcxHeader::parse(&pcx).unwrap();
        assert_eq!((h.width, h.height), (3, 2));
        let mut px = [0u8; 6];
        let run = decode_pcx(&pcx, &h, false, &mut px).unwrap();
        assert_eq!(run.produced, 6);
        assert_eq!(px, [7, 7, 7, 1, 2, 3]);
    }

    #[test]
    fn the_trailing_palette_is_not_pixel_data() {
        let mut pcx = header(2, 1, 2);
        pcx.extend_from_slice(&[0xC2, 5]);
        pcx.push(0x0C);
        let mut rgb = vec![0u8; RGB_PALETTE_LEN];
        rgb[15..18].copy_from_slice(&[50, 60, 70]);
        pcx.extend_from_slice(&rgb);
        let palette = trailing_palette(&pcx).unwrap();
        assert_eq!(palette.colour(5), [50, 60, 70, 255]);
        let h = PcxHeader::parse(&pcx).unwrap();
        let mut px = [0u8; 2];
        decode_pcx(&pcx, &h, true, &mut px).unwrap();
        assert_eq!(px, [5, 5]);
    }

    #[test]
    fn other_pcx_kinds_are_refused_plainly() {
        let mut pcx = header(2, 1, 2);
        pcx[65] = 3;
        let h = PcxHeader::parse(&pcx).unwrap();
        let e = decode_pcx(&pcx, &h, false, &mut [0u8; 2]).unwrap_err();
        assert!(e.message.contains("3 planes"));
        assert!(PcxHeader::parse(&pcx[..100]).is_err());
    }
}
