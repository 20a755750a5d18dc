//! Each chunk kind of an Aseprite frame, read into the [`Sprite`] being built.
//!
//! User data chunks describe the object read just before them (a layer, a cel, the sprite
//! after the first palette, each tag in turn after a tags chunk, a slice, a tileset), which
//! [`State::attach`] tracks. Unknown and deprecated chunks (mask, path) are skipped.

use super::cursor::{Cursor, ParseError, fail};
use super::file::{
    CEL_COMPRESSED, CEL_LINKED, CEL_TILEMAP, CHUNK_CEL, CHUNK_CEL_EXTRA, CHUNK_HEADER_SIZE,
    CHUNK_LAYER, CHUNK_PALETTE, CHUNK_SLICE, CHUNK_TAGS, CHUNK_USER_DATA,
};
use super::pixels::{inflate, raw_or_inflated};
use super::scan::TagDirection;
use super::sprite::{
    Cel, CelContent, CelExtra, ColorProfile, ExternalFile, HEADER_COMPOSITE_GROUPS,
    HEADER_LAYER_OPACITY, HEADER_LAYER_UUIDS, Layer, LayerKind, Palette, Pixels, Slice, SliceKey,
    Sprite, Tag, Tiles, Tileset, UserData, layer_flags,
};
use super::user_data::user_data;

const CHUNK_OLD_PALETTE: u16 = 0x0004;
const CHUNK_OLD_PALETTE_6BIT: u16 = 0x0011;
const CHUNK_COLOR_PROFILE: u16 = 0x2007;
const CHUNK_EXTERNAL_FILES: u16 = 0x2008;
const CHUNK_TILESET: u16 = 0x2023;
const CEL_RAW: u16 = 0;

/// The largest palette Aseprite makes.
const MAX_PALETTE: u32 = 65536;

/// What the next user data chunk describes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Attach {
    /// Nothing (its data is read and dropped).
    #[default]
    Nothing,
    /// The sprite.
    Sprite,
    /// A layer.
    Layer(usize),
    /// A cel.
    Cel(usize),
    /// The tag at this index, then the next ones.
    Tag(usize),
    /// A slice.
    Slice(usize),
    /// A tileset, then its tiles (whose user data is not kept).
    Tileset(usize),
    /// A tileset's tiles.
    Tiles,
}

/// What reading a chunk needs from the chunks before it.
#[derive(Debug, Default)]
pub struct State {
    /// What the next user data chunk describes.
    pub attach: Attach,
    /// The layers that a new layer may sit under: the last layer read at each level.
    open_layers: Vec<usize>,
    /// A new palette chunk was seen: the old ones are ignored from then on.
    new_palette_seen: bool,
}

/// Reads the chunk `bytes[start..end]` of `kind` in frame `frame`.
pub fn read(
    bytes: &[u8],
    start: usize,
    end: usize,
    kind: u16,
    frame: u16,
    sprite: &mut Sprite,
    state: &mut State,
) -> Result<(), ParseError> {
    let data = start + CHUNK_HEADER_SIZE;
    let name = match kind {
        CHUNK_LAYER => "layer",
        CHUNK_CEL => "cel",
        CHUNK_CEL_EXTRA => "cel extra",
        CHUNK_COLOR_PROFILE => "colour profile",
        CHUNK_EXTERNAL_FILES => "external files",
        CHUNK_TAGS => "tags",
        CHUNK_PALETTE | CHUNK_OLD_PALETTE | CHUNK_OLD_PALETTE_6BIT => "palette",
        CHUNK_USER_DATA => "user data",
        CHUNK_SLICE => "slice",
        CHUNK_TILESET => "tileset",
        _ => return Ok(()),
    };
    let mut cursor = Cursor::new(bytes, data, end, name);
    match kind {
        CHUNK_LAYER => layer(&mut cursor, sprite, state),
        CHUNK_CEL => cel(&mut cursor, frame, sprite, state),
        CHUNK_CEL_EXTRA => cel_extra(&mut cursor, sprite, state),
        CHUNK_COLOR_PROFILE => color_profile(&mut cursor, sprite),
        CHUNK_EXTERNAL_FILES => external_files(&mut cursor, sprite),
        CHUNK_TAGS => tags(&mut cursor, sprite, state),
        CHUNK_PALETTE => palette(&mut cursor, frame, sprite, state),
        CHUNK_OLD_PALETTE | CHUNK_OLD_PALETTE_6BIT => old_palette(
            &mut cursor,
            kind == CHUNK_OLD_PALETTE_6BIT,
            frame,
            sprite,
            state,
        ),
        CHUNK_USER_DATA => attach_user_data(&mut cursor, sprite, state),
        CHUNK_SLICE => slice(&mut cursor, sprite, state),
        CHUNK_TILESET => tileset(&mut cursor, sprite, state),
        _ => Ok(()),
    }
}

/// A layer chunk; a layer nested under something that is not a group is refused.
fn layer(cursor: &mut Cursor, sprite: &mut Sprite, state: &mut State) -> Result<(), ParseError> {
    let start = cursor.at;
    let flags = cursor.word()?;
    let kind_code = cursor.word()?;
    let child_level = cursor.word()?;
    cursor.skip(4)?;
    let blend_code = cursor.word()?;
    let stored_opacity = cursor.byte()?;
    cursor.skip(3)?;
    let name = cursor.string()?;
    let kind = match kind_code {
        0 => LayerKind::Image,
        1 => LayerKind::Group,
        2 => {
            let tileset = cursor.dword()?;
            if sprite.tileset(tileset).is_none() {
                return fail(
                    start,
                    format!(
                        "tilemap layer \"{name}\" uses tileset {tileset}, which the file does not have"
                    ),
                );
            }
            LayerKind::Tilemap { tileset }
        }
        other => {
            return fail(
                start + 2,
                format!("layer \"{name}\" has unknown type {other}"),
            );
        }
    };
    let uuid = if sprite.header.flags & HEADER_LAYER_UUIDS != 0 {
        let mut uuid = [0; 16];
        uuid.copy_from_slice(cursor.take(16)?);
        Some(uuid)
    } else {
        None
    };
    let level = usize::from(child_level);
    let parent = match level.checked_sub(1) {
        None => None,
        Some(above) => match state.open_layers.get(above) {
            Some(&group) if sprite.layers[group].kind == LayerKind::Group => Some(group),
            _ => {
                return fail(
                    start + 4,
                    format!(
                        "layer \"{name}\" is nested {} deep under no group",
                        crate::text::count(usize::from(level), "level")
                    ),
                );
            }
        },
    };
    // As Aseprite reads it: opacity and blend mode apply to image and tilemap layers, to
    // groups only when the header says groups composite apart, and never to the background.
    let background = flags & layer_flags::BACKGROUND != 0;
    let groups_apart = sprite.header.flags & HEADER_COMPOSITE_GROUPS != 0;
    let blends = !background && (kind != LayerKind::Group || groups_apart);
    let opacity_valid = blends && sprite.header.flags & HEADER_LAYER_OPACITY != 0;
    let index = sprite.layers.len();
    state.open_layers.truncate(level);
    state.open_layers.push(index);
    if flags & layer_flags::REFERENCE != 0 && flags & layer_flags::VISIBLE != 0 {
        let note = format!("reference layer \"{name}\" is not drawn (Aseprite does not export it)");
        sprite.notes.push((start, note));
    }
    sprite.layers.push(Layer {
        flags,
        kind,
        child_level,
        parent,
        blend_code,
        opacity: if opacity_valid { stored_opacity } else { 255 },
        effective_blend: if blends { blend_code } else { 0 },
        name,
        uuid,
        user_data: None,
    });
    state.attach = Attach::Layer(index);
    Ok(())
}

/// A cel chunk. A linked cel is resolved to the cel it shows, as Aseprite does when reading;
/// a link to a frame without a cel on that layer gives no cel.
fn cel(
    cursor: &mut Cursor,
    frame: u16,
    sprite: &mut Sprite,
    state: &mut State,
) -> Result<(), ParseError> {
    let start = cursor.at;
    let layer = cursor.word()?;
    let x = cursor.short_int()?;
    let y = cursor.short_int()?;
    let opacity = cursor.byte()?;
    let kind = cursor.word()?;
    let z_index = cursor.short_int()?;
    cursor.skip(5)?;
    let Some(layer_kind) = sprite.layers.get(usize::from(layer)).map(|l| l.kind) else {
        return fail(
            start,
            format!(
                "a cel is on layer {layer}, but the file has {}",
                crate::text::count(sprite.layers.len(), "layer")
            ),
        );
    };
    let depth = sprite.header.depth;
    let content = match kind {
        CEL_RAW | CEL_COMPRESSED => {
            let width = cursor.word()?;
            let height = cursor.word()?;
            let size = u64::from(width) * u64::from(height) * depth.bytes_per_pixel() as u64;
            let what = format!("a {width}x{height} cel");
            let data = raw_or_inflated(cursor, kind == CEL_COMPRESSED, size, start, &what)?;
            CelContent::Image(Pixels {
                width,
                height,
                data,
            })
        }
        CEL_LINKED => {
            let target = cursor.word()?;
            if target >= sprite.header.frames {
                return fail(
                    start + 16,
                    format!(
                        "a linked cel shows frame {target}, but the file has {}",
                        crate::text::count(usize::from(sprite.header.frames), "frame")
                    ),
                );
            }
            let shown = sprite
                .cels
                .iter()
                .rposition(|c| c.frame == target && c.layer == layer)
                .map(|i| match sprite.cels[i].content {
                    CelContent::Linked(source) => source,
                    _ => i,
                });
            match shown {
                Some(source) => CelContent::Linked(source),
                None => {
                    let note = format!(
                        "a linked cel of frame {frame} shows frame {target}, which has no cel on layer {layer}: it is empty"
                    );
                    sprite.notes.push((start, note));
                    state.attach = Attach::Nothing;
                    return Ok(());
                }
            }
        }
        CEL_TILEMAP => {
            if !matches!(layer_kind, LayerKind::Tilemap { .. }) {
                return fail(
                    start + 7,
                    format!("a tilemap cel is on layer {layer}, which is not a tilemap layer"),
                );
            }
            CelContent::Tilemap(tiles(cursor, start)?)
        }
        other => return fail(start + 7, format!("a cel has unknown type {other}")),
    };
    // Aseprite keeps no cel on a group.
    if layer_kind == LayerKind::Group {
        state.attach = Attach::Nothing;
        return Ok(());
    }
    state.attach = Attach::Cel(sprite.cels.len());
    sprite.cels.push(Cel {
        frame,
        layer,
        x,
        y,
        opacity,
        z_index,
        content,
        extra: None,
        user_data: None,
    });
    Ok(())
}

/// A compressed tilemap: its size, tile format, masks and tiles.
fn tiles(cursor: &mut Cursor, start: usize) -> Result<Tiles, ParseError> {
    let width = cursor.word()?;
    let height = cursor.word()?;
    let bits = cursor.word()?;
    let id_mask = cursor.dword()?;
    let x_flip = cursor.dword()?;
    let y_flip = cursor.dword()?;
    let d_flip = cursor.dword()?;
    cursor.skip(10)?;
    let bytes_per_tile = match bits {
        8 | 16 | 32 => usize::from(bits / 8),
        other => {
            return fail(
                start + 20,
                format!("a tilemap cel has {other} bits per tile (8, 16 or 32)"),
            );
        }
    };
    let count = u64::from(width) * u64::from(height);
    let what = format!("a {width}x{height} tilemap");
    let data = inflate(cursor.rest(), count * bytes_per_tile as u64, start, &what)?;
    let tiles = data
        .chunks_exact(bytes_per_tile)
        .map(|tile| match tile {
            [a] => u32::from(*a),
            [a, b] => u32::from(u16::from_le_bytes([*a, *b])),
            [a, b, c, d] => u32::from_le_bytes([*a, *b, *c, *d]),
            _ => 0,
        })
        .collect();
    Ok(Tiles {
        width,
        height,
        bits,
        id_mask,
        x_flip,
        y_flip,
        d_flip,
        tiles,
    })
}

fn cel_extra(cursor: &mut Cursor, sprite: &mut Sprite, state: &State) -> Result<(), ParseError> {
    let flags = cursor.dword()?;
    let bounds = [
        cursor.long()?,
        cursor.long()?,
        cursor.long()?,
        cursor.long()?,
    ];
    if let Attach::Cel(index) = state.attach
        && let Some(cel) = sprite.cels.get_mut(index)
    {
        cel.extra = Some(CelExtra { flags, bounds });
    }
    Ok(())
}

/// The colour profile. ICC profiles and a custom gamma only change how colours are shown on
/// screen, never the stored pixels: they are kept as read, not applied, and the user told.
fn color_profile(cursor: &mut Cursor, sprite: &mut Sprite) -> Result<(), ParseError> {
    let start = cursor.at;
    let kind = cursor.word()?;
    let flags = cursor.word()?;
    let gamma = cursor.long()?;
    cursor.skip(8)?;
    let icc_length = if kind == 2 {
        let length = cursor.dword()?;
        cursor.skip(length as usize)?;
        let note = "the embedded ICC colour profile is not applied: colours are shown as sRGB";
        sprite.notes.push((start, note.to_string()));
        Some(length)
    } else {
        None
    };
    if flags & 1 != 0 {
        let note = "the custom gamma of the colour profile is not applied";
        sprite.notes.push((start + 2, note.to_string()));
    }
    sprite.color_profile = Some(ColorProfile {
        kind,
        flags,
        gamma,
        icc_length,
    });
    Ok(())
}

fn external_files(cursor: &mut Cursor, sprite: &mut Sprite) -> Result<(), ParseError> {
    let count = cursor.dword()?;
    cursor.skip(8)?;
    // Each entry takes at least 14 bytes, so the loop ends with the chunk.
    for _ in 0..count {
        let id = cursor.dword()?;
        let kind = cursor.byte()?;
        cursor.skip(7)?;
        let name = cursor.string()?;
        sprite.external_files.push(ExternalFile { id, kind, name });
    }
    Ok(())
}

fn tags(cursor: &mut Cursor, sprite: &mut Sprite, state: &mut State) -> Result<(), ParseError> {
    let count = cursor.word()?;
    cursor.skip(8)?;
    let mut tags = Vec::with_capacity(usize::from(count).min(cursor.left() / 19));
    for _ in 0..count {
        let from = cursor.word()?;
        let to = cursor.word()?;
        let direction_at = cursor.at;
        let direction = match cursor.byte()? {
            0 => TagDirection::Forward,
            1 => TagDirection::Reverse,
            2 => TagDirection::PingPong,
            3 => TagDirection::PingPongReverse,
            other => return fail(direction_at, format!("unknown tag direction {other}")),
        };
        let repeat = cursor.word()?;
        cursor.skip(6)?;
        let color = cursor.take(3)?;
        let color = [color[0], color[1], color[2]];
        cursor.skip(1)?;
        let name = cursor.string()?;
        tags.push(Tag {
            from,
            to,
            direction,
            repeat,
            color,
            name,
            user_data: None,
        });
    }
    // Aseprite adds the tags of every tags chunk; the user data chunks that follow describe
    // this chunk's tags in turn.
    state.attach = Attach::Tag(sprite.tags.len());
    sprite.tags.extend(tags);
    Ok(())
}

/// The new palette chunk: it resizes the palette and sets a range of entries, from its frame on.
fn palette(
    cursor: &mut Cursor,
    frame: u16,
    sprite: &mut Sprite,
    state: &mut State,
) -> Result<(), ParseError> {
    let start = cursor.at;
    let size = cursor.dword()?;
    let first = cursor.dword()?;
    let last = cursor.dword()?;
    cursor.skip(8)?;
    if size > MAX_PALETTE || first > last || last >= size {
        return fail(
            start,
            format!("a palette of {size} colours sets entries {first} to {last}"),
        );
    }
    let mut colors = sprite.palette(usize::from(frame)).to_vec();
    colors.resize(size as usize, [0, 0, 0, 255]);
    for entry in &mut colors[first as usize..=last as usize] {
        let flags = cursor.word()?;
        let rgba = cursor.take(4)?;
        *entry = [rgba[0], rgba[1], rgba[2], rgba[3]];
        if flags & 1 != 0 {
            cursor.string()?;
        }
    }
    state.new_palette_seen = true;
    set_palette(sprite, frame, colors, state);
    Ok(())
}

/// The old palette chunks (0x0004 with 8-bit and 0x0011 with 6-bit channels): packets of
/// entries to skip and entries to set. Ignored once a new palette chunk was seen.
fn old_palette(
    cursor: &mut Cursor,
    six_bits: bool,
    frame: u16,
    sprite: &mut Sprite,
    state: &mut State,
) -> Result<(), ParseError> {
    let packets = cursor.word()?;
    let mut colors = sprite.palette(usize::from(frame)).to_vec();
    let mut index = 0usize;
    // Each packet takes at least 2 bytes, so the loop ends with the chunk.
    for _ in 0..packets {
        index += usize::from(cursor.byte()?);
        let count = match cursor.byte()? {
            0 => 256,
            n => usize::from(n),
        };
        for _ in 0..count {
            let rgb = cursor.take(3)?;
            let channel = |v: u8| if six_bits { scale_6_bits(v) } else { v };
            let color = [channel(rgb[0]), channel(rgb[1]), channel(rgb[2]), 255];
            // Aseprite's old palettes hold 256 entries; an index past them is dropped.
            if index < 256 {
                if colors.len() <= index {
                    colors.resize(index + 1, [0, 0, 0, 255]);
                }
                colors[index] = color;
            }
            index += 1;
        }
    }
    if !state.new_palette_seen {
        set_palette(sprite, frame, colors, state);
    }
    Ok(())
}

/// A 6-bit channel (0-63) as 8 bits, as Aseprite scales it.
fn scale_6_bits(value: u8) -> u8 {
    let value = value & 63;
    (value << 2) | (value >> 4)
}

fn set_palette(sprite: &mut Sprite, frame: u16, colors: Vec<[u8; 4]>, state: &mut State) {
    match sprite.palettes.last_mut() {
        Some(palette) if palette.frame == frame => palette.colors = colors,
        _ => sprite.palettes.push(Palette { frame, colors }),
    }
    if frame == 0 {
        state.attach = Attach::Sprite;
    }
}

fn attach_user_data(
    cursor: &mut Cursor,
    sprite: &mut Sprite,
    state: &mut State,
) -> Result<(), ParseError> {
    let data = user_data(cursor)?;
    let slot: Option<&mut Option<UserData>> = match state.attach {
        Attach::Nothing | Attach::Tiles => None,
        Attach::Sprite => Some(&mut sprite.user_data),
        Attach::Layer(i) => sprite.layers.get_mut(i).map(|l| &mut l.user_data),
        Attach::Cel(i) => sprite.cels.get_mut(i).map(|c| &mut c.user_data),
        Attach::Tag(i) => {
            state.attach = Attach::Tag(i + 1);
            sprite.tags.get_mut(i).map(|t| &mut t.user_data)
        }
        Attach::Slice(i) => sprite.slices.get_mut(i).map(|s| &mut s.user_data),
        Attach::Tileset(i) => {
            state.attach = Attach::Tiles;
            sprite.tilesets.get_mut(i).map(|t| &mut t.user_data)
        }
    };
    if let Some(slot) = slot {
        *slot = Some(data);
    }
    Ok(())
}

fn slice(cursor: &mut Cursor, sprite: &mut Sprite, state: &mut State) -> Result<(), ParseError> {
    let count = cursor.dword()?;
    let flags = cursor.dword()?;
    cursor.skip(4)?;
    let name = cursor.string()?;
    let (nine_patch, has_pivot) = (flags & 1 != 0, flags & 2 != 0);
    let key_size = 20 + if nine_patch { 16 } else { 0 } + if has_pivot { 8 } else { 0 };
    let mut keys = Vec::with_capacity((count as usize).min(cursor.left() / key_size));
    for _ in 0..count {
        let frame = cursor.dword()?;
        let origin = (cursor.long()?, cursor.long()?);
        let size = (cursor.dword()?, cursor.dword()?);
        let center = if nine_patch {
            Some((
                cursor.long()?,
                cursor.long()?,
                cursor.dword()?,
                cursor.dword()?,
            ))
        } else {
            None
        };
        let pivot = if has_pivot {
            Some((cursor.long()?, cursor.long()?))
        } else {
            None
        };
        keys.push(SliceKey {
            frame,
            origin,
            size,
            center,
            pivot,
        });
    }
    state.attach = Attach::Slice(sprite.slices.len());
    sprite.slices.push(Slice {
        name,
        flags,
        keys,
        user_data: None,
    });
    Ok(())
}

fn tileset(cursor: &mut Cursor, sprite: &mut Sprite, state: &mut State) -> Result<(), ParseError> {
    let start = cursor.at;
    let id = cursor.dword()?;
    let flags = cursor.dword()?;
    let count = cursor.dword()?;
    let tile_width = cursor.word()?;
    let tile_height = cursor.word()?;
    let base_index = cursor.short_int()?;
    cursor.skip(14)?;
    let name = cursor.string()?;
    let external = if flags & 1 != 0 {
        Some((cursor.dword()?, cursor.dword()?))
    } else {
        None
    };
    let pixels = if flags & 2 != 0 {
        let length = cursor.dword()? as usize;
        // Counted in 64 bits: count x width x height can pass 32 bits.
        let size = u64::from(count)
            * u64::from(tile_width)
            * u64::from(tile_height)
            * sprite.header.depth.bytes_per_pixel() as u64;
        let what = format!("a tileset of {count} {tile_width}x{tile_height} tiles");
        let compressed = cursor.take(length)?;
        let data = inflate(compressed, size, start, &what)?;
        Some(data)
    } else {
        // Only Aseprite opens the other file: its tiles are not drawn, and the user is told.
        let file = external
            .and_then(|(entry, _)| sprite.external_files.iter().find(|f| f.id == entry))
            .map_or_else(|| "another file".to_string(), |f| format!("\"{}\"", f.name));
        let note = format!("tileset \"{name}\" keeps its tiles in {file}: its tiles are not drawn");
        sprite.notes.push((start, note));
        None
    };
    state.attach = Attach::Tileset(sprite.tilesets.len());
    sprite.tilesets.push(Tileset {
        id,
        flags,
        count,
        tile_width,
        tile_height,
        base_index,
        name,
        external,
        pixels,
        user_data: None,
    });
    Ok(())
}
