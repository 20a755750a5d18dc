//! The ways the fuzz tests change a real file's bytes before reading it.

use proptest::sample::Index;

/// What an edit of [`edit_bytes`] does at its place.
const REPLACE: u8 = 0;
const INSERT: u8 = 1;

/// Each edit `(place, byte, kind)` changes `bytes` at `place` (anywhere from the start to just
/// past the end): kind 0 replaces the byte there with `byte`, 1 inserts `byte`, any other
/// removes the byte there. An edit past the end that has nothing to replace or remove is
/// skipped.
pub fn edit_bytes(bytes: &mut Vec<u8>, edits: &[(Index, u8, u8)]) {
    for (place, byte, kind) in edits {
        let at = place.index(bytes.len() + 1);
        match *kind {
            INSERT => bytes.insert(at, *byte),
            REPLACE if at < bytes.len() => bytes[at] = *byte,
            REPLACE => {}
            _ if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => {}
        }
    }
}

/// Overwrites one byte per edit `(position, byte)` of a binary file, then keeps `keep`
/// thousandths of it (all at 1000). A position below 2^31 lands in the first `head` bytes,
/// where the headers and tables are; a larger one anywhere in the file.
pub fn overwrite_and_cut(
    mut bytes: Vec<u8>,
    edits: &[(u32, u8)],
    keep: u16,
    head: usize,
) -> Vec<u8> {
    let len = bytes.len();
    for &(position, value) in edits {
        let at = if position < 0x8000_0000 {
            position as usize % len.min(head)
        } else {
            position as usize % len
        };
        bytes[at] = value;
    }
    if keep < 1000 {
        bytes.truncate(len * keep as usize / 1000);
    }
    bytes
}
