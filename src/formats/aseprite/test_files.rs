//! Aseprite files made by hand for the parser's and the compositor's tests: a header, frames
//! of chunks, and the chunks themselves, written field by field as the specification lists
//! them.

use super::file::{Out, chunk};
use std::io::Write;

// Chunk types.
pub const LAYER: u16 = 0x2004;
pub const CEL: u16 = 0x2005;
pub const CEL_EXTRA: u16 = 0x2006;
pub const PROFILE: u16 = 0x2007;
pub const EXTERNAL: u16 = 0x2008;
pub const TAGS: u16 = 0x2018;
pub const PALETTE: u16 = 0x2019;
pub const USER_DATA: u16 = 0x2020;
pub const SLICE: u16 = 0x2022;
pub const TILESET: u16 = 0x2023;

/// A file of `depth` bits, 4x4 pixels, with header `flags`, one frame per entry of `frames`.
pub fn file(depth: u16, flags: u32, frames: &[Vec<Vec<u8>>]) -> Vec<u8> {
    file_with_transparent(depth, flags, 0, frames)
}

/// [`file`] whose transparent palette index is `transparent`.
pub fn file_with_transparent(
    depth: u16,
    flags: u32,
    transparent: u8,
    frames: &[Vec<Vec<u8>>],
) -> Vec<u8> {
    let mut out = Out::default();
    out.dword(0);
    out.word(0xA5E0);
    out.word(frames.len() as u16);
    out.word(4);
    out.word(4);
    out.word(depth);
    out.dword(flags);
    out.word(100);
    out.zeros(8);
    out.byte(transparent);
    out.zeros(3);
    out.word(0);
    out.byte(1);
    out.byte(2);
    out.word(3u16);
    out.word(5u16);
    out.word(16);
    out.word(16);
    out.zeros(84);
    assert_eq!(out.0.len(), 128);
    for chunks in frames {
        let body: usize = chunks.iter().map(Vec::len).sum();
        out.dword((16 + body) as u32);
        out.word(0xF1FA);
        out.word(chunks.len() as u16);
        out.word(0);
        out.zeros(2);
        out.dword(0);
        for chunk in chunks {
            out.0.extend_from_slice(chunk);
        }
    }
    let length = out.0.len() as u32;
    out.0[0..4].copy_from_slice(&length.to_le_bytes());
    out.0
}

/// A layer chunk named "L"; `extra` follows the name (a tileset index, a UUID).
pub fn layer(flags: u16, kind: u16, level: u16, blend: u16, opacity: u8, extra: &[u8]) -> Vec<u8> {
    let mut out = Out::default();
    out.word(flags);
    out.word(kind);
    out.word(level);
    out.zeros(4);
    out.word(blend);
    out.byte(opacity);
    out.zeros(3);
    out.string("L");
    out.0.extend_from_slice(extra);
    chunk(LAYER, &out.0)
}

/// A cel chunk's fields before its content.
pub fn cel_fields(layer: u16, x: i16, y: i16, opacity: u8, kind: u16, z: i16) -> Out {
    let mut out = Out::default();
    out.word(layer);
    out.word(x as u16);
    out.word(y as u16);
    out.byte(opacity);
    out.word(kind);
    out.word(z as u16);
    out.zeros(5);
    out
}

/// `bytes` zlib-compressed.
pub fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A cel of `pixels` at (1, -2), opacity 200, z-index 1, raw or compressed.
pub fn image_cel(layer: u16, compressed: bool, size: (u16, u16), pixels: &[u8]) -> Vec<u8> {
    let fields = cel_fields(layer, 1, -2, 200, if compressed { 2 } else { 0 }, 1);
    cel_of(fields, compressed, size, pixels)
}

/// A compressed cel of `pixels` at (`x`, `y`) with `opacity` and z-index `z`.
pub fn placed_cel(
    layer: u16,
    (x, y): (i16, i16),
    opacity: u8,
    z: i16,
    size: (u16, u16),
    pixels: &[u8],
) -> Vec<u8> {
    cel_of(cel_fields(layer, x, y, opacity, 2, z), true, size, pixels)
}

fn cel_of(mut out: Out, compressed: bool, size: (u16, u16), pixels: &[u8]) -> Vec<u8> {
    out.word(size.0);
    out.word(size.1);
    if compressed {
        out.0.extend_from_slice(&zlib(pixels));
    } else {
        out.0.extend_from_slice(pixels);
    }
    chunk(CEL, &out.0)
}

/// A tileset of `count` 2x1 tiles held in the file (tile 0 empty), linked to tileset 8 of
/// external file 3.
pub fn tileset_chunk(id: u32, count: u32, pixels: &[u8]) -> Vec<u8> {
    sized_tileset_chunk(id, count, (2, 1), pixels)
}

/// [`tileset_chunk`] of tiles of `size`.
pub fn sized_tileset_chunk(id: u32, count: u32, size: (u16, u16), pixels: &[u8]) -> Vec<u8> {
    let mut out = Out::default();
    out.dword(id);
    out.dword(2 | 4 | 1);
    out.dword(count);
    out.word(size.0);
    out.word(size.1);
    out.word(1);
    out.zeros(14);
    out.string("tiles");
    out.dword(3);
    out.dword(8);
    let compressed = zlib(pixels);
    out.dword(compressed.len() as u32);
    out.0.extend_from_slice(&compressed);
    chunk(TILESET, &out.0)
}

/// A user data chunk of `flags` (colour 1, 2, 3, 4).
pub fn user_data_chunk(flags: u32, text: &str, properties: &[u8]) -> Vec<u8> {
    let mut out = Out::default();
    out.dword(flags);
    if flags & 1 != 0 {
        out.string(text);
    }
    if flags & 2 != 0 {
        out.0.extend_from_slice(&[1, 2, 3, 4]);
    }
    if flags & 4 != 0 {
        out.dword(properties.len() as u32 + 4);
        out.0.extend_from_slice(properties);
    }
    chunk(USER_DATA, &out.0)
}

/// A compressed tilemap cel of `tiles` (32-bit words, `width` a row) at (0, 0) with Aseprite's
/// masks: id 0x1fffffff, x flip 0x20000000, y flip 0x40000000, diagonal 0x80000000.
pub fn tilemap_cel(layer: u16, width: u16, tiles: &[u32]) -> Vec<u8> {
    let mut out = cel_fields(layer, 0, 0, 255, 3, 0);
    out.word(width);
    out.word((tiles.len() / usize::from(width)) as u16);
    out.word(32);
    out.dword(0x1fff_ffff);
    out.dword(0x2000_0000);
    out.dword(0x4000_0000);
    out.dword(0x8000_0000);
    out.zeros(10);
    let words: Vec<u8> = tiles.iter().flat_map(|t| t.to_le_bytes()).collect();
    out.0.extend_from_slice(&zlib(&words));
    chunk(CEL, &out.0)
}

/// A new palette chunk of `colors` (RGBA), from index 0.
pub fn palette_chunk(colors: &[[u8; 4]]) -> Vec<u8> {
    let mut out = Out::default();
    out.dword(colors.len() as u32);
    out.dword(0);
    out.dword(colors.len() as u32 - 1);
    out.zeros(8);
    for color in colors {
        out.word(0);
        out.0.extend_from_slice(color);
    }
    chunk(PALETTE, &out.0)
}
