//! An SFF archive being edited, as data: its sprite and palette entries over the archive as
//! read, the versions it can be saved as, and how new pixels are stored. Both the edits
//! ([`super::edit`]) and the writer ([`super::write`]) work on these types; keeping them here
//! is what lets the edits decode what the writer stores without the two modules depending on
//! each other.

use super::archive::{SffArchive, SffVersion};
use super::encode::{Codec, EncodeError, SpritePixels, encode_sprite};
use super::index::SpriteFormat;
use super::palette::Palette;
use std::collections::HashMap;
use std::sync::Arc;

/// Where a sprite's pixels come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpriteContent {
    /// The pixels of sprite number `n` of the archive as read: its stored bytes are copied,
    /// and a linked sprite stays linked to whichever entry keeps its source.
    Kept(usize),
    /// Pixels encoded by Sprat.
    Stored(Arc<StoredSprite>),
}

/// A sprite encoded by Sprat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSprite {
    /// The codec it is stored with.
    pub codec: Codec,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The stored bytes (v2: starting with the uncompressed length; v1: a PCX image without
    /// its palette, which the writer appends when the sprite needs one).
    pub data: Vec<u8>,
    /// A hash of the pixels, so identical sprites are stored once and linked.
    pub pixels_hash: u64,
}

/// One sprite of the archive being edited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteEntry {
    /// Group number.
    pub group: u16,
    /// Image number within the group.
    pub image: u16,
    /// The axis.
    pub axis: (i16, i16),
    /// The palette number (into [`EditableSff::palettes`]) that colours it; ignored for true
    /// colour sprites.
    pub palette: usize,
    /// Its pixels.
    pub content: SpriteContent,
}

/// One palette of the archive being edited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaletteEntry {
    /// Group number (v2; 1,1 is the one a character's `.act` files replace).
    pub group: u16,
    /// Item number.
    pub item: u16,
    /// How many colours it holds (v2 stores only those).
    pub count: u16,
    /// The colours.
    pub colours: Palette,
    /// The number of this palette in the archive as read, while its colours are unchanged (its
    /// bytes are then copied as they were).
    pub kept: Option<usize>,
}

/// Why an edit was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditError {
    /// A plain sentence.
    pub message: String,
}

impl EditError {
    /// An error with a message.
    pub fn new(message: impl Into<String>) -> EditError {
        EditError {
            message: message.into(),
        }
    }
}

impl From<EncodeError> for EditError {
    fn from(e: EncodeError) -> EditError {
        EditError::new(e.message)
    }
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// An archive being edited.
#[derive(Clone, Debug)]
pub struct EditableSff {
    /// The archive as read; `None` for a new one.
    pub base: Option<Arc<SffArchive>>,
    /// The version it is saved as.
    pub version: SffVersion,
    /// The sprites, in file order.
    pub sprites: Vec<SpriteEntry>,
    /// The palettes, in file order (v1: the distinct palettes, the shared one first).
    pub palettes: Vec<PaletteEntry>,
    /// True once anything changed (an unchanged archive saves as the bytes it was read from).
    pub changed: bool,
}

/// SFF v1.01.
pub const V1: SffVersion = SffVersion {
    bytes: [0, 1, 0, 1],
};
/// SFF v2.00 (M.U.G.E.N 1.0: no PNG sprites).
pub const V2_00: SffVersion = SffVersion {
    bytes: [0, 0, 0, 2],
};
/// SFF v2.01 (M.U.G.E.N 1.1).
pub const V2_01: SffVersion = SffVersion {
    bytes: [0, 1, 0, 2],
};

/// FNV-1a: identical pixels give identical hashes, so duplicates are found without keeping
/// every decoded sprite.
fn hash_pixels(pixels: &SpritePixels) -> u64 {
    let (width, height) = pixels.size();
    let (kind, bytes) = match pixels {
        SpritePixels::Indexed { indices, .. } => (1u8, indices.as_slice()),
        SpritePixels::Rgba { rgba, .. } => (2u8, rgba.as_slice()),
    };
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in [kind]
        .iter()
        .chain(&width.to_le_bytes())
        .chain(&height.to_le_bytes())
        .chain(bytes)
    {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl EditableSff {
    /// A new, empty v2.01 archive with one palette (1,1) of these colours.
    pub fn new(palette: Palette) -> EditableSff {
        EditableSff {
            base: None,
            version: V2_01,
            sprites: Vec::new(),
            palettes: vec![PaletteEntry {
                group: 1,
                item: 1,
                count: 256,
                colours: palette,
                kept: None,
            }],
            changed: true,
        }
    }

    /// The archive as read, ready to edit (its bytes read into memory when they were kept in
    /// its file; refused when that file changed in place since).
    pub fn from_archive(archive: Arc<SffArchive>) -> Result<EditableSff, EditError> {
        let archive = archive
            .held()
            .map_err(|d| EditError { message: d.message })?;
        let bytes = archive.held_bytes();
        let v2 = archive.version().major() == 2;
        let mut palettes = Vec::with_capacity(archive.palette_count());
        for n in 0..archive.palette_count() {
            let colours = archive.palette(n).cloned().unwrap_or_default();
            let (group, item, count) = if v2 {
                let at = super::bytes::u32_at(bytes, 44).unwrap_or(0) as usize + n * 16;
                let word = |o| super::bytes::u16_at(bytes, at + o).unwrap_or(0);
                (word(0), word(2), word(4))
            } else {
                (1, n as u16 + 1, 256)
            };
            palettes.push(PaletteEntry {
                group,
                item,
                count,
                colours,
                kept: Some(n),
            });
        }
        let sprites = archive
            .sprites()
            .iter()
            .enumerate()
            .map(|(i, info)| {
                let palette = if v2 {
                    super::bytes::u16_at(bytes, info.header_offset as usize + 24).unwrap_or(0)
                        as usize
                } else {
                    archive.stored(i).palette.unwrap_or(0)
                };
                SpriteEntry {
                    group: info.group,
                    image: info.image,
                    axis: (info.axis.0 as i16, info.axis.1 as i16),
                    palette,
                    content: SpriteContent::Kept(i),
                }
            })
            .collect();
        Ok(EditableSff {
            version: archive.version(),
            base: Some(archive),
            sprites,
            palettes,
            changed: false,
        })
    }

    /// The position of sprite (group, image): the first with that pair, as the engines use.
    pub fn find(&self, group: u16, image: u16) -> Option<usize> {
        self.sprites
            .iter()
            .position(|s| s.group == group && s.image == image)
    }

    /// The codec new indexed sprites get by default: the one most of the archive's indexed
    /// sprites use (PCX for v1; RLE8 for an archive with none).
    pub fn default_indexed_codec(&self) -> Codec {
        if self.version.major() == 1 {
            return Codec::Pcx;
        }
        let mut counts: HashMap<Codec, usize> = HashMap::new();
        for codec in self.sprites.iter().filter_map(|s| self.codec_of(s)) {
            if codec.is_indexed() && codec != Codec::Pcx {
                *counts.entry(codec).or_default() += 1;
            }
        }
        counts
            .into_iter()
            .max_by_key(|(codec, n)| (*n, std::cmp::Reverse(*codec as u8)))
            .map_or(Codec::Rle8, |(codec, _)| codec)
    }

    /// The codec a sprite is stored with now.
    pub fn codec_of(&self, sprite: &SpriteEntry) -> Option<Codec> {
        match &sprite.content {
            SpriteContent::Kept(i) => self
                .base
                .as_ref()
                .and_then(|b| b.sprites().get(*i))
                .and_then(|info| Codec::for_format(info.format)),
            SpriteContent::Stored(stored) => Some(stored.codec),
        }
    }

    /// Encodes `pixels` for this archive: indexed pixels with `codec` or the archive's default,
    /// true colour as `codec` or PNG32. An indexed codec that cannot hold the pixels is refused
    /// with the reason.
    pub(super) fn encode(
        &self,
        pixels: &SpritePixels,
        codec: Option<Codec>,
        palette: usize,
    ) -> Result<Arc<StoredSprite>, EditError> {
        let codec = codec.unwrap_or(match pixels {
            SpritePixels::Indexed { .. } => self.default_indexed_codec(),
            SpritePixels::Rgba { .. } => Codec::Png32,
        });
        // v1 PCX data is stored without a palette: the writer appends one where needed.
        let colours = self.palettes.get(palette).map(|p| &p.colours);
        let colours = if codec == Codec::Pcx { None } else { colours };
        let data = encode_sprite(pixels, codec, colours)?;
        let (width, height) = pixels.size();
        Ok(Arc::new(StoredSprite {
            codec,
            width,
            height,
            data,
            pixels_hash: hash_pixels(pixels),
        }))
    }

    /// Saves as SFF v2 from now on (a v1 archive's PCX sprites are re-encoded in `codec`).
    pub fn convert_to_v2(&mut self, codec: Codec) -> Result<(), EditError> {
        if self.version.major() == 2 {
            return Ok(());
        }
        if !codec.is_indexed() || codec == Codec::Pcx {
            return Err(EditError::new(format!(
                "a v1 archive's sprites are palette indices; {} cannot store them",
                codec.format().name()
            )));
        }
        let base = self.base.clone();
        for i in 0..self.sprites.len() {
            if let SpriteContent::Kept(n) = self.sprites[i].content
                && let Some(base) = &base
            {
                let (pixels, _) = base
                    .decode_pixels(n)
                    .map_err(|d| EditError::new(d.message))?;
                let palette = self.sprites[i].palette;
                self.sprites[i].content =
                    SpriteContent::Stored(self.encode(&pixels, Some(codec), palette)?);
            }
            if let SpriteContent::Stored(s) = &self.sprites[i].content
                && s.codec == Codec::Pcx
            {
                return Err(EditError::new("a PCX sprite cannot be stored in SFF v2"));
            }
        }
        self.version = V2_01;
        self.changed = true;
        Ok(())
    }
}

impl SpriteFormat {
    /// True for the formats only SFF v2.01 holds (PNG).
    pub fn needs_v201(self) -> bool {
        matches!(
            self,
            SpriteFormat::Png8 | SpriteFormat::Png24 | SpriteFormat::Png32
        )
    }
}
