//! The SFF codecs in the writing direction: palette indices (or RGBA) to the bytes a sprite
//! stores. Each encoder produces what both Ikemen GO and M.U.G.E.N 1.1 decode; the decoders in
//! the parent module are their exact inverses, which the tests check.
//!
//! Reading order: [`rle`] (RLE8, RLE5), [`lz5`], [`pcx`] (SFF v1), [`png`] (PNG8/24/32 through
//! the `png` crate), then [`encode_sprite`], which picks one by [`Codec`] and refuses what a
//! codec cannot hold before anything is written.

pub mod lz5;
pub mod pcx;
pub mod png;
pub mod rle;

use super::index::SpriteFormat;
use super::palette::Palette;

/// How a new or changed sprite is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Codec {
    /// v2 format 0: one byte per pixel.
    Raw,
    /// v2 format 2.
    Rle8,
    /// v2 format 3 (colours 0..31 in its short runs; any colour in its long ones).
    Rle5,
    /// v2 format 4 (colours 0..31 only).
    Lz5,
    /// v2 format 10: palette indices in a PNG.
    Png8,
    /// v2 format 11: RGB, no transparency.
    Png24,
    /// v2 format 12: RGBA.
    Png32,
    /// SFF v1: an 8-bit RLE PCX image.
    Pcx,
}

impl Codec {
    /// The format a sprite stored with this codec has.
    pub fn format(self) -> SpriteFormat {
        match self {
            Codec::Raw => SpriteFormat::Raw,
            Codec::Rle8 => SpriteFormat::Rle8,
            Codec::Rle5 => SpriteFormat::Rle5,
            Codec::Lz5 => SpriteFormat::Lz5,
            Codec::Png8 => SpriteFormat::Png8,
            Codec::Png24 => SpriteFormat::Png24,
            Codec::Png32 => SpriteFormat::Png32,
            Codec::Pcx => SpriteFormat::Pcx,
        }
    }

    /// The codec writing a format, if Sprat writes it.
    pub fn for_format(format: SpriteFormat) -> Option<Codec> {
        Some(match format {
            SpriteFormat::Raw => Codec::Raw,
            SpriteFormat::Rle8 => Codec::Rle8,
            SpriteFormat::Rle5 => Codec::Rle5,
            SpriteFormat::Lz5 => Codec::Lz5,
            SpriteFormat::Png8 => Codec::Png8,
            SpriteFormat::Png24 => Codec::Png24,
            SpriteFormat::Png32 => Codec::Png32,
            SpriteFormat::Pcx => Codec::Pcx,
            SpriteFormat::Unknown(_) => return None,
        })
    }

    /// The v2 format byte (PCX has none: it is v1 only).
    pub fn v2_code(self) -> Option<u8> {
        Some(match self {
            Codec::Raw => 0,
            Codec::Rle8 => 2,
            Codec::Rle5 => 3,
            Codec::Lz5 => 4,
            Codec::Png8 => 10,
            Codec::Png24 => 11,
            Codec::Png32 => 12,
            Codec::Pcx => return None,
        })
    }

    /// The colour depth the v2 table records for it.
    pub fn v2_depth(self) -> u8 {
        match self {
            Codec::Rle5 | Codec::Lz5 => 5,
            Codec::Png24 => 24,
            Codec::Png32 => 32,
            _ => 8,
        }
    }

    /// True for codecs that store palette indices.
    pub fn is_indexed(self) -> bool {
        !matches!(self, Codec::Png24 | Codec::Png32)
    }

    /// Every codec SFF v2 defines that Sprat writes.
    pub const V2: [Codec; 7] = [
        Codec::Raw,
        Codec::Rle8,
        Codec::Rle5,
        Codec::Lz5,
        Codec::Png8,
        Codec::Png24,
        Codec::Png32,
    ];
}

/// The largest width or height either version's fields hold (u16 in the v2 table; PCX stores
/// `size - 1` in a u16, but v2's limit is the one both engines agree on).
pub const MAX_SIDE: u32 = u16::MAX as u32;

/// A sprite's pixels as given to an encoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpritePixels {
    /// One palette index per pixel, row by row; index 0 is transparent.
    Indexed {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// `width * height` indices.
        indices: Vec<u8>,
    },
    /// Four bytes (R, G, B, A) per pixel, row by row.
    Rgba {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// `width * height * 4` bytes.
        rgba: Vec<u8>,
    },
}

impl SpritePixels {
    /// Width and height.
    pub fn size(&self) -> (u32, u32) {
        match self {
            SpritePixels::Indexed { width, height, .. }
            | SpritePixels::Rgba { width, height, .. } => (*width, *height),
        }
    }
}

/// Why a sprite cannot be stored as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// A plain sentence.
    pub message: String,
}

impl EncodeError {
    fn new(message: impl Into<String>) -> EncodeError {
        EncodeError {
            message: message.into(),
        }
    }
}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Stores `pixels` with `codec`. For v2 codecs the result starts with the 4-byte uncompressed
/// length, as the sprite's data does in the file; PCX data is the whole PCX image and carries
/// `palette` at its end when one is given. PNG8 writes `palette` as the PNG's own (engines
/// ignore it, image editors show it).
///
/// Refused, with the reason: a side of 0 or past [`MAX_SIDE`], pixel data of the wrong length,
/// true colour asked of an indexed codec or the reverse, and indices a codec cannot hold
/// (LZ5 only holds colours 0..31).
pub fn encode_sprite(
    pixels: &SpritePixels,
    codec: Codec,
    palette: Option<&Palette>,
) -> Result<Vec<u8>, EncodeError> {
    let (width, height) = pixels.size();
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(EncodeError::new(format!(
            "a {width}x{height} sprite cannot be stored: each side must be 1 to {MAX_SIDE} pixels"
        )));
    }
    let count = width as usize * height as usize;
    match pixels {
        SpritePixels::Indexed { indices, .. } => {
            if indices.len() != count {
                return Err(EncodeError::new(format!(
                    "a {width}x{height} sprite needs {count} indices, {} were given",
                    indices.len()
                )));
            }
            if !codec.is_indexed() {
                return Err(EncodeError::new(format!(
                    "{} stores true colour; this sprite is palette indices",
                    codec.format().name()
                )));
            }
            if codec == Codec::Lz5
                && let Some(&high) = indices.iter().find(|&&i| i >= 32)
            {
                return Err(EncodeError::new(format!(
                    "LZ5 holds colours 0 to 31 only; this sprite uses colour {high} (store it as RLE8 or PNG8)"
                )));
            }
            let with_length = |body: Vec<u8>| {
                let mut out = Vec::with_capacity(body.len() + 4);
                out.extend_from_slice(&(count as u32).to_le_bytes());
                out.extend_from_slice(&body);
                out
            };
            Ok(match codec {
                Codec::Raw => indices.clone(),
                Codec::Rle8 => with_length(rle::encode_rle8(indices)),
                Codec::Rle5 => with_length(rle::encode_rle5(indices)),
                Codec::Lz5 => with_length(lz5::encode_lz5(indices)),
                Codec::Png8 => with_length(png::encode_png8(width, height, indices, palette)?),
                Codec::Pcx => pcx::encode_pcx(width, height, indices, palette),
                Codec::Png24 | Codec::Png32 => unreachable!("checked above"),
            })
        }
        SpritePixels::Rgba { rgba, .. } => {
            if rgba.len() != count * 4 {
                return Err(EncodeError::new(format!(
                    "a {width}x{height} sprite needs {} RGBA bytes, {} were given",
                    count * 4,
                    rgba.len()
                )));
            }
            let channels = match codec {
                Codec::Png24 => 3,
                Codec::Png32 => 4,
                other => {
                    return Err(EncodeError::new(format!(
                        "{} stores palette indices; this sprite is true colour (quantise it to a palette first, or store it as PNG32)",
                        other.format().name()
                    )));
                }
            };
            let body = png::encode_png_rgba(width, height, rgba, channels == 4)?;
            let mut out = Vec::with_capacity(body.len() + 4);
            out.extend_from_slice(&((count * channels) as u32).to_le_bytes());
            out.extend_from_slice(&body);
            Ok(out)
        }
    }
}
