//! Writes an [`EditableSff`] as SFF bytes: the bytes it was read from when nothing changed;
//! otherwise a new layout that copies the stored bytes of every sprite and palette nobody
//! touched, keeps linked sprites and palettes linked, and links identical new sprites rather
//! than storing them twice.
//!
//! Layout (what Elecbyte's tools write and both engines read). v2: the 512-byte header, the
//! palette table, the sprite table, then the ldata block (palette colours, then sprite data)
//! and the tdata block (sprites that were stored there in the file as read). v1: the 512-byte
//! header, then each sprite's 32-byte header followed by its PCX data.

use super::archive::{SffArchive, SffVersion};
use super::bytes::{u16_at, u32_at};
use super::edited::{
    EditError, EditableSff, PaletteEntry, SpriteContent, SpriteEntry, StoredSprite, V1, V2_00,
    V2_01,
};
use super::encode::Codec;
use super::index::SIGNATURE;
use super::palette::{Palette, RGB_PALETTE_LEN};
use std::collections::HashMap;
use std::sync::Arc;

/// Size of both versions' file header.
const HEADER_LEN: usize = 512;

/// The bytes of `sff`, in the version it will be saved as ([`version_to_write`]).
pub fn write_sff(sff: &EditableSff) -> Result<Vec<u8>, EditError> {
    if !sff.changed
        && let Some(bytes) = sff.base.as_ref().and_then(|base| base.bytes())
    {
        return Ok(bytes.to_vec());
    }
    let version = version_to_write(sff);
    if version.major() == 1 {
        return write_v1(sff);
    }
    if sff.version.major() == 1 {
        // Something needs v2: the PCX sprites are stored again in the archive's v2 style.
        let mut converted = sff.clone();
        converted.convert_to_v2(Codec::Rle8)?;
        return write_v2(&converted, version);
    }
    write_v2(sff, version)
}

/// The version `sff` is saved as: v1.01 for a v1 archive whose sprites are all PCX; v2.00
/// for a v2.00 archive with no PNG sprite; v2.01 otherwise.
pub fn version_to_write(sff: &EditableSff) -> SffVersion {
    let codecs = || sff.sprites.iter().filter_map(|s| sff.codec_of(s));
    if sff.version.major() == 1 {
        if codecs().all(|c| c == Codec::Pcx) {
            return V1;
        }
        return V2_01;
    }
    if sff.version == V2_00 && !codecs().any(|c| c.format().needs_v201()) {
        return V2_00;
    }
    V2_01
}

fn put_u16(out: &mut [u8], at: usize, value: u16) {
    out[at..at + 2].copy_from_slice(&value.to_le_bytes());
}

fn put_u32(out: &mut [u8], at: usize, value: u32) {
    out[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn too_large(what: &str) -> EditError {
    EditError {
        message: format!("the archive is too large: {what} does not fit SFF's 32-bit offsets"),
    }
}

fn offset(value: usize, what: &str) -> Result<u32, EditError> {
    u32::try_from(value).map_err(|_| too_large(what))
}

/// A header to fill in: the archive's own (keeping whatever text its maker left in the
/// unused bytes) when it was the same major version, else a blank one.
fn header(sff: &EditableSff, version: SffVersion) -> Vec<u8> {
    let mut out = match &sff.base {
        Some(base)
            if base.version().major() == version.major()
                && base.held_bytes().len() >= HEADER_LEN =>
        {
            base.held_bytes()[..HEADER_LEN].to_vec()
        }
        _ => vec![0u8; HEADER_LEN],
    };
    out[..12].copy_from_slice(SIGNATURE);
    out[12..16].copy_from_slice(&version.bytes);
    out
}

/// Where each entry's pixels are stored: `Ok(entry)` for the first entry holding a given
/// source (it stores the data), `Err(holder)` for the others (they link to it).
fn data_holders(sff: &EditableSff) -> Vec<Result<(), usize>> {
    let mut kept: HashMap<usize, usize> = HashMap::new();
    let mut stored: HashMap<(u64, u32, u32), Vec<usize>> = HashMap::new();
    let mut out = Vec::with_capacity(sff.sprites.len());
    for (i, sprite) in sff.sprites.iter().enumerate() {
        let holder = match &sprite.content {
            SpriteContent::Kept(n) => {
                let source = sff
                    .base
                    .as_ref()
                    .and_then(|b| b.sprites().get(*n))
                    .and_then(|info| info.linked_to)
                    .unwrap_or(*n);
                *kept.entry(source).or_insert(i)
            }
            SpriteContent::Stored(s) => {
                let same = stored
                    .entry((s.pixels_hash, s.width, s.height))
                    .or_default();
                let found = same.iter().copied().find(|&j| {
                    matches!(&sff.sprites[j].content, SpriteContent::Stored(t)
                        if t.data == s.data && sff.sprites[j].palette == sprite.palette)
                });
                match found {
                    Some(j) => j,
                    None => {
                        same.push(i);
                        i
                    }
                }
            }
        };
        out.push(if holder == i { Ok(()) } else { Err(holder) });
    }
    out
}

/// What a linked sprite's data offset says. The engines go by the link, so every way reads
/// the same; the writer keeps the archive's own, so an edit elsewhere leaves links as they were.
#[derive(Clone, Copy)]
enum LinkOffset {
    /// 0 (Sprat's own archives and some tools).
    Zero,
    /// Its source's data offset.
    Source,
    /// Where the next sprite's data would go (Elecbyte's sprmaker2).
    Running,
}

impl LinkOffset {
    /// The way the archive as read writes it, judged by its first link with an offset.
    fn of(base: &SffArchive) -> LinkOffset {
        let offset_of = |info: &super::index::SpriteInfo| {
            u32_at(base.held_bytes(), info.header_offset as usize + 16).unwrap_or(0)
        };
        let sprites = base.sprites();
        let first = sprites.iter().find_map(|info| {
            let source = sprites.get(info.linked_to?)?;
            (offset_of(info) != 0).then(|| (offset_of(info), offset_of(source)))
        });
        match first {
            None => LinkOffset::Zero,
            Some((own, source)) if own == source => LinkOffset::Source,
            Some(_) => LinkOffset::Running,
        }
    }
}

/// A kept sprite's data source in the archive as read: (sprite number with data, its info
/// entry offset).
fn kept_source(base: &SffArchive, n: usize) -> usize {
    base.sprites()[n].linked_to.unwrap_or(n)
}

fn write_v2(sff: &EditableSff, version: SffVersion) -> Result<Vec<u8>, EditError> {
    let mut out = header(sff, version);
    // Compatible version: what the engines check before reading. An archive saved as the
    // version it was read as keeps its own (Ikemen's tools leave 2.00 in 2.01 archives).
    if sff.base.as_ref().is_none_or(|b| b.version() != version) {
        out[24..28].copy_from_slice(&version.bytes);
    }
    let palette_table = HEADER_LEN;
    let sprite_table = palette_table + sff.palettes.len() * 16;
    let ldata_start = sprite_table + sff.sprites.len() * 28;
    out.resize(ldata_start, 0);
    let mut ldata: Vec<u8> = Vec::new();
    let mut tdata: Vec<u8> = Vec::new();
    let base = sff.base.as_deref().filter(|b| b.version().major() == 2);

    // Palettes: kept ones copy their entry and bytes; identical colours link to the first.
    let mut first_with: HashMap<&Palette, usize> = HashMap::new();
    for (n, palette) in sff.palettes.iter().enumerate() {
        let at = palette_table + n * 16;
        put_u16(&mut out, at, palette.group);
        put_u16(&mut out, at + 2, palette.item);
        put_u16(&mut out, at + 4, palette.count);
        let raw = kept_palette_bytes(base, palette);
        let link = first_with.get(&palette.colours).copied();
        match (raw, link) {
            (Some(KeptPalette::Link(target)), _) | (None, Some(target)) => {
                put_u16(&mut out, at + 6, target as u16);
            }
            (Some(KeptPalette::Colours(bytes)), _) => {
                put_u32(&mut out, at + 8, offset(ldata.len(), "a palette")?);
                put_u32(&mut out, at + 12, bytes.len() as u32);
                ldata.extend_from_slice(bytes);
            }
            (None, None) => {
                let count = palette.count.clamp(1, 256);
                put_u16(&mut out, at + 4, count);
                put_u32(&mut out, at + 8, offset(ldata.len(), "a palette")?);
                put_u32(&mut out, at + 12, u32::from(count) * 4);
                for i in 0..count {
                    ldata.extend_from_slice(&palette.colours.colour(i as u8));
                }
            }
        }
        first_with.entry(&palette.colours).or_insert(n);
    }

    let holders = data_holders(sff);
    let link_offsets = base.map_or(LinkOffset::Zero, LinkOffset::of);
    for (i, sprite) in sff.sprites.iter().enumerate() {
        let at = sprite_table + i * 28;
        put_u16(&mut out, at, sprite.group);
        put_u16(&mut out, at + 2, sprite.image);
        put_u16(&mut out, at + 8, sprite.axis.0 as u16);
        put_u16(&mut out, at + 10, sprite.axis.1 as u16);
        put_u16(&mut out, at + 24, sprite.palette as u16);
        let EntryData {
            width,
            height,
            code,
            depth,
            data,
            in_tdata,
        } = sprite_data(base, sprite)?;
        put_u16(&mut out, at + 4, width);
        put_u16(&mut out, at + 6, height);
        out[at + 14] = code;
        out[at + 15] = depth;
        match holders[i] {
            Err(holder) => {
                put_u16(&mut out, at + 12, holder as u16);
                // The archive's own habits for a link, so an edit elsewhere leaves it as it
                // was: the codec and depth it said itself, the data offset of its source.
                if let (SpriteContent::Kept(n), Some(base)) = (&sprite.content, base) {
                    let own = base.sprites()[*n].header_offset as usize;
                    out[at + 14..at + 16].copy_from_slice(&base.held_bytes()[own + 14..own + 16]);
                }
                let data_offset = match link_offsets {
                    LinkOffset::Zero => None,
                    LinkOffset::Source => u32_at(&out, sprite_table + holder * 28 + 16),
                    LinkOffset::Running => {
                        let block = if in_tdata { &tdata } else { &ldata };
                        Some(offset(block.len(), "a sprite")?)
                    }
                };
                if let Some(data_offset) = data_offset {
                    put_u32(&mut out, at + 16, data_offset);
                }
            }
            Ok(()) => {
                let block = if in_tdata { &mut tdata } else { &mut ldata };
                put_u32(&mut out, at + 16, offset(block.len(), "a sprite")?);
                put_u32(&mut out, at + 20, offset(data.len(), "a sprite")?);
                put_u16(&mut out, at + 26, u16::from(in_tdata));
                block.extend_from_slice(data);
            }
        }
    }
    if sff.sprites.len() > usize::from(u16::MAX) {
        return Err(EditError {
            message: format!(
                "{} sprites: linked sprites name their source in 16 bits, so an archive holds at most {}",
                sff.sprites.len(),
                u16::MAX
            ),
        });
    }
    let tdata_start = ldata_start + ldata.len();
    put_u32(&mut out, 36, offset(sprite_table, "the sprite table")?);
    put_u32(&mut out, 40, sff.sprites.len() as u32);
    put_u32(&mut out, 44, palette_table as u32);
    put_u32(&mut out, 48, sff.palettes.len() as u32);
    put_u32(&mut out, 52, offset(ldata_start, "ldata")?);
    put_u32(&mut out, 56, offset(ldata.len(), "ldata")?);
    put_u32(&mut out, 60, offset(tdata_start, "tdata")?);
    put_u32(&mut out, 64, offset(tdata.len(), "tdata")?);
    out.extend_from_slice(&ldata);
    out.extend_from_slice(&tdata);
    offset(out.len(), "the file")?;
    Ok(out)
}

enum KeptPalette<'a> {
    Link(usize),
    Colours(&'a [u8]),
}

/// The stored entry of a palette nobody changed, as the v2 archive read holds it.
fn kept_palette_bytes<'a>(
    base: Option<&'a SffArchive>,
    palette: &PaletteEntry,
) -> Option<KeptPalette<'a>> {
    let base = base?;
    let n = palette.kept?;
    let bytes = base.held_bytes();
    let at = u32_at(bytes, 44)? as usize + n * 16;
    let size = u32_at(bytes, at + 12)? as usize;
    if size == 0 {
        return Some(KeptPalette::Link(usize::from(u16_at(bytes, at + 6)?)));
    }
    let start = (u32_at(bytes, 52)? as usize).checked_add(u32_at(bytes, at + 8)? as usize)?;
    bytes
        .get(start..start.checked_add(size)?)
        .map(KeptPalette::Colours)
}

/// What a v2 sprite table entry records of a sprite's data.
struct EntryData<'a> {
    width: u16,
    height: u16,
    code: u8,
    depth: u8,
    data: &'a [u8],
    in_tdata: bool,
}

/// The table fields and stored bytes of a v2 sprite.
fn sprite_data<'a>(
    base: Option<&'a SffArchive>,
    sprite: &'a SpriteEntry,
) -> Result<EntryData<'a>, EditError> {
    match &sprite.content {
        SpriteContent::Stored(s) => {
            let code = s.codec.v2_code().ok_or_else(|| EditError {
                message: format!(
                    "sprite {},{} is a PCX image, which SFF v2 cannot hold",
                    sprite.group, sprite.image
                ),
            })?;
            Ok(EntryData {
                width: s.width as u16,
                height: s.height as u16,
                code,
                depth: s.codec.v2_depth(),
                data: &s.data,
                in_tdata: false,
            })
        }
        SpriteContent::Kept(n) => {
            let base = kept_base(base, sprite)?;
            let source = kept_source(base, *n);
            let info = &base.sprites()[source];
            let bytes = base.held_bytes();
            let entry = info.header_offset as usize;
            let data = &bytes[base.stored(source).range.clone()];
            let flags = u16_at(bytes, entry + 26).unwrap_or(0);
            Ok(EntryData {
                width: info.width as u16,
                height: info.height as u16,
                code: bytes[entry + 14],
                depth: bytes[entry + 15],
                data,
                in_tdata: flags & 1 != 0,
            })
        }
    }
}

fn write_v1(sff: &EditableSff) -> Result<Vec<u8>, EditError> {
    let mut out = header(sff, V1);
    let groups: std::collections::HashSet<u16> = sff.sprites.iter().map(|s| s.group).collect();
    put_u32(&mut out, 16, groups.len() as u32);
    put_u32(&mut out, 20, sff.sprites.len() as u32);
    put_u32(&mut out, 24, HEADER_LEN as u32);
    put_u32(&mut out, 28, 32);
    if sff.base.is_none() {
        out[32] = 1; // shared palette
    }
    let holders = data_holders(sff);
    let base = sff.base.as_deref().filter(|b| b.version().major() == 1);
    // Elecbyte's tools point the last sprite's "next" at the end of the file, others write 0:
    // the archive's own habit is kept, so an edit changes only the entries it touches.
    let last_points_past_end = base.is_some_and(|b| {
        b.sprites().last().is_some_and(|last| {
            u32_at(b.held_bytes(), last.header_offset as usize).is_some_and(|next| next != 0)
        })
    });
    // The palette the engines carry forward to same-palette sprites.
    let mut current: Option<usize> = None;
    for (i, sprite) in sff.sprites.iter().enumerate() {
        let at = out.len();
        out.resize(at + 32, 0);
        put_u16(&mut out, at + 8, sprite.axis.0 as u16);
        put_u16(&mut out, at + 10, sprite.axis.1 as u16);
        put_u16(&mut out, at + 12, sprite.group);
        put_u16(&mut out, at + 14, sprite.image);
        match holders[i] {
            Err(holder) => {
                put_u16(&mut out, at + 16, holder as u16);
                out[at + 18] = 1;
            }
            Ok(()) => {
                let (pcx, carried) = pcx_without_palette(base, sprite)?;
                let carry = carried || current != Some(sprite.palette);
                out.extend_from_slice(pcx);
                if carry {
                    let colours = sff
                        .palettes
                        .get(sprite.palette)
                        .map(|p| p.colours.clone())
                        .unwrap_or_default();
                    out.push(0x0C);
                    for c in 0..=255u8 {
                        out.extend_from_slice(&colours.colour(c)[..3]);
                    }
                    current = Some(sprite.palette);
                }
                out[at + 18] = u8::from(!carry);
                let length = match length_as_read(base, sprite, &out[at + 32..]) {
                    Some(length) => length,
                    None => offset(out.len() - at - 32, "a sprite")?,
                };
                put_u32(&mut out, at + 4, length);
            }
        }
        let next = if i + 1 < sff.sprites.len() || last_points_past_end {
            out.len()
        } else {
            0
        };
        put_u32(&mut out, at, offset(next, "a sprite header")?);
    }
    Ok(out)
}

/// The length field of a kept v1 sprite whose data is written as it was read: kept as it
/// was, whatever it says. Elecbyte's tools left the 768 palette bytes a same-palette sprite
/// leaves out counted in some archives' fields (readers go by the next header), and a save
/// never repairs what the user did not touch. `None` for any other sprite.
fn length_as_read(base: Option<&SffArchive>, sprite: &SpriteEntry, written: &[u8]) -> Option<u32> {
    let (base, SpriteContent::Kept(n)) = (base?, &sprite.content) else {
        return None;
    };
    let info = base.sprites().get(*n)?;
    // A link's entry has no data of its own; its target's is another entry's.
    if info.linked_to.is_some() {
        return None;
    }
    let bytes = base.held_bytes();
    (bytes.get(base.stored(*n).range.clone())? == written)
        .then(|| u32_at(bytes, info.header_offset as usize + 4))
        .flatten()
}

/// The archive whose data a kept sprite keeps, or why there is none to keep.
fn kept_base<'a>(
    base: Option<&'a SffArchive>,
    sprite: &SpriteEntry,
) -> Result<&'a SffArchive, EditError> {
    base.ok_or_else(|| EditError {
        message: format!(
            "sprite {},{} refers to an archive that is not there",
            sprite.group, sprite.image
        ),
    })
}

/// A v1 sprite's PCX data without a trailing palette, and whether it carried one in the file
/// as read (such a sprite keeps carrying it).
fn pcx_without_palette<'a>(
    base: Option<&'a SffArchive>,
    sprite: &'a SpriteEntry,
) -> Result<(&'a [u8], bool), EditError> {
    match &sprite.content {
        SpriteContent::Stored(s) => Ok((&s.data, false)),
        SpriteContent::Kept(n) => {
            let base = kept_base(base, sprite)?;
            let data = base.stored(kept_source(base, *n));
            let bytes = &base.held_bytes()[data.range.clone()];
            if data.pcx_has_palette {
                Ok((&bytes[..bytes.len() - (RGB_PALETTE_LEN + 1)], true))
            } else {
                Ok((bytes, false))
            }
        }
    }
}

/// An archive holding only `stored` (numbered 0,0, grey palette), so it decodes through the
/// reader's own code.
pub fn single_sprite_archive(stored: &StoredSprite) -> Result<SffArchive, EditError> {
    let mut sff = EditableSff::new(Palette::grey_ramp());
    sff.version = if stored.codec == Codec::Pcx {
        V1
    } else {
        V2_01
    };
    sff.sprites.push(SpriteEntry {
        group: 0,
        image: 0,
        axis: (0, 0),
        palette: 0,
        content: SpriteContent::Stored(Arc::new(stored.clone())),
    });
    let bytes = write_sff(&sff)?;
    SffArchive::parse(bytes).map_err(|d| EditError { message: d.message })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::sff::encode::SpritePixels;

    fn pixels(seed: u8) -> SpritePixels {
        SpritePixels::Indexed {
            width: 5,
            height: 3,
            indices: (0..15).map(|i| (i * seed) % 31).collect(),
        }
    }

    #[test]
    fn a_new_archive_reads_back_with_its_sprites_links_and_palette() {
        let mut palette = Palette::grey_ramp();
        palette.set_colour(3, [200, 10, 20, 255]);
        let mut sff = EditableSff::new(palette.clone());
        for (n, codec) in Codec::V2.iter().enumerate().filter(|(_, c)| c.is_indexed()) {
            sff.add_sprite(1, n as u16, (2, -3), &pixels(3), 0, Some(*codec))
                .unwrap();
        }
        sff.add_sprite(2, 0, (0, 0), &pixels(3), 0, Some(Codec::Lz5))
            .unwrap();
        let bytes = write_sff(&sff).unwrap();
        let archive = SffArchive::parse(bytes).unwrap();
        assert!(
            archive.diagnostics().is_empty(),
            "{:?}",
            archive.diagnostics()
        );
        assert_eq!(archive.version(), V2_01);
        assert_eq!(archive.palette(0), Some(&palette));
        let lz5 = archive.find(1, 3).unwrap();
        let linked = archive.find(2, 0).unwrap();
        assert_eq!(archive.sprites()[linked].linked_to, Some(lz5));
        for i in 0..archive.sprites().len() {
            let (p, warnings) = archive.decode_pixels(i).unwrap();
            assert!(warnings.is_empty());
            assert_eq!(p, pixels(3));
            assert_eq!(archive.sprites()[i].axis.0, if i == linked { 0 } else { 2 });
        }
    }

    #[test]
    fn a_v1_archive_with_pcx_sprites_stays_v1() {
        let mut sff = EditableSff::new(Palette::grey_ramp());
        sff.version = V1;
        sff.add_sprite(0, 0, (1, 1), &pixels(5), 0, None).unwrap();
        sff.add_sprite(0, 1, (1, 1), &pixels(7), 0, None).unwrap();
        let archive = SffArchive::parse(write_sff(&sff).unwrap()).unwrap();
        assert_eq!(archive.version(), V1);
        assert!(
            archive.diagnostics().is_empty(),
            "{:?}",
            archive.diagnostics()
        );
        assert_eq!(archive.decode_pixels(1).unwrap().0, pixels(7));
    }
}
