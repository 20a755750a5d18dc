//! The PCX encoder for SFF v1 sprites: 8 bits, one plane, RLE, an even number of bytes per
//! line, and the palette at the end when the sprite carries its own.

use crate::formats::sff::palette::Palette;
use crate::formats::sff::pcx::PCX_HEADER_LEN;

/// A PCX image of `indices` (`width * height`, both 1..=65535). With `palette`, the data ends
/// with the 0x0C marker and 768 RGB bytes; without, the sprite uses the previous palette.
pub fn encode_pcx(width: u32, height: u32, indices: &[u8], palette: Option<&Palette>) -> Vec<u8> {
    // PCX wants an even number of bytes per line; the padding byte is never shown.
    let line = (width as usize).next_multiple_of(2);
    let mut out = vec![0u8; PCX_HEADER_LEN];
    out[0] = 10; // manufacturer: ZSoft
    out[1] = 5; // version 3.0 and later (256-colour palettes)
    out[2] = 1; // RLE
    out[3] = 8; // bits per pixel
    out[8..10].copy_from_slice(&((width - 1) as u16).to_le_bytes());
    out[10..12].copy_from_slice(&((height - 1) as u16).to_le_bytes());
    out[12..14].copy_from_slice(&72u16.to_le_bytes());
    out[14..16].copy_from_slice(&72u16.to_le_bytes());
    out[65] = 1; // planes
    out[66..68].copy_from_slice(&(line as u16).to_le_bytes());
    out[68] = 1; // palette info: colour
    let mut row_bytes = vec![0u8; line];
    for row in indices.chunks_exact(width as usize) {
        row_bytes[..row.len()].copy_from_slice(row);
        let mut at = 0;
        // Runs are cut at each scanline's end, as every PCX reader expects.
        while at < line {
            let colour = row_bytes[at];
            let n = super::rle::run_length(&row_bytes, at, 63);
            if n == 1 && colour < 0xC0 {
                out.push(colour);
            } else {
                out.push(0xC0 | n as u8);
                out.push(colour);
            }
            at += n;
        }
    }
    if let Some(palette) = palette {
        out.push(0x0C);
        for i in 0..=255u8 {
            out.extend_from_slice(&palette.colour(i)[..3]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::sff::pcx::{PcxHeader, decode_pcx, trailing_palette};

    #[test]
    fn odd_widths_pad_and_round_trip_with_the_palette() {
        let indices: Vec<u8> = (0..5 * 3).map(|i| [0, 0xC3, 7, 7, 255][i % 5]).collect();
        let palette = Palette::from_rgb(&[1, 2, 3, 4, 5, 6]);
        let pcx = encode_pcx(5, 3, &indices, Some(&palette));
        let header = PcxHeader::parse(&pcx).unwrap();
        assert_eq!(
            (header.width, header.height, header.bytes_per_line),
            (5, 3, 6)
        );
        let mut back = vec![0u8; 15];
        decode_pcx(&pcx, &header, true, &mut back).unwrap();
        assert_eq!(back, indices);
        assert_eq!(trailing_palette(&pcx).unwrap(), palette);
    }
}
