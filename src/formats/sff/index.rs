//! What the index of an archive holds once parsed: the entries both versions share.

use super::palette::Palette;
use crate::formats::Diagnostic;
use std::ops::Range;

/// The first 12 bytes of every SFF.
pub const SIGNATURE: &[u8; 12] = b"ElecbyteSpr\0";

/// How a sprite's pixels are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpriteFormat {
    /// SFF v1: an 8-bit PCX image.
    Pcx,
    /// v2 format 0: one index byte per pixel.
    Raw,
    /// v2 format 2.
    Rle8,
    /// v2 format 3.
    Rle5,
    /// v2 format 4.
    Lz5,
    /// v2 format 10: palette indices in a PNG.
    Png8,
    /// v2 format 11: RGB.
    Png24,
    /// v2 format 12: RGBA.
    Png32,
    /// Any other v2 format number (linked sprites often carry 1, which means nothing).
    Unknown(u8),
}

impl SpriteFormat {
    /// The v2 format for a format byte.
    pub fn from_v2(code: u8) -> SpriteFormat {
        match code {
            0 => SpriteFormat::Raw,
            2 => SpriteFormat::Rle8,
            3 => SpriteFormat::Rle5,
            4 => SpriteFormat::Lz5,
            10 => SpriteFormat::Png8,
            11 => SpriteFormat::Png24,
            12 => SpriteFormat::Png32,
            other => SpriteFormat::Unknown(other),
        }
    }

    /// True for formats whose pixels are palette indices.
    pub fn is_paletted(self) -> bool {
        !matches!(self, SpriteFormat::Png24 | SpriteFormat::Png32)
    }

    /// A short name for listings ("LZ5", "PNG8").
    pub fn name(self) -> String {
        match self {
            SpriteFormat::Pcx => "PCX".into(),
            SpriteFormat::Raw => "raw".into(),
            SpriteFormat::Rle8 => "RLE8".into(),
            SpriteFormat::Rle5 => "RLE5".into(),
            SpriteFormat::Lz5 => "LZ5".into(),
            SpriteFormat::Png8 => "PNG8".into(),
            SpriteFormat::Png24 => "PNG24".into(),
            SpriteFormat::Png32 => "PNG32".into(),
            SpriteFormat::Unknown(n) => format!("format {n}"),
        }
    }
}

/// One sprite as the index describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteInfo {
    /// Group number.
    pub group: u16,
    /// Image number within the group.
    pub image: u16,
    /// Width in pixels (a linked sprite's is its source's).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The axis: the point of the sprite placed at the character's position.
    pub axis: (i32, i32),
    /// How the pixels are stored (a linked sprite's is its source's).
    pub format: SpriteFormat,
    /// For a linked sprite, the index of the sprite whose pixels it shows (links followed to
    /// the end).
    pub linked_to: Option<usize>,
    /// Where the sprite's header or table entry is in the file.
    pub header_offset: u64,
}

/// Where a sprite's pixels are and how to colour them (the parts of the index only decoding
/// needs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteData {
    /// The stored bytes (for v2 including the leading uncompressed length), clamped to the
    /// file. Empty for linked sprites and damaged entries.
    pub range: Range<usize>,
    /// Palette slot (see [`PaletteTable`]); `None` for true-colour sprites or when no palette
    /// could be found.
    pub palette: Option<usize>,
    /// SFF v1: the PCX data ends with its own palette.
    pub pcx_has_palette: bool,
    /// Why the sprite cannot be decoded at all, found while reading the index. Boxed: nearly
    /// every sprite has none, and held in place it tripled the size of each entry.
    pub broken: Option<Box<Diagnostic>>,
}

/// The palettes of an archive. For v2, the palette table in file order (links resolved to
/// the same slot). For v1, the distinct palettes the sprites carry, with the shared one first.
#[derive(Clone, Debug, Default)]
pub struct PaletteTable {
    /// Colours of each slot.
    pub palettes: Vec<Palette>,
    /// For each palette number the archive uses, the slot holding its colours (v2 links
    /// point at the slot they link to).
    pub slots: Vec<usize>,
    /// A label per palette number ("1,1" for v2, "from sprite 9000,0" for v1).
    pub labels: Vec<String>,
    /// The palette number the character's palette choice replaces: v2 palette 1,1 (else the
    /// first), v1 the shared palette (0).
    pub main: Option<usize>,
}

/// A parsed index.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// The sprites, in file order.
    pub sprites: Vec<SpriteInfo>,
    /// Decoding data per sprite, parallel to `sprites`.
    pub data: Vec<SpriteData>,
    /// The palettes.
    pub palettes: PaletteTable,
    /// What was odd about the index.
    pub diagnostics: Vec<Diagnostic>,
}
