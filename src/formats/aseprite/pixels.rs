//! Cel and tileset pixels out of their chunk: raw, or zlib-inflated no further than the size
//! the chunk declares, after checking that size against what the compressed bytes could hold.

use super::cursor::{Cursor, ParseError, fail};
use super::scan::MAX_INFLATE_RATIO;
use std::io::Read;

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
    let mut pixels = Vec::with_capacity(size as usize);
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
