//! What every part of the format shares about an Aseprite file's layout: the header's size
//! and magic number, how a tag plays, and the limits that tie what reading may allocate to the
//! file's length.

/// The size of the file header.
pub const HEADER_SIZE: usize = 128;
const FILE_MAGIC: u16 = 0xA5E0;
/// zlib inflates at most 1032 bytes per input byte; a size declared beyond that (with room
/// for tiny images) cannot be real, and refusing it bounds what reading reserves.
pub const MAX_INFLATE_RATIO: u64 = 1100;
/// The composited frames are kept in memory: canvas bytes times frames stay under this, and
/// under [`SMALL_CANVAS_BYTES`] plus [`MAX_INFLATE_RATIO`] times the file's length (a picture
/// can hold no more than the file's compressed pixels can fill, beyond a blank canvas).
pub const COMPOSITE_LIMIT: u64 = 512 * 1024 * 1024;
/// What a file of any length may composite (a blank 4096x4096 canvas).
pub const SMALL_CANVAS_BYTES: u64 = 64 * 1024 * 1024;

/// How a tag plays, as the file says (Aseprite's `AniDir`): the model's play direction.
pub use crate::model::PlayDirection as TagDirection;

/// True when `bytes` start like an Aseprite file.
pub fn has_magic(bytes: &[u8]) -> bool {
    bytes.get(4..6) == Some(&FILE_MAGIC.to_le_bytes()[..])
}
