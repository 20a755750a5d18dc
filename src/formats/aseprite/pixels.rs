//! Cel and tileset pixels out of their chunk: raw, or zlib-inflated no further than the size
//! the chunk declares, after checking that size against what the compressed bytes could hold.

use super::cursor::{Cursor, ParseError, fail};
use super::file::{
    CEL_COMPRESSED, CEL_TILEMAP, CHUNK_CEL, CHUNK_HEADER_SIZE, CHUNK_TILESET, dword, word,
};
use super::scan::MAX_INFLATE_RATIO;
use super::sprite::ColorDepth;
use crate::formats::input::{MAX_PICTURE_BYTES, pictures_too_large};
use std::io::Read;
use std::ops::Range;

/// A cel whose pixels are stored as they are.
const CEL_RAW: u16 = 0;

/// Refuses a file whose cels, tilemaps and tilesets together would decode to more than the
/// one budget of a file's pictures ([`MAX_PICTURE_BYTES`]), before any of them is inflated:
/// each is checked against zlib's ratio alone, so sixteen layers of large, well-compressed
/// cels in a few kilobytes would otherwise be held in full. `chunks` are the file's chunks
/// (header included) in file order; linked cels take no pixels of their own.
pub fn check_picture_budget(
    bytes: &[u8],
    chunks: impl Iterator<Item = Range<usize>>,
    depth: ColorDepth,
) -> Result<(), ParseError> {
    let mut needed: u64 = 0;
    for chunk in chunks {
        let data = chunk.start + CHUNK_HEADER_SIZE;
        let field =
            |offset: usize| word(bytes, data + offset).filter(|_| data + offset + 2 <= chunk.end);
        let wide =
            |offset: usize| dword(bytes, data + offset).filter(|_| data + offset + 4 <= chunk.end);
        // What the chunk holds: a picture it could not hold even at zlib's best ratio is
        // refused when its chunk is read, with its own sentence, and is not counted here.
        let held = chunk.end.saturating_sub(data) as u64;
        let (size, what) = match word(bytes, chunk.start + 4) {
            Some(CHUNK_CEL) => {
                let (Some(kind), Some(width), Some(height)) = (field(7), field(16), field(18))
                else {
                    continue;
                };
                let pixels = u64::from(width) * u64::from(height);
                match kind {
                    CEL_RAW | CEL_COMPRESSED => (
                        pixels * depth.bytes_per_pixel() as u64,
                        format!("a {width}x{height} cel"),
                    ),
                    // The tiles are held as 32-bit numbers, whatever their size in the file.
                    CEL_TILEMAP => (pixels * 4, format!("a {width}x{height} tilemap")),
                    _ => continue,
                }
            }
            Some(CHUNK_TILESET) => {
                let (Some(flags), Some(count), Some(width), Some(height)) =
                    (wide(4), wide(8), field(12), field(14))
                else {
                    continue;
                };
                if flags & 2 == 0 {
                    continue;
                }
                (
                    u64::from(count)
                        * u64::from(width)
                        * u64::from(height)
                        * depth.bytes_per_pixel() as u64,
                    format!("a tileset of {count} {width}x{height} tiles"),
                )
            }
            _ => continue,
        };
        if size > held * MAX_INFLATE_RATIO + SMALL_IMAGE_BYTES {
            continue;
        }
        needed = needed.saturating_add(size);
        if needed > MAX_PICTURE_BYTES {
            return fail(data, pictures_too_large(&what, needed));
        }
    }
    Ok(())
}

/// Below this, a declared size is never doubted (tiny compressed streams of blank pixels).
const SMALL_IMAGE_BYTES: u64 = 64 * 1024;

/// Exactly `size` bytes of pixels: the rest of the chunk as is (`compressed` false) or
/// inflated. `start` is the chunk's data offset (where errors point), `what` names the picture.
pub fn raw_or_inflated(
    cursor: &mut Cursor,
    compressed: bool,
    size: u64,
    start: usize,
    what: &str,
) -> Result<Vec<u8>, ParseError> {
    if compressed {
        return inflate(cursor.rest(), size, start, what);
    }
    let held = cursor.left() as u64;
    if held < size {
        return fail(
            start,
            format!(
                "{what} holds {held} bytes of pixels, fewer than the {size} its size needs: the file is damaged"
            ),
        );
    }
    Ok(cursor.take(size as usize)?.to_vec())
}

/// Inflates `compressed` into exactly `size` bytes. A size the compressed bytes could not
/// fill even at zlib's best ratio is refused before anything is reserved; a stream that ends
/// (or breaks) before `size` bytes is refused too.
pub fn inflate(
    compressed: &[u8],
    size: u64,
    start: usize,
    what: &str,
) -> Result<Vec<u8>, ParseError> {
    let held = compressed.len() as u64;
    if size > held * MAX_INFLATE_RATIO + SMALL_IMAGE_BYTES {
        return fail(
            start,
            format!(
                "{what} needs {size} bytes but its chunk holds only {held}: the file is damaged"
            ),
        );
    }
    let mut pixels = Vec::new();
    if pixels.try_reserve_exact(size as usize).is_err() {
        return fail(
            start,
            format!("there is not enough memory for {what} ({size} bytes of pixels)"),
        );
    }
    let mut inflater = flate2::read::ZlibDecoder::new(compressed).take(size);
    let inflated = inflater.read_to_end(&mut pixels);
    if inflated.is_err() || (pixels.len() as u64) < size {
        return fail(
            start,
            format!(
                "{what} holds {} bytes of pixels, fewer than the {size} its size needs: the file is damaged",
                pixels.len()
            ),
        );
    }
    Ok(pixels)
}
