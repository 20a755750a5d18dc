//! An SFF archive: the index read at once, the pixels decoded when asked for.

use super::bytes::u32_at;
use super::encode::SpritePixels;
use super::index::{Index, SIGNATURE, SpriteFormat, SpriteInfo};
use super::indexed::{CodecError, CodecRun};
use super::lz5::{LZ5_MAX_RATIO, decode_lz5};
use super::palette::{Palette, indices_to_rgba};
use super::pcx::{PCX_MAX_RATIO, PcxHeader, decode_pcx};
use super::png::{decode_png_indices, decode_png_rgba};
use super::rle::{RLE5_MAX_RATIO, RLE8_MAX_RATIO, decode_rle5, decode_rle8};
use super::v1::parse_v1;
use super::v2::parse_v2;
use crate::formats::Diagnostic;
use crate::formats::input::KeptFile;
use image::RgbaImage;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

/// The largest sprite Sprat decodes, in pixels (8192 x 4096): far above any real sprite or
/// stage layer, and small enough that a lying header cannot exhaust memory.
pub const MAX_SPRITE_PIXELS: usize = 1 << 25;

/// The version an archive declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SffVersion {
    /// The four version bytes, low to high as stored (`[0, 1, 0, 2]` is v2.01).
    pub bytes: [u8; 4],
}

impl SffVersion {
    /// 1 or 2.
    pub fn major(self) -> u8 {
        self.bytes[3]
    }
}

impl fmt::Display for SffVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}{}", self.bytes[3], self.bytes[2], self.bytes[1])
    }
}

/// Which colours paletted sprites are drawn with.
#[derive(Clone, Copy, Debug, Default)]
pub enum PaletteChoice<'a> {
    /// The archive's own colours.
    #[default]
    Own,
    /// Palette number `n` of the archive (see [`SffArchive::palette_count`]) replaces the main
    /// palette (v2: 1,1; v1: the shared palette).
    Embedded(usize),
    /// These colours (a `.act` file) replace the main palette.
    Colours(&'a Palette),
}

/// A decoded sprite.
#[derive(Clone, Debug)]
pub struct DecodedSprite {
    /// The pixels; colour index 0 is transparent.
    pub image: RgbaImage,
    /// The sprite's axis in its pixels.
    pub axis: (i32, i32),
    /// Damage that did not stop decoding (data ending early, sizes that disagree).
    pub warnings: Vec<Diagnostic>,
}

/// An archive larger than this, opened from its file on Unix, keeps its sprites' bytes in the file
/// and reads each when it is decoded: a full-HD character's 139 MB archive would otherwise
/// stay in memory whole while one sprite at a time is drawn.
pub const KEPT_IN_FILE_FROM: u64 = 16 << 20;

/// Where an archive's bytes are.
enum ArchiveBytes {
    /// All of them, in memory (shared with whoever read them: a document holding the file as
    /// read, a fingerprint being taken).
    Held(Arc<Vec<u8>>),
    /// In the file they were read from, kept open: only the index was kept.
    InFile(KeptFile),
}

/// An SFF v1 or v2 archive: its index, and its bytes held in memory or kept in its file.
pub struct SffArchive {
    bytes: ArchiveBytes,
    version: SffVersion,
    index: Index,
    by_number: HashMap<(u16, u16), usize>,
}

impl fmt::Debug for SffArchive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SffArchive")
            .field("version", &self.version)
            .field("bytes", &self.file_len())
            .field("sprites", &self.index.sprites.len())
            .field("palettes", &self.index.palettes.palettes.len())
            .finish()
    }
}

impl SffArchive {
    /// Reads the index of `bytes`. `Err` only when the bytes are not an SFF at all (wrong
    /// signature or version); damage past that is reported by [`SffArchive::diagnostics`].
    pub fn parse(bytes: Vec<u8>) -> Result<SffArchive, Diagnostic> {
        SffArchive::parse_shared(Arc::new(bytes))
    }

    /// [`SffArchive::parse`] of bytes shared with their reader, not copied.
    pub fn parse_shared(bytes: Arc<Vec<u8>>) -> Result<SffArchive, Diagnostic> {
        let parts = IndexParts::read(&bytes)?;
        Ok(parts.with_bytes(ArchiveBytes::Held(bytes)))
    }

    /// Reads a file from disk. One larger than [`KEPT_IN_FILE_FROM`] keeps its sprites'
    /// bytes in the file ([`SffArchive::open_kept_in_file`]).
    pub fn open(path: &Path) -> Result<SffArchive, Diagnostic> {
        SffArchive::read(path).map(|(archive, _)| archive)
    }

    /// [`SffArchive::open`], with the bytes read (to take the file's fingerprint from, say),
    /// shared with the archive when it holds them.
    pub fn read(path: &Path) -> Result<(SffArchive, Arc<Vec<u8>>), Diagnostic> {
        let large = crate::formats::input::metadata(path)
            .is_some_and(|facts| facts.len > KEPT_IN_FILE_FROM);
        if large {
            return SffArchive::read_kept_in_file(path);
        }
        let bytes = Arc::new(crate::formats::read_file(path).map_err(|e| cannot_read(path, &e))?);
        Ok((SffArchive::parse_shared(Arc::clone(&bytes))?, bytes))
    }

    /// Reads a file from disk keeping only its index: each sprite's bytes are read from the
    /// file, kept open, when it is decoded. A file provided without a disk, or changed while it
    /// was read, is held in memory instead.
    pub fn open_kept_in_file(path: &Path) -> Result<SffArchive, Diagnostic> {
        SffArchive::read_kept_in_file(path).map(|(archive, _)| archive)
    }

    /// [`SffArchive::open_kept_in_file`], with the bytes read.
    fn read_kept_in_file(path: &Path) -> Result<(SffArchive, Arc<Vec<u8>>), Diagnostic> {
        let (bytes, kept) =
            crate::formats::input::read_file_kept(path).map_err(|e| cannot_read(path, &e))?;
        let bytes = Arc::new(bytes);
        let Some(kept) = kept else {
            return Ok((SffArchive::parse_shared(Arc::clone(&bytes))?, bytes));
        };
        let archive = IndexParts::read(&bytes)?.with_bytes(ArchiveBytes::InFile(kept));
        Ok((archive, bytes))
    }

    /// This archive with all its bytes in memory (itself when it holds them): what editing
    /// and writing it need. Refused when its file cannot be read again as it was.
    pub fn held(self: &Arc<SffArchive>) -> Result<Arc<SffArchive>, Diagnostic> {
        // Read again through the kept file, so the bytes are those the index was read from
        // (or refused when the file was changed in place since).
        match &self.bytes {
            ArchiveBytes::Held(_) => Ok(Arc::clone(self)),
            ArchiveBytes::InFile(file) => {
                let bytes = file.read_all().map_err(|e| cannot_read(file.path(), &e))?;
                SffArchive::parse(bytes).map(Arc::new)
            }
        }
    }

    /// The declared version.
    pub fn version(&self) -> SffVersion {
        self.version
    }

    /// The file's bytes, when the archive holds them (see [`SffArchive::held`]); `None` when
    /// they are kept in its file.
    pub fn bytes(&self) -> Option<&[u8]> {
        match &self.bytes {
            ArchiveBytes::Held(bytes) => Some(bytes),
            ArchiveBytes::InFile(_) => None,
        }
    }

    /// The bytes of an archive that holds them; empty for one kept in its file. For the
    /// writer and the editing model, which only ever start from an archive
    /// [`SffArchive::held`] gave.
    pub(crate) fn held_bytes(&self) -> &[u8] {
        self.bytes().unwrap_or_default()
    }

    /// The file's length in bytes.
    pub fn file_len(&self) -> u64 {
        match &self.bytes {
            ArchiveBytes::Held(bytes) => bytes.len() as u64,
            ArchiveBytes::InFile(file) => file.len(),
        }
    }

    /// Whether the archive's bytes are kept in its file rather than in memory.
    pub fn is_kept_in_file(&self) -> bool {
        matches!(self.bytes, ArchiveBytes::InFile(_))
    }

    /// The bytes at `range` of the file (a sprite's stored data, whose range the index
    /// checked against the bytes read): borrowed when held, read from the file when kept
    /// there.
    fn bytes_at(&self, range: Range<usize>) -> Result<Cow<'_, [u8]>, Diagnostic> {
        let start = range.start as u64;
        match &self.bytes {
            ArchiveBytes::Held(bytes) => bytes.get(range).map(Cow::Borrowed).ok_or_else(|| {
                Diagnostic::error_at_byte(start, "the sprite's data passes the end of the file")
            }),
            ArchiveBytes::InFile(file) => file.read_range(range).map(Cow::Owned).map_err(|e| {
                Diagnostic::error_at_byte(start, format!("cannot read the sprite's data: {e}"))
            }),
        }
    }

    /// Every sprite, in file order.
    pub fn sprites(&self) -> &[SpriteInfo] {
        &self.index.sprites
    }

    /// What was odd about the index (decoding problems come from [`SffArchive::decode`]).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.index.diagnostics
    }

    /// The sprite numbered (group, image): the first in the file with that pair. Negative
    /// numbers (AIR's blank sprite) find nothing.
    pub fn find(&self, group: i32, image: i32) -> Option<usize> {
        let group = u16::try_from(group).ok()?;
        let image = u16::try_from(image).ok()?;
        self.by_number.get(&(group, image)).copied()
    }

    /// How many palettes the archive has (v2: its palette table; v1: its distinct palettes,
    /// the shared one first).
    pub fn palette_count(&self) -> usize {
        self.index.palettes.palettes.len()
    }

    /// Palette number `n`'s colours.
    pub fn palette(&self, n: usize) -> Option<&Palette> {
        self.index.palettes.palettes.get(n)
    }

    /// A label for palette `n` ("1,1" for v2, "from sprite 0,0" for v1).
    pub fn palette_label(&self, n: usize) -> Option<&str> {
        self.index.palettes.labels.get(n).map(String::as_str)
    }

    /// The palette number a palette choice replaces (v2: 1,1, else the first; v1: the shared
    /// palette), if the archive has palettes.
    pub fn main_palette(&self) -> Option<usize> {
        self.index.palettes.main
    }

    /// The palette sprite `index` is drawn with under `choice`, if it is paletted.
    pub(crate) fn colours_for<'a>(
        &'a self,
        index: usize,
        choice: PaletteChoice<'a>,
    ) -> Option<&'a Palette> {
        let table = &self.index.palettes;
        let own = self.index.data[index].palette?;
        let uses_main = table
            .main
            .is_some_and(|main| table.slots.get(own) == table.slots.get(main));
        if uses_main {
            match choice {
                PaletteChoice::Own => {}
                PaletteChoice::Embedded(n) => {
                    if let Some(p) = table.palettes.get(n) {
                        return Some(p);
                    }
                }
                PaletteChoice::Colours(p) => return Some(p),
            }
        }
        table.palettes.get(own)
    }

    /// Decodes sprite `index` (a position in [`SffArchive::sprites`]) to RGBA with colour index
    /// 0 transparent. `Err` names what is wrong and where in the file.
    pub fn decode(
        &self,
        index: usize,
        choice: PaletteChoice<'_>,
    ) -> Result<DecodedSprite, Diagnostic> {
        let (pixels, warnings) = self.decode_pixels(index)?;
        let axis = self.index.sprites[index].axis;
        match pixels {
            SpritePixels::Indexed {
                width,
                height,
                indices,
            } => {
                let fallback;
                let palette = match self.colours_for(index, choice) {
                    Some(palette) => palette,
                    None => {
                        fallback = Palette::grey_ramp();
                        &fallback
                    }
                };
                Ok(finish(width, height, &indices, palette, axis, warnings))
            }
            SpritePixels::Rgba {
                width,
                height,
                rgba,
            } => {
                let image = RgbaImage::from_raw(width, height, rgba).ok_or_else(|| {
                    Diagnostic::error_at_byte(
                        self.index.data[index].range.start as u64,
                        "PNG pixels do not fill the image",
                    )
                })?;
                Ok(DecodedSprite {
                    image,
                    axis,
                    warnings,
                })
            }
        }
    }

    /// Decodes sprite `index` to what it stores: palette indices, or RGBA for PNG24/32, with
    /// the damage that did not stop decoding.
    pub fn decode_pixels(
        &self,
        index: usize,
    ) -> Result<(SpritePixels, Vec<Diagnostic>), Diagnostic> {
        let info = self.index.sprites.get(index).ok_or_else(|| {
            Diagnostic::error_at_byte(0, format!("there is no sprite number {index}"))
        })?;
        let data = &self.index.data[index];
        if let Some(broken) = &data.broken {
            return Err((**broken).clone());
        }
        let stored = self.bytes_at(data.range.clone())?;
        let stored = &stored[..];
        let base = data.range.start as u64;
        let name = format!("sprite {},{}", info.group, info.image);
        let at = |e: CodecError| {
            Diagnostic::error_at_byte(base + e.offset as u64, format!("{name}: {}", e.message))
        };
        let mut warnings = Vec::new();
        let indexed = |width: u32, height: u32, indices: Vec<u8>| SpritePixels::Indexed {
            width,
            height,
            indices,
        };

        if info.format == SpriteFormat::Pcx {
            let header = PcxHeader::parse(stored).map_err(at)?;
            let mut pixels = self.index_buffer(
                &name,
                base,
                header.width,
                header.height,
                stored.len(),
                if header.encoding == 1 {
                    PCX_MAX_RATIO
                } else {
                    1
                },
            )?;
            let run = decode_pcx(stored, &header, data.pcx_has_palette, &mut pixels).map_err(at)?;
            self.note_short(&name, base, run, pixels.len(), &mut warnings);
            return Ok((indexed(header.width, header.height, pixels), warnings));
        }

        // Every v2 format but raw starts with the uncompressed length.
        let (declared, payload, payload_base) = if info.format == SpriteFormat::Raw {
            (None, stored, base)
        } else {
            let declared = u32_at(stored, 0).ok_or_else(|| {
                Diagnostic::error_at_byte(
                    base,
                    format!("{name}: its data is shorter than the 4-byte length it starts with"),
                )
            })?;
            (Some(declared as usize), &stored[4..], base + 4)
        };
        let at = |e: CodecError| {
            Diagnostic::error_at_byte(
                payload_base + e.offset as u64,
                format!("{name}: {}", e.message),
            )
        };
        let (width, height) = (info.width, info.height);
        let codec: fn(&[u8], &mut [u8]) -> Result<CodecRun, CodecError> = match info.format {
            SpriteFormat::Raw => raw_copy,
            SpriteFormat::Rle8 => decode_rle8,
            SpriteFormat::Rle5 => decode_rle5,
            SpriteFormat::Lz5 => decode_lz5,
            SpriteFormat::Png8 => {
                let png = decode_png_indices(payload, MAX_SPRITE_PIXELS).map_err(at)?;
                self.note_png_size(&name, info, png.width, png.height, &mut warnings);
                return Ok((indexed(png.width, png.height, png.data), warnings));
            }
            SpriteFormat::Png24 | SpriteFormat::Png32 => {
                let png = decode_png_rgba(payload, MAX_SPRITE_PIXELS).map_err(at)?;
                self.note_png_size(&name, info, png.width, png.height, &mut warnings);
                let pixels = SpritePixels::Rgba {
                    width: png.width,
                    height: png.height,
                    rgba: png.data,
                };
                return Ok((pixels, warnings));
            }
            SpriteFormat::Pcx | SpriteFormat::Unknown(_) => {
                return Err(Diagnostic::error_at_byte(
                    info.header_offset,
                    format!(
                        "{name} uses {}, which SFF v2 does not define",
                        info.format.name()
                    ),
                ));
            }
        };
        let ratio = match info.format {
            SpriteFormat::Rle8 => RLE8_MAX_RATIO,
            SpriteFormat::Rle5 => RLE5_MAX_RATIO,
            SpriteFormat::Lz5 => LZ5_MAX_RATIO,
            _ => 1,
        };
        let mut pixels =
            self.index_buffer(&name, payload_base, width, height, payload.len(), ratio)?;
        if let Some(declared) = declared
            && declared != pixels.len()
        {
            warnings.push(Diagnostic::warning_at_byte(
                base,
                format!(
                    "{name}: the data says it unpacks to {declared} bytes, the sprite is {width}x{height} = {}",
                    pixels.len()
                ),
            ));
        }
        let run = codec(payload, &mut pixels).map_err(at)?;
        self.note_short(&name, payload_base, run, pixels.len(), &mut warnings);
        Ok((indexed(width, height, pixels), warnings))
    }

    /// The bytes sprite `index` stores (a linked sprite's are its source's; for v2 including
    /// the leading uncompressed length), read from the file when they are kept there.
    pub fn stored_bytes(&self, index: usize) -> Option<Cow<'_, [u8]>> {
        let data = self.index.data.get(index)?;
        self.bytes_at(data.range.clone()).ok()
    }

    /// Where sprite `index`'s stored bytes are (a linked sprite's are its source's), which
    /// palette number colours it, and (v1) whether its PCX data ends with its own palette.
    pub(crate) fn stored(&self, index: usize) -> &super::index::SpriteData {
        &self.index.data[index]
    }

    /// A zeroed index buffer for a `width` x `height` sprite, refused when the stored bytes
    /// could not possibly fill it (a lying header) or it is past [`MAX_SPRITE_PIXELS`].
    fn index_buffer(
        &self,
        name: &str,
        offset: u64,
        width: u32,
        height: u32,
        input_len: usize,
        max_ratio: usize,
    ) -> Result<Vec<u8>, Diagnostic> {
        let pixels = width as usize * height as usize;
        let producible = input_len.saturating_mul(max_ratio);
        if pixels > MAX_SPRITE_PIXELS {
            return Err(Diagnostic::error_at_byte(
                offset,
                format!(
                    "{name} claims {width}x{height} pixels, more than Sprat decodes ({MAX_SPRITE_PIXELS})"
                ),
            ));
        }
        if pixels > producible {
            return Err(Diagnostic::error_at_byte(
                offset,
                format!(
                    "{name} claims {width}x{height} pixels, but its {input_len} bytes of data can hold at most {producible}"
                ),
            ));
        }
        Ok(vec![0; pixels])
    }

    fn note_short(
        &self,
        name: &str,
        offset: u64,
        run: CodecRun,
        total: usize,
        warnings: &mut Vec<Diagnostic>,
    ) {
        if run.produced < total {
            warnings.push(Diagnostic::warning_at_byte(
                offset,
                format!(
                    "{name}: the data ends after {} of {total} pixels; the rest is left transparent",
                    run.produced
                ),
            ));
        }
    }

    fn note_png_size(
        &self,
        name: &str,
        info: &SpriteInfo,
        width: u32,
        height: u32,
        warnings: &mut Vec<Diagnostic>,
    ) {
        if (width, height) != (info.width, info.height) {
            warnings.push(Diagnostic::warning_at_byte(
                info.header_offset + 4,
                format!(
                    "{name}: the table says {}x{} but the PNG is {width}x{height}; using the PNG's size",
                    info.width, info.height
                ),
            ));
        }
    }

    /// The sprite whose decoded pixels sprite `index` shares: its link's target when both
    /// are drawn with the same palette, else itself. Callers decode each such sprite once.
    pub fn same_pixels_as(&self, index: usize) -> usize {
        match self.index.sprites.get(index).and_then(|s| s.linked_to) {
            Some(target) if self.index.data[target].palette == self.index.data[index].palette => {
                target
            }
            _ => index,
        }
    }

    /// Decodes every sprite (for `sprat check`), in file order.
    pub fn decode_all(&self, choice: PaletteChoice<'_>) -> Vec<Result<DecodedSprite, Diagnostic>> {
        (0..self.index.sprites.len())
            .map(|i| self.decode(i, choice))
            .collect()
    }

    /// Every problem in the archive: the index's, then each sprite's decoding errors and
    /// warnings. Decodes every sprite and keeps none of the pixels. The sprites are decoded on
    /// every thread of the current thread pool; what they say is put together in archive
    /// order, so the report is the same whatever the number of threads.
    pub fn check(&self) -> Vec<Diagnostic> {
        use rayon::prelude::*;
        let mut out = self.index.diagnostics.clone();
        let decoded: Vec<Result<Vec<Diagnostic>, Diagnostic>> = (0..self.index.sprites.len())
            .into_par_iter()
            // A link shows its target's bytes, which are decoded (and reported) at the target.
            .filter(|&i| self.same_pixels_as(i) == i)
            .map(|i| {
                self.decode(i, PaletteChoice::Own)
                    .map(|sprite| sprite.warnings)
            })
            .collect();
        for result in decoded {
            match result {
                Ok(warnings) => out.extend(warnings),
                Err(e) => {
                    if !out.contains(&e) {
                        out.push(e);
                    }
                }
            }
        }
        out
    }
}

/// What reading an archive's index gives.
struct IndexParts {
    version: SffVersion,
    index: Index,
    by_number: HashMap<(u16, u16), usize>,
}

impl IndexParts {
    /// Reads the index of `bytes` (see [`SffArchive::parse`]).
    fn read(bytes: &[u8]) -> Result<IndexParts, Diagnostic> {
        if bytes.len() < 16 || &bytes[..12] != SIGNATURE {
            return Err(Diagnostic::error_at_byte(
                0,
                "not an SFF file: it does not start with \"ElecbyteSpr\"",
            ));
        }
        let version = SffVersion {
            bytes: [bytes[12], bytes[13], bytes[14], bytes[15]],
        };
        let index = match version.major() {
            1 => parse_v1(bytes),
            // v2.00 palettes carry alpha bytes that mean nothing; v2.01's are real.
            2 => parse_v2(bytes, version.bytes[2] != 0 || version.bytes[1] != 0),
            _ => {
                return Err(Diagnostic::error_at_byte(
                    12,
                    format!("SFF version {version} is not one Sprat reads (1.x or 2.x)"),
                ));
            }
        };
        let mut by_number = HashMap::with_capacity(index.sprites.len());
        for (i, s) in index.sprites.iter().enumerate() {
            by_number.entry((s.group, s.image)).or_insert(i);
        }
        Ok(IndexParts {
            version,
            index,
            by_number,
        })
    }

    fn with_bytes(self, bytes: ArchiveBytes) -> SffArchive {
        SffArchive {
            bytes,
            version: self.version,
            index: self.index,
            by_number: self.by_number,
        }
    }
}

/// The diagnostic of a file that cannot be read.
fn cannot_read(path: &Path, error: &crate::formats::InputError) -> Diagnostic {
    Diagnostic::new(
        crate::formats::Severity::Error,
        crate::formats::Location::File,
        format!("cannot read {}: {error}", path.display()),
    )
}

fn raw_copy(input: &[u8], pixels: &mut [u8]) -> Result<CodecRun, CodecError> {
    let n = input.len().min(pixels.len());
    pixels[..n].copy_from_slice(&input[..n]);
    Ok(CodecRun { produced: n })
}

fn finish(
    width: u32,
    height: u32,
    indices: &[u8],
    palette: &Palette,
    axis: (i32, i32),
    warnings: Vec<Diagnostic>,
) -> DecodedSprite {
    let rgba = indices_to_rgba(indices, palette);
    let image = RgbaImage::from_raw(width, height, rgba).unwrap_or_else(|| RgbaImage::new(0, 0));
    DecodedSprite {
        image,
        axis,
        warnings,
    }
}
